// Tunings of DeviceRadixSort, per architecture, chosen by the compile-time workload: the sizes of the key and of
// the value (the larger one sets how many items of a tile fit the registers and the shared-memory exchange).
#pragma once

#include <strata/agent/agent_radix_sort_histogram.cuh>
#include <strata/agent/agent_radix_sort_onesweep.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace radix_sort
{
// The size that bounds a tile: the larger of key and value (keys only: the key).
template <typename KeyT, typename ValueT>
constexpr int dominant_size()
{
  return cuda::std::is_same<ValueT, NullType>::value || sizeof(ValueT) <= sizeof(KeyT) ? static_cast<int>(sizeof(KeyT))
                                                                                       : static_cast<int>(sizeof(ValueT));
}

// sm_90 (H100, H200): 384 threads, tiles of 24 KiB of the dominant type at most, 8-bit digits.
template <int DOMINANT_SIZE, bool KEYS_ONLY>
struct sm90_tuning
{
  static constexpr int threads = 384;
  static constexpr int items   = DOMINANT_SIZE <= 2 ? 20 : (DOMINANT_SIZE <= 4 ? 16 : 8);
  static constexpr int blocks_per_sm = 2;
};

template <typename KeyT, typename ValueT, typename OffsetT>
struct policy_hub
{
  static constexpr int DOMINANT_SIZE = dominant_size<KeyT, ValueT>();
  static constexpr bool KEYS_ONLY    = cuda::std::is_same<ValueT, NullType>::value;

  // Pascal and Volta: 256 threads, 8-bit digits.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using OnesweepPolicy   = AgentRadixSortOnesweepPolicy<256, DOMINANT_SIZE <= 4 ? 16 : 8, 8>;
    using HistogramPolicy  = AgentRadixSortHistogramPolicy<256, 8>;
    using SingleTilePolicy = AgentRadixSortOnesweepPolicy<256, DOMINANT_SIZE <= 4 ? 8 : 4, 8>;
  };

  // Ampere: as Pascal, with the sm_90 tile.
  struct Policy800 : ChainedPolicy<800, Policy800, Policy600>
  {
    using OnesweepPolicy   = AgentRadixSortOnesweepPolicy<384, sm90_tuning<DOMINANT_SIZE, KEYS_ONLY>::items, 8>;
    using HistogramPolicy  = AgentRadixSortHistogramPolicy<256, 8>;
    using SingleTilePolicy = AgentRadixSortOnesweepPolicy<512, DOMINANT_SIZE <= 4 ? 8 : 4, 8>;
  };

  struct Policy900 : ChainedPolicy<900, Policy900, Policy800>
  {
    using tuning           = sm90_tuning<DOMINANT_SIZE, KEYS_ONLY>;
    using OnesweepPolicy   = AgentRadixSortOnesweepPolicy<tuning::threads, tuning::items, 8, tuning::blocks_per_sm>;
    using HistogramPolicy  = AgentRadixSortHistogramPolicy<256, 8>;
    using SingleTilePolicy = AgentRadixSortOnesweepPolicy<512, DOMINANT_SIZE <= 4 ? 8 : 4, 8>;
  };

  using MaxPolicy = Policy900;
};
} // namespace radix_sort
} // namespace detail
STRATA_NAMESPACE_END
