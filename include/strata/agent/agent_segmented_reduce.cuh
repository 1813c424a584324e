// AgentSegmentedReduce: the block-wide body of DeviceSegmentedReduce's kernel.
//
// The work of a segmented reduction is a merge of two lists: the items of all segments, one after the other (the
// prefix sum P of the segments' lengths numbers them: segment s holds items [P[s], P[s + 1])), and the segments'
// ends. Item i of segment s and the end of segment s are the steps at merged positions i + s and P[s + 1] + s.
// One wave of blocks splits the merged list evenly (a block finds its first step with a search of P), so that every
// block has the same number of items plus segment ends, whatever the lengths: a block walks its steps in sub-tiles
// of BLOCK_THREADS x ITEMS_PER_THREAD; each thread takes ITEMS_PER_THREAD consecutive steps, folding items and
// closing a segment at each end, and a block-wide scan under a segmented operator carries the open segment's value
// from thread to thread. Where the block's steps hold many items of one segment in a row, they are reduced as
// DeviceReduce reduces (AgentReduce: vectors, striped). A segment that starts and ends in one block is written by
// it; one that crosses blocks leaves a record of its part at each block's edge, and one more block combines the
// records in block order. Every split depends only on the input and the grid, so results are the same bits run to
// run.
#pragma once

#include <strata/agent/agent_reduce.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentSegmentedReduce: ITEMS_PER_THREAD merged steps (items or segment ends) per thread and
// sub-tile, at most SEGMENTS_PER_TILE segment ends per sub-tile (their offsets are staged in shared memory),
// ReducePolicy's AgentReduce for runs of at least FAST_ITEMS items of one segment, MIN_BLOCKS_PER_SM for the
// registers and the wave.
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, int SEGMENTS_PER_TILE_, int FAST_ITEMS_, int MIN_BLOCKS_PER_SM_,
          typename ReducePolicyT>
struct AgentSegmentedReducePolicy
{
  static constexpr int BLOCK_THREADS     = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD  = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS        = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int SEGMENTS_PER_TILE = SEGMENTS_PER_TILE_;
  static constexpr int FAST_ITEMS        = FAST_ITEMS_;
  static constexpr int MIN_BLOCKS_PER_SM = MIN_BLOCKS_PER_SM_;
  using ReducePolicy                     = ReducePolicyT;
  static_assert(ReducePolicyT::BLOCK_THREADS == BLOCK_THREADS, "the long runs are reduced by the same block");
};

