// DispatchScan: DeviceScan's kernels and the host closure that sizes, checks and launches them.
//
// A scan of more than one tile is two launches: a small kernel marks every tile's status INVALID and zeroes
// the tile counter, then the single-pass kernel runs one block per tile (launched with programmatic stream
// serialization on sm_90, so its launch overlaps the first; it waits in-kernel before touching the tile state).
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

// One tile per block; `tile_counter` is null when there is a single tile.
template <typename MaxPolicyT,
          typename InputIteratorT,
          typename OutputIteratorT,
          typename ScanOpT,
          typename InitValueT,
          typename AccumT,
          typename OffsetT,
          bool INCLUSIVE,
          typename OutputOpT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::ScanPolicy::BLOCK_THREADS) void
DeviceScanKernel(InputIteratorT d_in,
                 OutputIteratorT d_out,
                 ScanTileState<AccumT> tile_state,
                 unsigned int* tile_counter,
                 ScanOpT op,
                 InitValueT init,
                 OffsetT num_items,
                 OutputOpT out_op)
{
  using Policy = typename MaxPolicyT::ActivePolicy::ScanPolicy;
  using Agent =
    AgentScan<Policy, InputIteratorT, OutputIteratorT, ScanOpT, InitValueT, AccumT, OffsetT, INCLUSIVE, OutputOpT>;
  __shared__ typename Agent::TempStorage temp_storage;

  GridDependencyWait();
  Agent(temp_storage, d_in, d_out, op, init, out_op).ConsumeTile(num_items, tile_state, tile_counter);
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
      scan_kernel<<<1, ScanPolicy::BLOCK_THREADS, 0, stream>>>(
        d_in, d_out, TileStateT{}, nullptr, op, init, num_items, out_op);
      return detail::check_launch(stream);
    }

    const TileStateT tile_state(tile_state_bytes.get(), num_tiles);
    const unsigned int init_grid = static_cast<unsigned int>((num_tiles + INIT_THREADS - 1) / INIT_THREADS);
    detail::scan::DeviceScanInitKernel<<<init_grid, INIT_THREADS, 0, stream>>>(tile_state, num_tiles, tile_counter.get());
    STRATA_RETURN_IF_ERROR(detail::check_launch(stream));

    STRATA_RETURN_IF_ERROR(LaunchAfter(ptx_version >= 900,
                                       dim3(static_cast<unsigned int>(num_tiles)),
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
                                       out_op));
    return detail::check_launch(stream);
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
