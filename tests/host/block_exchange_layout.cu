// Host tests of the shared-memory layout of BlockExchange's tiles (detail::block_exchange_layout), over every shape of
// 1 to 32 items per thread of 1-, 2-, 4-, 8- and 16-byte items: where the layout says a thread's accesses split into
// a position computed once and constant offsets (ROW_SPLITS, STRIDE_SPLITS, WARP_STRIPED_SPLITS), the split positions
// (and row_offset's, split or not) are exactly offset() of the items, for every row of a tile, every thread of
// striped blocks of 32 to 1024 threads, and every lane of every warp; and padding, where it is inserted, keeps the
// positions of a tile distinct.
#include <strata/block/specializations/block_exchange_layout.cuh>

#include "test_util.cuh"

#include <set>
#include <utility>

namespace
{
template <int BYTES>
struct item_of
{
  alignas(BYTES < 16 ? BYTES : 16) char bytes[BYTES];
};

// Checks the shape T x ITEMS_PER_THREAD; returns how many of its splits applied (to show the checks ran).
template <typename T, int ITEMS_PER_THREAD>
int check_shape()
{
  using layout         = strata::detail::block_exchange_layout<T, ITEMS_PER_THREAD>;
  constexpr int WARP   = strata::WARP_THREADS;
  constexpr int WARPS  = 4; // warps of a tile the checks walk
  constexpr int ROWS   = WARPS * WARP;
  int splits           = 0;
  const auto shape_tag = [] {
    return std::to_string(sizeof(T)) + "-byte items, " + std::to_string(ITEMS_PER_THREAD) + " per thread";
  };
  INFO(shape_tag());

  // Distinct positions: no two items of a tile share a place.
  std::set<int> seen;
  for (int idx = 0; idx < ROWS * ITEMS_PER_THREAD; ++idx)
  {
    REQUIRE(seen.insert(layout::offset(idx)).second);
  }

  // row_offset: offset() of a row's items, whether the row splits or not.
  for (int row = 0; row < ROWS; ++row)
  {
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      REQUIRE(layout::row_offset(row * ITEMS_PER_THREAD, i) == layout::offset(row * ITEMS_PER_THREAD + i));
    }
  }

  if constexpr (layout::ROW_SPLITS)
  {
    ++splits;
    for (int row = 0; row < ROWS; ++row)
    {
      const int first = layout::offset(row * ITEMS_PER_THREAD);
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        REQUIRE(layout::row_item(first, i) == layout::offset(row * ITEMS_PER_THREAD + i));
      }
    }
  }

  // Block-striped columns: thread t's items t + i * threads.
  const auto check_block_striped = [&](auto threads_constant) {
    constexpr int THREADS = decltype(threads_constant)::value;
    if constexpr (layout::template STRIDE_SPLITS<THREADS>)
    {
      ++splits;
      for (int t = 0; t < THREADS; ++t)
      {
        const int first = layout::offset(t);
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          REQUIRE(layout::template strided_item<THREADS>(first, i) == layout::offset(t + i * THREADS));
        }
      }
    }
  };
  check_block_striped(std::integral_constant<int, 32>{});
  check_block_striped(std::integral_constant<int, 64>{});
  check_block_striped(std::integral_constant<int, 128>{});
  check_block_striped(std::integral_constant<int, 256>{});
  check_block_striped(std::integral_constant<int, 512>{});
  check_block_striped(std::integral_constant<int, 1024>{});

  // Warp-striped columns: lane l of warp w takes items w * 32 * ITEMS_PER_THREAD + l + i * 32.
  if constexpr (layout::WARP_STRIPED_SPLITS)
  {
    ++splits;
    for (int w = 0; w < WARPS; ++w)
    {
      for (int lane = 0; lane < WARP; ++lane)
      {
        const int start = w * WARP * ITEMS_PER_THREAD + lane;
        const int first = layout::offset(start);
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          REQUIRE(layout::template strided_item<WARP>(first, i) == layout::offset(start + i * WARP));
        }
      }
    }
  }
  return splits;
}

template <typename T, int... ITEMS>
int check_all(std::integer_sequence<int, ITEMS...>)
{
  return (check_shape<T, ITEMS + 1>() + ...);
}

template <typename T>
int check_type()
{
  return check_all<T>(std::make_integer_sequence<int, 32>{});
}
} // namespace

TEST_CASE("block_exchange_layout: split positions are offset() of the items", "[host][block_exchange]")
{
  // Every shape of a type whose rows are not all padded has splits; the padded power-of-two rows do too.
  CHECK(check_type<item_of<1>>() > 0);
  CHECK(check_type<item_of<2>>() > 0);
  CHECK(check_type<item_of<4>>() > 0);
  CHECK(check_type<item_of<8>>() > 0);
  CHECK(check_type<item_of<16>>() > 0);
}

TEST_CASE("block_exchange_layout: padded power-of-two rows split", "[host][block_exchange]")
{
  // The shapes the change is for: 8-byte items, 8 and 16 per thread (padded), and 4-byte items, 16 and 32.
  using l8x8   = strata::detail::block_exchange_layout<item_of<8>, 8>;
  using l8x16  = strata::detail::block_exchange_layout<item_of<8>, 16>;
  using l4x32  = strata::detail::block_exchange_layout<item_of<4>, 32>;
  using l16x16 = strata::detail::block_exchange_layout<item_of<16>, 16>;
  STATIC_REQUIRE(l8x8::INSERT_PADDING);
  STATIC_REQUIRE(l8x16::INSERT_PADDING);
  STATIC_REQUIRE(l4x32::INSERT_PADDING);
  STATIC_REQUIRE(l16x16::INSERT_PADDING);
  STATIC_REQUIRE(l8x8::ROW_SPLITS);
  STATIC_REQUIRE(l8x8::WARP_STRIPED_SPLITS);
  STATIC_REQUIRE(l8x16::ROW_SPLITS);
  STATIC_REQUIRE(l8x16::WARP_STRIPED_SPLITS);
  STATIC_REQUIRE(l4x32::WARP_STRIPED_SPLITS);
  STATIC_REQUIRE(l16x16::WARP_STRIPED_SPLITS);
  // A padded row that is no power of two (8-byte items, 24 per thread) keeps offset() per access.
  using l8x24 = strata::detail::block_exchange_layout<item_of<8>, 24>;
  STATIC_REQUIRE(l8x24::INSERT_PADDING);
  STATIC_REQUIRE_FALSE(l8x24::ROW_SPLITS);
}
