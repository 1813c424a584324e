// strata::reduce_by_key and reduce_by_key_into against a loop on the host: keys of 1 and 8 bytes and a 16-byte
// struct, int64 values (sums wrap as the host's), the size classes around the reduction's tile, runs all equal, all
// different and of mean lengths 2 and 1000, the default equality and a coarser one, plus and a non-commutative
// operator (the first value of each run), raw pointers, thrust::device_ptr and device_vector iterators. Float sums of
// runs that span many tiles are the same bits run to run and within rounding of the exact sums. Every call returns
// the ends of both outputs, takes at most one allocation and gives it back on the policy's stream; thrust's entry
// point given strata's policy runs strata's; reduce_by_key_into returns before its kernels run and replays from a CUDA
// graph on fresh data; a failing allocator makes both throw strata::cuda_error naming them, their outputs untouched.
#include "support.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/reduce.h>

#include <cuda/functional>
#include <cuda/std/functional>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace
{
// The first of two values: associative, not commutative (the reduction of a run is its first value).
struct first_of
{
  template <typename V>
  __host__ __device__ V operator()(const V& a, const V&) const
  {
    return a;
  }
};

// Keys equal when the lowest bit of their first byte (custom_t: of `b`) is: runs that hold different keys.
struct same_parity
{
  template <typename K>
  __host__ __device__ bool operator()(const K& a, const K& b) const
  {
    return (low_byte(a) & 1) == (low_byte(b) & 1);
  }
  template <typename K>
  __host__ __device__ static unsigned low_byte(const K& k)
  {
    return static_cast<unsigned>(static_cast<unsigned long long>(k) & 0xff);
  }
  __host__ __device__ static unsigned low_byte(const strata_test::custom_t& k)
  {
    return static_cast<unsigned>(k.b) & 0xff;
  }
};

// a + b wrapping modulo 2^64, as the device's int64 sums do.
inline std::int64_t wrapping_add(std::int64_t a, std::int64_t b)
{
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

// The reduction's tile for keys K and values V: the size classes gather around it.
template <typename K, typename V>
constexpr std::size_t reduce_by_key_tile()
{
  return strata::detail::reduce_by_key::policy_hub<K, V>::MaxPolicy::ScanPolicy::TILE_ITEMS;
}

// The host's reduce_by_key: each run's last key (Thrust's CUDA backend writes that one) and its values reduced left
// to right.
template <typename K, typename V, typename Eq, typename Op>
void host_reduce_by_key(const std::vector<K>& keys, const std::vector<V>& values, Eq eq, Op op,
                        std::vector<K>& keys_out, std::vector<V>& values_out)
{
  keys_out.clear();
  values_out.clear();
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    if (i == 0 || !eq(keys[i - 1], keys[i]))
    {
      keys_out.push_back(keys[i]);
      values_out.push_back(values[i]);
    }
    else
    {
      keys_out.back()   = keys[i];
      values_out.back() = op(values_out.back(), values[i]);
    }
  }
}

#define REDUCE_BY_KEY_TEST_TYPES std::int8_t, std::int64_t, strata_test::custom_t
} // namespace

