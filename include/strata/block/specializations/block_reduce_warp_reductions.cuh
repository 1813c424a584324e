// BlockReduceWarpReductions: block-wide reduction as one warp reduction per warp, one barrier, and a reduction
// of the warp aggregates by thread 0. Exact for non-commutative operators: warps cover consecutive threads,
// each warp reduces in lane order and the aggregates are combined in warp order.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/thread/thread_reduce.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/warp_reduce.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

// One logical warp's reduction of its first `valid_items` lanes (all lanes when ALL_VALID), result in lane 0.
// The standard sum goes through WarpReduce::Sum so that the warp layer can use its hardware paths.
template <typename WarpReduceT, bool ALL_VALID, typename T, typename ReductionOp>
STRATA_DEVICE STRATA_FORCEINLINE T warp_reduction(typename WarpReduceT::TempStorage& storage, T input, int valid_items,
                                                  ReductionOp reduction_op)
{
  WarpReduceT warp_reduce(storage);
  if constexpr (cuda::std::is_same<ReductionOp, cuda::std::plus<>>::value)
  {
    if constexpr (ALL_VALID)
    {
      return warp_reduce.Sum(input);
    }
    else
    {
      return warp_reduce.Sum(input, valid_items);
    }
  }
  else
  {
    if constexpr (ALL_VALID)
    {
      return warp_reduce.Reduce(input, reduction_op);
    }
    else
    {
      return warp_reduce.Reduce(input, reduction_op, valid_items);
    }
  }
}

// The in-order reduction of items[0] .. items[LENGTH - 1] (shared-memory partials in raking segments or warp
// aggregates). Integer sums fold left to right, which the compiler turns into a chain of three-input adds:
// on sm_90 that beat ThreadReduce's tree, as it does in CUB (H200, thread 0 summing 32 int warp aggregates
// in a loop over 1024-thread blocks: 0.45 ms folded vs 0.56 ms as a tree). Everything else goes through
// ThreadReduce, whose tree shortens the dependency chain of floating-point sums, minima and maxima.
template <int LENGTH, typename T, typename ReductionOp>
STRATA_DEVICE STRATA_FORCEINLINE T reduce_partials(const T* items, ReductionOp reduction_op)
{
  if constexpr (cuda::std::is_integral<T>::value && op_kind_v<ReductionOp> == op_kind::plus)
  {
    T partial = items[0];
    STRATA_UNROLL
    for (int i = 1; i < LENGTH; ++i)
    {
      partial = static_cast<T>(reduction_op(partial, items[i]));
    }
    return partial;
  }
  else
  {
    return ThreadReduce<LENGTH>(items, reduction_op);
  }
}

