// Shared by the tests/device/device_histogram_*.cu files: samples of every arithmetic type spread over a known span
// (with samples exactly at the bounds, outside them and NaN), the binning rules of HistogramEven and HistogramRange
// written out on the host (CUB's documented arithmetic), the host histograms of a 2D region of pixels, and a runner
// that calls a two-phase form on a stream or in a graph and checks every channel's histogram.
#pragma once

#include <strata/device/device_histogram.cuh>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <type_traits>
#include <vector>

namespace histogram_test
{
using strata_test::device_buffer;

// Samples a block of the library's newest policy reads per tile step, for pixels of NC channels of SampleT.
template <typename SampleT, int NC = 1, int NAC = 1>
constexpr std::size_t tile_samples()
{
  using Policy = typename strata::detail::histogram::policy_hub<SampleT, NC, NAC>::MaxPolicy::HistogramPolicy;
  return std::size_t(Policy::BLOCK_THREADS) * Policy::VECTORS_PER_THREAD * 16 / sizeof(SampleT);
}

// The level type CUB's users pass with each sample type.
template <typename SampleT>
using level_t = std::conditional_t<
  std::is_floating_point<SampleT>::value, SampleT,
  std::conditional_t<
    sizeof(SampleT) < 4, int,
    std::conditional_t<sizeof(SampleT) == 4, std::conditional_t<std::is_signed<SampleT>::value, int, unsigned int>,
                       std::conditional_t<std::is_signed<SampleT>::value, long long, unsigned long long>>>>;

// The span the random samples of SampleT are drawn from: the whole range of 8- and 16-bit integers, of uint32 and
// of multiples of 1/8 in [-128, 128] (float) or of 1/1024 in [-1024, 1024] (double); +-2^20 for int32, +-2^40 for
// int64, [0, 2^45] for uint64.
template <typename SampleT>
struct span
{
  static double lowest()
  {
    if (std::is_floating_point<SampleT>::value)
    {
      return sizeof(SampleT) == 4 ? -128.0 : -1024.0;
    }
    if (sizeof(SampleT) <= 2 || (sizeof(SampleT) == 4 && !std::is_signed<SampleT>::value))
    {
      return static_cast<double>(std::numeric_limits<SampleT>::lowest());
    }
    return std::is_signed<SampleT>::value ? -std::ldexp(1.0, sizeof(SampleT) == 4 ? 20 : 40) : 0.0;
  }
  static double highest()
  {
    if (std::is_floating_point<SampleT>::value)
    {
      return sizeof(SampleT) == 4 ? 128.0 : 1024.0;
    }
    if (sizeof(SampleT) <= 2 || (sizeof(SampleT) == 4 && !std::is_signed<SampleT>::value))
    {
      return static_cast<double>(std::numeric_limits<SampleT>::max());
    }
    return std::ldexp(1.0, sizeof(SampleT) == 4                                     ? 20
                           : sizeof(SampleT) == 8 && std::is_signed<SampleT>::value ? 40
                                                                                    : 45);
  }
};

// A random sample of SampleT within span<SampleT>.
template <typename SampleT>
SampleT random_sample(std::mt19937_64& rng)
{
  if constexpr (std::is_floating_point<SampleT>::value)
  {
    const long long step = sizeof(SampleT) == 4 ? 8 : 1024;
    std::uniform_int_distribution<long long> d(static_cast<long long>(span<SampleT>::lowest()) * step,
                                               static_cast<long long>(span<SampleT>::highest()) * step);
    return static_cast<SampleT>(static_cast<double>(d(rng)) / static_cast<double>(step));
  }
  else if constexpr (std::is_signed<SampleT>::value)
  {
    std::uniform_int_distribution<long long> d(static_cast<long long>(span<SampleT>::lowest()),
                                               static_cast<long long>(span<SampleT>::highest()));
    return static_cast<SampleT>(d(rng));
  }
  else
  {
    std::uniform_int_distribution<unsigned long long> d(0, static_cast<unsigned long long>(span<SampleT>::highest()));
    return static_cast<SampleT>(d(rng));
  }
}

// Levels [lower, upper) a tenth of the span inside each end of it, so that about a fifth of the samples fall outside.
template <typename SampleT, typename LevelT = level_t<SampleT>>
std::array<LevelT, 2> inner_levels()
{
  const double lo = span<SampleT>::lowest();
  const double hi = span<SampleT>::highest();
  if constexpr (std::is_floating_point<LevelT>::value)
  {
    return {static_cast<LevelT>(std::floor(lo * 0.8) + 0.5), static_cast<LevelT>(std::floor(hi * 0.8) + 0.25)};
  }
  else
  {
    return {static_cast<LevelT>(lo + (hi - lo) / 10), static_cast<LevelT>(hi - (hi - lo) / 10)};
  }
}

// `n` random samples with, every 97th place, a sample from `special` (the bounds, values just outside, NaN).
template <typename SampleT>
std::vector<SampleT> make_samples(std::size_t n, std::uint64_t salt, const std::vector<SampleT>& special = {})
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::vector<SampleT> v(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    v[i] = !special.empty() && i % 97 == 5 ? special[(i / 97) % special.size()] : random_sample<SampleT>(rng);
  }
  return v;
}

