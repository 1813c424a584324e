// DeviceScan::ExclusiveSumByKey and InclusiveSumByKey (int and double values), ExclusiveScanByKey and
// InclusiveScanByKey (cuda::maximum<> on int, cuda::std::plus<> with an initial value on double, the
// non-commutative mat_mul on mat2x2), over keys in short runs, long runs, one run and no runs, with the default
// and a custom key equality, in place and out of place; float sums by key that are the same bits run to run. The
// references are plain loops over the keys.
#include "device_scan_harness.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace
{
using device_scan_test::host_equal;
using device_scan_test::key_pattern;
using device_scan_test::same_decade;
using device_scan_test::wrapping_plus;
using strata_test::mat2x2;

// The tiles of the by-key scans tested here.
constexpr std::size_t INT_SUM_TILE         = device_scan_test::by_key_tile_items<int, cuda::std::plus<>>();
constexpr std::size_t INT_MAX_TILE         = device_scan_test::by_key_tile_items<int, cuda::maximum<>>();
constexpr std::size_t DOUBLE_SUM_TILE      = device_scan_test::by_key_tile_items<double, cuda::std::plus<>>();
constexpr std::size_t MAT_TILE             = device_scan_test::by_key_tile_items<mat2x2, strata_test::mat_mul>();
constexpr std::size_t INT_SUM_BULK_TILE    = device_scan_test::by_key_bulk_tile_items<int, cuda::std::plus<>>();
constexpr std::size_t DOUBLE_SUM_BULK_TILE = device_scan_test::by_key_bulk_tile_items<double, cuda::std::plus<>>();
static_assert(INT_SUM_BULK_TILE > 0 && DOUBLE_SUM_BULK_TILE > 0, "the sums by key have a bulk path to sweep");

// The sizes of the by-key tests: the short list, and the full sweep around the register and bulk tiles for short
// runs (where the carry of a segment across tile boundaries matters most).
std::vector<std::size_t> by_key_sizes(const key_pattern& pattern, std::size_t tile, std::size_t bulk_tile = 0)
{
  return pattern.max_run <= 3 ? device_scan_test::scan_sizes(tile, std::size_t(1) << 21, 51, bulk_tile)
                              : device_scan_test::short_sizes(tile);
}

// ExclusiveSumByKey and InclusiveSumByKey of `h_values` under `h_keys`, with `device_eq` on the device and
// `host_eq` in the references.
template <typename K, typename V, typename DeviceEq, typename HostEq>
void check_sums_by_key(const std::vector<K>& h_keys, const std::vector<V>& h_values, DeviceEq device_eq, HostEq host_eq,
                       strata_test::launch_mode mode)
{
  const std::size_t n = h_values.size();
  strata_test::device_buffer<K> d_keys(h_keys);
  strata_test::device_buffer<V> d_values(h_values);
  strata_test::device_buffer<V> d_out(n);
  {
    INFO("ExclusiveSumByKey");
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::ExclusiveSumByKey(temp, bytes, d_keys.data(), d_values.data(), d_out.data(),
                                                     static_cast<int>(n), device_eq, s);
      },
      mode);
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(),
                                 device_scan_test::reference_exclusive_scan_by_key(h_keys, h_values, V{},
                                                                                   wrapping_plus{}, host_eq));
  }
  d_out.poison();
  {
    INFO("InclusiveSumByKey");
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveSumByKey(temp, bytes, d_keys.data(), d_values.data(), d_out.data(),
                                                     static_cast<int>(n), device_eq, s);
      },
      mode);
    STRATA_REQUIRE_EQUAL_VECTORS(
      d_out.download(), device_scan_test::reference_inclusive_scan_by_key(h_keys, h_values, wrapping_plus{}, host_eq));
  }
  INFO("keys and values are left as they were");
  STRATA_REQUIRE_EQUAL_VECTORS(d_keys.download(), h_keys);
  STRATA_REQUIRE_EQUAL_VECTORS(d_values.download(), h_values);
}

