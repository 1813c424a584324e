// The policies of DeviceHistogram (agent/agent_histogram.cuh), per architecture. A histogram reads every sample once
// and writes only its counters, so a block is sized for bytes in flight (16-byte vectors, several per thread) and
// for its shared atomics: 32 copies of the counters, one per lane, keep a warp's atomics out of each other's banks.
#pragma once

#include <strata/agent/agent_histogram.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace histogram
{
// SampleT: the samples' type; NUM_CHANNELS samples make a pixel, of which NUM_ACTIVE_CHANNELS are counted.
template <typename SampleT, int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS>
struct policy_hub
{
  // Every architecture until sm_90: 256 threads of four vectors each, four blocks per SM.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using HistogramPolicy = AgentHistogramPolicy<256, 4, LOAD_LDG, 32, 48 * 1024, 4, 4>;
  };

  // sm_90: 512 threads of four vectors each (64 KiB in flight per SM), two blocks per SM. The counters stay within
  // the 48 KiB a launch takes without opting in, which leaves the split of the SM's memory between shared memory and
  // L1 to the driver: 32 copies of 256 bins (8-bit samples) take 32 KiB, 1024 bins get 8 copies.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy600>
  {
    using HistogramPolicy = AgentHistogramPolicy<512, 4, LOAD_LDG, 32, 48 * 1024, 4, 2>;
  };

  using MaxPolicy = Policy900;
};
} // namespace histogram
} // namespace detail
STRATA_NAMESPACE_END
