// Host tests of where a partition's tile sends its items (detail::select::partition_places, DevicePartition's store):
// against the two-branch rule it replaced -- selected item j to tile_prefix + j, rejected item j to
// num_items - 1 - ((tile_offset - tile_prefix) + (j - count)) -- for every item of random tiles of random inputs, with
// signed and unsigned, 32- and 64-bit offsets, inputs up to the offset type's largest; and the places of a whole
// input's tiles, put together, are each place exactly once.
#include <strata/agent/agent_select.cuh>

#include "test_util.cuh"

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace
{
template <typename OffsetT>
OffsetT two_branch_place(OffsetT num_items, OffsetT tile_offset, OffsetT tile_prefix, int count, int j)
{
  if (j < count)
  {
    return tile_prefix + OffsetT(j);
  }
  const OffsetT rejected_before = (tile_offset - tile_prefix) + OffsetT(j - count);
  return num_items - OffsetT(1) - rejected_before;
}

template <typename OffsetT>
void check_random_tiles(std::uint64_t seed)
{
  constexpr int TILE = 4096;
  std::mt19937_64 rng(seed);
  const std::uint64_t largest = static_cast<std::uint64_t>(std::numeric_limits<OffsetT>::max());
  for (int round = 0; round < 2000; ++round)
  {
    // An input of at least one tile, often close to the offset type's largest.
    const std::uint64_t n     = round % 2 == 0 ? largest - rng() % (largest / 4) : TILE + rng() % (largest - TILE);
    const std::uint64_t tiles = (n + TILE - 1) / TILE;
    const std::uint64_t tile  = rng() % tiles;
    const std::uint64_t tile_offset = tile * TILE;
    const int valid                 = static_cast<int>(n - tile_offset < TILE ? n - tile_offset : TILE);
    const std::uint64_t tile_prefix = tile_offset == 0 ? 0 : rng() % (tile_offset + 1); // selected before the tile
    const int count                 = static_cast<int>(rng() % (valid + 1));
    const strata::detail::select::partition_places<OffsetT> places(static_cast<OffsetT>(n),
                                                                   static_cast<OffsetT>(tile_offset),
                                                                   static_cast<OffsetT>(tile_prefix), count);
    for (int j = 0; j < valid; ++j)
    {
      const OffsetT expected = two_branch_place<OffsetT>(static_cast<OffsetT>(n), static_cast<OffsetT>(tile_offset),
                                                         static_cast<OffsetT>(tile_prefix), count, j);
      REQUIRE(places(j) == expected);
      REQUIRE(static_cast<std::uint64_t>(places(j)) < n);
    }
  }
}

// A whole small input: tiles with random selections, each tile's places from the selections before it.
template <typename OffsetT>
void check_whole_input(int n, int tile_items, std::uint64_t seed)
{
  std::mt19937_64 rng(seed);
  std::vector<int> hits(static_cast<std::size_t>(n), 0);
  OffsetT selected_before = 0;
  for (int tile_offset = 0; tile_offset < n; tile_offset += tile_items)
  {
    const int valid = n - tile_offset < tile_items ? n - tile_offset : tile_items;
    const int count = static_cast<int>(rng() % (valid + 1));
    const strata::detail::select::partition_places<OffsetT> places(static_cast<OffsetT>(n),
                                                                   static_cast<OffsetT>(tile_offset), selected_before,
                                                                   count);
    for (int j = 0; j < valid; ++j)
    {
      const auto place = static_cast<std::int64_t>(places(j));
      REQUIRE(place >= 0);
      REQUIRE(place < n);
      ++hits[static_cast<std::size_t>(place)];
    }
    selected_before += static_cast<OffsetT>(count);
  }
  for (int h : hits)
  {
    REQUIRE(h == 1);
  }
}
} // namespace

TEMPLATE_TEST_CASE("partition_places: the two-branch rule's places, branch-free", "[host][partition]", std::uint32_t,
                   std::int32_t, std::uint64_t, std::int64_t)
{
  check_random_tiles<TestType>(0x5eed0001u + sizeof(TestType));
}

TEMPLATE_TEST_CASE("partition_places: an input's tiles fill every place once", "[host][partition]", std::uint32_t,
                   std::int32_t, std::uint64_t, std::int64_t)
{
  for (int n : {1, 2, 31, 32, 33, 1000, 4095, 4096, 4097, 10007})
  {
    for (int tile_items : {1, 7, 32, 256, 4096})
    {
      INFO("n = " << n << ", tile = " << tile_items);
      check_whole_input<TestType>(n, tile_items, 77u + static_cast<std::uint64_t>(n) * 131u + tile_items);
    }
  }
}
