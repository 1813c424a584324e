// DeviceRadixSort on float, double, __half and __nv_bfloat16 keys: special values (both zeros, infinities, NaNs of both
// signs with payloads, denormals, the extremes), inputs of zeros of both signs only, every bit pattern at every size
// class, and bit ranges that cut into the exponent and the mantissa. -0.0 and +0.0 are equal keys (stable order
// decides, each keeps its own bits); NaNs go by their bits (negative ones before -inf, positive ones after +inf).
#include "device_radix_sort_harness.cuh"

#include <cstdint>
#include <random>
#include <vector>

namespace
{
using drs_test::key_pattern;
using drs_test::low_mask;
using drs_test::pattern;
using drs_test::u64;

constexpr std::size_t MAX_ITEMS = (std::size_t(1) << 20) + 7;

// The raw bits of the special values of K, both signs of each.
template <typename K>
std::vector<u64> special_bits()
{
  constexpr int BITS   = static_cast<int>(sizeof(K) * 8);
  constexpr int M      = drs_test::mantissa_bits<K>();
  constexpr int E      = BITS - 1 - M;
  const u64 sign       = u64(1) << (BITS - 1);
  const u64 exp_all    = low_mask(E) << M;
  const u64 quiet      = u64(1) << (M - 1);
  const u64 one        = low_mask(E - 1) << M;
  const u64 positive[] = {
    0,                                       // zero
    exp_all,                                 // infinity
    exp_all | quiet,                         // quiet NaN
    exp_all | quiet | 5,                     // quiet NaN with a payload
    exp_all | 1,                             // signalling NaN
    exp_all | low_mask(M),                   // the NaN with every mantissa bit set
    1,                                       // the smallest denormal
    low_mask(M),                             // the largest denormal
    u64(1) << M,                             // the smallest normal
    (exp_all - (u64(1) << M)) | low_mask(M), // the largest finite
    one,                                     // 1
    one | 1,                                 // the float after 1
  };
  std::vector<u64> bits;
  for (const u64 p : positive)
  {
    bits.push_back(p);
    bits.push_back(p | sign);
  }
  return bits;
}

// A finite K of random sign, exponent (denormals included) and mantissa.
template <typename K>
u64 random_finite_bits(std::mt19937_64& rng)
{
  constexpr int BITS = static_cast<int>(sizeof(K) * 8);
  constexpr int M    = drs_test::mantissa_bits<K>();
  constexpr int E    = BITS - 1 - M;
  const u64 exponent = rng() % low_mask(E); // 0 .. all ones - 1
  return ((rng() & 1) << (BITS - 1)) | (exponent << M) | (rng() & low_mask(M));
}

enum class float_mix
{
  specials, // only the special values
  mixed,    // one key in four a special value, the others random finite values
  zeros     // only -0.0 and +0.0
};

template <typename K>
std::vector<K> float_keys(std::size_t n, float_mix mix, u64 salt)
{
  std::mt19937_64 rng         = strata_test::make_rng(salt);
  const std::vector<u64> pool = special_bits<K>();
  constexpr int BITS          = static_cast<int>(sizeof(K) * 8);
  std::vector<K> keys(n);
  for (auto& k : keys)
  {
    u64 bits = 0;
    switch (mix)
    {
      case float_mix::specials:
        bits = pool[rng() % pool.size()];
        break;
      case float_mix::mixed:
        bits = rng() % 4 == 0 ? pool[rng() % pool.size()] : random_finite_bits<K>(rng);
        break;
      case float_mix::zeros:
        bits = (rng() & 1) << (BITS - 1);
        break;
    }
    k = drs_test::key_from_bits<K>(bits);
  }
  return keys;
}

const char* mix_name(float_mix m)
{
  switch (m)
  {
    case float_mix::specials:
      return "special values only";
    case float_mix::mixed:
      return "random finite values and special values";
    case float_mix::zeros:
      return "zeros of both signs only";
  }
  return "?";
}
} // namespace

#define DRS_TEST_FLOAT_KEYS float, double, __half, __nv_bfloat16

