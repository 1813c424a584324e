// DispatchScanGpuToGpu: DeviceScan's gpu_to_gpu form (strata/determinism.cuh) for operators that are not exact in any
// association (floating point, user operators; exact ones give the same bits in the default form already). One atom a
// warp (agent/agent_scan_atoms.cuh: AgentScanAtomsBulk with tiles in shared memory on sm_90 for arrays that start on
// 16 bytes, of one arithmetic type or the keys and values of a scan by key; AgentScanAtoms in registers for anything
// else), each chunk of atoms' prefix from the decoupled look-back over one tile-state entry a chunk: the order of
// operations follows from the number of items and their types alone, and the block size and the grid (one wave of
// blocks taking tiles in order) decide only which warp scans which atom. Two launches where there is more than one
// tile (the init kernel of DeviceScan clears the entries and the tile counter; the scan overlaps it on sm_90), one for
// a single tile, none for no items.
#pragma once

#include <strata/agent/agent_scan_atoms.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/dispatch_scan.cuh>
#include <strata/util/device.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace scan_atoms
{
// ScanAtomsPolicy: the register agent's; ScanAtomsBulkPolicy (optional, sm_90): the shared-memory agent's.
template <typename AccumT>
struct policy_hub
{
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using ScanAtomsPolicy = AgentScanAtomsPolicy<512, 1>;
  };
  struct Policy900 : ChainedPolicy<900, Policy900, Policy600>
  {
    using ScanAtomsPolicy     = AgentScanAtomsPolicy<512, 1>;
    using ScanAtomsBulkPolicy = AgentScanAtomsPolicy<256, 6>;
  };
  using MaxPolicy = Policy900;
};

// The bulk policy of a policy, or a placeholder for policies without one (the bulk kernel is never launched then).
template <typename PolicyT, typename = void>
struct bulk_policy
{
  static constexpr bool exists = false;
  using type                   = AgentScanAtomsPolicy<256, 1>;
};
template <typename PolicyT>
struct bulk_policy<PolicyT, cuda::std::void_t<typename PolicyT::ScanAtomsBulkPolicy>>
{
  static constexpr bool exists = true;
  using type                   = typename PolicyT::ScanAtomsBulkPolicy;
};

STRATA_KERNELS_BEGIN

// Each block scans the tile it claims from `tile_counter` (tile 0 alone where that is null).
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
          typename AccumT, typename OffsetT, bool INCLUSIVE>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::ScanAtomsPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::ScanAtomsPolicy::MIN_BLOCKS_PER_SM) void
DeviceScanAtomsKernel(InputIteratorT d_in, OutputIteratorT d_out, ScanTileState<AccumT> tile_state,
                      unsigned int* tile_counter, ScanOpT op, InitValueT init, OffsetT num_items,
                      unsigned int num_tiles)
{
  using Policy = typename MaxPolicyT::ActivePolicy::ScanAtomsPolicy;
  using Agent =
    AgentScanAtoms<Policy, InputIteratorT, OutputIteratorT, ScanOpT, InitValueT, AccumT, OffsetT, INCLUSIVE>;
  __shared__ typename Agent::TempStorage temp_storage;

  GridDependencyWait();
  Agent(temp_storage, d_in, d_out, op, init, num_items, tile_state).ConsumeRange(num_tiles, tile_counter);
}

// As DeviceScanAtomsKernel with tiles in shared memory (sm_90), moved in and out by TileT.
template <typename MaxPolicyT, typename TileT, typename ScanOpT, typename InitValueT, typename AccumT, typename OffsetT,
          bool INCLUSIVE>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(bulk_policy<typename MaxPolicyT::ActivePolicy>::type::BLOCK_THREADS,
                                           bulk_policy<typename MaxPolicyT::ActivePolicy>::type::MIN_BLOCKS_PER_SM) void
DeviceScanAtomsBulkKernel(TileT tile, ScanTileState<AccumT> tile_state, unsigned int* tile_counter, ScanOpT op,
                          InitValueT init, OffsetT num_items, unsigned int num_tiles)
{
  using Policy       = typename bulk_policy<typename MaxPolicyT::ActivePolicy>::type;
  using Agent        = AgentScanAtomsBulk<Policy, TileT, ScanOpT, InitValueT, AccumT, OffsetT, INCLUSIVE>;
  auto& temp_storage = DynamicSharedStorage<typename Agent::TempStorage>();

  GridDependencyWait();
  Agent(temp_storage, tile, op, init, num_items, tile_state).ConsumeRange(num_tiles, tile_counter);
}

STRATA_KERNELS_END
} // namespace scan_atoms
} // namespace detail

// The dispatch closure of the gpu_to_gpu scan. PolicyHub defaults to the library's; a test or benchmark may pass its
// own (the results do not change). InitValueT is detail::scan::no_init for scans without an initial value.
template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT, typename OffsetT,
          typename AccumT, bool INCLUSIVE, typename PolicyHub = detail::scan_atoms::policy_hub<AccumT>>
