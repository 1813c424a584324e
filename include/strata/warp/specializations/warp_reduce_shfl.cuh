// WarpReduce for logical warps of a power-of-two number of lanes: a tree of register shuffles.
//
// The hardware warp is partitioned into 32 / LOGICAL_WARP_THREADS independent logical warps; each shuffles
// within its own segment (the shuffle's segment mask) and synchronizes only its own lanes (the member mask).
// No shared memory is used. In a full 32-lane warp, integer reductions that the hardware performs in one
// instruction (redux.sync, sm_80 and newer) take that instruction instead of the tree; partial and segmented
// sums of 32-bit types shuffle and add in one fused step whose clamp is the bound.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/bit>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

// -- reductions that redux.sync computes -----------------------------------------------------------------

// The type argument of a standard operator (void for the transparent plus<>, minimum<>, ...).
template <typename Op>
struct warp_reduce_op_operand
{
  using type = void;
};
template <template <typename> class OpTemplate, typename U>
struct warp_reduce_op_operand<OpTemplate<U>>
{
  using type = U;
};

// True when Op is a standard operator applied to T itself or transparently (plus<>, plus<T>, not plus<U>).
template <typename T, typename Op>
constexpr bool warp_reduce_op_applies_to_v =
  cuda::std::is_void<typename warp_reduce_op_operand<cuda::std::remove_cv_t<Op>>::type>::value
  || cuda::std::is_same<typename warp_reduce_op_operand<cuda::std::remove_cv_t<Op>>::type, T>::value;

// True when redux.sync gives exactly the result of reducing T with Op: T is an integer of at most 32 bits and
// Op is a standard sum, minimum, maximum or bitwise operator applied to T. Narrow integers are widened to
// 32 bits (sign-extended when signed): the low bits of the widened sum and bitwise results, and the widened
// minimum and maximum, equal what the narrow reduction gives.
template <typename T, typename Op>
constexpr bool warp_reduce_has_redux_v =
  op_kind_v<Op> != op_kind::other&& cuda::std::is_integral<T>::value && !cuda::std::is_same<T, bool>::value
  && (sizeof(T) <= sizeof(int)) && warp_reduce_op_applies_to_v<T, Op>;

// The 32-bit word in which redux.sync reduces a T.
template <typename T>
using warp_reduce_redux_word_t = cuda::std::conditional_t<cuda::std::is_signed<T>::value, int, unsigned int>;

// The word that leaves a redux.sync reduction of kind `Kind` unchanged: what lanes without a valid item give.
template <op_kind Kind, typename WordT>
STRATA_DEVICE STRATA_FORCEINLINE constexpr WordT warp_reduce_redux_identity()
{
  if constexpr (Kind == op_kind::minimum)
  {
    return cuda::std::numeric_limits<WordT>::max();
  }
  else if constexpr (Kind == op_kind::maximum)
  {
    return cuda::std::numeric_limits<WordT>::lowest();
  }
  else if constexpr (Kind == op_kind::bit_and)
  {
    return static_cast<WordT>(~0u);
  }
  else
  {
    return WordT{0};
  }
}

// What lane `lane_id` gives redux.sync: its input widened to the instruction's word, or, past the first
// `valid_items` lanes, the identity of the reduction, so that lanes without a valid item never reach the result.
template <bool ALL_LANES_VALID, typename ReductionOp, typename T>
STRATA_DEVICE STRATA_FORCEINLINE warp_reduce_redux_word_t<T> warp_reduce_redux_input(T input, unsigned int lane_id,
                                                                                     int valid_items)
{
  using word_t = warp_reduce_redux_word_t<T>;
  return (ALL_LANES_VALID || static_cast<int>(lane_id) < valid_items)
         ? static_cast<word_t>(input)
         : warp_reduce_redux_identity<op_kind_v<ReductionOp>, word_t>();
}

// The last lane of a logical warp of LOGICAL_WARP_THREADS that holds a valid item; valid_items past the
// logical warp's size counts as all of it (and must never send reads past a warp's buffers).
template <int LOGICAL_WARP_THREADS, bool ALL_LANES_VALID>
STRATA_DEVICE STRATA_FORCEINLINE constexpr int warp_reduce_last_valid_lane(int valid_items)
{
  return (ALL_LANES_VALID || valid_items > LOGICAL_WARP_THREADS) ? LOGICAL_WARP_THREADS - 1 : valid_items - 1;
}

