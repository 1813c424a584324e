// AgentSegmentedReduce: the body of DeviceSegmentedReduce's kernel. Each warp walks its share of the merged items and
// segment ends (AgentSegmentedWalk); each lane folds the runs of its items with the operator, closing a segment at
// each end, and scan_parts carries the open segment's value from lane to lane and on to the next sub-tile. A long run
// of one segment's items is read in 16-byte vectors instead. A segment that starts and ends in one warp's share is
// written by that warp; one that crosses warps' shares leaves a record of its part at each edge, and the block folds
// its warps' records in order: it writes the segments that end in it after its first end, and leaves two records of
// its own (the part before its first end, the part after its last) for one more block to combine in order.
#pragma once

#include <strata/agent/agent_reduce.cuh>
#include <strata/agent/agent_segmented_walk.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/even_share.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentSegmentedReduce: BLOCK_THREADS threads whose warps each walk their own share, in
// sub-tiles of 32 x ITEMS_PER_THREAD items and at most SEGMENTS_PER_TILE segment ends (staged in shared memory);
// runs of at least FAST_ITEMS items of one segment are read in 16-byte vectors, RUN_VECTORS a lane in each of two
// rounds in flight; MIN_BLOCKS_PER_SM for the registers and the wave; WAVES: the grid, in waves of blocks (the
// shares shrink as it grows, and blocks that finish make room for others).
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, int SEGMENTS_PER_TILE_, int FAST_ITEMS_, int MIN_BLOCKS_PER_SM_,
          int RUN_VECTORS_ = 4, int WAVES_ = 1>
struct AgentSegmentedReducePolicy
{
  static constexpr int BLOCK_THREADS     = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD  = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS        = 32 * ITEMS_PER_THREAD; // one warp's sub-tile
  static constexpr int SEGMENTS_PER_TILE = SEGMENTS_PER_TILE_;
  static constexpr int FAST_ITEMS        = FAST_ITEMS_;
  static constexpr int RUN_VECTORS       = RUN_VECTORS_;
  static constexpr int MIN_BLOCKS_PER_SM = MIN_BLOCKS_PER_SM_;
  static constexpr int WAVES             = WAVES_;
  static_assert(BLOCK_THREADS % 32 == 0, "whole warps");
  static_assert(WAVES >= 1, "at least a wave");
};

namespace detail
{
namespace segmented_reduce
{
using segmented::fixed_offsets;
using segmented::fixed_prefix;
using segmented::length_iterator;
using segmented::length_plus;
using segmented::local_prefix;
using segmented::LOCAL_PREFIX_SEGMENTS;
using segmented::partial;
using segmented::partial_op;
using segmented::position_t;
using segmented::record;
using segmented::scanned_prefix;

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

} // namespace segmented_reduce
} // namespace detail

// PrefixT: detail::segmented::scanned_prefix or fixed_prefix. InitT: the initial value, or a
// detail::reduce::empty_value (ArgMin, ArgMax: only the output of an empty segment). ItemsT:
// detail::segmented_reduce::plain_items or arg_items.
template <typename PolicyT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename PrefixT, typename AccumT, typename ReductionOpT, typename InitT, typename ItemsT>
class AgentSegmentedReduce
{
  using WalkT                           = AgentSegmentedWalk<PolicyT, InputIteratorT, BeginOffsetIteratorT, PrefixT>;
  using cursor                          = typename WalkT::cursor;
  using loads                           = typename WalkT::loads;
  using tile                            = typename WalkT::tile;
  static constexpr int ITEMS_PER_THREAD = WalkT::ITEMS_PER_THREAD;
  static_assert(PolicyT::TILE_ITEMS == WalkT::TILE_ITEMS, "a warp's sub-tile");

  using position_t = detail::segmented::position_t;
  using InputT     = detail::it_value_t<InputIteratorT>;
  using PartialT   = detail::segmented::partial<AccumT>;
  using PartialOpT = detail::segmented::partial_op<ReductionOpT>;
  using RecordT    = detail::segmented::record<AccumT>;

