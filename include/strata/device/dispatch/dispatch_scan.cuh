// DispatchScan: DeviceScan's kernels and the host closure that sizes, checks and launches them.
//
// A scan of more than one tile is two launches: a small kernel marks every tile's status INVALID and zeroes
// the tile counter, then the single-pass kernel runs one wave of resident blocks (at most one per tile) that
// take tiles from the counter until none is left (launched with programmatic stream serialization on sm_90,
// so its launch overlaps the first; it waits in-kernel before touching the tile state).
// A scan of one tile is one launch and needs no tile state. No items: nothing is launched.
//
// Two single-pass kernels: DeviceScanKernel holds tiles in registers (AgentScan) and takes any iterators;
// DeviceScanBulkKernel holds them in shared memory, moved by bulk copies (AgentScanBulk), and runs where the
// active policy has a BulkScanPolicy and the arrays qualify (detail::scan::bulk_tile_of: arrays of one arithmetic
// type, or a by-key scan's keys and values, starting on 16 bytes), on 32-bit offsets: a scan of more than 2^31 - 1
// items takes the register path, so that a program builds the bulk kernel once, not once per offset type (64-bit
// offsets would cost it registers, and blocks per SM, at every size). The temporary storage is sized for whichever
// of the two has more tiles, so that the size query does not depend on where the arrays start.
#pragma once

#include <strata/agent/agent_scan.cuh>
#include <strata/agent/agent_scan_bulk.cuh>
#include <strata/agent/agent_scan_by_key.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_scan.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/cstdint>
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
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
          typename AccumT, typename OffsetT, bool INCLUSIVE, typename OutputOpT, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::ScanPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::ScanPolicy::MIN_BLOCKS_PER_SM) void
DeviceScanKernel(InputIteratorT d_in, OutputIteratorT d_out, ScanTileState<AccumT> tile_state,
                 unsigned int* tile_counter, ScanOpT op, InitValueT init, OffsetT num_items, CountT count,
                 unsigned int num_tiles, unsigned int prefetch_distance, OutputOpT out_op)
{
  using Policy = typename MaxPolicyT::ActivePolicy::ScanPolicy;
  using Agent =
    AgentScan<Policy, InputIteratorT, OutputIteratorT, ScanOpT, InitValueT, AccumT, OffsetT, INCLUSIVE, OutputOpT>;
  __shared__ typename Agent::TempStorage temp_storage;

  GridDependencyWait();
  if (!resolve_tiles(count, num_items, num_tiles, Policy::TILE_ITEMS))
  {
    return;
  }
  Agent(temp_storage, d_in, d_out, op, init, out_op)
    .ConsumeRange(num_items, num_tiles, tile_state, tile_counter, prefetch_distance);
}

// The bulk policy of a policy, or a placeholder for policies without one (the kernel is never launched then).
template <typename PolicyT, typename = void>
struct bulk_policy
{
  static constexpr bool exists = false;
  using type                   = AgentScanBulkPolicy<32, 1>;
};
template <typename PolicyT>
struct bulk_policy<PolicyT, cuda::std::void_t<typename PolicyT::BulkScanPolicy>>
{
  static constexpr bool exists = true;
  using type                   = typename PolicyT::BulkScanPolicy;
};

// As DeviceScanKernel, over arrays that start on 16 bytes (TileT: detail::scan::bulk_tile_of), with tiles in shared
// memory (sm_90).
template <typename MaxPolicyT, typename TileT, typename ScanOpT, typename InitValueT, typename AccumT, typename OffsetT,
          bool INCLUSIVE, typename OutputOpT, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(bulk_policy<typename MaxPolicyT::ActivePolicy>::type::BLOCK_THREADS,
                                           bulk_policy<typename MaxPolicyT::ActivePolicy>::type::MIN_BLOCKS_PER_SM) void
