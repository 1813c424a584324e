// BlockDiscontinuity: flags the first and/or the last item of every run of equivalent items in a tile held by
// a thread block in a blocked arrangement.
#pragma once

#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>
#include <cuda/std/utility>

STRATA_NAMESPACE_BEGIN

namespace detail
{
// True when `FlagOp` can be called as flag_op(a, b, b_index); such operators also receive the tile index of b.
template <typename T, typename FlagOp, typename = void>
struct flag_op_takes_index : cuda::std::false_type
{};
template <typename T, typename FlagOp>
struct flag_op_takes_index<T, FlagOp,
                           cuda::std::void_t<decltype(cuda::std::declval<FlagOp&>()(
                             cuda::std::declval<const T&>(), cuda::std::declval<const T&>(), int{}))>>
    : cuda::std::true_type
{};

// flag_op(a, b, b_index) or flag_op(a, b), whichever the operator accepts.
template <typename T, typename FlagOp>
STRATA_DEVICE STRATA_FORCEINLINE bool apply_flag_op(FlagOp& flag_op, const T& a, const T& b, int b_index)
{
  if constexpr (flag_op_takes_index<T, FlagOp>::value)
  {
    return static_cast<bool>(flag_op(a, b, b_index));
  }
  else
  {
    (void) b_index;
    return static_cast<bool>(flag_op(a, b));
  }
}
} // namespace detail