// The instruction exists (and the runtime declares it) only from sm_80 on; callers reach this through
// NV_IF_TARGET(NV_PROVIDES_SM_80, ...), which drops the call from the passes of older architectures.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
template <op_kind Kind, typename WordT>
STRATA_DEVICE STRATA_FORCEINLINE WordT warp_reduce_redux(WordT word, unsigned int member_mask)
{
  if constexpr (Kind == op_kind::plus)
  {
    // Two's complement: the signed sum has the bits of the unsigned one.
    return static_cast<WordT>(WarpReduxAdd(static_cast<unsigned int>(word), member_mask));
  }
  else if constexpr (Kind == op_kind::minimum)
  {
    return WarpReduxMin(word, member_mask);
  }
  else if constexpr (Kind == op_kind::maximum)
  {
    return WarpReduxMax(word, member_mask);
  }
  else if constexpr (Kind == op_kind::bit_and)
  {
    return static_cast<WordT>(WarpReduxAnd(static_cast<unsigned int>(word), member_mask));
  }
  else if constexpr (Kind == op_kind::bit_or)
  {
    return static_cast<WordT>(WarpReduxOr(static_cast<unsigned int>(word), member_mask));
  }
  else
  {
    static_assert(Kind == op_kind::bit_xor, "redux.sync has no such reduction");
    return static_cast<WordT>(WarpReduxXor(static_cast<unsigned int>(word), member_mask));
  }
}
#endif

// -- sums on the fused shuffle-down-add instructions -----------------------------------------------------

// The register type in which ShuffleDownAdd sums a T, or void where none fits. Integers narrower than 32 bits
// are summed in 32 bits: the low bits of a wrapping 32-bit sum are the wrapping narrow sum. 64-bit types keep
// the compare-guarded tree, which measured as fast or faster for them (H200: double partial sums 0.214 ms
// against 0.236 ms fused).
template <typename T, typename Enable = void>
struct warp_reduce_add_word
{
  using type = void;
};
template <typename T>
struct warp_reduce_add_word<
  T, cuda::std::enable_if_t<cuda::std::is_integral<T>::value && !cuda::std::is_same<T, bool>::value
                            && (sizeof(T) <= sizeof(unsigned int))>>
{
  using type = unsigned int;
};
template <>
struct warp_reduce_add_word<float>
{
  using type = float;
};

// True when reducing T with Op is a sum that ShuffleDownAdd computes.
template <typename T, typename Op>
constexpr bool warp_reduce_has_fused_add_v =
  (op_kind_v<Op> == op_kind::plus)
  && warp_reduce_op_applies_to_v<T, Op> && !cuda::std::is_void<typename warp_reduce_add_word<T>::type>::value;

// -- the shuffle tree ------------------------------------------------------------------------------------

template <typename T, int LOGICAL_WARP_THREADS>
struct warp_reduce_shfl
{
  static_assert(cuda::std::has_single_bit(static_cast<unsigned>(LOGICAL_WARP_THREADS))
                  && LOGICAL_WARP_THREADS <= WARP_THREADS,
                "the shuffle reduction needs a power-of-two logical warp of at most 32 lanes");

  static constexpr int STEPS         = cuda::ilog2(LOGICAL_WARP_THREADS);
  static constexpr bool IS_ARCH_WARP = LOGICAL_WARP_THREADS == WARP_THREADS;

  // Shuffles need no shared memory.
  using TempStorage = NullType;

  // Lane within the logical warp.
  unsigned int lane_id;
  // Hardware lane of this logical warp's first lane.
  unsigned int warp_offset;
  // The lanes of this logical warp within the hardware warp.
  unsigned int member_mask;

  STRATA_DEVICE STRATA_FORCEINLINE explicit warp_reduce_shfl(TempStorage& /*temp_storage*/)
      : lane_id(IS_ARCH_WARP ? LaneId() : LaneId() % LOGICAL_WARP_THREADS)
      , warp_offset(IS_ARCH_WARP ? 0u : LaneId() / LOGICAL_WARP_THREADS * LOGICAL_WARP_THREADS)
      , member_mask(LogicalWarpMask<LOGICAL_WARP_THREADS>(LaneId() / LOGICAL_WARP_THREADS))
  {}

