// AgentRadixSortOnesweep: one digit pass of a onesweep radix sort (Adinets & Merrill, 2022) over one tile, and the
// whole sort of an input that fits one tile.
//
// A pass over a tile:
//   1. load the keys warp-striped (warp w holds a contiguous run of 32 * ITEMS_PER_THREAD keys);
//   2. rank them by the pass's digit: per-warp digit counters in shared memory, the lanes of a warp with equal
//      digits found by matching (ballots), one of them bumping the counter; a scan over (digit, warp) gives each
//      key its stable place in the tile sorted by digit;
//   3. publish the tile's count of every digit, then look back over the earlier tiles' published counts, digit by
//      digit (one thread per digit), until a tile that has published its inclusive count: together with the
//      histogram kernel's digit offsets that is where this tile's keys of each digit go;
//   4. scatter the keys into shared memory in sorted order and write them out from there, so that the keys of a
//      digit leave as one contiguous run; values follow the same way: with VALUES_WITH_KEYS each value goes to
//      shared memory beside its key as the key is ranked (no rank or digit stays in a register, at the cost of a
//      tile of values more shared memory), otherwise through the same shared memory once the keys are out.
//
// The agent's storage is in dynamic shared memory in both of its kernels (the launch sizes it, so that a tile may
// pass the 48 KiB a block can take statically). The single-tile sort uses the same storage: each pass ranks with the
// warp counters, the scan and digit_prefix, then moves the keys, and the values after them, to their ranks through
// the start of `exchange` (over the counters, once the ranking is done); digit_base and slot_digits stay unused.
//
// Look-back words are 32 bits: an epoch (1..7, the launch within the sort, so that words from earlier launches read
// as unpublished and nothing is cleared between passes), an "inclusive" flag and a count of at most 2^28 - 1 keys.
// Larger inputs run each pass in portions of at most that many keys; the last tile of a portion hands the next
// portion its digit offsets.
#pragma once

#include <strata/agent/radix_sort_common.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/atomic>
#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, int RADIX_BITS_ = 8, int MIN_BLOCKS_PER_SM_ = 1,
          bool VALUES_WITH_KEYS_ = false, bool VALUES_AFTER_LOOKBACK_ = false>
struct AgentRadixSortOnesweepPolicy
{
  static constexpr int BLOCK_THREADS     = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD  = ITEMS_PER_THREAD_;
  static constexpr int RADIX_BITS        = RADIX_BITS_;
  static constexpr int MIN_BLOCKS_PER_SM = MIN_BLOCKS_PER_SM_;
  // Pair sorts: values go to shared memory with their keys as they are ranked (see the agent).
  static constexpr bool VALUES_WITH_KEYS = VALUES_WITH_KEYS_;
  // Pair sorts whose values follow the keys: the threads that look back load their values after the look-back
  // rather than before it (see the agent).
  static constexpr bool VALUES_AFTER_LOOKBACK = VALUES_AFTER_LOOKBACK_;
  static constexpr int TILE_ITEMS             = BLOCK_THREADS * ITEMS_PER_THREAD;
};

