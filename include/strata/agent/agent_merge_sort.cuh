// The block-wide bodies of DeviceMergeSort's and DeviceMerge's kernels: AgentBlockSort sorts one tile of the input
// with BlockMergeSort; AgentMerge finds one tile's share of a pair of sorted runs (merge path over global memory, two
// warps searching at once) and merges it through shared memory; AgentMergeRanges merges one tile's share of two
// ranges of their own (DeviceMerge, whose partition kernel finds the shares).
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
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of DeviceMergeSort's tile sort and merge kernels (one policy for both: they share the tile).
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, BlockLoadAlgorithm LOAD_ALGORITHM_,
          CacheLoadModifier LOAD_MODIFIER_, BlockStoreAlgorithm STORE_ALGORITHM_>
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
  using load_t        = BlockLoad<ValueT, PolicyT::BLOCK_THREADS, PolicyT::ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using store_t       = BlockStore<ValueT, PolicyT::BLOCK_THREADS, PolicyT::ITEMS_PER_THREAD, PolicyT::STORE_ALGORITHM>;
  using load_storage  = typename load_t::TempStorage;
  using store_storage = typename store_t::TempStorage;
};
template <typename PolicyT, typename ValueT>
struct value_movers<PolicyT, ValueT, true>
{
  using load_storage  = NullType;
  using store_storage = NullType;
};

// A tile through BlockLoadT: all TILE_ITEMS items where FULL, else the first `valid` (the rest of `items` is left
// as it was).
template <bool FULL, CacheLoadModifier MODIFIER, typename BlockLoadT, typename InputIteratorT, typename T, int N>
STRATA_DEVICE STRATA_FORCEINLINE void load_tile(typename BlockLoadT::TempStorage& storage, InputIteratorT in,
                                                T (&items)[N], int valid)
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
// A tile through BlockStoreT: all TILE_ITEMS items where `full`, else the first `valid`. The tile sort and the
// merge hold one code path for full and short tiles, so which store runs is known only when it runs.
template <typename BlockStoreT, typename OutputIteratorT, typename T, int N>
STRATA_DEVICE STRATA_FORCEINLINE void store_tile(bool full, typename BlockStoreT::TempStorage& storage,
                                                 OutputIteratorT out, T (&items)[N], int valid)
{
  if (full)
  {
    BlockStoreT(storage).Store(out, items);
  }
  else
  {
    BlockStoreT(storage).Store(out, items, valid);
  }
}

// The later of two keys by `compare_op` (the first of equal ones): a reduction to a greatest key.
template <typename KeyT, typename CompareOpT>
struct later_key
{
  mutable CompareOpT compare_op;
  STRATA_DEVICE STRATA_FORCEINLINE KeyT operator()(const KeyT& a, const KeyT& b) const
  {
    return compare_op(a, b) ? b : a;
  }
};

// The pair of sorted runs that tile `tile_idx` belongs to in the pass that merges runs of `tiles_per_run` tiles:
// the first run [beg, mid) and the second [mid, end), cut at num_items.
template <typename OffsetT>
struct run_pair
{
  OffsetT beg;
  OffsetT mid;
  OffsetT end;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE run_pair(unsigned int tile_idx, unsigned int tiles_per_run, int tile_items,
                                                 OffsetT num_items)
  {
    // 2 * tiles_per_run - 1 wraps to all ones at tiles_per_run = 2^31, which is still the right mask.
    const unsigned int pair_mask = 2u * tiles_per_run - 1u;
    const OffsetT run_items      = static_cast<OffsetT>(tiles_per_run) * static_cast<OffsetT>(tile_items);
    beg                          = static_cast<OffsetT>(tile_idx & ~pair_mask) * static_cast<OffsetT>(tile_items);
    mid                          = beg + (run_items < num_items - beg ? run_items : num_items - beg);
    end                          = mid + (run_items < num_items - mid ? run_items : num_items - mid);
  }
};