  // Long runs of an array are read in 16-byte vectors, RUN_VECTORS per lane in flight.
  static constexpr bool VECTORIZE       = detail::is_vectorizable_input_v<InputIteratorT>;
  static constexpr int ITEMS_PER_VECTOR = VECTORIZE ? 16 / static_cast<int>(sizeof(InputT)) : 1;
  static constexpr int RUN_VECTORS      = PolicyT::RUN_VECTORS;
  struct alignas(16) vector_t
  {
    InputT items[ITEMS_PER_VECTOR];
  };

public:
  struct TempStorage
  {
    typename WalkT::TempStorage walk;
    // Each warp's records: [2 w], the part before its first end; [2 w + 1], the part after its last.
    RecordT edges[2 * WalkT::WARPS];
  };

  // contiguous: the items of all segments lie back to back from d_in[base] on (P(s) items before segment s).
  STRATA_DEVICE STRATA_FORCEINLINE AgentSegmentedReduce(TempStorage& temp_storage, InputIteratorT d_in,
                                                        OutputIteratorT d_out, BeginOffsetIteratorT d_begin_offsets,
                                                        PrefixT prefix, position_t num_segments, bool contiguous,
                                                        position_t base, ReductionOpT op, InitT init)
      : walk_(temp_storage.walk, d_in, d_begin_offsets, prefix, num_segments, contiguous, base)
      , edges_(temp_storage.edges)
      , head_(temp_storage.edges[2 * (threadIdx.x / 32)])
      , d_out_(d_out)
      , op_(op)
      , init_(init)
  {}

  // The block's merged steps [diagonal_begin, diagonal_end), split evenly between its warps: writes every segment
  // that ends in it after its first end and the block's records (d_records[0]: the part before its first end,
  // [1]: the part after its last).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(position_t diagonal_begin, position_t diagonal_end,
                                                     RecordT* d_records)
  {
    // Shares' edges leave no part shorter than a vector run of a segment (its items go to the neighbour's run).
    const cursor at = walk_.Split(diagonal_begin, diagonal_end, position_t(PolicyT::FAST_ITEMS));
    consume_share(at);
    __syncthreads();
    if (threadIdx.x == 0)
    {
      fold_edges(d_records);
    }
  }

  // Without P (one offsets array that is not in order): the block's even share of the segments, a warp a segment
  // (its lanes' items folded striped, then across the lanes in order), each written; the block leaves no records.
  template <typename EndOffsetIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeSegments(EndOffsetIteratorT d_end_offsets, RecordT* d_records)
  {
    position_t first = 0;
    position_t last  = 0;
    detail::even_share<position_t>::make(walk_.num_segments, 1, static_cast<int>(gridDim.x))
      .range(blockIdx.x, first, last);
    for (position_t segment = first + walk_.warp; segment < last; segment += WalkT::WARPS)
    {
      const position_t begin = static_cast<position_t>(walk_.d_begin[segment]);
      const position_t end   = static_cast<position_t>(d_end_offsets[segment]);
      AccumT value{};
      bool has = false;
      for (position_t i = begin + walk_.lane; i < end; i += 32)
      {
        const AccumT x = ItemsT::template make<AccumT>(InputT(walk_.d_in[i]), i - begin);
        value          = has ? static_cast<AccumT>(op_(value, x)) : x;
        has            = true;
      }
      PartialT carry_in;
      PartialT aggregate;
      detail::segmented::scan_parts(PartialT{value, has, false}, PartialT{AccumT{}, false, false}, op_, walk_.lane,
                                    carry_in, aggregate);
      if (walk_.lane == 0)
      {
        write(segment, started(aggregate.value, aggregate.valid));
      }
    }
    if (threadIdx.x == 0)
    {
      const RecordT none{-1, PartialT{AccumT{}, false, false}};
      d_records[0] = none;
      d_records[1] = none;
    }
  }

