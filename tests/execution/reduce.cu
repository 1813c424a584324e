// strata::reduce, reduce_into and transform_reduce against std:: on the host: every overload (Thrust's argument order
// included), value types whose code paths differ, the size classes, inputs behind raw pointers, thrust::device_ptr,
// device_vector iterators and Thrust's fancy iterators. Every call takes its temporary storage from a logging
// allocator and must give all of it back on the policy's stream; host-value calls must see data copied in on the
// policy's stream just before them, and reduce_into must return before its kernels run (they wait behind a gate).
#include "support.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>

#include <cuda/functional>
#include <cuda/std/functional>

#include <chrono>
#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
using exec_test::add_pair;
using exec_test::twice;

using strata_test::custom_t;

// The host's transform_reduce for `twice`, with wrapping integer sums.
template <typename T>
T reference_twice_sum(const std::vector<T>& h, T init)
{
  return std::accumulate(h.begin(), h.end(), init, [](const T& acc, const T& x) {
    return exec_test::host_sum{}(acc, exec_test::host_sum{}(x, x));
  });
}

// Small nonzero integers (-4..4) as T: a second range whose products with the first keep floating-point sums exact.
template <typename T>
std::vector<T> small_factors(std::size_t n, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::uniform_int_distribution<int> d(1, 4);
  std::vector<T> v(n);
  for (auto& x : v)
  {
    const int m = d(rng);
    x           = static_cast<T>((rng() & 1) ? m : -m);
  }
  return v;
}

// init + sum of a[i] * b[i], as the device computes it: integers wrap modulo 2^bits of T (the products of narrow
// integers are ints, their sum is narrowed once, which gives the same bits).
template <typename T>
T reference_inner_product(const std::vector<T>& a, const std::vector<T>& b, T init)
{
  if constexpr (std::is_integral<T>::value)
  {
    std::uint64_t acc = static_cast<std::uint64_t>(init);
    for (std::size_t i = 0; i < a.size(); ++i)
    {
      acc += static_cast<std::uint64_t>(a[i]) * static_cast<std::uint64_t>(b[i]);
    }
    return static_cast<T>(acc);
  }
  else
  {
    return std::inner_product(a.begin(), a.end(), b.begin(), init);
  }
}

} // namespace

TEMPLATE_TEST_CASE("strata::reduce matches std::accumulate for every size class and input kind", "[execution][reduce]",
                   EXEC_TEST_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  for (const std::size_t n : exec_test::sizes(exec_test::reduce_tile<T>(), 101))
  {
    CAPTURE(n);
    const std::vector<T> h     = strata_test::random_vector<T>(n, 7 * n + 1);
    const T init               = exec_test::random_init<T>(n + 13);
    const T sum                = std::accumulate(h.begin(), h.end(), T{}, exec_test::host_sum{});
    const T sum_init           = std::accumulate(h.begin(), h.end(), init, exec_test::host_sum{});
    const T max_init           = std::accumulate(h.begin(), h.end(), init, strata_test::host_max{});
    thrust::device_vector<T> d = exec_test::upload(h);

    exec_test::for_each_input_kind(d, [&](auto first, auto last) {
      stream.alloc.log().clear();
      CHECK(strata::reduce(stream.policy, first, last) == sum);
      CHECK(strata::reduce(stream.policy, first, last, init) == sum_init);
      CHECK(strata::reduce(stream.policy, first, last, init, cuda::maximum<>{}) == max_init);
      if constexpr (std::is_integral<T>::value)
      {
        // The result has init's type, as std::reduce's: a long long init sums narrow items without wrapping.
        const long long wide = std::accumulate(h.begin(), h.end(), 5LL);
        const auto result    = strata::reduce(stream.policy, first, last, 5LL);
        static_assert(std::is_same<decltype(result), const long long>::value, "reduce returns init's type");
        CHECK(result == wide);
      }
      stream.require_clean();
      if (n == 0)
      {
        CHECK(stream.alloc.log().allocations() == 0);
      }
    });
  }
}

TEMPLATE_TEST_CASE("strata::reduce waits for its stream's earlier work, and only takes memory on it",
                   "[execution][reduce][stream]", std::int8_t, float, custom_t)
{
  using T = TestType;
  exec_test::logged_stream stream;
  for (const std::size_t n : {std::size_t(1), exec_test::reduce_tile<T>() + 1, std::size_t(1000003)})
  {
    CAPTURE(n);
    const std::vector<T> h         = strata_test::random_vector<T>(n, n + 3);
    thrust::device_vector<T> real  = exec_test::upload(h);
    thrust::device_vector<T> input = exec_test::upload(exec_test::decoy_of(h));
    // The real items reach `input` only behind a 20 ms gate on the policy's stream: a kernel on any other stream
    // (or a result read before the stream is done) sees the decoy, whose sum differs.
    stream.delay(std::chrono::milliseconds(20));
    stream.copy(input, real);
    stream.alloc.log().clear();
    const T result = strata::reduce(stream.policy, input.begin(), input.end());
    CHECK(result == std::accumulate(h.begin(), h.end(), T{}, exec_test::host_sum{}));
    stream.require_clean();
  }
}

