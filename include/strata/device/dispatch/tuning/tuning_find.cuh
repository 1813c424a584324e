// The policies of DeviceFind::FindIf (agent/agent_find.cuh), per architecture. A search reads its items and little
// else, as a reduction does: tiles of about 64 bytes of items a thread, read blocked (as 16-byte vectors from arrays).
#pragma once

#include <strata/agent/agent_find.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace find
{
template <typename InputT>
struct policy_hub
{
  static constexpr int ITEM_SIZE = static_cast<int>(sizeof(InputT));

  // Every architecture until tuned: 256 threads, about 64 bytes of items each (at most 16 items).
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using FindPolicy = AgentFindPolicy<256, items_for_bytes(64, ITEM_SIZE, 16), BLOCK_LOAD_DIRECT, LOAD_DEFAULT>;
  };

  using MaxPolicy = Policy600;
};
} // namespace find
} // namespace detail
STRATA_NAMESPACE_END
