// DeviceHistogram::MultiHistogramEven and MultiHistogramRange against histograms counted on the host: pixels of 4
// channels with 1 to 4 of them active, of 3 channels (16-byte vectors that hold no whole number of pixels) and of 2;
// 8-bit, 16-bit and float samples; each channel with its own levels; from starts where pixels line up with 16-byte
// vectors and where they cannot; the 2D forms with padded rows; the C-array forms of CUB before 3.0; samples that are
// not in memory (a fancy iterator); the single-phase forms; bad arguments.
#include <strata/execution/policy.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "device_histogram_harness.cuh"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

using namespace histogram_test;

namespace
{
// Channel c's even levels: the inner bounds narrowed by c tenths of their width, and a bin count of its own.
template <typename SampleT, int NAC>
void channel_levels(std::array<int, NAC>& num_levels, std::array<level_t<SampleT>, NAC>& lower,
                    std::array<level_t<SampleT>, NAC>& upper, int base_levels)
{
  using LevelT                       = level_t<SampleT>;
  const std::array<LevelT, 2> bounds = inner_levels<SampleT>();
  for (int c = 0; c < NAC; ++c)
  {
    const double lo = static_cast<double>(bounds[0]);
    const double hi = static_cast<double>(bounds[1]);
    lower[c]        = static_cast<LevelT>(lo + (hi - lo) * c / 10);
    upper[c]        = static_cast<LevelT>(hi - (hi - lo) * c / 20);
    num_levels[c]   = base_levels + 37 * c;
  }
}

// MultiHistogramEven<NC, NAC> over region `r` of `buffer` (the 1D form for a single row unless `two_d`).
template <int NC, int NAC, typename CounterT, typename SampleT>
void check_multi_even(const std::vector<SampleT>& buffer, const region& r, int base_levels, bool two_d,
                      strata_test::launch_mode mode)
{
  using LevelT = level_t<SampleT>;
  std::array<int, NAC> num_levels{};
  std::array<LevelT, NAC> lower{};
  std::array<LevelT, NAC> upper{};
  channel_levels<SampleT, NAC>(num_levels, lower, upper, base_levels);
  std::array<even_rule<SampleT, LevelT>, NAC> rules{};
  for (int c = 0; c < NAC; ++c)
  {
    rules[c] = even_rule<SampleT, LevelT>{num_levels[c], lower[c], upper[c]};
  }
  const auto expected = reference<NC, NAC, CounterT>(buffer, r, rules, num_levels);
  const device_buffer<SampleT> d_buffer(buffer);
  const SampleT* d_samples = d_buffer.data() + r.first;
  check<NAC, CounterT>(
    expected,
    [&](void* temp, std::size_t& bytes, std::array<CounterT*, NAC> d_histograms, cudaStream_t s) {
      const cuda::std::array<CounterT*, NAC> out = strata::detail::histogram::to_array<NAC>(d_histograms.data());
      const cuda::std::array<int, NAC> levels    = strata::detail::histogram::to_array<NAC>(num_levels.data());
      const cuda::std::array<LevelT, NAC> lo     = strata::detail::histogram::to_array<NAC>(lower.data());
      const cuda::std::array<LevelT, NAC> hi     = strata::detail::histogram::to_array<NAC>(upper.data());
      if (two_d)
      {
        return strata::DeviceHistogram::MultiHistogramEven<NC, NAC>(temp, bytes, d_samples, out, levels, lo, hi,
                                                                    static_cast<int>(r.row_pixels),
                                                                    static_cast<int>(r.rows),
                                                                    r.stride * sizeof(SampleT), s);
      }
      return strata::DeviceHistogram::MultiHistogramEven<NC, NAC>(temp, bytes, d_samples, out, levels, lo, hi,
                                                                  static_cast<long long>(r.row_pixels), s);
    },
    mode);
}

// MultiHistogramRange<NC, NAC> over region `r` of `buffer`, channel c with uneven levels of its own.
template <int NC, int NAC, typename CounterT, typename SampleT>
void check_multi_range(const std::vector<SampleT>& buffer, const region& r, int base_levels, bool two_d,
                       strata_test::launch_mode mode)
{
  using LevelT = level_t<SampleT>;
  std::array<int, NAC> num_levels{};
  std::array<range_rule<SampleT, LevelT>, NAC> rules{};
  std::vector<std::unique_ptr<device_buffer<LevelT>>> d_levels;
  cuda::std::array<const LevelT*, NAC> levels_ptrs{};
  for (int c = 0; c < NAC; ++c)
  {
    rules[c].levels = uneven_levels<SampleT>(base_levels + 29 * c, 0x3a + c);
    num_levels[c]   = static_cast<int>(rules[c].levels.size());
    d_levels.push_back(std::make_unique<device_buffer<LevelT>>(rules[c].levels));
    levels_ptrs[c] = d_levels.back()->data();
  }
  const auto expected = reference<NC, NAC, CounterT>(buffer, r, rules, num_levels);
  const device_buffer<SampleT> d_buffer(buffer);
  const SampleT* d_samples = d_buffer.data() + r.first;
  check<NAC, CounterT>(
    expected,
    [&](void* temp, std::size_t& bytes, std::array<CounterT*, NAC> d_histograms, cudaStream_t s) {
      const cuda::std::array<CounterT*, NAC> out = strata::detail::histogram::to_array<NAC>(d_histograms.data());
      const cuda::std::array<int, NAC> levels    = strata::detail::histogram::to_array<NAC>(num_levels.data());
      if (two_d)
      {
        return strata::DeviceHistogram::MultiHistogramRange<NC, NAC>(temp, bytes, d_samples, out, levels, levels_ptrs,
                                                                     static_cast<int>(r.row_pixels),
                                                                     static_cast<int>(r.rows),
                                                                     r.stride * sizeof(SampleT), s);
      }
      return strata::DeviceHistogram::MultiHistogramRange<NC, NAC>(temp, bytes, d_samples, out, levels, levels_ptrs,
                                                                   static_cast<int>(r.row_pixels), s);
    },
    mode);
}

// Both forms, 1D at several pixel counts and starts, and 2D with padded rows.
template <int NC, int NAC, typename SampleT>
void check_channels(std::uint64_t salt)
{
  const std::size_t tile_pixels = tile_samples<SampleT, NC, NAC>() / NC;
  const std::size_t most        = 3 * tile_pixels + 1001;
  const std::vector<SampleT> buffer =
    make_samples<SampleT>(most * NC + 64, salt,
                          bound_samples<SampleT>(inner_levels<SampleT>()[0], inner_levels<SampleT>()[1]));
  std::size_t i = 0;
  for (const std::size_t pixels :
       {std::size_t(0), std::size_t(1), std::size_t(5), tile_pixels - 1, tile_pixels + 1, most - 1})
  {
    // Starts at 0, at a whole pixel past it, and (every other size) at one sample past it: the pixels of 8-bit
    // samples then never line up with a 16-byte boundary, and are read a pixel at a time.
    for (const std::size_t first : {std::size_t(0), std::size_t(NC), std::size_t(1)})
    {
      CAPTURE(NC, NAC, pixels, first);
      const region r{first, pixels, 1, pixels * NC};
      check_multi_even<NC, NAC, int>(buffer, r, 9 + static_cast<int>(i % 3) * 300, false, mode_for(pixels + first));
      check_multi_range<NC, NAC, unsigned long long>(buffer, r, 5 + static_cast<int>(i % 3) * 120, false,
                                                     mode_for(pixels));
      ++i;
    }
  }
  for (const std::size_t rows : {2, 9})
  {
    for (const std::size_t pad : {0, 1, 4})
    {
      const std::size_t pixels = 700 + 3 * pad;
      const region r{pad, pixels, rows, pixels * NC + pad};
      CAPTURE(NC, NAC, rows, pad);
      check_multi_even<NC, NAC, int>(buffer, r, 257, true, mode_for(rows));
      check_multi_range<NC, NAC, int>(buffer, r, 40, true, mode_for(rows + 1));
    }
  }
}
} // namespace