// The samples at and around HistogramEven's bounds: lower, upper, the values just below lower and just below
// upper, and NaN for floating point.
template <typename SampleT, typename LevelT>
std::vector<SampleT> bound_samples(LevelT lower, LevelT upper)
{
  std::vector<SampleT> s = {static_cast<SampleT>(lower), static_cast<SampleT>(upper)};
  if constexpr (std::is_floating_point<SampleT>::value)
  {
    s.push_back(std::nextafter(static_cast<SampleT>(lower), -std::numeric_limits<SampleT>::infinity()));
    s.push_back(std::nextafter(static_cast<SampleT>(upper), -std::numeric_limits<SampleT>::infinity()));
    s.push_back(std::numeric_limits<SampleT>::quiet_NaN());
    s.push_back(-std::numeric_limits<SampleT>::infinity());
    s.push_back(std::numeric_limits<SampleT>::infinity());
  }
  else
  {
    s.push_back(static_cast<SampleT>(static_cast<SampleT>(lower) - 1));
    s.push_back(static_cast<SampleT>(static_cast<SampleT>(upper) - 1));
  }
  return s;
}

// HistogramEven's rule on the host: num_levels - 1 bins over [lower, upper), in the common type.
template <typename SampleT, typename LevelT>
struct even_rule
{
  int num_levels;
  LevelT lower;
  LevelT upper;

  bool operator()(SampleT sample, int& bin) const
  {
    using CommonT    = std::common_type_t<SampleT, LevelT>;
    const int bins   = num_levels - 1;
    const CommonT c  = static_cast<CommonT>(sample);
    const CommonT lo = static_cast<CommonT>(lower);
    const CommonT hi = static_cast<CommonT>(upper);
    if (!(c >= lo && c < hi))
    {
      return false;
    }
    if constexpr (std::is_floating_point<CommonT>::value)
    {
      const CommonT scale = static_cast<CommonT>(static_cast<CommonT>(bins) / static_cast<CommonT>(hi - lo));
      bin                 = std::min(static_cast<int>((c - lo) * scale), bins - 1);
    }
    else
    {
      using U                      = std::make_unsigned_t<CommonT>;
      const unsigned __int128 off  = static_cast<U>(static_cast<U>(c) - static_cast<U>(lo));
      const unsigned __int128 span = static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo));
      bin                          = static_cast<int>(off * static_cast<unsigned>(bins) / span);
    }
    return true;
  }
};

// HistogramRange's rule on the host: bin i is [levels[i], levels[i + 1]), the sample compared as a LevelT.
template <typename SampleT, typename LevelT>
struct range_rule
{
  std::vector<LevelT> levels;

  bool operator()(SampleT sample, int& bin) const
  {
    const LevelT value = static_cast<LevelT>(sample);
    const auto above   = std::upper_bound(levels.begin(), levels.end(), value) - levels.begin();
    bin                = static_cast<int>(above) - 1;
    return above > 0 && above < static_cast<std::ptrdiff_t>(levels.size());
  }
};

