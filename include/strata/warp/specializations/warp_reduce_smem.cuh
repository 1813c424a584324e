// WarpReduce for logical warps whose size is not a power of two: a reduction tree through shared memory.
//
// Shuffle segments only come in powers of two, so these logical warps exchange partials through shared
// memory instead. The logical warp is the first LOGICAL_WARP_THREADS lanes of a hardware warp; the other
// lanes of that hardware warp do not take part. Integer reductions that the hardware performs in one
// instruction (redux.sync, sm_80 and newer) take that instruction instead, over the logical warp's lanes.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/warp/specializations/warp_reduce_shfl.cuh>

#include <cuda/std/bit>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

template <typename T, int LOGICAL_WARP_THREADS>
struct warp_reduce_smem
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= WARP_THREADS, "logical warp of 1..32 lanes");

  static constexpr int STEPS = log2_ceil(LOGICAL_WARP_THREADS);

  // Partials of trivially copyable types move through shared memory as whole words of 16, 8 or 4 bytes, so a
  // struct costs one or two accesses per step rather than one per member and padding gap.
  using cell_word_t =
    cuda::std::conditional_t<sizeof(T) % 16 == 0, uint4,
                             cuda::std::conditional_t<sizeof(T) % 8 == 0, unsigned long long, unsigned int>>;
  static constexpr int CELL_WORDS = static_cast<int>(cuda::ceil_div(sizeof(T), sizeof(cell_word_t)));
  static constexpr bool AS_WORDS  = cuda::std::is_trivially_copyable<T>::value;
  struct word_cell
  {
    cell_word_t words[CELL_WORDS];
  };
  using cell_t = cuda::std::conditional_t<AS_WORDS, word_cell, T>;

  // Two buffers used in turn, one per step. A lane writes the buffer of step k+1 only after the barrier of
  // step k, which every lane reaches only after reading the buffer of step k-1 (the same buffer): one barrier
  // per step is enough, where a single buffer would need a second one before each overwrite.
  struct TempStorage
  {
    cell_t buffer[2][LOGICAL_WARP_THREADS];
  };

  TempStorage& storage;
  // Lane within the logical warp (the hardware lane: the logical warp starts at lane 0).
  unsigned int lane_id;
  // Lanes 0 .. LOGICAL_WARP_THREADS-1.
  unsigned int member_mask;

  STRATA_DEVICE STRATA_FORCEINLINE explicit warp_reduce_smem(TempStorage& temp_storage)
      : storage(temp_storage)
      , lane_id(LaneId())
      , member_mask(0xffffffffu >> (WARP_THREADS - LOGICAL_WARP_THREADS))
  {}

  STRATA_DEVICE STRATA_FORCEINLINE static void store(cell_t& cell, const T& value)
  {
    if constexpr (AS_WORDS)
    {
      // The bytes of the last word past T (sizes that are not a multiple of 4) are zeroed, not left undefined.
      word_cell words;
      words.words[CELL_WORDS - 1] = cell_word_t{};
      memcpy(&words, &value, sizeof(T));
      cell = words;
    }
    else
    {
      cell = value;
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE static T load(const cell_t& cell)
  {
    if constexpr (AS_WORDS)
    {
      const word_cell words = cell;
      T value;
      memcpy(&value, &words, sizeof(T));
      return value;
    }
    else
    {
      return cell;
    }
  }

  // Reduction of lanes lane_id .. last_lane into lane lane_id. After step k, lane i holds the reduction of
  // lanes i .. min(i + 2^(k+1), last_lane + 1) - 1: its own span on the left, the span of lane i + 2^k on the
  // right, so operands stay in lane order and lane 0 ends with x0 op x1 op ... op x_last. Lanes past
  // last_lane are never read, so the buffers need no padding past the logical warp.
  template <typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T tree_reduce(T input, int last_lane, ReductionOp reduction_op)
  {
    // How many lanes after this one it may read: one subtraction instead of an addition per step.
    const int reach = last_lane - static_cast<int>(lane_id);
    STRATA_UNROLL
    for (int step = 0; step < STEPS; ++step)
    {
      const int offset = 1 << step;
      cell_t* cells    = storage.buffer[step & 1];
      store(cells[lane_id], input);
      WarpSync(member_mask);
      if (offset <= reach)
      {
        input = static_cast<T>(reduction_op(input, load(cells[lane_id + offset])));
      }
    }
    return input;
  }

  // Reduction of the first `valid_items` lanes (all of them when ALL_LANES_VALID), valid in lane 0.
  template <bool ALL_LANES_VALID, typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T reduce(T input, int valid_items, ReductionOp reduction_op)
  {
    [[maybe_unused]] const int last_lane =
      warp_reduce_last_valid_lane<LOGICAL_WARP_THREADS, ALL_LANES_VALID>(valid_items);
    if constexpr (warp_reduce_has_redux_v<T, ReductionOp>)
    {
      // One logical warp per hardware warp, so one member mask: redux.sync runs at full speed here (H200,
      // 31-lane int sums: 0.044 ms against 0.222 ms for CUB's shared-memory tree).
      NV_IF_TARGET(NV_PROVIDES_SM_80,
                   (return static_cast<T>(warp_reduce_redux<op_kind_v<ReductionOp>>(
                     warp_reduce_redux_input<ALL_LANES_VALID, ReductionOp>(input, lane_id, valid_items),
                     member_mask));),
                   (return tree_reduce(input, last_lane, reduction_op);));
    }
    else
    {
      return tree_reduce(input, last_lane, reduction_op);
    }
  }

  // Segmented reduction: each lane reduces itself and the lanes after it up to the end of its segment, so the
  // first lane of every segment (lane 0 always counts as one) ends with its segment's reduction. Head flags
  // mark a segment's first lane, tail flags its last lane (the next lane starts a segment).
  template <bool HEAD_SEGMENTED, typename FlagT, typename ReductionOp>
  STRATA_DEVICE STRATA_FORCEINLINE T segmented_reduce(T input, FlagT flag, ReductionOp reduction_op)
  {
    // Bit j of `starts`: lane j begins a segment.
    unsigned int starts = WarpBallot(static_cast<bool>(flag), member_mask) & member_mask;
    if constexpr (!HEAD_SEGMENTED)
    {
      starts <<= 1;
    }
    // Only starts after this lane bound its segment; the end of the logical warp bounds the last one.
    starts &= LaneMaskGt();
    if constexpr (LOGICAL_WARP_THREADS < WARP_THREADS)
    {
      starts |= 1u << LOGICAL_WARP_THREADS;
    }
    const int last_lane = cuda::std::countr_zero(starts) - 1;
    // Every lane of lane_id's span lies in its segment and has the same segment end, so the bounded tree
    // reduces each lane's suffix of its segment.
    return tree_reduce(input, last_lane, reduction_op);
  }
};

} // namespace detail
STRATA_NAMESPACE_END
