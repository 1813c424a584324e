// AgentSegmentedReduce: the block-wide body of DeviceSegmentedReduce's kernel.
//
// The work of a segmented reduction is a merge of two lists: the items of all segments, one after the other (the
// prefix sum P of the segments' lengths numbers them: segment s holds items [P(s), P(s + 1))), and the segments'
// ends. Item i of segment s and the end of segment s are the steps at merged positions i + s and P(s + 1) + s.
// One wave of blocks splits the merged list evenly, and each block splits its share evenly between its warps (each
// finds its first step with a search of P), so that every warp has the same number of items plus segment ends,
// whatever the lengths. A warp walks its share on its own, with no block-wide barrier: in sub-tiles of 32 x
// ITEMS_PER_THREAD items and the segment ends among them, whose ends (and items, where the segments lie back to back)
// are read coalesced into shared memory while the sub-tile before is folded; each lane folds its items, closing a
// segment at each end, and a warp scan under a segmented operator carries the open segment's value from lane to lane
// and on to the next sub-tile. Where the segments do not lie back to back, each lane gathers its items through the
// begin offsets. A long run of one segment's items is read in 16-byte vectors. A segment that starts and ends in one
// warp's share is written by that warp; one that crosses shares leaves a record of its part at each edge, and one
// more block combines the records in order. Every split depends only on the input and the grid, so results are the
// same bits run to run.
#pragma once

#include <strata/agent/agent_reduce.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/even_share.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/warp_scan.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentSegmentedReduce: BLOCK_THREADS threads whose warps each walk their own share, in
// sub-tiles of 32 x ITEMS_PER_THREAD items and at most SEGMENTS_PER_TILE segment ends (staged in shared memory);
// runs of at least FAST_ITEMS items of one segment are read in 16-byte vectors; MIN_BLOCKS_PER_SM for the registers
// and the wave.
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, int SEGMENTS_PER_TILE_, int FAST_ITEMS_, int MIN_BLOCKS_PER_SM_>
struct AgentSegmentedReducePolicy
{
  static constexpr int BLOCK_THREADS     = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD  = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS        = 32 * ITEMS_PER_THREAD; // one warp's sub-tile
  static constexpr int SEGMENTS_PER_TILE = SEGMENTS_PER_TILE_;
  static constexpr int FAST_ITEMS        = FAST_ITEMS_;
  static constexpr int MIN_BLOCKS_PER_SM = MIN_BLOCKS_PER_SM_;
  static_assert(BLOCK_THREADS % 32 == 0, "whole warps");
};

