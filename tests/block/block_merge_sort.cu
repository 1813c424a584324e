// BlockMergeSort: every key type (a user struct under its own comparator included), ascending and descending
// comparators, keys and pairs, block shapes from one thread to 1024 (non-powers of two, 2-D and 3-D blocks), items
// per thread from 1 to 16, every valid_items of partial tiles, low-entropy keys, every overload, private storage.
// Checked against std::stable_sort of each tile's valid items: keys bit for bit, and values, which are the items'
// positions in their tile, so an unstable sort or a value parted from its key fails.
#include <strata/block/block_merge_sort.cuh>

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
// Each block sorts this many tiles in turn, reusing its TempStorage.
constexpr int TILES_PER_BLOCK = 2;

// How the kernel calls the sort.
enum call_flags : int
{
  plain        = 0,
  partial      = 1, // the valid_items / oob_default overloads
  stable       = 2, // StableSort instead of Sort
  private_temp = 4, // the default constructor (private __shared__ storage)
  not_last     = 8, // Sort<CompareOp, false>(keys, items, op, valid_items, oob_default): a full tile
  keys_call    = 16 // the keys-only overloads of a key-value BlockMergeSort
};

struct no_storage
{};

// ValueT = NullType: a keys-only BlockMergeSort.
template <typename KeyT, typename ValueT, int BX, int BY, int BZ, int ITEMS, int FLAGS, typename CompareOp>
__global__ void __launch_bounds__(BX * BY * BZ)
  sort_kernel(const KeyT* d_keys_in, const ValueT* d_values_in, KeyT* d_keys_out, ValueT* d_values_out,
              const int* d_valid_items, KeyT oob_default, CompareOp compare_op)
{
  using sort_t               = strata::BlockMergeSort<KeyT, BX, ITEMS, ValueT, BY, BZ>;
  constexpr bool PRIVATE     = (FLAGS & private_temp) != 0;
  constexpr bool WITH_VALUES = !std::is_same<ValueT, NullType>::value && (FLAGS & keys_call) == 0;
  constexpr int TILE         = BX * BY * BZ * ITEMS;
  using storage_t            = std::conditional_t<PRIVATE, no_storage, typename sort_t::TempStorage>;
  __shared__ storage_t temp_storage;

  const int t = static_cast<int>(threadIdx.x + BX * (threadIdx.y + BY * threadIdx.z));
  for (int r = 0; r < TILES_PER_BLOCK; ++r)
  {
    const int tile         = static_cast<int>(blockIdx.x) * TILES_PER_BLOCK + r;
    const std::size_t base = static_cast<std::size_t>(tile) * TILE + static_cast<std::size_t>(t) * ITEMS;
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

    auto sorter = [&]() {
      if constexpr (PRIVATE)
      {
        return sort_t();
      }
      else
      {
        return sort_t(temp_storage);
      }
    }();
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
    // The next tile reuses the TempStorage.
    __syncthreads();
  }
}

