// Frontend searches over DeviceFind: std::find's family, mismatch, adjacent_find, and Thrust's vectorized binary
// searches.
//
//   auto it = strata::find_if(strata::par.on(stream), v.begin(), v.end(), is_negative{});  // first match, or end
//   strata::lower_bound(strata::par.on(stream), keys.begin(), keys.end(), q.begin(), q.end(), pos.begin());
//
// find, find_if, find_if_not, mismatch and adjacent_find return iterators to the first match (last where none), so they
// synchronize the policy's stream once to bring its index to the host; the search stops early (only tiles that start
// before the first match are read). lower_bound, upper_bound and binary_search take a range of values and write, for
// each, its lower or upper bound's position in the sorted range (as the output's value type), or whether it is there;
// they return the end of the output and never synchronize (but for an output in host-accessible memory,
// strata/execution/host_value.cuh). comp defaults to less. Errors throw strata::cuda_error naming the algorithm; bad
// arguments are found before anything is launched. thrust::find, find_if, find_if_not, mismatch, adjacent_find and the
// vectorized thrust::lower_bound, upper_bound and binary_search given strata's policy run these.
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_find.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/execution/host_value.cuh>
#include <strata/execution/iterators.cuh>
#include <strata/execution/policy.cuh>
#include <strata/execution/reduce.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/cuda_error.cuh>

#include <thrust/iterator/zip_iterator.h>
#include <thrust/pair.h>

#include <cuda/std/functional>
#include <cuda/std/iterator>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace frontend
{
// The index of the first item of the n-item `items` (a fancy iterator over the unwrapped ranges) for which pred holds;
// n where none does.
template <typename IndexT, typename PolicyT, typename ItemsIt, typename PredicateT>
IndexT find_first_index(const PolicyT& policy, const char* name, ItemsIt items, IndexT n, PredicateT pred)
{
  return host_value<IndexT>(policy, name, [&](IndexT* d_index) {
    return run_single_phase(policy, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return DeviceFind::FindIf(d_temp, bytes, items, d_index, pred, n, stream);
    });
  });
}

// first + the index of the first item for which pred holds (last where none does).
template <typename PolicyT, typename InputIt, typename PredicateT>
InputIt find_first(const PolicyT& policy, const char* name, InputIt first, InputIt last, PredicateT pred)
{
  using IndexT = iter_difference_t<InputIt>;
  const auto n = cuda::std::distance(first, last);
  if (n == 0)
  {
    return first;
  }
  return first + find_first_index<IndexT>(policy, name, unwrap(first), static_cast<IndexT>(n), pred);
}

// For each value, what SEARCH finds in [first, last); returns the end of the output.
template <find::search SEARCH, typename PolicyT, typename ForwardIt, typename InputIt, typename OutputIt,
          typename CompareOpT>
OutputIt bounds(const PolicyT& policy, const char* name, ForwardIt first, ForwardIt last, InputIt values_first,
                InputIt values_last, OutputIt result, CompareOpT comp)
{
  const auto m = cuda::std::distance(first, last);
  const auto k = cuda::std::distance(values_first, values_last);
  throw_on_error(run_single_phase(policy,
                                  [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
                                    return find::bound<SEARCH>(d_temp, bytes, unwrap(first), m, unwrap(values_first), k,
                                                               unwrap(result), comp, stream);
                                  }),
                 name);
  finish_for_host(policy, name, result);
  return result + k;
}
} // namespace frontend
} // namespace detail

// -- find, find_if, find_if_not ---------------------------------------------------------------------------------

template <typename A, typename D, typename InputIt, typename UnaryPredicate>
InputIt find_if(const execution_policy<A, D>& policy, InputIt first, InputIt last, UnaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::find_if");
  return detail::frontend::find_first(policy, "strata::find_if", first, last,
                                      detail::frontend::as_bool<UnaryPredicate, false>{pred});
}

template <typename A, typename D, typename InputIt, typename UnaryPredicate>
InputIt find_if_not(const execution_policy<A, D>& policy, InputIt first, InputIt last, UnaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::find_if_not");
  return detail::frontend::find_first(policy, "strata::find_if_not", first, last,
                                      detail::frontend::as_bool<UnaryPredicate, true>{pred});
}

template <typename A, typename D, typename InputIt, typename T>
InputIt find(const execution_policy<A, D>& policy, InputIt first, InputIt last, const T& value)
{
  STRATA_NVTX_RANGE("strata::find");
  return detail::frontend::find_first(policy, "strata::find", first, last, detail::frontend::equals_value<T>{value});
}

// -- mismatch, adjacent_find ------------------------------------------------------------------------------------

