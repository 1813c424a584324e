// strata::count, count_if, all_of, any_of, none_of, equal and inner_product against std:: on the host, over the size
// classes, value types whose code paths differ, and inputs behind raw pointers, thrust::device_ptr, device_vector
// iterators and Thrust's fancy iterators. Every call must give back all the temporary storage it takes, on the
// policy's stream, and must see data copied in on that stream just before it.
#include "support.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>

#include <cuda/std/functional>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

namespace
{
using exec_test::add_pair;

using strata_test::custom_t;

// threshold < x.
template <typename T>
struct above
{
  T threshold;
  __host__ __device__ bool operator()(const T& x) const
  {
    return threshold < x;
  }
};

// lo <= x <= hi.
template <typename T>
struct in_range
{
  T lo;
  T hi;
  __host__ __device__ bool operator()(const T& x) const
  {
    return !(x < lo) && !(hi < x);
  }
};

// Whether a and b lie on the same side of the threshold.
template <typename T>
struct same_side
{
  T threshold;
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return (threshold < a) == (threshold < b);
  }
};

// The value at rank `k` of `h` in sorted order (h not empty).
template <typename T>
T nth_smallest(std::vector<T> h, std::size_t k)
{
  std::nth_element(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(k), h.end());
  return h[k];
}
} // namespace

TEMPLATE_TEST_CASE("strata::count and count_if match std::count and std::count_if", "[execution][reductions][count]",
                   EXEC_TEST_FEW_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  for (const std::size_t n : exec_test::sizes(exec_test::reduce_tile<T>(), 201))
  {
    CAPTURE(n);
    std::vector<T> h = strata_test::random_vector<T>(n, 3 * n + 5);
    // Plant copies of one value (int8 has many by chance; the other types would have none).
    if (n > 0)
    {
      for (std::size_t i = 0; i < n; i += 1 + i % 97)
      {
        h[i] = h[n / 2];
      }
    }
    const T value              = n > 0 ? h[n / 2] : T{};
    const T threshold          = n > 0 ? nth_smallest(h, n / 3) : T{};
    const auto want_count      = std::count(h.begin(), h.end(), value);
    const auto want_count_if   = std::count_if(h.begin(), h.end(), above<T>{threshold});
    thrust::device_vector<T> d = exec_test::upload(h);
    exec_test::for_each_input_kind(d, [&](auto first, auto last) {
      stream.alloc.log().clear();
      const auto c = strata::count(stream.policy, first, last, value);
      static_assert(std::is_same<decltype(c), const std::ptrdiff_t>::value, "count returns the difference type");
      CHECK(c == want_count);
      CHECK(strata::count_if(stream.policy, first, last, above<T>{threshold}) == want_count_if);
      stream.require_clean();
    });
  }
}

TEMPLATE_TEST_CASE("strata::all_of, any_of and none_of match std:: for all-true, all-false and mixed predicates",
                   "[execution][reductions][logical]", EXEC_TEST_FEW_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  for (const std::size_t n : exec_test::sizes(exec_test::reduce_tile<T>(), 203))
  {
    CAPTURE(n);
    const std::vector<T> h              = strata_test::random_vector<T>(n, 5 * n + 7);
    std::vector<in_range<T>> predicates = {{T{}, T{}}};
    if (n > 0)
    {
      const T smallest = *std::min_element(h.begin(), h.end());
      const T largest  = *std::max_element(h.begin(), h.end());
      const T median   = nth_smallest(h, n / 2);
      // Every item; none (for n > 1); the upper half; the largest items only.
      predicates = {{smallest, largest}, {largest, smallest}, {median, largest}, {largest, largest}};
    }
    thrust::device_vector<T> d = exec_test::upload(h);
    for (const in_range<T>& pred : predicates)
    {
      CAPTURE(pred.lo, pred.hi);
      const bool all  = std::all_of(h.begin(), h.end(), pred);
      const bool any  = std::any_of(h.begin(), h.end(), pred);
      const bool none = std::none_of(h.begin(), h.end(), pred);
      exec_test::for_each_input_kind(d, [&](auto first, auto last) {
        stream.alloc.log().clear();
        CHECK(strata::all_of(stream.policy, first, last, pred) == all);
        CHECK(strata::any_of(stream.policy, first, last, pred) == any);
        CHECK(strata::none_of(stream.policy, first, last, pred) == none);
        stream.require_clean();
      });
    }
  }
}

