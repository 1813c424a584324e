// AgentReduceByKey: the block-wide body of DeviceReduce::ReduceByKey's single-pass kernel.
//
// A reduction by key is a single-pass inclusive scan of (runs, value) pairs. Item i is (head, values[i]), where head is
// 1 when key i starts a run (i == 0, or !equality_op(keys[i - 1], keys[i])), under the operator (r1, v1) . (r2, v2) =
// (r1 + r2, r2 ? v2 : v1 op v2), which counts the runs and restarts the value at every head (associative whenever op
// is). After the scan, item i holds the number of runs up to it and the reduction of its run up to it, so the last item
// of a run (a tail) writes its key to unique_out[runs - 1] and its value to aggregates_out[runs - 1] (a run's last key,
// as CUB and Thrust's CUDA backend write: under a coarser equality than ==, a run's keys may differ), and the last
// tile's last item (past the end nothing is counted) holds the number of runs. Heads and tails come from
// BlockDiscontinuity against the keys just before and just after the tile. A tile's runs are consecutive: where it
// holds more than a thread each, they are compacted in shared memory and leave as consecutive stores. The tile scan and
// its decoupled look-back are AgentScan's (detail::scan::tile_scan): operands are combined in sequence order, and where
// op is not exact (floating point, user operators) the look-back folds its predecessors in order too, so aggregates are
// the same bits run to run. Tiles are claimed from a counter by one wave of resident blocks, which prefetch the keys
// and values of the tile a wave ahead into L2, as AgentScan's do.
#pragma once

#include <strata/agent/agent_scan.cuh>
#include <strata/agent/agent_scan_by_key.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_discontinuity.cuh>
#include <strata/block/block_load.cuh>
#include <strata/config.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace reduce_by_key
{
// What AgentReduceByKey computes and writes for each run.
enum class runs
{
  reduce,      // DeviceReduce::ReduceByKey: the run's last key and the reduction of its values
  encode,      // DeviceRunLengthEncode::Encode: the run's first key and its length (the values are 1s, never loaded)
  non_trivial, // DeviceRunLengthEncode::NonTrivialRuns: the start and length of each run of more than one item
};

// A scanned item: the number of runs that started up to it, and the reduction of its run up to it.
template <typename OffsetT, typename V>
struct run_value
{
  OffsetT runs;
  V value;
};

// The operator of the scan: counts runs, and restarts the value where the right operand holds a head.
template <typename ReductionOpT>
struct run_op
{
  mutable ReductionOpT op; // mutable: an operator may have a non-const operator() (Thrust accepts those)
  template <typename OffsetT, typename V>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE run_value<OffsetT, V> operator()(const run_value<OffsetT, V>& a,
                                                                         const run_value<OffsetT, V>& b) const
  {
    return run_value<OffsetT, V>{static_cast<OffsetT>(a.runs + b.runs),
                                 b.runs ? b.value : static_cast<V>(op(a.value, b.value))};
  }
};

// A run that ends in a tile, as it waits in shared memory to leave: its key (or start) and its reduction side by side,
// aligned so that one vector access moves both where their sizes allow it (two 4-byte or two 8-byte members).
template <typename K, typename V>
struct alignas(sizeof(K) == sizeof(V) && (sizeof(K) == 4 || sizeof(K) == 8)
                 ? 2 * sizeof(K)
                 : (alignof(K) > alignof(V) ? alignof(K) : alignof(V))) ended_run
{
  K key;
  V value;
};
} // namespace reduce_by_key

