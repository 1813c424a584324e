// Frontend searches over DeviceFind: std::find's family, and Thrust's vectorized binary searches.
//
//   auto it = strata::find_if(strata::par.on(stream), v.begin(), v.end(), is_negative{});  // first match, or end
//   strata::lower_bound(strata::par.on(stream), keys.begin(), keys.end(), q.begin(), q.end(), pos.begin());
//
// find, find_if and find_if_not return an iterator to the first match (last where none), so they synchronize the
// policy's stream once to bring its index to the host; the search stops early (only tiles that start before the first
// match are read). lower_bound, upper_bound and binary_search take a range of values and write, for each, its lower
// or upper bound's position in the sorted range (as the output's value type), or whether it is there; they return
// the end of the output and never synchronize (but for an output in host-accessible memory,
// strata/execution/host_value.cuh). comp defaults to less. Errors throw strata::cuda_error naming the algorithm; bad
// arguments are found before anything is launched. thrust::find, find_if, find_if_not and the vectorized
// thrust::lower_bound, upper_bound and binary_search given strata's policy run these.
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

#include <cuda/std/functional>
#include <cuda/std/iterator>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace frontend
{
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
  const IndexT index = host_value<IndexT>(policy, name, [&](IndexT* d_index) {
    return run_single_phase(policy, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return DeviceFind::FindIf(d_temp, bytes, unwrap(first), d_index, pred, n, stream);
    });
  });
  return first + index;
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

template <typename A, typename InputIt, typename UnaryPredicate>
InputIt find_if(const execution_policy<A>& policy, InputIt first, InputIt last, UnaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::find_if");
  return detail::frontend::find_first(policy, "strata::find_if", first, last,
                                      detail::frontend::as_bool<UnaryPredicate, false>{pred});
}

template <typename A, typename InputIt, typename UnaryPredicate>
InputIt find_if_not(const execution_policy<A>& policy, InputIt first, InputIt last, UnaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::find_if_not");
  return detail::frontend::find_first(policy, "strata::find_if_not", first, last,
                                      detail::frontend::as_bool<UnaryPredicate, true>{pred});
}

template <typename A, typename InputIt, typename T>
InputIt find(const execution_policy<A>& policy, InputIt first, InputIt last, const T& value)
{
  STRATA_NVTX_RANGE("strata::find");
  return detail::frontend::find_first(policy, "strata::find", first, last, detail::frontend::equals_value<T>{value});
}

// -- vectorized binary searches (Thrust's) ----------------------------------------------------------------------

template <typename A, typename ForwardIt, typename InputIt, typename OutputIt, typename StrictWeakOrdering>
OutputIt lower_bound(const execution_policy<A>& policy, ForwardIt first, ForwardIt last, InputIt values_first,
                     InputIt values_last, OutputIt result, StrictWeakOrdering comp)
{
  STRATA_NVTX_RANGE("strata::lower_bound");
  return detail::frontend::bounds<detail::find::search::lower_bound>(policy, "strata::lower_bound", first, last,
                                                                     values_first, values_last, result, comp);
}
template <typename A, typename ForwardIt, typename InputIt, typename OutputIt>
OutputIt lower_bound(const execution_policy<A>& policy, ForwardIt first, ForwardIt last, InputIt values_first,
                     InputIt values_last, OutputIt result)
{
  return lower_bound(policy, first, last, values_first, values_last, result, cuda::std::less<>{});
}

template <typename A, typename ForwardIt, typename InputIt, typename OutputIt, typename StrictWeakOrdering>
OutputIt upper_bound(const execution_policy<A>& policy, ForwardIt first, ForwardIt last, InputIt values_first,
                     InputIt values_last, OutputIt result, StrictWeakOrdering comp)
{
  STRATA_NVTX_RANGE("strata::upper_bound");
  return detail::frontend::bounds<detail::find::search::upper_bound>(policy, "strata::upper_bound", first, last,
                                                                     values_first, values_last, result, comp);
}
template <typename A, typename ForwardIt, typename InputIt, typename OutputIt>
OutputIt upper_bound(const execution_policy<A>& policy, ForwardIt first, ForwardIt last, InputIt values_first,
                     InputIt values_last, OutputIt result)
{
  return upper_bound(policy, first, last, values_first, values_last, result, cuda::std::less<>{});
}

template <typename A, typename ForwardIt, typename InputIt, typename OutputIt, typename StrictWeakOrdering>
OutputIt binary_search(const execution_policy<A>& policy, ForwardIt first, ForwardIt last, InputIt values_first,
                       InputIt values_last, OutputIt result, StrictWeakOrdering comp)
{
  STRATA_NVTX_RANGE("strata::binary_search");
  return detail::frontend::bounds<detail::find::search::contains>(policy, "strata::binary_search", first, last,
                                                                  values_first, values_last, result, comp);
}
template <typename A, typename ForwardIt, typename InputIt, typename OutputIt>
OutputIt binary_search(const execution_policy<A>& policy, ForwardIt first, ForwardIt last, InputIt values_first,
                       InputIt values_last, OutputIt result)
{
  return binary_search(policy, first, last, values_first, values_last, result, cuda::std::less<>{});
}

STRATA_NAMESPACE_END
