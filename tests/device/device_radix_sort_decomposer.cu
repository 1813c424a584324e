// DeviceRadixSort on user-defined keys through a decomposer (a functor returning a cuda::std::tuple of references to
// the key's arithmetic members, the most significant first): the keys are ordered by the concatenation of the
// members' bit-ordered images, the last member lowest, in every form (in/out, DoubleBuffer, single-phase), with and
// without a bit range of that concatenation, keys only and pairs, ascending and descending. One key type orders its
// members differently from their layout and carries a byte that is not part of the key (it moves with the key).
#include "device_radix_sort_harness.cuh"

#include <cuda/std/tuple>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace
{
// An int32 and a float, compared in that order.
struct pair_key
{
  std::int32_t a;
  float b;
};

struct pair_decomposer
{
  __host__ __device__ cuda::std::tuple<std::int32_t&, float&> operator()(pair_key& key) const
  {
    return {key.a, key.b};
  }
};

// Compared by t, then s, then u (56 bits): not the order of the members in memory. `tag` is not part of the key.
struct triple_key
{
  std::uint32_t u;
  std::int16_t s;
  std::uint8_t t;
  std::uint8_t tag;
};
static_assert(sizeof(triple_key) == 8, "no padding: keys are compared bit for bit");

struct triple_decomposer
{
  __host__ __device__ cuda::std::tuple<std::uint8_t&, std::int16_t&, std::uint32_t&> operator()(triple_key& key) const
  {
    return {key.t, key.s, key.u};
  }
};
} // namespace

namespace drs_test
{
// The host reference's view of the user keys: the members' images concatenated, the most significant first.
template <>
struct key_model<pair_key>
{
  using key_type                       = pair_key;
  using host_type                      = pair_key;
  static constexpr int BITS            = 64;
  static constexpr bool HAS_DECOMPOSER = true;

  static pair_decomposer decomposer()
  {
    return {};
  }
  static u64 image(const pair_key& k)
  {
    return (key_model<std::int32_t>::image(k.a) << 32) | key_model<float>::image(k.b);
  }
  static std::string text(const pair_key& k)
  {
    std::ostringstream os;
    os << "{" << k.a << ", " << key_model<float>::text(k.b) << "}";
    return os.str();
  }
};

template <>
struct key_model<triple_key>
{
  using key_type                       = triple_key;
  using host_type                      = triple_key;
  static constexpr int BITS            = 56;
  static constexpr bool HAS_DECOMPOSER = true;

  static triple_decomposer decomposer()
  {
    return {};
  }
  static u64 image(const triple_key& k)
  {
    return (key_model<std::uint8_t>::image(k.t) << 48) | (key_model<std::int16_t>::image(k.s) << 32)
         | key_model<std::uint32_t>::image(k.u);
  }
  static std::string text(const triple_key& k)
  {
    std::ostringstream os;
    os << "{t " << +k.t << ", s " << k.s << ", u " << k.u << ", tag " << +k.tag << "}";
    return os.str();
  }
};
} // namespace drs_test

namespace
{
using drs_test::u64;

// Few distinct a (negative ones among them), so that b decides often; b from a pool of finite values and specials
// (both zeros, infinities, NaNs of both signs), so that equal keys are frequent.
std::vector<pair_key> pair_keys(std::size_t n, u64 salt)
{
  std::mt19937_64 rng   = strata_test::make_rng(salt);
  std::vector<u64> pool = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                           0xffc00001, 0x00000001, 0x80000001, 0x3f800000, 0xbf800000};
  for (int i = 0; i < 14; ++i)
  {
    pool.push_back(rng() & 0xbfffffffULL); // finite: the exponent's top bit clear
  }
  std::vector<pair_key> keys(n);
  for (auto& k : keys)
  {
    k.a = rng() % 8 == 0 ? static_cast<std::int32_t>(rng()) : static_cast<std::int32_t>(rng() % 5) - 2;
    k.b = drs_test::key_from_bits<float>(pool[rng() % pool.size()]);
  }
  return keys;
}

std::vector<triple_key> triple_keys(std::size_t n, u64 salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::vector<triple_key> keys(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    triple_key& k = keys[i];
    k.t           = static_cast<std::uint8_t>(rng() % 3);
    k.s           = static_cast<std::int16_t>(rng() % 4 == 0 ? rng() : rng() % 7) - 3;
    k.u           = static_cast<std::uint32_t>(rng() % 2 == 0 ? rng() : rng() % 4);
    k.tag         = static_cast<std::uint8_t>(i);
  }
  return keys;
}

template <typename K>
void check_every_form(const std::vector<K>& keys, const std::vector<std::pair<int, int>>& ranges)
{
  std::size_t i = 0;
  for (const drs_test::form api : {drs_test::form::in_out, drs_test::form::double_buffer, drs_test::form::policy_in_out,
                                   drs_test::form::policy_double_buffer})
  {
    for (const bool descending : drs_test::directions(i++))
    {
      drs_test::sort_options o;
      o.api          = api;
      o.descending   = descending;
      o.default_bits = true;
      drs_test::check_sort<K>(keys, o);
      drs_test::check_sort<K, std::uint32_t>(keys, o);
      o.default_bits = false;
      for (const auto& range : ranges)
      {
        o.begin_bit = range.first;
        o.end_bit   = range.second;
        drs_test::check_sort<K>(keys, o);
        drs_test::check_sort<K, std::uint32_t>(keys, o);
      }
    }
  }
}
} // namespace

TEST_CASE("DeviceRadixSort sorts {int32, float} keys through a decomposer", "[device][radix_sort][decomposer]")
{
  // The whole key, a alone, b alone, across the two, the sign bit of b's image and the lowest bit of a, a's top
  // bits, nothing.
  const std::vector<std::pair<int, int>> ranges = {{0, 64}, {32, 64}, {0, 32}, {16, 48}, {31, 33}, {60, 64}, {0, 0}};
  for (const std::size_t n : drs_test::sizes_within_cap({1000, 60013}))
  {
    CAPTURE(n);
    check_every_form(pair_keys(n, 53 * n), ranges);
  }
}

TEST_CASE("DeviceRadixSort sorts {uint8, int16, uint32} keys through a decomposer that reorders the members",
          "[device][radix_sort][decomposer]")
{
  // The whole key, t and s, t alone, u alone, across u and s, the top bit of t, nothing.
  const std::vector<std::pair<int, int>> ranges = {{0, 56}, {32, 56}, {48, 56}, {0, 32}, {20, 40}, {55, 56}, {7, 7}};
  for (const std::size_t n : drs_test::sizes_within_cap({1000, 60013}))
  {
    CAPTURE(n);
    check_every_form(triple_keys(n, 59 * n), ranges);
  }
}
