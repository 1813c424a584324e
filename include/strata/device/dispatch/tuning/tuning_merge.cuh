// The policies of DeviceMerge (AgentMergeRanges, agent/agent_merge_sort.cuh), per architecture: until tuned, the tile
// of DeviceMergeSort's merge passes for the same keys and values, which do the same work on runs of one array.
#pragma once

#include <strata/agent/agent_merge_sort.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_merge_sort.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace merge
{
// ValueT: NullType for keys only.
template <typename KeyT, typename ValueT>
struct policy_hub
{
  using sort_hub = merge_sort::policy_hub<KeyT, ValueT>;

  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using MergePolicy = typename sort_hub::Policy600::MergeSortPolicy;
  };

  struct Policy900 : ChainedPolicy<900, Policy900, Policy600>
  {
    using MergePolicy = typename sort_hub::Policy900::MergeSortPolicy;
  };

  using MaxPolicy = Policy900;
};
} // namespace merge
} // namespace detail
STRATA_NAMESPACE_END