TEMPLATE_TEST_CASE("strata::reduce_by_key matches the host for every size class, run length, equality and operator",
                   "[execution][reduce_by_key]", REDUCE_BY_KEY_TEST_TYPES)
{
  using K = TestType;
  using V = std::int64_t;
  exec_test::logged_stream stream;
  const auto& p  = stream.policy;
  const auto sum = [](V a, V b) {
    return wrapping_add(a, b);
  };
  for (const std::size_t n : exec_test::sizes(reduce_by_key_tile<K, V>(), 701))
  {
    CAPTURE(n);
    const std::vector<V> values             = strata_test::random_vector<V>(n, 53 * n + 1);
    const thrust::device_vector<V> d_values = exec_test::upload(values);
    thrust::device_vector<K> keys_out(n);
    thrust::device_vector<V> values_out(n);
    for (const std::size_t mean : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(1000)})
    {
      CAPTURE(mean);
      const std::vector<K> h = exec_test::with_runs(strata_test::random_vector<K>(n, 59 * n + 2), mean, 61 * n + mean);
      thrust::device_vector<K> d = exec_test::upload(h);
      std::vector<K> want_keys;
      std::vector<V> want_values;
      // Checks one call's ends and outputs against the host's, and its allocations.
      const auto check = [&](const auto& ends, auto keys_first, auto values_first) {
        REQUIRE(ends.first - keys_first == static_cast<std::ptrdiff_t>(want_keys.size()));
        REQUIRE(ends.second - values_first == static_cast<std::ptrdiff_t>(want_values.size()));
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(keys_out, want_keys.size()), want_keys);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(values_out, want_values.size()), want_values);
        CHECK(stream.alloc.log().allocations() <= (n == 0 ? 0u : 1u));
        stream.require_clean();
        stream.alloc.log().clear();
      };

      host_reduce_by_key(h, values, cuda::std::equal_to<>{}, sum, want_keys, want_values);
      exec_test::for_each_input_kind(d, [&](auto first, auto last) {
        const auto ko = exec_test::output_like(first, keys_out);
        const auto vo = exec_test::output_like(first, values_out);
        exec_test::poison(keys_out);
        exec_test::poison(values_out);
        check(strata::reduce_by_key(p, first, last, d_values.begin(), ko, vo), ko, vo);
      });

      host_reduce_by_key(h, values, same_parity{}, sum, want_keys, want_values);
      exec_test::poison(keys_out);
      exec_test::poison(values_out);
      check(strata::reduce_by_key(p, d.begin(), d.end(), d_values.begin(), keys_out.begin(), values_out.begin(),
                                  same_parity{}),
            keys_out.begin(), values_out.begin());

      host_reduce_by_key(h, values, same_parity{}, first_of{}, want_keys, want_values);
      exec_test::poison(keys_out);
      exec_test::poison(values_out);
      check(strata::reduce_by_key(p, d.begin(), d.end(), d_values.begin(), keys_out.begin(), values_out.begin(),
                                  same_parity{}, first_of{}),
            keys_out.begin(), values_out.begin());
    }
  }
}

TEST_CASE("strata::reduce_by_key's float sums of runs over many tiles are the same bits run to run",
          "[execution][reduce_by_key][determinism]")
{
  exec_test::logged_stream stream;
  const auto& p       = stream.policy;
  const std::size_t n = strata_test::capped(std::size_t(1) << 22);
  // Runs of mean length 100000 (tens of tiles each) and one run over everything.
  for (const std::size_t mean : {std::size_t(100000), std::size_t(0)})
  {
    CAPTURE(mean);
    const std::vector<int> keys = exec_test::with_runs(strata_test::random_vector<int>(n, 71), mean, 72);
    std::vector<float> values(n);
    std::mt19937 rng(73);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (float& v : values)
    {
      v = uniform(rng);
    }
    const thrust::device_vector<int> d_keys     = exec_test::upload(keys);
    const thrust::device_vector<float> d_values = exec_test::upload(values);
    thrust::device_vector<int> keys_out(n);
    thrust::device_vector<float> first(n), again(n);
    const auto ends =
      strata::reduce_by_key(p, d_keys.begin(), d_keys.end(), d_values.begin(), keys_out.begin(), first.begin());
    const std::size_t runs = static_cast<std::size_t>(ends.first - keys_out.begin());
    for (int round = 0; round < 3; ++round)
    {
      (void) strata::reduce_by_key(p, d_keys.begin(), d_keys.end(), d_values.begin(), keys_out.begin(), again.begin());
      const std::vector<float> a = exec_test::prefix(first, runs);
      const std::vector<float> b = exec_test::prefix(again, runs);
      REQUIRE(std::memcmp(a.data(), b.data(), runs * sizeof(float)) == 0);
    }
    // Within rounding of the exact sums (accumulated in double on the host).
    std::vector<int> want_keys;
    std::vector<double> exact;
    const std::vector<double> wide(values.begin(), values.end());
    host_reduce_by_key(keys, wide, cuda::std::equal_to<>{}, cuda::std::plus<>{}, want_keys, exact);
    REQUIRE(runs == exact.size());
    const std::vector<float> got = exec_test::prefix(first, runs);
    for (std::size_t r = 0; r < runs; ++r)
    {
      INFO("run " << r);
      CHECK(std::fabs(got[r] - exact[r]) <= 1e-3 * std::max(1.0, std::sqrt(static_cast<double>(n))));
    }
  }
  stream.require_clean();
}

