// ThreadLoad and ThreadStore on the device: every cache modifier, for values of 1, 2, 4, 8, 12, 16 and 32 bytes
// (native words of every width, and structs that take several words), over random data into poisoned outputs;
// volatile loads and stores in shared memory; and iterators that are not pointers (dereferenced, not split).
#include <strata/thread/thread_load.cuh>
#include <strata/thread/thread_store.cuh>

#include "test_util.cuh"

#include <thrust/device_ptr.h>
#include <thrust/iterator/counting_iterator.h>

#include <cstdint>
#include <ostream>
#include <vector>

namespace thread_load_store_test
{

// 12 bytes with 4-byte alignment: moved as three 4-byte words.
struct words3
{
  std::uint32_t w[3];
};
// 16 bytes with 16-byte alignment: one 16-byte vector word.
struct alignas(16) words4
{
  std::uint32_t w[4];
};
// 32 bytes with 16-byte alignment: two 16-byte vector words.
struct alignas(16) words8
{
  std::uint32_t w[8];
};
// 32 bytes with 8-byte alignment: four 8-byte words.
struct longs4
{
  std::uint64_t w[4];
};

template <typename S, int N>
bool same_words(const S& a, const S& b)
{
  for (int i = 0; i < N; ++i)
  {
    if (a.w[i] != b.w[i])
    {
      return false;
    }
  }
  return true;
}
template <typename S, int N>
std::ostream& print_words(std::ostream& os, const S& v)
{
  os << "{";
  for (int i = 0; i < N; ++i)
  {
    os << (i ? ", " : "") << v.w[i];
  }
  return os << "}";
}

bool operator==(const words3& a, const words3& b)
{
  return same_words<words3, 3>(a, b);
}
bool operator==(const words4& a, const words4& b)
{
  return same_words<words4, 4>(a, b);
}
bool operator==(const words8& a, const words8& b)
{
  return same_words<words8, 8>(a, b);
}
bool operator==(const longs4& a, const longs4& b)
{
  return same_words<longs4, 4>(a, b);
}
std::ostream& operator<<(std::ostream& os, const words3& v)
{
  return print_words<words3, 3>(os, v);
}
std::ostream& operator<<(std::ostream& os, const words4& v)
{
  return print_words<words4, 4>(os, v);
}
std::ostream& operator<<(std::ostream& os, const words8& v)
{
  return print_words<words8, 8>(os, v);
}
std::ostream& operator<<(std::ostream& os, const longs4& v)
{
  return print_words<longs4, 4>(os, v);
}

// Every word drawn from the generator, so no two neighbouring values (nor their halves) look alike.
template <typename S>
struct random_words
{
  static S draw(std::mt19937_64& rng)
  {
    S s;
    for (auto& w : s.w)
    {
      w = static_cast<std::remove_reference_t<decltype(w)>>(rng());
    }
    return s;
  }
};

} // namespace thread_load_store_test

namespace strata_test
{
namespace tls = thread_load_store_test;
template <>
struct random_traits<tls::words3> : tls::random_words<tls::words3>
{};
template <>
struct random_traits<tls::words4> : tls::random_words<tls::words4>
{};
template <>
struct random_traits<tls::words8> : tls::random_words<tls::words8>
{};
template <>
struct random_traits<tls::longs4> : tls::random_words<tls::longs4>
{};
} // namespace strata_test

namespace thread_load_store_test
{

// 1, 2, 4, 8, 12, 16 (8-byte words: custom_t, with padding; a 16-byte vector: words4) and 32 bytes (as 16-byte
// and as 8-byte words).
#define THREAD_LOAD_STORE_TYPES                                                                     \
  std::uint8_t, std::int16_t, float, double, thread_load_store_test::words3, strata_test::custom_t, \
    thread_load_store_test::words4, thread_load_store_test::words8, thread_load_store_test::longs4

constexpr int BLOCK_THREADS = 128;
// Not a multiple of the block, so the last block has idle threads.
constexpr int NUM_ITEMS = 1000;

template <strata::CacheLoadModifier MODIFIER, typename T>
__global__ void load_kernel(const T* d_in, T* d_out, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
  {
    d_out[i] = strata::ThreadLoad<MODIFIER>(d_in + i);
  }
}

template <strata::CacheStoreModifier MODIFIER, typename T>
__global__ void store_kernel(const T* d_in, T* d_out, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
  {
    strata::ThreadStore<MODIFIER>(d_out + i, d_in[i]);
  }
}

// Volatile accesses work in any memory space: stage each value through shared memory with them. The values are
// read back by the neighbouring thread, so the test sees what another thread stored.
template <typename T>
__global__ void volatile_shared_kernel(const T* d_in, T* d_out)
{
  __shared__ T staged[BLOCK_THREADS];
  const int i   = blockIdx.x * blockDim.x + threadIdx.x;
  const T value = strata::ThreadLoad<strata::LOAD_VOLATILE>(d_in + i);
  strata::ThreadStore<strata::STORE_VOLATILE>(staged + threadIdx.x, value);
  __syncthreads();
  const int neighbour = (threadIdx.x + 1) % blockDim.x;
  d_out[i]            = strata::ThreadLoad<strata::LOAD_VOLATILE>(staged + neighbour);
}

template <typename T>
std::vector<T> run_load(strata::CacheLoadModifier modifier, const strata_test::device_buffer<T>& d_in,
                        strata_test::device_buffer<T>& d_out)
{
  constexpr int blocks = (NUM_ITEMS + BLOCK_THREADS - 1) / BLOCK_THREADS;
  d_out.poison();
  switch (modifier)
  {
    case strata::LOAD_DEFAULT:
      load_kernel<strata::LOAD_DEFAULT><<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data(), NUM_ITEMS);
      break;
    case strata::LOAD_CA:
      load_kernel<strata::LOAD_CA><<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data(), NUM_ITEMS);
      break;
    case strata::LOAD_CG:
      load_kernel<strata::LOAD_CG><<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data(), NUM_ITEMS);
      break;
    case strata::LOAD_CS:
      load_kernel<strata::LOAD_CS><<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data(), NUM_ITEMS);
      break;
    case strata::LOAD_CV:
      load_kernel<strata::LOAD_CV><<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data(), NUM_ITEMS);
      break;
    case strata::LOAD_LDG:
      load_kernel<strata::LOAD_LDG><<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data(), NUM_ITEMS);
      break;
    case strata::LOAD_VOLATILE:
      load_kernel<strata::LOAD_VOLATILE><<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data(), NUM_ITEMS);
      break;
    case strata::LOAD_PLAIN:
      load_kernel<strata::LOAD_PLAIN><<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data(), NUM_ITEMS);
      break;
  }
  STRATA_TEST_SYNC();
  return d_out.download();
}

