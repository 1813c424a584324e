// The single-phase form of the device algorithms: a two-phase call run as one, with temporary storage from an
// allocator on a stream, both taken from an environment, the defaulted trailing argument of every single-phase
// overload:
//
//   strata::DeviceReduce::Sum(d_in, d_out, n);                          // the default stream, strata's pool
//   strata::DeviceReduce::Sum(d_in, d_out, n, stream);                  // a cudaStream_t or a cuda::stream_ref
//   strata::DeviceReduce::Sum(d_in, d_out, n, strata::par(alloc).on(s)); // any policy: stream() and allocator()
//
// An environment is a stream (the pool on that stream), or a policy: anything with `stream()` and `allocator()`,
// strata::par among them (strata/execution/policy.cuh). This header knows no Thrust: the device layer stands on
// its own, and the frontend builds on it.
//
// An allocator may be:
// - a stream-ordered allocator: `void* allocate(size_t bytes, cudaStream_t)`, `deallocate(void*, size_t bytes,
//   cudaStream_t)`. strata calls deallocate on the stream right after enqueueing the work that uses the memory;
//   the allocator must not hand the memory to other streams before that work is done (cudaFreeAsync's contract).
// - a libcu++ asynchronous memory resource: `allocate_async(bytes, alignment, cuda::stream_ref)` and
//   `deallocate_async(ptr, bytes, alignment, cuda::stream_ref)` (cuda::mr::async_resource), as above.
// - a libcu++ synchronous memory resource: `allocate(bytes, alignment)`, `deallocate(ptr, bytes, alignment)`
//   (cuda::mr::resource). It knows no streams, so strata synchronizes the stream before giving memory back.
// - a Thrust-style allocator: `value_type`, `allocate(n)`, `deallocate(ptr, n)` (as thrust::cuda::par(alloc)
//   takes; thrust::device_allocator, or a caching allocator; a fancy pointer needs `get()`). strata gives memory
//   back right after enqueueing the work, as Thrust does: a caching allocator must not reuse it on another stream
//   before that work is done.
// An allocator that throws, or returns null, makes the algorithm fail with cudaErrorMemoryAllocation (an
// exception from the frontend); nothing is leaked on any path.
#pragma once

#include <strata/backend/memory_pool.hpp>
#include <strata/config.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/cuda_error.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/temporary_storage.cuh>

#include <cuda/std/type_traits>
#include <cuda/stream_ref>

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
  A, std::void_t<decltype(static_cast<void*>(std::declval<A&>().allocate(std::size_t{}, cudaStream_t{}))),
                 decltype(std::declval<A&>().deallocate(static_cast<void*>(nullptr), std::size_t{}, cudaStream_t{}))>>
    : std::true_type
{};

template <typename A, typename = void>
struct is_async_resource : std::false_type
{};
template <typename A>
struct is_async_resource<
  A, std::void_t<decltype(static_cast<void*>(std::declval<A&>().allocate_async(std::size_t{}, std::size_t{},
                                                                               ::cuda::stream_ref{cudaStream_t{}}))),
                 decltype(std::declval<A&>().deallocate_async(static_cast<void*>(nullptr), std::size_t{}, std::size_t{},
                                                              ::cuda::stream_ref{cudaStream_t{}}))>> : std::true_type
{};

template <typename A, typename = void>
struct is_sync_resource : std::false_type
{};
template <typename A>
struct is_sync_resource<
  A, std::void_t<decltype(static_cast<void*>(std::declval<A&>().allocate(std::size_t{}, std::size_t{}))),
                 decltype(std::declval<A&>().deallocate(static_cast<void*>(nullptr), std::size_t{}, std::size_t{}))>>
    : std::true_type
{};

// The address a Thrust-style allocator's pointer (a raw or a fancy one, with get()) holds.
template <typename PointerT>
void* raw_address(PointerT ptr)
{
  if constexpr (std::is_pointer<PointerT>::value)
  {
    return static_cast<void*>(ptr);
  }
  else
  {
    return static_cast<void*>(ptr.get());
  }
}

