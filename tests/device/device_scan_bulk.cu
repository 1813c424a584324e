// DeviceScan's bulk path (tiles in shared memory moved by bulk copies, AgentScanBulk) under a policy hub that gives
// every scan of 4- and 8-byte arithmetic arrays small bulk tiles (128 threads x 3 vectors: 6 KiB, so that even the
// smaller sizes span many tiles and look back far): the non-commutative packed_affine_then on std::uint64_t, and
// float sums, inclusive, exclusive and with an initial value, in place and out of place, at every size class.
#include "device_scan_harness.cuh"

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace
{
using device_scan_test::MAX_ITEMS;

constexpr int BULK_THREADS = 128;
constexpr int BULK_VECTORS = 3;

struct bulk_hub
{
  struct Policy : strata::ChainedPolicy<900, Policy, Policy>
  {
    using ScanPolicy     = strata::AgentScanPolicy<128, 8, strata::BLOCK_LOAD_WARP_TRANSPOSE, strata::LOAD_PLAIN,
                                               strata::BLOCK_STORE_WARP_TRANSPOSE, strata::BLOCK_SCAN_WARP_SCANS>;
    using BulkScanPolicy = strata::AgentScanBulkPolicy<BULK_THREADS, BULK_VECTORS>;
  };
  using MaxPolicy = Policy;
};

template <typename T>
constexpr std::size_t bulk_tile()
{
  return std::size_t(BULK_THREADS) * BULK_VECTORS * 16 / sizeof(T);
}

// Runs DeviceScan's dispatch with bulk_hub: an inclusive scan (INIT_KIND 0), an exclusive scan with `init`
// (1), or an inclusive scan with `init` (2), of n items of d_in into d_out.
template <int INIT_KIND, typename T, typename Op>
void run_bulk(const T* d_in, T* d_out, Op op, T init, std::size_t n, strata_test::launch_mode mode)
{
  strata_test::launch(
    [&](void* temp, std::size_t& bytes, cudaStream_t s) {
      if constexpr (INIT_KIND == 0)
      {
        return strata::DispatchScan<const T*, T*, Op, strata::detail::scan::no_init, std::uint32_t, T,
                                    bulk_hub>::Dispatch(temp, bytes, d_in, d_out, op, {}, static_cast<std::uint32_t>(n),
                                                        s);
      }
      else
      {
        return strata::DispatchScan<const T*, T*, Op, T, std::uint32_t, T, bulk_hub, INIT_KIND == 2>::Dispatch(
          temp, bytes, d_in, d_out, op, init, static_cast<std::uint32_t>(n), s);
      }
    },
    mode);
}

// The three scans of `h_in`, out of place and in place, against host references computed in R.
template <typename R, typename T, typename Op, typename CompareT>
void check_bulk_scans(const std::vector<T>& h_in, Op op, T init, strata_test::launch_mode mode, CompareT compare)
{
  const std::size_t n = h_in.size();
  const std::vector<R> wide(h_in.begin(), h_in.end());
  const std::vector<R> expected[3] = {strata_test::reference_inclusive_scan(wide, op),
                                      strata_test::reference_exclusive_scan(wide, R(init), op),
                                      device_scan_test::reference_inclusive_scan_init(wide, R(init), op)};
  strata_test::device_buffer<T> d_in(h_in);
  strata_test::device_buffer<T> d_out(n);
  for (const bool in_place : {false, true})
  {
    CAPTURE(in_place);
    T* const out     = in_place ? d_in.data() : d_out.data();
    const auto check = [&](auto kind, const char* what) {
      constexpr int INIT_KIND = decltype(kind)::value;
      d_in.upload(h_in);
      d_out.poison();
      run_bulk<INIT_KIND>(d_in.data(), out, op, init, n, mode);
      compare(in_place ? d_in.download() : d_out.download(), expected[INIT_KIND], what);
    };
    check(std::integral_constant<int, 0>{}, "inclusive");
    check(std::integral_constant<int, 1>{}, "exclusive with init");
    check(std::integral_constant<int, 2>{}, "inclusive with init");
  }
}

struct exactly_equal
{
  template <typename T>
  void operator()(const std::vector<T>& out, const std::vector<T>& expected, const char* what) const
  {
    INFO(what);
    STRATA_REQUIRE_EQUAL_VECTORS(out, expected);
  }
};

// Float sums: each output may differ from the double-precision reference by rounding, bounded by 64 epsilon
// times the running sum of magnitudes (a tile's prefix added twice or left out is far outside that).
struct close_sums
{
  const std::vector<float>* in;
  void operator()(const std::vector<float>& out, const std::vector<double>& expected, const char* what) const
  {
    INFO(what);
    REQUIRE(out.size() == expected.size());
    double magnitude = 0.0;
    for (std::size_t i = 0; i < out.size(); ++i)
    {
      magnitude += std::abs(double((*in)[i]));
      if (!(std::abs(double(out[i]) - double(expected[i])) <= 64.0 * 1.2e-7 * (magnitude + 1.0)))
      {
        CAPTURE(i, out[i], expected[i]);
        FAIL("a float sum is off by more than rounding");
      }
    }
  }
};
} // namespace

TEST_CASE("DeviceScan's bulk path keeps the order of a non-commutative operator", "[device][scan][bulk]")
{
  const std::uint64_t init = strata_test::random_vector<std::uint64_t>(1, 6060)[0];
  for (std::size_t n :
       device_scan_test::scan_sizes(bulk_tile<std::uint64_t>(), MAX_ITEMS, 61, bulk_tile<std::uint64_t>() * 7))
  {
    CAPTURE(n);
    check_bulk_scans<std::uint64_t>(strata_test::random_vector<std::uint64_t>(n, 43 * n + 9),
                                    strata_test::packed_affine_then{}, init, device_scan_test::mode_for(n),
                                    exactly_equal{});
  }
}

