// DispatchReduce: DeviceReduce's kernels and the host closure that sizes, checks and launches them.
//
// Small inputs (at most one single-tile pass of work) take one kernel: one block reduces everything and
// writes init op aggregate. Larger inputs take two: a grid sized to fill the device reduces an even share
// of tiles per block into per-block partials, then one block reduces the partials. Both partitions depend
// only on the input size and the device, so results are the same bits run to run.
//
// A count in device memory (strata::device_count) picks the kernels and sizes the grid by its bound; the kernels read
// the count and take the partition the host would have made for it (the first pass's blocks past it return, and the
// second pass reduces the input alone where the count fits one single-tile pass), so the result is the same bits as
// with the count given on the host.
#pragma once

#include <strata/agent/agent_reduce.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_reduce.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/even_share.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace reduce
{
STRATA_KERNELS_BEGIN

// The blocks of the first pass for num_items items, on a grid of `grid_blocks` (one wave, or fewer blocks where the
// input has fewer grains): the host's choice, made again in a kernel for a count in device memory.
template <int GRAIN_ITEMS, typename OffsetT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE int partial_blocks(OffsetT num_items, unsigned int grid_blocks)
{
  const OffsetT grains = (num_items + OffsetT(GRAIN_ITEMS) - 1) / OffsetT(GRAIN_ITEMS);
  return static_cast<int>(static_cast<unsigned long long>(grains) < grid_blocks ? grains : OffsetT(grid_blocks));
}

// Reduces an even share of tiles per block into d_partials[blockIdx.x]. With a count in device memory, `share` is
// the bound's and the blocks share the count's items as the host would have shared them; none takes part where the
// count fits the second pass alone (DeviceReduceCountedFinalKernel).
template <typename MaxPolicyT, typename InputIteratorT, typename AccumT, typename OffsetT, typename ReductionOpT,
          typename TransformOpT, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::ReducePolicy::BLOCK_THREADS) void
DeviceReduceKernel(InputIteratorT d_in, AccumT* d_partials, even_share<OffsetT> share, CountT count, ReductionOpT op,
                   TransformOpT transform)
{
  using Policy = typename MaxPolicyT::ActivePolicy::ReducePolicy;
  using Agent  = AgentReduce<Policy, InputIteratorT, AccumT, OffsetT, ReductionOpT, TransformOpT>;
  __shared__ typename Agent::TempStorage temp_storage;

  // The partials pass that follows may be launched now; it waits for this grid before reading anything.
  GridLaunchDependents();
  if constexpr (CountT::IN_DEVICE_MEMORY)
  {
    const OffsetT num_items = count.resolve(share.num_items);
    if (num_items <= OffsetT(MaxPolicyT::ActivePolicy::SingleTilePolicy::TILE_ITEMS))
    {
      return;
    }
    const int blocks = partial_blocks<Agent::GRAIN_ITEMS>(num_items, gridDim.x);
    if (static_cast<int>(blockIdx.x) >= blocks)
    {
      return;
    }
    share = even_share<OffsetT>::make(num_items, Agent::GRAIN_ITEMS, blocks);
  }
  OffsetT begin;
  OffsetT end;
  share.range(static_cast<OffsetT>(blockIdx.x), begin, end);
  const AccumT aggregate = Agent(temp_storage, d_in, op, transform).ConsumeRange(begin, end);
  if (threadIdx.x == 0)
  {
    d_partials[blockIdx.x] = aggregate;
  }
}

// One block reduces all num_items inputs and writes op(init, aggregate), or init when there are none.
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename OffsetT,
          typename ReductionOpT, typename InitT, typename AccumT, typename TransformOpT, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SingleTilePolicy::BLOCK_THREADS, 1) void