namespace detail
{
namespace segmented_reduce
{
// The positions in the merged list and in the items of all segments.
using position_t = long long;

// Part of one segment's reduction: `value` when `valid` (no items and no initial value: not valid), and whether the
// segment started inside the warp's share that holds it (so nothing before it belongs to it).
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

// A warp's part of a segment that crosses an edge of its share (segment < 0: none).
template <typename AccumT>
struct record
{
  position_t segment;
  partial<AccumT> part;
};

// What a segment's reduction writes for its final part: its value, or the output of no items (init, or the
// empty value's output) where it has none.
template <typename OutputT, typename AccumT, typename InitT>
STRATA_DEVICE STRATA_FORCEINLINE OutputT result_of(const partial<AccumT>& part, const InitT& init)
{
  return part.valid ? static_cast<OutputT>(part.value) : static_cast<OutputT>(reduce::empty_result(init));
}

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
};

// P, the prefix sums of the segments' lengths (P(s): the items of the segments before s), as the agent reads it.
// scanned_prefix: the scan of the lengths, one 64-bit word per segment and one more: P(s) in the low 62 bits and, in
// bit 62, whether the offsets broke contiguity before segment s (a segment that does not begin where the one before
// it ends, or ends before it begins). Where the last word has no break, the items of all segments lie back to back
// from d_in[begin[0]] on.
struct scanned_prefix
{
  static constexpr position_t BREAK = position_t(1) << 62;
  const position_t* words;
  STRATA_DEVICE STRATA_FORCEINLINE position_t operator()(position_t s) const
  {
    return words[s] & (BREAK - 1);
  }
  STRATA_DEVICE STRATA_FORCEINLINE bool contiguous(position_t num_segments) const
  {
    return (words[num_segments] & BREAK) == 0;
  }
};

// Segments of `size` items each, back to back.
struct fixed_prefix
{
  position_t size;
  STRATA_DEVICE STRATA_FORCEINLINE position_t operator()(position_t s) const
  {
    return s * size;
  }
  STRATA_DEVICE STRATA_FORCEINLINE bool contiguous(position_t) const
  {
    return true;
  }
};

// The segment of merged position `diagonal`: the smallest s in [lo, hi] with P(s + 1) + s >= diagonal, when the
// answer lies in [lo, hi]. THREADS threads (rank 0..THREADS-1) search together, one probe each a round; count(pred)
// counts the threads whose probe lies before the answer (__syncthreads_count for a block, a ballot for a warp).
template <int THREADS, typename PrefixT, typename CountT>
STRATA_DEVICE STRATA_FORCEINLINE position_t merge_path_search(const PrefixT& prefix, position_t lo, position_t hi,
                                                              position_t diagonal, int rank, CountT count)
{
  while (lo < hi)
  {
    const position_t span  = hi - lo;
    const position_t step  = (span + THREADS - 1) / THREADS;
    const position_t probe = lo + static_cast<position_t>(rank) * step;
    const int before       = count(probe < hi && prefix(probe + 1) + probe < diagonal);
    // Probes lo, lo + step, ... before the answer are `before`; the answer is past the last of them.
    const position_t new_lo = before == 0 ? lo : lo + static_cast<position_t>(before - 1) * step + 1;
    const position_t new_hi = lo + static_cast<position_t>(before) * step;
    lo                      = new_lo;
    hi                      = new_hi < hi ? new_hi : hi;
  }
  return lo;
}
} // namespace segmented_reduce
} // namespace detail

// PrefixT: detail::segmented_reduce::scanned_prefix or fixed_prefix. InitT: the initial value, or a
// detail::reduce::empty_value (ArgMin, ArgMax: only the output of an empty segment). ItemsT:
// detail::segmented_reduce::plain_items or arg_items.
template <typename PolicyT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename PrefixT, typename AccumT, typename ReductionOpT, typename InitT, typename ItemsT>
class AgentSegmentedReduce
{
  static constexpr int BLOCK_THREADS     = PolicyT::BLOCK_THREADS;
  static constexpr int WARPS             = BLOCK_THREADS / 32;
  static constexpr int ITEMS_PER_THREAD  = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS        = 32 * ITEMS_PER_THREAD;
  static constexpr int SEGMENTS_PER_TILE = PolicyT::SEGMENTS_PER_TILE;
  static constexpr int SEGMENTS_PER_LANE = SEGMENTS_PER_TILE / 32;
  static_assert(ITEMS_PER_THREAD < 32, "the ends in a lane's items are bits 0..ITEMS_PER_THREAD of a 32-bit mask");
  static_assert(SEGMENTS_PER_TILE % 32 == 0, "every lane stages the same number of segment ends");
  // A staged end this far (or farther) past the sub-tile's first item is past every sub-tile.
  static constexpr int FAR = 1 << 30;
  // The staged items, one padding slot after every 32, so that lanes reading runs of consecutive items hit different
  // banks.
  static constexpr int PADDED_ITEMS = TILE_ITEMS + TILE_ITEMS / 32;

  using position_t = detail::segmented_reduce::position_t;
  using InputT     = detail::it_value_t<InputIteratorT>;
  using PartialT   = detail::segmented_reduce::partial<AccumT>;
  using PartialOpT = detail::segmented_reduce::partial_op<ReductionOpT>;
  using RecordT    = detail::segmented_reduce::record<AccumT>;
  using WarpScanT  = WarpScan<PartialT>;

