// AgentThreeWayPartition: the block-wide body of DevicePartition::If with two selection operators.
//
// Each item goes to one of three parts: the first part when select_first_part_op(item) is true, else the second
// part when select_second_part_op(item) is true, else the unselected part; every part keeps the items' order. A
// thread keeps one bit mask per selected part for its items, and a BlockScan of the threads' pairs of counts gives
// each thread the places of its first items among the tile's first-part and second-part items (its unselected items
// follow from those and their index). The counts before the tile come from the decoupled look-back over the tiles'
// pairs of counts (ScanTileState and TilePrefixCallbackOp, as DeviceScan's), so the input is read once. The tile's
// items are then grouped by part in shared memory and leave as consecutive stores to the three outputs. The last
// tile writes the two selected counts. Tiles are claimed in launch order from a counter by one wave of resident
// blocks, as AgentSelect's are.
#pragma once

#include <strata/agent/agent_scan.cuh>
#include <strata/agent/agent_select.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_load.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/config.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace three_way_partition
{
// How many items of a range went to the first and to the second part.
template <typename OffsetT>
struct part_counts
{
  OffsetT first;
  OffsetT second;
};

struct sum_counts
{
  template <typename OffsetT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE part_counts<OffsetT> operator()(const part_counts<OffsetT>& a,
                                                                        const part_counts<OffsetT>& b) const
  {
    return {static_cast<OffsetT>(a.first + b.first), static_cast<OffsetT>(a.second + b.second)};
  }
};

// A tile's exclusive scan of its threads' pairs of counts over the decoupled look-back (the three-way partition's and
// DeviceTopK's rounds'): each thread's rank among the items of each kind before it, the counts of the tiles before
// this one, and this tile's. Tile 0 publishes its counts as its inclusive prefix (the last tile has no one to tell).
template <bool IS_LAST_TILE, typename BlockScanT, typename PrefixOpT, typename ScanStorageT, typename PrefixStorageT,
          typename TileStateT, typename CountsT>
STRATA_DEVICE STRATA_FORCEINLINE void scan_tile_counts(ScanStorageT& scan_storage, PrefixStorageT& prefix_storage,
                                                       const TileStateT& tile_state, unsigned int tile_idx,
                                                       const CountsT& thread_counts, CountsT& thread_rank,
                                                       CountsT& tile_prefix, CountsT& tile_count)
{
  tile_prefix = CountsT{};
  if (tile_idx == 0)
  {
    BlockScanT(scan_storage).ExclusiveScan(thread_counts, thread_rank, tile_prefix, sum_counts{}, tile_count);
    if (threadIdx.x == 0 && !IS_LAST_TILE)
    {
      tile_state.SetInclusive(0, tile_count);
    }
    __syncthreads();
  }
  else
  {
    PrefixOpT prefix_op(tile_state, prefix_storage, sum_counts{}, tile_idx);
    BlockScanT(scan_storage).ExclusiveScan(thread_counts, thread_rank, sum_counts{}, prefix_op);
    __syncthreads();
    tile_prefix             = prefix_op.ExclusivePrefix();
    const CountsT inclusive = prefix_op.InclusivePrefix();
    tile_count.first        = inclusive.first - tile_prefix.first;
    tile_count.second       = inclusive.second - tile_prefix.second;
  }
}
} // namespace three_way_partition

// Sums of integer pairs: exact, so the look-back may reduce a window with a tree.
template <typename OffsetT>
struct scan_op_is_exact<three_way_partition::part_counts<OffsetT>, three_way_partition::sum_counts>
    : cuda::std::is_integral<OffsetT>
{};
} // namespace detail

// PolicyT: an AgentSelectPolicy (DeviceSelect's knobs).
template <typename PolicyT, typename InputIteratorT, typename FirstOutputIteratorT, typename SecondOutputIteratorT,
          typename UnselectedOutputIteratorT, typename NumSelectedIteratorT, typename SelectFirstPartOpT,
          typename SelectSecondPartOpT, typename OffsetT>
