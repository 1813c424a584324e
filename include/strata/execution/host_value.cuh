// How frontend algorithms that return a host value (reduce, count, min_element, ...) get it: the device writes the
// result straight into the calling thread's page-locked, mapped result buffer, and the call synchronizes the
// policy's stream only. No device-to-host copy is enqueued, and nothing else waits.
#pragma once

#include <strata/backend/memory_pool.hpp>
#include <strata/config.cuh>
#include <strata/util/cuda_error.cuh>

#include <string>
#include <type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
// Throws when `stream` is being captured into a graph: a call that returns a host value must synchronize.
inline void require_not_capturing(cudaStream_t stream, const char* name)
{
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  throw_on_error(cudaStreamIsCapturing(stream, &capture), name);
  if (capture != cudaStreamCaptureStatusNone)
  {
    throw ::strata::cuda_error(cudaErrorStreamCaptureUnsupported,
                               std::string(name) + ": returns a host value, so it synchronizes, which a stream being "
                                                   "captured cannot do (reduce_into writes device memory instead)");
  }
}

// Runs `launch(T* d_result)`, which enqueues work on the policy's stream that writes one T to d_result, and returns
// that T. Throws strata::cuda_error, naming `name`, on any error.
template <typename T, typename PolicyT, typename LaunchT>
T host_value(const PolicyT& policy, const char* name, LaunchT&& launch)
{
  static_assert(std::is_trivially_copyable<T>::value, "a result the device writes must be trivially copyable");
  const cudaStream_t stream = policy.stream();
  require_not_capturing(stream, name);
  void* buffer = nullptr;
  throw_on_error(::strata::backend::thread_result_buffer(&buffer, sizeof(T)), name);
  throw_on_error(launch(static_cast<T*>(buffer)), name);
  throw_on_error(cudaStreamSynchronize(stream), name);
  return *static_cast<const T*>(buffer);
}
} // namespace detail
STRATA_NAMESPACE_END