// The first position at which pred(first1[i], first2[i]) fails (equal_to of the first range's value type unless
// given), as a pair of iterators into both ranges; {last1, first2 + (last1 - first1)} where it never does.
template <typename A, typename D, typename InputIt1, typename InputIt2, typename BinaryPredicate>
thrust::pair<InputIt1, InputIt2> mismatch(const execution_policy<A, D>& policy, InputIt1 first1, InputIt1 last1,
                                          InputIt2 first2, BinaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::mismatch");
  using IndexT   = detail::iter_difference_t<InputIt1>;
  const IndexT n = cuda::std::distance(first1, last1);
  IndexT index   = 0;
  if (n != 0) // a negative count is refused by DeviceFind
  {
    const auto pairs = thrust::make_zip_iterator(detail::unwrap(first1), detail::unwrap(first2));
    index            = detail::frontend::find_first_index(
                 policy, "strata::mismatch", pairs, n,
                 detail::frontend::apply_to_pair<detail::frontend::as_bool<BinaryPredicate, true>>{{pred}});
  }
  return thrust::pair<InputIt1, InputIt2>(first1 + index, first2 + index);
}
template <typename A, typename D, typename InputIt1, typename InputIt2>
thrust::pair<InputIt1, InputIt2> mismatch(const execution_policy<A, D>& policy, InputIt1 first1, InputIt1 last1,
                                          InputIt2 first2)
{
  return mismatch(policy, first1, last1, first2, cuda::std::equal_to<detail::iter_value_t<InputIt1>>{});
}

// The first i such that pred(first[i], first[i + 1]) holds (equal_to of the value type unless given); last where
// none does.
template <typename A, typename D, typename ForwardIt, typename BinaryPredicate>
ForwardIt adjacent_find(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, BinaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::adjacent_find");
  using IndexT   = detail::iter_difference_t<ForwardIt>;
  const IndexT n = cuda::std::distance(first, last);
  if (n == 0 || n == 1)
  {
    return last;
  }
  const auto items    = detail::unwrap(first);
  const auto adjacent = thrust::make_zip_iterator(items, items + 1);
  const IndexT index  = detail::frontend::find_first_index(
     policy, "strata::adjacent_find", adjacent, n - 1,
     detail::frontend::apply_to_pair<detail::frontend::as_bool<BinaryPredicate, false>>{{pred}});
  return index == n - 1 ? last : first + index;
}
template <typename A, typename D, typename ForwardIt>
ForwardIt adjacent_find(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last)
{
  return adjacent_find(policy, first, last, cuda::std::equal_to<detail::iter_value_t<ForwardIt>>{});
}

// -- vectorized binary searches (Thrust's) ----------------------------------------------------------------------

template <typename A, typename D, typename ForwardIt, typename InputIt, typename OutputIt, typename StrictWeakOrdering>
OutputIt lower_bound(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, InputIt values_first,
                     InputIt values_last, OutputIt result, StrictWeakOrdering comp)
{
  STRATA_NVTX_RANGE("strata::lower_bound");
  return detail::frontend::bounds<detail::find::search::lower_bound>(policy, "strata::lower_bound", first, last,
                                                                     values_first, values_last, result, comp);
}
template <typename A, typename D, typename ForwardIt, typename InputIt, typename OutputIt>
OutputIt lower_bound(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, InputIt values_first,
                     InputIt values_last, OutputIt result)
{
  return lower_bound(policy, first, last, values_first, values_last, result, cuda::std::less<>{});
}

template <typename A, typename D, typename ForwardIt, typename InputIt, typename OutputIt, typename StrictWeakOrdering>
OutputIt upper_bound(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, InputIt values_first,
                     InputIt values_last, OutputIt result, StrictWeakOrdering comp)
{
  STRATA_NVTX_RANGE("strata::upper_bound");
  return detail::frontend::bounds<detail::find::search::upper_bound>(policy, "strata::upper_bound", first, last,
                                                                     values_first, values_last, result, comp);
}
template <typename A, typename D, typename ForwardIt, typename InputIt, typename OutputIt>
OutputIt upper_bound(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, InputIt values_first,
                     InputIt values_last, OutputIt result)
{
  return upper_bound(policy, first, last, values_first, values_last, result, cuda::std::less<>{});
}

template <typename A, typename D, typename ForwardIt, typename InputIt, typename OutputIt, typename StrictWeakOrdering>
OutputIt binary_search(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, InputIt values_first,
                       InputIt values_last, OutputIt result, StrictWeakOrdering comp)
{
  STRATA_NVTX_RANGE("strata::binary_search");
  return detail::frontend::bounds<detail::find::search::contains>(policy, "strata::binary_search", first, last,
                                                                  values_first, values_last, result, comp);
}
template <typename A, typename D, typename ForwardIt, typename InputIt, typename OutputIt>
OutputIt binary_search(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, InputIt values_first,
                       InputIt values_last, OutputIt result)
{
  return binary_search(policy, first, last, values_first, values_last, result, cuda::std::less<>{});
}

STRATA_NAMESPACE_END
