// WarpScan for logical warps of a power-of-two number of lanes: a Kogge-Stone scan over register shuffles.
//
// The hardware warp is partitioned into 32 / LOGICAL_WARP_THREADS independent logical warps; each shuffles
// within its own segment (the shuffle's segment mask) and synchronizes only its own lanes (the member mask).
// No shared memory is used.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

// The register type in which a sum of T runs on the fused shuffle-add instructions, or void where none fits.
// Integers narrower than 32 bits are summed in 32 bits: the low bits of a wrapping 32-bit sum are the
// wrapping narrow sum, so truncating at the end gives exactly T's result.
template <typename T, typename Enable = void>
struct warp_sum_word
{
  using type = void;
};
template <typename T>
struct warp_sum_word<T, cuda::std::enable_if_t<cuda::std::is_integral<T>::value && !cuda::std::is_same<T, bool>::value
                                               && (sizeof(T) <= sizeof(unsigned int))>>
{
  using type = unsigned int;
};
template <typename T>
struct warp_sum_word<
  T, cuda::std::enable_if_t<cuda::std::is_integral<T>::value && (sizeof(T) == sizeof(unsigned long long))>>
{
  using type = unsigned long long;
};
template <>
struct warp_sum_word<float>
{
  using type = float;
};
template <>
struct warp_sum_word<double>
{
  using type = double;
};

// True when `ScanOp` adds two T (cuda::std::plus<> or cuda::std::plus<T>).
template <typename T, typename ScanOp>
constexpr bool is_sum_of_v =
  cuda::std::is_same<ScanOp, cuda::std::plus<>>::value || cuda::std::is_same<ScanOp, cuda::std::plus<T>>::value;

template <typename T, int LOGICAL_WARP_THREADS>
struct warp_scan_shfl
{
  static_assert(cuda::std::has_single_bit(static_cast<unsigned>(LOGICAL_WARP_THREADS))
                  && LOGICAL_WARP_THREADS <= WARP_THREADS,
                "the shuffle scan needs a power-of-two logical warp of at most 32 lanes");

  static constexpr int STEPS = cuda::ilog2(LOGICAL_WARP_THREADS);

  // Shuffles need no shared memory.
  using TempStorage = NullType;

  // Lane within the logical warp.
  unsigned int lane_id;
  // The lanes of this logical warp within the hardware warp.
  unsigned int member_mask;

  STRATA_DEVICE STRATA_FORCEINLINE explicit warp_scan_shfl(TempStorage& /*temp_storage*/)
      : lane_id(LaneId() % LOGICAL_WARP_THREADS)
      , member_mask(LogicalWarpMask<LOGICAL_WARP_THREADS>(LaneId() / LOGICAL_WARP_THREADS))
  {}

  // Inclusive scan of the logical warp: after step k, each lane holds the combination of the 2^(k+1) inputs
  // ending at itself (fewer near the first lane). Partials always combine as op(earlier, later).
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void inclusive_scan(T input, T& inclusive, ScanOp scan_op)
  {
    using word_t = typename warp_sum_word<T>::type;
    if constexpr (is_sum_of_v<T, ScanOp> && !cuda::std::is_void<word_t>::value)
    {
      word_t partial = static_cast<word_t>(input);
      STRATA_UNROLL
      for (int step = 0; step < STEPS; ++step)
      {
        partial = ShuffleUpAdd<LOGICAL_WARP_THREADS>(partial, 1 << step, 0, member_mask);
      }
      inclusive = static_cast<T>(partial);
    }
    else
    {
      inclusive = input;
      STRATA_UNROLL
      for (int step = 0; step < STEPS; ++step)
      {
        const T earlier  = ShuffleUp<LOGICAL_WARP_THREADS>(inclusive, 1 << step, 0, member_mask);
        const T combined = static_cast<T>(scan_op(earlier, inclusive));
        // Lanes without a predecessor 2^step back keep their partial; a select, not a branch.
        inclusive = (lane_id >= (1u << step)) ? combined : inclusive;
      }
    }
  }

  // The inclusive result of the previous lane (lane 0 gets its own value, which callers must not use).
  STRATA_DEVICE STRATA_FORCEINLINE T exclusive(T inclusive)
  {
    return ShuffleUp<LOGICAL_WARP_THREADS>(inclusive, 1, 0, member_mask);
  }

  // The inclusive result of the last lane: the aggregate of the logical warp.
  STRATA_DEVICE STRATA_FORCEINLINE T aggregate(T inclusive)
  {
    if constexpr (LOGICAL_WARP_THREADS == 1)
    {
      return inclusive;
    }
    else
    {
      return ShuffleIndex<LOGICAL_WARP_THREADS>(inclusive, LOGICAL_WARP_THREADS - 1, member_mask);
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE void exclusive_and_aggregate(T inclusive, T& exclusive_out, T& aggregate_out)
  {
    exclusive_out = exclusive(inclusive);
    aggregate_out = aggregate(inclusive);
  }

  STRATA_DEVICE STRATA_FORCEINLINE T broadcast(T input, unsigned int src_lane)
  {
    if constexpr (LOGICAL_WARP_THREADS == 1)
    {
      return input;
    }
    else
    {
      return ShuffleIndex<LOGICAL_WARP_THREADS>(input, static_cast<int>(src_lane), member_mask);
    }
  }
};

} // namespace detail
STRATA_NAMESPACE_END
