// AgentScan: the block-wide body of DeviceScan's single-pass kernel (decoupled look-back).
//
// Each block takes tiles in launch order (dynamic tile ids from an atomic counter, so a tile only ever waits on
// tiles taken before it, by blocks already running, and forward progress never depends on the scheduler),
// loads each, scans it with BlockScan, and stores it. With PERSISTENT, the grid is one wave of resident blocks
// that take tile after tile, each claiming its next tile once its current one has its prefix (the claim's
// latency hides behind the store; claiming any earlier would let later tiles start first and wait on it). A
// block starting tile t asks L2 in bulk for the input of tile t + prefetch_distance (the number of blocks in
// flight, scaled by PREFETCH_QUARTER_WAVES / 4): the block that takes that tile, about one tile's lifetime
// later, finds its input on chip. Tile 0 scans on its own and publishes its aggregate as an inclusive prefix;
// every other tile gets its exclusive prefix from the look-back in TilePrefixCallbackOp, which BlockScan calls
// from its first warp. Operands are always combined in sequence order, so non-commutative operators give
// the sequential result and floating-point results are the same bits run to run.
#pragma once

#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_discontinuity.cuh>
#include <strata/block/block_load.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/block_store.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentScan.
template <int BLOCK_THREADS_,
          int ITEMS_PER_THREAD_,
          BlockLoadAlgorithm LOAD_ALGORITHM_,
          CacheLoadModifier LOAD_MODIFIER_,
          BlockStoreAlgorithm STORE_ALGORITHM_,
          BlockScanAlgorithm SCAN_ALGORITHM_,
          int LOOK_BACK_DELAY_NS_     = 32,
          int LOOK_BACK_MAX_DELAY_NS_ = 256,
          int PREFETCH_QUARTER_WAVES_ = 4,
          bool PERSISTENT_            = true,
          int MIN_BLOCKS_PER_SM_      = 1>
struct AgentScanPolicy
{
  static constexpr int BLOCK_THREADS                  = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD               = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS                     = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr BlockLoadAlgorithm LOAD_ALGORITHM  = LOAD_ALGORITHM_;
  static constexpr CacheLoadModifier LOAD_MODIFIER    = LOAD_MODIFIER_;
  static constexpr BlockStoreAlgorithm STORE_ALGORITHM = STORE_ALGORITHM_;
  static constexpr BlockScanAlgorithm SCAN_ALGORITHM  = SCAN_ALGORITHM_;
  // The look-back's wait between polls of a window with an INVALID tile: first, and most after doubling (ns).
  static constexpr int LOOK_BACK_DELAY_NS     = LOOK_BACK_DELAY_NS_;
  static constexpr int LOOK_BACK_MAX_DELAY_NS = LOOK_BACK_MAX_DELAY_NS_;
  // How far ahead, in quarters of a wave of blocks, a block starting a tile asks L2 (sm_90+, inputs in memory)
  // for a tile's input (0: never): the tile one wave ahead is the one some block starts about when this one
  // finishes.
  static constexpr int PREFETCH_QUARTER_WAVES = PREFETCH_QUARTER_WAVES_;
  // Whether the grid is one wave of resident blocks that each take tile after tile (else one block per tile).
  static constexpr bool PERSISTENT = PERSISTENT_;
  // The kernel's __launch_bounds__ minimum of resident blocks per SM (caps registers per thread).
  static constexpr int MIN_BLOCKS_PER_SM = MIN_BLOCKS_PER_SM_;
};

