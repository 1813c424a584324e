// The block-wide bodies of DeviceMergeSort's kernels: AgentBlockSort sorts one tile of the input with
// BlockMergeSort; merge_sort_partition finds where a tile's share of a merge pass starts (merge path over global
// memory); AgentMerge merges one tile's share of a pair of sorted runs through shared memory.
//
// A merge pass turns runs of `tiles_per_run` tiles into runs of twice as many: runs 2k and 2k + 1 form a pair and are
// merged into the same positions. Output tile t of a pair takes the items at positions [t * TILE, (t + 1) * TILE) of
// the pair's merge, whose first items come from the first run up to the split MergePath finds at the tile's
// diagonal, and from the second run the rest. Tiles are numbered over the whole input; pairs start on tile
// boundaries, so every tile lies inside one pair; the last run (or pair) may be short, or a pair may have no second
// run at all (then the merge is a copy). Every merge takes the first run's item first among equal keys, so the sort
// is stable.
#pragma once

#include <strata/block/block_load.cuh>
#include <strata/block/block_merge_sort.cuh>
#include <strata/block/block_store.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/thread/thread_merge.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of DeviceMergeSort's tile sort and merge kernels (one policy for both: they share the tile).
template <int BLOCK_THREADS_,
          int ITEMS_PER_THREAD_,
          BlockLoadAlgorithm LOAD_ALGORITHM_,
          CacheLoadModifier LOAD_MODIFIER_,
          BlockStoreAlgorithm STORE_ALGORITHM_>
struct AgentMergeSortPolicy
{
  static constexpr int BLOCK_THREADS                   = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD                = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS                      = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr BlockLoadAlgorithm LOAD_ALGORITHM   = LOAD_ALGORITHM_;
  static constexpr CacheLoadModifier LOAD_MODIFIER     = LOAD_MODIFIER_;
  static constexpr BlockStoreAlgorithm STORE_ALGORITHM = STORE_ALGORITHM_;
};

namespace detail
{
namespace merge_sort
{

// The load and store of a tile of values, or nothing for a keys-only sort (ValueT = NullType).
template <typename PolicyT, typename ValueT, bool = cuda::std::is_same<ValueT, NullType>::value>
struct value_movers
{
  using load_t  = BlockLoad<ValueT, PolicyT::BLOCK_THREADS, PolicyT::ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using store_t = BlockStore<ValueT, PolicyT::BLOCK_THREADS, PolicyT::ITEMS_PER_THREAD, PolicyT::STORE_ALGORITHM>;
  using load_storage  = typename load_t::TempStorage;
  using store_storage = typename store_t::TempStorage;
};
template <typename PolicyT, typename ValueT>
struct value_movers<PolicyT, ValueT, true>
{
  using load_storage  = NullType;
  using store_storage = NullType;
};

// A tile through BlockLoadT / BlockStoreT: all TILE_ITEMS items where FULL, else the first `valid` (a load leaves
// the rest of `items` as they were).
template <bool FULL, CacheLoadModifier MODIFIER, typename BlockLoadT, typename InputIteratorT, typename T, int N>
STRATA_DEVICE STRATA_FORCEINLINE void
load_tile(typename BlockLoadT::TempStorage& storage, InputIteratorT in, T (&items)[N], int valid)
{
  if constexpr (FULL)
  {
    BlockLoadT(storage).template Load<MODIFIER>(in, items);
  }
  else
  {
    BlockLoadT(storage).template Load<MODIFIER>(in, items, valid);
  }
}
template <bool FULL, typename BlockStoreT, typename OutputIteratorT, typename T, int N>
STRATA_DEVICE STRATA_FORCEINLINE void
store_tile(typename BlockStoreT::TempStorage& storage, OutputIteratorT out, T (&items)[N], int valid)
{
  if constexpr (FULL)
  {
    BlockStoreT(storage).Store(out, items);
  }
  else
  {
    BlockStoreT(storage).Store(out, items, valid);
  }
}

// The pair of sorted runs that tile `tile_idx` belongs to in the pass that merges runs of `tiles_per_run` tiles:
// the first run [beg, mid) and the second [mid, end), cut at num_items.
template <typename OffsetT>
struct run_pair
{
  OffsetT beg;
  OffsetT mid;
  OffsetT end;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE
  run_pair(unsigned int tile_idx, unsigned int tiles_per_run, int tile_items, OffsetT num_items)
  {
    // 2 * tiles_per_run - 1 wraps to all ones at tiles_per_run = 2^31, which is still the right mask.
    const unsigned int pair_mask = 2u * tiles_per_run - 1u;
    const OffsetT run_items      = static_cast<OffsetT>(tiles_per_run) * static_cast<OffsetT>(tile_items);
    beg                          = static_cast<OffsetT>(tile_idx & ~pair_mask) * static_cast<OffsetT>(tile_items);
    mid                          = beg + (run_items < num_items - beg ? run_items : num_items - beg);
    end                          = mid + (run_items < num_items - mid ? run_items : num_items - mid);
  }
};

// Where tile `tile_idx`'s share of its pair's merge starts in the first run: beg + the number of the pair's first
// (tile_idx * tile_items - beg) merged items that come from the first run. `keys` holds the runs.
template <typename KeyIteratorT, typename OffsetT, typename CompareOpT>
STRATA_DEVICE STRATA_FORCEINLINE OffsetT merge_sort_partition(KeyIteratorT keys,
                                                              OffsetT num_items,
                                                              unsigned int tile_idx,
                                                              unsigned int tiles_per_run,
                                                              int tile_items,
                                                              CompareOpT compare_op)
{
  const run_pair<OffsetT> pair(tile_idx, tiles_per_run, tile_items, num_items);
  const OffsetT diag = static_cast<OffsetT>(tile_idx) * static_cast<OffsetT>(tile_items) - pair.beg;
  return pair.beg
       + MergePath(keys + pair.beg, keys + pair.mid, OffsetT(pair.mid - pair.beg), OffsetT(pair.end - pair.mid), diag,
                   compare_op);
}

} // namespace merge_sort
} // namespace detail

