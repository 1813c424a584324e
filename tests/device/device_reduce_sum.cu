// DeviceReduce::Sum over every value type and every size class, on a stream and under graph capture.
#include <strata/device/device_reduce.cuh>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <vector>

namespace
{
template <typename T>
constexpr int tile_items()
{
  using Hub = strata::detail::reduce::policy_hub<T, T, cuda::std::plus<>>;
  return Hub::MaxPolicy::ReducePolicy::TILE_ITEMS;
}
} // namespace

TEMPLATE_TEST_CASE("DeviceReduce::Sum matches the host for every size class", "[device][reduce]", STRATA_TEST_ALL_TYPES)
{
  using T = TestType;
  for (std::size_t n : strata_test::test_sizes(tile_items<T>(), std::size_t(1) << 22, 11))
  {
    CAPTURE(n);
    const std::vector<T> h_in = strata_test::random_vector<T>(n, n + 1);
    strata_test::device_buffer<T> d_in(h_in);
    strata_test::device_buffer<T> d_out(1);
    const auto mode = (n % 3 == 0) ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceReduce::Sum(temp, bytes, d_in.data(), d_out.data(), static_cast<int>(n), s);
      },
      mode);
    const T expected = strata_test::reference_reduce(h_in.data(), h_in.data() + n, T{}, strata_test::host_plus{});
    CHECK(d_out.download()[0] == expected);
  }
}

TEST_CASE("DeviceReduce::Sum accepts every num_items type", "[device][reduce]")
{
  const std::size_t n               = 1000003;
  const std::vector<long long> h_in = strata_test::random_vector<long long>(n, 5);
  strata_test::device_buffer<long long> d_in(h_in);
  strata_test::device_buffer<long long> d_out(1);
  const long long expected = strata_test::reference_reduce(h_in.data(), h_in.data() + n, 0LL, strata_test::host_plus{});
  auto run                 = [&](auto num_items) {
    d_out.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceReduce::Sum(temp, bytes, d_in.data(), d_out.data(), num_items, s);
    });
    CHECK(d_out.download()[0] == expected);
  };
  run(static_cast<int>(n));
  run(static_cast<unsigned>(n));
  run(static_cast<long long>(n));
  run(static_cast<unsigned long long>(n));
}

TEST_CASE("DeviceReduce::Sum of floats is the same bits run to run", "[device][reduce]")
{
  // Values with full mantissas, so the sum depends on the order of the additions.
  const std::size_t n           = (std::size_t(1) << 24) + 17;
  const std::vector<float> h_in = strata_test::full_mantissa_floats(n, 99);
  strata_test::device_buffer<float> d_in(h_in);
  strata_test::device_buffer<float> d_out(1);
  std::vector<float> results;
  for (int run = 0; run < 4; ++run)
  {
    d_out.poison();
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceReduce::Sum(temp, bytes, d_in.data(), d_out.data(), n, s);
      },
      run % 2 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream);
    results.push_back(d_out.download()[0]);
  }
  double exact = 0;
  for (float x : h_in)
  {
    exact += x;
  }
  for (float r : results)
  {
    CHECK(std::memcmp(&r, &results[0], sizeof(float)) == 0);
  }
  CHECK(std::abs(results[0] - exact) < 1e-3 * std::sqrt(double(n)));
}
