// BlockMergeSort: a stable merge sort, under any strict weak order, of the keys (and values) of a tile held by a
// thread block. The sort itself is detail::merge_sort_strategy (strata/warp/merge_sort_strategy.cuh), shared with
// WarpMergeSort.
#pragma once

#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/warp/merge_sort_strategy.cuh>

STRATA_NAMESPACE_BEGIN

//! BlockMergeSort<KeyT, BLOCK_DIM_X, ITEMS_PER_THREAD, ValueT = NullType, BLOCK_DIM_Y = 1, BLOCK_DIM_Z = 1> sorts
//! the BLOCK_THREADS * ITEMS_PER_THREAD keys of a tile by a comparator, with a value per key unless ValueT is
//! NullType (CUB's contract).
//!
//! - Input and output in a blocked arrangement: thread t (RowMajorTid) holds tile items t * ITEMS_PER_THREAD + i.
//! - compare_op(a, b) returns true when a goes before b: any strict weak order (cuda::std::less<>, greater<>, a
//!   lambda over a field of a struct). Keys need only be copyable and default constructible.
//! - Stable: keys that compare equal keep their input order, in Sort and StableSort alike.
//! - Partial tiles: Sort(keys, [items,] compare_op, valid_items, oob_default) sorts the first valid_items items of
//!   the tile; the keys after them become oob_default, their values stay where they are. (CUB asks for an oob_default
//!   ordered after every valid key so that the whole tile comes out sorted; that holds here too, and other
//!   oob_defaults are allowed.)
//! - Any block size (CUB's needs a power of two) and items per thread.
//! - Temporary storage: TempStorage (one tile of keys and one key more, or one tile of values, whichever is
//!   larger), or the default constructor's private __shared__ allocation. Every thread of the block must call the
//!   same sort; pass a __syncthreads() before reusing the TempStorage.
//! - Cost: ITEMS_PER_THREAD^2 / 2 compare-swaps per thread, then ceil(log2(BLOCK_THREADS)) merge rounds of a binary
//!   search and ITEMS_PER_THREAD merge steps each, through shared memory; two barriers per round, four with values.
//!
//! Example (128 threads, 4 keys and values each):
//!   using BlockMergeSortT = strata::BlockMergeSort<int, 128, 4, float>;
//!   __shared__ typename BlockMergeSortT::TempStorage temp_storage;
//!   int keys[4];     // ... a blocked arrangement
//!   float values[4];
//!   BlockMergeSortT(temp_storage).Sort(keys, values, cuda::std::greater<>{});  // descending, stable
template <typename KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, typename ValueT = NullType, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockMergeSort
    : public detail::merge_sort_strategy<KeyT, ValueT, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, ITEMS_PER_THREAD,
                                         detail::block_barrier>
{
  using base_t = detail::merge_sort_strategy<KeyT, ValueT, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, ITEMS_PER_THREAD,
                                             detail::block_barrier>;
  using _TempStorage = typename base_t::_TempStorage;

  static STRATA_DEVICE STRATA_FORCEINLINE _TempStorage& PrivateStorage()
  {
    __shared__ _TempStorage private_storage;
    return private_storage;
  }

public:
  using TempStorage = typename base_t::TempStorage;

  //! Uses a private __shared__ allocation as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockMergeSort()
      : base_t(PrivateStorage(), RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z), detail::block_barrier{})
  {}

  //! Uses `temp_storage` as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockMergeSort(TempStorage& temp_storage)
      : base_t(temp_storage.Alias(), RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z), detail::block_barrier{})
  {}
};

STRATA_NAMESPACE_END
