// DeviceTopK::MinPairs and MaxPairs against the host references of device_topk_harness.cuh, with values = positions,
// so that every selected item is pinned, ties included: int32, uint64, float and double keys over the size classes
// (1, a tile +- 1, primes, 2^k +- 1 to 2^18, a few million), k = 1, 100, n - 1, n and 2^16, both orders, on a stream
// and in a graph (under the sanitizer fewer k, orders and selections by turns: topk_test::k_values); keys folded onto
// three values and all equal (the selection's ties); values through a counting iterator.
//
// The inputs take every path of the select: int32 keys of +-2^20 share their top digit in two buckets, so the second
// round reads the input again; uint64 and float keys leave few candidates, which go through the candidate buffers;
// equal keys leave every candidate in one bucket, read from the same source round after round.
#include "device_topk_harness.cuh"

#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
using strata_test::device_buffer;
using topk_test::expected_positions;

// Every k of k_values(n) (or `ks`), in the orders of topk_test::orders, against the references; launches alternate
// between a stream and a graph.
template <bool IS_MAX, typename KeyT>
void check_pairs(const std::vector<KeyT>& keys, const char* what, std::vector<std::size_t> ks = {})
{
  const std::size_t n = keys.size();
  if (ks.empty())
  {
    ks = topk_test::k_values(n);
  }
  std::vector<std::uint32_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0u);
  const device_buffer<KeyT> d_keys(keys);
  const device_buffer<std::uint32_t> d_positions(positions);
  int turn        = 0;
  std::size_t ith = 0;
  for (const std::size_t k : ks)
  {
    for (const strata::topk_order order : topk_test::orders(ith++))
    {
      const bool sorted = order == strata::topk_order::sorted;
      CAPTURE(what, n, k, IS_MAX, sorted);
      const std::vector<std::uint32_t> expected = expected_positions<IS_MAX>(keys, k, order);
      if (!sorted)
      {
        // The replayed order selects the reference's set.
        std::vector<std::uint32_t> a = expected;
        std::vector<std::uint32_t> b = topk_test::selected_positions<IS_MAX>(keys, k);
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        REQUIRE(a == b);
      }
      const auto mode = turn++ % 2 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
      std::vector<KeyT> out_keys;
      std::vector<std::uint32_t> out_values;
      topk_test::run_pairs<IS_MAX>(d_keys, d_positions, k, order, mode, out_keys, out_values);
      STRATA_REQUIRE_EQUAL_VECTORS(out_values, expected);
      STRATA_REQUIRE_EQUAL_VECTORS(topk_test::key_bits(out_keys),
                                   topk_test::key_bits(topk_test::gather(keys, expected)));
    }
  }
}

template <typename KeyT>
void check_both(const std::vector<KeyT>& keys, const char* what, std::vector<std::size_t> ks = {})
{
  static std::size_t turn = 0;
  const std::size_t t     = turn++;
  if (topk_test::selects(false, t))
  {
    check_pairs<false>(keys, what, ks);
  }
  if (topk_test::selects(true, t))
  {
    check_pairs<true>(keys, what, ks);
  }
}
} // namespace

TEMPLATE_TEST_CASE("DeviceTopK::MinPairs and MaxPairs select and order as the references", "[device][topk]",
                   std::int32_t, std::uint64_t, float, double)
{
  using KeyT             = TestType;
  std::uint64_t salt     = 0x70b0 + sizeof(KeyT);
  const std::size_t tile = topk_test::tile_items<KeyT>();
  for (const std::size_t n : strata_test::test_sizes(tile, strata_test::capped(std::size_t(1) << 18), salt))
  {
    check_both(strata_test::random_vector<KeyT>(n, salt++), "random");
  }
  // A few million: the large k only, beside one small.
  for (const std::size_t n : strata_test::sizes_within_cap({(std::size_t(1) << 22) + 1}))
  {
    check_both(strata_test::random_vector<KeyT>(n, salt++), "random", {100, std::size_t(1) << 16});
  }
}

TEMPLATE_TEST_CASE("DeviceTopK pairs: ties among many equal keys go to the first positions", "[device][topk][ties]",
                   std::int32_t, float)
{
  using KeyT             = TestType;
  const std::size_t tile = topk_test::tile_items<KeyT>();
  std::uint64_t salt     = 0x71e5;
  for (const std::size_t n :
       strata_test::sizes_within_cap({1, 2, tile - 1, tile + 1, 3 * tile + 5, 100003, (std::size_t(1) << 18) + 3}))
  {
    const std::vector<KeyT> keys = strata_test::random_vector<KeyT>(n, salt++);
    check_both(topk_test::folded(keys, 3), "three values");
    check_both(std::vector<KeyT>(n, keys[0]), "all equal");
  }
}

TEST_CASE("DeviceTopK pairs: values through a counting iterator", "[device][topk]")
{
  const std::size_t n           = 300007;
  const std::vector<float> keys = strata_test::random_vector<float>(n, 0x7c17);
  const device_buffer<float> d_keys(keys);
  for (const std::size_t k : {std::size_t(1), std::size_t(4097), std::size_t(65536)})
  {
    for (const strata::topk_order order : {strata::topk_order::unsorted, strata::topk_order::sorted})
    {
      CAPTURE(k, order == strata::topk_order::sorted);
      device_buffer<float> d_out(k);
      device_buffer<std::uint32_t> d_values(k);
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceTopK::MaxPairs(temp, bytes, d_keys.data(), d_out.data(),
                                            thrust::counting_iterator<std::uint32_t>(0), d_values.data(),
                                            static_cast<int>(n), static_cast<int>(k), order, s);
      });
      const std::vector<std::uint32_t> expected = expected_positions<true>(keys, k, order);
      STRATA_REQUIRE_EQUAL_VECTORS(d_values.download(), expected);
      STRATA_REQUIRE_EQUAL_VECTORS(topk_test::key_bits(d_out.download()),
                                   topk_test::key_bits(topk_test::gather(keys, expected)));
    }
  }
}
