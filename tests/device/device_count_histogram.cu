// Counts in device memory (strata::device_count) for DeviceHistogram's 1D forms: HistogramEven (8-bit samples, the
// vectorized path, and floats), HistogramRange, MultiHistogramEven of 3 active channels of 4 and MultiHistogramRange
// of 1 of 2, the count being the samples (or pixels) to take from the start of a buffer of the bound's: the same bytes
// in the output histograms (poisoned first) as the call given the count on the host, for counts from 0 to the bound,
// one above it (taken as the bound) and a negative one (taken as 0), under bounds of one tile and of many
// (device_count_harness.cuh). The single-phase form with strata::par, and a null count pointer refused before
// anything runs.
#include <strata/device/device_histogram.cuh>
#include <strata/execution/policy.cuh>

#include "device_count_harness.cuh"
#include "test_util.cuh"

#include <cstdint>
#include <vector>

namespace
{
using count_test::bytes_of;
using count_test::random_items;
using count_test::require_same_as_host_count;
using count_test::two_phase;
using strata_test::device_buffer;

// Floats in [-0.25, 1.25): some below and above the levels [0, 1).
std::vector<float> random_floats(std::size_t n, std::uint64_t salt)
{
  const std::vector<std::uint32_t> bits = random_items<std::uint32_t>(n, salt);
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    v[i] = static_cast<float>(bits[i] >> 8) * (1.5f / 16777216.0f) - 0.25f;
  }
  return v;
}
} // namespace

TEST_CASE("DeviceHistogram::HistogramEven takes its number of samples from device memory",
          "[device][device_count][histogram]")
{
  require_same_as_host_count<int>("HistogramEven u8", [](auto num, std::size_t bound) {
    const std::vector<std::uint8_t> h = random_items<std::uint8_t>(bound + 1, 61);
    device_buffer<std::uint8_t> d_in(h);
    device_buffer<unsigned int> d_hist(256);
    d_hist.poison();
    // From byte 1: the vectorized path with loose samples at both ends.
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceHistogram::HistogramEven(temp, bytes, d_in.data() + 1, d_hist.data(), 257, 0, 256, num);
    });
    return bytes_of(d_hist);
  });
  require_same_as_host_count<long long>("HistogramEven f32", [](auto num, std::size_t bound) {
    const std::vector<float> h = random_floats(bound, 62);
    device_buffer<float> d_in(h);
    device_buffer<int> d_hist(1000);
    d_hist.poison();
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceHistogram::HistogramEven(temp, bytes, d_in.data(), d_hist.data(), 1001, 0.0f, 1.0f, num);
    });
    return bytes_of(d_hist);
  });
}

TEST_CASE("DeviceHistogram::HistogramRange takes its number of samples from device memory",
          "[device][device_count][histogram]")
{
  require_same_as_host_count<unsigned int>("HistogramRange i32", [](auto num, std::size_t bound) {
    const std::vector<std::uint32_t> bits = random_items<std::uint32_t>(bound, 63);
    std::vector<int> h(bound);
    for (std::size_t i = 0; i < bound; ++i)
    {
      h[i] = static_cast<int>(bits[i] % 2200u) - 100;
    }
    std::vector<int> levels;
    for (int l = 0; l <= 2000; l += 7)
    {
      levels.push_back(l + l / 50); // uneven widths
    }
    device_buffer<int> d_in(h);
    device_buffer<int> d_levels(levels);
    device_buffer<unsigned long long> d_hist(levels.size() - 1);
    d_hist.poison();
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceHistogram::HistogramRange(temp, bytes, d_in.data(), d_hist.data(),
                                                     static_cast<int>(levels.size()), d_levels.data(), num);
    });
    return bytes_of(d_hist);
  });
}

TEST_CASE("DeviceHistogram's multi-channel forms take their number of pixels from device memory",
          "[device][device_count][histogram]")
{
  require_same_as_host_count<int>("MultiHistogramEven<4, 3> u8", [](auto num, std::size_t bound) {
    const std::vector<std::uint8_t> h = random_items<std::uint8_t>(4 * bound, 64);
    device_buffer<std::uint8_t> d_in(h);
    device_buffer<unsigned int> d_r(64), d_g(128), d_b(256);
    d_r.poison();
    d_g.poison();
    d_b.poison();
    const cuda::std::array<unsigned int*, 3> hists{d_r.data(), d_g.data(), d_b.data()};
    const cuda::std::array<int, 3> num_levels{65, 129, 257};
    const cuda::std::array<int, 3> lower{0, 0, 0};
    const cuda::std::array<int, 3> upper{256, 256, 256};
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceHistogram::MultiHistogramEven<4, 3>(temp, bytes, d_in.data(), hists, num_levels, lower,
                                                               upper, num);
    });
    return bytes_of(d_r, d_g, d_b);
  });
  require_same_as_host_count<long long>("MultiHistogramRange<2, 1> f32", [](auto num, std::size_t bound) {
    const std::vector<float> h = random_floats(2 * bound, 65);
    const std::vector<float> levels{0.0f, 0.01f, 0.1f, 0.25f, 0.5f, 0.75f, 0.9f, 0.99f, 1.0f};
    device_buffer<float> d_in(h);
    device_buffer<float> d_levels(levels);
    device_buffer<int> d_hist(levels.size() - 1);
    d_hist.poison();
    const cuda::std::array<int*, 1> hists{d_hist.data()};
    const cuda::std::array<int, 1> num_levels{static_cast<int>(levels.size())};
    const cuda::std::array<const float*, 1> d_level_ptrs{d_levels.data()};
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceHistogram::MultiHistogramRange<2, 1>(temp, bytes, d_in.data(), hists, num_levels,
                                                                d_level_ptrs, num);
    });
    return bytes_of(d_hist);
  });
}

TEST_CASE("DeviceHistogram with a device count: the single-phase form; a null count pointer is refused",
          "[device][device_count][histogram]")
{
  const std::size_t n               = 70001;
  const std::vector<std::uint8_t> h = random_items<std::uint8_t>(n, 66);
  const device_buffer<std::uint8_t> d_in(h);
  device_buffer<unsigned int> d_hist(256);
  const device_buffer<int> d_count(std::vector<int>{50000});
  STRATA_TEST_CUDA(strata::DeviceHistogram::HistogramEven(d_in.data(), d_hist.data(), 257, 0, 256,
                                                          strata::device_count<int>(d_count.data(), int(n)),
                                                          strata::par));
  std::vector<unsigned int> want(256, 0u);
  for (std::size_t i = 0; i < 50000; ++i)
  {
    ++want[h[i]];
  }
  REQUIRE(d_hist.download() == want);

  d_hist.poison();
  const std::vector<unsigned int> before = d_hist.download();
  std::size_t bytes                      = 0;
  const strata::device_count<int> null_count(nullptr, int(n));
  STRATA_TEST_CUDA(
    strata::DeviceHistogram::HistogramEven(nullptr, bytes, d_in.data(), d_hist.data(), 257, 0, 256, null_count));
  device_buffer<char> temp(bytes);
  CHECK(strata::DeviceHistogram::HistogramEven(temp.data(), bytes, d_in.data(), d_hist.data(), 257, 0, 256, null_count)
        == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  CHECK(d_hist.download() == before);
}