TEST_CASE("DeviceHistogram::Multi*: 8-bit pixels of 4 channels, 1 to 4 of them active", "[device][histogram]")
{
  check_channels<4, 1, std::uint8_t>(0x401);
  check_channels<4, 2, std::uint8_t>(0x402);
  check_channels<4, 3, std::uint8_t>(0x403);
  check_channels<4, 4, std::uint8_t>(0x404);
}

TEST_CASE("DeviceHistogram::Multi*: 16-bit and float pixels of 4 channels", "[device][histogram]")
{
  check_channels<4, 3, std::uint16_t>(0x413);
  check_channels<4, 4, std::int16_t>(0x414);
  check_channels<4, 2, float>(0x422);
  check_channels<4, 4, float>(0x424);
}

TEST_CASE("DeviceHistogram::Multi*: pixels of 3 and 2 channels", "[device][histogram]")
{
  check_channels<3, 3, std::uint8_t>(0x333);
  check_channels<3, 2, float>(0x332);
  check_channels<3, 1, std::int8_t>(0x331);
  check_channels<2, 2, std::uint16_t>(0x222);
  check_channels<2, 1, double>(0x221);
}

namespace
{
// The sample at index i of an RGBA-like sequence that is computed, not stored.
struct pattern
{
  __host__ __device__ std::uint8_t operator()(int i) const
  {
    return static_cast<std::uint8_t>((i * 37 + (i >> 9)) & 0xff);
  }
};
} // namespace