// Sorts one tile per entry of `valid` (a full tile where it is >= the tile size) and checks every tile. `keys` holds
// the tiles' keys; values are positions within the tile.
template <typename KeyT, typename ValueT, int BX, int BY, int BZ, int ITEMS, int FLAGS, typename CompareOp>
void check_sort(const std::vector<KeyT>& keys, std::vector<int> valid, KeyT oob_default, CompareOp compare_op)
{
  constexpr int THREADS      = BX * BY * BZ;
  constexpr int TILE         = THREADS * ITEMS;
  constexpr bool WITH_VALUES = !std::is_same<ValueT, NullType>::value && (FLAGS & keys_call) == 0;
  constexpr bool PARTIAL     = (FLAGS & partial) != 0 && (FLAGS & not_last) == 0;
  using stored_value_t       = std::conditional_t<std::is_same<ValueT, NullType>::value, int, ValueT>;
  INFO("block " << BX << "x" << BY << "x" << BZ << ", " << ITEMS << " items per thread, "
                << (WITH_VALUES ? "keys and values" : "keys only") << ", " << ((FLAGS & stable) ? "StableSort" : "Sort")
                << ((FLAGS & partial) ? " with valid_items" : "") << ((FLAGS & not_last) ? " <..., false>" : "")
                << ((FLAGS & private_temp) ? ", private storage" : ""));

  while (valid.size() % TILES_PER_BLOCK != 0)
  {
    valid.push_back(TILE);
  }
  const std::size_t tiles = valid.size();
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
  sort_kernel<KeyT, ValueT, BX, BY, BZ, ITEMS, FLAGS>
    <<<static_cast<unsigned>(tiles / TILES_PER_BLOCK), dim3(BX, BY, BZ)>>>(
      d_keys_in.data(), reinterpret_cast<const ValueT*>(d_values_in.data()), d_keys_out.data(),
      reinterpret_cast<ValueT*>(d_values_out.data()), d_valid.data(), oob_default, compare_op);
  STRATA_TEST_SYNC();
  const std::vector<KeyT> out_keys             = d_keys_out.download();
  const std::vector<stored_value_t> out_values = d_values_out.download();

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

// valid_items for tiles of `tile` items: none, one, two, around a warp and half the tile, one short, full, and
// beyond the tile (which counts as full).
inline std::vector<int> some_valid_items(int tile)
{
  return {0, 1, 2, 31, 32, 33, tile / 2, tile - 1, tile, tile + 5, 3, tile / 3};
}

// Every valid_items from 0 to the tile, one tile each.
inline std::vector<int> every_valid_items(int tile)
{
  std::vector<int> v(static_cast<std::size_t>(tile) + 1);
  std::iota(v.begin(), v.end(), 0);
  return v;
}
} // namespace

TEMPLATE_TEST_CASE("BlockMergeSort sorts every key type, ascending and descending", "[block][merge_sort]",
                   STRATA_TEST_ALL_TYPES)
{
  using KeyT          = TestType;
  using ascending     = ascending_t<KeyT>;
  constexpr int TILE  = 128 * 5;
  constexpr int TILES = 12;
  for (entropy e : {entropy::full, entropy::few_values})
  {
    INFO("entropy " << entropy_name(e));
    const std::vector<KeyT> keys = make_keys<KeyT>(TILE * TILES, e, 100 + static_cast<int>(e));
    const KeyT oob               = make_keys<KeyT>(1, entropy::full, 7)[0];
    {
      INFO("keys only, ascending, full tiles");
      check_sort<KeyT, NullType, 128, 1, 1, 5, plain>(keys, std::vector<int>(4, TILE), oob, ascending{});
    }
    {
      INFO("pairs, descending, partial tiles (oob_default a random key)");
      check_sort<KeyT, int, 128, 1, 1, 5, partial | stable>(keys, some_valid_items(TILE), oob, descending_t<KeyT>{});
    }
  }
}

namespace
{
// Pairs of int keys and int values in every tile of the shape: full tiles of random and of low-entropy keys, and
// partial tiles with every valid_items (`sweep`) or some of them.
template <int BX, int BY, int BZ, int ITEMS>
void check_shape(std::uint64_t salt, bool sweep)
{
  constexpr int TILE                  = BX * BY * BZ * ITEMS;
  const std::vector<int> valid        = sweep ? every_valid_items(TILE) : some_valid_items(TILE);
  const std::size_t tiles             = valid.size() + TILES_PER_BLOCK;
  const std::vector<std::int32_t> few = make_keys<std::int32_t>(tiles * TILE, entropy::few_values, salt);
  const std::vector<std::int32_t> all = make_keys<std::int32_t>(tiles * TILE, entropy::full, salt + 1);
  check_sort<std::int32_t, int, BX, BY, BZ, ITEMS, plain>(all, std::vector<int>(4, TILE), 0, less_op{});
  check_sort<std::int32_t, int, BX, BY, BZ, ITEMS, plain>(few, std::vector<int>(4, TILE), 0, less_op{});
  // oob_default: the largest key (CUB's contract), so the whole tile comes out sorted.
  check_sort<std::int32_t, int, BX, BY, BZ, ITEMS, partial>(few, valid, INT32_MAX, less_op{});
}
} // namespace

