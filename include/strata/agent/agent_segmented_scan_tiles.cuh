// AgentSegmentedScanTiles: the block bodies of the segmented scan of back-to-back segments (segment s is items
// [offsets[s], offsets[s + 1]), outputs at the items' own positions), by tiles of a block's share of the items.
//
// The items [offsets[0], offsets[num_segments]) are split into whole tiles, and one wave of G blocks takes an even
// share of the tiles each; every block reads the two ends itself, so the host never learns the number of items.
// A share's carry (what the running segment holds where the share begins) depends only on the items from the last
// head before the share, so:
// - Tails (pass 1): a block folds its share from its last head to its end (the whole share where it holds no head)
//   under the segmented operator and leaves that part, (head seen, value), in slot b. Short segments make this a
//   tile or two a share; the last share leaves nothing (no share after it needs it).
// - Scan (pass 2): a block folds the slots before it in order (the segmented operator keeps what follows the nearest
//   one with a head; share 0's slot has one, offsets[0] starting it), all read at once, and scans its share tile by
//   tile from there: the heads of a tile, from the offsets read forward coalesced, become a bit mask in shared memory;
//   the items are read warp-striped while the mask is built, transposed to rows, and scanned as (head, value) pairs
//   with BlockScan, whose prefix callback carries the running pair from tile to tile.
// Every combination order depends only on the data, the grid and the policy: results are the same bits run to run.
#pragma once

#include <strata/agent/agent_reduce.cuh>
#include <strata/agent/agent_scan_by_key.cuh>
#include <strata/block/block_exchange.cuh>
#include <strata/block/block_reduce.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/block_store.cuh>
#include <strata/config.cuh>
#include <strata/util/load_store_direct.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

#include <nv/target>

STRATA_NAMESPACE_BEGIN

// BLOCK_THREADS x ITEMS_PER_THREAD items a tile (ITEMS_PER_THREAD <= 32: a thread's head flags are one word of the
// mask); SCAN_ALGORITHM: the tile's BlockScan; MIN_BLOCKS_PER_SM: the register bound of both kernels.
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, BlockScanAlgorithm SCAN_ALGORITHM_, int MIN_BLOCKS_PER_SM_>
struct AgentSegmentedScanTilesPolicy
{
  static constexpr int BLOCK_THREADS                 = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD              = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS                    = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr BlockScanAlgorithm SCAN_ALGORITHM = SCAN_ALGORITHM_;
  static constexpr int MIN_BLOCKS_PER_SM             = MIN_BLOCKS_PER_SM_;
};

namespace detail
{
namespace segmented_scan_tiles
{
// A block's share of the items: [first, last), whole tiles from offsets[0] (the last one cut at the end).
struct share
{
  long long first;
  long long last;
  bool is_last; // the share that ends at the last item

