// The policies of DeviceAdjacentDifference (agent/agent_adjacent_difference.cuh), per architecture. A difference
// reads and writes every item once, so the tile is sized by bytes: about 64 bytes of items a thread, read and written
// coalesced through shared memory (warp-transposed).
#pragma once

#include <strata/agent/agent_adjacent_difference.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace adjacent_difference
{
// InputT: the input's value type; OutputT: the output's.
template <typename InputT, typename OutputT>
struct policy_hub
{
  static constexpr int ITEM_SIZE =
    static_cast<int>(sizeof(InputT) > sizeof(OutputT) ? sizeof(InputT) : sizeof(OutputT));

  // Every architecture until tuned: 256 threads, about 64 bytes of items each (at most 16 items).
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using AdjacentDifferencePolicy =
      AgentAdjacentDifferencePolicy<256, items_for_bytes(64, ITEM_SIZE, 16), BLOCK_LOAD_WARP_TRANSPOSE, LOAD_DEFAULT,
                                    BLOCK_STORE_WARP_TRANSPOSE>;
  };

  using MaxPolicy = Policy600;
};
} // namespace adjacent_difference
} // namespace detail
STRATA_NAMESPACE_END