template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
struct BlockReduceWarpReductions
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

  static constexpr int WARPS = cuda::ceil_div(BLOCK_THREADS, WARP_THREADS);

  // Lanes of every warp but the last; a block smaller than a warp is a single warp of BLOCK_THREADS lanes.
  static constexpr int WARP_LANES = BLOCK_THREADS < WARP_THREADS ? BLOCK_THREADS : WARP_THREADS;

  // The last warp of a block that is not a multiple of the warp size has only these lanes. It reduces as a
  // logical warp of exactly that width, so no shuffle names a lane that was never launched.
  static constexpr int LAST_WARP_LANES = BLOCK_THREADS - (WARPS - 1) * WARP_LANES;

  static constexpr bool EVEN_WARPS = LAST_WARP_LANES == WARP_LANES;

  using WarpReduceT     = WarpReduce<T, WARP_LANES>;
  using LastWarpReduceT = WarpReduce<T, LAST_WARP_LANES>;

  // A single warp needs no aggregates: its reduction is the block's.
  struct SingleWarpStorage
  {
    typename WarpReduceT::TempStorage warp_reduce[1];
  };

  struct EvenStorage
  {
    typename WarpReduceT::TempStorage warp_reduce[WARPS];
    T warp_aggregates[WARPS];
  };

  struct UnevenStorage
  {
    typename WarpReduceT::TempStorage warp_reduce[WARPS - 1 > 0 ? WARPS - 1 : 1];
    typename LastWarpReduceT::TempStorage last_warp_reduce;
    T warp_aggregates[WARPS];
  };

  using _TempStorage = cuda::std::conditional_t<WARPS == 1, SingleWarpStorage,
                                                cuda::std::conditional_t<EVEN_WARPS, EvenStorage, UnevenStorage>>;

  struct TempStorage : Uninitialized<_TempStorage>
  {};

  _TempStorage& temp_storage;
  int linear_tid;
  int warp_id;

  STRATA_DEVICE STRATA_FORCEINLINE explicit BlockReduceWarpReductions(TempStorage& storage)
      : temp_storage(storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
      , warp_id(WARPS == 1 ? 0 : linear_tid / WARP_THREADS)
  {}

  // The reduction of the partials of threads 0 .. num_valid - 1 in thread order, valid in thread 0.
  // requires: FULL_TILE, or 1 <= num_valid < BLOCK_THREADS.
  template <bool FULL_TILE, typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T input, int num_valid, ReductionOp reduction_op)
  {
    // Reduce within each warp. Warps wholly past num_valid skip it: their aggregates are never read. The
    // branches are uniform per warp, so every lane of a reducing warp takes part.
    const int warp_offset     = warp_id * WARP_THREADS;
    const bool warp_has_items = FULL_TILE || warp_offset < num_valid;
    // Lanes of this warp holding valid items; used only for partial tiles, where num_valid < BLOCK_THREADS
    // also keeps it within the last warp's LAST_WARP_LANES.
    const int warp_valid = (num_valid - warp_offset < WARP_LANES) ? num_valid - warp_offset : WARP_LANES;
    T warp_aggregate     = input;
    if (warp_has_items)
    {
      if constexpr (EVEN_WARPS)
      {
        warp_aggregate =
          warp_reduction<WarpReduceT, FULL_TILE>(temp_storage.warp_reduce[warp_id], input, warp_valid, reduction_op);
      }
      else if (warp_id < WARPS - 1)
      {
        warp_aggregate =
          warp_reduction<WarpReduceT, FULL_TILE>(temp_storage.warp_reduce[warp_id], input, warp_valid, reduction_op);
      }
      else
      {
        warp_aggregate =
          warp_reduction<LastWarpReduceT, FULL_TILE>(temp_storage.last_warp_reduce, input, warp_valid, reduction_op);
      }
    }
    if constexpr (WARPS == 1)
    {
      return warp_aggregate;
    }
    else
    {
      // Publish the warp aggregates; the one barrier of the algorithm.
      if (linear_tid % WARP_THREADS == 0 && warp_has_items)
      {
        temp_storage.warp_aggregates[warp_id] = warp_aggregate;
      }
      __syncthreads();

      // Thread 0 combines the aggregates in warp order; its own warp's is still in its registers.
      if (linear_tid == 0)
      {
        if constexpr (FULL_TILE)
        {
          T aggregates[WARPS];
          aggregates[0] = warp_aggregate;
          STRATA_UNROLL
          for (int w = 1; w < WARPS; ++w)
          {
            aggregates[w] = temp_storage.warp_aggregates[w];
          }
          warp_aggregate = reduce_partials<WARPS>(aggregates, reduction_op);
        }
        else
        {
          STRATA_UNROLL
          for (int w = 1; w < WARPS; ++w)
          {
            if (w * WARP_THREADS < num_valid)
            {
              warp_aggregate = static_cast<T>(reduction_op(warp_aggregate, temp_storage.warp_aggregates[w]));
            }
          }
        }
      }
      return warp_aggregate;
    }
  }

  template <bool FULL_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE T Sum(T input, int num_valid)
  {
    return Reduce<FULL_TILE>(input, num_valid, cuda::std::plus<>{});
  }
};

} // namespace detail
STRATA_NAMESPACE_END