// ExclusiveScanByKey (with `init`) and InclusiveScanByKey of `h_values` under `h_keys`, with `device_op` and
// `device_eq` on the device and `host_op` and `host_eq` in the references.
template <typename K, typename V, typename DeviceOp, typename HostOp, typename DeviceEq, typename HostEq>
void check_scans_by_key(const std::vector<K>& h_keys, const std::vector<V>& h_values, DeviceOp device_op,
                        HostOp host_op, V init, DeviceEq device_eq, HostEq host_eq, strata_test::launch_mode mode)
{
  const std::size_t n = h_values.size();
  strata_test::device_buffer<K> d_keys(h_keys);
  strata_test::device_buffer<V> d_values(h_values);
  strata_test::device_buffer<V> d_out(n);
  {
    INFO("ExclusiveScanByKey");
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::ExclusiveScanByKey(temp, bytes, d_keys.data(), d_values.data(), d_out.data(),
                                                      device_op, init, static_cast<int>(n), device_eq, s);
      },
      mode);
    STRATA_REQUIRE_EQUAL_VECTORS(
      d_out.download(), device_scan_test::reference_exclusive_scan_by_key(h_keys, h_values, init, host_op, host_eq));
  }
  d_out.poison();
  {
    INFO("InclusiveScanByKey");
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveScanByKey(temp, bytes, d_keys.data(), d_values.data(), d_out.data(),
                                                      device_op, static_cast<int>(n), device_eq, s);
      },
      mode);
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(),
                                 device_scan_test::reference_inclusive_scan_by_key(h_keys, h_values, host_op, host_eq));
  }
  INFO("keys and values are left as they were");
  STRATA_REQUIRE_EQUAL_VECTORS(d_keys.download(), h_keys);
  STRATA_REQUIRE_EQUAL_VECTORS(d_values.download(), h_values);
}
} // namespace

TEST_CASE("DeviceScan sums by key match the host for every key pattern", "[device][scan][by-key]")
{
  for (const key_pattern& pattern : device_scan_test::key_patterns())
  {
    CAPTURE(pattern.name);
    SECTION(std::string("int values, ") + pattern.name)
    {
      for (std::size_t n : by_key_sizes(pattern, INT_SUM_TILE, INT_SUM_BULK_TILE))
      {
        CAPTURE(n);
        check_sums_by_key(device_scan_test::run_keys<int>(n, pattern, 29 * n + 1),
                          strata_test::random_vector<int>(n, 31 * n + 2), cuda::std::equal_to<>{}, host_equal{},
                          device_scan_test::mode_for(n));
      }
    }
    SECTION(std::string("double values, ") + pattern.name)
    {
      for (std::size_t n : by_key_sizes(pattern, DOUBLE_SUM_TILE, DOUBLE_SUM_BULK_TILE))
      {
        CAPTURE(n);
        check_sums_by_key(device_scan_test::run_keys<int>(n, pattern, 37 * n + 3),
                          strata_test::random_vector<double>(n, 41 * n + 4), cuda::std::equal_to<>{}, host_equal{},
                          device_scan_test::mode_for(n));
      }
    }
  }
}

TEST_CASE("DeviceScan scans by key match the host for every key pattern", "[device][scan][by-key]")
{
  for (const key_pattern& pattern : device_scan_test::key_patterns())
  {
    CAPTURE(pattern.name);
    SECTION(std::string("cuda::maximum<> on int, ") + pattern.name)
    {
      for (std::size_t n : by_key_sizes(pattern, INT_MAX_TILE))
      {
        CAPTURE(n);
        check_scans_by_key(device_scan_test::run_keys<int>(n, pattern, 43 * n + 5),
                           strata_test::random_vector<int>(n, 47 * n + 6), cuda::maximum<>{}, strata_test::host_max{},
                           -1000, cuda::std::equal_to<>{}, host_equal{}, device_scan_test::mode_for(n));
      }
    }
    SECTION(std::string("cuda::std::plus<> with an initial value on double, ") + pattern.name)
    {
      for (std::size_t n : device_scan_test::short_sizes(DOUBLE_SUM_TILE))
      {
        CAPTURE(n);
        check_scans_by_key(device_scan_test::run_keys<int>(n, pattern, 53 * n + 7),
                           strata_test::random_vector<double>(n, 59 * n + 8), cuda::std::plus<>{}, wrapping_plus{}, 0.5,
                           cuda::std::equal_to<>{}, host_equal{}, device_scan_test::mode_for(n));
      }
    }
    SECTION(std::string("mat_mul on mat2x2, ") + pattern.name)
    {
      const mat2x2 init = strata_test::random_vector<mat2x2>(1, 5151)[0];
      for (std::size_t n : by_key_sizes(pattern, MAT_TILE))
      {
        CAPTURE(n);
        check_scans_by_key(device_scan_test::run_keys<int>(n, pattern, 61 * n + 9),
                           strata_test::random_vector<mat2x2>(n, 67 * n + 10), strata_test::mat_mul{},
                           strata_test::mat_mul{}, init, cuda::std::equal_to<>{}, host_equal{},
                           device_scan_test::mode_for(n));
      }
    }
  }
}

