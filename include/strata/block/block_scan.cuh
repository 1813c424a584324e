// BlockScan: prefix scans of one value (or a short array of values) per thread across a thread block.
#pragma once

#include <strata/block/specializations/block_scan_raking.cuh>
#include <strata/block/specializations/block_scan_warp_scans.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_reduce.cuh>
#include <strata/thread/thread_scan.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The algorithms BlockScan can use. All three give the same results (operands always combine in thread
//! order, so non-commutative operators are exact); they differ in speed.
enum BlockScanAlgorithm
{
  //! Every thread places its value in a raking grid; one warp reduces the grid's segments sequentially, scans
  //! the partials with shuffles and writes each segment's scan back. Two barriers, few operator applications:
  //! the best throughput when the GPU is fully occupied.
  BLOCK_SCAN_RAKING,
  //! BLOCK_SCAN_RAKING, with each raking segment kept in registers between the reduction and the scan instead
  //! of being read from shared memory twice: fewer shared-memory reads, more registers.
  BLOCK_SCAN_RAKING_MEMOIZE,
  //! Every warp scans its values with shuffles; after one barrier every thread combines the aggregates of the
  //! warps before its own. The shortest latency. Blocks that are not a multiple of the warp size use
  //! BLOCK_SCAN_RAKING instead.
  BLOCK_SCAN_WARP_SCANS,
};