private:
  // The warp's records in order under partial_op, as the records kernel folds the blocks' (one thread). The part
  // before the block's first end depends on the blocks before and becomes d_records[0]; every later warp's part
  // before its first end closes a segment that started in this block (the fold has a reset by then) and is written.
  STRATA_DEVICE STRATA_FORCEINLINE void fold_edges(RecordT* d_records)
  {
    const PartialOpT pop{op_};
    const PartialT none{AccumT{}, false, false};
    RecordT head{-1, none};
    PartialT folded = none;
    for (int i = 0; i < 2 * WalkT::WARPS; ++i)
    {
      const RecordT r = edges_[i];
      if (r.segment < 0)
      {
        continue;
      }
      folded = pop(folded, r.part);
      if (i % 2 == 0)
      {
        if (head.segment < 0)
        {
          head = RecordT{r.segment, folded};
        }
        else
        {
          write(r.segment, folded);
        }
      }
    }
    const RecordT last = edges_[2 * WalkT::WARPS - 1];
    d_records[0]       = head;
    d_records[1]       = last.segment >= 0 ? RecordT{last.segment, folded} : RecordT{-1, none};
  }

  // The warp's share, from `at` on.
  STRATA_DEVICE STRATA_FORCEINLINE void consume_share(cursor at)
  {
    // The segment open at the first step started in this share when the step is its first item (or its end).
    PartialT carry = walk_.Starts(at) ? fresh_part() : PartialT{AccumT{}, false, false};
    if (walk_.lane == 0)
    {
      head_ = RecordT{-1, PartialT{AccumT{}, false, false}};
    }

    const PartialOpT pop{op_};
    loads next;
    bool loaded = false;
    // The items of at.segment from the cursor on in this share, where known (-1: read P).
    position_t run = -1;
    while (walk_.Left(at))
    {
      if (!loaded)
      {
        // A long run of one segment's items: read in vectors.
        if (run < 0)
        {
          run = walk_.Run(at);
        }
        if (run >= position_t(PolicyT::FAST_ITEMS))
        {
          consume_runs(at, run, carry);
          run = 0; // at the end of the last run
          continue;
        }
        walk_.Load(at, next);
      }
      const cursor from = at;
      run               = consume_tile(from, next, at, loaded, carry);
    }

    __syncwarp();
    if (walk_.lane == 0)
    {
      // The segment open after the last step goes on in the next share unless that share starts it.
      edges_[2 * walk_.warp + 1] =
        walk_.OpenAtEnd() ? RecordT{walk_.end_segment, carry} : RecordT{-1, PartialT{AccumT{}, false, false}};
    }
  }

  // Segment `segment` ends with all of its part from this share in `part` (one lane calls): written where it started
  // in the share, else the share's record of the part before its first end.
  STRATA_DEVICE STRATA_FORCEINLINE void close(position_t segment, const PartialT& part)
  {
    if (part.reset)
    {
      write(segment, part);
    }
    else
    {
      head_ = RecordT{segment, part};
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE PartialT fresh_part() const
  {
    return detail::segmented::fresh_part<AccumT>(init_);
  }
  STRATA_DEVICE STRATA_FORCEINLINE PartialT started(const AccumT& value, bool has)
  {
    return detail::segmented::started_part(op_, init_, value, has);
  }
  STRATA_DEVICE STRATA_FORCEINLINE void write(position_t segment, const PartialT& part)
  {
    d_out_[segment] = detail::segmented::result_of<detail::non_void_value_t<OutputIteratorT, AccumT>>(part, init_);
  }

  // A run of one segment's items read in vectors: its first item in d_in, its first position in its segment, and how
  // its items split into the few before the first 16-byte boundary (one per lane), whole vectors, and the few after.
  struct run_plan
  {
    position_t first;
    position_t position;
    position_t run;
    int peel;
    int tail;
    position_t vectors;
  };

  // The plan of `run` items of `segment` from item `item` (over all segments) on, of a segment starting at `start`.
  STRATA_DEVICE STRATA_FORCEINLINE run_plan plan_run(position_t segment, position_t item, position_t start,
                                                     position_t run) const
  {
    run_plan r;
    r.position = item - start;
    r.first    = walk_.contiguous ? walk_.base + item : static_cast<position_t>(walk_.d_begin[segment]) + r.position;
    r.run      = run;
    if constexpr (VECTORIZE)
    {
      const int misaligned   = static_cast<int>(reinterpret_cast<cuda::std::uintptr_t>(walk_.d_in + r.first) % 16);
      const position_t ahead = misaligned == 0 ? 0 : (16 - misaligned) / static_cast<int>(sizeof(InputT));
      r.peel                 = static_cast<int>(ahead < run ? ahead : run);
      r.vectors              = (run - r.peel) / ITEMS_PER_VECTOR;
      r.tail                 = static_cast<int>(run - r.peel - r.vectors * ITEMS_PER_VECTOR);
    }
    else
    {
      r.peel    = 0;
      r.tail    = 0;
      r.vectors = 0;
    }
    return r;
  }

  // Vectors round + lane + 32 u (u < RUN_VECTORS) of a plan, those it has.
  STRATA_DEVICE STRATA_FORCEINLINE void fetch(vector_t (&buffer)[RUN_VECTORS], const run_plan& r,
                                              position_t round) const
  {
    const vector_t* const in = reinterpret_cast<const vector_t*>(walk_.d_in + r.first + r.peel);
    STRATA_UNROLL
    for (int u = 0; u < RUN_VECTORS; ++u)
    {
      const position_t v = round + walk_.lane + 32 * u;
      if (v < r.vectors)
      {
        buffer[u] = in[v];
      }
    }
  }

  // The lane's items of a plan outside its vectors: one before the first vector (lane < peel) and one after the last
  // (lane < tail).
  STRATA_DEVICE STRATA_FORCEINLINE void fetch_edges(const run_plan& r, InputT& head, InputT& tail) const
  {
    if (walk_.lane < r.peel)
    {
      head = walk_.d_in[r.first + walk_.lane];
    }
    if (walk_.lane < r.tail)
    {
      tail = walk_.d_in[r.first + r.peel + r.vectors * ITEMS_PER_VECTOR + walk_.lane];
    }
  }

  // The run of at.segment from the cursor on, `run` (>= FAST_ITEMS) items, folded into `carry`; then, while the run
  // ends its segment before the share's end and the next segment's items in the share make a run as long, the segment
  // is closed and the next one's run read on, its first vectors and edge items loaded while the last round of the one
  // before is in flight (where the items lie back to back, the runs are one stream). Leaves the cursor after the last
  // run, at its end.
  STRATA_DEVICE STRATA_FORCEINLINE void consume_runs(cursor& at, position_t run, PartialT& carry)
  {
    const PartialOpT pop{op_};
    run_plan cur = plan_run(at.segment, at.item, at.start, run);
    vector_t even[RUN_VECTORS];
    vector_t odd[RUN_VECTORS];
    InputT head{};
    InputT tail{};
    if constexpr (VECTORIZE)
    {
      fetch(even, cur, 0);
      fetch_edges(cur, head, tail);
    }
    while (true)
    {
      // The next segment's run, read now: its end (P(s + 2), or the share's end) and, gathered, its begin offset.
      const bool to_end         = at.segment < walk_.end_segment;
      const position_t next_run = to_end ? walk_.NextEnd(at) - (at.item + cur.run) : position_t(0);
      const bool chain          = to_end && next_run >= position_t(PolicyT::FAST_ITEMS);
      run_plan next{};
      if (chain)
      {
        next = plan_run(at.segment + 1, at.item + cur.run, at.item + cur.run, next_run);
      }

      AccumT value{};
      bool valid      = false;
      const auto fold = [&](const InputT& item, position_t at_position) {
        const AccumT x = ItemsT::template make<AccumT>(item, at_position);
        value          = valid ? static_cast<AccumT>(op_(value, x)) : x;
        valid          = true;
      };
      InputT next_head{};
      InputT next_tail{};
      if constexpr (VECTORIZE)
      {
        const auto consume = [&](const vector_t(&buffer)[RUN_VECTORS], position_t round) {
          STRATA_UNROLL
          for (int u = 0; u < RUN_VECTORS; ++u)
          {
            const position_t v = round + walk_.lane + 32 * u;
            if (v < cur.vectors)
            {
              STRATA_UNROLL
              for (int i = 0; i < ITEMS_PER_VECTOR; ++i)
              {
                fold(buffer[u].items[i], cur.position + cur.peel + v * ITEMS_PER_VECTOR + i);
              }
            }
          }
        };
        // Rounds of RUN_VECTORS vectors a lane in two buffers: a round's loads are issued before the round before it
        // is folded; after the last round, the next run's first.
        constexpr position_t ROUND = 32 * RUN_VECTORS;
        position_t round           = 0;
        do
        {
          fetch(odd, cur, round + ROUND);
          consume(even, round);
          if (round + 2 * ROUND < cur.vectors)
          {
            fetch(even, cur, round + 2 * ROUND);
          }
          else if (chain)
          {
            fetch(even, next, 0);
            fetch_edges(next, next_head, next_tail);
          }
          consume(odd, round + ROUND);
          round += 2 * ROUND;
        } while (round < cur.vectors);
        // The edge items last (the operator commutes): their loads went out with the first round's.
        if (walk_.lane < cur.peel)
        {
          fold(head, cur.position + walk_.lane);
        }
        if (walk_.lane < cur.tail)
        {
          fold(tail, cur.position + cur.peel + cur.vectors * ITEMS_PER_VECTOR + walk_.lane);
        }
      }
      else
      {
        for (position_t i = walk_.lane; i < cur.run; i += 32)
        {
          fold(InputT(walk_.d_in[cur.first + i]), cur.position + i);
        }
      }
      PartialT before;
      PartialT aggregate;
      detail::segmented::scan_parts(PartialT{value, valid, false}, PartialT{AccumT{}, false, false}, op_, walk_.lane,
                                    before, aggregate);
      carry = pop(carry, aggregate);
      at.item += cur.run;
      if (!chain)
      {
        return;
      }
      if (walk_.lane == 0)
      {
        close(at.segment, carry);
      }
      at.segment += 1;
      at.start = at.item;
      carry    = fresh_part();
      cur      = next;
      head     = next_head;
      tail     = next_tail;
    }
  }

  // One sub-tile from `at` (its loads in `pending`): folds it into `carry`, leaves the cursor after it in `after` and
  // issues the loads of the next sub-tile into `pending` (loaded: true) unless the share ends there or a long run
  // follows. Returns the items of after.segment from `after` on in the share, where the staged ends tell (-1
  // otherwise).
  STRATA_DEVICE STRATA_FORCEINLINE position_t consume_tile(const cursor& at, loads& pending, cursor& after,
                                                           bool& loaded, PartialT& carry)
  {
    const tile t = walk_.Frame(at, pending, after);

    // Load the next sub-tile now, so that its loads overlap this one's fold; not where a long run starts there (it
    // is read in vectors; one whose end is staged but past FAR is one) or where the share ends.
    loaded              = false;
    position_t next_run = -1;
    if (walk_.Left(after))
    {
      next_run = walk_.NextRun(at, t, after);
      if (next_run >= 0 ? next_run < position_t(PolicyT::FAST_ITEMS) : t.ends >= t.segments)
      {
        walk_.Load(after, pending);
        loaded = true;
      }
    }

    // The lane's items [first, first + ITEMS_PER_THREAD), split into runs by the ends among them: the first run goes
    // on from the lane before (head, closing segment head_k where an end follows it), every later one starts a
    // segment. `value` folds the current run (`has`: it has items). kk: the staged segment of the current item,
    // which lies at position `offset + e` of it.
    const int first         = walk_.lane * ITEMS_PER_THREAD;
    const unsigned int bits = walk_.storage.ends_mask[walk_.lane];
    const int* const ends   = walk_.storage.end;
    int kk                  = bits != 0 || ItemsT::POSITIONS || !walk_.contiguous ? walk_.FirstSegment(t) : 0;
    position_t offset       = walk_.Offset(at, kk);
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
        for (++kk; kk < t.ends && ends[kk] == e; ++kk)
        {
          write(at.segment + kk, fresh_part());
        }
        has       = false;
        first_run = false;
        offset    = -static_cast<position_t>(e);
      }
      if (j < ITEMS_PER_THREAD && e < t.items)
      {
        const AccumT x = ItemsT::template make<AccumT>(walk_.Item(e, kk, offset), offset + e);
        value          = has ? static_cast<AccumT>(op_(value, x)) : x;
        has            = true;
      }
    }
    const PartialT acc = first_run ? PartialT{value, has, false} : started(value, has);
    __syncwarp(); // the window is read

    // Carry the open segments' parts across the lanes, from the carry.
    const PartialOpT pop{op_};
    PartialT carry_in;
    PartialT aggregate;
    detail::segmented::scan_parts(acc, carry, op_, walk_.lane, carry_in, aggregate);
    if (head_k >= 0)
    {
      close(at.segment + head_k, pop(carry_in, head));
    }
    carry = pop(carry, aggregate);
    return next_run;
  }

  WalkT walk_;
  RecordT* edges_;
  RecordT& head_;
  OutputIteratorT d_out_;
  ReductionOpT op_;
  InitT init_;
};

STRATA_NAMESPACE_END
