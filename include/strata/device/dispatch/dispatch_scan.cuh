// DispatchScan: DeviceScan's kernels and the host closure that sizes, checks and launches them.
//
// A scan of more than one tile is two launches: a small kernel marks every tile's status INVALID and zeroes
// the tile counter, then the single-pass kernel runs one wave of resident blocks (at most one per tile) that
// take tiles from the counter until none is left (launched with programmatic stream serialization on sm_90,
// so its launch overlaps the first; it waits in-kernel before touching the tile state).
// A scan of one tile is one launch and needs no tile state. No items: nothing is launched.
#pragma once

#include <strata/agent/agent_scan.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_scan.cuh>
#include <strata/util/device.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace scan
{
STRATA_KERNELS_BEGIN

// Marks every tile INVALID and zeroes the dynamic tile counter.
template <typename TileStateT>
STRATA_KERNEL_ATTRIBUTES void DeviceScanInitKernel(TileStateT tile_state, size_t num_tiles, unsigned int* tile_counter)
{
  // The scan kernel may be launched now; it waits for this grid before it reads anything this grid writes.
  GridLaunchDependents();
  const size_t tile = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (tile < num_tiles)
  {
    tile_state.InitializeStatus(tile);
  }
  if (tile == 0)
  {
    *tile_counter = 0;
  }
}

// Blocks take tiles from `tile_counter` until none is left; `tile_counter` is null when there is a single tile.
template <typename MaxPolicyT,
          typename InputIteratorT,
          typename OutputIteratorT,
          typename ScanOpT,
          typename InitValueT,
          typename AccumT,
          typename OffsetT,
          bool INCLUSIVE,
          typename OutputOpT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::ScanPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::ScanPolicy::MIN_BLOCKS_PER_SM) void
DeviceScanKernel(InputIteratorT d_in,
                 OutputIteratorT d_out,
                 ScanTileState<AccumT> tile_state,
                 unsigned int* tile_counter,
                 ScanOpT op,
                 InitValueT init,
                 OffsetT num_items,
                 unsigned int num_tiles,
                 unsigned int prefetch_distance,
                 OutputOpT out_op)
{
  using Policy = typename MaxPolicyT::ActivePolicy::ScanPolicy;
  using Agent =
    AgentScan<Policy, InputIteratorT, OutputIteratorT, ScanOpT, InitValueT, AccumT, OffsetT, INCLUSIVE, OutputOpT>;
  __shared__ typename Agent::TempStorage temp_storage;

  GridDependencyWait();
  Agent(temp_storage, d_in, d_out, op, init, out_op)
    .ConsumeRange(num_items, num_tiles, tile_state, tile_counter, prefetch_distance);
}

STRATA_KERNELS_END
} // namespace scan
} // namespace detail

// The dispatch closure of DeviceScan. InitValueT is detail::scan::no_init for scans without an initial value.
template <typename InputIteratorT,
          typename OutputIteratorT,
          typename ScanOpT,
          typename InitValueT,
          typename OffsetT,
          typename AccumT,
          typename PolicyHub = detail::scan::policy_hub<AccumT, ScanOpT>,
          bool INCLUSIVE     = cuda::std::is_same<InitValueT, detail::scan::no_init>::value,
          typename OutputOpT = detail::scan::scanned_output>
