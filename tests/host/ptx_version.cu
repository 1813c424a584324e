// PtxVersion, SmCount and PrepareSharedMemory through the backend's cache: with a GPU, the PTX version is one
// this translation unit was compiled for, the driver is asked once, a kernel prepared for 64 KiB of dynamic
// shared memory launches with it, and its carveout holds its resident blocks and no more; without one, the calls
// fail cleanly.
#include <strata/util/device.cuh>

#include "catch2_shim.hpp"

#include <vector>

TEST_CASE("PtxVersion is read once per device and matches the compiled architecture", "[backend]")
{
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
  {
    int ptx = 0;
    CHECK(strata::PtxVersion(ptx) != cudaSuccess);
    return;
  }
  int ptx = 0;
  REQUIRE(strata::PtxVersion(ptx) == cudaSuccess);
#if defined(__CUDA_ARCH_LIST__)
  // Built for one architecture (sm_90 by default): the driver runs exactly that version.
  CHECK(ptx == __CUDA_ARCH_LIST__);
#endif
  const unsigned long long queries = strata::backend::driver_query_count();
  for (int i = 0; i < 100; ++i)
  {
    int again = 0;
    REQUIRE(strata::PtxVersion(again, 0) == cudaSuccess);
    CHECK(again == ptx);
    int sms = 0;
    REQUIRE(strata::SmCount(sms, 0) == cudaSuccess);
    CHECK(sms > 0);
  }
  // At most the attribute read of the first SmCount call; PtxVersion itself is never asked again.
  CHECK(strata::backend::driver_query_count() <= queries + 1);
}

namespace
{
__global__ void shared_memory_probe(int* out)
{
  extern __shared__ int scratch[];
  scratch[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = scratch[blockDim.x - 1 - threadIdx.x];
}

// Launches shared_memory_probe on `blocks` blocks of `threads` threads with `bytes` of dynamic shared memory and
// checks what it wrote (every block writes the same: the thread indices reversed).
void check_probe_launch(int blocks, int threads, size_t bytes)
{
  int* d_out = nullptr;
  REQUIRE(cudaMalloc(&d_out, threads * sizeof(int)) == cudaSuccess);
  REQUIRE(
    strata::LaunchAfterShared(false, dim3(blocks), dim3(threads), bytes, cudaStream_t{}, shared_memory_probe, d_out)
    == cudaSuccess);
  std::vector<int> h_out(threads);
  REQUIRE(cudaMemcpy(h_out.data(), d_out, threads * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  REQUIRE(cudaFree(d_out) == cudaSuccess);
  for (int i = 0; i < threads; ++i)
  {
    CHECK(h_out[i] == threads - 1 - i);
  }
}
} // namespace

TEST_CASE("PrepareSharedMemory asks the driver once per kernel and lets it launch with more than 48 KiB", "[backend]")
{
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
  {
    CHECK(strata::PrepareSharedMemory(shared_memory_probe, 256, 64 * 1024, 0) != cudaSuccess);
    return;
  }
  // More than the device allows is an error, and nothing is cached for it.
  const unsigned long long before = strata::backend::driver_query_count();
  CHECK(strata::PrepareSharedMemory(shared_memory_probe, 256, size_t(1) << 30, 0) != cudaSuccess);
  CHECK(strata::PrepareSharedMemory(shared_memory_probe, 256, size_t(1) << 30, 0) != cudaSuccess);
  CHECK(strata::backend::driver_query_count() == before + 2);
  cudaGetLastError();

  constexpr size_t bytes = 64 * 1024;
  REQUIRE(strata::PrepareSharedMemory(shared_memory_probe, 256, bytes, 0) == cudaSuccess);
  const unsigned long long queries = strata::backend::driver_query_count();
  for (int i = 0; i < 100; ++i)
  {
    REQUIRE(strata::PrepareSharedMemory(shared_memory_probe, 256, bytes, 0) == cudaSuccess);
  }
  CHECK(strata::backend::driver_query_count() == queries);

  // The kernel now launches with 64 KiB of dynamic shared memory.
  check_probe_launch(1, 256, bytes);
}

TEST_CASE("PrepareSharedMemory keeps for shared memory only what the resident blocks take", "[backend]")
{
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
  {
    CHECK(strata::PrepareSharedMemory(shared_memory_probe, 1024, 50 * 1024, 0) != cudaSuccess);
    return;
  }
  // Blocks of 1024 threads: the SM's threads, not its shared memory, bound how many are resident.
  constexpr size_t bytes = 50 * 1024;
  REQUIRE(strata::PrepareSharedMemory(shared_memory_probe, 1024, bytes, 0) == cudaSuccess);
  int blocks             = 0;
  int threads_per_sm     = 0;
  int shared_per_sm      = 0;
  int reserved_per_block = 0;
  REQUIRE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, shared_memory_probe, 1024, bytes) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&shared_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&reserved_per_block, cudaDevAttrReservedSharedMemoryPerBlock, 0) == cudaSuccess);
  const int thread_blocks = threads_per_sm / 1024;
  CHECK(blocks == thread_blocks);
  cudaFuncAttributes attributes{};
  REQUIRE(cudaFuncGetAttributes(&attributes, shared_memory_probe) == cudaSuccess);
  const double carveout_bytes = attributes.preferredShmemCarveout / 100.0 * shared_per_sm;
  INFO("carveout " << attributes.preferredShmemCarveout << "% of " << shared_per_sm << " bytes, " << thread_blocks
                   << " blocks of " << bytes << " bytes");
  // Room for the resident blocks, and less than all of it when they leave some over.
  const size_t resident_bytes = static_cast<size_t>(thread_blocks) * (bytes + reserved_per_block);
  CHECK(carveout_bytes >= static_cast<double>(resident_bytes));
  if (resident_bytes + shared_per_sm / 100 < static_cast<size_t>(shared_per_sm))
  {
    CHECK(attributes.preferredShmemCarveout < 100);
  }

  check_probe_launch(2 * thread_blocks, 1024, bytes);
}
