// AgentSegmentedScan: the body of DeviceSegmentedScan's kernel. Each warp walks its share of the merged items and
// segment ends (AgentSegmentedWalk); in a sub-tile, each lane folds the runs of its items, scan_parts carries the
// open segment from lane to lane, and each lane then scans its items again from what comes before them, writing
// every item's output (where the outputs lie at the items' positions: into the items' slots in shared memory, then
// out coalesced). The items of a segment that crosses into a warp's share from an earlier one, up to its end (the
// share's head), only add to the head's part (a head of a sub-tile or more is folded in chunks, with no ends to
// stage): the warp leaves a record of the head (its part, where its items and outputs lie, how many) and of the part
// at the share's end, one block folds the records in order into the prefix each head lacks, and a last kernel scans
// each head from that prefix (AgentSegmentedScanHead).
#pragma once

#include <strata/agent/agent_reduce.cuh>
#include <strata/agent/agent_segmented_walk.cuh>
#include <strata/config.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentSegmentedScan: BLOCK_THREADS threads whose warps each walk their own share, in sub-tiles
// of 32 x ITEMS_PER_THREAD items and at most SEGMENTS_PER_TILE segment ends; MIN_BLOCKS_PER_SM for the registers and
// the wave.
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, int SEGMENTS_PER_TILE_, int MIN_BLOCKS_PER_SM_>
struct AgentSegmentedScanPolicy
{
  static constexpr int BLOCK_THREADS     = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD  = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS        = 32 * ITEMS_PER_THREAD; // one warp's sub-tile
  static constexpr int SEGMENTS_PER_TILE = SEGMENTS_PER_TILE_;
  static constexpr int MIN_BLOCKS_PER_SM = MIN_BLOCKS_PER_SM_;
};

namespace detail
{
namespace segmented_scan
{
using segmented::partial;
using segmented::partial_op;
using segmented::position_t;

// A warp's record of a part of a segment at an edge of its share (segment < 0: none). The head record (the segment
// that crosses into the share) also says where the head's first item and output lie and how many items it has; they
// lie one after the other, as the positions in one segment do.
template <typename AccumT>
struct record
{
  position_t segment;
  partial<AccumT> part;
  position_t in_first;
  position_t out_first;
  position_t count;
};

// Where segment outputs go: at the input's own positions (OUT_SAME: the two-offset forms), or at
// d_out_begin_offsets[s] + position (the three-offset forms).
struct same_offsets
{};
} // namespace segmented_scan
} // namespace detail

// One warp's scan of a run of one segment's items that lie in a row: `count` items from d_in[in_first] on, each
// output from `before` (the fold of the segment's items before the run) and the items before it, to d_out[out_first]
// on (Scan; the head kernel, for each share's head), or only their fold (Fold; the walk, for a long head). In chunks
// of 32 x ITEMS_PER_THREAD items: read striped over the lanes (coalesced; the next chunk's loads issued before this
// one is worked on), passed through shared memory so that each lane takes ITEMS_PER_THREAD items in a row, and the
// outputs passed back the same way to be written striped.
template <int ITEMS_PER_THREAD, typename InputIteratorT, typename OutputIteratorT, typename AccumT, typename ScanOpT,
          bool EXCLUSIVE>
struct AgentSegmentedScanHead
{
  using position_t            = detail::segmented::position_t;
  using InputT                = detail::it_value_t<InputIteratorT>;
  using OutputT               = detail::non_void_value_t<OutputIteratorT, AccumT>;
  using PartialT              = detail::segmented::partial<AccumT>;
  using PartialOpT            = detail::segmented::partial_op<ScanOpT>;
  static constexpr int CHUNK  = 32 * ITEMS_PER_THREAD;
  static constexpr int PADDED = CHUNK + CHUNK / 32; // a padding slot after every 32: lanes' rows hit other banks

  // One warp's shared memory.
  struct TempStorage
  {
    Uninitialized<InputT> items[PADDED];
    Uninitialized<OutputT> outputs[PADDED];
  };

