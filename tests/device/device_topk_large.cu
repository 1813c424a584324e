// DeviceTopK over more than 2^31 keys: 64-bit offsets, selected items and ties past position 2^31. The keys are made
// on the device from a hash of the position, and again on the host for the references: mostly keys of a middle range
// (whose first and last keys appear only past 2^31), and about one position in 2^22 a key below or above it, so that
// the selection takes those rare keys (spread over the whole input) and then ties of the range's end at their first
// positions, all past 2^31. The values are the positions, through a counting iterator of 64-bit integers. uint8 keys
// take one round; uint16 keys two, whose first round's bucket (about a million candidates) goes through a candidate
// buffer, and whose second round selects keys past 2^31 from it. It needs about 12 GiB of free device memory; with
// less, every test case here is skipped and says so.
#include "device_topk_harness.cuh"

#include <thrust/iterator/counting_iterator.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace
{
using u64 = unsigned long long;

// 2^31 keys, and 2^24 past them.
constexpr std::size_t HALF = std::size_t(1) << 31;
constexpr std::size_t N    = HALF + (std::size_t(1) << 24);

constexpr std::size_t NEEDED_BYTES = std::size_t(12) << 30;

void require_device_memory()
{
  std::size_t free_bytes = 0, total_bytes = 0;
  STRATA_TEST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < NEEDED_BYTES)
  {
    STRATA_TEST_SKIP_ALL("tests/device/device_topk_large.cu needs "
                         << (NEEDED_BYTES >> 20) << " MiB of free device memory; the device has " << (free_bytes >> 20)
                         << " MiB free of " << (total_bytes >> 20) << " MiB");
  }
}

__host__ __device__ inline u64 mix(u64 x)
{
  x = (x + 1) * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 29;
  return x;
}

// The key at position i: a key of [LOW, HIGH] mostly (of [LOW + 1, HIGH - 1] before position 2^31); one position in
// 2^22 a rare key below LOW or above HIGH.
template <typename K>
struct key_shape;
template <>
struct key_shape<std::uint8_t>
{
  static constexpr unsigned LOW  = 8;
  static constexpr unsigned HIGH = 247;
};
template <>
struct key_shape<std::uint16_t>
{
  static constexpr unsigned LOW  = 256;
  static constexpr unsigned HIGH = 65279;
};

template <typename K>
__host__ __device__ K key_of(std::size_t i)
{
  constexpr unsigned LOW  = key_shape<K>::LOW;
  constexpr unsigned HIGH = key_shape<K>::HIGH;
  const u64 h             = mix(i);
  if ((h >> 42) == 0)
  {
    const unsigned r = static_cast<unsigned>(h >> 8) % LOW;
    return static_cast<K>((h & 1) ? r : HIGH + 1 + r);
  }
  const unsigned low  = i < HALF ? LOW + 1 : LOW;
  const unsigned high = i < HALF ? HIGH - 1 : HIGH;
  return static_cast<K>(low + static_cast<unsigned>(h >> 16) % (high - low + 1));
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

template <typename T>
class big_array
{
public:
  explicit big_array(std::size_t n)
  {
    STRATA_TEST_CUDA(cudaMalloc(&ptr_, (n ? n : 1) * sizeof(T)));
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

// The input's items that can matter to a selection of k <= 2^16 items, in input order: every key that comes before the
// range's first (in the wanted order) and every key whose first-round digit is that first key's; the others never
// count in a round that decides anything, so the references over these give the positions of the whole input's.
template <bool IS_MAX, typename K>
void relevant_items(std::vector<K>& keys, std::vector<u64>& positions)
{
  constexpr int BITS       = 8 * static_cast<int>(sizeof(K));
  constexpr int RADIX_BITS = topk_test::radix_bits<K>();
  constexpr int SHIFT      = BITS > RADIX_BITS ? BITS - RADIX_BITS : 0;
  const unsigned edge      = IS_MAX ? key_shape<K>::HIGH : key_shape<K>::LOW;
  for (std::size_t i = 0; i < N; ++i)
  {
    const K key           = key_of<K>(i);
    const bool rare       = IS_MAX ? key > edge : key < edge;
    const bool edge_digit = (static_cast<unsigned>(key) >> SHIFT) == (edge >> SHIFT);
    if (rare || edge_digit)
    {
      keys.push_back(key);
      positions.push_back(i);
    }
  }
}

template <bool IS_MAX, typename K>
void check_large(const std::vector<std::size_t>& ks)
{
  require_device_memory();
  big_array<K> d_keys(N);
  fill_keys<<<4096, 256>>>(d_keys.get(), N);
  STRATA_TEST_SYNC();
  std::vector<K> keys;
  std::vector<u64> positions;
  relevant_items<IS_MAX>(keys, positions);
  for (const std::size_t k : ks)
  {
    for (const strata::topk_order order : {strata::topk_order::unsorted, strata::topk_order::sorted})
    {
      CAPTURE(sizeof(K), IS_MAX, k, order == strata::topk_order::sorted);
      const std::vector<std::uint32_t> at = topk_test::expected_positions<IS_MAX>(keys, k, order);
      std::vector<K> expected_keys(k);
      std::vector<u64> expected_values(k);
      for (std::size_t j = 0; j < k; ++j)
      {
        expected_keys[j]   = keys[at[j]];
        expected_values[j] = positions[at[j]];
      }
      strata_test::device_buffer<K> d_out(k);
      strata_test::device_buffer<u64> d_values(k);
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        if constexpr (IS_MAX)
        {
          return strata::DeviceTopK::MaxPairs(temp, bytes, static_cast<const K*>(d_keys.get()), d_out.data(),
                                              thrust::counting_iterator<u64>(0), d_values.data(), N, k, order, s);
        }
        else
        {
          return strata::DeviceTopK::MinPairs(temp, bytes, static_cast<const K*>(d_keys.get()), d_out.data(),
                                              thrust::counting_iterator<u64>(0), d_values.data(), N, k, order, s);
        }
      });
      STRATA_REQUIRE_EQUAL_VECTORS(d_values.download(), expected_values);
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected_keys);
    }
  }
}
} // namespace

TEST_CASE("DeviceTopK over more than 2^31 uint8 keys: one round, ties past 2^31", "[device][topk][large]")
{
  check_large<false, std::uint8_t>({1000, std::size_t(1) << 16});
  check_large<true, std::uint8_t>({1000, std::size_t(1) << 16});
}

TEST_CASE("DeviceTopK over more than 2^31 uint16 keys: two rounds through a candidate buffer", "[device][topk][large]")
{
  check_large<false, std::uint16_t>({1000});
  check_large<true, std::uint16_t>({1000});
}
