// Frontend element-wise algorithms: std-like calls over DeviceFor and DeviceTransform. None needs temporary storage
// or synchronizes the host; each may be captured into a CUDA graph.
//
//   strata::transform(strata::par.on(stream), a.begin(), a.end(), b.begin(), out.begin(), cuda::std::plus<>{});
//   strata::fill(strata::par.on(stream), v.begin(), v.end(), 1.0f);
//   strata::sequence(strata::par.on(stream), v.begin(), v.end());            // 0, 1, 2, ...
//   strata::for_each(strata::par.on(stream), v.begin(), v.end(), scale{2});  // op may change the item
//
// Arrays of arithmetic (and other trivially copyable 1- to 16-byte) values are read and written as 16-byte vectors,
// so these run at about the speed of a device-to-device copy. Outputs may be the input (in place) but must not
// otherwise overlap the inputs; the order in which items are visited is unspecified. Errors throw
// strata::cuda_error naming the algorithm, before anything is launched for bad arguments (among them a policy whose
// stream belongs to another device than the current one: cudaErrorInvalidValue), and leave cudaGetLastError() clean.
// An output in host-accessible memory (a universal_vector, managed memory) is written when the call returns
// (strata/execution/host_value.cuh).
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_for.cuh>
#include <strata/device/device_transform.cuh>
#include <strata/execution/host_value.cuh>
#include <strata/execution/iterators.cuh>
#include <strata/execution/policy.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/cuda_error.cuh>

#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/tuple>

#include <cstddef>
#include <type_traits>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/detail/raw_reference_cast.h>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace frontend
{
template <typename T>
struct constant_value
{
  T value;
  STRATA_HOST_DEVICE STRATA_FORCEINLINE T operator()() const
  {
    return value;
  }
};

template <typename T>
struct identity_as
{
  template <typename U>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE T operator()(const U& x) const
  {
    return static_cast<T>(x);
  }
};

// init + step * i, in init's type T (the output converts it, as thrust::sequence's does): for an arithmetic T the
// index is converted to T first; any other T is multiplied by the index as it is.
template <typename T>
struct arithmetic_sequence
{
  T init;
  T step;
  STRATA_HOST_DEVICE STRATA_FORCEINLINE T operator()(std::size_t i) const
  {
    if constexpr (std::is_arithmetic<T>::value)
    {
      return static_cast<T>(init + step * static_cast<T>(i));
    }
    else
    {
      return init + step * i;
    }
  }
};

// generator() for every item (the generator takes no argument).
template <typename GeneratorT>
struct call_generator
{
  GeneratorT generator;
  STRATA_HOST_DEVICE STRATA_FORCEINLINE auto operator()() -> decltype(generator())
  {
    return generator();
  }
};

// f(item) through an item's plain reference: iterators whose reference is a proxy (a device_reference, through a
// reverse or permutation iterator over a device_vector) give f a T&, as thrust::for_each does.
template <typename F>
struct on_raw_reference
{
  mutable F f;
  template <typename ReferenceT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE void operator()(ReferenceT&& item) const
  {
    (void) f(thrust::raw_reference_cast(item));
  }
};

// f as DeviceFor calls it on the items of IteratorT: unchanged where they are plain references.
template <typename IteratorT, typename F>
auto for_each_op(F f)
{
  if constexpr (std::is_reference<iter_reference_t<IteratorT>>::value)
  {
    return f;
  }
  else
  {
    return on_raw_reference<F>{f};
  }
}

// output[map[i]] = input[i] (scatter).
template <typename InputIt, typename MapIt, typename OutputIt>
struct scatter_one
{
  InputIt input;
  MapIt map;
  OutputIt output;
  template <typename IndexT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE void operator()(IndexT i) const
  {
    output[map[i]] = input[i];
  }
};

// Launches output[i] = op(inputs[i]...) for i in [0, n), throwing for `name`; returns output + n.
template <typename PolicyT, typename OutputIt, typename NumItemsT, typename OpT, typename... InputIts>
OutputIt transform_n(const PolicyT& policy, const char* name, cuda::std::tuple<InputIts...> inputs, OutputIt output,
                     NumItemsT n, OpT op)
{
  throw_on_error(DeviceTransform::Transform(inputs, unwrap(output), n, op, policy), name);
  finish_for_host(policy, name, output);
  return output + n;
}
// The value written to OutputIt: its value type, or FallbackT where it has none (output-only iterators).
template <typename OutputIt, typename FallbackT>
using written_t = non_void_value_t<OutputIt, FallbackT>;

template <typename PolicyT, typename OutputIt, typename Size, typename T>
OutputIt fill_n(const PolicyT& policy, const char* name, OutputIt first, Size n, const T& value)
{
  using ValueT = written_t<OutputIt, T>;
  return transform_n(policy, name, cuda::std::make_tuple(), first, n,
                     constant_value<ValueT>{static_cast<ValueT>(value)});
}

template <typename PolicyT, typename InputIt, typename Size, typename OutputIt>
OutputIt copy_n(const PolicyT& policy, const char* name, InputIt first, Size n, OutputIt d_first)
{
  using ValueT = written_t<OutputIt, iter_value_t<InputIt>>;
  return transform_n(policy, name, cuda::std::make_tuple(unwrap(first)), d_first, n, identity_as<ValueT>{});
}
} // namespace frontend
} // namespace detail