TEST_CASE("DeviceScan by key with a custom key equality", "[device][scan][by-key]")
{
  // Keys of one run differ in their last digit: only same_decade sees the runs as segments.
  const key_pattern patterns[] = {{"short runs (1..3)", 1, 3}, {"long runs (1000..5000)", 1000, 5000}};
  for (const key_pattern& pattern : patterns)
  {
    CAPTURE(pattern.name);
    for (std::size_t n : device_scan_test::short_sizes(INT_SUM_TILE))
    {
      CAPTURE(n);
      const std::vector<int> keys = device_scan_test::decade_keys(n, pattern, 71 * n + 11);
      {
        INFO("int sums");
        check_sums_by_key(keys, strata_test::random_vector<int>(n, 73 * n + 12), same_decade{}, same_decade{},
                          device_scan_test::mode_for(n));
      }
      {
        INFO("mat_mul scans");
        check_scans_by_key(keys, strata_test::random_vector<mat2x2>(n, 79 * n + 13), strata_test::mat_mul{},
                           strata_test::mat_mul{}, strata_test::random_vector<mat2x2>(1, 83 * n)[0], same_decade{},
                           same_decade{}, device_scan_test::mode_for(n));
      }
    }
  }
}

TEST_CASE("DeviceScan by key with narrow and wide keys", "[device][scan][by-key]")
{
  // int8 keys wrap around every 256 runs; 64-bit keys take the widest path through the key comparisons.
  const key_pattern pattern{"short runs (1..3)", 1, 3};
  for (std::size_t n : device_scan_test::short_sizes(INT_SUM_TILE))
  {
    CAPTURE(n);
    const std::vector<int> values = strata_test::random_vector<int>(n, 89 * n + 14);
    {
      INFO("int8 keys");
      check_sums_by_key(device_scan_test::run_keys<std::int8_t>(n, pattern, 97 * n + 15), values,
                        cuda::std::equal_to<>{}, host_equal{}, device_scan_test::mode_for(n));
    }
    {
      INFO("uint64 keys");
      check_sums_by_key(device_scan_test::run_keys<std::uint64_t>(n, pattern, 101 * n + 16), values,
                        cuda::std::equal_to<>{}, host_equal{}, device_scan_test::mode_for(n));
    }
  }
}

TEST_CASE("DeviceScan by key in place", "[device][scan][by-key][in-place]")
{
  const key_pattern pattern{"short runs (1..3)", 1, 3};
  // Beyond the short sizes, more tiles than an H100 or H200 holds at once (2^22 items in tiles of about a
  // thousand): later tiles then start after earlier ones have stored, which is when overwriting keys that a
  // following tile still reads would show.
  std::vector<std::size_t> sizes = device_scan_test::short_sizes(INT_SUM_TILE);
  sizes.push_back((std::size_t(1) << 22) + 17);
  for (std::size_t n : sizes)
  {
    CAPTURE(n);
    const auto mode               = device_scan_test::mode_for(n);
    const int num_items           = static_cast<int>(n);
    const std::vector<int> h_keys = device_scan_test::run_keys<int>(n, pattern, 103 * n + 17);
    strata_test::device_buffer<int> d_keys(h_keys);
    const std::vector<int> h_values = strata_test::random_vector<int>(n, 107 * n + 18);
    strata_test::device_buffer<int> d_values(h_values);
    int* keys   = d_keys.data();
    int* values = d_values.data();
    {
      INFO("ExclusiveSumByKey with d_values_in == d_values_out");
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceScan::ExclusiveSumByKey(temp, bytes, keys, values, values, num_items,
                                                       cuda::std::equal_to<>{}, s);
        },
        mode);
      STRATA_REQUIRE_EQUAL_VECTORS(d_values.download(),
                                   device_scan_test::reference_exclusive_scan_by_key(h_keys, h_values, 0,
                                                                                     wrapping_plus{}, host_equal{}));
    }
    d_values.upload(h_values);
    {
      INFO("InclusiveSumByKey with d_values_in == d_values_out");
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceScan::InclusiveSumByKey(temp, bytes, keys, values, values, num_items,
                                                       cuda::std::equal_to<>{}, s);
        },
        mode);
      STRATA_REQUIRE_EQUAL_VECTORS(d_values.download(),
                                   device_scan_test::reference_inclusive_scan_by_key(h_keys, h_values, wrapping_plus{},
                                                                                     host_equal{}));
    }
    d_values.upload(h_values);
    {
      INFO("ExclusiveScanByKey with d_values_in == d_values_out");
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceScan::ExclusiveScanByKey(temp, bytes, keys, values, values, cuda::maximum<>{}, -1000,
                                                        num_items, cuda::std::equal_to<>{}, s);
        },
        mode);
      STRATA_REQUIRE_EQUAL_VECTORS(d_values.download(),
                                   device_scan_test::reference_exclusive_scan_by_key(h_keys, h_values, -1000,
                                                                                     strata_test::host_max{},
                                                                                     host_equal{}));
    }
    d_values.upload(h_values);
    {
      INFO("InclusiveScanByKey with d_values_in == d_values_out");
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceScan::InclusiveScanByKey(temp, bytes, keys, values, values, cuda::maximum<>{}, num_items,
                                                        cuda::std::equal_to<>{}, s);
        },
        mode);
      STRATA_REQUIRE_EQUAL_VECTORS(d_values.download(), device_scan_test::reference_inclusive_scan_by_key(
                                                          h_keys, h_values, strata_test::host_max{}, host_equal{}));
    }
  }
}

