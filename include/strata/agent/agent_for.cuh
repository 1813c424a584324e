// AgentFor: the block-wide body of DeviceFor's kernel, op(first[i]) for every item of a tile.
//
// A block owns a tile of BLOCK_THREADS * ITEMS_PER_THREAD consecutive items, striped across the block (item j of
// thread t is the tile's item j * BLOCK_THREADS + t), so that each of a warp's accesses is coalesced. op receives
// the item itself (a reference, for iterators that have one) and may change it; the order in which items are
// visited is unspecified.
#pragma once

#include <strata/config.cuh>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentFor.
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, int MIN_BLOCKS_PER_SM_ = 1>
struct AgentForPolicy
{
  static constexpr int BLOCK_THREADS     = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD  = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS        = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int MIN_BLOCKS_PER_SM = MIN_BLOCKS_PER_SM_;
};

template <typename PolicyT, typename OffsetT, typename RandomAccessIteratorT, typename OpT>
class AgentFor
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;

public:
  STRATA_DEVICE STRATA_FORCEINLINE AgentFor(RandomAccessIteratorT first, OpT op)
      : first_(first)
      , op_(op)
  {}

  // Applies op to the items of tile `tile_idx` of a range of `num_items` items.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(OffsetT tile_idx, OffsetT num_items)
  {
    const OffsetT tile_offset = tile_idx * OffsetT(TILE_ITEMS);
    const OffsetT remaining   = num_items - tile_offset;
    if (remaining >= OffsetT(TILE_ITEMS))
    {
      STRATA_UNROLL
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        op_(first_[tile_offset + OffsetT(j * BLOCK_THREADS + static_cast<int>(threadIdx.x))]);
      }
    }
    else
    {
      for (OffsetT i = OffsetT(threadIdx.x); i < remaining; i += OffsetT(BLOCK_THREADS))
      {
        op_(first_[tile_offset + i]);
      }
    }
  }

private:
  RandomAccessIteratorT first_;
  OpT op_;
};

STRATA_NAMESPACE_END
