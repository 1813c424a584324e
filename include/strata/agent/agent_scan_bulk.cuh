// AgentScanBulk: DeviceScan's single-pass body for arrays in memory on sm_90 (one array of items, or the keys and
// values of a scan by key), with each tile held in shared memory instead of registers.
//
// A block loads its tile with bulk copies (cp.async.bulk, completing on an mbarrier), reduces each thread's
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
  static constexpr int LOOK_BACK_DELAY_NS            = LOOK_BACK_DELAY_NS_;
  static constexpr int LOOK_BACK_MAX_DELAY_NS        = LOOK_BACK_MAX_DELAY_NS_;
  static constexpr int PREFETCH_QUARTER_WAVES        = PREFETCH_QUARTER_WAVES_;
  static constexpr int MIN_BLOCKS_PER_SM             = MIN_BLOCKS_PER_SM_;
  static constexpr int MIN_TILES_PER_SM              = MIN_TILES_PER_SM_;
  static constexpr BlockScanAlgorithm SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS;
  static constexpr bool PERSISTENT                   = true;
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

// The shared memory of a bulk tile of N items and its copies, for AgentScanBulk's and AgentScanAtomsBulk's tiles:
// bulk_items<T> (items of T in, results of T out) and bulk_keyed<K, V> (keys and values in, results over the values
// out). Each has `storage<N>` (arrays on 128 bytes) and
//   load_whole   thread 0: the bulk copies of a whole tile at `offset`, completing the phase of an mbarrier;
//   prefetch     thread 0: an L2 prefetch of a whole tile;
//   load_last    every thread: a last tile item by item, items past the `valid` ones repeating the first (a barrier
//                follows);
//   store_whole  thread 0: the bulk copy of a whole tile's results out (after a barrier and a proxy fence);
//   store_last   every thread: the valid results out, item by item (after a barrier).
template <typename T>
struct bulk_items
{
  template <int N>
  struct storage
  {
    alignas(128) T items[N];
  };

  const T* in;
  T* out;

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  template <int N, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void load_whole(storage<N>& s, OffsetT offset, cuda::std::uint64_t* bar)
  {
    BulkLoad(s.items, in + offset, static_cast<cuda::std::uint32_t>(sizeof(s.items)), bar);
  }

  template <int N>
  STRATA_DEVICE STRATA_FORCEINLINE void store_whole(storage<N>& s, cuda::std::size_t offset)
  {
    BulkStore(out + offset, s.items, static_cast<cuda::std::uint32_t>(sizeof(s.items)));
  }
#endif

  template <int N>
  STRATA_DEVICE STRATA_FORCEINLINE void prefetch(cuda::std::size_t offset)
  {
    PrefetchL2Bulk(in + offset, static_cast<unsigned int>(N * sizeof(T)));
  }

  template <int N, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void load_last(storage<N>& s, OffsetT offset, int valid, int thread, int threads)
  {
    for (int i = thread; i < N; i += threads)
    {
      s.items[i] = in[offset + OffsetT(i < valid ? i : 0)];
    }
  }

  template <int N, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void store_last(storage<N>& s, OffsetT offset, int valid, int thread, int threads)
  {
    for (int i = thread; i < valid; i += threads)
    {
      out[offset + OffsetT(i)] = s.items[i];
    }
  }
};

// Also the key before the tile's first item (read by the thread that loads the tile), for the first item's head.
template <typename K, typename V>
struct bulk_keyed
{
  template <int N>
  struct storage
  {
    alignas(128) K keys[N];
    alignas(128) V values[N];
    K before;        // the key before the tile's first item
    bool has_before; // whether there is one (all tiles but the first)
  };

  const K* keys;
  const V* values;
  V* out;