TEST_CASE("thrust::reduce_by_key given strata's policy runs strata::reduce_by_key", "[execution][reduce_by_key]")
{
  exec_test::logged_stream stream;
  const std::size_t n                     = 100003;
  const std::vector<int> keys             = exec_test::with_runs(strata_test::random_vector<int>(n, 81), 5, 82);
  const thrust::device_vector<int> d_keys = exec_test::upload(keys);
  thrust::device_vector<int> keys_out(n), lengths(n);
  exec_test::entries().clear();
  const auto ends = thrust::reduce_by_key(stream.policy, d_keys.begin(), d_keys.end(),
                                          thrust::make_constant_iterator(1), keys_out.begin(), lengths.begin());
  CHECK(exec_test::entries().strata == std::vector<std::string>{"strata::reduce_by_key"});
  std::vector<int> want_keys, want_lengths;
  host_reduce_by_key(keys, std::vector<int>(n, 1), cuda::std::equal_to<>{}, cuda::std::plus<>{}, want_keys,
                     want_lengths);
  REQUIRE(ends.first - keys_out.begin() == static_cast<std::ptrdiff_t>(want_keys.size()));
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(keys_out, want_keys.size()), want_keys);
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(lengths, want_lengths.size()), want_lengths);
  stream.require_clean();
}

TEST_CASE("strata::reduce_by_key_into leaves the count in device memory and replays from a CUDA graph",
          "[execution][reduce_by_key][graph]")
{
  exec_test::logged_stream stream;
  const auto& p       = stream.policy;
  const std::size_t n = 100003;
  thrust::device_vector<int> d_keys(n), d_values(n), keys_out(n), values_out(n);
  thrust::device_vector<long long> count(1, -1);

  // An empty range writes 0 in stream order.
  strata::reduce_by_key_into(p, d_keys.begin(), d_keys.begin(), d_values.begin(), keys_out.begin(), values_out.begin(),
                             count.begin());
  stream.sync();
  CHECK(count[0] == 0);

  cudaGraph_t graph = nullptr;
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
  strata::reduce_by_key_into(p, d_keys.begin(), d_keys.end(), d_values.begin(), keys_out.begin(), values_out.begin(),
                             count.begin(), same_parity{}, cuda::maximum<>{});
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream.get(), &graph));
  cudaGraphExec_t exec = nullptr;
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (const std::uint64_t salt : {91u, 92u, 93u})
  {
    CAPTURE(salt);
    const std::vector<int> keys   = exec_test::with_runs(strata_test::random_vector<int>(n, salt), 1 + salt % 7, salt);
    const std::vector<int> values = strata_test::random_vector<int>(n, salt + 10);
    exec_test::upload_into(d_keys, keys);
    exec_test::upload_into(d_values, values);
    std::vector<int> want_keys, want_values;
    host_reduce_by_key(keys, values, same_parity{}, cuda::maximum<>{}, want_keys, want_values);
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream.get()));
    stream.sync();
    CHECK(count[0] == static_cast<long long>(want_keys.size()));
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(keys_out, want_keys.size()), want_keys);
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(values_out, want_values.size()), want_values);
  }
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  stream.require_clean();
}

TEST_CASE("strata::reduce_by_key throws strata::cuda_error naming itself when the allocator fails, and refuses a "
          "captured stream",
          "[execution][reduce_by_key][errors]")
{
  exec_test::logged_stream stream;
  const auto& p                           = stream.policy;
  const std::size_t n                     = 100003;
  const std::vector<int> keys             = exec_test::with_runs(strata_test::random_vector<int>(n, 95), 3, 96);
  const thrust::device_vector<int> d_keys = exec_test::upload(keys);
  thrust::device_vector<int> keys_out(n, 7), values_out(n, 7), count(1, 7);
  const auto untouched = [&] {
    stream.sync();
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(keys_out), std::vector<int>(n, 7));
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(values_out), std::vector<int>(n, 7));
    CHECK(count[0] == 7);
  };
  const auto fails = [&](const char* name, auto call) {
    exec_test::require_allocation_failure(stream, name, call, untouched);
  };
  fails("strata::reduce_by_key", [&] {
    (void) strata::reduce_by_key(p, d_keys.begin(), d_keys.end(), d_keys.begin(), keys_out.begin(), values_out.begin());
  });
  fails("strata::reduce_by_key_into", [&] {
    strata::reduce_by_key_into(p, d_keys.begin(), d_keys.end(), d_keys.begin(), keys_out.begin(), values_out.begin(),
                               count.begin());
  });

  // A call that returns the ends on the host cannot be captured: it throws before enqueueing anything.
  exec_test::require_capture_refused(stream.get(), [&] {
    (void) strata::reduce_by_key(p, d_keys.begin(), d_keys.end(), d_keys.begin(), keys_out.begin(), values_out.begin());
  });
  untouched();
}
