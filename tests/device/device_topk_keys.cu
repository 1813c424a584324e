// DeviceTopK::MinKeys and MaxKeys against the host references of device_topk_harness.cuh (the keys at the reference's
// positions, bit for bit): int8 (one round), uint16 (two, the second of 5 bits), int32, uint64, float and double over
// the size classes, k = 1, 100, n - 1, n and 2^16, both orders, on a stream and in a graph; floating-point keys with
// both zeros and both infinities among them, and NaNs; outputs that are not pointers (the sorted result copied out);
// the single-phase forms; empty selections and bad arguments, which write nothing.
#include "device_topk_harness.cuh"

#include <thrust/device_ptr.h>

#include <cuda/stream_ref>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace
{
using strata_test::device_buffer;
using topk_test::expected_positions;

template <bool IS_MAX, typename KeyT>
void check_keys(const std::vector<KeyT>& keys, const char* what)
{
  const std::size_t n = keys.size();
  const device_buffer<KeyT> d_keys(keys);
  int turn        = 0;
  std::size_t ith = 0;
  for (const std::size_t k : topk_test::k_values(n))
  {
    for (const strata::topk_order order : topk_test::orders(ith++))
    {
      CAPTURE(what, n, k, IS_MAX, order == strata::topk_order::sorted);
      const auto mode             = turn++ % 2 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
      const std::vector<KeyT> out = topk_test::run_keys<IS_MAX>(d_keys, k, order, mode);
      STRATA_REQUIRE_EQUAL_VECTORS(topk_test::key_bits(out),
                                   topk_test::key_bits(
                                     topk_test::gather(keys, expected_positions<IS_MAX>(keys, k, order))));
    }
  }
}

// Both selections (under the sanitizer one, by turns).
template <typename KeyT>
void check_both(const std::vector<KeyT>& keys, const char* what)
{
  static std::size_t turn = 0;
  const std::size_t t     = turn++;
  if (topk_test::selects(false, t))
  {
    check_keys<false>(keys, what);
  }
  if (topk_test::selects(true, t))
  {
    check_keys<true>(keys, what);
  }
}

// Random keys with both zeros and both infinities in every few places.
template <typename T>
std::vector<T> with_specials(std::size_t n, std::uint64_t salt)
{
  std::vector<T> keys = strata_test::random_vector<T>(n, salt);
  const T specials[]  = {T(-0.0), T(0.0), std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity()};
  for (std::size_t i = 0; i < n; i += 7)
  {
    keys[i] = specials[(i / 7) % 4];
  }
  return keys;
}

float float_of_bits(std::uint32_t bits)
{
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}
} // namespace

TEMPLATE_TEST_CASE("DeviceTopK::MinKeys and MaxKeys select and order as the references", "[device][topk]", std::int8_t,
                   std::uint16_t, std::int32_t, std::uint64_t, float, double)
{
  using KeyT             = TestType;
  std::uint64_t salt     = 0x70c0 + sizeof(KeyT);
  const std::size_t tile = topk_test::tile_items<KeyT>();
  for (const std::size_t n : strata_test::test_sizes(tile, strata_test::capped(std::size_t(1) << 18), salt))
  {
    check_both(strata_test::random_vector<KeyT>(n, salt++), "random");
  }
}

TEMPLATE_TEST_CASE("DeviceTopK keys: -0.0 and +0.0 are equal keys, infinities are keys", "[device][topk][float]", float,
                   double)
{
  using KeyT             = TestType;
  const std::size_t tile = topk_test::tile_items<KeyT>();
  std::uint64_t salt     = 0x7f10;
  for (const std::size_t n : strata_test::sizes_within_cap({5, tile + 1, 65537, 400009}))
  {
    check_both(with_specials<KeyT>(n, salt++), "specials");
    // Only zeros of both signs and infinities: every key ties with a quarter of them.
    std::vector<KeyT> zeros = with_specials<KeyT>(n, salt++);
    for (std::size_t i = 0; i < n; ++i)
    {
      zeros[i] = i % 7 == 0 ? zeros[i] : ((i * 0x9e3779b9u) >> 7) % 2 ? KeyT(0.0) : KeyT(-0.0);
    }
    check_both(zeros, "zeros");
  }
}

