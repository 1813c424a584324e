// AgentScanBulk: DeviceScan's single-pass body for arrays in memory on sm_90, with each tile held in shared
// memory instead of registers.
//
// A block loads its tile with one bulk copy (cp.async.bulk, completing on an mbarrier), reduces each thread's
// run of consecutive items straight from shared memory, scans the thread aggregates with the tile's prefix from
// the decoupled look-back (detail::scan::tile_scan over one item per thread), scans each run again in place and
// sends the tile out with one bulk copy. Registers hold a few values at a time, not the tile: tiles can be larger
// than the register file allows (36-44 KiB, against 20-24 KiB in AgentScan), so each look-back covers more bytes.
// The grid is one wave of resident blocks that claim tiles in order. A block claims its next tile only when it
// can start loading it at once (its buffer free, the previous tile's bulk store done reading it): a tile's
// successors look back at it, so every moment it spends claimed but not loading, they wait too. For the same
// reason a block never claims ahead into a second buffer. Each block also prefetches into L2 the tile a fraction
// of a wave ahead of the one it claims.
//
// Runs are read and written as 16-byte vectors; an odd number of vectors per thread keeps the eight lanes of each
// shared-memory wavefront on distinct banks. The last tile, which may not be a whole number of 16-byte words,
// moves through plain loads and stores.
#pragma once

#include <strata/agent/agent_scan.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/config.cuh>
#include <strata/util/ptx.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentScanBulk: BLOCK_THREADS threads, each scanning VECTORS_PER_THREAD (odd) 16-byte
// vectors of consecutive items; the look-back and prefetch knobs as in AgentScanPolicy; and MIN_TILES_PER_SM,
// the bulk tiles per SM an input must make to take the bulk path (smaller inputs, in fewer and larger tiles than
// the register path's, would leave SMs idle).
template <int BLOCK_THREADS_, int VECTORS_PER_THREAD_, int LOOK_BACK_DELAY_NS_ = 32, int LOOK_BACK_MAX_DELAY_NS_ = 256,
          int PREFETCH_QUARTER_WAVES_ = 1, int MIN_BLOCKS_PER_SM_ = 1, int MIN_TILES_PER_SM_ = 0>
struct AgentScanBulkPolicy
{
  static_assert(VECTORS_PER_THREAD_ % 2 == 1, "an odd number of 16-byte vectors per thread avoids bank conflicts");
  static constexpr int BLOCK_THREADS                 = BLOCK_THREADS_;
  static constexpr int VECTORS_PER_THREAD            = VECTORS_PER_THREAD_;
  static constexpr int TILE_BYTES                    = BLOCK_THREADS * VECTORS_PER_THREAD * 16;
  static constexpr int LOOK_BACK_DELAY_NS            = LOOK_BACK_DELAY_NS_;
  static constexpr int LOOK_BACK_MAX_DELAY_NS        = LOOK_BACK_MAX_DELAY_NS_;
  static constexpr int PREFETCH_QUARTER_WAVES        = PREFETCH_QUARTER_WAVES_;
  static constexpr int MIN_BLOCKS_PER_SM             = MIN_BLOCKS_PER_SM_;
  static constexpr int MIN_TILES_PER_SM              = MIN_TILES_PER_SM_;
  static constexpr BlockScanAlgorithm SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS;
  static constexpr bool PERSISTENT                   = true;

  // Items of type T in a tile.
  template <typename T>
  static constexpr int tile_items()
  {
    return TILE_BYTES / static_cast<int>(sizeof(T));
  }
};

namespace detail
{
namespace scan
{
// The policy under which tile_scan scans one aggregate per thread of a bulk tile.
template <typename BulkPolicyT>
struct thread_aggregate_policy
{
  static constexpr int BLOCK_THREADS                 = BulkPolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD              = 1;
  static constexpr BlockScanAlgorithm SCAN_ALGORITHM = BulkPolicyT::SCAN_ALGORITHM;
  static constexpr int LOOK_BACK_DELAY_NS            = BulkPolicyT::LOOK_BACK_DELAY_NS;
  static constexpr int LOOK_BACK_MAX_DELAY_NS        = BulkPolicyT::LOOK_BACK_MAX_DELAY_NS;
};

// Whether a scan from InputIteratorT to OutputIteratorT accumulating in AccumT can run on bulk tiles: both are
// pointers to the same 4- or 8-byte arithmetic type (the tile is scanned in place in shared memory), and the
// accumulator is arithmetic. Whether the arrays start on 16 bytes is checked at run time.
template <typename InputIteratorT, typename OutputIteratorT, typename AccumT>
struct bulk_scan_eligible
{
  using in_t                  = cuda::std::remove_cv_t<cuda::std::remove_pointer_t<InputIteratorT>>;
  using out_t                 = cuda::std::remove_cv_t<cuda::std::remove_pointer_t<OutputIteratorT>>;
  static constexpr bool value = cuda::std::is_pointer<InputIteratorT>::value
                             && cuda::std::is_pointer<OutputIteratorT>::value && cuda::std::is_same<in_t, out_t>::value
                             && cuda::std::is_arithmetic<in_t>::value && (sizeof(in_t) == 4 || sizeof(in_t) == 8)
                             && cuda::std::is_arithmetic<AccumT>::value;
};
} // namespace scan
} // namespace detail

