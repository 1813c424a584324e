// The policies of DeviceSelect and DevicePartition (agent/agent_select.cuh), per architecture.
#pragma once

#include <strata/agent/agent_select.cuh>
#include <strata/agent/agent_select_bulk.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace select
{
// What a selection writes besides the selected items, which changes what its tile should be.
enum class workload
{
  select,    // the selected items only (DeviceSelect::If, Flagged, Unique; run starts)
  partition, // every item: the rejected ones too (DevicePartition)
  by_key,    // the selected keys and their values, read after the keys' look-back (DeviceSelect::UniqueByKey)
};

// A BulkSelectPolicy (agent/agent_select_bulk.cuh) where BULK: for 4-byte items selected by a predicate or as Unique,
// 256 threads of 24 items (7 worker warps), 4 blocks per SM, from 2 tiles per SM on. Select::If of int32 at 2^28
// (bench/select/if.cu, H200): 1.07x the register agent's speed at 1% selected, 1.03x at 50%; 8-byte items gained
// nothing.
template <bool BULK>
struct sm90_bulk_select
{};
template <>
struct sm90_bulk_select<true>
{
  using BulkSelectPolicy = AgentSelectBulkPolicy<256, 24, 32, 256, 4, 4, 2>;
};

// T: the items' value type (UniqueByKey: the wider of the keys and the values).
template <typename T, workload WORKLOAD = workload::select>
struct policy_hub
{
  static constexpr int ITEM_SIZE = static_cast<int>(sizeof(T));

  // Before Hopper: 128 threads, about 40 bytes of items each.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using SelectPolicy = AgentSelectPolicy<128, items_for_bytes(40, ITEM_SIZE, 10), BLOCK_LOAD_WARP_TRANSPOSE,
                                           LOAD_DEFAULT, BLOCK_SCAN_WARP_SCANS, 32, 256, 0>;
  };

  // Hopper: 256 threads, 96 bytes of items each (128 for 8-byte items), plain loads, a prefetch a wave ahead, and
  // registers bounded for 4 blocks per SM. Against 64 bytes each, LOAD_DEFAULT and no bound, select_if at 2^28
  // (bench/select/if.cu, H200): int32 1.40x as fast at 1% selected, 1.28x at 50%; int64 1.55x and 1.56x; at 2^20
  // 0.97-1.06x. A partition of 8-byte items (it writes every item) takes 80 bytes each: at 2^24 and 2^28 (int64, 50%
  // selected, H200) 1.12x and 1.10x as fast as at 64 bytes, 1.02-1.04x as at 72 or 88, 1.08-1.10x as at 96, and
  // 1.02-1.05x as fast as 384 threads of 80 or 88 bytes with 2 blocks per SM. UniqueByKey (two streams in, two out)
  // does not prefetch: at 2^28 int64 keys and values, 1.17x as fast as with the prefetch (H200).
  struct Policy900
      : ChainedPolicy<900, Policy900, Policy600>
      , sm90_bulk_select<ITEM_SIZE == 4 && WORKLOAD == workload::select>
  {
    static constexpr int ITEMS =
      ITEM_SIZE >= 8
        ? (WORKLOAD == workload::partition ? items_for_bytes(80, ITEM_SIZE, 10) : items_for_bytes(128, ITEM_SIZE, 16))
        : items_for_bytes(96, ITEM_SIZE, 24);
    static constexpr int PREFETCH_QUARTER_WAVES = WORKLOAD == workload::by_key ? 0 : 4;
    using SelectPolicy = AgentSelectPolicy<256, ITEMS, BLOCK_LOAD_WARP_TRANSPOSE, LOAD_PLAIN, BLOCK_SCAN_WARP_SCANS, 32,
                                           256, PREFETCH_QUARTER_WAVES, true, 4>;
  };

  using MaxPolicy = Policy900;
};
} // namespace select
} // namespace detail
STRATA_NAMESPACE_END