struct DispatchScanGpuToGpu
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  ScanOpT op;
  InitValueT init;
  OffsetT num_items;
  cudaStream_t stream;
  int device;
  int ptx_version;

  using MaxPolicy  = typename PolicyHub::MaxPolicy;
  using TileStateT = ScanTileState<AccumT>;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy = typename ActivePolicyT::ScanAtomsPolicy;
    using Agent =
      AgentScanAtoms<Policy, InputIteratorT, OutputIteratorT, ScanOpT, InitValueT, AccumT, OffsetT, INCLUSIVE>;
    const size_t atoms = static_cast<size_t>((num_items + OffsetT(Agent::ATOM_ITEMS) - 1) / OffsetT(Agent::ATOM_ITEMS));
    using Bulk         = detail::scan_atoms::bulk_policy<ActivePolicyT>;
    const size_t tiles = (atoms + Agent::WARPS - 1) / Agent::WARPS;
    const size_t chunks = (atoms + Agent::CHUNK_ATOMS - 1) / Agent::CHUNK_ATOMS;
    // The shared-memory path's tiles (the size query does not depend on where the arrays start).
    constexpr size_t BULK_WARPS = Bulk::exists ? Bulk::type::BLOCK_THREADS / 32 : Agent::WARPS;
    const size_t bulk_tiles     = (atoms + BULK_WARPS - 1) / BULK_WARPS;
    if (chunks > size_t(0xffffffffu) / 2)
    {
      return cudaErrorInvalidValue; // tiles are numbered by a 32-bit counter
    }

    // An entry a chunk, and the tile counter, only when tiles must look back.
    detail::temporary_storage::layout<2> layout;
    const bool look_back  = tiles > 1 || bulk_tiles > 1;
    auto tile_state_bytes = layout.get_slot(0)->create_alias<char>(look_back ? TileStateT::AllocationSize(chunks) : 0);
    auto tile_counter     = layout.get_slot(1)->create_alias<unsigned int>(look_back ? 1 : 0);
    bool mapped           = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped || num_items == OffsetT(0))
    {
      return cudaSuccess;
    }

    // Tiles in shared memory where the arrays qualify.
    using Tile =
      detail::scan::bulk_tile_of<detail::scan::scan_atoms_bulk_agent, InputIteratorT, OutputIteratorT, AccumT>;
    if constexpr (Bulk::exists && Tile::exists)
    {
      if (ptx_version >= 900 && Tile::aligned(d_in, d_out))
      {
        using TileT = typename Tile::type;
        static_assert(detail::scan_atoms::atom_items_v<typename TileT::ItemT> == Agent::ATOM_ITEMS,
                      "the shared-memory agent's atoms are the register agent's");
        using BulkAgent =
          AgentScanAtomsBulk<typename Bulk::type, TileT, ScanOpT, InitValueT, AccumT, OffsetT, INCLUSIVE>;
        const auto bulk_kernel = detail::scan_atoms::DeviceScanAtomsBulkKernel<MaxPolicy, TileT, ScanOpT, InitValueT,
                                                                               AccumT, OffsetT, INCLUSIVE>;
        constexpr size_t smem_bytes = sizeof(typename BulkAgent::TempStorage);
        STRATA_RETURN_IF_ERROR(PrepareSharedMemory(bulk_kernel, Bulk::type::BLOCK_THREADS, smem_bytes, device));
        return launch(bulk_kernel, Bulk::type::BLOCK_THREADS, smem_bytes, bulk_tiles, chunks, tile_state_bytes.get(),
                      tile_counter.get(), Tile::make(d_in, d_out));
      }
    }
    const auto kernel = detail::scan_atoms::DeviceScanAtomsKernel<MaxPolicy, InputIteratorT, OutputIteratorT, ScanOpT,
                                                                  InitValueT, AccumT, OffsetT, INCLUSIVE>;
    return launch(kernel, Policy::BLOCK_THREADS, 0, tiles, chunks, tile_state_bytes.get(), tile_counter.get(), d_in,
                  d_out);
  }

  // Launches `kernel` (BLOCK_THREADS threads, smem_bytes of dynamic shared memory) over `tiles` tiles: alone for a
  // single tile, else after the init kernel clears the `chunks` entries and the counter, as one wave of blocks. The
  // kernel's arguments: `io` (its input and output, or its tile), then the scan's.
  template <typename KernelT, typename... IoT>
  cudaError_t launch(KernelT kernel, int block_threads, size_t smem_bytes, size_t tiles, size_t chunks,
                     char* tile_state_storage, unsigned int* tile_counter, IoT... io) const
  {
    if (tiles <= 1)
    {
      return detail::check_launch(LaunchAfterShared(false, dim3(1), dim3(block_threads), smem_bytes, stream, kernel,
                                                    io..., TileStateT{}, static_cast<unsigned int*>(nullptr), op, init,
                                                    num_items, 1u),
                                  stream);
    }
    constexpr int INIT_THREADS = 256;
    const TileStateT tile_state(tile_state_storage, chunks);
    STRATA_RETURN_IF_ERROR(detail::check_launch(
      Launch(dim3(static_cast<unsigned int>((chunks + INIT_THREADS - 1) / INIT_THREADS)), dim3(INIT_THREADS), stream,
             detail::scan::DeviceScanInitKernel<TileStateT>, tile_state, chunks, tile_counter),
      stream));
    size_t wave = 0;
    STRATA_RETURN_IF_ERROR(WaveBlocks(wave, kernel, block_threads, device, smem_bytes));
    return detail::check_launch(LaunchAfterShared(ptx_version >= 900,
                                                  dim3(static_cast<unsigned int>(tiles < wave ? tiles : wave)),
                                                  dim3(block_threads), smem_bytes, stream, kernel, io..., tile_state,
                                                  tile_counter, op, init, num_items, static_cast<unsigned int>(tiles)),
                                stream);
  }

  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, ScanOpT op, InitValueT init, OffsetT num_items,
                              cudaStream_t stream)
  {
    int device      = 0;
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
    DispatchScanGpuToGpu closure{d_temp_storage, temp_storage_bytes, d_in,   d_out,  op,
                                 init,           num_items,          stream, device, ptx_version};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