// T: the value type of the input and output arrays. INCLUSIVE: inclusive or exclusive scan. InitValueT: the
// initial value's type, or detail::scan::no_init.
template <typename PolicyT, typename T, typename ScanOpT, typename InitValueT, typename AccumT, typename OffsetT,
          bool INCLUSIVE>
class AgentScanBulk
{
  static constexpr int BLOCK_THREADS      = PolicyT::BLOCK_THREADS;
  static constexpr int VECTORS_PER_THREAD = PolicyT::VECTORS_PER_THREAD;
  static constexpr int VECTOR_ITEMS       = 16 / static_cast<int>(sizeof(T));
  static constexpr int ITEMS_PER_THREAD   = VECTORS_PER_THREAD * VECTOR_ITEMS;
  static constexpr int TILE_ITEMS         = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr bool HAS_INIT          = !cuda::std::is_same<InitValueT, detail::scan::no_init>::value;
  static_assert(16 % sizeof(T) == 0, "items pack whole into 16-byte vectors");

  struct alignas(16) vector_t
  {
    T items[VECTOR_ITEMS];
  };

  // An exclusive scan of the thread aggregates: each thread gets the combination of everything before its run
  // (the tile's prefix and init included; undefined for the first thread of tile 0 of a scan without init).
  using TileScanT =
    detail::scan::tile_scan<detail::scan::thread_aggregate_policy<PolicyT>, AccumT, ScanOpT, InitValueT, false>;
  using TileStateT = ScanTileState<AccumT>;

public:
  struct TempStorage
  {
    alignas(128) vector_t tile[TILE_ITEMS / VECTOR_ITEMS];
    typename TileScanT::TempStorage scan;
    cuda::std::uint64_t tile_landed; // mbarrier of the tile's bulk load
    unsigned int tile_idx;
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentScanBulk(TempStorage& temp_storage, const T* d_in, T* d_out, ScanOpT op,
                                                 InitValueT init)
      : temp_storage_(temp_storage)
      , d_in_(d_in)
      , d_out_(d_out)
      , op_(op)
      , init_(init)
  {}

