// DevicePartition::If with two selection operators (three parts) against a stable three-way split on the host:
// value types of 1 to 8 bytes and a 16-byte user struct, at every size class and every partial last tile, with parts
// from empty to everything and a second operator that also accepts items the first took (those stay in the first
// part); counts written as int, size_t and unsigned long long; a counting input and a discard output; the
// single-phase forms; graph capture; bad input rejected before anything is written; no items write two counts of 0.
#include <strata/device/device_partition.cuh>
#include <strata/execution/policy.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "device_launch.cuh"
#include "select_test.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace
{
using select_test::MAX_ITEMS;
using select_test::tile_items;

// Where a value falls in [0, 100), evenly enough over random values for the parts to be near their percentages.
template <typename T>
__host__ __device__ unsigned bucket(T x)
{
  return static_cast<unsigned>(static_cast<unsigned long long>(x) % 100u);
}
__host__ __device__ inline unsigned bucket(double x)
{
  return bucket(static_cast<long long>(x * 1024.0));
}
__host__ __device__ inline unsigned bucket(const strata_test::custom_t& x)
{
  return bucket(x.a);
}

// Items whose bucket is in [lo, hi).
struct bucket_in
{
  unsigned lo;
  unsigned hi;

  template <typename T>
  __host__ __device__ bool operator()(const T& x) const
  {
    const unsigned b = bucket(x);
    return lo <= b && b < hi;
  }
};

// The three parts of a stable three-way split.
template <typename T>
struct parts
{
  std::vector<T> first, second, unselected;
};

template <typename T, typename First, typename Second>
parts<T> reference_parts(const std::vector<T>& in, First first, Second second)
{
  parts<T> p;
  for (const T& x : in)
  {
    if (first(x))
    {
      p.first.push_back(x);
    }
    else if (second(x))
    {
      p.second.push_back(x);
    }
    else
    {
      p.unselected.push_back(x);
    }
  }
  return p;
}

// The operator pairs: parts from empty to everything, and second operators that also take first-part items.
struct operator_pair
{
  bucket_in first;
  bucket_in second;
};
const std::vector<operator_pair> OPERATORS = {
  {{0, 33}, {33, 66}},  // about a third each
  {{0, 0}, {0, 0}},     // everything unselected
  {{0, 100}, {0, 100}}, // everything in the first part
  {{0, 0}, {0, 100}},   // everything in the second part
  {{0, 50}, {0, 75}},   // the second operator also takes the first part's items
  {{0, 1}, {99, 100}},  // 1 % and 1 %
  {{1, 100}, {0, 100}}, // 99 % and 1 %
};

template <typename T, typename NumT = std::size_t>
void check_three_way(const std::vector<T>& in, const operator_pair& ops, strata_test::launch_mode mode)
{
  const std::size_t n = in.size();
  CAPTURE(n, ops.first.lo, ops.first.hi, ops.second.lo, ops.second.hi);
  const parts<T> want = reference_parts(in, ops.first, ops.second);
  const strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_first(n + 32), d_second(n + 32), d_unselected(n + 32);
  strata_test::device_buffer<NumT> d_num(2);
  strata_test::launch(
    [&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DevicePartition::If(temp, bytes, d_in.data(), d_first.data(), d_second.data(), d_unselected.data(),
                                         d_num.data(), static_cast<long long>(n), ops.first, ops.second, s);
    },
    mode);
  const std::vector<NumT> num = d_num.download();
  CHECK(static_cast<std::size_t>(num[0]) == want.first.size());
  CHECK(static_cast<std::size_t>(num[1]) == want.second.size());
  strata_test::require_written_prefix("first", d_first, want.first);
  strata_test::require_written_prefix("second", d_second, want.second);
  strata_test::require_written_prefix("unselected", d_unselected, want.unselected);
}
} // namespace

TEMPLATE_TEST_CASE("DevicePartition::If with two operators splits every size class into three ordered parts",
                   "[device][partition][three_way]", std::uint8_t, std::int32_t, std::int64_t, double,
                   strata_test::custom_t)
{
  using T           = TestType;
  std::size_t round = 0;
  for (const std::size_t n : strata_test::test_sizes(tile_items<T>(), MAX_ITEMS, 0x3e1 + sizeof(T)))
  {
    const std::vector<T> in = strata_test::random_vector<T>(n, 0x3e2 + n);
    for (const operator_pair& ops : OPERATORS)
    {
      const auto mode = (n + round++) % 4 == 0 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
      check_three_way<T>(in, ops, mode);
    }
  }
}

TEST_CASE("DevicePartition::If with two operators at every partial last tile", "[device][partition][three_way]")
{
  using T             = std::int32_t;
  const std::size_t t = tile_items<T>();
  for (const std::size_t k : {1, 2, 3, 9})
  {
    for (const std::size_t r : {std::size_t(0), std::size_t(1), std::size_t(33), t / 2, t - 1})
    {
      const std::size_t n = k * t + r;
      if (n > strata_test::capped(MAX_ITEMS))
      {
        continue;
      }
      const std::vector<T> in = strata_test::random_vector<T>(n, 0x3e3 + n);
      check_three_way<T, int>(in, OPERATORS[0], strata_test::launch_mode::stream);
      check_three_way<T, int>(in, OPERATORS[4], strata_test::launch_mode::stream);
    }
  }
}

