// strata::transform_inclusive_scan and transform_exclusive_scan against std:: on the host in std's and Thrust's
// argument orders (with and without init), sums and a non-commutative matrix product; and the scans over Thrust's
// fancy iterators (counting, constant, transform, permutation, zip) and into a discard_iterator. Every call returns
// the output's end, gives back the temporary storage it takes on the policy's stream, and returns before its kernels
// run behind a gate on that stream.
#include "support.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>

#include <cuda/std/functional>

#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
using exec_test::twice;
using strata_test::custom_t;
using strata_test::mat2x2;

using strata_test::mat_mul;

// x + x on the host, wrapping in T.
struct host_twice
{
  template <typename T>
  T operator()(const T& x) const
  {
    return exec_test::host_sum{}(x, x);
  }
};

// The transpose: a unary operator on matrices whose results are still multiplied in order.
struct transpose
{
  __host__ __device__ mat2x2 operator()(const mat2x2& m) const
  {
    return mat2x2{m.m00, m.m10, m.m01, m.m11};
  }
};

template <typename T>
using twice_accum_t = std::decay_t<decltype(std::declval<T>() + std::declval<T>())>;

} // namespace

TEMPLATE_TEST_CASE("strata::transform_inclusive_scan and transform_exclusive_scan match std:: in both argument orders",
                   "[execution][scan][transform_scan]", EXEC_TEST_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  thrust::device_vector<T> out;
  for (const std::size_t n : exec_test::sizes(exec_test::scan_tile<twice_accum_t<T>>(), 501))
  {
    CAPTURE(n);
    const std::vector<T> h = strata_test::random_vector<T>(n, 43 * n + 1);
    const T init           = exec_test::random_init<T>(n + 3);
    std::vector<T> inclusive(n), inclusive_init(n), exclusive(n);
    const exec_test::host_sum sum{};
    std::transform_inclusive_scan(h.begin(), h.end(), inclusive.begin(), sum, host_twice{});
    std::transform_inclusive_scan(h.begin(), h.end(), inclusive_init.begin(), sum, host_twice{}, init);
    std::transform_exclusive_scan(h.begin(), h.end(), exclusive.begin(), init, sum, host_twice{});
    thrust::device_vector<T> d = exec_test::upload(h);
    out.resize(n);
    const cuda::std::plus<> plus{};

    exec_test::for_each_input_kind(d, [&](auto first, auto last) {
      const auto d_first = exec_test::output_like(first, out);
      stream.alloc.log().clear();
      exec_test::poison(out);
      CHECK(strata::transform_inclusive_scan(stream.policy, first, last, d_first, plus, twice{}) == d_first + n);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), inclusive);
      exec_test::poison(out);
      CHECK(strata::transform_inclusive_scan(stream.policy, first, last, d_first, twice{}, plus) == d_first + n);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), inclusive);
      exec_test::poison(out);
      CHECK(strata::transform_inclusive_scan(stream.policy, first, last, d_first, plus, twice{}, init) == d_first + n);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), inclusive_init);
      exec_test::poison(out);
      CHECK(strata::transform_inclusive_scan(stream.policy, first, last, d_first, twice{}, init, plus) == d_first + n);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), inclusive_init);
      exec_test::poison(out);
      CHECK(strata::transform_exclusive_scan(stream.policy, first, last, d_first, init, plus, twice{}) == d_first + n);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), exclusive);
      exec_test::poison(out);
      CHECK(strata::transform_exclusive_scan(stream.policy, first, last, d_first, twice{}, init, plus) == d_first + n);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), exclusive);
      stream.require_clean();
    });
  }
}

TEST_CASE("strata::transform_inclusive_scan and transform_exclusive_scan keep the order of matrix products",
          "[execution][scan][transform_scan][noncommutative]")
{
  exec_test::logged_stream stream;
  for (const std::size_t n : exec_test::sizes(exec_test::scan_tile<mat2x2, mat_mul>(), 503))
  {
    CAPTURE(n);
    const std::vector<mat2x2> h = strata_test::random_vector<mat2x2>(n, 47 * n + 2);
    const mat2x2 init           = exec_test::random_init<mat2x2>(n + 5);
    std::vector<mat2x2> inclusive(n), exclusive(n);
    std::transform_inclusive_scan(h.begin(), h.end(), inclusive.begin(), mat_mul{}, transpose{}, init);
    std::transform_exclusive_scan(h.begin(), h.end(), exclusive.begin(), init, mat_mul{}, transpose{});
    stream.alloc.log().clear();
    {
      INFO("transform_inclusive_scan (std's order, with init), behind a gate");
      exec_test::check_behind_gate(stream, h, inclusive, [&](auto first, auto last, auto out) {
        CHECK(strata::transform_inclusive_scan(stream.policy, first, last, out, mat_mul{}, transpose{}, init)
              == out + n);
      });
    }
    {
      INFO("transform_exclusive_scan (Thrust's order), behind a gate");
      exec_test::check_behind_gate(stream, h, exclusive, [&](auto first, auto last, auto out) {
        CHECK(strata::transform_exclusive_scan(stream.policy, first, last, out, transpose{}, init, mat_mul{})
              == out + n);
      });
    }
    stream.require_clean();
  }
}