TEST_CASE("DeviceScan by key defaults to cuda::std::equal_to<> and stream 0", "[device][scan][by-key]")
{
  // No equality operator and no stream: the defaults of the signatures. The calls run on the legacy default
  // stream, which the download below waits for.
  const key_pattern pattern{"short runs (1..3)", 1, 3};
  for (std::size_t n : {std::size_t(1), std::size_t(4097), std::size_t(1000003)})
  {
    CAPTURE(n);
    const std::vector<int> h_keys   = device_scan_test::run_keys<int>(n, pattern, 109 * n + 19);
    const std::vector<int> h_values = strata_test::random_vector<int>(n, 113 * n + 20);
    strata_test::device_buffer<int> d_keys(h_keys);
    strata_test::device_buffer<int> d_values(h_values);
    strata_test::device_buffer<int> d_out(n);
    const int num_items = static_cast<int>(n);
    {
      INFO("InclusiveSumByKey");
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t) {
        return strata::DeviceScan::InclusiveSumByKey(temp, bytes, d_keys.data(), d_values.data(), d_out.data(),
                                                     num_items);
      });
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(),
                                   device_scan_test::reference_inclusive_scan_by_key(h_keys, h_values, wrapping_plus{},
                                                                                     host_equal{}));
    }
    d_out.poison();
    {
      INFO("ExclusiveScanByKey");
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t) {
        return strata::DeviceScan::ExclusiveScanByKey(temp, bytes, d_keys.data(), d_values.data(), d_out.data(),
                                                      cuda::maximum<>{}, 5, num_items);
      });
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), device_scan_test::reference_exclusive_scan_by_key(
                                                       h_keys, h_values, 5, strata_test::host_max{}, host_equal{}));
    }
  }
}

TEST_CASE("DeviceScan float sums by key are the same bits run to run and close to the exact sums",
          "[device][scan][by-key][determinism]")
{
  const std::size_t tile = device_scan_test::by_key_tile_items<float, cuda::std::plus<>>();
  const std::size_t n    = strata_test::capped(std::size_t(1) << 22);
  // Segments of up to 8 tiles, and one of 40 (longer than a look-back window of 32 tiles: the look-back finds no
  // head in it), of floats with full mantissas: every grouping of their additions rounds differently.
  std::vector<int> h_keys = device_scan_test::run_keys<int>(n, key_pattern{"up to 8 tiles", 1, 8 * tile}, 0x5eed);
  std::fill(h_keys.begin() + static_cast<std::ptrdiff_t>(n / 4),
            h_keys.begin() + static_cast<std::ptrdiff_t>(std::min(n, n / 4 + 40 * tile)), h_keys[n / 4]);
  const std::vector<float> h_values = strata_test::full_mantissa_floats(n, 0x5eee);
  strata_test::device_buffer<int> d_keys(h_keys);
  strata_test::device_buffer<float> d_values(h_values);
  strata_test::device_buffer<float> d_out(n);

  const std::vector<float> got =
    device_scan_test::same_bits_three_runs(d_out, [&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::InclusiveSumByKey(temp, bytes, d_keys.data(), d_values.data(), d_out.data(),
                                                   static_cast<int>(n), cuda::std::equal_to<>{}, s);
    });
  // Against the exact sums of each segment up to each item.
  double exact       = 0;
  std::size_t behind = 0;
  std::size_t next   = 0; // the item the running sums have reached
  device_scan_test::require_within_rounding(got, [&](std::size_t i) {
    for (; next <= i; ++next)
    {
      if (next == 0 || h_keys[next] != h_keys[next - 1])
      {
        exact  = 0;
        behind = 0;
      }
      exact += h_values[next];
      ++behind;
    }
    return std::make_pair(exact, behind);
  });
}
