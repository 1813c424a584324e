// Frontend reductions: std-like calls that return the result on the host (or, for reduce_into, write it to device
// memory without synchronizing), temporary storage from the policy's allocator.
//
//   int sum   = strata::reduce(strata::par.on(stream), v.begin(), v.end());
//   auto n    = strata::count_if(strata::par.on(stream), first, last, is_odd{});
//   auto it   = strata::min_element(strata::par.on(stream), first, last);
//   strata::reduce_into(strata::par.on(stream), first, last, d_sum, 0, cuda::std::plus<>{});   // no synchronization
//
// Every call that returns a host value synchronizes the policy's stream, and only it; the result goes from the device
// straight into page-locked host memory (no copy is enqueued). Such calls throw when the stream is being captured into
// a graph. Errors throw strata::cuda_error naming the algorithm; bad arguments (a policy whose stream belongs to
// another device than the current one among them: cudaErrorInvalidValue) are found before anything is launched, and
// leave cudaGetLastError() clean. Empty ranges return what std:: defines (init, 0, last, true/false) without touching
// the device, except reduce_into: over an empty range it launches one one-block kernel that writes init to *d_out (in
// stream order, so that it also does so in a captured graph), and takes no temporary storage. Operators must be
// associative and commutative, as std::reduce allows (items are combined in an order fixed by the input size and the
// device, so results, floats included, are the same run to run).
//
// Types and conventions are Thrust's, so that thrust:: calls given strata's policy return what thrust::cuda::par
// returns: reduce(first, last) starts from value_type(0) (value_type{} where a type cannot be made from 0, which
// thrust::reduce rejects) and reduce(first, last, init) adds with plus<T> (each item converted to init's type T);
// inner_product(first1, last1, first2, init) multiplies and adds in T; count_if adds up its predicate's results
// converted to the difference type; equal(first1, last1, first2) compares with equal_to of the first range's value
// type; min_element and max_element return the first extreme item, and minmax_element the first smallest and the
// first largest (std::minmax_element returns the last largest).
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_reduce.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/execution/host_value.cuh>
#include <strata/execution/iterators.cuh>
#include <strata/execution/policy.cuh>
#include <strata/nvtx.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/cuda_error.cuh>

#include <cuda/std/functional>
#include <cuda/std/utility>

#include <thrust/iterator/zip_iterator.h>
#include <thrust/pair.h>
#include <thrust/tuple.h>

