// DispatchBatchMemcpy: the kernels of DeviceMemcpy::Batched and DeviceCopy::Batched, and the host closure that sizes
// and launches them.
//
// Three launches (agent/agent_batch_memcpy.cuh): the plan kernel sums the buffers' costs per plan tile into temporary
// storage, one block turns those sums into their exclusive prefix sum and the total, and one wave of blocks copies,
// each warp its even share of the plan. The second and third are launched with programmatic stream serialization on
// sm_90 and wait for the kernel before them ahead of their first read. The temporary storage holds one 8-byte word
// per plan tile and one more.
#pragma once

#include <strata/agent/agent_batch_memcpy.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_batch_memcpy.cuh>
#include <strata/util/device.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace batch_memcpy
{
// How DeviceCopy::Batched moves its ranges: as bytes (MEMCPY) where input and output ranges are pointers to one
// trivially copyable type, whose element-wise assignment copies its bytes; otherwise item by item through the
// ranges' iterators.
template <typename InputIt, typename OutputIt>
struct copy_kind
{
  using InputRangeT  = it_value_t<InputIt>;
  using OutputRangeT = it_value_t<OutputIt>;
  using InputItemT   = cuda::std::remove_pointer_t<InputRangeT>;
  using OutputItemT  = cuda::std::remove_pointer_t<OutputRangeT>;

  static constexpr bool MEMCPY = cuda::std::is_pointer<InputRangeT>::value && cuda::std::is_pointer<OutputRangeT>::value
                              && !cuda::std::is_void<InputItemT>::value && !cuda::std::is_const<OutputItemT>::value
                              && !cuda::std::is_volatile<InputItemT>::value
                              && !cuda::std::is_volatile<OutputItemT>::value
                              && cuda::std::is_same<cuda::std::remove_cv_t<InputItemT>, OutputItemT>::value
                              && cuda::std::is_trivially_copyable<OutputItemT>::value;
  static constexpr int ITEM_BYTES = MEMCPY ? static_cast<int>(sizeof(OutputItemT)) : 1;
  // The policy hub's ITEM_SIZE: 0 for bytes, else the input items' size.
  static constexpr int ITEM_SIZE = MEMCPY ? 0 : static_cast<int>(sizeof(non_void_value_t<InputRangeT, char>));
};

STRATA_KERNELS_BEGIN

// Warp w of block b sums the costs of plan tile b * warps + w into d_tile_costs.
template <typename MaxPolicyT, typename BufferSizeIteratorT, typename OffsetT, bool MEMCPY, int ITEM_BYTES>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(PLAN_BLOCK_THREADS) void
DeviceBatchMemcpyPlanKernel(BufferSizeIteratorT sizes, OffsetT num_buffers, position_t* d_tile_costs, OffsetT num_tiles)
{
  using Policy = typename MaxPolicyT::ActivePolicy::BatchMemcpyPolicy;
  using Agent  = AgentBatchMemcpyPlan<Policy, BufferSizeIteratorT, OffsetT, MEMCPY, ITEM_BYTES>;
  __shared__ typename Agent::TempStorage temp_storage;

  // The scan's single block may start now: it waits for this grid before it reads.
  GridLaunchDependents();
  const OffsetT tile = static_cast<OffsetT>(blockIdx.x) * OffsetT(PLAN_BLOCK_THREADS / WARP_THREADS)
                     + static_cast<OffsetT>(threadIdx.x / WARP_THREADS);
  if (tile < num_tiles)
  {
    Agent(temp_storage, sizes, num_buffers).TileCost(tile, d_tile_costs);
  }
}

// One block: the tiles' costs become their exclusive prefix sum, and d_tiles[num_tiles] the total.
template <typename OffsetT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(SCAN_BLOCK_THREADS) void DeviceBatchMemcpyScanKernel(position_t* d_tiles,
                                                                                                OffsetT num_tiles)
{
  using Agent = AgentBatchMemcpyScanTiles<OffsetT>;
  __shared__ typename Agent::TempStorage temp_storage;

  GridLaunchDependents();
  GridDependencyWait();
  Agent(temp_storage).Process(d_tiles, num_tiles);
}

// One wave of blocks; each warp copies its even share of the plan.
template <typename MaxPolicyT, typename InputBufferIt, typename OutputBufferIt, typename BufferSizeIteratorT,
          typename OffsetT, bool MEMCPY, int ITEM_BYTES>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::BatchMemcpyPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::BatchMemcpyPolicy::MIN_BLOCKS_PER_SM) void