// A pair of a 32-bit run count and an 8-byte arithmetic value keeps its 12 bytes beside its status in one 128-bit word
// of tile state (not in separate status and value arrays, whose look-back reads twice as long).
template <typename V>
struct scan_tile_parts96<reduce_by_key::run_value<cuda::std::uint32_t, V>,
                         cuda::std::enable_if_t<sizeof(V) == 8 && cuda::std::is_arithmetic<V>::value>>
    : cuda::std::true_type
{
  using T = reduce_by_key::run_value<cuda::std::uint32_t, V>;
  static STRATA_DEVICE STRATA_FORCEINLINE void split(const T& t, unsigned long long& lo, cuda::std::uint32_t& hi)
  {
    memcpy(&lo, &t.value, sizeof(V));
    hi = t.runs;
  }
  static STRATA_DEVICE STRATA_FORCEINLINE T join(unsigned long long lo, cuda::std::uint32_t hi)
  {
    T t;
    memcpy(&t.value, &lo, sizeof(V));
    t.runs = hi;
    return t;
  }
};

// The run-counting form of an exact operator is exact: the look-back may reduce its windows with a tree.
template <typename OffsetT, typename V, typename ReductionOpT>
struct scan_op_is_exact<reduce_by_key::run_value<OffsetT, V>, reduce_by_key::run_op<ReductionOpT>>
    : scan_op_is_exact<V, ReductionOpT>
{};

// A head restarts the run-counting operator's value (its run count is exact): an inexact one's look-back folds in order
// from the nearest tile with a head.
template <typename OffsetT, typename V, typename ReductionOpT>
struct scan_op_restarts<reduce_by_key::run_value<OffsetT, V>, reduce_by_key::run_op<ReductionOpT>>
    : cuda::std::true_type
{
  // The run count goes on through a head: the counts before it are summed.
  static constexpr bool absorbs = false;
  static STRATA_DEVICE STRATA_FORCEINLINE bool restarts(const reduce_by_key::run_value<OffsetT, V>& b)
  {
    return b.runs != OffsetT(0);
  }
};
} // namespace detail

// PolicyT: an AgentScanPolicy (its store algorithm unused). AccumT: the values' accumulator.
//
// MODE (detail::reduce_by_key::runs): what a run writes. Both run-length encodings take 1s for values, never loaded
// (d_values_in is unused; op is plus), so a run's reduction is its length.
// - encode: each run's first key (written where the run starts, to the slot the head's count names) and its length
//   (where it ends).
// - non_trivial: the count goes up only where a run of more than one item starts (a head that is no tail), which also
//   restarts the value: the lengths of runs of one item run on into the next longer run's start and are never
//   written. Where such a run ends (a tail that is no head), its start (the item's index less its length, plus one)
//   goes to the first output and its length to the second.
template <typename PolicyT, typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
          typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename EqualityOpT,
          typename ReductionOpT, typename OffsetT, typename AccumT,
          detail::reduce_by_key::runs MODE = detail::reduce_by_key::runs::reduce>
class AgentReduceByKey
{
  static constexpr bool NON_TRIVIAL_RUNS = MODE == detail::reduce_by_key::runs::non_trivial;
  static constexpr bool ENCODE           = MODE == detail::reduce_by_key::runs::encode;
  static constexpr bool ONES             = MODE != detail::reduce_by_key::runs::reduce; // values are 1s
  static constexpr int BLOCK_THREADS     = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD  = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS        = PolicyT::TILE_ITEMS;

  using KeyT     = detail::it_value_t<KeysInputIteratorT>;
  using ValueInT = detail::it_value_t<ValuesInputIteratorT>;
  using UniqueT =
    detail::non_void_value_t<UniqueOutputIteratorT, cuda::std::conditional_t<NON_TRIVIAL_RUNS, OffsetT, KeyT>>;
  using AggregateT = detail::non_void_value_t<AggregatesOutputIteratorT, AccumT>;
  // What the first output gets for a run, before its conversion to UniqueT: the key, or in NON_TRIVIAL_RUNS the run's
  // start. Runs pass through shared memory in this type and AccumT, the types the policy sized the tile for.
  using RunKeyT    = cuda::std::conditional_t<NON_TRIVIAL_RUNS, OffsetT, KeyT>;
  using CountT     = detail::non_void_value_t<NumRunsOutputIteratorT, OffsetT>;
  using EndedRunT  = detail::reduce_by_key::ended_run<RunKeyT, AccumT>;
  using PairT      = detail::reduce_by_key::run_value<OffsetT, AccumT>;
  using PairOpT    = detail::reduce_by_key::run_op<ReductionOpT>;
  using TileStateT = ScanTileState<PairT>;
  using KeyLoadT   = BlockLoad<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using ValueLoadT = BlockLoad<ValueInT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using FlagsT     = BlockDiscontinuity<KeyT, BLOCK_THREADS>;
  using TileScanT  = detail::scan::tile_scan<PolicyT, PairT, PairOpT, detail::scan::no_init, true>;

