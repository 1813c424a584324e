// AgentSegmentedReduceTiles: the block body of the segmented reduce of back-to-back segments (segment s is items
// [offsets[s], offsets[s + 1]), the offsets non-decreasing), by tiles of a block's share of the items.
//
// The items [offsets[0], offsets[num_segments]) are split into whole tiles, and one wave of blocks takes an even share
// of the tiles each (segmented_scan_tiles::share_of): every block reads the two ends itself, so the host never learns
// the number of items. A block scans its share tile by tile as the walk's parts (partial_op: a part that starts a
// segment replaces what came before it): the heads of a tile, from the offsets read forward coalesced, become a bit
// mask in shared memory (segmented_scan_tiles::tile_heads); the items are read warp-striped while it is built,
// transposed to rows and scanned with BlockScan, whose prefix callback carries the running part from tile to tile;
// the running value of every item that ends a segment or the tile goes to shared memory (a tile that no offset falls
// in is only reduced, in order, onto the running part). Then the segments that end in the tile (read from the offsets
// again, from cache) take their values there: a segment that starts in the share is written; the first to end in the
// share, where it started before it, and the part still open at the share's end become the block's two records, which
// the segmented reduce's records kernel folds in order (the walk's records).
// Empty segments are written by the block whose share holds their position (the last block for those at the end).
// Traffic: one read of the items, the offsets once from memory. Every combination order depends only on the data,
// the grid and the policy: results are the same bits run to run.
#pragma once

#include <strata/agent/agent_reduce.cuh>
#include <strata/agent/agent_segmented_scan_tiles.cuh>
#include <strata/agent/agent_segmented_walk.cuh>
#include <strata/block/block_exchange.cuh>
#include <strata/block/block_reduce.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/config.cuh>
#include <strata/util/load_store_direct.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tiled scan's knobs: BLOCK_THREADS x ITEMS_PER_THREAD items a tile (ITEMS_PER_THREAD <= 32), the tile's
// BlockScan, the kernel's register bound.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, BlockScanAlgorithm SCAN_ALGORITHM, int MIN_BLOCKS_PER_SM>
using AgentSegmentedReduceTilesPolicy =
  AgentSegmentedScanTilesPolicy<BLOCK_THREADS, ITEMS_PER_THREAD, SCAN_ALGORITHM, MIN_BLOCKS_PER_SM>;

// OffsetIteratorT: the num_segments + 1 offsets; AccumT: the reduction's accumulator; InitT: the initial value, or a
// detail::reduce::empty_value (ArgMin-like forms without one; it is only the output of an empty segment).
template <typename PolicyT, typename InputIteratorT, typename OutputIteratorT, typename OffsetIteratorT,
          typename AccumT, typename ReductionOpT, typename InitT>
