// The policies of DeviceTopK (agent/agent_topk.cuh), per architecture. Untuned: the histogram reads 256 threads x
// 64 bytes of keys a tile; a round's pass is shaped as DeviceSelect's, 256 threads x 64 bytes of keys (at most 16),
// with the grouped tile, the next digit's counts and the look-back within 48 KiB of static shared memory for every
// key, value and offset type.
//
// Digits of 11 bits: three rounds for 4-byte keys (11, 11, 10 bits) and six for 8-byte ones, against four and eight
// of 8 bits. A round reads its candidates once, so fewer rounds read less: after one digit of 11 bits, random 4-byte
// keys leave about 1/2048 of the input as candidates (1/256 with 8 bits), and floats, whose top 11 bits are the sign,
// the exponent and two mantissa bits, split an octave into four buckets where 8 bits leave whole octaves together.
// The counts take 8 KiB of shared memory a block (16 KiB for 64-bit offsets), and the planning block scans 2048
// bins, eight a thread. RADIX_BITS is one for the whole hub: it sets the rounds and so the order of an unsorted
// result.
//
// Each candidate buffer holds an eighth of the input: after a round, candidates that fill more than that (keys
// concentrated in one bucket) are read again from the input in the next round, at most one read of the input a
// round, while the temporary storage stays at a quarter of the input's keys and values.
#pragma once

#include <strata/agent/agent_topk.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace topk
{
// KeyT: the keys' type; ValueT: the values' (NullType for keys only).
template <typename KeyT, typename ValueT>
struct policy_hub
{
  static constexpr int KEY_SIZE        = static_cast<int>(sizeof(KeyT));
  static constexpr int RADIX_BITS      = 11;
  static constexpr int CANDIDATE_SHARE = 8;

  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using HistogramPolicy = AgentTopKHistogramPolicy<256, items_for_bytes(64, KEY_SIZE, 16)>;
    using TopKPolicy      = AgentTopKPolicy<256, items_for_bytes(64, KEY_SIZE, 16), RADIX_BITS, CANDIDATE_SHARE,
                                       BLOCK_LOAD_WARP_TRANSPOSE, LOAD_DEFAULT, BLOCK_SCAN_WARP_SCANS, 32, 256, 0>;
  };

  // Hopper: plain loads, the input of the tile a wave ahead prefetched into L2, and registers bounded for 4 blocks
  // per SM, as DeviceSelect's sm_90 policy.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy600>
  {
    using HistogramPolicy = AgentTopKHistogramPolicy<256, items_for_bytes(64, KEY_SIZE, 16)>;
    using TopKPolicy      = AgentTopKPolicy<256, items_for_bytes(64, KEY_SIZE, 16), RADIX_BITS, CANDIDATE_SHARE,
                                       BLOCK_LOAD_WARP_TRANSPOSE, LOAD_PLAIN, BLOCK_SCAN_WARP_SCANS, 32, 256, 4, 4>;
  };

  using MaxPolicy = Policy900;
};
} // namespace topk
} // namespace detail
STRATA_NAMESPACE_END
