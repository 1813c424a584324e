// AgentSelectBulk: DeviceSelect's and DevicePartition's single-pass body for items in an array on sm_90, selecting by
// a predicate (If) or by difference from the previous item (Unique), with the tiles held in shared memory, loaded a
// tile ahead, and the look-back in a warp of its own.
//
// AgentSelect holds a tile in registers, so a block has one tile in flight, and the whole block waits at a barrier
// while its first warp looks back for the tile's prefix. Here warp 0 only looks back, and the other warps (the
// workers) keep their tiles in two buffers in shared memory. While the look-back warp finds the prefix of a tile, the
// workers store the tile before it (whose prefix it found meanwhile), claim their next tile and start loading it into
// the freed buffer with one bulk copy (cp.async.bulk, completing on the buffer's mbarrier), and count it as soon as it
// has landed. A tile is claimed only when its load can start and its count is published as soon as its items are in
// shared memory, so the tiles after it, which look back on its count, never wait for anything but its load; the
// workers wait for a look-back only where it takes longer than their next tile's load.
//
// Within a tile, worker w takes the w-th run of 32 * ITEMS_PER_THREAD consecutive items, read warp-striped from shared
// memory (lane l reads items l, l + 32, ...: no bank conflicts). The first pass flags the items (a bit per item in
// each lane's mask) and counts them per warp by ballots; after a barrier of the workers, each warp sums the counts of
// the warps before it, and one worker publishes the tile's count for the decoupled look-back over the tiles' counts
// (ScanTileState<OffsetT>; TilePrefixCallbackOp in the look-back warp, as in AgentSelect). The second pass reads the
// items again and stores the selected ones at their places, which a ballot makes consecutive across the warp
// (coalesced); a partition's rejected items go back from the end of the output the same way. The last tile, which may
// not be whole, is read with plain loads. The look-back warp writes the count after the last tile.
//
// The hand-offs are mbarriers, a pair per buffer: every worker arrives on `counted[b]` once the tile in buffer b is
// counted, where the look-back warp waits, and every lane of the look-back warp arrives on `prefixed[b]` with the
// tile's prefix, where the workers wait before storing the tile. A buffer's mbarriers serve its next tile only after
// their phases for its last tile have completed (each side waits on the other's phase of that tile first). The
// workers among themselves synchronize on a named barrier. (Named barriers would serve the hand-offs too, the
// producers arriving where the consumers wait, but compute-sanitizer's racecheck takes no ordering from bar.arrive.)
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

// The knobs of AgentSelectBulk: BLOCK_THREADS threads, the look-back warp and the workers, ITEMS_PER_THREAD items for
// each worker thread (a tile of (BLOCK_THREADS - 32) * ITEMS_PER_THREAD items, two tiles held in shared memory); the
// look-back and prefetch knobs as in AgentSelectPolicy;
// MIN_TILES_PER_SM: the tiles per SM an input must make to take this agent (fewer, larger tiles than AgentSelect's
// would leave SMs idle on small inputs).
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, int LOOK_BACK_DELAY_NS_ = 32, int LOOK_BACK_MAX_DELAY_NS_ = 256,
          int PREFETCH_QUARTER_WAVES_ = 4, int MIN_BLOCKS_PER_SM_ = 1, int MIN_TILES_PER_SM_ = 2>
struct AgentSelectBulkPolicy
{
  static_assert(BLOCK_THREADS_ % 32 == 0 && BLOCK_THREADS_ >= 64, "whole warps: the look-back warp and a worker");
  static_assert(ITEMS_PER_THREAD_ >= 1 && ITEMS_PER_THREAD_ <= 32, "a lane's selection flags fit one 32-bit mask");
  static constexpr int BLOCK_THREADS          = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD       = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS             = (BLOCK_THREADS - 32) * ITEMS_PER_THREAD;
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
  static constexpr int WORKER_THREADS   = BLOCK_THREADS - 32;
  static constexpr int WORKER_WARPS     = WORKER_THREADS / 32;
  static constexpr int WARP_ITEMS       = 32 * ITEMS_PER_THREAD;
  static constexpr int TILE_BYTES       = TILE_ITEMS * static_cast<int>(sizeof(T));
  static_assert(TILE_BYTES % 16 == 0, "bulk copies move multiples of 16 bytes");

