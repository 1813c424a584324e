// BlockRadixSort with values: every value comes back with its key, and keys that compare equal (over the whole key
// or over the sorted bit range) keep their input order. Values are the items' input positions, so the check sees
// both. Block shapes, key and value types (including a 16-byte struct), low-entropy keys, bit subranges, the
// keys-only overloads of a key-value sort, private storage.
#include "block_radix_sort_harness.cuh"

#include <cstdint>
#include <initializer_list>
#include <utility>

using namespace block_radix_sort_test;
using strata::NullType;
using strata_test::custom_t;

namespace
{
template <typename KeyT, typename ValueT, int BX, int BY, int ITEMS, typename Config = default_config>
void check_two_methods(entropy e, std::uint64_t salt, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8)
{
  INFO("entropy " << entropy_name(e));
  const auto keys = tile_keys<KeyT, BX * BY * ITEMS>(e, salt);
  check_sort<KeyT, ValueT, BX, BY, ITEMS, sort_descending_blocked, Config>(keys, begin_bit, end_bit);
  check_sort<KeyT, ValueT, BX, BY, ITEMS, sort_striped, Config>(keys, begin_bit, end_bit);
}

template <typename KeyT, typename ValueT, int BX, int BY, int ITEMS, typename Config = default_config>
void check_each(std::initializer_list<entropy> entropies, std::uint64_t salt, int begin_bit = 0,
                int end_bit = sizeof(KeyT) * 8)
{
  for (entropy e : entropies)
  {
    check_two_methods<KeyT, ValueT, BX, BY, ITEMS, Config>(e, salt + static_cast<int>(e), begin_bit, end_bit);
  }
}

constexpr entropy all_entropies[] = {entropy::full, entropy::sparse, entropy::few_values, entropy::constant};
} // namespace

TEST_CASE("BlockRadixSort int32 keys and int values, every method (128 threads x 4 items)",
          "[block][radix_sort][pairs]")
{
  for (entropy e : all_entropies)
  {
    INFO("entropy " << entropy_name(e));
    check_all_methods<std::int32_t, int, 128, 1, 4>(tile_keys<std::int32_t, 128 * 4>(e, 500 + static_cast<int>(e)), 0,
                                                    32);
  }
}

TEST_CASE("BlockRadixSort int32 keys and int values, block shapes", "[block][radix_sort][pairs]")
{
  // Sections are outermost: Catch2 runs each section once per pass through the test case.
  SECTION("32 threads x 16 items")
  {
    check_each<std::int32_t, int, 32, 1, 16>({entropy::full, entropy::few_values}, 510);
  }
  SECTION("100 threads (partial last warp) x 3 items")
  {
    check_each<std::int32_t, int, 100, 1, 3>({entropy::full, entropy::few_values}, 511);
  }
  SECTION("256 threads x 16 items")
  {
    check_each<std::int32_t, int, 256, 1, 16>({entropy::full, entropy::few_values}, 512);
  }
  SECTION("1024 threads x 4 items")
  {
    check_each<std::int32_t, int, 1024, 1, 4>({entropy::full, entropy::few_values}, 513);
  }
  SECTION("2-D block 16x8 x 3 items")
  {
    check_each<std::int32_t, int, 16, 8, 3>({entropy::full, entropy::few_values}, 514);
  }
}

TEST_CASE("BlockRadixSort key and value types", "[block][radix_sort][pairs]")
{
  const std::initializer_list<entropy> entropies = {entropy::full, entropy::sparse, entropy::few_values};
  SECTION("uint8 keys, int values")
  {
    check_each<std::uint8_t, int, 128, 1, 4>(entropies, 520);
  }
  SECTION("int16 keys, double values")
  {
    check_each<std::int16_t, double, 96, 1, 5>(entropies, 521);
  }
  SECTION("int64 keys, int values")
  {
    check_each<std::int64_t, int, 128, 1, 3>(entropies, 522);
  }
  SECTION("uint64 keys, uint16 values")
  {
    check_each<std::uint64_t, std::uint16_t, 64, 1, 7>(entropies, 523);
  }
  SECTION("float keys, int values")
  {
    check_each<float, int, 128, 1, 4>(entropies, 524);
  }
  SECTION("double keys, 16-byte struct values")
  {
    check_each<double, custom_t, 128, 1, 2>(entropies, 525);
  }
  SECTION("uint32 keys, 16-byte struct values, every method")
  {
    for (entropy e : entropies)
    {
      INFO("entropy " << entropy_name(e));
      check_all_methods<std::uint32_t, custom_t, 64, 1, 3>(tile_keys<std::uint32_t, 64 * 3>(e, 526), 0, 32);
    }
  }
}

TEST_CASE("BlockRadixSort pairs, bit subranges: equal digits keep their input order", "[block][radix_sort][pairs]")
{
  const std::initializer_list<entropy> entropies = {entropy::full, entropy::sparse};
  SECTION("int32 keys")
  {
    for (const auto& r : {std::pair<int, int>{4, 12}, {0, 1}, {31, 32}, {7, 7}, {20, 32}})
    {
      check_each<std::int32_t, int, 128, 1, 4>(entropies, 530, r.first, r.second);
    }
  }
  SECTION("uint64 keys")
  {
    for (const auto& r : {std::pair<int, int>{40, 64}, {0, 6}, {30, 35}, {63, 64}})
    {
      check_each<std::uint64_t, std::uint16_t, 64, 1, 7>(entropies, 531, r.first, r.second);
    }
  }
  SECTION("float keys")
  {
    for (const auto& r : {std::pair<int, int>{23, 32}, {0, 23}, {31, 32}})
    {
      check_each<float, int, 128, 1, 4>(entropies, 532, r.first, r.second);
    }
  }
}

TEST_CASE("BlockRadixSort pairs, digit widths and scan variants", "[block][radix_sort][pairs]")
{
  SECTION("2-bit digits, raking scan (100 threads x 5)")
  {
    check_two_methods<std::int32_t, int, 100, 1, 5, sort_config<2, true, strata::BLOCK_SCAN_RAKING>>(entropy::full,
                                                                                                     540);
  }
  SECTION("7-bit digits, no memoization, 8-byte counters (128 threads x 2)")
  {
    check_two_methods<std::uint32_t, int, 128, 1, 2,
                      sort_config<7, false, strata::BLOCK_SCAN_WARP_SCANS, cudaSharedMemBankSizeEightByte>>(
      entropy::sparse, 541);
  }
}

TEST_CASE("BlockRadixSort pairs, keys-only overloads of a key-value sort", "[block][radix_sort][pairs]")
{
  const auto keys = tile_keys<std::int32_t, 128 * 4>(entropy::full, 550);
  check_sort<std::int32_t, int, 128, 1, 4, sort_blocked, default_config, true>(keys, 0, 32);
  check_sort<std::int32_t, int, 128, 1, 4, sort_descending_striped, default_config, true>(keys, 3, 20);
}

TEST_CASE("BlockRadixSort pairs, private storage and default bit range, every method", "[block][radix_sort][pairs]")
{
  using config = sort_config<4, true, strata::BLOCK_SCAN_WARP_SCANS, cudaSharedMemBankSizeFourByte, true, true>;
  for (entropy e : {entropy::full, entropy::few_values})
  {
    INFO("entropy " << entropy_name(e));
    check_all_methods<float, int, 96, 1, 3, config>(tile_keys<float, 96 * 3>(e, 560 + static_cast<int>(e)), 0, 32);
  }
}
