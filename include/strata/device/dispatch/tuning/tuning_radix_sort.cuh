// Tunings of DeviceRadixSort, per architecture, chosen by the compile-time workload: the sizes of the key and of
// the value (the larger one sets how many items of a tile fit the registers and the shared-memory exchange).
#pragma once

#include <strata/agent/agent_radix_sort_histogram.cuh>
#include <strata/agent/agent_radix_sort_onesweep.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/tuple>
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
  return cuda::std::is_same<ValueT, NullType>::value || sizeof(ValueT) <= sizeof(KeyT)
         ? static_cast<int>(sizeof(KeyT))
         : static_cast<int>(sizeof(ValueT));
}

// Items per thread of `threads` threads that keep a tile of `item_bytes`-byte items within `budget` bytes of shared
// memory (at most `most`, at least 1).
constexpr int items_within(int threads, int item_bytes, int most, int budget = 32 * 1024)
{
  return budget / (threads * item_bytes) < 1
         ? 1
         : (budget / (threads * item_bytes) > most ? most : budget / (threads * item_bytes));
}

// Threads of a tile: one per digit at least; fewer for large items, whose tiles must still fit static shared memory.
constexpr int threads_for(int item_bytes, int threads)
{
  return item_bytes > 16 ? 256 : threads;
}

// Ampere (not measured here): 256 threads, 8-bit digits, tiles that fit static shared memory (sm_86 and sm_89 allow
// a block 99 KiB at most): keys only 40 (1- and 2-byte), 32 (4-byte) or 16 (8-byte) keys per thread; with values
// 28 items of up to 4 bytes or 16 of 8.
template <int DOMINANT_SIZE, bool KEYS_ONLY>
struct sm80_tuning
{
  static constexpr int threads = 256;
  static constexpr int items   = KEYS_ONLY ? (DOMINANT_SIZE <= 2   ? 40
                                              : DOMINANT_SIZE == 4 ? 32
                                              : DOMINANT_SIZE == 8 ? 16
                                                                   : items_within(threads, DOMINANT_SIZE, 16))
                                           : (DOMINANT_SIZE <= 4   ? 28
                                              : DOMINANT_SIZE == 8 ? 16
                                                                   : items_within(threads, DOMINANT_SIZE, 8));
};

// sm_90 (H100, H200), 8-bit digits. The digit pass waits (barriers, the look-back, loads) more than it computes: the
// tiles trade registers and shared memory for occupancy, and larger tiles write longer runs of each digit.
//   keys only: 1- and 2-byte keys 40 per thread in 3 blocks of 256 threads per SM; 4-byte keys 32 per thread in 2
//     blocks of 384 (61 KiB of dynamic shared memory a block); 8-byte keys 32 per thread in 2 blocks of 256 (75 KiB).
//   with values, the values' ranks in registers and each sorted slot's digit in shared memory (VALUES_WITH_KEYS
//     spills and is slower): up to 2-byte items 28 per thread in 2 blocks of 256; 4-byte items 24 per thread in 2
//     blocks of 384 (80 registers); 8-byte items 40 per thread in one block of 384 (168 registers, 138 KiB); 4- and
//     8-byte items load their values after the look-back (VALUES_AFTER_LOOKBACK).
//   other sizes: tiles of at most 32 KiB.
// An input of fewer tiles than SMs leaves most SMs one tile or none: 1-byte keys then sort the same tiles with twice the
// threads (each tile's chain of ranking steps half as long), 4-byte pairs load their values before the look-back,
// 8-byte pairs take smaller tiles (sm90_small_input).
template <int DOMINANT_SIZE, bool KEYS_ONLY>
struct sm90_tuning
{
  static constexpr int threads = (DOMINANT_SIZE == 4 || (!KEYS_ONLY && DOMINANT_SIZE == 8)) ? 384 : 256;
  static constexpr int items =
    KEYS_ONLY ? (DOMINANT_SIZE <= 2 ? 40 // sm90: no searched neighbour faster (best 0.99x) at 2^24-2^28 u8, u16 (H100)
                 : DOMINANT_SIZE == 4 ? 32 // sm90: 1.030x the 256-thread, 3-block tile at 2^24-2^28 u32 (H100)
                 : DOMINANT_SIZE == 8 ? 32 // sm90: 1.105x the 16-key, 3-block tile at 2^24-2^28 u64 (H100)
                                      : items_within(threads, DOMINANT_SIZE, 16))
              : (DOMINANT_SIZE <= 2   ? 28
                 : DOMINANT_SIZE == 4 ? 24 // sm90: 1.01-1.04x 256 x 28 in 2 blocks at 2^24-2^28 u32/u32 (H100)
                 : DOMINANT_SIZE == 8 ? 40 // sm90: 1.10-1.15x 256 x 16 in 2 blocks at 2^24-2^28 u64/u64 (H100)
                                      : items_within(threads, DOMINANT_SIZE, 8));
  static constexpr int blocks_per_sm     = KEYS_ONLY ? (DOMINANT_SIZE <= 2 ? 3 : 2) : (DOMINANT_SIZE == 8 ? 1 : 2);
  static constexpr bool values_with_keys = false;
  // sm90, against loading values before the look-back: 1.03-1.05x at 2^24-2^28 u64/u64 (H100); u32/u32 1.026x at
  // 2^28 random, 1.013x and3, 1.00x at 2^24 (H200), but 0.92-0.95x at 2^20, which therefore takes the small-input
  // policy (the same tile, values loaded before the look-back).
  static constexpr bool values_after_lookback = !KEYS_ONLY && (DOMINANT_SIZE == 4 || DOMINANT_SIZE == 8);
};

