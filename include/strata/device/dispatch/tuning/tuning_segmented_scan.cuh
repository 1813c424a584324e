// The policies of DeviceSegmentedScan (agent/agent_segmented_scan.cuh), per architecture.
#pragma once

#include <strata/agent/agent_segmented_scan.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_reduce.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_scan
{
template <typename InputT, typename AccumT>
struct policy_hub
{
  static constexpr int INPUT_SIZE = static_cast<int>(sizeof(InputT));
  static constexpr int STEPS =
    reduce::items_for_bytes(64, INPUT_SIZE) < 16 ? reduce::items_for_bytes(64, INPUT_SIZE) : 16;

  // Every architecture (untuned: the segmented reduction's walk): 256 threads, each warp's sub-tiles 32 x 16 items
  // (at most 64 bytes a lane) and up to 128 segment ends, registers bounded for 2 blocks per SM.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using SegmentedScanPolicy = AgentSegmentedScanPolicy<256, STEPS, 128, 2>;
  };

  using MaxPolicy = Policy600;
};
} // namespace segmented_scan
} // namespace detail
STRATA_NAMESPACE_END