struct AgentSegmentedReduceTiles
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;
  // The running values in shared memory, one word skipped every 32: a thread's consecutive items fall in banks apart.
  static constexpr int VALUE_SLOTS = TILE_ITEMS + TILE_ITEMS / 32;

  using InputT  = detail::it_value_t<InputIteratorT>;
  using OutputT = detail::non_void_value_t<OutputIteratorT, AccumT>;
  using PartT   = detail::segmented::partial<AccumT>;
  using PartOpT = detail::segmented::partial_op<ReductionOpT>;
  using RecordT = detail::segmented::record<AccumT>;
  using ShareT  = detail::segmented_scan_tiles::share;

  using ExchangeT = BlockExchange<InputT, BLOCK_THREADS, ITEMS_PER_THREAD>;
  using ScanT     = BlockScan<PartT, BLOCK_THREADS, PolicyT::SCAN_ALGORITHM>;
  using ReduceT   = BlockReduce<AccumT, BLOCK_THREADS, BLOCK_REDUCE_WARP_REDUCTIONS>; // keeps operand order
  using HeadsT    = detail::segmented_scan_tiles::tile_heads<BLOCK_THREADS, ITEMS_PER_THREAD>;

  struct _TempStorage
  {
    union
    {
      typename ExchangeT::TempStorage exchange;
      typename ScanT::TempStorage scan;
      typename ReduceT::TempStorage reduce;
    } stage;
    typename HeadsT::TempStorage heads;
    AccumT values[VALUE_SLOTS]; // the running value of the items that end a segment or the tile
    RecordT first;              // the block's first record
  };
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  _TempStorage& storage;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  OffsetIteratorT d_offsets;
  long long num_segments;
  PartOpT part_op;
  InitT init;

  STRATA_DEVICE STRATA_FORCEINLINE AgentSegmentedReduceTiles(TempStorage& storage, InputIteratorT d_in,
                                                             OutputIteratorT d_out, OffsetIteratorT d_offsets,
                                                             long long num_segments, ReductionOpT op, InitT init)
      : storage(storage.Alias())
      , d_in(d_in)
      , d_out(d_out)
      , d_offsets(d_offsets)
      , num_segments(num_segments)
      , part_op{op}
      , init(init)
  {}

  // Reduces this block's share of the wave of gridDim.x blocks and leaves its two records at d_records[0] and [1].
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeShare(RecordT* d_records)
  {
    const int tid        = static_cast<int>(threadIdx.x);
    const long long base = static_cast<long long>(d_offsets[0]);
    const long long end  = static_cast<long long>(d_offsets[num_segments]);
    const ShareT s       = detail::segmented_scan_tiles::share_of(base, end, TILE_ITEMS, static_cast<int>(gridDim.x),
                                                                  static_cast<int>(blockIdx.x));
    const RecordT none{-1, PartT{AccumT{}, false, false}};
    if (end <= base)
    {
      // No items: every segment is empty; the blocks share the writes.
      for (long long j = static_cast<long long>(blockIdx.x) * BLOCK_THREADS + tid; j < num_segments;
           j += static_cast<long long>(gridDim.x) * BLOCK_THREADS)
      {
        d_out[j] = Empty();
      }
    }
    if (s.empty())
    {
      if (tid == 0)
      {
        d_records[0] = none;
        d_records[1] = none;
      }
      return;
    }
    if (tid == 0)
    {
      storage.first = none;
    }
    long long cursor = detail::segmented_scan_tiles::lower_bound<BLOCK_THREADS>(d_offsets, 0, num_segments, s.first);
    PartT carry{AccumT{}, false, false};
    bool ends_at_last = false; // the share's last item ends a segment
    for (long long tile_start = s.first; tile_start < s.last; tile_start += TILE_ITEMS)
    {
      const long long tile_end = tile_start + TILE_ITEMS < s.last ? tile_start + TILE_ITEMS : s.last;
      const int valid          = static_cast<int>(tile_end - tile_start);
      // The items are on their way while the heads are marked.
      InputT items[ITEMS_PER_THREAD];
      if (valid == TILE_ITEMS)
      {
        LoadDirectWarpStriped(tid, d_in + tile_start, items);
      }
      else
      {
        LoadDirectWarpStriped(tid, d_in + tile_start, items, valid, InputT(d_in[tile_start]));
      }
      const long long first_index = cursor;
      cursor                      = HeadsT{storage.heads}.Mark(d_offsets, num_segments, cursor, tile_start, tile_end);
      ExchangeT(storage.stage.exchange).WarpStripedToBlocked(items, items);
      if (cursor == first_index)
      {
        ReduceTile(items, valid, carry); // no offset in the tile: no head, no segment ends before its last item
      }
      else
      {
        ScanTile(items, valid, carry);
      }
      ends_at_last = FinishTile(s, tile_start, tile_end, first_index, cursor, end);
    }
    __syncthreads(); // storage.first is written
    if (tid == 0)
    {
      d_records[0] = storage.first;
      // The part still open names its segment: the records' fold skips records that name none.
      d_records[1] = ends_at_last ? none : RecordT{cursor - 1, carry};
    }
  }