  using TileStateT = ScanTileState<OffsetT>;
  using PrefixOpT =
    TilePrefixCallbackOp<OffsetT, cuda::std::plus<>, TileStateT,
                         detail::scan_look_back_delay<PolicyT::LOOK_BACK_DELAY_NS, PolicyT::LOOK_BACK_MAX_DELAY_NS>>;
  using CountT = detail::non_void_value_t<NumSelectedIteratorT, OffsetT>;

  // The named barrier of the workers among themselves.
  static constexpr unsigned int WORKERS_BARRIER = 1;

  // The thread that claims tiles and starts their loads: lane 0 of the last warp. The thread that publishes the tiles'
  // counts: lane 0 of the first worker.
  static constexpr int LOADER    = BLOCK_THREADS - 32;
  static constexpr int PUBLISHER = 32;

public:
  struct TempStorage
  {
    alignas(128) T tile[2][TILE_ITEMS];
    typename PrefixOpT::TempStorage prefix_op;
    cuda::std::uint64_t landed[2];    // mbarriers of the buffers' loads
    cuda::std::uint64_t counted[2];   // mbarriers: the buffer's tile counted (the workers to the look-back warp)
    cuda::std::uint64_t prefixed[2];  // mbarriers: the buffer's tile's prefix found (the look-back warp to the workers)
    unsigned int tile_idx[2];         // the tile in each buffer (num_tiles: none, the workers are done)
    OffsetT warp_count[WORKER_WARPS]; // the workers' counts of the tile being counted
    OffsetT tile_count[2];            // the count of each buffer's tile (to the look-back warp)
    OffsetT tile_prefix[2];           // the prefix of each buffer's tile (to the workers)
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
  // A tile the workers have counted: what its second pass needs besides its prefix.
  struct counted_tile
  {
    OffsetT tile_offset;
    int valid_items;    // TILE_ITEMS, but in the last tile
    unsigned int flags; // the lane's selected items: bit k for item k * 32 + lane of the warp's run
    OffsetT warp_rank;  // the tile's selected items before the warp's run
  };

  STRATA_DEVICE STRATA_FORCEINLINE void consume_range(unsigned int num_tiles, TileStateT tile_state,
                                                      unsigned int* tile_counter, unsigned int prefetch_distance)
  {
    if (threadIdx.x == 0)
    {
      for (int b = 0; b < 2; ++b)
      {
        MbarrierInit(&temp_storage_.landed[b]);
        MbarrierInit(&temp_storage_.counted[b], WORKER_THREADS);
        MbarrierInit(&temp_storage_.prefixed[b], 32);
      }
    }
    __syncthreads();
    if (threadIdx.x < 32)
    {
      look_back(num_tiles, tile_state);
    }
    else
    {
      work(num_tiles, tile_state, tile_counter, prefetch_distance);
    }
  }

  // The look-back warp: the prefix of each tile the workers count, in the order they count them, until they hand
  // over a buffer without a tile.
  STRATA_DEVICE STRATA_FORCEINLINE void look_back(unsigned int num_tiles, TileStateT tile_state)
  {
    unsigned int phases = 0; // bit b: the parity of buffer b's next count
    for (int buffer = 0;; buffer ^= 1)
    {
      MbarrierWait(&temp_storage_.counted[buffer], (phases >> buffer) & 1u);
      phases ^= 1u << buffer;
      const unsigned int tile_idx = temp_storage_.tile_idx[buffer];
      if (tile_idx >= num_tiles)
      {
        return;
      }
      const OffsetT count = temp_storage_.tile_count[buffer];
      OffsetT prefix      = 0;
      if (tile_idx != 0)
      {
        PrefixOpT prefix_op(tile_state, temp_storage_.prefix_op, cuda::std::plus<>{}, tile_idx);
        prefix = prefix_op(count);
      }
      if (LaneId() == 0)
      {
        temp_storage_.tile_prefix[buffer] = prefix;
        if (tile_idx + 1 == num_tiles)
        {
          *d_num_selected_out_ = static_cast<CountT>(prefix + count);
        }
      }
      MbarrierArrive(&temp_storage_.prefixed[buffer]);
    }
  }

