// Per-device cache of attributes and PTX versions. Readers take a shared lock and find the entry; the first
// reader of a device (or probe) takes the exclusive lock and asks the driver.
#include <strata/backend/device_cache.hpp>

#include <cuda_runtime_api.h>

#include <atomic>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <tuple>
#include <utility>

namespace strata
{
namespace backend
{
namespace
{
std::atomic<unsigned long long> g_queries{0};

struct cache
{
  std::shared_mutex mutex;
  std::map<int, device_attributes> attributes;
  std::map<std::pair<int, const void*>, int> ptx_versions;
  std::map<std::tuple<int, const void*, int, size_t>, int> occupancies;
  std::map<std::tuple<int, const void*, int, size_t>, int> shared_memory_setups; // the carveout set, percent
};

// Runs `query` with `device` current, restoring the caller's device afterwards.
template <typename Query>
cudaError_t on_device(int device, Query&& query)
{
  int previous = 0;
  if (const cudaError_t e = cudaGetDevice(&previous); e != cudaSuccess)
  {
    return e;
  }
  if (previous != device)
  {
    if (const cudaError_t e = cudaSetDevice(device); e != cudaSuccess)
    {
      return e;
    }
  }
  g_queries.fetch_add(1, std::memory_order_relaxed);
  const cudaError_t result  = query();
  const cudaError_t restore = (previous != device) ? cudaSetDevice(previous) : cudaSuccess;
  return result != cudaSuccess ? result : restore;
}

// Looks `key` up in `table` under the shared lock; on a miss, computes it with `compute(value)` under the
// exclusive lock (once, even when several threads miss together).
template <typename Map, typename Key, typename Compute>
cudaError_t find_or_compute(std::shared_mutex& mutex, Map& table, const Key& key, typename Map::mapped_type& value,
                            Compute&& compute)
{
  {
    std::shared_lock<std::shared_mutex> lock(mutex);
    if (const auto it = table.find(key); it != table.end())
    {
      value = it->second;
      return cudaSuccess;
    }
  }
  std::unique_lock<std::shared_mutex> lock(mutex);
  if (const auto it = table.find(key); it != table.end())
  {
    value = it->second;
    return cudaSuccess;
  }
  typename Map::mapped_type fresh{};
  if (const cudaError_t e = compute(fresh); e != cudaSuccess)
  {
    return e;
  }
  table.emplace(key, fresh);
  value = fresh;
  return cudaSuccess;
}

cache& the_cache()
{
  static cache c;
  return c;
}

cudaError_t query_attributes(int device, device_attributes& a)
{
  g_queries.fetch_add(1, std::memory_order_relaxed);
  a                                               = device_attributes{};
  a.device                                        = device;
  int major                                       = 0;
  int minor                                       = 0;
  const std::pair<cudaDeviceAttr, int*> queries[] = {
    {cudaDevAttrComputeCapabilityMajor, &major},
    {cudaDevAttrComputeCapabilityMinor, &minor},
    {cudaDevAttrMultiProcessorCount, &a.sm_count},
    {cudaDevAttrMaxThreadsPerMultiProcessor, &a.max_threads_per_sm},
    {cudaDevAttrMaxSharedMemoryPerBlock, &a.max_shared_memory_per_block},
    {cudaDevAttrMaxSharedMemoryPerBlockOptin, &a.max_shared_memory_per_block_optin},
    {cudaDevAttrMaxSharedMemoryPerMultiprocessor, &a.max_shared_memory_per_sm},
    {cudaDevAttrL2CacheSize, &a.l2_cache_bytes},
  };
  for (const auto& q : queries)
  {
    if (const cudaError_t e = cudaDeviceGetAttribute(q.second, q.first, device); e != cudaSuccess)
    {
      return e;
    }
  }
  a.compute_capability = major * 100 + minor * 10;
  return cudaSuccess;
}
} // namespace

cudaError_t cached_device_attributes(int device, device_attributes& attributes)
{
  cache& c = the_cache();
  return find_or_compute(c.mutex, c.attributes, device, attributes, [&](device_attributes& a) {
    return query_attributes(device, a);
  });
}

cudaError_t cached_ptx_version(int device, const void* probe_kernel, int& ptx_version)
{
  cache& c = the_cache();
  return find_or_compute(c.mutex, c.ptx_versions, std::make_pair(device, probe_kernel), ptx_version, [&](int& v) {
    cudaFuncAttributes attributes{};
    // cudaFuncGetAttributes reports for the current device.
    const cudaError_t e = on_device(device, [&] {
      return cudaFuncGetAttributes(&attributes, probe_kernel);
    });
    v                   = attributes.ptxVersion * 10;
    return e;
  });
}

cudaError_t cached_occupancy(int device, const void* kernel, int block_threads, size_t dynamic_smem_bytes,
                             int& blocks_per_sm)
{
  cache& c       = the_cache();
  const auto key = std::make_tuple(device, kernel, block_threads, dynamic_smem_bytes);
  return find_or_compute(c.mutex, c.occupancies, key, blocks_per_sm, [&](int& v) {
    return on_device(device, [&] {
      return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, kernel, block_threads, dynamic_smem_bytes);
    });
  });
}

cudaError_t cached_shared_memory_setup(int device, const void* kernel, int block_threads, size_t dynamic_smem_bytes)
{
  cache& c       = the_cache();
  const auto key = std::make_tuple(device, kernel, block_threads, dynamic_smem_bytes);
  int carveout   = 0;
  return find_or_compute(c.mutex, c.shared_memory_setups, key, carveout, [&](int& v) {
    return on_device(device, [&]() -> cudaError_t {
      if (const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                     static_cast<int>(dynamic_smem_bytes));
          e != cudaSuccess)
      {
        return e;
      }
      // With all of the SM's shared memory on offer, how many blocks fit (registers and threads may allow fewer
      // than shared memory would)...
      if (const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                                     cudaSharedmemCarveoutMaxShared);
          e != cudaSuccess)
      {
        return e;
      }
      int blocks = 0;
      cudaFuncAttributes attributes{};
      int reserved = 0;
      int per_sm   = 0;
      for (const cudaError_t e :
           {cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_threads, dynamic_smem_bytes),
            cudaFuncGetAttributes(&attributes, kernel),
            cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device),
            cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device)})
      {
        if (e != cudaSuccess)
        {
          return e;
        }
      }
      // ...then only the shared memory those blocks take: the rest of the SM's memory stays L1 cache (for spills
      // and the loads that go through it). The driver rounds the percentage up to a carveout it supports.
      const unsigned long long needed =
        static_cast<unsigned long long>(blocks > 0 ? blocks : 1)
        * (dynamic_smem_bytes + attributes.sharedSizeBytes + static_cast<unsigned long long>(reserved));
      const unsigned long long sm_bytes = static_cast<unsigned long long>(per_sm);
      const unsigned long long percent  = sm_bytes > 0 ? (100ull * needed + sm_bytes - 1) / sm_bytes : 100ull;
      v                                 = static_cast<int>(percent < 100 ? percent : 100);
      return cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, v);
    });
  });
}

unsigned long long driver_query_count()
{
  return g_queries.load(std::memory_order_relaxed);
}

} // namespace backend
} // namespace strata
