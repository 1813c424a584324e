// segmented_prefix_plan: how DeviceSegmentedReduce and DeviceSegmentedScan get P, the prefix sums of their segments'
// lengths (agent/agent_segmented_walk.cuh): from the fixed segment size (no work), from each block's own scan of the
// lengths (up to LOCAL_PREFIX_SEGMENTS segments), or from DispatchScan over the lengths into temporary storage (its
// words also flag offsets that do not lie back to back).
#pragma once

#include <strata/agent/agent_segmented_walk.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_scan.cuh>
#include <strata/util/error.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented
{
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
  // The scan's temporary storage (Size()).
  size_t scan_bytes = 0;

  segmented_prefix_plan(BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, OffsetT num_segments,
                        CountT count)
      : lengths(d_begin_offsets, d_end_offsets)
      , num_segments(num_segments)
      , count(count)
      , scanned(!FIXED && static_cast<size_t>(num_segments) > static_cast<size_t>(LOCAL_PREFIX_SEGMENTS))
  {}

  // Sizes the scan's temporary storage.
  cudaError_t Size(cudaStream_t stream)
  {
    if (!scanned)
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
      // Word 0: P(0) = 0, no break; words 1.. the inclusive scan of the lengths.
      STRATA_RETURN_IF_ERROR(cudaMemsetAsync(words, 0, sizeof(position_t), stream));
      STRATA_RETURN_IF_ERROR(ScanT::Dispatch(scan_storage, scan_bytes, lengths, words + 1, length_plus{},
                                             scan::no_init{}, num_segments, stream, scan::scanned_output{}, count));
      prefix.words = words;
      return cudaSuccess;
    }
  }
};
} // namespace segmented
} // namespace detail
STRATA_NAMESPACE_END