namespace detail
{
namespace segmented_reduce
{
// The positions in the merged list and in the items of all segments.
using position_t = long long;

// Part of one segment's reduction: `value` when `valid` (no items and no initial value: not valid), and whether the
// segment started inside the block that holds it (so nothing before the block belongs to it).
template <typename AccumT>
struct partial
{
  AccumT value;
  bool valid;
  bool reset;
};

// Combines parts in merged order: a part that starts a segment replaces what came before it.
template <typename ReductionOpT>
struct partial_op
{
  mutable ReductionOpT op;
  template <typename AccumT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE partial<AccumT> operator()(const partial<AccumT>& a,
                                                                   const partial<AccumT>& b) const
  {
    if (b.reset)
    {
      return b;
    }
    if (!b.valid)
    {
      return a;
    }
    if (!a.valid)
    {
      return partial<AccumT>{b.value, true, a.reset};
    }
    return partial<AccumT>{static_cast<AccumT>(op(a.value, b.value)), true, a.reset};
  }
};

// A block's part of a segment that crosses its edge (segment < 0: none).
template <typename AccumT>
struct record
{
  position_t segment;
  partial<AccumT> part;
};

// How a segment's items become accumulator values: the items themselves, or (ArgMin, ArgMax) an item paired with
// its position in its segment.
struct plain_items
{
  static constexpr bool POSITIONS = false;
  template <typename AccumT, typename InputT>
  static STRATA_DEVICE STRATA_FORCEINLINE AccumT make(const InputT& item, position_t)
  {
    return static_cast<AccumT>(item);
  }
  // AgentReduce's transform over a run of one segment whose first item is at index `first` of the run's iterator.
  static STRATA_DEVICE STRATA_FORCEINLINE Identity transform(position_t)
  {
    return {};
  }
};

template <typename KeyT, typename ValueT>
struct arg_items
{
  static constexpr bool POSITIONS = true;
  template <typename AccumT, typename InputT>
  static STRATA_DEVICE STRATA_FORCEINLINE AccumT make(const InputT& item, position_t position)
  {
    return AccumT(static_cast<KeyT>(position), static_cast<ValueT>(item));
  }
  struct shifted
  {
    using indexed_transform = void;
    position_t base;
    template <typename OffsetT, typename InputT>
    STRATA_HOST_DEVICE STRATA_FORCEINLINE KeyValuePair<KeyT, ValueT> operator()(OffsetT index, const InputT& item) const
    {
      return KeyValuePair<KeyT, ValueT>(static_cast<KeyT>(base + static_cast<position_t>(index)),
                                        static_cast<ValueT>(item));
    }
  };
  static STRATA_DEVICE STRATA_FORCEINLINE shifted transform(position_t first)
  {
    return shifted{first};
  }
};

// The first step at or after merged position `diagonal`: the number of segments whose ends come before it. P holds
// num_segments + 1 prefix sums; the block searches together, BLOCK_THREADS probes a round.
template <int BLOCK_THREADS>
STRATA_DEVICE STRATA_FORCEINLINE position_t merge_path_search(const position_t* d_prefix, position_t num_segments,
                                                              position_t diagonal)
{
  // The answer is the smallest s in [lo, hi] with P[s + 1] + s >= diagonal (s == num_segments: none is).
  position_t lo = 0;
  position_t hi = num_segments;
  while (lo < hi)
  {
    const position_t span  = hi - lo;
    const position_t step  = (span + BLOCK_THREADS - 1) / BLOCK_THREADS;
    const position_t probe = lo + static_cast<position_t>(threadIdx.x) * step;
    const bool before      = probe < hi && d_prefix[probe + 1] + probe < diagonal;
    const int count        = __syncthreads_count(before);
    // Probes lo, lo + step, ... before the answer are `before`; the answer is past the last of them.
    const position_t new_lo = count == 0 ? lo : lo + static_cast<position_t>(count - 1) * step + 1;
    const position_t new_hi = lo + static_cast<position_t>(count) * step;
    lo                      = new_lo;
    hi                      = new_hi < hi ? new_hi : hi;
  }
  return lo;
}
} // namespace segmented_reduce
} // namespace detail

// InitT: the initial value, or a detail::reduce::empty_value (ArgMin, ArgMax: only the output of an empty segment).
// ItemsT: detail::segmented_reduce::plain_items or arg_items.
template <typename PolicyT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename AccumT, typename ReductionOpT, typename InitT, typename ItemsT>
class AgentSegmentedReduce
{
  static constexpr int BLOCK_THREADS     = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD  = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS        = PolicyT::TILE_ITEMS;
  static constexpr int SEGMENTS_PER_TILE = PolicyT::SEGMENTS_PER_TILE;
  static_assert(ITEMS_PER_THREAD <= 32, "a thread's steps are one bit each of a 32-bit mask");

  using position_t = detail::segmented_reduce::position_t;
  using InputT     = detail::it_value_t<InputIteratorT>;
  using PartialT   = detail::segmented_reduce::partial<AccumT>;
  using PartialOpT = detail::segmented_reduce::partial_op<ReductionOpT>;
  using RecordT    = detail::segmented_reduce::record<AccumT>;
  using BlockScanT = BlockScan<PartialT, BLOCK_THREADS>;
  using TransformT = decltype(ItemsT::transform(position_t{}));
  using FastReduceT =
    AgentReduce<typename PolicyT::ReducePolicy, InputIteratorT, AccumT, position_t, ReductionOpT, TransformT>;

