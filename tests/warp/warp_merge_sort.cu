// WarpMergeSort: every key type (a user struct under its own comparator included), ascending and descending, keys
// and pairs, logical warps of 1 to 32 lanes (several to a block, and a block whose last hardware warp is half
// full), items per thread from 1 to 7, every valid_items of partial tiles, low-entropy keys, every overload, and the
// member mask and lane each sorter reports. Checked against std::stable_sort of each logical warp's valid items:
// keys bit for bit, and values, which are the items' positions in their tile.
#include <strata/warp/warp_merge_sort.cuh>

#include "merge_sort_test.cuh"
#include "test_util.cuh"

#include <cstdint>
#include <type_traits>
#include <vector>

using namespace merge_sort_test;
using strata::NullType;
using strata_test::custom_t;

namespace
{
// Each logical warp sorts this many tiles in turn, reusing its TempStorage.
constexpr int TILES_PER_WARP = 2;

enum call_flags : int
{
  plain     = 0,
  partial   = 1, // the valid_items / oob_default overloads
  stable    = 2, // StableSort instead of Sort
  not_last  = 4, // Sort<CompareOp, false>(keys, items, op, valid_items, oob_default): a full tile
  keys_call = 8  // the keys-only overloads of a key-value WarpMergeSort
};

// Logical warp w of block b sorts tiles (b * WARPS + w) * TILES_PER_WARP + r. Every thread also reports its
// sorter's member mask and lane.
template <typename KeyT, typename ValueT, int ITEMS, int W, int BLOCK_THREADS, int FLAGS, typename CompareOp>
__global__ void __launch_bounds__(BLOCK_THREADS)
  sort_kernel(const KeyT* d_keys_in, const ValueT* d_values_in, KeyT* d_keys_out, ValueT* d_values_out,
              const int* d_valid_items, KeyT oob_default, CompareOp compare_op, unsigned int* d_masks,
              unsigned int* d_lanes)
{
  using sort_t               = strata::WarpMergeSort<KeyT, ITEMS, W, ValueT>;
  constexpr int WARPS        = (BLOCK_THREADS + W - 1) / W;
  constexpr bool WITH_VALUES = !std::is_same<ValueT, NullType>::value && (FLAGS & keys_call) == 0;
  constexpr int TILE         = W * ITEMS;
  __shared__ typename sort_t::TempStorage temp_storage[WARPS];

  const int warp = static_cast<int>(threadIdx.x) / W;
  const int lane = static_cast<int>(threadIdx.x) % W;
  sort_t sorter(temp_storage[warp]);
  const int thread = static_cast<int>(blockIdx.x * BLOCK_THREADS + threadIdx.x);
  d_masks[thread]  = sorter.get_member_mask();
  d_lanes[thread]  = sorter.get_linear_tid();

  for (int r = 0; r < TILES_PER_WARP; ++r)
  {
    const int tile         = (static_cast<int>(blockIdx.x) * WARPS + warp) * TILES_PER_WARP + r;
    const std::size_t base = static_cast<std::size_t>(tile) * TILE + static_cast<std::size_t>(lane) * ITEMS;
    const int valid_items  = d_valid_items[tile];
    KeyT keys[ITEMS];
    ValueT values[ITEMS];
    for (int i = 0; i < ITEMS; ++i)
    {
      keys[i] = d_keys_in[base + i];
      if constexpr (WITH_VALUES)
      {
        values[i] = d_values_in[base + i];
      }
    }

    if constexpr ((FLAGS & not_last) != 0)
    {
      sorter.template Sort<CompareOp, false>(keys, values, compare_op, valid_items, oob_default);
    }
    else if constexpr (WITH_VALUES && (FLAGS & partial) != 0)
    {
      if constexpr ((FLAGS & stable) != 0)
      {
        sorter.StableSort(keys, values, compare_op, valid_items, oob_default);
      }
      else
      {
        sorter.Sort(keys, values, compare_op, valid_items, oob_default);
      }
    }
    else if constexpr (WITH_VALUES)
    {
      if constexpr ((FLAGS & stable) != 0)
      {
        sorter.StableSort(keys, values, compare_op);
      }
      else
      {
        sorter.Sort(keys, values, compare_op);
      }
    }
    else if constexpr ((FLAGS & partial) != 0)
    {
      if constexpr ((FLAGS & stable) != 0)
      {
        sorter.StableSort(keys, compare_op, valid_items, oob_default);
      }
      else
      {
        sorter.Sort(keys, compare_op, valid_items, oob_default);
      }
    }
    else
    {
      if constexpr ((FLAGS & stable) != 0)
      {
        sorter.StableSort(keys, compare_op);
      }
      else
      {
        sorter.Sort(keys, compare_op);
      }
    }

    for (int i = 0; i < ITEMS; ++i)
    {
      d_keys_out[base + i] = keys[i];
      if constexpr (WITH_VALUES)
      {
        d_values_out[base + i] = values[i];
      }
    }
    // The next tile reuses the logical warp's TempStorage.
    __syncwarp(sorter.get_member_mask());
  }
}

// Sorts one tile per entry of `valid` (a full tile where it is >= the tile size) on logical warps of W lanes in blocks
// of BLOCK_THREADS threads (a multiple of W), and checks every tile, the member masks and the lanes.
template <typename KeyT, typename ValueT, int ITEMS, int W, int BLOCK_THREADS, int FLAGS, typename CompareOp>
void check_sort(const std::vector<KeyT>& keys, std::vector<int> valid, KeyT oob_default, CompareOp compare_op)
{
  static_assert(BLOCK_THREADS % W == 0, "whole logical warps");
  constexpr int TILE            = W * ITEMS;
  constexpr int TILES_PER_BLOCK = BLOCK_THREADS / W * TILES_PER_WARP;
  constexpr bool WITH_VALUES    = !std::is_same<ValueT, NullType>::value && (FLAGS & keys_call) == 0;
  constexpr bool PARTIAL        = (FLAGS & partial) != 0 && (FLAGS & not_last) == 0;
  using stored_value_t          = std::conditional_t<std::is_same<ValueT, NullType>::value, int, ValueT>;
  INFO("logical warps of " << W << " lanes in blocks of " << BLOCK_THREADS << ", " << ITEMS << " items per thread, "
                           << (WITH_VALUES ? "keys and values" : "keys only") << ", "
                           << ((FLAGS & stable) ? "StableSort" : "Sort")
                           << ((FLAGS & partial) ? " with valid_items" : "")
                           << ((FLAGS & not_last) ? " <..., false>" : ""));

  while (valid.size() % TILES_PER_BLOCK != 0)
  {
    valid.push_back(TILE);
  }
  const std::size_t tiles  = valid.size();
  const std::size_t blocks = tiles / TILES_PER_BLOCK;
  REQUIRE(keys.size() >= tiles * TILE);
  const std::vector<KeyT> in_keys(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(tiles * TILE));
  std::vector<stored_value_t> in_values(tiles * TILE);
  for (std::size_t i = 0; i < in_values.size(); ++i)
  {
    in_values[i] = value_of<stored_value_t>(i % TILE);
  }

  strata_test::device_buffer<KeyT> d_keys_in(in_keys);
  strata_test::device_buffer<KeyT> d_keys_out(in_keys.size());
  strata_test::device_buffer<stored_value_t> d_values_in(in_values);
  strata_test::device_buffer<stored_value_t> d_values_out(in_values.size());
  strata_test::device_buffer<int> d_valid(valid);
  strata_test::device_buffer<unsigned int> d_masks(blocks * BLOCK_THREADS);
  strata_test::device_buffer<unsigned int> d_lanes(blocks * BLOCK_THREADS);
  sort_kernel<KeyT, ValueT, ITEMS, W, BLOCK_THREADS, FLAGS><<<static_cast<unsigned>(blocks), BLOCK_THREADS>>>(
    d_keys_in.data(), reinterpret_cast<const ValueT*>(d_values_in.data()), d_keys_out.data(),
    reinterpret_cast<ValueT*>(d_values_out.data()), d_valid.data(), oob_default, compare_op, d_masks.data(),
    d_lanes.data());
  STRATA_TEST_SYNC();
  const std::vector<KeyT> out_keys             = d_keys_out.download();
  const std::vector<stored_value_t> out_values = d_values_out.download();

  // Thread t of a block is lane t % 32 of its hardware warp, and lane t % W of its logical warp.
  const std::vector<unsigned int> masks = d_masks.download();
  const std::vector<unsigned int> lanes = d_lanes.download();
  for (std::size_t thread = 0; thread < masks.size(); ++thread)
  {
    const unsigned int hw_lane = static_cast<unsigned int>(thread % BLOCK_THREADS % 32);
    const unsigned int first   = hw_lane / W * W;
    const unsigned int mask    = W == 32 ? 0xffffffffu : (((1u << W) - 1u) << first);
    CAPTURE(thread);
    REQUIRE(masks[thread] == mask);
    REQUIRE(lanes[thread] == hw_lane % W);
  }

  std::vector<KeyT> expected_keys(TILE);
  std::vector<stored_value_t> expected_values(TILE);
  for (std::size_t tile = 0; tile < tiles; ++tile)
  {
    const std::size_t base = tile * TILE;
    const std::size_t n    = PARTIAL ? static_cast<std::size_t>(std::max(valid[tile], 0)) : TILE;
    reference_tile(in_keys.data() + base, in_values.data() + base, TILE, n, oob_default, compare_op,
                   expected_keys.data(), expected_values.data());
    for (std::size_t pos = 0; pos < TILE; ++pos)
    {
      if (!same_key(out_keys[base + pos], expected_keys[pos]))
      {
        INFO("tile " << tile << " (valid_items " << valid[tile] << "), position " << pos << ": key "
                     << key_text(out_keys[base + pos]) << ", expected " << key_text(expected_keys[pos]));
        FAIL("keys differ");
      }
      if (WITH_VALUES && !(out_values[base + pos] == expected_values[pos]))
      {
        INFO("tile " << tile << " (valid_items " << valid[tile] << "), position " << pos << ": value "
                     << out_values[base + pos] << ", expected " << expected_values[pos] << " (key "
                     << key_text(expected_keys[pos]) << ")");
        FAIL("values differ (unstable sort, or a value parted from its key)");
      }
    }
  }
  SUCCEED();
}

inline std::vector<int> some_valid_items(int tile)
{
  return {0, 1, 2, 7, tile / 2, tile - 1, tile, tile + 3, tile / 3, 5};
}

inline std::vector<int> every_valid_items(int tile)
{
  std::vector<int> v(static_cast<std::size_t>(tile) + 1);
  std::iota(v.begin(), v.end(), 0);
  return v;
}
} // namespace