// -- for_each -------------------------------------------------------------------------------------------------

// f(item) for every item of [first, last); f may change the item. Returns last (as thrust::for_each does).
template <typename A, typename D, typename InputIt, typename UnaryFunction>
InputIt for_each(const execution_policy<A, D>& policy, InputIt first, InputIt last, UnaryFunction f)
{
  STRATA_NVTX_RANGE("strata::for_each");
  auto items = detail::unwrap(first);
  detail::throw_on_error(DeviceFor::ForEachN(items, cuda::std::distance(first, last),
                                             detail::frontend::for_each_op<decltype(items)>(f), policy),
                         "strata::for_each");
  detail::finish_for_host(policy, "strata::for_each", first);
  return last;
}

// f(item) for the n items from first; returns first + n.
template <typename A, typename D, typename InputIt, typename Size, typename UnaryFunction>
InputIt for_each_n(const execution_policy<A, D>& policy, InputIt first, Size n, UnaryFunction f)
{
  STRATA_NVTX_RANGE("strata::for_each_n");
  auto items = detail::unwrap(first);
  detail::throw_on_error(DeviceFor::ForEachN(items, n, detail::frontend::for_each_op<decltype(items)>(f), policy),
                         "strata::for_each_n");
  detail::finish_for_host(policy, "strata::for_each_n", first);
  return first + n;
}

// -- transform ------------------------------------------------------------------------------------------------

template <typename A, typename D, typename InputIt, typename OutputIt, typename UnaryOp>
OutputIt transform(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first, UnaryOp op)
{
  STRATA_NVTX_RANGE("strata::transform");
  return detail::frontend::transform_n(policy, "strata::transform", cuda::std::make_tuple(detail::unwrap(first)),
                                       d_first, cuda::std::distance(first, last), op);
}

template <typename A, typename D, typename InputIt1, typename InputIt2, typename OutputIt, typename BinaryOp>
OutputIt transform(const execution_policy<A, D>& policy, InputIt1 first1, InputIt1 last1, InputIt2 first2,
                   OutputIt d_first, BinaryOp op)
{
  STRATA_NVTX_RANGE("strata::transform");
  return detail::frontend::transform_n(policy, "strata::transform",
                                       cuda::std::make_tuple(detail::unwrap(first1), detail::unwrap(first2)), d_first,
                                       cuda::std::distance(first1, last1), op);
}

// -- fill, copy, generate -------------------------------------------------------------------------------------

template <typename A, typename D, typename OutputIt, typename Size, typename T>
OutputIt fill_n(const execution_policy<A, D>& policy, OutputIt first, Size n, const T& value)
{
  STRATA_NVTX_RANGE("strata::fill_n");
  return detail::frontend::fill_n(policy, "strata::fill_n", first, n, value);
}

template <typename A, typename D, typename ForwardIt, typename T>
void fill(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, const T& value)
{
  STRATA_NVTX_RANGE("strata::fill");
  detail::frontend::fill_n(policy, "strata::fill", first, cuda::std::distance(first, last), value);
}

