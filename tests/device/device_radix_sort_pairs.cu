// DeviceRadixSort::SortPairs and SortPairsDescending: values of 1 to 16 bytes (a user struct among them) at every size
// class, several key types in every key pattern, with the values naming their input positions so that stability and
// values that stay with their keys are checked against std::stable_sort; the calls that leave begin_bit, end_bit and
// the stream to their defaults.
#include "device_radix_sort_harness.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
using drs_test::key_pattern;
using drs_test::pattern;

constexpr std::size_t MAX_ITEMS = (std::size_t(1) << 20) + 5;
} // namespace

TEMPLATE_TEST_CASE("DeviceRadixSort::SortPairs and SortPairsDescending move every value type with its key",
                   "[device][radix_sort][pairs]", std::uint8_t, std::uint32_t, std::uint64_t, double,
                   strata_test::custom_t)
{
  using K                              = std::uint32_t;
  using V                              = TestType;
  const std::vector<std::size_t> sizes = drs_test::sort_sizes<K, V>(MAX_ITEMS, sizeof(V) * 3 + 2);
  // Few distinct keys (long runs of equal keys, where stability shows) and random keys by turns.
  const key_pattern patterns[] = {{pattern::low_entropy, 4, "low entropy (AND of 4 words)"},
                                  {pattern::random, 0, "random"},
                                  {pattern::low_entropy, 2, "low entropy (AND of 2 words)"}};
  std::size_t i                = 0;
  for (const std::size_t n : sizes)
  {
    const key_pattern& p = patterns[i % 3];
    CAPTURE(n, p.name);
    const auto keys = drs_test::make_keys<K>(n, p, 19 * n + sizeof(V));
    for (const bool descending : drs_test::directions(i))
    {
      drs_test::sort_options o;
      o.descending = descending;
      o.mode       = i % 8 == 6 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
      drs_test::check_sort<K, V>(keys, o);
    }
    ++i;
  }
}

TEMPLATE_TEST_CASE("DeviceRadixSort::SortPairs and SortPairsDescending are stable for every key pattern",
                   "[device][radix_sort][pairs][patterns]", bool, std::int8_t, std::uint16_t, std::int32_t,
                   std::int64_t, std::uint64_t)
{
  using K = TestType;
  using V = std::uint32_t;
  for (const std::size_t n : drs_test::sizes_within_cap({1000, 3 * 6144 + 17, 200003}))
  {
    for (const key_pattern& p : drs_test::all_patterns())
    {
      CAPTURE(n, p.name);
      const auto keys = drs_test::make_keys<K>(n, p, 23 * n + static_cast<std::size_t>(p.kind) * 31 + p.ands);
      for (const bool descending : {false, true})
      {
        drs_test::sort_options o;
        o.descending = descending;
        drs_test::check_sort<K, V>(keys, o);
      }
    }
  }
}

