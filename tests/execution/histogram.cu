// strata::histogram_even and histogram_range against a host count: uint8, int32 and float items over the sizes, items
// inside, at and outside the bounds, uneven levels, counters of int and unsigned long long in a device_vector and in
// a universal_vector (read on the host right after the call), a fancy input; and bad arguments refused naming the
// algorithm, the counters untouched.
#include "support.cuh"

#include "test_util.cuh"

#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/universal_vector.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace
{
const std::vector<std::size_t>& histogram_sizes()
{
  static const std::vector<std::size_t> s = {0, 1, 1000, 4099, 100003, (std::size_t(1) << 20) + 3};
  return s;
}

// The host's count of `items` in num_bins even bins of [lower, upper), in double (exact for these items and bounds).
template <typename T, typename CounterT>
std::vector<CounterT> host_even(const std::vector<T>& items, int num_bins, double lower, double upper)
{
  std::vector<CounterT> counts(static_cast<std::size_t>(num_bins), 0);
  for (const T& x : items)
  {
    const double v = static_cast<double>(x);
    if (v >= lower && v < upper)
    {
      // Multiplied before dividing: integer items and bounds give exact quotients of integers, floored right.
      const int bin = std::min(num_bins - 1, static_cast<int>((v - lower) * num_bins / (upper - lower)));
      ++counts[static_cast<std::size_t>(bin)];
    }
  }
  return counts;
}

template <typename T, typename CounterT>
std::vector<CounterT> host_range(const std::vector<T>& items, const std::vector<T>& levels)
{
  std::vector<CounterT> counts(levels.size() - 1, 0);
  for (const T& x : items)
  {
    const auto it = std::upper_bound(levels.begin(), levels.end(), x);
    if (it != levels.begin() && it != levels.end())
    {
      ++counts[static_cast<std::size_t>(it - levels.begin() - 1)];
    }
  }
  return counts;
}
} // namespace

TEST_CASE("strata::histogram_even counts as the host does", "[execution][histogram]")
{
  for (const std::size_t n : histogram_sizes())
  {
    CAPTURE(n);
    SECTION("uint8 items, 256 bins of [0, 256), int counters")
    {
      const std::vector<std::uint8_t> h           = strata_test::random_vector<std::uint8_t>(n, n + 1);
      const thrust::device_vector<std::uint8_t> d = exec_test::upload(h);
      thrust::device_vector<int> counts(256, -1);
      const auto end = strata::histogram_even(strata::par, d.begin(), d.end(), counts.begin(), 256, 0, 256);
      CHECK(end == counts.end());
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(counts), (host_even<std::uint8_t, int>(h, 256, 0, 256)));
    }
    SECTION("int32 items from -60 to 60, 10 bins of [-40, 40): some below, some above, some at the bounds")
    {
      std::vector<int> h = strata_test::random_vector<int>(n, n + 2);
      for (int& x : h)
      {
        x = ((x % 121) + 121) % 121 - 60;
      }
      const thrust::device_vector<int> d = exec_test::upload(h);
      thrust::device_vector<unsigned long long> counts(10);
      strata::histogram_even(strata::par, d.begin(), d.end(), counts.begin(), 10, -40, 40);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(counts),
                                   (host_even<int, unsigned long long>(h, 10, -40.0, 40.0)));
    }
    SECTION("float items (multiples of 1/64), 1024 bins of [-0.5, 0.5), counters in a universal_vector")
    {
      std::vector<float> h = strata_test::random_vector<float>(n, n + 3);
      for (float& x : h)
      {
        x = static_cast<float>(static_cast<long long>(x * 64.0f) % 96) / 64.0f; // -1.5 .. 1.5
      }
      const thrust::device_vector<float> d = exec_test::upload(h);
      thrust::universal_vector<int> counts(1024, -1);
      strata::histogram_even(strata::par, d.begin(), d.end(), counts.begin(), 1024, -0.5f, 0.5f);
      const std::vector<int> got(counts.begin(), counts.end()); // read on the host at once: the call has finished
      STRATA_REQUIRE_EQUAL_VECTORS(got, (host_even<float, int>(h, 1024, -0.5, 0.5)));
    }
  }
}

TEST_CASE("strata::histogram_range counts between uneven levels, from a fancy input", "[execution][histogram]")
{
  const std::vector<int> levels             = {-5, 0, 1, 7, 100, 101, 4000};
  const thrust::device_vector<int> d_levels = exec_test::upload(levels);
  for (const std::size_t n : histogram_sizes())
  {
    CAPTURE(n);
    std::vector<int> h(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      h[i] = static_cast<int>((i * 2654435761u) % 4200) - 10; // -10 .. 4189: below, inside, at and above the levels
    }
    const thrust::device_vector<int> d = exec_test::upload(h);
    thrust::device_vector<int> counts(levels.size() - 1, -1);
    const auto end =
      strata::histogram_range(strata::par, d.begin(), d.end(), counts.begin(), d_levels.begin(), d_levels.end());
    CHECK(end == counts.end());
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(counts), (host_range<int, int>(h, levels)));
  }
  // The items of a counting iterator: 0 .. 9999.
  thrust::device_vector<int> counts(levels.size() - 1, -1);
  strata::histogram_range(strata::par, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(10000),
                          counts.begin(), d_levels.begin(), d_levels.end());
  std::vector<int> items(10000);
  for (int i = 0; i < 10000; ++i)
  {
    items[static_cast<std::size_t>(i)] = i;
  }
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(counts), (host_range<int, int>(items, levels)));
}

TEST_CASE("strata::histogram_even and histogram_range refuse bad arguments and write nothing",
          "[execution][histogram][errors]")
{
  const thrust::device_vector<int> d = exec_test::upload(strata_test::random_vector<int>(1000, 4));
  thrust::device_vector<int> counts(8, -7);
  const thrust::device_vector<int> one_level(1, 3);
  exec_test::require_cuda_error(
    [&] {
      strata::histogram_even(strata::par, d.begin(), d.end(), counts.begin(), 0, 0, 10);
    },
    cudaErrorInvalidValue, "strata::histogram_even");
  exec_test::require_cuda_error(
    [&] {
      strata::histogram_even(strata::par, d.begin() + 10, d.begin(), counts.begin(), 8, 0, 10);
    },
    cudaErrorInvalidValue, "strata::histogram_even");
  exec_test::require_cuda_error(
    [&] {
      strata::histogram_range(strata::par, d.begin(), d.end(), counts.begin(), one_level.begin(), one_level.end());
    },
    cudaErrorInvalidValue, "strata::histogram_range");
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(counts), std::vector<int>(8, -7));
}
