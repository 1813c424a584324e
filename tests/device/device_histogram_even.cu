// DeviceHistogram::HistogramEven against histograms counted on the host: every arithmetic sample type at every size
// class, from aligned and misaligned starts, on a stream and in a graph, with samples at the bounds, just outside them
// and NaN; a level count from 1 bin to more than shared memory holds (global atomics); exact integer bins over every
// 16-bit value and many widths; the floating-point bin that rounds past the last; all samples in one bin; the 2D form
// with padded rows; counters of 16, 32 and 64 bits; the single-phase forms; bad arguments (nothing written) and no
// samples (the histogram zeroed).
#include <strata/execution/policy.cuh>

#include <cuda/stream_ref>

#include "device_histogram_harness.cuh"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace histogram_test;

namespace
{
// HistogramEven over samples [first, first + n) of `buffer` against the host.
template <typename CounterT, typename SampleT, typename LevelT>
void check_even(const std::vector<SampleT>& buffer, std::size_t first, std::size_t n, int num_levels, LevelT lower,
                LevelT upper, strata_test::launch_mode mode)
{
  const device_buffer<SampleT> d_buffer(buffer);
  const SampleT* d_samples = d_buffer.data() + first;
  const std::array<even_rule<SampleT, LevelT>, 1> rules{{{num_levels, lower, upper}}};
  const auto expected     = reference<1, 1, CounterT>(buffer, region{first, n, 1, n}, rules, {num_levels});
  const std::size_t bytes = check<1, CounterT>(
    expected,
    [&](void* temp, std::size_t& temp_bytes, std::array<CounterT*, 1> d_histogram, cudaStream_t s) {
      return n % 3 == 0 ? strata::DeviceHistogram::HistogramEven(temp, temp_bytes, d_samples, d_histogram[0],
                                                                 num_levels, lower, upper, static_cast<long long>(n), s)
                        : strata::DeviceHistogram::HistogramEven(temp, temp_bytes, d_samples, d_histogram[0],
                                                                 num_levels, lower, upper, static_cast<int>(n), s);
    },
    mode);
  CHECK(bytes == strata::detail::temporary_storage::EMPTY_SIZE);
}
} // namespace

TEMPLATE_TEST_CASE("DeviceHistogram::HistogramEven matches the host for every sample type", "[device][histogram]",
                   std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t,
                   std::uint64_t, float, double)
{
  using SampleT                        = TestType;
  using LevelT                         = level_t<SampleT>;
  const std::array<LevelT, 2> bounds   = inner_levels<SampleT>();
  const std::vector<int> level_counts  = {2, 8, 257, 1025, 5001};
  const std::vector<std::size_t> sizes = strata_test::test_sizes(tile_samples<SampleT>(), std::size_t(1) << 21, 0x4157);
  const std::vector<SampleT> buffer =
    make_samples<SampleT>(sizes.back() + 16, 0x4157, bound_samples<SampleT>(bounds[0], bounds[1]));
  for (std::size_t i = 0; i < sizes.size(); ++i)
  {
    const std::size_t n     = sizes[i];
    const std::size_t first = i % 8; // 0: aligned; else a misaligned start (loose samples before the first vector)
    const int num_levels    = level_counts[i % level_counts.size()];
    CAPTURE(n, first, num_levels);
    check_even<int>(buffer, first, n, num_levels, bounds[0], bounds[1], mode_for(n));
  }
}

