// DeviceRadixSort rejects bad input with cudaErrorInvalidValue and writes nothing: an invalid bit range (begin_bit >
// end_bit, begin_bit < 0, end_bit past the key's bits, for arithmetic and decomposed keys), too small
// temp_storage_bytes, a null pointer with items to sort, a negative num_items; in the in/out, DoubleBuffer and
// single-phase forms. A sort of no items asks for at least one byte, succeeds, writes nothing and launches nothing.
#include "device_radix_sort_harness.cuh"

#include <cuda/std/tuple>

#include <cstdint>
#include <vector>

namespace
{
constexpr int N = 100000; // several tiles

using K = std::uint32_t;
using V = std::uint32_t;

struct decomposed_key
{
  std::int32_t a;
  float b;
};
struct decomposer
{
  __host__ __device__ cuda::std::tuple<std::int32_t&, float&> operator()(decomposed_key& k) const
  {
    return {k.a, k.b};
  }
};

// The bit ranges that are invalid for keys of BITS bits.
struct bad_range
{
  int begin_bit;
  int end_bit;
  const char* what;
};
std::vector<bad_range> bad_ranges(int bits)
{
  return {
    {9, 8, "begin_bit > end_bit"}, {bits, 0, "begin_bit > end_bit = 0"},  {-1, 8, "begin_bit < 0"},
    {-8, -1, "both negative"},     {0, bits + 1, "end_bit past the key"}, {bits + 1, bits + 8, "both past the key"}};
}

// Device buffers of N keys and values: the inputs random, the outputs poisoned; checks that nothing changed.
struct buffers
{
  std::vector<K> h_keys   = strata_test::random_vector<K>(N, 0xe1);
  std::vector<V> h_values = strata_test::random_vector<V>(N, 0xe2);
  strata_test::device_buffer<K> keys_in{h_keys};
  strata_test::device_buffer<K> keys_out{std::size_t(N)};
  strata_test::device_buffer<V> values_in{h_values};
  strata_test::device_buffer<V> values_out{std::size_t(N)};

  void require_untouched()
  {
    STRATA_TEST_SYNC();
    CHECK(strata_test::all_poisoned(keys_out.download()));
    CHECK(strata_test::all_poisoned(values_out.download()));
    STRATA_REQUIRE_EQUAL_VECTORS(keys_in.download(), h_keys);
    STRATA_REQUIRE_EQUAL_VECTORS(values_in.download(), h_values);
  }
};

// `call(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, begin_bit, end_bit)` runs one
// in/out entry point (keys-only ones ignore the values).
template <typename Call>
void check_in_out(Call call, bool pairs)
{
  buffers b;
  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, b.keys_in.data(), b.keys_out.data(), b.values_in.data(), b.values_out.data(), N, 0, 32)
          == cudaSuccess);
  REQUIRE(bytes > 0);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
  K* const null_k = nullptr;
  V* const null_v = nullptr;
  auto rejects    = [&](const char* what, void* t, std::size_t size, const K* ki, K* ko, const V* vi, V* vo, int n,
                     int begin_bit, int end_bit) {
    INFO(what);
    std::size_t bytes_in = size;
    CHECK(call(t, bytes_in, ki, ko, vi, vo, n, begin_bit, end_bit) == cudaErrorInvalidValue);
  };
  K* const ki = b.keys_in.data();
  K* const ko = b.keys_out.data();
  V* const vi = b.values_in.data();
  V* const vo = b.values_out.data();
  for (const bad_range& r : bad_ranges(32))
  {
    rejects(r.what, d_temp, bytes, ki, ko, vi, vo, N, r.begin_bit, r.end_bit);
  }
  rejects("temp_storage_bytes one too small", d_temp, bytes - 1, ki, ko, vi, vo, N, 0, 32);
  rejects("null d_keys_in", d_temp, bytes, null_k, ko, vi, vo, N, 0, 32);
  rejects("null d_keys_out", d_temp, bytes, ki, null_k, vi, vo, N, 0, 32);
  if (pairs)
  {
    rejects("null d_values_in", d_temp, bytes, ki, ko, null_v, vo, N, 0, 32);
    rejects("null d_values_out", d_temp, bytes, ki, ko, vi, null_v, N, 0, 32);
  }
  rejects("negative num_items", d_temp, bytes, ki, ko, vi, vo, -5, 0, 32);
  rejects("negative num_items in the size query", nullptr, 0, ki, ko, vi, vo, -1, 0, 32);
  b.require_untouched();
  STRATA_TEST_CUDA(cudaFree(d_temp));
}