// Sorts tile blockIdx.x of the input (keys, and values unless ValueT is NullType) and writes it to the same
// positions of the output. KeyInputIteratorT and KeyOutputIteratorT may be the same iterator (in place): the whole
// tile is read before any of it is written.
template <typename PolicyT,
          typename KeyInputIteratorT,
          typename ValueInputIteratorT,
          typename KeyOutputIteratorT,
          typename ValueOutputIteratorT,
          typename OffsetT,
          typename CompareOpT,
          typename KeyT,
          typename ValueT>
class AgentBlockSort
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;
  static constexpr bool KEYS_ONLY       = cuda::std::is_same<ValueT, NullType>::value;

  using BlockMergeSortT = BlockMergeSort<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, ValueT>;
  using BlockLoadKeys   = BlockLoad<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using BlockStoreKeys  = BlockStore<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::STORE_ALGORITHM>;
  using values_t        = detail::merge_sort::value_movers<PolicyT, ValueT>;

public:
  // The loads, the sort and the stores are never live at the same time.
  struct TempStorage
  {
    union
    {
      typename BlockLoadKeys::TempStorage load_keys;
      typename values_t::load_storage load_values;
      typename BlockMergeSortT::TempStorage sort;
      typename BlockStoreKeys::TempStorage store_keys;
      typename values_t::store_storage store_values;
    };
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentBlockSort(TempStorage& temp_storage,
                                                  KeyInputIteratorT keys_in,
                                                  ValueInputIteratorT values_in,
                                                  KeyOutputIteratorT keys_out,
                                                  ValueOutputIteratorT values_out,
                                                  OffsetT num_items,
                                                  CompareOpT compare_op)
      : temp_storage_(temp_storage)
      , keys_in_(keys_in)
      , values_in_(values_in)
      , keys_out_(keys_out)
      , values_out_(values_out)
      , num_items_(num_items)
      , compare_op_(compare_op)
  {}

  STRATA_DEVICE STRATA_FORCEINLINE void Process(unsigned int tile_idx)
  {
    const OffsetT tile_beg  = static_cast<OffsetT>(tile_idx) * static_cast<OffsetT>(TILE_ITEMS);
    const OffsetT remaining = num_items_ - tile_beg;
    if (remaining >= static_cast<OffsetT>(TILE_ITEMS))
    {
      consume<true>(tile_beg, TILE_ITEMS);
    }
    else
    {
      consume<false>(tile_beg, static_cast<int>(remaining));
    }
  }

private:
  // FULL: the tile has TILE_ITEMS items; otherwise `valid` (the last tile).
  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE void consume(OffsetT tile_beg, int valid)
  {
    KeyT keys[ITEMS_PER_THREAD];
    ValueT values[ITEMS_PER_THREAD];
    // Items past the end of the last tile are left unloaded: the partial sort never looks at them.
    detail::merge_sort::load_tile<FULL, PolicyT::LOAD_MODIFIER, BlockLoadKeys>(
      temp_storage_.load_keys, keys_in_ + tile_beg, keys, valid);
    if constexpr (!KEYS_ONLY)
    {
      // The values' load storage overlays the keys'.
      __syncthreads();
      detail::merge_sort::load_tile<FULL, PolicyT::LOAD_MODIFIER, typename values_t::load_t>(
        temp_storage_.load_values, values_in_ + tile_beg, values, valid);
    }

    // BlockMergeSort's first barrier separates its storage from the loads'.
    BlockMergeSortT sorter(temp_storage_.sort);
    if constexpr (FULL)
    {
      sorter.Sort(keys, values, compare_op_);
    }
    else
    {
      sorter.Sort(keys, values, compare_op_, valid, KeyT{});
    }

    // The sort's last reads of its storage are done before the stores overlay it.
    __syncthreads();
    detail::merge_sort::store_tile<FULL, BlockStoreKeys>(temp_storage_.store_keys, keys_out_ + tile_beg, keys, valid);
    if constexpr (!KEYS_ONLY)
    {
      __syncthreads();
      detail::merge_sort::store_tile<FULL, typename values_t::store_t>(
        temp_storage_.store_values, values_out_ + tile_beg, values, valid);
    }
  }

  TempStorage& temp_storage_;
  KeyInputIteratorT keys_in_;
  ValueInputIteratorT values_in_;
  KeyOutputIteratorT keys_out_;
  ValueOutputIteratorT values_out_;
  OffsetT num_items_;
  CompareOpT compare_op_;
};

