// The segmented scan of back-to-back segments (segment s is items [offsets[s], offsets[s + 1]), outputs at the items'
// own positions, the offsets non-decreasing): kernels and the host function that sizes, checks and launches them.
// DeviceSegmentedScan takes this path for one offsets array passed as (d_offsets, d_offsets + 1) with a host count;
// detail::segmented_scan_tiles::run is its entry point.
//
// Two launches of one wave of G blocks (the scan kernel's occupancy times the SMs, at most MAX_SHARES), neither of
// which waits for the host: the tails kernel (each share's part from its last head on, into G slots of temporary
// storage) and the scan kernel (each share's carry from the slots before it, then the share scanned tile by tile and
// written). The scan kernel is launched with programmatic stream serialization on sm_90: it finds its share's first
// segment while the tails kernel runs, and waits for it before it reads a slot or writes an output. Traffic per item:
// one read and one write, the offsets once, and the tails (about half a segment and a tile a share) read once more.
// The wave depends only on the device, so results are the same bits run to run.
#pragma once

#include <strata/agent/agent_reduce.cuh>
#include <strata/agent/agent_segmented_scan_tiles.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/tuning/tuning_segmented_scan_tiles.cuh>
#include <strata/util/device.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_scan_tiles
{
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename OffsetIteratorT,
          typename AccumT, typename ScanOpT, typename InitT, bool EXCLUSIVE>
using agent_t = AgentSegmentedScanTiles<typename MaxPolicyT::ActivePolicy::SegmentedScanTilesPolicy, InputIteratorT,
                                        OutputIteratorT, OffsetIteratorT, AccumT, ScanOpT, InitT, EXCLUSIVE>;

STRATA_KERNELS_BEGIN

// Block b leaves its share's part from the share's last head on (from its first item where it holds none) at
// d_parts[b]; the last share and empty ones leave nothing.
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename OffsetIteratorT,
          typename AccumT, typename ScanOpT, typename InitT, bool EXCLUSIVE>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedScanTilesPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::SegmentedScanTilesPolicy::MIN_BLOCKS_PER_SM) void
DeviceSegmentedScanTilesTailKernel(InputIteratorT d_in, OutputIteratorT d_out, OffsetIteratorT d_offsets,
                                   long long num_segments, scan::segmented_value<AccumT>* d_parts, ScanOpT op,
                                   InitT init)
{
  using Agent =
    agent_t<MaxPolicyT, InputIteratorT, OutputIteratorT, OffsetIteratorT, AccumT, ScanOpT, InitT, EXCLUSIVE>;
  __shared__ typename Agent::TempStorage storage;
  // The scan kernel may start once every block has come here: past the wait, so that what it reads before its own
  // wait (the offsets, the input) is the caller's finished work.
  GridDependencyWait();
  GridLaunchDependents();
  Agent agent(storage, d_in, d_out, d_offsets, num_segments, op, init);
  const share s = agent.Share(static_cast<int>(gridDim.x));
  if (s.empty() || s.is_last)
  {
    return;
  }
  agent.Tail(s, d_parts + blockIdx.x);
}

// Block b scans its share from the carry of the parts before it.
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename OffsetIteratorT,
          typename AccumT, typename ScanOpT, typename InitT, bool EXCLUSIVE>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedScanTilesPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::SegmentedScanTilesPolicy::MIN_BLOCKS_PER_SM) void
DeviceSegmentedScanTilesKernel(InputIteratorT d_in, OutputIteratorT d_out, OffsetIteratorT d_offsets,
                               long long num_segments, const scan::segmented_value<AccumT>* d_parts, ScanOpT op,
                               InitT init)
{
  using Agent =
    agent_t<MaxPolicyT, InputIteratorT, OutputIteratorT, OffsetIteratorT, AccumT, ScanOpT, InitT, EXCLUSIVE>;
  __shared__ typename Agent::TempStorage storage;
  Agent agent(storage, d_in, d_out, d_offsets, num_segments, op, init);
  const share s = agent.Share(static_cast<int>(gridDim.x));
  if (s.empty())
  {
    GridDependencyWait();
    return;
  }
  // The share's first segment while the tails kernel runs (in place, nothing is written before the wait).
  const long long cursor = lower_bound<Agent::BLOCK_THREADS>(d_offsets, 0, num_segments, s.first);
  GridDependencyWait();
  scan::segmented_value<AccumT> carry{};
  if (blockIdx.x > 0)
  {
    carry = agent.Carry(d_parts, static_cast<int>(blockIdx.x));
  }
  agent.Scan(s, cursor, carry);
}

STRATA_KERNELS_END

// The dispatch closure. OffsetIteratorT: num_segments + 1 offsets; InitT: the initial value, or a
// detail::reduce::empty_value (inclusive scans without one).
template <typename PolicyHub, typename InputIteratorT, typename OutputIteratorT, typename OffsetIteratorT,
          typename AccumT, typename ScanOpT, typename InitT, bool EXCLUSIVE>