// MergePath(keys1, keys2, keys1_count, keys2_count, diag, compare_op), found by the 32 lanes of a warp together, 32
// probes a round (detail::merge_path_by_rounds): where the runs are in global memory, a round costs one memory
// latency, as one of MergePath's dependent steps does, and there are log33 of them instead of log2. Every lane
// returns the split. requires: all 32 lanes of the warp call it, converged.
template <typename KeyIterator1T, typename KeyIterator2T, typename OffsetT, typename CompareOpT>
STRATA_DEVICE STRATA_FORCEINLINE OffsetT warp_merge_path(KeyIterator1T keys1, KeyIterator2T keys2, OffsetT keys1_count,
                                                         OffsetT keys2_count, OffsetT diag, CompareOpT compare_op)
{
  const unsigned int lane = LaneId();
  return merge_path_by_rounds(keys1_count, keys2_count, diag, [&](OffsetT lo, OffsetT hi) {
    // The two keys of a probe are independent reads; a lane past the candidates votes as MergePath's test at hi.
    const OffsetT probe = merge_path_probe(lo, hi, lane);
    bool holds          = true;
    if (probe < hi)
    {
      holds = static_cast<bool>(compare_op(keys2[diag - OffsetT(1) - probe], keys1[probe]));
    }
    return WarpBallot(holds);
  });
}

} // namespace merge_sort
} // namespace detail

// Sorts tile blockIdx.x of the input (keys, and values unless ValueT is NullType) and writes it to the same
// positions of the output. KeyInputIteratorT and KeyOutputIteratorT may be the same iterator (in place): the whole
// tile is read before any of it is written.
template <typename PolicyT, typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
          typename ValueOutputIteratorT, typename OffsetT, typename CompareOpT, typename KeyT, typename ValueT>
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
  // The last tile's greatest key, apart: threads read it while others start the keys' load. The reduction to it,
  // the loads, the sort and the stores are never live at the same time.
  struct TempStorage
  {
    Uninitialized<KeyT> greatest;
    union
    {
      Uninitialized<KeyT[BLOCK_THREADS]> greatest_per_thread;
      typename BlockLoadKeys::TempStorage load_keys;
      typename values_t::load_storage load_values;
      typename BlockMergeSortT::TempStorage sort;
      typename BlockStoreKeys::TempStorage store_keys;
      typename values_t::store_storage store_values;
    };
  };

  STRATA_DEVICE STRATA_FORCEINLINE
  AgentBlockSort(TempStorage& temp_storage, KeyInputIteratorT keys_in, ValueInputIteratorT values_in,
                 KeyOutputIteratorT keys_out, ValueOutputIteratorT values_out, OffsetT num_items, CompareOpT compare_op)
      : temp_storage_(temp_storage)
      , keys_in_(keys_in)
      , values_in_(values_in)
      , keys_out_(keys_out)
      , values_out_(values_out)
      , num_items_(num_items)
      , compare_op_(compare_op)
  {}

  // A short last tile is sorted as a full one, its missing keys padded with copies of its greatest key: no key goes
  // strictly after a copy, and the copies stand after every real key, so the stable sort leaves them after all of
  // them, where the store drops them, and the comparator sees only keys of the input. The kernel then holds one
  // sort, whose registers set the occupancy of every block, not also a sort of a partial tile, which keeps its
  // missing items out of every comparison with more of them.
  STRATA_DEVICE STRATA_FORCEINLINE void Process(unsigned int tile_idx)
  {
    const OffsetT tile_beg  = static_cast<OffsetT>(tile_idx) * static_cast<OffsetT>(TILE_ITEMS);
    const OffsetT remaining = num_items_ - tile_beg;
    const bool full         = remaining >= static_cast<OffsetT>(TILE_ITEMS);
    const int valid         = full ? TILE_ITEMS : static_cast<int>(remaining);

    KeyT keys[ITEMS_PER_THREAD];
    ValueT values[ITEMS_PER_THREAD];
    if (full)
    {
      load<true>(tile_beg, keys, values, TILE_ITEMS, KeyT{});
    }
    else
    {
      load<false>(tile_beg, keys, values, valid, greatest_key(keys_in_ + tile_beg, valid));
    }

    // BlockMergeSort's first barrier separates its storage from the loads'.
    BlockMergeSortT(temp_storage_.sort).Sort(keys, values, compare_op_);

    // The sort's last reads of its storage are done before the stores overlay it.
    __syncthreads();
    detail::merge_sort::store_tile<BlockStoreKeys>(full, temp_storage_.store_keys, keys_out_ + tile_beg, keys, valid);
    if constexpr (!KEYS_ONLY)
    {
      __syncthreads();
      detail::merge_sort::store_tile<typename values_t::store_t>(full, temp_storage_.store_values,
                                                                 values_out_ + tile_beg, values, valid);
    }
  }

