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
// strata::cuda_error naming the algorithm.
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_for.cuh>
#include <strata/device/device_transform.cuh>
#include <strata/execution/iterators.cuh>
#include <strata/execution/policy.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/cuda_error.cuh>

#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/tuple>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>

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

// init + i * step.
template <typename T>
struct arithmetic_sequence
{
  T init;
  T step;
  template <typename IndexT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE T operator()(IndexT i) const
  {
    return static_cast<T>(init + static_cast<T>(i) * step);
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
OutputIt transform_n(const PolicyT& policy,
                     const char* name,
                     cuda::std::tuple<InputIts...> inputs,
                     OutputIt output,
                     NumItemsT n,
                     OpT op)
{
  throw_on_error(DeviceTransform::Transform(inputs, unwrap(output), n, op, policy), name);
  return output + n;
}
// The value written to OutputIt: its value type, or FallbackT where it has none (output-only iterators).
template <typename OutputIt, typename FallbackT>
using written_t = non_void_value_t<OutputIt, FallbackT>;

template <typename PolicyT, typename OutputIt, typename Size, typename T>
OutputIt fill_n(const PolicyT& policy, const char* name, OutputIt first, Size n, const T& value)
{
  using ValueT = written_t<OutputIt, T>;
  return transform_n(policy, name, cuda::std::make_tuple(), first, n, constant_value<ValueT>{static_cast<ValueT>(value)});
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
template <typename A, typename InputIt, typename UnaryFunction>
InputIt for_each(const execution_policy<A>& policy, InputIt first, InputIt last, UnaryFunction f)
{
  STRATA_NVTX_RANGE("strata::for_each");
  detail::throw_on_error(DeviceFor::ForEachN(detail::unwrap(first), cuda::std::distance(first, last), f, policy),
                         "strata::for_each");
  return last;
}

// f(item) for the n items from first; returns first + n.
template <typename A, typename InputIt, typename Size, typename UnaryFunction>
InputIt for_each_n(const execution_policy<A>& policy, InputIt first, Size n, UnaryFunction f)
{
  STRATA_NVTX_RANGE("strata::for_each_n");
  detail::throw_on_error(DeviceFor::ForEachN(detail::unwrap(first), n, f, policy), "strata::for_each_n");
  return first + n;
}

// -- transform ------------------------------------------------------------------------------------------------

template <typename A, typename InputIt, typename OutputIt, typename UnaryOp>
OutputIt transform(const execution_policy<A>& policy, InputIt first, InputIt last, OutputIt d_first, UnaryOp op)
{
  STRATA_NVTX_RANGE("strata::transform");
  return detail::frontend::transform_n(policy, "strata::transform", cuda::std::make_tuple(detail::unwrap(first)),
                                       d_first, cuda::std::distance(first, last), op);
}

template <typename A, typename InputIt1, typename InputIt2, typename OutputIt, typename BinaryOp>
OutputIt transform(const execution_policy<A>& policy,
                   InputIt1 first1,
                   InputIt1 last1,
                   InputIt2 first2,
                   OutputIt d_first,
                   BinaryOp op)
{
  STRATA_NVTX_RANGE("strata::transform");
  return detail::frontend::transform_n(policy, "strata::transform",
                                       cuda::std::make_tuple(detail::unwrap(first1), detail::unwrap(first2)), d_first,
                                       cuda::std::distance(first1, last1), op);
}

// -- fill, copy, generate -------------------------------------------------------------------------------------

template <typename A, typename OutputIt, typename Size, typename T>
OutputIt fill_n(const execution_policy<A>& policy, OutputIt first, Size n, const T& value)
{
  STRATA_NVTX_RANGE("strata::fill_n");
  return detail::frontend::fill_n(policy, "strata::fill_n", first, n, value);
}

template <typename A, typename ForwardIt, typename T>
void fill(const execution_policy<A>& policy, ForwardIt first, ForwardIt last, const T& value)
{
  STRATA_NVTX_RANGE("strata::fill");
  detail::frontend::fill_n(policy, "strata::fill", first, cuda::std::distance(first, last), value);
}

template <typename A, typename InputIt, typename Size, typename OutputIt>
OutputIt copy_n(const execution_policy<A>& policy, InputIt first, Size n, OutputIt d_first)
{
  STRATA_NVTX_RANGE("strata::copy_n");
  return detail::frontend::copy_n(policy, "strata::copy_n", first, n, d_first);
}

template <typename A, typename InputIt, typename OutputIt>
OutputIt copy(const execution_policy<A>& policy, InputIt first, InputIt last, OutputIt d_first)
{
  STRATA_NVTX_RANGE("strata::copy");
  return detail::frontend::copy_n(policy, "strata::copy", first, cuda::std::distance(first, last), d_first);
}

template <typename A, typename ForwardIt, typename Generator>
void generate(const execution_policy<A>& policy, ForwardIt first, ForwardIt last, Generator gen)
{
  STRATA_NVTX_RANGE("strata::generate");
  detail::frontend::transform_n(policy, "strata::generate", cuda::std::make_tuple(), first,
                                cuda::std::distance(first, last), detail::frontend::call_generator<Generator>{gen});
}

// -- sequence and tabulate (Thrust's) -------------------------------------------------------------------------

// first[i] = init + i * step.
template <typename A, typename ForwardIt, typename T>
void sequence(const execution_policy<A>& policy, ForwardIt first, ForwardIt last, T init, T step)
{
  STRATA_NVTX_RANGE("strata::sequence");
  using ValueT = detail::frontend::written_t<ForwardIt, T>;
  const auto n = cuda::std::distance(first, last);
  detail::frontend::transform_n(policy, "strata::sequence",
                                cuda::std::make_tuple(thrust::counting_iterator<detail::iter_difference_t<ForwardIt>>(0)), first, n,
                                detail::frontend::arithmetic_sequence<ValueT>{static_cast<ValueT>(init),
                                                                               static_cast<ValueT>(step)});
}

template <typename A, typename ForwardIt, typename T>
void sequence(const execution_policy<A>& policy, ForwardIt first, ForwardIt last, T init)
{
  sequence(policy, first, last, init, T(1));
}

template <typename A, typename ForwardIt>
void sequence(const execution_policy<A>& policy, ForwardIt first, ForwardIt last)
{
  using ValueT = detail::iter_value_t<ForwardIt>;
  sequence(policy, first, last, ValueT(0), ValueT(1));
}

// first[i] = op(i).
template <typename A, typename ForwardIt, typename UnaryOp>
void tabulate(const execution_policy<A>& policy, ForwardIt first, ForwardIt last, UnaryOp op)
{
  STRATA_NVTX_RANGE("strata::tabulate");
  const auto n = cuda::std::distance(first, last);
  detail::frontend::transform_n(
    policy, "strata::tabulate", cuda::std::make_tuple(thrust::counting_iterator<detail::iter_difference_t<ForwardIt>>(0)), first, n, op);
}

// -- gather and scatter (Thrust's) ----------------------------------------------------------------------------

// result[i] = input[map[i]] for i in [0, map_last - map_first); returns the end of the result.
template <typename A, typename MapIt, typename InputIt, typename OutputIt>
OutputIt gather(const execution_policy<A>& policy, MapIt map_first, MapIt map_last, InputIt input_first, OutputIt result)
{
  STRATA_NVTX_RANGE("strata::gather");
  using ValueT = detail::frontend::written_t<OutputIt, detail::iter_value_t<InputIt>>;
  auto gathered = thrust::make_permutation_iterator(detail::unwrap(input_first), detail::unwrap(map_first));
  return detail::frontend::transform_n(policy, "strata::gather", cuda::std::make_tuple(gathered), result,
                                       cuda::std::distance(map_first, map_last),
                                       detail::frontend::identity_as<ValueT>{});
}

// result[map[i]] = first[i] for i in [0, last - first).
template <typename A, typename InputIt, typename MapIt, typename OutputIt>
void scatter(const execution_policy<A>& policy, InputIt first, InputIt last, MapIt map, OutputIt result)
{
  STRATA_NVTX_RANGE("strata::scatter");
  using OpT = detail::frontend::scatter_one<detail::unwrapped_t<InputIt>, detail::unwrapped_t<MapIt>,
                                            detail::unwrapped_t<OutputIt>>;
  detail::throw_on_error(DeviceFor::Bulk(cuda::std::distance(first, last),
                                         OpT{detail::unwrap(first), detail::unwrap(map), detail::unwrap(result)}, policy),
                         "strata::scatter");
}

STRATA_NAMESPACE_END
