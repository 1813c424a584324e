// detail::merge_sort_strategy: the stable merge sort of a tile held by a group of cooperating threads, shared by
// WarpMergeSort (the lanes of a logical warp, __syncwarp) and BlockMergeSort (a thread block, __syncthreads). It
// sits at the warp layer, the lower of its two users.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_merge.cuh>
#include <strata/thread/thread_sort.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

// The barriers the strategy below synchronizes its threads with: the whole block, or the lanes of one logical warp.
struct block_barrier
{
  STRATA_DEVICE STRATA_FORCEINLINE void operator()() const
  {
    __syncthreads();
  }
};

struct warp_barrier
{
  unsigned int member_mask;
  STRATA_DEVICE STRATA_FORCEINLINE void operator()() const
  {
    __syncwarp(member_mask);
  }
};

// The merge sort of a tile of NUM_THREADS * ITEMS_PER_THREAD keys (with a value each unless ValueT is NullType) held
// in a blocked arrangement by NUM_THREADS cooperating threads ranked 0 .. NUM_THREADS - 1, which BarrierT
// synchronizes. Any NUM_THREADS >= 1 and ITEMS_PER_THREAD >= 1.
//
//   1. Each thread sorts its own items in registers (StableOddEvenSort).
//   2. ceil(log2(NUM_THREADS)) rounds follow. Before a round the tile is made of sorted runs of `run_threads`
//      threads' items; the round merges runs 2k and 2k + 1 into one. Every thread writes its items to shared memory
//      where they stand, finds by MergePath where its own ITEMS_PER_THREAD outputs of its pair's merge start, and
//      takes them with SerialMerge. Values follow their keys through a second pass over the same shared memory:
//      each output remembers which position its key came from.
//
// Stable: the per-thread sort is, and every merge puts the earlier run's item first among equal keys. A partial tile
// (valid_items < tile) leaves the items at and after valid_items out: they are never compared, their keys become
// oob_default (before the sort, so the comparator never sees them) and their values stay where they are. With an
// oob_default that no valid key is ordered after, the whole tile is then sorted, as CUB's contract has it.
//
// Barriers: two per round for the keys, two more for the values; the first comes before the round's first write, so
// the storage may follow any earlier use by the same threads. No barrier after the last round's reads.
template <typename KeyT, typename ValueT, int NUM_THREADS, int ITEMS_PER_THREAD, typename BarrierT>
class merge_sort_strategy
{
  static_assert(NUM_THREADS >= 1, "at least one thread");
  static_assert(ITEMS_PER_THREAD >= 1, "at least one item per thread");

protected:
  static constexpr bool KEYS_ONLY = cuda::std::is_same<ValueT, NullType>::value;
  static constexpr int TILE_ITEMS = NUM_THREADS * ITEMS_PER_THREAD;

  // Keys and values never share the storage at the same time: the barriers of a round separate them. The keys have
  // a slot after the tile's last, which a full tile's merge steps may read (detail::serial_merge_padded).
  using values_storage_t = cuda::std::conditional_t<KEYS_ONLY, NullType, ValueT[TILE_ITEMS]>;
  union _TempStorage
  {
    Uninitialized<KeyT[TILE_ITEMS + 1]> keys;
    Uninitialized<values_storage_t> values;
  };

public:
  //! Shared memory for one sort.
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  //! Sorts the tile's keys by `compare_op` (compare_op(a, b): a goes before b). Stable.
  template <typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void Sort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op)
  {
    NullType values[ITEMS_PER_THREAD];
    sort_tile<false>(keys, values, compare_op, TILE_ITEMS, keys[0]);
  }

  //! Sorts the first valid_items keys of the tile; keys at and after valid_items become oob_default.
  template <typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void Sort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op, int valid_items,
                                             KeyT oob_default)
  {
    NullType values[ITEMS_PER_THREAD];
    sort_tile<true>(keys, values, compare_op, valid_items, oob_default);
  }

  //! Sorts the tile's keys, each value moving with its key. Stable.
  template <typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD],
                                             CompareOp compare_op)
  {
    sort_tile<false>(keys, items, compare_op, TILE_ITEMS, keys[0]);
  }

  //! Sorts the first valid_items keys with their values; keys at and after valid_items become oob_default and their
  //! values stay where they are. IS_LAST_TILE = false: the tile is full, valid_items and oob_default are ignored.
  template <typename CompareOp, bool IS_LAST_TILE = true>
  STRATA_DEVICE STRATA_FORCEINLINE void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD],
                                             CompareOp compare_op, int valid_items, KeyT oob_default)
  {
    sort_tile<IS_LAST_TILE>(keys, items, compare_op, valid_items, oob_default);
  }

  //! The Sort overloads are stable already; StableSort says so at the call site, as in CUB.
  template <typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op)
  {
    Sort(keys, compare_op);
  }

  template <typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op,
                                                   int valid_items, KeyT oob_default)
  {
    Sort(keys, compare_op, valid_items, oob_default);
  }

  template <typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD],
                                                   CompareOp compare_op)
  {
    Sort(keys, items, compare_op);
  }

  template <typename CompareOp, bool IS_LAST_TILE = true>
  STRATA_DEVICE STRATA_FORCEINLINE void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD],
                                                   CompareOp compare_op, int valid_items, KeyT oob_default)
  {
    Sort<CompareOp, IS_LAST_TILE>(keys, items, compare_op, valid_items, oob_default);
  }

