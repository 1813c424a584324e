// What the host sees of the frontend's results.
//
// Algorithms that return a host value (reduce, count, min_element, ...): the device writes the result straight into
// the calling thread's page-locked, mapped result buffer, and the call synchronizes the policy's stream only. No
// device-to-host copy is enqueued, and nothing else waits.
//
// Algorithms that write an output range return at once, except where the output lies in memory the host reads
// without a CUDA call: a thrust::universal_vector, or a raw pointer into managed (cudaMallocManaged) or page-locked
// host memory. There they return once the output is written (the policy's stream only is synchronized), as
// thrust::cuda::par does, so that host code reading it right after the call, correct with Thrust, stays correct.
// A stream being captured into a graph is not synchronized. Outputs behind fancy iterators are looked through where
// Thrust lets them be seen (reverse_iterator, zip_iterator); permutation and transform-output iterators are not.
#pragma once

#include <strata/backend/memory_pool.hpp>
#include <strata/config.cuh>
#include <strata/util/cuda_error.cuh>

#include <thrust/iterator/iterator_traits.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/type_traits/is_contiguous_iterator.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

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
                               std::string(name)
                                 + ": returns a host value, so it synchronizes, which a stream being "
                                   "captured cannot do (reduce_into writes device memory instead)");
  }
}

// Runs `launch(T* d_result)`, which enqueues work on the policy's stream that writes one T to d_result, and returns
// that T. Throws strata::cuda_error, naming `name`, on any error.
template <typename T, typename PolicyT, typename LaunchT>
T host_value(const PolicyT& policy, const char* name, LaunchT&& launch)
{
  const cudaStream_t stream = policy.stream();
  require_not_capturing(stream, name);
  void* buffer = nullptr;
  throw_on_error(::strata::backend::thread_result_buffer(&buffer, sizeof(T)), name);
  throw_on_error(launch(static_cast<T*>(buffer)), name);
  throw_on_error(cudaStreamSynchronize(stream), name);
  return *static_cast<const T*>(buffer);
}

template <typename T>
struct is_reverse_iterator : std::false_type
{};
template <typename IteratorT>
struct is_reverse_iterator<thrust::reverse_iterator<IteratorT>> : std::true_type
{};

template <typename T>
struct is_zip_iterator : std::false_type
{};
template <typename TupleT>
struct is_zip_iterator<thrust::zip_iterator<TupleT>> : std::true_type
{};

template <typename IteratorT>
bool host_accessible(const IteratorT& it);

template <typename TupleT, std::size_t... I>
bool any_host_accessible(const TupleT& iterators, std::index_sequence<I...>)
{
  return (host_accessible(thrust::get<I>(iterators)) || ...);
}

// Whether writes through `it` land in memory the host reads without a CUDA call. Raw pointers are asked of the
// driver; a contiguous iterator of the CUDA system with a plain reference (a universal_vector's) is host-accessible,
// one with a proxy reference (a device_vector's, a device_ptr) is device memory.
template <typename IteratorT>
bool host_accessible(const IteratorT& it)
{
  if constexpr (std::is_pointer<IteratorT>::value)
  {
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, static_cast<const void*>(it)) != cudaSuccess)
    {
      (void) cudaGetLastError(); // an address the driver does not know: not memory the device writes
      return false;
    }
    return attributes.type == cudaMemoryTypeManaged || attributes.type == cudaMemoryTypeHost;
  }
  else if constexpr (is_reverse_iterator<IteratorT>::value)
  {
    return host_accessible(it.base());
  }
  else if constexpr (is_zip_iterator<IteratorT>::value)
  {
    return any_host_accessible(
      it.get_iterator_tuple(),
      std::make_index_sequence<thrust::tuple_size<std::decay_t<decltype(it.get_iterator_tuple())>>::value>{});
  }
  else
  {
    return thrust::is_contiguous_iterator_v<
             IteratorT> && std::is_lvalue_reference<typename thrust::iterator_traits<IteratorT>::reference>::value;
  }
}

// Completes a call that wrote `outputs`: synchronizes the policy's stream where an output is host-accessible (and
// the stream is not being captured). Throws strata::cuda_error naming `name` on an error.
template <typename PolicyT, typename... OutputIteratorsT>
void finish_for_host(const PolicyT& policy, const char* name, const OutputIteratorsT&... outputs)
{
  if ((host_accessible(outputs) || ...))
  {
    const cudaStream_t stream       = policy.stream();
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    throw_on_error(cudaStreamIsCapturing(stream, &capture), name);
    if (capture == cudaStreamCaptureStatusNone)
    {
      throw_on_error(cudaStreamSynchronize(stream), name);
    }
  }
}
} // namespace detail
STRATA_NAMESPACE_END
