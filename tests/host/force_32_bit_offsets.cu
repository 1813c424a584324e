// STRATA_FORCE_32_BIT_OFFSETS: a translation unit that defines it builds the 32-bit offset kernels only, and a call
// with more than 2^31 - 1 items fails with cudaErrorInvalidValue before anything is touched (here before the size
// query, so no GPU is needed).
#define STRATA_FORCE_32_BIT_OFFSETS
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_scan.cuh>
#include <strata/device/device_select.cuh>

#include <thrust/iterator/counting_iterator.h>

#include "catch2_shim.hpp"

#include <cstddef>
#include <cstdint>

namespace
{
struct is_odd
{
  __host__ __device__ bool operator()(long long x) const
  {
    return (x & 1) != 0;
  }
};
} // namespace

TEST_CASE("STRATA_FORCE_32_BIT_OFFSETS: more than 2^31 - 1 items is an invalid value, and nothing is written",
          "[host][offsets]")
{
  const thrust::counting_iterator<long long> in(0);
  long long* const out = nullptr;
  int* const count     = nullptr;
  for (const std::size_t n : {std::size_t(1) << 31, (std::size_t(1) << 32) + 5})
  {
    CAPTURE(n);
    std::size_t bytes = 12345;
    CHECK(strata::DeviceReduce::Sum(nullptr, bytes, in, out, n) == cudaErrorInvalidValue);
    CHECK(strata::DeviceScan::InclusiveSum(nullptr, bytes, in, out, n) == cudaErrorInvalidValue);
    CHECK(strata::DeviceSelect::If(nullptr, bytes, in, out, count, n, is_odd{}) == cudaErrorInvalidValue);
    CHECK(strata::DeviceReduce::Sum(nullptr, bytes, in, out, static_cast<std::int64_t>(n)) == cudaErrorInvalidValue);
    CHECK(bytes == 12345);
  }
}
