// DeviceReduce with Thrust's fancy iterators, and more than 2^31 items (bad input: device_reduce_errors.cu).
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