// BlockDiscontinuity<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>
//
// For a tile of BLOCK_THREADS * ITEMS_PER_THREAD items in a blocked arrangement (thread t holds tile items
// t * ITEMS_PER_THREAD ... (t + 1) * ITEMS_PER_THREAD - 1, threads ranked by RowMajorTid):
//   head flags: head_flag[i] = flag_op(item[i - 1], item[i]); the first item of the tile is flagged 1, or
//               compared with `tile_predecessor_item` when one is given;
//   tail flags: tail_flag[i] = flag_op(item[i], item[i + 1]); the last item of the tile is flagged 1, or
//               compared with `tile_successor_item` when one is given.
// `flag_op` is `bool(const T& a, const T& b)`, true when a and b are discontinuous, or
// `bool(const T& a, const T& b, int b_index)`, which also receives the tile index of b.
//
// Temporary storage: each call writes TempStorage and passes one __syncthreads(), so every thread of the block
// must call it; put a __syncthreads() between two uses of the same TempStorage. The default constructor uses a
// private __shared__ allocation. Cost per call: one or two shared-memory stores and loads, one barrier.
//
// Example (128 threads, 4 items each):
//   using BlockDiscontinuityT = strata::BlockDiscontinuity<int, 128>;
//   __shared__ typename BlockDiscontinuityT::TempStorage temp_storage;
//   int keys[4]; // ... a blocked arrangement
//   int head_flags[4];
//   BlockDiscontinuityT(temp_storage).FlagHeads(head_flags, keys, cuda::std::not_equal_to<>{});
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockDiscontinuity
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(BLOCK_THREADS >= 1 && BLOCK_THREADS <= 1024, "a thread block has 1..1024 threads");

  // Each thread publishes its first item (its predecessor thread's tail successor) and its last item (its
  // successor thread's head predecessor). Two arrays let FlagHeadsAndTails publish both before one barrier.
  struct _TempStorage
  {
    T first_items[BLOCK_THREADS];
    T last_items[BLOCK_THREADS];
  };

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  // Uses a private __shared__ allocation as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockDiscontinuity()
      : temp_storage_(PrivateStorage())
      , linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  // Uses `temp_storage` as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockDiscontinuity(TempStorage& temp_storage)
      : temp_storage_(temp_storage.Alias())
      , linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  // -- head flags ------------------------------------------------------------------------------------------

  // Head flags; the tile's first item is flagged. `preds` receives each item's predecessor (thread 0's preds[0]
  // is left unchanged).
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagHeads(FlagT (&head_flags)[ITEMS_PER_THREAD],
                                                  const T (&input)[ITEMS_PER_THREAD], T (&preds)[ITEMS_PER_THREAD],
                                                  FlagOp flag_op)
  {
    temp_storage_.last_items[linear_tid_] = input[ITEMS_PER_THREAD - 1];
    __syncthreads();
    FirstHeadFlag(head_flags, input, preds, flag_op);
    ThreadHeadFlags(head_flags, input, preds, flag_op);
  }

  // Head flags; the tile's first item is compared with `tile_predecessor_item` (read on thread 0 only). `preds`
  // receives each item's predecessor.
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagHeads(FlagT (&head_flags)[ITEMS_PER_THREAD],
                                                  const T (&input)[ITEMS_PER_THREAD], T (&preds)[ITEMS_PER_THREAD],
                                                  FlagOp flag_op, T tile_predecessor_item)
  {
    temp_storage_.last_items[linear_tid_] = input[ITEMS_PER_THREAD - 1];
    __syncthreads();
    FirstHeadFlag(head_flags, input, preds, flag_op, tile_predecessor_item);
    ThreadHeadFlags(head_flags, input, preds, flag_op);
  }

  // Head flags; the tile's first item is flagged.
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagHeads(FlagT (&head_flags)[ITEMS_PER_THREAD],
                                                  const T (&input)[ITEMS_PER_THREAD], FlagOp flag_op)
  {
    T preds[ITEMS_PER_THREAD];
    FlagHeads(head_flags, input, preds, flag_op);
  }

  // Head flags; the tile's first item is compared with `tile_predecessor_item` (read on thread 0 only).
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagHeads(FlagT (&head_flags)[ITEMS_PER_THREAD],
                                                  const T (&input)[ITEMS_PER_THREAD], FlagOp flag_op,
                                                  T tile_predecessor_item)
  {
    T preds[ITEMS_PER_THREAD];
    FlagHeads(head_flags, input, preds, flag_op, tile_predecessor_item);
  }

  // -- tail flags ------------------------------------------------------------------------------------------

  // Tail flags; the tile's last item is flagged.
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagTails(FlagT (&tail_flags)[ITEMS_PER_THREAD],
                                                  const T (&input)[ITEMS_PER_THREAD], FlagOp flag_op)
  {
    temp_storage_.first_items[linear_tid_] = input[0];
    __syncthreads();
    LastTailFlag(tail_flags, input, flag_op);
    ThreadTailFlags(tail_flags, input, flag_op);
  }

  // Tail flags; the tile's last item is compared with `tile_successor_item` (read on the last thread only).
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagTails(FlagT (&tail_flags)[ITEMS_PER_THREAD],
                                                  const T (&input)[ITEMS_PER_THREAD], FlagOp flag_op,
                                                  T tile_successor_item)
  {
    temp_storage_.first_items[linear_tid_] = input[0];
    __syncthreads();
    LastTailFlag(tail_flags, input, flag_op, tile_successor_item);
    ThreadTailFlags(tail_flags, input, flag_op);
  }

  // -- head and tail flags, one barrier ------------------------------------------------------------------

  // Head and tail flags; the tile's first and last items are flagged.
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagHeadsAndTails(FlagT (&head_flags)[ITEMS_PER_THREAD],
                                                          FlagT (&tail_flags)[ITEMS_PER_THREAD],
                                                          const T (&input)[ITEMS_PER_THREAD], FlagOp flag_op)
  {
    PublishFirstAndLast(input);
    T preds[ITEMS_PER_THREAD];
    FirstHeadFlag(head_flags, input, preds, flag_op);
    LastTailFlag(tail_flags, input, flag_op);
    ThreadHeadFlags(head_flags, input, preds, flag_op);
    ThreadTailFlags(tail_flags, input, flag_op);
  }

  // Head and tail flags; the tile's first item is flagged, its last item is compared with `tile_successor_item`
  // (read on the last thread only).
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagHeadsAndTails(FlagT (&head_flags)[ITEMS_PER_THREAD],
                                                          FlagT (&tail_flags)[ITEMS_PER_THREAD], T tile_successor_item,
                                                          const T (&input)[ITEMS_PER_THREAD], FlagOp flag_op)
  {
    PublishFirstAndLast(input);
    T preds[ITEMS_PER_THREAD];
    FirstHeadFlag(head_flags, input, preds, flag_op);
    LastTailFlag(tail_flags, input, flag_op, tile_successor_item);
    ThreadHeadFlags(head_flags, input, preds, flag_op);
    ThreadTailFlags(tail_flags, input, flag_op);
  }

  // Head and tail flags; the tile's first item is compared with `tile_predecessor_item` (read on thread 0 only),
  // its last item is flagged.
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void
  FlagHeadsAndTails(FlagT (&head_flags)[ITEMS_PER_THREAD], T tile_predecessor_item,
                    FlagT (&tail_flags)[ITEMS_PER_THREAD], const T (&input)[ITEMS_PER_THREAD], FlagOp flag_op)
  {
    PublishFirstAndLast(input);
    T preds[ITEMS_PER_THREAD];
    FirstHeadFlag(head_flags, input, preds, flag_op, tile_predecessor_item);
    LastTailFlag(tail_flags, input, flag_op);
    ThreadHeadFlags(head_flags, input, preds, flag_op);
    ThreadTailFlags(tail_flags, input, flag_op);
  }

  // Head and tail flags; the tile's first item is compared with `tile_predecessor_item` (read on thread 0 only),
  // its last item with `tile_successor_item` (read on the last thread only).
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void FlagHeadsAndTails(FlagT (&head_flags)[ITEMS_PER_THREAD],
                                                          T tile_predecessor_item,
                                                          FlagT (&tail_flags)[ITEMS_PER_THREAD], T tile_successor_item,
                                                          const T (&input)[ITEMS_PER_THREAD], FlagOp flag_op)
  {
    PublishFirstAndLast(input);
    T preds[ITEMS_PER_THREAD];
    FirstHeadFlag(head_flags, input, preds, flag_op, tile_predecessor_item);
    LastTailFlag(tail_flags, input, flag_op, tile_successor_item);
    ThreadHeadFlags(head_flags, input, preds, flag_op);
    ThreadTailFlags(tail_flags, input, flag_op);
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

  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void PublishFirstAndLast(const T (&input)[ITEMS_PER_THREAD])
  {
    temp_storage_.first_items[linear_tid_] = input[0];
    temp_storage_.last_items[linear_tid_]  = input[ITEMS_PER_THREAD - 1];
    __syncthreads();
  }

  // Head flag of item 0 against the previous thread's last item; thread 0 flags it.
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void FirstHeadFlag(FlagT (&head_flags)[ITEMS_PER_THREAD],
                                                      const T (&input)[ITEMS_PER_THREAD], T (&preds)[ITEMS_PER_THREAD],
                                                      FlagOp& flag_op) const
  {
    if (linear_tid_ == 0)
    {
      head_flags[0] = FlagT(1);
    }
    else
    {
      preds[0]      = temp_storage_.last_items[linear_tid_ - 1];
      head_flags[0] = FlagT(detail::apply_flag_op(flag_op, preds[0], input[0], TileIndex<ITEMS_PER_THREAD>(0)));
    }
  }

  // Head flag of item 0 against the previous thread's last item; thread 0 compares with the tile's predecessor.
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void FirstHeadFlag(FlagT (&head_flags)[ITEMS_PER_THREAD],
                                                      const T (&input)[ITEMS_PER_THREAD], T (&preds)[ITEMS_PER_THREAD],
                                                      FlagOp& flag_op, const T& tile_predecessor_item) const
  {
    preds[0]      = (linear_tid_ == 0) ? tile_predecessor_item : temp_storage_.last_items[linear_tid_ - 1];
    head_flags[0] = FlagT(detail::apply_flag_op(flag_op, preds[0], input[0], TileIndex<ITEMS_PER_THREAD>(0)));
  }

  // Tail flag of the last item against the next thread's first item; the last thread flags it.
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void LastTailFlag(FlagT (&tail_flags)[ITEMS_PER_THREAD],
                                                     const T (&input)[ITEMS_PER_THREAD], FlagOp& flag_op) const
  {
    if (linear_tid_ == BLOCK_THREADS - 1)
    {
      tail_flags[ITEMS_PER_THREAD - 1] = FlagT(1);
    }
    else
    {
      tail_flags[ITEMS_PER_THREAD - 1] =
        FlagT(detail::apply_flag_op(flag_op, input[ITEMS_PER_THREAD - 1], temp_storage_.first_items[linear_tid_ + 1],
                                    TileIndex<ITEMS_PER_THREAD>(ITEMS_PER_THREAD)));
    }
  }

  // Tail flag of the last item against the next thread's first item; the last thread compares with the tile's
  // successor.
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void LastTailFlag(FlagT (&tail_flags)[ITEMS_PER_THREAD],
                                                     const T (&input)[ITEMS_PER_THREAD], FlagOp& flag_op,
                                                     const T& tile_successor_item) const
  {
    const T successor =
      (linear_tid_ == BLOCK_THREADS - 1) ? tile_successor_item : temp_storage_.first_items[linear_tid_ + 1];
    tail_flags[ITEMS_PER_THREAD - 1] = FlagT(detail::apply_flag_op(flag_op, input[ITEMS_PER_THREAD - 1], successor,
                                                                   TileIndex<ITEMS_PER_THREAD>(ITEMS_PER_THREAD)));
  }

  // Head flags of items 1 .. ITEMS_PER_THREAD - 1, whose predecessors are in this thread.
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ThreadHeadFlags(FlagT (&head_flags)[ITEMS_PER_THREAD],
                                                        const T (&input)[ITEMS_PER_THREAD],
                                                        T (&preds)[ITEMS_PER_THREAD], FlagOp& flag_op) const
  {
    STRATA_UNROLL
    for (int i = 1; i < ITEMS_PER_THREAD; ++i)
    {
      preds[i]      = input[i - 1];
      head_flags[i] = FlagT(detail::apply_flag_op(flag_op, preds[i], input[i], TileIndex<ITEMS_PER_THREAD>(i)));
    }
  }

  // Tail flags of items 0 .. ITEMS_PER_THREAD - 2, whose successors are in this thread.
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ThreadTailFlags(FlagT (&tail_flags)[ITEMS_PER_THREAD],
                                                        const T (&input)[ITEMS_PER_THREAD], FlagOp& flag_op) const
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD - 1; ++i)
    {
      tail_flags[i] = FlagT(detail::apply_flag_op(flag_op, input[i], input[i + 1], TileIndex<ITEMS_PER_THREAD>(i + 1)));
    }
  }

  _TempStorage& temp_storage_;
  int linear_tid_;
};

STRATA_NAMESPACE_END
