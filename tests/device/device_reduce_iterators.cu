// DeviceReduce with Thrust's fancy iterators (more than 2^31 items: device_large.cu; bad input:
// device_reduce_errors.cu).
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
