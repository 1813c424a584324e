// DeviceRadixSort under policy shapes other than the library's tuning: values that follow their keys through shared
// memory after the keys are out (loaded before the look-back, or after it: VALUES_AFTER_LOOKBACK), values that go to
// shared memory with their keys as they are ranked (VALUES_WITH_KEYS), and tiles over the 48 KiB of static shared
// memory (the onesweep kernel's dynamic shared memory raised for the launch). A policy changes speed only: each shape
// must give the stable order a host sort gives, on random and low-entropy keys, at sizes of one tile and of many with
// a partial last tile. And DispatchRadixSort on 64-bit offsets, which sorts inputs that 32 bits can count with the
// 32-bit sort.
#include <strata/device/dispatch/dispatch_radix_sort.cuh>

#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

namespace
{
// Where the values of a pair sort go (the onesweep policy's VALUES_WITH_KEYS and VALUES_AFTER_LOOKBACK).
enum values_path
{
  before_lookback, // loaded before the look-back, through shared memory once the keys are out
  after_lookback,  // the same, loaded after the look-back by the threads that look back
  with_keys,       // to shared memory with their keys as they are ranked
};

// A hub with one policy: the onesweep shape under test, the library's histogram policy and largest single-block tier
// (the sizes tested pass it).
template <typename KeyT, typename ValueT, int THREADS, int ITEMS, int MIN_BLOCKS, int VALUES>
struct shape_hub
{
  using library = typename strata::detail::radix_sort::policy_hub<KeyT, ValueT, std::uint32_t>::MaxPolicy;
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using OnesweepPolicy   = strata::AgentRadixSortOnesweepPolicy<THREADS, ITEMS, 8, MIN_BLOCKS, VALUES == with_keys,
                                                                VALUES == after_lookback>;
    using HistogramPolicy  = typename library::HistogramPolicy;
    using SingleTilePolicy = typename strata::detail::radix_sort::single_tile_tiers_t<library>::largest;
  };
  using MaxPolicy = Policy;
};

template <typename T>
std::vector<T> keys_for(std::size_t n, int and_words, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::vector<T> keys(n);
  for (auto& k : keys)
  {
    std::uint64_t word = ~std::uint64_t(0);
    for (int w = 0; w < and_words; ++w)
    {
      word &= rng();
    }
    k = static_cast<T>(word);
  }
  return keys;
}

// Sorts n keys (and their indices as values, unless ValueT is NullType) ascending with DispatchRadixSort on OffsetT
// offsets and the policy hub Hub, in the in/out form, and checks keys and values against std::stable_sort.
template <typename KeyT, typename ValueT, typename OffsetT, typename Hub>
void check_dispatch(std::size_t n, int and_words)
{
  using Dispatch =
    strata::DispatchRadixSort<false, KeyT, ValueT, OffsetT, strata::detail::radix_sort::no_decomposer, Hub>;
  constexpr bool KEYS_ONLY = std::is_same<ValueT, strata::NullType>::value;
  using HostValueT         = std::conditional_t<KEYS_ONLY, std::uint32_t, ValueT>;
  CAPTURE(n, and_words, sizeof(KeyT), sizeof(HostValueT), sizeof(OffsetT));
  const std::vector<KeyT> keys = keys_for<KeyT>(n, and_words, 0x5ea9e + n * 31 + sizeof(KeyT) * 7 + and_words);
  std::vector<HostValueT> values(n);
  std::iota(values.begin(), values.end(), HostValueT(0));

  strata_test::device_buffer<KeyT> keys_in(keys);
  strata_test::device_buffer<KeyT> keys_out(n);
  strata_test::device_buffer<HostValueT> values_in(values);
  strata_test::device_buffer<HostValueT> values_out(n);
  strata::DoubleBuffer<KeyT> d_keys(keys_in.data(), keys_out.data());
  strata::DoubleBuffer<ValueT> d_values;
  if constexpr (!KEYS_ONLY)
  {
    d_values = strata::DoubleBuffer<ValueT>(values_in.data(), values_out.data());
  }
  const int end_bit = static_cast<int>(sizeof(KeyT) * 8);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(
    Dispatch::Dispatch(nullptr, bytes, d_keys, d_values, static_cast<OffsetT>(n), 0, end_bit, false, nullptr));
  strata_test::device_buffer<char> temp(bytes);
  STRATA_TEST_CUDA(
    Dispatch::Dispatch(temp.data(), bytes, d_keys, d_values, static_cast<OffsetT>(n), 0, end_bit, false, nullptr));
  STRATA_TEST_SYNC();

  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return keys[a] < keys[b];
  });
  std::vector<KeyT> expected_keys(n);
  std::vector<HostValueT> expected_values(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    expected_keys[i]   = keys[order[i]];
    expected_values[i] = values[order[i]];
  }
  STRATA_REQUIRE_EQUAL_VECTORS(keys_out.download(), expected_keys);
  if constexpr (!KEYS_ONLY)
  {
    STRATA_REQUIRE_EQUAL_VECTORS(values_out.download(), expected_values);
  }
}

// The same with the shape's hub and 32-bit offsets.
template <typename KeyT, typename ValueT, int THREADS, int ITEMS, int MIN_BLOCKS, int VALUES>
void check_shape(std::size_t n, int and_words)
{
  using Hub = shape_hub<KeyT, ValueT, THREADS, ITEMS, MIN_BLOCKS, VALUES>;
  CAPTURE(THREADS, ITEMS, MIN_BLOCKS, VALUES);
  check_dispatch<KeyT, ValueT, std::uint32_t, Hub>(n, and_words);
}