TEMPLATE_TEST_CASE("WarpMergeSort sorts every key type, ascending and descending", "[warp][merge_sort]",
                   STRATA_TEST_ALL_TYPES)
{
  using KeyT         = TestType;
  constexpr int TILE = 16 * 5;
  for (entropy e : {entropy::full, entropy::few_values})
  {
    INFO("entropy " << entropy_name(e));
    const std::vector<KeyT> keys = make_keys<KeyT>(TILE * 32, e, 600 + static_cast<int>(e));
    const KeyT oob               = make_keys<KeyT>(1, entropy::full, 8)[0];
    {
      INFO("keys only, ascending, full tiles");
      check_sort<KeyT, NullType, 5, 16, 64, plain>(keys, std::vector<int>(8, TILE), oob, ascending_t<KeyT>{});
    }
    {
      INFO("pairs, descending, partial tiles");
      check_sort<KeyT, int, 5, 16, 64, partial | stable>(keys, some_valid_items(TILE), oob, descending_t<KeyT>{});
    }
  }
}

namespace
{
// Pairs of int keys and int values on logical warps of W lanes: full tiles of random and of low-entropy keys, and
// one partial tile for every valid_items.
template <int ITEMS, int W, int BLOCK_THREADS>
void check_width(std::uint64_t salt)
{
  constexpr int TILE                  = W * ITEMS;
  const std::vector<int> valid        = every_valid_items(TILE);
  const std::size_t tiles             = valid.size() + static_cast<std::size_t>(BLOCK_THREADS / W * TILES_PER_WARP);
  const std::vector<std::int32_t> few = make_keys<std::int32_t>(tiles * TILE, entropy::few_values, salt);
  const std::vector<std::int32_t> all = make_keys<std::int32_t>(tiles * TILE, entropy::full, salt + 1);
  const std::vector<int> full(static_cast<std::size_t>(BLOCK_THREADS / W * TILES_PER_WARP), TILE);
  check_sort<std::int32_t, int, ITEMS, W, BLOCK_THREADS, plain>(all, full, 0, less_op{});
  check_sort<std::int32_t, int, ITEMS, W, BLOCK_THREADS, plain>(few, full, 0, less_op{});
  check_sort<std::int32_t, int, ITEMS, W, BLOCK_THREADS, partial>(few, valid, INT32_MAX, less_op{});
}
} // namespace