template <typename A, typename = void>
struct is_thrust_allocator : std::false_type
{};
template <typename A>
struct is_thrust_allocator<
  A, std::void_t<typename A::value_type, decltype(raw_address(std::declval<A&>().allocate(std::size_t{})))>>
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
      return raw_address(allocator_.allocate(thrust_elements(bytes)));
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

// The stream a policy without .on(...) uses, and the stream that 0 means in the caller's translation unit (nvcc
// --default-stream per-thread makes it the per-thread stream): an explicit handle, so that the compiled backend,
// built either way, reads it the same.
inline cudaStream_t resolve_stream(cudaStream_t stream) noexcept
{
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
  return stream == nullptr ? cudaStreamPerThread : stream;
#else
  return stream == nullptr ? cudaStreamLegacy : stream;
#endif
}

// A stream as an environment: strata's pool on that stream (the default stream for a default-constructed one).
struct stream_env
{
  using allocator_type = pool_allocator;

  cudaStream_t stream_handle = nullptr;

  cudaStream_t stream() const noexcept
  {
    return resolve_stream(stream_handle);
  }
  pool_allocator& allocator() const noexcept
  {
    static pool_allocator pool; // stateless
    return pool;
  }
};

// The environment of a single-phase call that names none.
using default_env = stream_env;

// A policy: its work's stream() and the allocator() of its temporary storage.
template <typename T, typename = void>
struct is_policy : std::false_type
{};
template <typename T>
struct is_policy<T, std::void_t<typename T::allocator_type, decltype(cudaStream_t{std::declval<const T&>().stream()}),
                                decltype(std::declval<const T&>().allocator())>>
    : std::bool_constant<is_allocator_v<typename T::allocator_type>>
{};

// An environment: a policy, a cudaStream_t, a cuda::stream_ref (not a literal 0, which is an int).
template <typename T>
constexpr bool is_env_v =
  is_policy<::cuda::std::remove_cvref_t<T>>::value || std::is_same<::cuda::std::remove_cvref_t<T>, cudaStream_t>::value
  || std::is_same<::cuda::std::remove_cvref_t<T>, ::cuda::stream_ref>::value;
template <typename T>
using enable_if_env_t = std::enable_if_t<is_env_v<T>, int>;
// Enables a single-phase overload whose item count is NumItemsT (an integer or a strata::device_count: this keeps the
// in-place and out-of-place forms apart) and whose environment is EnvT.
template <typename NumItemsT, typename EnvT>
using enable_if_single_phase_t = std::enable_if_t<is_item_count_v<NumItemsT> && is_env_v<EnvT>, int>;
// Enables a two-phase overload whose item count is NumItemsT (an integer or a strata::device_count: keeps the in-place
// forms, and the forms with an equality operator, apart).
template <typename NumItemsT>
using enable_if_count_t = std::enable_if_t<is_item_count_v<NumItemsT>, int>;
// Enables the forms with an equality operator (UniqueByKey's, ReduceByKey's): not a stream (a cudaStream_t, 0, a
// policy), which the forms without one take in the same place.
template <typename EqualityOpT>
using enable_if_equality_op_t = std::enable_if_t<
  !std::is_integral<EqualityOpT>::value && !std::is_pointer<EqualityOpT>::value && !is_env_v<EqualityOpT>, int>;

// cudaErrorInvalidValue when `stream` belongs to another device than the current one, whose pool, device facts and
// kernels a call uses (a precondition of every call); nothing is launched then and the runtime's last error stays
// clean. The default streams (null, cudaStreamLegacy, cudaStreamPerThread) are always the current device's and cost
// nothing; any other stream costs three runtime queries (is it capturing, its device, the current one). A stream
// being captured is not checked: the runtime refuses device queries about it and would invalidate the capture. An
// invalid handle gives the runtime's error (cudaErrorInvalidResourceHandle). Needs CUDA 12.8 (cudaStreamGetDevice);
// built with an older toolkit, nothing is checked.
inline cudaError_t check_stream_device(cudaStream_t stream) noexcept
{
#if CUDART_VERSION >= 12080
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
  {
    return cudaSuccess;
  }
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  STRATA_RETURN_IF_ERROR(cudaStreamIsCapturing(stream, &capture));
  if (capture != cudaStreamCaptureStatusNone)
  {
    return cudaSuccess;
  }
  int stream_device  = 0;
  int current_device = 0;
  STRATA_RETURN_IF_ERROR(cudaStreamGetDevice(stream, &stream_device));
  STRATA_RETURN_IF_ERROR(cudaGetDevice(&current_device));
  return stream_device == current_device ? cudaSuccess : cudaErrorInvalidValue;
#else
  (void) stream;
  return cudaSuccess;
#endif
}