  static constexpr bool EMPTY_VALUE = detail::reduce::is_empty_value<InitT>::value;

public:
  struct TempStorage
  {
    union
    {
      struct
      {
        // The sub-tile's segments s + k, relative to its first item i: where each ends (P[s + k + 1] - i, at most
        // TILE_ITEMS + 1), the index in d_in of item i's place in it (its begin offset - P[s + k] + i) and, for
        // positions, i's position in it (i - P[s + k]).
        int end[SEGMENTS_PER_TILE];
        position_t base[SEGMENTS_PER_TILE];
        position_t position[ItemsT::POSITIONS ? SEGMENTS_PER_TILE : 1];
      } window;
      typename BlockScanT::TempStorage scan;
      typename FastReduceT::TempStorage fast;
    };
    PartialT carry;
    RecordT head;
    position_t step_segment; // the sub-tile's last step: its segment and item
    position_t step_item;
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentSegmentedReduce(TempStorage& temp_storage, InputIteratorT d_in,
                                                        OutputIteratorT d_out, BeginOffsetIteratorT d_begin_offsets,
                                                        const position_t* d_prefix, position_t num_segments,
                                                        ReductionOpT op, InitT init)
      : temp_storage_(temp_storage)
      , d_in_(d_in)
      , d_out_(d_out)
      , d_begin_(d_begin_offsets)
      , d_prefix_(d_prefix)
      , num_segments_(num_segments)
      , op_(op)
      , init_(init)
  {}

  // Walks the merged steps [diagonal_begin, diagonal_end); writes the segments that start and end in them and the
  // records of the parts of those that cross their edges (d_records[0]: the part before the first end, [1]: after
  // the last).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(position_t diagonal_begin, position_t diagonal_end,
                                                     RecordT* d_records)
  {
    position_t segment =
      detail::segmented_reduce::merge_path_search<BLOCK_THREADS>(d_prefix_, num_segments_, diagonal_begin);
    position_t item = diagonal_begin - segment;
    const position_t end_segment =
      detail::segmented_reduce::merge_path_search<BLOCK_THREADS>(d_prefix_, num_segments_, diagonal_end);
    const position_t end_item = diagonal_end - end_segment;

    // The segment open at the first step started in this block when the step is its first item (or its end).
    if (threadIdx.x == 0)
    {
      const bool fresh    = segment < num_segments_ && item == d_prefix_[segment];
      temp_storage_.carry = fresh ? fresh_part() : PartialT{AccumT{}, false, false};
      temp_storage_.head  = RecordT{-1, PartialT{AccumT{}, false, false}};
    }
    __syncthreads();

    position_t diagonal = diagonal_begin;
    while (diagonal < diagonal_end)
    {
      // A long run of one segment's items: AgentReduce.
      const position_t segment_end = d_prefix_[segment + 1];
      const position_t run_end     = segment < end_segment ? segment_end : end_item;
      const position_t run         = run_end - item;
      if (run >= position_t(PolicyT::FAST_ITEMS))
      {
        consume_run(segment, item, run);
        item += run;
        diagonal += run;
        continue;
      }
      consume_tile(segment, item, diagonal, diagonal_end);
      segment  = temp_storage_.step_segment;
      item     = temp_storage_.step_item;
      diagonal = segment + item;
      __syncthreads();
    }

    if (threadIdx.x == 0)
    {
      d_records[0] = temp_storage_.head;
      // The segment open after the last step goes on in the next block unless that block starts it.
      const bool open = end_segment < num_segments_ && end_item > d_prefix_[end_segment];
      d_records[1] = open ? RecordT{end_segment, temp_storage_.carry} : RecordT{-1, PartialT{AccumT{}, false, false}};
    }
  }

private:
  // A segment's part before any of its items: the initial value (nothing, where it only stands for no items).
  STRATA_DEVICE STRATA_FORCEINLINE PartialT fresh_part() const
  {
    if constexpr (EMPTY_VALUE)
    {
      return PartialT{AccumT{}, false, true};
    }
    else
    {
      return PartialT{static_cast<AccumT>(init_), true, true};
    }
  }

