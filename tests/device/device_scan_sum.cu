// DeviceScan::ExclusiveSum and InclusiveSum: every value type at every size class (partial last tiles around
// several tile multiples included), in place and out of place, on a stream and under graph capture; every
// num_items type; floating-point sums that are the same bits run to run.
#include "device_scan_harness.cuh"

#include <algorithm>
#include <utility>
#include <vector>

namespace
{
using device_scan_test::MAX_ITEMS;
using device_scan_test::wrapping_plus;

template <typename T>
std::vector<T> exclusive_sums(const std::vector<T>& in)
{
  return strata_test::reference_exclusive_scan(in, T{}, wrapping_plus{});
}

template <typename T>
std::vector<T> inclusive_sums(const std::vector<T>& in)
{
  return strata_test::reference_inclusive_scan(in, wrapping_plus{});
}
} // namespace

TEMPLATE_TEST_CASE("DeviceScan::ExclusiveSum and InclusiveSum match the host for every size class",
                   "[device][scan][sum]", STRATA_TEST_ALL_TYPES)
{
  using T = TestType;
  for (std::size_t n : device_scan_test::scan_sizes(device_scan_test::sum_tile_items<T>(), MAX_ITEMS, 31))
  {
    CAPTURE(n);
    const std::vector<T> h_in = strata_test::random_vector<T>(n, 3 * n + 1);
    strata_test::device_buffer<T> d_in(h_in);
    strata_test::device_buffer<T> d_out(n);
    const auto mode = device_scan_test::mode_for(n);
    {
      INFO("ExclusiveSum");
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceScan::ExclusiveSum(temp, bytes, d_in.data(), d_out.data(), static_cast<int>(n), s);
        },
        mode);
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), exclusive_sums(h_in));
    }
    d_out.poison();
    {
      INFO("InclusiveSum");
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceScan::InclusiveSum(temp, bytes, d_in.data(), d_out.data(), static_cast<int>(n), s);
        },
        mode);
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), inclusive_sums(h_in));
    }
    INFO("the input is left as it was");
    STRATA_REQUIRE_EQUAL_VECTORS(d_in.download(), h_in);
  }
}

TEMPLATE_TEST_CASE("DeviceScan::ExclusiveSum and InclusiveSum in place", "[device][scan][sum][in-place]",
                   STRATA_TEST_ALL_TYPES)
{
  using T = TestType;
  for (std::size_t n : device_scan_test::short_sizes(device_scan_test::sum_tile_items<T>()))
  {
    CAPTURE(n);
    const std::vector<T> h_in = strata_test::random_vector<T>(n, 5 * n + 2);
    strata_test::device_buffer<T> d_data(h_in);
    const auto mode = device_scan_test::mode_for(n);
    {
      INFO("ExclusiveSum(d_data)");
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceScan::ExclusiveSum(temp, bytes, d_data.data(), static_cast<int>(n), s);
        },
        mode);
      STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(), exclusive_sums(h_in));
    }
    d_data.upload(h_in);
    {
      INFO("InclusiveSum(d_data)");
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceScan::InclusiveSum(temp, bytes, d_data.data(), static_cast<int>(n), s);
        },
        mode);
      STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(), inclusive_sums(h_in));
    }
    d_data.upload(h_in);
    {
      INFO("ExclusiveSum(d_in, d_out) with d_in == d_out");
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceScan::ExclusiveSum(temp, bytes, d_data.data(), d_data.data(), static_cast<int>(n), s);
        },
        mode);
      STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(), exclusive_sums(h_in));
    }
  }
}

