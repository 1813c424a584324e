// The policies of DeviceSegmentedSort and DeviceSegmentedRadixSort (agent/agent_segmented_sort.cuh), per
// architecture.
#pragma once

#include <strata/agent/agent_segmented_sort.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_sort
{
template <typename KeyT, typename ValueT>
struct policy_hub
{
  // Bytes of a key and its value: the items a thread holds shrink as they grow.
  static constexpr int ITEM_BYTES =
    static_cast<int>(sizeof(KeyT))
    + (cuda::std::is_same<ValueT, NullType>::value ? 0 : static_cast<int>(sizeof(ValueT)));
  static constexpr int TINY_MAX     = ITEM_BYTES <= 8 ? 16 : 8;
  static constexpr int SMALL_ITEMS  = ITEM_BYTES <= 8 ? 8 : 4;
  static constexpr int MEDIUM_ITEMS = ITEM_BYTES <= 8 ? 16 : 8;
  static constexpr int HUGE_ITEMS   = ITEM_BYTES <= 8 ? 16 : 8;

  // Every architecture (untuned): 256 threads; tiny segments of up to 16 (8) keys on a thread, small up to 256 (128)
  // on a warp, medium up to 4096 (2048) on a block; large ones up to four huge tiles on a block, in 8-bit passes over
  // tiles of 256 x 8 keys; huge ones over tiles of 256 x 16 (8) keys.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using SegmentedSortPolicy =
      AgentSegmentedSortPolicy<256, TINY_MAX, SMALL_ITEMS, MEDIUM_ITEMS, 8, 8, 4 * 256 * HUGE_ITEMS, HUGE_ITEMS>;
  };

  using MaxPolicy = Policy600;
};
} // namespace segmented_sort
} // namespace detail
STRATA_NAMESPACE_END
