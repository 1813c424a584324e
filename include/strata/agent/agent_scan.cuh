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
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, BlockLoadAlgorithm LOAD_ALGORITHM_,
          CacheLoadModifier LOAD_MODIFIER_, BlockStoreAlgorithm STORE_ALGORITHM_, BlockScanAlgorithm SCAN_ALGORITHM_,
          int LOOK_BACK_DELAY_NS_ = 32, int LOOK_BACK_MAX_DELAY_NS_ = 256, int PREFETCH_QUARTER_WAVES_ = 4,
          bool PERSISTENT_ = true, int MIN_BLOCKS_PER_SM_ = 1>
struct AgentScanPolicy
{
  static constexpr int BLOCK_THREADS                   = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD                = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS                      = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr BlockLoadAlgorithm LOAD_ALGORITHM   = LOAD_ALGORITHM_;
  static constexpr CacheLoadModifier LOAD_MODIFIER     = LOAD_MODIFIER_;
  static constexpr BlockStoreAlgorithm STORE_ALGORITHM = STORE_ALGORITHM_;
  static constexpr BlockScanAlgorithm SCAN_ALGORITHM   = SCAN_ALGORITHM_;
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

// Whether tiles of PolicyT read through `It` as items of type `V` can be prefetched into L2 in bulk: `It` points
// into memory and a tile is a whole number of 16-byte words.
template <typename PolicyT, typename It, typename V>
constexpr bool prefetchable_tiles_v = PolicyT::PREFETCH_QUARTER_WAVES > 0 && cuda::std::is_pointer<It>::value
                                   && (PolicyT::TILE_ITEMS * sizeof(V)) % 16 == 0;

// Asks L2 for the tile of PolicyT at `tile_offset` of `ptr` (when the pointer starts on 16 bytes).
template <typename PolicyT, typename V, typename OffsetT>
STRATA_DEVICE STRATA_FORCEINLINE void prefetch_tile(V* ptr, OffsetT tile_offset)
{
  if ((reinterpret_cast<cuda::std::uintptr_t>(ptr) % 16) == 0)
  {
    PrefetchL2Bulk(ptr + tile_offset, static_cast<unsigned int>(PolicyT::TILE_ITEMS * sizeof(V)));
  }
}

// Loads the tile of PolicyT at `tile_offset` with BlockLoadT; past the end of the last tile, items are copies of its
// first (they take part in nothing written).
template <typename PolicyT, typename BlockLoadT, bool IS_LAST_TILE, typename InputIteratorT, typename OffsetT,
          typename T, int ITEMS>
STRATA_DEVICE STRATA_FORCEINLINE void load_tile(typename BlockLoadT::TempStorage& storage, InputIteratorT d_in,
                                                OffsetT tile_offset, int valid_items, T (&items)[ITEMS])
{
  if (IS_LAST_TILE)
  {
    BlockLoadT(storage).template Load<PolicyT::LOAD_MODIFIER>(d_in + tile_offset, items, valid_items,
                                                              T(d_in[tile_offset]));
  }
  else
  {
    BlockLoadT(storage).template Load<PolicyT::LOAD_MODIFIER>(d_in + tile_offset, items);
  }
}

// The tile loop of the single-pass agents that claim tiles from a counter: `consume_tile(tile_idx, is_last,
// claim_next)` handles one tile; with `claim_next`, its thread 0 claims the block's next tile from it and leaves the
// index in `shared_tile_idx` (read here after a barrier). Tile 0 alone when `tile_counter` is null (a single tile);
// else the tiles the block claims (one, unless PERSISTENT).
template <bool PERSISTENT, typename ConsumeTile>
STRATA_DEVICE STRATA_FORCEINLINE void consume_claimed_tiles(unsigned int& shared_tile_idx, unsigned int num_tiles,
                                                            unsigned int* tile_counter, ConsumeTile&& consume_tile)
{
  if (tile_counter == nullptr)
  {
    consume_tile(0u, cuda::std::true_type{}, static_cast<unsigned int*>(nullptr));
    return;
  }
  if (threadIdx.x == 0)
  {
    shared_tile_idx = atomicAdd(tile_counter, 1u);
  }
  __syncthreads();
  unsigned int tile_idx          = shared_tile_idx;
  unsigned int* const claim_next = PERSISTENT ? tile_counter : nullptr;
  while (tile_idx < num_tiles)
  {
    if (tile_idx + 1 == num_tiles)
    {
      consume_tile(tile_idx, cuda::std::true_type{}, claim_next);
    }
    else
    {
      consume_tile(tile_idx, cuda::std::false_type{}, claim_next);
    }
    if constexpr (!PERSISTENT)
    {
      break;
    }
    // The tile's shared memory is free again, and the next tile's index is published.
    __syncthreads();
    tile_idx = shared_tile_idx;
  }
}

// How AgentScan reads the tiles of InputIteratorT, as ITEMS_PER_THREAD consecutive accumulators per thread:
// through BlockLoad, converting each item. Inputs that are not plain sequences of items (the keys and values of a
// by-key scan: agent/agent_scan_by_key.cuh) specialize this.
template <typename PolicyT, typename InputIteratorT, typename AccumT, typename OffsetT>
struct scan_tile_input
{
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  using InputT                          = it_value_t<InputIteratorT>;
  using BlockLoadT  = BlockLoad<InputT, PolicyT::BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using TempStorage = typename BlockLoadT::TempStorage;

