// A kernel's block-wide TempStorage in static shared memory when it fits there (48 KiB), in dynamic shared memory
// when it does not, so that collectives whose storage exceeds the static limit are tested too: the kernel takes
// its storage from block_shared_storage<StorageT>() and is launched through launch_with_shared_storage<StorageT>,
// which opts the kernel in to the dynamic size it needs.
#pragma once

#include "test_util.cuh"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

namespace strata_test
{

// The largest static shared-memory allocation a kernel may make.
constexpr std::size_t max_static_shared_bytes = 48 * 1024;

// The most shared memory one block may opt in to on sm_90 (227 KiB); storage larger than this cannot be tested
// on any GPU the tests are built for.
constexpr std::size_t max_optin_shared_bytes = 227 * 1024;

template <typename StorageT>
constexpr bool needs_dynamic_shared_v = sizeof(StorageT) > max_static_shared_bytes;

// The block's StorageT: a static __shared__ variable, or the start of dynamic shared memory where StorageT is
// larger than static shared memory allows.
template <typename StorageT>
__device__ __forceinline__ StorageT& block_shared_storage()
{
  if constexpr (needs_dynamic_shared_v<StorageT>)
  {
    static_assert(alignof(StorageT) <= 16, "dynamic shared memory is aligned to 16 bytes");
    extern __shared__ __align__(16) unsigned char strata_test_dynamic_shared[];
    return *reinterpret_cast<StorageT*>(strata_test_dynamic_shared);
  }
  else
  {
    __shared__ StorageT storage;
    return storage;
  }
}

// kernel<<<grid, block, dynamic shared memory for StorageT if it needs it>>>(args...). A device that cannot give
// a block that much shared memory fails the test (it does not skip it).
template <typename StorageT, typename... Params, typename... Args>
void launch_with_shared_storage(void (*kernel)(Params...), dim3 grid, dim3 block, Args&&... args)
{
  std::size_t dynamic_bytes = 0;
  if constexpr (needs_dynamic_shared_v<StorageT>)
  {
    static_assert(sizeof(StorageT) <= max_optin_shared_bytes,
                  "this TempStorage exceeds the 227 KiB of shared memory a block can have: take the case out of the "
                  "sweep");
    int device = 0;
    int optin  = 0;
    STRATA_TEST_CUDA(cudaGetDevice(&device));
    STRATA_TEST_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    INFO("TempStorage of " << sizeof(StorageT) << " bytes in dynamic shared memory; the device allows " << optin);
    REQUIRE(sizeof(StorageT) <= static_cast<std::size_t>(optin));
    dynamic_bytes = sizeof(StorageT);
    STRATA_TEST_CUDA(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(dynamic_bytes)));
  }
  kernel<<<grid, block, dynamic_bytes>>>(std::forward<Args>(args)...);
}

} // namespace strata_test
