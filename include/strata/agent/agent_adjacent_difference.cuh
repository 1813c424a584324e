// AgentAdjacentDifference: the body of DeviceAdjacentDifference's kernel. A block takes one tile: it loads the tile
// (BlockLoad, blocked), differences every item with its left (READ_LEFT) or right neighbour in the block
// (BlockAdjacentDifference), the tile's edge item with the item just outside the tile, and stores the tile
// (BlockStore). The item outside comes from the input, or, in place, from the copy of the tiles' edge items that the
// dispatch makes before the tiles may be overwritten (`d_edges`: edge e is the item left of tile e + 1, or right of
// tile e). The input's first item (READ_LEFT) or last item (right) is copied to the output.
#pragma once

#include <strata/block/block_adjacent_difference.cuh>
#include <strata/block/block_load.cuh>
#include <strata/block/block_store.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentAdjacentDifference: BLOCK_THREADS threads of ITEMS_PER_THREAD items each, how the tile is
// loaded and stored, and the blocks per SM the registers are bounded for.
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, BlockLoadAlgorithm LOAD_ALGORITHM_ = BLOCK_LOAD_WARP_TRANSPOSE,
          CacheLoadModifier LOAD_MODIFIER_     = LOAD_DEFAULT,
          BlockStoreAlgorithm STORE_ALGORITHM_ = BLOCK_STORE_WARP_TRANSPOSE, int MIN_BLOCKS_PER_SM_ = 1>
struct AgentAdjacentDifferencePolicy
{
  static constexpr int BLOCK_THREADS                   = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD                = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS                      = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr BlockLoadAlgorithm LOAD_ALGORITHM   = LOAD_ALGORITHM_;
  static constexpr CacheLoadModifier LOAD_MODIFIER     = LOAD_MODIFIER_;
  static constexpr BlockStoreAlgorithm STORE_ALGORITHM = STORE_ALGORITHM_;
  static constexpr int MIN_BLOCKS_PER_SM               = MIN_BLOCKS_PER_SM_;
};

// InputT: the input's value type (the items kept and differenced); OutputT: what the output stores (the difference
// operator's result, and the copied edge item converted to it).
template <typename PolicyT, typename InputIteratorT, typename OutputIteratorT, typename DifferenceOpT, typename OffsetT,
          typename InputT, typename OutputT, bool READ_LEFT>
class AgentAdjacentDifference
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;

  using BlockLoadT       = BlockLoad<InputT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using BlockStoreT      = BlockStore<OutputT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::STORE_ALGORITHM>;
  using BlockDifferenceT = BlockAdjacentDifference<InputT, BLOCK_THREADS>;

public:
  // The load, the differences and the store follow one another with barriers between them.
  union TempStorage
  {
    typename BlockLoadT::TempStorage load;
    typename BlockDifferenceT::TempStorage difference;
    typename BlockStoreT::TempStorage store;
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentAdjacentDifference(TempStorage& temp_storage, InputIteratorT d_in,
                                                           OutputIteratorT d_out, const InputT* d_edges,
                                                           DifferenceOpT difference_op, OffsetT num_items)
      : temp_storage_(temp_storage)
      , d_in_(d_in)
      , d_out_(d_out)
      , d_edges_(d_edges)
      , difference_op_(difference_op)
      , num_items_(num_items)
  {}

  // Differences tile `tile_idx` (requires: tile_idx * TILE_ITEMS < num_items).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(OffsetT tile_idx)
  {
    const OffsetT tile_offset = tile_idx * OffsetT(TILE_ITEMS);
    const OffsetT left        = num_items_ - tile_offset;
    if (left > OffsetT(TILE_ITEMS))
    {
      consume<true>(tile_idx, tile_offset, TILE_ITEMS);
    }
    else
    {
      consume<false>(tile_idx, tile_offset, static_cast<int>(left));
    }
  }

private:
  // The item just outside the tile on the side that is read: from the edge copy in place, else from the input.
  STRATA_DEVICE STRATA_FORCEINLINE InputT neighbour(OffsetT tile_idx, OffsetT tile_offset) const
  {
    if (d_edges_ != nullptr)
    {
      return d_edges_[READ_LEFT ? tile_idx - OffsetT(1) : tile_idx];
    }
    return READ_LEFT ? InputT(d_in_[tile_offset - OffsetT(1)]) : InputT(d_in_[tile_offset + OffsetT(TILE_ITEMS)]);
  }

  // FULL: a whole tile that is not the last (a right neighbour exists past it).
  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE void consume(OffsetT tile_idx, OffsetT tile_offset, int valid_items)
  {
    InputT input[ITEMS_PER_THREAD];
    if constexpr (FULL)
    {
      BlockLoadT(temp_storage_.load).template Load<PolicyT::LOAD_MODIFIER>(d_in_ + tile_offset, input);
    }
    else
    {
      // Past the end, copies of the tile's first item (they take part in nothing stored).
      BlockLoadT(temp_storage_.load)
        .template Load<PolicyT::LOAD_MODIFIER>(d_in_ + tile_offset, input, valid_items, InputT(d_in_[tile_offset]));
    }
    __syncthreads();

    OutputT output[ITEMS_PER_THREAD];
    BlockDifferenceT differences(temp_storage_.difference);
    if constexpr (READ_LEFT)
    {
      const bool first_tile = tile_idx == OffsetT(0);
      if (FULL || valid_items == TILE_ITEMS)
      {
        if (first_tile)
        {
          differences.SubtractLeft(input, output, difference_op_);
        }
        else
        {
          differences.SubtractLeft(input, output, difference_op_, neighbour(tile_idx, tile_offset));
        }
      }
      else if (first_tile)
      {
        differences.SubtractLeftPartialTile(input, output, difference_op_, valid_items);
      }
      else
      {
        differences.SubtractLeftPartialTile(input, output, difference_op_, valid_items,
                                            neighbour(tile_idx, tile_offset));
      }
    }
    else
    {
      if constexpr (FULL)
      {
        differences.SubtractRight(input, output, difference_op_, neighbour(tile_idx, tile_offset));
      }
      else
      {
        differences.SubtractRightPartialTile(input, output, difference_op_, valid_items);
      }
    }
    __syncthreads();

    if constexpr (FULL)
    {
      BlockStoreT(temp_storage_.store).Store(d_out_ + tile_offset, output);
    }
    else
    {
      BlockStoreT(temp_storage_.store).Store(d_out_ + tile_offset, output, valid_items);
    }
  }

  TempStorage& temp_storage_;
  InputIteratorT d_in_;
  OutputIteratorT d_out_;
  const InputT* d_edges_; // in place: the tiles' edge items, else nullptr
  DifferenceOpT difference_op_;
  OffsetT num_items_;
};

STRATA_NAMESPACE_END
