// DispatchSegmentedReduce: DeviceSegmentedReduce's kernels and the host closure that sizes, checks and launches them.
//
// Three steps, none of which waits for the host: the segments' lengths are scanned into P (DispatchScan: P(0) = 0,
// P(s + 1) = P(s) + the length of segment s; the scan also tells whether the segments lie back to back; fixed-size
// segments skip it); one wave of blocks splits the merged list of items and segment ends evenly between its warps
// (AgentSegmentedReduce), writing every segment that starts and ends within one warp's share and a record of each
// part of a segment at a share's edge; one block combines the records in order into the segments that cross shares.
// The wave depends only on the device, so results are the same bits run to run.
#pragma once

#include <strata/agent/agent_segmented_reduce.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/dispatch_scan.cuh>
#include <strata/device/dispatch/tuning/tuning_segmented_reduce.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/even_share.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_reduce
{
// The words whose scan makes scanned_prefix's: the length of segment s (end[s] - begin[s], 0 where end <= begin) and,
// in bit 62, whether it breaks contiguity (ends before it begins, or does not begin where segment s - 1 ends).
template <typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
class length_iterator
{
public:
  using value_type        = position_t;
  using difference_type   = cuda::std::ptrdiff_t;
  using pointer           = void;
  using reference         = position_t;
  using iterator_category = cuda::std::random_access_iterator_tag;

  STRATA_HOST_DEVICE length_iterator(BeginOffsetIteratorT begin, EndOffsetIteratorT end, difference_type offset = 0)
      : begin_(begin)
      , end_(end)
      , offset_(offset)
  {}

  STRATA_HOST_DEVICE STRATA_FORCEINLINE position_t operator[](difference_type i) const
  {
    const difference_type s = offset_ + i;
    const position_t first  = static_cast<position_t>(begin_[s]);
    const position_t last   = static_cast<position_t>(end_[s]);
    const bool broken       = last < first || (s > 0 && first != static_cast<position_t>(end_[s - 1]));
    return (last > first ? last - first : position_t(0)) | (broken ? scanned_prefix::BREAK : position_t(0));
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE position_t operator*() const
  {
    return (*this)[0];
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE length_iterator operator+(difference_type n) const
  {
    return length_iterator(begin_, end_, offset_ + n);
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE length_iterator operator-(difference_type n) const
  {
    return length_iterator(begin_, end_, offset_ - n);
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE difference_type operator-(const length_iterator& other) const
  {
    return offset_ - other.offset_;
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE length_iterator& operator+=(difference_type n)
  {
    offset_ += n;
    return *this;
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE length_iterator& operator++()
  {
    ++offset_;
    return *this;
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE bool operator==(const length_iterator& other) const
  {
    return offset_ == other.offset_;
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE bool operator!=(const length_iterator& other) const
  {
    return offset_ != other.offset_;
  }

private:
  BeginOffsetIteratorT begin_;
  EndOffsetIteratorT end_;
  difference_type offset_;
};

// The offsets of segments of `size` items each, shifted by `shift` items (0: begins, size: ends).
struct fixed_offsets
{
  using value_type        = position_t;
  using difference_type   = cuda::std::ptrdiff_t;
  using pointer           = void;
  using reference         = position_t;
  using iterator_category = cuda::std::random_access_iterator_tag;

  position_t size;
  position_t shift;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE position_t operator[](difference_type s) const
  {
    return static_cast<position_t>(s) * size + shift;
  }
};

// Sums the lengths in the low 62 bits of scanned_prefix's words and keeps any break.
struct length_plus
{
  STRATA_HOST_DEVICE STRATA_FORCEINLINE position_t operator()(position_t a, position_t b) const
  {
    constexpr position_t LENGTH = scanned_prefix::BREAK - 1;
    return ((a & LENGTH) + (b & LENGTH)) | ((a | b) & scanned_prefix::BREAK);
  }
};

STRATA_KERNELS_BEGIN

// One wave: block b takes an even share of the merged steps (items and segment ends), and each of its W warps an even
// share of that, leaving its two edge records at d_records[2 (W b + w)] and [2 (W b + w) + 1].
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename PrefixT, typename AccumT, typename ReductionOpT, typename InitT, typename ItemsT, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedReducePolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::SegmentedReducePolicy::MIN_BLOCKS_PER_SM) void
DeviceSegmentedReduceKernel(InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorT d_begin_offsets,
                            PrefixT prefix, position_t num_segments, CountT count, record<AccumT>* d_records,
                            ReductionOpT op, InitT init)
{
  using Policy = typename MaxPolicyT::ActivePolicy::SegmentedReducePolicy;
  using Agent  = AgentSegmentedReduce<Policy, InputIteratorT, OutputIteratorT, BeginOffsetIteratorT, PrefixT, AccumT,
                                     ReductionOpT, InitT, ItemsT>;
  __shared__ typename Agent::TempStorage temp_storage;

  num_segments           = count.resolve(num_segments);
  const position_t steps = prefix(num_segments) + num_segments;
  const bool contiguous  = prefix.contiguous(num_segments);
  const position_t base  = contiguous && num_segments > 0 ? static_cast<position_t>(d_begin_offsets[0]) : 0;
  position_t first       = 0;
  position_t last        = 0;
  even_share<position_t>::make(steps, 1, static_cast<int>(gridDim.x)).range(blockIdx.x, first, last);
  Agent(temp_storage, d_in, d_out, d_begin_offsets, prefix, num_segments, contiguous, base, op, init)
    .ConsumeRange(first, last, d_records + 2 * (Policy::BLOCK_THREADS / 32) * blockIdx.x);
}

// One block: the records of all warps, in order, folded under the segmented operator; each segment that ends in a
// warp's share it did not start in gets the fold of its records.
template <int BLOCK_THREADS, typename OutputIteratorT, typename AccumT, typename ReductionOpT, typename InitT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(BLOCK_THREADS, 1) void
DeviceSegmentedReduceRecordsKernel(const record<AccumT>* d_records, int num_records, OutputIteratorT d_out,
                                   ReductionOpT op, InitT init)
{
  using PartialT   = partial<AccumT>;
  using BlockScanT = BlockScan<PartialT, BLOCK_THREADS>;
  using OutputT    = non_void_value_t<OutputIteratorT, AccumT>;
  __shared__ typename BlockScanT::TempStorage scan_storage;

  const partial_op<ReductionOpT> pop{op};
  PartialT carry{AccumT{}, false, false};
  for (int base = 0; base < num_records; base += BLOCK_THREADS)
  {
    const int i            = base + static_cast<int>(threadIdx.x);
    const record<AccumT> r = i < num_records ? d_records[i] : record<AccumT>{-1, PartialT{AccumT{}, false, false}};
    const PartialT element = r.segment >= 0 ? r.part : PartialT{AccumT{}, false, false};
    PartialT before;
    PartialT aggregate;
    BlockScanT(scan_storage).ExclusiveScan(element, before, carry, pop, aggregate);
    if (r.segment >= 0 && i % 2 == 0)
    {
      // A block's first record: the part of a segment that started before the block and ends in it.
      d_out[r.segment] = result_of<OutputT>(pop(before, element), init);
    }
    carry = pop(carry, aggregate);
    __syncthreads();
  }
}

STRATA_KERNELS_END
} // namespace segmented_reduce
} // namespace detail

// The dispatch closure of DeviceSegmentedReduce. OffsetT: the type of the segment count (its bound for a count in
// device memory); ItemsT: detail::segmented_reduce::plain_items or arg_items. PolicyHub defaults to the tuned hub.
template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
          typename OffsetT, typename ReductionOpT, typename InitT, typename AccumT,
          typename ItemsT    = detail::segmented_reduce::plain_items,
          typename PolicyHub = detail::segmented_reduce::policy_hub<detail::it_value_t<InputIteratorT>, AccumT>,
          typename CountT    = detail::host_count>
struct DispatchSegmentedReduce
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  OffsetT num_segments; // the count, or the bound of a count in device memory
  BeginOffsetIteratorT d_begin_offsets;
  EndOffsetIteratorT d_end_offsets;
  ReductionOpT op;
  InitT init;
  cudaStream_t stream;
  CountT count;
  int device;
  int ptx_version;

  using MaxPolicy  = typename PolicyHub::MaxPolicy;
  using position_t = detail::segmented_reduce::position_t;
  using LengthsT   = detail::segmented_reduce::length_iterator<BeginOffsetIteratorT, EndOffsetIteratorT>;
  // Segments of one size (the fixed-size forms) need no scan: P(s) = s * size.
  static constexpr bool FIXED = cuda::std::is_same_v<BeginOffsetIteratorT, detail::segmented_reduce::fixed_offsets>;
  using PrefixT =
    cuda::std::conditional_t<FIXED, detail::segmented_reduce::fixed_prefix, detail::segmented_reduce::scanned_prefix>;
  using ScanT = DispatchScan<
    LengthsT, position_t*, detail::segmented_reduce::length_plus, detail::scan::no_init, OffsetT, position_t,
    detail::scan::policy_hub<position_t, detail::segmented_reduce::length_plus, static_cast<int>(sizeof(position_t))>,
    true, detail::scan::scanned_output, CountT>;
  using RecordT                        = detail::segmented_reduce::record<AccumT>;
  static constexpr int RECORDS_THREADS = 256;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy = typename ActivePolicyT::SegmentedReducePolicy;
    if (num_segments == OffsetT(0))
    {
      if (d_temp_storage == nullptr)
      {
        temp_storage_bytes = detail::temporary_storage::EMPTY_SIZE;
      }
      return cudaSuccess;
    }

    const auto kernel =
      detail::segmented_reduce::DeviceSegmentedReduceKernel<MaxPolicy, InputIteratorT, OutputIteratorT,
                                                            BeginOffsetIteratorT, PrefixT, AccumT, ReductionOpT, InitT,
                                                            ItemsT, CountT>;
    size_t wave = 0;
    STRATA_RETURN_IF_ERROR(WaveBlocks(wave, kernel, Policy::BLOCK_THREADS, device, 0, Policy::MIN_BLOCKS_PER_SM));
    const int grid_size   = static_cast<int>(wave < 0x3fffffu ? wave : 0x3fffffu);
    const int num_records = 2 * (Policy::BLOCK_THREADS / 32) * grid_size; // two for each warp

    const LengthsT lengths(d_begin_offsets, d_end_offsets);
    size_t scan_bytes = 0;
    if constexpr (!FIXED)
    {
      STRATA_RETURN_IF_ERROR(ScanT::Dispatch(nullptr, scan_bytes, lengths, static_cast<position_t*>(nullptr),
                                             detail::segmented_reduce::length_plus{}, detail::scan::no_init{},
                                             num_segments, stream, detail::scan::scanned_output{}, count));
    }

    detail::temporary_storage::layout<3> layout;
    auto words   = layout.get_slot(0)->create_alias<position_t>(FIXED ? 0 : static_cast<size_t>(num_segments) + 1);
    auto records = layout.get_slot(1)->create_alias<RecordT>(static_cast<size_t>(num_records));
    auto scan    = layout.get_slot(2)->create_alias<char>(scan_bytes);
    bool mapped  = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped)
    {
      return cudaSuccess;
    }

    PrefixT prefix{};
    if constexpr (FIXED)
    {
      prefix.size = d_begin_offsets.size;
    }
    else
    {
      // Word 0: P(0) = 0, no break; words 1.. the inclusive scan of the lengths.
      STRATA_RETURN_IF_ERROR(cudaMemsetAsync(words.get(), 0, sizeof(position_t), stream));
      STRATA_RETURN_IF_ERROR(ScanT::Dispatch(scan.get(), scan_bytes, lengths, words.get() + 1,
                                             detail::segmented_reduce::length_plus{}, detail::scan::no_init{},
                                             num_segments, stream, detail::scan::scanned_output{}, count));
      prefix.words = words.get();
    }
    STRATA_RETURN_IF_ERROR(detail::check_launch(
      Launch(dim3(static_cast<unsigned int>(grid_size)), dim3(Policy::BLOCK_THREADS), stream, kernel, d_in, d_out,
             d_begin_offsets, prefix, static_cast<position_t>(num_segments), count, records.get(), op, init),
      stream));
    return detail::check_launch(Launch(dim3(1), dim3(RECORDS_THREADS), stream,
                                       detail::segmented_reduce::DeviceSegmentedReduceRecordsKernel<
                                         RECORDS_THREADS, OutputIteratorT, AccumT, ReductionOpT, InitT>,
                                       static_cast<const RecordT*>(records.get()), num_records, d_out, op, init),
                                stream);
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the reduction.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, OffsetT num_segments, BeginOffsetIteratorT d_begin_offsets,
                              EndOffsetIteratorT d_end_offsets, ReductionOpT op, InitT init, cudaStream_t stream,
                              CountT count = {})
  {
    int device      = 0;
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
    DispatchSegmentedReduce closure{d_temp_storage, temp_storage_bytes,
                                    d_in,           d_out,
                                    num_segments,   d_begin_offsets,
                                    d_end_offsets,  op,
                                    init,           stream,
                                    count,          device,
                                    ptx_version};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