  // Long runs of an array are read in 16-byte vectors, RUN_VECTORS per lane in flight.
  static constexpr bool VECTORIZE       = detail::is_vectorizable_input_v<InputIteratorT>;
  static constexpr int ITEMS_PER_VECTOR = VECTORIZE ? 16 / static_cast<int>(sizeof(InputT)) : 1;
  static constexpr int RUN_VECTORS      = 4;
  static_assert(PolicyT::TILE_ITEMS == TILE_ITEMS, "a warp's sub-tile");
  struct alignas(16) vector_t
  {
    InputT items[ITEMS_PER_VECTOR];
  };

  static constexpr bool EMPTY_VALUE = detail::reduce::is_empty_value<InitT>::value;

  // Where a sub-tile starts: item `item` (counted over all segments) of `segment`, or the end of `segment` when it
  // has no items left; `start` is P(segment). `window`: how many segment ends the sub-tile stages.
  struct cursor
  {
    position_t segment;
    position_t item;
    position_t start;
    int window;
  };

  // What a sub-tile needs from global memory, loaded before the sub-tile before it is folded: the ends P(s + k + 1)
  // of its segments (k striped over the lanes) and, where the items lie back to back, its items (striped).
  struct loads
  {
    position_t ends[SEGMENTS_PER_LANE];
    InputT items[ITEMS_PER_THREAD];
  };

  // One warp's shared memory.
  struct WarpStorage
  {
    // The sub-tile's segments s + k, relative to its first item i: where each ends (P(s + k + 1) - i, at most FAR);
    // the ends among lane l's items (bit j: one before item l * ITEMS_PER_THREAD + j) and the first segment k ending
    // there; and either the items (back to back) or the segments' begin offsets (gathered).
    int end[SEGMENTS_PER_TILE];
    unsigned int ends_mask[32];
    int first_end[32];
    union
    {
      Uninitialized<InputT> items[PADDED_ITEMS];
      position_t begin[SEGMENTS_PER_TILE];
    } source;
    typename WarpScanT::TempStorage scan;
    RecordT head;
  };

public:
  struct TempStorage
  {
    WarpStorage warp[WARPS];
    position_t warp_segment[WARPS + 1]; // the segment of each warp's first step, and of the block's end
  };

  // contiguous: the items of all segments lie back to back from d_in[base] on (P(s) items before segment s).
  STRATA_DEVICE STRATA_FORCEINLINE AgentSegmentedReduce(TempStorage& temp_storage, InputIteratorT d_in,
                                                        OutputIteratorT d_out, BeginOffsetIteratorT d_begin_offsets,
                                                        PrefixT prefix, position_t num_segments, bool contiguous,
                                                        position_t base, ReductionOpT op, InitT init)
      : temp_storage_(temp_storage)
      , storage_(temp_storage.warp[threadIdx.x / 32])
      , lane_(static_cast<int>(threadIdx.x % 32))
      , d_in_(d_in)
      , d_out_(d_out)
      , d_begin_(d_begin_offsets)
      , prefix_(prefix)
      , num_segments_(num_segments)
      , contiguous_(contiguous)
      , base_(base)
      , op_(op)
      , init_(init)
  {}

