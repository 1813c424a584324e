// The policy a DeviceSelect benchmark in the tuning format (benchmarks/bench/select/*.cu) runs with: with
// TUNE_BASE=1 (the default) the library's own tuning, otherwise `select_tuning_policy_hub`, a hub with a single
// policy built from the TUNE_* values the tuning driver passes. Knobs a variant leaves out take the library's
// defaults. TUNE_LOAD picks how a tile is read: 0 warp-striped reads transposed through shared memory, 1 vectorized
// reads straight into each thread's consecutive items. TUNE_BULK=1 adds a BulkSelectPolicy (agent/agent_select_bulk.cuh)
// of the same threads and look-back and prefetch knobs, TUNE_BULK_ITEMS items per thread, TUNE_BULK_MIN_BLOCKS blocks
// per SM and TUNE_BULK_MIN_TILES tiles per SM below which the register agent runs. TUNE_PREFETCH_VALUES=1 (UniqueByKey)
// asks L2 for each tile's values as the tile starts.
#pragma once

#include <strata/device/device_select.cuh>

#include "look_back_tuning_defaults.cuh"

#include <type_traits>

#ifndef TUNE_LOAD_MODIFIER
#  define TUNE_LOAD_MODIFIER 0
#endif
#ifndef TUNE_BULK
#  define TUNE_BULK 0
#endif
#ifndef TUNE_PREFETCH_VALUES
#  define TUNE_PREFETCH_VALUES 0
#endif
#ifndef TUNE_BULK_ITEMS
#  define TUNE_BULK_ITEMS 16
#endif
#ifndef TUNE_BULK_MIN_BLOCKS
#  define TUNE_BULK_MIN_BLOCKS 1
#endif
#ifndef TUNE_BULK_MIN_TILES
#  define TUNE_BULK_MIN_TILES 2
#endif

#if !TUNE_BASE
struct select_tuning_policy_hub
{
  struct no_bulk
  {};
  struct bulk
  {
    using BulkSelectPolicy =
      strata::AgentSelectBulkPolicy<TUNE_THREADS_PER_BLOCK, TUNE_BULK_ITEMS, TUNE_DELAY_NS, TUNE_MAX_DELAY_NS,
                                    TUNE_PREFETCH_QUARTERS, TUNE_BULK_MIN_BLOCKS, TUNE_BULK_MIN_TILES>;
  };
  struct Policy
      : strata::ChainedPolicy<300, Policy, Policy>
      , std::conditional_t<TUNE_BULK != 0, bulk, no_bulk>
  {
    using SelectPolicy =
      strata::AgentSelectPolicy<TUNE_THREADS_PER_BLOCK, TUNE_ITEMS_PER_THREAD,
                                TUNE_LOAD == 0 ? strata::BLOCK_LOAD_WARP_TRANSPOSE : strata::BLOCK_LOAD_VECTORIZE,
                                TUNE_LOAD_MODIFIER == 0 ? strata::LOAD_DEFAULT : strata::LOAD_PLAIN,
                                strata::BLOCK_SCAN_WARP_SCANS, TUNE_DELAY_NS, TUNE_MAX_DELAY_NS, TUNE_PREFETCH_QUARTERS,
                                TUNE_PERSISTENT != 0, TUNE_MIN_BLOCKS, TUNE_PREFETCH_VALUES != 0>;
  };
  using MaxPolicy = Policy;
};
#endif