TEST_CASE("DeviceHistogram::HistogramEven with mixed sample and level types", "[device][histogram]")
{
  // The common type decides: uint8 samples with float levels, int16 with float, int32 with double, float with int.
  const std::size_t n = strata_test::capped(300007);
  {
    const auto samples = make_samples<std::uint8_t>(n + 3, 11);
    check_even<int>(samples, 3, n, 31, 2.5f, 250.75f, strata_test::launch_mode::stream);
  }
  {
    const auto samples = make_samples<std::int16_t>(n, 12);
    check_even<int>(samples, 0, n, 1000, -20000.5f, 31000.25f, strata_test::launch_mode::stream);
  }
  {
    const auto samples = make_samples<std::int32_t>(n, 13);
    check_even<unsigned long long>(samples, 1, n - 1, 777, -1e6, 1e6, strata_test::launch_mode::graph);
  }
  {
    const auto samples = make_samples<float>(n, 14, {-100.0f, 99.875f, 100.0f});
    check_even<int>(samples, 0, n, 201, -100, 100, strata_test::launch_mode::stream);
  }
}

TEST_CASE("DeviceHistogram::HistogramEven: exact integer bins for many widths", "[device][histogram]")
{
  // Every uint16 value once (shuffled), so each bin's count is the number of values that map to it: the bin of every
  // value is checked, for widths from 1 to the whole range and bin counts above and below them, which exercise the
  // division by a reciprocal (a product within 32 bits) and the 64-bit division.
  std::vector<std::uint16_t> all(65536);
  for (std::size_t i = 0; i < all.size(); ++i)
  {
    all[i] = static_cast<std::uint16_t>(i);
  }
  std::mt19937_64 rng = strata_test::make_rng(0xd1f);
  std::shuffle(all.begin(), all.end(), rng);
  std::vector<std::array<int, 3>> cases = {{0, 1, 2},        {0, 65535, 2},    {0, 65535, 65536}, {1, 65535, 3},
                                           {100, 101, 9},    {0, 65536, 257},  {7, 4103, 4097},   {65534, 65535, 2},
                                           {0, 32768, 1025}, {3, 65000, 70000}};
  std::uniform_int_distribution<int> value(0, 65535);
  std::uniform_int_distribution<int> levels(2, 70000);
  for (int i = 0; i < 30; ++i)
  {
    int lo = value(rng);
    int hi = value(rng);
    if (lo > hi)
    {
      std::swap(lo, hi);
    }
    cases.push_back({lo, hi + 1, levels(rng)});
  }
  for (const auto& c : cases)
  {
    CAPTURE(c[0], c[1], c[2]);
    check_even<int>(all, 0, all.size(), c[2], c[0], c[1], strata_test::launch_mode::stream);
  }
  // 32-bit samples over ranges whose product with the bin count passes 2^32 (64-bit division), and within it.
  const auto wide = make_samples<std::uint32_t>(200003, 0x32);
  check_even<int>(wide, 0, wide.size(), 100001, 0u, 4000000000u, strata_test::launch_mode::stream);
  check_even<int>(wide, 0, wide.size(), 3, 5u, 4294967295u, strata_test::launch_mode::stream);
  check_even<int>(wide, 0, wide.size(), 1001, 1000000u, 5000000u, strata_test::launch_mode::stream);
}

TEST_CASE("DeviceHistogram::HistogramEven: a float just below the upper level is counted in the last bin",
          "[device][histogram]")
{
  // Find levels for which (x - lower) * (bins / (upper - lower)) rounds to `bins` for x the float just below upper:
  // the sample lies inside the histogram, so it is counted, in the last bin.
  float upper = 0.0f;
  int bins    = 0;
  for (int b = 3; b < 200 && bins == 0; ++b)
  {
    for (float u = 0.1f; u < 10.0f; u += 0.0731f)
    {
      const float x     = std::nextafter(u, 0.0f);
      const float scale = static_cast<float>(b) / u;
      if (static_cast<int>(x * scale) >= b)
      {
        upper = u;
        bins  = b;
        break;
      }
    }
  }
  REQUIRE(bins > 0);
  const float below = std::nextafter(upper, 0.0f);
  std::vector<float> samples(4099, below);
  samples[17] = 0.0f;
  samples[18] = upper;
  std::array<std::vector<int>, 1> expected{std::vector<int>(static_cast<std::size_t>(bins), 0)};
  expected[0][0]                                  = 1;
  expected[0][static_cast<std::size_t>(bins - 1)] = 4097;
  const device_buffer<float> d_samples(samples);
  check<1, int>(expected, [&](void* temp, std::size_t& bytes, std::array<int*, 1> d_histogram, cudaStream_t s) {
    return strata::DeviceHistogram::HistogramEven(temp, bytes, d_samples.data(), d_histogram[0], bins + 1, 0.0f, upper,
                                                  static_cast<int>(samples.size()), s);
  });
}