TEMPLATE_TEST_CASE("strata::equal matches std::equal for equal ranges and a difference anywhere",
                   "[execution][reductions][equal]", EXEC_TEST_FEW_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  for (const std::size_t n : exec_test::sizes(exec_test::reduce_tile<T>(), 207))
  {
    CAPTURE(n);
    const std::vector<T> a       = strata_test::random_vector<T>(n, 7 * n + 11);
    thrust::device_vector<T> d_a = exec_test::upload(a);
    const T threshold            = n > 0 ? nth_smallest(a, n / 2) : T{};
    // The same items; then one item changed at the start, the middle and the end in turn.
    std::vector<std::size_t> changed = {n};
    if (n > 0)
    {
      changed.insert(changed.end(), {std::size_t(0), n / 2, n - 1});
    }
    for (const std::size_t at : changed)
    {
      CAPTURE(at);
      std::vector<T> b = a;
      if (at < n)
      {
        b[at] = b[at] + exec_test::one<T>();
      }
      thrust::device_vector<T> d_b = exec_test::upload(b);
      const bool same              = std::equal(a.begin(), a.end(), b.begin());
      const bool same_sides        = std::equal(a.begin(), a.end(), b.begin(), same_side<T>{threshold});
      REQUIRE(same == (at == n));
      exec_test::for_each_input_kind(d_a, [&](auto first, auto last) {
        stream.alloc.log().clear();
        CHECK(strata::equal(stream.policy, first, last, d_b.begin()) == same);
        CHECK(strata::equal(stream.policy, first, last, thrust::raw_pointer_cast(d_b.data()), same_side<T>{threshold})
              == same_sides);
        CHECK(strata::equal(stream.policy, first, last, d_b.begin(), d_b.end()) == same);
        CHECK(strata::equal(stream.policy, first, last, d_b.begin(), d_b.end(), same_side<T>{threshold}) == same_sides);
        stream.require_clean();
      });
    }
    // The four-iterator form: ranges of different lengths are not equal, whatever their items.
    if (n > 0)
    {
      stream.alloc.log().clear();
      CHECK_FALSE(strata::equal(stream.policy, d_a.begin(), d_a.end(), d_a.begin(), d_a.end() - 1));
      CHECK_FALSE(
        strata::equal(stream.policy, d_a.begin(), d_a.end() - 1, d_a.begin(), d_a.end(), same_side<T>{threshold}));
      CHECK(stream.alloc.log().allocations() == 0);
    }
  }
}

TEMPLATE_TEST_CASE("strata::inner_product matches std::inner_product", "[execution][reductions][inner_product]",
                   EXEC_TEST_FEW_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  for (const std::size_t n : exec_test::sizes(exec_test::reduce_tile<T>(), 211))
  {
    CAPTURE(n);
    const std::vector<T> a       = strata_test::random_vector<T>(n, 11 * n + 13);
    const std::vector<T> b       = strata_test::random_vector<T>(n, 13 * n + 17);
    const T init                 = exec_test::random_init<T>(n + 19);
    thrust::device_vector<T> d_a = exec_test::upload(a);
    thrust::device_vector<T> d_b = exec_test::upload(b);
    // init + sum of (a + b): exact for every type (wrapping for integers); the form with both operators given.
    const T sums =
      std::inner_product(a.begin(), a.end(), b.begin(), init, exec_test::host_sum{}, exec_test::host_sum{});
    exec_test::for_each_input_kind(d_a, [&](auto first, auto last) {
      stream.alloc.log().clear();
      CHECK(strata::inner_product(stream.policy, first, last, d_b.begin(), init, cuda::std::plus<>{}, add_pair{})
            == sums);
      stream.require_clean();
    });
    if constexpr (std::is_integral<T>::value)
    {
      // init + sum of a * b, wrapping modulo 2^bits (narrow products are ints, narrowed once at the end).
      std::uint64_t wide = static_cast<std::uint64_t>(init);
      for (std::size_t i = 0; i < n; ++i)
      {
        wide += static_cast<std::uint64_t>(a[i]) * static_cast<std::uint64_t>(b[i]);
      }
      stream.alloc.log().clear();
      CHECK(strata::inner_product(stream.policy, d_a.begin(), d_a.end(), thrust::raw_pointer_cast(d_b.data()), init)
            == static_cast<T>(wide));
      stream.require_clean();
    }
  }
}

namespace
{
struct is_multiple_of_7
{
  __host__ __device__ bool operator()(long long x) const
  {
    return x % 7 == 0;
  }
};
struct halve
{
  __host__ __device__ long long operator()(long long x) const
  {
    return x / 2;
  }
};
struct first_equals_second
{
  __host__ __device__ bool operator()(const thrust::tuple<long long, long long>& t) const
  {
    return thrust::get<0>(t) == thrust::get<1>(t);
  }
};
} // namespace