DeviceReduceSingleTileKernel(InputIteratorT d_in, OutputIteratorT d_out, OffsetT num_items, CountT count,
                             ReductionOpT op, InitT init, TransformOpT transform)
{
  using Policy = typename MaxPolicyT::ActivePolicy::SingleTilePolicy;
  using Agent  = AgentReduce<Policy, InputIteratorT, AccumT, OffsetT, ReductionOpT, TransformOpT>;
  __shared__ typename Agent::TempStorage temp_storage;

  // As the second pass, this grid may start before the first has finished: wait for its partials.
  GridDependencyWait();
  num_items = count.resolve(num_items);
  if (num_items == 0)
  {
    if (threadIdx.x == 0)
    {
      *d_out = empty_result(init);
    }
    return;
  }
  const AccumT aggregate = Agent(temp_storage, d_in, op, transform).ConsumeRange(OffsetT(0), num_items);
  if (threadIdx.x == 0)
  {
    *d_out = with_init<AccumT>(op, init, aggregate);
  }
}

// The second pass of a reduction whose count is in device memory, over the first pass's grid of `grid_blocks`: no
// items, init; a count that fits one single-tile pass, the input reduced as DeviceReduceSingleTileKernel reduces it;
// a larger one, the partials of the first pass's blocks for it.
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename OffsetT,
          typename ReductionOpT, typename InitT, typename AccumT, typename TransformOpT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SingleTilePolicy::BLOCK_THREADS, 1) void
DeviceReduceCountedFinalKernel(InputIteratorT d_in, const AccumT* d_partials, OutputIteratorT d_out, OffsetT bound,
                               item_count count, unsigned int grid_blocks, ReductionOpT op, InitT init,
                               TransformOpT transform)
{
  using Policy        = typename MaxPolicyT::ActivePolicy::SingleTilePolicy;
  using InputAgent    = AgentReduce<Policy, InputIteratorT, AccumT, OffsetT, ReductionOpT, TransformOpT>;
  using PartialsAgent = AgentReduce<Policy, const AccumT*, AccumT, int, ReductionOpT, Identity>;
  using FirstAgent    = AgentReduce<typename MaxPolicyT::ActivePolicy::ReducePolicy, InputIteratorT, AccumT, OffsetT,
                                 ReductionOpT, TransformOpT>;
  __shared__ typename InputAgent::TempStorage input_storage;
  __shared__ typename PartialsAgent::TempStorage partials_storage;

  GridDependencyWait();
  const OffsetT num_items = count.resolve(bound);
  if (num_items == OffsetT(0))
  {
    if (threadIdx.x == 0)
    {
      *d_out = empty_result(init);
    }
    return;
  }
  AccumT aggregate;
  if (num_items <= OffsetT(Policy::TILE_ITEMS))
  {
    aggregate = InputAgent(input_storage, d_in, op, transform).ConsumeRange(OffsetT(0), num_items);
  }
  else
  {
    const int blocks = partial_blocks<FirstAgent::GRAIN_ITEMS>(num_items, grid_blocks);
    aggregate        = PartialsAgent(partials_storage, d_partials, op, Identity{}).ConsumeRange(0, blocks);
  }
  if (threadIdx.x == 0)
  {
    *d_out = with_init<AccumT>(op, init, aggregate);
  }
}

STRATA_KERNELS_END

} // namespace reduce
} // namespace detail

// The dispatch closure of DeviceReduce. PolicyHub defaults to the tuned hub; a benchmark may pass its own
// hub with a single MaxPolicy.
template <typename InputIteratorT, typename OutputIteratorT, typename OffsetT, typename ReductionOpT, typename InitT,
          typename AccumT       = detail::accumulator_t<ReductionOpT, detail::it_value_t<InputIteratorT>, InitT>,
          typename TransformOpT = Identity,
          typename PolicyHub    = detail::reduce::policy_hub<detail::it_value_t<InputIteratorT>, AccumT, ReductionOpT>,
          typename CountT       = detail::host_count>