// The small-input onesweep policy of a hub's policy (dispatch_radix_sort.cuh): none, or tiles of THREADS x ITEMS.
template <bool DEFINED, int THREADS = 0, int ITEMS = 0, int MIN_BLOCKS = 1>
struct small_input_tuning
{};
template <int THREADS, int ITEMS, int MIN_BLOCKS>
struct small_input_tuning<true, THREADS, ITEMS, MIN_BLOCKS>
{
  using SmallOnesweepPolicy = AgentRadixSortOnesweepPolicy<THREADS, ITEMS, 8, MIN_BLOCKS>;
};

// sm_90's small-input policies (against the large tile at the same size):
//   1-byte keys only: 512 x 20 in one block per SM (the large tile's 10240 keys): 1.24x at 2^20 u8, 0.69-0.80x
//     from 2^24 up (H100);
//   4-byte items with values: the large tile (384 x 24 in 2 blocks) with the values loaded before the look-back:
//     1.05-1.08x at 2^20 u32/u32 (H200);
//   8-byte items with values: 384 x 24 in one block (9216 items): 1.38x at 2^16, 1.26x at 2^20 u64/u64 (H100). A
//     tile of 256 x 16 was 1.88x at 2^16, but the small tiles are kept at least as large as CUB's for the same sort,
//     so that the temporary storage (a look-back word per digit and tile) does not pass CUB's.
// PAIR_SIZE: the dominant size of a sort with values, 0 for keys only.
template <bool ONE_BYTE_KEYS, int PAIR_SIZE>
using sm90_small_input = cuda::std::conditional_t<
  ONE_BYTE_KEYS, small_input_tuning<true, 512, 20, 1>,
  cuda::std::conditional_t<
    PAIR_SIZE == 8, small_input_tuning<true, 384, 24, 1>,
    cuda::std::conditional_t<PAIR_SIZE == 4,
                             small_input_tuning<true, sm90_tuning<4, false>::threads, sm90_tuning<4, false>::items,
                                                sm90_tuning<4, false>::blocks_per_sm>,
                             small_input_tuning<false>>>>;

// The single-block sort of small inputs: 512 threads (256 for large items), up to 8 items each.
template <int DOMINANT_SIZE>
struct single_tile_tuning
{
  static constexpr int threads = threads_for(DOMINANT_SIZE, DOMINANT_SIZE <= 8 ? 512 : 256);
  static constexpr int items   = items_within(threads, DOMINANT_SIZE, DOMINANT_SIZE <= 4 ? 8 : 4);
};
template <int DOMINANT_SIZE>
using single_tile_policy =
  AgentRadixSortOnesweepPolicy<single_tile_tuning<DOMINANT_SIZE>::threads, single_tile_tuning<DOMINANT_SIZE>::items, 8>;

// The single-block sorts of a policy (its SingleTileTiers), smallest tile first: an input of at most the largest tile
// is sorted by one block of the first tier whose tile holds it. A block ranks every slot of its tile, filled or not,
// in every pass, so a tile near the input's size is the fastest. A policy without tiers has one: its
// SingleTilePolicy.
template <typename... Policies>
struct single_tile_tiers
{
  static_assert(sizeof...(Policies) > 0, "at least one tier");
  static constexpr int count = static_cast<int>(sizeof...(Policies));
  // Tier I (the largest for I past the last, so that a kernel built for another policy's tier still compiles).
  template <int I>
  using tier    = cuda::std::tuple_element_t<(I < count ? I : count - 1), cuda::std::tuple<Policies...>>;
  using largest = tier<count - 1>;
};

