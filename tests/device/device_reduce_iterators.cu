// DeviceReduce with Thrust's fancy iterators, more than 2^31 items, and bad input.
#include <strata/device/device_reduce.cuh>

#include <thrust/device_ptr.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <vector>

namespace
{
struct times_three
{
  __host__ __device__ long long operator()(long long x) const
  {
    return 3 * x;
  }
};
} // namespace

TEST_CASE("DeviceReduce reads Thrust's fancy iterators and writes through device_ptr", "[device][reduce]")
{
  strata_test::device_buffer<long long> d_out(1);
  thrust::device_ptr<long long> out(d_out.data());
  const long long n = 1234567;

  SECTION("counting_iterator")
  {
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceReduce::Sum(temp, bytes, thrust::counting_iterator<long long>(5), out, n, s);
    });
    CHECK(d_out.download()[0] == n * (n - 1) / 2 + 5 * n);
  }
  SECTION("constant_iterator")
  {
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceReduce::Sum(temp, bytes, thrust::constant_iterator<long long>(-9), out, n, s);
    });
    CHECK(d_out.download()[0] == -9 * n);
  }
  SECTION("transform_iterator")
  {
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), times_three{});
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceReduce::Max(temp, bytes, in, out, n, s);
    });
    CHECK(d_out.download()[0] == 3 * (n - 1));
  }
}

TEST_CASE("DeviceReduce handles more than 2^31 items", "[device][reduce][large]")
{
  const unsigned long long n = (1ULL << 32) + 12345; // needs 64-bit offsets
  strata_test::device_buffer<long long> d_out(1);
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceReduce::Sum(temp, bytes, thrust::constant_iterator<long long>(3), d_out.data(), n, s);
  });
  CHECK(d_out.download()[0] == static_cast<long long>(3 * n));

  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceReduce::Max(temp, bytes, thrust::counting_iterator<long long>(0), d_out.data(), n, s);
  });
  CHECK(d_out.download()[0] == static_cast<long long>(n - 1));

  using Pair = strata::KeyValuePair<long long, long long>;
  strata_test::device_buffer<Pair> d_pair(1);
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceReduce::ArgMax(temp, bytes, thrust::counting_iterator<long long>(0), d_pair.data(), n, s);
  });
  CHECK(d_pair.download()[0].key == static_cast<long long>(n - 1));

  // Just over 2^31 real items in memory (int8), summed through the 64-bit path: 2 GiB on the device.
  const std::size_t m = (std::size_t(1) << 31) + 4099;
  strata_test::device_buffer<std::int8_t> d_in(m);
  STRATA_TEST_CUDA(cudaMemset(d_in.data(), 1, m));
  strata_test::device_buffer<long long> d_sum(1);
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceReduce::TransformReduce(temp, bytes, d_in.data(), d_sum.data(), m, cuda::std::plus<>{},
                                                 strata::Identity{}, 0LL, s);
  });
  CHECK(d_sum.download()[0] == static_cast<long long>(m));
}

TEST_CASE("DeviceReduce rejects bad input before writing anything", "[device][reduce][errors]")
{
  const std::size_t n = 100000;
  strata_test::device_buffer<int> d_in(strata_test::random_vector<int>(n, 1));
  strata_test::device_buffer<int> d_out(1);
  std::size_t bytes = 0;
  REQUIRE(strata::DeviceReduce::Sum(nullptr, bytes, d_in.data(), d_out.data(), n) == cudaSuccess);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
  const int poisoned = d_out.download()[0];

  std::size_t too_small = bytes - 1;
  CHECK(strata::DeviceReduce::Sum(d_temp, too_small, d_in.data(), d_out.data(), n) == cudaErrorInvalidValue);
  CHECK(strata::DeviceReduce::Sum(d_temp, bytes, static_cast<int*>(nullptr), d_out.data(), n) == cudaErrorInvalidValue);
  CHECK(strata::DeviceReduce::Sum(d_temp, bytes, d_in.data(), static_cast<int*>(nullptr), n) == cudaErrorInvalidValue);
  CHECK(strata::DeviceReduce::Sum(d_temp, bytes, d_in.data(), d_out.data(), -5) == cudaErrorInvalidValue);
  std::size_t query = 0;
  CHECK(strata::DeviceReduce::Sum(nullptr, query, d_in.data(), d_out.data(), -1) == cudaErrorInvalidValue);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(d_out.download()[0] == poisoned);
  STRATA_TEST_CUDA(cudaFree(d_temp));
}

TEST_CASE("DeviceReduce of no items asks for one byte and writes the empty result", "[device][reduce][errors]")
{
  strata_test::device_buffer<int> d_in(1);
  strata_test::device_buffer<int> d_out(1);
  std::size_t bytes = 0;
  REQUIRE(strata::DeviceReduce::Sum(nullptr, bytes, d_in.data(), d_out.data(), 0) == cudaSuccess);
  CHECK(bytes == 1);
  strata_test::launch([&](void* temp, std::size_t& b, cudaStream_t s) {
    return strata::DeviceReduce::Reduce(temp, b, d_in.data(), d_out.data(), 0, cuda::std::plus<>{}, 77, s);
  });
  CHECK(d_out.download()[0] == 77);
  strata_test::launch([&](void* temp, std::size_t& b, cudaStream_t s) {
    return strata::DeviceReduce::Min(temp, b, d_in.data(), d_out.data(), 0, s);
  });
  CHECK(d_out.download()[0] == std::numeric_limits<int>::max());
}