DeviceBatchMemcpyKernel(InputBufferIt input_it, OutputBufferIt output_it, BufferSizeIteratorT sizes,
                        OffsetT num_buffers, const position_t* d_tile_prefix, OffsetT num_tiles)
{
  using Policy = typename MaxPolicyT::ActivePolicy::BatchMemcpyPolicy;
  using Agent =
    AgentBatchMemcpy<Policy, InputBufferIt, OutputBufferIt, BufferSizeIteratorT, OffsetT, MEMCPY, ITEM_BYTES>;
  __shared__ typename Agent::TempStorage temp_storage;

  // The tiles' scan runs first: nothing is read before it is done.
  GridDependencyWait();
  Agent(temp_storage, input_it, output_it, sizes, num_buffers).Process(d_tile_prefix, num_tiles);
}

STRATA_KERNELS_END
} // namespace batch_memcpy
} // namespace detail

// MEMCPY: the buffers' items are ITEM_BYTES bytes each and copied as bytes, the iterators yielding pointers
// (DeviceMemcpy: ITEM_BYTES = 1, sizes in bytes); otherwise item by item through the ranges' iterators.
template <typename InputBufferIt, typename OutputBufferIt, typename BufferSizeIteratorT, typename OffsetT, bool MEMCPY,
          int ITEM_BYTES,
          typename PolicyHub = detail::batch_memcpy::policy_hub<
            MEMCPY ? 0 : detail::batch_memcpy::copy_kind<InputBufferIt, OutputBufferIt>::ITEM_SIZE>>
struct DispatchBatchMemcpy
{
  using MaxPolicy  = typename PolicyHub::MaxPolicy;
  using position_t = detail::batch_memcpy::position_t;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputBufferIt input_it;
  OutputBufferIt output_it;
  BufferSizeIteratorT sizes;
  OffsetT num_buffers;
  cudaStream_t stream;
  int device;
  int ptx_version;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy               = typename ActivePolicyT::BatchMemcpyPolicy;
    constexpr int TILE_BUFFERS = Policy::PLAN_TILE_BUFFERS;
    constexpr int PLAN_WARPS   = detail::batch_memcpy::PLAN_BLOCK_THREADS / WARP_THREADS;
    const OffsetT num_tiles =
      num_buffers == OffsetT(0) ? OffsetT(0) : (num_buffers - OffsetT(1)) / OffsetT(TILE_BUFFERS) + OffsetT(1);

    detail::temporary_storage::layout<1> layout;
    auto tiles  = layout.get_slot(0)->create_alias<position_t>(num_tiles > 0 ? static_cast<size_t>(num_tiles) + 1 : 0);
    bool mapped = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped || num_buffers == OffsetT(0))
    {
      return cudaSuccess;
    }
    const unsigned long long plan_blocks = (static_cast<unsigned long long>(num_tiles) + PLAN_WARPS - 1) / PLAN_WARPS;
    if (plan_blocks > 0x7fffffffULL)
    {
      return cudaErrorInvalidValue; // more plan tiles than a grid has blocks
    }

    const auto plan_kernel =
      detail::batch_memcpy::DeviceBatchMemcpyPlanKernel<MaxPolicy, BufferSizeIteratorT, OffsetT, MEMCPY, ITEM_BYTES>;
    const auto scan_kernel = detail::batch_memcpy::DeviceBatchMemcpyScanKernel<OffsetT>;
    const auto copy_kernel =
      detail::batch_memcpy::DeviceBatchMemcpyKernel<MaxPolicy, InputBufferIt, OutputBufferIt, BufferSizeIteratorT,
                                                    OffsetT, MEMCPY, ITEM_BYTES>;
    size_t wave = 0;
    STRATA_RETURN_IF_ERROR(WaveBlocks(wave, copy_kernel, Policy::BLOCK_THREADS, device));
    const bool programmatic   = ptx_version >= 900;
    position_t* const d_tiles = tiles.get();

    STRATA_RETURN_IF_ERROR(detail::check_launch(Launch(dim3(static_cast<unsigned int>(plan_blocks)),
                                                       dim3(detail::batch_memcpy::PLAN_BLOCK_THREADS), stream,
                                                       plan_kernel, sizes, num_buffers, d_tiles, num_tiles),
                                                stream));
    STRATA_RETURN_IF_ERROR(
      detail::check_launch(LaunchAfter(programmatic, dim3(1), dim3(detail::batch_memcpy::SCAN_BLOCK_THREADS), stream,
                                       scan_kernel, d_tiles, num_tiles),
                           stream));
    return detail::check_launch(LaunchAfter(programmatic, dim3(static_cast<unsigned int>(wave)),
                                            dim3(Policy::BLOCK_THREADS), stream, copy_kernel, input_it, output_it,
                                            sizes, num_buffers, static_cast<const position_t*>(d_tiles), num_tiles),
                                stream);
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the batched copy.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputBufferIt input_it,
                              OutputBufferIt output_it, BufferSizeIteratorT sizes, OffsetT num_buffers,
                              cudaStream_t stream)
  {
    int device      = 0;
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
    DispatchBatchMemcpy closure{d_temp_storage, temp_storage_bytes, input_it, output_it, sizes, num_buffers, stream,
                                device,         ptx_version};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