//! BlockScan<T, BLOCK_DIM_X, ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z> computes prefix scans of the values of a
//! thread block with an associative binary operator; every result is valid in every thread.
//!
//! - Values are ordered by linear (row-major) thread id, then, for the ITEMS_PER_THREAD overloads, by index
//!   within the thread's array (a blocked arrangement). Inclusive results combine the inputs up to and
//!   including their own position, exclusive results those before it; operands combine as op(earlier, later).
//! - Exclusive scans take an initial value (output of position 0, and left-most operand of every other
//!   output), or none, in which case thread 0's (first) exclusive output is undefined. InclusiveScan over
//!   arrays also takes an initial value. block_aggregate, where asked for, is the reduction of all inputs,
//!   without the initial value or block prefix, in every thread. *Sum uses operator+ and zero (T{}).
//! - The block-prefix callback overloads call `T block_prefix_callback_op(T block_aggregate)` in every thread
//!   of the first warp (linear ids 0..min(31, BLOCK_THREADS - 1)), each with the block aggregate; the value
//!   returned in thread 0 is the prefix of the whole block: the initial value of the scan. A stateful callback
//!   carries a running prefix from one tile to the next (as a single-pass device scan does).
//! - Every thread of the block must call the same member function (the calls contain barriers).
//! - Temporary storage: TempStorage lives in shared memory and is passed to the constructor; the default
//!   constructor uses a private __shared__ TempStorage instead. To reuse a TempStorage (for this or another
//!   collective, e.g. in a union) after a call, the block must pass a __syncthreads() first.
//! - Any block size from 1 to 1024 threads, 1-, 2- or 3-D.
//! - Cost: RAKING runs two barriers, 2 * ceil(BLOCK_THREADS / 32) operations per raking lane and one 32-lane
//!   warp scan; WARP_SCANS runs one warp scan per warp, one barrier and BLOCK_THREADS / 32 operations per
//!   thread (a callback adds a second barrier in both). ITEMS_PER_THREAD adds 2 * ITEMS_PER_THREAD operations.
//!
//! Example (a block of 128 threads, 4 integers each):
//!   using BlockScan = strata::BlockScan<int, 128>;
//!   __shared__ typename BlockScan::TempStorage temp_storage;
//!   int items[4];  // ... loaded by each thread
//!   int block_sum;
//!   BlockScan(temp_storage).ExclusiveSum(items, items, block_sum);  // items[i]: sum of all earlier items
template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockScan
{
  static_assert(BLOCK_DIM_X >= 1 && BLOCK_DIM_Y >= 1 && BLOCK_DIM_Z >= 1, "block dimensions must be positive");
  static_assert(BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z <= 1024, "a thread block has at most 1024 threads");

  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

  // Warp scans need whole warps; a partial last warp falls back to raking.
  static constexpr BlockScanAlgorithm SAFE_ALGORITHM =
    (ALGORITHM == BLOCK_SCAN_WARP_SCANS && BLOCK_THREADS % WARP_THREADS != 0) ? BLOCK_SCAN_RAKING : ALGORITHM;

  using WarpScans = detail::BlockScanWarpScans<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  using Raking =
    detail::BlockScanRaking<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, SAFE_ALGORITHM == BLOCK_SCAN_RAKING_MEMOIZE>;

  using InternalBlockScan = cuda::std::conditional_t<SAFE_ALGORITHM == BLOCK_SCAN_WARP_SCANS, WarpScans, Raking>;

  using _TempStorage = typename InternalBlockScan::TempStorage;

  _TempStorage& temp_storage;
  unsigned int linear_tid;

  // Storage for the default constructor: one __shared__ instance per kernel that uses it.
  static STRATA_DEVICE STRATA_FORCEINLINE _TempStorage& PrivateStorage()
  {
    __shared__ _TempStorage private_storage;
    return private_storage;
  }

public:
  //! Shared memory for one BlockScan call (alias it with other collectives' storage in a union).
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  //! Uses a private __shared__ allocation as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockScan()
      : temp_storage(PrivateStorage())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  //! Uses `storage` as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockScan(TempStorage& storage)
      : temp_storage(storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  // -- exclusive prefix sums, one item per thread -----------------------------------------------------------

  //! output = the sum of the inputs of all earlier threads (0 in thread 0).
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T input, T& output)
  {
    ExclusiveScan(input, output, T{}, cuda::std::plus<>{});
  }

  //! As above; block_aggregate = the sum of all inputs.
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T input, T& output, T& block_aggregate)
  {
    ExclusiveScan(input, output, T{}, cuda::std::plus<>{}, block_aggregate);
  }

  //! output = block prefix + the sum of the inputs of all earlier threads; the block prefix is thread 0's
  //! return value of block_prefix_callback_op(block sum), called by the first warp.
  template <typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T input, T& output,
                                                     BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    ExclusiveScan(input, output, cuda::std::plus<>{}, block_prefix_callback_op);
  }

  // -- exclusive prefix sums, ITEMS_PER_THREAD items per thread ----------------------------------------------

  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD])
  {
    ExclusiveScan(input, output, T{}, cuda::std::plus<>{});
  }

  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                     T& block_aggregate)
  {
    ExclusiveScan(input, output, T{}, cuda::std::plus<>{}, block_aggregate);
  }

  template <int ITEMS_PER_THREAD, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                     BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    ExclusiveScan(input, output, cuda::std::plus<>{}, block_prefix_callback_op);
  }

  // -- exclusive scans, one item per thread -----------------------------------------------------------------

  //! output = initial_value op (the inputs of all earlier threads); initial_value in thread 0.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, T initial_value, ScanOp scan_op)
  {
    InternalBlockScan(temp_storage).ExclusiveScan(input, output, initial_value, scan_op);
  }

  //! As above; block_aggregate = the reduction of all inputs (without initial_value).
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, T initial_value, ScanOp scan_op,
                                                      T& block_aggregate)
  {
    InternalBlockScan(temp_storage).ExclusiveScan(input, output, initial_value, scan_op, block_aggregate);
  }

  //! output = block prefix op (the inputs of all earlier threads); the block prefix is thread 0's return
  //! value of block_prefix_callback_op(block aggregate), called by the first warp.
  template <typename ScanOp, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOp scan_op,
                                                      BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    InternalBlockScan(temp_storage).ExclusiveScan(input, output, scan_op, block_prefix_callback_op);
  }

  //! output = the reduction of the inputs of all earlier threads; undefined in thread 0.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOp scan_op)
  {
    InternalBlockScan(temp_storage).ExclusiveScan(input, output, scan_op);
  }

  //! As above; block_aggregate = the reduction of all inputs.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOp scan_op, T& block_aggregate)
  {
    InternalBlockScan(temp_storage).ExclusiveScan(input, output, scan_op, block_aggregate);
  }

  // -- exclusive scans, ITEMS_PER_THREAD items per thread ---------------------------------------------------
  //
  // Each thread reduces its items, the block scans those partials exclusively, and each thread scans its items
  // seeded with its partial's result.

  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      T initial_value, ScanOp scan_op)
  {
    T thread_prefix = ThreadReduce(input, scan_op);
    ExclusiveScan(thread_prefix, thread_prefix, initial_value, scan_op);
    ThreadScanExclusive(input, output, scan_op, thread_prefix);
  }

  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      T initial_value, ScanOp scan_op, T& block_aggregate)
  {
    T thread_prefix = ThreadReduce(input, scan_op);
    ExclusiveScan(thread_prefix, thread_prefix, initial_value, scan_op, block_aggregate);
    ThreadScanExclusive(input, output, scan_op, thread_prefix);
  }

  template <int ITEMS_PER_THREAD, typename ScanOp, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      ScanOp scan_op, BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    T thread_prefix = ThreadReduce(input, scan_op);
    ExclusiveScan(thread_prefix, thread_prefix, scan_op, block_prefix_callback_op);
    ThreadScanExclusive(input, output, scan_op, thread_prefix);
  }

  //! Thread 0's output[0] is undefined.
  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      ScanOp scan_op)
  {
    T thread_prefix = ThreadReduce(input, scan_op);
    ExclusiveScan(thread_prefix, thread_prefix, scan_op);
    ThreadScanExclusive(input, output, scan_op, thread_prefix, linear_tid != 0);
  }

  //! Thread 0's output[0] is undefined.
  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      ScanOp scan_op, T& block_aggregate)
  {
    T thread_prefix = ThreadReduce(input, scan_op);
    ExclusiveScan(thread_prefix, thread_prefix, scan_op, block_aggregate);
    ThreadScanExclusive(input, output, scan_op, thread_prefix, linear_tid != 0);
  }

  // -- inclusive prefix sums, one item per thread -----------------------------------------------------------

  //! output = the sum of the inputs of this and all earlier threads.
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T input, T& output)
  {
    InclusiveScan(input, output, cuda::std::plus<>{});
  }

  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T input, T& output, T& block_aggregate)
  {
    InclusiveScan(input, output, cuda::std::plus<>{}, block_aggregate);
  }

  template <typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T input, T& output,
                                                     BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    InclusiveScan(input, output, cuda::std::plus<>{}, block_prefix_callback_op);
  }

  // -- inclusive prefix sums, ITEMS_PER_THREAD items per thread ----------------------------------------------
  //
  // The block scans the thread partials as an exclusive sum seeded with zero: cheaper than an unseeded scan,
  // whose first segment needs separate handling. Thread 0 still leaves that zero out of its items, so its
  // outputs are exactly its own partial sums.

  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD])
  {
    if constexpr (ITEMS_PER_THREAD == 1)
    {
      InclusiveSum(input[0], output[0]);
    }
    else
    {
      T thread_prefix = ThreadReduce(input, cuda::std::plus<>{});
      ExclusiveSum(thread_prefix, thread_prefix);
      ThreadScanInclusive(input, output, cuda::std::plus<>{}, thread_prefix, linear_tid != 0);
    }
  }

  template <int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                     T& block_aggregate)
  {
    if constexpr (ITEMS_PER_THREAD == 1)
    {
      InclusiveSum(input[0], output[0], block_aggregate);
    }
    else
    {
      T thread_prefix = ThreadReduce(input, cuda::std::plus<>{});
      ExclusiveSum(thread_prefix, thread_prefix, block_aggregate);
      ThreadScanInclusive(input, output, cuda::std::plus<>{}, thread_prefix, linear_tid != 0);
    }
  }

  template <int ITEMS_PER_THREAD, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                     BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    InclusiveScan(input, output, cuda::std::plus<>{}, block_prefix_callback_op);
  }

  // -- inclusive scans, one item per thread -----------------------------------------------------------------

  //! output = the reduction of the inputs of this and all earlier threads.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOp scan_op)
  {
    InternalBlockScan(temp_storage).InclusiveScan(input, output, scan_op);
  }

  //! As above; block_aggregate = the reduction of all inputs.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOp scan_op, T& block_aggregate)
  {
    InternalBlockScan(temp_storage).InclusiveScan(input, output, scan_op, block_aggregate);
  }

  //! output = block prefix op (the inputs of this and all earlier threads); the block prefix is thread 0's
  //! return value of block_prefix_callback_op(block aggregate), called by the first warp.
  template <typename ScanOp, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOp scan_op,
                                                      BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    InternalBlockScan(temp_storage).InclusiveScan(input, output, scan_op, block_prefix_callback_op);
  }

  // -- inclusive scans, ITEMS_PER_THREAD items per thread ---------------------------------------------------
  //
  // Each thread reduces its items, the block scans those partials exclusively, and each thread scans its items
  // inclusively seeded with its partial's result. A single item needs no per-thread pass.

  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      ScanOp scan_op)
  {
    if constexpr (ITEMS_PER_THREAD == 1)
    {
      InclusiveScan(input[0], output[0], scan_op);
    }
    else
    {
      T thread_prefix = ThreadReduce(input, scan_op);
      ExclusiveScan(thread_prefix, thread_prefix, scan_op);
      ThreadScanInclusive(input, output, scan_op, thread_prefix, linear_tid != 0);
    }
  }

  //! output[i] = initial_value op (all earlier items) op input[i].
  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      T initial_value, ScanOp scan_op)
  {
    T thread_prefix = ThreadReduce(input, scan_op);
    ExclusiveScan(thread_prefix, thread_prefix, initial_value, scan_op);
    ThreadScanInclusive(input, output, scan_op, thread_prefix);
  }

  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      ScanOp scan_op, T& block_aggregate)
  {
    if constexpr (ITEMS_PER_THREAD == 1)
    {
      InclusiveScan(input[0], output[0], scan_op, block_aggregate);
    }
    else
    {
      T thread_prefix = ThreadReduce(input, scan_op);
      ExclusiveScan(thread_prefix, thread_prefix, scan_op, block_aggregate);
      ThreadScanInclusive(input, output, scan_op, thread_prefix, linear_tid != 0);
    }
  }

  //! block_aggregate does not include initial_value.
  template <int ITEMS_PER_THREAD, typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      T initial_value, ScanOp scan_op, T& block_aggregate)
  {
    T thread_prefix = ThreadReduce(input, scan_op);
    ExclusiveScan(thread_prefix, thread_prefix, initial_value, scan_op, block_aggregate);
    ThreadScanInclusive(input, output, scan_op, thread_prefix);
  }

  template <int ITEMS_PER_THREAD, typename ScanOp, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                                      ScanOp scan_op, BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    if constexpr (ITEMS_PER_THREAD == 1)
    {
      InclusiveScan(input[0], output[0], scan_op, block_prefix_callback_op);
    }
    else
    {
      T thread_prefix = ThreadReduce(input, scan_op);
      ExclusiveScan(thread_prefix, thread_prefix, scan_op, block_prefix_callback_op);
      ThreadScanInclusive(input, output, scan_op, thread_prefix);
    }
  }
};

STRATA_NAMESPACE_END
