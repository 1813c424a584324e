// strata's execution policy: which stream an algorithm runs on and where its temporary storage comes from.
//
//   strata::reduce(strata::par, first, last);                    // the legacy default stream, the pool
//   strata::reduce(strata::par.on(stream), first, last);         // a cudaStream_t or a cuda::stream_ref
//   strata::reduce(strata::par(alloc).on(stream), first, last);  // temporary storage from `alloc`
//   strata::reduce(strata::par.on(stream).with(strata::gpu_to_gpu), first, last);  // the same bits on every GPU
//
// with(strata::gpu_to_gpu) asks for results that are the same bits on every GPU and under every tuning
// (strata/determinism.cuh): reduce, reduce_into, transform_reduce, inner_product, the scans, the scans by key and
// reduce_by_key then combine floating-point items in an order fixed by the item count and the types alone, at some
// cost in speed (docs/performance.md). Exact operations (integers) and every other algorithm run as they do by
// default: elementwise algorithms, sorts, searches and selections give the same bits on every GPU anyway; the
// segmented reductions and scans of floating-point items do not (their order follows the tuning). with(run_to_run)
// is the default again.
//
// A policy is a small value: making or copying one allocates nothing and touches no CUDA state. par(alloc) holds
// a reference to an lvalue allocator (which must outlive the policy's use) and a copy of an rvalue one.
//
// The policy is also a Thrust CUDA execution policy: thrust::reduce(strata::par.on(s), ...) finds strata's
// reduce by argument-dependent lookup, as Thrust finds its own backends' algorithms, and Thrust algorithms
// strata does not implement run Thrust's CUDA backend on the policy's stream, with their temporary buffers from
// the policy's allocator. strata's algorithms synchronize only where they return a host value or write memory the
// host reads directly (strata/execution/host_value.cuh); Thrust's own keep the synchronization thrust::cuda::par
// gives them (their outputs, a universal_vector among them, are written when they return), except on a stream being
// captured into a graph.
#pragma once

#include <strata/config.cuh>
#include <strata/determinism.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/util/cuda_error.cuh>

#include <cuda/stream_ref>

#include <thrust/detail/pointer.h>
#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/pair.h>
#include <thrust/system/cuda/detail/execution_policy.h>

#include <cstddef>
#include <type_traits>
#include <utility>

STRATA_NAMESPACE_BEGIN
namespace detail
{
// Where a policy keeps its allocator: a copy (mutable: allocating may change an allocator's state, and policies are
// passed as const values), or a pointer to the caller's allocator.
template <typename HolderT>
struct allocator_storage
{
  mutable HolderT allocator;
  constexpr HolderT& get() const noexcept
  {
    return allocator;
  }
};
template <typename A>
struct allocator_storage<A&>
{
  A* allocator;
  constexpr A& get() const noexcept
  {
    return *allocator;
  }
};
} // namespace detail

// AllocatorHolderT: the allocator held (a type, or an lvalue reference to one). strata/device/dispatch/single_phase.cuh
// says what an allocator may be. DeterminismT: run_to_run_t or gpu_to_gpu_t (strata/determinism.cuh).
template <typename AllocatorHolderT = pool_allocator, typename DeterminismT = run_to_run_t>
class execution_policy : public thrust::cuda_cub::execution_policy<execution_policy<AllocatorHolderT, DeterminismT>>
{
  static_assert(is_determinism<DeterminismT>::value,
                "execution_policy: DeterminismT is strata::run_to_run_t or strata::gpu_to_gpu_t");

public:
  using allocator_holder_type = AllocatorHolderT;
  using allocator_type        = std::remove_cv_t<std::remove_reference_t<AllocatorHolderT>>;
  using determinism_type      = DeterminismT;

  template <typename H = AllocatorHolderT, typename = std::enable_if_t<std::is_default_constructible<H>::value>>
  constexpr execution_policy() noexcept
      : storage_{}
      , stream_(nullptr)
  {}

  execution_policy(detail::allocator_storage<AllocatorHolderT> storage, cudaStream_t stream)
      : storage_(std::move(storage))
      , stream_(stream)
  {}

  // The same policy on `stream`.
  execution_policy on(cudaStream_t stream) const
  {
    execution_policy p = *this;
    p.stream_          = stream;
    return p;
  }
  execution_policy on(::cuda::stream_ref stream) const
  {
    return on(stream.get());
  }

