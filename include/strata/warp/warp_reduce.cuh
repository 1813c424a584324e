// WarpReduce: reductions across the lanes of a logical warp (CUB's interface and contracts).
#pragma once

#include <strata/config.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/specializations/warp_reduce_shfl.cuh>
#include <strata/warp/specializations/warp_reduce_smem.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// Reduces one item per lane across a logical warp of LOGICAL_WARP_THREADS lanes (1..32); the result is valid
// in the logical warp's first lane (lane 0), or, for the segmented reductions, in the first lane of each
// segment. Operators need only be associative: operands are combined in lane order, so the result is
// x0 op x1 op ... op x_{n-1} for non-commutative operators too.
//
// Logical warps: for a power-of-two LOGICAL_WARP_THREADS each hardware warp holds 32 / LOGICAL_WARP_THREADS
// independent logical warps (lanes [0, W), [W, 2W), ...) that reduce through register shuffles. For any other
// size, the logical warp is the first LOGICAL_WARP_THREADS lanes of a hardware warp (the other lanes must not
// call) and partials move through shared memory. Every lane of a logical warp calls the same method. On
// sm_80 and newer, sums, minima, maxima and bitwise reductions of integers of up to 32 bits take one
// redux.sync instruction where the logical warp is the only one in its hardware warp (32 lanes, or any
// size that is not a power of two).
//
// Temporary storage: each logical warp needs its own TempStorage (empty for power-of-two sizes), passed to
// the constructor. To reuse it for another collective call, the logical warp must first synchronize
// (__syncwarp) so that no lane still reads the previous call's data.
//
// Complexity: log2(LOGICAL_WARP_THREADS) steps of one shuffle (or shared-memory exchange) and one operator.
//
// Example (four warps of a 128-thread block, each summing its 32 items into lanes 0, 32, 64, 96):
//
//   using WarpReduce = strata::WarpReduce<int>;
//   __shared__ WarpReduce::TempStorage temp_storage[4];
//   int thread_data = d_in[threadIdx.x];
//   int warp_sum = WarpReduce(temp_storage[threadIdx.x / 32]).Sum(thread_data);
//   if (threadIdx.x % 32 == 0) d_out[threadIdx.x / 32] = warp_sum;
template <typename T, int LOGICAL_WARP_THREADS = WARP_THREADS>
class WarpReduce
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= WARP_THREADS, "logical warp of 1..32 lanes");

  using InternalWarpReduce =
    cuda::std::conditional_t<cuda::std::has_single_bit(static_cast<unsigned>(LOGICAL_WARP_THREADS)),
                             detail::warp_reduce_shfl<T, LOGICAL_WARP_THREADS>,
                             detail::warp_reduce_smem<T, LOGICAL_WARP_THREADS>>;
  using _TempStorage = typename InternalWarpReduce::TempStorage;

  _TempStorage& temp_storage;

public:
  // Shared memory for one logical warp.
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  STRATA_DEVICE STRATA_FORCEINLINE WarpReduce(TempStorage& storage)
      : temp_storage(storage.Alias())
  {}

  // Sum of the logical warp's items, valid in lane 0.
  STRATA_DEVICE STRATA_FORCEINLINE T Sum(T input)
  {
    return InternalWarpReduce(temp_storage).template reduce<true>(input, LOGICAL_WARP_THREADS, cuda::std::plus<>{});
  }

  // Sum of the items of lanes 0 .. valid_items-1, valid in lane 0. Every lane calls, with the same
  // valid_items (at least 1; more than LOGICAL_WARP_THREADS counts as all); the other lanes' inputs are ignored.
  STRATA_DEVICE STRATA_FORCEINLINE T Sum(T input, int valid_items)
  {
    return InternalWarpReduce(temp_storage).template reduce<false>(input, valid_items, cuda::std::plus<>{});
  }

  // Sum of each segment, valid in the segment's first lane; `head_flag` marks the lanes that start a segment
  // (lane 0 starts one whatever its flag).
  template <typename FlagT>
  STRATA_DEVICE STRATA_FORCEINLINE T HeadSegmentedSum(T input, FlagT head_flag)
  {
    return HeadSegmentedReduce(input, head_flag, cuda::std::plus<>{});
  }

  // Sum of each segment, valid in the segment's first lane; `tail_flag` marks the lanes that end a segment.
  template <typename FlagT>
  STRATA_DEVICE STRATA_FORCEINLINE T TailSegmentedSum(T input, FlagT tail_flag)
  {
    return TailSegmentedReduce(input, tail_flag, cuda::std::plus<>{});
  }

  // Reduction of the logical warp's items with `reduction_op` (associative), valid in lane 0.
  template <typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T input, ReductionOp reduction_op)
  {
    return InternalWarpReduce(temp_storage).template reduce<true>(input, LOGICAL_WARP_THREADS, reduction_op);
  }

  // Reduction of the items of lanes 0 .. valid_items-1, valid in lane 0. Every lane calls, with the same
  // valid_items (at least 1; more than LOGICAL_WARP_THREADS counts as all); the other lanes' inputs are ignored.
  template <typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T Reduce(T input, ReductionOp reduction_op, int valid_items)
  {
    return InternalWarpReduce(temp_storage).template reduce<false>(input, valid_items, reduction_op);
  }

  // Reduction of each segment, valid in the segment's first lane; `head_flag` marks the lanes that start a
  // segment (lane 0 starts one whatever its flag).
  template <typename ReductionOp, typename FlagT>
  STRATA_DEVICE STRATA_FORCEINLINE T HeadSegmentedReduce(T input, FlagT head_flag, ReductionOp reduction_op)
  {
    return InternalWarpReduce(temp_storage).template segmented_reduce<true>(input, head_flag, reduction_op);
  }

  // Reduction of each segment, valid in the segment's first lane (lane 0 and every lane after a tail);
  // `tail_flag` marks the lanes that end a segment.
  template <typename ReductionOp, typename FlagT>
  STRATA_DEVICE STRATA_FORCEINLINE T TailSegmentedReduce(T input, FlagT tail_flag, ReductionOp reduction_op)
  {
    return InternalWarpReduce(temp_storage).template segmented_reduce<false>(input, tail_flag, reduction_op);
  }
};

STRATA_NAMESPACE_END
