// The by-key scans' part of AgentScan: a by-key scan is a single-pass scan of (head flag, value) pairs under a
// segmented operator.
//
// Item i of the pair sequence is (i == 0 || !equality_op(keys[i - 1], keys[i]), values[i]). A tile's keys and
// values are loaded with BlockLoad, one after the other through the same shared memory, and its heads flagged
// with BlockDiscontinuity against the key before the tile (read once). The segmented operator
// (f1, v1) . (f2, v2) = (f1 | f2, f2 ? v2 : v1 op v2) restarts the running value at every head and is associative
// whenever op is. An exclusive by-key scan scans the pairs exclusively without an initial value and writes
// `head ? init : init op scanned` (AgentScan's output operator).
#pragma once

#include <strata/agent/agent_scan.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_discontinuity.cuh>
#include <strata/block/block_load.cuh>
#include <strata/config.cuh>
#include <strata/util/type_traits.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace scan
{
// The input of a by-key scan: keys and values, and the key equality that finds the heads. V: the value accumulator.
template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename EqualityOpT, typename V>
struct by_key_input
{
  KeysInputIteratorT keys;
  ValuesInputIteratorT values;
  EqualityOpT equality_op;
};

// An item of a by-key scan: the value, and whether its key starts a new run.
template <typename V>
struct segmented_value
{
  int head;
  V value;
};

// The segmented form of `op`: a head restarts the running value. Associative whenever op is.
template <typename ScanOpT>
struct segmented_op
{
  mutable ScanOpT op; // mutable: an operator may have a non-const operator() (Thrust accepts those)
  template <typename V>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE segmented_value<V> operator()(const segmented_value<V>& a,
                                                                      const segmented_value<V>& b) const
  {
    return b.head ? b : segmented_value<V>{a.head, static_cast<V>(op(a.value, b.value))};
  }
};

// The key inequality of a by-key input, as BlockDiscontinuity's flag operator.
template <typename EqualityOpT>
struct keys_differ
{
  mutable EqualityOpT equality_op;
  template <typename KeyT>
  STRATA_DEVICE STRATA_FORCEINLINE bool operator()(const KeyT& a, const KeyT& b) const
  {
    return !equality_op(a, b);
  }
};

// Tiles of a by-key input, as (head flag, value) pairs.
template <typename PolicyT, typename KeysInputIteratorT, typename ValuesInputIteratorT, typename EqualityOpT,
          typename V, typename AccumT, typename OffsetT>
struct scan_tile_input<PolicyT, by_key_input<KeysInputIteratorT, ValuesInputIteratorT, EqualityOpT, V>, AccumT, OffsetT>
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  using KeyT                            = it_value_t<KeysInputIteratorT>;
  using ValueInT                        = it_value_t<ValuesInputIteratorT>;
  using KeyLoadT                        = BlockLoad<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using ValueLoadT                      = BlockLoad<ValueInT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using HeadsT                          = BlockDiscontinuity<KeyT, BLOCK_THREADS>;

  // Keys and values load one after the other through the same shared memory (with a barrier between), so that
  // wide keys and values together still fit a tile of 16 items.
  struct TempStorage
  {
    union
    {
      typename KeyLoadT::TempStorage keys;
      typename ValueLoadT::TempStorage values;
    };
    typename HeadsT::TempStorage heads;
  };

  static constexpr bool PREFETCHABLE =
    prefetchable_tiles_v<PolicyT, KeysInputIteratorT,
                         KeyT> && prefetchable_tiles_v<PolicyT, ValuesInputIteratorT, ValueInT>;

  by_key_input<KeysInputIteratorT, ValuesInputIteratorT, EqualityOpT, V> d_in;

  STRATA_DEVICE STRATA_FORCEINLINE void prefetch(OffsetT tile_offset) const
  {
    prefetch_tile<PolicyT>(d_in.keys, tile_offset);
    prefetch_tile<PolicyT>(d_in.values, tile_offset);
  }

  // Loads the tile at `tile_offset` and flags its heads. Items past the end of the last tile repeat its first
  // key and value: they take part in nothing written.
  template <bool IS_LAST_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE void load(TempStorage& storage, OffsetT tile_offset, int valid_items,
                                             AccumT (&items)[ITEMS_PER_THREAD]) const
  {
    KeyT keys[ITEMS_PER_THREAD];
    ValueInT values[ITEMS_PER_THREAD];
    load_tile<PolicyT, KeyLoadT, IS_LAST_TILE>(storage.keys, d_in.keys, tile_offset, valid_items, keys);
    __syncthreads();
    load_tile<PolicyT, ValueLoadT, IS_LAST_TILE>(storage.values, d_in.values, tile_offset, valid_items, values);
    int heads[ITEMS_PER_THREAD];
    const keys_differ<EqualityOpT> differ{d_in.equality_op};
    if (tile_offset == OffsetT(0))
    {
      HeadsT(storage.heads).FlagHeads(heads, keys, differ);
    }
    else
    {
      HeadsT(storage.heads).FlagHeads(heads, keys, differ, KeyT(d_in.keys[tile_offset - OffsetT(1)]));
    }
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      items[i] = AccumT{heads[i], static_cast<V>(values[i])};
    }
  }
};

// Output of an inclusive by-key scan: the running value.
struct segmented_inclusive_output
{
  template <typename V>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE V operator()(const segmented_value<V>& scanned, const segmented_value<V>&) const
  {
    return scanned.value;
  }
};

// Output of an exclusive by-key scan from the exclusive pair scan: init at a head, init op the running value of
// the run's earlier items otherwise.
template <typename V, typename ScanOpT>
struct segmented_exclusive_output
{
  mutable ScanOpT op;
  V init;
  STRATA_HOST_DEVICE STRATA_FORCEINLINE V operator()(const segmented_value<V>& scanned,
                                                     const segmented_value<V>& input) const
  {
    return input.head ? init : static_cast<V>(op(init, scanned.value));
  }
};
} // namespace scan

// The segmented form of an exact operator is exact: the look-back may reduce its windows with a tree.
template <typename V, typename ScanOpT>
struct scan_op_is_exact<scan::segmented_value<V>, scan::segmented_op<ScanOpT>> : scan_op_is_exact<V, ScanOpT>
{};

// A head restarts the segmented operator: an inexact one's look-back folds in order from the nearest head.
template <typename V, typename ScanOpT>
struct scan_op_restarts<scan::segmented_value<V>, scan::segmented_op<ScanOpT>> : cuda::std::true_type
{
  // op(a, b) is b for a head b: nothing before the nearest head counts.
  static constexpr bool absorbs = true;
  static STRATA_DEVICE STRATA_FORCEINLINE bool restarts(const scan::segmented_value<V>& b)
  {
    return b.head != 0;
  }
};
} // namespace detail
STRATA_NAMESPACE_END