TEST_CASE("DeviceRadixSort::SortPairs with begin_bit, end_bit and the stream left to their defaults",
          "[device][radix_sort][pairs]")
{
  // uint32 keys and values, the legacy default stream; values are the input positions.
  using K                     = std::uint32_t;
  const std::size_t n         = drs_test::capped(100003);
  const std::vector<K> h_keys = drs_test::make_keys<K>(n, key_pattern{pattern::low_entropy, 3, "low entropy"}, 0xdefa);
  std::vector<K> h_values(n);
  std::iota(h_values.begin(), h_values.end(), K(0));
  std::vector<K> ascending = h_values;
  std::stable_sort(ascending.begin(), ascending.end(), [&](K a, K b) {
    return h_keys[a] < h_keys[b];
  });
  std::vector<K> descending = h_values;
  std::stable_sort(descending.begin(), descending.end(), [&](K a, K b) {
    return h_keys[b] < h_keys[a];
  });
  auto keys_of = [&](const std::vector<K>& positions) {
    std::vector<K> k(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      k[i] = h_keys[positions[i]];
    }
    return k;
  };

  strata_test::device_buffer<K> d_keys(h_keys), d_keys_out(n), d_values(h_values), d_values_out(n);
  const int num_items = static_cast<int>(n);
  auto two_phase      = [](auto call) {
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(call(nullptr, bytes));
    REQUIRE(bytes > 0);
    void* d_temp = nullptr;
    STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
    STRATA_TEST_CUDA(call(d_temp, bytes));
    STRATA_TEST_SYNC();
    STRATA_TEST_CUDA(cudaFree(d_temp));
  };
  SECTION("in/out")
  {
    two_phase([&](void* t, std::size_t& b) {
      return strata::DeviceRadixSort::SortPairs(t, b, d_keys.data(), d_keys_out.data(), d_values.data(),
                                                d_values_out.data(), num_items);
    });
    STRATA_REQUIRE_EQUAL_VECTORS(d_values_out.download(), ascending);
    STRATA_REQUIRE_EQUAL_VECTORS(d_keys_out.download(), keys_of(ascending));
    d_keys_out.poison();
    d_values_out.poison();
    two_phase([&](void* t, std::size_t& b) {
      return strata::DeviceRadixSort::SortPairsDescending(t, b, d_keys.data(), d_keys_out.data(), d_values.data(),
                                                          d_values_out.data(), num_items);
    });
    STRATA_REQUIRE_EQUAL_VECTORS(d_values_out.download(), descending);
    STRATA_REQUIRE_EQUAL_VECTORS(d_keys_out.download(), keys_of(descending));
  }
  SECTION("DoubleBuffer")
  {
    strata::DoubleBuffer<K> keys(d_keys.data(), d_keys_out.data());
    strata::DoubleBuffer<K> values(d_values.data(), d_values_out.data());
    two_phase([&](void* t, std::size_t& b) {
      return strata::DeviceRadixSort::SortPairs(t, b, keys, values, num_items);
    });
    REQUIRE((keys.selector == 0 || keys.selector == 1));
    REQUIRE((values.selector == 0 || values.selector == 1));
    STRATA_REQUIRE_EQUAL_VECTORS((values.selector == 0 ? d_values : d_values_out).download(), ascending);
    STRATA_REQUIRE_EQUAL_VECTORS((keys.selector == 0 ? d_keys : d_keys_out).download(), keys_of(ascending));

    d_keys.upload(h_keys);
    d_values.upload(h_values);
    d_keys_out.poison();
    d_values_out.poison();
    strata::DoubleBuffer<K> keys2(d_keys.data(), d_keys_out.data());
    strata::DoubleBuffer<K> values2(d_values.data(), d_values_out.data());
    two_phase([&](void* t, std::size_t& b) {
      return strata::DeviceRadixSort::SortPairsDescending(t, b, keys2, values2, num_items);
    });
    REQUIRE((keys2.selector == 0 || keys2.selector == 1));
    REQUIRE((values2.selector == 0 || values2.selector == 1));
    STRATA_REQUIRE_EQUAL_VECTORS((values2.selector == 0 ? d_values : d_values_out).download(), descending);
    STRATA_REQUIRE_EQUAL_VECTORS((keys2.selector == 0 ? d_keys : d_keys_out).download(), keys_of(descending));
  }
}

namespace
{
// Sizes just below, at and above the edge of the small-input policy (one full onesweep tile per SM), with a partial
// last tile (left out under the sanitizer, whose cap is far below them).
template <typename K, typename V>
void check_small_input_edge()
{
  int device = 0;
  int sms    = 0;
  STRATA_TEST_CUDA(cudaGetDevice(&device));
  STRATA_TEST_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::size_t tile = drs_test::policy_tiles<K, V>()[0];
  const std::size_t edge = static_cast<std::size_t>(sms) * tile;
  for (const std::size_t n : {edge - 1, edge, edge + tile / 2 + 1})
  {
    if (n > drs_test::capped(n))
    {
      continue;
    }
    CAPTURE(n, tile, sms);
    const auto keys = drs_test::make_keys<K>(n, key_pattern{pattern::random, 0, "random"}, 29 * n);
    for (const bool descending : {false, true})
    {
      drs_test::sort_options o;
      o.descending = descending;
      drs_test::check_sort<K, V>(keys, o);
    }
  }
}
} // namespace

TEST_CASE("DeviceRadixSort::SortPairs on both sides of the switch to the small-input tiles",
          "[device][radix_sort][pairs][small_input]")
{
  // Below the edge, 8-byte pairs take smaller tiles and 4-byte pairs load their values before the look-back
  // (tuning_radix_sort.cuh).
  SECTION("u64 keys, u64 values")
  {
    check_small_input_edge<std::uint64_t, std::uint64_t>();
  }
  SECTION("u32 keys, u32 values")
  {
    check_small_input_edge<std::uint32_t, std::uint32_t>();
  }
}
