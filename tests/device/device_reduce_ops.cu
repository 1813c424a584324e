// DeviceReduce::Min, Max, ArgMin, ArgMax, Reduce with a user operator, and TransformReduce.
#include <strata/device/device_reduce.cuh>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <cmath>
#include <limits>
#include <vector>

namespace
{
// A commutative, associative user operator on a user type: the component-wise maximum.
struct custom_max
{
  __host__ __device__ strata_test::custom_t operator()(const strata_test::custom_t& a,
                                                       const strata_test::custom_t& b) const
  {
    return strata_test::custom_t{a.a > b.a ? a.a : b.a, a.b > b.b ? a.b : b.b, a.c > b.c ? a.c : b.c};
  }
};

struct square
{
  template <typename T>
  __host__ __device__ T operator()(const T& x) const
  {
    return x * x;
  }
};

const std::vector<std::size_t>& sizes()
{
  static const std::vector<std::size_t> s = strata_test::test_sizes(4096, std::size_t(1) << 21, 3);
  return s;
}
} // namespace

TEMPLATE_TEST_CASE("DeviceReduce::Min and Max match the host", "[device][reduce]", std::int8_t, std::uint16_t,
                   std::int32_t, std::uint64_t, float, double)
{
  using T = TestType;
  for (std::size_t n : sizes())
  {
    CAPTURE(n);
    const std::vector<T> h_in = strata_test::random_vector<T>(n, n * 7 + 1);
    strata_test::device_buffer<T> d_in(h_in);
    strata_test::device_buffer<T> d_min(1), d_max(1);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceReduce::Min(temp, bytes, d_in.data(), d_min.data(), n, s);
    });
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceReduce::Max(temp, bytes, d_in.data(), d_max.data(), n, s);
    });
    CHECK(d_min.download()[0]
          == strata_test::reference_reduce(h_in.data(), h_in.data() + n, std::numeric_limits<T>::max(),
                                           strata_test::host_min{}));
    CHECK(d_max.download()[0]
          == strata_test::reference_reduce(h_in.data(), h_in.data() + n, std::numeric_limits<T>::lowest(),
                                           strata_test::host_max{}));
  }
}

TEMPLATE_TEST_CASE("DeviceReduce::ArgMin and ArgMax find the first extreme position", "[device][reduce]", std::int8_t,
                   std::int32_t, float, double)
{
  using T    = TestType;
  using Pair = strata::KeyValuePair<int, T>;
  for (std::size_t n : sizes())
  {
    CAPTURE(n);
    // Few distinct values, so the extremes occur many times and ties decide the answer.
    std::vector<T> h_in = strata_test::random_vector<T>(n, n + 3);
    for (auto& x : h_in)
    {
      x = static_cast<T>(static_cast<long long>(x) % 5);
    }
    strata_test::device_buffer<T> d_in(h_in);
    strata_test::device_buffer<Pair> d_min(1), d_max(1);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceReduce::ArgMin(temp, bytes, d_in.data(), d_min.data(), static_cast<int>(n), s);
    });
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceReduce::ArgMax(temp, bytes, d_in.data(), d_max.data(), static_cast<int>(n), s);
      },
      strata_test::launch_mode::graph);
    Pair expected_min(1, std::numeric_limits<T>::max());
    Pair expected_max(1, std::numeric_limits<T>::lowest());
    if (n > 0)
    {
      const auto lo = std::min_element(h_in.begin(), h_in.end());
      const auto hi = std::max_element(h_in.begin(), h_in.end());
      expected_min  = Pair(static_cast<int>(lo - h_in.begin()), *lo);
      expected_max  = Pair(static_cast<int>(hi - h_in.begin()), *hi);
    }
    const Pair got_min = d_min.download()[0];
    const Pair got_max = d_max.download()[0];
    CHECK(got_min.key == expected_min.key);
    CHECK(got_min.value == expected_min.value);
    CHECK(got_max.key == expected_max.key);
    CHECK(got_max.value == expected_max.value);
  }
}

TEST_CASE("DeviceReduce::Reduce with a user operator and init", "[device][reduce]")
{
  using T = strata_test::custom_t;
  for (std::size_t n : sizes())
  {
    CAPTURE(n);
    const std::vector<T> h_in = strata_test::random_vector<T>(n, n + 11);
    strata_test::device_buffer<T> d_in(h_in);
    strata_test::device_buffer<T> d_out(1);
    const T init{std::numeric_limits<std::int64_t>::min(), 7, -3};
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceReduce::Reduce(temp, bytes, d_in.data(), d_out.data(), n, custom_max{}, init, s);
    });
    CHECK(d_out.download()[0] == strata_test::reference_reduce(h_in.data(), h_in.data() + n, init, custom_max{}));
  }
}

TEMPLATE_TEST_CASE("DeviceReduce::TransformReduce sums squares", "[device][reduce]", std::int32_t, double)
{
  using T = TestType;
  for (std::size_t n : sizes())
  {
    CAPTURE(n);
    std::vector<T> h_in = strata_test::random_vector<T>(n, n + 13);
    for (auto& x : h_in)
    {
      x = static_cast<T>(static_cast<long long>(x) % 100);
    }
    strata_test::device_buffer<T> d_in(h_in);
    strata_test::device_buffer<T> d_out(1);
    const T init = T(42);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceReduce::TransformReduce(temp, bytes, d_in.data(), d_out.data(), n, cuda::std::plus<>{},
                                                   square{}, init, s);
    });
    T expected = init;
    for (const T& x : h_in)
    {
      expected += x * x;
    }
    CHECK(d_out.download()[0] == expected);
  }
}

TEST_CASE("DeviceReduce::ArgMin and ArgMax with separate value and index outputs", "[device][reduce]")
{
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(4097), std::size_t(1000003)})
  {
    CAPTURE(n);
    std::vector<float> h_in = strata_test::random_vector<float>(n, n + 21);
    for (auto& x : h_in)
    {
      x = std::floor(x / 32.0f); // few distinct values: many ties
    }
    strata_test::device_buffer<float> d_in(h_in);
    strata_test::device_buffer<float> d_value(2);
    strata_test::device_buffer<std::int64_t> d_index(2);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceReduce::ArgMin(temp, bytes, d_in.data(), d_value.data(), d_index.data(),
                                          static_cast<std::int64_t>(n), s);
    });
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceReduce::ArgMax(temp, bytes, d_in.data(), d_value.data() + 1, d_index.data() + 1,
                                          static_cast<std::int64_t>(n), s);
    });
    const std::vector<float> values     = d_value.download();
    const std::vector<std::int64_t> idx = d_index.download();
    if (n == 0)
    {
      CHECK(values[0] == std::numeric_limits<float>::max());
      CHECK(idx[0] == 1);
      CHECK(values[1] == std::numeric_limits<float>::lowest());
      CHECK(idx[1] == 1);
      continue;
    }
    const auto lo = std::min_element(h_in.begin(), h_in.end());
    const auto hi = std::max_element(h_in.begin(), h_in.end());
    CHECK(values[0] == *lo);
    CHECK(idx[0] == lo - h_in.begin());
    CHECK(values[1] == *hi);
    CHECK(idx[1] == hi - h_in.begin());
  }
}
