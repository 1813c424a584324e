// WarpScan: inclusive and exclusive prefix scans across a logical warp of 1..32 lanes.
#pragma once

#include <strata/config.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/specializations/warp_scan_shfl.cuh>
#include <strata/warp/specializations/warp_scan_smem.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! Prefix scans of one value per lane across a logical warp of LOGICAL_WARP_THREADS lanes (1..32).
//!
//! Lane i's inclusive result combines the inputs of lanes 0..i, its exclusive result those of lanes 0..i-1;
//! operands are always combined in lane order, as op(earlier, later), so the operator needs to be associative
//! but not commutative. Every result is valid in every lane of the logical warp. Scans with an initial value
//! seed every result with it (lane 0's exclusive result is the initial value); without one, lane 0's
//! exclusive result is undefined. warp_aggregate is the combination of all inputs, without the initial value.
//!
//! - A power-of-two LOGICAL_WARP_THREADS partitions each hardware warp into 32 / LOGICAL_WARP_THREADS
//!   independent logical warps (lanes [k*W, (k+1)*W)), scanned with register shuffles in log2(W) steps.
//! - Any other size scans the first LOGICAL_WARP_THREADS lanes of a hardware warp through shared memory in
//!   ceil(log2(W)) steps; the remaining lanes of that hardware warp must not call it.
//!
//! Temporary storage: one TempStorage per logical warp (empty for power-of-two sizes). Call a method from all
//! lanes of the logical warp with converged control flow. Before the same TempStorage is reused by another
//! method call, the logical warp must synchronize (__syncwarp(mask of its lanes)).
//!
//! \code
//! using WarpScanT = strata::WarpScan<int>;
//! __shared__ typename WarpScanT::TempStorage temp_storage[4];          // 128 threads: 4 warps
//! int value = input[threadIdx.x];
//! WarpScanT(temp_storage[threadIdx.x / 32]).ExclusiveSum(value, value);  // each warp: 0, x0, x0+x1, ...
//! output[threadIdx.x] = value;
//! \endcode
template <typename T, int LOGICAL_WARP_THREADS = WARP_THREADS>
class WarpScan
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= WARP_THREADS,
                "WarpScan: LOGICAL_WARP_THREADS must be in 1..32");

  using InternalWarpScan =
    cuda::std::conditional_t<cuda::std::has_single_bit(static_cast<unsigned>(LOGICAL_WARP_THREADS)),
                             detail::warp_scan_shfl<T, LOGICAL_WARP_THREADS>,
                             detail::warp_scan_smem<T, LOGICAL_WARP_THREADS>>;
  using _TempStorage = typename InternalWarpScan::TempStorage;

  // Integer sums wrap, so the exclusive result is exactly inclusive - input: no second exchange between lanes.
  template <typename ScanOp>
  static constexpr bool SUBTRACTS =
    cuda::std::is_integral<T>::value && !cuda::std::is_same<T, bool>::value && detail::is_sum_of_v<T, ScanOp>;

  InternalWarpScan internal;

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  STRATA_DEVICE STRATA_FORCEINLINE explicit WarpScan(TempStorage& temp_storage)
      : internal(temp_storage.Alias())
  {}

  // -- prefix sums ----------------------------------------------------------------------------------------

  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T input, T& inclusive_output)
  {
    InclusiveScan(input, inclusive_output, cuda::std::plus<>{});
  }

  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveSum(T input, T& inclusive_output, T& warp_aggregate)
  {
    InclusiveScan(input, inclusive_output, cuda::std::plus<>{}, warp_aggregate);
  }

  // Lane 0's result is T{} (value-initialized), the identity of the sum.
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T input, T& exclusive_output)
  {
    ExclusiveScan(input, exclusive_output, T{}, cuda::std::plus<>{});
  }

  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveSum(T input, T& exclusive_output, T& warp_aggregate)
  {
    ExclusiveScan(input, exclusive_output, T{}, cuda::std::plus<>{}, warp_aggregate);
  }

  // -- inclusive scans --------------------------------------------------------------------------------------

  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& inclusive_output, ScanOp scan_op)
  {
    internal.inclusive_scan(input, inclusive_output, scan_op);
  }

  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& inclusive_output, T initial_value, ScanOp scan_op)
  {
    T inclusive;
    internal.inclusive_scan(input, inclusive, scan_op);
    inclusive_output = static_cast<T>(scan_op(initial_value, inclusive));
  }

  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& inclusive_output, ScanOp scan_op, T& warp_aggregate)
  {
    T inclusive;
    internal.inclusive_scan(input, inclusive, scan_op);
    warp_aggregate   = internal.aggregate(inclusive);
    inclusive_output = inclusive;
  }

  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& inclusive_output, T initial_value, ScanOp scan_op,
                                                      T& warp_aggregate)
  {
    T inclusive;
    internal.inclusive_scan(input, inclusive, scan_op);
    warp_aggregate   = internal.aggregate(inclusive);
    inclusive_output = static_cast<T>(scan_op(initial_value, inclusive));
  }

  // -- exclusive scans --------------------------------------------------------------------------------------

  // Lane 0's result is undefined.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& exclusive_output, ScanOp scan_op)
  {
    T inclusive;
    internal.inclusive_scan(input, inclusive, scan_op);
    exclusive_output = exclusive_of(input, inclusive, scan_op);
  }

  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOp scan_op)
  {
    T inclusive;
    internal.inclusive_scan(input, inclusive, scan_op);
    exclusive_output = seed_exclusive(initial_value, exclusive_of(input, inclusive, scan_op), scan_op);
  }

  // Lane 0's exclusive_output is undefined.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& exclusive_output, ScanOp scan_op, T& warp_aggregate)
  {
    T inclusive;
    internal.inclusive_scan(input, inclusive, scan_op);
    T exclusive;
    exclusive_and_aggregate_of(input, inclusive, scan_op, exclusive, warp_aggregate);
    exclusive_output = exclusive;
  }

  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOp scan_op,
                                                      T& warp_aggregate)
  {
    T inclusive;
    internal.inclusive_scan(input, inclusive, scan_op);
    T exclusive;
    exclusive_and_aggregate_of(input, inclusive, scan_op, exclusive, warp_aggregate);
    exclusive_output = seed_exclusive(initial_value, exclusive, scan_op);
  }

  // -- both at once ---------------------------------------------------------------------------------------

  // Lane 0's exclusive_output is undefined.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void Scan(T input, T& inclusive_output, T& exclusive_output, ScanOp scan_op)
  {
    T inclusive;
    internal.inclusive_scan(input, inclusive, scan_op);
    exclusive_output = exclusive_of(input, inclusive, scan_op);
    inclusive_output = inclusive;
  }

  // Both results are seeded with initial_value.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void Scan(T input, T& inclusive_output, T& exclusive_output, T initial_value,
                                             ScanOp scan_op)
  {
    T inclusive;
    internal.inclusive_scan(input, inclusive, scan_op);
    exclusive_output = seed_exclusive(initial_value, exclusive_of(input, inclusive, scan_op), scan_op);
    inclusive_output = static_cast<T>(scan_op(initial_value, inclusive));
  }

  // -- data exchange ----------------------------------------------------------------------------------------

  // The input of lane src_lane (of the logical warp), in every lane.
  STRATA_DEVICE STRATA_FORCEINLINE T Broadcast(T input, unsigned int src_lane)
  {
    return internal.broadcast(input, src_lane);
  }