namespace detail
{
namespace radix_sort
{
constexpr cuda::std::uint32_t LOOKBACK_EPOCH_SHIFT = 29;
constexpr cuda::std::uint32_t LOOKBACK_INCLUSIVE   = 1u << 28;
constexpr cuda::std::uint32_t LOOKBACK_COUNT_MASK  = LOOKBACK_INCLUSIVE - 1u;
constexpr unsigned long long MAX_PORTION_ITEMS     = LOOKBACK_COUNT_MASK;
constexpr int LOOKBACK_EPOCHS                      = 7;

// Buffers a pass reads and writes: 0 the input, 1 the output, 2 the third buffer (temporary storage for the in/out
// forms; for the DoubleBuffer forms the input is also the output or the third buffer).
enum buffer_index
{
  BUFFER_IN  = 0,
  BUFFER_OUT = 1,
  BUFFER_TMP = 2,
};

enum class pass_kind
{
  skip, // every key has the same digit: the pass would not move anything
  sort,
  copy, // a skipped pass that still moves the keys, so that the result lands in the output
};

struct pass_plan
{
  pass_kind kind;
  int src;
  int dst;
};

// What pass `pass` of `passes` does, given the trivial passes (bit q: every key has the same digit in pass q).
// The passes that move keys alternate between the output and the third buffer and end in the output; the first one
// reads the input. The in/out forms move the keys at least once. In the DoubleBuffer forms the input is one of
// the other two buffers, so the number of moves must have the parity of `passes` (which the host used to tell the
// caller where the result is): where it has not, the first trivial pass copies.
STRATA_HOST_DEVICE inline pass_plan plan_pass(unsigned int trivial, int passes, int pass, bool double_buffer)
{
  const unsigned int all = passes >= 32 ? 0xffffffffu : ((1u << passes) - 1u);
  trivial &= all;
  const int sorting     = passes - cuda::std::popcount(trivial);
  const bool copy       = trivial != 0 && (double_buffer ? ((sorting ^ passes) & 1) != 0 : sorting == 0);
  const int copy_pass   = copy ? cuda::std::countr_zero(trivial) : -1;
  const bool is_trivial = (trivial >> pass) & 1u;
  if (is_trivial && pass != copy_pass)
  {
    return {pass_kind::skip, 0, 0};
  }
  const int moves            = sorting + (copy ? 1 : 0);
  const unsigned int earlier = (1u << pass) - 1u;
  const int r                = cuda::std::popcount(~trivial & all & earlier) + ((copy && copy_pass < pass) ? 1 : 0);
  const int dst              = ((moves - 1 - r) % 2 == 0) ? BUFFER_OUT : BUFFER_TMP;
  const int src              = r == 0 ? BUFFER_IN : (dst == BUFFER_OUT ? BUFFER_TMP : BUFFER_OUT);
  return {is_trivial ? pass_kind::copy : pass_kind::sort, src, dst};
}

// The keys and values buffers of a sort (see buffer_index).
template <typename KeyT, typename ValueT>
struct sort_buffers
{
  KeyT* keys[3];
  ValueT* values[3];

  // Selected without indexing the arrays by a runtime index (which would copy them to the stack).
  STRATA_HOST_DEVICE KeyT* key(int index) const
  {
    return index == BUFFER_IN ? keys[BUFFER_IN] : (index == BUFFER_OUT ? keys[BUFFER_OUT] : keys[BUFFER_TMP]);
  }
  STRATA_HOST_DEVICE ValueT* value(int index) const
  {
    return index == BUFFER_IN ? values[BUFFER_IN] : (index == BUFFER_OUT ? values[BUFFER_OUT] : values[BUFFER_TMP]);
  }
};
} // namespace radix_sort
} // namespace detail

