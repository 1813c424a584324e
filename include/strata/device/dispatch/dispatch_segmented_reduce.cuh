// DispatchSegmentedReduce: DeviceSegmentedReduce's kernels and the host closure that sizes, checks and launches them.
//
// Three steps, none of which waits for the host: the segments' lengths are scanned into P (P(0) = 0, P(s + 1) = P(s)
// + the length of segment s; the scan also tells whether the segments lie back to back): by DispatchScan, by one
// block up to SMALL_PREFIX_SEGMENTS segments, by each block of the next step itself up to LOCAL_PREFIX_SEGMENTS, not
// at all for fixed-size segments or for one offsets array of up to ORDER_CHECKED_SEGMENTS segments (each block of the
// next step checks that the offsets are in order and reads them as P; where they are not, its blocks reduce a share
// of the segments each, a warp a segment); a grid of WAVES waves of blocks splits the merged list of items and
// segment ends evenly between its warps (AgentSegmentedReduce), writing every segment that ends in a block after the
// block's first end, and two records a block: the part of a segment before the block's first end and the part after
// its last; one block combines the records in order into the segments that cross blocks. The last two are launched
// with programmatic stream serialization on sm_90. The grid depends only on the device, so results are the same bits
// run to run.
#pragma once

#include <strata/agent/agent_segmented_reduce.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/dispatch_segmented_prefix.cuh>
#include <strata/device/dispatch/tuning/tuning_segmented_reduce.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_reduce
{
STRATA_KERNELS_BEGIN

// One wave: block b takes an even share of the merged steps (items and segment ends), and each of its warps an even
// share of that; the block leaves its two edge records at d_records[2 b] and [2 b + 1].
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename LengthsT, typename PrefixT, typename AccumT, typename ReductionOpT, typename InitT, typename ItemsT,
          typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedReducePolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::SegmentedReducePolicy::MIN_BLOCKS_PER_SM) void
DeviceSegmentedReduceKernel(InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorT d_begin_offsets,
                            LengthsT lengths, PrefixT prefix, position_t num_segments, CountT count,
                            record<AccumT>* d_records, ReductionOpT op, InitT init)
{
  using Policy = typename MaxPolicyT::ActivePolicy::SegmentedReducePolicy;
  using Agent  = AgentSegmentedReduce<Policy, InputIteratorT, OutputIteratorT, BeginOffsetIteratorT, PrefixT, AccumT,
                                     ReductionOpT, InitT, ItemsT>;
  using LocalPrefix = local_prefix<Policy::BLOCK_THREADS, PrefixT, LengthsT>;
  auto& storage     = DynamicSharedStorage<segmented::kernel_storage<Agent, LocalPrefix>>();

  // The records kernel may be launched now (it waits for this grid); this grid, launched the same way, waits for the
  // grid before it (the lengths' scan, or the caller's last kernel) before it reads anything.
  GridLaunchDependents();
  GridDependencyWait();
  num_segments = count.resolve(num_segments);
  LocalPrefix::resolve(storage.prefix, prefix, lengths, num_segments);
  if constexpr (segmented::is_offsets_prefix<PrefixT>::value)
  {
    // One offsets array that decreases somewhere is no P: each block reduces an even share of the segments instead,
    // a warp a segment.
    if (!segmented::offsets_ordered<Policy::BLOCK_THREADS>(prefix.offsets, num_segments))
    {
      Agent(storage.agent, d_in, d_out, d_begin_offsets, prefix, num_segments, false, 0, op, init)
        .ConsumeSegments(d_begin_offsets + 1, d_records + 2 * blockIdx.x);
      return;
    }
  }
  const auto work = segmented::plan_block(prefix, num_segments, d_begin_offsets);
  Agent(storage.agent, d_in, d_out, d_begin_offsets, prefix, num_segments, work.contiguous, work.base, op, init)
    .ConsumeRange(work.first, work.last, d_records + 2 * blockIdx.x);
}

