// The backend's device cache on any machine: it answers with an error, never a crash, where there is no GPU,
// and on a GPU it asks the driver once per device.
#include <strata/backend/device_cache.hpp>

#include "catch2_shim.hpp"

#include <cuda_runtime_api.h>

#include <thread>
#include <vector>

TEST_CASE("device attributes are read once and answered from the cache", "[backend]")
{
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
  {
    strata::backend::device_attributes a{};
    CHECK(strata::backend::cached_device_attributes(0, a) != cudaSuccess);
    return;
  }
  strata::backend::device_attributes first{};
  REQUIRE(strata::backend::cached_device_attributes(0, first) == cudaSuccess);
  CHECK(first.sm_count > 0);
  CHECK(first.compute_capability >= 600);
  CHECK(first.max_shared_memory_per_block_optin >= first.max_shared_memory_per_block);
  const unsigned long long queries = strata::backend::driver_query_count();

  // Many threads at once: every answer equals the first and the driver is not asked again.
  std::vector<std::thread> threads;
  std::vector<int> ok(8, 0);
  for (int t = 0; t < 8; ++t)
  {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 1000; ++i)
      {
        strata::backend::device_attributes a{};
        ok[t] += strata::backend::cached_device_attributes(0, a) == cudaSuccess && a.sm_count == first.sm_count;
      }
    });
  }
  for (auto& t : threads)
  {
    t.join();
  }
  for (int t = 0; t < 8; ++t)
  {
    CHECK(ok[t] == 1000);
  }
  CHECK(strata::backend::driver_query_count() == queries);
}

TEST_CASE("an invalid device ordinal is an error", "[backend]")
{
  strata::backend::device_attributes a{};
  CHECK(strata::backend::cached_device_attributes(-1, a) != cudaSuccess);
  int ptx = 0;
  CHECK(strata::backend::cached_ptx_version(-1, nullptr, ptx) != cudaSuccess);
}