TEMPLATE_TEST_CASE("DeviceRadixSort orders special floating-point values by their bits, both zeros as one key",
                   "[device][radix_sort][floats]", DRS_TEST_FLOAT_KEYS)
{
  using K = TestType;
  for (const float_mix mix : {float_mix::specials, float_mix::mixed})
  {
    for (const std::size_t n : drs_test::sizes_within_cap({1000, 2 * 6144 + 5, 100003}))
    {
      CAPTURE(mix_name(mix), n);
      const std::vector<K> keys = float_keys<K>(n, mix, 29 * n + static_cast<u64>(mix));
      for (const bool descending : {false, true})
      {
        drs_test::sort_options o;
        o.descending = descending;
        drs_test::check_sort<K>(keys, o);
        drs_test::check_sort<K, std::uint32_t>(keys, o);
      }
    }
  }
}

TEMPLATE_TEST_CASE("DeviceRadixSort leaves an input of zeros of both signs in its order",
                   "[device][radix_sort][floats]", DRS_TEST_FLOAT_KEYS)
{
  // Every key is equal: the sorted keys are the input, bit for bit, ascending and descending, and the values too.
  using K = TestType;
  for (const std::size_t n : drs_test::sizes_within_cap({777, 50001}))
  {
    CAPTURE(n);
    const std::vector<K> keys = float_keys<K>(n, float_mix::zeros, 31 * n);
    for (const bool descending : {false, true})
    {
      for (const drs_test::form api : {drs_test::form::in_out, drs_test::form::double_buffer})
      {
        drs_test::sort_options o;
        o.descending = descending;
        o.api        = api;
        drs_test::check_sort<K>(keys, o);
        drs_test::check_sort<K, std::uint32_t>(keys, o);
      }
    }
  }
}

TEMPLATE_TEST_CASE("DeviceRadixSort sorts every floating-point bit pattern at every size class",
                   "[device][radix_sort][floats]", DRS_TEST_FLOAT_KEYS)
{
  // Random bits: NaNs and infinities of both signs, denormals and every exponent.
  using K                              = TestType;
  const std::vector<std::size_t> sizes = drs_test::sort_sizes<K>(MAX_ITEMS, sizeof(K) * 5 + 3);
  const key_pattern random{pattern::random, 0, "random bits"};
  const key_pattern low_entropy{pattern::low_entropy, 2, "low entropy (AND of 2 words)"};
  std::size_t i = 0;
  for (const std::size_t n : sizes)
  {
    const key_pattern& p = i % 2 == 0 ? random : low_entropy;
    CAPTURE(n, p.name);
    const auto keys = drs_test::make_keys<K>(n, p, 37 * n + sizeof(K));
    for (const bool descending : drs_test::directions(i))
    {
      drs_test::sort_options o;
      o.descending = descending;
      drs_test::check_sort<K>(keys, o);
    }
    ++i;
  }
}

TEMPLATE_TEST_CASE("DeviceRadixSort sorts floating-point keys by bit ranges of their images",
                   "[device][radix_sort][floats][bits]", DRS_TEST_FLOAT_KEYS)
{
  // Ranges of the bit-ordered image (in which -0.0 reads as +0.0): the low and high halves, all but the outer bits,
  // the sign bit alone, the sign and exponent, the mantissa.
  using K                   = TestType;
  constexpr int BITS        = static_cast<int>(sizeof(K) * 8);
  constexpr int M           = drs_test::mantissa_bits<K>();
  const int ranges[][2]     = {{0, BITS / 2}, {BITS / 2, BITS}, {1, BITS - 1}, {BITS - 1, BITS}, {M, BITS}, {0, M}};
  const std::size_t n       = drs_test::capped(20011);
  const std::vector<K> keys = float_keys<K>(n, float_mix::mixed, 0xb175 + sizeof(K));
  for (const auto& r : ranges)
  {
    for (const bool descending : {false, true})
    {
      drs_test::sort_options o;
      o.descending = descending;
      o.begin_bit  = r[0];
      o.end_bit    = r[1];
      drs_test::check_sort<K, std::uint32_t>(keys, o);
    }
  }
}
