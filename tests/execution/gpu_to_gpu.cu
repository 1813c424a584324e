// A policy's with(strata::gpu_to_gpu): the frontend's reductions, scans, scans by key and reduce_by_key give the fixed
// order's bits (the host's emulation, ../device/gpu_to_gpu_order.cuh, which the device matches bit for bit on every
// GPU), through strata's calls and through Thrust's given the policy; exact operations give the default's results; the
// policy keeps its stream and allocator.
#include "support.cuh"

#include <thrust/reduce.h>
#include <thrust/scan.h>

#include <cuda/std/functional>

#include "../device/gpu_to_gpu_order.cuh"

#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::first_bit_mismatch;
using strata_test::full_mantissas;

// The policy types with(gpu_to_gpu) makes: the allocator kept, the determinism changed, both ways.
using pool_g2g = decltype(strata::par.with(strata::gpu_to_gpu));
static_assert(std::is_same<pool_g2g, strata::execution_policy<strata::pool_allocator, strata::gpu_to_gpu_t>>::value,
              "par.with(gpu_to_gpu) keeps the pool");
static_assert(std::is_same<decltype(strata::par.with(strata::gpu_to_gpu).with(strata::run_to_run)),
                           strata::execution_policy<>>::value,
              "with(run_to_run) is the default policy again");
static_assert(std::is_same<decltype(strata::par.with(strata::gpu_to_gpu).on(cudaStream_t{})), pool_g2g>::value,
              "on() keeps the determinism");
static_assert(strata::is_execution_policy_v<pool_g2g>, "a gpu_to_gpu policy is an execution policy");
static_assert(std::is_base_of<thrust::cuda_cub::execution_policy<pool_g2g>, pool_g2g>::value,
              "a gpu_to_gpu policy is a Thrust CUDA policy");

// x * x, rounded on its own on the device (__fmul_rn: never contracted with the reduction's add into an FMA, which
// would round once for both, as the host does not).
struct square
{
  STRATA_HOST_DEVICE float operator()(float x) const
  {
    NV_IF_TARGET(NV_IS_DEVICE, (return __fmul_rn(x, x);), (return x * x;));
  }
};

template <typename T>
std::vector<T> download(const thrust::device_vector<T>& v)
{
  std::vector<T> h(v.size());
  thrust::copy(v.begin(), v.end(), h.begin());
  return h;
}
} // namespace

TEMPLATE_TEST_CASE("strata::reduce, transform_reduce and inner_product under with(gpu_to_gpu) give the fixed order's "
                   "bits",
                   "[execution][reduce][gpu_to_gpu]", float, double)
{
  using T = TestType;
  exec_test::logged_stream stream;
  const auto policy = stream.policy.with(strata::gpu_to_gpu);
  for (std::size_t n : strata_test::sizes_within_cap({1, 1000, 65537, 1000003, (std::size_t(1) << 22) + 5}))
  {
    CAPTURE(n);
    const std::vector<T> h = full_mantissas<T>(n, strata_test::make_rng(n + 1));
    const thrust::device_vector<T> d(h.begin(), h.end());
    const auto item = [&](std::size_t i) {
      return h[i];
    };

    const T sum      = strata::reduce(policy, d.begin(), d.end());
    const T expected = strata_test::fixed_order_reduce<T, T>(item, n, strata_test::host_plus{}, T(0));
    CHECK(first_bit_mismatch(std::vector<T>{sum}, std::vector<T>{expected}) == -1);
    // Thrust's call given the policy is strata's.
    const T thrust_sum = thrust::reduce(policy, d.begin(), d.end());
    CHECK(first_bit_mismatch(std::vector<T>{thrust_sum}, std::vector<T>{expected}) == -1);

    thrust::device_vector<T> d_out(1);
    strata::reduce_into(policy, d.begin(), d.end(), d_out.begin(), T(1.5), cuda::std::plus<T>{});
    stream.sync(); // reduce_into does not synchronize
    CHECK(first_bit_mismatch(download(d_out), std::vector<T>{strata_test::fixed_order_reduce<T, T>(
                                                item, n, strata_test::host_plus{}, T(1.5))})
          == -1);

    if constexpr (std::is_same<T, float>::value)
    {
      const float squares =
        strata::transform_reduce(policy, d.begin(), d.end(), 0.25f, cuda::std::plus<float>{}, square{});
      const float expected_squares = strata_test::fixed_order_reduce<float, float>(
        [&](std::size_t i) {
          return h[i] * h[i];
        },
        n, strata_test::host_plus{}, 0.25f);
      CHECK(first_bit_mismatch(std::vector<float>{squares}, std::vector<float>{expected_squares}) == -1);

      // inner_product's multiply may be contracted with the add (outside the promise: strata/determinism.cuh), so
      // its result is checked against the exact sum of squares only.
      const float dot = strata::inner_product(policy, d.begin(), d.end(), d.begin(), 0.0f);
      double exact    = 0;
      for (float x : h)
      {
        exact += static_cast<double>(x) * x;
      }
      CHECK(std::abs(dot - exact) <= 1e-5 * exact + 1e-30);
    }
  }
  stream.require_clean();
  // The policy's allocator gave the storage (a reduction of more than one atom's items takes some).
  if (strata_test::capped(65537) == 65537)
  {
    CHECK(stream.alloc.log().allocations() > 0);
  }
}