  template <int N, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void set_before(storage<N>& s, OffsetT offset)
  {
    s.has_before = offset != OffsetT(0);
    if (s.has_before)
    {
      s.before = keys[offset - OffsetT(1)];
    }
  }

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  template <int N, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void load_whole(storage<N>& s, OffsetT offset, cuda::std::uint64_t* bar)
  {
    set_before(s, offset);
    MbarrierArriveExpect(bar, static_cast<cuda::std::uint32_t>(sizeof(s.keys) + sizeof(s.values)));
    BulkCopyIn(s.keys, keys + offset, static_cast<cuda::std::uint32_t>(sizeof(s.keys)), bar);
    BulkCopyIn(s.values, values + offset, static_cast<cuda::std::uint32_t>(sizeof(s.values)), bar);
  }

  template <int N>
  STRATA_DEVICE STRATA_FORCEINLINE void store_whole(storage<N>& s, cuda::std::size_t offset)
  {
    BulkStore(out + offset, s.values, static_cast<cuda::std::uint32_t>(sizeof(s.values)));
  }
#endif

  template <int N>
  STRATA_DEVICE STRATA_FORCEINLINE void prefetch(cuda::std::size_t offset)
  {
    PrefetchL2Bulk(keys + offset, static_cast<unsigned int>(N * sizeof(K)));
    PrefetchL2Bulk(values + offset, static_cast<unsigned int>(N * sizeof(V)));
  }

  template <int N, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void load_last(storage<N>& s, OffsetT offset, int valid, int thread, int threads)
  {
    if (thread == 0)
    {
      set_before(s, offset);
    }
    for (int i = thread; i < N; i += threads)
    {
      const OffsetT at = offset + OffsetT(i < valid ? i : 0);
      s.keys[i]        = keys[at];
      s.values[i]      = values[at];
    }
  }

  template <int N, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void store_last(storage<N>& s, OffsetT offset, int valid, int thread, int threads)
  {
    for (int i = thread; i < valid; i += threads)
    {
      out[offset + OffsetT(i)] = s.values[i];
    }
  }
};

// The tiles of AgentScanBulk: bulk_items or bulk_keyed, and how a tile's 16-byte vectors of VECTOR_ITEMS items become
// accumulators and take their results (value_t): a thread's state along its run (`run_t`, from `begin_run` at the
// run's first vector), `load` (a vector's items as accumulators, in run order: the state carries what the next
// vector needs) and `store` (a vector's results, in place).

// Arrays of one 4- or 8-byte arithmetic type T, scanned in place.
template <typename T>
struct bulk_array_tile : bulk_items<T>
{
  static_assert(16 % sizeof(T) == 0, "items pack whole into 16-byte vectors");
  using value_t                     = T;
  static constexpr int VECTOR_ITEMS = 16 / static_cast<int>(sizeof(T));
  struct alignas(16) vector_t
  {
    T items[VECTOR_ITEMS];
  };
  template <int N>
  using storage = typename bulk_items<T>::template storage<N>;
  struct run_t
  {};

  template <int N>
  STRATA_DEVICE STRATA_FORCEINLINE run_t begin_run(const storage<N>&, int)
  {
    return {};
  }

  template <int N, typename AccumT>
  STRATA_DEVICE STRATA_FORCEINLINE void load(const storage<N>& s, int v, AccumT (&x)[VECTOR_ITEMS], run_t&)
  {
    const vector_t loaded = reinterpret_cast<const vector_t*>(s.items)[v];
    STRATA_UNROLL
    for (int j = 0; j < VECTOR_ITEMS; ++j)
    {
      x[j] = static_cast<AccumT>(loaded.items[j]);
    }
  }

  template <int N>
  STRATA_DEVICE STRATA_FORCEINLINE void store(storage<N>& s, int v, const T (&results)[VECTOR_ITEMS])
  {
    vector_t stored;
    STRATA_UNROLL
    for (int j = 0; j < VECTOR_ITEMS; ++j)
    {
      stored.items[j] = results[j];
    }
    reinterpret_cast<vector_t*>(s.items)[v] = stored;
  }
};

// The agents that take bulk tiles: AgentScanBulk (the default scans) and AgentScanAtomsBulk (the gpu_to_gpu scans).
struct scan_bulk_agent
{};
struct scan_atoms_bulk_agent
{};