TEST_CASE("DeviceScan sums accept every num_items type", "[device][scan][sum]")
{
  const std::vector<std::size_t> sizes = {1, 4095, 4097, 1000003};
  for (std::size_t n : sizes)
  {
    CAPTURE(n);
    const std::vector<long long> h_in = strata_test::random_vector<long long>(n, 7 * n);
    strata_test::device_buffer<long long> d_in(h_in);
    strata_test::device_buffer<long long> d_out(n);
    const std::vector<long long> exclusive = exclusive_sums(h_in);
    const std::vector<long long> inclusive = inclusive_sums(h_in);
    auto run                               = [&](auto num_items) {
      d_out.poison();
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::ExclusiveSum(temp, bytes, d_in.data(), d_out.data(), num_items, s);
      });
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), exclusive);
      d_out.poison();
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveSum(temp, bytes, d_in.data(), d_out.data(), num_items, s);
      });
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), inclusive);
    };
    {
      INFO("int");
      run(static_cast<int>(n));
    }
    {
      INFO("unsigned");
      run(static_cast<unsigned>(n));
    }
    {
      INFO("long long");
      run(static_cast<long long>(n));
    }
    {
      INFO("unsigned long long");
      run(static_cast<unsigned long long>(n));
    }
  }
}

TEST_CASE("DeviceScan float sums are the same bits run to run and close to the exact sums", "[device][scan][sum]")
{
  // Values with full mantissas, so every rounded partial sum depends on the order of the additions.
  const std::size_t n           = (std::size_t(1) << 24) + 17;
  const std::vector<float> h_in = strata_test::full_mantissa_floats(n, 404);
  strata_test::device_buffer<float> d_in(h_in);
  strata_test::device_buffer<float> d_out(n);

  // The exact prefix sums (doubles hold every partial sum of these floats to far better than float precision).
  std::vector<double> exact_inclusive(n);
  double running = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    running += h_in[i];
    exact_inclusive[i] = running;
  }

  auto check = [&](bool inclusive) {
    const std::vector<float> got =
      device_scan_test::same_bits_three_runs(d_out, [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return inclusive ? strata::DeviceScan::InclusiveSum(temp, bytes, d_in.data(), d_out.data(), n, s)
                         : strata::DeviceScan::ExclusiveSum(temp, bytes, d_in.data(), d_out.data(), n, s);
      });
    device_scan_test::require_within_rounding(got, [&](std::size_t i) {
      const double exact = inclusive ? exact_inclusive[i] : (i == 0 ? 0.0 : exact_inclusive[i - 1]);
      return std::make_pair(exact, i + 1);
    });
  };
  SECTION("InclusiveSum")
  {
    check(true);
  }
  SECTION("ExclusiveSum")
  {
    check(false);
  }
}

TEMPLATE_TEST_CASE("DeviceScan sums of arrays that do not start on 16 bytes", "[device][scan][sum][alignment]",
                   std::int32_t, float, std::int64_t, double)
{
  // Vectorized and bulk accesses depend on where an array starts: every mix of an input and an output offset by
  // whole items from a 16-byte boundary (a tile's start is then never 16-byte aligned) gives the same sums.
  using T                = TestType;
  const std::size_t tile = device_scan_test::sum_tile_items<T>();
  for (std::size_t n : {tile + 1, 5 * tile - 1, std::size_t(1000003)})
  {
    CAPTURE(n);
    const std::vector<T> h_in     = strata_test::random_vector<T>(n, 37 * n + 8);
    const std::vector<T> expected = inclusive_sums(h_in);
    for (const std::size_t in_offset : {std::size_t(0), std::size_t(1)})
    {
      for (const std::size_t out_offset : {std::size_t(0), std::size_t(3)})
      {
        CAPTURE(in_offset, out_offset);
        std::vector<T> padded_in(n + in_offset, T(1));
        std::copy(h_in.begin(), h_in.end(), padded_in.begin() + static_cast<std::ptrdiff_t>(in_offset));
        strata_test::device_buffer<T> d_in(padded_in);
        strata_test::device_buffer<T> d_out(n + out_offset);
        strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceScan::InclusiveSum(temp, bytes, d_in.data() + in_offset, d_out.data() + out_offset,
                                                  static_cast<int>(n), s);
        });
        const std::vector<T> out = d_out.download();
        STRATA_REQUIRE_EQUAL_VECTORS(std::vector<T>(out.begin() + static_cast<std::ptrdiff_t>(out_offset), out.end()),
                                     expected);
      }
    }
  }
}
