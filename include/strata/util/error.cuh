// Error handling for the device path: one helper, used everywhere.
//
// STRATA_RETURN_IF_ERROR(expr) evaluates a cudaError_t expression and returns it from the enclosing function
// when it is not cudaSuccess; it is one statement, safe as the body of an unbraced if or else. Define
// STRATA_DEBUG_SYNC to synchronize and check after every launch the dispatch layer makes (a debugging aid; it
// breaks the "never synchronizes" contract on purpose).
#pragma once

#include <strata/config.cuh>

#include <cstdio>

STRATA_NAMESPACE_BEGIN
namespace detail
{
// Reports `error` with its location when STRATA_DEBUG_LOG is defined; returns it unchanged.
STRATA_HOST_DEVICE inline cudaError_t report(cudaError_t error, const char* file, int line)
{
#if defined(STRATA_DEBUG_LOG)
  if (error != cudaSuccess)
  {
    NV_IF_TARGET(NV_IS_HOST,
                 (std::fprintf(stderr, "strata: CUDA error %d (%s) at %s:%d\n", static_cast<int>(error),
                               cudaGetErrorString(error), file, line);),
                 (printf("strata: CUDA error %d at %s:%d\n", static_cast<int>(error), file, line);));
  }
#else
  (void) file;
  (void) line;
#endif
  return error;
}

// After a launch made through Launch or LaunchAfter (util/device.cuh): that launch's own error, never one left
// behind by an unrelated earlier call (the runtime's last-error state is not consulted), and with
// STRATA_DEBUG_SYNC the execution error too.
inline cudaError_t check_launch(cudaError_t launch_error, cudaStream_t stream)
{
#if defined(STRATA_DEBUG_SYNC)
  if (launch_error == cudaSuccess)
  {
    launch_error = cudaStreamSynchronize(stream);
  }
#else
  (void) stream;
#endif
  return launch_error;
}
} // namespace detail
STRATA_NAMESPACE_END

// The trailing `else` closes the macro's own `if`, so that an `else` written after the macro in an unbraced
// if/else belongs to the caller's `if`.
#define STRATA_RETURN_IF_ERROR(expr)                                                          \
  if (const cudaError_t strata_error_ = ::strata::detail::report((expr), __FILE__, __LINE__); \
      strata_error_ != cudaSuccess)                                                           \
    return strata_error_;                                                                     \
  else                                                                                        \
    static_cast<void>(0)
