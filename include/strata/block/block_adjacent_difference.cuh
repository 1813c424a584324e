// BlockAdjacentDifference: the difference of every item with its left or right neighbour in a tile held by a
// thread block in a blocked arrangement.
#pragma once

#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>

STRATA_NAMESPACE_BEGIN

// BlockAdjacentDifference<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>
//
// For a tile of BLOCK_THREADS * ITEMS_PER_THREAD items in a blocked arrangement (thread t holds tile items
// t * ITEMS_PER_THREAD ... (t + 1) * ITEMS_PER_THREAD - 1, threads ranked by RowMajorTid):
//   SubtractLeft:  output[i] = difference_op(input[i], input[i - 1]); the tile's first item is copied, or
//                  differenced with `tile_predecessor_item` when one is given;
//   SubtractRight: output[i] = difference_op(input[i], input[i + 1]); the tile's last item is copied, or
//                  differenced with `tile_successor_item` when one is given.
// The PartialTile variants treat only the first `valid_items` items of the tile as valid: items at or past
// valid_items are copied, and SubtractRightPartialTile copies item valid_items - 1, the last valid one.
// `difference_op` is `OutputT(const T& a, const T& b)`; it need not be commutative. `output` may be `input`
// (differences are computed in place).
//
// Temporary storage: each call writes TempStorage and passes one __syncthreads(), so every thread of the block
// must call it; put a __syncthreads() between two uses of the same TempStorage. The default constructor uses a
// private __shared__ allocation. Cost per call: one shared-memory store and load, one barrier.
//
// Example (128 threads, 4 items each):
//   using BlockAdjacentDifferenceT = strata::BlockAdjacentDifference<int, 128>;
//   __shared__ typename BlockAdjacentDifferenceT::TempStorage temp_storage;
//   int items[4]; // ... a blocked arrangement
//   int deltas[4];
//   BlockAdjacentDifferenceT(temp_storage).SubtractLeft(items, deltas, cuda::std::minus<>{});
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockAdjacentDifference
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(BLOCK_THREADS >= 1 && BLOCK_THREADS <= 1024, "a thread block has 1..1024 threads");

  // SubtractLeft reads the previous thread's last item, SubtractRight the next thread's first item. One array per
  // direction, so a SubtractLeft directly followed by a SubtractRight on one TempStorage needs no barrier between.
  struct _TempStorage
  {
    T first_items[BLOCK_THREADS];
    T last_items[BLOCK_THREADS];
  };

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  // Uses a private __shared__ allocation as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockAdjacentDifference()
      : temp_storage_(PrivateStorage())
      , linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  // Uses `temp_storage` as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockAdjacentDifference(TempStorage& temp_storage)
      : temp_storage_(temp_storage.Alias())
      , linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  // -- left differences ----------------------------------------------------------------------------------

  // output[i] = difference_op(input[i], input[i - 1]); the tile's first item is copied.
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void SubtractLeft(const T (&input)[ITEMS_PER_THREAD],
                                                     OutputT (&output)[ITEMS_PER_THREAD], DifferenceOpT difference_op)
  {
    temp_storage_.last_items[linear_tid_] = input[ITEMS_PER_THREAD - 1];
    __syncthreads();
    ThreadLeftDifferences(input, output, difference_op);
    if (linear_tid_ == 0)
    {
      output[0] = input[0];
    }
    else
    {
      output[0] = difference_op(input[0], temp_storage_.last_items[linear_tid_ - 1]);
    }
  }

  // output[i] = difference_op(input[i], input[i - 1]); the tile's first item is differenced with
  // `tile_predecessor_item` (read on thread 0 only).
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void SubtractLeft(const T (&input)[ITEMS_PER_THREAD],
                                                     OutputT (&output)[ITEMS_PER_THREAD], DifferenceOpT difference_op,
                                                     T tile_predecessor_item)
  {
    temp_storage_.last_items[linear_tid_] = input[ITEMS_PER_THREAD - 1];
    __syncthreads();
    ThreadLeftDifferences(input, output, difference_op);
    const T predecessor = (linear_tid_ == 0) ? tile_predecessor_item : temp_storage_.last_items[linear_tid_ - 1];
    output[0]           = difference_op(input[0], predecessor);
  }

  // SubtractLeft over the first `valid_items` items of the tile; items from valid_items on are copied.
  // requires: 0 <= valid_items <= BLOCK_THREADS * ITEMS_PER_THREAD (the same on every thread)
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void SubtractLeftPartialTile(const T (&input)[ITEMS_PER_THREAD],
                                                                OutputT (&output)[ITEMS_PER_THREAD],
                                                                DifferenceOpT difference_op, int valid_items)
  {
    temp_storage_.last_items[linear_tid_] = input[ITEMS_PER_THREAD - 1];
    __syncthreads();
    ThreadLeftDifferencesPartial(input, output, difference_op, valid_items);
    if (linear_tid_ == 0 || valid_items <= TileIndex<ITEMS_PER_THREAD>(0))
    {
      output[0] = input[0];
    }
    else
    {
      output[0] = difference_op(input[0], temp_storage_.last_items[linear_tid_ - 1]);
    }
  }

  // SubtractLeft over the first `valid_items` items of the tile, the first differenced with
  // `tile_predecessor_item` (read on thread 0 only); items from valid_items on are copied.
  // requires: 0 <= valid_items <= BLOCK_THREADS * ITEMS_PER_THREAD (the same on every thread)
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void
  SubtractLeftPartialTile(const T (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD],
                          DifferenceOpT difference_op, int valid_items, T tile_predecessor_item)
  {
    temp_storage_.last_items[linear_tid_] = input[ITEMS_PER_THREAD - 1];
    __syncthreads();
    ThreadLeftDifferencesPartial(input, output, difference_op, valid_items);
    if (valid_items <= TileIndex<ITEMS_PER_THREAD>(0))
    {
      output[0] = input[0];
    }
    else
    {
      const T predecessor = (linear_tid_ == 0) ? tile_predecessor_item : temp_storage_.last_items[linear_tid_ - 1];
      output[0]           = difference_op(input[0], predecessor);
    }
  }

  // -- right differences ---------------------------------------------------------------------------------

  // output[i] = difference_op(input[i], input[i + 1]); the tile's last item is copied.
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void SubtractRight(const T (&input)[ITEMS_PER_THREAD],
                                                      OutputT (&output)[ITEMS_PER_THREAD], DifferenceOpT difference_op)
  {
    temp_storage_.first_items[linear_tid_] = input[0];
    __syncthreads();
    ThreadRightDifferences(input, output, difference_op);
    if (linear_tid_ == BLOCK_THREADS - 1)
    {
      output[ITEMS_PER_THREAD - 1] = input[ITEMS_PER_THREAD - 1];
    }
    else
    {
      output[ITEMS_PER_THREAD - 1] =
        difference_op(input[ITEMS_PER_THREAD - 1], temp_storage_.first_items[linear_tid_ + 1]);
    }
  }

  // output[i] = difference_op(input[i], input[i + 1]); the tile's last item is differenced with
  // `tile_successor_item` (read on the last thread only).
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void SubtractRight(const T (&input)[ITEMS_PER_THREAD],
                                                      OutputT (&output)[ITEMS_PER_THREAD], DifferenceOpT difference_op,
                                                      T tile_successor_item)
  {
    temp_storage_.first_items[linear_tid_] = input[0];
    __syncthreads();
    const T successor =
      (linear_tid_ == BLOCK_THREADS - 1) ? tile_successor_item : temp_storage_.first_items[linear_tid_ + 1];
    ThreadRightDifferences(input, output, difference_op);
    output[ITEMS_PER_THREAD - 1] = difference_op(input[ITEMS_PER_THREAD - 1], successor);
  }

  // SubtractRight over the first `valid_items` items of the tile: item valid_items - 1 and every item after it
  // are copied.
  // requires: 0 <= valid_items <= BLOCK_THREADS * ITEMS_PER_THREAD (the same on every thread)
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void SubtractRightPartialTile(const T (&input)[ITEMS_PER_THREAD],
                                                                 OutputT (&output)[ITEMS_PER_THREAD],
                                                                 DifferenceOpT difference_op, int valid_items)
  {
    temp_storage_.first_items[linear_tid_] = input[0];
    __syncthreads();
    if (TileIndex<ITEMS_PER_THREAD>(ITEMS_PER_THREAD) < valid_items)
    {
      // Every item of this thread and the next thread's first item are valid (so this is not the last thread).
      ThreadRightDifferences(input, output, difference_op);
      output[ITEMS_PER_THREAD - 1] =
        difference_op(input[ITEMS_PER_THREAD - 1], temp_storage_.first_items[linear_tid_ + 1]);
    }
    else
    {
      // Ascending order keeps this in-place safe: item i + 1 is read before output[i + 1] is written.
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD - 1; ++i)
      {
        if (TileIndex<ITEMS_PER_THREAD>(i + 1) < valid_items)
        {
          output[i] = difference_op(input[i], input[i + 1]);
        }
        else
        {
          output[i] = input[i];
        }
      }
      output[ITEMS_PER_THREAD - 1] = input[ITEMS_PER_THREAD - 1];
    }
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE static _TempStorage& PrivateStorage()
  {
    __shared__ _TempStorage private_storage;
    return private_storage;
  }

  // Tile index of item `item` of this thread; item == ITEMS_PER_THREAD names the next thread's first item.
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE int TileIndex(int item) const
  {
    return linear_tid_ * ITEMS_PER_THREAD + item;
  }

  // Left differences of items 1 .. ITEMS_PER_THREAD - 1. Descending order keeps this in-place safe: item i - 1
  // is read before output[i - 1] is written.
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE static void ThreadLeftDifferences(const T (&input)[ITEMS_PER_THREAD],
                                                                     OutputT (&output)[ITEMS_PER_THREAD],
                                                                     DifferenceOpT& difference_op)
  {
    STRATA_UNROLL
    for (int i = ITEMS_PER_THREAD - 1; i > 0; --i)
    {
      output[i] = difference_op(input[i], input[i - 1]);
    }
  }

  // Left differences of items 1 .. ITEMS_PER_THREAD - 1 that lie before `valid_items`; later items are copied.
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE void
  ThreadLeftDifferencesPartial(const T (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD],
                               DifferenceOpT& difference_op, int valid_items) const
  {
    if (TileIndex<ITEMS_PER_THREAD>(ITEMS_PER_THREAD) <= valid_items)
    {
      ThreadLeftDifferences(input, output, difference_op);
    }
    else
    {
      STRATA_UNROLL
      for (int i = ITEMS_PER_THREAD - 1; i > 0; --i)
      {
        if (TileIndex<ITEMS_PER_THREAD>(i) < valid_items)
        {
          output[i] = difference_op(input[i], input[i - 1]);
        }
        else
        {
          output[i] = input[i];
        }
      }
    }
  }

  // Right differences of items 0 .. ITEMS_PER_THREAD - 2. Ascending order keeps this in-place safe.
  template <int ITEMS_PER_THREAD, typename OutputT, typename DifferenceOpT>
  STRATA_DEVICE STRATA_FORCEINLINE static void ThreadRightDifferences(const T (&input)[ITEMS_PER_THREAD],
                                                                      OutputT (&output)[ITEMS_PER_THREAD],
                                                                      DifferenceOpT& difference_op)
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD - 1; ++i)
    {
      output[i] = difference_op(input[i], input[i + 1]);
    }
  }

  _TempStorage& temp_storage_;
  int linear_tid_;
};

STRATA_NAMESPACE_END
