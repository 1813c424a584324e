// StableOddEvenSort: one thread sorts its own statically sized array of keys (and the values beside them) in
// registers, stably, under any strict weak order.
//
// Odd-even transposition: ITEMS_PER_THREAD rounds, each comparing the neighbouring pairs (0,1), (2,3), ... or
// (1,2), (3,4), ... in turn and swapping a pair only when its right key is ordered strictly before its left one.
// Only neighbours ever swap, and never equal ones, so equal keys keep their order. The loops unroll completely:
// N(N-1)/2 compare-swaps on constant register indices, with no local memory. The first stage of BlockMergeSort,
// WarpMergeSort and DeviceMergeSort's tile sort.
//
// Example:
//   int keys[4]    = {3, 1, 3, 0};
//   float vals[4]  = {0.f, 1.f, 2.f, 3.f};
//   strata::StableOddEvenSort(keys, vals, cuda::std::less<>{});  // keys {0, 1, 3, 3}, vals {3, 1, 0, 2}
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_merge.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
template <typename T>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void swap_items(T& a, T& b)
{
  T t = a;
  a   = b;
  b   = t;
}

// As StableOddEvenSort over the first `count` items only (0 <= count <= ITEMS_PER_THREAD); the others are neither
// compared nor moved. The network is the same; a pair takes part only when both of its items lie below `count`.
STRATA_MERGE_EXEC_CHECK_DISABLE
template <typename KeyT, typename ValueT, typename CompareOp, int ITEMS_PER_THREAD>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void stable_odd_even_sort_prefix(KeyT (&keys)[ITEMS_PER_THREAD],
                                                                       ValueT (&values)[ITEMS_PER_THREAD], int count,
                                                                       CompareOp compare_op)
{
  constexpr bool KEYS_ONLY = cuda::std::is_same<ValueT, NullType>::value;
  STRATA_UNROLL
  for (int round = 0; round < ITEMS_PER_THREAD; ++round)
  {
    STRATA_UNROLL
    for (int j = round & 1; j + 1 < ITEMS_PER_THREAD; j += 2)
    {
      if (j + 1 < count && compare_op(keys[j + 1], keys[j]))
      {
        swap_items(keys[j], keys[j + 1]);
        if constexpr (!KEYS_ONLY)
        {
          swap_items(values[j], values[j + 1]);
        }
      }
    }
  }
}
} // namespace detail

//! Sorts `keys` in place by `compare_op` (a strict weak order: compare_op(a, b) is true when a goes before b),
//! moving `items[i]` with `keys[i]`. Stable. ValueT may be NullType (keys only).
STRATA_MERGE_EXEC_CHECK_DISABLE
template <typename KeyT, typename ValueT, typename CompareOp, int ITEMS_PER_THREAD>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void StableOddEvenSort(KeyT (&keys)[ITEMS_PER_THREAD],
                                                             ValueT (&items)[ITEMS_PER_THREAD], CompareOp compare_op)
{
  constexpr bool KEYS_ONLY = cuda::std::is_same<ValueT, NullType>::value;
  STRATA_UNROLL
  for (int round = 0; round < ITEMS_PER_THREAD; ++round)
  {
    STRATA_UNROLL
    for (int j = round & 1; j + 1 < ITEMS_PER_THREAD; j += 2)
    {
      if (compare_op(keys[j + 1], keys[j]))
      {
        detail::swap_items(keys[j], keys[j + 1]);
        if constexpr (!KEYS_ONLY)
        {
          detail::swap_items(items[j], items[j + 1]);
        }
      }
    }
  }
}

STRATA_NAMESPACE_END