  // Whether a tile can be prefetched into L2 in bulk: items in memory, tiles a whole number of 16-byte words.
  static constexpr bool PREFETCHABLE = prefetchable_tiles_v<PolicyT, InputIteratorT, InputT>;

  InputIteratorT d_in;

  STRATA_DEVICE STRATA_FORCEINLINE void prefetch(OffsetT tile_offset) const
  {
    prefetch_tile<PolicyT>(d_in, tile_offset);
  }

  // Loads the tile at `tile_offset`. Items past the end of the last tile repeat its first item: they take part
  // in nothing written.
  template <bool IS_LAST_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE void load(TempStorage& storage, OffsetT tile_offset, int valid_items,
                                             AccumT (&items)[ITEMS_PER_THREAD]) const
  {
    InputT loaded[ITEMS_PER_THREAD];
    load_tile<PolicyT, BlockLoadT, IS_LAST_TILE>(storage, d_in, tile_offset, valid_items, loaded);
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      items[i] = static_cast<AccumT>(loaded[i]);
    }
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

// What a tile's scan leaves in every thread besides the scanned items: the reduction of the items before the tile
// (none for tile 0) and of those up to its end, over the input alone (without the scan's initial value).
template <typename AccumT>
struct tile_prefixes
{
  AccumT exclusive; // unset for tile 0
  AccumT inclusive;
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
  using PrefixOpT =
    TilePrefixCallbackOp<AccumT, ScanOpT, TileStateT,
                         scan_look_back_delay<PolicyT::LOOK_BACK_DELAY_NS, PolicyT::LOOK_BACK_MAX_DELAY_NS>>;

  struct TempStorage
  {
    typename BlockScanT::TempStorage scan;
    typename PrefixOpT::TempStorage prefix;
  };

  TempStorage& storage;
  ScanOpT op;
  InitValueT init;