  static STRATA_DEVICE STRATA_FORCEINLINE int Padded(int i)
  {
    return i + (i >> 5);
  }

  // Writes the run's outputs; `before` becomes the fold through the run.
  static STRATA_DEVICE STRATA_FORCEINLINE void Scan(TempStorage& storage, InputIteratorT d_in, position_t in_first,
                                                    OutputIteratorT d_out, position_t out_first, position_t count,
                                                    PartialT& before, ScanOpT op, int lane)
  {
    walk<true>(storage.items, storage.outputs, d_in, in_first, d_out, out_first, count, before, op, lane);
  }

  // `before` becomes the fold through the run; `items`: PADDED slots of the warp's shared memory.
  static STRATA_DEVICE STRATA_FORCEINLINE void Fold(Uninitialized<InputT>* items, InputIteratorT d_in,
                                                    position_t in_first, position_t count, PartialT& before, ScanOpT op,
                                                    int lane)
  {
    walk<false>(items, nullptr, d_in, in_first, nullptr, 0, count, before, op, lane);
  }

private:
  // OutT: OutputIteratorT (WRITE) or nullptr_t.
  template <bool WRITE, typename OutT>
  static STRATA_DEVICE STRATA_FORCEINLINE void
  walk(Uninitialized<InputT>* items, Uninitialized<OutputT>* outputs, InputIteratorT d_in, position_t in_first,
       OutT d_out, position_t out_first, position_t count, PartialT& before, ScanOpT op, int lane)
  {
    const PartialOpT pop{op};
    const auto fetch = [&](InputT(&buffer)[ITEMS_PER_THREAD], position_t chunk) {
      STRATA_UNROLL
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        const position_t i = chunk + lane + 32 * j;
        if (i < count)
        {
          buffer[j] = d_in[in_first + i];
        }
      }
    };
    const auto consume = [&](const InputT(&buffer)[ITEMS_PER_THREAD], position_t chunk) {
      const position_t left = count - chunk; // items of this chunk: min(left, CHUNK)
      STRATA_UNROLL
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        if (lane + 32 * j < left)
        {
          items[Padded(lane + 32 * j)].Alias() = buffer[j];
        }
      }
      __syncwarp();
      AccumT x[ITEMS_PER_THREAD];
      AccumT value{};
      bool has = false;
      STRATA_UNROLL
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        const int i = lane * ITEMS_PER_THREAD + j;
        if (i < left)
        {
          x[j]  = static_cast<AccumT>(InputT(items[Padded(i)].Alias()));
          value = has ? static_cast<AccumT>(op(value, x[j])) : x[j];
          has   = true;
        }
      }
      PartialT running;
      PartialT aggregate;
      detail::segmented::scan_parts(PartialT{value, has, false}, before, op, lane, running, aggregate);
      if constexpr (WRITE)
      {
        STRATA_UNROLL
        for (int j = 0; j < ITEMS_PER_THREAD; ++j)
        {
          const int i = lane * ITEMS_PER_THREAD + j;
          if (i < left)
          {
            const PartialT through     = pop(running, PartialT{x[j], true, false});
            outputs[Padded(i)].Alias() = static_cast<OutputT>(EXCLUSIVE ? running.value : through.value);
            running                    = through;
          }
        }
        __syncwarp();
        STRATA_UNROLL
        for (int j = 0; j < ITEMS_PER_THREAD; ++j)
        {
          const int i = lane + 32 * j;
          if (i < left)
          {
            d_out[out_first + chunk + i] = outputs[Padded(i)].Alias();
          }
        }
      }
      __syncwarp(); // the slots are free for the next chunk
      before = pop(before, aggregate);
    };
    InputT even[ITEMS_PER_THREAD];
    InputT odd[ITEMS_PER_THREAD];
    fetch(even, 0);
    for (position_t chunk = 0; chunk < count; chunk += 2 * CHUNK)
    {
      fetch(odd, chunk + CHUNK);
      consume(even, chunk);
      if (chunk + CHUNK < count)
      {
        fetch(even, chunk + 2 * CHUNK);
        consume(odd, chunk + CHUNK);
      }
    }
  }
};