// The stream argument of the calls that take no temporary storage (DeviceFor, DeviceTransform): a cudaStream_t (0
// included), a cuda::stream_ref, or a policy, whose stream it takes.
class stream_arg
{
public:
  stream_arg(cudaStream_t stream = nullptr) noexcept
      : stream_(stream)
  {}
  stream_arg(::cuda::stream_ref stream) noexcept
      : stream_(stream.get())
  {}
  template <typename PolicyT, std::enable_if_t<is_policy<PolicyT>::value, int> = 0>
  stream_arg(const PolicyT& policy) noexcept
      : stream_(policy.stream())
  {}
  cudaStream_t get() const noexcept
  {
    return stream_;
  }
  // cudaErrorInvalidValue when the stream belongs to another device than the current one (check_stream_device):
  // a call checks this before it launches anything.
  cudaError_t check() const noexcept
  {
    return check_stream_device(stream_);
  }

private:
  cudaStream_t stream_;
};

// The policy an environment stands for.
template <typename EnvT>
decltype(auto) env_policy(const EnvT& env) noexcept
{
  if constexpr (is_policy<EnvT>::value)
  {
    return env;
  }
  else if constexpr (std::is_same<EnvT, ::cuda::stream_ref>::value)
  {
    return stream_env{env.get()};
  }
  else
  {
    return stream_env{env};
  }
}

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
      e      = adapter_.deallocate(ptr_, bytes_, stream_);
      ptr_   = nullptr;
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
// with null storage, then run on storage from the environment's allocator (none for a call that stores nothing),
// which is given back in stream order once the call has enqueued its work, whether it succeeded or not. A stream of
// another device than the current one fails first, with cudaErrorInvalidValue (check_stream_device). The first
// entry point `call` runs names the NVTX range of the whole (strata/nvtx.cuh).
template <typename EnvT, typename CallT>
cudaError_t run_single_phase(const EnvT& env, CallT&& call)
{
  const nvtx_entry entry;
  decltype(auto) policy     = env_policy(env);
  using PolicyT             = ::cuda::std::remove_cvref_t<decltype(policy)>;
  const cudaStream_t stream = policy.stream();
  STRATA_RETURN_IF_ERROR(check_stream_device(stream));
  std::size_t bytes = 0;
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

// Runs the two-phase entry point `two_phase`, called as two_phase(d_temp_storage, temp_storage_bytes, args...,
// stream), as one call in `env` (run_single_phase). STRATA_DETAIL_TWO_PHASE(Name) makes an entry point's overload set
// such an object, so that each single-phase form is one line:
//
//   return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(InclusiveSum), d_in, d_out, num_items);
template <typename EnvT, typename CallT, typename... ArgsT>
cudaError_t call_single_phase(const EnvT& env, CallT two_phase, ArgsT&&... args)
{
  return run_single_phase(env, [&](void* d_temp_storage, std::size_t& temp_storage_bytes, cudaStream_t stream) {
    return two_phase(d_temp_storage, temp_storage_bytes, args..., stream);
  });
}
} // namespace detail

STRATA_NAMESPACE_END

// The overload set of the two-phase entry point NAME (a static member of the class this stands in) as an object,
// for detail::call_single_phase.
#define STRATA_DETAIL_TWO_PHASE(NAME)                                         \
  [](void* d_temp_storage, ::std::size_t& temp_storage_bytes, auto&... arg) { \
    return NAME(d_temp_storage, temp_storage_bytes, arg...);                  \
  }