class AgentThreeWayPartition
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;
  static_assert(ITEMS_PER_THREAD <= 32, "a thread's part masks fit one 32-bit word each");

  using T          = detail::it_value_t<InputIteratorT>;
  using CountsT    = detail::three_way_partition::part_counts<OffsetT>;
  using SumT       = detail::three_way_partition::sum_counts;
  using TileStateT = ScanTileState<CountsT>;
  using BlockLoadT = BlockLoad<T, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using BlockScanT = BlockScan<CountsT, BLOCK_THREADS, PolicyT::SCAN_ALGORITHM>;
  using PrefixOpT =
    TilePrefixCallbackOp<CountsT, SumT, TileStateT,
                         detail::scan_look_back_delay<PolicyT::LOOK_BACK_DELAY_NS, PolicyT::LOOK_BACK_MAX_DELAY_NS>>;

  static constexpr bool PREFETCHABLE = detail::scan::prefetchable_tiles_v<PolicyT, InputIteratorT, T>;

public:
  // Shared memory: the load, the scan and the grouped tile are never live at the same time; the look-back's state
  // outlives the scan (its prefixes are read after it).
  struct TempStorage
  {
    union
    {
      typename BlockLoadT::TempStorage load;
      typename BlockScanT::TempStorage scan;
      Uninitialized<T[TILE_ITEMS]> grouped;
    };
    typename PrefixOpT::TempStorage prefix;
    unsigned int tile_idx;
  };

  STRATA_DEVICE STRATA_FORCEINLINE
  AgentThreeWayPartition(TempStorage& temp_storage, InputIteratorT d_in, FirstOutputIteratorT d_first_part_out,
                         SecondOutputIteratorT d_second_part_out, UnselectedOutputIteratorT d_unselected_out,
                         NumSelectedIteratorT d_num_selected_out, SelectFirstPartOpT select_first_part_op,
                         SelectSecondPartOpT select_second_part_op, OffsetT num_items)
      : temp_storage_(temp_storage)
      , d_in_(d_in)
      , d_first_part_out_(d_first_part_out)
      , d_second_part_out_(d_second_part_out)
      , d_unselected_out_(d_unselected_out)
      , d_num_selected_out_(d_num_selected_out)
      , select_first_part_op_(select_first_part_op)
      , select_second_part_op_(select_second_part_op)
      , num_items_(num_items)
  {}

  // Partitions tiles until none is left: tile 0 alone when `tile_counter` is null (a single tile), else the tiles
  // the block claims from `tile_counter` (one, unless PERSISTENT).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(unsigned int num_tiles, TileStateT tile_state,
                                                     unsigned int* tile_counter, unsigned int prefetch_distance)
  {
    detail::scan::consume_claimed_tiles<PolicyT::PERSISTENT>(
      temp_storage_.tile_idx, num_tiles, tile_counter, [&](unsigned int tile_idx, auto is_last, unsigned int* claim) {
        consume<decltype(is_last)::value>(tile_idx, num_tiles, tile_state, claim, prefetch_distance);
      });
  }

