// segmented_prefix_plan: how DeviceSegmentedReduce and DeviceSegmentedScan get P, the prefix sums of their segments'
// lengths (agent/agent_segmented_walk.cuh): from the fixed segment size (no work), from each block's own scan of the
// lengths (up to LOCAL_PREFIX_SEGMENTS segments), from one block's scan of them into temporary storage (up to
// SMALL_PREFIX_SEGMENTS), or from DispatchScan over the lengths into temporary storage (the words of both also flag
// offsets that do not lie back to back).
#pragma once

#include <strata/agent/agent_segmented_walk.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_scan.cuh>
#include <strata/util/device.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented
{
// Up to this many segments (more than LOCAL_PREFIX_SEGMENTS), one block of SMALL_PREFIX_THREADS threads scans the
// lengths into P's words (lengths_scan): a single-pass scan over so few tiles costs its launches and look-backs for
// little work.
constexpr int SMALL_PREFIX_SEGMENTS = 8192;
constexpr int SMALL_PREFIX_THREADS  = 512;

STRATA_KERNELS_BEGIN

// words[0] = 0 (P(0), no break) and words[s + 1] the inclusive scan of the lengths under length_plus, for the
// count's segments (at most num_segments <= SMALL_PREFIX_SEGMENTS).
template <typename LengthsT, typename OffsetT, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(SMALL_PREFIX_THREADS, 1) void
DeviceSegmentedSmallPrefixKernel(LengthsT lengths, position_t* words, OffsetT num_segments, CountT count)
{
  using ScanT = lengths_scan<SMALL_PREFIX_THREADS, SMALL_PREFIX_SEGMENTS / SMALL_PREFIX_THREADS>;
  __shared__ typename ScanT::TempStorage storage;

  // The main kernel may be launched now; it waits for this grid before reading P.
  GridLaunchDependents();
  GridDependencyWait();
  ScanT::run(storage, lengths, static_cast<position_t>(count.resolve(num_segments)),
             [&](position_t i, position_t word) {
               words[i] = word;
             });
}

STRATA_KERNELS_END

// OffsetT: the type of the segment count (its bound for a count in device memory); CountT: host_count or
// item_count.
template <typename BeginOffsetIteratorT, typename EndOffsetIteratorT, typename OffsetT, typename CountT>
struct segmented_prefix_plan
{
  using LengthsT = length_iterator<BeginOffsetIteratorT, EndOffsetIteratorT>;
  // Segments of one size (the fixed-size forms) need no scan: P(s) = s * size.
  static constexpr bool FIXED = cuda::std::is_same_v<BeginOffsetIteratorT, fixed_offsets>;
  using PrefixT               = cuda::std::conditional_t<FIXED, fixed_prefix, scanned_prefix>;
  using ScanT                 = DispatchScan<LengthsT, position_t*, length_plus, scan::no_init, OffsetT, position_t,
                             scan::policy_hub<position_t, length_plus, static_cast<int>(sizeof(position_t))>, true,
                             scan::scanned_output, CountT>;

  LengthsT lengths;
  OffsetT num_segments;
  CountT count;
  // Whether the lengths are scanned into temporary storage (more than LOCAL_PREFIX_SEGMENTS, not of one size).
  bool scanned;
  // Whether one block scans them (DeviceSegmentedSmallPrefixKernel) instead of DispatchScan.
  bool small;
  // DispatchScan's temporary storage (Size()).
  size_t scan_bytes = 0;

  segmented_prefix_plan(BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, OffsetT segments,
                        CountT segment_count)
      : lengths(d_begin_offsets, d_end_offsets)
      , num_segments(segments)
      , count(segment_count)
      , scanned(!FIXED && static_cast<size_t>(segments) > static_cast<size_t>(LOCAL_PREFIX_SEGMENTS))
      , small(scanned && static_cast<size_t>(segments) <= static_cast<size_t>(SMALL_PREFIX_SEGMENTS))
  {}

  // Sizes the scan's temporary storage.
  cudaError_t Size(cudaStream_t stream)
  {
    if (!scanned || small)
    {
      return cudaSuccess;
    }
    return ScanT::Dispatch(nullptr, scan_bytes, lengths, static_cast<position_t*>(nullptr), length_plus{},
                           scan::no_init{}, num_segments, stream, scan::scanned_output{}, count);
  }

  // The words of P to reserve in temporary storage.
  size_t Words() const
  {
    return scanned ? static_cast<size_t>(num_segments) + 1 : 0;
  }

  // Enqueues what makes P into `words` (Words() of them) with the scan's storage, and returns in `prefix` how the
  // kernels read it.
  cudaError_t Run(position_t* words, void* scan_storage, const BeginOffsetIteratorT& d_begin_offsets, PrefixT& prefix,
                  cudaStream_t stream)
  {
    prefix = PrefixT{};
    if constexpr (FIXED)
    {
      prefix.size = d_begin_offsets.size;
      return cudaSuccess;
    }
    else
    {
      if (!scanned)
      {
        return cudaSuccess; // words null: each block scans the lengths itself
      }
      prefix.words = words;
      if (small)
      {
        return check_launch(Launch(dim3(1), dim3(SMALL_PREFIX_THREADS), stream,
                                   DeviceSegmentedSmallPrefixKernel<LengthsT, OffsetT, CountT>, lengths, words,
                                   num_segments, count),
                            stream);
      }
      // Word 0: P(0) = 0, no break; words 1.. the inclusive scan of the lengths.
      STRATA_RETURN_IF_ERROR(cudaMemsetAsync(words, 0, sizeof(position_t), stream));
      STRATA_RETURN_IF_ERROR(ScanT::Dispatch(scan_storage, scan_bytes, lengths, words + 1, length_plus{},
                                             scan::no_init{}, num_segments, stream, scan::scanned_output{}, count));
      return cudaSuccess;
    }
  }
};
} // namespace segmented
} // namespace detail
STRATA_NAMESPACE_END