struct DispatchScan
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  ScanOpT op;
  InitValueT init;
  OffsetT num_items;
  cudaStream_t stream;
  OutputOpT out_op;
  int ptx_version;

  using MaxPolicy  = typename PolicyHub::MaxPolicy;
  using TileStateT = ScanTileState<AccumT>;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using ScanPolicy           = typename ActivePolicyT::ScanPolicy;
    constexpr int INIT_THREADS = 256;
    const size_t num_tiles =
      static_cast<size_t>((num_items + OffsetT(ScanPolicy::TILE_ITEMS) - 1) / OffsetT(ScanPolicy::TILE_ITEMS));

    if (num_tiles > size_t(0xffffffffu) / 2)
    {
      return cudaErrorInvalidValue; // tiles are numbered by a 32-bit counter
    }

    // Tile state and the tile counter, only when tiles must look back.
    detail::temporary_storage::layout<2> layout;
    const bool look_back  = num_tiles > 1;
    auto tile_state_bytes = layout.get_slot(0)->create_alias<char>(look_back ? TileStateT::AllocationSize(num_tiles) : 0);
    auto tile_counter     = layout.get_slot(1)->create_alias<unsigned int>(look_back ? 1 : 0);
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = layout.get_size();
      return cudaSuccess;
    }
    STRATA_RETURN_IF_ERROR(layout.map_to_buffer(d_temp_storage, temp_storage_bytes));
    if (num_items == 0)
    {
      return cudaSuccess;
    }

    const auto scan_kernel = detail::scan::DeviceScanKernel<MaxPolicy,
                                                            InputIteratorT,
                                                            OutputIteratorT,
                                                            ScanOpT,
                                                            InitValueT,
                                                            AccumT,
                                                            OffsetT,
                                                            INCLUSIVE,
                                                            OutputOpT>;
    if (!look_back)
    {
      return detail::check_launch(Launch(dim3(1),
                                         dim3(ScanPolicy::BLOCK_THREADS),
                                         stream,
                                         scan_kernel,
                                         d_in,
                                         d_out,
                                         TileStateT{},
                                         static_cast<unsigned int*>(nullptr),
                                         op,
                                         init,
                                         num_items,
                                         1u,
                                         0u,
                                         out_op),
                                  stream);
    }

    // Persistent: one wave of resident blocks, at most one per tile; else a block per tile. Either way a block
    // prefetches the tile PREFETCH_QUARTER_WAVES / 4 waves ahead.
    int device = 0;
    STRATA_RETURN_IF_ERROR(CurrentDevice(device));
    int sm_count      = 0;
    int blocks_per_sm = 0;
    STRATA_RETURN_IF_ERROR(SmCount(sm_count, device));
    STRATA_RETURN_IF_ERROR(MaxSmOccupancy(blocks_per_sm, scan_kernel, ScanPolicy::BLOCK_THREADS, device));
    const size_t wave = static_cast<size_t>(sm_count) * static_cast<size_t>(blocks_per_sm > 0 ? blocks_per_sm : 1);
    const unsigned int grid_size =
      static_cast<unsigned int>(!ScanPolicy::PERSISTENT || num_tiles < wave ? num_tiles : wave);

    const TileStateT tile_state(tile_state_bytes.get(), num_tiles);
    const unsigned int init_grid = static_cast<unsigned int>((num_tiles + INIT_THREADS - 1) / INIT_THREADS);
    STRATA_RETURN_IF_ERROR(detail::check_launch(
      Launch(dim3(init_grid), dim3(INIT_THREADS), stream, detail::scan::DeviceScanInitKernel<TileStateT>, tile_state,
             num_tiles, tile_counter.get()),
      stream));

    return detail::check_launch(LaunchAfter(ptx_version >= 900,
                                            dim3(grid_size),
                                            dim3(ScanPolicy::BLOCK_THREADS),
                                            stream,
                                            scan_kernel,
                                            d_in,
                                            d_out,
                                            tile_state,
                                            tile_counter.get(),
                                            op,
                                            init,
                                            num_items,
                                            static_cast<unsigned int>(num_tiles),
                                            static_cast<unsigned int>(wave * ScanPolicy::PREFETCH_QUARTER_WAVES / 4),
                                            out_op),
                                stream);
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the scan.
  static cudaError_t Dispatch(void* d_temp_storage,
                              size_t& temp_storage_bytes,
                              InputIteratorT d_in,
                              OutputIteratorT d_out,
                              ScanOpT op,
                              InitValueT init,
                              OffsetT num_items,
                              cudaStream_t stream,
                              OutputOpT out_op = {})
  {
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(PtxVersion(ptx_version));
    DispatchScan closure{d_temp_storage, temp_storage_bytes, d_in, d_out, op, init, num_items, stream, out_op, ptx_version};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
