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
//
// Beside them, in detail: serial_merge_padded, SerialMerge without a branch per step for callers that can promise
// more (tiles merged whole, in buffers with a slot after the last item), and merge_path_by_rounds, MergePath with 32
// probes at a time for a warp searching runs in global memory, where each dependent step costs a memory latency.
#pragma once

#include <strata/config.cuh>

#include <cuda/std/bit>

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
STRATA_HOST_DEVICE STRATA_FORCEINLINE OffsetT MergePath(KeyIt1 keys1, KeyIt2 keys2, OffsetT keys1_count,
                                                        OffsetT keys2_count, OffsetT diag, BinaryPred binary_pred)
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
STRATA_HOST_DEVICE STRATA_FORCEINLINE void SerialMerge(KeyIteratorT keys, int keys1_beg, int keys2_beg, int keys1_count,
                                                       int keys2_count, KeyT (&output)[ITEMS_PER_THREAD],
                                                       int (&indices)[ITEMS_PER_THREAD], CompareOp compare_op)
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
      const bool take2    = has2 && (!has1 || compare_op(key2, key1));
      const int taken     = take2 ? next2 : next1;
      output[item]        = take2 ? key2 : key1;
      indices[item]       = taken;
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

namespace detail
{

// As SerialMerge, for callers that promise two things, so that a step needs no branch: the two ranges together hold
// at least ITEMS_PER_THREAD items (every output is written), and keys[keys1_end] and keys[keys2_end] may be read
// (one slot past each range; its value is never used, and the comparator never sees it). A step is one compare,
// selects, and one read at one computed index: the key after the item taken, from its range, read whether or not
// that range has one left. A range that has run out reads as empty through its index, not its key.
STRATA_MERGE_EXEC_CHECK_DISABLE
template <typename KeyT, typename KeyIteratorT, typename CompareOp, int ITEMS_PER_THREAD>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void
serial_merge_padded(KeyIteratorT keys, int keys1_beg, int keys2_beg, int keys1_count, int keys2_count,
                    KeyT (&output)[ITEMS_PER_THREAD], int (&indices)[ITEMS_PER_THREAD], CompareOp compare_op)
{
  const int keys1_end = keys1_beg + keys1_count;
  const int keys2_end = keys2_beg + keys2_count;
  int next1           = keys1_beg;
  int next2           = keys2_beg;
  KeyT key1           = keys[next1];
  KeyT key2           = keys[next2];
  STRATA_UNROLL
  for (int item = 0; item < ITEMS_PER_THREAD; ++item)
  {
    // Selects only, and a single read (SerialMerge says why the read's index is computed once).
    const bool take2    = next2 < keys2_end && (next1 >= keys1_end || compare_op(key2, key1));
    const int taken     = take2 ? next2 : next1;
    output[item]        = take2 ? key2 : key1;
    indices[item]       = taken;
    const int following = taken + 1;
    const KeyT read     = keys[following];
    next1               = take2 ? next1 : following;
    next2               = take2 ? following : next2;
    key1                = take2 ? key1 : read;
    key2                = take2 ? read : key2;
  }
}

// serial_merge_padded where PADDED (the caller keeps its promises), SerialMerge otherwise.
STRATA_MERGE_EXEC_CHECK_DISABLE
template <bool PADDED, typename KeyT, typename KeyIteratorT, typename CompareOp, int ITEMS_PER_THREAD>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void
serial_merge(KeyIteratorT keys, int keys1_beg, int keys2_beg, int keys1_count, int keys2_count,
             KeyT (&output)[ITEMS_PER_THREAD], int (&indices)[ITEMS_PER_THREAD], CompareOp compare_op)
{
  if constexpr (PADDED)
  {
    serial_merge_padded(keys, keys1_beg, keys2_beg, keys1_count, keys2_count, output, indices, compare_op);
  }
  else
  {
    SerialMerge(keys, keys1_beg, keys2_beg, keys1_count, keys2_count, output, indices, compare_op);
  }
}

// MergePath's split found 32 candidates at a time: each round, lane l of a warp probes position
// merge_path_probe(lo, hi, l) of the candidates [lo, hi) left, all lanes at once, and merge_path_narrow keeps the
// stretch between the last probe where MergePath's test is false and the first where it is true. 32 evenly spaced
// probes cut n candidates to at most n / 33, so a run of 2^23 items takes 5 rounds where MergePath takes 23
// dependent steps; a round over 32 or fewer candidates probes each of them and ends the search.
//
// Lane `lane`'s probe (0 <= lane < 32) over the candidates [lo, hi), lo < hi: lo + floor((lane + 1) * n / 33) for
// n = hi - lo > 32, computed without forming (lane + 1) * n, which could overflow OffsetT; lo + lane for n <= 32,
// and hi for the lanes beyond the candidates: they probe nothing.
template <typename OffsetT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE OffsetT merge_path_probe(OffsetT lo, OffsetT hi, unsigned int lane)
{
  const OffsetT n = hi - lo;
  if (n <= OffsetT(32))
  {
    return static_cast<OffsetT>(lane) < n ? lo + static_cast<OffsetT>(lane) : hi;
  }
  const OffsetT k = static_cast<OffsetT>(lane + 1);
  return lo + (n / OffsetT(33)) * k + (n % OffsetT(33)) * k / OffsetT(33);
}

// Narrows [lo, hi) after a round whose `ballot` has bit l set where lane l's probe is hi (no probe) or MergePath's
// test holds there. The test turns true once, so the split lies after the last false probe and at or before the
// first true one.
template <typename OffsetT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void merge_path_narrow(OffsetT& lo, OffsetT& hi, unsigned int ballot)
{
  const unsigned int first_true = static_cast<unsigned int>(cuda::std::countr_zero(ballot)); // 32 when none
  const OffsetT new_lo          = first_true == 0 ? lo : merge_path_probe(lo, hi, first_true - 1) + OffsetT(1);
  if (first_true < 32)
  {
    hi = merge_path_probe(lo, hi, first_true);
  }
  lo = new_lo;
}

// MergePath(keys1, keys2, keys1_count, keys2_count, diag, binary_pred) by rounds of 32 probes. `ballot(lo, hi)`
// runs one round over [lo, hi): it returns the mask of lanes l whose probe p = merge_path_probe(lo, hi, l) is hi or
// has binary_pred(keys2[diag - 1 - p], keys1[p]) (a warp's __ballot_sync, one probe a lane).
STRATA_MERGE_EXEC_CHECK_DISABLE
template <typename OffsetT, typename BallotOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE OffsetT merge_path_by_rounds(OffsetT keys1_count, OffsetT keys2_count,
                                                                   OffsetT diag, BallotOp ballot)
{
  OffsetT lo = diag > keys2_count ? OffsetT(diag - keys2_count) : OffsetT(0);
  OffsetT hi = diag < keys1_count ? diag : keys1_count;
  while (lo < hi)
  {
    merge_path_narrow(lo, hi, static_cast<unsigned int>(ballot(lo, hi)));
  }
  return lo;
}

} // namespace detail

STRATA_NAMESPACE_END