// OutBeginOffsetIteratorT: detail::segmented_scan::same_offsets or the output's begin offsets. InitT: the initial
// value (exclusive scans, inclusive scans with one), or a detail::reduce::empty_value (inclusive scans without one).
template <typename PolicyT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename OutBeginOffsetIteratorT, typename PrefixT, typename AccumT, typename ScanOpT, typename InitT,
          bool EXCLUSIVE>
class AgentSegmentedScan
{
  using OutputT = detail::non_void_value_t<OutputIteratorT, AccumT>;
  using WalkT   = AgentSegmentedWalk<PolicyT, InputIteratorT, BeginOffsetIteratorT, PrefixT, OutputT>;
  using cursor  = typename WalkT::cursor;
  using loads   = typename WalkT::loads;
  using tile    = typename WalkT::tile;
  static constexpr int ITEMS_PER_THREAD = WalkT::ITEMS_PER_THREAD;

  using position_t = detail::segmented::position_t;
  using InputT     = detail::it_value_t<InputIteratorT>;
  using PartialT   = detail::segmented::partial<AccumT>;
  using PartialOpT = detail::segmented::partial_op<ScanOpT>;
  using RecordT    = detail::segmented_scan::record<AccumT>;
  using HeadT = AgentSegmentedScanHead<ITEMS_PER_THREAD, InputIteratorT, OutputIteratorT, AccumT, ScanOpT, EXCLUSIVE>;
  static_assert(HeadT::PADDED == WalkT::PADDED_ITEMS, "a long head is folded through the sub-tile's item slots");

  static constexpr bool EMPTY_VALUE = detail::reduce::is_empty_value<InitT>::value;
  static constexpr bool OUT_SAME =
    cuda::std::is_same<OutBeginOffsetIteratorT, detail::segmented_scan::same_offsets>::value;
  static_assert(!(EXCLUSIVE && EMPTY_VALUE), "an exclusive scan has an initial value");

public:
  struct TempStorage
  {
    typename WalkT::TempStorage walk;
    RecordT head[WalkT::WARPS]; // each warp's head record
  };

  // contiguous: the items of all segments lie back to back from d_in[base] on (P(s) items before segment s).
  STRATA_DEVICE STRATA_FORCEINLINE
  AgentSegmentedScan(TempStorage& temp_storage, InputIteratorT d_in, OutputIteratorT d_out,
                     BeginOffsetIteratorT d_begin_offsets, OutBeginOffsetIteratorT d_out_begin_offsets, PrefixT prefix,
                     position_t num_segments, bool contiguous, position_t base, ScanOpT op, InitT init)
      : walk_(temp_storage.walk, d_in, d_begin_offsets, prefix, num_segments, contiguous, base)
      , head_(temp_storage.head[threadIdx.x / 32])
      , d_out_(d_out)
      , d_out_begin_(d_out_begin_offsets)
      , op_(op)
      , init_(init)
  {}