template <typename T>
std::vector<T> run_store(strata::CacheStoreModifier modifier, const strata_test::device_buffer<T>& d_in,
                         strata_test::device_buffer<T>& d_out)
{
  constexpr int blocks = (NUM_ITEMS + BLOCK_THREADS - 1) / BLOCK_THREADS;
  d_out.poison();
  switch (modifier)
  {
    case strata::STORE_DEFAULT:
      store_kernel<strata::STORE_DEFAULT><<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data(), NUM_ITEMS);
      break;
    case strata::STORE_WB:
      store_kernel<strata::STORE_WB><<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data(), NUM_ITEMS);
      break;
    case strata::STORE_CG:
      store_kernel<strata::STORE_CG><<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data(), NUM_ITEMS);
      break;
    case strata::STORE_CS:
      store_kernel<strata::STORE_CS><<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data(), NUM_ITEMS);
      break;
    case strata::STORE_WT:
      store_kernel<strata::STORE_WT><<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data(), NUM_ITEMS);
      break;
    case strata::STORE_VOLATILE:
      store_kernel<strata::STORE_VOLATILE><<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data(), NUM_ITEMS);
      break;
  }
  STRATA_TEST_SYNC();
  return d_out.download();
}

TEMPLATE_TEST_CASE("ThreadLoad reads every value with every cache modifier", "[thread][load]", THREAD_LOAD_STORE_TYPES)
{
  const std::vector<TestType> in = strata_test::random_vector<TestType>(NUM_ITEMS, sizeof(TestType) * 101);
  const strata_test::device_buffer<TestType> d_in(in);
  strata_test::device_buffer<TestType> d_out(NUM_ITEMS);

  const strata::CacheLoadModifier modifier =
    GENERATE(strata::LOAD_DEFAULT, strata::LOAD_CA, strata::LOAD_CG, strata::LOAD_CS, strata::LOAD_CV, strata::LOAD_LDG,
             strata::LOAD_VOLATILE, strata::LOAD_PLAIN);
  CAPTURE(static_cast<int>(modifier), sizeof(TestType), alignof(TestType));
  STRATA_REQUIRE_EQUAL_VECTORS(run_load(modifier, d_in, d_out), in);
}

TEMPLATE_TEST_CASE("ThreadStore writes every value with every cache modifier", "[thread][store]",
                   THREAD_LOAD_STORE_TYPES)
{
  const std::vector<TestType> in = strata_test::random_vector<TestType>(NUM_ITEMS, sizeof(TestType) * 103);
  const strata_test::device_buffer<TestType> d_in(in);
  strata_test::device_buffer<TestType> d_out(NUM_ITEMS);

  const strata::CacheStoreModifier modifier = GENERATE(strata::STORE_DEFAULT, strata::STORE_WB, strata::STORE_CG,
                                                       strata::STORE_CS, strata::STORE_WT, strata::STORE_VOLATILE);
  CAPTURE(static_cast<int>(modifier), sizeof(TestType), alignof(TestType));
  STRATA_REQUIRE_EQUAL_VECTORS(run_store(modifier, d_in, d_out), in);
}