  // What a segment's reduction writes for its final part.
  STRATA_DEVICE STRATA_FORCEINLINE void write(position_t segment, const PartialT& part)
  {
    using OutputT = detail::non_void_value_t<OutputIteratorT, AccumT>;
    if (part.valid)
    {
      d_out_[segment] = static_cast<OutputT>(part.value);
    }
    else
    {
      d_out_[segment] = static_cast<OutputT>(detail::reduce::empty_result(init_));
    }
  }

  // Items [item, item + run) of `segment`, all in this block: folded into the carry.
  STRATA_DEVICE STRATA_FORCEINLINE void consume_run(position_t segment, position_t item, position_t run)
  {
    position_t base  = item - d_prefix_[segment]; // the run's first position in its segment
    position_t first = static_cast<position_t>(d_begin_[segment]) + base;
    // An array is read as 16-byte vectors from its first aligned item on; thread 0 folds the few before it.
    int peel = 0;
    if constexpr (detail::is_vectorizable_input_v<InputIteratorT>)
    {
      const int misaligned = static_cast<int>(reinterpret_cast<cuda::std::uintptr_t>(d_in_ + first) % 16);
      peel                 = misaligned == 0 ? 0 : (16 - misaligned) / static_cast<int>(sizeof(InputT));
    }
    const PartialOpT pop{op_};
    PartialT carry = temp_storage_.carry;
    if (threadIdx.x == 0)
    {
      for (int j = 0; j < peel; ++j)
      {
        carry = pop(carry, PartialT{ItemsT::template make<AccumT>(InputT(d_in_[first + j]), base + j), true, false});
      }
    }
    base += peel;
    first += peel;
    const AccumT aggregate = FastReduceT(temp_storage_.fast, d_in_ + first, op_, ItemsT::transform(base))
                               .ConsumeRange(position_t(0), run - peel);
    if (threadIdx.x == 0)
    {
      temp_storage_.carry = pop(carry, PartialT{aggregate, true, false});
    }
    __syncthreads();
  }

  // One sub-tile from step (segment, item) at `diagonal`: at most TILE_ITEMS steps and SEGMENTS_PER_TILE ends, not
  // past `diagonal_end`. Leaves the step after it in temp_storage_.step_segment / step_item. Steps and items are
  // counted from the sub-tile's first (32-bit).
  STRATA_DEVICE STRATA_FORCEINLINE void consume_tile(position_t segment, position_t item, position_t diagonal,
                                                     position_t diagonal_end)
  {
    // Stage the sub-tile's segments.
    const position_t left   = num_segments_ - segment;
    const int segments      = left < position_t(SEGMENTS_PER_TILE) ? static_cast<int>(left) : SEGMENTS_PER_TILE;
    int* const ends         = temp_storage_.window.end;
    position_t* const bases = temp_storage_.window.base;
    for (int k = static_cast<int>(threadIdx.x); k < segments; k += BLOCK_THREADS)
    {
      const position_t start = d_prefix_[segment + k];
      const position_t stop  = d_prefix_[segment + k + 1] - item;
      ends[k]                = stop < position_t(TILE_ITEMS + 1) ? static_cast<int>(stop) : TILE_ITEMS + 1;
      bases[k]               = static_cast<position_t>(d_begin_[segment + k]) - start + item;
      if constexpr (ItemsT::POSITIONS)
      {
        temp_storage_.window.position[k] = item - start;
      }
    }
    __syncthreads();

    // The sub-tile ends after TILE_ITEMS steps, at the block's end, or after the last staged segment's end (the end
    // of staged segment k is step ends[k] + k).
    const position_t to_block_end = diagonal_end - diagonal;
    int tile_end                  = to_block_end < position_t(TILE_ITEMS) ? static_cast<int>(to_block_end) : TILE_ITEMS;
    if (segments > 0)
    {
      const int window_end = ends[segments - 1] + segments;
      tile_end             = tile_end < window_end ? tile_end : window_end;
    }

    // The thread's first step: the staged segment k whose end is the first at or after it.
    const int first = static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD;
    const int k     = local_search(ends, segments, first);
    const int at    = first - k; // the item of the thread's first step

    // Classify the steps (bit j: step j is an item) and read the items.
    unsigned int items_mask = 0;
    unsigned int valid_mask = 0;
    InputT values[ITEMS_PER_THREAD];
    {
      int kk = k;
      int ii = at;
      STRATA_UNROLL
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        if (first + j < tile_end)
        {
          valid_mask |= 1u << j;
          if (kk < segments && ii < ends[kk])
          {
            items_mask |= 1u << j;
            values[j] = d_in_[bases[kk] + ii];
            ++ii;
          }
          else
          {
            ++kk;
          }
        }
      }
    }

