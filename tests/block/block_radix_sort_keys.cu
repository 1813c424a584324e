// BlockRadixSort, int32 keys only: every block shape (1-D sizes from one warp to 1024 threads, a partial last warp,
// a 2-D block), items per thread, radix digit widths, scan variants and shared-memory configurations, bit
// subranges and key entropies, checked against std::stable_sort. Other key types: block_radix_sort_types.cu; values:
// block_radix_sort_pairs.cu.
#include "block_radix_sort_harness.cuh"

#include <cstdint>

using namespace block_radix_sort_test;
using strata::NullType;

namespace
{
// Ascending blocked and descending striped: between them, both orders and both output arrangements.
template <int BX, int BY, int ITEMS, typename Config = default_config>
void check_two_methods(entropy e, std::uint64_t salt, int begin_bit = 0, int end_bit = 32)
{
  INFO("entropy " << entropy_name(e));
  const auto keys = tile_keys<std::int32_t, BX * BY * ITEMS>(e, salt);
  check_sort<std::int32_t, NullType, BX, BY, ITEMS, sort_blocked, Config>(keys, begin_bit, end_bit);
  check_sort<std::int32_t, NullType, BX, BY, ITEMS, sort_descending_striped, Config>(keys, begin_bit, end_bit);
}

template <int BX, int ITEMS>
void check_block_size(std::uint64_t salt)
{
  for (entropy e : {entropy::full, entropy::sparse, entropy::few_values})
  {
    check_two_methods<BX, 1, ITEMS>(e, salt + static_cast<int>(e));
  }
}
} // namespace

TEST_CASE("BlockRadixSort int32 keys, block sizes 32..1024 (4 items per thread)", "[block][radix_sort][keys]")
{
  SECTION("32 threads")
  {
    check_block_size<32, 4>(1);
  }
  SECTION("64 threads")
  {
    check_block_size<64, 4>(2);
  }
  SECTION("96 threads")
  {
    check_block_size<96, 4>(3);
  }
  SECTION("100 threads (partial last warp)")
  {
    check_block_size<100, 4>(4);
  }
  SECTION("128 threads")
  {
    check_block_size<128, 4>(5);
  }
  SECTION("256 threads")
  {
    check_block_size<256, 4>(6);
  }
  SECTION("1024 threads")
  {
    check_block_size<1024, 4>(7);
  }
}

TEST_CASE("BlockRadixSort int32 keys, items per thread 1, 3, 7, 16 (128 threads)", "[block][radix_sort][keys]")
{
  SECTION("1 item")
  {
    check_block_size<128, 1>(11);
  }
  SECTION("3 items")
  {
    check_block_size<128, 3>(12);
  }
  SECTION("7 items")
  {
    check_block_size<128, 7>(13);
  }
  SECTION("16 items")
  {
    check_block_size<128, 16>(14);
  }
}

TEST_CASE("BlockRadixSort int32 keys, 2-D block 16x8, every method", "[block][radix_sort][keys]")
{
  for (entropy e : {entropy::full, entropy::sparse})
  {
    INFO("entropy " << entropy_name(e));
    check_all_methods<std::int32_t, NullType, 16, 8, 5>(tile_keys<std::int32_t, 16 * 8 * 5>(e, 21), 0, 32);
  }
}

TEST_CASE("BlockRadixSort int32 keys, digit widths, scan variants and shared-memory configurations",
          "[block][radix_sort][keys]")
{
  SECTION("1-bit digits, raking scan (100 threads x 3)")
  {
    check_two_methods<100, 1, 3, sort_config<1, true, strata::BLOCK_SCAN_RAKING>>(entropy::full, 31);
  }
  SECTION("3-bit digits, no memoization (96 threads x 3)")
  {
    check_two_methods<96, 1, 3, sort_config<3, false>>(entropy::full, 32);
  }
  SECTION("5-bit digits, memoized raking scan, 8-byte counters (96 threads x 3)")
  {
    check_two_methods<96, 1, 3,
                      sort_config<5, true, strata::BLOCK_SCAN_RAKING_MEMOIZE, cudaSharedMemBankSizeEightByte>>(
      entropy::sparse, 33);
  }
  SECTION("8-bit digits, no memoization, 8-byte counters (64 threads x 5)")
  {
    check_two_methods<64, 1, 5, sort_config<8, false, strata::BLOCK_SCAN_RAKING, cudaSharedMemBankSizeEightByte>>(
      entropy::full, 34);
  }
  SECTION("6-bit digits, warp scans over a partial warp (falls back to raking; 100 threads x 2)")
  {
    check_two_methods<100, 1, 2, sort_config<6>>(entropy::few_values, 35);
  }
}

TEST_CASE("BlockRadixSort int32 keys, bit subranges", "[block][radix_sort][keys]")
{
  // [begin_bit, end_bit): within one digit, across digits, the top bits (sign), a single bit, and empty ranges
  // (keys keep their input order).
  const int ranges[][2] = {{3, 17}, {0, 13}, {28, 32}, {31, 32}, {8, 9}, {5, 5}, {32, 32}, {16, 32}};
  for (const auto& r : ranges)
  {
    for (entropy e : {entropy::full, entropy::sparse})
    {
      check_two_methods<128, 1, 4>(e, 41, r[0], r[1]);
    }
  }
}

TEST_CASE("BlockRadixSort int32 keys, private storage and default bit range, every method", "[block][radix_sort][keys]")
{
  using config = sort_config<4, true, strata::BLOCK_SCAN_WARP_SCANS, cudaSharedMemBankSizeFourByte, true, true>;
  for (entropy e : {entropy::full, entropy::constant})
  {
    INFO("entropy " << entropy_name(e));
    check_all_methods<std::int32_t, NullType, 64, 1, 7, config>(tile_keys<std::int32_t, 64 * 7>(e, 51), 0, 32);
  }
}
