// The frontend's searches and orderings that Thrust has no counterpart of, against std's: strata::adjacent_find
// (first equal neighbours, and under a predicate), strata::partial_sort and strata::nth_element (std's
// postconditions, and the permutation kept), strata::top_k (std::stable_sort's first k, ties at the first positions),
// over sizes with matches at the ends, in the middle and nowhere, keys the radix sort takes and a comparator only the
// merge sort gives; and middles, nths and ks outside the range refused.
#include "support.cuh"

#include "test_util.cuh"

#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace
{
const std::vector<std::size_t>& search_sizes()
{
  static const std::vector<std::size_t> s = {0, 1, 2, 3, 1000, 4099, 100003, (std::size_t(1) << 20) + 3};
  return s;
}

// Orders by the low 8 bits only (the merge sort's path: no radix order), ties by nothing.
struct by_low_byte
{
  __host__ __device__ bool operator()(std::uint32_t a, std::uint32_t b) const
  {
    return (a & 0xffu) < (b & 0xffu);
  }
};

// a > b + 1000: the first steep fall.
struct steep_fall
{
  __host__ __device__ bool operator()(int a, int b) const
  {
    return a > b + 1000;
  }
};
} // namespace

TEST_CASE("strata::adjacent_find finds the first equal neighbours, as std::adjacent_find", "[execution][search]")
{
  for (const std::size_t n : search_sizes())
  {
    // Distinct neighbours everywhere, then one equal pair at `at`.
    std::vector<int> base(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      base[i] = static_cast<int>((i * 7919) % 1000003) * 3 - 1500000;
    }
    for (const std::size_t at : {std::size_t(0), n / 2, n < 2 ? 0 : n - 2, n})
    {
      CAPTURE(n, at);
      std::vector<int> h = base;
      if (at + 1 < n)
      {
        h[at + 1] = h[at];
      }
      const thrust::device_vector<int> d = exec_test::upload(h);
      const auto found                   = strata::adjacent_find(strata::par, d.begin(), d.end());
      CHECK(found - d.begin() == std::adjacent_find(h.begin(), h.end()) - h.begin());
      const auto fall = strata::adjacent_find(strata::par, d.begin(), d.end(), steep_fall{});
      CHECK(fall - d.begin() == std::adjacent_find(h.begin(), h.end(), steep_fall{}) - h.begin());
    }
  }
}

TEMPLATE_TEST_CASE("strata::partial_sort and nth_element meet std's postconditions", "[execution][search]",
                   std::int32_t, float, std::uint64_t)
{
  using T = TestType;
  for (const std::size_t n : search_sizes())
  {
    const std::vector<T> h = strata_test::random_vector<T>(n, n + 41);
    std::vector<T> sorted  = h;
    std::sort(sorted.begin(), sorted.end());
    for (const std::size_t k : {std::size_t(0), std::min<std::size_t>(1, n), n / 3, n == 0 ? 0 : n - 1, n})
    {
      CAPTURE(n, k);
      thrust::device_vector<T> d = exec_test::upload(h);
      strata::partial_sort(strata::par, d.begin(), d.begin() + static_cast<std::ptrdiff_t>(k), d.end());
      std::vector<T> got = exec_test::download(d);
      CHECK(std::equal(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(k), sorted.begin()));
      std::sort(got.begin(), got.end()); // the rest: the other items, in any order
      STRATA_REQUIRE_EQUAL_VECTORS(got, sorted);

      exec_test::upload_into(d, h);
      strata::nth_element(strata::par, d.begin(), d.begin() + static_cast<std::ptrdiff_t>(k), d.end());
      got = exec_test::download(d);
      if (k < n)
      {
        CHECK(got[k] == sorted[k]);
        CHECK(std::all_of(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(k), [&](const T& x) {
          return !(got[k] < x);
        }));
        CHECK(std::all_of(got.begin() + static_cast<std::ptrdiff_t>(k), got.end(), [&](const T& x) {
          return !(x < got[k]);
        }));
      }
      std::sort(got.begin(), got.end());
      STRATA_REQUIRE_EQUAL_VECTORS(got, sorted);
    }
  }
}