  // The block's merged steps [diagonal_begin, diagonal_end), split evenly between its warps: each writes the
  // segments that start and end in its share and the records of the parts of those that cross its edges
  // (d_records[2 w]: the part before warp w's first end, [2 w + 1]: after its last).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(position_t diagonal_begin, position_t diagonal_end,
                                                     RecordT* d_records)
  {
    using detail::segmented_reduce::merge_path_search;
    const int warp         = static_cast<int>(threadIdx.x / 32);
    const auto block_count = [](bool before) {
      return __syncthreads_count(before);
    };
    const auto warp_count = [](bool before) {
      return __popc(__ballot_sync(0xffffffffu, before));
    };
    const position_t first_segment =
      merge_path_search<BLOCK_THREADS>(prefix_, position_t(0), num_segments_, diagonal_begin, threadIdx.x, block_count);
    const position_t last_segment =
      merge_path_search<BLOCK_THREADS>(prefix_, first_segment, num_segments_, diagonal_end, threadIdx.x, block_count);
    position_t begin = 0;
    position_t end   = 0;
    detail::even_share<position_t>::make(diagonal_end - diagonal_begin, 1, WARPS).range(warp, begin, end);
    begin += diagonal_begin;
    end += diagonal_begin;
    const position_t segment = merge_path_search<32>(prefix_, first_segment, last_segment, begin, lane_, warp_count);
    if (lane_ == 0)
    {
      temp_storage_.warp_segment[warp] = segment;
    }
    if (threadIdx.x == 0)
    {
      temp_storage_.warp_segment[WARPS] = last_segment;
    }
    __syncthreads();
    end_segment_ = temp_storage_.warp_segment[warp + 1];
    end_item_    = end - end_segment_;
    consume_share(segment, begin - segment, d_records + 2 * warp);
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE static int padded(int item)
  {
    return item + (item >> 5);
  }

  // The warp's share, from item `item` of `segment` on.
  STRATA_DEVICE STRATA_FORCEINLINE void consume_share(position_t segment, position_t item, RecordT* d_records)
  {
    cursor at;
    at.segment = segment;
    at.item    = item;
    at.start   = segment < num_segments_ ? prefix_(segment) : item;
    at.window  = 32;
    // The segment open at the first step started in this share when the step is its first item (or its end).
    PartialT carry =
      at.segment < num_segments_ && at.item == at.start ? fresh_part() : PartialT{AccumT{}, false, false};
    if (lane_ == 0)
    {
      storage_.head = RecordT{-1, PartialT{AccumT{}, false, false}};
    }

    const PartialOpT pop{op_};
    loads next;
    bool loaded    = false;
    bool after_run = false; // at the end of a run just read (so not at a long run)
    while (at.item < end_item_ || at.segment < end_segment_)
    {
      if (!loaded)
      {
        // A long run of one segment's items: read in vectors.
        const position_t run_end = after_run                 ? at.item
                                 : at.segment < end_segment_ ? prefix_(at.segment + 1)
                                                             : end_item_;
        const position_t run     = run_end - at.item;
        if (run >= position_t(PolicyT::FAST_ITEMS))
        {
          carry = pop(carry, consume_run(at, run));
          at.item += run;
          after_run = true;
          continue;
        }
        load(at, next);
      }
      after_run         = false;
      const cursor from = at;
      consume_tile(from, next, at, loaded, carry);
    }

    __syncwarp();
    if (lane_ == 0)
    {
      d_records[0] = storage_.head;
      // The segment open after the last step goes on in the next share unless that share starts it.
      const bool open = end_segment_ < num_segments_ && end_item_ > prefix_(end_segment_);
      d_records[1]    = open ? RecordT{end_segment_, carry} : RecordT{-1, PartialT{AccumT{}, false, false}};
    }
  }

  // How many segments (from at.segment on) a sub-tile at `at` stages, and how many items (from at.item on) it may
  // take at most.
  STRATA_DEVICE STRATA_FORCEINLINE int window_segments(const cursor& at) const
  {
    const position_t left = num_segments_ - at.segment;
    return left < position_t(at.window) ? static_cast<int>(left) : at.window;
  }
  STRATA_DEVICE STRATA_FORCEINLINE int window_items(const cursor& at) const
  {
    const position_t left = end_item_ - at.item;
    return left < position_t(TILE_ITEMS) ? static_cast<int>(left) : TILE_ITEMS;
  }

  // Issues the loads of the sub-tile at `at` (coalesced: lane l takes k and items l, l + 32, ...).
  STRATA_DEVICE STRATA_FORCEINLINE void load(const cursor& at, loads& into) const
  {
    const int segments = window_segments(at);
    STRATA_UNROLL
    for (int j = 0; j < SEGMENTS_PER_LANE; ++j)
    {
      const int k = lane_ + 32 * j;
      if (k < segments)
      {
        into.ends[j] = prefix_(at.segment + k + 1);
      }
    }
    if (contiguous_)
    {
      const int items       = window_items(at);
      const position_t from = base_ + at.item;
      STRATA_UNROLL
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        const int i = lane_ + 32 * j;
        if (i < items)
        {
          into.items[j] = d_in_[from + i];
        }
      }
    }
  }

  // Puts the loads of the sub-tile at `at` in shared memory (gathered segments: their begin offsets, read now) and
  // clears the lanes' ends; the lane's staged ends also in `staged` (FAR where none).
  STRATA_DEVICE STRATA_FORCEINLINE void stage(const cursor& at, const loads& from, int (&staged)[SEGMENTS_PER_LANE])
  {
    const int segments = window_segments(at);
    STRATA_UNROLL
    for (int j = 0; j < SEGMENTS_PER_LANE; ++j)
    {
      const int k = lane_ + 32 * j;
      staged[j]   = FAR;
      if (k < segments)
      {
        const position_t end = from.ends[j] - at.item;
        staged[j]            = end < position_t(FAR) ? static_cast<int>(end) : FAR;
        storage_.end[k]      = staged[j];
        if (!contiguous_)
        {
          storage_.source.begin[k] = static_cast<position_t>(d_begin_[at.segment + k]);
        }
      }
    }
    storage_.ends_mask[lane_] = 0;
    storage_.first_end[lane_] = FAR;
    if (contiguous_)
    {
      const int items = window_items(at);
      STRATA_UNROLL
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        const int i = lane_ + 32 * j;
        if (i < items)
        {
          storage_.source.items[padded(i)].Alias() = from.items[j];
        }
      }
    }
  }

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

  // The part of a segment that starts with a run of items (value; none unless `has`).
  STRATA_DEVICE STRATA_FORCEINLINE PartialT started(const AccumT& value, bool has)
  {
    return has ? PartialT{detail::reduce::with_init(op_, init_, value), true, true} : fresh_part();
  }

  // What a segment's reduction writes for its final part.
  STRATA_DEVICE STRATA_FORCEINLINE void write(position_t segment, const PartialT& part)
  {
    d_out_[segment] =
      detail::segmented_reduce::result_of<detail::non_void_value_t<OutputIteratorT, AccumT>>(part, init_);
  }

  // The part of items [at.item, at.item + run) of at.segment (run > 0), in every lane.
  STRATA_DEVICE STRATA_FORCEINLINE PartialT consume_run(const cursor& at, position_t run)
  {
    const position_t position = at.item - at.start; // the run's first position in its segment
    const position_t first    = static_cast<position_t>(d_begin_[at.segment]) + position;
    AccumT value{};
    bool valid      = false;
    const auto fold = [&](const InputT& item, position_t at_position) {
      const AccumT x = ItemsT::template make<AccumT>(item, at_position);
      value          = valid ? static_cast<AccumT>(op_(value, x)) : x;
      valid          = true;
    };
    position_t done = 0;
    if constexpr (VECTORIZE)
    {
      // Items up to the first 16-byte boundary one per lane, then whole vectors, then the rest one per lane.
      const int misaligned   = static_cast<int>(reinterpret_cast<cuda::std::uintptr_t>(d_in_ + first) % 16);
      const position_t ahead = misaligned == 0 ? 0 : (16 - misaligned) / static_cast<int>(sizeof(InputT));
      const position_t peel  = ahead < run ? ahead : run;
      if (lane_ < peel)
      {
        fold(d_in_[first + lane_], position + lane_);
      }
      const position_t vectors = (run - peel) / ITEMS_PER_VECTOR;
      const vector_t* const in = reinterpret_cast<const vector_t*>(d_in_ + first + peel);
      // Rounds of RUN_VECTORS vectors a lane in two buffers: a round's loads are issued before the round before it is
      // folded.
      constexpr position_t ROUND = 32 * RUN_VECTORS;
      const auto fetch           = [&](vector_t(&buffer)[RUN_VECTORS], position_t round) {
        STRATA_UNROLL
        for (int u = 0; u < RUN_VECTORS; ++u)
        {
          const position_t v = round + lane_ + 32 * u;
          if (v < vectors)
          {
            buffer[u] = in[v];
          }
        }
      };
      const auto consume = [&](const vector_t(&buffer)[RUN_VECTORS], position_t round) {
        STRATA_UNROLL
        for (int u = 0; u < RUN_VECTORS; ++u)
        {
          const position_t v = round + lane_ + 32 * u;
          if (v < vectors)
          {
            STRATA_UNROLL
            for (int i = 0; i < ITEMS_PER_VECTOR; ++i)
            {
              fold(buffer[u].items[i], position + peel + v * ITEMS_PER_VECTOR + i);
            }
          }
        }
      };
      vector_t even[RUN_VECTORS];
      vector_t odd[RUN_VECTORS];
      fetch(even, 0);
      for (position_t round = 0; round < vectors; round += 2 * ROUND)
      {
        fetch(odd, round + ROUND);
        consume(even, round);
        fetch(even, round + 2 * ROUND);
        consume(odd, round + ROUND);
      }
      done = peel + vectors * ITEMS_PER_VECTOR;
    }
    for (position_t i = done + lane_; i < run; i += 32)
    {
      fold(InputT(d_in_[first + i]), position + i);
    }
    const PartialOpT pop{op_};
    PartialT part{value, valid, false};
    PartialT aggregate;
    WarpScanT(storage_.scan).ExclusiveScan(part, part, pop, aggregate);
    return aggregate;
  }

  // The first of ends[0, count) at or after `item` (count: none).
  STRATA_DEVICE STRATA_FORCEINLINE static int first_end_from(const int* ends, int count, int item)
  {
    int lo = 0;
    int hi = count;
    while (lo < hi)
    {
      const int mid = (lo + hi) / 2;
      if (ends[mid] < item)
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

  // One sub-tile from `at` (its loads in `pending`): its items, at most TILE_ITEMS and not past the share's, and the
  // ends of its segments at or before them (not past the share's). Folds it into `carry`, leaves the cursor after it
  // in `after` and issues the loads of the next sub-tile into `pending` (loaded: true) unless the share ends there or
  // a long run follows.
  STRATA_DEVICE STRATA_FORCEINLINE void consume_tile(const cursor& at, loads& pending, cursor& after, bool& loaded,
                                                     PartialT& carry)
  {
    const int segments = window_segments(at);
    int staged[SEGMENTS_PER_LANE];
    stage(at, pending, staged);
    __syncwarp();
    const int* const ends = storage_.end;

    // The items: not past the last staged end when more segments follow it.
    int items = window_items(at);
    if (position_t(segments) < num_segments_ - at.segment)
    {
      items = items < ends[segments - 1] ? items : ends[segments - 1];
    }
    // The ends: the staged ones at or before the last item's, of the share's segments (the ends are in order, so the
    // lanes count them).
    const position_t share_segments = end_segment_ - at.segment;
    const int limit = share_segments < position_t(segments) ? static_cast<int>(share_segments) : segments;
    int k_after     = 0;
    STRATA_UNROLL
    for (int j = 0; j < SEGMENTS_PER_LANE; ++j)
    {
      const int k = lane_ + 32 * j;
      k_after += __popc(__ballot_sync(0xffffffffu, k < limit && staged[j] <= items));
    }
    STRATA_UNROLL
    for (int j = 0; j < SEGMENTS_PER_LANE; ++j)
    {
      const int k = lane_ + 32 * j;
      if (k < k_after)
      {
        const int end   = staged[j];
        const int owner = end / ITEMS_PER_THREAD < 32 ? end / ITEMS_PER_THREAD : 31;
        atomicOr(&storage_.ends_mask[owner], 1u << (end - owner * ITEMS_PER_THREAD));
        atomicMin(&storage_.first_end[owner], k);
      }
    }
    after.segment = at.segment + k_after;
    after.item    = at.item + items;
    after.start   = k_after == 0 ? at.start : at.item + ends[k_after - 1];
    // The next window: twice this sub-tile's ends, in whole rows of lanes.
    const int grow = (2 * k_after + 31) / 32 * 32;
    after.window   = grow < 32 ? 32 : grow < SEGMENTS_PER_TILE ? grow : SEGMENTS_PER_TILE;
    __syncwarp(); // the lanes' ends

    // Load the next sub-tile now, so that its loads overlap this one's fold; not where a long run starts there (it
    // is read in vectors) or where the share ends.
    loaded = false;
    if (after.item < end_item_ || after.segment < end_segment_)
    {
      bool long_run = false;
      if (k_after < segments)
      {
        const position_t run_end = after.segment < end_segment_ ? at.item + ends[k_after] : end_item_;
        long_run                 = run_end - after.item >= position_t(PolicyT::FAST_ITEMS);
      }
      if (!long_run)
      {
        load(after, pending);
        loaded = true;
      }
    }

    // The lane's items [first, first + ITEMS_PER_THREAD), split into runs by the ends among them: the first run goes
    // on from the lane before (head, closing segment head_k where an end follows it), every later one starts a
    // segment. `value` folds the current run (`has`: it has items).
    const int first                           = lane_ * ITEMS_PER_THREAD;
    const unsigned int bits                   = storage_.ends_mask[lane_];
    const Uninitialized<InputT>* const source = storage_.source.items;
    const position_t* const begins            = storage_.source.begin;
    // kk: the staged segment of item `first` (the first whose end is at or after it); item e of the sub-tile is at
    // position `offset + e` of it.
    int kk = 0;
    if (bits != 0)
    {
      kk = storage_.first_end[lane_];
    }
    else if (ItemsT::POSITIONS || !contiguous_)
    {
      kk = first_end_from(ends, k_after, first);
    }
    position_t offset = kk == 0 ? at.item - at.start : -static_cast<position_t>(ends[kk - 1]);
    AccumT value{};
    bool has       = false;
    bool first_run = true;
    PartialT head{AccumT{}, false, false};
    int head_k = -1;
    STRATA_UNROLL
    for (int j = 0; j <= ITEMS_PER_THREAD; ++j)
    {
      const int e = first + j;
      if (bits >> j & 1u)
      {
        // Close the segment of the run, then the empty ones that end here too.
        if (first_run)
        {
          head   = PartialT{value, has, false};
          head_k = kk;
        }
        else
        {
          write(at.segment + kk, started(value, has));
        }
        for (++kk; kk < k_after && ends[kk] == e; ++kk)
        {
          write(at.segment + kk, fresh_part());
        }
        has       = false;
        first_run = false;
        offset    = -static_cast<position_t>(e);
      }
      if (j < ITEMS_PER_THREAD && e < items)
      {
        const InputT item = contiguous_ ? InputT(source[padded(e)].Alias()) : InputT(d_in_[begins[kk] + offset + e]);
        const AccumT x    = ItemsT::template make<AccumT>(item, offset + e);
        value             = has ? static_cast<AccumT>(op_(value, x)) : x;
        has               = true;
      }
    }
    const PartialOpT pop{op_};
    const PartialT acc = first_run ? PartialT{value, has, false} : started(value, has);
    __syncwarp(); // the window is read

    // Carry the open segments' parts across the lanes, from the carry.
    PartialT carry_in;
    PartialT aggregate;
    WarpScanT(storage_.scan).ExclusiveScan(acc, carry_in, carry, pop, aggregate);
    if (head_k >= 0)
    {
      const PartialT whole = pop(carry_in, head);
      if (whole.reset)
      {
        write(at.segment + head_k, whole);
      }
      else
      {
        storage_.head = RecordT{at.segment + head_k, whole};
      }
    }
    carry = pop(carry, aggregate);
  }

  TempStorage& temp_storage_;
  WarpStorage& storage_;
  int lane_;
  InputIteratorT d_in_;
  OutputIteratorT d_out_;
  BeginOffsetIteratorT d_begin_;
  PrefixT prefix_;
  position_t num_segments_;
  bool contiguous_;
  position_t base_;
  ReductionOpT op_;
  InitT init_;
  position_t end_segment_ = 0; // the share's last step: its segment and item
  position_t end_item_    = 0;
};

STRATA_NAMESPACE_END