TEST_CASE("DeviceScan's bulk path sums floats", "[device][scan][bulk]")
{
  for (std::size_t n : device_scan_test::short_sizes(bulk_tile<float>()))
  {
    CAPTURE(n);
    const std::vector<float> h_in = strata_test::random_vector<float>(n, 47 * n + 10);
    check_bulk_scans<double>(h_in, cuda::std::plus<>{}, 0.5f, device_scan_test::mode_for(n), close_sums{&h_in});
  }
}

namespace
{
// Runs DeviceScan's by-key dispatch with bulk_hub: an inclusive or (with `init`) exclusive scan by key of n items.
template <bool INCLUSIVE, typename K, typename V, typename Op>
void run_bulk_by_key(const K* d_keys, const V* d_values, V* d_out, Op op, V init, std::size_t n,
                     strata_test::launch_mode mode)
{
  using InitT = std::conditional_t<INCLUSIVE, strata::detail::scan::no_init, V>;
  strata_test::launch(
    [&](void* temp, std::size_t& bytes, cudaStream_t s) {
      InitT init_value{};
      if constexpr (!INCLUSIVE)
      {
        init_value = init;
      }
      return strata::DispatchScanByKey<const K*, const V*, V*, cuda::std::equal_to<>, Op, InitT, std::uint32_t, V,
                                       INCLUSIVE, bulk_hub>::Dispatch(temp, bytes, d_keys, d_values, d_out, {}, op,
                                                                      init_value, static_cast<std::uint32_t>(n), s);
    },
    mode);
}

// Both scans by key of `h_values` under `h_keys`, out of place and in place (the values' input is the output).
template <typename K, typename V, typename Op>
void check_bulk_scans_by_key(const std::vector<K>& h_keys, const std::vector<V>& h_values, Op op, V init,
                             strata_test::launch_mode mode)
{
  const std::size_t n = h_values.size();
  const std::vector<V> inclusive =
    device_scan_test::reference_inclusive_scan_by_key(h_keys, h_values, op, std::equal_to<>{});
  const std::vector<V> exclusive =
    device_scan_test::reference_exclusive_scan_by_key(h_keys, h_values, init, op, std::equal_to<>{});
  strata_test::device_buffer<K> d_keys(h_keys);
  strata_test::device_buffer<V> d_values(h_values);
  strata_test::device_buffer<V> d_out(n);
  for (const bool in_place : {false, true})
  {
    CAPTURE(in_place);
    V* const out      = in_place ? d_values.data() : d_out.data();
    const auto result = [&]() {
      return in_place ? d_values.download() : d_out.download();
    };
    d_out.poison();
    run_bulk_by_key<true>(d_keys.data(), d_values.data(), out, op, init, n, mode);
    {
      INFO("inclusive");
      STRATA_REQUIRE_EQUAL_VECTORS(result(), inclusive);
    }
    d_values.upload(h_values);
    d_out.poison();
    run_bulk_by_key<false>(d_keys.data(), d_values.data(), out, op, init, n, mode);
    {
      INFO("exclusive");
      STRATA_REQUIRE_EQUAL_VECTORS(result(), exclusive);
    }
    d_values.upload(h_values);
  }
  INFO("the keys are left as they were");
  STRATA_REQUIRE_EQUAL_VECTORS(d_keys.download(), h_keys);
}
} // namespace

TEST_CASE("DeviceScan's bulk path scans by key", "[device][scan][bulk][by-key]")
{
  const std::uint64_t init = strata_test::random_vector<std::uint64_t>(1, 6061)[0];
  for (const device_scan_test::key_pattern& pattern : device_scan_test::key_patterns())
  {
    CAPTURE(pattern.name);
    const std::vector<std::size_t> sizes =
      pattern.max_run <= 3
        ? device_scan_test::scan_sizes(bulk_tile<std::uint64_t>(), MAX_ITEMS, 67, bulk_tile<std::uint64_t>() * 7)
        : device_scan_test::short_sizes(bulk_tile<std::uint64_t>());
    for (std::size_t n : sizes)
    {
      CAPTURE(n);
      // 8-byte values under a non-commutative operator, 4-byte keys.
      check_bulk_scans_by_key(device_scan_test::run_keys<int>(n, pattern, 53 * n + 11),
                              strata_test::random_vector<std::uint64_t>(n, 59 * n + 12),
                              strata_test::packed_affine_then{}, init, device_scan_test::mode_for(n));
    }
  }
  // 4-byte values under wrapping sums, with 1-, 2- and 8-byte keys.
  for (std::size_t n : device_scan_test::short_sizes(bulk_tile<int>()))
  {
    CAPTURE(n);
    const device_scan_test::key_pattern pattern{"runs of 1..40", 1, 40};
    const std::vector<unsigned int> values = strata_test::random_vector<unsigned int>(n, 61 * n + 13);
    check_bulk_scans_by_key(device_scan_test::run_keys<std::int8_t>(n, pattern, 67 * n + 14), values,
                            cuda::std::plus<>{}, 7u, device_scan_test::mode_for(n));
    check_bulk_scans_by_key(device_scan_test::run_keys<std::int16_t>(n, pattern, 71 * n + 15), values,
                            cuda::std::plus<>{}, 7u, device_scan_test::mode_for(n));
    check_bulk_scans_by_key(device_scan_test::run_keys<long long>(n, pattern, 73 * n + 16), values, cuda::std::plus<>{},
                            7u, device_scan_test::mode_for(n));
  }
}
