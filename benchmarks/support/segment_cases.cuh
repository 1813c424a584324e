// The segment-length cases of the segmented algorithms' compare benchmarks (compare.segmented_reduce,
// compare.segmented_scan): n items in segments of uniform, power-law or giant-plus-tiny lengths, given CSR-style by
// num_segments + 1 offsets, drawn on the host:
//   uniform_<m>      lengths uniform in [1, 2m - 1]
//   power_law_64     lengths k in [1, 2^20] with probability about k^-1.79: 64 on average, most segments short and a
//                    few of up to 2^20 items
//   giant_tiny       one segment of half the items, amid segments 1 to 8 items long
// The segment that reaches the last item is cut there.
#pragma once

#include "bench_util.cuh"
#include "tuning_axes.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace strata_bench
{
enum class distribution
{
  uniform,
  power_law,
  giant_tiny
};


// The segment lengths of a case: their distribution and, for uniform and power-law lengths, their mean.
struct segment_lengths
{
  distribution kind;
  int mean;
};

inline std::string case_name(const segment_lengths& lengths)
{
  return lengths.kind == distribution::uniform   ? "uniform_" + std::to_string(lengths.mean)
       : lengths.kind == distribution::power_law ? "power_law_" + std::to_string(lengths.mean)
                                                 : std::string("giant_tiny");
}

// Power-law lengths: at most POWER_LAW_MAX, with the exponent whose lengths, rounded down, average POWER_LAW_MEAN at
// that bound (found by bisection on the mean, the sum over k of P(length >= k)).
constexpr int POWER_LAW_MAX       = 1 << 20;
constexpr int POWER_LAW_MEAN      = 64;
constexpr double POWER_LAW_SLOPE  = 1.791682;
constexpr int GIANT_TINY_MAX_TINY = 8;

// The i-th of a stream of random words.
inline std::uint64_t random_word(std::uint64_t seed, std::uint64_t i)
{
  return mix64((i + 1) * 0x9e3779b97f4a7c15ULL ^ seed);
}

// Appends segments of lengths `length(i)`, i counting the lengths drawn, until they cover the items up to `end`; the
// last segment is cut to end there.
template <typename Length>
inline void append_segments(std::vector<int>& offsets, std::size_t end, std::uint64_t& drawn, Length length)
{
  while (static_cast<std::size_t>(offsets.back()) < end)
  {
    const std::size_t left = end - static_cast<std::size_t>(offsets.back());
    offsets.push_back(offsets.back() + static_cast<int>(std::min<std::uint64_t>(length(drawn++), left)));
  }
}

// The offsets of n items in segments of the case's lengths: num_segments + 1 of them, from 0 to n.
inline std::vector<int> make_offsets(const segment_lengths& lengths, std::size_t n)
{
  std::vector<int> offsets{0};
  std::uint64_t drawn = 0;
  if (lengths.kind == distribution::uniform)
  {
    const std::uint64_t span = 2 * std::uint64_t(lengths.mean) - 1;
    append_segments(offsets, n, drawn, [&](std::uint64_t i) {
      return 1 + random_word(11, i) % span;
    });
  }
  else if (lengths.kind == distribution::power_law)
  {
    // Inverse transform sampling of the density x^-slope on [1, max + 1), rounded down.
    const double exponent = 1.0 - POWER_LAW_SLOPE;
    const double tail     = 1.0 - std::pow(double(POWER_LAW_MAX) + 1.0, exponent);
    append_segments(offsets, n, drawn, [&](std::uint64_t i) {
      const double u = static_cast<double>(random_word(13, i) >> 11) * 0x1p-53;
      const double x = std::pow(1.0 - u * tail, 1.0 / exponent);
      return std::clamp<std::uint64_t>(static_cast<std::uint64_t>(x), 1, POWER_LAW_MAX);
    });
  }
  else
  {
    // Tiny segments over the first quarter of the items, the giant one over the middle half, tiny ones after it.
    const auto tiny = [](std::uint64_t i) {
      return 1 + random_word(17, i) % GIANT_TINY_MAX_TINY;
    };
    append_segments(offsets, n / 4, drawn, tiny);
    offsets.push_back(offsets.back() + static_cast<int>(n / 2));
    append_segments(offsets, n, drawn, tiny);
  }
  return offsets;
}

// The offsets of the last case asked for: a case's libraries run one after another, and Google Benchmark calls each
// several times while it sizes the run, so the offsets of a case are drawn once.
inline const std::vector<int>& host_offsets(const segment_lengths& lengths, int log2_n)
{
  static std::tuple<distribution, int, int> drawn_for{distribution::uniform, 0, -1};
  static std::vector<int> offsets;
  const auto wanted = std::make_tuple(lengths.kind, lengths.mean, log2_n);
  if (wanted != drawn_for)
  {
    offsets   = make_offsets(lengths, std::size_t(1) << log2_n);
    drawn_for = wanted;
  }
  return offsets;
}

// Whether strata's results are CUB's: the same integers, floats within a relative 1e-3 (the two libraries group the
// additions differently).
template <typename T>
bool same_sums(const std::vector<T>& strata_sums, const std::vector<T>& cub_sums)
{
  for (std::size_t i = 0; i < strata_sums.size(); ++i)
  {
    if constexpr (std::is_floating_point<T>::value)
    {
      if (!(std::fabs(strata_sums[i] - cub_sums[i]) <= T(1e-3) * std::fabs(cub_sums[i])))
      {
        return false;
      }
    }
    else if (strata_sums[i] != cub_sums[i])
    {
      return false;
    }
  }
  return true;
}

// The cases every segmented benchmark runs: every distribution of lengths.
inline std::vector<segment_lengths> segment_cases()
{
  return {{distribution::uniform, 4},
          {distribution::uniform, 64},
          {distribution::uniform, 4096},
          {distribution::uniform, 1 << 20},
          {distribution::power_law, POWER_LAW_MEAN},
          {distribution::giant_tiny, 0}};
}
// Registers `bench` as the tuning benchmark "<name>/T{ct}:<token>" over 2^20, 2^24 and 2^28 items in segments of
// uniform lengths with means 4, 64, 4096 and 2^20 (the runtime axes of the segmented algorithms' tuning benches).
inline void register_segment_tuning(const std::string& name, const char* token, void (*bench)(benchmark::State&))
{
  benchmark::RegisterBenchmark(tuning_name(name, "T", token).c_str(), bench)
    ->ArgsProduct({{20, 24, 28}, {4, 64, 4096, 1 << 20}})
    ->ArgNames({"Elements{io}[pow2]", "MeanLength"})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
}
} // namespace strata_bench
