// The policy a DeviceSelect benchmark in the tuning format (benchmarks/bench/select/*.cu) runs with: with
// TUNE_BASE=1 (the default) the library's own tuning, otherwise `select_tuning_policy_hub`, a hub with a single
// policy built from the TUNE_* values the tuning driver passes. Knobs a variant leaves out take the library's
// defaults. TUNE_LOAD picks how a tile is read: 0 warp-striped reads transposed through shared memory, 1 vectorized
// reads straight into each thread's consecutive items.
#pragma once

#include <strata/device/device_select.cuh>

#include "look_back_tuning_defaults.cuh"

#ifndef TUNE_LOAD_MODIFIER
#  define TUNE_LOAD_MODIFIER 0
#endif

#if !TUNE_BASE
struct select_tuning_policy_hub
{
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using SelectPolicy =
      strata::AgentSelectPolicy<TUNE_THREADS_PER_BLOCK, TUNE_ITEMS_PER_THREAD,
                                TUNE_LOAD == 0 ? strata::BLOCK_LOAD_WARP_TRANSPOSE : strata::BLOCK_LOAD_VECTORIZE,
                                TUNE_LOAD_MODIFIER == 0 ? strata::LOAD_DEFAULT : strata::LOAD_PLAIN,
                                strata::BLOCK_SCAN_WARP_SCANS, TUNE_DELAY_NS, TUNE_MAX_DELAY_NS, TUNE_PREFETCH_QUARTERS,
                                TUNE_PERSISTENT != 0, TUNE_MIN_BLOCKS>;
  };
  using MaxPolicy = Policy;
};
#endif
