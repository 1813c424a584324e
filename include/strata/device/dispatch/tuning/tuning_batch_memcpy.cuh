// The policies of DeviceMemcpy::Batched and DeviceCopy::Batched (agent/agent_batch_memcpy.cuh), per architecture.
// A batched copy moves every byte once and computes almost nothing: what matters is how many bytes are in flight
// per SM (the warps resident, times GRANULES_PER_THREAD 16-byte granules per lane and round) and that shares stay
// even (BUFFER_COST, a buffer's cost beyond its granules). The copy kernel needs about 96 registers for 4 granules per
// lane and 114 for 8 (ptxas, sm_90): bounded to 64, it spills.
#pragma once

#include <strata/agent/agent_batch_memcpy.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace batch_memcpy
{
// ITEM_SIZE: 0 for a copy of bytes (DeviceMemcpy, and DeviceCopy between arrays of one trivially copyable type);
// otherwise the size of the items an element-wise copy assigns, of which a granule holds about 16 bytes.
template <int ITEM_SIZE>
struct policy_hub
{
  static constexpr int GRANULE_ITEMS = ITEM_SIZE == 0 ? 1 : items_for_bytes(16, ITEM_SIZE, 4);

  // Until sm_90: 256 threads, 4 granules in flight per lane, registers bounded for 2 blocks per SM. Untuned.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using BatchMemcpyPolicy = AgentBatchMemcpyPolicy<256, 4, 2, 2, 8, GRANULE_ITEMS, 2>;
  };

  // sm_90: 256 threads, registers bounded for 2 blocks per SM (16 warps); 8 granules in flight per lane, 64 KiB of
  // loads per SM, 2 at a time where sources and destinations disagree modulo 16. Untuned.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy600>
  {
    using BatchMemcpyPolicy = AgentBatchMemcpyPolicy<256, 8, 2, 2, 8, GRANULE_ITEMS, 2>;
  };

  using MaxPolicy = Policy900;
};
} // namespace batch_memcpy
} // namespace detail
STRATA_NAMESPACE_END