TEMPLATE_TEST_CASE("strata::reduce_into writes init op items to device memory without waiting",
                   "[execution][reduce][reduce_into]", EXEC_TEST_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  thrust::device_vector<T> out(3);
  for (const std::size_t n : exec_test::sizes(exec_test::reduce_tile<T>(), 103))
  {
    CAPTURE(n);
    const std::vector<T> h        = strata_test::random_vector<T>(n, 11 * n + 2);
    const T init                  = exec_test::random_init<T>(n + 17);
    const std::vector<T> expected = {std::accumulate(h.begin(), h.end(), T{}, exec_test::host_sum{}),
                                     std::accumulate(h.begin(), h.end(), init, exec_test::host_sum{}),
                                     std::accumulate(h.begin(), h.end(), init, strata_test::host_min{})};
    thrust::device_vector<T> d    = exec_test::upload(h);
    exec_test::for_each_input_kind(d, [&](auto first, auto last) {
      exec_test::poison(out);
      stream.alloc.log().clear();
      // Behind a closed gate: the calls must return with nothing written (no waiting, no other stream).
      stream.close();
      strata::reduce_into(stream.policy, first, last, out.begin());
      strata::reduce_into(stream.policy, first, last, thrust::device_ptr<T>(thrust::raw_pointer_cast(out.data())) + 1,
                          init);
      T* const third = thrust::raw_pointer_cast(out.data()) + 2;
      strata::reduce_into(stream.policy, first, last, third, init, cuda::minimum<>{});
      CHECK(exec_test::all_poisoned(stream.peek(out)));
      stream.open();
      stream.sync();
      CHECK_FALSE(stream.timed_out());
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);
      stream.require_clean();
    });
  }
}

TEMPLATE_TEST_CASE("strata::transform_reduce matches std::transform_reduce in std's and Thrust's argument orders",
                   "[execution][reduce][transform_reduce]", EXEC_TEST_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  for (const std::size_t n : exec_test::sizes(exec_test::reduce_tile<T>(), 107))
  {
    CAPTURE(n);
    const std::vector<T> a       = strata_test::random_vector<T>(n, 13 * n + 3);
    const T init                 = exec_test::random_init<T>(n + 19);
    const T unary                = reference_twice_sum(a, init);
    thrust::device_vector<T> d_a = exec_test::upload(a);

    exec_test::for_each_input_kind(d_a, [&](auto first, auto last) {
      stream.alloc.log().clear();
      CHECK(strata::transform_reduce(stream.policy, first, last, init, cuda::std::plus<>{}, twice{}) == unary);
      CHECK(strata::transform_reduce(stream.policy, first, last, twice{}, init, cuda::std::plus<>{}) == unary);
      stream.require_clean();
    });

    if constexpr (std::is_arithmetic<T>::value)
    {
      const std::vector<T> b       = small_factors<T>(n, n + 23);
      thrust::device_vector<T> d_b = exec_test::upload(b);
      const T products             = reference_inner_product(a, b, init);
      T* const b_first             = thrust::raw_pointer_cast(d_b.data());
      exec_test::for_each_input_kind(d_a, [&](auto first, auto last) {
        stream.alloc.log().clear();
        CHECK(strata::transform_reduce(stream.policy, first, last, b_first, init) == products);
        CHECK(strata::transform_reduce(stream.policy, first, last, d_b.begin(), init, cuda::std::plus<>{},
                                       cuda::std::multiplies<>{})
              == products);
        stream.require_clean();
      });
    }
    else
    {
      const std::vector<T> b       = strata_test::random_vector<T>(n, n + 29);
      thrust::device_vector<T> d_b = exec_test::upload(b);
      T expected                   = init;
      for (std::size_t i = 0; i < n; ++i)
      {
        expected = expected + (a[i] + b[i]);
      }
      stream.alloc.log().clear();
      CHECK(strata::transform_reduce(stream.policy, d_a.begin(), d_a.end(), d_b.begin(), init, cuda::std::plus<>{},
                                     add_pair{})
            == expected);
      stream.require_clean();
    }
  }
}

namespace
{
struct cube_mod_1000
{
  __host__ __device__ long long operator()(long long i) const
  {
    return (i * i * i) % 1000;
  }
};

struct pair_difference
{
  __host__ __device__ long long operator()(const thrust::tuple<long long, int>& t) const
  {
    return thrust::get<0>(t) - thrust::get<1>(t);
  }
};
} // namespace