TEST_CASE("DeviceHistogram::HistogramEven: every sample in one bin", "[device][histogram]")
{
  // The skewed input: every lane of every warp adds to the same bin.
  for (const std::size_t n : strata_test::sizes_within_cap({std::size_t(3000017), std::size_t(4097)}))
  {
    CAPTURE(n);
    const std::vector<std::uint8_t> bytes(n, std::uint8_t(77));
    check_even<int>(bytes, 0, n, 257, 0, 256, strata_test::launch_mode::stream);
    const std::vector<float> floats(n, -0.5f);
    check_even<unsigned long long>(floats, 0, n, 1025, -1.0f, 1.0f, strata_test::launch_mode::stream);
  }
}

TEST_CASE("DeviceHistogram::HistogramEven: counters of 16, 32 and 64 bits", "[device][histogram]")
{
  const auto samples = make_samples<std::uint16_t>(100003, 0xc0);
  check_even<std::int16_t>(samples, 1, 20000, 65, 0, 65536, strata_test::launch_mode::stream);
  check_even<unsigned int>(samples, 0, samples.size(), 300, 100, 60000, strata_test::launch_mode::stream);
  check_even<long long>(samples, 2, samples.size() - 2, 1025, 0, 65536, strata_test::launch_mode::graph);
  check_even<unsigned long long>(samples, 0, samples.size(), 9, 4096, 8192, strata_test::launch_mode::stream);
  const auto floats = make_samples<double>(100003, 0xc1);
  check_even<unsigned long long>(floats, 0, floats.size(), 4097, -1000.0, 1000.0, strata_test::launch_mode::stream);
}

TEST_CASE("DeviceHistogram::HistogramEven: more bins than shared memory holds", "[device][histogram]")
{
  // Counted straight into the output with global atomics, or privatized with a single copy and fewer blocks per SM.
  const auto ints = make_samples<std::int32_t>(strata_test::capped(1000003), 0x61);
  check_even<int>(ints, 0, ints.size(), 200001, -1000000, 1000000, strata_test::launch_mode::stream);
  check_even<unsigned long long>(ints, 3, ints.size() - 3, 40001, -1000000, 1000000, strata_test::launch_mode::graph);
  const auto floats = make_samples<float>(strata_test::capped(1000003), 0x62);
  check_even<int>(floats, 0, floats.size(), 100001, -100.0f, 100.0f, strata_test::launch_mode::stream);
}

namespace
{
// The 2D form over `rows` rows of `row_samples` samples, `pad` samples of padding after each (which hold in-range
// samples: any read of them is caught), from sample `first`.
template <typename SampleT>
void check_even_2d(std::size_t first, std::size_t row_samples, std::size_t rows, std::size_t pad,
                   strata_test::launch_mode mode)
{
  using LevelT                       = level_t<SampleT>;
  const std::array<LevelT, 2> bounds = inner_levels<SampleT>();
  const std::size_t stride           = row_samples + pad;
  std::vector<SampleT> buffer        = make_samples<SampleT>(first + rows * stride + 1, 31 * rows + row_samples,
                                                      bound_samples<SampleT>(bounds[0], bounds[1]));
  const int num_levels               = static_cast<int>(3 + (row_samples + rows) % 300);
  const std::array<even_rule<SampleT, LevelT>, 1> rules{{{num_levels, bounds[0], bounds[1]}}};
  const auto expected = reference<1, 1, int>(buffer, region{first, row_samples, rows, stride}, rules, {num_levels});
  const device_buffer<SampleT> d_buffer(buffer);
  check<1, int>(
    expected,
    [&](void* temp, std::size_t& bytes, std::array<int*, 1> d_histogram, cudaStream_t s) {
      return strata::DeviceHistogram::HistogramEven(temp, bytes, d_buffer.data() + first, d_histogram[0], num_levels,
                                                    bounds[0], bounds[1], static_cast<int>(row_samples),
                                                    static_cast<int>(rows), stride * sizeof(SampleT), s);
    },
    mode);
}
} // namespace