#include <cstddef>
#include <type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace frontend
{
// -- operators the reductions are built from (functors: the library's device code takes no lambdas) ----------

// The predicate's result as a count: 0 or 1 for a bool, the value itself for a predicate that returns a number
// (thrust::count_if adds those up).
template <typename CountT, typename PredicateT>
struct count_matches
{
  mutable PredicateT pred; // mutable: user functors (Thrust's own among them) may have a non-const operator()
  template <typename T>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE CountT operator()(const T& x) const
  {
    return static_cast<CountT>(pred(x));
  }
};

template <typename ValueT>
struct equals_value
{
  ValueT value;
  template <typename T>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE bool operator()(const T& x) const
  {
    return x == value;
  }
};

template <typename PredicateT, bool NEGATE>
struct as_bool
{
  mutable PredicateT pred;
  template <typename... T>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE bool operator()(const T&... x) const
  {
    return static_cast<bool>(pred(x...)) != NEGATE;
  }
};

// op(get<0>(t), get<1>(t)) for the items of a zip of two ranges.
template <typename OpT>
struct apply_to_pair
{
  mutable OpT op;
  template <typename TupleT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE auto operator()(const TupleT& t) const
    -> decltype(op(thrust::get<0>(t), thrust::get<1>(t)))
  {
    return op(thrust::get<0>(t), thrust::get<1>(t));
  }
};

// The extreme items under `comp`, with their positions: the first smallest and the first largest. Ties are broken by
// position, so each is associative and commutative.
template <typename CompareT>
struct arg_min_by
{
  mutable CompareT comp;
  template <typename KeyT, typename ValueT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE KeyValuePair<KeyT, ValueT> operator()(const KeyValuePair<KeyT, ValueT>& a,
                                                                              const KeyValuePair<KeyT, ValueT>& b) const
  {
    return (comp(b.value, a.value) || (!comp(a.value, b.value) && b.key < a.key)) ? b : a;
  }
};

template <typename CompareT>
struct arg_max_by
{
  mutable CompareT comp;
  template <typename KeyT, typename ValueT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE KeyValuePair<KeyT, ValueT> operator()(const KeyValuePair<KeyT, ValueT>& a,
                                                                              const KeyValuePair<KeyT, ValueT>& b) const
  {
    return (comp(a.value, b.value) || (!comp(b.value, a.value) && b.key < a.key)) ? b : a;
  }
};

template <typename KeyT, typename ValueT>
struct min_and_max
{
  KeyValuePair<KeyT, ValueT> min;
  KeyValuePair<KeyT, ValueT> max;
};

template <typename CompareT>
struct arg_minmax_by
{
  mutable CompareT comp;
  template <typename KeyT, typename ValueT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE min_and_max<KeyT, ValueT> operator()(const min_and_max<KeyT, ValueT>& a,
                                                                             const min_and_max<KeyT, ValueT>& b) const
  {
    return {arg_min_by<CompareT>{comp}(a.min, b.min), arg_max_by<CompareT>{comp}(a.max, b.max)};
  }
};

// (position, item) -> the pair both halves of a minmax start from.
template <typename KeyT, typename ValueT>
struct minmax_pair_op
{
  using indexed_transform = void;
  template <typename OffsetT, typename InputT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE min_and_max<KeyT, ValueT> operator()(OffsetT index, const InputT& item) const
  {
    const KeyValuePair<KeyT, ValueT> p(static_cast<KeyT>(index), static_cast<ValueT>(item));
    return {p, p};
  }
};

// -- the reductions, on the host side ----------------------------------------------------------------------

// *d_out = init op transform(items) of [d_in, d_in + n), in `policy`: DeviceReduce's gpu_to_gpu form where the
// policy asks for it and the accumulator is not an integer (integers reduce to the same bits in any order).
template <typename PolicyT, typename InputIteratorT, typename OutputIteratorT, typename NumItemsT, typename OpT,
          typename TransformOpT, typename InitT>
cudaError_t device_transform_reduce(const PolicyT& policy, InputIteratorT d_in, OutputIteratorT d_out, NumItemsT n,
                                    OpT op, TransformOpT transform, InitT init)
{
  using InputT = cuda::std::decay_t<cuda::std::invoke_result_t<TransformOpT&, iter_value_t<InputIteratorT>>>;
  if constexpr (is_gpu_to_gpu_v<PolicyT> && !std::is_integral<accumulator_t<OpT, InputT, InitT>>::value)
  {
    return run_single_phase(policy, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return DeviceReduce::TransformReduce(d_temp, bytes, d_in, d_out, n, op, transform, init, gpu_to_gpu, stream);
    });
  }
  else
  {
    return DeviceReduce::TransformReduce(d_in, d_out, n, op, transform, init, policy);
  }
}

// Reduces transform(items) of [d_in, d_in + n) with op and init into a host value (n > 0).
template <typename ResultT, typename PolicyT, typename InputIteratorT, typename NumItemsT, typename OpT,
          typename TransformOpT>
ResultT transform_reduce_to_host(const PolicyT& policy, const char* name, InputIteratorT d_in, NumItemsT n, OpT op,
                                 TransformOpT transform, ResultT init)
{
  return host_value<ResultT>(policy, name, [&](ResultT* d_out) {
    return device_transform_reduce(policy, d_in, d_out, n, op, transform, init);
  });
}

// Reduces transform(position, item) of [d_in, d_in + n) with op into a host value, init taking no part (n > 0).
template <typename ResultT, typename PolicyT, typename InputIteratorT, typename NumItemsT, typename OpT,
          typename IndexedOpT>
