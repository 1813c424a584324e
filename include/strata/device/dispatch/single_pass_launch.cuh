// The launch sequence of the single-pass kernels that count what they write (DeviceSelect, DevicePartition and its
// three-way form, DeviceReduce::ReduceByKey): the temporary storage (tile states and a tile counter), and
//
// - more than one tile: a small kernel marks every tile's status INVALID and zeroes the tile counter, then the
//   single-pass kernel runs one wave of resident blocks that take tiles from the counter (launched with programmatic
//   stream serialization on sm_90; it waits in-kernel before touching the tile state);
// - one tile: the single-pass kernel alone, without tile state;
// - no items: one thread writes the counts, 0.
//
// A count in device memory (strata::device_count) sizes all of that by its bound; the single-pass kernel reads the
// count (resolve_items) and takes only its tiles, and where the count is 0 its first thread writes the counts, 0.
#pragma once

#include <strata/config.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace single_pass
{
// Writes the NUM_COUNTS counts, 0.
template <int NUM_COUNTS, typename OffsetT, typename NumSelectedIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void write_zero_counts(NumSelectedIteratorT d_num_selected_out)
{
  using CountT = non_void_value_t<NumSelectedIteratorT, OffsetT>;
  for (int k = 0; k < NUM_COUNTS; ++k)
  {
    d_num_selected_out[k] = static_cast<CountT>(0);
  }
}

// The items and tiles of a single-pass kernel's run, where its count is in device memory (num_items and num_tiles
// came from the bound): reads the count, after the kernel's grid dependency wait. False when there are no items; the
// first thread has then written the NUM_COUNTS counts, 0.
template <int TILE_ITEMS, int NUM_COUNTS = 1, typename CountT, typename OffsetT, typename NumSelectedIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE bool resolve_items(const CountT& count, OffsetT& num_items, unsigned int& num_tiles,
                                                    NumSelectedIteratorT d_num_selected_out)
{
  if (resolve_tiles(count, num_items, num_tiles, TILE_ITEMS))
  {
    return true;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
  {
    write_zero_counts<NUM_COUNTS, OffsetT>(d_num_selected_out);
  }
  return false;
}

STRATA_KERNELS_BEGIN

// Marks every tile INVALID and zeroes the tile counter; with `write_zero` (no items), writes the NUM_COUNTS counts
// (DeviceSelect's one, a three-way partition's two; DeviceReduce::ReduceByKey's one), 0.
template <typename TileStateT, typename NumSelectedIteratorT, typename OffsetT, int NUM_COUNTS = 1>
STRATA_KERNEL_ATTRIBUTES void DeviceSinglePassInitKernel(TileStateT tile_state, size_t num_tiles,
                                                         unsigned int* tile_counter,
                                                         NumSelectedIteratorT d_num_selected_out, bool write_zero)
{
  GridLaunchDependents();
  const size_t tile = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (tile < num_tiles)
  {
    tile_state.InitializeStatus(tile);
  }
  if (tile == 0 && tile_counter != nullptr)
  {
    *tile_counter = 0;
  }
  if (tile == 0 && write_zero)
  {
    write_zero_counts<NUM_COUNTS, OffsetT>(d_num_selected_out);
  }
}

STRATA_KERNELS_END

// The launches of a single pass over the tiles of Policy (DeviceSelect's, DevicePartition's, the three-way
// partition's and DeviceReduce::ReduceByKey's): sizes or maps the temporary storage (tile states and the tile
// counter), then launches `init_kernel` (a DeviceSinglePassInitKernel) and `sweep(programmatic, grid, tile_state,
// tile_counter, prefetch_distance, num_tiles)`, the single-pass kernel `kernel` on `grid` blocks. No items:
// init_kernel writes the counts, 0. One tile: the sweep alone, without tile state. num_items is the bound of a count
// in device memory (the sweep's kernel then calls resolve_items). `dynamic_smem`: the kernel's dynamic shared memory
// per block; `state_tiles`: the most tiles of any policy the call may run on (the size query and the run must agree
// on the storage, and the run's choice of policy may depend on what the query does not see, such as alignment).
template <typename Policy, typename TileStateT, typename OffsetT, typename NumSelectedIteratorT, typename InitKernelT,
          typename KernelT, typename SweepT>
cudaError_t launch(void* d_temp_storage, size_t& temp_storage_bytes, OffsetT num_items,
                   NumSelectedIteratorT d_num_selected_out, InitKernelT init_kernel, KernelT kernel, SweepT&& sweep,
                   cudaStream_t stream, int device, int ptx_version, size_t dynamic_smem = 0, size_t state_tiles = 0)
{
  const size_t tiles = static_cast<size_t>((num_items + OffsetT(Policy::TILE_ITEMS) - 1) / OffsetT(Policy::TILE_ITEMS));
  state_tiles        = state_tiles > tiles ? state_tiles : tiles;
  if (state_tiles > size_t(0xffffffffu) / 2)
  {
    return cudaErrorInvalidValue; // tiles are numbered by a 32-bit counter
  }

  temporary_storage::layout<2> layout;
  const bool look_back = state_tiles > 1;
  auto tile_state_bytes =
    layout.get_slot(0)->create_alias<char>(look_back ? TileStateT::AllocationSize(state_tiles) : 0);
  auto tile_counter = layout.get_slot(1)->create_alias<unsigned int>(look_back ? 1 : 0);
  bool mapped       = false;
  STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
  if (!mapped)
  {
    return cudaSuccess;
  }

  constexpr int INIT_THREADS = 256;
  if (tiles == 0)
  {
    return check_launch(Launch(dim3(1), dim3(1), stream, init_kernel, TileStateT{}, size_t(0), nullptr,
                               d_num_selected_out, true),
                        stream);
  }
  if (tiles == 1)
  {
    return sweep(false, 1u, TileStateT{}, static_cast<unsigned int*>(nullptr), 0u, 1u);
  }

  size_t wave = 0;
  STRATA_RETURN_IF_ERROR(WaveBlocks(wave, kernel, Policy::BLOCK_THREADS, device, dynamic_smem));
  const unsigned int grid_size = static_cast<unsigned int>(!Policy::PERSISTENT || tiles < wave ? tiles : wave);
  const TileStateT tile_state(tile_state_bytes.get(), tiles);
  const unsigned int init_grid = static_cast<unsigned int>((tiles + INIT_THREADS - 1) / INIT_THREADS);
  STRATA_RETURN_IF_ERROR(check_launch(Launch(dim3(init_grid), dim3(INIT_THREADS), stream, init_kernel, tile_state,
                                             tiles, tile_counter.get(), d_num_selected_out, false),
                                      stream));
  return sweep(ptx_version >= 900, grid_size, tile_state, tile_counter.get(),
               static_cast<unsigned int>(wave * Policy::PREFETCH_QUARTER_WAVES / 4), static_cast<unsigned int>(tiles));
}
} // namespace single_pass
} // namespace detail
STRATA_NAMESPACE_END
