// WarpMergeSort: a stable merge sort, under any strict weak order, of the keys (and values) held by a logical warp.
// The sort is BlockMergeSort's (detail::merge_sort_strategy, strata/warp/merge_sort_strategy.cuh), with the logical warp's lanes as the threads and
// __syncwarp over them as the barrier.
#pragma once

#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/merge_sort_strategy.cuh>

STRATA_NAMESPACE_BEGIN

//! WarpMergeSort<KeyT, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS = 32, ValueT = NullType> sorts the
//! LOGICAL_WARP_THREADS * ITEMS_PER_THREAD keys a logical warp holds by a comparator, with a value per key unless
//! ValueT is NullType (CUB's contract).
//!
//! - Logical warps are aligned groups of LOGICAL_WARP_THREADS lanes (a power of two <= 32) of a hardware warp;
//!   each sorts on its own. Lane l of a logical warp holds its tile items l * ITEMS_PER_THREAD + i (blocked), before
//!   and after.
//! - compare_op(a, b) returns true when a goes before b (any strict weak order). Stable, in Sort and StableSort.
//! - Partial tiles: Sort(keys, [items,] compare_op, valid_items, oob_default) sorts the logical warp's first
//!   valid_items items; the keys after them become oob_default, their values stay where they are.
//! - Temporary storage: one TempStorage per logical warp, passed to the constructor (one tile of keys and one key
//!   more, or one tile of values). Every lane of the logical warp must call the same sort; the lanes synchronize
//!   with __syncwarp only. Pass a __syncwarp() before reusing the TempStorage.
//! - Cost: as BlockMergeSort's with LOGICAL_WARP_THREADS threads: log2(LOGICAL_WARP_THREADS) merge rounds.
//!
//! Example (logical warps of 16 lanes, 4 keys each):
//!   using WarpMergeSortT = strata::WarpMergeSort<int, 4, 16>;
//!   __shared__ typename WarpMergeSortT::TempStorage temp_storage[128 / 16];
//!   int keys[4];  // ... lane l of logical warp w holds its items 4l .. 4l + 3
//!   WarpMergeSortT(temp_storage[threadIdx.x / 16]).Sort(keys, cuda::std::less<>{});
template <typename KeyT, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS = WARP_THREADS, typename ValueT = NullType>
class WarpMergeSort
    : public detail::merge_sort_strategy<KeyT, ValueT, LOGICAL_WARP_THREADS, ITEMS_PER_THREAD, detail::warp_barrier>
{
  static_assert(cuda::std::has_single_bit(static_cast<unsigned>(LOGICAL_WARP_THREADS))
                  && LOGICAL_WARP_THREADS <= WARP_THREADS,
                "a logical warp is a power of two lanes, at most 32");

  using base_t =
    detail::merge_sort_strategy<KeyT, ValueT, LOGICAL_WARP_THREADS, ITEMS_PER_THREAD, detail::warp_barrier>;

  // The calling lane's rank within its logical warp, and the mask of that warp's lanes.
  static STRATA_DEVICE STRATA_FORCEINLINE int lane_in_logical_warp()
  {
    return static_cast<int>(LaneId() % LOGICAL_WARP_THREADS);
  }
  static STRATA_DEVICE STRATA_FORCEINLINE unsigned int logical_warp_mask()
  {
    return LogicalWarpMask<LOGICAL_WARP_THREADS>(LaneId() / LOGICAL_WARP_THREADS);
  }

public:
  using TempStorage = typename base_t::TempStorage;

  WarpMergeSort() = delete;

  //! Uses `temp_storage`, the calling logical warp's own, as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE explicit WarpMergeSort(TempStorage& temp_storage)
      : base_t(temp_storage.Alias(), lane_in_logical_warp(), detail::warp_barrier{logical_warp_mask()})
  {}

  //! The lanes of the calling thread's logical warp, as a mask over the hardware warp.
  STRATA_DEVICE STRATA_FORCEINLINE unsigned int get_member_mask() const
  {
    return this->sync.member_mask;
  }

  //! The calling thread's lane within its logical warp.
  STRATA_DEVICE STRATA_FORCEINLINE unsigned int get_linear_tid() const
  {
    return static_cast<unsigned int>(this->linear_tid);
  }
};

STRATA_NAMESPACE_END
