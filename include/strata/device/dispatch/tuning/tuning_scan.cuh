// Tunings of DeviceScan, per architecture, chosen by the compile-time workload: the accumulator's size (which
// sets the registers per item and the tile-state word) and the operator kind.
#pragma once

#include <strata/agent/agent_scan.cuh>
#include <strata/agent/agent_scan_bulk.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/thread/thread_operators.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace scan
{

// Items per thread that make about `bytes` bytes of accumulators per thread, between 1 and `most`.
constexpr int items_for_bytes(int bytes, int accum_size, int most)
{
  return bytes / accum_size < 1 ? 1 : (bytes / accum_size > most ? most : bytes / accum_size);
}

// The sm_90 knobs: 256 threads, ITEMS items per thread, L2 prefetch PREFETCH_QUARTER quarters of a wave ahead,
// a `__launch_bounds__` minimum of MIN_BLOCKS blocks per SM; and for arrays that take the bulk path (tiles in
// shared memory), BULK_VECTORS 16-byte vectors per thread (0: no bulk path), for inputs of BULK_MIN_TILES_PER_SM
// bulk tiles per SM or more.
template <int ITEMS, int PREFETCH_QUARTER, int MIN_BLOCKS, int BULK_VECTORS = 0, int BULK_MIN_TILES_PER_SM = 1>
struct sm90_knobs
{
  static constexpr int threads          = 256;
  static constexpr int items            = ITEMS;
  static constexpr int prefetch_quarter = PREFETCH_QUARTER;
  static constexpr int min_blocks       = MIN_BLOCKS;
  static constexpr int bulk_vectors     = BULK_VECTORS;
  static constexpr int bulk_min_tiles   = BULK_MIN_TILES_PER_SM;
};

// Gives a policy its BulkScanPolicy where its tuning has one: bulk tiles prefetch a quarter wave ahead.
template <typename TuningT, bool = (TuningT::bulk_vectors > 0)>
struct sm90_bulk_policy
{};
template <typename TuningT>
struct sm90_bulk_policy<TuningT, true>
{
  using BulkScanPolicy =
    AgentScanBulkPolicy<TuningT::threads, TuningT::bulk_vectors, 32, 256, 1, 1, TuningT::bulk_min_tiles>;
};

// sm_90, measured on an H200 and an H100 at 2^20, 2^24 and 2^28 items (scripts/tune.py over benchmarks/bench/scan;
// docs/tuning.md). All use 256 threads, warp-transposed loads and stores, warp-scans, persistent blocks, and a
// prefetch into L2 a quarter or half a wave ahead of the blocks: farther ahead costs the H100 (3.35 TB/s) up to
// 20% and gains the H200 (4.8 TB/s) nothing. The default (user operators, and the pairs of the by-key scans):
// about 128 bytes of accumulators per thread (by key, int32 keys and values at 2^28: 16 items take 0.47 of the
// time of 12).
template <typename AccumT, op_kind OP, int ACCUM_SIZE = static_cast<int>(sizeof(AccumT)), typename Enable = void>
struct sm90_tuning
    : sm90_knobs<items_for_bytes(128, ACCUM_SIZE, 16), 1, 1>
{};

// 4-byte integers under standard operators: 20 items, registers held to six blocks per SM (40 registers, four
// blocks at 64 otherwise): 5-6% faster at 2^28 on both GPUs, 1.5% (H100) and 6% (H200) at 2^24. Arrays of at
// least 20 bulk tiles per SM (four waves) take 36 KiB bulk tiles (256 threads x 9 vectors, five blocks per SM):
// 9% faster than registers at 2^28 on an H200, but 0-6% slower at 2^24 (14 tiles per SM), which stays in
// registers.
template <typename AccumT, op_kind OP>
struct sm90_tuning<AccumT,
                   OP,
                   4,
                   cuda::std::enable_if_t<OP != op_kind::other && cuda::std::is_integral<AccumT>::value>>
    : sm90_knobs<20, 1, 6, 9, 20>
{};

// 4-byte floating point (the look-back folds in order): 24 items; arrays of at least five bulk tiles per SM (one
// wave) take 36 KiB bulk tiles (five blocks per SM): 7% faster at 2^24 on an H200 than registers, 9% at 2^28.
template <typename AccumT, op_kind OP>
struct sm90_tuning<AccumT,
                   OP,
                   4,
                   cuda::std::enable_if_t<OP != op_kind::other && !cuda::std::is_integral<AccumT>::value>>
    : sm90_knobs<24, 2, 1, 9, 5>
{};

// 8-byte integers under standard operators: 20 items, registers held to four blocks per SM (64 registers, three
// blocks at 80 otherwise, 8 bytes spilled): 2-5% faster at 2^24 and 2^28 on both GPUs. Arrays of at least four
// bulk tiles per SM (one wave) take 44 KiB bulk tiles (256 threads x 11 vectors, four blocks per SM): 1-2% faster
// on an H200 at 2^24 and 2^28.
template <typename AccumT, op_kind OP>
struct sm90_tuning<AccumT,
                   OP,
                   8,
                   cuda::std::enable_if_t<OP != op_kind::other && cuda::std::is_integral<AccumT>::value>>
    : sm90_knobs<20, 1, 4, 11, 4>
{};

// 8-byte floating point: 20 items, a launch bound of two blocks per SM, under which ptxas fits 79 registers
// instead of 88: three blocks of 256 threads per SM instead of two (6-11% faster on both GPUs). Bulk tiles as
// for 8-byte integers, 1-3% faster on an H200 at 2^24 and 2^28, from one per SM: at 2^20 (1.4 per SM, where
// registers leave SMs idle too) 5-8% faster than registers, at 2^16 (0.1 per SM) 5-13% slower.
template <typename AccumT, op_kind OP>
struct sm90_tuning<AccumT,
                   OP,
                   8,
                   cuda::std::enable_if_t<OP != op_kind::other && !cuda::std::is_integral<AccumT>::value>>
    : sm90_knobs<20, 2, 2, 11, 1>
{};

template <typename AccumT, typename ScanOpT>
struct policy_hub
{
  static constexpr int ACCUM_SIZE = static_cast<int>(sizeof(AccumT));

  // Pascal and Volta: 128 threads, 12 four-byte items, raking scans.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using ScanPolicy = AgentScanPolicy<128,
                                       items_for_bytes(48, ACCUM_SIZE, 12),
                                       BLOCK_LOAD_WARP_TRANSPOSE,
                                       LOAD_PLAIN,
                                       BLOCK_STORE_WARP_TRANSPOSE,
                                       BLOCK_SCAN_RAKING>;
  };

  struct Policy700 : ChainedPolicy<700, Policy700, Policy600>
  {
    using ScanPolicy = typename Policy600::ScanPolicy;
  };

  // Ampere: warp-scans, 16 four-byte items.
  struct Policy800 : ChainedPolicy<800, Policy800, Policy700>
  {
    using ScanPolicy = AgentScanPolicy<128,
                                       items_for_bytes(64, ACCUM_SIZE, 16),
                                       BLOCK_LOAD_WARP_TRANSPOSE,
                                       LOAD_PLAIN,
                                       BLOCK_STORE_WARP_TRANSPOSE,
                                       BLOCK_SCAN_WARP_SCANS>;
  };

  struct Policy900
      : ChainedPolicy<900, Policy900, Policy800>
      , sm90_bulk_policy<sm90_tuning<AccumT, op_kind_v<ScanOpT>>>
  {
    using tuning     = sm90_tuning<AccumT, op_kind_v<ScanOpT>>;
    using ScanPolicy = AgentScanPolicy<tuning::threads,
                                       tuning::items,
                                       BLOCK_LOAD_WARP_TRANSPOSE,
                                       LOAD_PLAIN,
                                       BLOCK_STORE_WARP_TRANSPOSE,
                                       BLOCK_SCAN_WARP_SCANS,
                                       32,
                                       256,
                                       tuning::prefetch_quarter,
                                       true,
                                       tuning::min_blocks>;
  };

  using MaxPolicy = Policy900;
};

} // namespace scan
} // namespace detail
STRATA_NAMESPACE_END