TEMPLATE_TEST_CASE("DeviceHistogram::HistogramEven: the 2D form with padded rows", "[device][histogram]", std::uint8_t,
                   std::int16_t, float, double, std::int64_t)
{
  for (const std::size_t rows : {1, 2, 3, 17, 120})
  {
    for (const std::size_t row_samples : {0, 1, 15, 16, 17, 1000, 8195})
    {
      for (const std::size_t pad : {0, 1, 3, 16})
      {
        CAPTURE(rows, row_samples, pad);
        check_even_2d<TestType>(pad % 2, row_samples, rows, pad, mode_for(rows + pad));
      }
    }
  }
}

TEST_CASE("DeviceHistogram::HistogramEven: single-phase forms", "[device][histogram]")
{
  const auto samples = make_samples<float>(500009, 0x51);
  const std::array<even_rule<float, float>, 1> rules{{{513, -64.0f, 64.0f}}};
  const auto expected = reference<1, 1, int>(samples, region{0, samples.size(), 1, samples.size()}, rules, {513});
  const device_buffer<float> d_samples(samples);
  device_buffer<int> d_histogram(512);
  cudaStream_t stream{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const int n = static_cast<int>(samples.size());

  REQUIRE(strata::DeviceHistogram::HistogramEven(d_samples.data(), d_histogram.data(), 513, -64.0f, 64.0f, n)
          == cudaSuccess);
  STRATA_TEST_SYNC();
  STRATA_REQUIRE_EQUAL_VECTORS(d_histogram.download(), expected[0]);

  d_histogram.poison();
  REQUIRE(strata::DeviceHistogram::HistogramEven(d_samples.data(), d_histogram.data(), 513, -64.0f, 64.0f, n, stream)
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(d_histogram.download(), expected[0]);

  d_histogram.poison();
  REQUIRE(strata::DeviceHistogram::HistogramEven(d_samples.data(), d_histogram.data(), 513, -64.0f, 64.0f, n,
                                                 strata::par.on(stream))
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(d_histogram.download(), expected[0]);

  // The 2D form: 7 rows of 1000 samples, 1003 apart, on a cuda::stream_ref.
  const std::array<even_rule<float, float>, 1> rules_2d{{{65, -100.0f, 100.0f}}};
  const auto expected_2d = reference<1, 1, int>(samples, region{0, 1000, 7, 1003}, rules_2d, {65});
  device_buffer<int> d_histogram_2d(64);
  REQUIRE(strata::DeviceHistogram::HistogramEven(d_samples.data(), d_histogram_2d.data(), 65, -100.0f, 100.0f, 1000, 7,
                                                 1003 * sizeof(float), cuda::stream_ref{stream})
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(d_histogram_2d.download(), expected_2d[0]);
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceHistogram::HistogramEven: bad arguments are refused and nothing is written",
          "[device][histogram][errors]")
{
  using strata::DeviceHistogram;
  const auto samples = make_samples<std::uint16_t>(1000, 0xbad);
  const device_buffer<std::uint16_t> d_samples(samples);
  device_buffer<int> d_histogram(16);
  device_buffer<char> d_temp(256);
  const std::uint16_t* in = d_samples.data();
  int* out                = d_histogram.data();
  std::size_t bytes       = 256;
  const auto refused      = [&](cudaError_t e) {
    CHECK(e == cudaErrorInvalidValue);
  };
  // Fewer than two levels, on the run and on the size query.
  for (const int levels : {1, 0, -3})
  {
    CAPTURE(levels);
    refused(DeviceHistogram::HistogramEven(d_temp.data(), bytes, in, out, levels, 0, 100, 1000));
    std::size_t query = 0;
    refused(DeviceHistogram::HistogramEven(nullptr, query, in, out, levels, 0, 100, 1000));
  }
  // Null pointers with samples; a negative count; bad rows.
  refused(DeviceHistogram::HistogramEven(d_temp.data(), bytes, static_cast<const std::uint16_t*>(nullptr), out, 17, 0,
                                         100, 1000));
  refused(DeviceHistogram::HistogramEven(d_temp.data(), bytes, in, static_cast<int*>(nullptr), 17, 0, 100, 1000));
  refused(DeviceHistogram::HistogramEven(d_temp.data(), bytes, in, static_cast<int*>(nullptr), 17, 0, 100, 0));
  refused(DeviceHistogram::HistogramEven(d_temp.data(), bytes, in, out, 17, 0, 100, -5));
  refused(DeviceHistogram::HistogramEven(d_temp.data(), bytes, in, out, 17, 0, 100, 10, -2, size_t(20)));
  refused(DeviceHistogram::HistogramEven(d_temp.data(), bytes, in, out, 17, 0, 100, -10, 2, size_t(20)));
  refused(DeviceHistogram::HistogramEven(d_temp.data(), bytes, in, out, 17, 0, 100, 10, 2, size_t(18)));
  refused(DeviceHistogram::HistogramEven(d_temp.data(), bytes, in, out, 17, 0, 100, 10, 2, size_t(21)));
  // Integer levels upside down, or whose width times the bin count overflows 64 bits.
  refused(DeviceHistogram::HistogramEven(d_temp.data(), bytes, in, out, 17, 100, 0, 1000));
  const std::uint64_t* in64 = reinterpret_cast<const std::uint64_t*>(in);
  refused(DeviceHistogram::HistogramEven(d_temp.data(), bytes, in64, out, 5, 0ull, 1ull << 63, 250));
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_histogram.download()));

  // A single row needs no stride; float levels upside down count nothing.
  REQUIRE(DeviceHistogram::HistogramEven(d_temp.data(), bytes, in, out, 17, 0, 65536, 10, 1, size_t(0)) == cudaSuccess);
  STRATA_TEST_SYNC();
  const auto floats = make_samples<float>(100, 0xf1);
  const device_buffer<float> d_floats(floats);
  REQUIRE(DeviceHistogram::HistogramEven(d_temp.data(), bytes, d_floats.data(), out, 17, 1.0f, -1.0f, 100)
          == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(d_histogram.download() == std::vector<int>(16, 0));

  // No samples: the size query answers 1 byte, and the histogram is zeroed (null samples allowed).
  d_histogram.poison();
  std::size_t empty = 0;
  REQUIRE(DeviceHistogram::HistogramEven(nullptr, empty, in, out, 17, 0, 100, 0) == cudaSuccess);
  CHECK(empty == strata::detail::temporary_storage::EMPTY_SIZE);
  REQUIRE(
    DeviceHistogram::HistogramEven(d_temp.data(), empty, static_cast<const std::uint16_t*>(nullptr), out, 17, 0, 100, 0)
    == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(d_histogram.download() == std::vector<int>(16, 0));
  d_histogram.poison();
  REQUIRE(DeviceHistogram::HistogramEven(d_temp.data(), empty, in, out, 17, 0, 100, 0, 5, size_t(0)) == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(d_histogram.download() == std::vector<int>(16, 0));
}
