// BlockReduceRaking: block-wide reduction through a raking grid, exact for non-commutative operators.
//
// Every thread places its partial in a shared-memory grid; after one barrier, one warp of raking threads
// reduces consecutive segments of the grid in thread order, and a warp reduction over the raking threads
// (in lane order) combines the segments. Operands are never reordered, only regrouped.
#pragma once

#include <strata/block/block_raking_layout.cuh>
#include <strata/block/specializations/block_reduce_warp_reductions.cuh> // warp_reduction, reduce_partials
#include <strata/config.cuh>
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

template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
struct BlockReduceRaking
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

  using Layout = BlockRakingLayout<T, BLOCK_THREADS>;

  static constexpr int RAKING_THREADS = Layout::RAKING_THREADS;
  static constexpr int SEGMENT_LENGTH = Layout::SEGMENT_LENGTH;

  // A block of at most one warp needs no grid: the warp reduction alone covers it.
  static constexpr bool WARP_SYNCHRONOUS = BLOCK_THREADS <= WARP_THREADS;

  // The raking threads are the first RAKING_THREADS lanes of warp 0. A larger block fills warp 0, so the whole
  // warp enters the reduction and lanes without a segment are excluded through valid_items; this keeps the
  // shuffle-based reduction of a full warp even when RAKING_THREADS is not a power of two.
  using WarpReduceT = WarpReduce<T, WARP_SYNCHRONOUS ? BLOCK_THREADS : WARP_THREADS>;

  struct WarpOnlyStorage
  {
    typename WarpReduceT::TempStorage warp_reduce;
  };

  // Side by side rather than overlaid: the warp reduction may then start while slower lanes still rake,
  // without a warp barrier in between (a full warp's reduction shuffles, so its storage is tiny).
  struct RakingStorage
  {
    typename WarpReduceT::TempStorage warp_reduce;
    typename Layout::TempStorage raking_grid;
  };

  using _TempStorage = cuda::std::conditional_t<WARP_SYNCHRONOUS, WarpOnlyStorage, RakingStorage>;

  struct TempStorage : Uninitialized<_TempStorage>
  {};

  _TempStorage& temp_storage;
  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE explicit BlockReduceRaking(TempStorage& storage)
      : temp_storage(storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  // Reduces the calling raking thread's segment in thread order, reading only elements of the first
  // `num_valid` threads (all BLOCK_THREADS when FULL_TILE).
  template <bool FULL_TILE, typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T RakeSegment(int num_valid, ReductionOp reduction_op)
  {
    const T* segment = Layout::RakingPtr(temp_storage.raking_grid, linear_tid);
    if constexpr (FULL_TILE && Layout::UNGUARDED)
    {
      return reduce_partials<SEGMENT_LENGTH>(segment, reduction_op);
    }
    else
    {
      // The valid elements of a segment are a prefix of it; element 0 is always written.
      const int bound     = FULL_TILE ? BLOCK_THREADS : num_valid;
      const int first_tid = linear_tid * SEGMENT_LENGTH;
      T partial           = segment[0];
      STRATA_UNROLL
      for (int i = 1; i < SEGMENT_LENGTH; ++i)
      {
        if (first_tid + i < bound)
        {
          partial = static_cast<T>(reduction_op(partial, segment[i]));
        }
      }
      return partial;
    }
  }

  // The reduction of the partials of threads 0 .. num_valid - 1 in thread order, valid in thread 0.
  // requires: FULL_TILE, or 1 <= num_valid < BLOCK_THREADS.
  template <bool FULL_TILE, typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T partial, int num_valid, ReductionOp reduction_op)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      return warp_reduction<WarpReduceT, FULL_TILE>(temp_storage.warp_reduce, partial, num_valid, reduction_op);
    }
    else
    {
      *Layout::PlacementPtr(temp_storage.raking_grid, linear_tid) = partial;
      __syncthreads();

      if (linear_tid < WARP_THREADS)
      {
        if (RAKING_THREADS == WARP_THREADS || linear_tid < RAKING_THREADS)
        {
          partial = RakeSegment<FULL_TILE>(num_valid, reduction_op);
        }
        constexpr bool ALL_LANES_RAKE = RAKING_THREADS == WARP_THREADS;
        const int valid_rakers        = FULL_TILE ? RAKING_THREADS : cuda::ceil_div(num_valid, SEGMENT_LENGTH);
        partial                       = warp_reduction < WarpReduceT,
        FULL_TILE && ALL_LANES_RAKE > (temp_storage.warp_reduce, partial, valid_rakers, reduction_op);
      }
      return partial;
    }
  }

  template <bool FULL_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE T Sum(T partial, int num_valid)
  {
    return Reduce<FULL_TILE>(partial, num_valid, cuda::std::plus<>{});
  }
};

} // namespace detail
STRATA_NAMESPACE_END