  // Scans tiles until none is left: tile 0 alone when `tile_counter` is null (a single tile), else the tiles the
  // block claims from `tile_counter`. d_in and d_out start on 16 bytes.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(OffsetT num_items, unsigned int num_tiles, TileStateT tile_state,
                                                     unsigned int* tile_counter, unsigned int prefetch_distance)
  {
    NV_IF_TARGET(NV_PROVIDES_SM_90, (consume_range(num_items, num_tiles, tile_state, tile_counter, prefetch_distance);))
  }

private:
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  // Thread 0 claims the block's next tile and starts loading it: a whole tile by one bulk copy, else (the last
  // tile, or no tile left: an index of num_tiles) nothing, with a plain arrival that publishes the index. The
  // claim waits until the buffer is free (the bulk store of the block's previous tile has read it), so that the
  // tile starts loading the moment it is claimed: tiles look back at the tiles claimed just before them, and a
  // tile claimed but not yet loading holds up all of its successors. `exhausted`: the block has claimed the last
  // tile or past it (or the only tile, without `tile_counter`), and claims no more.
  STRATA_DEVICE STRATA_FORCEINLINE void fill(bool& exhausted, OffsetT num_items, unsigned int num_tiles,
                                             unsigned int* tile_counter, unsigned int prefetch_distance)
  {
    unsigned int tile_idx = num_tiles;
    if (!exhausted)
    {
      BulkStoreWaitRead();
      tile_idx  = tile_counter == nullptr ? 0u : atomicAdd(tile_counter, 1u);
      exhausted = tile_counter == nullptr || tile_idx + 1 >= num_tiles;
    }
    temp_storage_.tile_idx    = tile_idx;
    const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    if (tile_idx < num_tiles && num_items - tile_offset > OffsetT(TILE_ITEMS))
    {
      const unsigned long long ahead = static_cast<unsigned long long>(tile_idx) + prefetch_distance;
      if (prefetch_distance > 0 && ahead + 1 < num_tiles)
      {
        PrefetchL2Bulk(d_in_ + static_cast<OffsetT>(ahead) * OffsetT(TILE_ITEMS), PolicyT::TILE_BYTES);
      }
      BulkLoad(temp_storage_.tile, d_in_ + tile_offset, PolicyT::TILE_BYTES, &temp_storage_.tile_landed);
    }
    else
    {
      MbarrierArrive(&temp_storage_.tile_landed);
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE void consume_range(OffsetT num_items, unsigned int num_tiles, TileStateT tile_state,
                                                      unsigned int* tile_counter, unsigned int prefetch_distance)
  {
    bool exhausted = false;
    if (threadIdx.x == 0)
    {
      MbarrierInit(&temp_storage_.tile_landed);
    }
    __syncthreads();
    cuda::std::uint32_t phase = 0;
    while (true)
    {
      // Every thread is past its last read of the tile index and of the buffer, and past its wait on the
      // mbarrier's previous phase (consume ends after a barrier that follows them).
      if (threadIdx.x == 0)
      {
        fill(exhausted, num_items, num_tiles, tile_counter, prefetch_distance);
      }
      MbarrierWait(&temp_storage_.tile_landed, phase);
      phase ^= 1u;
      const unsigned int tile_idx = temp_storage_.tile_idx;
      if (tile_idx >= num_tiles)
      {
        break;
      }
      const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
      if (num_items - tile_offset <= OffsetT(TILE_ITEMS))
      {
        consume<true>(tile_idx, num_items, tile_state);
      }
      else
      {
        consume<false>(tile_idx, num_items, tile_state);
      }
    }
    // Shared memory must outlive the last bulk store's reads of it.
    if (threadIdx.x == 0)
    {
      BulkStoreWaitRead();
    }
  }

  // Scans tile `tile_idx` (in the buffer, loaded unless it is the last tile) and stores it. Ends with every thread
  // past a barrier after its last read of the tile index and its last use of the scan's shared memory, and of the
  // buffer but for the last tile (after which nothing is loaded).
  template <bool IS_LAST_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE void consume(unsigned int tile_idx, OffsetT num_items, TileStateT tile_state)
  {
    const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    vector_t* const tile      = temp_storage_.tile;
    T* const tile_items       = reinterpret_cast<T*>(tile);

    if constexpr (IS_LAST_TILE)
    {
      // Items past the end repeat the tile's first item: they take part in nothing written. Every bulk store
      // must be done reading its buffer first.
      const int valid_items = static_cast<int>(num_items - tile_offset);
      if (threadIdx.x == 0)
      {
        BulkStoreWaitRead();
      }
      __syncthreads();
      for (int i = static_cast<int>(threadIdx.x); i < TILE_ITEMS; i += BLOCK_THREADS)
      {
        tile_items[i] = d_in_[tile_offset + OffsetT(i < valid_items ? i : 0)];
      }
      __syncthreads();
    }

    // Reduce this thread's run, scan the runs' aggregates with the tile's prefix.
    vector_t* const run = tile + threadIdx.x * VECTORS_PER_THREAD;
    AccumT aggregate[1];
    {
      const vector_t first = run[0];
      aggregate[0]         = static_cast<AccumT>(first.items[0]);
      STRATA_UNROLL
      for (int j = 1; j < VECTOR_ITEMS; ++j)
      {
        aggregate[0] = op_(aggregate[0], static_cast<AccumT>(first.items[j]));
      }
    }
    STRATA_UNROLL
    for (int v = 1; v < VECTORS_PER_THREAD; ++v)
    {
      const vector_t x = run[v];
      STRATA_UNROLL
      for (int j = 0; j < VECTOR_ITEMS; ++j)
      {
        aggregate[0] = op_(aggregate[0], static_cast<AccumT>(x.items[j]));
      }
    }
    AccumT prefix[1];
    TileScanT{temp_storage_.scan, op_, init_}(tile_idx, IS_LAST_TILE, aggregate, prefix, tile_state);

    // Scan the run again from its prefix, in place.
    const bool has_prefix = HAS_INIT || tile_idx != 0 || threadIdx.x != 0;
    AccumT running        = prefix[0];
    STRATA_UNROLL
    for (int v = 0; v < VECTORS_PER_THREAD; ++v)
    {
      vector_t x = run[v];
      STRATA_UNROLL
      for (int j = 0; j < VECTOR_ITEMS; ++j)
      {
        const AccumT item = static_cast<AccumT>(x.items[j]);
        if constexpr (INCLUSIVE)
        {
          running    = (v == 0 && j == 0 && !has_prefix) ? item : op_(running, item);
          x.items[j] = static_cast<T>(running);
        }
        else
        {
          x.items[j] = static_cast<T>(running);
          running    = op_(running, item);
        }
      }
      run[v] = x;
    }

    // Store the tile.
    if constexpr (IS_LAST_TILE)
    {
      __syncthreads();
      const int valid_items = static_cast<int>(num_items - tile_offset);
      for (int i = static_cast<int>(threadIdx.x); i < valid_items; i += BLOCK_THREADS)
      {
        d_out_[tile_offset + OffsetT(i)] = tile_items[i];
      }
    }
    else
    {
      ProxyFenceShared();
      __syncthreads();
      if (threadIdx.x == 0)
      {
        BulkStore(d_out_ + tile_offset, tile, PolicyT::TILE_BYTES);
      }
    }
  }
#endif

  TempStorage& temp_storage_;
  const T* d_in_;
  T* d_out_;
  ScanOpT op_;
  InitValueT init_;
};

STRATA_NAMESPACE_END
