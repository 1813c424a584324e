// DeviceRadixSort's DoubleBuffer forms: the result is in the buffers the selectors name after the call, whichever
// buffer each input started in (keys and values may start in different ones), for bit ranges of an odd and an even
// number of 8-bit digit passes, for keys whose digits are all the same in every pass (every pass can be skipped), the
// same in all passes but one (the first or the last), and random keys; keys only and pairs, ascending and
// descending, in one block and over several tiles.
#include "device_radix_sort_harness.cuh"

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace
{
using drs_test::low_mask;
using drs_test::u64;

enum class variation
{
  random,     // random in every bit
  none,       // one key: every pass's digit is the same for all keys
  first_pass, // differing only in the bits of the range's first 8-bit digit
  last_pass   // differing only in the bits of the range's last digit
};

const char* variation_name(variation v)
{
  switch (v)
  {
    case variation::random:
      return "random keys";
    case variation::none:
      return "all keys equal";
    case variation::first_pass:
      return "keys differing only in the first digit of the range";
    case variation::last_pass:
      return "keys differing only in the last digit of the range";
  }
  return "?";
}

// n keys that differ only in the bits of `v` within [begin_bit, end_bit) (the digits of the passes start at
// begin_bit, 8 bits each).
template <typename K>
std::vector<K> varying_keys(std::size_t n, variation v, int begin_bit, int end_bit, u64 salt)
{
  constexpr int BITS  = static_cast<int>(sizeof(K) * 8);
  std::mt19937_64 rng = strata_test::make_rng(salt);
  const u64 base      = rng() | 1;
  u64 mask            = low_mask(BITS);
  if (v == variation::none || begin_bit == end_bit)
  {
    mask = 0;
  }
  else if (v == variation::first_pass)
  {
    const int hi = begin_bit + 8 < end_bit ? begin_bit + 8 : end_bit;
    mask         = low_mask(hi - begin_bit) << begin_bit;
  }
  else if (v == variation::last_pass)
  {
    const int passes = (end_bit - begin_bit + 7) / 8;
    const int lo     = begin_bit + 8 * (passes - 1);
    mask             = low_mask(end_bit - lo) << lo;
  }
  std::vector<K> keys(n);
  for (auto& k : keys)
  {
    k = drs_test::key_from_bits<K>((base & ~mask) | (rng() & mask));
  }
  return keys;
}

template <typename K, typename V>
void check_double_buffers(const std::vector<std::pair<int, int>>& ranges, u64 salt)
{
  std::size_t i = 0;
  for (const std::size_t n : drs_test::sizes_within_cap({1000, 50003}))
  {
    for (const auto& range : ranges)
    {
      for (const variation v : {variation::random, variation::none, variation::first_pass, variation::last_pass})
      {
        CAPTURE(n, range.first, range.second, variation_name(v));
        const std::vector<K> keys =
          varying_keys<K>(n, v, range.first, range.second, salt + 43 * n + 7 * range.first + range.second);
        for (const bool descending : drs_test::directions(i++))
        {
          drs_test::sort_options o;
          o.api        = drs_test::form::double_buffer;
          o.descending = descending;
          o.begin_bit  = range.first;
          o.end_bit    = range.second;
          for (const int selector : {0, 1})
          {
            o.initial_selector       = selector;
            o.initial_value_selector = -1;
            drs_test::check_sort<K>(keys, o);
            for (const int value_selector : {0, 1})
            {
              o.initial_value_selector = value_selector;
              drs_test::check_sort<K, V>(keys, o);
            }
          }
        }
      }
    }
  }
}
} // namespace

TEST_CASE("DeviceRadixSort's DoubleBuffer forms leave uint32 keys where the selector says",
          "[device][radix_sort][double_buffer]")
{
  // 1, 2, 3, 3 (not starting at 0), 4, 0 and 1 (a single bit) digit passes.
  check_double_buffers<std::uint32_t, std::uint32_t>({{0, 8}, {0, 16}, {0, 24}, {4, 28}, {0, 32}, {0, 0}, {5, 6}},
                                                     0xdb32);
}

TEST_CASE("DeviceRadixSort's DoubleBuffer forms leave uint8 keys where the selector says",
          "[device][radix_sort][double_buffer]")
{
  check_double_buffers<std::uint8_t, std::uint32_t>({{0, 8}, {0, 4}, {3, 8}, {0, 0}}, 0xdb08);
}

TEST_CASE("DeviceRadixSort's DoubleBuffer forms leave int64 keys where the selector says",
          "[device][radix_sort][double_buffer]")
{
  // 8, 5, 7, 8 (not starting at 0) and 2 digit passes.
  check_double_buffers<std::int64_t, std::uint64_t>({{0, 64}, {0, 40}, {8, 64}, {1, 64}, {30, 42}}, 0xdb64);
}
