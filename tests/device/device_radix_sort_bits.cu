// DeviceRadixSort with begin_bit and end_bit: only bits [begin_bit, end_bit) of the keys' bit-ordered images (signed
// integers with the sign bit flipped) are compared; keys equal in those bits keep their input order and every key
// keeps all its bits. Empty ranges (begin_bit == end_bit, at 0, inside the key and at its end) leave the input as it
// was; single bits (the sign bit of signed keys among them); ranges not multiples of 8 and across digit boundaries.
#include "device_radix_sort_harness.cuh"

#include <cstdint>
#include <utility>
#include <vector>

namespace
{
using drs_test::key_pattern;
using drs_test::pattern;

// The bit ranges every key width is sorted by.
template <int BITS>
std::vector<std::pair<int, int>> bit_ranges()
{
  std::vector<std::pair<int, int>> r = {
    {0, 0},               // empty, at the start
    {BITS / 2, BITS / 2}, // empty, inside
    {BITS, BITS},         // empty, at the end
    {0, 1},               // the lowest bit
    {BITS - 1, BITS},     // the highest bit (the sign bit of signed keys)
    {5, 6},               // one bit inside
    {3, 7},               // within one digit
    {0, BITS - 1},        // all but the highest bit
    {1, BITS},            // all but the lowest bit
    {2, BITS - 3},        // neither end
  };
  if (BITS >= 16)
  {
    // Across the first digit boundary, and more.
    r.insert(r.end(), {{7, 9}, {4, 12}, {8, 16}, {0, 12}, {BITS - 12, BITS}});
  }
  if (BITS >= 32)
  {
    r.insert(r.end(), {{3, 29}, {13, BITS}, {0, 20}, {BITS / 2 - 1, BITS / 2 + 1}});
  }
  if (BITS == 64)
  {
    r.insert(r.end(), {{20, 44}, {31, 33}, {32, 64}, {0, 32}, {56, 64}, {60, 64}, {0, 57}, {9, 55}});
  }
  return r;
}

template <typename K, typename V>
void check_bit_ranges(std::uint64_t salt)
{
  constexpr int BITS           = static_cast<int>(sizeof(K) * 8);
  const key_pattern patterns[] = {{pattern::random, 0, "random"}, {pattern::low_entropy, 2, "low entropy"}};
  // One block's worth and several tiles.
  std::size_t i = 0;
  for (const std::size_t n : drs_test::sizes_within_cap({3001, 50003}))
  {
    for (const key_pattern& p : patterns)
    {
      const auto keys = drs_test::make_keys<K>(n, p, salt + 41 * n + static_cast<std::size_t>(p.kind));
      for (const auto& range : bit_ranges<BITS>())
      {
        CAPTURE(n, p.name, range.first, range.second);
        for (const bool descending : drs_test::directions(i++))
        {
          drs_test::sort_options o;
          o.descending = descending;
          o.begin_bit  = range.first;
          o.end_bit    = range.second;
          drs_test::check_sort<K, V>(keys, o);
        }
      }
    }
  }
}
} // namespace

TEMPLATE_TEST_CASE("DeviceRadixSort::SortPairs and SortPairsDescending compare only the bits in the range",
                   "[device][radix_sort][bits]", std::uint8_t, std::int16_t, std::uint32_t, std::int32_t, std::uint64_t,
                   std::int64_t)
{
  check_bit_ranges<TestType, std::uint32_t>(0xb17 + sizeof(TestType));
}

TEMPLATE_TEST_CASE("DeviceRadixSort::SortKeys and SortKeysDescending compare only the bits in the range",
                   "[device][radix_sort][bits]", std::uint32_t, std::int64_t)
{
  check_bit_ranges<TestType, strata::NullType>(0xb18 + sizeof(TestType));
}

TEST_CASE("DeviceRadixSort with a bit range in the DoubleBuffer and single-phase forms", "[device][radix_sort][bits]")
{
  using K             = std::int32_t;
  const std::size_t n = drs_test::capped(40009);
  const auto keys     = drs_test::make_keys<K>(n, key_pattern{pattern::low_entropy, 2, "low entropy"}, 0xb19);
  const std::pair<int, int> ranges[] = {{0, 0}, {31, 32}, {3, 29}, {16, 16}, {9, 32}};
  for (const drs_test::form api :
       {drs_test::form::double_buffer, drs_test::form::policy_in_out, drs_test::form::policy_double_buffer})
  {
    for (const auto& range : ranges)
    {
      for (const bool descending : {false, true})
      {
        drs_test::sort_options o;
        o.api        = api;
        o.descending = descending;
        o.begin_bit  = range.first;
        o.end_bit    = range.second;
        drs_test::check_sort<K>(keys, o);
        drs_test::check_sort<K, std::uint32_t>(keys, o);
      }
    }
  }
}