// `num_levels` sorted, distinct, unevenly spaced levels of LevelT within the samples' span (a little inside it); for
// integer levels, at most half the values there are.
template <typename SampleT, typename LevelT = level_t<SampleT>>
std::vector<LevelT> uneven_levels(int num_levels, std::uint64_t salt)
{
  std::mt19937_64 rng                = strata_test::make_rng(salt);
  const std::array<LevelT, 2> bounds = inner_levels<SampleT, LevelT>();
  const double lo                    = static_cast<double>(bounds[0]);
  const double hi                    = static_cast<double>(bounds[1]);
  if (!std::is_floating_point<LevelT>::value)
  {
    num_levels = static_cast<int>(std::min<double>(num_levels, (hi - lo + 1) / 2));
  }
  const auto wanted = static_cast<std::size_t>(num_levels);
  std::vector<LevelT> levels;
  std::uniform_real_distribution<double> d(0.0, 1.0);
  while (levels.size() < wanted)
  {
    // Squared draws crowd the levels towards the lower bound: bins of very different widths.
    for (std::size_t k = levels.size(); k < wanted; ++k)
    {
      const double u = d(rng);
      levels.push_back(static_cast<LevelT>(lo + (hi - lo) * u * u));
    }
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  }
  return levels;
}

// A 2D region of a sample buffer: `rows` rows of `row_pixels` pixels of NC samples, `stride` samples from one row's
// start to the next, starting at sample `first`.
struct region
{
  std::size_t first;
  std::size_t row_pixels;
  std::size_t rows;
  std::size_t stride;
};

// The histograms of channels 0 .. NAC - 1 of the pixels of `r` in `buffer`, each by its rule.
template <int NC, int NAC, typename CounterT, typename SampleT, typename RuleT>
std::array<std::vector<CounterT>, NAC> reference(const std::vector<SampleT>& buffer, const region& r,
                                                 const std::array<RuleT, NAC>& rules,
                                                 const std::array<int, NAC>& num_levels)
{
  std::array<std::vector<CounterT>, NAC> out;
  for (int c = 0; c < NAC; ++c)
  {
    out[c].assign(static_cast<std::size_t>(num_levels[c] - 1), CounterT(0));
  }
  for (std::size_t row = 0; row < r.rows; ++row)
  {
    for (std::size_t p = 0; p < r.row_pixels; ++p)
    {
      for (int c = 0; c < NAC; ++c)
      {
        int bin = 0;
        if (rules[c](buffer[r.first + row * r.stride + p * NC + static_cast<std::size_t>(c)], bin))
        {
          out[c][static_cast<std::size_t>(bin)] = static_cast<CounterT>(out[c][static_cast<std::size_t>(bin)] + 1);
        }
      }
    }
  }
  return out;
}

// Runs `call(d_temp_storage, temp_storage_bytes, histograms, stream)` (a two-phase form writing the NAC device
// histograms it is given) on a stream or in a graph, with the histograms poisoned first, and checks them against
// `expected`. Returns the queried temporary-storage size.
template <int NAC, typename CounterT, typename Call>
std::size_t check(const std::array<std::vector<CounterT>, NAC>& expected, Call&& call,
                  strata_test::launch_mode mode = strata_test::launch_mode::stream)
{
  std::array<device_buffer<CounterT>*, NAC> d_out{};
  std::vector<std::unique_ptr<device_buffer<CounterT>>> owned;
  std::array<CounterT*, NAC> pointers{};
  for (int c = 0; c < NAC; ++c)
  {
    owned.push_back(std::make_unique<device_buffer<CounterT>>(expected[c].size()));
    d_out[c]    = owned.back().get();
    pointers[c] = d_out[c]->data();
  }
  const std::size_t bytes = strata_test::launch(
    [&](void* temp, std::size_t& temp_bytes, cudaStream_t s) {
      return call(temp, temp_bytes, pointers, s);
    },
    mode);
  for (int c = 0; c < NAC; ++c)
  {
    INFO("channel " << c);
    STRATA_REQUIRE_EQUAL_VECTORS(d_out[c]->download(), expected[c]);
  }
  return bytes;
}

// The mode a size runs in: graph capture on odd sizes.
inline strata_test::launch_mode mode_for(std::size_t n)
{
  return n % 2 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
}
} // namespace histogram_test
