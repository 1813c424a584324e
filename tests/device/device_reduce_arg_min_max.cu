// DeviceReduce::ArgMinMax against the host: the smallest and the largest item and their first positions, in one
// pass, for integer and floating-point items with many ties, over the size classes; outputs through pointers and
// through iterators; the single-phase form, counts in device memory, graphs; no items; bad arguments (nothing
// written); and more than 2^31 items, where the positions need 64 bits.
#include <strata/device/device_reduce.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace
{
using strata_test::device_buffer;

// What ArgMinMax writes: the extremes' values and positions.
template <typename T>
struct extremes
{
  T min;
  std::int64_t min_index;
  T max;
  std::int64_t max_index;
};

template <typename T>
extremes<T> host_extremes(const std::vector<T>& in)
{
  if (in.empty())
  {
    return {std::numeric_limits<T>::max(), 1, std::numeric_limits<T>::lowest(), 1};
  }
  const auto lo = std::min_element(in.begin(), in.end()); // the first of equal smallest
  const auto hi = std::max_element(in.begin(), in.end()); // the first of equal largest
  return {*lo, lo - in.begin(), *hi, hi - in.begin()};
}

template <typename T>
void check_extremes(const device_buffer<T>& d_values, const device_buffer<std::int64_t>& d_index,
                    const extremes<T>& expected)
{
  const std::vector<T> values           = d_values.download();
  const std::vector<std::int64_t> index = d_index.download();
  CHECK(values[0] == expected.min);
  CHECK(index[0] == expected.min_index);
  CHECK(values[1] == expected.max);
  CHECK(index[1] == expected.max_index);
}

// Random items folded onto few values (so the extremes repeat and the first position decides), never all zero.
template <typename T>
std::vector<T> tied_items(std::size_t n, std::uint64_t salt)
{
  std::vector<T> in = strata_test::random_vector<T>(n, salt);
  for (auto& x : in)
  {
    x = static_cast<T>(static_cast<long long>(x) % 7 - 3);
  }
  return in;
}

template <typename T>
void check_sizes()
{
  for (std::size_t n : strata_test::test_sizes(4096, std::size_t(1) << 21, 3))
  {
    CAPTURE(n);
    const std::vector<T> h_in = tied_items<T>(n, n + 5);
    const device_buffer<T> d_in(h_in);
    device_buffer<T> d_values(2);
    device_buffer<std::int64_t> d_index(2);
    d_values.poison();
    d_index.poison();
    const auto mode = n % 2 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceReduce::ArgMinMax(temp, bytes, d_in.data(), d_values.data(), d_index.data(),
                                               d_values.data() + 1, d_index.data() + 1, static_cast<std::int64_t>(n),
                                               s);
      },
      mode);
    check_extremes(d_values, d_index, host_extremes(h_in));
  }
}
} // namespace

TEMPLATE_TEST_CASE("DeviceReduce::ArgMinMax finds the first smallest and largest items",
                   "[device][reduce][arg_min_max]", std::int8_t, std::uint16_t, std::int32_t, std::int64_t, float,
                   double)
{
  check_sizes<TestType>();
}

TEST_CASE("DeviceReduce::ArgMinMax: extremes at the ends, a single distinct value, floats of both signs",
          "[device][reduce][arg_min_max]")
{
  const std::size_t n     = 100003;
  std::vector<float> h_in = strata_test::random_vector<float>(n, 77);
  SECTION("the smallest first, the largest last")
  {
    h_in.front() = -1e30f;
    h_in.back()  = 1e30f;
  }
  SECTION("the largest first, the smallest last")
  {
    h_in.front() = 1e30f;
    h_in.back()  = -1e30f;
  }
  SECTION("every item equal: both at position 0")
  {
    std::fill(h_in.begin(), h_in.end(), 2.5f);
  }
  SECTION("infinities")
  {
    h_in[n / 3]     = -std::numeric_limits<float>::infinity();
    h_in[n / 3 + 1] = -std::numeric_limits<float>::infinity();
    h_in[n / 2]     = std::numeric_limits<float>::infinity();
  }
  const device_buffer<float> d_in(h_in);
  device_buffer<float> d_values(2);
  device_buffer<std::int64_t> d_index(2);
  REQUIRE(strata::DeviceReduce::ArgMinMax(d_in.data(), d_values.data(), d_index.data(), d_values.data() + 1,
                                          d_index.data() + 1, static_cast<std::int64_t>(n))
          == cudaSuccess);
  STRATA_TEST_SYNC();
  check_extremes(d_values, d_index, host_extremes(h_in));
}

TEST_CASE("DeviceReduce::ArgMinMax of no items answers ArgMin's and ArgMax's empty results",
          "[device][reduce][arg_min_max]")
{
  device_buffer<double> d_values(2);
  device_buffer<std::int64_t> d_index(2);
  d_values.poison();
  d_index.poison();
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceReduce::ArgMinMax(temp, bytes, static_cast<const double*>(nullptr), d_values.data(),
                                           d_index.data(), d_values.data() + 1, d_index.data() + 1, std::int64_t(0), s);
  });
  check_extremes(d_values, d_index, host_extremes(std::vector<double>{}));
}