TEST_CASE("DeviceHistogram::Multi*: samples of a fancy iterator", "[device][histogram]")
{
  const int pixels     = 100003;
  const auto generated = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), pattern{});
  std::vector<std::uint8_t> host(static_cast<std::size_t>(pixels) * 4);
  for (std::size_t i = 0; i < host.size(); ++i)
  {
    host[i] = pattern{}(static_cast<int>(i));
  }
  std::array<even_rule<std::uint8_t, int>, 3> rules{{{257, 0, 256}, {17, 16, 240}, {5, 1, 200}}};
  const auto expected =
    reference<4, 3, int>(host, region{0, static_cast<std::size_t>(pixels), 1, host.size()}, rules, {257, 17, 5});
  check<3, int>(expected, [&](void* temp, std::size_t& bytes, std::array<int*, 3> d_histograms, cudaStream_t s) {
    return strata::DeviceHistogram::MultiHistogramEven<4, 3>(
      temp, bytes, generated, cuda::std::array<int*, 3>{d_histograms[0], d_histograms[1], d_histograms[2]},
      cuda::std::array<int, 3>{257, 17, 5}, cuda::std::array<int, 3>{0, 16, 1}, cuda::std::array<int, 3>{256, 240, 200},
      pixels, s);
  });
  // HistogramEven over the same sequence as one channel.
  std::array<even_rule<std::uint8_t, int>, 1> one{{{100, 3, 250}}};
  const auto expected_one = reference<1, 1, int>(host, region{0, host.size(), 1, host.size()}, one, {100});
  check<1, int>(expected_one, [&](void* temp, std::size_t& bytes, std::array<int*, 1> d_histogram, cudaStream_t s) {
    return strata::DeviceHistogram::HistogramEven(temp, bytes, generated, d_histogram[0], 100, 3, 250,
                                                  static_cast<int>(host.size()), s);
  });
}

