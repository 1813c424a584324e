// DeviceHistogram::HistogramRange against histograms counted on the host: every arithmetic sample type at every size
// class over unevenly spaced levels, from aligned and misaligned starts, on a stream and in a graph, with samples equal
// to levels, outside the first and last level and NaN; level counts from 2 to more than shared memory holds (the
// levels then searched in global memory); the 2D form with padded rows; the single-phase forms; bad arguments.
#include <strata/execution/policy.cuh>

#include "device_histogram_harness.cuh"

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace histogram_test;

namespace
{
// The levels' extremes, values just outside them, a few levels themselves and (floating point) NaN.
template <typename SampleT, typename LevelT>
std::vector<SampleT> level_samples(const std::vector<LevelT>& levels)
{
  std::vector<SampleT> s;
  for (std::size_t i = 0; i < levels.size(); i += 1 + levels.size() / 8)
  {
    s.push_back(static_cast<SampleT>(levels[i]));
  }
  s.push_back(static_cast<SampleT>(levels.back()));
  s.push_back(static_cast<SampleT>(static_cast<SampleT>(levels.front()) - 1));
  if constexpr (std::is_floating_point<SampleT>::value)
  {
    s.push_back(std::nextafter(static_cast<SampleT>(levels.back()), -std::numeric_limits<SampleT>::infinity()));
    s.push_back(std::numeric_limits<SampleT>::quiet_NaN());
  }
  else
  {
    s.push_back(static_cast<SampleT>(static_cast<SampleT>(levels.back()) - 1));
  }
  return s;
}

// HistogramRange over samples [first, first + n) of `buffer` against the host.
template <typename CounterT, typename SampleT, typename LevelT>
void check_range(const std::vector<SampleT>& buffer, std::size_t first, std::size_t n,
                 const std::vector<LevelT>& levels, strata_test::launch_mode mode)
{
  const device_buffer<SampleT> d_buffer(buffer);
  const device_buffer<LevelT> d_levels(levels);
  const int num_levels = static_cast<int>(levels.size());
  const std::array<range_rule<SampleT, LevelT>, 1> rules{{{levels}}};
  const auto expected     = reference<1, 1, CounterT>(buffer, region{first, n, 1, n}, rules, {num_levels});
  const std::size_t bytes = check<1, CounterT>(
    expected,
    [&](void* temp, std::size_t& temp_bytes, std::array<CounterT*, 1> d_histogram, cudaStream_t s) {
      return strata::DeviceHistogram::HistogramRange(temp, temp_bytes, d_buffer.data() + first, d_histogram[0],
                                                     num_levels, static_cast<const LevelT*>(d_levels.data()),
                                                     static_cast<long long>(n), s);
    },
    mode);
  CHECK(bytes == strata::detail::temporary_storage::EMPTY_SIZE);
}
} // namespace

TEMPLATE_TEST_CASE("DeviceHistogram::HistogramRange matches the host for every sample type", "[device][histogram]",
                   std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t,
                   std::uint64_t, float, double)
{
  using SampleT                        = TestType;
  using LevelT                         = level_t<SampleT>;
  const std::vector<int> level_counts  = {2, 5, 64, 257, 1500};
  const std::vector<std::size_t> sizes = strata_test::test_sizes(tile_samples<SampleT>(), std::size_t(1) << 21, 0x4a46);
  std::vector<std::vector<LevelT>> level_sets;
  std::vector<SampleT> special;
  for (std::size_t k = 0; k < level_counts.size(); ++k)
  {
    level_sets.push_back(uneven_levels<SampleT>(level_counts[k], 0x1e7 + k));
    const auto s = level_samples<SampleT>(level_sets.back());
    special.insert(special.end(), s.begin(), s.end());
  }
  const std::vector<SampleT> buffer = make_samples<SampleT>(sizes.back() + 16, 0x4a46, special);
  for (std::size_t i = 0; i < sizes.size(); ++i)
  {
    const std::size_t n     = sizes[i];
    const std::size_t first = (i * 5) % 8;
    const auto& levels      = level_sets[i % level_sets.size()];
    CAPTURE(n, first, levels.size());
    check_range<int>(buffer, first, n, levels, mode_for(n));
  }
}