private:
  // Wrapping difference in the unsigned type of T, so that signed sums that wrapped still subtract exactly.
  STRATA_DEVICE STRATA_FORCEINLINE static T wrapping_difference(T a, T b)
  {
    using unsigned_t = cuda::std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<unsigned_t>(static_cast<unsigned_t>(a) - static_cast<unsigned_t>(b)));
  }

  // The unseeded exclusive result (undefined in lane 0, except for integer sums, where it is 0).
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE T exclusive_of(T input, T inclusive, ScanOp /*scan_op*/)
  {
    if constexpr (SUBTRACTS<ScanOp>)
    {
      return wrapping_difference(inclusive, input);
    }
    else
    {
      return internal.exclusive(inclusive);
    }
  }

  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void exclusive_and_aggregate_of(T input, T inclusive, ScanOp /*scan_op*/,
                                                                   T& exclusive, T& warp_aggregate)
  {
    if constexpr (SUBTRACTS<ScanOp>)
    {
      exclusive      = wrapping_difference(inclusive, input);
      warp_aggregate = internal.aggregate(inclusive);
    }
    else
    {
      internal.exclusive_and_aggregate(inclusive, exclusive, warp_aggregate);
    }
  }

  // Seeds an unseeded exclusive result with initial_value; lane 0 gets initial_value itself.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE T seed_exclusive(T initial_value, T exclusive, ScanOp scan_op)
  {
    const T seeded = static_cast<T>(scan_op(initial_value, exclusive));
    if constexpr (SUBTRACTS<ScanOp>)
    {
      // Lane 0's unseeded result is exactly 0 here, so the seeded one is already initial_value.
      return seeded;
    }
    else
    {
      return internal.lane_id == 0 ? initial_value : seeded;
    }
  }
};

STRATA_NAMESPACE_END