  STRATA_DEVICE STRATA_FORCEINLINE bool empty() const
  {
    return first >= last;
  }
};

// Block `block` of `grid`: the first (num_tiles % grid) blocks take one tile more than the others, so empty shares
// (fewer tiles than blocks) come after every share with items.
STRATA_DEVICE STRATA_FORCEINLINE share share_of(long long base, long long end, int tile_items, int grid, int block)
{
  if (end <= base)
  {
    return share{0, 0, false};
  }
  const long long num_tiles = (end - base + tile_items - 1) / tile_items;
  const long long q         = num_tiles / grid;
  const long long extra     = num_tiles % grid;
  const long long t0        = block * q + (block < extra ? block : extra);
  const long long t1        = t0 + q + (block < extra ? 1 : 0);
  const long long first     = base + t0 * tile_items;
  const long long last      = base + t1 * tile_items < end ? base + t1 * tile_items : end;
  return share{first, last, last == end};
}

// The first index in [lo, hi) whose offset is at least `value` (hi where none is), the offsets non-decreasing: every
// thread of the block probes once a round, so log_BLOCK_THREADS(hi - lo) dependent rounds. Every thread of the block
// calls it and gets the result.
template <int BLOCK_THREADS, typename OffsetIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE long long lower_bound(OffsetIteratorT d_offsets, long long lo, long long hi,
                                                       long long value)
{
  while (lo < hi)
  {
    const long long chunk = (hi - lo + BLOCK_THREADS - 1) / BLOCK_THREADS;
    const long long probe = lo + static_cast<long long>(threadIdx.x) * chunk;
    const int below       = __syncthreads_count(probe < hi && static_cast<long long>(d_offsets[probe]) < value ? 1 : 0);
    if (below == 0)
    {
      return lo;
    }
    const long long next_hi = lo + below * chunk;
    lo                      = lo + (below - 1) * chunk + 1;
    hi                      = next_hi < hi ? next_hi : hi;
  }
  return lo;
}

// A tile's segment heads as a bit mask in shared memory: bit i set where item i of the tile starts a segment (an
// offset of index < num_segments falls on it).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
struct tile_heads
{
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int MASK_WORDS = TILE_ITEMS / 32;
  // Offsets a thread reads a round: a tile of one-item segments and the offset after it take one round.
  static constexpr int OFFSETS_PER_THREAD = ITEMS_PER_THREAD + 1;
  static constexpr int WINDOW             = OFFSETS_PER_THREAD * BLOCK_THREADS;
  static constexpr int MARK_BATCH         = 4; // offsets a thread has in flight while marking
  static_assert(BLOCK_THREADS % 32 == 0, "whole warps: the heads are marked warp by warp");
  static_assert(ITEMS_PER_THREAD >= 1 && ITEMS_PER_THREAD <= 32, "a thread's head flags are one word of the mask");

  struct TempStorage
  {
    unsigned int mask[MASK_WORDS]; // bit i: item i of the tile starts a segment
    int offsets_below[3];          // a round of offsets: the first that is not below the tile's end (three rounds'
                                   // counters in turn, so one barrier a round)
  };

  TempStorage& storage;

  // Sets the mask's bit of every offset in [tile_start, tile_end), reading the offsets from index `cursor` (the first
  // not below tile_start) forward, a window of WINDOW a round, coalesced. Returns the first index not below tile_end
  // (num_segments at most). Every thread calls it; the mask is complete (after a barrier) on return.
  template <typename OffsetIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE long long Mark(OffsetIteratorT d_offsets, long long num_segments, long long cursor,
                                                  long long tile_start, long long tile_end)
  {
    const int tid = static_cast<int>(threadIdx.x);
    __syncthreads(); // the tile before is done with the mask and the counters
    for (int w = tid; w < MASK_WORDS; w += BLOCK_THREADS)
    {
      storage.mask[w] = 0u;
    }
    if (tid < 3)
    {
      storage.offsets_below[tid] = WINDOW;
    }
    __syncthreads();
    for (int round = 0;; ++round)
    {
      int stop = WINDOW; // this thread's first position of the window not below tile_end
      // Offsets a batch at a time (the tile's items are in flight too, and registers bound the blocks per SM), and
      // no more once a lane of the warp has reached tile_end: the offsets are non-decreasing, so every position
      // after that lane's in the window (all of the batches after) is past the tile. A tile with few heads costs one
      // batch.
      for (int j0 = 0; j0 < OFFSETS_PER_THREAD; j0 += MARK_BATCH)
      {
        long long at[MARK_BATCH];
        STRATA_UNROLL
        for (int u = 0; u < MARK_BATCH; ++u)
        {
          const long long index = cursor + (j0 + u) * BLOCK_THREADS + tid;
          at[u] =
            j0 + u < OFFSETS_PER_THREAD && index < num_segments ? static_cast<long long>(d_offsets[index]) : tile_end;
        }
        STRATA_UNROLL
        for (int u = 0; u < MARK_BATCH; ++u)
        {
          const int position = (j0 + u) * BLOCK_THREADS + tid;
          if (at[u] >= tile_end && position < stop)
          {
            stop = position;
          }
          const bool inside = at[u] >= tile_start && at[u] < tile_end;
          Set(inside, inside ? static_cast<int>(at[u] - tile_start) : 0);
        }
        if (__any_sync(0xffffffffu, stop < WINDOW))
        {
          break;
        }
      }
      if (stop < WINDOW)
      {
        atomicMin(&storage.offsets_below[round % 3], stop);
      }
      __syncthreads();
      const int below = storage.offsets_below[round % 3];
      if (tid == 0)
      {
        // Nobody reads this counter again before the next round's barrier, and nobody writes it before the one
        // after (three counters in turn).
        storage.offsets_below[(round + 2) % 3] = WINDOW;
      }
      cursor += below;
      if (below < WINDOW)
      {
        return cursor;
      }
    }
  }