ResultT indexed_reduce_to_host(const PolicyT& policy, const char* name, InputIteratorT d_in, NumItemsT n, OpT op,
                               IndexedOpT transform)
{
  using EmptyT = reduce::empty_value<ResultT>;
  return host_value<ResultT>(policy, name, [&](ResultT* d_out) {
    return run_single_phase(policy, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      STRATA_RETURN_IF_ERROR(check_arguments(d_temp, n, d_in, d_out, true));
      return dispatch_offset(n, [&](auto offset) {
        using OffsetT = decltype(offset);
        return DispatchReduce<InputIteratorT, ResultT*, OffsetT, OpT, EmptyT, ResultT, IndexedOpT>::Dispatch(
          d_temp, bytes, d_in, d_out, offset, op, EmptyT{}, stream, transform);
      });
    });
  });
}

// The extreme item of [first, last) under `arg_op` (arg_min_by / arg_max_by), or last for an empty range.
template <typename PolicyT, typename ForwardIt, typename ArgOpT>
ForwardIt extreme_element(const PolicyT& policy, const char* name, ForwardIt first, ForwardIt last, ArgOpT arg_op)
{
  const auto n = cuda::std::distance(first, last);
  if (n == 0)
  {
    return last;
  }
  using PairT       = KeyValuePair<std::ptrdiff_t, iter_value_t<ForwardIt>>;
  const PairT found = indexed_reduce_to_host<PairT>(policy, name, unwrap(first), n, arg_op,
                                                    arg_pair_op<std::ptrdiff_t, iter_value_t<ForwardIt>>{});
  return first + found.key;
}

// How many items satisfy pred (0 for an empty range).
template <typename PolicyT, typename InputIt, typename PredicateT>
iter_difference_t<InputIt> count_matching(const PolicyT& policy, const char* name, InputIt first, InputIt last,
                                          PredicateT pred)
{
  using CountT = iter_difference_t<InputIt>;
  const auto n = cuda::std::distance(first, last);
  if (n == 0)
  {
    return CountT(0);
  }
  return transform_reduce_to_host<CountT>(policy, name, unwrap(first), n, cuda::std::plus<>{},
                                          count_matches<CountT, PredicateT>{pred}, CountT(0));
}

// init op transform_op(a, b)... over two ranges (init for an empty range).
template <typename T, typename PolicyT, typename InputIt1, typename InputIt2, typename ReduceOpT, typename TransformOpT>
T pairwise_reduce(const PolicyT& policy, const char* name, InputIt1 first1, InputIt1 last1, InputIt2 first2, T init,
                  ReduceOpT reduce_op, TransformOpT transform_op)
{
  const auto n = cuda::std::distance(first1, last1);
  if (n == 0)
  {
    return init;
  }
  auto pairs = thrust::make_zip_iterator(unwrap(first1), unwrap(first2));
  return transform_reduce_to_host<T>(policy, name, pairs, n, reduce_op, apply_to_pair<TransformOpT>{transform_op},
                                     init);
}

// Reduces to a bool: reduce_op over pred(items), `empty` for an empty range.
template <typename PolicyT, typename InputIt, typename PredicateT, typename ReduceOpT>
bool logical_reduce(const PolicyT& policy, const char* name, InputIt first, InputIt last, PredicateT pred, ReduceOpT op,
                    bool empty)
{
  const auto n = cuda::std::distance(first, last);
  if (n == 0)
  {
    return empty;
  }
  return transform_reduce_to_host<bool>(policy, name, unwrap(first), n, op, pred, empty);
}
} // namespace frontend
} // namespace detail

// -- reduce ---------------------------------------------------------------------------------------------------

