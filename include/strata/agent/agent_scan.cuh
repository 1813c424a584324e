// AgentScan: the block-wide body of DeviceScan's single-pass kernel (decoupled look-back).
//
// Each block takes the next tile in launch order (a dynamic tile id from an atomic counter, so a tile only
// ever waits on tiles that started before it and forward progress never depends on the scheduler), loads it,
// scans it with BlockScan, and stores it. Tile 0 scans on its own and publishes its aggregate as an inclusive
// prefix; every other tile gets its exclusive prefix from the look-back in TilePrefixCallbackOp, which BlockScan
// calls from its first warp. Operands are always combined in sequence order, so non-commutative operators give
// the sequential result and floating-point results are the same bits run to run.
#pragma once

#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_load.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/block_store.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentScan.
template <int BLOCK_THREADS_,
          int ITEMS_PER_THREAD_,
          BlockLoadAlgorithm LOAD_ALGORITHM_,
          CacheLoadModifier LOAD_MODIFIER_,
          BlockStoreAlgorithm STORE_ALGORITHM_,
          BlockScanAlgorithm SCAN_ALGORITHM_>
struct AgentScanPolicy
{
  static constexpr int BLOCK_THREADS                  = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD               = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS                     = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr BlockLoadAlgorithm LOAD_ALGORITHM  = LOAD_ALGORITHM_;
  static constexpr CacheLoadModifier LOAD_MODIFIER    = LOAD_MODIFIER_;
  static constexpr BlockStoreAlgorithm STORE_ALGORITHM = STORE_ALGORITHM_;
  static constexpr BlockScanAlgorithm SCAN_ALGORITHM  = SCAN_ALGORITHM_;
};

namespace detail
{
namespace scan
{
// The initial value of a scan that has none (inclusive scans, and the pair scans of the by-key scans).
struct no_init
{};

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
  static constexpr bool HAS_INIT        = !cuda::std::is_same<InitValueT, detail::scan::no_init>::value;

  using InputT  = detail::it_value_t<InputIteratorT>;
  using OutputT = detail::non_void_value_t<OutputIteratorT, AccumT>;

  using TileStateT   = ScanTileState<AccumT>;
  using BlockLoadT   = BlockLoad<InputT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using BlockScanT   = BlockScan<AccumT, BLOCK_THREADS, PolicyT::SCAN_ALGORITHM>;
  using BlockStoreT  = BlockStore<OutputT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::STORE_ALGORITHM>;
  using PrefixOpT    = TilePrefixCallbackOp<AccumT, ScanOpT, TileStateT>;

public:
  // Shared memory: the load, the scan with its look-back, and the store are never live at the same time.
  struct TempStorage
  {
    union
    {
      typename BlockLoadT::TempStorage load;
      typename BlockStoreT::TempStorage store;
      struct
      {
        typename BlockScanT::TempStorage scan;
        typename PrefixOpT::TempStorage prefix;
      } scan;
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

  // Scans the tile the block takes next: from `tile_counter` when several tiles exist, else tile 0.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(OffsetT num_items, TileStateT tile_state, unsigned int* tile_counter)
  {
    if (tile_counter == nullptr)
    {
      consume<true>(0, num_items, tile_state);
      return;
    }
    if (threadIdx.x == 0)
    {
      temp_storage_.tile_idx = atomicAdd(tile_counter, 1u);
    }
    __syncthreads();
    const unsigned int tile_idx = temp_storage_.tile_idx;
    const OffsetT tile_offset   = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    const bool is_last_tile     = num_items - tile_offset <= OffsetT(TILE_ITEMS);
    if (is_last_tile)
    {
      consume<true>(tile_idx, num_items, tile_state);
    }
    else
    {
      consume<false>(tile_idx, num_items, tile_state);
    }
  }

private:
  template <bool IS_LAST_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE void consume(unsigned int tile_idx, OffsetT num_items, TileStateT tile_state)
  {
    const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    const int valid_items     = IS_LAST_TILE ? static_cast<int>(num_items - tile_offset) : TILE_ITEMS;

    // Load. Items past the end of the last tile repeat its first item: they take part in nothing written.
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
    AccumT items[ITEMS_PER_THREAD];
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      items[i] = static_cast<AccumT>(loaded[i]);
    }
    __syncthreads();

    // Scan, with the look-back for every tile but the first.
    AccumT scanned[ITEMS_PER_THREAD];
    if (tile_idx == 0)
    {
      AccumT block_aggregate;
      scan_first_tile(items, scanned, block_aggregate);
      if (threadIdx.x == 0 && !IS_LAST_TILE)
      {
        tile_state.SetInclusive(0, block_aggregate);
      }
    }
    else
    {
      PrefixOpT prefix_op(tile_state, temp_storage_.scan.prefix, op_, tile_idx);
      if constexpr (HAS_INIT)
      {
        detail::scan::init_prefix_op<AccumT, ScanOpT, PrefixOpT> with_init{prefix_op, op_, static_cast<AccumT>(init_)};
        scan_tile(items, scanned, with_init);
      }
      else
      {
        scan_tile(items, scanned, prefix_op);
      }
    }
    __syncthreads();

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
  }

  STRATA_DEVICE STRATA_FORCEINLINE void scan_first_tile(AccumT (&items)[ITEMS_PER_THREAD],
                                                        AccumT (&scanned)[ITEMS_PER_THREAD],
                                                        AccumT& block_aggregate)
  {
    BlockScanT scan(temp_storage_.scan.scan);
    if constexpr (INCLUSIVE && HAS_INIT)
    {
      scan.InclusiveScan(items, scanned, static_cast<AccumT>(init_), op_, block_aggregate);
    }
    else if constexpr (INCLUSIVE)
    {
      scan.InclusiveScan(items, scanned, op_, block_aggregate);
    }
    else if constexpr (HAS_INIT)
    {
      scan.ExclusiveScan(items, scanned, static_cast<AccumT>(init_), op_, block_aggregate);
    }
    else
    {
      scan.ExclusiveScan(items, scanned, op_, block_aggregate);
    }
  }

  template <typename CallbackT>
  STRATA_DEVICE STRATA_FORCEINLINE void
  scan_tile(AccumT (&items)[ITEMS_PER_THREAD], AccumT (&scanned)[ITEMS_PER_THREAD], CallbackT& callback)
  {
    BlockScanT scan(temp_storage_.scan.scan);
    if constexpr (INCLUSIVE)
    {
      scan.InclusiveScan(items, scanned, op_, callback);
    }
    else
    {
      scan.ExclusiveScan(items, scanned, op_, callback);
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