struct DispatchReduce
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  OffsetT num_items; // the count, or the bound of a count in device memory
  ReductionOpT op;
  InitT init;
  cudaStream_t stream;
  TransformOpT transform;
  CountT count;
  int device;
  int ptx_version;

  using MaxPolicy = typename PolicyHub::MaxPolicy;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using ReducePolicy     = typename ActivePolicyT::ReducePolicy;
    using SingleTilePolicy = typename ActivePolicyT::SingleTilePolicy;

    // Up to one block's worth of tiles per SM's worth of parallelism, one block does it all.
    if (num_items <= OffsetT(SingleTilePolicy::TILE_ITEMS))
    {
      detail::temporary_storage::layout<1> layout;
      bool mapped = false;
      STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
      if (!mapped)
      {
        return cudaSuccess;
      }
      return detail::check_launch(
        Launch(dim3(1), dim3(SingleTilePolicy::BLOCK_THREADS), stream,
               detail::reduce::DeviceReduceSingleTileKernel<MaxPolicy, InputIteratorT, OutputIteratorT, OffsetT,
                                                            ReductionOpT, InitT, AccumT, TransformOpT, CountT>,
               d_in, d_out, num_items, count, op, init, transform),
        stream);
    }

    // Two passes: partials per block, then one block over the partials. The grid is one full wave of the
    // device (every block resident at once), each block taking an equal share of grains.
    using Agent              = AgentReduce<ReducePolicy, InputIteratorT, AccumT, OffsetT, ReductionOpT, TransformOpT>;
    const auto reduce_kernel = detail::reduce::DeviceReduceKernel<MaxPolicy, InputIteratorT, AccumT, OffsetT,
                                                                  ReductionOpT, TransformOpT, CountT>;
    size_t wave              = 0;
    STRATA_RETURN_IF_ERROR(
      WaveBlocks(wave, reduce_kernel, ReducePolicy::BLOCK_THREADS, device, 0, ReducePolicy::BLOCKS_PER_SM));
    const int grid_size = detail::reduce::partial_blocks<Agent::GRAIN_ITEMS>(
      num_items, static_cast<unsigned int>(wave < 0x7fffffffu ? wave : 0x7fffffffu));

    detail::temporary_storage::layout<1> layout;
    auto partials = layout.get_slot(0)->create_alias<AccumT>(static_cast<size_t>(grid_size));
    bool mapped   = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped)
    {
      return cudaSuccess;
    }

    const auto share = detail::even_share<OffsetT>::make(num_items, Agent::GRAIN_ITEMS, grid_size);
    STRATA_RETURN_IF_ERROR(
      detail::check_launch(Launch(dim3(grid_size), dim3(ReducePolicy::BLOCK_THREADS), stream, reduce_kernel, d_in,
                                  partials.get(), share, count, op, transform),
                           stream));

    // The second pass is launched with programmatic stream serialization where the device has it (sm_90+):
    // its launch overlaps the first pass, and it waits in-kernel for the first pass's partials.
    if constexpr (CountT::IN_DEVICE_MEMORY)
    {
      return detail::check_launch(
        LaunchAfter(ptx_version >= 900, dim3(1), dim3(SingleTilePolicy::BLOCK_THREADS), stream,
                    detail::reduce::DeviceReduceCountedFinalKernel<MaxPolicy, InputIteratorT, OutputIteratorT, OffsetT,
                                                                   ReductionOpT, InitT, AccumT, TransformOpT>,
                    d_in, static_cast<const AccumT*>(partials.get()), d_out, num_items, count,
                    static_cast<unsigned int>(grid_size), op, init, transform),
        stream);
    }
    else
    {
      return detail::check_launch(
        LaunchAfter(ptx_version >= 900, dim3(1), dim3(SingleTilePolicy::BLOCK_THREADS), stream,
                    detail::reduce::DeviceReduceSingleTileKernel<MaxPolicy, AccumT*, OutputIteratorT, int, ReductionOpT,
                                                                 InitT, AccumT, Identity, detail::host_count>,
                    partials.get(), d_out, grid_size, detail::host_count{}, op, init, Identity{}),
        stream);
    }
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the reduction.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, OffsetT num_items, ReductionOpT op, InitT init,
                              cudaStream_t stream, TransformOpT transform = {}, CountT count = {})
  {
    int device      = 0;
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
    DispatchReduce closure{d_temp_storage, temp_storage_bytes, d_in,  d_out,  num_items,  op, init,
                           stream,         transform,          count, device, ptx_version};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
