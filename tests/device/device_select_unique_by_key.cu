// DeviceSelect::UniqueByKey against the first key of each run on the host, with its value: keys of 1, 4 and 8 bytes in
// runs of random length, values of 4 and 8 bytes and a 16-byte user struct, at every size class and every partial
// last tile; the default equality and a coarser one (keys equal by their quarter); stream and graph launches; a
// transform_iterator of keys and a discard_iterator for the values; the single-phase forms; bad input rejected
// before anything is written; no items write a count of 0.
#include <strata/device/device_select.cuh>
#include <strata/execution/policy.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "device_launch.cuh"
#include "select_test.cuh"
#include "test_util.cuh"

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace
{
using select_test::MAX_ITEMS;
using select_test::tile_items;

// n keys in runs of 1 to `max_run` equal keys; neighbouring runs differ (run r holds 7 r mod 251).
template <typename K>
std::vector<K> run_keys(std::size_t n, std::size_t max_run, std::uint64_t salt)
{
  std::mt19937_64 rng(salt);
  std::uniform_int_distribution<std::size_t> length(1, max_run);
  std::vector<K> keys;
  keys.reserve(n);
  for (std::size_t run = 0; keys.size() < n; ++run)
  {
    const K key = static_cast<K>((run * 7) % 251);
    for (std::size_t i = length(rng); i > 0 && keys.size() < n; --i)
    {
      keys.push_back(key);
    }
  }
  return keys;
}

// Keys equal when their quarters are (7 r mod 251 for neighbouring runs r may then be equal: runs merge).
struct same_quarter
{
  template <typename K>
  __host__ __device__ bool operator()(const K& a, const K& b) const
  {
    return static_cast<long long>(a) / 4 == static_cast<long long>(b) / 4;
  }
};

// The first key of each run under `eq`, and its value.
template <typename K, typename V, typename Eq>
void reference(const std::vector<K>& keys, const std::vector<V>& values, Eq eq, std::vector<K>& want_keys,
               std::vector<V>& want_values)
{
  want_keys.clear();
  want_values.clear();
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    if (i == 0 || !eq(keys[i - 1], keys[i]))
    {
      want_keys.push_back(keys[i]);
      want_values.push_back(values[i]);
    }
  }
}

template <typename K, typename V, typename NumT, typename Eq>
void check_unique_by_key(const std::vector<K>& keys, const std::vector<V>& values, Eq eq, bool default_eq,
                         strata_test::launch_mode mode)
{
  const std::size_t n = keys.size();
  CAPTURE(n, default_eq);
  std::vector<K> want_keys;
  std::vector<V> want_values;
  reference(keys, values, eq, want_keys, want_values);
  const strata_test::device_buffer<K> d_keys(keys);
  const strata_test::device_buffer<V> d_values(values);
  strata_test::device_buffer<K> d_keys_out(n + 32);
  strata_test::device_buffer<V> d_values_out(n + 32);
  strata_test::device_buffer<NumT> d_num(1);
  strata_test::launch(
    [&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return default_eq
             ? strata::DeviceSelect::UniqueByKey(temp, bytes, d_keys.data(), d_values.data(), d_keys_out.data(),
                                                 d_values_out.data(), d_num.data(), static_cast<long long>(n), s)
             : strata::DeviceSelect::UniqueByKey(temp, bytes, d_keys.data(), d_values.data(), d_keys_out.data(),
                                                 d_values_out.data(), d_num.data(), static_cast<long long>(n), eq, s);
    },
    mode);
  CHECK(static_cast<std::size_t>(d_num.download()[0]) == want_keys.size());
  strata_test::require_written_prefix("keys", d_keys_out, want_keys);
  strata_test::require_written_prefix("values", d_values_out, want_values);
}