  // The loader's claim of the block's next tile (num_tiles once the block has claimed the last tile, or the only
  // one without `tile_counter`).
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

  // The workers: each tile is counted as soon as it has landed, then the tile before it is stored once its prefix
  // has come, and its buffer is refilled with the block's next tile.
  STRATA_DEVICE STRATA_FORCEINLINE void work(unsigned int num_tiles, TileStateT tile_state, unsigned int* tile_counter,
                                             unsigned int prefetch_distance)
  {
    bool exhausted = false;
    if (threadIdx.x == LOADER)
    {
      fill(0, claim(exhausted, num_tiles, tile_counter), exhausted, num_tiles, tile_counter, prefetch_distance);
    }
    unsigned int phases        = 0; // bit b: the parity of buffer b's next load
    unsigned int prefix_phases = 0; // bit b: the parity of buffer b's next prefix
    int buffer                 = 0;
    counted_tile before{}; // the tile in the other buffer, counted and not yet stored
    bool has_before = false;
    while (true)
    {
      MbarrierWait(&temp_storage_.landed[buffer], (phases >> buffer) & 1u);
      phases ^= 1u << buffer;
      const unsigned int tile_idx = temp_storage_.tile_idx[buffer];
      if (tile_idx >= num_tiles)
      {
        // No tile: the look-back warp ends at this buffer's hand-off, and the tile before is stored.
        MbarrierArrive(&temp_storage_.counted[buffer]);
        if (has_before)
        {
          wait_prefix(buffer ^ 1, prefix_phases);
          store(before, buffer ^ 1);
        }
        return;
      }
      const OffsetT tile_offset  = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
      const counted_tile current = num_items_ - tile_offset <= OffsetT(TILE_ITEMS)
                                   ? count<true>(buffer, tile_idx, tile_state)
                                   : count<false>(buffer, tile_idx, tile_state);
      if (has_before)
      {
        wait_prefix(buffer ^ 1, prefix_phases);
      }
      // The next tile is claimed only once its buffer is about to be free, so that a claimed tile waits for nothing
      // but its load before it is counted (the tiles after it look back on its count); the claim's latency runs under
      // the stores.
      unsigned int next_tile = num_tiles;
      if (threadIdx.x == LOADER)
      {
        next_tile = claim(exhausted, num_tiles, tile_counter);
      }
      if (has_before)
      {
        store(before, buffer ^ 1);
      }
      // Every worker is done with the other buffer (and with the warp counts).
      NamedBarrierSync(WORKERS_BARRIER, WORKER_THREADS);
      if (threadIdx.x == LOADER)
      {
        fill(buffer ^ 1, next_tile, exhausted, num_tiles, tile_counter, prefetch_distance);
      }
      before     = current;
      has_before = true;
      buffer ^= 1;
    }
  }