  static constexpr bool PREFETCH_KEYS = detail::scan::prefetchable_tiles_v<PolicyT, KeysInputIteratorT, KeyT>;
  static constexpr bool PREFETCH_VALUES =
    !ONES && detail::scan::prefetchable_tiles_v<PolicyT, ValuesInputIteratorT, ValueInT>;

public:
  // Shared memory: a tile's key and value loads, side by side, then the runs that end in it, which leave after the
  // scan; the flags' exchange, the scan with its look-back, and the flags of the tile's ends have places of their own.
  // So the flags' barrier is the only one between a tile's loads and its scan, and the scan's last barrier the only
  // one before its runs are compacted.
  struct TempStorage
  {
    union
    {
      struct
      {
        typename KeyLoadT::TempStorage keys;
        typename ValueLoadT::TempStorage values;
      } load;
      // The runs that end in the tile, compacted in order, each key beside its reduction.
      Uninitialized<EndedRunT[TILE_ITEMS]> ended;
      // encode's: the first keys of the runs that start in the tile, and the lengths of those that end there.
      struct
      {
        Uninitialized<KeyT[TILE_ITEMS]> keys;
        Uninitialized<AccumT[TILE_ITEMS]> lengths;
      } encoded;
    };
    typename TileScanT::TempStorage scan;
    typename FlagsT::TempStorage flags;
    // 1 unless the tile's first item is a head (its run then starts before the tile), and whether the tile's last
    // item ends a run: written before the scan, read after it.
    int first_offset;
    int last_is_tail;
    unsigned int tile_idx;
  };

  STRATA_DEVICE STRATA_FORCEINLINE
  AgentReduceByKey(TempStorage& temp_storage, KeysInputIteratorT d_keys_in, UniqueOutputIteratorT d_unique_out,
                   ValuesInputIteratorT d_values_in, AggregatesOutputIteratorT d_aggregates_out,
                   NumRunsOutputIteratorT d_num_runs_out, EqualityOpT equality_op, ReductionOpT reduction_op,
                   OffsetT num_items)
      : temp_storage_(temp_storage)
      , d_keys_in_(d_keys_in)
      , d_unique_out_(d_unique_out)
      , d_values_in_(d_values_in)
      , d_aggregates_out_(d_aggregates_out)
      , d_num_runs_out_(d_num_runs_out)
      , equality_op_(equality_op)
      , reduction_op_(reduction_op)
      , num_items_(num_items)
  {}

  // Reduces tiles until none is left: tile 0 alone when `tile_counter` is null (a single tile), else the tiles the
  // block claims from `tile_counter` (one, unless PERSISTENT).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(unsigned int num_tiles, TileStateT tile_state,
                                                     unsigned int* tile_counter, unsigned int prefetch_distance)
  {
    detail::scan::consume_claimed_tiles<PolicyT::PERSISTENT>(
      temp_storage_.tile_idx, num_tiles, tile_counter,
      [&](unsigned int tile_idx, auto is_last, unsigned int* claim_next) {
        consume<decltype(is_last)::value>(tile_idx, num_tiles, tile_state, claim_next, prefetch_distance);
      });
  }