template <typename K, typename V>
void check_sizes(std::uint64_t salt)
{
  std::size_t round = 0;
  for (const std::size_t n : strata_test::test_sizes(tile_items<K>(), MAX_ITEMS, salt))
  {
    const std::vector<K> keys   = run_keys<K>(n, 1 + n % 9, salt + n);
    const std::vector<V> values = strata_test::random_vector<V>(n, salt + 2 * n + 1);
    const auto mode = (n + round++) % 4 == 0 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
    check_unique_by_key<K, V, std::size_t>(keys, values, cuda::std::equal_to<>{}, true, mode);
    check_unique_by_key<K, V, int>(keys, values, same_quarter{}, false, strata_test::launch_mode::stream);
  }
}
} // namespace

TEST_CASE("DeviceSelect::UniqueByKey keeps the first key of each run and its value at every size class",
          "[device][select][unique_by_key]")
{
  check_sizes<std::int32_t, std::int32_t>(0x5b1);
  check_sizes<std::uint8_t, double>(0x5b2);
  check_sizes<std::int64_t, strata_test::custom_t>(0x5b3);
}

TEST_CASE("DeviceSelect::UniqueByKey at every partial last tile", "[device][select][unique_by_key]")
{
  using K             = std::int32_t;
  const std::size_t t = tile_items<K>();
  for (const std::size_t k : {1, 2, 3, 9})
  {
    for (const std::size_t r : {std::size_t(0), std::size_t(1), std::size_t(33), t / 2, t - 1})
    {
      const std::size_t n = k * t + r;
      if (n > strata_test::capped(MAX_ITEMS))
      {
        continue;
      }
      const std::vector<K> keys        = run_keys<K>(n, 5, 0x5b4 + n);
      const std::vector<double> values = strata_test::random_vector<double>(n, 0x5b5 + n);
      check_unique_by_key<K, double, unsigned long long>(keys, values, cuda::std::equal_to<>{}, true,
                                                         strata_test::launch_mode::stream);
    }
  }
}

namespace
{
// i / 3: runs of three over a counting iterator.
struct third
{
  __host__ __device__ int operator()(int i) const
  {
    return i / 3;
  }
};
} // namespace

TEST_CASE("DeviceSelect::UniqueByKey over a transform_iterator of keys into a discard_iterator of values",
          "[device][select][unique_by_key][iterators]")
{
  const int n                     = static_cast<int>(strata_test::capped(1000003));
  const auto in                   = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), third{});
  const std::vector<int> h_values = strata_test::random_vector<int>(static_cast<std::size_t>(n), 0x5b6);
  const strata_test::device_buffer<int> d_values(h_values);
  strata_test::device_buffer<int> d_keys_out(static_cast<std::size_t>(n) + 32);
  strata_test::device_buffer<int> d_num(1);
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceSelect::UniqueByKey(temp, bytes, in, d_values.data(), d_keys_out.data(),
                                             thrust::make_discard_iterator(), d_num.data(), n, s);
  });
  std::vector<int> want((static_cast<std::size_t>(n) + 2) / 3);
  for (std::size_t i = 0; i < want.size(); ++i)
  {
    want[i] = static_cast<int>(i);
  }
  CHECK(d_num.download()[0] == static_cast<int>(want.size()));
  strata_test::require_written_prefix("keys", d_keys_out, want);
}

