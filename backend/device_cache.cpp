// Per-device cache of attributes and PTX versions. Readers take a shared lock and find the entry; the first
// reader of a device (or probe) takes the exclusive lock and asks the driver.
#include <strata/backend/device_cache.hpp>

#include <cuda_runtime_api.h>

#include <atomic>
#include <map>
#include <mutex>
#include <shared_mutex>
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
};

cache& the_cache()
{
  static cache c;
  return c;
}

cudaError_t query_attributes(int device, device_attributes& a)
{
  g_queries.fetch_add(1, std::memory_order_relaxed);
  a = device_attributes{};
  a.device = device;
  int major = 0;
  int minor = 0;
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
  {
    std::shared_lock<std::shared_mutex> lock(c.mutex);
    if (const auto it = c.attributes.find(device); it != c.attributes.end())
    {
      attributes = it->second;
      return cudaSuccess;
    }
  }
  std::unique_lock<std::shared_mutex> lock(c.mutex);
  if (const auto it = c.attributes.find(device); it != c.attributes.end())
  {
    attributes = it->second;
    return cudaSuccess;
  }
  device_attributes fresh{};
  if (const cudaError_t e = query_attributes(device, fresh); e != cudaSuccess)
  {
    return e;
  }
  c.attributes.emplace(device, fresh);
  attributes = fresh;
  return cudaSuccess;
}

cudaError_t cached_ptx_version(int device, const void* probe_kernel, int& ptx_version)
{
  cache& c = the_cache();
  const auto key = std::make_pair(device, probe_kernel);
  {
    std::shared_lock<std::shared_mutex> lock(c.mutex);
    if (const auto it = c.ptx_versions.find(key); it != c.ptx_versions.end())
    {
      ptx_version = it->second;
      return cudaSuccess;
    }
  }
  std::unique_lock<std::shared_mutex> lock(c.mutex);
  if (const auto it = c.ptx_versions.find(key); it != c.ptx_versions.end())
  {
    ptx_version = it->second;
    return cudaSuccess;
  }
  // cudaFuncGetAttributes reports for the current device: switch to `device` for the query and back.
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
  cudaFuncAttributes attributes{};
  const cudaError_t query = cudaFuncGetAttributes(&attributes, probe_kernel);
  const cudaError_t restore = (previous != device) ? cudaSetDevice(previous) : cudaSuccess;
  if (query != cudaSuccess)
  {
    return query;
  }
  if (restore != cudaSuccess)
  {
    return restore;
  }
  ptx_version = attributes.ptxVersion * 10;
  c.ptx_versions.emplace(key, ptx_version);
  return cudaSuccess;
}

unsigned long long driver_query_count()
{
  return g_queries.load(std::memory_order_relaxed);
}

} // namespace backend
} // namespace strata
