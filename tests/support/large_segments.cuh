// Shared by the segmented algorithms' tests over more than 2^31 items (device_segmented_*_large.cu): an int8 input of
// just over 2^31 + 2^28 items hashed from their positions, segment lists, and a visible skip where the device lacks
// the memory.
#pragma once

#include "test_util.cuh"

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace large_test
{
inline constexpr std::size_t TWO31 = std::size_t(1) << 31;

// The input: just over 2^31 + 2^28 int8 items, 2.25 GiB.
inline constexpr std::size_t N = TWO31 + (std::size_t(1) << 28) + 4099;

// The item at position i: in [-100, 100], from a hash of i.
__host__ __device__ inline std::int8_t value_of(std::size_t i)
{
  std::uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 29;
  return static_cast<std::int8_t>(static_cast<int>(x % 201) - 100);
}

static __global__ void fill_values(std::int8_t* data, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    data[i] = value_of(i);
  }
}

// Skips the running test case, visibly, where the device has less than `needed` bytes free.
inline void require_device_memory(std::size_t needed)
{
  std::size_t free_bytes = 0, total_bytes = 0;
  STRATA_TEST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < needed)
  {
    STRATA_TEST_SKIP("needs " << (needed >> 20) << " MiB of free device memory; the device has " << (free_bytes >> 20)
                              << " MiB free of " << (total_bytes >> 20) << " MiB");
  }
}

// Segment s is [begin[s], end[s]); end <= begin is empty.
struct segments
{
  std::vector<long long> begin;
  std::vector<long long> end;

  void add(long long b, long long e)
  {
    begin.push_back(b);
    end.push_back(e);
  }
  std::size_t size() const
  {
    return begin.size();
  }
};

// `count` segments of 0 to 200 items from `at` on; returns where the last ends.
inline long long add_small(segments& s, long long at, std::size_t count, std::mt19937_64& rng)
{
  std::uniform_int_distribution<long long> length(0, 200);
  for (std::size_t k = 0; k < count; ++k)
  {
    const long long e = at + length(rng);
    s.add(at, e);
    at = e;
  }
  return at;
}

} // namespace large_test
