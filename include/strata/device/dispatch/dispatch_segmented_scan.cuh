// DispatchSegmentedScan: DeviceSegmentedScan's kernels and the host closure that sizes, checks and launches them.
//
// Up to five launches, none of which waits for the host: the scan of the segments' lengths into P (as
// DeviceSegmentedReduce's: DispatchScan, or one block for up to SMALL_PREFIX_SEGMENTS, or none for up to
// LOCAL_PREFIX_SEGMENTS segments, which each block scans itself); the walk (AgentSegmentedScan), writing the outputs of
// every item outside the shares' heads and two records per warp; one block folding the records in order into the
// prefix each head lacks; and one warp per share scanning its head from that prefix (AgentSegmentedScanHead). The last
// three are launched with programmatic stream serialization on sm_90. The wave depends only on the device, so results
// are the same bits run to run.
#pragma once

#include <strata/agent/agent_segmented_scan.cuh>
#include <strata/agent/agent_segmented_walk.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/dispatch_segmented_prefix.cuh>
#include <strata/device/dispatch/tuning/tuning_segmented_scan.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_scan
{
STRATA_KERNELS_BEGIN

// One wave: block b takes an even share of the merged steps (items and segment ends), and each of its W warps an even
// share of that, leaving its two records at d_records[2 (W b + w)] and [2 (W b + w) + 1].
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename OutBeginOffsetIteratorT, typename LengthsT, typename PrefixT, typename AccumT, typename ScanOpT,
          typename InitT, bool EXCLUSIVE, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedScanPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::SegmentedScanPolicy::MIN_BLOCKS_PER_SM) void
DeviceSegmentedScanKernel(InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorT d_begin_offsets,
                          OutBeginOffsetIteratorT d_out_begin_offsets, LengthsT lengths, PrefixT prefix,
                          position_t num_segments, CountT count, record<AccumT>* d_records, ScanOpT op, InitT init)
{
  using Policy      = typename MaxPolicyT::ActivePolicy::SegmentedScanPolicy;
  using Agent       = AgentSegmentedScan<Policy, InputIteratorT, OutputIteratorT, BeginOffsetIteratorT,
                                   OutBeginOffsetIteratorT, PrefixT, AccumT, ScanOpT, InitT, EXCLUSIVE>;
  using LocalPrefix = segmented::local_prefix<Policy::BLOCK_THREADS, PrefixT, LengthsT>;
  auto& storage     = DynamicSharedStorage<segmented::kernel_storage<Agent, LocalPrefix>>();

  // The records kernel may be launched now (it waits for this grid); this grid, launched the same way, waits for the
  // grid before it (the lengths' scan, or the caller's last kernel) before it reads anything.
  GridLaunchDependents();
  GridDependencyWait();
  num_segments = count.resolve(num_segments);
  LocalPrefix::resolve(storage.prefix, prefix, lengths, num_segments);
  const auto work = segmented::plan_block(prefix, num_segments, d_begin_offsets);
  Agent(storage.agent, d_in, d_out, d_begin_offsets, d_out_begin_offsets, prefix, num_segments, work.contiguous,
        work.base, op, init)
    .ConsumeRange(work.first, work.last, d_records + 2 * (Policy::BLOCK_THREADS / 32) * blockIdx.x);
}

// One block: the records of all warps, in order; each share's head gets the fold of the records before it (the
// prefix of its segment in the shares before), at d_before[share].
template <int BLOCK_THREADS, typename AccumT, typename ScanOpT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(BLOCK_THREADS, 1) void
DeviceSegmentedScanRecordsKernel(const record<AccumT>* d_records, int num_records, partial<AccumT>* d_before,
                                 ScanOpT op)
{
  using FoldT = segmented::records_fold<BLOCK_THREADS, AccumT>;
  __shared__ typename FoldT::TempStorage storage;
  GridLaunchDependents(); // the head kernel waits for this grid
  GridDependencyWait();   // for the walk's records
  FoldT::run(storage, d_records, num_records, op, [&](int i, const record<AccumT>&, const partial<AccumT>& before) {
    d_before[i / 2] = before;
  });
}