private:
  // The tile's keys and values: all TILE_ITEMS where FULL, else the first `valid`, the keys after them padded.
  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE void load(OffsetT tile_beg, KeyT (&keys)[ITEMS_PER_THREAD],
                                             ValueT (&values)[ITEMS_PER_THREAD], int valid, KeyT pad)
  {
    if constexpr (FULL)
    {
      (void) pad;
      detail::merge_sort::load_tile<true, PolicyT::LOAD_MODIFIER, BlockLoadKeys>(temp_storage_.load_keys,
                                                                                 keys_in_ + tile_beg, keys, valid);
    }
    else
    {
      BlockLoadKeys(temp_storage_.load_keys)
        .template Load<PolicyT::LOAD_MODIFIER>(keys_in_ + tile_beg, keys, valid, pad);
    }
    if constexpr (!KEYS_ONLY)
    {
      // The values' load storage overlays the keys'. The padding's values are never stored.
      __syncthreads();
      detail::merge_sort::load_tile<FULL, PolicyT::LOAD_MODIFIER, typename values_t::load_t>(temp_storage_.load_values,
                                                                                             values_in_ + tile_beg,
                                                                                             values, valid);
    }
  }

  // The greatest of the tile's first `valid` keys by compare_op (1 <= valid < TILE_ITEMS), in every thread. Read
  // from the input before the tile's load, so that no tile of keys is held in registers meanwhile: each thread folds
  // its items of a striped arrangement, then warp 0 folds the threads' results through shared memory (no shuffles,
  // which would ask more of the key type than copies).
  template <typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE KeyT greatest_key(InputIteratorT in, int valid)
  {
    constexpr unsigned int FIRST_WARP_MASK = BLOCK_THREADS >= WARP_THREADS ? 0xffffffffu : (1u << BLOCK_THREADS) - 1u;
    const detail::merge_sort::later_key<KeyT, CompareOpT> later{compare_op_};
    const int tid          = static_cast<int>(threadIdx.x);
    const int holders      = valid < BLOCK_THREADS ? valid : BLOCK_THREADS; // threads 0 .. holders - 1 read a key
    KeyT* const per_thread = temp_storage_.greatest_per_thread.Alias();
    if (tid < holders)
    {
      KeyT greatest = in[tid];
      STRATA_UNROLL
      for (int i = 1; i < ITEMS_PER_THREAD; ++i)
      {
        const int idx = i * BLOCK_THREADS + tid;
        if (idx < valid)
        {
          greatest = later(greatest, in[idx]);
        }
      }
      per_thread[tid] = greatest;
    }
    __syncthreads();
    if (tid < WARP_THREADS)
    {
      // Lane l folds threads l, l + 32, ..., then the lanes' results fold pairwise, half of them a step.
      if (tid < holders)
      {
        KeyT greatest = per_thread[tid];
        for (int t = tid + WARP_THREADS; t < holders; t += WARP_THREADS)
        {
          greatest = later(greatest, per_thread[t]);
        }
        per_thread[tid] = greatest;
      }
      __syncwarp(FIRST_WARP_MASK);
      STRATA_UNROLL
      for (int offset = WARP_THREADS / 2; offset > 0; offset /= 2)
      {
        if (tid < offset && tid + offset < holders)
        {
          per_thread[tid] = later(per_thread[tid], per_thread[tid + offset]);
        }
        __syncwarp(FIRST_WARP_MASK);
      }
      if (tid == 0)
      {
        temp_storage_.greatest.Alias() = per_thread[0];
      }
    }
    __syncthreads();
    return temp_storage_.greatest.Alias();
  }

  TempStorage& temp_storage_;
  KeyInputIteratorT keys_in_;
  ValueInputIteratorT values_in_;
  KeyOutputIteratorT keys_out_;
  ValueOutputIteratorT values_out_;
  OffsetT num_items_;
  CompareOpT compare_op_;
};

