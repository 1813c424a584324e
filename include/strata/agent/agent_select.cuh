// AgentSelect: the block-wide body of DeviceSelect's and DevicePartition's single-pass kernel.
//
// A tile's items are loaded, each gets a selection flag (the predicate on the item, the item's flag, the predicate
// on the flag, or "differs from its predecessor" for Unique), kept as one bit of a per-thread mask, and a BlockScan
// of the threads' counts of selected items gives each thread the place of its first selected item among the tile's
// selected ones (the others follow it: a thread's items are consecutive). Registers hold the items, the mask and a
// count, not a flag and a place per item. The number selected before the tile comes from the decoupled look-back
// over the tiles' counts (ScanTileState of OffsetT and TilePrefixCallbackOp, as DeviceScan's), so the whole input is
// one pass. The tile's selected items are then compacted in shared memory and leave as consecutive stores; a
// partition also writes the rejected items, in reverse order from the end of the output (CUB's layout). The last
// tile writes the total to the count output. Tiles are claimed in launch order from a counter by one wave of
// resident blocks, which prefetch the input of the tile a wave ahead into L2, as AgentScan's do.
//
// In place (the output is the input): a tile writes only below its own end, and only once it knows how many items
// the tiles before it selected, which each of them publishes after its items have passed through shared memory
// (the block load's transpose), so every item is read before anything can overwrite it.
#pragma once

#include <strata/agent/agent_scan.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_discontinuity.cuh>
#include <strata/block/block_load.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/config.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentSelect (as AgentScanPolicy's, without a store algorithm: selected items leave through
// shared memory).
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, BlockLoadAlgorithm LOAD_ALGORITHM_,
          CacheLoadModifier LOAD_MODIFIER_, BlockScanAlgorithm SCAN_ALGORITHM_, int LOOK_BACK_DELAY_NS_ = 32,
          int LOOK_BACK_MAX_DELAY_NS_ = 256, int PREFETCH_QUARTER_WAVES_ = 4, bool PERSISTENT_ = true,
          int MIN_BLOCKS_PER_SM_ = 1>
struct AgentSelectPolicy
{
  static constexpr int BLOCK_THREADS                 = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD              = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS                    = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr BlockLoadAlgorithm LOAD_ALGORITHM = LOAD_ALGORITHM_;
  static constexpr CacheLoadModifier LOAD_MODIFIER   = LOAD_MODIFIER_;
  static constexpr BlockScanAlgorithm SCAN_ALGORITHM = SCAN_ALGORITHM_;
  static constexpr int LOOK_BACK_DELAY_NS            = LOOK_BACK_DELAY_NS_;
  static constexpr int LOOK_BACK_MAX_DELAY_NS        = LOOK_BACK_MAX_DELAY_NS_;
  static constexpr int PREFETCH_QUARTER_WAVES        = PREFETCH_QUARTER_WAVES_;
  static constexpr bool PERSISTENT                   = PERSISTENT_;
  static constexpr int MIN_BLOCKS_PER_SM             = MIN_BLOCKS_PER_SM_;
};

namespace detail
{
namespace select
{
// What selects an item.
enum class mode
{
  predicate,  // select_op(item)
  flagged,    // flag (converted to bool)
  flagged_if, // select_op(flag)
  unique,     // the first item, and every item that differs from its predecessor under equality_op
};

// The values of UniqueByKey (the keys are the input): the value of each selected key is written beside it.
template <typename ValuesInputIteratorT, typename ValuesOutputIteratorT>
struct by_key_values
{
  ValuesInputIteratorT in;
  ValuesOutputIteratorT out;
};

// The values argument of the selections without values.
struct no_values
{};

// The value type of a ValuesT (char without values: never loaded).
template <typename ValuesT, typename OffsetT>
struct values_value
{
  using type = char;
};
template <typename ValuesInputIteratorT, typename ValuesOutputIteratorT, typename OffsetT>
struct values_value<by_key_values<ValuesInputIteratorT, ValuesOutputIteratorT>, OffsetT>
{
  using type = it_value_t<ValuesInputIteratorT>;
};

// The flag iterator of the modes without flags (never read).
using no_flags = const char*;

constexpr bool has_flags(mode m)
{
  return m == mode::flagged || m == mode::flagged_if;
}

// Where a partition's tile sends item j of its compacted items (its `count` selected ones first, then its rejected
// ones, each in order): selected item j after the `tile_prefix` items the earlier tiles selected; rejected item j
// back from the end, after the (tile_offset - tile_prefix) items the earlier tiles rejected, to
// num_items - 1 - (tile_offset - tile_prefix) - (j - count), which is rejected_end - j. Unsigned arithmetic (a
// place never passes num_items, whatever the offset type's sign).
template <typename OffsetT>
struct partition_places
{
  using UnsignedT = cuda::std::make_unsigned_t<OffsetT>;
  UnsignedT selected_begin; // tile_prefix
  UnsignedT rejected_end;   // num_items - 1 - (tile_offset - tile_prefix) + count
  int count;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE partition_places(OffsetT num_items, OffsetT tile_offset, OffsetT tile_prefix,
                                                         int count_in)
      : selected_begin(static_cast<UnsignedT>(tile_prefix))
      , rejected_end(static_cast<UnsignedT>(num_items) - UnsignedT(1)
                     - (static_cast<UnsignedT>(tile_offset) - static_cast<UnsignedT>(tile_prefix))
                     + static_cast<UnsignedT>(count_in))
      , count(count_in)
  {}