  // The head flags of thread `tid`'s ITEMS_PER_THREAD consecutive items (bit i: its item i), from the mask.
  STRATA_DEVICE STRATA_FORCEINLINE unsigned int Flags(int tid) const
  {
    return FlagsFrom(tid * ITEMS_PER_THREAD);
  }

  // The 32 flags from item `bit` of the tile on (bit i: item bit + i; 0 past the tile), bit < TILE_ITEMS.
  STRATA_DEVICE STRATA_FORCEINLINE unsigned int FlagsFrom(int bit) const
  {
    const unsigned int lo = storage.mask[bit / 32];
    const unsigned int hi = bit / 32 + 1 < MASK_WORDS ? storage.mask[bit / 32 + 1] : 0u;
    return __funnelshift_r(lo, hi, static_cast<unsigned int>(bit % 32));
  }

private:
  // Sets bit `bit` of the mask where `inside`: the lanes of a warp that set bits of one word join them into one
  // atomic OR (one-item segments put 32 of a warp's heads in a word). Every lane of the warp calls it.
  STRATA_DEVICE STRATA_FORCEINLINE void Set(bool inside, int bit)
  {
    const unsigned int word = static_cast<unsigned int>(bit) / 32u;
    const unsigned int mask = inside ? 1u << (bit % 32) : 0u;
    NV_IF_TARGET(NV_PROVIDES_SM_80,
                 (const unsigned int peers = MatchAnySync(inside ? word : 0xffffffffu);
                  const unsigned int bits  = WarpReduxOr(mask, peers);
                  if (inside && (threadIdx.x % 32) == static_cast<unsigned int>(__ffs(peers) - 1)) {
                    atomicOr(&storage.mask[word], bits);
                  }),
                 (if (inside) { atomicOr(&storage.mask[word], mask); }));
  }
};
} // namespace segmented_scan_tiles
} // namespace detail

// The block bodies of both passes. OffsetIteratorT: the num_segments + 1 offsets; AccumT: the scan's accumulator;
// InitT: the initial value, or a detail::reduce::empty_value (inclusive scans without one). With an initial value
// every head's value is init op item, so a carried value already holds it.
template <typename PolicyT, typename InputIteratorT, typename OutputIteratorT, typename OffsetIteratorT,
          typename AccumT, typename ScanOpT, typename InitT, bool EXCLUSIVE>