struct dispatch
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  OffsetIteratorT d_offsets;
  long long num_segments;
  ScanOpT op;
  InitT init;
  cudaStream_t stream;
  int device;
  int ptx_version;

  using MaxPolicy = typename PolicyHub::MaxPolicy;
  using PartT     = scan::segmented_value<AccumT>;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy = typename ActivePolicyT::SegmentedScanTilesPolicy;
    using Agent  = AgentSegmentedScanTiles<Policy, InputIteratorT, OutputIteratorT, OffsetIteratorT, AccumT, ScanOpT,
                                          InitT, EXCLUSIVE>;
    if (num_segments == 0)
    {
      if (d_temp_storage == nullptr)
      {
        temp_storage_bytes = temporary_storage::EMPTY_SIZE;
      }
      return cudaSuccess;
    }
    const auto tail_kernel = DeviceSegmentedScanTilesTailKernel<MaxPolicy, InputIteratorT, OutputIteratorT,
                                                                OffsetIteratorT, AccumT, ScanOpT, InitT, EXCLUSIVE>;
    const auto scan_kernel = DeviceSegmentedScanTilesKernel<MaxPolicy, InputIteratorT, OutputIteratorT, OffsetIteratorT,
                                                            AccumT, ScanOpT, InitT, EXCLUSIVE>;
    size_t wave            = 0;
    STRATA_RETURN_IF_ERROR(WaveBlocks(wave, scan_kernel, Policy::BLOCK_THREADS, device));
    const int grid = static_cast<int>(wave < size_t(Agent::MAX_SHARES) ? wave : size_t(Agent::MAX_SHARES));

    temporary_storage::layout<1> layout;
    auto parts  = layout.get_slot(0)->create_alias<PartT>(static_cast<size_t>(grid));
    bool mapped = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped)
    {
      return cudaSuccess;
    }

    const bool programmatic = ptx_version >= 900;
    STRATA_RETURN_IF_ERROR(
      check_launch(LaunchAfter(programmatic, dim3(static_cast<unsigned int>(grid)), dim3(Policy::BLOCK_THREADS), stream,
                               tail_kernel, d_in, d_out, d_offsets, num_segments, parts.get(), op, init),
                   stream));
    return check_launch(LaunchAfter(programmatic, dim3(static_cast<unsigned int>(grid)), dim3(Policy::BLOCK_THREADS),
                                    stream, scan_kernel, d_in, d_out, d_offsets, num_segments,
                                    static_cast<const PartT*>(parts.get()), op, init),
                        stream);
  }
};

// The accumulator of a scan of InputT items under ScanOpT from InitT (an empty_value: from the first item).
template <typename ScanOpT, typename InputT, typename InitT>
struct accumulator
{
  using type = accumulator_t<ScanOpT, InputT, InitT>;
};
template <typename ScanOpT, typename InputT, typename T>
struct accumulator<ScanOpT, InputT, reduce::empty_value<T>>
{
  using type = accumulator_t<ScanOpT, InputT, InputT>;
};

// The segmented scan of num_segments back-to-back segments, d_offsets[s] to d_offsets[s + 1] (num_segments + 1
// offsets, non-decreasing), with the two-phase temporary-storage protocol. EXCLUSIVE: d_out[i] = init op (the items of
// its segment before i); otherwise d_out[i] = [init op] (the items of its segment up to i), InitT a
// reduce::empty_value for the form without an initial value. Items before d_offsets[0] are not written. PolicyHubT:
// void for the tuned hub; AccumOverrideT: void for the scan's own accumulator (DeviceSegmentedScan passes the one its
// form names).
template <bool EXCLUSIVE, typename PolicyHubT = void, typename AccumOverrideT = void, typename InputIteratorT,
          typename OutputIteratorT, typename OffsetIteratorT, typename NumSegmentsT, typename ScanOpT, typename InitT>
cudaError_t run(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                OffsetIteratorT d_offsets, NumSegmentsT num_segments, ScanOpT scan_op, InitT init, cudaStream_t stream)
{
  static_assert(cuda::std::is_integral<NumSegmentsT>::value, "num_segments must be an integer");
  static_assert(!EXCLUSIVE || !reduce::is_empty_value<InitT>::value, "an exclusive scan needs an initial value");
  using InputT = it_value_t<InputIteratorT>;
  using AccumT = cuda::std::conditional_t<cuda::std::is_void<AccumOverrideT>::value,
                                          typename accumulator<ScanOpT, InputT, InitT>::type, AccumOverrideT>;
  using PolicyHub =
    cuda::std::conditional_t<cuda::std::is_void<PolicyHubT>::value, policy_hub<InputT, AccumT>, PolicyHubT>;
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_segments, d_in, d_out, false));
  if (d_temp_storage != nullptr && num_segments > 0 && is_null_pointer(d_offsets))
  {
    return cudaErrorInvalidValue;
  }
  int device      = 0;
  int ptx_version = 0;
  STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
  dispatch<PolicyHub, InputIteratorT, OutputIteratorT, OffsetIteratorT, AccumT, ScanOpT, InitT, EXCLUSIVE> closure{
    d_temp_storage, temp_storage_bytes,
    d_in,           d_out,
    d_offsets,      static_cast<long long>(num_segments),
    scan_op,        init,
    stream,         device,
    ptx_version};
  return PolicyHub::MaxPolicy::Invoke(ptx_version, closure);
}
} // namespace segmented_scan_tiles
} // namespace detail
STRATA_NAMESPACE_END
