// DispatchTransform: DeviceTransform's kernel and the host closure that launches it. One launch, one block per
// tile; no temporary storage.
#pragma once

#include <strata/agent/agent_transform.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_transform.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>

#include <cuda/std/tuple>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace transform
{
STRATA_KERNELS_BEGIN

// Block b transforms tile b.
template <typename MaxPolicyT, typename OffsetT, typename OpT, typename OutputIteratorT, typename CountT,
          typename... InputIteratorsT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::TransformPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::TransformPolicy::MIN_BLOCKS_PER_SM) void
DeviceTransformKernel(cuda::std::tuple<InputIteratorsT...> inputs, OutputIteratorT output, OffsetT num_items,
                      CountT count, OpT op, bool chunked, unsigned int prefetch_distance)
{
  using Policy       = typename MaxPolicyT::ActivePolicy::TransformPolicy;
  using Agent        = AgentTransform<Policy, OffsetT, OpT, OutputIteratorT, InputIteratorsT...>;
  unsigned int tiles = gridDim.x;
  if (!resolve_tiles(count, num_items, tiles, Agent::TILE_ITEMS) || blockIdx.x >= tiles)
  {
    return;
  }
  Agent(inputs, output, op).ConsumeTile(static_cast<OffsetT>(blockIdx.x), num_items, chunked, prefetch_distance);
}

STRATA_KERNELS_END
} // namespace transform
} // namespace detail

// The dispatch closure of DeviceTransform (and of DeviceFor's copying forms, with no output).
template <typename OffsetT, typename OpT, typename OutputIteratorT, typename PolicyHub = detail::transform::policy_hub,
          typename CountT = detail::host_count, typename... InputIteratorsT>
struct DispatchTransform
{
  cuda::std::tuple<InputIteratorsT...> inputs;
  OutputIteratorT output;
  OffsetT num_items; // the count, or the bound of a count in device memory
  OpT op;
  cudaStream_t stream;
  CountT count;

  using MaxPolicy = typename PolicyHub::MaxPolicy;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy = typename ActivePolicyT::TransformPolicy;
    using Agent  = AgentTransform<Policy, OffsetT, OpT, OutputIteratorT, InputIteratorsT...>;
    const auto kernel =
      detail::transform::DeviceTransformKernel<MaxPolicy, OffsetT, OpT, OutputIteratorT, CountT, InputIteratorsT...>;
    const OffsetT tiles = (num_items + OffsetT(Agent::TILE_ITEMS) - 1) / OffsetT(Agent::TILE_ITEMS);
    if (static_cast<unsigned long long>(tiles) > 0x7fffffffULL)
    {
      return cudaErrorInvalidValue; // more tiles than a grid has blocks
    }
    // The tile a fraction of a wave ahead starts about when this block's tile is done.
    unsigned int prefetch_distance = 0;
    if constexpr (Policy::PREFETCH_QUARTER_WAVES > 0)
    {
      int device = 0;
      STRATA_RETURN_IF_ERROR(CurrentDevice(device));
      size_t wave = 0;
      STRATA_RETURN_IF_ERROR(WaveBlocks(wave, kernel, Policy::BLOCK_THREADS, device));
      prefetch_distance = static_cast<unsigned int>(wave * Policy::PREFETCH_QUARTER_WAVES / 4);
    }
    return detail::check_launch(Launch(dim3(static_cast<unsigned int>(tiles)), dim3(Policy::BLOCK_THREADS), stream,
                                       kernel, inputs, output, num_items, count, op, Agent::Aligned(inputs, output),
                                       prefetch_distance),
                                stream);
  }

  // Picks the policy for the current device's PTX version and launches (nothing for no items).
  static cudaError_t Dispatch(cuda::std::tuple<InputIteratorsT...> inputs, OutputIteratorT output, OffsetT num_items,
                              OpT op, cudaStream_t stream, CountT count = {})
  {
    if (num_items == OffsetT(0))
    {
      return cudaSuccess;
    }
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(PtxVersion(ptx_version));
    DispatchTransform closure{inputs, output, num_items, op, stream, count};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