TEST_CASE("BlockMergeSort block shapes and items per thread", "[block][merge_sort]")
{
  SECTION("1 thread x 6 items")
  {
    check_shape<1, 1, 1, 6>(201, true);
  }
  SECTION("32 threads x 4 items")
  {
    check_shape<32, 1, 1, 4>(202, true);
  }
  SECTION("64 threads x 3 items")
  {
    check_shape<64, 1, 1, 3>(203, true);
  }
  SECTION("100 threads (not a power of two) x 3 items")
  {
    check_shape<100, 1, 1, 3>(204, true);
  }
  SECTION("96 threads x 1 item")
  {
    check_shape<96, 1, 1, 1>(205, true);
  }
  SECTION("128 threads x 16 items")
  {
    check_shape<128, 1, 1, 16>(206, false);
  }
  SECTION("256 threads x 7 items")
  {
    check_shape<256, 1, 1, 7>(207, false);
  }
  SECTION("1024 threads x 2 items")
  {
    check_shape<1024, 1, 1, 2>(208, false);
  }
  SECTION("2-D block 16x8 x 5 items")
  {
    check_shape<16, 8, 1, 5>(209, true);
  }
  SECTION("3-D block 8x4x3 x 3 items")
  {
    check_shape<8, 4, 3, 3>(210, false);
  }
}

TEST_CASE("BlockMergeSort value types", "[block][merge_sort]")
{
  constexpr int TILE                = 64 * 7;
  const std::vector<int> valid      = some_valid_items(TILE);
  const std::vector<std::int32_t> k = make_keys<std::int32_t>((valid.size() + 2) * TILE, entropy::few_values, 301);
  SECTION("uint8 values")
  {
    // Tile positions wrap at 256, so values repeat; keys are checked with them all the same.
    check_sort<std::int32_t, std::uint8_t, 64, 1, 1, 7, partial>(k, valid, 5, greater_op{});
  }
  SECTION("double values")
  {
    check_sort<std::int32_t, double, 64, 1, 1, 7, partial>(k, valid, 5, greater_op{});
  }
  SECTION("custom_t values")
  {
    check_sort<std::int32_t, custom_t, 64, 1, 1, 7, partial | stable>(k, valid, 5, less_op{});
  }
}

TEST_CASE("BlockMergeSort every overload, private storage", "[block][merge_sort]")
{
  constexpr int TILE                = 96 * 5;
  const std::vector<int> valid      = some_valid_items(TILE);
  const std::vector<std::int64_t> k = make_keys<std::int64_t>((valid.size() + 2) * TILE, entropy::few_values, 401);
  const std::vector<int> full(4, TILE);
  SECTION("Sort(keys, op), private storage")
  {
    check_sort<std::int64_t, NullType, 96, 1, 1, 5, private_temp>(k, full, 0, less_op{});
  }
  SECTION("StableSort(keys, op, valid_items, oob_default), private storage")
  {
    check_sort<std::int64_t, NullType, 96, 1, 1, 5, partial | stable | private_temp>(k, valid, -3, less_op{});
  }
  SECTION("Sort(keys, op, valid_items, oob_default)")
  {
    check_sort<std::int64_t, NullType, 96, 1, 1, 5, partial>(k, valid, 9, greater_op{});
  }
  SECTION("StableSort(keys, op)")
  {
    check_sort<std::int64_t, NullType, 96, 1, 1, 5, stable>(k, full, 0, greater_op{});
  }
  SECTION("StableSort(keys, items, op), private storage")
  {
    check_sort<std::int64_t, int, 96, 1, 1, 5, stable | private_temp>(k, full, 0, less_op{});
  }
  SECTION("Sort<CompareOp, false>(keys, items, op, valid_items, oob_default) sorts the whole tile")
  {
    check_sort<std::int64_t, int, 96, 1, 1, 5, not_last>(k, valid, 0, less_op{});
  }
  SECTION("the keys-only overloads of a key-value sort")
  {
    check_sort<std::int64_t, int, 96, 1, 1, 5, keys_call | partial>(k, valid, 1, less_op{});
    check_sort<std::int64_t, int, 96, 1, 1, 5, keys_call>(k, full, 1, greater_op{});
  }
}

TEST_CASE("BlockMergeSort with a comparator taking its arguments by value", "[block][merge_sort]")
{
  const std::vector<std::int16_t> k = make_keys<std::int16_t>(16 * 64 * 5, entropy::full, 501);
  check_sort<std::int16_t, NullType, 64, 1, 1, 5, plain>(k, std::vector<int>(8, 64 * 5), 0, less_by_value{});
  check_sort<std::int16_t, int, 64, 1, 1, 5, partial>(k, some_valid_items(64 * 5), 0, less_by_value{});
}
