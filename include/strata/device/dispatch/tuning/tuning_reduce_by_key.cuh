// The policies of DeviceReduce::ReduceByKey (agent/agent_reduce_by_key.cuh), per architecture: AgentScanPolicy's knobs,
// with the tile sized by a key and an accumulator together (both are loaded into registers and pass through the tile's
// shared memory, and the runs' keys and values are compacted there).
#pragma once

#include <strata/agent/agent_scan.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace reduce_by_key
{
template <typename KeyT, typename AccumT>
struct policy_hub
{
  static constexpr int PAIR_SIZE = static_cast<int>(sizeof(KeyT) + sizeof(AccumT));

  // Before Hopper: 128 threads, about 64 bytes of keys and values each.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using ScanPolicy = AgentScanPolicy<128, items_for_bytes(64, PAIR_SIZE, 12), BLOCK_LOAD_WARP_TRANSPOSE, LOAD_DEFAULT,
                                       BLOCK_STORE_WARP_TRANSPOSE, BLOCK_SCAN_WARP_SCANS, 32, 256, 0>;
  };

  // Hopper: 256 threads for pairs of up to 8 bytes, about 256 bytes of keys and values each (at most 18 pairs); 128
  // for wider ones, about 368 bytes each (at most 23 pairs: the tile's shared memory is dynamic, past 48 KiB); a
  // prefetch a wave ahead, registers bounded for 3 blocks per SM. Loads are LOAD_PLAIN: the kernel is bound by the
  // instructions it issues (about 1.6 per item for int32 pairs), and LOAD_DEFAULT's favouring of the tile in L2
  // (block_load_transpose.cuh) adds about 60 per warp and tile.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy600>
  {
    using ScanPolicy =
      AgentScanPolicy<PAIR_SIZE <= 8 ? 256 : 128,
                      PAIR_SIZE <= 8 ? items_for_bytes(256, PAIR_SIZE, 18) : items_for_bytes(368, PAIR_SIZE, 23),
                      BLOCK_LOAD_WARP_TRANSPOSE, LOAD_PLAIN, BLOCK_STORE_WARP_TRANSPOSE, BLOCK_SCAN_WARP_SCANS, 32, 256,
                      4, true, 3>;
  };

  using MaxPolicy = Policy900;
};
} // namespace reduce_by_key
} // namespace detail
STRATA_NAMESPACE_END