// init op items..., as std::reduce.
template <typename A, typename D, typename InputIt, typename T, typename BinaryOp>
T reduce(const execution_policy<A, D>& policy, InputIt first, InputIt last, T init, BinaryOp op)
{
  STRATA_NVTX_RANGE("strata::reduce");
  const auto n = cuda::std::distance(first, last);
  if (n == 0)
  {
    return init;
  }
  return detail::frontend::transform_reduce_to_host<T>(policy, "strata::reduce", detail::unwrap(first), n, op,
                                                       Identity{}, init);
}

// init + items..., each item converted to T (plus<T>, as thrust::reduce adds).
template <typename A, typename D, typename InputIt, typename T>
T reduce(const execution_policy<A, D>& policy, InputIt first, InputIt last, T init)
{
  return reduce(policy, first, last, init, cuda::std::plus<T>{});
}

// The sum of the items, from value_type(0) (value_type{} for a type that cannot be made from 0).
template <typename A, typename D, typename InputIt>
detail::iter_value_t<InputIt> reduce(const execution_policy<A, D>& policy, InputIt first, InputIt last)
{
  using T = detail::iter_value_t<InputIt>;
  return reduce(policy, first, last, detail::zero_of<T>(), cuda::std::plus<T>{});
}

// *d_out = init op items..., in device memory, without synchronizing (graph-capturable). An empty range launches one
// kernel, which writes init.
template <typename A, typename D, typename InputIt, typename OutputIt, typename T, typename BinaryOp>
void reduce_into(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_out, T init, BinaryOp op)
{
  STRATA_NVTX_RANGE("strata::reduce_into");
  detail::throw_on_error(detail::frontend::device_transform_reduce(policy, detail::unwrap(first), detail::unwrap(d_out),
                                                                   cuda::std::distance(first, last), op, Identity{},
                                                                   init),
                         "strata::reduce_into");
}

template <typename A, typename D, typename InputIt, typename OutputIt, typename T>
void reduce_into(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_out, T init)
{
  reduce_into(policy, first, last, d_out, init, cuda::std::plus<T>{});
}

template <typename A, typename D, typename InputIt, typename OutputIt>
void reduce_into(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_out)
{
  using T = detail::iter_value_t<InputIt>;
  reduce_into(policy, first, last, d_out, detail::zero_of<T>(), cuda::std::plus<T>{});
}

// -- transform_reduce -----------------------------------------------------------------------------------------

// init op transform(items)..., std::transform_reduce's order (init, reduce, transform).
template <typename A, typename D, typename InputIt, typename T, typename BinaryReduceOp, typename UnaryTransformOp,
          std::enable_if_t<detail::is_unary_for_v<UnaryTransformOp, InputIt>, int> = 0>
T transform_reduce(const execution_policy<A, D>& policy, InputIt first, InputIt last, T init, BinaryReduceOp reduce_op,
                   UnaryTransformOp transform_op)
{
  STRATA_NVTX_RANGE("strata::transform_reduce");
  const auto n = cuda::std::distance(first, last);
  if (n == 0)
  {
    return init;
  }
  return detail::frontend::transform_reduce_to_host<T>(policy, "strata::transform_reduce", detail::unwrap(first), n,
                                                       reduce_op, transform_op, init);
}

// Thrust's order (transform, init, reduce), as thrust::transform_reduce calls it.
template <
  typename A, typename D, typename InputIt, typename UnaryTransformOp, typename T, typename BinaryReduceOp,
  std::enable_if_t<
    detail::is_unary_for_v<UnaryTransformOp, InputIt> && !detail::is_unary_for_v<BinaryReduceOp, InputIt>, int> = 0>
T transform_reduce(const execution_policy<A, D>& policy, InputIt first, InputIt last, UnaryTransformOp transform_op,
                   T init, BinaryReduceOp reduce_op)
{
  return transform_reduce(policy, first, last, init, reduce_op, transform_op);
}

// init op transform(a, b)... over two ranges, std::transform_reduce's binary form.
template <typename A, typename D, typename InputIt1, typename InputIt2, typename T, typename BinaryReduceOp,
          typename BinaryTransformOp>
