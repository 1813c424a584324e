// The backend's per-device cache (libstrata_backend).
//
// Declared outside strata's architecture-named inline namespace: the backend is compiled once and serves code
// compiled for any architecture list. Every function is thread-safe; each value is read from the driver at
// most once per device (per probe kernel for the PTX version) and then answered from the cache.
#pragma once

#include <cuda_runtime_api.h>

namespace strata
{
namespace backend
{

struct device_attributes
{
  int device;                            // ordinal
  int compute_capability;                // major * 100 + minor * 10, e.g. 900
  int sm_count;                          // multiprocessors
  int max_threads_per_sm;                // resident threads per multiprocessor
  int max_shared_memory_per_block;       // bytes, without opting in
  int max_shared_memory_per_block_optin; // bytes, after cudaFuncSetAttribute(MaxDynamicSharedMemorySize)
  int max_shared_memory_per_sm;          // bytes
  int l2_cache_bytes;                    // bytes
};

// Attributes of `device`, read once.
cudaError_t cached_device_attributes(int device, device_attributes& attributes);

// PTX version (major * 100 + minor * 10) at which `probe_kernel` (any __global__ function) runs on `device`,
// read once per (device, probe_kernel). Header code passes an empty kernel of its own translation unit, so the
// answer reflects the architecture list that the caller was compiled for.
cudaError_t cached_ptx_version(int device, const void* probe_kernel, int& ptx_version);

// Resident blocks per SM of `kernel` (any __global__ function) launched with `block_threads` threads and
// `dynamic_smem_bytes` of dynamic shared memory on `device`, read once per (device, kernel, threads, bytes).
cudaError_t cached_occupancy(int device, const void* kernel, int block_threads, size_t dynamic_smem_bytes,
                             int& blocks_per_sm);

// Lets `kernel` (any __global__ function) on `device` take `dynamic_smem_bytes` of dynamic shared memory (beyond
// the default 48 KiB) and sets its shared-memory carveout to what its resident blocks of `block_threads` threads
// need: as many blocks as the whole of the SM's shared memory would hold (or registers and threads allow), and the
// rest of the SM's memory left to the L1 cache. cudaFuncSetAttribute once per (device, kernel, threads, bytes), so
// that dispatches after the first make no driver call.
cudaError_t cached_shared_memory_setup(int device, const void* kernel, int block_threads, size_t dynamic_smem_bytes);
// Number of driver queries the cache has made so far (for tests that check "once per device").
unsigned long long driver_query_count();

} // namespace backend
} // namespace strata