TEST_CASE("WarpMergeSort logical warp widths and items per thread", "[warp][merge_sort]")
{
  SECTION("1 lane x 4 items")
  {
    check_width<4, 1, 32>(701);
  }
  SECTION("2 lanes x 3 items")
  {
    check_width<3, 2, 32>(702);
  }
  SECTION("4 lanes x 1 item")
  {
    check_width<1, 4, 64>(703);
  }
  SECTION("8 lanes x 7 items")
  {
    check_width<7, 8, 64>(704);
  }
  SECTION("16 lanes x 3 items, a block of 48 threads (its second hardware warp half full)")
  {
    check_width<3, 16, 48>(705);
  }
  SECTION("32 lanes x 4 items")
  {
    check_width<4, 32, 96>(706);
  }
  SECTION("32 lanes x 1 item")
  {
    check_width<1, 32, 32>(707);
  }
}

TEST_CASE("WarpMergeSort value types and every overload", "[warp][merge_sort]")
{
  constexpr int TILE                = 8 * 6;
  const std::vector<int> valid      = some_valid_items(TILE);
  const std::vector<std::int64_t> k = make_keys<std::int64_t>(64 * TILE, entropy::few_values, 801);
  const std::vector<int> full(8, TILE);
  SECTION("custom_t values, StableSort(keys, items, op, valid_items, oob_default)")
  {
    check_sort<std::int64_t, custom_t, 6, 8, 32, partial | stable>(k, valid, 3, greater_op{});
  }
  SECTION("double values, Sort(keys, items, op)")
  {
    check_sort<std::int64_t, double, 6, 8, 32, plain>(k, full, 3, less_op{});
  }
  SECTION("Sort(keys, op, valid_items, oob_default)")
  {
    check_sort<std::int64_t, NullType, 6, 8, 32, partial>(k, valid, -1, greater_op{});
  }
  SECTION("StableSort(keys, op)")
  {
    check_sort<std::int64_t, NullType, 6, 8, 32, stable>(k, full, 0, less_op{});
  }
  SECTION("StableSort(keys, items, op)")
  {
    check_sort<std::int64_t, int, 6, 8, 32, stable>(k, full, 0, greater_op{});
  }
  SECTION("Sort<CompareOp, false>(keys, items, op, valid_items, oob_default) sorts the whole tile")
  {
    check_sort<std::int64_t, int, 6, 8, 32, not_last>(k, valid, 0, less_op{});
  }
  SECTION("the keys-only overloads of a key-value sort")
  {
    check_sort<std::int64_t, int, 6, 8, 32, keys_call | partial | stable>(k, valid, 2, less_op{});
  }
  SECTION("a comparator taking its arguments by value")
  {
    check_sort<std::int64_t, NullType, 6, 8, 32, plain>(k, full, 0, less_by_value{});
    const std::vector<std::int16_t> k16 = make_keys<std::int16_t>(32 * 80, entropy::full, 802);
    check_sort<std::int16_t, int, 5, 16, 64, partial>(k16, some_valid_items(80), 0, less_by_value{});
  }
}