// One block: the records of all blocks, in order, folded under the segmented operator; each segment that ends in a
// block's share it did not start in, at the block's first end, gets the fold of its records.
template <int BLOCK_THREADS, typename OutputIteratorT, typename AccumT, typename ReductionOpT, typename InitT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(BLOCK_THREADS, 1) void
DeviceSegmentedReduceRecordsKernel(const record<AccumT>* d_records, int num_records, OutputIteratorT d_out,
                                   ReductionOpT op, InitT init)
{
  using FoldT   = segmented::records_fold<BLOCK_THREADS, AccumT>;
  using OutputT = non_void_value_t<OutputIteratorT, AccumT>;
  __shared__ typename FoldT::TempStorage storage;
  GridDependencyWait(); // for the main kernel's records and writes
  const partial_op<ReductionOpT> pop{op};
  FoldT::run(storage, d_records, num_records, op, [&](int, const record<AccumT>& r, const partial<AccumT>& before) {
    // A block's first record: the part of a segment that started before the block and ends in it.
    d_out[r.segment] = segmented::result_of<OutputT>(pop(before, r.part), init);
  });
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
  using PlanT    = detail::segmented::segmented_prefix_plan<BeginOffsetIteratorT, EndOffsetIteratorT, OffsetT, CountT>;
  using LengthsT = typename PlanT::LengthsT;
  using RecordT  = detail::segmented_reduce::record<AccumT>;
  static constexpr int RECORDS_THREADS = 256;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    if (num_segments == OffsetT(0))
    {
      if (d_temp_storage == nullptr)
      {
        temp_storage_bytes = detail::temporary_storage::EMPTY_SIZE;
      }
      return cudaSuccess;
    }
    // One array of offsets (begin = offsets, end = offsets + 1) of up to ORDER_CHECKED_SEGMENTS segments: P read from
    // the offsets themselves (detail::segmented::offsets_prefix) where they are in order, no scan.
    if constexpr (detail::segmented::one_offsets_array_form<BeginOffsetIteratorT, EndOffsetIteratorT>::value)
    {
      if (d_end_offsets == d_begin_offsets + 1
          && static_cast<size_t>(num_segments) <= static_cast<size_t>(detail::segmented::ORDER_CHECKED_SEGMENTS))
      {
        return Run<ActivePolicyT, detail::segmented::offsets_prefix<BeginOffsetIteratorT>>();
      }
    }
    return Run<ActivePolicyT, typename PlanT::PrefixT>();
  }

private:
  // The kernels with P read as PrefixT says: PlanT's (scanned or fixed), or an offsets_prefix.
  template <typename ActivePolicyT, typename PrefixT>
  cudaError_t Run()
  {
    using Policy             = typename ActivePolicyT::SegmentedReducePolicy;
    constexpr bool FROM_PLAN = cuda::std::is_same<PrefixT, typename PlanT::PrefixT>::value;
    const auto kernel =
      detail::segmented_reduce::DeviceSegmentedReduceKernel<MaxPolicy, InputIteratorT, OutputIteratorT,
                                                            BeginOffsetIteratorT, LengthsT, PrefixT, AccumT,
                                                            ReductionOpT, InitT, ItemsT, CountT>;
    using Agent = AgentSegmentedReduce<Policy, InputIteratorT, OutputIteratorT, BeginOffsetIteratorT, PrefixT, AccumT,
                                       ReductionOpT, InitT, ItemsT>;
    using LocalPrefix           = detail::segmented::local_prefix<Policy::BLOCK_THREADS, PrefixT, LengthsT>;
    constexpr size_t SMEM_BYTES = sizeof(detail::segmented::kernel_storage<Agent, LocalPrefix>);
    STRATA_RETURN_IF_ERROR(PrepareSharedMemoryOver48KiB<SMEM_BYTES>(kernel, Policy::BLOCK_THREADS, device));
    size_t wave = 0;
    STRATA_RETURN_IF_ERROR(
      WaveBlocks(wave, kernel, Policy::BLOCK_THREADS, device, SMEM_BYTES, Policy::MIN_BLOCKS_PER_SM));
    const size_t blocks   = wave * static_cast<size_t>(Policy::WAVES);
    const int grid_size   = static_cast<int>(blocks < 0x3fffffu ? blocks : 0x3fffffu);
    const int num_records = 2 * grid_size; // two for each block

    PlanT plan(d_begin_offsets, d_end_offsets, num_segments, count);
    if constexpr (FROM_PLAN)
    {
      STRATA_RETURN_IF_ERROR(plan.Size(stream));
    }

    detail::temporary_storage::layout<3> layout;
    auto words   = layout.get_slot(0)->create_alias<position_t>(FROM_PLAN ? plan.Words() : size_t(0));
    auto records = layout.get_slot(1)->create_alias<RecordT>(static_cast<size_t>(num_records));
    auto scan    = layout.get_slot(2)->create_alias<char>(FROM_PLAN ? plan.scan_bytes : size_t(0));
    bool mapped  = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped)
    {
      return cudaSuccess;
    }

    PrefixT prefix{};
    if constexpr (FROM_PLAN)
    {
      STRATA_RETURN_IF_ERROR(plan.Run(words.get(), scan.get(), d_begin_offsets, prefix, stream));
    }
    else
    {
      prefix.offsets = d_begin_offsets;
    }
    // Both kernels with programmatic stream serialization where the device has it (sm_90+): each may start while
    // the grid before it finishes, and waits for it before reading anything.
    const bool programmatic = ptx_version >= 900;
    STRATA_RETURN_IF_ERROR(detail::check_launch(
      LaunchAfterShared(programmatic, dim3(static_cast<unsigned int>(grid_size)), dim3(Policy::BLOCK_THREADS),
                        SMEM_BYTES, stream, kernel, d_in, d_out, d_begin_offsets, plan.lengths, prefix,
                        static_cast<position_t>(num_segments), count, records.get(), op, init),
      stream));
    return detail::check_launch(LaunchAfter(programmatic, dim3(1), dim3(RECORDS_THREADS), stream,
                                            detail::segmented_reduce::DeviceSegmentedReduceRecordsKernel<
                                              RECORDS_THREADS, OutputIteratorT, AccumT, ReductionOpT, InitT>,
                                            static_cast<const RecordT*>(records.get()), num_records, d_out, op, init),
                                stream);
  }

public:
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