struct AgentSegmentedScanTiles
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;
  static constexpr bool HAS_INIT        = !detail::reduce::is_empty_value<InitT>::value;
  // The most shares (blocks of the wave) the carry's fold takes.
  static constexpr int MAX_SHARES = 8 * BLOCK_THREADS;
  static_assert(HAS_INIT || !EXCLUSIVE, "an exclusive scan needs an initial value");

  using InputT  = detail::it_value_t<InputIteratorT>;
  using PartT   = detail::scan::segmented_value<AccumT>;
  using PartOpT = detail::scan::segmented_op<ScanOpT>;

  using ExchangeT = BlockExchange<InputT, BLOCK_THREADS, ITEMS_PER_THREAD>;
  using ScanT     = BlockScan<PartT, BLOCK_THREADS, PolicyT::SCAN_ALGORITHM>;
  using ReduceT   = BlockReduce<PartT, BLOCK_THREADS, BLOCK_REDUCE_WARP_REDUCTIONS>; // keeps operand order
  using StoreT    = BlockStore<AccumT, BLOCK_THREADS, ITEMS_PER_THREAD, BLOCK_STORE_WARP_TRANSPOSE>;
  using HeadsT    = detail::segmented_scan_tiles::tile_heads<BLOCK_THREADS, ITEMS_PER_THREAD>;

  struct _TempStorage
  {
    union
    {
      typename ExchangeT::TempStorage exchange;
      typename ScanT::TempStorage scan;
      typename ReduceT::TempStorage reduce;
      typename StoreT::TempStorage store;
    } stage;
    typename HeadsT::TempStorage heads;
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

  STRATA_DEVICE STRATA_FORCEINLINE AgentSegmentedScanTiles(TempStorage& storage, InputIteratorT d_in,
                                                           OutputIteratorT d_out, OffsetIteratorT d_offsets,
                                                           long long num_segments, ScanOpT op, InitT init)
      : storage(storage.Alias())
      , d_in(d_in)
      , d_out(d_out)
      , d_offsets(d_offsets)
      , num_segments(num_segments)
      , part_op{op}
      , init(init)
  {}

  // This block's share of the wave of `grid` blocks.
  STRATA_DEVICE STRATA_FORCEINLINE detail::segmented_scan_tiles::share Share(int grid) const
  {
    const long long base = static_cast<long long>(d_offsets[0]);
    const long long end  = static_cast<long long>(d_offsets[num_segments]);
    return detail::segmented_scan_tiles::share_of(base, end, TILE_ITEMS, grid, static_cast<int>(blockIdx.x));
  }

  // -- pass 1 ---------------------------------------------------------------------------------------------------

  // Folds the share from its last head to its end into *d_part (from thread 0). requires: a share that is neither
  // empty nor the last.
  STRATA_DEVICE STRATA_FORCEINLINE void Tail(const detail::segmented_scan_tiles::share& s, PartT* d_part)
  {
    // The last head before the share's end (offsets[0] <= s.first is one, so k >= 1).
    const long long k    = detail::segmented_scan_tiles::lower_bound<BLOCK_THREADS>(d_offsets, 0, num_segments, s.last);
    const long long head = static_cast<long long>(d_offsets[k - 1]);
    const bool has_head  = head >= s.first;
    long long tile_start = has_head ? s.first + (head - s.first) / TILE_ITEMS * TILE_ITEMS : s.first;
    const int tid        = static_cast<int>(threadIdx.x);
    PartT running{};
    for (bool first_tile = true; tile_start < s.last; tile_start += TILE_ITEMS, first_tile = false)
    {
      InputT items[ITEMS_PER_THREAD];
      LoadDirectWarpStriped(tid, d_in + tile_start, items);
      __syncthreads(); // the stage's last use (the tile before's reduction) is over
      ExchangeT(storage.stage.exchange).WarpStripedToBlocked(items, items);
      const long long at = head - tile_start - static_cast<long long>(tid) * ITEMS_PER_THREAD;
      PartT part{};
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const bool flag   = has_head && at == i;
        const PartT value = PartT{flag ? 1 : 0, Value(items[i], flag)};
        part              = i == 0 ? value : part_op(part, value);
      }
      __syncthreads(); // the exchange is read out
      const PartT tile = ReduceT(storage.stage.reduce).Reduce(part, part_op);
      running          = first_tile ? tile : part_op(running, tile);
    }
    if (threadIdx.x == 0)
    {
      *d_part = running;
    }
  }

  // -- pass 2 ---------------------------------------------------------------------------------------------------

  // The carry into share `block` (valid in thread 0): the parts of the shares before it folded in order (the
  // segmented operator drops everything before the nearest one with a head). Thread t folds a run of at most
  // MAX_SHARES / BLOCK_THREADS of them, all loaded at once, and BlockReduce joins the runs in thread order.
  // requires: 0 < block <= MAX_SHARES, and every share before it neither empty nor the last.
  STRATA_DEVICE STRATA_FORCEINLINE PartT Carry(const PartT* d_parts, int block)
  {
    constexpr int MOST = MAX_SHARES / BLOCK_THREADS;
    const int run      = (block + BLOCK_THREADS - 1) / BLOCK_THREADS;
    const int first    = static_cast<int>(threadIdx.x) * run;
    const int count    = block - first < run ? block - first : run;
    PartT parts[MOST];
    STRATA_UNROLL
    for (int i = 0; i < MOST; ++i)
    {
      if (i < count)
      {
        parts[i] = d_parts[first + i];
      }
    }
    PartT part = parts[0];
    STRATA_UNROLL
    for (int i = 1; i < MOST; ++i)
    {
      if (i < count)
      {
        part = part_op(part, parts[i]);
      }
    }
    return ReduceT(storage.stage.reduce).Reduce(part, part_op, (block + run - 1) / run);
  }

  // Scans share `s` from the carry before it (thread 0's; ignored for share 0, which starts with a head) and writes
  // its outputs.
  STRATA_DEVICE STRATA_FORCEINLINE void Scan(const detail::segmented_scan_tiles::share& s, long long cursor,
                                             PartT carry)
  {
    const int tid = static_cast<int>(threadIdx.x);
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
      cursor = HeadsT{storage.heads}.Mark(d_offsets, num_segments, cursor, tile_start, tile_end);
      ExchangeT(storage.stage.exchange).WarpStripedToBlocked(items, items);

      const unsigned int flags = HeadsT{storage.heads}.Flags(tid);
      AccumT values[ITEMS_PER_THREAD];
      PartT part{};
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const bool flag = (flags >> i) & 1u;
        values[i]       = Value(items[i], flag);
        part            = i == 0 ? PartT{flag ? 1 : 0, values[i]} : part_op(part, PartT{flag ? 1 : 0, values[i]});
      }
      if (tile_start == s.first && blockIdx.x == 0)
      {
        carry = PartT{1, values[0]}; // thread 0's first item starts segment 0: any carry would do
      }
      __syncthreads(); // the exchange is read out
      PartT prefix{};
      auto carry_op = [&](const PartT& aggregate) {
        const PartT before = carry;
        carry              = part_op(carry, aggregate);
        return before;
      };
      ScanT(storage.stage.scan).ExclusiveScan(part, prefix, part_op, carry_op);

      AccumT running = prefix.value;
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const bool flag = (flags >> i) & 1u;
        const AccumT v  = values[i];
        if constexpr (EXCLUSIVE)
        {
          values[i] = flag ? static_cast<AccumT>(init) : running;
        }
        running = flag ? v : static_cast<AccumT>(part_op.op(running, v));
        if constexpr (!EXCLUSIVE)
        {
          values[i] = running;
        }
      }
      __syncthreads(); // the scan's storage is read out
      if (valid == TILE_ITEMS)
      {
        StoreT(storage.stage.store).Store(d_out + tile_start, values);
      }
      else
      {
        StoreT(storage.stage.store).Store(d_out + tile_start, values, valid);
      }
    }
  }

private:
  // An item's value in the scan: init op item at a head where there is an initial value.
  STRATA_DEVICE STRATA_FORCEINLINE AccumT Value(const InputT& item, bool head) const
  {
    if constexpr (HAS_INIT)
    {
      return head ? static_cast<AccumT>(part_op.op(init, item)) : static_cast<AccumT>(item);
    }
    else
    {
      (void) head;
      return static_cast<AccumT>(item);
    }
  }
};

STRATA_NAMESPACE_END