TEST_CASE("DeviceHistogram::Multi*: the C-array forms and the single-phase forms", "[device][histogram]")
{
  const std::size_t pixels = 50021;
  const auto samples       = make_samples<std::uint8_t>(pixels * 4, 0x5a);
  const device_buffer<std::uint8_t> d_samples(samples);
  std::array<even_rule<std::uint8_t, int>, 3> rules{{{257, 0, 256}, {33, 0, 256}, {9, 100, 200}}};
  const auto expected    = reference<4, 3, int>(samples, region{0, pixels, 1, pixels * 4}, rules, {257, 33, 9});
  const auto expected_2d = reference<4, 3, int>(samples, region{0, 100, 50, 400}, rules, {257, 33, 9});
  device_buffer<int> d_r(256), d_g(32), d_b(8);
  const auto download = [&] {
    return std::array<std::vector<int>, 3>{d_r.download(), d_g.download(), d_b.download()};
  };
  const auto poison = [&] {
    d_r.poison();
    d_g.poison();
    d_b.poison();
  };
  int* histograms[3]        = {d_r.data(), d_g.data(), d_b.data()};
  const int num_levels[3]   = {257, 33, 9};
  const int lower_levels[3] = {0, 0, 100};
  const int upper_levels[3] = {256, 256, 200};
  std::size_t bytes         = 0;
  device_buffer<char> d_temp(256);

  REQUIRE(strata::DeviceHistogram::MultiHistogramEven<4, 3>(nullptr, bytes, d_samples.data(), histograms, num_levels,
                                                            lower_levels, upper_levels, static_cast<int>(pixels))
          == cudaSuccess);
  REQUIRE(strata::DeviceHistogram::MultiHistogramEven<4, 3>(d_temp.data(), bytes, d_samples.data(), histograms,
                                                            num_levels, lower_levels, upper_levels,
                                                            static_cast<int>(pixels))
          == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(download() == expected);

  poison();
  REQUIRE(strata::DeviceHistogram::MultiHistogramEven<4, 3>(d_temp.data(), bytes, d_samples.data(), histograms,
                                                            num_levels, lower_levels, upper_levels, 100, 50,
                                                            size_t(400))
          == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(download() == expected_2d);

  // The range forms with the same bins as levels.
  std::vector<int> levels_r(257), levels_g(33), levels_b(9);
  for (int i = 0; i < 257; ++i)
  {
    levels_r[static_cast<std::size_t>(i)] = i;
  }
  for (int i = 0; i < 33; ++i)
  {
    levels_g[static_cast<std::size_t>(i)] = 8 * i;
  }
  for (int i = 0; i < 9; ++i)
  {
    levels_b[static_cast<std::size_t>(i)] = 100 + 12 * i + (i == 8 ? 4 : 0);
  }
  std::array<range_rule<std::uint8_t, int>, 3> range_rules{{{levels_r}, {levels_g}, {levels_b}}};
  const auto expected_range =
    reference<4, 3, int>(samples, region{0, pixels, 1, pixels * 4}, range_rules, {257, 33, 9});
  const device_buffer<int> d_levels_r(levels_r), d_levels_g(levels_g), d_levels_b(levels_b);
  const int* const levels[3] = {d_levels_r.data(), d_levels_g.data(), d_levels_b.data()};
  poison();
  REQUIRE(strata::DeviceHistogram::MultiHistogramRange<4, 3>(d_temp.data(), bytes, d_samples.data(), histograms,
                                                             num_levels, levels, static_cast<int>(pixels))
          == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(download() == expected_range);

  // Single-phase: the default stream, then a policy's stream.
  const cuda::std::array<int*, 3> out{d_r.data(), d_g.data(), d_b.data()};
  poison();
  REQUIRE(strata::DeviceHistogram::MultiHistogramEven<4, 3>(d_samples.data(), out, cuda::std::array<int, 3>{257, 33, 9},
                                                            cuda::std::array<int, 3>{0, 0, 100},
                                                            cuda::std::array<int, 3>{256, 256, 200},
                                                            static_cast<int>(pixels))
          == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(download() == expected);

  cudaStream_t stream{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  poison();
  REQUIRE(strata::DeviceHistogram::MultiHistogramRange<4, 3>(
            d_samples.data(), out, cuda::std::array<int, 3>{257, 33, 9},
            cuda::std::array<const int*, 3>{d_levels_r.data(), d_levels_g.data(), d_levels_b.data()}, 100, 50,
            size_t(400), strata::par.on(stream))
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  const auto expected_range_2d = reference<4, 3, int>(samples, region{0, 100, 50, 400}, range_rules, {257, 33, 9});
  CHECK(download() == expected_range_2d);
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceHistogram::Multi*: bad arguments are refused and nothing is written", "[device][histogram][errors]")
{
  const auto samples = make_samples<std::uint8_t>(4000, 0xbad);
  const device_buffer<std::uint8_t> d_samples(samples);
  device_buffer<int> d_r(16), d_g(16);
  device_buffer<char> d_temp(256);
  std::size_t bytes = 256;
  using L2          = cuda::std::array<int, 2>;
  const cuda::std::array<int*, 2> out{d_r.data(), d_g.data()};
  const auto refused = [&](cudaError_t e) {
    CHECK(e == cudaErrorInvalidValue);
  };
  using strata::DeviceHistogram;
  // One channel with too few levels, one null output, a negative count, a stride shorter than a row.
  refused(DeviceHistogram::MultiHistogramEven<4, 2>(d_temp.data(), bytes, d_samples.data(), out, L2{17, 1}, L2{0, 0},
                                                    L2{256, 256}, 1000));
  refused(DeviceHistogram::MultiHistogramEven<4, 2>(d_temp.data(), bytes, d_samples.data(),
                                                    cuda::std::array<int*, 2>{d_r.data(), nullptr}, L2{17, 17},
                                                    L2{0, 0}, L2{256, 256}, 1000));
  refused(DeviceHistogram::MultiHistogramEven<4, 2>(d_temp.data(), bytes, d_samples.data(), out, L2{17, 17}, L2{0, 0},
                                                    L2{256, 256}, -1));
  refused(DeviceHistogram::MultiHistogramEven<4, 2>(d_temp.data(), bytes, d_samples.data(), out, L2{17, 17}, L2{0, 0},
                                                    L2{256, 256}, 100, 4, size_t(399)));
  refused(DeviceHistogram::MultiHistogramRange<4, 2>(d_temp.data(), bytes, d_samples.data(), out, L2{17, 17},
                                                     cuda::std::array<const int*, 2>{nullptr, nullptr}, 1000));
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_r.download()));
  CHECK(strata_test::all_poisoned(d_g.download()));
}
