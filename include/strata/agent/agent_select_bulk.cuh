// AgentSelectBulk: DeviceSelect's and DevicePartition's single-pass body for items in an array on sm_90, selecting by
// a predicate (If) or by difference from the previous item (Unique), with the tiles held in shared memory and loaded
// one tile ahead.
//
// AgentSelect holds a tile in registers, so a block has one tile in flight: it claims a tile once the one before has
// its prefix, and the load of the next waits for the look-back of the last, whose wait for the predecessors' loads
// the whole block sits out at a barrier. Here each block has two tile buffers: as a tile's processing starts, the
// block claims its next tile and starts loading it with one bulk copy (cp.async.bulk, completing on the buffer's
// mbarrier), so the load runs under the flagging, the look-back and the stores of the tile before. A claimed tile
// publishes its count as soon as the tile before it is done, where AgentSelect's would still be loading.
//
// Within a tile, warp w takes the w-th run of 32 * ITEMS_PER_THREAD consecutive items, read warp-striped from shared
// memory (lane l reads items l, l + 32, ...: no bank conflicts). The first pass flags the items (a bit per item in
// each lane's mask) and counts them per warp by ballots; warp 0 scans the warp counts and takes the tile's prefix
// from the decoupled look-back over the tiles' counts (TilePrefixCallbackOp over ScanTileState<OffsetT>, as
// AgentSelect). The second pass reads the items again and stores the selected ones at their places, which a ballot
// makes consecutive across the warp (coalesced stores); a partition's rejected items go back from the end of the
// output the same way. The last tile, which may not be whole, is read with plain loads. The last tile writes the
// count.
//
// In place (the output is the input): a tile writes only below its own end, once its prefix is known, and the tiles
// before it publish their counts only after their items have landed in shared memory.
#pragma once

#include <strata/agent/agent_select.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/type_traits>

#include <nv/target>

STRATA_NAMESPACE_BEGIN

// The knobs of AgentSelectBulk: BLOCK_THREADS threads, ITEMS_PER_THREAD items each (a tile of BLOCK_THREADS *
// ITEMS_PER_THREAD items, held twice in shared memory); the look-back and prefetch knobs as in AgentSelectPolicy;
// MIN_TILES_PER_SM: the tiles per SM an input must make to take this agent (fewer, larger tiles than AgentSelect's
// would leave SMs idle on small inputs).
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, int LOOK_BACK_DELAY_NS_ = 32, int LOOK_BACK_MAX_DELAY_NS_ = 256,
          int PREFETCH_QUARTER_WAVES_ = 4, int MIN_BLOCKS_PER_SM_ = 1, int MIN_TILES_PER_SM_ = 2>
struct AgentSelectBulkPolicy
{
  static_assert(BLOCK_THREADS_ % 32 == 0, "whole warps");
  static_assert(ITEMS_PER_THREAD_ >= 1 && ITEMS_PER_THREAD_ <= 32, "a lane's selection flags fit one 32-bit mask");
  static constexpr int BLOCK_THREADS          = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD       = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS             = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int LOOK_BACK_DELAY_NS     = LOOK_BACK_DELAY_NS_;
  static constexpr int LOOK_BACK_MAX_DELAY_NS = LOOK_BACK_MAX_DELAY_NS_;
  static constexpr int PREFETCH_QUARTER_WAVES = PREFETCH_QUARTER_WAVES_;
  static constexpr int MIN_BLOCKS_PER_SM      = MIN_BLOCKS_PER_SM_;
  static constexpr int MIN_TILES_PER_SM       = MIN_TILES_PER_SM_;
  static constexpr bool PERSISTENT            = true;
};

template <typename PolicyT, typename T, typename OutputIteratorT, typename NumSelectedIteratorT, typename SelectOpT,
          typename EqualityOpT, typename OffsetT, detail::select::mode MODE, bool PARTITION>