namespace detail
{
namespace scan
{
// The initial value of a scan that has none (inclusive scans, and the pair scans of the by-key scans).
struct no_init
{};

// The input of a by-key scan: keys and values read tile by tile, the head flags found with BlockDiscontinuity
// (each tile's first key compared with the key before the tile). Item i is (head flag of i, values[i] as V).
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

// What AgentScan reads: items of an iterator, or the (head, value) pairs of a by-key input.
template <typename InputIteratorT>
struct scan_input_traits
{
  static constexpr bool BY_KEY = false;
  using value_type             = it_value_t<InputIteratorT>;
  using key_type               = NullType;
  using value_in_type          = NullType;
};
template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename EqualityOpT, typename V>
struct scan_input_traits<by_key_input<KeysInputIteratorT, ValuesInputIteratorT, EqualityOpT, V>>
{
  static constexpr bool BY_KEY = true;
  using value_type             = segmented_value<V>;
  using key_type               = it_value_t<KeysInputIteratorT>;
  using value_in_type          = it_value_t<ValuesInputIteratorT>;
};

// The key inequality of a by-key input, as BlockDiscontinuity's flag operator.
template <typename EqualityOpT>
struct keys_differ
{
  EqualityOpT equality_op;
  template <typename KeyT>
  STRATA_DEVICE STRATA_FORCEINLINE bool operator()(const KeyT& a, const KeyT& b) const
  {
    return !equality_op(a, b);
  }
};

// Writes the scanned value as the output (every scan but the exclusive by-key scans).
struct scanned_output
{
  template <typename AccumT, typename InputT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE const AccumT& operator()(const AccumT& scanned, const InputT&) const
  {
    return scanned;
  }
};

// Combines `init` with the looked-back prefix, so that every tile's items see init first.
template <typename AccumT, typename ScanOpT, typename PrefixOpT>
struct init_prefix_op
{
  PrefixOpT& prefix_op;
  ScanOpT op;
  AccumT init;
  STRATA_DEVICE STRATA_FORCEINLINE AccumT operator()(const AccumT& block_aggregate)
  {
    return op(init, prefix_op(block_aggregate));
  }
};

// Scans one tile of accumulators held as ITEMS_PER_THREAD consecutive items per thread: tile 0 on its own (its
// aggregate published as its inclusive prefix unless no tile follows), every other tile with its exclusive prefix
// from the decoupled look-back, which BlockScan calls from its first warp. Kept apart from AgentScan's loads and
// stores, so that an agent moving tiles another way (through shared-memory stages, say) scans them the same way.
template <typename PolicyT, typename AccumT, typename ScanOpT, typename InitValueT, bool INCLUSIVE>
struct tile_scan
{
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr bool HAS_INIT        = !cuda::std::is_same<InitValueT, no_init>::value;

  using TileStateT = ScanTileState<AccumT>;
  using BlockScanT = BlockScan<AccumT, PolicyT::BLOCK_THREADS, PolicyT::SCAN_ALGORITHM>;
  using PrefixOpT  = TilePrefixCallbackOp<
    AccumT,
    ScanOpT,
    TileStateT,
    scan_look_back_delay<PolicyT::LOOK_BACK_DELAY_NS, PolicyT::LOOK_BACK_MAX_DELAY_NS>>;

  struct TempStorage
  {
    typename BlockScanT::TempStorage scan;
    typename PrefixOpT::TempStorage prefix;
  };

  TempStorage& storage;
  ScanOpT op;
  InitValueT init;

