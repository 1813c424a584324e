// MergePath and SerialMerge: the two steps by which one thread takes its share of the merge of two sorted
// sequences, as BlockMergeSort, WarpMergeSort and DeviceMergeSort merge (CUB's names and arguments).
//
// The stable merge of sorted A (keys1) and B (keys2) writes A's item before B's wherever they compare equal. Its
// first `diag` outputs are A[0, i) and B[0, diag - i) for one split i, which MergePath finds by binary search along
// the cross diagonal i + j = diag (Green, McColl & Bader, "GPU Merge Path", 2012). Threads that each start at a
// diagonal of their own (thread t at t * ITEMS_PER_THREAD, say) then merge disjoint pieces of the output
// independently: SerialMerge continues from the split, ITEMS_PER_THREAD outputs at a time.
//
// Example (a thread's ITEMS_PER_THREAD outputs from position `diag` of the merge of two runs in shared memory):
//   const int split = strata::MergePath(smem + a_beg, smem + b_beg, a_count, b_count, diag, compare_op);
//   strata::SerialMerge(smem, a_beg + split, b_beg + diag - split, a_count - split, b_count - (diag - split),
//                       keys, indices, compare_op);   // keys[i]: output diag + i; indices[i]: where it was in smem
#pragma once

#include <strata/config.cuh>

// The functions below are __host__ __device__ (host tests run them on the CPU) and call the caller's operator, which
// may be __device__ only: nvcc's check of such calls is turned off for them, as for any host-device template that
// forwards to a functor.
#if defined(__NVCC__)
#  define STRATA_MERGE_EXEC_CHECK_DISABLE _Pragma("nv_exec_check_disable")
#else
#  define STRATA_MERGE_EXEC_CHECK_DISABLE
#endif

STRATA_NAMESPACE_BEGIN

//! Of the first `diag` items of the stable merge of keys1[0, keys1_count) and keys2[0, keys2_count) (both sorted by
//! `binary_pred`, a strict weak order), how many come from keys1. Ties go to keys1.
//! requires: 0 <= diag <= keys1_count + keys2_count. Cost: ceil(log2(min(diag, keys1_count) + 1)) steps, each
//! reading one key of each sequence.
STRATA_MERGE_EXEC_CHECK_DISABLE
template <typename KeyIt1, typename KeyIt2, typename OffsetT, typename BinaryPred>
STRATA_HOST_DEVICE STRATA_FORCEINLINE OffsetT
MergePath(KeyIt1 keys1, KeyIt2 keys2, OffsetT keys1_count, OffsetT keys2_count, OffsetT diag, BinaryPred binary_pred)
{
  // The split lies in [lo, hi]: at least diag - keys2_count items must come from keys1, at most min(diag,
  // keys1_count) can. keys1[mid] is among the first diag outputs exactly when keys2[diag - 1 - mid], the key it
  // is paired with on the diagonal, does not go strictly before it; that test turns from false to true once as
  // mid grows, and the split is where it turns.
  OffsetT lo = diag > keys2_count ? OffsetT(diag - keys2_count) : OffsetT(0);
  OffsetT hi = diag < keys1_count ? diag : keys1_count;
  while (lo < hi)
  {
    const OffsetT mid = lo + (hi - lo) / 2;
    if (binary_pred(keys2[diag - 1 - mid], keys1[mid]))
    {
      hi = mid;
    }
    else
    {
      lo = mid + 1;
    }
  }
  return lo;
}

//! Merges, stably, keys[keys1_beg, keys1_beg + keys1_count) and keys[keys2_beg, keys2_beg + keys2_count) (both
//! sorted by `compare_op`) into `output`, ITEMS_PER_THREAD items at most, and records in `indices` the position in
//! `keys` each output came from. Ties go to the first range. When both ranges run out first (keys1_count +
//! keys2_count < ITEMS_PER_THREAD), the remaining output and indices items are left as they were (CUB leaves them
//! unspecified). `keys` is any random-access iterator; keys are read once each, in merge order.
STRATA_MERGE_EXEC_CHECK_DISABLE
template <typename KeyT, typename KeyIteratorT, typename CompareOp, int ITEMS_PER_THREAD>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void SerialMerge(KeyIteratorT keys,
                                                  int keys1_beg,
                                                  int keys2_beg,
                                                  int keys1_count,
                                                  int keys2_count,
                                                  KeyT (&output)[ITEMS_PER_THREAD],
                                                  int (&indices)[ITEMS_PER_THREAD],
                                                  CompareOp compare_op)
{
  const int keys1_end = keys1_beg + keys1_count;
  const int keys2_end = keys2_beg + keys2_count;
  // The next item of each range, and its key, read ahead so that each step compares two registers. Each step reads
  // one key: the one after the item it takes, from the range it took it from, at an index computed once. (An
  // earlier form, which advanced each range's index and then read at it in two branches, was miscompiled by
  // ptxas 13.0 for some comparators taking their arguments by reference: a read landed one item too far.)
  int next1 = keys1_beg;
  int next2 = keys2_beg;
  KeyT key1{};
  KeyT key2{};
  if (next1 < keys1_end)
  {
    key1 = keys[next1];
  }
  if (next2 < keys2_end)
  {
    key2 = keys[next2];
  }
  STRATA_UNROLL
  for (int item = 0; item < ITEMS_PER_THREAD; ++item)
  {
    const bool has1 = next1 < keys1_end;
    const bool has2 = next2 < keys2_end;
    if (has1 || has2)
    {
      const bool take2 = has2 && (!has1 || compare_op(key2, key1));
      const int taken  = take2 ? next2 : next1;
      output[item]     = take2 ? key2 : key1;
      indices[item]    = taken;
      const int following = taken + 1;
      const bool more     = following < (take2 ? keys2_end : keys1_end);
      KeyT following_key  = take2 ? key2 : key1;
      if (more)
      {
        following_key = keys[following];
      }
      if (take2)
      {
        next2 = following;
        key2  = following_key;
      }
      else
      {
        next1 = following;
        key1  = following_key;
      }
    }
  }
}

STRATA_NAMESPACE_END