TEST_CASE("DeviceHistogram::HistogramRange: counters of 64 bits, and levels of another type", "[device][histogram]")
{
  const auto samples = make_samples<std::int32_t>(strata_test::capped(400009), 0x64);
  check_range<unsigned long long>(samples, 1, samples.size() - 1, uneven_levels<std::int32_t>(300, 0x65),
                                  strata_test::launch_mode::stream);
  // uint8 samples searched among float levels; int16 samples among double levels.
  const auto bytes = make_samples<std::uint8_t>(strata_test::capped(400009), 0x66);
  check_range<int>(bytes, 0, bytes.size(), std::vector<float>{-1.0f, 0.5f, 7.25f, 100.0f, 100.5f, 254.0f},
                   strata_test::launch_mode::graph);
  const auto shorts = make_samples<std::int16_t>(strata_test::capped(400009), 0x67);
  check_range<long long>(shorts, 2, shorts.size() - 2, std::vector<double>{-40000.0, -3.5, 0.0, 0.25, 17.0, 32767.0},
                         strata_test::launch_mode::stream);
}

TEST_CASE("DeviceHistogram::HistogramRange: more levels than shared memory holds", "[device][histogram]")
{
  const auto samples = make_samples<float>(strata_test::capped(1000003), 0x71);
  check_range<int>(samples, 0, samples.size(), uneven_levels<float>(60001, 0x72), strata_test::launch_mode::stream);
  const auto ints = make_samples<std::int32_t>(strata_test::capped(1000003), 0x73);
  check_range<int>(ints, 3, ints.size() - 3, uneven_levels<std::int32_t>(70001, 0x74), strata_test::launch_mode::graph);
  // Privatized with a single copy of the counters (more than the policy's budget, within what a block may take).
  check_range<int>(ints, 0, ints.size(), uneven_levels<std::int32_t>(20001, 0x75), strata_test::launch_mode::stream);
}

TEMPLATE_TEST_CASE("DeviceHistogram::HistogramRange: the 2D form with padded rows", "[device][histogram]", std::uint8_t,
                   std::uint16_t, float, std::int32_t)
{
  using SampleT = TestType;
  using LevelT  = level_t<SampleT>;
  for (const std::size_t rows : {1, 2, 5, 64})
  {
    for (const std::size_t row_samples : {0, 1, 16, 33, 4099})
    {
      for (const std::size_t pad : {0, 2, 5})
      {
        CAPTURE(rows, row_samples, pad);
        const std::size_t stride         = row_samples + pad;
        const std::size_t first          = pad % 3;
        const std::vector<LevelT> levels = uneven_levels<SampleT>(static_cast<int>(2 + (rows * 7 + pad) % 200), rows);
        const std::vector<SampleT> buffer =
          make_samples<SampleT>(first + rows * stride + 1, rows + row_samples, level_samples<SampleT>(levels));
        const int num_levels = static_cast<int>(levels.size());
        const std::array<range_rule<SampleT, LevelT>, 1> rules{{{levels}}};
        const auto expected =
          reference<1, 1, int>(buffer, region{first, row_samples, rows, stride}, rules, {num_levels});
        const device_buffer<SampleT> d_buffer(buffer);
        const device_buffer<LevelT> d_levels(levels);
        check<1, int>(
          expected,
          [&](void* temp, std::size_t& bytes, std::array<int*, 1> d_histogram, cudaStream_t s) {
            return strata::DeviceHistogram::HistogramRange(temp, bytes, d_buffer.data() + first, d_histogram[0],
                                                           num_levels, static_cast<const LevelT*>(d_levels.data()),
                                                           static_cast<int>(row_samples), static_cast<int>(rows),
                                                           stride * sizeof(SampleT), s);
          },
          mode_for(rows + pad));
      }
    }
  }
}

