// DeviceMerge against std::merge on the host: MergeKeys and MergePairs of two sorted ranges with many equal keys
// within and across them (the pairs' values tell the items apart: stability, the first range's first), sizes from
// empty halves to many tiles, both orders of sizes, int32 and int64 keys, float values, a descending merge under
// greater, a counting iterator as one range, two-phase on a stream and in a graph and single-phase; bad arguments.
#include <strata/device/device_merge.cuh>

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

// n sorted keys in [0, span): many equal keys where span is small.
template <typename KeyT>
std::vector<KeyT> sorted_keys(std::size_t n, long long span, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::uniform_int_distribution<long long> d(0, span - 1);
  std::vector<KeyT> v(n);
  for (KeyT& k : v)
  {
    k = static_cast<KeyT>(d(rng));
  }
  std::sort(v.begin(), v.end());
  return v;
}

// The tile of DeviceMerge's policy for keys of KeyT and values of ValueT.
template <typename KeyT, typename ValueT>
constexpr std::size_t tile_items()
{
  return strata::detail::merge::policy_hub<KeyT, ValueT>::MaxPolicy::MergePolicy::TILE_ITEMS;
}

template <typename KeyT>
void check_merge(std::size_t n1, std::size_t n2, long long span, std::uint64_t salt)
{
  CAPTURE(n1, n2, span);
  const std::vector<KeyT> a = sorted_keys<KeyT>(n1, span, salt);
  const std::vector<KeyT> b = sorted_keys<KeyT>(n2, span, salt + 1);
  // Values: +index for the first range, -(index + 1) for the second, as floats.
  std::vector<float> va(n1), vb(n2);
  for (std::size_t i = 0; i < n1; ++i)
  {
    va[i] = static_cast<float>(i);
  }
  for (std::size_t i = 0; i < n2; ++i)
  {
    vb[i] = -static_cast<float>(i + 1);
  }
  // The expected merge of pairs: std::merge on (key, value) by key alone is stable, the first range's first.
  std::vector<std::pair<KeyT, float>> pa(n1), pb(n2), expected(n1 + n2);
  for (std::size_t i = 0; i < n1; ++i)
  {
    pa[i] = {a[i], va[i]};
  }
  for (std::size_t i = 0; i < n2; ++i)
  {
    pb[i] = {b[i], vb[i]};
  }
  std::merge(pa.begin(), pa.end(), pb.begin(), pb.end(), expected.begin(), [](const auto& x, const auto& y) {
    return x.first < y.first;
  });
  std::vector<KeyT> expected_keys(n1 + n2);
  std::vector<float> expected_values(n1 + n2);
  for (std::size_t i = 0; i < n1 + n2; ++i)
  {
    expected_keys[i]   = expected[i].first;
    expected_values[i] = expected[i].second;
  }
  const device_buffer<KeyT> d_a(a), d_b(b);
  const device_buffer<float> d_va(va), d_vb(vb);
  device_buffer<KeyT> d_keys(n1 + n2);
  device_buffer<float> d_values(n1 + n2);
  const auto mode         = (n1 + n2) % 2 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
  const std::size_t bytes = strata_test::launch(
    [&](void* temp, std::size_t& temp_bytes, cudaStream_t s) {
      return strata::DeviceMerge::MergePairs(temp, temp_bytes, d_a.data(), d_va.data(), static_cast<std::int64_t>(n1),
                                             d_b.data(), d_vb.data(), static_cast<std::int64_t>(n2), d_keys.data(),
                                             d_values.data(), cuda::std::less<>{}, s);
    },
    mode);
  // The splits at both ends of every tile; no items, nothing to store.
  CHECK(bytes >= (n1 + n2 == 0 ? std::size_t(1) : 2 * sizeof(std::int64_t)));
  STRATA_REQUIRE_EQUAL_VECTORS(d_keys.download(), expected_keys);
  STRATA_REQUIRE_EQUAL_VECTORS(d_values.download(), expected_values);

  d_keys.poison();
  strata_test::launch(
    [&](void* temp, std::size_t& temp_bytes, cudaStream_t s) {
      return strata::DeviceMerge::MergeKeys(temp, temp_bytes, d_a.data(), static_cast<std::int64_t>(n1), d_b.data(),
                                            static_cast<std::int64_t>(n2), d_keys.data(), cuda::std::less<>{}, s);
    },
    mode);
  STRATA_REQUIRE_EQUAL_VECTORS(d_keys.download(), expected_keys);
}
} // namespace