private:
  // Whether an item ends a run that is written: any run's last item, or in NON_TRIVIAL_RUNS a tail that is no head.
  static STRATA_DEVICE STRATA_FORCEINLINE bool ends_run(int head, int tail)
  {
    return NON_TRIVIAL_RUNS ? (tail && !head) : tail != 0;
  }

  // What a run's end writes to the first output: its key, or in NON_TRIVIAL_RUNS the run's start (the ending item's
  // index less the run's length, plus one).
  STRATA_DEVICE STRATA_FORCEINLINE RunKeyT run_key(const KeyT& key, OffsetT tile_offset, int i, const AccumT& length)
  {
    if constexpr (NON_TRIVIAL_RUNS)
    {
      const OffsetT item = tile_offset + static_cast<OffsetT>(static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD + i);
      return item - static_cast<OffsetT>(length) + OffsetT(1);
    }
    else
    {
      return key;
    }
  }

  // The key before the tile, read by the thread that compares with it (thread 0).
  STRATA_DEVICE STRATA_FORCEINLINE KeyT predecessor(OffsetT tile_offset, const KeyT (&keys)[ITEMS_PER_THREAD]) const
  {
    return threadIdx.x == 0 ? KeyT(d_keys_in_[tile_offset - OffsetT(1)]) : keys[0];
  }

  // Reduces tile `tile_idx`. With `claim_next`, thread 0 claims the block's next tile from it once the tile has its
  // prefix, and leaves it in temp_storage_.tile_idx (read after the caller's barrier).
  template <bool IS_LAST_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE void consume(unsigned int tile_idx, unsigned int num_tiles, TileStateT tile_state,
                                                unsigned int* claim_next, unsigned int prefetch_distance)
  {
    const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    const int valid_items     = IS_LAST_TILE ? static_cast<int>(num_items_ - tile_offset) : TILE_ITEMS;

    if constexpr (PREFETCH_KEYS)
    {
      // Whole tiles only (the last tile's end may not be a multiple of 16 bytes).
      const unsigned long long ahead = static_cast<unsigned long long>(tile_idx) + prefetch_distance;
      if (threadIdx.x == 0 && prefetch_distance > 0 && ahead + 1 < num_tiles)
      {
        const OffsetT ahead_offset = static_cast<OffsetT>(ahead) * OffsetT(TILE_ITEMS);
        detail::scan::prefetch_tile<PolicyT>(d_keys_in_, ahead_offset);
        if constexpr (PREFETCH_VALUES)
        {
          detail::scan::prefetch_tile<PolicyT>(d_values_in_, ahead_offset);
        }
      }
    }

    // Load the keys and values (or make the 1s); items past the end of the last tile repeat its first key and
    // value.
    KeyT keys[ITEMS_PER_THREAD];
    ValueInT values[ITEMS_PER_THREAD];
    detail::scan::load_tile<PolicyT, KeyLoadT, IS_LAST_TILE>(temp_storage_.load.keys, d_keys_in_, tile_offset,
                                                             valid_items, keys);
    if constexpr (ONES)
    {
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        values[i] = ValueInT(1);
      }
    }
    else
    {
      detail::scan::load_tile<PolicyT, ValueLoadT, IS_LAST_TILE>(temp_storage_.load.values, d_values_in_, tile_offset,
                                                                 valid_items, values);
    }

    // Heads and tails: the first item of the input is a head, its last a tail; elsewhere the keys around the tile
    // decide.
    int heads[ITEMS_PER_THREAD];
    int tails[ITEMS_PER_THREAD];
    const detail::scan::keys_differ<EqualityOpT> differ{equality_op_};
    FlagsT flags(temp_storage_.flags);
    if (IS_LAST_TILE)
    {
      if (tile_offset == OffsetT(0))
      {
        flags.FlagHeadsAndTails(heads, tails, keys, differ);
      }
      else
      {
        flags.FlagHeadsAndTails(heads, predecessor(tile_offset, keys), tails, keys, differ);
      }
      // Past the end nothing starts or ends; the input's last item ends its run.
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const int item = static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD + i;
        heads[i]       = item < valid_items ? heads[i] : 0;
        tails[i]       = item < valid_items - 1 ? tails[i] : (item == valid_items - 1 ? 1 : 0);
      }
    }
    else
    {
      // The key after the tile, read by the thread that compares with it.
      const KeyT successor = threadIdx.x == BLOCK_THREADS - 1 ? KeyT(d_keys_in_[tile_offset + OffsetT(TILE_ITEMS)])
                                                              : keys[ITEMS_PER_THREAD - 1];
      if (tile_offset == OffsetT(0))
      {
        flags.FlagHeadsAndTails(heads, tails, successor, keys, differ);
      }
      else
      {
        flags.FlagHeadsAndTails(heads, predecessor(tile_offset, keys), tails, successor, keys, differ);
      }
    }

    PairT items[ITEMS_PER_THREAD];
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int counted = NON_TRIVIAL_RUNS ? (heads[i] && !tails[i]) : heads[i];
      items[i]          = PairT{static_cast<OffsetT>(counted), static_cast<AccumT>(values[i])};
    }
    if (threadIdx.x == 0)
    {
      temp_storage_.first_offset = heads[0] ? 0 : 1;
    }
    if (threadIdx.x == BLOCK_THREADS - 1)
    {
      temp_storage_.last_is_tail = IS_LAST_TILE ? 1 : tails[ITEMS_PER_THREAD - 1];
    }
    // Scan in place, with the look-back for every tile but the first (the flags' barrier is behind every thread's
    // loads, and the scan's storage is its own).
    PairT(&scanned)[ITEMS_PER_THREAD] = items;
    const detail::scan::tile_prefixes<PairT> prefixes =
      TileScanT{temp_storage_.scan, PairOpT{reduction_op_}, detail::scan::no_init{}}(tile_idx, IS_LAST_TILE, items,
                                                                                     scanned, tile_state);
    if constexpr (BLOCK_THREADS <= WARP_THREADS)
    {
      __syncwarp(); // the scan of a one-warp block has no barrier
    }
    unsigned int claimed = 0;
    if (claim_next != nullptr && threadIdx.x == 0)
    {
      claimed = atomicAdd(claim_next, 1u);
    }

    // The runs that end in the tile are consecutive: from the run of its first item (the next one, where that item is
    // a run of one in NON_TRIVIAL_RUNS) to that of its last (less one where the last item's run goes on past the
    // tile). The runs before the tile are counted by its exclusive prefix, runs_before: the tile's first item is in run
    // runs_before - 1 unless it is a head (a run of one in NON_TRIVIAL_RUNS, which counts nothing, is followed by run
    // runs_before).
    const OffsetT runs_before = tile_idx == 0 ? OffsetT(0) : prefixes.exclusive.runs;
    const OffsetT first_run   = runs_before - OffsetT(temp_storage_.first_offset);
    const int tile_runs       = static_cast<int>(prefixes.inclusive.runs - first_run) - 1 + temp_storage_.last_is_tail;

    // Each run's last key and its value, written where the run ends (encode: its first key where it starts): through
    // shared memory as consecutive stores where the tile holds more runs than threads, directly otherwise.
    if constexpr (ENCODE)
    {
      write_encoded(heads, tails, keys, scanned, runs_before, prefixes.inclusive.runs, first_run, tile_runs);
    }
    else if (tile_runs > BLOCK_THREADS)
    {
      auto& ended = temp_storage_.ended.Alias();
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if (ends_run(heads[i], tails[i]))
        {
          ended[static_cast<int>(scanned[i].runs - OffsetT(1) - first_run)] =
            EndedRunT{run_key(keys[i], tile_offset, i, scanned[i].value), scanned[i].value};
        }
      }
      __syncthreads();
      for (int slot = static_cast<int>(threadIdx.x); slot < tile_runs; slot += BLOCK_THREADS)
      {
        const EndedRunT run                          = ended[slot];
        d_unique_out_[first_run + OffsetT(slot)]     = static_cast<UniqueT>(run.key);
        d_aggregates_out_[first_run + OffsetT(slot)] = static_cast<AggregateT>(run.value);
      }
    }
    else
    {
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if (ends_run(heads[i], tails[i]))
        {
          const OffsetT run      = scanned[i].runs - OffsetT(1);
          d_unique_out_[run]     = static_cast<UniqueT>(run_key(keys[i], tile_offset, i, scanned[i].value));
          d_aggregates_out_[run] = static_cast<AggregateT>(scanned[i].value);
        }
      }
    }
    // Past the end nothing is counted, so the tile's last item holds the input's count (read from registers: picking
    // the last valid item by index would put the scanned items in local memory).
    if (IS_LAST_TILE && threadIdx.x == BLOCK_THREADS - 1)
    {
      *d_num_runs_out_ = static_cast<CountT>(scanned[ITEMS_PER_THREAD - 1].runs);
    }
    if (claim_next != nullptr && threadIdx.x == 0)
    {
      temp_storage_.tile_idx = claimed;
    }
  }

  // encode's outputs: each run's first key to the first output, at the slot its head's count names (the heads of the
  // tile name the runs from temp_storage_.runs_before on), and its length to the second where it ends (the tails name
  // first_run on: tile_runs of them); through shared memory where the tile holds more runs than threads.
  STRATA_DEVICE STRATA_FORCEINLINE void write_encoded(const int (&heads)[ITEMS_PER_THREAD],
                                                      const int (&tails)[ITEMS_PER_THREAD],
                                                      const KeyT (&keys)[ITEMS_PER_THREAD],
                                                      const PairT (&scanned)[ITEMS_PER_THREAD], OffsetT runs_before,
                                                      OffsetT last_runs, OffsetT first_run, int tile_runs)
  {
    if (tile_runs > BLOCK_THREADS)
    {
      const int tile_heads = static_cast<int>(last_runs - runs_before);
      auto& run_keys       = temp_storage_.encoded.keys.Alias();
      auto& run_values     = temp_storage_.encoded.lengths.Alias();
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if (heads[i])
        {
          run_keys[static_cast<int>(scanned[i].runs - OffsetT(1) - runs_before)] = keys[i];
        }
        if (tails[i])
        {
          run_values[static_cast<int>(scanned[i].runs - OffsetT(1) - first_run)] = scanned[i].value;
        }
      }
      __syncthreads();
      const int slots = tile_heads > tile_runs ? tile_heads : tile_runs;
      for (int slot = static_cast<int>(threadIdx.x); slot < slots; slot += BLOCK_THREADS)
      {
        if (slot < tile_heads)
        {
          d_unique_out_[runs_before + OffsetT(slot)] = static_cast<UniqueT>(run_keys[slot]);
        }
        if (slot < tile_runs)
        {
          d_aggregates_out_[first_run + OffsetT(slot)] = static_cast<AggregateT>(run_values[slot]);
        }
      }
    }
    else
    {
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const OffsetT run = scanned[i].runs - OffsetT(1);
        if (heads[i])
        {
          d_unique_out_[run] = static_cast<UniqueT>(keys[i]);
        }
        if (tails[i])
        {
          d_aggregates_out_[run] = static_cast<AggregateT>(scanned[i].value);
        }
      }
    }
  }

  TempStorage& temp_storage_;
  KeysInputIteratorT d_keys_in_;
  UniqueOutputIteratorT d_unique_out_;
  ValuesInputIteratorT d_values_in_;
  AggregatesOutputIteratorT d_aggregates_out_;
  NumRunsOutputIteratorT d_num_runs_out_;
  EqualityOpT equality_op_;
  ReductionOpT reduction_op_;
  OffsetT num_items_;
};

STRATA_NAMESPACE_END