// The same wave as the walk, a warp per share: each share's head scanned from the prefix before it.
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename AccumT, typename ScanOpT,
          bool EXCLUSIVE>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedScanPolicy::BLOCK_THREADS) void
DeviceSegmentedScanHeadKernel(const record<AccumT>* d_records, const partial<AccumT>* d_before, InputIteratorT d_in,
                              OutputIteratorT d_out, ScanOpT op)
{
  using Policy = typename MaxPolicyT::ActivePolicy::SegmentedScanPolicy;
  using HeadT =
    AgentSegmentedScanHead<Policy::ITEMS_PER_THREAD, InputIteratorT, OutputIteratorT, AccumT, ScanOpT, EXCLUSIVE>;
  constexpr int WARPS = Policy::BLOCK_THREADS / 32;
  __shared__ typename HeadT::TempStorage storage[WARPS];
  GridDependencyWait(); // for the records kernel's prefixes (and so the walk's records and outputs)
  const int warp         = static_cast<int>(threadIdx.x / 32);
  const int share        = static_cast<int>(blockIdx.x) * WARPS + warp;
  const record<AccumT> r = d_records[2 * share];
  if (r.segment < 0 || r.count == 0)
  {
    return;
  }
  partial<AccumT> before = d_before[share];
  HeadT::Scan(storage[warp], d_in, r.in_first, d_out, r.out_first, r.count, before, op,
              static_cast<int>(threadIdx.x % 32));
}

STRATA_KERNELS_END
} // namespace segmented_scan
} // namespace detail

// The dispatch closure of DeviceSegmentedScan. OffsetT: the type of the segment count (its bound for a count in
// device memory); OutBeginOffsetIteratorT: detail::segmented_scan::same_offsets (the outputs at the items' own
// positions) or the outputs' begin offsets; InitT: the initial value, or a detail::reduce::empty_value (inclusive
// scans without one). PolicyHub defaults to the tuned hub.
template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
          typename OutBeginOffsetIteratorT, typename OffsetT, typename ScanOpT, typename InitT, typename AccumT,
          bool EXCLUSIVE,
          typename PolicyHub = detail::segmented_scan::policy_hub<detail::it_value_t<InputIteratorT>, AccumT>,
          typename CountT    = detail::host_count>