TEMPLATE_TEST_CASE("volatile ThreadLoad and ThreadStore work in shared memory", "[thread][load][store]", std::uint8_t,
                   std::int16_t, double, thread_load_store_test::words3, thread_load_store_test::words8)
{
  constexpr int blocks           = 4;
  const std::vector<TestType> in = strata_test::random_vector<TestType>(blocks * BLOCK_THREADS, sizeof(TestType) * 107);
  const strata_test::device_buffer<TestType> d_in(in);
  strata_test::device_buffer<TestType> d_out(in.size());
  volatile_shared_kernel<<<blocks, BLOCK_THREADS>>>(d_in.data(), d_out.data());
  STRATA_TEST_SYNC();

  std::vector<TestType> expected(in.size());
  for (int b = 0; b < blocks; ++b)
  {
    for (int t = 0; t < BLOCK_THREADS; ++t)
    {
      expected[b * BLOCK_THREADS + t] = in[b * BLOCK_THREADS + (t + 1) % BLOCK_THREADS];
    }
  }
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
}

// -- iterators that are not pointers ---------------------------------------------------------------------------

template <strata::CacheLoadModifier MODIFIER>
__global__ void counting_kernel(thrust::counting_iterator<long long> first, long long* d_out, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
  {
    // The iterator computes its value; a cache modifier has nothing to act on and is ignored.
    d_out[i] = strata::ThreadLoad<MODIFIER>(first + i);
  }
}

template <strata::CacheLoadModifier LOAD, strata::CacheStoreModifier STORE, typename T>
__global__ void device_ptr_kernel(thrust::device_ptr<const T> in, thrust::device_ptr<T> out, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
  {
    strata::ThreadStore<STORE>(out + i, strata::ThreadLoad<LOAD>(in + i));
  }
}

TEST_CASE("ThreadLoad dereferences a counting iterator under every modifier", "[thread][load][iterator]")
{
  constexpr int blocks  = (NUM_ITEMS + BLOCK_THREADS - 1) / BLOCK_THREADS;
  const long long start = (1LL << 40) + 12345;
  const thrust::counting_iterator<long long> first(start);
  strata_test::device_buffer<long long> d_out(NUM_ITEMS);

  STATIC_REQUIRE(std::is_same<decltype(strata::ThreadLoad<strata::LOAD_LDG>(first)), long long>::value);
  counting_kernel<strata::LOAD_DEFAULT><<<blocks, BLOCK_THREADS>>>(first, d_out.data(), NUM_ITEMS);
  STRATA_TEST_SYNC();
  counting_kernel<strata::LOAD_CG><<<blocks, BLOCK_THREADS>>>(first, d_out.data(), NUM_ITEMS);
  STRATA_TEST_SYNC();
  counting_kernel<strata::LOAD_LDG><<<blocks, BLOCK_THREADS>>>(first, d_out.data(), NUM_ITEMS);
  STRATA_TEST_SYNC();
  counting_kernel<strata::LOAD_VOLATILE><<<blocks, BLOCK_THREADS>>>(first, d_out.data(), NUM_ITEMS);
  STRATA_TEST_SYNC();

  std::vector<long long> expected(NUM_ITEMS);
  for (int i = 0; i < NUM_ITEMS; ++i)
  {
    expected[i] = start + i;
  }
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
}

TEST_CASE("ThreadLoad and ThreadStore go through thrust::device_ptr iterators", "[thread][load][store][iterator]")
{
  using T                 = strata_test::custom_t;
  constexpr int blocks    = (NUM_ITEMS + BLOCK_THREADS - 1) / BLOCK_THREADS;
  const std::vector<T> in = strata_test::random_vector<T>(NUM_ITEMS, 109);
  const strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_out(NUM_ITEMS);
  const thrust::device_ptr<const T> first(d_in.data());
  const thrust::device_ptr<T> out(d_out.data());

  SECTION("cache-modified")
  {
    device_ptr_kernel<strata::LOAD_CS, strata::STORE_CG><<<blocks, BLOCK_THREADS>>>(first, out, NUM_ITEMS);
  }
  SECTION("volatile")
  {
    device_ptr_kernel<strata::LOAD_VOLATILE, strata::STORE_VOLATILE><<<blocks, BLOCK_THREADS>>>(first, out, NUM_ITEMS);
  }
  STRATA_TEST_SYNC();
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), in);
}

TEST_CASE("ThreadLoad and ThreadStore move values as the widest words their alignment allows", "[thread][load][store]")
{
  using strata::detail::access_bytes_v;
  STATIC_REQUIRE(access_bytes_v<std::uint8_t> == 1);
  STATIC_REQUIRE(access_bytes_v<std::int16_t> == 2);
  STATIC_REQUIRE(access_bytes_v<float> == 4);
  STATIC_REQUIRE(access_bytes_v<double> == 8);
  STATIC_REQUIRE(access_bytes_v<words3> == 4);
  STATIC_REQUIRE(access_bytes_v<strata_test::custom_t> == 8);
  STATIC_REQUIRE(access_bytes_v<words4> == 16);
  STATIC_REQUIRE(access_bytes_v<words8> == 16);
  STATIC_REQUIRE(access_bytes_v<longs4> == 8);
  STATIC_REQUIRE(access_bytes_v<uint4> == 16);
  STATIC_REQUIRE(access_bytes_v<double2> == 16);
}

} // namespace thread_load_store_test