TEST_CASE("strata::partial_sort and nth_element under a comparator of the merge sort, and greater",
          "[execution][search]")
{
  const std::size_t n                 = 70001;
  const std::vector<std::uint32_t> h  = strata_test::random_vector<std::uint32_t>(n, 5);
  std::vector<std::uint32_t> expected = h;
  std::stable_sort(expected.begin(), expected.end(), by_low_byte{});
  thrust::device_vector<std::uint32_t> d = exec_test::upload(h);
  strata::partial_sort(strata::par, d.begin(), d.begin() + 500, d.end(), by_low_byte{});
  std::vector<std::uint32_t> got = exec_test::download(d);
  for (std::size_t i = 0; i < 500; ++i)
  {
    REQUIRE((got[i] & 0xffu) == (expected[i] & 0xffu)); // equal under the order; which of equals is not promised
  }
  std::vector<std::uint32_t> all = got, sorted = h;
  std::sort(all.begin(), all.end());
  std::sort(sorted.begin(), sorted.end());
  STRATA_REQUIRE_EQUAL_VECTORS(all, sorted);

  exec_test::upload_into(d, h);
  strata::nth_element(strata::par, d.begin(), d.begin() + 1234, d.end(), thrust::greater<std::uint32_t>{});
  got                                   = exec_test::download(d);
  std::vector<std::uint32_t> descending = h;
  std::sort(descending.begin(), descending.end(), std::greater<std::uint32_t>{});
  CHECK(got[1234] == descending[1234]);
  CHECK(std::all_of(got.begin(), got.begin() + 1234, [&](std::uint32_t x) {
    return x >= got[1234];
  }));
  CHECK(std::all_of(got.begin() + 1234, got.end(), [&](std::uint32_t x) {
    return x <= got[1234];
  }));
}

TEST_CASE("strata::partial_sort and nth_element refuse a middle outside the range and touch nothing",
          "[execution][search][errors]")
{
  const std::vector<int> h     = strata_test::random_vector<int>(1000, 9);
  thrust::device_vector<int> d = exec_test::upload(h);
  exec_test::require_cuda_error(
    [&] {
      strata::partial_sort(strata::par, d.begin() + 10, d.begin(), d.end());
    },
    cudaErrorInvalidValue, "strata::partial_sort");
  exec_test::require_cuda_error(
    [&] {
      strata::nth_element(strata::par, d.begin(), d.end(), d.begin() + 10);
    },
    cudaErrorInvalidValue, "strata::nth_element");
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), h);
}

namespace
{
// Key i of a folded sequence: few distinct values, so the k-th largest ties and the first positions must win.
struct folded
{
  __host__ __device__ int operator()(int i) const
  {
    return static_cast<int>((static_cast<unsigned>(i) * 2654435761u) >> 26) - 16; // -16 .. 47
  }
};
} // namespace

TEMPLATE_TEST_CASE("strata::top_k gives std::stable_sort's first k, largest or smallest", "[execution][search]",
                   std::int32_t, float, std::uint64_t)
{
  using T = TestType;
  for (const std::size_t n : search_sizes())
  {
    const std::vector<T> h    = strata_test::random_vector<T>(n, n + 77);
    std::vector<T> descending = h, ascending = h;
    std::stable_sort(descending.begin(), descending.end(), std::greater<T>{});
    std::stable_sort(ascending.begin(), ascending.end());
    const thrust::device_vector<T> d = exec_test::upload(h);
    for (const std::size_t k : {std::size_t(0), std::size_t(1), std::size_t(100), n})
    {
      if (k > n)
      {
        continue;
      }
      CAPTURE(n, k);
      thrust::device_vector<T> top(k + 1, T(7));
      const auto end = strata::top_k(strata::par, d.begin(), d.end(), top.begin(), static_cast<std::ptrdiff_t>(k));
      CHECK(end - top.begin() == static_cast<std::ptrdiff_t>(k));
      std::vector<T> got = exec_test::download(top);
      CHECK(got[k] == T(7)); // nothing past the k written
      got.resize(k);
      STRATA_REQUIRE_EQUAL_VECTORS(got, std::vector<T>(descending.begin(), descending.begin() + k));
      strata::top_k(strata::par, d.begin(), d.end(), top.begin(), static_cast<std::ptrdiff_t>(k), thrust::less<T>{});
      got = exec_test::download(top);
      got.resize(k);
      STRATA_REQUIRE_EQUAL_VECTORS(got, std::vector<T>(ascending.begin(), ascending.begin() + k));
    }
  }
}

TEST_CASE("strata::top_k of a fancy input with ties, and bad ks refused", "[execution][search]")
{
  const int n      = 100003;
  const auto first = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), folded{});
  std::vector<int> h(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
  {
    h[static_cast<std::size_t>(i)] = folded{}(i);
  }
  std::stable_sort(h.begin(), h.end(), std::greater<int>{});
  thrust::device_vector<int> top(5000);
  strata::top_k(strata::par, first, first + n, top.begin(), 5000);
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(top), std::vector<int>(h.begin(), h.begin() + 5000));
  for (const std::ptrdiff_t bad : {std::ptrdiff_t(-1), std::ptrdiff_t(n) + 1})
  {
    exec_test::require_cuda_error(
      [&] {
        strata::top_k(strata::par, first, first + n, top.begin(), bad);
      },
      cudaErrorInvalidValue, "strata::top_k");
  }
}
