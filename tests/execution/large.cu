// The frontend over more than 2^31 items, where 32-bit offsets would wrap, without large buffers: inputs are Thrust's
// counting, constant and transform iterators, and outputs go to a tabulate_output_iterator that checks every item
// (value against its position) on the device and counts the wrong ones. Positions past 2^31 are returned by the
// extremes. (tests/execution/large_memory.cu does the same over real arrays, where the GPU has the memory.)
#include "support.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda/std/functional>

#include <cstdint>
#include <vector>

namespace
{
using exec_test::twice;

using u64 = unsigned long long;

// Just over 2^31 items, and just over 2^32.
constexpr long long N31 = (1LL << 31) + 4099;
constexpr long long N32 = (1LL << 32) + 17;

// Positions past 2^31 where the transform iterators below plant their extremes.
constexpr long long LOW_AT  = (1LL << 31) + 77;
constexpr long long HIGH_AT = (1LL << 31) + 1000;

// i mod 1000, except -1 at LOW_AT and 5000 at HIGH_AT.
struct planted
{
  __host__ __device__ long long operator()(long long i) const
  {
    return i == LOW_AT ? -1 : (i == HIGH_AT ? 5000 : i % 1000);
  }
};

struct is_multiple_of_3
{
  __host__ __device__ bool operator()(long long i) const
  {
    return i % 3 == 0;
  }
};

struct is_negative
{
  __host__ __device__ bool operator()(long long i) const
  {
    return i < 0;
  }
};

// Checks, on the device, that the item written at position i is c0 + c1 i + c2 i (i - 1) / 2 (modulo 2^64), counting
// the items that are not.
struct expect_polynomial
{
  u64* wrong;
  u64 c0, c1, c2;
  __device__ void operator()(long long index, long long value) const
  {
    const u64 i        = static_cast<u64>(index);
    const u64 triangle = i % 2 == 0 ? (i / 2) * (i - 1) : i * ((i - 1) / 2); // i (i - 1) / 2, exact modulo 2^64
    if (static_cast<u64>(value) != c0 + c1 * i + c2 * triangle)
    {
      atomicAdd(wrong, 1ULL);
    }
  }
};

// Adds every index to bucket index mod BUCKETS, and counts the visits per bucket.
constexpr int BUCKETS = 1 << 16;
struct visit_bucket
{
  u64* sums;
  u64* counts;
  __device__ void operator()(long long i) const
  {
    atomicAdd(sums + (i & (BUCKETS - 1)), static_cast<u64>(i));
    atomicAdd(counts + (i & (BUCKETS - 1)), 1ULL);
  }
};

// A tabulate_output_iterator checking c0 + c1 i + c2 i (i - 1) / 2, with its counter of wrong items.
class polynomial_check
{
public:
  polynomial_check(u64 c0, u64 c1, u64 c2)
      : wrong_(1, 0ULL)
      , c0_(c0)
      , c1_(c1)
      , c2_(c2)
  {
    exec_test::settle();
  }
  auto out()
  {
    return thrust::make_tabulate_output_iterator(
      expect_polynomial{thrust::raw_pointer_cast(wrong_.data()), c0_, c1_, c2_});
  }
  u64 wrong() const
  {
    return exec_test::download(wrong_)[0];
  }

private:
  thrust::device_vector<u64> wrong_;
  u64 c0_, c1_, c2_;
};
} // namespace

TEST_CASE("strata's reductions over more than 2^31 items", "[execution][large][reduce]")
{
  exec_test::logged_stream stream;
  const thrust::counting_iterator<long long> from_zero(0);
  const thrust::constant_iterator<long long> threes(3);
  const auto planted_items = thrust::make_transform_iterator(from_zero, planted{});

  CHECK(strata::reduce(stream.policy, from_zero, from_zero + N31) == N31 * (N31 - 1) / 2);
  CHECK(strata::reduce(stream.policy, threes, threes + N32, 1LL) == 1 + 3 * N32);
  CHECK(strata::reduce(stream.policy, planted_items, planted_items + N31, 0LL, cuda::maximum<>{}) == 5000);
  thrust::device_vector<long long> sum(1);
  strata::reduce_into(stream.policy, from_zero, from_zero + N31, sum.begin(), 7LL);
  stream.sync();
  CHECK(exec_test::download(sum)[0] == 7 + N31 * (N31 - 1) / 2);
  CHECK(strata::transform_reduce(stream.policy, from_zero, from_zero + N31, 0LL, cuda::std::plus<>{}, twice{})
        == N31 * (N31 - 1));
  CHECK(strata::inner_product(stream.policy, threes, threes + N31, from_zero, 0LL) == 3 * (N31 * (N31 - 1) / 2));
  CHECK(strata::count_if(stream.policy, from_zero, from_zero + N32, is_multiple_of_3{}) == (N32 + 2) / 3);
  CHECK(strata::count(stream.policy, planted_items, planted_items + N31, 5000LL) == 1);
  CHECK(strata::all_of(stream.policy, threes, threes + N32, is_multiple_of_3{}));
  CHECK(strata::any_of(stream.policy, planted_items, planted_items + N31, is_negative{}));
  CHECK_FALSE(strata::any_of(stream.policy, planted_items, planted_items + LOW_AT, is_negative{}));
  CHECK(strata::none_of(stream.policy, from_zero, from_zero + N32, is_negative{}));
  CHECK(strata::equal(stream.policy, from_zero, from_zero + N31, thrust::counting_iterator<long long>(0)));
  CHECK_FALSE(strata::equal(stream.policy, from_zero, from_zero + N31, thrust::counting_iterator<long long>(1)));
  stream.require_clean();
}