  STRATA_DEVICE STRATA_FORCEINLINE void operator()(unsigned int tile_idx,
                                                   bool is_last,
                                                   AccumT (&items)[ITEMS_PER_THREAD],
                                                   AccumT (&scanned)[ITEMS_PER_THREAD],
                                                   TileStateT tile_state)
  {
    if (tile_idx == 0)
    {
      AccumT block_aggregate;
      scan_first_tile(items, scanned, block_aggregate);
      if (threadIdx.x == 0 && !is_last)
      {
        tile_state.SetInclusive(0, block_aggregate);
      }
    }
    else
    {
      PrefixOpT prefix_op(tile_state, storage.prefix, op, tile_idx);
      if constexpr (HAS_INIT)
      {
        init_prefix_op<AccumT, ScanOpT, PrefixOpT> with_init{prefix_op, op, static_cast<AccumT>(init)};
        scan_with_prefix(items, scanned, with_init);
      }
      else
      {
        scan_with_prefix(items, scanned, prefix_op);
      }
    }
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE void scan_first_tile(AccumT (&items)[ITEMS_PER_THREAD],
                                                        AccumT (&scanned)[ITEMS_PER_THREAD],
                                                        AccumT& block_aggregate)
  {
    BlockScanT scan(storage.scan);
    if constexpr (INCLUSIVE && HAS_INIT)
    {
      scan.InclusiveScan(items, scanned, static_cast<AccumT>(init), op, block_aggregate);
    }
    else if constexpr (INCLUSIVE)
    {
      scan.InclusiveScan(items, scanned, op, block_aggregate);
    }
    else if constexpr (HAS_INIT)
    {
      scan.ExclusiveScan(items, scanned, static_cast<AccumT>(init), op, block_aggregate);
    }
    else
    {
      scan.ExclusiveScan(items, scanned, op, block_aggregate);
    }
  }

  template <typename CallbackT>
  STRATA_DEVICE STRATA_FORCEINLINE void
  scan_with_prefix(AccumT (&items)[ITEMS_PER_THREAD], AccumT (&scanned)[ITEMS_PER_THREAD], CallbackT& callback)
  {
    BlockScanT scan(storage.scan);
    if constexpr (INCLUSIVE)
    {
      scan.InclusiveScan(items, scanned, op, callback);
    }
    else
    {
      scan.ExclusiveScan(items, scanned, op, callback);
    }
  }
};
} // namespace scan
} // namespace detail

// INCLUSIVE: inclusive or exclusive scan. InitValueT: the initial value's type, or detail::scan::no_init.
// OutputOpT: output = out_op(scanned accumulator, loaded accumulator) (by-key scans use the input's flag).
template <typename PolicyT,
          typename InputIteratorT,
          typename OutputIteratorT,
          typename ScanOpT,
          typename InitValueT,
          typename AccumT,
          typename OffsetT,
          bool INCLUSIVE,
          typename OutputOpT = detail::scan::scanned_output>
class AgentScan
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;

  using InputTraits         = detail::scan::scan_input_traits<InputIteratorT>;
  static constexpr bool BY_KEY = InputTraits::BY_KEY;
  using InputT               = typename InputTraits::value_type;
  using OutputT = detail::non_void_value_t<OutputIteratorT, AccumT>;

  using TileStateT   = ScanTileState<AccumT>;
  // By-key inputs load keys and values on their own (NullType stands in for what the other kind never uses).
  using BlockLoadT = BlockLoad<cuda::std::conditional_t<BY_KEY, NullType, InputT>,
                               BLOCK_THREADS,
                               ITEMS_PER_THREAD,
                               PolicyT::LOAD_ALGORITHM>;
  using KeyT       = typename InputTraits::key_type;
  using ValueInT   = typename InputTraits::value_in_type;
  using KeyLoadT   = BlockLoad<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using ValueLoadT = BlockLoad<ValueInT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using HeadsT     = BlockDiscontinuity<KeyT, BLOCK_THREADS>;
  // Keys and values load one after the other through the same shared memory (with a barrier between), so
  // that wide keys and values together still fit a tile of 16 items.
  struct by_key_load_storage
  {
    union
    {
      typename KeyLoadT::TempStorage keys;
      typename ValueLoadT::TempStorage values;
    };
    typename HeadsT::TempStorage heads;
  };
  using TileScanT   = detail::scan::tile_scan<PolicyT, AccumT, ScanOpT, InitValueT, INCLUSIVE>;
  using BlockStoreT = BlockStore<OutputT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::STORE_ALGORITHM>;

  // Whether `It` points into memory with tiles of items of type `V` that are whole multiples of 16 bytes.
  template <typename It, typename V>
  static constexpr bool prefetchable_v = cuda::std::is_pointer<It>::value && (TILE_ITEMS * sizeof(V)) % 16 == 0;

