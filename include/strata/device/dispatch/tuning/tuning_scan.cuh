// Tunings of DeviceScan, per architecture, chosen by the compile-time workload: the accumulator's size (which
// sets the registers per item and the tile-state word) and the operator kind. A tile also passes through shared
// memory as items of the input and the output type; where one of those is wider than the accumulator (float items
// scanned into doubles, say), fewer items per thread keep that stage within a kernel's 48 KiB of static shared memory.
#pragma once

#include <strata/agent/agent_scan.cuh>
#include <strata/agent/agent_scan_bulk.cuh>
#include <strata/agent/agent_scan_by_key.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace scan
{

// The size of the widest of a scan's item types: the input's value type, the output's (the accumulator where the
// output has none) and the accumulator.
template <typename InputIteratorT, typename OutputIteratorT, typename AccumT>
constexpr int stage_bytes_v = static_cast<int>(sizeof(AccumT) > sizeof(it_value_t<InputIteratorT>)
                                                 ? (sizeof(AccumT) > sizeof(non_void_value_t<OutputIteratorT, AccumT>)
                                                      ? sizeof(AccumT)
                                                      : sizeof(non_void_value_t<OutputIteratorT, AccumT>))
                                                 : (sizeof(it_value_t<InputIteratorT>)
                                                        > sizeof(non_void_value_t<OutputIteratorT, AccumT>)
                                                      ? sizeof(it_value_t<InputIteratorT>)
                                                      : sizeof(non_void_value_t<OutputIteratorT, AccumT>)));

// The sm_90 tuning every workload starts from: 256 threads, warp-transposed plain loads and stores, warp-scans,
// persistent blocks, a look-back that sleeps 32 ns doubling to 256 ns while a predecessor is INVALID, and tiles in
// registers only (bulk_vectors_per_thread == 0: no bulk path). Workloads override the fields they tune.
struct sm90_base_tuning
{
  static constexpr int threads                = 256;
  static constexpr int look_back_delay_ns     = 32;
  static constexpr int look_back_max_delay_ns = 256;
  static constexpr bool persistent            = true;
  // Register path: items per thread, how far ahead (quarters of a wave) a block prefetches a tile into L2, and the
  // kernel's __launch_bounds__ minimum of blocks per SM (which caps its registers).
  static constexpr int items_per_thread       = 16;
  static constexpr int prefetch_quarter_waves = 1;
  static constexpr int min_blocks_per_sm      = 1;
  // Bulk path (tiles in shared memory, arrays of 4- or 8-byte arithmetic values on 16 bytes): 16-byte vectors per
  // thread (odd; 0: none), the bulk tiles per SM an input must make to take it, and the bulk kernel's prefetch
  // distance and launch bound.
  static constexpr int bulk_vectors_per_thread     = 0;
  static constexpr int bulk_min_tiles_per_sm       = 1;
  static constexpr int bulk_prefetch_quarter_waves = 1;
  static constexpr int bulk_min_blocks_per_sm      = 1;
};

// The default (user operators, and the pairs of the by-key scans): about 128 bytes of accumulators per thread.
template <typename AccumT, op_kind OP, int ACCUM_SIZE = static_cast<int>(sizeof(AccumT)), typename Enable = void>
struct sm90_tuning : sm90_base_tuning
{
  // sm90: 3.09 TB/s by key at 2^28 i32/i32 (16 pairs), 0.47 of 12 pairs' time (H200)
  static constexpr int items_per_thread = items_for_bytes(128, ACCUM_SIZE, 16);
};

// The (head flag, value) pairs of the by-key scans: the default's registers, and a bulk path for keys and values in
// arrays (a tile's keys and values in shared memory together).
template <typename V, int ACCUM_SIZE>
struct sm90_tuning<segmented_value<V>, op_kind::other, ACCUM_SIZE, void> : sm90_base_tuning
{
  static constexpr int items_per_thread        = items_for_bytes(128, ACCUM_SIZE, 16);
  static constexpr int bulk_vectors_per_thread = 5; // sm90: 1.27x CUB at 2^28 i32 (x9 1.26, x3 1.13), 40 KiB (H200)
  static constexpr int bulk_min_tiles_per_sm   = 1; // sm90: at 2^20 as fast as the register path (H200)
};

// 4-byte integers under standard operators.
template <typename AccumT, op_kind OP>
struct sm90_tuning<AccumT, OP, 4, cuda::std::enable_if_t<OP != op_kind::other && cuda::std::is_integral<AccumT>::value>>
    : sm90_base_tuning
{
  static constexpr int items_per_thread        = 20; // sm90: 5-6% faster than 16 at 2^28 i32 (H100, H200)
  static constexpr int min_blocks_per_sm       = 6;  // sm90: 40 registers (64 and 4 blocks per SM unbounded) (H200)
  static constexpr int bulk_vectors_per_thread = 9;  // sm90: 3.66 TB/s at 2^28 i32, 36 KiB tiles (H200)
  static constexpr int bulk_min_tiles_per_sm   = 20; // sm90: at 2^24 (14 per SM) bulk 0-6% slower than registers (H200)
};

// 4-byte floating point (the look-back folds in order).
template <typename AccumT, op_kind OP>
struct sm90_tuning<AccumT, OP, 4,
                   cuda::std::enable_if_t<OP != op_kind::other && !cuda::std::is_integral<AccumT>::value>>
    : sm90_base_tuning
{
  static constexpr int items_per_thread        = 24; // sm90: 0.77 of 16 items' time at 2^28 f32 (H200)
  static constexpr int prefetch_quarter_waves  = 2;  // sm90: a whole wave ahead 11% slower at 2^28 f32 (H100)
  static constexpr int bulk_vectors_per_thread = 9;  // sm90: 3.70 TB/s at 2^28 f32, 36 KiB tiles (H200)
  static constexpr int bulk_min_tiles_per_sm   = 5;  // sm90: at 2^24 (14 per SM) bulk 7% faster than registers (H200)
};

// 8-byte integers under standard operators.
template <typename AccumT, op_kind OP>
struct sm90_tuning<AccumT, OP, 8, cuda::std::enable_if_t<OP != op_kind::other && cuda::std::is_integral<AccumT>::value>>
    : sm90_base_tuning
{
  static constexpr int items_per_thread        = 20; // sm90: 2-5% faster than 16 at 2^24, 2^28 i64 (H200)
  static constexpr int min_blocks_per_sm       = 4;  // sm90: 64 registers (80, 8 bytes spilled unbounded) (H200)
  static constexpr int bulk_vectors_per_thread = 11; // sm90: 3.85 TB/s at 2^28 i64, 44 KiB tiles (H200)
  static constexpr int bulk_min_tiles_per_sm   = 4;  // sm90: at 2^24 (7 per SM) bulk 1-2% faster than registers (H200)
};

// 8-byte floating point.
template <typename AccumT, op_kind OP>
struct sm90_tuning<AccumT, OP, 8,
                   cuda::std::enable_if_t<OP != op_kind::other && !cuda::std::is_integral<AccumT>::value>>
    : sm90_base_tuning
{
  static constexpr int items_per_thread        = 20; // sm90: 0.95 of 16 items' time at 2^28 f64 (H200)
  static constexpr int prefetch_quarter_waves  = 2;  // sm90: a whole wave ahead 3% slower at 2^28 f64 (H100)
  static constexpr int min_blocks_per_sm       = 2;  // sm90: 79 registers (88 unbounded): 3 blocks per SM (H200)
  static constexpr int bulk_vectors_per_thread = 11; // sm90: 3.85 TB/s at 2^28 f64, 44 KiB tiles (H200)
  static constexpr int bulk_min_tiles_per_sm   = 1;  // sm90: at 2^20 (1.4 per SM) bulk 7-17% faster (H200)
};

// The most items per thread for which a tile of `threads` threads staged as items of `stage_bytes` bytes (the widest of
// the input, output and accumulator types) fits in 46 KiB, leaving room for the look-back's windows and the tile id.
constexpr int stage_items_limit(int threads, int stage_bytes)
{
  return (46 * 1024) / (threads * stage_bytes) < 1 ? 1 : (46 * 1024) / (threads * stage_bytes);
}

// A tuning whose items per thread are capped so that its tile's shared-memory stage fits (no change where the
// accumulator is the widest type, which every tuning above was measured with).
template <typename TuningT, int STAGE_BYTES>
struct staged_tuning : TuningT
{
  static constexpr int items_per_thread = TuningT::items_per_thread < stage_items_limit(TuningT::threads, STAGE_BYTES)
                                          ? TuningT::items_per_thread
                                          : stage_items_limit(TuningT::threads, STAGE_BYTES);
};

// The register-path policy of an sm_90 tuning.
template <typename TuningT>
using sm90_scan_policy =
  AgentScanPolicy<TuningT::threads, TuningT::items_per_thread, BLOCK_LOAD_WARP_TRANSPOSE, LOAD_PLAIN,
                  BLOCK_STORE_WARP_TRANSPOSE, BLOCK_SCAN_WARP_SCANS, TuningT::look_back_delay_ns,
                  TuningT::look_back_max_delay_ns, TuningT::prefetch_quarter_waves, TuningT::persistent,
                  TuningT::min_blocks_per_sm>;

// Gives a policy the BulkScanPolicy of its sm_90 tuning, where the tuning has a bulk path.
template <typename TuningT, bool = (TuningT::bulk_vectors_per_thread > 0)>
struct sm90_bulk_policy
{};
template <typename TuningT>
struct sm90_bulk_policy<TuningT, true>
{
  using BulkScanPolicy =
    AgentScanBulkPolicy<TuningT::threads, TuningT::bulk_vectors_per_thread, TuningT::look_back_delay_ns,
                        TuningT::look_back_max_delay_ns, TuningT::bulk_prefetch_quarter_waves,
                        TuningT::bulk_min_blocks_per_sm, TuningT::bulk_min_tiles_per_sm>;
};

// STAGE_BYTES: the size of the widest of the input, output and accumulator types (stage_bytes_v).
template <typename AccumT, typename ScanOpT, int STAGE_BYTES = static_cast<int>(sizeof(AccumT))>
struct policy_hub
{
  static constexpr int ACCUM_SIZE = static_cast<int>(sizeof(AccumT));

  // Pascal and Volta: 128 threads, 12 four-byte items, raking scans.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using ScanPolicy = AgentScanPolicy<128, items_for_bytes(48, ACCUM_SIZE, 12), BLOCK_LOAD_WARP_TRANSPOSE, LOAD_PLAIN,
                                       BLOCK_STORE_WARP_TRANSPOSE, BLOCK_SCAN_RAKING>;
  };

  struct Policy700 : ChainedPolicy<700, Policy700, Policy600>
  {
    using ScanPolicy = typename Policy600::ScanPolicy;
  };

  // Ampere: warp-scans, 16 four-byte items.
  struct Policy800 : ChainedPolicy<800, Policy800, Policy700>
  {
    using ScanPolicy = AgentScanPolicy<128, items_for_bytes(64, ACCUM_SIZE, 16), BLOCK_LOAD_WARP_TRANSPOSE, LOAD_PLAIN,
                                       BLOCK_STORE_WARP_TRANSPOSE, BLOCK_SCAN_WARP_SCANS>;
  };

  struct Policy900
      : ChainedPolicy<900, Policy900, Policy800>
      , sm90_bulk_policy<sm90_tuning<AccumT, op_kind_v<ScanOpT>>>
  {
    using ScanPolicy = sm90_scan_policy<staged_tuning<sm90_tuning<AccumT, op_kind_v<ScanOpT>>, STAGE_BYTES>>;
  };

  using MaxPolicy = Policy900;
};

} // namespace scan
} // namespace detail
STRATA_NAMESPACE_END
