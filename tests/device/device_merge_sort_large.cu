// DeviceMergeSort of more than 2^31 keys (64-bit offsets, tile and run positions past 2^31), checked whole on the
// device. Each 64-bit key is (a hash of its position, 8 bits) << 40 | its position, sorted by the hash alone: a
// stable sort leaves the keys strictly increasing as plain integers, and every key's hash must still match its
// position. Needs 33 GiB of device memory (the keys and the temporary copy); says skipped where there is less.
#include "device_merge_sort_harness.cuh"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace
{
constexpr std::size_t N            = (std::size_t(1) << 31) + 4099;
constexpr std::size_t NEEDED_BYTES = std::size_t(33) << 30;
constexpr int POSITION_BITS        = 40;

__host__ __device__ std::uint64_t hash_of(std::uint64_t i)
{
  std::uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 29;
  return x & 0xff;
}

// Orders keys by their hash bits only.
struct by_hash
{
  __host__ __device__ bool operator()(std::uint64_t a, std::uint64_t b) const
  {
    return (a >> POSITION_BITS) < (b >> POSITION_BITS);
  }
};

__global__ void fill_keys(std::uint64_t* keys, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    keys[i] = (hash_of(i) << POSITION_BITS) | i;
  }
}

// Counts the keys out of order (not above their predecessor) and the keys whose hash is not their position's.
__global__ void count_wrong(const std::uint64_t* keys, std::size_t n, unsigned long long* wrong)
{
  unsigned long long mine = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    const std::uint64_t key      = keys[i];
    const std::uint64_t position = key & ((std::uint64_t(1) << POSITION_BITS) - 1);
    mine += (i > 0 && !(keys[i - 1] < key)) ? 1 : 0;
    mine += (position >= n || hash_of(position) != (key >> POSITION_BITS)) ? 1 : 0;
  }
  if (mine != 0)
  {
    atomicAdd(wrong, mine);
  }
}

// Skips the test visibly where the device lacks the memory.
void require_device_memory()
{
  std::size_t free_bytes = 0, total_bytes = 0;
  STRATA_TEST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes >= NEEDED_BYTES)
  {
    return;
  }
  STRATA_TEST_SKIP_ALL("device_merge_sort_large needs " << (NEEDED_BYTES >> 20) << " MiB of free device memory; the "
                                                        << "device has " << (free_bytes >> 20) << " MiB free of "
                                                        << (total_bytes >> 20) << " MiB");
}
} // namespace

TEST_CASE("DeviceMergeSort sorts more than 2^31 keys stably", "[device][merge_sort][large]")
{
  require_device_memory();
  std::uint64_t* d_keys = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_keys, N * sizeof(std::uint64_t)));
  fill_keys<<<4096, 256>>>(d_keys, N);
  STRATA_TEST_SYNC();

  const std::size_t bytes = strata_test::launch([&](void* temp, std::size_t& b, cudaStream_t s) {
    return strata::DeviceMergeSort::StableSortKeys(temp, b, d_keys, N, by_hash{}, s);
  });
  INFO("temporary storage: " << (bytes >> 20) << " MiB");

  strata_test::device_buffer<unsigned long long> wrong(1);
  STRATA_TEST_CUDA(cudaMemset(wrong.data(), 0, sizeof(unsigned long long)));
  count_wrong<<<4096, 256>>>(d_keys, N, wrong.data());
  STRATA_TEST_SYNC();
  CHECK(wrong.download()[0] == 0);
  STRATA_TEST_CUDA(cudaFree(d_keys));
}