// AgentT's bulk tile for a scan from InputIteratorT to OutputIteratorT accumulating in AccumT, where one fits:
// `exists`, its `type`, whether the arrays qualify at run time (`aligned`: they start on 16 bytes, starts_on_16) and
// the tile over them (`make`). Here: AgentScanBulk's over pointers to the same 4- or 8-byte arithmetic type (scanned
// in place in shared memory) with an arithmetic accumulator; agent_scan_by_key.cuh adds its by-key scans' keys and
// values, agent_scan_atoms.cuh AgentScanAtomsBulk's tiles.
template <typename AgentT, typename InputIteratorT, typename OutputIteratorT, typename AccumT, typename = void>
struct bulk_tile_of
{
  static constexpr bool exists = false;
};

// Whether every array starts on 16 bytes, as the bulk copies need.
template <typename... T>
STRATA_HOST_DEVICE STRATA_FORCEINLINE bool starts_on_16(const T*... arrays)
{
  return ((reinterpret_cast<cuda::std::uintptr_t>(arrays) % 16 == 0) && ...);
}

template <typename InT, typename T, typename AccumT>
struct bulk_tile_of<
  scan_bulk_agent, InT*, T*, AccumT,
  cuda::std::enable_if_t<cuda::std::is_same<cuda::std::remove_cv_t<InT>, T>::value && cuda::std::is_arithmetic<T>::value
                         && (sizeof(T) == 4 || sizeof(T) == 8) && cuda::std::is_arithmetic<AccumT>::value>>
{
  static constexpr bool exists = true;
  using type                   = bulk_array_tile<T>;
  static bool aligned(InT* in, T* out)
  {
    return starts_on_16(in, out);
  }
  static type make(InT* in, T* out)
  {
    return type{{in, out}};
  }
};
} // namespace scan
} // namespace detail

// TileT: the tile's contents (detail::scan::bulk_array_tile, bulk_by_key_tile). INCLUSIVE: inclusive or exclusive
// scan. InitValueT: the initial value's type, or detail::scan::no_init. OutputOpT: each result from the scanned
// accumulator and the item (as AgentScan's).
template <typename PolicyT, typename TileT, typename ScanOpT, typename InitValueT, typename AccumT, typename OffsetT,
          bool INCLUSIVE, typename OutputOpT = detail::scan::scanned_output>
class AgentScanBulk
{
  static constexpr int BLOCK_THREADS      = PolicyT::BLOCK_THREADS;
  static constexpr int VECTORS_PER_THREAD = PolicyT::VECTORS_PER_THREAD;
  static constexpr int VECTOR_ITEMS       = TileT::VECTOR_ITEMS;
  static constexpr int ITEMS_PER_THREAD   = VECTORS_PER_THREAD * VECTOR_ITEMS;
  static constexpr bool HAS_INIT          = !cuda::std::is_same<InitValueT, detail::scan::no_init>::value;
  using ValueT                            = typename TileT::value_t;

  // An exclusive scan of the thread aggregates: each thread gets the combination of everything before its run
  // (the tile's prefix and init included; undefined for the first thread of tile 0 of a scan without init).
  using TileScanT =
    detail::scan::tile_scan<detail::scan::thread_aggregate_policy<PolicyT>, AccumT, ScanOpT, InitValueT, false>;
  using TileStateT = ScanTileState<AccumT>;

public:
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;

  struct TempStorage
  {
    typename TileT::template storage<TILE_ITEMS> tile;
    typename TileScanT::TempStorage scan;
    cuda::std::uint64_t tile_landed; // mbarrier of the tile's bulk load
    unsigned int tile_idx;
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentScanBulk(TempStorage& temp_storage, TileT tile, ScanOpT op, InitValueT init,
                                                 OutputOpT out_op = {})
      : temp_storage_(temp_storage)
      , tile_(tile)
      , op_(op)
      , init_(init)
      , out_op_(out_op)
  {}

