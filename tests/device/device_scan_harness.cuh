// Shared by the tests/device/device_scan_*.cu files: the sizes DeviceScan is run at (every size class of
// test_sizes plus partial-tile remainders around several tile multiples), host references (wrapping integer
// sums, inclusive scans with an initial value, scans by key written as plain loops), key sequences with chosen
// run lengths, and the checks that an output was left untouched.
#pragma once

#include <strata/device/device_scan.cuh>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <cuda/functional>
#include <cuda/std/functional>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

namespace device_scan_test
{

// The tile the size sweep is built around. DeviceScan's real tile depends on the value type and the
// architecture's tuning; scan_sizes() sweeps remainders around this tile and around `tile` passed by the caller.
constexpr std::size_t SWEEP_TILE = 4096;

// The tile of DeviceScan's newest tuning for the accumulator AccumT of operator ScanOpT.
template <typename AccumT, typename ScanOpT>
constexpr std::size_t tile_items()
{
  return strata::detail::scan::policy_hub<AccumT, ScanOpT>::MaxPolicy::ScanPolicy::TILE_ITEMS;
}

// The tile of a sum of T items (narrow integers accumulate as int, as op(T, T) does).
template <typename T>
constexpr std::size_t sum_tile_items()
{
  return tile_items<std::decay_t<decltype(std::declval<T>() + std::declval<T>())>, cuda::std::plus<>>();
}

// The tile of a by-key scan of V values with ScanOpT: the scan runs over (run head, value) pairs.
template <typename V, typename ScanOpT>
constexpr std::size_t by_key_tile_items()
{
  return tile_items<strata::detail::scan::segmented_value<V>, strata::detail::scan::segmented_op<ScanOpT>>();
}

// The bulk tile (sm_90) of a by-key scan of V values with ScanOpT, 0 where the tuning has none: the policy's vectors
// of the by-key tile's VECTOR_ITEMS values (the keys' type does not change it).
template <typename V, typename ScanOpT>
constexpr std::size_t by_key_bulk_tile_items()
{
  using Hub   = strata::detail::scan::policy_hub<strata::detail::scan::segmented_value<V>,
                                               strata::detail::scan::segmented_op<ScanOpT>>;
  using Bulk  = strata::detail::scan::bulk_policy<typename Hub::MaxPolicy>;
  using TileT = strata::detail::scan::bulk_by_key_tile<int, V, cuda::std::equal_to<>, V>;
  return Bulk::exists ? std::size_t(Bulk::type::BLOCK_THREADS) * Bulk::type::VECTORS_PER_THREAD * TileT::VECTOR_ITEMS
                      : 0;
}

// The largest input of the size sweeps (2^22 items: 64 MiB of custom_t).
constexpr std::size_t MAX_ITEMS = std::size_t(1) << 22;

// test_sizes(tile, max_size) plus k * t + r for t in {SWEEP_TILE, tile, second_tile} (a second tile, such as the
// bulk path's, where not 0), a few multiples k and remainders r from an empty last tile (r = 0) through one item
// (r = 1) to one item short of a full tile (r = t - 1).
inline std::vector<std::size_t> scan_sizes(std::size_t tile, std::size_t max_size, std::uint64_t salt,
                                           std::size_t second_tile = 0)
{
  std::vector<std::size_t> s        = strata_test::test_sizes(tile, max_size, salt);
  const std::vector<std::size_t> st = strata_test::test_sizes(SWEEP_TILE, max_size, salt + 1);
  s.insert(s.end(), st.begin(), st.end());
  for (std::size_t t : {SWEEP_TILE, tile, second_tile})
  {
    for (std::size_t k : {1, 2, 3, 8, 61})
    {
      for (std::size_t r : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(31), std::size_t(33), t / 2,
                            t - 33, t - 2, t - 1})
      {
        if (t > 33 && r < t && k * t + r <= max_size)
        {
          s.push_back(k * t + r);
        }
      }
    }
  }
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

// A shorter list for tests that run several variants per size: the edge classes, partial tiles around a few
// multiples of `tile` and of SWEEP_TILE, and two sizes of many tiles.
inline std::vector<std::size_t> short_sizes(std::size_t tile)
{
  std::vector<std::size_t> s = {0, 1, 2, 31, 33, 997, 7919, 65537, 1000003};
  for (std::size_t t : {SWEEP_TILE, tile})
  {
    s.insert(s.end(), {t - 1, t, t + 1, 2 * t - 1, 2 * t + 1, 3 * t + t / 2, 17 * t, 17 * t + 1, 17 * t + t - 1});
  }
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

// Alternates stream and graph launches over the sizes. An empty size always runs on a stream: it launches
// nothing, and capturing nothing is not what the graph mode is meant to test.
inline strata_test::launch_mode mode_for(std::size_t n)
{
  return (n != 0 && n % 3 == 0) ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
}

// -- host references -----------------------------------------------------------------------------------------

// a + b, wrapping for integers through the unsigned type of the same width (defined behaviour on the host for
// any inputs, and the same bits as the device's accumulate-then-narrow for narrow types).
struct wrapping_plus
{
  template <typename T>
  T operator()(const T& a, const T& b) const
  {
    if constexpr (std::is_integral<T>::value)
    {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    }
    else
    {
      return static_cast<T>(a + b);
    }
  }
};

// out[i] = init op in[0] op ... op in[i].
template <typename T, typename Op>
std::vector<T> reference_inclusive_scan_init(const std::vector<T>& in, T init, Op op)
{
  std::vector<T> out(in.size());
  T running = init;
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    running = op(running, in[i]);
    out[i]  = running;
  }
  return out;
}

// A segment starts at 0 and wherever a key is not equal (by `eq`, applied to the preceding key and the key)
// to the key before it.
template <typename K, typename Eq>
bool starts_segment(const std::vector<K>& keys, std::size_t i, Eq eq)
{
  return i == 0 || !eq(keys[i - 1], keys[i]);
}

// out[i] = values[s] op ... op values[i], s the first position of i's segment.
template <typename K, typename V, typename Op, typename Eq>
std::vector<V> reference_inclusive_scan_by_key(const std::vector<K>& keys, const std::vector<V>& values, Op op, Eq eq)
{
  std::vector<V> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
  {
    out[i] = starts_segment(keys, i, eq) ? values[i] : op(out[i - 1], values[i]);
  }
  return out;
}

// out[i] = init op values[s] op ... op values[i - 1], s the first position of i's segment (init where i == s).
template <typename K, typename V, typename Op, typename Eq>
std::vector<V> reference_exclusive_scan_by_key(const std::vector<K>& keys, const std::vector<V>& values, V init, Op op,
                                               Eq eq)
{
  std::vector<V> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
  {
    out[i] = starts_segment(keys, i, eq) ? init : op(out[i - 1], values[i - 1]);
  }
  return out;
}

// Key equality on the host (the device gets cuda::std::equal_to<> or the test's own operator).
struct host_equal
{
  template <typename K>
  bool operator()(const K& a, const K& b) const
  {
    return a == b;
  }
};

// Keys that are equal when they fall in the same decade (k / 10): a custom equality under which neighbouring
// keys with different values still belong to one segment. Keys are non-negative.
struct same_decade
{
  __host__ __device__ bool operator()(int a, int b) const
  {
    return a / 10 == b / 10;
  }
};

// -- keys ------------------------------------------------------------------------------------------------------

// How the keys of a by-key test are laid out: run lengths drawn uniformly from [min_run, max_run].
struct key_pattern
{
  const char* name;
  std::size_t min_run;
  std::size_t max_run;
};

inline std::vector<key_pattern> key_patterns()
{
  const std::size_t whole = std::numeric_limits<std::size_t>::max() / 2;
  return {{"short runs (1..3)", 1, 3},
          {"long runs (1000..5000)", 1000, 5000},
          {"all keys equal", whole, whole},
          {"all keys distinct", 1, 1}};
}

// n keys in runs of lengths from `pattern`; run j holds the value j converted to K, so neighbouring runs always
// differ, also for narrow K where j wraps around.
template <typename K>
std::vector<K> run_keys(std::size_t n, const key_pattern& pattern, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::uniform_int_distribution<std::size_t> run_length(pattern.min_run, pattern.max_run);
  std::vector<K> keys(n);
  std::size_t i = 0;
  for (std::size_t run = 0; i < n; ++run)
  {
    const std::size_t end = std::min(n, i + run_length(rng));
    for (; i < end; ++i)
    {
      keys[i] = static_cast<K>(run);
    }
  }
  return keys;
}

// As run_keys<int>, with each key of run j a random member of the decade [10 j, 10 j + 9]: with same_decade the
// runs are the segments; with plain equality almost every key starts a segment of its own.
inline std::vector<int> decade_keys(std::size_t n, const key_pattern& pattern, std::uint64_t salt)
{
  std::vector<int> keys = run_keys<int>(n, pattern, salt);
  std::mt19937_64 rng   = strata_test::make_rng(salt ^ 0xdecadeULL);
  std::uniform_int_distribution<int> digit(0, 9);
  for (int& k : keys)
  {
    k = 10 * k + digit(rng);
  }
  return keys;
}

// -- untouched outputs -------------------------------------------------------------------------------------------

using strata_test::all_poisoned;

// One element of a device array, read on its own (for outputs too large to download).
template <typename T>
T read_element(const T* d_ptr, std::size_t i)
{
  T value{};
  STRATA_TEST_CUDA(cudaMemcpy(&value, d_ptr + i, sizeof(T), cudaMemcpyDeviceToHost));
  return value;
}

// Runs `launch` (a strata_test::launch body that writes d_out) three times, the second under graph capture, and
// checks that the three outputs are the same bits; returns the first.
template <typename Launch>
std::vector<float> same_bits_three_runs(strata_test::device_buffer<float>& d_out, Launch launch)
{
  std::vector<std::vector<float>> results;
  for (int run = 0; run < 3; ++run)
  {
    d_out.poison();
    strata_test::launch(launch, run == 1 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream);
    results.push_back(d_out.download());
  }
  for (int run = 1; run < 3; ++run)
  {
    CAPTURE(run);
    CHECK(std::memcmp(results[run].data(), results[0].data(), results[0].size() * sizeof(float)) == 0);
  }
  return results[0];
}

// Checks float sums against exact ones: exact(i) gives output i's exact sum (a double holds every partial sum of
// floats to far better than float precision) and the number of additions behind it. Rounding errors grow like the
// square root of that number; the bound leaves a wide margin over it and still catches a tile added twice or left
// out.
template <typename Exact>
void require_within_rounding(const std::vector<float>& got, Exact exact)
{
  const std::size_t n   = got.size();
  std::size_t first_bad = n;
  double want           = 0;
  for (std::size_t i = 0; i < n && first_bad == n; ++i)
  {
    const auto sum_and_count = exact(i);
    want                     = sum_and_count.first;
    const double bound       = 2e-4 * std::sqrt(static_cast<double>(sum_and_count.second)) + 1e-6;
    if (!(std::abs(static_cast<double>(got[i]) - want) <= bound))
    {
      first_bad = i;
    }
  }
  INFO("first output too far from the exact sum: " << first_bad);
  if (first_bad < n)
  {
    INFO("device " << got[first_bad] << ", exact " << want);
    CHECK(first_bad == n);
  }
}
} // namespace device_scan_test