  // The same stream, with temporary storage from `allocator`: held by reference for an lvalue, by value otherwise.
  template <typename A,
            typename = std::enable_if_t<detail::is_allocator_v<std::remove_cv_t<std::remove_reference_t<A>>>>>
  auto operator()(A&& allocator) const
  {
    if constexpr (std::is_lvalue_reference<A>::value)
    {
      return execution_policy<A, DeterminismT>(detail::allocator_storage<A>{&allocator}, stream_);
    }
    else
    {
      using holder = std::remove_cv_t<A>;
      return execution_policy<holder, DeterminismT>(detail::allocator_storage<holder>{std::move(allocator)}, stream_);
    }
  }

  // The same stream and allocator, with the determinism asked for: strata::gpu_to_gpu or strata::run_to_run.
  template <typename D, typename = std::enable_if_t<is_determinism<D>::value>>
  execution_policy<AllocatorHolderT, D> with(D) const
  {
    return execution_policy<AllocatorHolderT, D>(storage_, stream_);
  }

  // The stream the policy's work runs on (the default stream, resolved, when none was given).
  cudaStream_t stream() const noexcept
  {
    return detail::resolve_stream(stream_);
  }

  // The allocator (the caller's own, for par(lvalue)).
  allocator_type& allocator() const noexcept
  {
    return storage_.get();
  }

private:
  // What Thrust's CUDA backend asks of a policy (found by argument-dependent lookup): its stream, whether to
  // synchronize at the end of an algorithm that returns no host value (as thrust::cuda::par does: Thrust cannot tell
  // whether the output is host-accessible; not while the stream is captured, where synchronizing is an error), and
  // its temporary buffers, from the policy's allocator on the policy's stream.
  friend cudaStream_t get_stream(const execution_policy& policy) noexcept
  {
    return policy.stream();
  }
  friend bool must_perform_optional_stream_synchronization(const execution_policy& policy) noexcept
  {
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    return cudaStreamIsCapturing(policy.stream(), &capture) == cudaSuccess && capture == cudaStreamCaptureStatusNone;
  }
  // A buffer the allocator cannot provide throws strata::cuda_error (cudaErrorMemoryAllocation, or the pool's own
  // error), as every other call through the policy does; the algorithm is Thrust's, so the message names the buffer.
  template <typename T>
  friend thrust::pair<T*, std::ptrdiff_t> get_temporary_buffer(execution_policy& policy, std::ptrdiff_t n)
  {
    void* ptr = nullptr;
    detail::allocator_adapter<allocator_type> adapter(policy.allocator());
    detail::throw_on_error(adapter.allocate(&ptr, sizeof(T) * static_cast<std::size_t>(n), policy.stream()),
                           "strata::execution_policy: a Thrust algorithm's temporary buffer");
    return thrust::pair<T*, std::ptrdiff_t>(static_cast<T*>(ptr), n);
  }
  template <typename Pointer>
  friend void return_temporary_buffer(execution_policy& policy, Pointer ptr, std::ptrdiff_t n)
  {
    using T = typename thrust::detail::pointer_traits<Pointer>::element_type;
    detail::allocator_adapter<allocator_type> adapter(policy.allocator());
    adapter.deallocate(static_cast<void*>(thrust::raw_pointer_cast(ptr)), sizeof(T) * static_cast<std::size_t>(n),
                       policy.stream());
  }

  detail::allocator_storage<AllocatorHolderT> storage_;
  cudaStream_t stream_;
};

// strata's parallel policy: `strata::par`, `strata::par.on(stream)`, `strata::par(alloc)`, `strata::par(alloc).on(s)`.
constexpr execution_policy<> par{};

template <typename T>
struct is_execution_policy : std::false_type
{};
template <typename A, typename D>
struct is_execution_policy<execution_policy<A, D>> : std::true_type
{};
template <typename T>
constexpr bool is_execution_policy_v = is_execution_policy<std::remove_cv_t<std::remove_reference_t<T>>>::value;

namespace detail
{
template <typename PolicyT>
using enable_if_execution_policy_t = std::enable_if_t<is_execution_policy_v<PolicyT>, int>;

// Whether a policy asks for the same bits on every GPU (anything without a determinism_type does not).
template <typename PolicyT, typename = void>
struct asks_gpu_to_gpu : std::false_type
{};
template <typename PolicyT>
struct asks_gpu_to_gpu<PolicyT, std::void_t<typename PolicyT::determinism_type>>
    : std::is_same<typename PolicyT::determinism_type, gpu_to_gpu_t>
{};
template <typename PolicyT>
constexpr bool is_gpu_to_gpu_v = asks_gpu_to_gpu<std::remove_cv_t<std::remove_reference_t<PolicyT>>>::value;

} // namespace detail

STRATA_NAMESPACE_END