TEST_CASE("DeviceTopK keys: NaNs go by their bits, positive ones above +inf", "[device][topk][float]")
{
  const float pos_nan           = float_of_bits(0x7fc00000u);
  const float neg_nan           = float_of_bits(0xffc00000u);
  const float inf               = std::numeric_limits<float>::infinity();
  const std::vector<float> keys = {1.0f, pos_nan, 3.0f, -inf, inf, neg_nan, 2.0f, pos_nan, -0.0f};
  const device_buffer<float> d_in(keys);
  const auto bits_of = [](const std::vector<float>& v) {
    return topk_test::key_bits(v);
  };
  CHECK(bits_of(topk_test::run_keys<true>(d_in, 4, strata::topk_order::sorted, strata_test::launch_mode::stream))
        == bits_of({pos_nan, pos_nan, inf, 3.0f}));
  CHECK(bits_of(topk_test::run_keys<false>(d_in, 3, strata::topk_order::sorted, strata_test::launch_mode::stream))
        == bits_of({neg_nan, -inf, -0.0f}));
  // Unsorted: round 0's digit (the top 11 bits of the image) sets 3.0 apart, the fourth: the keys above it in input
  // order, then 3.0.
  CHECK(bits_of(topk_test::run_keys<true>(d_in, 4, strata::topk_order::unsorted, strata_test::launch_mode::graph))
        == bits_of({pos_nan, inf, pos_nan, 3.0f}));
}