// `call(d_temp, bytes, DoubleBuffer<K>& keys, DoubleBuffer<V>& values, num_items, begin_bit, end_bit)` runs one
// DoubleBuffer entry point; after each rejected call the selectors are still 0 and nothing was written.
template <typename Call>
void check_double_buffer(Call call, bool pairs)
{
  buffers b;
  std::size_t bytes = 0;
  {
    strata::DoubleBuffer<K> keys(b.keys_in.data(), b.keys_out.data());
    strata::DoubleBuffer<V> values(b.values_in.data(), b.values_out.data());
    REQUIRE(call(nullptr, bytes, keys, values, N, 0, 32) == cudaSuccess);
    REQUIRE(bytes > 0);
  }
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
  auto rejects = [&](const char* what, void* t, std::size_t size, K* k0, K* k1, V* v0, V* v1, int n, int begin_bit,
                     int end_bit) {
    INFO(what);
    strata::DoubleBuffer<K> keys(k0, k1);
    strata::DoubleBuffer<V> values(v0, v1);
    std::size_t bytes_in = size;
    CHECK(call(t, bytes_in, keys, values, n, begin_bit, end_bit) == cudaErrorInvalidValue);
    CHECK(keys.selector == 0);
    CHECK(values.selector == 0);
  };
  K* const k0 = b.keys_in.data();
  K* const k1 = b.keys_out.data();
  V* const v0 = b.values_in.data();
  V* const v1 = b.values_out.data();
  for (const bad_range& r : bad_ranges(32))
  {
    rejects(r.what, d_temp, bytes, k0, k1, v0, v1, N, r.begin_bit, r.end_bit);
  }
  rejects("temp_storage_bytes one too small", d_temp, bytes - 1, k0, k1, v0, v1, N, 0, 32);
  rejects("null current keys", d_temp, bytes, nullptr, k1, v0, v1, N, 0, 32);
  rejects("null alternate keys", d_temp, bytes, k0, nullptr, v0, v1, N, 0, 32);
  if (pairs)
  {
    rejects("null current values", d_temp, bytes, k0, k1, nullptr, v1, N, 0, 32);
    rejects("null alternate values", d_temp, bytes, k0, k1, v0, nullptr, N, 0, 32);
  }
  rejects("negative num_items", d_temp, bytes, k0, k1, v0, v1, -5, 0, 32);
  rejects("negative num_items in the size query", nullptr, 0, k0, k1, v0, v1, -1, 0, 32);
  b.require_untouched();
  STRATA_TEST_CUDA(cudaFree(d_temp));
}

// end_bit one past the key's bits is rejected for every key width.
template <typename KeyT>
void check_end_past_the_key()
{
  constexpr int BITS = static_cast<int>(sizeof(KeyT) * 8);
  CAPTURE(BITS);
  strata_test::device_buffer<KeyT> in(1000), out(1000);
  std::size_t bytes = 0;
  REQUIRE(strata::DeviceRadixSort::SortKeys(nullptr, bytes, in.data(), out.data(), 1000, 0, BITS) == cudaSuccess);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
  CHECK(strata::DeviceRadixSort::SortKeys(d_temp, bytes, in.data(), out.data(), 1000, 0, BITS + 1)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceRadixSort::SortKeys(d_temp, bytes, in.data(), out.data(), 1000, BITS, BITS) == cudaSuccess);
  STRATA_TEST_SYNC();
  STRATA_TEST_CUDA(cudaFree(d_temp));
}
} // namespace

