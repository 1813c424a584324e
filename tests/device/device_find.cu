// DeviceFind against std:: on the host. FindIf: int8, int32, int64, float and a user type; a match at the first item,
// in the middle, at the last item, in every tile (the first one counts) and nowhere; two-phase on a stream and in a
// graph, single-phase, a fancy input, index outputs of 32 and 64 bits; no items (0 is written); bad arguments; more
// than 2^31 items. LowerBound and UpperBound: sorted ranges with runs of equal items, values below, inside, between
// and above them, in order and shuffled, under less and (on a descending range) greater, an empty range, no values.
#include <strata/device/device_find.cuh>

#include <thrust/iterator/counting_iterator.h>

#include <cuda/std/functional>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace
{
using strata_test::device_buffer;

// The tile of FindIf's policy for items of T.
template <typename T>
constexpr std::size_t tile_items()
{
  return strata::detail::find::policy_hub<T>::MaxPolicy::FindPolicy::TILE_ITEMS;
}

// x == target.
template <typename T>
struct equals
{
  T target;
  __host__ __device__ bool operator()(const T& x) const
  {
    return x == target;
  }
};

// The value a match holds: one no random item of the test holds.
template <typename T>
T marker()
{
  if constexpr (std::is_same<T, strata_test::custom_t>::value)
  {
    return strata_test::custom_t{0x7eadbeef, 17, 3};
  }
  else
  {
    return static_cast<T>(std::is_signed<T>::value || std::is_floating_point<T>::value ? -123 : 123);
  }
}

// Random items that never hold marker<T>().
template <typename T>
std::vector<T> items_without_marker(std::size_t n, std::uint64_t salt)
{
  std::vector<T> v = strata_test::random_vector<T>(n, salt);
  for (T& x : v)
  {
    if (x == marker<T>())
    {
      x = T{};
    }
  }
  return v;
}

// Runs FindIf two-phase (a graph on odd sizes) and returns what it wrote.
template <typename IndexT, typename T>
IndexT find_marker(const device_buffer<T>& d_in, std::size_t n)
{
  device_buffer<IndexT> d_index(1);
  strata_test::launch(
    [&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceFind::FindIf(temp, bytes, d_in.data(), d_index.data(), equals<T>{marker<T>()}, n, s);
    },
    n % 2 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream);
  return d_index.download()[0];
}
} // namespace

TEMPLATE_TEST_CASE("DeviceFind::FindIf finds the first match, wherever it is", "[device][find]", std::int8_t,
                   std::int32_t, std::int64_t, float, strata_test::custom_t)
{
  using T = TestType;
  for (const std::size_t n : strata_test::test_sizes(tile_items<T>(), std::size_t(1) << 22, 0xf1d))
  {
    CAPTURE(n);
    std::vector<T> items = items_without_marker<T>(n, 3 * n + 1);
    device_buffer<T> d_in(items);
    CHECK(find_marker<long long>(d_in, n) == static_cast<long long>(n)); // nowhere
    if (n == 0)
    {
      continue;
    }
    std::mt19937_64 rng                      = strata_test::make_rng(n);
    const std::size_t tile                   = tile_items<T>();
    const std::vector<std::size_t> positions = {0, n / 2, n - 1,
                                                std::uniform_int_distribution<std::size_t>(0, n - 1)(rng)};
    for (const std::size_t at : positions)
    {
      CAPTURE(at);
      std::vector<T> with = items;
      with[at]            = marker<T>();
      // More matches after it, one in every later tile: the first one counts.
      for (std::size_t later = (at / tile + 1) * tile + tile / 3; later < n; later += tile)
      {
        with[later] = marker<T>();
      }
      d_in.upload(with);
      CHECK(find_marker<std::int32_t>(d_in, n) == static_cast<std::int32_t>(at));
    }
  }
}

TEST_CASE("DeviceFind::FindIf: single-phase, fancy input, no items, bad arguments", "[device][find]")
{
  cudaStream_t stream{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  device_buffer<long long> d_index(1);
  const auto is_big = [] __device__(int x) {
    return x >= 1000003;
  };
  REQUIRE(strata::DeviceFind::FindIf(thrust::counting_iterator<int>(0), d_index.data(), is_big, 5000000, stream)
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  CHECK(d_index.download()[0] == 1000003);
  // No items: 0 is written.
  REQUIRE(strata::DeviceFind::FindIf(thrust::counting_iterator<int>(0), d_index.data(), is_big, 0, stream)
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  CHECK(d_index.download()[0] == 0);
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));

  device_buffer<int> d_in(std::vector<int>(100, 1));
  device_buffer<char> d_temp(1024);
  std::size_t bytes = 1024;
  d_index.poison();
  CHECK(strata::DeviceFind::FindIf(d_temp.data(), bytes, d_in.data(), d_index.data(), equals<int>{1}, -1)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceFind::FindIf(d_temp.data(), bytes, static_cast<const int*>(nullptr), d_index.data(),
                                   equals<int>{1}, 100)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceFind::FindIf(d_temp.data(), bytes, d_in.data(), static_cast<long long*>(nullptr), equals<int>{1},
                                   0)
        == cudaErrorInvalidValue); // the output is written even for no items
  std::size_t too_little = 0;
  CHECK(strata::DeviceFind::FindIf(d_temp.data(), too_little, d_in.data(), d_index.data(), equals<int>{1}, 100)
        == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_index.download()));
}