  // Inputs in memory (pointers; keys and values for a by-key input) whose tiles are multiples of 16 bytes: the
  // tile a wave ahead can be prefetched in bulk.
  static constexpr bool PREFETCH = PolicyT::PREFETCH_QUARTER_WAVES > 0 && [] {
    if constexpr (BY_KEY)
    {
      return prefetchable_v<decltype(InputIteratorT::keys), KeyT>
          && prefetchable_v<decltype(InputIteratorT::values), ValueInT>;
    }
    else
    {
      return prefetchable_v<InputIteratorT, InputT>;
    }
  }();

public:
  // Shared memory: the load, the scan with its look-back, and the store are never live at the same time.
  struct TempStorage
  {
    union
    {
      typename BlockLoadT::TempStorage load;
      cuda::std::conditional_t<BY_KEY, by_key_load_storage, NullType> load_by_key;
      typename BlockStoreT::TempStorage store;
      typename TileScanT::TempStorage scan;
    };
    unsigned int tile_idx;
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentScan(TempStorage& temp_storage,
                                             InputIteratorT d_in,
                                             OutputIteratorT d_out,
                                             ScanOpT op,
                                             InitValueT init,
                                             OutputOpT out_op)
      : temp_storage_(temp_storage)
      , d_in_(d_in)
      , d_out_(d_out)
      , op_(op)
      , init_(init)
      , out_op_(out_op)
  {}