TEST_CASE("DeviceReduce::ArgMinMax over a fancy input, with the count in device memory and 32-bit positions",
          "[device][reduce][arg_min_max]")
{
  // Item i is (i * 7919) mod 10007 as an int: every value once per 10007 items.
  const auto item = [] __host__ __device__(std::int64_t i) {
    return static_cast<int>((i * 7919) % 10007);
  };
  const std::int64_t n = 123457;
  const auto d_in      = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), item);
  std::vector<int> h_in(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
  {
    h_in[static_cast<std::size_t>(i)] = item(i);
  }
  const extremes<int> expected = host_extremes(h_in);
  device_buffer<int> d_values(2);
  device_buffer<int> d_index(2); // positions converted to int where they are written
  device_buffer<std::int64_t> d_count(std::vector<std::int64_t>{n});
  REQUIRE(strata::DeviceReduce::ArgMinMax(d_in, d_values.data(), d_index.data(), d_values.data() + 1,
                                          d_index.data() + 1, strata::device_count<std::int64_t>(d_count.data(), n))
          == cudaSuccess);
  STRATA_TEST_SYNC();
  const std::vector<int> values = d_values.download();
  const std::vector<int> index  = d_index.download();
  CHECK(values[0] == expected.min);
  CHECK(index[0] == expected.min_index);
  CHECK(values[1] == expected.max);
  CHECK(index[1] == expected.max_index);
}

TEST_CASE("DeviceReduce::ArgMinMax refuses bad arguments and writes nothing", "[device][reduce][arg_min_max]")
{
  const device_buffer<int> d_in(strata_test::random_vector<int>(1000, 3));
  device_buffer<int> d_values(2);
  device_buffer<std::int64_t> d_index(2);
  d_values.poison();
  d_index.poison();
  std::size_t bytes = 0;
  REQUIRE(strata::DeviceReduce::ArgMinMax(nullptr, bytes, d_in.data(), d_values.data(), d_index.data(),
                                          d_values.data() + 1, d_index.data() + 1, std::int64_t(1000))
          == cudaSuccess);
  device_buffer<char> d_temp(bytes);
  using strata::DeviceReduce;
  CHECK(DeviceReduce::ArgMinMax(d_temp.data(), bytes, d_in.data(), d_values.data(), d_index.data(), d_values.data() + 1,
                                d_index.data() + 1, std::int64_t(-1))
        == cudaErrorInvalidValue);
  CHECK(DeviceReduce::ArgMinMax(d_temp.data(), bytes, static_cast<const int*>(nullptr), d_values.data(), d_index.data(),
                                d_values.data() + 1, d_index.data() + 1, std::int64_t(1000))
        == cudaErrorInvalidValue);
  CHECK(DeviceReduce::ArgMinMax(d_temp.data(), bytes, d_in.data(), static_cast<int*>(nullptr), d_index.data(),
                                d_values.data() + 1, d_index.data() + 1, std::int64_t(1000))
        == cudaErrorInvalidValue);
  CHECK(DeviceReduce::ArgMinMax(d_temp.data(), bytes, d_in.data(), d_values.data(), d_index.data(), d_values.data() + 1,
                                static_cast<std::int64_t*>(nullptr), std::int64_t(1000))
        == cudaErrorInvalidValue);
  std::size_t too_little = bytes - 1;
  CHECK(DeviceReduce::ArgMinMax(d_temp.data(), too_little, d_in.data(), d_values.data(), d_index.data(),
                                d_values.data() + 1, d_index.data() + 1, std::int64_t(1000))
        == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_values.download()));
  CHECK(strata_test::all_poisoned(d_index.download()));
}

namespace
{
__global__ void fill_pattern(std::uint8_t* data, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    data[i] = static_cast<std::uint8_t>(50 + (i * 2654435761u >> 7) % 100); // 50..149
  }
}
} // namespace

TEST_CASE("DeviceReduce::ArgMinMax over more than 2^31 items", "[device][reduce][arg_min_max][large]")
{
  const std::size_t n = (std::size_t(1) << 31) + 4099;
  device_buffer<std::uint8_t> d_in(n);
  fill_pattern<<<1024, 256>>>(d_in.data(), n);
  STRATA_TEST_SYNC();
  const std::size_t min_at = (std::size_t(1) << 31) + 17, max_at = n - 1, tie_at = n - 2;
  STRATA_TEST_CUDA(cudaMemset(d_in.data() + min_at, 3, 1));
  STRATA_TEST_CUDA(cudaMemset(d_in.data() + max_at, 250, 1));
  STRATA_TEST_CUDA(cudaMemset(d_in.data() + tie_at, 250, 1)); // the first of the two largest wins
  device_buffer<std::uint8_t> d_values(2);
  device_buffer<std::int64_t> d_index(2);
  REQUIRE(strata::DeviceReduce::ArgMinMax(d_in.data(), d_values.data(), d_index.data(), d_values.data() + 1,
                                          d_index.data() + 1, static_cast<std::int64_t>(n))
          == cudaSuccess);
  STRATA_TEST_SYNC();
  check_extremes(d_values, d_index,
                 extremes<std::uint8_t>{3, static_cast<std::int64_t>(min_at), 250, static_cast<std::int64_t>(tie_at)});
}