private:
  // Partitions tile `tile_idx`. With `claim_next`, thread 0 claims the block's next tile from it once the tile has
  // its prefix, and leaves it in temp_storage_.tile_idx (read after the caller's barrier).
  template <bool IS_LAST_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE void consume(unsigned int tile_idx, unsigned int num_tiles, TileStateT tile_state,
                                                unsigned int* claim_next, unsigned int prefetch_distance)
  {
    const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    const int valid_items     = IS_LAST_TILE ? static_cast<int>(num_items_ - tile_offset) : TILE_ITEMS;

    detail::select::prefetch_ahead<PolicyT, PREFETCHABLE, InputIteratorT, OffsetT>(d_in_, tile_idx, num_tiles,
                                                                                   prefetch_distance);

    T items[ITEMS_PER_THREAD];
    detail::scan::load_tile<PolicyT, BlockLoadT, IS_LAST_TILE>(temp_storage_.load, d_in_, tile_offset, valid_items,
                                                               items);
    // Bit i of `first` / `second`: items[i] goes to the first / the second part (neither: unselected or past the
    // end of the input).
    const int thread_first = static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD;
    unsigned int first     = 0;
    unsigned int second    = 0;
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      if (!IS_LAST_TILE || thread_first + i < valid_items)
      {
        if (static_cast<bool>(select_first_part_op_(items[i])))
        {
          first |= 1u << i;
        }
        else if (static_cast<bool>(select_second_part_op_(items[i])))
        {
          second |= 1u << i;
        }
      }
    }
    __syncthreads();

    // The places of the thread's first items of each part among all items of that part, and the tile's.
    const CountsT thread_counts{static_cast<OffsetT>(__popc(first)), static_cast<OffsetT>(__popc(second))};
    CountsT thread_rank{}, tile_prefix{}, tile_count{};
    detail::three_way_partition::scan_tile_counts<IS_LAST_TILE, BlockScanT, PrefixOpT>(temp_storage_.scan,
                                                                                       temp_storage_.prefix, tile_state,
                                                                                       tile_idx, thread_counts,
                                                                                       thread_rank, tile_prefix,
                                                                                       tile_count);
    unsigned int claimed = 0;
    if (claim_next != nullptr && threadIdx.x == 0)
    {
      claimed = atomicAdd(claim_next, 1u);
    }

    // Group the tile by part, each in order: first part, second part, unselected. The ranks count the tile's items of
    // each part before item thread_first + i, so each item goes to one place picked without a branch (the items of
    // the two parts are valid items).
    T* const grouped       = temp_storage_.grouped.Alias();
    const int first_count  = static_cast<int>(tile_count.first);
    const int second_count = static_cast<int>(tile_count.second);
    int first_rank         = static_cast<int>(thread_rank.first - tile_prefix.first);
    int second_rank        = static_cast<int>(thread_rank.second - tile_prefix.second);
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int in_first  = static_cast<int>((first >> i) & 1u);
      const int in_second = static_cast<int>((second >> i) & 1u);
      if (!IS_LAST_TILE || thread_first + i < valid_items)
      {
        const int unselected = first_count + second_count + (thread_first + i - first_rank - second_rank);
        grouped[in_first ? first_rank : in_second ? first_count + second_rank : unselected] = items[i];
      }
      first_rank += in_first;
      second_rank += in_second;
    }
    __syncthreads();

    // Store each part after the earlier tiles' items of that part.
    const OffsetT unselected_before = tile_offset - tile_prefix.first - tile_prefix.second;
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int j = i * BLOCK_THREADS + static_cast<int>(threadIdx.x);
      if (j < valid_items)
      {
        if (j < first_count)
        {
          d_first_part_out_[tile_prefix.first + OffsetT(j)] = grouped[j];
        }
        else if (j < first_count + second_count)
        {
          d_second_part_out_[tile_prefix.second + OffsetT(j - first_count)] = grouped[j];
        }
        else
        {
          d_unselected_out_[unselected_before + OffsetT(j - first_count - second_count)] = grouped[j];
        }
      }
    }
    if (IS_LAST_TILE && threadIdx.x == 0)
    {
      using CountT           = detail::non_void_value_t<NumSelectedIteratorT, OffsetT>;
      d_num_selected_out_[0] = static_cast<CountT>(tile_prefix.first + tile_count.first);
      d_num_selected_out_[1] = static_cast<CountT>(tile_prefix.second + tile_count.second);
    }
    if (claim_next != nullptr && threadIdx.x == 0)
    {
      temp_storage_.tile_idx = claimed;
    }
  }

  TempStorage& temp_storage_;
  InputIteratorT d_in_;
  FirstOutputIteratorT d_first_part_out_;
  SecondOutputIteratorT d_second_part_out_;
  UnselectedOutputIteratorT d_unselected_out_;
  NumSelectedIteratorT d_num_selected_out_;
  SelectFirstPartOpT select_first_part_op_;
  SelectSecondPartOpT select_second_part_op_;
  OffsetT num_items_;
};

STRATA_NAMESPACE_END