namespace detail
{
namespace merge_sort
{
// The merge of one tile's share of two sorted ranges, shared by AgentMerge and AgentMergeRanges: the share gathered
// striped from the ranges (keys1 from keys1_beg, keys2 from keys2_beg), padded with `greatest` to a full tile, merged
// through shared memory, and stored to positions [tile_beg, tile_beg + count) of the outputs, each value moving with
// its key.
template <typename PolicyT, typename KeyT, typename ValueT, typename CompareOpT>
struct tile_merge
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;
  static constexpr bool KEYS_ONLY       = cuda::std::is_same<ValueT, NullType>::value;

  using BlockStoreKeys = BlockStore<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::STORE_ALGORITHM>;
  using values_t       = value_movers<PolicyT, ValueT>;
  using values_tile_t  = cuda::std::conditional_t<KEYS_ONLY, NullType, ValueT[TILE_ITEMS]>;

  // The tile's keys, and its values, gathered from the two ranges, the keys with a slot after the tile's last that
  // the merge steps may read (detail::serial_merge_padded); the stores overlay them once they are read.
  union TempStorage
  {
    Uninitialized<KeyT[TILE_ITEMS + 1]> keys;
    Uninitialized<values_tile_t> values;
    typename BlockStoreKeys::TempStorage store_keys;
    typename values_t::store_storage store_values;
  };

  // What an agent keeps in shared memory: where its tile's share starts and ends in the first range, as the searching
  // warps found them, then the merge's storage. The splits stay apart: threads read them while others already write
  // the keys.
  template <typename OffsetT>
  struct ShareStorage
  {
    OffsetT split_beg;
    OffsetT split_end;
    TempStorage merge;
  };

  // The share's two searches take a warp each, whole warps; one warp does both in a block of one.
  static_assert(BLOCK_THREADS % WARP_THREADS == 0, "whole warps");
  static constexpr unsigned int END_SEARCH_WARP = BLOCK_THREADS >= 2 * WARP_THREADS ? 1u : 0u;

  // The merge path splits of the ranges' merge at diag_beg and diag_end (how many of the first range's items come
  // before each), searched at once by two warps while the others wait, to split_beg and split_end in shared memory; a
  // tile that ends where the merge does ends with all of the first range. The caller synchronizes before reading them.
  template <typename KeyIterator1T, typename KeyIterator2T, typename OffsetT>
  static STRATA_DEVICE STRATA_FORCEINLINE void
  find_splits(OffsetT& split_beg, OffsetT& split_end, KeyIterator1T keys1, KeyIterator2T keys2, OffsetT keys1_count,
              OffsetT keys2_count, OffsetT diag_beg, OffsetT diag_end, CompareOpT compare_op)
  {
    const unsigned int warp = threadIdx.x / WARP_THREADS;
    if (warp == 0)
    {
      split_beg = warp_merge_path(keys1, keys2, keys1_count, keys2_count, diag_beg, compare_op);
    }
    if (warp == END_SEARCH_WARP)
    {
      split_end = diag_end == keys1_count + keys2_count
                  ? keys1_count
                  : warp_merge_path(keys1, keys2, keys1_count, keys2_count, diag_end, compare_op);
    }
  }

