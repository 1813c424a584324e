// BlockReduceRakingCommutativeOnly: block-wide reduction for commutative operators, with less shared-memory
// traffic than BlockReduceRaking.
//
// Warp 0 keeps its own partials in registers and only the other BLOCK_THREADS - 32 threads place theirs in
// the raking grid; each lane of warp 0 then folds one segment into its own partial and warp 0 reduces. A
// lane's partial is combined with the partials of threads far from it, hence "commutative only".
//
// The scheme needs every thread's partial, and segments that divide evenly among 32 rakers: partial tiles
// (num_valid < BLOCK_THREADS) and blocks that are not a multiple of the warp size, or not larger than one
// warp, use BlockReduceRaking instead.
#pragma once

#include <strata/block/block_raking_layout.cuh>
#include <strata/block/specializations/block_reduce_raking.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_reduce.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/warp_reduce.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
struct BlockReduceRakingCommutativeOnly
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

  using Fallback = BlockReduceRaking<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>;

  static constexpr bool USE_FALLBACK = (BLOCK_THREADS % WARP_THREADS != 0) || (BLOCK_THREADS <= WARP_THREADS);

  // Threads outside warp 0, whose partials go through the grid (a placeholder 1 when the fallback is used).
  static constexpr int SHARING_THREADS = USE_FALLBACK ? 1 : BLOCK_THREADS - WARP_THREADS;

  // With SHARING_THREADS a multiple of 32, the layout gives exactly 32 full segments.
  using Layout = BlockRakingLayout<T, SHARING_THREADS>;

  static constexpr int SEGMENT_LENGTH = Layout::SEGMENT_LENGTH;
  static_assert(USE_FALLBACK || (Layout::RAKING_THREADS == WARP_THREADS && Layout::UNGUARDED),
                "the grid must split into one full segment per lane of warp 0");

  // The fallback's warp reduction, which spans a full warp for every block size this scheme handles.
  using WarpReduceT = typename Fallback::WarpReduceT;

  // Warp 0 reads the grid and then reduces, so the two cannot overlay without an extra warp barrier; the warp
  // storage is small (nothing for shuffle-based reductions).
  struct RakingStorage
  {
    typename WarpReduceT::TempStorage warp_reduce;
    typename Layout::TempStorage raking_grid;
  };

  union CommutativeStorage
  {
    RakingStorage raking;
    typename Fallback::TempStorage fallback;
  };

  struct FallbackStorage
  {
    typename Fallback::TempStorage fallback;
  };

  using _TempStorage = cuda::std::conditional_t<USE_FALLBACK, FallbackStorage, CommutativeStorage>;

  struct TempStorage : Uninitialized<_TempStorage>
  {};

  _TempStorage& temp_storage;
  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE explicit BlockReduceRakingCommutativeOnly(TempStorage& storage)
      : temp_storage(storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  // The reduction of the partials of threads 0 .. num_valid - 1 in some order, valid in thread 0.
  // requires: FULL_TILE, or 1 <= num_valid < BLOCK_THREADS.
  template <bool FULL_TILE, typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T partial, int num_valid, ReductionOp reduction_op)
  {
    if constexpr (USE_FALLBACK || !FULL_TILE)
    {
      return Fallback(temp_storage.fallback).template Reduce<FULL_TILE>(partial, num_valid, reduction_op);
    }
    else
    {
      if (linear_tid >= WARP_THREADS)
      {
        *Layout::PlacementPtr(temp_storage.raking.raking_grid, linear_tid - WARP_THREADS) = partial;
      }
      __syncthreads();

      if (linear_tid < WARP_THREADS)
      {
        const T* segment = Layout::RakingPtr(temp_storage.raking.raking_grid, linear_tid);
        partial = static_cast<T>(reduction_op(partial, reduce_partials<SEGMENT_LENGTH>(segment, reduction_op)));
        partial =
          warp_reduction<WarpReduceT, true>(temp_storage.raking.warp_reduce, partial, WARP_THREADS, reduction_op);
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
