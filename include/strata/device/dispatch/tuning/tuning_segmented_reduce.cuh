// The policies of DeviceSegmentedReduce (agent/agent_segmented_reduce.cuh), per architecture.
#pragma once

#include <strata/agent/agent_segmented_reduce.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_reduce.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_reduce
{
template <typename InputT, typename AccumT>
struct policy_hub
{
  static constexpr int INPUT_SIZE = static_cast<int>(sizeof(InputT));
  static constexpr int STEPS =
    reduce::items_for_bytes(64, INPUT_SIZE) < 16 ? reduce::items_for_bytes(64, INPUT_SIZE) : 16;

  // Every architecture: 256 threads, each warp's sub-tiles 32 x 16 items (at most 64 bytes a lane) and up to 128
  // segment ends, registers bounded for 2 blocks per SM; runs of at least 256 items of one segment read in vectors.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using SegmentedReducePolicy = AgentSegmentedReducePolicy<256, STEPS, 128, 256, 2>;
  };

  using MaxPolicy = Policy600;
};
} // namespace segmented_reduce
} // namespace detail
STRATA_NAMESPACE_END