DeviceScanBulkKernel(TileT tile, OutputOpT out_op, ScanTileState<AccumT> tile_state, unsigned int* tile_counter,
                     ScanOpT op, InitValueT init, OffsetT num_items, CountT count, unsigned int num_tiles,
                     unsigned int prefetch_distance)
{
  using Policy = typename bulk_policy<typename MaxPolicyT::ActivePolicy>::type;
  using Agent  = AgentScanBulk<Policy, TileT, ScanOpT, InitValueT, AccumT, OffsetT, INCLUSIVE, OutputOpT>;
  // Dynamic shared memory of sizeof(Agent::TempStorage) bytes: the tile buffers may pass the 48 KiB of static
  // shared memory.
  auto& temp_storage = DynamicSharedStorage<typename Agent::TempStorage>();

  GridDependencyWait();
  if (!resolve_tiles(count, num_items, num_tiles, Agent::TILE_ITEMS))
  {
    return;
  }
  Agent(temp_storage, tile, op, init, out_op)
    .ConsumeRange(num_items, num_tiles, tile_state, tile_counter, prefetch_distance);
}

STRATA_KERNELS_END
} // namespace scan
} // namespace detail

// The dispatch closure of DeviceScan. InitValueT is detail::scan::no_init for scans without an initial value.
template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT, typename OffsetT,
          typename AccumT,
          typename PolicyHub = detail::scan::policy_hub<
            AccumT, ScanOpT, detail::scan::stage_bytes_v<InputIteratorT, OutputIteratorT, AccumT>>,
          bool INCLUSIVE     = cuda::std::is_same<InitValueT, detail::scan::no_init>::value,
          typename OutputOpT = detail::scan::scanned_output, typename CountT = detail::host_count>