  // The block's merged steps [diagonal_begin, diagonal_end), split evenly between its warps: each writes the outputs
  // of the items in its share and its two records (d_records[2 w]: the head, [2 w + 1]: the part at its end).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(position_t diagonal_begin, position_t diagonal_end,
                                                     RecordT* d_records)
  {
    cursor at = walk_.Split(diagonal_begin, diagonal_end);
    // The share's head: the items before its first end of a segment that started in an earlier share.
    const bool head           = !walk_.Starts(at) && at.segment < walk_.num_segments;
    const position_t in_first = head ? first_in(at) : position_t(0);
    PartialT carry            = head ? PartialT{AccumT{}, false, false} : fresh_part();
    if (walk_.lane == 0)
    {
      head_ = RecordT{head ? at.segment : position_t(-1), PartialT{AccumT{}, false, false}, in_first,
                      head ? first_out(at) : position_t(0), 0};
    }
    __syncwarp();
    bool in_head = head;
    if (head)
    {
      // A head of a sub-tile or more is only folded here (the head kernel writes its outputs): read in chunks, with
      // no segment ends to stage. The walk goes on from its end (the step that ends it, or the share's end).
      const position_t run = walk_.Run(at);
      if (run >= position_t(WalkT::TILE_ITEMS))
      {
        HeadT::Fold(walk_.storage.source.items, walk_.d_in, in_first, run, carry, op_, walk_.lane);
        if (walk_.lane == 0)
        {
          head_.count = run;
        }
        at.item += run;
      }
    }

    loads next;
    bool loaded = false;
    while (walk_.Left(at))
    {
      if (!loaded)
      {
        walk_.Load(at, next);
      }
      const cursor from = at;
      const tile t      = walk_.Frame(from, next, at);
      loaded            = false;
      if (walk_.Left(at))
      {
        walk_.Load(at, next);
        loaded = true;
      }
      consume_tile(from, t, carry);
      if (in_head)
      {
        // The head goes on to the sub-tile's first end, or through it.
        if (walk_.lane == 0)
        {
          head_.count += t.ends > 0 ? walk_.storage.end[0] : t.items;
        }
        in_head = t.ends == 0;
      }
      __syncwarp();
    }

    if (walk_.lane == 0)
    {
      // A head without an end is the share's whole part; otherwise the part after the last end goes on in the next
      // share unless that share starts it.
      if (in_head && head_.segment >= 0)
      {
        head_.part = carry;
      }
      d_records[2 * walk_.warp]     = head_;
      d_records[2 * walk_.warp + 1] = !in_head && walk_.OpenAtEnd()
                                      ? RecordT{walk_.end_segment, carry, 0, 0}
                                      : RecordT{-1, PartialT{AccumT{}, false, false}, 0, 0};
    }
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE PartialT fresh_part() const
  {
    return detail::segmented::fresh_part<AccumT>(init_);
  }

  // Where the item at `at` lies in d_in (read from global memory).
  STRATA_DEVICE STRATA_FORCEINLINE position_t first_in(const cursor& at) const
  {
    return walk_.contiguous ? walk_.base + at.item
                            : static_cast<position_t>(walk_.d_begin[at.segment]) + (at.item - at.start);
  }

  // Where the output of the item at `at` goes (read from global memory).
  STRATA_DEVICE STRATA_FORCEINLINE position_t first_out(const cursor& at) const
  {
    const position_t position = at.item - at.start;
    if constexpr (OUT_SAME)
    {
      return walk_.contiguous ? walk_.base + at.item : static_cast<position_t>(walk_.d_begin[at.segment]) + position;
    }
    else
    {
      return static_cast<position_t>(d_out_begin_[at.segment]) + position;
    }
  }

  // Where the outputs of staged segment kk of the sub-tile at `at` begin (its position 0), where the items do not
  // lie back to back or the outputs have offsets of their own.
  STRATA_DEVICE STRATA_FORCEINLINE position_t segment_out(const cursor& at, int kk) const
  {
    if constexpr (OUT_SAME)
    {
      return walk_.storage.source.begin[kk];
    }
    else
    {
      return static_cast<position_t>(d_out_begin_[at.segment + kk]);
    }
  }

  // One staged sub-tile from `at`: every item's output, the carry on to the next, and the head's part where its
  // first end lies in the sub-tile.
  STRATA_DEVICE STRATA_FORCEINLINE void consume_tile(const cursor& at, const tile& t, PartialT& carry)
  {
    const int first         = walk_.lane * ITEMS_PER_THREAD;
    const unsigned int bits = walk_.storage.ends_mask[walk_.lane];
    const int* const ends   = walk_.storage.end;
    // The staged segment of the lane's first item: only to count ends, to gather, to place outputs, or to tell the
    // head's items (staged segment 0 where the sub-tile starts in the head) from the others.
    const bool straight  = OUT_SAME && walk_.contiguous; // outputs at base + item
    const bool head_tile = at.segment == head_.segment;
    const int kk_first   = bits != 0 || !straight || head_tile ? walk_.FirstSegment(t) : 0;
    const PartialOpT pop{op_};

    // Pass 1: the lane's items, and the part they add to what comes before them.
    AccumT items[ITEMS_PER_THREAD];
    AccumT value{};
    bool has       = false;
    bool first_run = true;
    {
      int kk            = kk_first;
      position_t offset = walk_.Offset(at, kk);
      STRATA_UNROLL
      for (int j = 0; j <= ITEMS_PER_THREAD; ++j)
      {
        const int e = first + j;
        if (bits >> j & 1u)
        {
          for (++kk; kk < t.ends && ends[kk] == e; ++kk)
          {}
          has       = false;
          first_run = false;
          offset    = -static_cast<position_t>(e);
        }
        if (j < ITEMS_PER_THREAD && e < t.items)
        {
          items[j] = static_cast<AccumT>(walk_.Item(e, kk, offset));
          value    = has ? static_cast<AccumT>(op_(value, items[j])) : items[j];
          has      = true;
        }
      }
    }
    const PartialT part =
      first_run ? PartialT{value, has, false} : detail::segmented::started_part(op_, init_, value, has);
    PartialT before;
    PartialT aggregate;
    detail::segmented::scan_parts(part, carry, op_, walk_.lane, before, aggregate);
    if (straight)
    {
      __syncwarp(); // every lane's items are read before outputs (of any size) take their slots
    }

    // Pass 2: each item's output from what comes before it (outputs at base + item: staged in the items' slots, then
    // written out coalesced); the head's items only give its part (what comes before its first end).
    {
      int kk              = kk_first;
      position_t offset   = walk_.Offset(at, kk);
      int out_kk          = -1;
      position_t out_base = 0;
      STRATA_UNROLL
      for (int j = 0; j <= ITEMS_PER_THREAD; ++j)
      {
        const int e = first + j;
        if (bits >> j & 1u)
        {
          if (kk == 0 && head_tile)
          {
            head_.part = before;
          }
          for (++kk; kk < t.ends && ends[kk] == e; ++kk)
          {}
          before = fresh_part();
          offset = -static_cast<position_t>(e);
        }
        if (j < ITEMS_PER_THREAD && e < t.items && !(head_tile && kk == 0))
        {
          if (!straight && out_kk != kk)
          {
            out_base = segment_out(at, kk);
            out_kk   = kk;
          }
          const PartialT through = pop(before, PartialT{items[j], true, false});
          const OutputT output   = static_cast<OutputT>(EXCLUSIVE ? before.value : through.value);
          if (straight)
          {
            walk_.storage.source.outputs[WalkT::Padded(e)].Alias() = output;
          }
          else
          {
            d_out_[out_base + offset + e] = output;
          }
          before = through;
        }
        else if (j < ITEMS_PER_THREAD && e < t.items)
        {
          before = pop(before, PartialT{items[j], true, false});
        }
      }
    }
    if (straight)
    {
      // The staged outputs, striped over the lanes; not the head's (the sub-tile's items before its first end).
      __syncwarp();
      const int skip      = head_tile ? (t.ends > 0 ? ends[0] : t.items) : 0;
      const position_t to = walk_.base + at.item;
      STRATA_UNROLL
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        const int i = walk_.lane + 32 * j;
        if (i >= skip && i < t.items)
        {
          d_out_[to + i] = walk_.storage.source.outputs[WalkT::Padded(i)].Alias();
        }
      }
    }
    carry = pop(carry, aggregate);
  }

  WalkT walk_;
  RecordT& head_;
  OutputIteratorT d_out_;
  OutBeginOffsetIteratorT d_out_begin_;
  ScanOpT op_;
  InitT init_;
};

STRATA_NAMESPACE_END
