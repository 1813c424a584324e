// The device algorithms over more than 2^31 items, on 64-bit offsets: DeviceSelect (If into memory and into a
// discard_iterator, Unique), DeviceTransform, DeviceFor::Bulk and DeviceReduce (Sum, Max, ArgMax over fancy
// iterators; TransformReduce over 2^31 + 4099 bytes in memory). Apart from the other tests of these algorithms
// because it needs both offset types and an optimized host build (tests/CMakeLists.txt: [large] cases).
#include <strata/device/device_for.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_select.cuh>
#include <strata/device/device_transform.cuh>

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
using u64 = unsigned long long;

// x % modulus < below: `below` items in every `modulus` of a counting iterator.
struct residue_below
{
  long long modulus;
  long long below;

  __host__ __device__ bool operator()(long long x) const
  {
    return x % modulus < below;
  }
};

// x / divisor: runs of `divisor` equal values over a counting iterator.
struct divided_by
{
  long long divisor;

  __host__ __device__ long long operator()(long long x) const
  {
    return x / divisor;
  }
};

// The count is expected.size(), the output starts with `expected`, and nothing is written after it.
template <typename T, typename NumT>
void check_selected(const strata_test::device_buffer<T>& d_out, const strata_test::device_buffer<NumT>& d_num,
                    const std::vector<T>& expected)
{
  REQUIRE(static_cast<std::size_t>(d_num.download()[0]) == expected.size());
  strata_test::require_written_prefix("selected", d_out, expected);
}
} // namespace

TEST_CASE("DeviceSelect handles more than 2^31 items and counts", "[device][select][large]")
{
  const long long n = (1LL << 32) + 12345; // needs 64-bit offsets
  strata_test::device_buffer<std::size_t> d_num(1);
  const thrust::counting_iterator<long long> counting(0);
  {
    INFO("DeviceSelect::If over a counting_iterator, one item in 1000003 selected");
    const residue_below select_op{1000003, 1};
    std::vector<long long> expected(static_cast<std::size_t>((n - 1) / 1000003 + 1));
    for (std::size_t j = 0; j < expected.size(); ++j)
    {
      expected[j] = static_cast<long long>(j) * 1000003;
    }
    strata_test::device_buffer<long long> d_out(expected.size() + 32);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceSelect::If(temp, bytes, counting, d_out.data(), d_num.data(), n, select_op, s);
    });
    check_selected(d_out, d_num, expected);
  }
  d_num.poison();
  {
    INFO("DeviceSelect::If into a discard_iterator, two items in three selected: a count over 2^31");
    const residue_below select_op{3, 2};
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceSelect::If(temp, bytes, counting, thrust::make_discard_iterator(), d_num.data(), n,
                                      select_op, s);
    });
    CHECK(d_num.download()[0] == static_cast<std::size_t>(2 * (n / 3) + std::min(n % 3, 2LL)));
  }
  d_num.poison();
  {
    INFO("DeviceSelect::Unique over a transform_iterator (runs of 1000)");
    std::vector<long long> expected(static_cast<std::size_t>((n + 999) / 1000));
    std::iota(expected.begin(), expected.end(), 0LL);
    strata_test::device_buffer<long long> d_out(expected.size() + 32);
    const auto in = thrust::make_transform_iterator(counting, divided_by{1000});
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceSelect::Unique(temp, bytes, in, d_out.data(), d_num.data(), n, s);
    });
    check_selected(d_out, d_num, expected);
  }
}

namespace
{
// Counts the items a tabulate_output_iterator receives that are not 2 i + 1.
struct expect_odd
{
  u64* wrong;
  __device__ void operator()(long long i, long long value) const
  {
    if (value != 2 * i + 1)
    {
      atomicAdd(wrong, 1ULL);
    }
  }
};
struct twice_plus_one
{
  __host__ __device__ long long operator()(long long i) const
  {
    return 2 * i + 1;
  }
};
} // namespace

