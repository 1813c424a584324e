// DeviceScan with Thrust's fancy iterators as inputs (counting, constant, transform) and thrust::device_ptr as
// output, for every entry point.
#include "device_scan_harness.cuh"

#include <thrust/device_ptr.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace
{
using strata_test::mat2x2;

struct times_three
{
  __host__ __device__ long long operator()(int x) const
  {
    return 3LL * x;
  }
};

// A sawtooth that rises and falls, so a running maximum changes at irregular positions.
struct sawtooth
{
  __host__ __device__ int operator()(int i) const
  {
    return static_cast<int>(static_cast<long long>(i) * 7919 % 10007) - 5000;
  }
};

// An invertible matrix (odd diagonal, even m01) made from an index, for non-commutative scans of a fancy input.
struct index_matrix
{
  __host__ __device__ mat2x2 operator()(int i) const
  {
    const std::uint32_t u = static_cast<std::uint32_t>(i);
    return mat2x2{2u * u + 1u, 6u * u, 7u * u + 3u, 10u * u * u + 1u};
  }
};

// The segment of position i when runs of `length` equal keys follow each other.
struct run_of
{
  int length;
  __host__ __device__ int operator()(int i) const
  {
    return i / length;
  }
};

// A host copy of the first n values of a fancy iterator.
template <typename Iterator>
auto host_values(Iterator it, std::size_t n)
{
  std::vector<typename std::iterator_traits<Iterator>::value_type> v(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    v[i] = it[static_cast<std::ptrdiff_t>(i)];
  }
  return v;
}

// The sizes of the iterator tests: one item, a few tiles with a partial last one, and many tiles. Each SECTION
// loops over them itself (a SECTION is entered once per run of its test case).
const std::size_t iterator_sizes[] = {1, 4099, 1234567};
} // namespace

TEST_CASE("DeviceScan sums read counting, constant and transform iterators and write through device_ptr",
          "[device][scan][iterators]")
{
  SECTION("InclusiveSum of counting_iterator<long long>(5)")
  {
    for (std::size_t n : iterator_sizes)
    {
      CAPTURE(n);
      strata_test::device_buffer<long long> d_out(n);
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveSum(temp, bytes, thrust::counting_iterator<long long>(5),
                                                thrust::device_ptr<long long>(d_out.data()), static_cast<int>(n), s);
      });
      std::vector<long long> expected(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        const long long k = static_cast<long long>(i) + 1;
        expected[i]       = 5 * k + k * (k - 1) / 2;
      }
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
    }
  }
  SECTION("ExclusiveSum of transform_iterator(counting_iterator<int>, 3x) into long long")
  {
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), times_three{});
    for (std::size_t n : iterator_sizes)
    {
      CAPTURE(n);
      strata_test::device_buffer<long long> d_out(n);
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceScan::ExclusiveSum(temp, bytes, in, thrust::device_ptr<long long>(d_out.data()),
                                                  static_cast<int>(n), s);
        },
        strata_test::launch_mode::graph);
      std::vector<long long> expected(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        const long long k = static_cast<long long>(i);
        expected[i]       = 3 * (k * (k - 1) / 2);
      }
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
    }
  }
  SECTION("InclusiveScanInit of constant_iterator<long long>(-2) with init 10")
  {
    for (std::size_t n : iterator_sizes)
    {
      CAPTURE(n);
      strata_test::device_buffer<long long> d_out(n);
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveScanInit(temp, bytes, thrust::constant_iterator<long long>(-2),
                                                     thrust::device_ptr<long long>(d_out.data()), cuda::std::plus<>{},
                                                     10LL, static_cast<int>(n), s);
      });
      std::vector<long long> expected(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        expected[i] = 10 - 2 * (static_cast<long long>(i) + 1);
      }
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
    }
  }
}