TEST_CASE("DeviceRadixSort's in/out forms reject bad input before writing anything", "[device][radix_sort][errors]")
{
  SECTION("SortKeys")
  {
    check_in_out(
      [](void* t, std::size_t& b, const K* ki, K* ko, const V*, V*, int n, int bb, int eb) {
        return strata::DeviceRadixSort::SortKeys(t, b, ki, ko, n, bb, eb);
      },
      false);
  }
  SECTION("SortKeysDescending")
  {
    check_in_out(
      [](void* t, std::size_t& b, const K* ki, K* ko, const V*, V*, int n, int bb, int eb) {
        return strata::DeviceRadixSort::SortKeysDescending(t, b, ki, ko, n, bb, eb);
      },
      false);
  }
  SECTION("SortPairs")
  {
    check_in_out(
      [](void* t, std::size_t& b, const K* ki, K* ko, const V* vi, V* vo, int n, int bb, int eb) {
        return strata::DeviceRadixSort::SortPairs(t, b, ki, ko, vi, vo, n, bb, eb);
      },
      true);
  }
  SECTION("SortPairsDescending")
  {
    check_in_out(
      [](void* t, std::size_t& b, const K* ki, K* ko, const V* vi, V* vo, int n, int bb, int eb) {
        return strata::DeviceRadixSort::SortPairsDescending(t, b, ki, ko, vi, vo, n, bb, eb);
      },
      true);
  }
}

TEST_CASE("DeviceRadixSort's DoubleBuffer forms reject bad input before writing anything",
          "[device][radix_sort][errors]")
{
  using KB = strata::DoubleBuffer<K>;
  using VB = strata::DoubleBuffer<V>;
  SECTION("SortKeys")
  {
    check_double_buffer(
      [](void* t, std::size_t& b, KB& k, VB&, int n, int bb, int eb) {
        return strata::DeviceRadixSort::SortKeys(t, b, k, n, bb, eb);
      },
      false);
  }
  SECTION("SortKeysDescending")
  {
    check_double_buffer(
      [](void* t, std::size_t& b, KB& k, VB&, int n, int bb, int eb) {
        return strata::DeviceRadixSort::SortKeysDescending(t, b, k, n, bb, eb);
      },
      false);
  }
  SECTION("SortPairs")
  {
    check_double_buffer(
      [](void* t, std::size_t& b, KB& k, VB& v, int n, int bb, int eb) {
        return strata::DeviceRadixSort::SortPairs(t, b, k, v, n, bb, eb);
      },
      true);
  }
  SECTION("SortPairsDescending")
  {
    check_double_buffer(
      [](void* t, std::size_t& b, KB& k, VB& v, int n, int bb, int eb) {
        return strata::DeviceRadixSort::SortPairsDescending(t, b, k, v, n, bb, eb);
      },
      true);
  }
}

TEST_CASE("DeviceRadixSort rejects end_bit past the key for every key width", "[device][radix_sort][errors]")
{
  check_end_past_the_key<std::uint8_t>();
  check_end_past_the_key<std::int16_t>();
  check_end_past_the_key<std::int64_t>();
  check_end_past_the_key<double>();
  check_end_past_the_key<__half>();
}