  // Returns the tile's prefixes (tile_prefixes), read from `storage` where a caller uses them: `storage` must then
  // stay as it is until every thread has read them.
  STRATA_DEVICE STRATA_FORCEINLINE tile_prefixes<AccumT> operator()(unsigned int tile_idx, bool is_last,
                                                                    AccumT (&items)[ITEMS_PER_THREAD],
                                                                    AccumT (&scanned)[ITEMS_PER_THREAD],
                                                                    TileStateT tile_state)
  {
    tile_prefixes<AccumT> prefixes;
    if (tile_idx == 0)
    {
      scan_first_tile(items, scanned, prefixes.inclusive);
      if (threadIdx.x == 0 && !is_last)
      {
        tile_state.SetInclusive(0, prefixes.inclusive);
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
      // The first warp's lane 0 stored them before the scan's last barrier (a one-warp block has none).
      if constexpr (PolicyT::BLOCK_THREADS <= WARP_THREADS)
      {
        __syncwarp();
      }
      prefixes.exclusive = prefix_op.ExclusivePrefix();
      prefixes.inclusive = prefix_op.InclusivePrefix();
    }
    return prefixes;
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE void scan_first_tile(AccumT (&items)[ITEMS_PER_THREAD],
                                                        AccumT (&scanned)[ITEMS_PER_THREAD], AccumT& block_aggregate)
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
  STRATA_DEVICE STRATA_FORCEINLINE void scan_with_prefix(AccumT (&items)[ITEMS_PER_THREAD],
                                                         AccumT (&scanned)[ITEMS_PER_THREAD], CallbackT& callback)
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
template <typename PolicyT, typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
          typename AccumT, typename OffsetT, bool INCLUSIVE, typename OutputOpT = detail::scan::scanned_output>
class AgentScan
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;

  // What is written: the output's value type, or the output operator's result where the output has none.
  using OutputT =
    detail::non_void_value_t<OutputIteratorT,
                             cuda::std::decay_t<cuda::std::invoke_result_t<OutputOpT&, const AccumT&, const AccumT&>>>;
  using TileStateT  = ScanTileState<AccumT>;
  using TileInputT  = detail::scan::scan_tile_input<PolicyT, InputIteratorT, AccumT, OffsetT>;
  using TileScanT   = detail::scan::tile_scan<PolicyT, AccumT, ScanOpT, InitValueT, INCLUSIVE>;
  using BlockStoreT = BlockStore<OutputT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::STORE_ALGORITHM>;

public:
  // Shared memory: the load, the scan with its look-back, and the store are never live at the same time.
  struct TempStorage
  {
    union
    {
      typename TileInputT::TempStorage load;
      typename BlockStoreT::TempStorage store;
      typename TileScanT::TempStorage scan;
    };
    unsigned int tile_idx;
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentScan(TempStorage& temp_storage, InputIteratorT d_in, OutputIteratorT d_out,
                                             ScanOpT op, InitValueT init, OutputOpT out_op)
      : temp_storage_(temp_storage)
      , tile_input_{d_in}
      , d_out_(d_out)
      , op_(op)
      , init_(init)
      , out_op_(out_op)
  {}

  // Scans tiles until none is left: tile 0 alone when `tile_counter` is null (a single tile), else the tiles the
  // block claims from `tile_counter` (one, unless PERSISTENT).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(OffsetT num_items, unsigned int num_tiles, TileStateT tile_state,
                                                     unsigned int* tile_counter, unsigned int prefetch_distance)
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
    unsigned int tile_idx          = temp_storage_.tile_idx;
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
  STRATA_DEVICE STRATA_FORCEINLINE void consume(unsigned int tile_idx, OffsetT num_items, unsigned int num_tiles,
                                                TileStateT tile_state, unsigned int* claim_next,
                                                unsigned int prefetch_distance)
  {
    const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    const int valid_items     = IS_LAST_TILE ? static_cast<int>(num_items - tile_offset) : TILE_ITEMS;

    if constexpr (TileInputT::PREFETCHABLE)
    {
      // Whole tiles only (the last tile's end may not be a multiple of 16 bytes).
      const unsigned long long ahead = static_cast<unsigned long long>(tile_idx) + prefetch_distance;
      if (threadIdx.x == 0 && prefetch_distance > 0 && ahead + 1 < num_tiles)
      {
        tile_input_.prefetch(static_cast<OffsetT>(ahead) * OffsetT(TILE_ITEMS));
      }
    }

    AccumT items[ITEMS_PER_THREAD];
    tile_input_.template load<IS_LAST_TILE>(temp_storage_.load, tile_offset, valid_items, items);
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

  TempStorage& temp_storage_;
  TileInputT tile_input_;
  OutputIteratorT d_out_;
  ScanOpT op_;
  InitValueT init_;
  OutputOpT out_op_;
};

STRATA_NAMESPACE_END
