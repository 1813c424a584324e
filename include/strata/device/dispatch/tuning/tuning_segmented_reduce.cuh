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

  // Every architecture: 256 threads of 8 merged steps each and up to 1024 segment ends a sub-tile, registers bounded
  // for 2 blocks per SM (the walk spills at 4); runs of at least 2048 items of one segment read as DeviceReduce reads
  // them (64 bytes of input per thread per tile).
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using ReducePolicy =
      AgentReducePolicy<256, reduce::items_for_bytes(64, INPUT_SIZE), BLOCK_REDUCE_WARP_REDUCTIONS, LOAD_LDG>;
    using SegmentedReducePolicy = AgentSegmentedReducePolicy<256, 8, 1024, 2048, 2, ReducePolicy>;
  };

  using MaxPolicy = Policy600;
};
} // namespace segmented_reduce
} // namespace detail
STRATA_NAMESPACE_END
