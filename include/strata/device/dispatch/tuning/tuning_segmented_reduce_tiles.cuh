// The policies of the segmented reduce of back-to-back segments (agent/agent_segmented_reduce_tiles.cuh), per
// architecture.
#pragma once

#include <strata/agent/agent_segmented_reduce_tiles.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_reduce_tiles
{
template <typename InputT, typename AccumT>
struct policy_hub
{
  // A tile's items pass through shared memory as inputs (the load's transpose); the running values of the items that
  // end segments as accumulators.
  static constexpr int ITEM_SIZE = static_cast<int>(sizeof(InputT) > sizeof(AccumT) ? sizeof(InputT) : sizeof(AccumT));

  // Every architecture (untuned): 256 threads, about 64 bytes of items a thread (16 int32), registers bounded for
  // 2 blocks per SM.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using SegmentedReduceTilesPolicy =
      AgentSegmentedReduceTilesPolicy<256, detail::items_for_bytes(64, ITEM_SIZE, 16), BLOCK_SCAN_WARP_SCANS, 2>;
  };

  using MaxPolicy = Policy600;
};
} // namespace segmented_reduce_tiles
} // namespace detail
STRATA_NAMESPACE_END
