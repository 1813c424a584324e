// BlockShuffle: moves items between the threads of a block, by a thread offset or by one item of a blocked
// arrangement.
#pragma once

#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>

STRATA_NAMESPACE_BEGIN

// BlockShuffle<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>
//
// Threads are ranked by RowMajorTid.
//   Offset(input, output, distance): output = input of thread (rank + distance); threads whose source is outside
//     the block leave `output` unchanged. distance may be negative.
//   Rotate(input, output, distance): output = input of thread (rank + distance) mod BLOCK_THREADS.
//   Up(input, prev):   shifts a blocked arrangement up by one item: prev[i] = item before input[i] in the tile;
//     thread 0's prev[0] is left unchanged. The overload with `block_suffix` also gives every thread the tile's
//     last item.
//   Down(input, next): shifts a blocked arrangement down by one item: next[i] = item after input[i] in the tile;
//     the last thread's next[ITEMS_PER_THREAD - 1] is left unchanged. The overload with `block_prefix` also gives
//     every thread the tile's first item.
//
// Temporary storage: each call writes TempStorage and passes one __syncthreads(), so every thread of the block
// must call it; put a __syncthreads() between two uses of the same TempStorage. The default constructor uses a
// private __shared__ allocation. Cost per call: one shared-memory store and load, one barrier.
//
// Example (128 threads, 4 items each):
//   using BlockShuffleT = strata::BlockShuffle<int, 128>;
//   __shared__ typename BlockShuffleT::TempStorage temp_storage;
//   int items[4]; // ... a blocked arrangement
//   int prev[4];
//   BlockShuffleT(temp_storage).Up(items, prev);
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockShuffle
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(BLOCK_THREADS >= 1 && BLOCK_THREADS <= 1024, "a thread block has 1..1024 threads");

  // One published item per thread.
  using _TempStorage = T[BLOCK_THREADS];

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  // Uses a private __shared__ allocation as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockShuffle()
      : temp_storage_(PrivateStorage())
      , linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  // Uses `temp_storage` as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockShuffle(TempStorage& temp_storage)
      : temp_storage_(temp_storage.Alias())
      , linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  // output = `input` of thread (rank + distance); unchanged where that thread is outside the block.
  STRATA_DEVICE STRATA_FORCEINLINE void Offset(T input, T& output, int distance = 1)
  {
    temp_storage_[linear_tid_] = input;
    __syncthreads();
    const int source = linear_tid_ + distance;
    if (source >= 0 && source < BLOCK_THREADS)
    {
      output = temp_storage_[source];
    }
  }

  // output = `input` of thread (rank + distance) mod BLOCK_THREADS.
  STRATA_DEVICE STRATA_FORCEINLINE void Rotate(T input, T& output, unsigned int distance = 1)
  {
    temp_storage_[linear_tid_] = input;
    __syncthreads();
    // linear_tid_ + distance % BLOCK_THREADS < 2 * BLOCK_THREADS, so one conditional subtraction wraps it.
    int source = linear_tid_ + static_cast<int>(distance % static_cast<unsigned int>(BLOCK_THREADS));
    if (source >= BLOCK_THREADS)
    {
      source -= BLOCK_THREADS;
    }
    output = temp_storage_[source];
  }

  // prev[i] = the tile item before input[i]; thread 0's prev[0] is left unchanged. `prev` may be `input`.
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void Up(const T (&input)[ITEMS_PER_THREAD], T (&prev)[ITEMS_PER_THREAD])
  {
    temp_storage_[linear_tid_] = input[ITEMS_PER_THREAD - 1];
    __syncthreads();
    // Descending order keeps the shift in-place safe.
    STRATA_UNROLL
    for (int i = ITEMS_PER_THREAD - 1; i > 0; --i)
    {
      prev[i] = input[i - 1];
    }
    if (linear_tid_ > 0)
    {
      prev[0] = temp_storage_[linear_tid_ - 1];
    }
  }

  // Up(input, prev), and block_suffix = the tile's last item (input[ITEMS_PER_THREAD - 1] of the last thread), on
  // every thread.
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void Up(const T (&input)[ITEMS_PER_THREAD], T (&prev)[ITEMS_PER_THREAD],
                                           T& block_suffix)
  {
    Up(input, prev);
    block_suffix = temp_storage_[BLOCK_THREADS - 1];
  }

  // next[i] = the tile item after input[i]; the last thread's next[ITEMS_PER_THREAD - 1] is left unchanged.
  // `next` may be `input`.
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void Down(const T (&input)[ITEMS_PER_THREAD], T (&next)[ITEMS_PER_THREAD])
  {
    temp_storage_[linear_tid_] = input[0];
    __syncthreads();
    // Ascending order keeps the shift in-place safe.
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD - 1; ++i)
    {
      next[i] = input[i + 1];
    }
    if (linear_tid_ < BLOCK_THREADS - 1)
    {
      next[ITEMS_PER_THREAD - 1] = temp_storage_[linear_tid_ + 1];
    }
  }

  // Down(input, next), and block_prefix = the tile's first item (input[0] of thread 0), on every thread.
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void Down(const T (&input)[ITEMS_PER_THREAD], T (&next)[ITEMS_PER_THREAD],
                                             T& block_prefix)
  {
    Down(input, next);
    block_prefix = temp_storage_[0];
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE static _TempStorage& PrivateStorage()
  {
    __shared__ _TempStorage private_storage;
    return private_storage;
  }

  _TempStorage& temp_storage_;
  int linear_tid_;
};

STRATA_NAMESPACE_END
