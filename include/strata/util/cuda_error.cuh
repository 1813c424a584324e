// strata::cuda_error: the exception the frontend throws, and the helper that throws it.
//
// The class is declared outside the architecture-named inline namespace: an exception thrown by code compiled for
// one list of architectures must be caught as the same type by code compiled for another.
#pragma once

#include <strata/backend/error.hpp>
#include <strata/config.cuh>

#include <cuda_runtime_api.h>

#include <string>
#include <system_error>

namespace strata
{
// A CUDA error met by a frontend algorithm. what() names the algorithm and the error, e.g.
// "strata::reduce: out of memory (cudaErrorMemoryAllocation)"; code() holds the cudaError_t in the category
// strata::backend::cuda_category().
class cuda_error : public std::system_error
{
public:
  cuda_error(cudaError_t error, const char* where)
      : std::system_error(static_cast<int>(error), backend::cuda_category(), where)
  {}
  cuda_error(cudaError_t error, const std::string& where)
      : std::system_error(static_cast<int>(error), backend::cuda_category(), where)
  {}

  // The CUDA error.
  cudaError_t error() const noexcept
  {
    return static_cast<cudaError_t>(code().value());
  }
};

} // namespace strata

STRATA_NAMESPACE_BEGIN
namespace detail
{
// Throws cuda_error(error, where) unless error is cudaSuccess.
inline void throw_on_error(cudaError_t error, const char* where)
{
  if (error != cudaSuccess)
  {
    throw ::strata::cuda_error(error, where);
  }
}
} // namespace detail
STRATA_NAMESPACE_END