TEMPLATE_TEST_CASE("DeviceMerge::MergeKeys and MergePairs match std::merge, stably", "[device][merge]", std::int32_t,
                   std::int64_t)
{
  using KeyT                           = TestType;
  const std::size_t tile               = tile_items<KeyT, float>();
  const std::vector<std::size_t> sizes = {0, 1, 2, 31, tile - 1, tile, tile + 1, 3 * tile + 7, 100003};
  std::uint64_t salt                   = 1;
  for (const std::size_t n1 : sizes)
  {
    for (const std::size_t n2 : {std::size_t(0), std::size_t(1), tile + 3, n1, std::size_t(65537)})
    {
      for (const long long span : {3LL, 1000LL, 1LL << 40})
      {
        check_merge<KeyT>(n1, n2, span, salt++);
      }
    }
  }
  check_merge<KeyT>(std::size_t(1) << 21, (std::size_t(1) << 21) + 999, 1 << 20, 99);
}

TEST_CASE("DeviceMerge: descending under greater, a counting range, single-phase", "[device][merge]")
{
  const std::size_t n1 = 70001;
  const std::size_t n2 = 50000;
  std::vector<int> a   = sorted_keys<int>(n1, 200000, 5);
  std::reverse(a.begin(), a.end()); // descending
  // The second range: n2, n2 - 1, ..., 1 (a counting iterator read through a reversal would do; here as data).
  std::vector<int> b(n2);
  for (std::size_t i = 0; i < n2; ++i)
  {
    b[i] = static_cast<int>(n2 - i);
  }
  std::vector<int> expected(n1 + n2);
  std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin(), std::greater<>{});
  const device_buffer<int> d_a(a), d_b(b);
  device_buffer<int> d_out(n1 + n2);
  cudaStream_t stream{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  REQUIRE(strata::DeviceMerge::MergeKeys(d_a.data(), static_cast<std::int64_t>(n1), d_b.data(),
                                         static_cast<std::int64_t>(n2), d_out.data(), cuda::std::greater<>{}, stream)
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);

  // An ascending merge with a counting iterator: 0, 1, ..., n2 - 1 and the sorted keys.
  const std::vector<int> c = sorted_keys<int>(n1, 100000, 6);
  std::vector<int> counting(n2);
  for (std::size_t i = 0; i < n2; ++i)
  {
    counting[i] = static_cast<int>(i);
  }
  std::merge(c.begin(), c.end(), counting.begin(), counting.end(), expected.begin());
  const device_buffer<int> d_c(c);
  d_out.poison();
  REQUIRE(strata::DeviceMerge::MergeKeys(d_c.data(), static_cast<std::int64_t>(n1), thrust::counting_iterator<int>(0),
                                         static_cast<std::int64_t>(n2), d_out.data())
          == cudaSuccess);
  STRATA_TEST_SYNC();
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceMerge: bad arguments are refused and nothing is written", "[device][merge][errors]")
{
  const device_buffer<int> d_a(std::vector<int>{1, 2, 3});
  device_buffer<int> d_out(6);
  device_buffer<char> d_temp(16);
  std::size_t bytes = 16;
  using strata::DeviceMerge;
  CHECK(DeviceMerge::MergeKeys(d_temp.data(), bytes, d_a.data(), -1, d_a.data(), 3, d_out.data())
        == cudaErrorInvalidValue);
  CHECK(DeviceMerge::MergeKeys(d_temp.data(), bytes, static_cast<const int*>(nullptr), 3, d_a.data(), 3, d_out.data())
        == cudaErrorInvalidValue);
  CHECK(DeviceMerge::MergeKeys(d_temp.data(), bytes, d_a.data(), 3, d_a.data(), 3, static_cast<int*>(nullptr))
        == cudaErrorInvalidValue);
  CHECK(DeviceMerge::MergePairs(d_temp.data(), bytes, d_a.data(), static_cast<const float*>(nullptr), 3, d_a.data(),
                                static_cast<const float*>(nullptr), 0, d_out.data(), static_cast<float*>(nullptr))
        == cudaErrorInvalidValue);
  std::size_t too_little = 0;
  CHECK(DeviceMerge::MergeKeys(d_temp.data(), too_little, d_a.data(), 3, d_a.data(), 3, d_out.data())
        == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_out.download()));
  // Empty ranges may be null.
  CHECK(DeviceMerge::MergeKeys(d_temp.data(), bytes, static_cast<const int*>(nullptr), 0,
                               static_cast<const int*>(nullptr), 0, static_cast<int*>(nullptr))
        == cudaSuccess);
}
