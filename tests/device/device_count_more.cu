// Counts in device memory (strata::device_count) for DeviceAdjacentDifference (all four forms) and DeviceFind (FindIf,
// and the values of LowerBound / UpperBound): the same bytes over the whole output buffers (poisoned first) as the call
// given the count on the host, for counts from 0 to the bound, one above it (taken as the bound) and a negative one
// (taken as 0), under bounds of one tile and of many (device_count_harness.cuh); FindIf with its match before the
// count, past it (none found: the count) and absent. Bad arguments: a null count pointer is refused before anything
// runs.
#include <strata/device/device_adjacent_difference.cuh>
#include <strata/device/device_find.cuh>

#include <cuda/std/functional>

#include "device_count_harness.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace
{
using count_test::bytes_of;
using count_test::random_items;
using count_test::require_same_as_host_count;
using count_test::two_phase;
using strata_test::device_buffer;

// Non-commutative: the differences keep their order.
struct twice_minus
{
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const
  {
    return 2u * a - b;
  }
};

struct equals
{
  std::uint32_t value;
  __host__ __device__ bool operator()(std::uint32_t x) const
  {
    return x == value;
  }
};

// The four forms of DeviceAdjacentDifference, by READ_LEFT and COPY.
template <bool READ_LEFT, bool COPY>
void check_adjacent_difference(const char* name)
{
  require_same_as_host_count<long long>(name, [](auto num_items, std::size_t bound) {
    const std::vector<std::uint32_t> h = random_items<std::uint32_t>(bound, 40 + (READ_LEFT ? 1 : 0));
    device_buffer<std::uint32_t> d_in(h);
    device_buffer<std::uint32_t> d_out(bound);
    two_phase([&](void* temp, std::size_t& bytes) {
      if constexpr (COPY)
      {
        return READ_LEFT ? strata::DeviceAdjacentDifference::SubtractLeftCopy(temp, bytes, d_in.data(), d_out.data(),
                                                                              num_items, twice_minus{})
                         : strata::DeviceAdjacentDifference::SubtractRightCopy(temp, bytes, d_in.data(), d_out.data(),
                                                                               num_items, twice_minus{});
      }
      else
      {
        return READ_LEFT
               ? strata::DeviceAdjacentDifference::SubtractLeft(temp, bytes, d_in.data(), num_items, twice_minus{})
               : strata::DeviceAdjacentDifference::SubtractRight(temp, bytes, d_in.data(), num_items, twice_minus{});
      }
    });
    return bytes_of(d_in, d_out);
  });
}
} // namespace

TEST_CASE("device_count: DeviceAdjacentDifference takes its count from device memory", "[device_count]")
{
  check_adjacent_difference<true, true>("SubtractLeftCopy");
  check_adjacent_difference<false, true>("SubtractRightCopy");
  check_adjacent_difference<true, false>("SubtractLeft");
  check_adjacent_difference<false, false>("SubtractRight");
}

TEST_CASE("device_count: DeviceFind takes its count from device memory", "[device_count]")
{
  // Matches at 1, a third of the way and near the end of the bound, or none: each count sees a match before it, past
  // it or none.
  for (const double where : {0.0, 0.34, 0.97, -1.0})
  {
    require_same_as_host_count<int>("FindIf", [&](auto num_items, std::size_t bound) {
      std::vector<std::uint32_t> h = random_items<std::uint32_t>(bound, 50);
      const std::uint32_t needle   = 0xfeedbeefu;
      std::replace(h.begin(), h.end(), needle, needle + 1u);
      if (where >= 0.0)
      {
        h[std::min(bound - 1, static_cast<std::size_t>(where * static_cast<double>(bound)) + 1)] = needle;
      }
      const device_buffer<std::uint32_t> d_in(h);
      device_buffer<long long> d_index(1);
      two_phase([&](void* temp, std::size_t& bytes) {
        return strata::DeviceFind::FindIf(temp, bytes, d_in.data(), d_index.data(), equals{needle}, num_items);
      });
      return bytes_of(d_index);
    });
  }
  require_same_as_host_count<unsigned>("LowerBound and UpperBound", [](auto num_items, std::size_t bound) {
    std::vector<std::uint32_t> range = random_items<std::uint32_t>(4099, 51);
    std::sort(range.begin(), range.end());
    for (std::size_t i = 1; i < range.size(); i += 3)
    {
      range[i] = range[i - 1]; // runs of equal items, where the two bounds differ
    }
    std::vector<std::uint32_t> values = random_items<std::uint32_t>(bound, 52);
    for (std::size_t i = 0; i < values.size(); i += 2)
    {
      values[i] = range[(i * 7) % range.size()];
    }
    const device_buffer<std::uint32_t> d_range(range);
    const device_buffer<std::uint32_t> d_values(values);
    device_buffer<std::uint32_t> d_lower(bound);
    device_buffer<std::uint64_t> d_upper(bound);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceFind::LowerBound(temp, bytes, d_range.data(), range.size(), d_values.data(), num_items,
                                            d_lower.data(), cuda::std::less<>{});
    });
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceFind::UpperBound(temp, bytes, d_range.data(), static_cast<int>(range.size()),
                                            d_values.data(), num_items, d_upper.data(), cuda::std::less<>{});
    });
    return bytes_of(d_lower, d_upper);
  });
}

TEST_CASE("device_count: DeviceAdjacentDifference and DeviceFind refuse a null count before anything runs",
          "[device_count]")
{
  device_buffer<std::uint32_t> d_in(16);
  device_buffer<std::uint32_t> d_out(16);
  device_buffer<long long> d_index(1);
  const strata::device_count<int> null_count(nullptr, 16);
  device_buffer<char> temp(4096);
  std::size_t bytes = 4096;
  REQUIRE(strata::DeviceAdjacentDifference::SubtractLeftCopy(temp.data(), bytes, d_in.data(), d_out.data(), null_count)
          == cudaErrorInvalidValue);
  REQUIRE(strata::DeviceAdjacentDifference::SubtractRight(temp.data(), bytes, d_out.data(), null_count)
          == cudaErrorInvalidValue);
  REQUIRE(strata::DeviceFind::FindIf(temp.data(), bytes, d_in.data(), d_index.data(), equals{7u}, null_count)
          == cudaErrorInvalidValue);
  REQUIRE(strata::DeviceFind::LowerBound(temp.data(), bytes, d_in.data(), 16, d_in.data(), null_count, d_out.data(),
                                         cuda::std::less<>{})
          == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  REQUIRE(strata_test::all_poisoned(d_out.download()));
  REQUIRE(strata_test::all_poisoned(d_index.download()));
}