class AgentSelectBulk
{
  static_assert(MODE == detail::select::mode::predicate || MODE == detail::select::mode::unique,
                "the bulk agent selects by a predicate or by difference from the previous item");
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;
  static constexpr int WARPS            = BLOCK_THREADS / 32;
  static constexpr int WARP_ITEMS       = 32 * ITEMS_PER_THREAD;
  static constexpr int TILE_BYTES       = TILE_ITEMS * static_cast<int>(sizeof(T));
  static_assert(TILE_BYTES % 16 == 0, "bulk copies move multiples of 16 bytes");

  using TileStateT = ScanTileState<OffsetT>;
  using PrefixOpT =
    TilePrefixCallbackOp<OffsetT, cuda::std::plus<>, TileStateT,
                         detail::scan_look_back_delay<PolicyT::LOOK_BACK_DELAY_NS, PolicyT::LOOK_BACK_MAX_DELAY_NS>>;

  // The thread that claims tiles and starts their loads: lane 0 of the last warp (warp 0 does the look-back).
  static constexpr int LOADER = BLOCK_THREADS - 32;

public:
  struct TempStorage
  {
    alignas(128) T tile[2][TILE_ITEMS];
    typename PrefixOpT::TempStorage prefix;
    cuda::std::uint64_t landed[2]; // mbarriers of the buffers' loads
    unsigned int tile_idx[2];      // the tile in each buffer (num_tiles: none)
    OffsetT warp_rank[WARPS];      // the warps' counts, then the selected items before each warp in the tile
    OffsetT tile_count;            // tile 0's count
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentSelectBulk(TempStorage& temp_storage, const T* d_in, OutputIteratorT d_out,
                                                   NumSelectedIteratorT d_num_selected_out, SelectOpT select_op,
                                                   EqualityOpT equality_op, OffsetT num_items)
      : temp_storage_(temp_storage)
      , d_in_(d_in)
      , d_out_(d_out)
      , d_num_selected_out_(d_num_selected_out)
      , select_op_(select_op)
      , equality_op_(equality_op)
      , num_items_(num_items)
  {}

  // Selects from tiles until none is left: tile 0 alone when `tile_counter` is null (a single tile), else the tiles
  // the block claims from `tile_counter`. d_in starts on 16 bytes.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(unsigned int num_tiles, TileStateT tile_state,
                                                     unsigned int* tile_counter, unsigned int prefetch_distance)
  {
    NV_IF_TARGET(NV_PROVIDES_SM_90, (consume_range(num_tiles, tile_state, tile_counter, prefetch_distance);))
  }

private:
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  // The loader's claim of the block's next tile (num_tiles once the block has claimed the last tile, or the only
  // one without `tile_counter`). Nothing reads the atomic's result before fill, so that its latency runs under the
  // loader warp's first pass.
  STRATA_DEVICE STRATA_FORCEINLINE unsigned int claim(bool exhausted, unsigned int num_tiles,
                                                      unsigned int* tile_counter)
  {
    if (exhausted)
    {
      return num_tiles;
    }
    return tile_counter == nullptr ? 0u : atomicAdd(tile_counter, 1u);
  }

