// A view of the backend's memory pool, the default source of temporary storage (strata::pool_allocator).
//
//   strata::memory_pool_statistics s = strata::memory_pool_stats();   // the current device's pool
//   strata::set_memory_pool_cache_limit(std::size_t(1) << 30);        // keep at most 1 GiB cached
//   strata::release_cached_memory();                                 // give cached blocks back to the driver
//
// The pool keeps memory it has freed, so that steady-state calls make no cudaMalloc or cudaFree: blocks given back
// are cached and handed out again, up to the device's cache limit. By default the limit is an eighth of the device's
// memory. Cached memory is idle as far as the application is concerned (its own cudaMalloc cannot have it), and a
// single large call would otherwise leave its temporary storage cached until release_cached_memory: an eighth keeps
// the storage of every algorithm over arrays up to a sixteenth of the device's memory (a sort's temporary storage is
// about a copy of its keys and values, held in a block of at most twice that) while leaving the application seven
// eighths. Blocks given back beyond the limit go back to the driver at the next synchronization, the least recently
// cached first; set the limit higher where repeated calls on larger arrays should not pay for new memory each time,
// or to 0 to cache nothing.
//
// When memory counts as freed: a block counts as in use from the moment strata takes it until strata gives it back,
// which a call does as soon as it has enqueued its work, not when that work ends. From then on it counts as cached,
// although the GPU may still be running the work that uses it: whoever takes it next, on any stream, is ordered
// after that work on the GPU.
//
// Memory of captured graphs: while a stream is being captured into a CUDA graph, temporary storage becomes
// allocation and free nodes of the graph, and the graph owns that memory (cudaDeviceGetGraphMemAttribute reports it,
// cudaDeviceGraphMemTrim releases it). It counts neither as in use, nor as cached, nor as reserved here, whether the
// graph is being captured, launched or destroyed.
#pragma once

#include <strata/backend/memory_pool.hpp>
#include <strata/config.cuh>
#include <strata/util/cuda_error.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>

STRATA_NAMESPACE_BEGIN
struct memory_pool_statistics
{
  std::size_t bytes_in_use;             // handed out and not yet given back
  std::size_t bytes_cached;             // given back and kept for reuse (at most cache_limit)
  std::size_t high_water_mark;          // most bytes in use at once since the pool was created or the mark was reset
  std::size_t bytes_reserved;           // held from the driver: in use, cached, or free in the pool until released
  std::size_t reserved_high_water_mark; // most bytes held from the driver at once since then
  std::size_t cache_limit;              // the most bytes the cache keeps (set_memory_pool_cache_limit)
};

namespace detail
{
inline int current_device(const char* where)
{
  int device = 0;
  throw_on_error(cudaGetDevice(&device), where);
  return device;
}
} // namespace detail

// Statistics of `device`'s pool (all zero, cache_limit too, before its first use). Throws strata::cuda_error.
inline memory_pool_statistics memory_pool_stats(int device)
{
  ::strata::backend::pool_statistics s{};
  detail::throw_on_error(::strata::backend::pool_get_statistics(device, s), "strata::memory_pool_stats");
  return memory_pool_statistics{
    s.bytes_in_use, s.bytes_cached, s.high_water_mark, s.bytes_reserved, s.reserved_high_water_mark, s.cache_limit};
}
inline memory_pool_statistics memory_pool_stats()
{
  return memory_pool_stats(detail::current_device("strata::memory_pool_stats"));
}

// Gives `device`'s cached memory back to the driver (waiting for the work that last used each cached block); memory
// in use stays. Throws strata::cuda_error.
inline void release_cached_memory(int device)
{
  detail::throw_on_error(::strata::backend::pool_release_cached(device), "strata::release_cached_memory");
}
inline void release_cached_memory()
{
  release_cached_memory(detail::current_device("strata::release_cached_memory"));
}

// Keeps at most `bytes` of `device`'s freed memory cached from now on. Cached memory beyond the new limit goes back
// to the driver before the call returns, each block once the work that last used it is done (which the call waits
// for). Throws strata::cuda_error.
inline void set_memory_pool_cache_limit(std::size_t bytes, int device)
{
  detail::throw_on_error(::strata::backend::pool_set_cache_limit(device, bytes), "strata::set_memory_pool_cache_limit");
}
inline void set_memory_pool_cache_limit(std::size_t bytes)
{
  set_memory_pool_cache_limit(bytes, detail::current_device("strata::set_memory_pool_cache_limit"));
}

// Restarts `device`'s high-water marks from the bytes in use and reserved now. Throws strata::cuda_error.
inline void reset_memory_pool_high_water_mark(int device)
{
  detail::throw_on_error(::strata::backend::pool_reset_high_water_marks(device),
                         "strata::reset_memory_pool_high_water_mark");
}
inline void reset_memory_pool_high_water_mark()
{
  reset_memory_pool_high_water_mark(detail::current_device("strata::reset_memory_pool_high_water_mark"));
}
STRATA_NAMESPACE_END
