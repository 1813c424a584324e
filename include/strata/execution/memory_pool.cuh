// A view of the backend's memory pool, the default source of temporary storage (strata::pool_allocator).
//
//   strata::memory_pool_statistics s = strata::memory_pool_stats();   // the current device's pool
//   strata::release_cached_memory();                                 // give cached blocks back to the driver
//
// The pool keeps memory it has freed, so that steady-state calls make no cudaMalloc or cudaFree.
#pragma once

#include <strata/backend/memory_pool.hpp>
#include <strata/config.cuh>
#include <strata/util/cuda_error.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>

STRATA_NAMESPACE_BEGIN
struct memory_pool_statistics
{
  std::size_t bytes_in_use;    // handed out and not yet given back
  std::size_t bytes_cached;    // held from the driver for reuse, not in use
  std::size_t high_water_mark; // most bytes in use at once since the pool was created or the mark was reset
  std::size_t bytes_reserved;  // held from the driver in all: in use plus cached
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

// Statistics of `device`'s pool (all zero before its first use). Throws strata::cuda_error.
inline memory_pool_statistics memory_pool_stats(int device)
{
  ::strata::backend::pool_statistics s{};
  detail::throw_on_error(::strata::backend::pool_get_statistics(device, s), "strata::memory_pool_stats");
  const std::size_t cached = s.bytes_reserved > s.bytes_in_use ? s.bytes_reserved - s.bytes_in_use : 0;
  return memory_pool_statistics{s.bytes_in_use, cached, s.high_water_mark, s.bytes_reserved};
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

// Restarts `device`'s high-water mark from the bytes in use now. Throws strata::cuda_error.
inline void reset_memory_pool_high_water_mark(int device)
{
  detail::throw_on_error(::strata::backend::pool_reset_high_water_marks(device), "strata::reset_memory_pool_high_water_mark");
}
inline void reset_memory_pool_high_water_mark()
{
  reset_memory_pool_high_water_mark(detail::current_device("strata::reset_memory_pool_high_water_mark"));
}
STRATA_NAMESPACE_END