TEST_CASE("DeviceRadixSort's decomposer and single-phase forms reject bad input", "[device][radix_sort][errors]")
{
  buffers b;
  cudaStream_t s{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const auto policy = strata::par.on(s);
  K* const ki       = b.keys_in.data();
  K* const ko       = b.keys_out.data();
  V* const vi       = b.values_in.data();
  V* const vo       = b.values_out.data();
  K* const null_k   = nullptr;

  SECTION("single-phase in/out")
  {
    for (const bad_range& r : bad_ranges(32))
    {
      INFO(r.what);
      CHECK(strata::DeviceRadixSort::SortKeys(ki, ko, N, r.begin_bit, r.end_bit, policy) == cudaErrorInvalidValue);
      CHECK(strata::DeviceRadixSort::SortPairsDescending(ki, ko, vi, vo, N, r.begin_bit, r.end_bit, policy)
            == cudaErrorInvalidValue);
    }
    CHECK(strata::DeviceRadixSort::SortKeys(null_k, ko, N, policy) == cudaErrorInvalidValue);
    CHECK(strata::DeviceRadixSort::SortKeys(ki, null_k, N, policy) == cudaErrorInvalidValue);
    CHECK(strata::DeviceRadixSort::SortPairs(ki, ko, vi, static_cast<V*>(nullptr), N, policy) == cudaErrorInvalidValue);
    CHECK(strata::DeviceRadixSort::SortKeysDescending(ki, ko, -3, policy) == cudaErrorInvalidValue);
  }
  SECTION("single-phase DoubleBuffer")
  {
    strata::DoubleBuffer<K> keys(ki, ko);
    strata::DoubleBuffer<V> values(vi, vo);
    for (const bad_range& r : bad_ranges(32))
    {
      INFO(r.what);
      CHECK(strata::DeviceRadixSort::SortKeysDescending(keys, N, r.begin_bit, r.end_bit, policy)
            == cudaErrorInvalidValue);
      CHECK(strata::DeviceRadixSort::SortPairs(keys, values, N, r.begin_bit, r.end_bit, policy)
            == cudaErrorInvalidValue);
    }
    strata::DoubleBuffer<K> null_alternate(ki, nullptr);
    CHECK(strata::DeviceRadixSort::SortKeys(null_alternate, N, policy) == cudaErrorInvalidValue);
    CHECK(strata::DeviceRadixSort::SortPairs(keys, values, -1, policy) == cudaErrorInvalidValue);
    CHECK(keys.selector == 0);
    CHECK(values.selector == 0);
  }
  SECTION("decomposer")
  {
    // 64 bits of key: an int32 and a float.
    auto* const dki   = reinterpret_cast<decomposed_key*>(ki);
    auto* const dko   = reinterpret_cast<decomposed_key*>(ko);
    const int n       = N / 2;
    std::size_t bytes = 0;
    REQUIRE(strata::DeviceRadixSort::SortKeys(nullptr, bytes, dki, dko, n, decomposer{}, 0, 64) == cudaSuccess);
    void* d_temp = nullptr;
    STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
    for (const bad_range& r : bad_ranges(64))
    {
      INFO(r.what);
      CHECK(strata::DeviceRadixSort::SortKeys(d_temp, bytes, dki, dko, n, decomposer{}, r.begin_bit, r.end_bit)
            == cudaErrorInvalidValue);
      CHECK(strata::DeviceRadixSort::SortPairsDescending(d_temp, bytes, dki, dko, vi, vo, n, decomposer{}, r.begin_bit,
                                                         r.end_bit)
            == cudaErrorInvalidValue);
      CHECK(strata::DeviceRadixSort::SortKeys(dki, dko, n, decomposer{}, r.begin_bit, r.end_bit, policy)
            == cudaErrorInvalidValue);
    }
    std::size_t too_small = bytes - 1;
    CHECK(strata::DeviceRadixSort::SortKeys(d_temp, too_small, dki, dko, n, decomposer{}) == cudaErrorInvalidValue);
    CHECK(strata::DeviceRadixSort::SortKeys(d_temp, bytes, static_cast<decomposed_key*>(nullptr), dko, n, decomposer{})
          == cudaErrorInvalidValue);
    STRATA_TEST_CUDA(cudaFree(d_temp));
  }
  STRATA_TEST_CUDA(cudaStreamSynchronize(s));
  STRATA_TEST_CUDA(cudaStreamDestroy(s));
  b.require_untouched();
}

namespace
{
// A sort of no items in the form `call(d_temp, bytes, keys_in, keys_out, values_in, values_out, stream)` (num_items
// 0): the query asks for at least one byte; the run succeeds with the queried bytes and with null pointers, writes
// nothing, and under capture enqueues nothing.
template <typename Call>
void check_empty(Call call)
{
  buffers b;
  std::size_t bytes = 0;
  REQUIRE(
    call(nullptr, bytes, b.keys_in.data(), b.keys_out.data(), b.values_in.data(), b.values_out.data(), cudaStream_t{0})
    == cudaSuccess);
  CHECK(bytes >= 1);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
  CHECK(
    call(d_temp, bytes, b.keys_in.data(), b.keys_out.data(), b.values_in.data(), b.values_out.data(), cudaStream_t{0})
    == cudaSuccess);
  CHECK(call(d_temp, bytes, nullptr, nullptr, nullptr, nullptr, cudaStream_t{0}) == cudaSuccess);

  cudaStream_t s{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  STRATA_TEST_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  const cudaError_t captured =
    call(d_temp, bytes, b.keys_in.data(), b.keys_out.data(), b.values_in.data(), b.values_out.data(), s);
  cudaGraph_t graph{};
  STRATA_TEST_CUDA(cudaStreamEndCapture(s, &graph));
  CHECK(captured == cudaSuccess);
  std::size_t nodes = 1;
  STRATA_TEST_CUDA(cudaGraphGetNodes(graph, nullptr, &nodes));
  CHECK(nodes == 0);
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  STRATA_TEST_CUDA(cudaStreamDestroy(s));
  b.require_untouched();
  STRATA_TEST_CUDA(cudaFree(d_temp));
}
} // namespace

TEST_CASE("DeviceRadixSort of no items asks for a byte, succeeds and writes nothing", "[device][radix_sort][errors]")
{
  using strata::DeviceRadixSort;
  SECTION("SortKeys")
  {
    check_empty([](void* t, std::size_t& b, K* ki, K* ko, V*, V*, cudaStream_t s) {
      return DeviceRadixSort::SortKeys(t, b, ki, ko, 0, 0, 32, s);
    });
  }
  SECTION("SortPairsDescending")
  {
    check_empty([](void* t, std::size_t& b, K* ki, K* ko, V* vi, V* vo, cudaStream_t s) {
      return DeviceRadixSort::SortPairsDescending(t, b, ki, ko, vi, vo, 0, 0, 32, s);
    });
  }
  SECTION("SortKeys, DoubleBuffer")
  {
    check_empty([](void* t, std::size_t& b, K* ki, K* ko, V*, V*, cudaStream_t s) {
      strata::DoubleBuffer<K> keys(ki, ko);
      return DeviceRadixSort::SortKeys(t, b, keys, 0, 0, 32, s);
    });
  }
  SECTION("SortPairs, DoubleBuffer")
  {
    check_empty([](void* t, std::size_t& b, K* ki, K* ko, V* vi, V* vo, cudaStream_t s) {
      strata::DoubleBuffer<K> keys(ki, ko);
      strata::DoubleBuffer<V> values(vi, vo);
      return DeviceRadixSort::SortPairs(t, b, keys, values, 0, 0, 32, s);
    });
  }
  SECTION("SortPairs with a policy")
  {
    // The policy's stream is the capturing one; the temporary-storage arguments are unused.
    check_empty([](void*, std::size_t& b, K* ki, K* ko, V* vi, V* vo, cudaStream_t s) {
      b = b == 0 ? 1 : b;
      return DeviceRadixSort::SortPairs(ki, ko, vi, vo, 0, strata::par.on(s));
    });
  }
}
