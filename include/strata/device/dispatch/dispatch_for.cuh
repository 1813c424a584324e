// DispatchFor: DeviceFor's in-place kernel and the host closure that launches it. One launch, one block per tile.
#pragma once

#include <strata/agent/agent_for.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_for.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace for_each
{
STRATA_KERNELS_BEGIN

// Block b applies op to the items of tile b.
template <typename MaxPolicyT, typename OffsetT, typename RandomAccessIteratorT, typename OpT, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::ForPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::ForPolicy::MIN_BLOCKS_PER_SM) void
DeviceForEachKernel(RandomAccessIteratorT first, OffsetT num_items, CountT count, OpT op)
{
  using Policy       = typename MaxPolicyT::ActivePolicy::ForPolicy;
  unsigned int tiles = gridDim.x;
  if (!resolve_tiles(count, num_items, tiles, Policy::TILE_ITEMS) || blockIdx.x >= tiles)
  {
    return;
  }
  AgentFor<Policy, OffsetT, RandomAccessIteratorT, OpT>(first, op).ConsumeTile(static_cast<OffsetT>(blockIdx.x),
                                                                               num_items);
}

STRATA_KERNELS_END
} // namespace for_each
} // namespace detail

template <typename RandomAccessIteratorT, typename OffsetT, typename OpT,
          typename PolicyHub = detail::for_each::policy_hub, typename CountT = detail::host_count>
struct DispatchFor
{
  RandomAccessIteratorT first;
  OffsetT num_items; // the count, or the bound of a count in device memory
  OpT op;
  cudaStream_t stream;
  CountT count;

  using MaxPolicy = typename PolicyHub::MaxPolicy;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy        = typename ActivePolicyT::ForPolicy;
    const OffsetT tiles = (num_items + OffsetT(Policy::TILE_ITEMS) - 1) / OffsetT(Policy::TILE_ITEMS);
    if (static_cast<unsigned long long>(tiles) > 0x7fffffffULL)
    {
      return cudaErrorInvalidValue; // more tiles than a grid has blocks
    }
    return detail::check_launch(
      Launch(dim3(static_cast<unsigned int>(tiles)), dim3(Policy::BLOCK_THREADS), stream,
             detail::for_each::DeviceForEachKernel<MaxPolicy, OffsetT, RandomAccessIteratorT, OpT, CountT>, first,
             num_items, count, op),
      stream);
  }

  // Picks the policy for the current device's PTX version and launches (nothing for no items).
  static cudaError_t Dispatch(RandomAccessIteratorT first, OffsetT num_items, OpT op, cudaStream_t stream,
                              CountT count = {})
  {
    if (num_items == OffsetT(0))
    {
      return cudaSuccess;
    }
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(PtxVersion(ptx_version));
    DispatchFor closure{first, num_items, op, stream, count};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