TEST_CASE("DeviceScan scans read transform iterators and device_ptr and write through device_ptr",
          "[device][scan][iterators]")
{
  SECTION("InclusiveScan with cuda::maximum<> of a sawtooth")
  {
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), sawtooth{});
    for (std::size_t n : iterator_sizes)
    {
      CAPTURE(n);
      strata_test::device_buffer<int> d_out(n);
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveScan(temp, bytes, in, thrust::device_ptr<int>(d_out.data()),
                                                 cuda::maximum<>{}, static_cast<int>(n), s);
      });
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(),
                                   strata_test::reference_inclusive_scan(host_values(in, n), strata_test::host_max{}));
    }
  }
  SECTION("ExclusiveScan with mat_mul of matrices made from indices")
  {
    auto in           = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), index_matrix{});
    const mat2x2 init = strata_test::random_vector<mat2x2>(1, 777)[0];
    for (std::size_t n : iterator_sizes)
    {
      CAPTURE(n);
      strata_test::device_buffer<mat2x2> d_out(n);
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceScan::ExclusiveScan(temp, bytes, in, thrust::device_ptr<mat2x2>(d_out.data()),
                                                   strata_test::mat_mul{}, init, static_cast<int>(n), s);
        },
        strata_test::launch_mode::graph);
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), strata_test::reference_exclusive_scan(host_values(in, n), init,
                                                                                           strata_test::mat_mul{}));
    }
  }
  SECTION("InclusiveSum from device_ptr<const int> to device_ptr<int>")
  {
    for (std::size_t n : iterator_sizes)
    {
      CAPTURE(n);
      const std::vector<int> h_in = strata_test::random_vector<int>(n, 3 * n);
      strata_test::device_buffer<int> d_in(h_in);
      strata_test::device_buffer<int> d_out(n);
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveSum(temp, bytes, thrust::device_ptr<const int>(d_in.data()),
                                                thrust::device_ptr<int>(d_out.data()), static_cast<int>(n), s);
      });
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(),
                                   strata_test::reference_inclusive_scan(h_in, device_scan_test::wrapping_plus{}));
    }
  }
  SECTION("InclusiveSum in place through device_ptr")
  {
    for (std::size_t n : iterator_sizes)
    {
      CAPTURE(n);
      const std::vector<int> h_in = strata_test::random_vector<int>(n, 5 * n);
      strata_test::device_buffer<int> d_data(h_in);
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveSum(temp, bytes, thrust::device_ptr<int>(d_data.data()),
                                                static_cast<int>(n), s);
      });
      STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(),
                                   strata_test::reference_inclusive_scan(h_in, device_scan_test::wrapping_plus{}));
    }
  }
}

TEST_CASE("DeviceScan by key reads fancy keys and values", "[device][scan][iterators][by-key]")
{
  SECTION("InclusiveSumByKey of constant_iterator values under runs of 7")
  {
    auto keys = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), run_of{7});
    for (std::size_t n : iterator_sizes)
    {
      CAPTURE(n);
      strata_test::device_buffer<long long> d_out(n);
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveSumByKey(temp, bytes, keys, thrust::constant_iterator<long long>(1),
                                                     thrust::device_ptr<long long>(d_out.data()), static_cast<int>(n),
                                                     cuda::std::equal_to<>{}, s);
      });
      std::vector<long long> expected(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        expected[i] = static_cast<long long>(i % 7) + 1;
      }
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
    }
  }
  SECTION("ExclusiveScanByKey of counting_iterator values under runs of 5000, init 100")
  {
    auto keys = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), run_of{5000});
    for (std::size_t n : iterator_sizes)
    {
      CAPTURE(n);
      strata_test::device_buffer<long long> d_out(n);
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceScan::ExclusiveScanByKey(temp, bytes, keys, thrust::counting_iterator<long long>(0),
                                                        thrust::device_ptr<long long>(d_out.data()),
                                                        cuda::std::plus<>{}, 100LL, static_cast<int>(n),
                                                        cuda::std::equal_to<>{}, s);
        },
        strata_test::launch_mode::graph);
      std::vector<long long> expected(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        // 100 + start + (start + 1) + ... + (i - 1), start the first position of i's run.
        const long long start = static_cast<long long>(i / 5000 * 5000);
        const long long k     = static_cast<long long>(i);
        expected[i]           = 100 + (k * (k - 1) - start * (start - 1)) / 2;
      }
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
    }
  }
}