template <typename A, typename D, typename InputIt, typename Size, typename OutputIt>
OutputIt copy_n(const execution_policy<A, D>& policy, InputIt first, Size n, OutputIt d_first)
{
  STRATA_NVTX_RANGE("strata::copy_n");
  return detail::frontend::copy_n(policy, "strata::copy_n", first, n, d_first);
}

template <typename A, typename D, typename InputIt, typename OutputIt>
OutputIt copy(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first)
{
  STRATA_NVTX_RANGE("strata::copy");
  return detail::frontend::copy_n(policy, "strata::copy", first, cuda::std::distance(first, last), d_first);
}

template <typename A, typename D, typename ForwardIt, typename Generator>
void generate(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, Generator gen)
{
  STRATA_NVTX_RANGE("strata::generate");
  detail::frontend::transform_n(policy, "strata::generate", cuda::std::make_tuple(), first,
                                cuda::std::distance(first, last), detail::frontend::call_generator<Generator>{gen});
}

// -- sequence and tabulate (Thrust's) -------------------------------------------------------------------------

// first[i] = init + step * i, computed in T and converted to the items' type (as thrust::sequence does).
template <typename A, typename D, typename ForwardIt, typename T>
void sequence(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, T init, T step)
{
  STRATA_NVTX_RANGE("strata::sequence");
  const auto n = cuda::std::distance(first, last);
  detail::frontend::transform_n(policy, "strata::sequence",
                                cuda::std::make_tuple(thrust::counting_iterator<std::size_t>(0)), first, n,
                                detail::frontend::arithmetic_sequence<T>{init, step});
}

template <typename A, typename D, typename ForwardIt, typename T>
void sequence(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, T init)
{
  sequence(policy, first, last, init, T(1));
}

template <typename A, typename D, typename ForwardIt>
void sequence(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last)
{
  using ValueT = detail::iter_value_t<ForwardIt>;
  sequence(policy, first, last, ValueT(0), ValueT(1));
}

// first[i] = op(i).
template <typename A, typename D, typename ForwardIt, typename UnaryOp>
void tabulate(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, UnaryOp op)
{
  STRATA_NVTX_RANGE("strata::tabulate");
  const auto n = cuda::std::distance(first, last);
  detail::frontend::transform_n(
    policy, "strata::tabulate",
    cuda::std::make_tuple(thrust::counting_iterator<detail::iter_difference_t<ForwardIt>>(0)), first, n, op);
}

// -- gather and scatter (Thrust's) ----------------------------------------------------------------------------

// result[i] = input[map[i]] for i in [0, map_last - map_first); returns the end of the result.
template <typename A, typename D, typename MapIt, typename InputIt, typename OutputIt>
OutputIt gather(const execution_policy<A, D>& policy, MapIt map_first, MapIt map_last, InputIt input_first,
                OutputIt result)
{
  STRATA_NVTX_RANGE("strata::gather");
  using ValueT  = detail::frontend::written_t<OutputIt, detail::iter_value_t<InputIt>>;
  auto gathered = thrust::make_permutation_iterator(detail::unwrap(input_first), detail::unwrap(map_first));
  return detail::frontend::transform_n(policy, "strata::gather", cuda::std::make_tuple(gathered), result,
                                       cuda::std::distance(map_first, map_last),
                                       detail::frontend::identity_as<ValueT>{});
}

// result[map[i]] = first[i] for i in [0, last - first).
template <typename A, typename D, typename InputIt, typename MapIt, typename OutputIt>
void scatter(const execution_policy<A, D>& policy, InputIt first, InputIt last, MapIt map, OutputIt result)
{
  STRATA_NVTX_RANGE("strata::scatter");
  using OpT = detail::frontend::scatter_one<detail::unwrapped_t<InputIt>, detail::unwrapped_t<MapIt>,
                                            detail::unwrapped_t<OutputIt>>;
  detail::throw_on_error(DeviceFor::Bulk(cuda::std::distance(first, last),
                                         OpT{detail::unwrap(first), detail::unwrap(map), detail::unwrap(result)},
                                         policy),
                         "strata::scatter");
  detail::finish_for_host(policy, "strata::scatter", result);
}

STRATA_NAMESPACE_END
