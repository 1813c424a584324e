// Frontend merges over DeviceMerge: Thrust's merge and merge_by_key.
//
//   strata::merge(strata::par.on(stream), a.begin(), a.end(), b.begin(), b.end(), out.begin());
//   strata::merge_by_key(strata::par.on(stream), ka.begin(), ka.end(), kb.begin(), kb.end(), va.begin(), vb.begin(),
//                        keys_out.begin(), values_out.begin(), cuda::std::greater<>{});
//
// Both ranges sorted by comp (default less); the output holds their items in order, the first range's first among
// equal keys (stable), each value moving with its key. Keys are compared and moved as the first range's value type.
// They return the end of the output (merge_by_key: a thrust::pair of the two ends) and never synchronize (but for an
// output in host-accessible memory, strata/execution/host_value.cuh); no temporary storage. The outputs must not
// overlap the inputs. Errors throw strata::cuda_error naming the algorithm; bad arguments are found before anything
// is launched. thrust::merge and thrust::merge_by_key given strata's policy run these.
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_merge.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/execution/host_value.cuh>
#include <strata/execution/iterators.cuh>
#include <strata/execution/policy.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/cuda_error.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/iterator>

#include <thrust/pair.h>

STRATA_NAMESPACE_BEGIN

template <typename A, typename D, typename InputIt1, typename InputIt2, typename OutputIt, typename StrictWeakOrdering>
OutputIt merge(const execution_policy<A, D>& policy, InputIt1 first1, InputIt1 last1, InputIt2 first2, InputIt2 last2,
               OutputIt result, StrictWeakOrdering comp)
{
  STRATA_NVTX_RANGE("strata::merge");
  const auto n1 = static_cast<cuda::std::int64_t>(cuda::std::distance(first1, last1));
  const auto n2 = static_cast<cuda::std::int64_t>(cuda::std::distance(first2, last2));
  detail::throw_on_error(detail::run_single_phase(policy,
                                                  [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
                                                    return DeviceMerge::MergeKeys(d_temp, bytes, detail::unwrap(first1),
                                                                                  n1, detail::unwrap(first2), n2,
                                                                                  detail::unwrap(result), comp, stream);
                                                  }),
                         "strata::merge");
  detail::finish_for_host(policy, "strata::merge", result);
  return result + (n1 + n2);
}

template <typename A, typename D, typename InputIt1, typename InputIt2, typename OutputIt>
OutputIt merge(const execution_policy<A, D>& policy, InputIt1 first1, InputIt1 last1, InputIt2 first2, InputIt2 last2,
               OutputIt result)
{
  return merge(policy, first1, last1, first2, last2, result, cuda::std::less<>{});
}

template <typename A, typename D, typename KeyIt1, typename KeyIt2, typename ValueIt1, typename ValueIt2,
          typename KeyOutputIt, typename ValueOutputIt, typename StrictWeakOrdering>
thrust::pair<KeyOutputIt, ValueOutputIt>
merge_by_key(const execution_policy<A, D>& policy, KeyIt1 keys_first1, KeyIt1 keys_last1, KeyIt2 keys_first2,
             KeyIt2 keys_last2, ValueIt1 values_first1, ValueIt2 values_first2, KeyOutputIt keys_result,
             ValueOutputIt values_result, StrictWeakOrdering comp)
{
  STRATA_NVTX_RANGE("strata::merge_by_key");
  const auto n1 = static_cast<cuda::std::int64_t>(cuda::std::distance(keys_first1, keys_last1));
  const auto n2 = static_cast<cuda::std::int64_t>(cuda::std::distance(keys_first2, keys_last2));
  detail::throw_on_error(detail::run_single_phase(policy,
                                                  [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
                                                    return DeviceMerge::MergePairs(
                                                      d_temp, bytes, detail::unwrap(keys_first1),
                                                      detail::unwrap(values_first1), n1, detail::unwrap(keys_first2),
                                                      detail::unwrap(values_first2), n2, detail::unwrap(keys_result),
                                                      detail::unwrap(values_result), comp, stream);
                                                  }),
                         "strata::merge_by_key");
  detail::finish_for_host(policy, "strata::merge_by_key", keys_result, values_result);
  return thrust::pair<KeyOutputIt, ValueOutputIt>(keys_result + (n1 + n2), values_result + (n1 + n2));
}

template <typename A, typename D, typename KeyIt1, typename KeyIt2, typename ValueIt1, typename ValueIt2,
          typename KeyOutputIt, typename ValueOutputIt>
thrust::pair<KeyOutputIt, ValueOutputIt> merge_by_key(const execution_policy<A, D>& policy, KeyIt1 keys_first1,
                                                      KeyIt1 keys_last1, KeyIt2 keys_first2, KeyIt2 keys_last2,
                                                      ValueIt1 values_first1, ValueIt2 values_first2,
                                                      KeyOutputIt keys_result, ValueOutputIt values_result)
{
  return merge_by_key(policy, keys_first1, keys_last1, keys_first2, keys_last2, values_first1, values_first2,
                      keys_result, values_result, cuda::std::less<>{});
}

STRATA_NAMESPACE_END