  STRATA_HOST_DEVICE STRATA_FORCEINLINE OffsetT operator()(int j) const
  {
    const UnsignedT uj = static_cast<UnsignedT>(j);
    return static_cast<OffsetT>(j < count ? selected_begin + uj : rejected_end - uj);
  }
};

// Asks L2 for the input of the tile `prefetch_distance` tiles after `tile_idx` (never the last tile), where the
// agent's tiles are prefetchable (detail::scan::prefetchable_tiles_v).
template <typename PolicyT, bool PREFETCHABLE, typename InputIteratorT, typename OffsetT>
STRATA_DEVICE STRATA_FORCEINLINE void prefetch_ahead(InputIteratorT d_in, unsigned int tile_idx, unsigned int num_tiles,
                                                     unsigned int prefetch_distance)
{
  if constexpr (PREFETCHABLE)
  {
    const unsigned long long ahead = static_cast<unsigned long long>(tile_idx) + prefetch_distance;
    if (threadIdx.x == 0 && prefetch_distance > 0 && ahead + 1 < num_tiles)
    {
      scan::prefetch_tile<PolicyT>(d_in, static_cast<OffsetT>(ahead) * OffsetT(PolicyT::TILE_ITEMS));
    }
  }
}
} // namespace select
} // namespace detail

// PARTITION: also write the rejected items, in reverse order, after the selected ones. ValuesT: no_values,
// or by_key_values (UniqueByKey: MODE unique over the keys, each selected key's value written too).
template <typename PolicyT, typename InputIteratorT, typename FlagsIteratorT, typename OutputIteratorT,
          typename NumSelectedIteratorT, typename SelectOpT, typename EqualityOpT, typename OffsetT,
          detail::select::mode MODE, bool PARTITION, typename ValuesT = detail::select::no_values>
class AgentSelect
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;
  static constexpr bool HAS_FLAGS       = detail::select::has_flags(MODE);
  static_assert(ITEMS_PER_THREAD <= 32, "a thread's selection flags fit one 32-bit mask");

  static constexpr bool HAS_VALUES = !cuda::std::is_same<ValuesT, detail::select::no_values>::value;
  static_assert(!HAS_VALUES || (MODE == detail::select::mode::unique && !PARTITION), "values go with Unique only");

  using T                   = detail::it_value_t<InputIteratorT>;
  using ValueT              = typename detail::select::values_value<ValuesT, OffsetT>::type;
  using BlockLoadValuesT    = BlockLoad<ValueT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using FlagT               = cuda::std::conditional_t<HAS_FLAGS, detail::it_value_t<FlagsIteratorT>, char>;
  using TileStateT          = ScanTileState<OffsetT>;
  using BlockLoadT          = BlockLoad<T, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using BlockLoadFlagsT     = BlockLoad<FlagT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using BlockDiscontinuityT = BlockDiscontinuity<T, BLOCK_THREADS>;
  using BlockScanT          = BlockScan<OffsetT, BLOCK_THREADS, PolicyT::SCAN_ALGORITHM>;
  using PrefixOpT =
    TilePrefixCallbackOp<OffsetT, cuda::std::plus<>, TileStateT,
                         detail::scan_look_back_delay<PolicyT::LOOK_BACK_DELAY_NS, PolicyT::LOOK_BACK_MAX_DELAY_NS>>;

  static constexpr bool PREFETCHABLE = detail::scan::prefetchable_tiles_v<PolicyT, InputIteratorT, T>;