  // Scans tiles until none is left: tile 0 alone when `tile_counter` is null (a single tile), else the tiles the
  // block claims from `tile_counter`. The tile's arrays start on 16 bytes.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(OffsetT num_items, unsigned int num_tiles, TileStateT tile_state,
                                                     unsigned int* tile_counter, unsigned int prefetch_distance)
  {
    NV_IF_TARGET(NV_PROVIDES_SM_90, (consume_range(num_items, num_tiles, tile_state, tile_counter, prefetch_distance);))
  }

private:
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  // Thread 0 claims the block's next tile and starts loading it: a whole tile by bulk copies, else (the last
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
        tile_.template prefetch<TILE_ITEMS>(static_cast<cuda::std::size_t>(ahead) * TILE_ITEMS);
      }
      tile_.load_whole(temp_storage_.tile, tile_offset, &temp_storage_.tile_landed);
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
    auto& tile                = temp_storage_.tile;

    if constexpr (IS_LAST_TILE)
    {
      // Items past the end repeat the tile's first item: they take part in nothing written. Every bulk store
      // must be done reading its buffer first.
      if (threadIdx.x == 0)
      {
        BulkStoreWaitRead();
      }
      __syncthreads();
      tile_.load_last(tile, tile_offset, static_cast<int>(num_items - tile_offset), static_cast<int>(threadIdx.x),
                      BLOCK_THREADS);
      __syncthreads();
    }

    // Reduce this thread's run, scan the runs' aggregates with the tile's prefix.
    const int first_vector = static_cast<int>(threadIdx.x) * VECTORS_PER_THREAD;
    AccumT aggregate[1];
    {
      typename TileT::run_t run = tile_.begin_run(tile, first_vector);
      AccumT x[VECTOR_ITEMS];
      tile_.load(tile, first_vector, x, run);
      aggregate[0] = x[0];
      STRATA_UNROLL
      for (int j = 1; j < VECTOR_ITEMS; ++j)
      {
        aggregate[0] = op_(aggregate[0], x[j]);
      }
      STRATA_UNROLL
      for (int v = 1; v < VECTORS_PER_THREAD; ++v)
      {
        tile_.load(tile, first_vector + v, x, run);
        STRATA_UNROLL
        for (int j = 0; j < VECTOR_ITEMS; ++j)
        {
          aggregate[0] = op_(aggregate[0], x[j]);
        }
      }
    }
    AccumT prefix[1];
    TileScanT{temp_storage_.scan, op_, init_}(tile_idx, IS_LAST_TILE, aggregate, prefix, tile_state);

    // Scan the run again from its prefix, in place.
    const bool has_prefix     = HAS_INIT || tile_idx != 0 || threadIdx.x != 0;
    AccumT running            = prefix[0];
    typename TileT::run_t run = tile_.begin_run(tile, first_vector);
    STRATA_UNROLL
    for (int v = 0; v < VECTORS_PER_THREAD; ++v)
    {
      AccumT x[VECTOR_ITEMS];
      ValueT results[VECTOR_ITEMS];
      tile_.load(tile, first_vector + v, x, run);
      STRATA_UNROLL
      for (int j = 0; j < VECTOR_ITEMS; ++j)
      {
        if constexpr (INCLUSIVE)
        {
          running    = (v == 0 && j == 0 && !has_prefix) ? x[j] : op_(running, x[j]);
          results[j] = static_cast<ValueT>(out_op_(running, x[j]));
        }
        else
        {
          results[j] = static_cast<ValueT>(out_op_(running, x[j]));
          running    = op_(running, x[j]);
        }
      }
      tile_.store(tile, first_vector + v, results);
    }

    // Store the tile.
    if constexpr (IS_LAST_TILE)
    {
      __syncthreads();
      tile_.store_last(tile, tile_offset, static_cast<int>(num_items - tile_offset), static_cast<int>(threadIdx.x),
                       BLOCK_THREADS);
    }
    else
    {
      ProxyFenceShared();
      __syncthreads();
      if (threadIdx.x == 0)
      {
        tile_.store_whole(tile, static_cast<cuda::std::size_t>(tile_offset));
      }
    }
  }
#endif

  TempStorage& temp_storage_;
  TileT tile_;
  ScanOpT op_;
  InitValueT init_;
  OutputOpT out_op_;
};

STRATA_NAMESPACE_END