TEST_CASE("strata::count_if, all_of, equal and inner_product read Thrust's fancy iterators",
          "[execution][reductions][iterators]")
{
  exec_test::logged_stream stream;
  for (const std::size_t n : exec_test::sizes(exec_test::reduce_tile<long long>(), 213))
  {
    CAPTURE(n);
    const long long count = static_cast<long long>(n);
    stream.alloc.log().clear();
    const thrust::counting_iterator<long long> from_zero(0);
    const thrust::constant_iterator<long long> sevens(7);
    const auto halves = thrust::make_transform_iterator(from_zero, halve{});

    CHECK(strata::count_if(stream.policy, from_zero, from_zero + count, is_multiple_of_7{}) == (count + 6) / 7);
    CHECK(strata::count(stream.policy, halves, halves + count, 3LL)
          == std::min<long long>(2, std::max(0LL, count - 6)));
    CHECK(strata::all_of(stream.policy, sevens, sevens + count, is_multiple_of_7{}));
    CHECK(strata::none_of(stream.policy, sevens, sevens + count, halve{}) == (count == 0));
    CHECK(strata::equal(stream.policy, from_zero, from_zero + count, thrust::counting_iterator<long long>(0)));
    CHECK(strata::equal(stream.policy, halves, halves + count, from_zero) == (count <= 1));
    CHECK(strata::inner_product(stream.policy, from_zero, from_zero + count, sevens, 1LL)
          == 1 + 7 * (count * (count - 1) / 2));

    // A zip of a vector with itself and a permutation of it.
    const std::vector<long long> h = strata_test::random_vector<long long>(n, n + 23);
    std::vector<int> reversed(n);
    std::iota(reversed.rbegin(), reversed.rend(), 0);
    thrust::device_vector<long long> d = exec_test::upload(h);
    thrust::device_vector<int> d_map   = exec_test::upload(reversed);
    const auto backwards               = thrust::make_permutation_iterator(d.begin(), d_map.begin());
    const auto pairs                   = thrust::make_zip_iterator(d.begin(), backwards);
    const bool palindrome              = std::equal(h.begin(), h.end(), h.rbegin());
    CHECK(strata::all_of(stream.policy, pairs, pairs + count, first_equals_second{}) == palindrome);
    CHECK(strata::equal(stream.policy, backwards, backwards + count, d.begin()) == palindrome);
    CHECK(strata::count_if(stream.policy, pairs, pairs + count, first_equals_second{})
          == static_cast<long long>(
            std::inner_product(h.begin(), h.end(), h.rbegin(), std::size_t(0), std::plus<>{}, std::equal_to<>{})));
    stream.require_clean();
  }
}

TEST_CASE("strata::count_if, all_of, any_of, none_of, equal and inner_product see their stream's earlier work",
          "[execution][reductions][stream]")
{
  // The real items have one planted smallest value (-2^25, at n/3) and one planted largest (2^25, at 2n/3); the decoy
  // a kernel on another stream would see has neither. The real items are copied in behind a 20 ms gate on the
  // policy's stream, so every answer below differs between the two.
  exec_test::logged_stream stream;
  const std::size_t n              = 1000003;
  std::vector<int> h               = strata_test::random_vector<int>(n, 29);
  std::vector<int> decoy           = h;
  h[n / 3]                         = -(1 << 25);
  h[2 * n / 3]                     = 1 << 25;
  decoy[n / 3]                     = 1;
  decoy[2 * n / 3]                 = 1;
  thrust::device_vector<int> real  = exec_test::upload(h);
  thrust::device_vector<int> input = exec_test::upload(decoy);
  const std::vector<int> ones(n, 1);
  thrust::device_vector<int> d_ones = exec_test::upload(ones);

  auto fresh = [&] {
    input = exec_test::upload(decoy);
    stream.delay(std::chrono::milliseconds(20));
    stream.copy(input, real);
    stream.alloc.log().clear();
  };
  const above<int> big{1 << 24};
  const above<int> not_tiny{-(1 << 24)};
  fresh();
  CHECK(strata::count(stream.policy, input.begin(), input.end(), -(1 << 25)) == 1);
  fresh();
  CHECK(strata::count_if(stream.policy, input.begin(), input.end(), big) == 1);
  fresh();
  CHECK_FALSE(strata::all_of(stream.policy, input.begin(), input.end(), not_tiny));
  fresh();
  CHECK(strata::any_of(stream.policy, input.begin(), input.end(), big));
  fresh();
  CHECK_FALSE(strata::none_of(stream.policy, input.begin(), input.end(), big));
  fresh();
  CHECK(strata::equal(stream.policy, input.begin(), input.end(), real.begin()));
  fresh();
  const long long sum = std::accumulate(h.begin(), h.end(), 0LL);
  CHECK(strata::inner_product(stream.policy, input.begin(), input.end(), d_ones.begin(), 0LL) == sum);
  stream.require_clean();
}
