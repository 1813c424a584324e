// Device facts a dispatch needs: the PTX version the current translation unit's kernels run at, SM count,
// shared-memory limits. Each is read from the driver once per device and kept in the backend's cache, so a
// dispatch makes no driver query after the first call.
#pragma once

#include <strata/config.cuh>
#include <strata/util/error.cuh>

#include <strata/backend/device_cache.hpp>

STRATA_NAMESPACE_BEGIN
namespace detail
{
// An empty kernel of this translation unit's architecture list: its PTX version is the version that the
// driver will pick for every kernel of this architecture list on a given device.
template <int = 0>
STRATA_KERNEL_ATTRIBUTES void ptx_probe_kernel()
{}
} // namespace detail

// The current device.
inline cudaError_t CurrentDevice(int& device)
{
  return cudaGetDevice(&device);
}

// PTX version (e.g. 900) that kernels compiled in this translation unit run at on `device`.
inline cudaError_t PtxVersion(int& ptx_version, int device)
{
  return ::strata::backend::cached_ptx_version(device, reinterpret_cast<const void*>(&detail::ptx_probe_kernel<0>),
                                               ptx_version);
}

// The current device and the PTX version of this translation unit's kernels on it (what every dispatch asks first).
inline cudaError_t CurrentDeviceAndPtxVersion(int& device, int& ptx_version)
{
  STRATA_RETURN_IF_ERROR(CurrentDevice(device));
  return PtxVersion(ptx_version, device);
}

// PTX version on the current device.
inline cudaError_t PtxVersion(int& ptx_version)
{
  int device = 0;
  return CurrentDeviceAndPtxVersion(device, ptx_version);
}

// Cached attributes (SM count, shared-memory limits, L2 size, compute capability) of `device`.
inline cudaError_t DeviceAttributes(::strata::backend::device_attributes& attributes, int device)
{
  return ::strata::backend::cached_device_attributes(device, attributes);
}

// Multiprocessor count of `device`.
inline cudaError_t SmCount(int& sm_count, int device)
{
  ::strata::backend::device_attributes attributes{};
  STRATA_RETURN_IF_ERROR(DeviceAttributes(attributes, device));
  sm_count = attributes.sm_count;
  return cudaSuccess;
}

// Resident blocks per SM of `kernel` with `block_threads` threads and `dynamic_smem_bytes` of dynamic shared
// memory on `device` (read once, then cached by the backend).
template <typename KernelT>
inline cudaError_t MaxSmOccupancy(int& blocks_per_sm, KernelT kernel, int block_threads, int device,
                                  size_t dynamic_smem_bytes = 0)
{
  return ::strata::backend::cached_occupancy(device, reinterpret_cast<const void*>(kernel), block_threads,
                                             dynamic_smem_bytes, blocks_per_sm);
}

// One wave of `kernel` on `device`: how many blocks of `block_threads` threads, with `dynamic_smem_bytes` of dynamic
// shared memory, the device holds at once, counting at most `max_blocks_per_sm` per SM (0: as many as occupancy
// allows) and at least one.
template <typename KernelT>
inline cudaError_t WaveBlocks(size_t& wave, KernelT kernel, int block_threads, int device,
                              size_t dynamic_smem_bytes = 0, int max_blocks_per_sm = 0)
{
  int sm_count      = 0;
  int blocks_per_sm = 0;
  STRATA_RETURN_IF_ERROR(SmCount(sm_count, device));
  STRATA_RETURN_IF_ERROR(MaxSmOccupancy(blocks_per_sm, kernel, block_threads, device, dynamic_smem_bytes));
  if (max_blocks_per_sm > 0 && max_blocks_per_sm < blocks_per_sm)
  {
    blocks_per_sm = max_blocks_per_sm;
  }
  wave = static_cast<size_t>(sm_count) * static_cast<size_t>(blocks_per_sm > 0 ? blocks_per_sm : 1);
  return cudaSuccess;
}

// Lets `kernel` take `dynamic_smem_bytes` of dynamic shared memory (more than the 48 KiB a launch gets by default)
// on `device`, with a shared-memory carveout that holds as many of its blocks of `block_threads` threads as can be
// resident and leaves the rest of the SM's memory to the L1 cache. The driver is asked once per device, kernel and
// size (the backend's cache).
template <typename KernelT>
inline cudaError_t PrepareSharedMemory(KernelT kernel, int block_threads, size_t dynamic_smem_bytes, int device)
{
  return ::strata::backend::cached_shared_memory_setup(device, reinterpret_cast<const void*>(kernel), block_threads,
                                                       dynamic_smem_bytes);
}

// PrepareSharedMemory for a kernel whose DYNAMIC_SMEM_BYTES of dynamic shared memory are known at compile time, only
// where they pass the 48 KiB a launch gets by default: a kernel within them is launched as the driver has it (its
// carveout included) and the driver is not asked.
template <size_t DYNAMIC_SMEM_BYTES, typename KernelT>
inline cudaError_t PrepareSharedMemoryOver48KiB(KernelT kernel, int block_threads, int device)
{
  if constexpr (DYNAMIC_SMEM_BYTES > 48 * 1024)
  {
    return PrepareSharedMemory(kernel, block_threads, DYNAMIC_SMEM_BYTES, device);
  }
  else
  {
    return cudaSuccess;
  }
}

// Launches `kernel` on `stream` with `dynamic_smem_bytes` of dynamic shared memory. With `programmatic` (devices of
// sm_90 and later), the launch may overlap the grid before it on the stream: the kernel must wait for that grid
// in GridDependencyWait() (util/ptx.cuh) before it reads anything the grid writes.
template <typename... KernelArgs, typename... Args>
inline cudaError_t LaunchAfterShared(bool programmatic, dim3 grid, dim3 block, size_t dynamic_smem_bytes,
                                     cudaStream_t stream, void (*kernel)(KernelArgs...), Args&&... args)
{
  cudaLaunchAttribute attribute{};
  attribute.id                                         = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim          = grid;
  config.blockDim         = block;
  config.dynamicSmemBytes = dynamic_smem_bytes;
  config.stream           = stream;
  config.attrs            = programmatic ? &attribute : nullptr;
  config.numAttrs         = programmatic ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, static_cast<Args&&>(args)...);
}

// As LaunchAfterShared, without dynamic shared memory.
template <typename... KernelArgs, typename... Args>
inline cudaError_t LaunchAfter(bool programmatic, dim3 grid, dim3 block, cudaStream_t stream,
                               void (*kernel)(KernelArgs...), Args&&... args)
{
  return LaunchAfterShared(programmatic, grid, block, 0, stream, kernel, static_cast<Args&&>(args)...);
}

// Launches `kernel` on `stream` and returns the launch's own error (a triple-chevron launch reports it only
// through the runtime's last-error state, which an unrelated earlier failure may already hold).
template <typename... KernelArgs, typename... Args>
inline cudaError_t Launch(dim3 grid, dim3 block, cudaStream_t stream, void (*kernel)(KernelArgs...), Args&&... args)
{
  return LaunchAfter(false, grid, block, stream, kernel, static_cast<Args&&>(args)...);
}

STRATA_NAMESPACE_END