// Single-tile sizes go through the single-tile kernel, which no onesweep shape changes: sizes from a few onesweep
// tiles (with partial last tiles) up.
template <typename KeyT, typename ValueT, int THREADS, int ITEMS, int MIN_BLOCKS, int VALUES>
void check_sizes()
{
  constexpr std::size_t TILE = std::size_t(THREADS) * ITEMS;
  for (const std::size_t n : {TILE * 5 - 1, TILE * 5, TILE * 17 + 3, std::size_t(1000003)})
  {
    const char* cap = std::getenv("STRATA_TEST_MAX_ITEMS"); // the sanitizer runs' cap
    if (cap != nullptr && *cap != '\0' && n > std::strtoull(cap, nullptr, 10))
    {
      continue;
    }
    for (const int and_words : {1, 3})
    {
      check_shape<KeyT, ValueT, THREADS, ITEMS, MIN_BLOCKS, VALUES>(n, and_words);
    }
  }
}
} // namespace

TEST_CASE("DeviceRadixSort with values following their keys or ranked with them", "[device][radix_sort][shapes]")
{
  check_sizes<std::uint32_t, std::uint32_t, 256, 28, 2, before_lookback>();
  check_sizes<std::uint32_t, std::uint32_t, 384, 24, 2, after_lookback>();
  check_sizes<std::uint16_t, std::uint64_t, 256, 16, 2, after_lookback>();
  check_sizes<std::uint32_t, std::uint32_t, 256, 20, 3, with_keys>();
  check_sizes<std::uint64_t, std::uint64_t, 384, 12, 2, with_keys>();
  check_sizes<std::uint16_t, std::uint64_t, 256, 16, 2, with_keys>();
  check_sizes<std::uint64_t, std::uint8_t, 256, 16, 2, with_keys>();
}

TEST_CASE("DeviceRadixSort with tiles over 48 KiB of shared memory", "[device][radix_sort][shapes]")
{
  check_sizes<std::uint64_t, strata::NullType, 256, 28, 2, before_lookback>(); // 56 KiB of keys
  check_sizes<std::uint32_t, std::uint32_t, 256, 28, 2, with_keys>();          // 56 KiB of keys and values
  check_sizes<std::uint64_t, std::uint64_t, 256, 16, 2, with_keys>();          // 64 KiB of keys and values
  check_sizes<std::uint8_t, strata::NullType, 512, 80, 1,
              before_lookback>(); // 40 KiB of 1-byte keys, 17 KiB of counters
}

TEST_CASE("DispatchRadixSort sorts the same whatever the type of its offsets", "[device][radix_sort][shapes]")
{
  // Every offset type hands its sort to the one closure of 64-bit offsets (the kernels are built once): each path of
  // it (no items, single-block tiers, onesweep tiles with a partial last one), under the library's hub for that
  // offset type and under a custom one.
  using custom_hub = shape_hub<std::uint32_t, std::uint32_t, 256, 20, 3, with_keys>;
  using strata::detail::radix_sort::policy_hub;
  for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(700), std::size_t(4099), std::size_t(16384),
                              std::size_t(16385), std::size_t(300007)})
  {
    check_dispatch<std::uint32_t, std::uint32_t, std::uint64_t,
                   policy_hub<std::uint32_t, std::uint32_t, std::uint64_t>>(n, 1);
    check_dispatch<std::uint32_t, std::uint32_t, int, policy_hub<std::uint32_t, std::uint32_t, int>>(n, 1);
    check_dispatch<std::uint32_t, strata::NullType, std::uint32_t,
                   policy_hub<std::uint32_t, strata::NullType, std::uint32_t>>(n, 3);
    check_dispatch<std::uint32_t, std::uint32_t, std::uint64_t, custom_hub>(n, 1);
  }
}

TEST_CASE("DispatchRadixSort refuses a negative number of items and writes nothing", "[device][radix_sort][shapes]")
{
  const std::vector<std::uint32_t> keys = keys_for<std::uint32_t>(64, 1, 0x9e6);
  strata_test::device_buffer<std::uint32_t> keys_in(keys);
  strata_test::device_buffer<std::uint32_t> keys_out(keys);
  strata::DoubleBuffer<std::uint32_t> d_keys(keys_in.data(), keys_out.data());
  strata::DoubleBuffer<strata::NullType> d_values;
  using Dispatch    = strata::DispatchRadixSort<false, std::uint32_t, strata::NullType, int>;
  std::size_t bytes = 12345;
  CHECK(Dispatch::Dispatch(nullptr, bytes, d_keys, d_values, -1, 0, 32, false, nullptr) == cudaErrorInvalidValue);
  CHECK(bytes == 12345);
  strata_test::device_buffer<char> temp(4096);
  bytes = 4096;
  CHECK(Dispatch::Dispatch(temp.data(), bytes, d_keys, d_values, -5, 0, 32, false, nullptr) == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  STRATA_REQUIRE_EQUAL_VECTORS(keys_in.download(), keys);
  STRATA_REQUIRE_EQUAL_VECTORS(keys_out.download(), keys);
}