public:
  // Shared memory: the loads, the flagging, the scan and the compacted tile are never live at the same time; the
  // look-back's state outlives the scan (its prefixes are read after it).
  struct TempStorage
  {
    union
    {
      typename BlockLoadT::TempStorage load;
      typename BlockLoadFlagsT::TempStorage load_flags;
      typename BlockDiscontinuityT::TempStorage discontinuity;
      typename BlockScanT::TempStorage scan;
      Uninitialized<T[TILE_ITEMS]> compacted;
      typename BlockLoadValuesT::TempStorage load_values;
      Uninitialized<ValueT[HAS_VALUES ? TILE_ITEMS : 1]> compacted_values;
    };
    typename PrefixOpT::TempStorage prefix;
    unsigned int tile_idx;
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentSelect(TempStorage& temp_storage, InputIteratorT d_in, FlagsIteratorT d_flags,
                                               OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                                               SelectOpT select_op, EqualityOpT equality_op, OffsetT num_items,
                                               ValuesT values = {})
      : temp_storage_(temp_storage)
      , d_in_(d_in)
      , d_flags_(d_flags)
      , d_out_(d_out)
      , d_num_selected_out_(d_num_selected_out)
      , select_op_(select_op)
      , equality_op_(equality_op)
      , num_items_(num_items)
      , values_(values)
  {}

  // Selects from tiles until none is left: tile 0 alone when `tile_counter` is null (a single tile), else the tiles
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
  // Loads the tile's values (UniqueByKey), through shared memory. Leaves it to be reused after a barrier.
  template <bool IS_LAST_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE void load_values(OffsetT tile_offset, int valid_items,
                                                    ValueT (&values)[ITEMS_PER_THREAD])
  {
    detail::scan::load_tile<PolicyT, BlockLoadValuesT, IS_LAST_TILE>(temp_storage_.load_values, values_.in, tile_offset,
                                                                     valid_items, values);
  }

  // Loads tile items and returns their selection flags, bit i for items[i] (0 past the end of the input). Leaves
  // shared memory to be reused after a barrier.
  template <bool IS_LAST_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE unsigned int load_and_flag(unsigned int tile_idx, OffsetT tile_offset,
                                                              int valid_items, T (&items)[ITEMS_PER_THREAD])
  {
    unsigned int selected = 0;
    detail::scan::load_tile<PolicyT, BlockLoadT, IS_LAST_TILE>(temp_storage_.load, d_in_, tile_offset, valid_items,
                                                               items);
    const int first = static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD;
    if constexpr (HAS_FLAGS)
    {
      FlagT flags[ITEMS_PER_THREAD];
      __syncthreads();
      detail::scan::load_tile<PolicyT, BlockLoadFlagsT, IS_LAST_TILE>(temp_storage_.load_flags, d_flags_, tile_offset,
                                                                      valid_items, flags);
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        bool keep = false;
        if constexpr (MODE == detail::select::mode::flagged)
        {
          keep = static_cast<bool>(flags[i]);
        }
        else
        {
          keep = static_cast<bool>(select_op_(flags[i]));
        }
        selected |= static_cast<unsigned int>((!IS_LAST_TILE || first + i < valid_items) && keep) << i;
      }
    }
    else if constexpr (MODE == detail::select::mode::unique)
    {
      bool heads[ITEMS_PER_THREAD];
      const auto differ = [this](const T& a, const T& b) {
        return !static_cast<bool>(equality_op_(a, b));
      };
      __syncthreads();
      if (tile_idx == 0)
      {
        BlockDiscontinuityT(temp_storage_.discontinuity).FlagHeads(heads, items, differ);
      }
      else
      {
        BlockDiscontinuityT(temp_storage_.discontinuity).FlagHeads(heads, items, differ, T(d_in_[tile_offset - 1]));
      }
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        selected |= static_cast<unsigned int>((!IS_LAST_TILE || first + i < valid_items) && heads[i]) << i;
      }
    }
    else
    {
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        selected |= static_cast<unsigned int>((!IS_LAST_TILE || first + i < valid_items)
                                              && static_cast<bool>(select_op_(items[i])))
                 << i;
      }
    }
    return selected;
  }

  // Selects from tile `tile_idx`. With `claim_next`, thread 0 claims the block's next tile from it once the tile
  // has its prefix, and leaves it in temp_storage_.tile_idx (read after the caller's barrier).
  template <bool IS_LAST_TILE>
  STRATA_DEVICE STRATA_FORCEINLINE void consume(unsigned int tile_idx, unsigned int num_tiles, TileStateT tile_state,
                                                unsigned int* claim_next, unsigned int prefetch_distance)
  {
    const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    const int valid_items     = IS_LAST_TILE ? static_cast<int>(num_items_ - tile_offset) : TILE_ITEMS;

    detail::select::prefetch_ahead<PolicyT, PREFETCHABLE, InputIteratorT, OffsetT>(d_in_, tile_idx, num_tiles,
                                                                                   prefetch_distance);

    T items[ITEMS_PER_THREAD];
    const unsigned int selected = load_and_flag<IS_LAST_TILE>(tile_idx, tile_offset, valid_items, items);
    __syncthreads();

    // The place of the thread's first selected item among all selected items, and the tile's place among them.
    const OffsetT thread_count = static_cast<OffsetT>(__popc(selected));
    OffsetT thread_rank        = 0;
    OffsetT tile_prefix        = 0;
    OffsetT tile_count         = 0;
    if (tile_idx == 0)
    {
      BlockScanT(temp_storage_.scan).ExclusiveSum(thread_count, thread_rank, tile_count);
      if (threadIdx.x == 0 && !IS_LAST_TILE)
      {
        tile_state.SetInclusive(0, tile_count);
      }
      __syncthreads();
    }
    else
    {
      PrefixOpT prefix_op(tile_state, temp_storage_.prefix, cuda::std::plus<>{}, tile_idx);
      BlockScanT(temp_storage_.scan).ExclusiveSum(thread_count, thread_rank, prefix_op);
      __syncthreads();
      tile_prefix = prefix_op.ExclusivePrefix();
      tile_count  = prefix_op.InclusivePrefix() - tile_prefix;
    }
    unsigned int claimed = 0;
    if (claim_next != nullptr && threadIdx.x == 0)
    {
      claimed = atomicAdd(claim_next, 1u);
    }

    // Compact: selected items first, in order; a partition's rejected ones after them, in order. `rank` counts the
    // tile's selected items before item first + i, so first + i - rank counts its rejected ones: a partition's item
    // goes to one place picked without a branch (the selected ones are valid items), a selection's only where taken.
    T* const compacted = temp_storage_.compacted.Alias();
    const int count    = static_cast<int>(tile_count);
    const int first    = static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD;
    int rank           = static_cast<int>(thread_rank - tile_prefix);
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int taken = static_cast<int>((selected >> i) & 1u);
      if constexpr (PARTITION)
      {
        if (!IS_LAST_TILE || first + i < valid_items)
        {
          compacted[taken ? rank : count + (first + i - rank)] = items[i];
        }
        rank += taken;
      }
      else if (taken)
      {
        compacted[rank++] = items[i];
      }
    }
    __syncthreads();

    // Store: selected items after the earlier tiles' selected ones; a partition's rejected ones back from the end,
    // each item to one place picked without a branch (detail::select::partition_places).
    if constexpr (PARTITION)
    {
      const detail::select::partition_places<OffsetT> places(num_items_, tile_offset, tile_prefix, count);
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const int j = i * BLOCK_THREADS + static_cast<int>(threadIdx.x);
        if (!IS_LAST_TILE || j < valid_items)
        {
          d_out_[places(j)] = compacted[j];
        }
      }
    }
    else
    {
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const int j = i * BLOCK_THREADS + static_cast<int>(threadIdx.x);
        if (j < count)
        {
          d_out_[tile_prefix + OffsetT(j)] = compacted[j];
        }
      }
    }
    if constexpr (HAS_VALUES)
    {
      // The selected keys' values, through shared memory as the keys went, once every key has left it.
      __syncthreads();
      ValueT values[ITEMS_PER_THREAD];
      load_values<IS_LAST_TILE>(tile_offset, valid_items, values);
      __syncthreads();
      ValueT* const compacted_values = temp_storage_.compacted_values.Alias();
      int value_rank                 = static_cast<int>(thread_rank - tile_prefix);
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if ((selected >> i) & 1u)
        {
          compacted_values[value_rank++] = values[i];
        }
      }
      __syncthreads();
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const int j = i * BLOCK_THREADS + static_cast<int>(threadIdx.x);
        if (j < count)
        {
          values_.out[tile_prefix + OffsetT(j)] = compacted_values[j];
        }
      }
    }
    if (IS_LAST_TILE && threadIdx.x == 0)
    {
      using CountT         = detail::non_void_value_t<NumSelectedIteratorT, OffsetT>;
      *d_num_selected_out_ = static_cast<CountT>(tile_prefix + tile_count);
    }
    if (claim_next != nullptr && threadIdx.x == 0)
    {
      temp_storage_.tile_idx = claimed;
    }
  }

  TempStorage& temp_storage_;
  InputIteratorT d_in_;
  FlagsIteratorT d_flags_;
  OutputIteratorT d_out_;
  NumSelectedIteratorT d_num_selected_out_;
  SelectOpT select_op_;
  EqualityOpT equality_op_;
  OffsetT num_items_;
  ValuesT values_;
};

STRATA_NAMESPACE_END
