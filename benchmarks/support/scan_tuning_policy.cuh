// The policy a DeviceScan benchmark in the tuning format (benchmarks/bench/scan/*.cu) runs with: with
// TUNE_BASE=1 (the default) the library's own tuning, otherwise `scan_tuning_policy_hub`, a hub with a single
// policy built from the TUNE_* values the tuning driver passes. Knobs a variant leaves out take the library's
// defaults.
#pragma once

#include <strata/device/device_scan.cuh>

#include "look_back_tuning_defaults.cuh"

// Tiles of pointer inputs in shared memory (AgentScanBulk) with TUNE_VECTORS 16-byte vectors per thread (odd).
#ifndef TUNE_BULK
#  define TUNE_BULK 0
#endif
#ifndef TUNE_VECTORS
#  define TUNE_VECTORS 9
#endif
// The bulk tiles per SM an input must make to take them.
#ifndef TUNE_MIN_TILES_PER_SM
#  define TUNE_MIN_TILES_PER_SM 1
#endif

#if !TUNE_BASE
struct scan_tuning_policy_hub
{
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using ScanPolicy =
      strata::AgentScanPolicy<TUNE_THREADS_PER_BLOCK, TUNE_ITEMS_PER_THREAD,
                              TUNE_LOAD == 0 ? strata::BLOCK_LOAD_WARP_TRANSPOSE : strata::BLOCK_LOAD_VECTORIZE,
                              strata::LOAD_PLAIN, strata::BLOCK_STORE_WARP_TRANSPOSE, strata::BLOCK_SCAN_WARP_SCANS,
                              TUNE_DELAY_NS, TUNE_MAX_DELAY_NS, TUNE_PREFETCH_QUARTERS, TUNE_PERSISTENT != 0,
                              TUNE_MIN_BLOCKS>;
#  if TUNE_BULK
    using BulkScanPolicy =
      strata::AgentScanBulkPolicy<TUNE_THREADS_PER_BLOCK, TUNE_VECTORS, TUNE_DELAY_NS, TUNE_MAX_DELAY_NS,
                                  TUNE_PREFETCH_QUARTERS, TUNE_MIN_BLOCKS, TUNE_MIN_TILES_PER_SM>;
#  endif
  };
  using MaxPolicy = Policy;
};
#endif
