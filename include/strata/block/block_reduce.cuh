// BlockReduce: reduction of one value (or a short array of values) per thread across a thread block.
#pragma once

#include <strata/block/specializations/block_reduce_raking.cuh>
#include <strata/block/specializations/block_reduce_raking_commutative_only.cuh>
#include <strata/block/specializations/block_reduce_warp_reductions.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_reduce.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The algorithms BlockReduce can use. For associative, commutative operators all three compute the same
//! reduction (floating-point sums may round differently: each groups the operands its own way); they differ
//! in speed and in what they require of the operator.
enum BlockReduceAlgorithm
{
  //! Warp 0 keeps its partials in registers while the other threads place theirs in a raking grid; each lane
  //! of warp 0 folds one grid segment into its partial, then warp 0 reduces. Least shared-memory traffic.
  //! Requires a commutative operator. Partial tiles, and blocks that are not a multiple of the warp size or
  //! not larger than one warp, use BLOCK_REDUCE_RAKING.
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  //! Every thread places its partial in a raking grid; one warp reduces the grid's segments sequentially,
  //! then reduces across its lanes. Keeps operand order (non-commutative operators are fine).
  BLOCK_REDUCE_RAKING,
  //! Every warp reduces its partials with shuffles, then thread 0 combines the warp aggregates after one
  //! barrier. Keeps operand order. The shortest latency, and the default.
  BLOCK_REDUCE_WARP_REDUCTIONS,
};

//! BlockReduce<T, BLOCK_DIM_X, ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z> reduces the values of a thread block with
//! a binary operator; the result is valid in thread 0 only (linear thread id 0 of a 1-, 2- or 3-D block).
//!
//! - Reduce(input, op) and Sum(input) combine one value per thread in thread order (linear, row-major thread
//!   ids); Reduce(inputs, op) and Sum(inputs) take ITEMS_PER_THREAD values per thread, in thread order and
//!   then array order. Reduce(input, op, num_valid) and Sum(input, num_valid) combine the values of the
//!   first num_valid threads only (requires num_valid >= 1). The operator must be associative;
//!   BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY also needs it to be commutative.
//! - Every thread of the block must call the same member function (the calls contain barriers).
//! - Temporary storage: TempStorage lives in shared memory and is passed to the constructor; the default
//!   constructor uses a private __shared__ TempStorage instead. To reuse a TempStorage (for this or another
//!   collective, e.g. in a union) after a call, the block must pass a __syncthreads() first.
//! - Any block size from 1 to 1024 threads; blocks that are not a multiple of the warp size are handled.
//! - Cost: WARP_REDUCTIONS runs one warp reduction per warp, one barrier and WARPS - 1 operations in thread 0;
//!   the raking algorithms run one barrier, about BLOCK_THREADS / 32 operations per raking lane and one warp
//!   reduction.
//!
//! Example (a block of 128 threads, 4 integers each):
//!   using BlockReduce = strata::BlockReduce<int, 128>;
//!   __shared__ typename BlockReduce::TempStorage temp_storage;
//!   int items[4];  // ... loaded by each thread
//!   int block_sum = BlockReduce(temp_storage).Sum(items);                        // valid in thread 0
//!   int block_max = BlockReduce(temp_storage).Reduce(items[0], cuda::maximum<>{}); // after a __syncthreads()
template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockReduce
{
  static_assert(BLOCK_DIM_X >= 1 && BLOCK_DIM_Y >= 1 && BLOCK_DIM_Z >= 1, "block dimensions must be positive");
  static_assert(BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z <= 1024, "a thread block has at most 1024 threads");

  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

  using WarpReductions        = detail::BlockReduceWarpReductions<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  using Raking                = detail::BlockReduceRaking<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  using RakingCommutativeOnly = detail::BlockReduceRakingCommutativeOnly<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>;

  using InternalBlockReduce = cuda::std::conditional_t<
    ALGORITHM == BLOCK_REDUCE_WARP_REDUCTIONS, WarpReductions,
    cuda::std::conditional_t<ALGORITHM == BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, RakingCommutativeOnly, Raking>>;

  using _TempStorage = typename InternalBlockReduce::TempStorage;

  _TempStorage& temp_storage;

  // Storage for the default constructor: one __shared__ instance per kernel that uses it.
  static STRATA_DEVICE STRATA_FORCEINLINE _TempStorage& PrivateStorage()
  {
    __shared__ _TempStorage private_storage;
    return private_storage;
  }

public:
  //! Shared memory for one BlockReduce call (alias it with other collectives' storage in a union).
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  //! Uses a private __shared__ allocation as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockReduce()
      : temp_storage(PrivateStorage())
  {}

  //! Uses `storage` as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockReduce(TempStorage& storage)
      : temp_storage(storage.Alias())
  {}

  //! The reduction of every thread's `input` with `reduction_op`, in thread order; valid in thread 0.
  template <typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T input, ReductionOp reduction_op)
  {
    return InternalBlockReduce(temp_storage).template Reduce<true>(input, BLOCK_THREADS, reduction_op);
  }

  //! The reduction of every thread's ITEMS_PER_THREAD `inputs`, in thread order and then array order; valid
  //! in thread 0.
  template <int ITEMS_PER_THREAD, typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(const T (&inputs)[ITEMS_PER_THREAD], ReductionOp reduction_op)
  {
    return Reduce(ThreadReduce(inputs, reduction_op), reduction_op);
  }

  //! The reduction of the `input`s of threads 0 .. num_valid - 1, in thread order; valid in thread 0.
  //! requires: num_valid >= 1 (values of num_valid >= the block size reduce the whole block).
  template <typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T input, ReductionOp reduction_op, int num_valid)
  {
    if (num_valid >= BLOCK_THREADS)
    {
      return InternalBlockReduce(temp_storage).template Reduce<true>(input, BLOCK_THREADS, reduction_op);
    }
    return InternalBlockReduce(temp_storage).template Reduce<false>(input, num_valid, reduction_op);
  }

  //! The sum (operator+) of every thread's `input`; valid in thread 0.
  STRATA_DEVICE STRATA_FORCEINLINE T Sum(T input)
  {
    return InternalBlockReduce(temp_storage).template Sum<true>(input, BLOCK_THREADS);
  }

  //! The sum of every thread's ITEMS_PER_THREAD `inputs`; valid in thread 0.
  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE T Sum(const T (&inputs)[ITEMS_PER_THREAD])
  {
    return Sum(ThreadReduce(inputs, cuda::std::plus<>{}));
  }

  //! The sum of the `input`s of threads 0 .. num_valid - 1; valid in thread 0.
  //! requires: num_valid >= 1 (values of num_valid >= the block size sum the whole block).
  STRATA_DEVICE STRATA_FORCEINLINE T Sum(T input, int num_valid)
  {
    if (num_valid >= BLOCK_THREADS)
    {
      return InternalBlockReduce(temp_storage).template Sum<true>(input, BLOCK_THREADS);
    }
    return InternalBlockReduce(temp_storage).template Sum<false>(input, num_valid);
  }
};

STRATA_NAMESPACE_END
