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
#include <strata/agent/agent_scan_bulk.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_discontinuity.cuh>
#include <strata/block/block_load.cuh>
#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
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

  // An item's result from whether it starts a run and the exclusive scan's value before it.
  STRATA_HOST_DEVICE STRATA_FORCEINLINE V at(bool head, const V& scanned) const
  {
    return head ? init : static_cast<V>(op(init, scanned));
  }

  STRATA_HOST_DEVICE STRATA_FORCEINLINE V operator()(const segmented_value<V>& scanned,
                                                     const segmented_value<V>& input) const
  {
    return at(input.head, scanned.value);
  }
};

// The bulk tile of a by-key scan of arithmetic keys K and values V (4 or 8 bytes) in arrays that start on 16 bytes,
// its results (V) to another such array: each item's (head, value) pair made from the keys in shared memory (the head
// from the key before it: the run's previous item's, the run's first from the keys in shared memory or, for the
// tile's first item, the key before the tile), the results written over the values. AccumV: the value accumulator.
template <typename K, typename V, typename EqualityOpT, typename AccumV>
struct bulk_by_key_tile : bulk_keyed<K, V>
{
  static_assert(sizeof(V) == 4 || sizeof(V) == 8, "values pack whole into 16-byte vectors");
  using value_t                     = V;
  using AccumT                      = segmented_value<AccumV>;
  static constexpr int VECTOR_ITEMS = 16 / static_cast<int>(sizeof(V));
  struct alignas(16) values_t
  {
    V items[VECTOR_ITEMS];
  };
  struct alignas(sizeof(K) * VECTOR_ITEMS) keys_t
  {
    K items[VECTOR_ITEMS];
  };
  template <int N>
  using storage = typename bulk_keyed<K, V>::template storage<N>;
  // Along a thread's run: the key before the next vector's first item, if any.
  struct run_t
  {
    K prev;
    bool has_prev;
  };

  mutable EqualityOpT equality_op; // mutable: an operator may have a non-const operator() (Thrust accepts those)

  template <int N>
  STRATA_DEVICE STRATA_FORCEINLINE run_t begin_run(const storage<N>& s, int v)
  {
    return v == 0 ? run_t{s.before, s.has_before} : run_t{s.keys[v * VECTOR_ITEMS - 1], true};
  }

  template <int N>
  STRATA_DEVICE STRATA_FORCEINLINE void load(const storage<N>& s, int v, AccumT (&x)[VECTOR_ITEMS], run_t& run)
  {
    const keys_t k   = reinterpret_cast<const keys_t*>(s.keys)[v];
    const values_t d = reinterpret_cast<const values_t*>(s.values)[v];
    STRATA_UNROLL
    for (int j = 0; j < VECTOR_ITEMS; ++j)
    {
      const bool head =
        j == 0 ? !run.has_prev || !equality_op(run.prev, k.items[0]) : !equality_op(k.items[j - 1], k.items[j]);
      x[j] = AccumT{head, static_cast<AccumV>(d.items[j])};
    }
    run = run_t{k.items[VECTOR_ITEMS - 1], true};
  }

  template <int N>
  STRATA_DEVICE STRATA_FORCEINLINE void store(storage<N>& s, int v, const V (&results)[VECTOR_ITEMS])
  {
    values_t stored;
    STRATA_UNROLL
    for (int j = 0; j < VECTOR_ITEMS; ++j)
    {
      stored.items[j] = results[j];
    }
    reinterpret_cast<values_t*>(s.values)[v] = stored;
  }
};

// By-key scans of arithmetic keys and values in arrays, the results to an array of the values' type.
template <typename KIn, typename VIn, typename EqualityOpT, typename AccumV, typename V>
struct bulk_tile_of<
  scan_bulk_agent, by_key_input<KIn*, VIn*, EqualityOpT, AccumV>, V*, segmented_value<AccumV>,
  cuda::std::enable_if_t<cuda::std::is_same<cuda::std::remove_cv_t<VIn>, V>::value && cuda::std::is_arithmetic<V>::value
                         && (sizeof(V) == 4 || sizeof(V) == 8) && cuda::std::is_arithmetic<KIn>::value
                         && cuda::std::is_arithmetic<AccumV>::value>>
{
  static constexpr bool exists = true;
  using type                   = bulk_by_key_tile<cuda::std::remove_cv_t<KIn>, V, EqualityOpT, AccumV>;
  using InputT                 = by_key_input<KIn*, VIn*, EqualityOpT, AccumV>;
  static bool aligned(const InputT& in, V* out)
  {
    return starts_on_16(in.keys, in.values, out);
  }
  static type make(const InputT& in, V* out)
  {
    return type{{in.keys, in.values, out}, in.equality_op};
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