  // What a short tile (the merge's last) is padded with to be merged as a full one: copies of the tile's greatest key,
  // the later of the two ranges' last keys (keys1[keys1_end - 1], keys2[keys2_end - 1]), as the ranges are sorted. No
  // key goes strictly after a copy, and the copies come after every key of the second range and, ties going to the
  // first, of the first, so the merge's first `count` outputs are the tile's and the store drops the rest. The kernel
  // then holds one merge, whose registers set the occupancy of every block, not also one of a short tile, which needs
  // more of them. A full tile takes no padding (KeyT{}).
  template <typename KeyIterator1T, typename KeyIterator2T, typename OffsetT>
  static STRATA_DEVICE STRATA_FORCEINLINE KeyT padding(KeyIterator1T keys1, KeyIterator2T keys2, OffsetT keys1_end,
                                                       OffsetT keys2_end, int keys1_count, int keys2_count,
                                                       CompareOpT compare_op)
  {
    KeyT greatest{};
    if (keys1_count + keys2_count < TILE_ITEMS)
    {
      greatest = keys2_count > 0 ? KeyT(keys2[keys2_end - OffsetT(1)]) : KeyT(keys1[keys1_end - OffsetT(1)]);
      if (keys1_count > 0 && keys2_count > 0)
      {
        greatest = later_key<KeyT, CompareOpT>{compare_op}(keys1[keys1_end - OffsetT(1)], greatest);
      }
    }
    return greatest;
  }

  // The share's `count` items, from the two ranges side by side (the first's keys1_count, then the second's), striped
  // across the threads so that consecutive threads read consecutive items; the items past them are left as they
  // were.
  template <typename InputIterator1T, typename InputIterator2T, typename OffsetT, typename T>
  static STRATA_DEVICE STRATA_FORCEINLINE void gather_striped(InputIterator1T in1, InputIterator2T in2,
                                                              OffsetT keys1_beg, OffsetT keys2_beg, int keys1_count,
                                                              int count, T (&items)[ITEMS_PER_THREAD])
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int idx = i * BLOCK_THREADS + static_cast<int>(threadIdx.x);
      if (idx < count)
      {
        items[i] = idx < keys1_count ? in1[keys1_beg + static_cast<OffsetT>(idx)]
                                     : in2[keys2_beg + static_cast<OffsetT>(idx - keys1_count)];
      }
    }
  }

  template <typename T>
  static STRATA_DEVICE STRATA_FORCEINLINE void striped_to_shared(T* shared, const T (&items)[ITEMS_PER_THREAD])
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      shared[i * BLOCK_THREADS + static_cast<int>(threadIdx.x)] = items[i];
    }
  }

  template <typename KeyIterator1T, typename KeyIterator2T, typename ValueIterator1T, typename ValueIterator2T,
            typename KeyOutputIteratorT, typename ValueOutputIteratorT, typename OffsetT>
  static STRATA_DEVICE STRATA_FORCEINLINE void
  consume(TempStorage& storage, KeyIterator1T keys1, KeyIterator2T keys2, ValueIterator1T values1,
          ValueIterator2T values2, KeyOutputIteratorT keys_out, ValueOutputIteratorT values_out, OffsetT tile_beg,
          OffsetT keys1_beg, OffsetT keys2_beg, int keys1_count, int count, const KeyT& greatest, CompareOpT compare_op)
  {
    // Both ranges' keys, and the values in registers meanwhile: their loads are in flight while the keys merge.
    KeyT keys[ITEMS_PER_THREAD];
    gather_striped(keys1, keys2, keys1_beg, keys2_beg, keys1_count, count, keys);
    ValueT values[ITEMS_PER_THREAD];
    if constexpr (!KEYS_ONLY)
    {
      gather_striped(values1, values2, keys1_beg, keys2_beg, keys1_count, count, values);
    }
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      if (i * BLOCK_THREADS + static_cast<int>(threadIdx.x) >= count)
      {
        keys[i] = greatest;
      }
    }
    KeyT* keys_shared = storage.keys.Alias();
    striped_to_shared(keys_shared, keys);
    __syncthreads();

    // This thread's ITEMS_PER_THREAD outputs, from diagonal t * ITEMS_PER_THREAD of the tile's merge. Every thread's
    // outputs are ITEMS_PER_THREAD items of the tile, and the slot after either range is in the buffer (the first's
    // is the second's first key, the second's the spare slot after the tile): the merge may read past its ranges.
    constexpr int keys_count = TILE_ITEMS;
    const int keys2_count    = keys_count - keys1_count;
    const int first          = static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD;
    const int split = MergePath(keys_shared, keys_shared + keys1_count, keys1_count, keys2_count, first, compare_op);
    int indices[ITEMS_PER_THREAD];
    serial_merge_padded(keys_shared, split, keys1_count + first - split, keys1_count - split,
                        keys2_count - (first - split), keys, indices, compare_op);

    // The keys' store storage overlays the keys just read.
    __syncthreads();
    store_tile<BlockStoreKeys>(count == TILE_ITEMS, storage.store_keys, keys_out + tile_beg, keys, count);

    if constexpr (!KEYS_ONLY)
    {
      // Each value goes where its key went: the output that took the key from shared position p takes the value
      // gathered to p (the padding's values, unset, are never stored).
      ValueT* values_shared = storage.values.Alias();
      __syncthreads();
      striped_to_shared(values_shared, values);
      __syncthreads();
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        values[i] = values_shared[indices[i]];
      }
      __syncthreads();
      store_tile<typename values_t::store_t>(count == TILE_ITEMS, storage.store_values, values_out + tile_beg, values,
                                             count);
    }
  }
};
} // namespace merge_sort
} // namespace detail

