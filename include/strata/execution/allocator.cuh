// Allocators of temporary storage: strata's default (the backend's stream-ordered pool) and the adapter that turns
// any allocator a policy may hold into the one interface the algorithms use.
//
// A policy may hold (par(alloc)):
// - a stream-ordered allocator: `void* allocate(size_t bytes, cudaStream_t)`, `deallocate(void*, size_t bytes,
//   cudaStream_t)`. strata calls deallocate on the stream right after enqueueing the work that uses the memory;
//   the allocator must not hand the memory to other streams before that work is done (cudaFreeAsync's contract).
// - a libcu++ asynchronous memory resource: `allocate_async(bytes, alignment, cuda::stream_ref)` and
//   `deallocate_async(ptr, bytes, alignment, cuda::stream_ref)` (cuda::mr::async_resource), as above.
// - a libcu++ synchronous memory resource: `allocate(bytes, alignment)`, `deallocate(ptr, bytes, alignment)`
//   (cuda::mr::resource). It knows no streams, so strata synchronizes the stream before giving memory back.
// - a Thrust-style allocator: `value_type`, `allocate(n)`, `deallocate(ptr, n)` (as thrust::cuda::par(alloc)
//   takes; thrust::device_allocator, or a caching allocator). strata gives memory back right after enqueueing
//   the work, as Thrust does: a caching allocator must not reuse it on another stream before that work is done.
// An allocator that throws, or returns null, makes the algorithm fail with cudaErrorMemoryAllocation (an
// exception from the frontend); nothing is leaked on any path.
#pragma once

#include <strata/backend/memory_pool.hpp>
#include <strata/config.cuh>
#include <strata/util/cuda_error.cuh>
#include <strata/util/error.cuh>
#include <strata/util/temporary_storage.cuh>

#include <cuda/std/type_traits>
#include <cuda/stream_ref>

#include <thrust/detail/raw_pointer_cast.h>

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

STRATA_NAMESPACE_BEGIN

// The default allocator of strata's policies: the stream-ordered pool of the device current at the call
// (strata/execution/memory_pool.cuh reports on it). Stateless; any number of threads and streams may share it.
struct pool_allocator
{
  // `bytes` bytes usable by work enqueued on `stream` from now on. Throws strata::cuda_error when the pool fails.
  void* allocate(std::size_t bytes, cudaStream_t stream) const
  {
    void* ptr = nullptr;
    detail::throw_on_error(::strata::backend::pool_allocate(&ptr, bytes, stream), "strata::pool_allocator::allocate");
    return ptr;
  }
  // Gives `ptr` back once the work enqueued on `stream` so far is done.
  void deallocate(void* ptr, std::size_t bytes, cudaStream_t stream) const
  {
    detail::throw_on_error(::strata::backend::pool_deallocate(ptr, bytes, stream),
                           "strata::pool_allocator::deallocate");
  }
  friend constexpr bool operator==(const pool_allocator&, const pool_allocator&) noexcept
  {
    return true;
  }
  friend constexpr bool operator!=(const pool_allocator&, const pool_allocator&) noexcept
  {
    return false;
  }
};

namespace detail
{
// Alignment asked of libcu++ memory resources: enough for any temporary-storage layout (which aligns its slots
// itself) and for 16-byte vector accesses.
constexpr std::size_t TEMPORARY_ALIGNMENT = 256;

template <typename A, typename = void>
struct is_stream_ordered_allocator : std::false_type
{};
template <typename A>
struct is_stream_ordered_allocator<
  A,
  std::void_t<decltype(static_cast<void*>(std::declval<A&>().allocate(std::size_t{}, cudaStream_t{}))),
              decltype(std::declval<A&>().deallocate(static_cast<void*>(nullptr), std::size_t{}, cudaStream_t{}))>>
    : std::true_type
{};

template <typename A, typename = void>
struct is_async_resource : std::false_type
{};
template <typename A>
struct is_async_resource<
  A,
  std::void_t<decltype(static_cast<void*>(
                std::declval<A&>().allocate_async(std::size_t{}, std::size_t{}, ::cuda::stream_ref{cudaStream_t{}}))),
              decltype(std::declval<A&>().deallocate_async(
                static_cast<void*>(nullptr), std::size_t{}, std::size_t{}, ::cuda::stream_ref{cudaStream_t{}}))>>
    : std::true_type
{};

template <typename A, typename = void>
struct is_sync_resource : std::false_type
{};
template <typename A>
struct is_sync_resource<
  A,
  std::void_t<decltype(static_cast<void*>(std::declval<A&>().allocate(std::size_t{}, std::size_t{}))),
              decltype(std::declval<A&>().deallocate(static_cast<void*>(nullptr), std::size_t{}, std::size_t{}))>>
    : std::true_type
{};

template <typename A, typename = void>
struct is_thrust_allocator : std::false_type
{};
template <typename A>
struct is_thrust_allocator<A,
                           std::void_t<typename A::value_type,
                                       decltype(thrust::raw_pointer_cast(std::declval<A&>().allocate(std::size_t{})))>>
    : std::true_type
{};

template <typename A>
constexpr bool is_allocator_v = is_stream_ordered_allocator<A>::value || is_async_resource<A>::value
                             || is_sync_resource<A>::value || is_thrust_allocator<A>::value;

// Turns an allocator of any of the kinds above into cudaError_t-returning calls that never throw.
template <typename allocator_type>
class allocator_adapter
{
  static_assert(is_allocator_v<allocator_type>,
                "strata: a policy's allocator needs allocate(bytes, stream) / deallocate(ptr, bytes, stream), a "
                "libcu++ memory resource's allocate[_async] / deallocate[_async], or a Thrust-style value_type, "
                "allocate(n) and deallocate(ptr, n)");

public:
  explicit allocator_adapter(allocator_type& allocator)
      : allocator_(allocator)
  {}

