// DeviceRadixSort over more than 2^31 keys: 64-bit offsets, many look-back portions per pass. The inputs are made on
// the device from a hash of the position and checked there: keys only by the order of neighbours and the histogram
// of the keys (the same multiset, uint8 and uint16 keys) or order-independent fingerprints (uint32 keys); pairs by
// values that are the input positions, from which every key is recomputed, and a strict (key, position) order, which
// together prove a stable sorted permutation. It needs about 28 GiB of free device memory; with less, every test case
// here is skipped and says so.
#include "device_radix_sort_harness.cuh"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace
{
using u64 = unsigned long long;

// Just over 2^31 keys.
constexpr std::size_t N = (std::size_t(1) << 31) + 4099;

// What the largest test case holds at once (three copies of 8 GiB of uint32 keys), with a margin.
constexpr std::size_t NEEDED_BYTES = std::size_t(28) << 30;

void require_device_memory()
{
  std::size_t free_bytes = 0, total_bytes = 0;
  STRATA_TEST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < NEEDED_BYTES)
  {
    STRATA_TEST_SKIP_ALL("tests/device/device_radix_sort_large.cu needs "
                         << (NEEDED_BYTES >> 20) << " MiB of free device memory; the device has " << (free_bytes >> 20)
                         << " MiB free of " << (total_bytes >> 20) << " MiB");
  }
}

template <typename T>
class big_array
{
public:
  explicit big_array(std::size_t n)
  {
    STRATA_TEST_CUDA(cudaMalloc(&ptr_, n * sizeof(T)));
  }
  big_array(const big_array&)            = delete;
  big_array& operator=(const big_array&) = delete;
  ~big_array()
  {
    cudaFree(ptr_);
  }
  T* get() const
  {
    return ptr_;
  }

private:
  T* ptr_ = nullptr;
};

// The key of input position i: the top bits of a hash of i.
template <typename K>
__host__ __device__ K key_of(std::size_t i)
{
  u64 x = (i + 1) * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 29;
  return static_cast<K>(x >> (64 - 8 * sizeof(K)));
}

template <typename K>
__global__ void fill_keys(K* keys, std::size_t n)
{
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride)
  {
    keys[i] = key_of<K>(i);
  }
}

__global__ void fill_positions(std::uint32_t* values, std::size_t n)
{
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride)
  {
    values[i] = static_cast<std::uint32_t>(i);
  }
}

// counts[k] += how many keys are k (per-block histograms in shared memory for 8-bit keys, global atomics for wider).
template <typename K>
__global__ void histogram(const K* keys, std::size_t n, u64* counts)
{
  constexpr int BINS = 1 << (8 * sizeof(K));
  if constexpr (BINS <= 256)
  {
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    {
      local[b] = 0;
    }
    __syncthreads();
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x)
    {
      atomicAdd(&local[keys[i]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    {
      atomicAdd(&counts[b], static_cast<u64>(local[b]));
    }
  }
  else
  {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x)
    {
      atomicAdd(&counts[keys[i]], 1ULL);
    }
  }
}

// result[0]: neighbours out of order; result[1..3]: order-independent fingerprints of the multiset of keys.
template <typename K>
__global__ void inspect_keys(const K* keys, std::size_t n, bool descending, u64* result)
{
  u64 wrong = 0, sum = 0, squares = 0, mixed = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride)
  {
    const u64 k = keys[i];
    if (i > 0)
    {
      const u64 before = keys[i - 1];
      wrong += (descending ? before < k : k < before) ? 1 : 0;
    }
    sum += k;
    squares += k * k;
    u64 x = (k + 0x632be59bd9b4e019ULL) * 0x94d049bb133111ebULL;
    mixed += x ^ (x >> 31);
  }
  atomicAdd(&result[0], wrong);
  atomicAdd(&result[1], sum);
  atomicAdd(&result[2], squares);
  atomicAdd(&result[3], mixed);
}