namespace
{
// A sorted range of n items in runs of equal values (each value 3 apart), and values to search for around them.
std::vector<int> sorted_runs(std::size_t n, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::vector<int> v(n);
  int value = -1000;
  for (std::size_t i = 0; i < n; ++i)
  {
    if (rng() % 4 == 0)
    {
      value += 3;
    }
    v[i] = value;
  }
  return v;
}

std::vector<int> probes(const std::vector<int>& range, std::size_t k, std::uint64_t salt, bool in_order)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  const int lo        = range.empty() ? -10 : range.front() - 5;
  const int hi        = range.empty() ? 10 : range.back() + 5;
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int> v(k);
  for (int& x : v)
  {
    x = d(rng);
  }
  if (in_order)
  {
    std::sort(v.begin(), v.end());
  }
  return v;
}

template <bool UPPER, typename Comp>
std::vector<long long> host_bounds(const std::vector<int>& range, const std::vector<int>& values, Comp comp)
{
  std::vector<long long> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
  {
    const auto it = UPPER ? std::upper_bound(range.begin(), range.end(), values[i], comp)
                          : std::lower_bound(range.begin(), range.end(), values[i], comp);
    out[i]        = it - range.begin();
  }
  return out;
}
} // namespace

TEST_CASE("DeviceFind::LowerBound and UpperBound match std::lower_bound and std::upper_bound", "[device][find]")
{
  for (const std::size_t m : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(4096), std::size_t(1000003)})
  {
    for (const std::size_t k : {std::size_t(0), std::size_t(1), std::size_t(33), std::size_t(100003)})
    {
      for (const bool in_order : {true, false})
      {
        CAPTURE(m, k, in_order);
        const std::vector<int> range  = sorted_runs(m, m + 1);
        const std::vector<int> values = probes(range, k, m * 7 + k, in_order);
        const device_buffer<int> d_range(range), d_values(values);
        device_buffer<long long> d_out(k);
        strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceFind::LowerBound(temp, bytes, d_range.data(), m, d_values.data(), k, d_out.data(),
                                                cuda::std::less<>{}, s);
        });
        STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), host_bounds<false>(range, values, std::less<>{}));
        d_out.poison();
        REQUIRE(strata::DeviceFind::UpperBound(d_range.data(), m, d_values.data(), k, d_out.data(), cuda::std::less<>{})
                == cudaSuccess);
        STRATA_TEST_SYNC();
        STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), host_bounds<true>(range, values, std::less<>{}));

        // The same range descending, under greater.
        const std::vector<int> descending(range.rbegin(), range.rend());
        const device_buffer<int> d_descending(descending);
        d_out.poison();
        REQUIRE(strata::DeviceFind::LowerBound(d_descending.data(), m, d_values.data(), k, d_out.data(),
                                               cuda::std::greater<>{}, cudaStream_t{0})
                == cudaSuccess);
        STRATA_TEST_SYNC();
        STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), host_bounds<false>(descending, values, std::greater<>{}));
      }
    }
  }
}

TEST_CASE("DeviceFind: bad arguments of the bounds are refused", "[device][find][errors]")
{
  device_buffer<int> d_range(std::vector<int>{1, 2, 3});
  device_buffer<int> d_values(std::vector<int>{2});
  device_buffer<int> d_out(1);
  device_buffer<char> d_temp(16);
  std::size_t bytes = 16;
  using strata::DeviceFind;
  CHECK(DeviceFind::LowerBound(d_temp.data(), bytes, d_range.data(), -1, d_values.data(), 1, d_out.data(),
                               cuda::std::less<>{})
        == cudaErrorInvalidValue);
  CHECK(DeviceFind::UpperBound(d_temp.data(), bytes, d_range.data(), 3, d_values.data(), -1, d_out.data(),
                               cuda::std::less<>{})
        == cudaErrorInvalidValue);
  CHECK(DeviceFind::LowerBound(d_temp.data(), bytes, static_cast<const int*>(nullptr), 3, d_values.data(), 1,
                               d_out.data(), cuda::std::less<>{})
        == cudaErrorInvalidValue);
  CHECK(DeviceFind::LowerBound(d_temp.data(), bytes, d_range.data(), 3, d_values.data(), 1, static_cast<int*>(nullptr),
                               cuda::std::less<>{})
        == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_out.download()));
  std::size_t query = 0;
  REQUIRE(
    DeviceFind::LowerBound(nullptr, query, d_range.data(), 3, d_values.data(), 1, d_out.data(), cuda::std::less<>{})
    == cudaSuccess);
  CHECK(query == strata::detail::temporary_storage::EMPTY_SIZE);
}

namespace
{
__global__ void fill_ones(std::uint8_t* data, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    data[i] = 1;
  }
}
} // namespace

TEST_CASE("DeviceFind::FindIf over more than 2^31 items", "[device][find][large]")
{
  const std::size_t n = (std::size_t(1) << 31) + 1000;
  device_buffer<std::uint8_t> d_in(n);
  fill_ones<<<1024, 256>>>(d_in.data(), n);
  STRATA_TEST_SYNC();
  device_buffer<unsigned long long> d_index(1);
  const auto is_two = [] __device__(std::uint8_t x) {
    return x == 2;
  };
  REQUIRE(strata::DeviceFind::FindIf(d_in.data(), d_index.data(), is_two, n) == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(d_index.download()[0] == n); // nowhere
  const std::size_t at = n - 17;
  STRATA_TEST_CUDA(cudaMemset(d_in.data() + at, 2, 1));
  REQUIRE(strata::DeviceFind::FindIf(d_in.data(), d_index.data(), is_two, n) == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(d_index.download()[0] == at);
}