template <typename PolicyT, typename KeyT, typename ValueT, typename OffsetT, typename CodecT>
struct AgentRadixSortOnesweep
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;
  static constexpr int RADIX_BITS       = PolicyT::RADIX_BITS;
  static constexpr int RADIX_DIGITS     = 1 << RADIX_BITS;
  static constexpr int WARPS            = BLOCK_THREADS / WARP_THREADS;
  static constexpr int WARP_ITEMS       = WARP_THREADS * ITEMS_PER_THREAD;
  // An odd row of warp counters per digit: the lanes of a warp bump counters of different digits in distinct banks.
  static constexpr int PADDED_WARPS           = (WARPS % 2 == 0) ? WARPS + 1 : WARPS;
  static constexpr bool KEYS_ONLY             = cuda::std::is_same<ValueT, NullType>::value;
  static constexpr bool VALUES_WITH_KEYS      = !KEYS_ONLY && PolicyT::VALUES_WITH_KEYS;
  static constexpr bool VALUES_AFTER_LOOKBACK = !KEYS_ONLY && !VALUES_WITH_KEYS && PolicyT::VALUES_AFTER_LOOKBACK;
  // The keys leave a few slots at a time: unrolled further, the loop holds more registers than the (latency-bound)
  // digit pass can spare.
  static constexpr int OUT_UNROLL = 4;
  // Values that follow the keys out find the digit of each sorted slot in shared memory (a byte for 8-bit digits):
  // in registers, the digits would hold one register per item for the whole value phase.
  static constexpr bool SLOT_DIGITS = !KEYS_ONLY && !VALUES_WITH_KEYS;
  using DigitT = cuda::std::conditional_t<RADIX_BITS <= 8, cuda::std::uint8_t, cuda::std::uint16_t>;
  // Keys-only sorts run every tile through SortTile<false>, whose partial tiles differ from whole ones only in their
  // loads and final writes: one kernel body rather than two halves the onesweep kernel (82 to 43 KB of SASS for u32
  // keys), the largest kernel of every translation unit that sorts, at no cost in throughput (H200, u32 keys 2^24 and
  // 2^28: 1.260x and 1.252x CUB against 1.261x and 1.273x). Pair sorts lost 2-5% that way (u32/u32 2^28: 0.969x CUB
  // against 1.000x) and keep a body for whole tiles.
  static constexpr bool ONE_BODY = KEYS_ONLY;

  static_assert(BLOCK_THREADS % WARP_THREADS == 0, "whole warps");
  static_assert(BLOCK_THREADS >= RADIX_DIGITS, "one thread per digit");
  static_assert(TILE_ITEMS <= static_cast<int>(detail::radix_sort::LOOKBACK_COUNT_MASK), "tile counts fit a word");
  static_assert(KEYS_ONLY || VALUES_WITH_KEYS || TILE_ITEMS <= (1 << 16), "the values' ranks fit 16 bits");

  using BlockScanT = BlockScan<cuda::std::uint32_t, BLOCK_THREADS>;

  struct _TempStorage
  {
    union
    {
      // Ranking: the warps' digit counters; the keys (and with VALUES_WITH_KEYS the values) land in `keys` (and
      // `values`) in sorted order as they are ranked.
      struct
      {
        cuda::std::uint32_t warp_counts[RADIX_DIGITS][PADDED_WARPS];
        KeyT keys[TILE_ITEMS];
        ValueT values[VALUES_WITH_KEYS ? TILE_ITEMS : 1];
      } sort;
      // Values that follow the keys out: the same shared memory, once the keys are out.
      ValueT values[KEYS_ONLY || VALUES_WITH_KEYS ? 1 : TILE_ITEMS];
    } exchange;
    OffsetT digit_base[RADIX_DIGITS];                 // a sorted tile slot j of digit d goes to digit_base[d] + j
    cuda::std::uint32_t digit_prefix[RADIX_DIGITS];   // the tile's keys of smaller digits
    DigitT slot_digits[SLOT_DIGITS ? TILE_ITEMS : 1]; // the digit of each sorted slot, for values that follow
    typename BlockScanT::TempStorage scan;
  };
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  _TempStorage& storage;
  CodecT codec;
  const unsigned int warp;
  const unsigned int lane;

  STRATA_DEVICE STRATA_FORCEINLINE AgentRadixSortOnesweep(TempStorage& temp_storage, CodecT key_codec)
      : storage(temp_storage.Alias())
      , codec(key_codec)
      , warp(threadIdx.x / WARP_THREADS)
      , lane(LaneId())
  {}

  // The tile position of this thread's item i in the warp-striped arrangement.
  STRATA_DEVICE STRATA_FORCEINLINE int Position(int i) const
  {
    return static_cast<int>(warp) * WARP_ITEMS + i * WARP_THREADS + static_cast<int>(lane);
  }

  // The digit a key at tile position `position` is ranked by: positions at or past `valid` (no key) rank last.
  // FULL: the tile has no such position.
  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE cuda::std::uint32_t
  RankDigit(const KeyT& key, int position, int valid, cuda::std::uint32_t bit_start, cuda::std::uint32_t num_bits) const
  {
    if constexpr (FULL)
    {
      return codec.digit(key, bit_start, num_bits);
    }
    else
    {
      return position < valid ? codec.digit(key, bit_start, num_bits) : cuda::std::uint32_t(RADIX_DIGITS - 1);
    }
  }

  // Ranks the keys by the digit: place(i, rank) is called with the stable place of keys[i] in the tile sorted by
  // the digit, counts(count) by the threads t < RADIX_DIGITS with the tile's number of keys of digit t (positions
  // past `valid` counted in the last digit) before any place is known. Leaves storage.digit_prefix set for the
  // calling thread's digit; the caller syncs before reusing the exchange.
  //
  // Counts first: every warp adds its keys to its digit counters (shared atomics), a scan over (digit, warp) turns
  // the counters into each warp's first place per digit, then strip by strip the lanes of equal digits (found by
  // ballots) take consecutive places from there, the lowest of them moving the counter on.
  template <bool FULL, typename CountsCallbackT, typename PlaceT>
  STRATA_DEVICE STRATA_FORCEINLINE void Rank(const KeyT (&keys)[ITEMS_PER_THREAD], int valid,
                                             cuda::std::uint32_t bit_start, cuda::std::uint32_t num_bits,
                                             CountsCallbackT counts, PlaceT place)
  {
    auto& warp_counts = storage.exchange.sort.warp_counts;
    // Each warp clears its own counters: no other warp touches them before the barrier after the counting.
    for (int d = static_cast<int>(lane); d < RADIX_DIGITS; d += WARP_THREADS)
    {
      warp_counts[d][warp] = 0;
    }
    WarpSync();
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      atomicAdd(&warp_counts[RankDigit<FULL>(keys[i], Position(i), valid, bit_start, num_bits)][warp], 1u);
    }
    __syncthreads();

    cuda::std::uint32_t count = 0;
    if (threadIdx.x < RADIX_DIGITS)
    {
      STRATA_UNROLL
      for (int w = 0; w < WARPS; ++w)
      {
        count += warp_counts[threadIdx.x][w];
      }
      counts(count);
    }
    cuda::std::uint32_t prefix = 0;
    BlockScanT(storage.scan).ExclusiveSum(count, prefix);
    if (threadIdx.x < RADIX_DIGITS)
    {
      storage.digit_prefix[threadIdx.x] = prefix;
      STRATA_UNROLL
      for (int w = 0; w < WARPS; ++w)
      {
        const cuda::std::uint32_t c = warp_counts[threadIdx.x][w];
        warp_counts[threadIdx.x][w] = prefix;
        prefix += c;
      }
    }
    __syncthreads();

    const unsigned int lanes_below = LaneMaskLt();
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const cuda::std::uint32_t digit = RankDigit<FULL>(keys[i], Position(i), valid, bit_start, num_bits);
      const unsigned int peers        = MatchAny<RADIX_BITS>(digit);
      const int below                 = __popc(peers & lanes_below);
      // Every lane reads the counter (the lanes of a digit read one word: a broadcast) before the lowest lane of
      // each digit moves it on.
      cuda::std::uint32_t& counter     = warp_counts[digit][warp];
      const cuda::std::uint32_t before = counter;
      WarpSync();
      if (below == 0)
      {
        counter = before + static_cast<cuda::std::uint32_t>(__popc(peers));
      }
      WarpSync();
      place(i, before + static_cast<cuda::std::uint32_t>(below));
    }
  }

  // Loads the tile items at positions below `valid` from `in` (warp-striped).
  template <bool FULL, typename T>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(const T* in, int valid, T (&items)[ITEMS_PER_THREAD]) const
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int position = Position(i);
      if (FULL || position < valid)
      {
        items[i] = in[position];
      }
    }
  }

  // Loads a tile's keys (warp-striped). Unless FULL, positions at or past `valid` hold codec.last_key(), which ranks
  // at or after every key in every pass: a partial tile is ranked as a whole one is, and its empty positions take
  // its last slots.
  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE void LoadKeys(const KeyT* in, int valid, KeyT (&keys)[ITEMS_PER_THREAD]) const
  {
    if (FULL || valid == TILE_ITEMS)
    {
      Load<true>(in, valid, keys);
    }
    else
    {
      const KeyT last = codec.last_key();
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const int position = Position(i);
        keys[i]            = position < valid ? in[position] : last;
      }
    }
  }

  // Loads a tile's values (warp-striped); unless FULL, positions at or past `valid` are left as they are.
  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE void LoadValues(const ValueT* in, int valid,
                                                   ValueT (&values)[ITEMS_PER_THREAD]) const
  {
    if (FULL || valid == TILE_ITEMS)
    {
      Load<true>(in, valid, values);
    }
    else
    {
      Load<false>(in, valid, values);
    }
  }

  // -- one digit pass over one tile ------------------------------------------------------------------------

  // Sorts tile `tile` of the portion [portion_begin, portion_end) by digit pass `pass` (plan: a sorting pass),
  // from the plan's source to its destination. offsets: this pass's row for this portion, [digit]; next_offsets: the
  // row of the next portion (null for the last). lookback: [tile][digit] words of this portion. valid: the tile's
  // keys (TILE_ITEMS but in the last tile). FULL: valid is TILE_ITEMS. Otherwise any tile runs the same code but for
  // the loads and the final writes: a partial tile's empty positions hold keys that rank last (LoadKeys), are not
  // counted and are not written (see ONE_BODY).
  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE void
  SortTile(const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, OffsetT tile_begin,
           int valid, unsigned int tile, bool last_tile, cuda::std::uint32_t bit_start, cuda::std::uint32_t num_bits,
           const OffsetT* offsets, OffsetT* next_offsets, cuda::std::uint32_t* lookback, cuda::std::uint32_t epoch)
  {
    KeyT keys[ITEMS_PER_THREAD];
    LoadKeys<FULL>(d_keys_in + tile_begin, valid, keys);
    ValueT values[KEYS_ONLY ? 1 : ITEMS_PER_THREAD];
    if constexpr (VALUES_WITH_KEYS)
    {
      LoadValues<FULL>(d_values_in + tile_begin, valid, values);
    }

    // Rank, publishing each digit's count (without the empty positions of a partial tile) as soon as it is known,
    // and put the keys (and values) into shared memory in sorted order.
    // Two 16-bit ranks a word (tiles hold at most 2^16 items): the ranks stay live from the ranking to the values'
    // exchange, beside the values.
    cuda::std::uint32_t ranks[KEYS_ONLY || VALUES_WITH_KEYS ? 1 : (ITEMS_PER_THREAD + 1) / 2] = {};
    cuda::std::uint32_t own_count                                                             = 0;
    const cuda::std::uint32_t epoch_bits = epoch << detail::radix_sort::LOOKBACK_EPOCH_SHIFT;
    Rank<true>(
      keys, valid, bit_start, num_bits,
      [&](cuda::std::uint32_t count) {
        // The empty positions of a partial tile are counted in the digit of the key they hold.
        const bool pads =
          !FULL && valid != TILE_ITEMS && threadIdx.x == codec.digit(codec.last_key(), bit_start, num_bits);
        own_count = count - (pads ? static_cast<cuda::std::uint32_t>(TILE_ITEMS - valid) : 0u);
        const cuda::std::uint32_t word =
          epoch_bits | (tile == 0 ? detail::radix_sort::LOOKBACK_INCLUSIVE : 0u) | own_count;
        cuda::atomic_ref<cuda::std::uint32_t, cuda::thread_scope_device>(
          lookback[static_cast<size_t>(tile) * RADIX_DIGITS + threadIdx.x])
          .store(word, cuda::std::memory_order_relaxed);
      },
      [&](int i, cuda::std::uint32_t rank) {
        storage.exchange.sort.keys[rank] = keys[i];
        if constexpr (VALUES_WITH_KEYS)
        {
          storage.exchange.sort.values[rank] = values[i];
        }
        else if constexpr (!KEYS_ONLY)
        {
          ranks[i / 2] = (i % 2 == 0) ? rank : (ranks[i / 2] | (rank << 16));
        }
      });

    // Values that follow the keys are loaded now, so that their latency hides behind the look-back and the keys'
    // way out; or, with VALUES_AFTER_LOOKBACK, by the threads that look back once they are done: their loads then do
    // not queue ahead of the look-back's, which every later tile waits for (the other threads load now).
    if constexpr (!KEYS_ONLY && !VALUES_WITH_KEYS && !VALUES_AFTER_LOOKBACK)
    {
      LoadValues<FULL>(d_values_in + tile_begin, valid, values);
    }

    // One thread per digit looks back for the tile's global place.
    if (threadIdx.x < RADIX_DIGITS)
    {
      const cuda::std::uint32_t exclusive = LookBack(tile, lookback, epoch_bits);
      if (tile != 0)
      {
        cuda::atomic_ref<cuda::std::uint32_t, cuda::thread_scope_device>(
          lookback[static_cast<size_t>(tile) * RADIX_DIGITS + threadIdx.x])
          .store(epoch_bits | detail::radix_sort::LOOKBACK_INCLUSIVE | (exclusive + own_count),
                 cuda::std::memory_order_relaxed);
      }
      const OffsetT base = offsets[threadIdx.x] + exclusive;
      if (last_tile && next_offsets != nullptr)
      {
        next_offsets[threadIdx.x] = base + own_count;
      }
      storage.digit_base[threadIdx.x] = base - storage.digit_prefix[threadIdx.x];
    }
    if constexpr (VALUES_AFTER_LOOKBACK)
    {
      LoadValues<FULL>(d_values_in + tile_begin, valid, values);
    }
    __syncthreads();

    // Out in sorted order; a whole tile without the slot guards (in the one body, too).
    if (FULL || (ONE_BODY && valid == TILE_ITEMS))
    {
      WriteOut<true>(d_keys_out, d_values_out, valid, bit_start, num_bits, values, ranks);
    }
    else
    {
      WriteOut<false>(d_keys_out, d_values_out, valid, bit_start, num_bits, values, ranks);
    }
  }

  // Writes the tile's sorted slots below `valid` (all, with FULL) out of shared memory: consecutive slots of a digit
  // go to consecutive addresses. Values that follow the keys find each slot's digit in shared memory, where the keys
  // leave it, and their sorted place in `ranks`.
  template <bool FULL, int RANK_WORDS>
  STRATA_DEVICE STRATA_FORCEINLINE void WriteOut(KeyT* d_keys_out, ValueT* d_values_out, int valid,
                                                 cuda::std::uint32_t bit_start, cuda::std::uint32_t num_bits,
                                                 const ValueT (&values)[KEYS_ONLY ? 1 : ITEMS_PER_THREAD],
                                                 const cuda::std::uint32_t (&ranks)[RANK_WORDS])
  {
#pragma unroll(OUT_UNROLL)
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const int slot = k * BLOCK_THREADS + static_cast<int>(threadIdx.x);
      if (FULL || slot < valid)
      {
        const KeyT key                  = storage.exchange.sort.keys[slot];
        const cuda::std::uint32_t digit = codec.digit(key, bit_start, num_bits);
        const OffsetT out               = storage.digit_base[digit] + static_cast<OffsetT>(slot);
        d_keys_out[out]                 = key;
        if constexpr (VALUES_WITH_KEYS)
        {
          d_values_out[out] = storage.exchange.sort.values[slot];
        }
        else if constexpr (!KEYS_ONLY)
        {
          storage.slot_digits[slot] = static_cast<DigitT>(digit);
        }
      }
    }

    if constexpr (!KEYS_ONLY && !VALUES_WITH_KEYS)
    {
      __syncthreads();
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        storage.exchange.values[(ranks[i / 2] >> (16 * (i % 2))) & 0xffffu] = values[i];
      }
      __syncthreads();
      STRATA_UNROLL
      for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      {
        const int slot = k * BLOCK_THREADS + static_cast<int>(threadIdx.x);
        if (FULL || slot < valid)
        {
          d_values_out[storage.digit_base[storage.slot_digits[slot]] + static_cast<OffsetT>(slot)] =
            storage.exchange.values[slot];
        }
      }
    }
  }

  // The number of keys of digit threadIdx.x in the portion's tiles before `tile`: walks back over their words,
  // adding counts, until a tile with an inclusive count.
  STRATA_DEVICE STRATA_FORCEINLINE cuda::std::uint32_t LookBack(unsigned int tile, cuda::std::uint32_t* lookback,
                                                                cuda::std::uint32_t epoch_bits) const
  {
    cuda::std::uint32_t exclusive = 0;
    unsigned int predecessor      = tile;
    while (predecessor > 0)
    {
      --predecessor;
      cuda::atomic_ref<cuda::std::uint32_t, cuda::thread_scope_device> slot(
        lookback[static_cast<size_t>(predecessor) * RADIX_DIGITS + threadIdx.x]);
      // A first read, then a loop while the word is unpublished: written as a do-while loop, the u32/u32 digit pass
      // spills more (60 bytes rather than 48) and is slower.
      cuda::std::uint32_t word = slot.load(cuda::std::memory_order_relaxed);
      while ((word & ~(detail::radix_sort::LOOKBACK_INCLUSIVE | detail::radix_sort::LOOKBACK_COUNT_MASK)) != epoch_bits)
      {
        word = slot.load(cuda::std::memory_order_relaxed);
      }
      exclusive += word & detail::radix_sort::LOOKBACK_COUNT_MASK;
      if (word & detail::radix_sort::LOOKBACK_INCLUSIVE)
      {
        break;
      }
    }
    return exclusive;
  }

  // A trivial pass that must still move the keys: the tile as it is.
  STRATA_DEVICE STRATA_FORCEINLINE void CopyTile(const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                                                 ValueT* d_values_out, OffsetT tile_begin, int valid) const
  {
    for (int slot = threadIdx.x; slot < valid; slot += BLOCK_THREADS)
    {
      d_keys_out[tile_begin + slot] = d_keys_in[tile_begin + slot];
      if constexpr (!KEYS_ONLY)
      {
        d_values_out[tile_begin + slot] = d_values_in[tile_begin + slot];
      }
    }
  }

  // -- an input of one tile -------------------------------------------------------------------------------

  // Sorts the `valid` keys (and values) of one tile by every pass in shared memory; d_keys_out may be d_keys_in.
  STRATA_DEVICE STRATA_FORCEINLINE void SortSingleTile(const KeyT* d_keys_in, KeyT* d_keys_out,
                                                       const ValueT* d_values_in, ValueT* d_values_out, int valid,
                                                       detail::radix_sort::pass_bits<RADIX_BITS> bits)
  {
    KeyT keys[ITEMS_PER_THREAD];
    ValueT values[KEYS_ONLY ? 1 : ITEMS_PER_THREAD];
    Load<false>(d_keys_in, valid, keys);
    if constexpr (!KEYS_ONLY)
    {
      Load<false>(d_values_in, valid, values);
    }
    const int passes = bits.passes();
    for (int pass = 0; pass < passes; ++pass)
    {
      cuda::std::uint32_t ranks[ITEMS_PER_THREAD];
      Rank<false>(
        keys, valid, bits.start(pass), bits.width(pass), [](cuda::std::uint32_t) {},
        [&](int i, cuda::std::uint32_t rank) {
          ranks[i] = rank;
        });
      __syncthreads();
      Exchange(keys, ranks);
      if constexpr (!KEYS_ONLY)
      {
        Exchange(values, ranks);
      }
    }
    // The empty positions of the tile ranked last in every pass: the keys are at positions below `valid`.
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int position = Position(i);
      if (position < valid)
      {
        d_keys_out[position] = keys[i];
        if constexpr (!KEYS_ONLY)
        {
          d_values_out[position] = values[i];
        }
      }
    }
  }

  // items[i] moves to tile position ranks[i]; then each thread holds its warp-striped positions again.
  template <typename T>
  STRATA_DEVICE STRATA_FORCEINLINE void Exchange(T (&items)[ITEMS_PER_THREAD],
                                                 const cuda::std::uint32_t (&ranks)[ITEMS_PER_THREAD])
  {
    T* buffer = reinterpret_cast<T*>(&storage.exchange);
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      buffer[ranks[i]] = items[i];
    }
    __syncthreads();
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      items[i] = buffer[Position(i)];
    }
    __syncthreads();
  }
};

STRATA_NAMESPACE_END
