// The policy a DeviceMergeSort benchmark in the tuning format (benchmarks/bench/merge_sort/*.cu) runs with: with
// TUNE_BASE=1 (the default) the library's own tuning (tuning_merge_sort.cuh), otherwise `merge_sort_tuning_policy_hub`,
// a hub with a single policy built from the TUNE_* values the tuning driver passes. Knobs a point leaves out take the
// library's defaults. TUNE_LOAD: 0 warp-striped reads transposed through shared memory, 1 direct reads of each
// thread's consecutive items; TUNE_STORE likewise for the writes.
#pragma once

#include <strata/device/device_merge_sort.cuh>

#include <cuda/std/functional>

#include <cstdint>

#ifndef TUNE_BASE
#  define TUNE_BASE 1
#endif
#ifndef TUNE_LOAD
#  define TUNE_LOAD 0
#endif
#ifndef TUNE_STORE
#  define TUNE_STORE 0
#endif

#if !TUNE_BASE
struct merge_sort_tuning_policy_hub
{
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using MergeSortPolicy =
      strata::AgentMergeSortPolicy<TUNE_THREADS_PER_BLOCK, TUNE_ITEMS_PER_THREAD,
                                   TUNE_LOAD == 0 ? strata::BLOCK_LOAD_WARP_TRANSPOSE : strata::BLOCK_LOAD_DIRECT,
                                   strata::LOAD_PLAIN,
                                   TUNE_STORE == 0 ? strata::BLOCK_STORE_WARP_TRANSPOSE : strata::BLOCK_STORE_DIRECT>;
  };
  using MaxPolicy = Policy;
};

template <typename KeyT, typename ValueT>
using merge_sort_hub_t = merge_sort_tuning_policy_hub;
#else
template <typename KeyT, typename ValueT>
using merge_sort_hub_t = strata::detail::merge_sort::policy_hub<KeyT, ValueT>;
#endif

// The dispatch of DeviceMergeSort::SortPairsCopy (SortKeysCopy with ValueT = NullType) from const inputs, ascending,
// with this file's hub and 32-bit offsets.
template <typename KeyT, typename ValueT>
using merge_sort_dispatch_t = strata::DispatchMergeSort<const KeyT*, const ValueT*, KeyT*, ValueT*, std::uint32_t,
                                                        cuda::std::less<>, merge_sort_hub_t<KeyT, ValueT>>;

// Whether a tile of the sort's kernels fits the 48 KiB of static shared memory a kernel may declare.
template <typename KeyT, typename ValueT>
constexpr bool merge_sort_fits_shared_memory()
{
  using Policy = typename merge_sort_hub_t<KeyT, ValueT>::MaxPolicy::MergeSortPolicy;
  using Sort   = strata::AgentBlockSort<Policy, const KeyT*, const ValueT*, KeyT*, ValueT*, std::uint32_t,
                                      cuda::std::less<>, KeyT, ValueT>;
  using Merge =
    strata::AgentMerge<Policy, KeyT*, ValueT*, KeyT*, ValueT*, std::uint32_t, cuda::std::less<>, KeyT, ValueT>;
  return sizeof(typename Sort::TempStorage) <= 48 * 1024 && sizeof(typename Merge::TempStorage) <= 48 * 1024;
}