namespace
{
// x % 7: the parts of a counting iterator are known without an input in memory.
struct mod_7
{
  __host__ __device__ int operator()(int x) const
  {
    return x % 7;
  }
};
struct equals
{
  int v;
  __host__ __device__ bool operator()(int x) const
  {
    return x == v;
  }
};
} // namespace

TEST_CASE("DevicePartition::If with two operators over a counting input into discard outputs",
          "[device][partition][three_way][iterators]")
{
  const int n   = static_cast<int>(strata_test::capped(1000003));
  const auto in = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), mod_7{});
  std::vector<int> want_first, want_unselected;
  for (int i = 0; i < n; ++i)
  {
    const int x = i % 7;
    if (x == 3)
    {
      want_first.push_back(x);
    }
    else if (x != 5)
    {
      want_unselected.push_back(x);
    }
  }
  strata_test::device_buffer<int> d_first(static_cast<std::size_t>(n) + 32);
  strata_test::device_buffer<int> d_unselected(static_cast<std::size_t>(n) + 32);
  strata_test::device_buffer<int> d_num(2);
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DevicePartition::If(temp, bytes, in, d_first.data(), thrust::make_discard_iterator(),
                                       d_unselected.data(), d_num.data(), n, equals{3}, equals{5}, s);
  });
  const std::vector<int> num = d_num.download();
  CHECK(num[0] == static_cast<int>(want_first.size()));
  CHECK(num[1] == n / 7 + (n % 7 > 5 ? 1 : 0));
  strata_test::require_written_prefix("first", d_first, want_first);
  strata_test::require_written_prefix("unselected", d_unselected, want_unselected);
}

TEST_CASE("DevicePartition::If with two operators, single-phase on a stream and on a policy",
          "[device][partition][three_way][single_phase]")
{
  using T                 = std::int64_t;
  const std::size_t n     = strata_test::capped(300007);
  const std::vector<T> in = strata_test::random_vector<T>(n, 0x3e4);
  const operator_pair ops = OPERATORS[0];
  const parts<T> want     = reference_parts(in, ops.first, ops.second);
  const strata_test::device_buffer<T> d_in(in);
  cudaStream_t s{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (const bool policy : {false, true})
  {
    strata_test::device_buffer<T> d_first(n + 32), d_second(n + 32), d_unselected(n + 32);
    strata_test::device_buffer<unsigned long long> d_num(2);
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    const cudaError_t e =
      policy ? strata::DevicePartition::If(d_in.data(), d_first.data(), d_second.data(), d_unselected.data(),
                                           d_num.data(), n, ops.first, ops.second, strata::par.on(s))
             : strata::DevicePartition::If(d_in.data(), d_first.data(), d_second.data(), d_unselected.data(),
                                           d_num.data(), n, ops.first, ops.second, s);
    REQUIRE(e == cudaSuccess);
    STRATA_TEST_CUDA(cudaStreamSynchronize(s));
    const std::vector<unsigned long long> num = d_num.download();
    CHECK(num[0] == want.first.size());
    CHECK(num[1] == want.second.size());
    strata_test::require_written_prefix("first", d_first, want.first);
    strata_test::require_written_prefix("second", d_second, want.second);
    strata_test::require_written_prefix("unselected", d_unselected, want.unselected);
  }
  STRATA_TEST_CUDA(cudaStreamDestroy(s));
}

TEST_CASE("DevicePartition::If with two operators rejects bad input and writes zeros for no items",
          "[device][partition][three_way][errors]")
{
  constexpr int N             = 100000;
  const std::vector<int> h_in = strata_test::random_vector<int>(N, 0x3e5);
  const strata_test::device_buffer<int> d_in(h_in);
  strata_test::device_buffer<int> d_first(N), d_second(N), d_unselected(N), d_num(2);
  const operator_pair ops = OPERATORS[0];
  int* const null         = nullptr;
  const auto call         = [&](void* temp, std::size_t& bytes, const int* in, int* first, int* second, int* unselected,
                        int* num, long long n) {
    return strata::DevicePartition::If(temp, bytes, in, first, second, unselected, num, n, ops.first, ops.second,
                                               cudaStream_t{0});
  };
  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, d_in.data(), d_first.data(), d_second.data(), d_unselected.data(), d_num.data(), N)
          == cudaSuccess);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
  std::size_t b = bytes;
  CHECK(call(d_temp, b, d_in.data(), d_first.data(), d_second.data(), d_unselected.data(), d_num.data(), -1)
        == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, null, d_first.data(), d_second.data(), d_unselected.data(), d_num.data(), N)
        == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, d_in.data(), null, d_second.data(), d_unselected.data(), d_num.data(), N)
        == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, d_in.data(), d_first.data(), null, d_unselected.data(), d_num.data(), N)
        == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, d_in.data(), d_first.data(), d_second.data(), null, d_num.data(), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, d_in.data(), d_first.data(), d_second.data(), d_unselected.data(), null, N)
        == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_first.download()));
  CHECK(strata_test::all_poisoned(d_second.download()));
  CHECK(strata_test::all_poisoned(d_unselected.download()));
  CHECK(strata_test::all_poisoned(d_num.download()));

  // No items: both counts are 0 and no output is touched (null outputs are fine then).
  std::size_t empty_bytes = 0;
  REQUIRE(call(nullptr, empty_bytes, null, null, null, null, d_num.data(), 0) == cudaSuccess);
  REQUIRE(call(d_temp, empty_bytes, null, null, null, null, d_num.data(), 0) == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(d_num.download() == std::vector<int>{0, 0});
  STRATA_TEST_CUDA(cudaFree(d_temp));
}