  // The loader publishes the claimed tile in `buffer` and starts loading it there: a whole tile by one bulk copy,
  // else (the last tile, or none) a plain arrival; `exhausted` once the block has claimed the last tile (or the only
  // one). The buffer is free: its last tile's reads ended before a barrier the loader has passed.
  STRATA_DEVICE STRATA_FORCEINLINE void fill(int buffer, unsigned int tile_idx, bool& exhausted, unsigned int num_tiles,
                                             unsigned int* tile_counter, unsigned int prefetch_distance)
  {
    exhausted                      = exhausted || tile_counter == nullptr || tile_idx + 1 >= num_tiles;
    temp_storage_.tile_idx[buffer] = tile_idx;
    const OffsetT tile_offset      = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    if (tile_idx < num_tiles && num_items_ - tile_offset > OffsetT(TILE_ITEMS))
    {
      const unsigned long long ahead = static_cast<unsigned long long>(tile_idx) + prefetch_distance;
      if (prefetch_distance > 0 && ahead + 1 < num_tiles)
      {
        PrefetchL2Bulk(d_in_ + static_cast<OffsetT>(ahead) * OffsetT(TILE_ITEMS), TILE_BYTES);
      }
      BulkLoad(temp_storage_.tile[buffer], d_in_ + tile_offset, TILE_BYTES, &temp_storage_.landed[buffer]);
    }
    else
    {
      MbarrierArrive(&temp_storage_.landed[buffer]);
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE void consume_range(unsigned int num_tiles, TileStateT tile_state,
                                                      unsigned int* tile_counter, unsigned int prefetch_distance)
  {
    bool exhausted = false;
    if (threadIdx.x == 0)
    {
      MbarrierInit(&temp_storage_.landed[0]);
      MbarrierInit(&temp_storage_.landed[1]);
    }
    __syncthreads();
    if (threadIdx.x == LOADER)
    {
      fill(0, claim(exhausted, num_tiles, tile_counter), exhausted, num_tiles, tile_counter, prefetch_distance);
    }
    unsigned int phases = 0; // bit b: the parity of buffer b's next load
    int buffer          = 0;
    while (true)
    {
      MbarrierWait(&temp_storage_.landed[buffer], (phases >> buffer) & 1u);
      phases ^= 1u << buffer;
      const unsigned int tile_idx = temp_storage_.tile_idx[buffer];
      if (tile_idx >= num_tiles)
      {
        break;
      }
      const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
      if (num_items_ - tile_offset <= OffsetT(TILE_ITEMS))
      {
        consume<true>(buffer, tile_idx, num_tiles, tile_state, tile_counter, exhausted, prefetch_distance);
      }
      else
      {
        consume<false>(buffer, tile_idx, num_tiles, tile_state, tile_counter, exhausted, prefetch_distance);
      }
      buffer ^= 1;
    }
  }

  // Whether item i of the tile (at global position tile_offset + i, i < valid_items) is selected.
  STRATA_DEVICE STRATA_FORCEINLINE bool selects(const T* tile, int i, OffsetT tile_offset, const T& item) const
  {
    if constexpr (MODE == detail::select::mode::unique)
    {
      if (tile_offset == OffsetT(0) && i == 0)
      {
        return true;
      }
      const T previous = i > 0 ? tile[i - 1] : T(d_in_[tile_offset - OffsetT(1)]);
      return !static_cast<bool>(equality_op_(previous, item));
    }
    else
    {
      (void) tile;
      (void) i;
      (void) tile_offset;
      return static_cast<bool>(select_op_(item));
    }
  }

  // Selects from tile `tile_idx`, in `buffer` (landed, unless it is the last tile), and claims and starts loading
  // the block's next tile into the other buffer. Ends with every thread past a barrier after its last read of the
  // buffer, of the tile index and of the look-back's storage.
  template <bool IS_LAST_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE void consume(int buffer, unsigned int tile_idx, unsigned int num_tiles,
                                                TileStateT tile_state, unsigned int* tile_counter, bool& exhausted,
                                                unsigned int prefetch_distance)
  {
    const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    const int valid_items     = IS_LAST_TILE ? static_cast<int>(num_items_ - tile_offset) : TILE_ITEMS;
    T* const tile             = temp_storage_.tile[buffer];
    const unsigned int lane   = LaneId();
    const int warp            = static_cast<int>(threadIdx.x) / 32;
    const int warp_begin      = warp * WARP_ITEMS;

    // The next claim goes out first; its result is needed only after the first pass.
    unsigned int next_tile = num_tiles;
    if (threadIdx.x == LOADER)
    {
      next_tile = claim(exhausted, num_tiles, tile_counter);
    }

    if constexpr (IS_LAST_TILE)
    {
      // A tile that may not be whole is read with plain loads.
      for (int i = static_cast<int>(threadIdx.x); i < valid_items; i += BLOCK_THREADS)
      {
        tile[i] = d_in_[tile_offset + OffsetT(i)];
      }
      __syncthreads();
    }

    // First pass: the lane's flags, and the warp's count.
    unsigned int flags = 0;
    OffsetT warp_count = 0;
    STRATA_UNROLL
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int i     = warp_begin + k * 32 + static_cast<int>(lane);
      const bool keep = (!IS_LAST_TILE || i < valid_items) && selects(tile, i, tile_offset, tile[i]);
      flags |= static_cast<unsigned int>(keep) << k;
      warp_count += static_cast<OffsetT>(__popc(__ballot_sync(0xffffffffu, keep)));
    }
    if (lane == 0)
    {
      temp_storage_.warp_rank[warp] = warp_count;
    }
    if (threadIdx.x == LOADER)
    {
      fill(buffer ^ 1, next_tile, exhausted, num_tiles, tile_counter, prefetch_distance);
    }
    __syncthreads();

    // Warp 0: the selected items before each warp, the tile's count, and the tile's place among all selected items.
    PrefixOpT prefix_op(tile_state, temp_storage_.prefix, cuda::std::plus<>{}, tile_idx);
    if (warp == 0)
    {
      const OffsetT count = lane < static_cast<unsigned int>(WARPS) ? temp_storage_.warp_rank[lane] : OffsetT(0);
      OffsetT inclusive   = count;
      STRATA_UNROLL
      for (int d = 1; d < WARPS; d *= 2)
      {
        const OffsetT other = __shfl_up_sync(0xffffffffu, inclusive, d);
        if (lane >= static_cast<unsigned int>(d))
        {
          inclusive += other;
        }
      }
      const OffsetT tile_count = __shfl_sync(0xffffffffu, inclusive, WARPS - 1);
      if (lane < static_cast<unsigned int>(WARPS))
      {
        temp_storage_.warp_rank[lane] = inclusive - count;
      }
      if (tile_idx == 0)
      {
        if (lane == 0)
        {
          temp_storage_.tile_count = tile_count;
          if (!IS_LAST_TILE)
          {
            tile_state.SetInclusive(0, tile_count);
          }
        }
      }
      else
      {
        prefix_op(tile_count);
      }
    }
    __syncthreads();
    OffsetT tile_prefix = 0;
    OffsetT tile_count  = 0;
    if (tile_idx == 0)
    {
      tile_count = temp_storage_.tile_count;
    }
    else
    {
      tile_prefix = prefix_op.ExclusivePrefix();
      tile_count  = prefix_op.InclusivePrefix() - tile_prefix;
    }

    // Second pass: the selected items to their places, consecutive across the warp; a partition's rejected ones
    // back from the end.
    const OffsetT warp_rank = temp_storage_.warp_rank[warp];
    OffsetT selected_before = tile_prefix + warp_rank;
    const int warp_valid    = valid_items < warp_begin ? 0 : valid_items - warp_begin;
    const OffsetT rejected_0 =
      (tile_offset - tile_prefix) + OffsetT(warp_begin < valid_items ? warp_begin : valid_items) - warp_rank;
    OffsetT rejected_before  = rejected_0;
    const unsigned int below = LaneMaskLt();
    STRATA_UNROLL
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int i          = warp_begin + k * 32 + static_cast<int>(lane);
      const bool keep      = (flags >> k) & 1u;
      const unsigned int b = __ballot_sync(0xffffffffu, keep);
      if (keep)
      {
        d_out_[selected_before + OffsetT(__popc(b & below))] = tile[i];
      }
      selected_before += static_cast<OffsetT>(__popc(b));
      if constexpr (PARTITION)
      {
        const bool reject    = !keep && (!IS_LAST_TILE || k * 32 + static_cast<int>(lane) < warp_valid);
        const unsigned int r = __ballot_sync(0xffffffffu, reject);
        if (reject)
        {
          d_out_[num_items_ - OffsetT(1) - (rejected_before + OffsetT(__popc(r & below)))] = tile[i];
        }
        rejected_before += static_cast<OffsetT>(__popc(r));
      }
    }
    if (IS_LAST_TILE && threadIdx.x == 0)
    {
      using CountT         = detail::non_void_value_t<NumSelectedIteratorT, OffsetT>;
      *d_num_selected_out_ = static_cast<CountT>(tile_prefix + tile_count);
    }
    __syncthreads();
  }
#endif

  TempStorage& temp_storage_;
  const T* d_in_;
  OutputIteratorT d_out_;
  NumSelectedIteratorT d_num_selected_out_;
  SelectOpT select_op_;
  EqualityOpT equality_op_;
  OffsetT num_items_;
};

STRATA_NAMESPACE_END