struct DispatchScan
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  ScanOpT op;
  InitValueT init;
  OffsetT num_items; // the count, or the bound of a count in device memory
  cudaStream_t stream;
  OutputOpT out_op;
  CountT count;
  int device;
  int ptx_version;

  using MaxPolicy  = typename PolicyHub::MaxPolicy;
  using TileStateT = ScanTileState<AccumT>;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using ScanPolicy = typename ActivePolicyT::ScanPolicy;
    using Bulk       = detail::scan::bulk_policy<ActivePolicyT>;
    using BulkTile = detail::scan::bulk_tile_of<detail::scan::scan_bulk_agent, InputIteratorT, OutputIteratorT, AccumT>;
    constexpr bool BULK = Bulk::exists && sizeof(OffsetT) <= 4 && BulkTile::exists;

    const size_t tiles = num_tiles(ScanPolicy::TILE_ITEMS);
    size_t bulk_tiles  = 0;
    if constexpr (BULK)
    {
      bulk_tiles = num_tiles(bulk_agent_t<typename Bulk::type, typename BulkTile::type>::TILE_ITEMS);
    }
    const size_t most_tiles = tiles > bulk_tiles ? tiles : bulk_tiles;
    if (most_tiles > size_t(0xffffffffu) / 2)
    {
      return cudaErrorInvalidValue; // tiles are numbered by a 32-bit counter
    }

    // Tile state and the tile counter, only when tiles must look back.
    detail::temporary_storage::layout<2> layout;
    const bool look_back = most_tiles > 1;
    auto tile_state_bytes =
      layout.get_slot(0)->create_alias<char>(look_back ? TileStateT::AllocationSize(most_tiles) : 0);
    auto tile_counter = layout.get_slot(1)->create_alias<unsigned int>(look_back ? 1 : 0);
    bool mapped       = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped || num_items == 0)
    {
      return cudaSuccess;
    }

    // Bulk tiles where the input makes the policy's MIN_TILES_PER_SM of them per SM.
    if constexpr (BULK)
    {
      if (ptx_version >= 900 && BulkTile::aligned(d_in, d_out))
      {
        using TileT                 = typename BulkTile::type;
        const auto bulk_kernel      = detail::scan::DeviceScanBulkKernel<MaxPolicy, TileT, ScanOpT, InitValueT, AccumT,
                                                                    OffsetT, INCLUSIVE, OutputOpT, CountT>;
        constexpr size_t smem_bytes = sizeof(typename bulk_agent_t<typename Bulk::type, TileT>::TempStorage);
        int sm_count                = 0;
        STRATA_RETURN_IF_ERROR(SmCount(sm_count, device));
        if (bulk_tiles >= static_cast<size_t>(sm_count) * Bulk::type::MIN_TILES_PER_SM)
        {
          // Before launch sizes the wave: the occupancy query needs the kernel's dynamic shared memory allowed.
          STRATA_RETURN_IF_ERROR(PrepareSharedMemory(bulk_kernel, Bulk::type::BLOCK_THREADS, smem_bytes, device));
          return launch<typename Bulk::type>(bulk_kernel, smem_bytes, bulk_tiles, tile_state_bytes.get(),
                                             tile_counter.get(), BulkTile::make(d_in, d_out), out_op);
        }
      }
    }
    const auto scan_kernel = detail::scan::DeviceScanKernel<MaxPolicy, InputIteratorT, OutputIteratorT, ScanOpT,
                                                            InitValueT, AccumT, OffsetT, INCLUSIVE, OutputOpT, CountT>;
    return launch<ScanPolicy>(scan_kernel, 0, tiles, tile_state_bytes.get(), tile_counter.get(), d_in, d_out, out_op);
  }

  // The bulk agent of a bulk policy and tile.
  template <typename BulkPolicyT, typename TileT>
  using bulk_agent_t = AgentScanBulk<BulkPolicyT, TileT, ScanOpT, InitValueT, AccumT, OffsetT, INCLUSIVE, OutputOpT>;

  // Tiles of `tile_items` items that cover the input.
  size_t num_tiles(int tile_items) const
  {
    return static_cast<size_t>((num_items + OffsetT(tile_items) - 1) / OffsetT(tile_items));
  }

  // Launches `kernel`, a single-pass kernel of PolicyT with `smem_bytes` of dynamic shared memory, over `tiles`
  // tiles, reading `in` and writing `out` (with `rest` after its own arguments): alone for a single tile, else
  // after the init kernel, as one wave of resident blocks (at most one per tile) when PolicyT is persistent and a
  // block per tile otherwise. Either way a block prefetches the tile PREFETCH_QUARTER_WAVES / 4 waves ahead.
  template <typename PolicyT, typename KernelT, typename InT, typename OutT, typename... Rest>
  cudaError_t launch(KernelT kernel, size_t smem_bytes, size_t tiles, char* tile_state_storage,
                     unsigned int* tile_counter, InT in, OutT out, Rest... rest) const
  {
    // The single-pass kernel on `grid` blocks (overlapping the init kernel before it with `programmatic`).
    const auto scan = [&](bool programmatic, unsigned int grid, const TileStateT& tile_state, unsigned int* counter,
                          unsigned int prefetch_distance) {
      return detail::check_launch(LaunchAfterShared(programmatic, dim3(grid), dim3(PolicyT::BLOCK_THREADS), smem_bytes,
                                                    stream, kernel, in, out, tile_state, counter, op, init, num_items,
                                                    count, static_cast<unsigned int>(tiles), prefetch_distance,
                                                    rest...),
                                  stream);
    };
    if (tiles <= 1)
    {
      return scan(false, 1u, TileStateT{}, nullptr, 0u);
    }

    size_t wave = 0;
    STRATA_RETURN_IF_ERROR(WaveBlocks(wave, kernel, PolicyT::BLOCK_THREADS, device, smem_bytes));
    const unsigned int grid_size = static_cast<unsigned int>(!PolicyT::PERSISTENT || tiles < wave ? tiles : wave);

    constexpr int INIT_THREADS = 256;
    const TileStateT tile_state(tile_state_storage, tiles);
    const unsigned int init_grid = static_cast<unsigned int>((tiles + INIT_THREADS - 1) / INIT_THREADS);
    STRATA_RETURN_IF_ERROR(
      detail::check_launch(Launch(dim3(init_grid), dim3(INIT_THREADS), stream,
                                  detail::scan::DeviceScanInitKernel<TileStateT>, tile_state, tiles, tile_counter),
                           stream));
    return scan(ptx_version >= 900, grid_size, tile_state, tile_counter,
                static_cast<unsigned int>(wave * PolicyT::PREFETCH_QUARTER_WAVES / 4));
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the scan.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, ScanOpT op, InitValueT init, OffsetT num_items,
                              cudaStream_t stream, OutputOpT out_op = {}, CountT count = {})
  {
    int device      = 0;
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
    DispatchScan closure{d_temp_storage, temp_storage_bytes, d_in, d_out, op, init, num_items, stream, out_op, count,
                         device,         ptx_version};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
