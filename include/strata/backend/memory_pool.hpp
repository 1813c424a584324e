// The backend's stream-ordered memory pool (libstrata_backend): the default source of the frontend's temporary
// storage.
//
// One pool per device, strata's own (not the device's default pool, which other code may trim or reconfigure),
// created on first use, and above it a cache of the blocks strata has given back (power-of-two sizes from 512 bytes).
// A block given back on a stream is cached with an event recorded there; whoever takes it next, on any stream, waits
// for that event on the GPU. So once a workload's high-water mark is reached, allocations cost the stream neither
// cudaMalloc, cudaFree, a pool operation nor a synchronization.
//
// The cache holds at most the device's cache limit (pool_set_cache_limit; by default an eighth of the device's
// memory). A block given back that would take the cache past the limit makes room by giving the least recently
// cached blocks to the pool, in stream order on the stream of the call (after a GPU-side wait for their events); a
// block larger than the limit goes to the pool itself. The pool's release threshold is the same limit, so the memory
// given to it goes back to the driver at the next synchronization (of a stream, an event or the device) once the
// pool holds more than the limit in all.
//
// Accounting: a block counts as in use from pool_allocate until pool_deallocate is called, and as cached from then,
// although the work enqueued before the call may still be using it (stream order keeps its next user behind that
// work). While a stream is being captured into a graph, its allocations and frees go to the pool, which makes them
// nodes of the graph: the graph owns that memory (cudaDeviceGetGraphMemAttribute reports it), and it counts neither
// as in use, nor cached, nor reserved here.
//
// Declared outside strata's architecture-named inline namespace, like every backend function; thread-safe. The
// stream passed must belong to the current device (the device whose pool serves the call).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace strata
{
namespace backend
{

// `bytes` bytes from the pool of the current device, usable by work queued on `stream` after this call.
cudaError_t pool_allocate(void** ptr, std::size_t bytes, cudaStream_t stream);

// Returns `ptr` (from pool_allocate, of `bytes` bytes) to its pool once the work queued on `stream` so far is done.
cudaError_t pool_deallocate(void* ptr, std::size_t bytes, cudaStream_t stream);

struct pool_statistics
{
  std::size_t bytes_in_use;             // handed out and not yet given back (in whole size classes)
  std::size_t bytes_reserved;           // held from the driver: in use, cached, or free in the pool until released
  std::size_t high_water_mark;          // most bytes in use at once since the pool was created or reset
  std::size_t reserved_high_water_mark; // most bytes held from the driver at once since then
  std::size_t bytes_cached;             // given back and kept for reuse (at most cache_limit)
  std::size_t cache_limit;              // the most bytes the cache keeps
};

// Statistics of `device`'s pool (all zero, the cache limit included, when the pool was never used).
cudaError_t pool_get_statistics(int device, pool_statistics& statistics);

// Gives the memory `device`'s pool caches back to the driver, keeping what is in use. Waits for the work that last
// used each cached block.
cudaError_t pool_release_cached(int device);

// Restarts the high-water marks of `device`'s pool from the current values.
cudaError_t pool_reset_high_water_marks(int device);

// The most bytes `device`'s cache keeps (creating the pool if it has not been used yet). Cached blocks beyond the new
// limit are given back to the driver at once, each after the work that last used it (which this call waits for).
cudaError_t pool_set_cache_limit(int device, std::size_t bytes);

// Host memory, page-locked and mapped into every device's address space, that the calling thread may reuse for the
// host-visible result of one call at a time: at least `bytes` bytes, aligned to 256 bytes. The block grows as needed
// and is released when the thread exits.
cudaError_t thread_result_buffer(void** ptr, std::size_t bytes);

} // namespace backend
} // namespace strata