// sm_90's tiers, 512 threads (256 for the smallest), tiles of 512 to 8192 items (12288 for 8-byte items). Against
// the one tile of 512 x 8 (4-byte items) or 512 x 4 (8-byte items) before, and the onesweep sort above it, at each
// tier's full tile, host latency of a call and a stream sync (H200): u32 keys 1024: 12.7 us against 17.2, 8192: 24.8
// against 48.5; u64 keys 512: 15.4 against 22.7, 4096: 30.0 against 72.8; u32/u32 8192: 28.3 against 58.7; u64/u64
// 4096: 33.4 against 93.4, 12288: 78.9 against 97.5. The next tier up for 8-byte items (512 x 32) was slower than the
// onesweep sort (u64 keys) or spilled (u64/u64). Larger items keep the one tile.
// Each tier is a kernel in every translation unit that sorts: items of up to 4 bytes have no 512 x 2, 512 x 24 and
// 512 x 32 tiers, so that a frontend sort compiles about as fast as Thrust's (the 512 x 32 tier alone was 40 KB of
// the translation unit's 150 KB of SASS). Their inputs take the next tier up or the onesweep sort (H200): u32 keys at
// 1024 15.7 us against 13.6, at 12288 39.6 against 33.9, at 16384 53.8 against 41.0 (CUB: 17.7, 56.2 and about
// 56 us). 8-byte items keep 512 x 2: without it u64 keys at 1024 took 22.4 us against 18.2, and CUB 21.4.
template <int THREADS, int ITEMS>
using sm90_tier = AgentRadixSortOnesweepPolicy<THREADS, ITEMS, 8>;
template <int DOMINANT_SIZE>
using sm90_single_tile = cuda::std::conditional_t<
  DOMINANT_SIZE <= 4, single_tile_tiers<sm90_tier<256, 2>, sm90_tier<512, 4>, sm90_tier<512, 8>, sm90_tier<512, 16>>,
  cuda::std::conditional_t<DOMINANT_SIZE == 8,
                           single_tile_tiers<sm90_tier<256, 2>, sm90_tier<512, 2>, sm90_tier<512, 4>, sm90_tier<512, 8>,
                                             sm90_tier<512, 16>, sm90_tier<512, 24>>,
                           single_tile_tiers<single_tile_policy<DOMINANT_SIZE>>>>;

template <typename KeyT, typename ValueT, typename OffsetT>
struct policy_hub
{
  static constexpr int DOMINANT_SIZE = dominant_size<KeyT, ValueT>();
  static constexpr bool KEYS_ONLY    = cuda::std::is_same<ValueT, NullType>::value;

  // Pascal and Volta: 256 threads, 8-bit digits.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using OnesweepPolicy =
      AgentRadixSortOnesweepPolicy<256, DOMINANT_SIZE <= 4 ? 16 : items_within(256, DOMINANT_SIZE, 8), 8>;
    using HistogramPolicy = AgentRadixSortHistogramPolicy<256, 8>;
    using SingleTilePolicy =
      AgentRadixSortOnesweepPolicy<256, items_within(256, DOMINANT_SIZE, DOMINANT_SIZE <= 4 ? 8 : 4), 8>;
  };

  struct Policy800 : ChainedPolicy<800, Policy800, Policy600>
  {
    using OnesweepPolicy   = AgentRadixSortOnesweepPolicy<sm80_tuning<DOMINANT_SIZE, KEYS_ONLY>::threads,
                                                        sm80_tuning<DOMINANT_SIZE, KEYS_ONLY>::items, 8>;
    using HistogramPolicy  = AgentRadixSortHistogramPolicy<256, 8>;
    using SingleTilePolicy = single_tile_policy<DOMINANT_SIZE>;
  };

  struct Policy900
      : ChainedPolicy<900, Policy900, Policy800>
      , sm90_small_input<KEYS_ONLY && sizeof(KeyT) == 1, KEYS_ONLY ? 0 : DOMINANT_SIZE>
  {
    using tuning          = sm90_tuning<DOMINANT_SIZE, KEYS_ONLY>;
    using OnesweepPolicy  = AgentRadixSortOnesweepPolicy<tuning::threads, tuning::items, 8, tuning::blocks_per_sm,
                                                        tuning::values_with_keys, tuning::values_after_lookback>;
    using HistogramPolicy = AgentRadixSortHistogramPolicy<256, 8>;
    using SingleTileTiers = sm90_single_tile<DOMINANT_SIZE>;
  };

  using MaxPolicy = Policy900;
};
} // namespace radix_sort
} // namespace detail
STRATA_NAMESPACE_END