  // Scans tiles until none is left: tile 0 alone when `tile_counter` is null (a single tile), else the tiles the
  // block claims from `tile_counter` (one, unless PERSISTENT).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(OffsetT num_items,
                                                     unsigned int num_tiles,
                                                     TileStateT tile_state,
                                                     unsigned int* tile_counter,
                                                     unsigned int prefetch_distance)
  {
    if (tile_counter == nullptr)
    {
      consume<true>(0, num_items, num_tiles, tile_state, nullptr, 0);
      return;
    }
    if (threadIdx.x == 0)
    {
      temp_storage_.tile_idx = atomicAdd(tile_counter, 1u);
    }
    __syncthreads();
    unsigned int tile_idx = temp_storage_.tile_idx;
    unsigned int* const claim_next = PolicyT::PERSISTENT ? tile_counter : nullptr;
    while (tile_idx < num_tiles)
    {
      const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
      if (num_items - tile_offset <= OffsetT(TILE_ITEMS))
      {
        consume<true>(tile_idx, num_items, num_tiles, tile_state, claim_next, prefetch_distance);
      }
      else
      {
        consume<false>(tile_idx, num_items, num_tiles, tile_state, claim_next, prefetch_distance);
      }
      if constexpr (!PolicyT::PERSISTENT)
      {
        break;
      }
      // The tile's shared memory is free again, and the next tile's index is published.
      __syncthreads();
      tile_idx = temp_storage_.tile_idx;
    }
  }

private:
  // Scans tile `tile_idx`. With `claim_next`, thread 0 claims the block's next tile from it once the tile has
  // its prefix, and leaves it in temp_storage_.tile_idx (read after the caller's barrier).
  template <bool IS_LAST_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE void consume(unsigned int tile_idx,
                                                OffsetT num_items,
                                                unsigned int num_tiles,
                                                TileStateT tile_state,
                                                unsigned int* claim_next,
                                                unsigned int prefetch_distance)
  {
    const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    const int valid_items     = IS_LAST_TILE ? static_cast<int>(num_items - tile_offset) : TILE_ITEMS;

    if constexpr (PREFETCH)
    {
      // Whole tiles only (the last tile's end may not be a multiple of 16 bytes).
      const unsigned long long ahead = static_cast<unsigned long long>(tile_idx) + prefetch_distance;
      if (threadIdx.x == 0 && prefetch_distance > 0 && ahead + 1 < num_tiles)
      {
        const OffsetT ahead_offset = static_cast<OffsetT>(ahead) * OffsetT(TILE_ITEMS);
        if constexpr (BY_KEY)
        {
          prefetch_tile(d_in_.keys, ahead_offset);
          prefetch_tile(d_in_.values, ahead_offset);
        }
        else
        {
          prefetch_tile(d_in_, ahead_offset);
        }
      }
    }

    AccumT items[ITEMS_PER_THREAD];
    load_tile<IS_LAST_TILE>(tile_offset, valid_items, items);
    __syncthreads();
    // Scan, with the look-back for every tile but the first.
    AccumT scanned[ITEMS_PER_THREAD];
    TileScanT{temp_storage_.scan, op_, init_}(tile_idx, IS_LAST_TILE, items, scanned, tile_state);
    __syncthreads();
    unsigned int claimed = 0;
    if (claim_next != nullptr && threadIdx.x == 0)
    {
      claimed = atomicAdd(claim_next, 1u);
    }

    // Store.
    OutputT out[ITEMS_PER_THREAD];
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      out[i] = static_cast<OutputT>(out_op_(scanned[i], items[i]));
    }
    if (IS_LAST_TILE)
    {
      BlockStoreT(temp_storage_.store).Store(d_out_ + tile_offset, out, valid_items);
    }
    else
    {
      BlockStoreT(temp_storage_.store).Store(d_out_ + tile_offset, out);
    }
    if (claim_next != nullptr && threadIdx.x == 0)
    {
      temp_storage_.tile_idx = claimed;
    }
  }

  // Asks L2 for the tile of `ptr` at `offset` (when the pointer is 16-byte aligned).
  template <typename V>
  static STRATA_DEVICE STRATA_FORCEINLINE void prefetch_tile(V* ptr, OffsetT offset)
  {
    if ((reinterpret_cast<cuda::std::uintptr_t>(ptr) % 16) == 0)
    {
      PrefetchL2Bulk(ptr + offset, static_cast<unsigned int>(TILE_ITEMS * sizeof(V)));
    }
  }

  // Loads the tile at `tile_offset` as accumulators. Items past the end of the last tile repeat its first item:
  // they take part in nothing written.
  template <bool IS_LAST_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE void
  load_tile(OffsetT tile_offset, int valid_items, AccumT (&items)[ITEMS_PER_THREAD])
  {
    if constexpr (BY_KEY)
    {
      auto& storage = temp_storage_.load_by_key;
      KeyT keys[ITEMS_PER_THREAD];
      ValueInT values[ITEMS_PER_THREAD];
      if (IS_LAST_TILE)
      {
        const KeyT first_key       = d_in_.keys[tile_offset];
        const ValueInT first_value = d_in_.values[tile_offset];
        KeyLoadT(storage.keys).template Load<PolicyT::LOAD_MODIFIER>(
          d_in_.keys + tile_offset, keys, valid_items, first_key);
        __syncthreads();
        ValueLoadT(storage.values)
          .template Load<PolicyT::LOAD_MODIFIER>(d_in_.values + tile_offset, values, valid_items, first_value);
      }
      else
      {
        KeyLoadT(storage.keys).template Load<PolicyT::LOAD_MODIFIER>(d_in_.keys + tile_offset, keys);
        __syncthreads();
        ValueLoadT(storage.values).template Load<PolicyT::LOAD_MODIFIER>(d_in_.values + tile_offset, values);
      }
      int heads[ITEMS_PER_THREAD];
      const detail::scan::keys_differ<decltype(d_in_.equality_op)> differ{d_in_.equality_op};
      if (tile_offset == OffsetT(0))
      {
        HeadsT(storage.heads).FlagHeads(heads, keys, differ);
      }
      else
      {
        HeadsT(storage.heads).FlagHeads(heads, keys, differ, KeyT(d_in_.keys[tile_offset - OffsetT(1)]));
      }
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        items[i] = AccumT{heads[i], static_cast<decltype(AccumT::value)>(values[i])};
      }
    }
    else
    {
      InputT loaded[ITEMS_PER_THREAD];
      if (IS_LAST_TILE)
      {
        BlockLoadT(temp_storage_.load)
          .template Load<PolicyT::LOAD_MODIFIER>(d_in_ + tile_offset, loaded, valid_items, InputT(d_in_[tile_offset]));
      }
      else
      {
        BlockLoadT(temp_storage_.load).template Load<PolicyT::LOAD_MODIFIER>(d_in_ + tile_offset, loaded);
      }
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        items[i] = static_cast<AccumT>(loaded[i]);
      }
    }
  }

  TempStorage& temp_storage_;
  InputIteratorT d_in_;
  OutputIteratorT d_out_;
  ScanOpT op_;
  InitValueT init_;
  OutputOpT out_op_;
};

STRATA_NAMESPACE_END