TEST_CASE("strata's integer reductions under with(gpu_to_gpu) are the default's", "[execution][reduce][gpu_to_gpu]")
{
  const std::size_t n = 1000003;
  const auto h        = strata_test::random_vector<std::int64_t>(n, 7);
  const thrust::device_vector<std::int64_t> d(h.begin(), h.end());
  const auto policy = strata::par.with(strata::gpu_to_gpu);
  CHECK(strata::reduce(policy, d.begin(), d.end()) == strata::reduce(strata::par, d.begin(), d.end()));
  CHECK(strata::count_if(policy, d.begin(), d.end(), exec_test::is_odd{})
        == strata::count_if(strata::par, d.begin(), d.end(), exec_test::is_odd{}));
}

TEST_CASE("strata's scans under with(gpu_to_gpu) give the fixed order's bits", "[execution][scan][gpu_to_gpu]")
{
  exec_test::logged_stream stream;
  const auto policy = stream.policy.with(strata::gpu_to_gpu);
  for (std::size_t n : strata_test::sizes_within_cap({1, 1023, 1025, 100003, (std::size_t(1) << 22) + 3}))
  {
    CAPTURE(n);
    const std::vector<float> h = full_mantissas<float>(n, strata_test::make_rng(n + 2));
    const thrust::device_vector<float> d(h.begin(), h.end());
    thrust::device_vector<float> out(n);
    const auto item = [&](std::size_t i) {
      return h[i];
    };
    strata::inclusive_scan(policy, d.begin(), d.end(), out.begin());
    stream.sync(); // the scans do not synchronize
    CHECK(first_bit_mismatch(download(out), strata_test::fixed_order_scan<float, float>(
                                              item, n, strata_test::host_plus{}, true, std::optional<float>()))
          == -1);
    thrust::exclusive_scan(policy, d.begin(), d.end(), out.begin(), 0.5f);
    stream.sync();
    CHECK(first_bit_mismatch(
            download(out), strata_test::fixed_order_scan<float, float>(item, n, strata_test::host_plus{}, false, 0.5f))
          == -1);
  }
  stream.require_clean();
}

TEST_CASE("strata's scans by key and reduce_by_key under with(gpu_to_gpu) give the fixed order's bits",
          "[execution][scan][by_key][gpu_to_gpu]")
{
  exec_test::logged_stream stream;
  const auto policy = stream.policy.with(strata::gpu_to_gpu);
  for (std::size_t n : strata_test::sizes_within_cap({1, 2, 4095, 4097, 300007, (std::size_t(1) << 21) + 9}))
  {
    CAPTURE(n);
    const std::vector<int> keys = strata_test::recorded_run_keys(n, std::mt19937_64(n + 3));
    const std::vector<double> h = full_mantissas<double>(n, strata_test::make_rng(n + 4));
    const thrust::device_vector<int> d_keys(keys.begin(), keys.end());
    const thrust::device_vector<double> d(h.begin(), h.end());
    thrust::device_vector<double> out(n);

    strata::inclusive_scan_by_key(policy, d_keys.begin(), d_keys.end(), d.begin(), out.begin());
    stream.sync();
    const std::vector<double> inclusive = strata_test::fixed_order_sum_by_key(keys, h, true);
    CHECK(first_bit_mismatch(download(out), inclusive) == -1);

    thrust::exclusive_scan_by_key(policy, d_keys.begin(), d_keys.end(), d.begin(), out.begin(), 0.75);
    stream.sync();
    CHECK(first_bit_mismatch(download(out), strata_test::fixed_order_sum_by_key(keys, h, false, 0.75)) == -1);

    thrust::device_vector<int> run_keys(n);
    thrust::device_vector<double> sums(n);
    const auto ends =
      strata::reduce_by_key(policy, d_keys.begin(), d_keys.end(), d.begin(), run_keys.begin(), sums.begin());
    std::vector<int> expected_keys;
    std::vector<double> expected_sums;
    strata_test::runs_of_scan(keys, inclusive, expected_keys, expected_sums);
    REQUIRE(static_cast<std::size_t>(ends.first - run_keys.begin()) == expected_keys.size());
    REQUIRE(static_cast<std::size_t>(ends.second - sums.begin()) == expected_keys.size());
    std::vector<int> got_keys = download(run_keys);
    got_keys.resize(expected_keys.size());
    std::vector<double> got_sums = download(sums);
    got_sums.resize(expected_keys.size());
    CHECK(got_keys == expected_keys);
    CHECK(first_bit_mismatch(got_sums, expected_sums) == -1);
  }
  stream.require_clean();
}