TEST_CASE("DeviceTransform over more than 2^31 items", "[device][transform][large]")
{
  const long long n = (1LL << 31) + 123;
  strata_test::device_buffer<u64> wrong(1);
  STRATA_TEST_CUDA(cudaMemset(wrong.data(), 0, sizeof(u64)));
  const auto out = thrust::make_tabulate_output_iterator(expect_odd{wrong.data()});
  REQUIRE(strata::DeviceTransform::Transform(thrust::counting_iterator<long long>(0), out, n, twice_plus_one{})
          == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(wrong.download()[0] == 0);
}

namespace
{
// Adds index i to bucket i mod 2^16 and counts the visits per bucket.
struct visit_bucket
{
  u64* sums;
  u64* counts;
  __device__ void operator()(long long i) const
  {
    atomicAdd(sums + (i & 0xffff), static_cast<u64>(i));
    atomicAdd(counts + (i & 0xffff), 1ULL);
  }
};
} // namespace

TEST_CASE("DeviceFor::Bulk over more than 2^31 indices", "[device][for][large]")
{
  const long long n = (1LL << 31) + 777;
  const int buckets = 1 << 16;
  strata_test::device_buffer<u64> sums(buckets), counts(buckets);
  STRATA_TEST_CUDA(cudaMemset(sums.data(), 0, buckets * sizeof(u64)));
  STRATA_TEST_CUDA(cudaMemset(counts.data(), 0, buckets * sizeof(u64)));
  STRATA_TEST_SYNC();
  REQUIRE(strata::DeviceFor::Bulk(n, visit_bucket{sums.data(), counts.data()}) == cudaSuccess);
  STRATA_TEST_SYNC();
  std::vector<u64> want_sums(buckets), want_counts(buckets);
  for (int b = 0; b < buckets; ++b)
  {
    const u64 k    = (static_cast<u64>(n) - static_cast<u64>(b) + buckets - 1) / buckets;
    want_counts[b] = k;
    want_sums[b]   = k * static_cast<u64>(b) + static_cast<u64>(buckets) * (k * (k - 1) / 2);
  }
  STRATA_REQUIRE_EQUAL_VECTORS(counts.download(), want_counts);
  STRATA_REQUIRE_EQUAL_VECTORS(sums.download(), want_sums);
}

TEST_CASE("DeviceReduce handles more than 2^31 items", "[device][reduce][large]")
{
  const unsigned long long n = (1ULL << 32) + 12345; // needs 64-bit offsets
  strata_test::device_buffer<long long> d_out(1);
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceReduce::Sum(temp, bytes, thrust::constant_iterator<long long>(3), d_out.data(), n, s);
  });
  CHECK(d_out.download()[0] == static_cast<long long>(3 * n));

  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceReduce::Max(temp, bytes, thrust::counting_iterator<long long>(0), d_out.data(), n, s);
  });
  CHECK(d_out.download()[0] == static_cast<long long>(n - 1));

  using Pair = strata::KeyValuePair<long long, long long>;
  strata_test::device_buffer<Pair> d_pair(1);
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceReduce::ArgMax(temp, bytes, thrust::counting_iterator<long long>(0), d_pair.data(), n, s);
  });
  CHECK(d_pair.download()[0].key == static_cast<long long>(n - 1));

  // Just over 2^31 real items in memory (int8), summed through the 64-bit path: 2 GiB on the device.
  const std::size_t m = (std::size_t(1) << 31) + 4099;
  strata_test::device_buffer<std::int8_t> d_in(m);
  STRATA_TEST_CUDA(cudaMemset(d_in.data(), 1, m));
  strata_test::device_buffer<long long> d_sum(1);
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceReduce::TransformReduce(temp, bytes, d_in.data(), d_sum.data(), m, cuda::std::plus<>{},
                                                 strata::Identity{}, 0LL, s);
  });
  CHECK(d_sum.download()[0] == static_cast<long long>(m));
}