  // Reduction of lanes lane_id .. last_lane into lane lane_id (every lane of the logical warp takes part).
  // After step k, lane i holds the reduction of lanes i .. min(i + 2^(k+1), last_lane + 1) - 1: its own span
  // on the left, the span of lane i + 2^k on the right, so operands stay in lane order and lane 0 ends with
  // x0 op x1 op ... op x_last. Lanes past last_lane are never read into a lane at or before it.
  // With ALL_LANES_VALID the guard is dropped: a lane whose partner lies past the logical warp combines with
  // its own (clamped) value and holds a wrong span, but lane 0's result only depends on lanes whose spans end
  // inside the logical warp (at step k it reads lane 2^k, whose span is 2^k .. 2^(k+1) - 1).
  // Bounded sums of 32-bit words take the fused shuffle-add, whose clamp at last_lane is the guard.
  template <bool ALL_LANES_VALID, typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T shuffle_reduce(T input, int last_lane, ReductionOp reduction_op)
  {
    if constexpr (!ALL_LANES_VALID && warp_reduce_has_fused_add_v<T, ReductionOp>)
    {
      using word_t = typename warp_reduce_add_word<T>::type;
      word_t word  = static_cast<word_t>(input);
      STRATA_UNROLL
      for (int step = 0; step < STEPS; ++step)
      {
        word = ShuffleDownAdd<LOGICAL_WARP_THREADS>(word, 1 << step, last_lane, member_mask);
      }
      return static_cast<T>(word);
    }
    else
    {
      // How many lanes after this one it may read: one subtraction instead of an addition per step.
      const int reach = last_lane - static_cast<int>(lane_id);
      STRATA_UNROLL
      for (int step = 0; step < STEPS; ++step)
      {
        const int offset = 1 << step;
        const T peer     = ShuffleDown<LOGICAL_WARP_THREADS>(input, offset, LOGICAL_WARP_THREADS - 1, member_mask);
        if (ALL_LANES_VALID || offset <= reach)
        {
          input = static_cast<T>(reduction_op(input, peer));
        }
      }
      return input;
    }
  }

  // Reduction of the first `valid_items` lanes (all of them when ALL_LANES_VALID), valid in lane 0.
  template <bool ALL_LANES_VALID, typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T reduce(T input, int valid_items, ReductionOp reduction_op)
  {
    [[maybe_unused]] const int last_lane =
      warp_reduce_last_valid_lane<LOGICAL_WARP_THREADS, ALL_LANES_VALID>(valid_items);
    if constexpr (LOGICAL_WARP_THREADS == 1)
    {
      return input;
    }
    else if constexpr (IS_ARCH_WARP && warp_reduce_has_redux_v<T, ReductionOp>)
    {
      // Only for a whole warp: redux.sync over several logical warps' masks at once is slower than the tree
      // (H200, 512 rounds of 16-lane int sums on 1320x256 threads: 0.236 ms, against 0.180 ms for the tree
      // and 0.044 ms for 32-lane redux.sync).
      NV_IF_TARGET(NV_PROVIDES_SM_80,
                   (return static_cast<T>(warp_reduce_redux<op_kind_v<ReductionOp>>(
                     warp_reduce_redux_input<ALL_LANES_VALID, ReductionOp>(input, lane_id, valid_items),
                     member_mask));),
                   (return shuffle_reduce<ALL_LANES_VALID>(input, last_lane, reduction_op);));
    }
    else
    {
      return shuffle_reduce<ALL_LANES_VALID>(input, last_lane, reduction_op);
    }
  }

  // Segmented reduction: each lane reduces itself and the lanes after it up to the end of its segment, so the
  // first lane of every segment (lane 0 always counts as one) ends with its segment's reduction. Head flags
  // mark a segment's first lane, tail flags its last lane (the next lane starts a segment).
  template <bool HEAD_SEGMENTED, typename FlagT, typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T segmented_reduce(T input, FlagT flag, ReductionOp reduction_op)
  {
    if constexpr (LOGICAL_WARP_THREADS == 1)
    {
      return input;
    }
    else
    {
      // Bit j of `starts`: logical lane j begins a segment.
      unsigned int starts = (WarpBallot(static_cast<bool>(flag), member_mask) & member_mask) >> warp_offset;
      if constexpr (!HEAD_SEGMENTED)
      {
        starts <<= 1;
      }
      // Only starts after this lane bound its segment; the end of the logical warp bounds the last one.
      starts &= LaneMaskGt() >> warp_offset;
      if constexpr (LOGICAL_WARP_THREADS < WARP_THREADS)
      {
        starts |= 1u << LOGICAL_WARP_THREADS;
      }
      // countr_zero(0) is 32: a full warp with no later start ends at lane 31.
      const int last_lane = cuda::std::countr_zero(starts) - 1;
      // Every lane of lane_id's span lies in its segment and has the same segment end, so the bounded tree
      // above reduces each lane's suffix of its segment.
      return shuffle_reduce<false>(input, last_lane, reduction_op);
    }
  }
};

} // namespace detail
STRATA_NAMESPACE_END