TEST_CASE("DeviceHistogram::HistogramRange: single-phase forms", "[device][histogram]")
{
  const auto samples               = make_samples<double>(300007, 0x81);
  const std::vector<double> levels = uneven_levels<double>(99, 0x82);
  const int num_levels             = static_cast<int>(levels.size());
  const std::array<range_rule<double, double>, 1> rules{{{levels}}};
  const auto expected =
    reference<1, 1, int>(samples, region{0, samples.size(), 1, samples.size()}, rules, {num_levels});
  const auto expected_2d = reference<1, 1, int>(samples, region{0, 999, 11, 1001}, rules, {num_levels});
  const device_buffer<double> d_samples(samples);
  const device_buffer<double> d_levels(levels);
  const double* levels_ptr = d_levels.data();
  device_buffer<int> d_histogram(levels.size() - 1);
  cudaStream_t stream{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  REQUIRE(strata::DeviceHistogram::HistogramRange(d_samples.data(), d_histogram.data(), num_levels, levels_ptr,
                                                  samples.size())
          == cudaSuccess);
  STRATA_TEST_SYNC();
  STRATA_REQUIRE_EQUAL_VECTORS(d_histogram.download(), expected[0]);

  d_histogram.poison();
  REQUIRE(strata::DeviceHistogram::HistogramRange(d_samples.data(), d_histogram.data(), num_levels, levels_ptr,
                                                  samples.size(), strata::par.on(stream))
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(d_histogram.download(), expected[0]);

  d_histogram.poison();
  REQUIRE(strata::DeviceHistogram::HistogramRange(d_samples.data(), d_histogram.data(), num_levels, levels_ptr, 999, 11,
                                                  1001 * sizeof(double), stream)
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(d_histogram.download(), expected_2d[0]);
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceHistogram::HistogramRange: bad arguments are refused and nothing is written",
          "[device][histogram][errors]")
{
  using strata::DeviceHistogram;
  const auto samples = make_samples<float>(1000, 0xbad);
  const device_buffer<float> d_samples(samples);
  const device_buffer<float> d_levels(std::vector<float>{-10.0f, 0.0f, 10.0f, 20.0f});
  device_buffer<int> d_histogram(3);
  device_buffer<char> d_temp(256);
  const float* in     = d_samples.data();
  const float* levels = d_levels.data();
  int* out            = d_histogram.data();
  std::size_t bytes   = 256;
  const auto refused  = [&](cudaError_t e) {
    CHECK(e == cudaErrorInvalidValue);
  };
  refused(DeviceHistogram::HistogramRange(d_temp.data(), bytes, in, out, 1, levels, 1000));
  refused(DeviceHistogram::HistogramRange(d_temp.data(), bytes, in, out, 4, static_cast<const float*>(nullptr), 1000));
  refused(DeviceHistogram::HistogramRange(d_temp.data(), bytes, in, out, 4, static_cast<const float*>(nullptr), 0));
  refused(
    DeviceHistogram::HistogramRange(d_temp.data(), bytes, static_cast<const float*>(nullptr), out, 4, levels, 1000));
  refused(DeviceHistogram::HistogramRange(d_temp.data(), bytes, in, static_cast<int*>(nullptr), 4, levels, 1000));
  refused(DeviceHistogram::HistogramRange(d_temp.data(), bytes, in, out, 4, levels, -1));
  refused(DeviceHistogram::HistogramRange(d_temp.data(), bytes, in, out, 4, levels, 100, 3, 99 * sizeof(float)));
  refused(DeviceHistogram::HistogramRange(d_temp.data(), bytes, in, out, 4, levels, 100, 3, 100 * sizeof(float) + 2));
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_histogram.download()));

  // The size query may pass null pointers.
  std::size_t query = 0;
  REQUIRE(DeviceHistogram::HistogramRange(nullptr, query, static_cast<const float*>(nullptr),
                                          static_cast<int*>(nullptr), 4, static_cast<const float*>(nullptr), 1000)
          == cudaSuccess);
  CHECK(query == strata::detail::temporary_storage::EMPTY_SIZE);
  // No samples: the histogram is zeroed.
  REQUIRE(DeviceHistogram::HistogramRange(d_temp.data(), query, in, out, 4, levels, 0) == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(d_histogram.download() == std::vector<int>(3, 0));
}