    // Fold: the part before the thread's first end (head), the segments that start and end in the thread
    // (written), and the part after its last end.
    PartialT acc{AccumT{}, false, false};
    PartialT head{AccumT{}, false, false};
    int head_k = -1;
    const PartialOpT pop{op_};
    {
      int kk = k;
      int ii = at;
      STRATA_UNROLL
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        if (valid_mask >> j & 1u)
        {
          if (items_mask >> j & 1u)
          {
            position_t position = 0;
            if constexpr (ItemsT::POSITIONS)
            {
              position = temp_storage_.window.position[kk] + ii;
            }
            acc = pop(acc, PartialT{ItemsT::template make<AccumT>(values[j], position), true, false});
            ++ii;
          }
          else
          {
            if (head_k < 0)
            {
              head   = acc;
              head_k = kk;
            }
            else
            {
              write(segment + kk, acc);
            }
            acc = fresh_part();
            ++kk;
          }
        }
      }
    }

    // The step after the sub-tile, from the thread that took its last step.
    if (first < tile_end && first + ITEMS_PER_THREAD >= tile_end)
    {
      const unsigned int taken   = (tile_end - first) >= 32 ? 0xffffffffu : (1u << (tile_end - first)) - 1u;
      const int items            = __popc(items_mask & taken);
      temp_storage_.step_segment = segment + k + (tile_end - first - items);
      temp_storage_.step_item    = item + at + items;
    }

    // Carry the open segments' parts across the threads, from the sub-tile's carry.
    __syncthreads(); // the window is read; the scan reuses it
    PartialT carry_in;
    PartialT aggregate;
    BlockScanT(temp_storage_.scan).ExclusiveScan(acc, carry_in, temp_storage_.carry, pop, aggregate);
    if (head_k >= 0)
    {
      const PartialT whole = pop(carry_in, head);
      if (whole.reset)
      {
        write(segment + head_k, whole);
      }
      else
      {
        temp_storage_.head = RecordT{segment + head_k, whole};
      }
    }
    const PartialT carry = pop(temp_storage_.carry, aggregate);
    __syncthreads();
    if (threadIdx.x == 0)
    {
      temp_storage_.carry = carry;
    }
    __syncthreads();
  }

  // The staged segment k (0..segments) of the step `step` of the sub-tile: the first whose end (step ends[k] + k) is
  // at or after it (segments: none of the staged ones).
  STRATA_DEVICE STRATA_FORCEINLINE static int local_search(const int* ends, int segments, int step)
  {
    int lo = 0;
    int hi = segments;
    while (lo < hi)
    {
      const int mid = (lo + hi) / 2;
      if (ends[mid] + mid < step)
      {
        lo = mid + 1;
      }
      else
      {
        hi = mid;
      }
    }
    return lo;
  }

  TempStorage& temp_storage_;
  InputIteratorT d_in_;
  OutputIteratorT d_out_;
  BeginOffsetIteratorT d_begin_;
  const position_t* d_prefix_;
  position_t num_segments_;
  ReductionOpT op_;
  InitT init_;
};

STRATA_NAMESPACE_END
