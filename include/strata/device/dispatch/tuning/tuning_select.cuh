// The policies of DeviceSelect and DevicePartition (agent/agent_select.cuh), per architecture.
#pragma once

#include <strata/agent/agent_select.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace select
{
// T: the items' value type.
template <typename T>
struct policy_hub
{
  static constexpr int ITEM_SIZE = static_cast<int>(sizeof(T));

  // Before Hopper: 128 threads, about 40 bytes of items each.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using SelectPolicy = AgentSelectPolicy<128, items_for_bytes(40, ITEM_SIZE, 10), BLOCK_LOAD_WARP_TRANSPOSE,
                                           LOAD_DEFAULT, BLOCK_SCAN_WARP_SCANS, 32, 256, 0>;
  };

  // Hopper: 256 threads, about 64 bytes of items each, a prefetch a wave ahead.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy600>
  {
    using SelectPolicy = AgentSelectPolicy<256, items_for_bytes(64, ITEM_SIZE, 16), BLOCK_LOAD_WARP_TRANSPOSE,
                                           LOAD_DEFAULT, BLOCK_SCAN_WARP_SCANS, 32, 256, 4>;
  };

  using MaxPolicy = Policy900;
};
} // namespace select
} // namespace detail
STRATA_NAMESPACE_END