private:
  // An item's part: init op item where it starts a segment (the initial value goes in with each head).
  STRATA_DEVICE STRATA_FORCEINLINE PartT ItemPart(const InputT& item, bool head) const
  {
    const AccumT value = static_cast<AccumT>(item);
    return PartT{head ? detail::reduce::with_init(part_op.op, init, value) : value, true, head};
  }

  // The output of an empty segment.
  STRATA_DEVICE STRATA_FORCEINLINE OutputT Empty() const
  {
    return detail::segmented::result_of<OutputT>(PartT{AccumT{}, false, true}, init);
  }

  // Scans the tile's parts from `carry` (updated to the running part after its last valid item) and puts the running
  // value of each item that ends a segment or the tile in storage.values. requires: the mask of the tile marked.
  STRATA_DEVICE STRATA_FORCEINLINE void ScanTile(const InputT (&items)[ITEMS_PER_THREAD], int valid, PartT& carry)
  {
    const int tid = static_cast<int>(threadIdx.x);
    const HeadsT heads{storage.heads};
    const unsigned int flags = heads.Flags(tid);
    const int first          = tid * ITEMS_PER_THREAD;
    // Bit i: item i + 1 of this thread's run starts a segment (the next thread's first item for the last; none past
    // the tile).
    const unsigned int next_heads = first + 1 < TILE_ITEMS ? heads.FlagsFrom(first + 1) : 0u;
    PartT parts[ITEMS_PER_THREAD];
    PartT part{};
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      parts[i] = first + i < valid ? ItemPart(items[i], (flags >> i) & 1u) : PartT{AccumT{}, false, false};
      part     = i == 0 ? parts[i] : part_op(part, parts[i]);
    }
    __syncthreads(); // the exchange is read out
    PartT prefix{};
    auto carry_op = [&](const PartT& aggregate) {
      const PartT before = carry;
      carry              = part_op(carry, aggregate);
      return before;
    };
    ScanT(storage.stage.scan).ExclusiveScan(part, prefix, part_op, carry_op);
    PartT running = prefix;
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      running        = part_op(running, parts[i]);
      const int item = first + i;
      if (item < valid && (((next_heads >> i) & 1u) != 0u || item == valid - 1))
      {
        storage.values[item + item / 32] = running.value;
      }
    }
    __syncthreads(); // the values are in place, the scan's storage read out
  }

  // A tile without heads: its items reduced in order onto `carry`, whose value goes to storage.values as the running
  // value of the tile's last item (the one item of the tile that may end a segment).
  STRATA_DEVICE STRATA_FORCEINLINE void ReduceTile(const InputT (&items)[ITEMS_PER_THREAD], int valid, PartT& carry)
  {
    const int tid   = static_cast<int>(threadIdx.x);
    const int first = tid * ITEMS_PER_THREAD;
    AccumT part     = static_cast<AccumT>(items[0]);
    STRATA_UNROLL
    for (int i = 1; i < ITEMS_PER_THREAD; ++i)
    {
      if (first + i < valid)
      {
        part = static_cast<AccumT>(part_op.op(part, static_cast<AccumT>(items[i])));
      }
    }
    __syncthreads(); // the exchange is read out
    const AccumT aggregate =
      valid == TILE_ITEMS
        ? ReduceT(storage.stage.reduce).Reduce(part, part_op.op)
        : ReduceT(storage.stage.reduce).Reduce(part, part_op.op, (valid + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD);
    if (tid == 0)
    {
      carry                                        = part_op(carry, PartT{aggregate, true, false});
      storage.values[valid - 1 + (valid - 1) / 32] = carry.value;
    }
    __syncthreads(); // the value is in place, the reduction's storage read out
  }

  // The segments whose end (or, empty, whose position) lies in the tile [tile_start, tile_end): the window of offsets
  // [first_index, next_index) that the tile's marking read lies in the tile, next_index the first not below its end.
  // Returns whether the tile's last item ends a segment.
  STRATA_DEVICE STRATA_FORCEINLINE bool FinishTile(const ShareT& s, long long tile_start, long long tile_end,
                                                   long long first_index, long long next_index, long long end)
  {
    const int tid = static_cast<int>(threadIdx.x);
    // Offsets k in the tile: segment k - 1 is empty there, or (non-empty) ends just before offsets[k] (the tile
    // before takes those at the tile's start).
    for (long long k = first_index + tid; k < next_index; k += BLOCK_THREADS)
    {
      if (k == 0)
      {
        continue;
      }
      const long long at   = static_cast<long long>(d_offsets[k]);
      const long long head = static_cast<long long>(d_offsets[k - 1]);
      if (head == at)
      {
        d_out[k - 1] = Empty();
      }
      else if (at > tile_start)
      {
        End(s, k - 1, head, at - 1 - tile_start);
      }
    }
    // The segment that ends with the tile's last item, if one does.
    const bool ends_at_last = static_cast<long long>(d_offsets[next_index]) == tile_end;
    if (ends_at_last && tid == 0)
    {
      End(s, next_index - 1, static_cast<long long>(d_offsets[next_index - 1]), tile_end - 1 - tile_start);
    }
    // At the end of the items, the empty segments after the last one that has items.
    if (tile_end == end)
    {
      for (long long k = next_index + 1 + tid; k <= num_segments; k += BLOCK_THREADS)
      {
        d_out[k - 1] = Empty();
      }
    }
    __syncthreads(); // storage.values is read out
    return ends_at_last;
  }

  // Segment `segment`, begun at `head`, ends at item `item` of the tile: written where it began in the share, else the
  // block's first record.
  STRATA_DEVICE STRATA_FORCEINLINE void End(const ShareT& s, long long segment, long long head, long long item)
  {
    const int at       = static_cast<int>(item);
    const AccumT value = storage.values[at + at / 32];
    if (head >= s.first)
    {
      d_out[segment] = static_cast<OutputT>(value);
    }
    else
    {
      storage.first = RecordT{segment, PartT{value, true, false}};
    }
  }
};

STRATA_NAMESPACE_END
