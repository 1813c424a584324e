// even_share: a split of [0, num_items) into one contiguous range per block, in whole grains.
//
// The host builds it when it sizes a grid; each block asks it for its own range. The first `big_blocks` blocks
// take one grain more than the rest, so shares differ by at most one grain (not one tile: tile-sized shares left
// a tail of blocks running one last tile alone). The split depends only on num_items, the grain and the grid
// size, so it is the same run to run.
#pragma once

#include <strata/config.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
template <typename OffsetT>
struct even_share
{
  OffsetT num_items;
  OffsetT grain_items;
  OffsetT grains_per_block; // grains of a normal block
  OffsetT big_blocks;       // blocks that take one extra grain

  STRATA_HOST_DEVICE static even_share make(OffsetT num_items, int grain_items, int grid_size)
  {
    const OffsetT grains = (num_items + OffsetT(grain_items) - 1) / OffsetT(grain_items);
    return even_share{num_items, OffsetT(grain_items), grains / OffsetT(grid_size), grains % OffsetT(grid_size)};
  }

  // [begin, end) of block `block`.
  STRATA_HOST_DEVICE void range(OffsetT block, OffsetT& begin, OffsetT& end) const
  {
    const OffsetT first_grain = block * grains_per_block + (block < big_blocks ? block : big_blocks);
    const OffsetT grains      = grains_per_block + (block < big_blocks ? 1 : 0);
    begin                     = first_grain * grain_items;
    const OffsetT stop        = (first_grain + grains) * grain_items;
    end                       = stop < num_items ? stop : num_items;
    begin                     = begin < num_items ? begin : num_items;
  }
};
} // namespace detail
STRATA_NAMESPACE_END