T transform_reduce(const execution_policy<A, D>& policy, InputIt1 first1, InputIt1 last1, InputIt2 first2, T init,
                   BinaryReduceOp reduce_op, BinaryTransformOp transform_op)
{
  STRATA_NVTX_RANGE("strata::transform_reduce");
  return detail::frontend::pairwise_reduce(policy, "strata::transform_reduce", first1, last1, first2, init, reduce_op,
                                           transform_op);
}

template <typename A, typename D, typename InputIt1, typename InputIt2, typename T>
T transform_reduce(const execution_policy<A, D>& policy, InputIt1 first1, InputIt1 last1, InputIt2 first2, T init)
{
  return transform_reduce(policy, first1, last1, first2, init, cuda::std::plus<>{}, cuda::std::multiplies<>{});
}

// init op1 op2(a, b)..., as std::inner_product.
template <typename A, typename D, typename InputIt1, typename InputIt2, typename T, typename BinaryOp1,
          typename BinaryOp2>
T inner_product(const execution_policy<A, D>& policy, InputIt1 first1, InputIt1 last1, InputIt2 first2, T init,
                BinaryOp1 op1, BinaryOp2 op2)
{
  STRATA_NVTX_RANGE("strata::inner_product");
  return detail::frontend::pairwise_reduce(policy, "strata::inner_product", first1, last1, first2, init, op1, op2);
}

// init + a * b..., multiplied and added in T (as thrust::inner_product does).
template <typename A, typename D, typename InputIt1, typename InputIt2, typename T>
T inner_product(const execution_policy<A, D>& policy, InputIt1 first1, InputIt1 last1, InputIt2 first2, T init)
{
  return inner_product(policy, first1, last1, first2, init, cuda::std::plus<T>{}, cuda::std::multiplies<T>{});
}

// -- counting and testing -------------------------------------------------------------------------------------

template <typename A, typename D, typename InputIt, typename UnaryPredicate>
detail::iter_difference_t<InputIt> count_if(const execution_policy<A, D>& policy, InputIt first, InputIt last,
                                            UnaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::count_if");
  return detail::frontend::count_matching(policy, "strata::count_if", first, last, pred);
}

template <typename A, typename D, typename InputIt, typename T>
detail::iter_difference_t<InputIt> count(const execution_policy<A, D>& policy, InputIt first, InputIt last,
                                         const T& value)
{
  STRATA_NVTX_RANGE("strata::count");
  return detail::frontend::count_matching(policy, "strata::count", first, last,
                                          detail::frontend::equals_value<T>{value});
}

template <typename A, typename D, typename InputIt, typename UnaryPredicate>
bool all_of(const execution_policy<A, D>& policy, InputIt first, InputIt last, UnaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::all_of");
  return detail::frontend::logical_reduce(policy, "strata::all_of", first, last,
                                          detail::frontend::as_bool<UnaryPredicate, false>{pred},
                                          cuda::std::logical_and<>{}, true);
}

template <typename A, typename D, typename InputIt, typename UnaryPredicate>
bool any_of(const execution_policy<A, D>& policy, InputIt first, InputIt last, UnaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::any_of");
  return detail::frontend::logical_reduce(policy, "strata::any_of", first, last,
                                          detail::frontend::as_bool<UnaryPredicate, false>{pred},
                                          cuda::std::logical_or<>{}, false);
}

template <typename A, typename D, typename InputIt, typename UnaryPredicate>
bool none_of(const execution_policy<A, D>& policy, InputIt first, InputIt last, UnaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::none_of");
  return detail::frontend::logical_reduce(policy, "strata::none_of", first, last,
                                          detail::frontend::as_bool<UnaryPredicate, true>{pred},
                                          cuda::std::logical_and<>{}, true);
}

// Whether pred(a, b) holds for every pair of items, as std::equal.
template <typename A, typename D, typename InputIt1, typename InputIt2, typename BinaryPredicate>
bool equal(const execution_policy<A, D>& policy, InputIt1 first1, InputIt1 last1, InputIt2 first2, BinaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::equal");
  return detail::frontend::pairwise_reduce(policy, "strata::equal", first1, last1, first2, true,
                                           cuda::std::logical_and<>{},
                                           detail::frontend::as_bool<BinaryPredicate, false>{pred});
}