struct DispatchSegmentedScan
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  OffsetT num_segments; // the count, or the bound of a count in device memory
  BeginOffsetIteratorT d_begin_offsets;
  EndOffsetIteratorT d_end_offsets;
  OutBeginOffsetIteratorT d_out_begin_offsets;
  ScanOpT op;
  InitT init;
  cudaStream_t stream;
  CountT count;
  int device;
  int ptx_version;

  using MaxPolicy  = typename PolicyHub::MaxPolicy;
  using position_t = detail::segmented::position_t;
  using PlanT    = detail::segmented::segmented_prefix_plan<BeginOffsetIteratorT, EndOffsetIteratorT, OffsetT, CountT>;
  using LengthsT = typename PlanT::LengthsT;
  using PrefixT  = typename PlanT::PrefixT;
  using RecordT  = detail::segmented_scan::record<AccumT>;
  using PartialT = detail::segmented::partial<AccumT>;
  static constexpr int RECORDS_THREADS = 256;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy = typename ActivePolicyT::SegmentedScanPolicy;
    if (num_segments == OffsetT(0))
    {
      if (d_temp_storage == nullptr)
      {
        temp_storage_bytes = detail::temporary_storage::EMPTY_SIZE;
      }
      return cudaSuccess;
    }

    const auto kernel =
      detail::segmented_scan::DeviceSegmentedScanKernel<MaxPolicy, InputIteratorT, OutputIteratorT,
                                                        BeginOffsetIteratorT, OutBeginOffsetIteratorT, LengthsT,
                                                        PrefixT, AccumT, ScanOpT, InitT, EXCLUSIVE, CountT>;
    using Agent                 = AgentSegmentedScan<Policy, InputIteratorT, OutputIteratorT, BeginOffsetIteratorT,
                                     OutBeginOffsetIteratorT, PrefixT, AccumT, ScanOpT, InitT, EXCLUSIVE>;
    using LocalPrefix           = detail::segmented::local_prefix<Policy::BLOCK_THREADS, PrefixT, LengthsT>;
    constexpr size_t SMEM_BYTES = sizeof(detail::segmented::kernel_storage<Agent, LocalPrefix>);
    STRATA_RETURN_IF_ERROR(PrepareSharedMemoryOver48KiB<SMEM_BYTES>(kernel, Policy::BLOCK_THREADS, device));
    size_t wave = 0;
    STRATA_RETURN_IF_ERROR(
      WaveBlocks(wave, kernel, Policy::BLOCK_THREADS, device, SMEM_BYTES, Policy::MIN_BLOCKS_PER_SM));
    const int grid_size  = static_cast<int>(wave < 0x3fffffu ? wave : 0x3fffffu);
    const int num_shares = (Policy::BLOCK_THREADS / 32) * grid_size; // one for each warp

    PlanT plan(d_begin_offsets, d_end_offsets, num_segments, count);
    STRATA_RETURN_IF_ERROR(plan.Size(stream));

    detail::temporary_storage::layout<4> layout;
    auto words   = layout.get_slot(0)->create_alias<position_t>(plan.Words());
    auto records = layout.get_slot(1)->create_alias<RecordT>(2 * static_cast<size_t>(num_shares));
    auto before  = layout.get_slot(2)->create_alias<PartialT>(static_cast<size_t>(num_shares));
    auto scan    = layout.get_slot(3)->create_alias<char>(plan.scan_bytes);
    bool mapped  = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped)
    {
      return cudaSuccess;
    }

    PrefixT prefix{};
    STRATA_RETURN_IF_ERROR(plan.Run(words.get(), scan.get(), d_begin_offsets, prefix, stream));
    // All three with programmatic stream serialization where the device has it (sm_90+): each may start while the
    // grid before it finishes, and waits for it before reading anything.
    const bool programmatic = ptx_version >= 900;
    STRATA_RETURN_IF_ERROR(detail::check_launch(
      LaunchAfterShared(programmatic, dim3(static_cast<unsigned int>(grid_size)), dim3(Policy::BLOCK_THREADS),
                        SMEM_BYTES, stream, kernel, d_in, d_out, d_begin_offsets, d_out_begin_offsets, plan.lengths,
                        prefix, static_cast<position_t>(num_segments), count, records.get(), op, init),
      stream));
    STRATA_RETURN_IF_ERROR(detail::check_launch(
      LaunchAfter(programmatic, dim3(1), dim3(RECORDS_THREADS), stream,
                  detail::segmented_scan::DeviceSegmentedScanRecordsKernel<RECORDS_THREADS, AccumT, ScanOpT>,
                  static_cast<const RecordT*>(records.get()), 2 * num_shares, before.get(), op),
      stream));
    return detail::check_launch(
      LaunchAfter(programmatic, dim3(static_cast<unsigned int>(grid_size)), dim3(Policy::BLOCK_THREADS), stream,
                  detail::segmented_scan::DeviceSegmentedScanHeadKernel<MaxPolicy, InputIteratorT, OutputIteratorT,
                                                                        AccumT, ScanOpT, EXCLUSIVE>,
                  static_cast<const RecordT*>(records.get()), static_cast<const PartialT*>(before.get()), d_in, d_out,
                  op),
      stream);
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the scan.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, OffsetT num_segments, BeginOffsetIteratorT d_begin_offsets,
                              EndOffsetIteratorT d_end_offsets, OutBeginOffsetIteratorT d_out_begin_offsets, ScanOpT op,
                              InitT init, cudaStream_t stream, CountT count = {})
  {
    int device      = 0;
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
    DispatchSegmentedScan closure{d_temp_storage, temp_storage_bytes,  d_in, d_out, num_segments, d_begin_offsets,
                                  d_end_offsets,  d_out_begin_offsets, op,   init,  stream,       count,
                                  device,         ptx_version};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
