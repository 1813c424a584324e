// STRATA_FORCE_64_BIT_OFFSETS: a translation unit that defines it builds the 64-bit offset kernels only, and runs
// them for inputs of every size (here small ones, whose kernels are otherwise the 32-bit ones).
#define STRATA_FORCE_64_BIT_OFFSETS
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_scan.cuh>
#include <strata/device/device_select.cuh>

#include "catch2_shim.hpp"
#include "test_util.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
struct is_odd
{
  __host__ __device__ bool operator()(unsigned x) const
  {
    return (x & 1) != 0;
  }
};
} // namespace

TEST_CASE("STRATA_FORCE_64_BIT_OFFSETS: reduce, scan and select on 64-bit offsets", "[device][offsets]")
{
  using strata_test::device_buffer;
  for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(4097), std::size_t(1000003)})
  {
    CAPTURE(n);
    // Unsigned items: sums wrap, on the host as on the device.
    const std::vector<unsigned> host = strata_test::random_vector<unsigned>(n, 0x64);
    device_buffer<unsigned> in(host);
    device_buffer<unsigned> out(n);
    device_buffer<unsigned> sum(1);
    device_buffer<int> count(1);

    REQUIRE(strata::DeviceReduce::Sum(in.data(), sum.data(), n) == cudaSuccess);
    CHECK(sum.download()[0] == std::accumulate(host.begin(), host.end(), 0u));

    REQUIRE(strata::DeviceScan::InclusiveSum(in.data(), out.data(), n) == cudaSuccess);
    std::vector<unsigned> scanned(n);
    std::partial_sum(host.begin(), host.end(), scanned.begin());
    CHECK(strata_test::first_mismatch(out.download(), scanned) == -1);

    out.poison();
    REQUIRE(strata::DeviceSelect::If(in.data(), out.data(), count.data(), n, is_odd{}) == cudaSuccess);
    std::vector<unsigned> odd;
    std::copy_if(host.begin(), host.end(), std::back_inserter(odd), is_odd{});
    REQUIRE(count.download()[0] == static_cast<int>(odd.size()));
    std::vector<unsigned> selected = out.download();
    selected.resize(odd.size());
    CHECK(strata_test::first_mismatch(selected, odd) == -1);
  }
}