// Compares with equal_to of the first range's value type (items of the second range are converted to it).
template <typename A, typename D, typename InputIt1, typename InputIt2>
bool equal(const execution_policy<A, D>& policy, InputIt1 first1, InputIt1 last1, InputIt2 first2)
{
  return equal(policy, first1, last1, first2, cuda::std::equal_to<detail::iter_value_t<InputIt1>>{});
}

// The four-iterator form: ranges of different lengths are not equal.
template <typename A, typename D, typename InputIt1, typename InputIt2, typename BinaryPredicate>
bool equal(const execution_policy<A, D>& policy, InputIt1 first1, InputIt1 last1, InputIt2 first2, InputIt2 last2,
           BinaryPredicate pred)
{
  return cuda::std::distance(first1, last1) == cuda::std::distance(first2, last2)
      && equal(policy, first1, last1, first2, pred);
}

template <typename A, typename D, typename InputIt1, typename InputIt2>
bool equal(const execution_policy<A, D>& policy, InputIt1 first1, InputIt1 last1, InputIt2 first2, InputIt2 last2)
{
  return equal(policy, first1, last1, first2, last2, cuda::std::equal_to<detail::iter_value_t<InputIt1>>{});
}

// -- extremes -------------------------------------------------------------------------------------------------

template <typename A, typename D, typename ForwardIt, typename Compare>
ForwardIt min_element(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, Compare comp)
{
  STRATA_NVTX_RANGE("strata::min_element");
  return detail::frontend::extreme_element(policy, "strata::min_element", first, last,
                                           detail::frontend::arg_min_by<Compare>{comp});
}

template <typename A, typename D, typename ForwardIt>
ForwardIt min_element(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last)
{
  return min_element(policy, first, last, cuda::std::less<detail::iter_value_t<ForwardIt>>{});
}

template <typename A, typename D, typename ForwardIt, typename Compare>
ForwardIt max_element(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, Compare comp)
{
  STRATA_NVTX_RANGE("strata::max_element");
  return detail::frontend::extreme_element(policy, "strata::max_element", first, last,
                                           detail::frontend::arg_max_by<Compare>{comp});
}

template <typename A, typename D, typename ForwardIt>
ForwardIt max_element(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last)
{
  return max_element(policy, first, last, cuda::std::less<detail::iter_value_t<ForwardIt>>{});
}

// The first smallest and the first largest item, as thrust::minmax_element (std::minmax_element returns the last
// largest); {last, last} for an empty range.
template <typename A, typename D, typename ForwardIt, typename Compare>
thrust::pair<ForwardIt, ForwardIt> minmax_element(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last,
                                                  Compare comp)
{
  STRATA_NVTX_RANGE("strata::minmax_element");
  const auto n = cuda::std::distance(first, last);
  if (n == 0)
  {
    return thrust::pair<ForwardIt, ForwardIt>(last, last);
  }
  using ValueT  = detail::iter_value_t<ForwardIt>;
  using ResultT = detail::frontend::min_and_max<std::ptrdiff_t, ValueT>;
  const ResultT found =
    detail::frontend::indexed_reduce_to_host<ResultT>(policy, "strata::minmax_element", detail::unwrap(first), n,
                                                      detail::frontend::arg_minmax_by<Compare>{comp},
                                                      detail::frontend::minmax_pair_op<std::ptrdiff_t, ValueT>{});
  return thrust::pair<ForwardIt, ForwardIt>(first + found.min.key, first + found.max.key);
}

template <typename A, typename D, typename ForwardIt>
thrust::pair<ForwardIt, ForwardIt> minmax_element(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last)
{
  return minmax_element(policy, first, last, cuda::std::less<detail::iter_value_t<ForwardIt>>{});
}

STRATA_NAMESPACE_END