// Counts the positions i where the value is not an input position, the key is not that position's key, or
// (key, value) does not strictly follow (key, value) at i - 1 in the sort's order.
template <typename K>
__global__ void count_wrong_pairs(const K* keys, const std::uint32_t* values, std::size_t n, bool descending,
                                  u64* wrong)
{
  u64 mine                 = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride)
  {
    const std::uint32_t v = values[i];
    const K k             = keys[i];
    bool ok               = v < n && k == key_of<K>(v);
    if (i > 0)
    {
      const K kb              = keys[i - 1];
      const std::uint32_t vb  = values[i - 1];
      const bool keys_ordered = descending ? kb > k : kb < k;
      ok                      = ok && (keys_ordered || (kb == k && vb < v));
    }
    mine += ok ? 0 : 1;
  }
  if (mine != 0)
  {
    atomicAdd(wrong, mine);
  }
}

template <typename T>
std::vector<T> download(const T* d, std::size_t n)
{
  std::vector<T> h(n);
  STRATA_TEST_CUDA(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

template <typename K>
std::vector<u64> key_histogram(const K* keys, std::size_t n)
{
  const std::size_t bins = std::size_t(1) << (8 * sizeof(K));
  strata_test::device_buffer<u64> counts(bins);
  STRATA_TEST_CUDA(cudaMemset(counts.data(), 0, bins * sizeof(u64)));
  histogram<<<2048, 256>>>(keys, n, counts.data());
  STRATA_TEST_SYNC();
  return counts.download();
}

template <typename K>
std::vector<u64> inspect(const K* keys, std::size_t n, bool descending)
{
  strata_test::device_buffer<u64> result(4);
  STRATA_TEST_CUDA(cudaMemset(result.data(), 0, 4 * sizeof(u64)));
  inspect_keys<<<2048, 256>>>(keys, n, descending, result.data());
  STRATA_TEST_SYNC();
  return result.download();
}

// Sorts N keys of K (uint8 or uint16) and checks order and histogram.
template <typename K>
void check_keys_by_histogram(bool descending, bool double_buffer)
{
  big_array<K> a(N), b(N);
  fill_keys<<<4096, 256>>>(a.get(), N);
  STRATA_TEST_SYNC();
  const std::vector<u64> before = key_histogram(a.get(), N);
  STRATA_TEST_CUDA(cudaMemset(b.get(), strata_test::poison_byte, N * sizeof(K)));
  K* result = b.get();
  if (double_buffer)
  {
    strata::DoubleBuffer<K> keys(a.get(), b.get());
    strata_test::launch([&](void* t, std::size_t& bytes, cudaStream_t s) {
      return descending ? strata::DeviceRadixSort::SortKeysDescending(t, bytes, keys, N, 0, 8 * int(sizeof(K)), s)
                        : strata::DeviceRadixSort::SortKeys(t, bytes, keys, N, 0, 8 * int(sizeof(K)), s);
    });
    REQUIRE((keys.selector == 0 || keys.selector == 1));
    result = keys.Current();
  }
  else
  {
    strata_test::launch([&](void* t, std::size_t& bytes, cudaStream_t s) {
      return descending
             ? strata::DeviceRadixSort::SortKeysDescending(t, bytes, a.get(), b.get(), N, 0, 8 * int(sizeof(K)), s)
             : strata::DeviceRadixSort::SortKeys(t, bytes, a.get(), b.get(), N, 0, 8 * int(sizeof(K)), s);
    });
    INFO("the input is left as it was");
    STRATA_REQUIRE_EQUAL_VECTORS(key_histogram(a.get(), N), before);
    CHECK(inspect(a.get(), N, descending)[0] > 0); // still unsorted
  }
  const std::vector<u64> order = inspect(result, N, descending);
  CHECK(order[0] == 0);
  STRATA_REQUIRE_EQUAL_VECTORS(key_histogram(result, N), before);
  // The first and last keys, read back on their own.
  const std::vector<K> first = download(result, 16);
  const std::vector<K> last  = download(result + N - 16, 16);
  CHECK(first[0] == (descending ? K(~K(0)) : K(0)));
  CHECK(last[15] == (descending ? K(0) : K(~K(0))));
}
} // namespace

TEST_CASE("DeviceRadixSort sorts more than 2^31 uint8 keys", "[device][radix_sort][large]")
{
  require_device_memory();
  SECTION("SortKeys, DoubleBuffer")
  {
    check_keys_by_histogram<std::uint8_t>(false, true);
  }
  SECTION("SortKeysDescending, in/out")
  {
    check_keys_by_histogram<std::uint8_t>(true, false);
  }
}

TEST_CASE("DeviceRadixSort sorts more than 2^31 uint16 keys", "[device][radix_sort][large]")
{
  require_device_memory();
  SECTION("SortKeysDescending, DoubleBuffer")
  {
    check_keys_by_histogram<std::uint16_t>(true, true);
  }
  SECTION("SortKeys, in/out")
  {
    check_keys_by_histogram<std::uint16_t>(false, false);
  }
}

TEST_CASE("DeviceRadixSort sorts more than 2^31 uint32 keys", "[device][radix_sort][large]")
{
  // Four digit passes over 2^31 keys, in/out (the third buffer in temporary storage).
  require_device_memory();
  using K = std::uint32_t;
  big_array<K> a(N), b(N);
  fill_keys<<<4096, 256>>>(a.get(), N);
  STRATA_TEST_SYNC();
  const std::vector<u64> before = inspect(a.get(), N, false);
  CHECK(before[0] > 0);
  STRATA_TEST_CUDA(cudaMemset(b.get(), strata_test::poison_byte, N * sizeof(K)));
  strata_test::launch([&](void* t, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceRadixSort::SortKeys(t, bytes, a.get(), b.get(), N, 0, 32, s);
  });
  const std::vector<u64> after = inspect(b.get(), N, false);
  CHECK(after[0] == 0);
  CHECK(after[1] == before[1]);
  CHECK(after[2] == before[2]);
  CHECK(after[3] == before[3]);
}

TEST_CASE("DeviceRadixSort sorts more than 2^31 pairs stably", "[device][radix_sort][large]")
{
  // uint8 keys (2^23 equal keys in a row) and uint32 values that are the input positions, DoubleBuffer.
  require_device_memory();
  using K = std::uint8_t;
  using V = std::uint32_t;
  for (const bool descending : {false, true})
  {
    CAPTURE(descending);
    big_array<K> k0(N), k1(N);
    big_array<V> v0(N), v1(N);
    fill_keys<<<4096, 256>>>(k0.get(), N);
    fill_positions<<<4096, 256>>>(v0.get(), N);
    STRATA_TEST_SYNC();
    strata::DoubleBuffer<K> keys(k0.get(), k1.get());
    strata::DoubleBuffer<V> values(v0.get(), v1.get());
    strata_test::launch([&](void* t, std::size_t& bytes, cudaStream_t s) {
      return descending ? strata::DeviceRadixSort::SortPairsDescending(t, bytes, keys, values, N, 0, 8, s)
                        : strata::DeviceRadixSort::SortPairs(t, bytes, keys, values, N, 0, 8, s);
    });
    REQUIRE((keys.selector == 0 || keys.selector == 1));
    REQUIRE((values.selector == 0 || values.selector == 1));
    strata_test::device_buffer<u64> wrong(1);
    STRATA_TEST_CUDA(cudaMemset(wrong.data(), 0, sizeof(u64)));
    count_wrong_pairs<<<4096, 256>>>(keys.Current(), values.Current(), N, descending, wrong.data());
    STRATA_TEST_SYNC();
    CHECK(wrong.download()[0] == 0);
  }
}