TEST_CASE("strata::reduce and reduce_into read Thrust's fancy iterators", "[execution][reduce][iterators]")
{
  exec_test::logged_stream stream;
  thrust::device_vector<long long> out(1);
  // `check(n)` for every size, each call's temporary storage given back on the stream.
  auto for_sizes = [&](auto check) {
    for (const std::size_t n : exec_test::sizes(exec_test::reduce_tile<long long>(), 109))
    {
      CAPTURE(n);
      stream.alloc.log().clear();
      check(n, static_cast<long long>(n));
      stream.require_clean();
    }
  };

  SECTION("counting_iterator")
  {
    for_sizes([&](std::size_t, long long count) {
      const thrust::counting_iterator<long long> first(-17);
      CHECK(strata::reduce(stream.policy, first, first + count) == count * (count - 1) / 2 - 17 * count);
      exec_test::poison(out);
      strata::reduce_into(stream.policy, first, first + count, out.begin(), 4LL);
      CHECK(exec_test::download(out)[0] == count * (count - 1) / 2 - 17 * count + 4);
    });
  }
  SECTION("constant_iterator")
  {
    for_sizes([&](std::size_t, long long count) {
      const thrust::constant_iterator<long long> first(-3);
      CHECK(strata::reduce(stream.policy, first, first + count, 1LL) == 1 - 3 * count);
    });
  }
  SECTION("transform_iterator")
  {
    for_sizes([&](std::size_t, long long count) {
      const auto first  = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), cube_mod_1000{});
      long long sum     = 0;
      long long largest = -1;
      for (long long i = 0; i < count; ++i)
      {
        sum += (i * i * i) % 1000;
        largest = std::max(largest, (i * i * i) % 1000);
      }
      CHECK(strata::reduce(stream.policy, first, first + count) == sum);
      CHECK(strata::reduce(stream.policy, first, first + count, -1LL, cuda::maximum<>{}) == largest);
    });
  }
  SECTION("zip_iterator, through transform_reduce")
  {
    for_sizes([&](std::size_t n, long long count) {
      const std::vector<long long> a       = strata_test::random_vector<long long>(n, n + 31);
      const std::vector<int> b             = strata_test::random_vector<int>(n, n + 37);
      thrust::device_vector<long long> d_a = exec_test::upload(a);
      thrust::device_vector<int> d_b       = exec_test::upload(b);
      const auto first                     = thrust::make_zip_iterator(d_a.begin(), d_b.begin());
      long long expected                   = 0;
      for (std::size_t i = 0; i < n; ++i)
      {
        expected += a[i] - b[i];
      }
      CHECK(strata::transform_reduce(stream.policy, first, first + count, 0LL, cuda::std::plus<>{}, pair_difference{})
            == expected);
    });
  }
  SECTION("permutation_iterator")
  {
    for_sizes([&](std::size_t n, long long count) {
      const std::vector<long long> values = strata_test::random_vector<long long>(n + 5, n + 41);
      std::vector<int> map(n);
      std::mt19937_64 rng = strata_test::make_rng(n + 43);
      std::uniform_int_distribution<int> pick(0, static_cast<int>(n + 4));
      long long expected = 0;
      for (auto& m : map)
      {
        m = pick(rng);
        expected += values[static_cast<std::size_t>(m)];
      }
      thrust::device_vector<long long> d_values = exec_test::upload(values);
      thrust::device_vector<int> d_map          = exec_test::upload(map);
      const auto first                          = thrust::make_permutation_iterator(d_values.begin(), d_map.begin());
      CHECK(strata::reduce(stream.policy, first, first + count) == expected);
    });
  }
}

TEST_CASE("strata::reduce family: empty ranges return init without touching the device", "[execution][reduce][empty]")
{
  exec_test::logged_stream stream;
  int* const null = nullptr;
  // Behind a closed gate (that gives up after 2 s): a call that enqueued work and waited for it would return only
  // once the gate timed out.
  stream.close(std::chrono::seconds(2));
  CHECK(strata::reduce(stream.policy, null, null) == 0);
  CHECK(strata::reduce(stream.policy, null, null, 42) == 42);
  CHECK(strata::reduce(stream.policy, null, null, 42, cuda::maximum<>{}) == 42);
  CHECK(strata::transform_reduce(stream.policy, null, null, 7, cuda::std::plus<>{}, twice{}) == 7);
  CHECK(strata::transform_reduce(stream.policy, null, null, twice{}, 7, cuda::std::plus<>{}) == 7);
  CHECK(strata::transform_reduce(stream.policy, null, null, null, 9) == 9);
  stream.open();
  stream.sync();
  CHECK_FALSE(stream.timed_out());
  CHECK(stream.alloc.log().allocations() == 0);

  // reduce_into of no items writes init (DeviceReduce's empty result), and nothing else.
  thrust::device_vector<int> out(2);
  exec_test::poison(out);
  strata::reduce_into(stream.policy, null, null, out.begin(), 42);
  stream.sync();
  const std::vector<int> written = exec_test::download(out);
  CHECK(written[0] == 42);
  CHECK(exec_test::all_poisoned(std::vector<int>{written[1]}));
  stream.require_clean();
}