TEST_CASE("strata's extremes return positions past 2^31", "[execution][large][extremes]")
{
  exec_test::gated_stream stream;
  const auto policy        = strata::par.on(stream.get());
  const auto planted_items = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), planted{});
  CHECK(strata::min_element(policy, planted_items, planted_items + N31) - planted_items == LOW_AT);
  CHECK(strata::max_element(policy, planted_items, planted_items + N31) - planted_items == HIGH_AT);
  const auto mm = strata::minmax_element(policy, planted_items, planted_items + N31);
  CHECK(mm.first - planted_items == LOW_AT);
  CHECK(mm.second - planted_items == HIGH_AT);

  // All items tie, past 2^32: the first smallest and the first largest are the first item.
  const thrust::constant_iterator<long long> same(4);
  const auto ties = strata::minmax_element(policy, same, same + N32);
  CHECK(ties.first - same == 0);
  CHECK(ties.second - same == 0);
  CHECK(strata::max_element(policy, same, same + N32) - same == 0);
}

TEST_CASE("strata's scans over more than 2^31 items write every item right", "[execution][large][scan]")
{
  exec_test::logged_stream stream;
  const thrust::counting_iterator<long long> from_zero(0);
  const thrust::constant_iterator<long long> ones(1);
  {
    INFO("inclusive_scan of ones: i + 1");
    polynomial_check check(1, 1, 0);
    CHECK(strata::inclusive_scan(stream.policy, ones, ones + N31, check.out()) - check.out() == N31);
    stream.sync();
    CHECK(check.wrong() == 0);
  }
  {
    INFO("exclusive_scan of 0, 1, 2, ... from 5: 5 + i (i - 1) / 2");
    polynomial_check check(5, 0, 1);
    strata::exclusive_scan(stream.policy, from_zero, from_zero + N31, check.out(), 5LL);
    stream.sync();
    CHECK(check.wrong() == 0);
  }
  {
    INFO("transform_inclusive_scan of 2 x ones from 3: 5 + 2 i");
    polynomial_check check(5, 2, 0);
    strata::transform_inclusive_scan(stream.policy, ones, ones + N32, check.out(), cuda::std::plus<>{}, twice{}, 3LL);
    stream.sync();
    CHECK(check.wrong() == 0);
  }
  {
    INFO("transform_exclusive_scan of 2 x ones (Thrust's order): 2 i");
    polynomial_check check(0, 2, 0);
    strata::transform_exclusive_scan(stream.policy, ones, ones + N31, check.out(), twice{}, 0LL, cuda::std::plus<>{});
    stream.sync();
    CHECK(check.wrong() == 0);
  }
  stream.require_clean();
}

TEST_CASE("strata's element-wise algorithms over more than 2^31 items", "[execution][large][transform]")
{
  exec_test::gated_stream stream;
  const auto policy = strata::par.on(stream.get());
  const thrust::counting_iterator<long long> from_zero(0);
  {
    INFO("transform of 0, 1, 2, ...: 2 i");
    polynomial_check check(0, 2, 0);
    CHECK(strata::transform(policy, from_zero, from_zero + N31, check.out(), twice{}) - check.out() == N31);
    stream.sync();
    CHECK(check.wrong() == 0);
  }
  {
    INFO("tabulate: 2 i");
    polynomial_check check(0, 2, 0);
    strata::tabulate(policy, check.out(), check.out() + N32, twice{});
    stream.sync();
    CHECK(check.wrong() == 0);
  }
  {
    INFO("for_each and for_each_n over a counting iterator visit every index once");
    thrust::device_vector<u64> sums(BUCKETS, 0ULL), counts(BUCKETS, 0ULL);
    exec_test::settle();
    const visit_bucket visit{thrust::raw_pointer_cast(sums.data()), thrust::raw_pointer_cast(counts.data())};
    CHECK(strata::for_each(policy, from_zero, from_zero + N31, visit) == from_zero + N31);
    CHECK(strata::for_each_n(policy, from_zero + N31, N32 - N31, visit) == from_zero + N32);
    stream.sync();
    // Bucket b holds the indices b, b + BUCKETS, ... below N32.
    std::vector<u64> want_sums(BUCKETS), want_counts(BUCKETS);
    for (int b = 0; b < BUCKETS; ++b)
    {
      const u64 k    = (static_cast<u64>(N32) - static_cast<u64>(b) + BUCKETS - 1) / BUCKETS;
      want_counts[b] = k;
      want_sums[b]   = k * static_cast<u64>(b) + static_cast<u64>(BUCKETS) * (k * (k - 1) / 2);
    }
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(counts), want_counts);
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(sums), want_sums);
  }
}