TEST_CASE("DeviceTopK keys: outputs that are not pointers, single-phase forms", "[device][topk]")
{
  const std::size_t n         = 200003;
  const std::vector<int> keys = strata_test::random_vector<int>(n, 0x7d01);
  const device_buffer<int> d_in(keys);
  for (const std::size_t k : {std::size_t(1), std::size_t(999), std::size_t(65536)})
  {
    for (const strata::topk_order order : {strata::topk_order::unsorted, strata::topk_order::sorted})
    {
      CAPTURE(k, order == strata::topk_order::sorted);
      const std::vector<int> expected = topk_test::gather(keys, expected_positions<false>(keys, k, order));
      device_buffer<int> d_out(k);
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceTopK::MinKeys(temp, bytes, d_in.data(), thrust::device_ptr<int>(d_out.data()),
                                           static_cast<int>(n), static_cast<int>(k), order, s);
      });
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
    }
  }

  // Single-phase: the default environment, a stream, a cuda::stream_ref.
  cudaStream_t stream{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const std::size_t k = 5000;
  device_buffer<int> d_out(k);
  const std::vector<int> expected_max =
    topk_test::gather(keys, expected_positions<true>(keys, k, strata::topk_order::sorted));
  REQUIRE(strata::DeviceTopK::MaxKeys(d_in.data(), d_out.data(), static_cast<int>(n), static_cast<int>(k),
                                      strata::topk_order::sorted)
          == cudaSuccess);
  STRATA_TEST_SYNC();
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected_max);
  d_out.poison();
  REQUIRE(strata::DeviceTopK::MaxKeys(d_in.data(), d_out.data(), static_cast<int>(n), static_cast<int>(k),
                                      strata::topk_order::sorted, stream)
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected_max);
  d_out.poison();
  REQUIRE(strata::DeviceTopK::MinKeys(d_in.data(), d_out.data(), static_cast<int>(n), static_cast<int>(k),
                                      strata::topk_order::unsorted, cuda::stream_ref{stream})
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(
    d_out.download(), topk_test::gather(keys, expected_positions<false>(keys, k, strata::topk_order::unsorted)));
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceTopK: empty selections and bad arguments write nothing", "[device][topk][errors]")
{
  const device_buffer<int> d_in(strata_test::random_vector<int>(1000, 0x7e77));
  device_buffer<int> d_out(1000);
  device_buffer<std::uint32_t> d_values(1000);
  const device_buffer<std::uint32_t> d_values_in(std::vector<std::uint32_t>(1000, 7u));
  using strata::DeviceTopK;
  using strata::topk_order;

  // Nothing to select: the query answers 1 byte, the run launches nothing.
  for (const auto [n, k] : {std::pair<int, int>{0, 0}, std::pair<int, int>{1000, 0}})
  {
    std::size_t bytes = 0;
    REQUIRE(DeviceTopK::MinKeys(nullptr, bytes, d_in.data(), d_out.data(), n, k) == cudaSuccess);
    CHECK(bytes == 1);
    char one = 0;
    REQUIRE(DeviceTopK::MaxPairs(&one, bytes, d_in.data(), d_out.data(), d_values_in.data(), d_values.data(), n, k,
                                 topk_order::sorted)
            == cudaSuccess);
  }
  std::size_t none = 1;
  char one         = 0;
  CHECK(DeviceTopK::MinKeys(&one, none, static_cast<const int*>(nullptr), static_cast<int*>(nullptr), 0, 0)
        == cudaSuccess);

  // Bad arguments, on the query and on the run.
  std::size_t bytes = 0;
  REQUIRE(DeviceTopK::MaxPairs(nullptr, bytes, d_in.data(), d_out.data(), d_values_in.data(), d_values.data(), 1000,
                               100, topk_order::sorted)
          == cudaSuccess);
  device_buffer<char> d_temp(bytes);
  std::size_t query = 0;
  CHECK(DeviceTopK::MinKeys(nullptr, query, d_in.data(), d_out.data(), -1, 1) == cudaErrorInvalidValue);
  CHECK(DeviceTopK::MinKeys(nullptr, query, d_in.data(), d_out.data(), 10, -1) == cudaErrorInvalidValue);
  CHECK(DeviceTopK::MinKeys(nullptr, query, d_in.data(), d_out.data(), 10, 11) == cudaErrorInvalidValue);
  CHECK(DeviceTopK::MinKeys(d_temp.data(), bytes, d_in.data(), d_out.data(), 1000, 1001) == cudaErrorInvalidValue);
  CHECK(DeviceTopK::MaxKeys(d_temp.data(), bytes, d_in.data(), d_out.data(), 1000, 100, static_cast<topk_order>(7))
        == cudaErrorInvalidValue);
  CHECK(DeviceTopK::MaxKeys(d_temp.data(), bytes, static_cast<const int*>(nullptr), d_out.data(), 1000, 100)
        == cudaErrorInvalidValue);
  CHECK(DeviceTopK::MaxKeys(d_temp.data(), bytes, d_in.data(), static_cast<int*>(nullptr), 1000, 100)
        == cudaErrorInvalidValue);
  CHECK(DeviceTopK::MaxPairs(d_temp.data(), bytes, d_in.data(), d_out.data(),
                             static_cast<const std::uint32_t*>(nullptr), d_values.data(), 1000, 100)
        == cudaErrorInvalidValue);
  CHECK(DeviceTopK::MaxPairs(d_temp.data(), bytes, d_in.data(), d_out.data(), d_values_in.data(),
                             static_cast<std::uint32_t*>(nullptr), 1000, 100)
        == cudaErrorInvalidValue);
  std::size_t too_little = bytes - 1;
  CHECK(DeviceTopK::MaxPairs(d_temp.data(), too_little, d_in.data(), d_out.data(), d_values_in.data(), d_values.data(),
                             1000, 100, topk_order::sorted)
        == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_out.download()));
  CHECK(strata_test::all_poisoned(d_values.download()));
}