// Writes output tile blockIdx.x of a merge pass: the tile's share of its pair's merge, from the runs in keys_in /
// values_in to the same positions of keys_out / values_out (which must not overlap them). partitions[t] is where
// tile t's share starts in its pair's first run (merge_sort_partition).
template <typename PolicyT,
          typename KeyInputIteratorT,
          typename ValueInputIteratorT,
          typename KeyOutputIteratorT,
          typename ValueOutputIteratorT,
          typename OffsetT,
          typename CompareOpT,
          typename KeyT,
          typename ValueT>
class AgentMerge
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;
  static constexpr bool KEYS_ONLY       = cuda::std::is_same<ValueT, NullType>::value;

  using BlockStoreKeys = BlockStore<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::STORE_ALGORITHM>;
  using values_t       = detail::merge_sort::value_movers<PolicyT, ValueT>;
  using values_tile_t  = cuda::std::conditional_t<KEYS_ONLY, NullType, ValueT[TILE_ITEMS]>;

public:
  // The tile's keys, then its values, gathered from the two runs; the stores overlay them once they are read.
  struct TempStorage
  {
    union
    {
      Uninitialized<KeyT[TILE_ITEMS]> keys;
      Uninitialized<values_tile_t> values;
      typename BlockStoreKeys::TempStorage store_keys;
      typename values_t::store_storage store_values;
    };
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentMerge(TempStorage& temp_storage,
                                              KeyInputIteratorT keys_in,
                                              ValueInputIteratorT values_in,
                                              KeyOutputIteratorT keys_out,
                                              ValueOutputIteratorT values_out,
                                              OffsetT num_items,
                                              CompareOpT compare_op)
      : temp_storage_(temp_storage)
      , keys_in_(keys_in)
      , values_in_(values_in)
      , keys_out_(keys_out)
      , values_out_(values_out)
      , num_items_(num_items)
      , compare_op_(compare_op)
  {}

  STRATA_DEVICE STRATA_FORCEINLINE void
  Process(unsigned int tile_idx, unsigned int tiles_per_run, const OffsetT* partitions)
  {
    const detail::merge_sort::run_pair<OffsetT> pair(tile_idx, tiles_per_run, TILE_ITEMS, num_items_);
    const OffsetT tile_beg = static_cast<OffsetT>(tile_idx) * static_cast<OffsetT>(TILE_ITEMS);
    const OffsetT tile_end =
      tile_beg + (num_items_ - tile_beg < OffsetT(TILE_ITEMS) ? num_items_ - tile_beg : OffsetT(TILE_ITEMS));

    // The tile's share: [keys1_beg, keys1_end) of the first run and [keys2_beg, keys2_end) of the second. Tile t
    // takes the merge's positions up to where tile t + 1's start, or the rest of the pair for its last tile. In every
    // prefix of the merge, the items from the second run are the prefix's length less those from the first.
    const bool last_in_pair  = tile_end == pair.end;
    const OffsetT keys1_beg  = partitions[tile_idx];
    const OffsetT keys1_end  = last_in_pair ? pair.mid : partitions[tile_idx + 1];
    const OffsetT keys2_beg  = pair.mid + (tile_beg - pair.beg) - (keys1_beg - pair.beg);
    const OffsetT keys2_end  = pair.mid + (tile_end - pair.beg) - (keys1_end - pair.beg);
    const int keys1_count    = static_cast<int>(keys1_end - keys1_beg);
    const int keys2_count    = static_cast<int>(keys2_end - keys2_beg);

    if (keys1_count + keys2_count == TILE_ITEMS)
    {
      consume<true>(tile_beg, keys1_beg, keys2_beg, keys1_count, keys2_count);
    }
    else
    {
      consume<false>(tile_beg, keys1_beg, keys2_beg, keys1_count, keys2_count);
    }
  }

private:
  // The tile's items, from the two ranges side by side (the first's keys1_count, then the second's), striped across
  // the threads so that consecutive threads read consecutive items.
  template <bool FULL, typename InputIteratorT, typename T>
  STRATA_DEVICE STRATA_FORCEINLINE void gather_striped(InputIteratorT in,
                                                       OffsetT keys1_beg,
                                                       OffsetT keys2_beg,
                                                       int keys1_count,
                                                       int count,
                                                       T (&items)[ITEMS_PER_THREAD]) const
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int idx = i * BLOCK_THREADS + static_cast<int>(threadIdx.x);
      if (FULL || idx < count)
      {
        items[i] = idx < keys1_count ? in[keys1_beg + static_cast<OffsetT>(idx)]
                                     : in[keys2_beg + static_cast<OffsetT>(idx - keys1_count)];
      }
    }
  }

  template <typename T>
  STRATA_DEVICE STRATA_FORCEINLINE static void
  striped_to_shared(T* shared, const T (&items)[ITEMS_PER_THREAD], int count, bool full)
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int idx = i * BLOCK_THREADS + static_cast<int>(threadIdx.x);
      if (full || idx < count)
      {
        shared[idx] = items[i];
      }
    }
  }

  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE void
  consume(OffsetT tile_beg, OffsetT keys1_beg, OffsetT keys2_beg, int keys1_count, int keys2_count)
  {
    const int count = FULL ? TILE_ITEMS : keys1_count + keys2_count;

    // Both ranges' keys, and the values in registers meanwhile: their loads are in flight while the keys merge.
    KeyT keys[ITEMS_PER_THREAD];
    gather_striped<FULL>(keys_in_, keys1_beg, keys2_beg, keys1_count, count, keys);
    ValueT values[ITEMS_PER_THREAD];
    if constexpr (!KEYS_ONLY)
    {
      gather_striped<FULL>(values_in_, keys1_beg, keys2_beg, keys1_count, count, values);
    }
    KeyT* keys_shared = temp_storage_.keys.Alias();
    striped_to_shared(keys_shared, keys, count, FULL);
    __syncthreads();

    // This thread's ITEMS_PER_THREAD outputs, from diagonal t * ITEMS_PER_THREAD of the tile's merge (none for a
    // thread past the end of a short tile).
    const int first = static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD;
    const int diag  = first < count ? first : count;
    const int split = MergePath(keys_shared, keys_shared + keys1_count, keys1_count, keys2_count, diag, compare_op_);
    int indices[ITEMS_PER_THREAD];
    SerialMerge(keys_shared,
                split,
                keys1_count + diag - split,
                keys1_count - split,
                keys2_count - (diag - split),
                keys,
                indices,
                compare_op_);

    // The keys' store storage overlays the keys just read.
    __syncthreads();
    detail::merge_sort::store_tile<FULL, BlockStoreKeys>(temp_storage_.store_keys, keys_out_ + tile_beg, keys, count);

    if constexpr (!KEYS_ONLY)
    {
      // Each value goes where its key went: the output that took the key from shared position p takes the value
      // gathered to p.
      ValueT* values_shared = temp_storage_.values.Alias();
      __syncthreads();
      striped_to_shared(values_shared, values, count, FULL);
      __syncthreads();
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if (FULL || first + i < count)
        {
          values[i] = values_shared[indices[i]];
        }
      }
      __syncthreads();
      detail::merge_sort::store_tile<FULL, typename values_t::store_t>(
        temp_storage_.store_values, values_out_ + tile_beg, values, count);
    }
  }

  TempStorage& temp_storage_;
  KeyInputIteratorT keys_in_;
  ValueInputIteratorT values_in_;
  KeyOutputIteratorT keys_out_;
  ValueOutputIteratorT values_out_;
  OffsetT num_items_;
  CompareOpT compare_op_;
};

STRATA_NAMESPACE_END