// Writes positions [diag_beg, diag_end) of the stable merge of two sorted ranges, keys1 / values1 (keys1_count
// items) and keys2 / values2 (keys2_count), to keys_out / values_out at the same positions (which must not overlap
// the ranges): at most one tile, whose share of the ranges the caller found by merge path at the two diagonals, merged
// through shared memory (detail::merge_sort::tile_merge). Among equal keys the first range's come first.
// DeviceMerge's tiles; AgentMerge below does the same for a pair of runs of one array, from one base iterator (which
// keeps the merge sort's kernels at fewer registers than two ranges' iterators would).
template <typename PolicyT, typename KeyIterator1T, typename ValueIterator1T, typename KeyIterator2T,
          typename ValueIterator2T, typename KeyOutputIteratorT, typename ValueOutputIteratorT, typename OffsetT,
          typename CompareOpT, typename KeyT, typename ValueT>
class AgentMergeRanges
{
  using MergeT = detail::merge_sort::tile_merge<PolicyT, KeyT, ValueT, CompareOpT>;

public:
  using TempStorage = typename MergeT::TempStorage;

  STRATA_DEVICE STRATA_FORCEINLINE AgentMergeRanges(TempStorage& temp_storage, KeyIterator1T keys1,
                                                    ValueIterator1T values1, KeyIterator2T keys2,
                                                    ValueIterator2T values2, KeyOutputIteratorT keys_out,
                                                    ValueOutputIteratorT values_out, CompareOpT compare_op)
      : temp_storage_(temp_storage)
      , keys1_(keys1)
      , values1_(values1)
      , keys2_(keys2)
      , values2_(values2)
      , keys_out_(keys_out)
      , values_out_(values_out)
      , compare_op_(compare_op)
  {}

  // The tile's share: [keys1_beg, keys1_end) of the first range, the MergePath splits at diag_beg and diag_end, and
  // [diag_beg - keys1_beg, diag_end - keys1_end) of the second (in every prefix of the merge, the items from the
  // second range are the prefix's length less those from the first).
  // requires: diag_beg < diag_end <= diag_beg + PolicyT::TILE_ITEMS, diag_end <= keys1_count + keys2_count.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(OffsetT diag_beg, OffsetT diag_end, OffsetT keys1_beg,
                                                    OffsetT keys1_end)
  {
    const OffsetT keys2_beg = diag_beg - keys1_beg;
    const OffsetT keys2_end = diag_end - keys1_end;
    const int keys1_count   = static_cast<int>(keys1_end - keys1_beg);
    const int keys2_count   = static_cast<int>(keys2_end - keys2_beg);
    const KeyT greatest = MergeT::padding(keys1_, keys2_, keys1_end, keys2_end, keys1_count, keys2_count, compare_op_);
    MergeT::consume(temp_storage_, keys1_, keys2_, values1_, values2_, keys_out_, values_out_, diag_beg, keys1_beg,
                    keys2_beg, keys1_count, keys1_count + keys2_count, greatest, compare_op_);
  }