  // Waits until the look-back warp has handed over the prefix of the tile in `buffer`.
  STRATA_DEVICE STRATA_FORCEINLINE void wait_prefix(int buffer, unsigned int& prefix_phases)
  {
    MbarrierWait(&temp_storage_.prefixed[buffer], (prefix_phases >> buffer) & 1u);
    prefix_phases ^= 1u << buffer;
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

  // The first pass over tile `tile_idx` in `buffer` (landed, unless it is the last tile): the lanes' flags, the warps'
  // places among the tile's selected items, and the tile's count, published and handed to the look-back warp.
  template <bool IS_LAST_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE counted_tile count(int buffer, unsigned int tile_idx, TileStateT tile_state)
  {
    const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    const int valid_items     = IS_LAST_TILE ? static_cast<int>(num_items_ - tile_offset) : TILE_ITEMS;
    T* const tile             = temp_storage_.tile[buffer];
    const unsigned int lane   = LaneId();
    const int worker          = static_cast<int>(threadIdx.x) / 32 - 1;
    const int warp_begin      = worker * WARP_ITEMS;

    if constexpr (IS_LAST_TILE)
    {
      // A tile that may not be whole is read with plain loads.
      for (int i = static_cast<int>(threadIdx.x) - 32; i < valid_items; i += WORKER_THREADS)
      {
        tile[i] = d_in_[tile_offset + OffsetT(i)];
      }
      NamedBarrierSync(WORKERS_BARRIER, WORKER_THREADS);
    }

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
      temp_storage_.warp_count[worker] = warp_count;
    }
    NamedBarrierSync(WORKERS_BARRIER, WORKER_THREADS);
    OffsetT warp_rank  = 0;
    OffsetT tile_count = 0;
    STRATA_UNROLL
    for (int w = 0; w < WORKER_WARPS; ++w)
    {
      const OffsetT c = temp_storage_.warp_count[w];
      warp_rank += w < worker ? c : OffsetT(0);
      tile_count += c;
    }
    if (threadIdx.x == PUBLISHER)
    {
      temp_storage_.tile_count[buffer] = tile_count;
      if (tile_idx == 0)
      {
        if (!IS_LAST_TILE)
        {
          tile_state.SetInclusive(0, tile_count);
        }
      }
      else
      {
        tile_state.SetPartial(tile_idx, tile_count);
      }
    }
    MbarrierArrive(&temp_storage_.counted[buffer]);
    return counted_tile{tile_offset, valid_items, flags, warp_rank};
  }

  // The second pass over tile `t` in `buffer`, once the look-back warp has handed over its prefix: the selected items
  // to their places, consecutive across the warp; a partition's rejected ones back from the end.
  STRATA_DEVICE STRATA_FORCEINLINE void store(const counted_tile& t, int buffer)
  {
    const OffsetT tile_prefix = temp_storage_.tile_prefix[buffer];
    const T* const tile       = temp_storage_.tile[buffer];
    const unsigned int lane   = LaneId();
    const int warp_begin      = (static_cast<int>(threadIdx.x) / 32 - 1) * WARP_ITEMS;
    const int warp_valid      = t.valid_items < warp_begin ? 0 : t.valid_items - warp_begin;
    OffsetT selected_before   = tile_prefix + t.warp_rank;
    OffsetT rejected_before =
      (t.tile_offset - tile_prefix) + OffsetT(warp_begin < t.valid_items ? warp_begin : t.valid_items) - t.warp_rank;
    const unsigned int below = LaneMaskLt();
    STRATA_UNROLL
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int i          = warp_begin + k * 32 + static_cast<int>(lane);
      const bool keep      = (t.flags >> k) & 1u;
      const unsigned int b = __ballot_sync(0xffffffffu, keep);
      if (keep)
      {
        d_out_[selected_before + OffsetT(__popc(b & below))] = tile[i];
      }
      selected_before += static_cast<OffsetT>(__popc(b));
      if constexpr (PARTITION)
      {
        const bool reject    = !keep && k * 32 + static_cast<int>(lane) < warp_valid;
        const unsigned int r = __ballot_sync(0xffffffffu, reject);
        if (reject)
        {
          d_out_[num_items_ - OffsetT(1) - (rejected_before + OffsetT(__popc(r & below)))] = tile[i];
        }
        rejected_before += static_cast<OffsetT>(__popc(r));
      }
    }
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