protected:
  STRATA_DEVICE STRATA_FORCEINLINE merge_sort_strategy(_TempStorage& storage, int rank, BarrierT barrier)
      : temp_storage(storage)
      , linear_tid(rank)
      , sync(barrier)
  {}

  _TempStorage& temp_storage;
  int linear_tid;
  BarrierT sync;

private:
  static STRATA_DEVICE STRATA_FORCEINLINE int clamp(int v, int lo, int hi)
  {
    return v < lo ? lo : (v > hi ? hi : v);
  }

  // ValuesT is ValueT, or NullType for a keys-only call. PARTIAL: only tile items below valid_items take part.
  template <bool PARTIAL, typename ValuesT, typename CompareOp>
  STRATA_DEVICE STRATA_FORCEINLINE void sort_tile(KeyT (&keys)[ITEMS_PER_THREAD], ValuesT (&values)[ITEMS_PER_THREAD],
                                                  CompareOp compare_op, int valid_items, KeyT oob_default)
  {
    constexpr bool WITH_VALUES = !cuda::std::is_same<ValuesT, NullType>::value;
    const int first            = linear_tid * ITEMS_PER_THREAD;

    // This thread's items that take part: a prefix of its items, all of them for a full tile.
    int thread_valid = ITEMS_PER_THREAD;
    if constexpr (PARTIAL)
    {
      valid_items  = clamp(valid_items, 0, TILE_ITEMS);
      thread_valid = clamp(valid_items - first, 0, ITEMS_PER_THREAD);
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if (i >= thread_valid)
        {
          keys[i] = oob_default;
        }
      }
      detail::stable_odd_even_sort_prefix(keys, values, thread_valid, compare_op);
    }
    else
    {
      (void) oob_default;
      valid_items = TILE_ITEMS;
      StableOddEvenSort(keys, values, compare_op);
    }

    KeyT* keys_shared = temp_storage.keys.Alias();

    // Merge runs of run_threads threads' items pairwise until one run covers the tile.
    STRATA_NO_UNROLL
    for (int run_threads = 1; run_threads < NUM_THREADS; run_threads *= 2)
    {
      // The previous round's (or the caller's) reads of the storage are done.
      sync();
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        keys_shared[first + i] = keys[i];
      }
      sync();

      // The pair of runs this thread's outputs belong to, cut at valid_items: [keys1_beg, keys1_end) and
      // [keys1_end, keys2_end). A pair past valid_items is empty; one that straddles it is cut short.
      const int run_items   = run_threads * ITEMS_PER_THREAD;
      const int pair_beg    = (linear_tid & ~(2 * run_threads - 1)) * ITEMS_PER_THREAD;
      const int keys1_beg   = pair_beg < valid_items ? pair_beg : valid_items;
      const int keys1_end   = pair_beg + run_items < valid_items ? pair_beg + run_items : valid_items;
      const int keys2_end   = pair_beg + 2 * run_items < valid_items ? pair_beg + 2 * run_items : valid_items;
      const int keys1_count = keys1_end - keys1_beg;
      const int keys2_count = keys2_end - keys1_end;

      // This thread's outputs start at diagonal first - pair_beg of its pair's merge; only a thread with a valid item
      // has any (then first < keys2_end, and SerialMerge writes exactly thread_valid outputs). In a full tile every
      // thread's outputs are ITEMS_PER_THREAD items of its pair, and the slot after a range is the next range's first
      // or the one after the tile: the merge may read past its ranges.
      int indices[ITEMS_PER_THREAD];
      if (!PARTIAL || thread_valid > 0)
      {
        const int diag = first - keys1_beg;
        const int split =
          MergePath(keys_shared + keys1_beg, keys_shared + keys1_end, keys1_count, keys2_count, diag, compare_op);
        serial_merge<!PARTIAL>(keys_shared, keys1_beg + split, keys1_end + diag - split, keys1_count - split,
                               keys2_count - (diag - split), keys, indices, compare_op);
      }

      if constexpr (WITH_VALUES)
      {
        // The values overlay the keys just read.
        ValueT* values_shared = temp_storage.values.Alias();
        sync();
        STRATA_UNROLL
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          values_shared[first + i] = values[i];
        }
        sync();
        STRATA_UNROLL
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          if (!PARTIAL || i < thread_valid)
          {
            values[i] = values_shared[indices[i]];
          }
        }
      }
    }
  }
};

} // namespace detail

STRATA_NAMESPACE_END