private:
  TempStorage& temp_storage_;
  KeyIterator1T keys1_;
  ValueIterator1T values1_;
  KeyIterator2T keys2_;
  ValueIterator2T values2_;
  KeyOutputIteratorT keys_out_;
  ValueOutputIteratorT values_out_;
  CompareOpT compare_op_;
};

// Writes output tile blockIdx.x of a merge pass: the tile's share of its pair's merge, from the runs in keys_in /
// values_in to the same positions of keys_out / values_out (which must not overlap them). The block finds its share
// itself, by merge path at the diagonals where the tile starts and ends, each searched by a warp of its own.
template <typename PolicyT, typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
          typename ValueOutputIteratorT, typename OffsetT, typename CompareOpT, typename KeyT, typename ValueT>
class AgentMerge
{
  static constexpr int TILE_ITEMS = PolicyT::TILE_ITEMS;

  using MergeT = detail::merge_sort::tile_merge<PolicyT, KeyT, ValueT, CompareOpT>;

public:
  using TempStorage = typename MergeT::template ShareStorage<OffsetT>;

  STRATA_DEVICE STRATA_FORCEINLINE AgentMerge(TempStorage& temp_storage, KeyInputIteratorT keys_in,
                                              ValueInputIteratorT values_in, KeyOutputIteratorT keys_out,
                                              ValueOutputIteratorT values_out, OffsetT num_items, CompareOpT compare_op)
      : temp_storage_(temp_storage)
      , keys_in_(keys_in)
      , values_in_(values_in)
      , keys_out_(keys_out)
      , values_out_(values_out)
      , num_items_(num_items)
      , compare_op_(compare_op)
  {}

  STRATA_DEVICE STRATA_FORCEINLINE void Process(unsigned int tile_idx, unsigned int tiles_per_run)
  {
    const detail::merge_sort::run_pair<OffsetT> pair(tile_idx, tiles_per_run, TILE_ITEMS, num_items_);
    const OffsetT tile_beg = static_cast<OffsetT>(tile_idx) * static_cast<OffsetT>(TILE_ITEMS);
    const OffsetT tile_end =
      tile_beg + (num_items_ - tile_beg < OffsetT(TILE_ITEMS) ? num_items_ - tile_beg : OffsetT(TILE_ITEMS));

    // The splits at the tile's first and last diagonals of its pair's merge (from the first run's start).
    MergeT::find_splits(temp_storage_.split_beg, temp_storage_.split_end, keys_in_ + pair.beg, keys_in_ + pair.mid,
                        pair.mid - pair.beg, pair.end - pair.mid, OffsetT(tile_beg - pair.beg),
                        OffsetT(tile_end - pair.beg), compare_op_);
    __syncthreads();

    // The tile's share: [keys1_beg, keys1_end) of the first run and [keys2_beg, keys2_end) of the second. In every
    // prefix of the merge, the items from the second run are the prefix's length less those from the first.
    const OffsetT keys1_beg = pair.beg + temp_storage_.split_beg;
    const OffsetT keys1_end = pair.beg + temp_storage_.split_end;
    const OffsetT keys2_beg = pair.mid + (tile_beg - pair.beg) - (keys1_beg - pair.beg);
    const OffsetT keys2_end = pair.mid + (tile_end - pair.beg) - (keys1_end - pair.beg);
    const int keys1_count   = static_cast<int>(keys1_end - keys1_beg);
    const int keys2_count   = static_cast<int>(keys2_end - keys2_beg);
    const int count         = keys1_count + keys2_count;
    const KeyT greatest =
      MergeT::padding(keys_in_, keys_in_, keys1_end, keys2_end, keys1_count, keys2_count, compare_op_);
    MergeT::consume(temp_storage_.merge, keys_in_, keys_in_, values_in_, values_in_, keys_out_, values_out_, tile_beg,
                    keys1_beg, keys2_beg, keys1_count, count, greatest, compare_op_);
  }

private:
  TempStorage& temp_storage_;
  KeyInputIteratorT keys_in_;
  ValueInputIteratorT values_in_;
  KeyOutputIteratorT keys_out_;
  ValueOutputIteratorT values_out_;
  OffsetT num_items_;
  CompareOpT compare_op_;
};

STRATA_NAMESPACE_END