  cudaError_t allocate(void** ptr, std::size_t bytes, cudaStream_t stream) noexcept
  {
    *ptr = nullptr;
    if constexpr (std::is_same<allocator_type, pool_allocator>::value)
    {
      return ::strata::backend::pool_allocate(ptr, bytes, stream);
    }
    else
    {
      try
      {
        *ptr = allocate_any(bytes, stream);
      }
      catch (...)
      {
        *ptr = nullptr;
      }
      return *ptr == nullptr ? cudaErrorMemoryAllocation : cudaSuccess;
    }
  }

  cudaError_t deallocate(void* ptr, std::size_t bytes, cudaStream_t stream) noexcept
  {
    if constexpr (std::is_same<allocator_type, pool_allocator>::value)
    {
      return ::strata::backend::pool_deallocate(ptr, bytes, stream);
    }
    else
    {
      try
      {
        return deallocate_any(ptr, bytes, stream);
      }
      catch (...)
      {
        return cudaErrorInvalidValue; // the allocator refused its own memory back
      }
    }
  }

private:
  void* allocate_any(std::size_t bytes, cudaStream_t stream)
  {
    if constexpr (is_stream_ordered_allocator<allocator_type>::value)
    {
      return static_cast<void*>(allocator_.allocate(bytes, stream));
    }
    else if constexpr (is_async_resource<allocator_type>::value)
    {
      return allocator_.allocate_async(bytes, TEMPORARY_ALIGNMENT, ::cuda::stream_ref{stream});
    }
    else if constexpr (is_sync_resource<allocator_type>::value)
    {
      return allocator_.allocate(bytes, TEMPORARY_ALIGNMENT);
    }
    else
    {
      return static_cast<void*>(thrust::raw_pointer_cast(allocator_.allocate(thrust_elements(bytes))));
    }
  }

  cudaError_t deallocate_any(void* ptr, std::size_t bytes, cudaStream_t stream)
  {
    if constexpr (is_stream_ordered_allocator<allocator_type>::value)
    {
      allocator_.deallocate(ptr, bytes, stream);
    }
    else if constexpr (is_async_resource<allocator_type>::value)
    {
      allocator_.deallocate_async(ptr, bytes, TEMPORARY_ALIGNMENT, ::cuda::stream_ref{stream});
    }
    else if constexpr (is_sync_resource<allocator_type>::value)
    {
      // The resource frees at once: the work using the memory must be done first.
      if (const cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess)
      {
        return e;
      }
      allocator_.deallocate(ptr, bytes, TEMPORARY_ALIGNMENT);
    }
    else
    {
      using value_type = typename allocator_type::value_type;
      using pointer    = typename std::allocator_traits<allocator_type>::pointer;
      allocator_.deallocate(pointer(static_cast<value_type*>(ptr)), thrust_elements(bytes));
    }
    return cudaSuccess;
  }

  // Elements of a Thrust-style allocator's value_type that hold `bytes` bytes.
  static std::size_t thrust_elements(std::size_t bytes)
  {
    using value_type = typename allocator_type::value_type;
    return (bytes + sizeof(value_type) - 1) / sizeof(value_type);
  }

  allocator_type& allocator_;
};

// Temporary storage taken from a policy's allocator on the policy's stream and given back, in stream order, when
// this object goes out of scope (after the work using it has been enqueued), whatever path leaves the scope.
template <typename PolicyT>
class temporary_buffer
{
public:
  explicit temporary_buffer(const PolicyT& policy)
      : adapter_(policy.allocator())
      , stream_(policy.stream())
  {}
  temporary_buffer(const temporary_buffer&)            = delete;
  temporary_buffer& operator=(const temporary_buffer&) = delete;
  ~temporary_buffer()
  {
    release();
  }

  cudaError_t allocate(std::size_t bytes) noexcept
  {
    const cudaError_t e = adapter_.allocate(&ptr_, bytes, stream_);
    bytes_              = e == cudaSuccess ? bytes : 0;
    return e;
  }

  // Gives the storage back now (in stream order); its error, if the allocator reports one.
  cudaError_t release() noexcept
  {
    cudaError_t e = cudaSuccess;
    if (ptr_ != nullptr)
    {
      e     = adapter_.deallocate(ptr_, bytes_, stream_);
      ptr_  = nullptr;
      bytes_ = 0;
    }
    return e;
  }

  void* get() const noexcept
  {
    return ptr_;
  }

private:
  allocator_adapter<typename PolicyT::allocator_type> adapter_;
  cudaStream_t stream_;
  void* ptr_         = nullptr;
  std::size_t bytes_ = 0;
};

// Runs a two-phase device call as one. `call(d_temp_storage, temp_storage_bytes, stream)` is asked for its size
// with null storage, then run on storage from the policy's allocator (none for a call that stores nothing), which
// is given back in stream order once the call has enqueued its work, whether it succeeded or not.
template <typename PolicyT, typename CallT>
cudaError_t run_single_phase(const PolicyT& policy, CallT&& call)
{
  const cudaStream_t stream = policy.stream();
  std::size_t bytes         = 0;
  STRATA_RETURN_IF_ERROR(call(nullptr, bytes, stream));
  if (bytes <= temporary_storage::EMPTY_SIZE)
  {
    static char nothing;
    return call(&nothing, bytes, stream);
  }
  temporary_buffer<PolicyT> storage(policy);
  STRATA_RETURN_IF_ERROR(storage.allocate(bytes));
  const cudaError_t run      = call(storage.get(), bytes, stream);
  const cudaError_t released = storage.release();
  return run != cudaSuccess ? run : released;
}
} // namespace detail

STRATA_NAMESPACE_END
