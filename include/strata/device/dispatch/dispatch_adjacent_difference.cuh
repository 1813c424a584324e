// DispatchAdjacentDifference: DeviceAdjacentDifference's kernels and the host closure that sizes and launches them.
//
// One block per tile (AgentAdjacentDifference). A tile's edge item needs the item just outside it, which the block
// reads from the input; in place, the block that owns that item may already have overwritten it, so a first kernel
// copies every tile's outside item into temporary storage (one item per tile boundary) and the tiles' kernel, launched
// with programmatic stream serialization on sm_90, reads them from there. The copy forms need no temporary storage.
#pragma once

#include <strata/agent/agent_adjacent_difference.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_adjacent_difference.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace adjacent_difference
{
// What the output stores: the difference operator's result on two input items.
template <typename DifferenceOpT, typename InputT>
using output_t = cuda::std::decay_t<cuda::std::invoke_result_t<DifferenceOpT&, const InputT&, const InputT&>>;

STRATA_KERNELS_BEGIN

// Edge e (e < the number of tiles - 1): the input's item left of tile e + 1 (READ_LEFT), or right of tile e, before
// any tile is overwritten. num_items: the count, or the bound of `count`'s.
template <typename InputIteratorT, typename InputT, typename OffsetT, typename CountT, bool READ_LEFT>
STRATA_KERNEL_ATTRIBUTES void DeviceAdjacentDifferenceEdgesKernel(InputIteratorT d_in, InputT* d_edges,
                                                                  OffsetT num_items, CountT count, OffsetT tile_items)
{
  unsigned int num_tiles = static_cast<unsigned int>((num_items + tile_items - OffsetT(1)) / tile_items);
  if (!resolve_tiles(count, num_items, num_tiles, static_cast<int>(tile_items)))
  {
    return;
  }
  const OffsetT edge = static_cast<OffsetT>(blockIdx.x) * OffsetT(blockDim.x) + OffsetT(threadIdx.x);
  if (edge + OffsetT(1) < static_cast<OffsetT>(num_tiles))
  {
    d_edges[edge] = d_in[(edge + OffsetT(1)) * tile_items - OffsetT(READ_LEFT ? 1 : 0)];
  }
}

// Block b differences tile b; d_edges: the edge items in place, else nullptr. num_items: the count, or the bound of
// `count`'s (blocks past the count's tiles return).
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename DifferenceOpT,
          typename OffsetT, typename InputT, typename OutputT, typename CountT, bool READ_LEFT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::AdjacentDifferencePolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::AdjacentDifferencePolicy::MIN_BLOCKS_PER_SM) void
DeviceAdjacentDifferenceKernel(InputIteratorT d_in, OutputIteratorT d_out, const InputT* d_edges,
                               DifferenceOpT difference_op, OffsetT num_items, CountT count)
{
  using Policy = typename MaxPolicyT::ActivePolicy::AdjacentDifferencePolicy;
  using Agent  = AgentAdjacentDifference<Policy, InputIteratorT, OutputIteratorT, DifferenceOpT, OffsetT, InputT,
                                        OutputT, READ_LEFT>;
  __shared__ typename Agent::TempStorage temp_storage;

  // In place, the edges kernel runs first: nothing is read before it is done (a count in device memory neither).
  GridDependencyWait();
  unsigned int num_tiles = gridDim.x;
  if (!resolve_tiles(count, num_items, num_tiles, Policy::TILE_ITEMS) || blockIdx.x >= num_tiles)
  {
    return;
  }
  Agent(temp_storage, d_in, d_out, d_edges, difference_op, num_items).ConsumeTile(static_cast<OffsetT>(blockIdx.x));
}

STRATA_KERNELS_END
} // namespace adjacent_difference
} // namespace detail

// IN_PLACE: the output is the input (the edge items are copied first). READ_LEFT: output[i] = op(input[i],
// input[i - 1]) and output[0] = input[0]; otherwise output[i] = op(input[i], input[i + 1]) and the last item is copied.
// CountT: detail::host_count (num_items is the count), or detail::item_count (num_items bounds a count in device
// memory, which the kernels read).
template <typename InputIteratorT, typename OutputIteratorT, typename DifferenceOpT, typename OffsetT, bool IN_PLACE,
          bool READ_LEFT,
          typename PolicyHub = detail::adjacent_difference::policy_hub<
            detail::it_value_t<InputIteratorT>,
            detail::adjacent_difference::output_t<DifferenceOpT, detail::it_value_t<InputIteratorT>>>,
          typename CountT = detail::host_count>
struct DispatchAdjacentDifference
{
  using InputT    = detail::it_value_t<InputIteratorT>;
  using OutputT   = detail::adjacent_difference::output_t<DifferenceOpT, InputT>;
  using MaxPolicy = typename PolicyHub::MaxPolicy;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  OffsetT num_items;
  DifferenceOpT difference_op;
  cudaStream_t stream;
  int ptx_version;
  CountT count;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy            = typename ActivePolicyT::AdjacentDifferencePolicy;
    constexpr int TILE      = Policy::TILE_ITEMS;
    const OffsetT num_tiles = (num_items + OffsetT(TILE - 1)) / OffsetT(TILE);
    if (static_cast<unsigned long long>(num_tiles) > 0x7fffffffULL)
    {
      return cudaErrorInvalidValue; // more tiles than a grid has blocks
    }
    const OffsetT num_edges = IN_PLACE && num_tiles > OffsetT(1) ? num_tiles - OffsetT(1) : OffsetT(0);

    detail::temporary_storage::layout<1> layout;
    auto edges  = layout.get_slot(0)->create_alias<InputT>(static_cast<size_t>(num_edges));
    bool mapped = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped || num_items == OffsetT(0))
    {
      return cudaSuccess;
    }

    InputT* const d_edges = num_edges > OffsetT(0) ? edges.get() : nullptr;
    if (d_edges != nullptr)
    {
      constexpr int EDGE_THREADS = 256;
      const auto edges_kernel =
        detail::adjacent_difference::DeviceAdjacentDifferenceEdgesKernel<InputIteratorT, InputT, OffsetT, CountT,
                                                                         READ_LEFT>;
      const unsigned int edge_blocks =
        static_cast<unsigned int>((num_edges + OffsetT(EDGE_THREADS - 1)) / OffsetT(EDGE_THREADS));
      STRATA_RETURN_IF_ERROR(detail::check_launch(Launch(dim3(edge_blocks), dim3(EDGE_THREADS), stream, edges_kernel,
                                                         d_in, d_edges, num_items, count, OffsetT(TILE)),
                                                  stream));
    }
    const auto kernel = detail::adjacent_difference::DeviceAdjacentDifferenceKernel<
      MaxPolicy, InputIteratorT, OutputIteratorT, DifferenceOpT, OffsetT, InputT, OutputT, CountT, READ_LEFT>;
    return detail::check_launch(LaunchAfter(d_edges != nullptr && ptx_version >= 900,
                                            dim3(static_cast<unsigned int>(num_tiles)), dim3(Policy::BLOCK_THREADS),
                                            stream, kernel, d_in, d_out, static_cast<const InputT*>(d_edges),
                                            difference_op, num_items, count),
                                stream);
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the differences.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, OffsetT num_items, DifferenceOpT difference_op,
                              cudaStream_t stream, CountT count = {})
  {
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(PtxVersion(ptx_version));
    DispatchAdjacentDifference closure{d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, difference_op,
                                       stream,         ptx_version,        count};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