TEST_CASE("DeviceSelect::UniqueByKey single-phase on a stream and on a policy",
          "[device][select][unique_by_key][single_phase]")
{
  using K                         = std::int64_t;
  const std::size_t n             = strata_test::capped(300007);
  const std::vector<K> keys       = run_keys<K>(n, 6, 0x5b7);
  const std::vector<float> values = strata_test::random_vector<float>(n, 0x5b8);
  std::vector<K> want_keys;
  std::vector<float> want_values;
  reference(keys, values, same_quarter{}, want_keys, want_values);
  const strata_test::device_buffer<K> d_keys(keys);
  const strata_test::device_buffer<float> d_values(values);
  cudaStream_t s{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (const bool policy : {false, true})
  {
    strata_test::device_buffer<K> d_keys_out(n + 32);
    strata_test::device_buffer<float> d_values_out(n + 32);
    strata_test::device_buffer<std::size_t> d_num(1);
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    const cudaError_t e =
      policy ? strata::DeviceSelect::UniqueByKey(d_keys.data(), d_values.data(), d_keys_out.data(), d_values_out.data(),
                                                 d_num.data(), n, same_quarter{}, strata::par.on(s))
             : strata::DeviceSelect::UniqueByKey(d_keys.data(), d_values.data(), d_keys_out.data(), d_values_out.data(),
                                                 d_num.data(), n, same_quarter{}, s);
    REQUIRE(e == cudaSuccess);
    STRATA_TEST_CUDA(cudaStreamSynchronize(s));
    CHECK(d_num.download()[0] == want_keys.size());
    strata_test::require_written_prefix("keys", d_keys_out, want_keys);
    strata_test::require_written_prefix("values", d_values_out, want_values);
  }
  {
    INFO("single-phase, default equality, on the default stream");
    strata_test::device_buffer<K> d_keys_out(n + 32);
    strata_test::device_buffer<float> d_values_out(n + 32);
    strata_test::device_buffer<std::size_t> d_num(1);
    REQUIRE(strata::DeviceSelect::UniqueByKey(d_keys.data(), d_values.data(), d_keys_out.data(), d_values_out.data(),
                                              d_num.data(), n)
            == cudaSuccess);
    STRATA_TEST_SYNC();
    reference(keys, values, cuda::std::equal_to<>{}, want_keys, want_values);
    CHECK(d_num.download()[0] == want_keys.size());
    strata_test::require_written_prefix("keys", d_keys_out, want_keys);
    strata_test::require_written_prefix("values", d_values_out, want_values);
  }
  STRATA_TEST_CUDA(cudaStreamDestroy(s));
}

TEST_CASE("DeviceSelect::UniqueByKey rejects bad input and writes 0 for no items",
          "[device][select][unique_by_key][errors]")
{
  constexpr int N                 = 100000;
  const std::vector<int> h_keys   = run_keys<int>(N, 4, 0x5b9);
  const std::vector<int> h_values = strata_test::random_vector<int>(N, 0x5ba);
  const strata_test::device_buffer<int> d_keys(h_keys), d_values(h_values);
  strata_test::device_buffer<int> d_keys_out(N), d_values_out(N), d_num(1);
  int* const null = nullptr;
  const auto call = [&](void* temp, std::size_t& bytes, const int* keys, const int* values, int* keys_out,
                        int* values_out, int* num, long long n) {
    return strata::DeviceSelect::UniqueByKey(temp, bytes, keys, values, keys_out, values_out, num, n, cudaStream_t{0});
  };
  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, d_keys.data(), d_values.data(), d_keys_out.data(), d_values_out.data(), d_num.data(), N)
          == cudaSuccess);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
  std::size_t b = bytes;
  CHECK(call(d_temp, b, d_keys.data(), d_values.data(), d_keys_out.data(), d_values_out.data(), d_num.data(), -1)
        == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, null, d_values.data(), d_keys_out.data(), d_values_out.data(), d_num.data(), N)
        == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, d_keys.data(), null, d_keys_out.data(), d_values_out.data(), d_num.data(), N)
        == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, d_keys.data(), d_values.data(), null, d_values_out.data(), d_num.data(), N)
        == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, d_keys.data(), d_values.data(), d_keys_out.data(), null, d_num.data(), N)
        == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, d_keys.data(), d_values.data(), d_keys_out.data(), d_values_out.data(), null, N)
        == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_keys_out.download()));
  CHECK(strata_test::all_poisoned(d_values_out.download()));
  CHECK(strata_test::all_poisoned(d_num.download()));

  std::size_t empty_bytes = 0;
  REQUIRE(call(nullptr, empty_bytes, null, null, null, null, d_num.data(), 0) == cudaSuccess);
  REQUIRE(call(d_temp, empty_bytes, null, null, null, null, d_num.data(), 0) == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(d_num.download()[0] == 0);
  STRATA_TEST_CUDA(cudaFree(d_temp));
}