namespace
{
struct square_mod_97
{
  __host__ __device__ long long operator()(long long i) const
  {
    return (i * i) % 97;
  }
};
struct pair_sum
{
  __host__ __device__ long long operator()(const thrust::tuple<long long, int>& t) const
  {
    return thrust::get<0>(t) + thrust::get<1>(t);
  }
};
} // namespace

TEST_CASE("strata::inclusive_scan and exclusive_scan read Thrust's fancy iterators and write a discard_iterator",
          "[execution][scan][iterators]")
{
  exec_test::logged_stream stream;
  thrust::device_vector<long long> out;
  for (const std::size_t n : exec_test::sizes(exec_test::scan_tile<long long>(), 505))
  {
    CAPTURE(n);
    const long long count = static_cast<long long>(n);
    out.resize(n);
    stream.alloc.log().clear();
    std::vector<long long> expected(n);

    const thrust::counting_iterator<long long> up(-11);
    std::iota(expected.begin(), expected.end(), -11LL);
    std::inclusive_scan(expected.begin(), expected.end(), expected.begin());
    exec_test::poison(out);
    CHECK(strata::inclusive_scan(stream.policy, up, up + count, out.begin()) == out.end());
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);

    const thrust::constant_iterator<long long> threes(3);
    for (std::size_t i = 0; i < n; ++i)
    {
      expected[i] = 5 + 3 * static_cast<long long>(i);
    }
    exec_test::poison(out);
    CHECK(strata::exclusive_scan(stream.policy, threes, threes + count, out.begin(), 5LL) == out.end());
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);

    const auto squares = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), square_mod_97{});
    for (std::size_t i = 0; i < n; ++i)
    {
      expected[i] = square_mod_97{}(static_cast<long long>(i));
    }
    std::inclusive_scan(expected.begin(), expected.end(), expected.begin(), strata_test::host_max{});
    exec_test::poison(out);
    CHECK(strata::inclusive_scan(stream.policy, squares, squares + count, out.begin(), cuda::maximum<>{}) == out.end());
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);

    // A permutation (the items backwards) and a zip of it with ints, through transform_inclusive_scan.
    const std::vector<long long> values = strata_test::random_vector<long long>(n, n + 7);
    const std::vector<int> ints         = strata_test::random_vector<int>(n, n + 9);
    std::vector<int> reversed(n);
    std::iota(reversed.rbegin(), reversed.rend(), 0);
    thrust::device_vector<long long> d_values = exec_test::upload(values);
    thrust::device_vector<int> d_ints         = exec_test::upload(ints);
    thrust::device_vector<int> d_map          = exec_test::upload(reversed);
    const auto backwards                      = thrust::make_permutation_iterator(d_values.begin(), d_map.begin());
    std::exclusive_scan(values.rbegin(), values.rend(), expected.begin(), 1LL);
    exec_test::poison(out);
    CHECK(strata::exclusive_scan(stream.policy, backwards, backwards + count, out.begin(), 1LL) == out.end());
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);

    const auto pairs = thrust::make_zip_iterator(backwards, d_ints.begin());
    for (std::size_t i = 0; i < n; ++i)
    {
      expected[i] = values[n - 1 - i] + ints[i];
    }
    std::inclusive_scan(expected.begin(), expected.end(), expected.begin());
    exec_test::poison(out);
    CHECK(strata::transform_inclusive_scan(stream.policy, pairs, pairs + count, out.begin(), cuda::std::plus<>{},
                                           pair_sum{})
          == out.end());
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);

    // A discard_iterator output: the scan runs, nothing is written, the returned end is n past the start.
    const auto nowhere = thrust::make_discard_iterator();
    CHECK(strata::inclusive_scan(stream.policy, up, up + count, nowhere) - nowhere == count);
    CHECK(strata::exclusive_scan(stream.policy, threes, threes + count, nowhere, 2LL) - nowhere == count);
    stream.sync();
    stream.require_clean();
  }
}

TEST_CASE("strata::transform scans of an empty range return d_first and write nothing", "[execution][scan][empty]")
{
  exec_test::logged_stream stream;
  thrust::device_vector<int> in(3, 1), out(3);
  exec_test::poison(out);
  const auto at = in.begin() + 1;
  CHECK(strata::transform_inclusive_scan(stream.policy, at, at, out.begin(), cuda::std::plus<>{}, twice{})
        == out.begin());
  CHECK(strata::transform_inclusive_scan(stream.policy, at, at, out.begin(), twice{}, 4, cuda::std::plus<>{})
        == out.begin());
  CHECK(strata::transform_exclusive_scan(stream.policy, at, at, out.begin(), 4, cuda::std::plus<>{}, twice{})
        == out.begin());
  stream.sync();
  CHECK(exec_test::all_poisoned(exec_test::download(out)));
  CHECK(stream.alloc.log().allocations() == 0);
  stream.require_clean();
}
