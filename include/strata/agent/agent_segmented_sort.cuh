// AgentSegmentedSort: how DeviceSegmentedSort and DeviceSegmentedRadixSort sort one segment, by its length class.
//
// Every sort orders keys by the bits [begin_bit, end_bit) of their radix images (radix_rank_sort_operations.cuh:
// unsigned images in key order, inverted for descending sorts, -0.0 the image of +0.0) and is stable, so a stable
// and an unstable segmented sort give the same result, and any two of these sorts agree with a stable radix sort.
// - tiny segments (up to TINY_MAX keys): a thread, as it classifies the segment: each key's stable rank among the
//   segment's keys counted in registers, and the key stored there;
// - small segments (up to 32 x SMALL_ITEMS_PER_THREAD keys): a warp, a merge sort in registers;
// - medium segments (up to BLOCK_THREADS x MEDIUM_ITEMS_PER_THREAD keys): a block, a radix sort in shared memory
//   (BlockRadixSort), loaded and stored coalesced;
// - large segments: a block, a least-significant-digit radix sort through global memory, RADIX_BITS a pass: the
//   digit counts of every pass from one read of the segment, then each pass tile by tile in order, the tile ranked
//   by the pass's digit and written out by digit runs through shared memory (the onesweep sort's tile step,
//   AgentRadixSortOnesweep);
// - huge segments (more than LARGE_MAX keys): every block of one persistent kernel, the same passes over tiles of all
//   huge segments at once (huge_sort).
#pragma once

#include <strata/agent/agent_radix_sort_onesweep.cuh>
#include <strata/agent/radix_sort_common.cuh>
#include <strata/block/block_load.cuh>
#include <strata/block/block_radix_sort.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/warp_merge_sort.cuh>

#include <cuda/atomic>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of the segmented sorts: BLOCK_THREADS threads a block in every kernel; the tiny class's largest
// segment; the small and medium classes' items per thread (their largest segments: 32 and BLOCK_THREADS times
// that); RADIX_BITS a pass of the large and huge segments' sorts, the large ones (up to LARGE_MAX keys) in tiles of
// BLOCK_THREADS x LARGE_ITEMS_PER_THREAD keys, the huge ones in tiles of BLOCK_THREADS x HUGE_ITEMS_PER_THREAD.
template <int BLOCK_THREADS_, int TINY_MAX_, int SMALL_ITEMS_PER_THREAD_, int MEDIUM_ITEMS_PER_THREAD_,
          int LARGE_ITEMS_PER_THREAD_, int RADIX_BITS_, int LARGE_MAX_, int HUGE_ITEMS_PER_THREAD_>
struct AgentSegmentedSortPolicy
{
  static constexpr int BLOCK_THREADS           = BLOCK_THREADS_;
  static constexpr int TINY_MAX                = TINY_MAX_;
  static constexpr int SMALL_ITEMS_PER_THREAD  = SMALL_ITEMS_PER_THREAD_;
  static constexpr int MEDIUM_ITEMS_PER_THREAD = MEDIUM_ITEMS_PER_THREAD_;
  static constexpr int LARGE_ITEMS_PER_THREAD  = LARGE_ITEMS_PER_THREAD_;
  static constexpr int RADIX_BITS              = RADIX_BITS_;
  static constexpr int LARGE_MAX               = LARGE_MAX_;
  static constexpr int HUGE_ITEMS_PER_THREAD   = HUGE_ITEMS_PER_THREAD_;
  static constexpr int SMALL_MAX               = 32 * SMALL_ITEMS_PER_THREAD;
  static constexpr int MEDIUM_MAX              = BLOCK_THREADS * MEDIUM_ITEMS_PER_THREAD;
  static_assert(BLOCK_THREADS % 32 == 0, "whole warps");
  static_assert(TINY_MAX >= 1 && TINY_MAX <= 32, "a tiny segment's keys in one thread's registers");
  static_assert(TINY_MAX < SMALL_MAX && SMALL_MAX < MEDIUM_MAX && MEDIUM_MAX < LARGE_MAX, "the classes grow");
  static_assert((1 << RADIX_BITS) <= BLOCK_THREADS, "a thread for every digit of a pass");
};

namespace detail
{
namespace segmented_sort
{
// The length classes, in the order of their lists.
enum size_class : int
{
  TINY    = 0,
  SMALL   = 1,
  MEDIUM  = 2,
  LARGE   = 3,
  HUGE    = 4,
  CLASSES = 5
};

// A key's radix image restricted to bits [begin_bit, begin_bit + num_bits), shifted down: keys sort by it.
template <typename KeyT, bool DESCENDING>
struct key_bits
{
  using codec_t = radix_sort::key_codec<KeyT, DESCENDING, radix_sort::no_decomposer>;
  using image_t = typename codec_t::image_t;

  int begin_bit;
  int num_bits;

  STRATA_DEVICE STRATA_FORCEINLINE image_t operator()(const KeyT& key) const
  {
    if (begin_bit >= codec_t::BITS)
    {
      return image_t(0);
    }
    const image_t shifted = static_cast<image_t>(codec_t::image(key) >> begin_bit);
    if (num_bits >= codec_t::BITS)
    {
      return shifted;
    }
    return static_cast<image_t>(shifted & static_cast<image_t>((image_t(1) << num_bits) - image_t(1)));
  }
};

// The merge sorts' order: by key_bits.
template <typename KeyT, bool DESCENDING>
struct bits_less
{
  key_bits<KeyT, DESCENDING> bits;
  STRATA_DEVICE STRATA_FORCEINLINE bool operator()(const KeyT& a, const KeyT& b) const
  {
    return bits(a) < bits(b);
  }
};

// A segment's first item and length (0 where the end is not past the begin).
template <typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void bounds_of(BeginOffsetIteratorT d_begin, EndOffsetIteratorT d_end, long long s,
                                                long long& begin, long long& len)
{
  begin               = static_cast<long long>(d_begin[s]);
  const long long end = static_cast<long long>(d_end[s]);
  len                 = end > begin ? end - begin : 0;
}

// Where a sort reads and writes: keys and values (ValueT NullType: none) of all segments, segment s at
// [begin[s], end[s]) of each array.
template <typename KeyT, typename ValueT>
struct arrays
{
  const KeyT* keys_in;
  KeyT* keys_out;
  const ValueT* values_in;
  ValueT* values_out;
  static constexpr bool KEYS_ONLY = cuda::std::is_same<ValueT, NullType>::value;
};

// One segment of at most MAX keys, sorted by one thread: the keys (values) in registers, each key's stable rank (the
// segment's keys that order before it: smaller images, and equal ones earlier) counted, and the key stored there.
// `bound` (at least len, warp-uniform: the longest of the warp's tiny segments) picks the smallest of the register
// arrays of 4, 8, 16, ... keys that holds every segment of the warp, so the counting costs bound^2 comparisons, not
// MAX^2. Every key is loaded before any is stored: the output may be the input.
template <int MAX, bool DESCENDING, typename KeyT, typename ValueT>
struct thread_segment_sort
{
  using bits_t                    = key_bits<KeyT, DESCENDING>;
  using image_t                   = typename bits_t::image_t;
  static constexpr bool KEYS_ONLY = arrays<KeyT, ValueT>::KEYS_ONLY;

  template <int N = (MAX < 4 ? MAX : 4)>
  static STRATA_DEVICE STRATA_FORCEINLINE void Sort(const arrays<KeyT, ValueT>& a, long long begin, int len, int bound,
                                                    bits_t bits)
  {
    if constexpr (N >= MAX)
    {
      SortUpTo<MAX>(a, begin, len, bits);
    }
    else if (bound <= N)
    {
      SortUpTo<N>(a, begin, len, bits);
    }
    else
    {
      Sort<2 * N>(a, begin, len, bound, bits);
    }
  }

private:
  template <int N>
  static STRATA_DEVICE STRATA_FORCEINLINE void SortUpTo(const arrays<KeyT, ValueT>& a, long long begin, int len,
                                                        bits_t bits)
  {
    KeyT keys[N];
    ValueT values[KEYS_ONLY ? 1 : N];
    image_t images[N];
    STRATA_UNROLL
    for (int i = 0; i < N; ++i)
    {
      // Past len, images that no key's orders after (slots after every key's, never counted by one).
      images[i] = static_cast<image_t>(~image_t(0));
      if (i < len)
      {
        keys[i]   = a.keys_in[begin + i];
        images[i] = bits(keys[i]);
        if constexpr (!KEYS_ONLY)
        {
          values[i] = a.values_in[begin + i];
        }
      }
    }
    STRATA_UNROLL
    for (int i = 0; i < N; ++i)
    {
      int rank = 0;
      STRATA_UNROLL
      for (int j = 0; j < N; ++j)
      {
        if (j < i)
        {
          rank += images[j] <= images[i] ? 1 : 0;
        }
        else if (j > i)
        {
          rank += images[j] < images[i] ? 1 : 0;
        }
      }
      if (i < len)
      {
        a.keys_out[begin + rank] = keys[i];
        if constexpr (!KEYS_ONLY)
        {
          a.values_out[begin + rank] = values[i];
        }
      }
    }
  }
};

// One segment of at most LANES x ITEMS_PER_THREAD keys, sorted by a logical warp of LANES lanes (every lane of it
// calls; len >= 1). Lane l takes items l * ITEMS_PER_THREAD + j.
template <int LANES, int ITEMS_PER_THREAD, bool DESCENDING, typename KeyT, typename ValueT>
struct warp_segment_sort
{
  using SortT       = WarpMergeSort<KeyT, ITEMS_PER_THREAD, LANES, ValueT>;
  using TempStorage = typename SortT::TempStorage;

  static STRATA_DEVICE STRATA_FORCEINLINE void Sort(TempStorage& storage, const arrays<KeyT, ValueT>& a,
                                                    long long begin, int len, key_bits<KeyT, DESCENDING> bits)
  {
    const int lane = static_cast<int>(LaneId() % LANES);
    KeyT keys[ITEMS_PER_THREAD];
    ValueT values[ITEMS_PER_THREAD];
    STRATA_UNROLL
    for (int j = 0; j < ITEMS_PER_THREAD; ++j)
    {
      const int i = lane * ITEMS_PER_THREAD + j;
      if (i < len)
      {
        keys[j] = a.keys_in[begin + i];
        if constexpr (!arrays<KeyT, ValueT>::KEYS_ONLY)
        {
          values[j] = a.values_in[begin + i];
        }
      }
    }
    const KeyT past{}; // what the items past len become (never stored)
    if constexpr (arrays<KeyT, ValueT>::KEYS_ONLY)
    {
      SortT(storage).Sort(keys, bits_less<KeyT, DESCENDING>{bits}, len, past);
    }
    else
    {
      SortT(storage).Sort(keys, values, bits_less<KeyT, DESCENDING>{bits}, len, past);
    }
    STRATA_UNROLL
    for (int j = 0; j < ITEMS_PER_THREAD; ++j)
    {
      const int i = lane * ITEMS_PER_THREAD + j;
      if (i < len)
      {
        a.keys_out[begin + i] = keys[j];
        if constexpr (!arrays<KeyT, ValueT>::KEYS_ONLY)
        {
          a.values_out[begin + i] = values[j];
        }
      }
    }
    __syncwarp(LogicalWarpMask<LANES>(LaneId() / LANES)); // the storage is free for the next segment
  }
};

// One segment of at most BLOCK_THREADS x ITEMS_PER_THREAD keys, sorted by a block (every thread calls): loaded
// striped and transposed (blocked, so that the rank order is the input order), the slots past len filled with a key
// that ranks after every key, radix sorted in shared memory and stored striped.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, bool DESCENDING, typename KeyT, typename ValueT>
struct block_segment_sort
{
  using SortT       = BlockRadixSort<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, ValueT>;
  using LoadKeysT   = BlockLoad<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, BLOCK_LOAD_TRANSPOSE>;
  using ValueSlotT  = cuda::std::conditional_t<cuda::std::is_same<ValueT, NullType>::value, KeyT, ValueT>;
  using LoadValuesT = BlockLoad<ValueSlotT, BLOCK_THREADS, ITEMS_PER_THREAD, BLOCK_LOAD_TRANSPOSE>;
  using codec_t     = radix_sort::key_codec<KeyT, DESCENDING, radix_sort::no_decomposer>;

  union TempStorage
  {
    typename SortT::TempStorage sort;
    typename LoadKeysT::TempStorage load_keys;
    typename LoadValuesT::TempStorage load_values;
  };

  static STRATA_DEVICE STRATA_FORCEINLINE void Sort(TempStorage& storage, const arrays<KeyT, ValueT>& a,
                                                    long long begin, int len, int begin_bit, int end_bit)
  {
    KeyT keys[ITEMS_PER_THREAD];
    ValueT values[ITEMS_PER_THREAD];
    LoadKeysT(storage.load_keys).Load(a.keys_in + begin, keys, len, codec_t{}.last_key());
    __syncthreads();
    if constexpr (!arrays<KeyT, ValueT>::KEYS_ONLY)
    {
      LoadValuesT(storage.load_values).Load(a.values_in + begin, values, len);
      __syncthreads();
    }
    if constexpr (DESCENDING)
    {
      SortT(storage.sort).SortDescendingBlockedToStriped(keys, values, begin_bit, end_bit);
    }
    else
    {
      SortT(storage.sort).SortBlockedToStriped(keys, values, begin_bit, end_bit);
    }
    STRATA_UNROLL
    for (int j = 0; j < ITEMS_PER_THREAD; ++j)
    {
      const int i = j * BLOCK_THREADS + static_cast<int>(threadIdx.x);
      if (i < len)
      {
        a.keys_out[begin + i] = keys[j];
        if constexpr (!arrays<KeyT, ValueT>::KEYS_ONLY)
        {
          a.values_out[begin + i] = values[j];
        }
      }
    }
    __syncthreads(); // the storage is free for the next segment
  }
};

// Where pass `pass` of `passes` reads and writes in the sorts that go through global memory: the last pass writes the
// output, the ones before alternate between it and `between` so that it does, and the first reads the input.
template <typename KeyT, typename ValueT>
struct pass_buffers
{
  const KeyT* keys_src;
  const ValueT* values_src;
  KeyT* keys_dst;
  ValueT* values_dst;

  static STRATA_DEVICE STRATA_FORCEINLINE pass_buffers of(const arrays<KeyT, ValueT>& a, KeyT* keys_between,
                                                          ValueT* values_between, int pass, int passes)
  {
    const auto to_out = [&](int q) {
      return (passes - 1 - q) % 2 == 0;
    };
    pass_buffers b;
    b.keys_dst   = to_out(pass) ? a.keys_out : keys_between;
    b.values_dst = to_out(pass) ? a.values_out : values_between;
    b.keys_src   = pass == 0 ? a.keys_in : (to_out(pass - 1) ? a.keys_out : keys_between);
    b.values_src = pass == 0 ? a.values_in : (to_out(pass - 1) ? a.values_out : values_between);
    return b;
  }
};

// A tile of up to BLOCK_THREADS x ITEMS_PER_THREAD keys (and values) of one segment, ranked stably by one digit and
// written out by it: the onesweep sort's tile step (AgentRadixSortOnesweep: loaded warp-striped, ranked with warp
// digit counters, each digit's keys leaving shared memory as one run). The large and huge sorts' step. Every thread
// calls.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int RADIX_BITS, bool DESCENDING, typename KeyT, typename ValueT>
struct tile_digit_sort
{
  using PolicyT                   = AgentRadixSortOnesweepPolicy<BLOCK_THREADS, ITEMS_PER_THREAD, RADIX_BITS>;
  using codec_t                   = radix_sort::key_codec<KeyT, DESCENDING, radix_sort::no_decomposer>;
  using AgentT                    = AgentRadixSortOnesweep<PolicyT, KeyT, ValueT, long long, codec_t>;
  using TempStorage               = typename AgentT::TempStorage;
  static constexpr int TILE       = PolicyT::TILE_ITEMS;
  static constexpr int BINS       = 1 << RADIX_BITS;
  static constexpr bool KEYS_ONLY = cuda::std::is_same<ValueT, NullType>::value;
  static constexpr int RANK_WORDS = KEYS_ONLY ? 1 : (ITEMS_PER_THREAD + 1) / 2;

  AgentT agent;
  KeyT keys[ITEMS_PER_THREAD];
  ValueT values[KEYS_ONLY ? 1 : ITEMS_PER_THREAD];
  cuda::std::uint32_t ranks[RANK_WORDS] = {}; // the values' sorted places, two 16-bit ranks a word
  cuda::std::uint32_t own               = 0;  // threads below BINS: the tile's keys of digit threadIdx.x

  STRATA_DEVICE STRATA_FORCEINLINE explicit tile_digit_sort(TempStorage& storage)
      : agent(storage, codec_t{})
  {}

  // Loads `valid` keys (values) from src + at, the positions past `valid` holding a key that ranks after every key,
  // ranks them by bits [start, start + width) and puts the keys into shared memory in sorted order; leaves `own` set.
  // The caller then sets agent.storage.digit_base[d] (threads below BINS, each its own digit) to where the tile's
  // first key of digit d goes less agent.storage.digit_prefix[d], syncs, and calls Write.
  STRATA_DEVICE STRATA_FORCEINLINE void Rank(const KeyT* keys_src, const ValueT* values_src, long long at, int valid,
                                             cuda::std::uint32_t start, cuda::std::uint32_t width)
  {
    agent.template LoadKeys<false>(keys_src + at, valid, keys);
    agent.template Rank<true>(
      keys, valid, start, width,
      [&](cuda::std::uint32_t count) {
        // The positions past `valid` are counted in the digit of the key they hold.
        const bool pads = valid != TILE && threadIdx.x == agent.codec.digit(agent.codec.last_key(), start, width);
        own             = count - (pads ? static_cast<cuda::std::uint32_t>(TILE - valid) : 0u);
      },
      [&](int i, cuda::std::uint32_t rank) {
        agent.storage.exchange.sort.keys[rank] = keys[i];
        if constexpr (!KEYS_ONLY)
        {
          ranks[i / 2] = (i % 2 == 0) ? rank : (ranks[i / 2] | (rank << 16));
        }
      });
    if constexpr (!KEYS_ONLY)
    {
      agent.template LoadValues<false>(values_src + at, valid, values);
    }
  }

  // The tile's keys (values) to dst[digit_base[their digit] + their sorted place], then a barrier.
  STRATA_DEVICE STRATA_FORCEINLINE void Write(KeyT* keys_dst, ValueT* values_dst, int valid, cuda::std::uint32_t start,
                                              cuda::std::uint32_t width)
  {
    agent.template WriteOut<false>(keys_dst, values_dst, valid, start, width, values, ranks);
    __syncthreads();
  }
};

// The digit counts of every pass of the keys [at, at + valid) in counts[pass * BINS + digit] (shared memory, cleared
// here); the large and huge sorts' histograms. Every thread calls; a barrier before and after the counting.
template <int BLOCK_THREADS, int RADIX_BITS, bool DESCENDING, typename KeyT>
STRATA_DEVICE STRATA_FORCEINLINE void count_digits(unsigned int* counts, const KeyT* keys, long long at,
                                                   long long valid, radix_sort::pass_bits<RADIX_BITS> bits)
{
  constexpr int BINS = 1 << RADIX_BITS;
  const int passes   = bits.passes();
  for (int i = threadIdx.x; i < passes * BINS; i += BLOCK_THREADS)
  {
    counts[i] = 0;
  }
  __syncthreads();
  for (long long i = threadIdx.x; i < valid; i += BLOCK_THREADS)
  {
    const KeyT key = keys[at + i];
    for (int p = 0; p < passes; ++p)
    {
      const key_bits<KeyT, DESCENDING> digit{static_cast<int>(bits.start(p)), static_cast<int>(bits.width(p))};
      atomicAdd(&counts[p * BINS + static_cast<int>(digit(key))], 1u);
    }
  }
  __syncthreads();
}

// One segment of any length, sorted by a block (every thread calls) in passes of RADIX_BITS bits from begin_bit up,
// through global memory (pass_buffers; `temp`, indexed as the input, takes the passes between): the digit counts of
// every pass from one read of the segment, then each pass tile by tile in order, each tile ranked and written out
// after the keys of its digits that earlier tiles wrote. With no bits to sort, the segment is copied.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int RADIX_BITS, bool DESCENDING, typename KeyT, typename ValueT>
struct block_large_sort
{
  using TileT               = tile_digit_sort<BLOCK_THREADS, ITEMS_PER_THREAD, RADIX_BITS, DESCENDING, KeyT, ValueT>;
  static constexpr int TILE = TileT::TILE;
  static constexpr int BINS = TileT::BINS;
  static constexpr int MAX_PASSES = (TileT::codec_t::BITS + RADIX_BITS - 1) / RADIX_BITS;
  static constexpr bool KEYS_ONLY = TileT::KEYS_ONLY;
  using ScanT                     = BlockScan<long long, BLOCK_THREADS>;

  struct TempStorage
  {
    typename TileT::TempStorage tile;
    typename ScanT::TempStorage scan;
    unsigned int counts[MAX_PASSES * BINS];
  };

  static STRATA_DEVICE STRATA_FORCEINLINE void Sort(TempStorage& storage, const arrays<KeyT, ValueT>& a,
                                                    KeyT* keys_temp, ValueT* values_temp, long long begin,
                                                    long long len, radix_sort::pass_bits<RADIX_BITS> bits)
  {
    const int tid    = static_cast<int>(threadIdx.x);
    const int passes = bits.passes();
    if (passes <= 0)
    {
      for (long long i = tid; i < len; i += BLOCK_THREADS)
      {
        a.keys_out[begin + i] = a.keys_in[begin + i];
        if constexpr (!KEYS_ONLY)
        {
          a.values_out[begin + i] = a.values_in[begin + i];
        }
      }
      return;
    }
    count_digits<BLOCK_THREADS, RADIX_BITS, DESCENDING>(storage.counts, a.keys_in, begin, len, bits);
    for (int pass = 0; pass < passes; ++pass)
    {
      const auto b     = pass_buffers<KeyT, ValueT>::of(a, keys_temp, values_temp, pass, passes);
      const auto start = bits.start(pass);
      const auto width = bits.width(pass);

      // Each digit's first slot in the segment: the thread of digit d carries it from tile to tile.
      long long next = 0;
      ScanT(storage.scan)
        .ExclusiveSum(tid < BINS ? static_cast<long long>(storage.counts[pass * BINS + tid]) : 0ll, next);
      for (long long tile = 0; tile < len; tile += TILE)
      {
        const int valid = len - tile < TILE ? static_cast<int>(len - tile) : TILE;
        TileT t(storage.tile);
        t.Rank(b.keys_src, b.values_src, begin + tile, valid, start, width);
        if (tid < BINS)
        {
          t.agent.storage.digit_base[tid] = begin + next - static_cast<long long>(t.agent.storage.digit_prefix[tid]);
          next += t.own;
        }
        __syncthreads();
        t.Write(b.keys_dst, b.values_dst, valid, start, width);
      }
    }
  }
};

// The shared state of the huge segments' sort (one persistent kernel): the segments (huge_list[r], r < the count in
// the high bits of *huge_word; their first tiles' numbers huge_tile_base[r]), the work ticket, and per segment r:
// its histogram tiles done (hist_done[r]), its tiles done in each pass (pass_done[r * passes + p]), its digit
// counts in each pass (totals[(r * passes + p) * BINS + d]); per tile and digit the look-back word of the pass that
// last wrote it (status[t * BINS + d]).
struct huge_state
{
  const unsigned long long* huge_word;
  const cuda::std::uint32_t* huge_list;
  const unsigned long long* huge_tile_base;
  long long capacity;
  unsigned int* ticket;
  unsigned int* hist_done;
  unsigned int* pass_done;
  unsigned long long* totals;
  unsigned long long* status;
};

// The huge segments' LSD radix sort, RADIX_BITS a pass, in one persistent kernel whose blocks take units of work by
// a ticket, in order: first a histogram unit for every tile (the tile's digit counts of every pass added to its
// segment's totals; its look-back words cleared), then pass by pass a scatter unit for every tile: the tile ranked
// by the pass's digit, each digit's place among the segment's earlier tiles found by a decoupled look-back over
// their words, and the tile written out at the segment's digit bases (a scan of its totals) plus that place
// (tile_digit_sort). A unit waits only on units with earlier tickets (its segment's histograms, its segment's
// previous pass, its tile's predecessors), which are held by running blocks, so the kernel makes progress whatever
// the scheduler does. A tile's look-back words serve every pass: each word carries the pass that wrote it (plus
// one), and a pass reads only its own; a pass overwrites the words of the one before only after all of its
// segment's tiles finished that one. The passes go between the output and `between` as block_large_sort's do.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int RADIX_BITS, bool DESCENDING, typename KeyT, typename ValueT>
struct huge_sort
{
  using TileT               = tile_digit_sort<BLOCK_THREADS, ITEMS_PER_THREAD, RADIX_BITS, DESCENDING, KeyT, ValueT>;
  static constexpr int TILE = TileT::TILE;
  static constexpr int BINS = TileT::BINS;
  static constexpr int MAX_PASSES               = (TileT::codec_t::BITS + RADIX_BITS - 1) / RADIX_BITS;
  using ScanT                                   = BlockScan<unsigned long long, BLOCK_THREADS>;
  using word_ref                                = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
  using count_ref                               = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;
  static constexpr int PASS_SHIFT               = 58;         // bits 58..63: the pass that wrote the word, plus one
  static constexpr unsigned long long INCLUSIVE = 1ull << 57; // the count of the tile and every earlier one
  static constexpr unsigned long long COUNT     = (1ull << 57) - 1;
  static_assert(MAX_PASSES < 64, "a pass number fits its bits");

  struct TempStorage
  {
    union
    {
      typename TileT::TempStorage tile;
      unsigned int counts[MAX_PASSES * BINS];
    } alias;
    typename ScanT::TempStorage scan;
    unsigned int unit;
  };

  // Spins (one thread) until *counter reaches `target`; what was written before it was counted is then visible.
  static STRATA_DEVICE STRATA_FORCEINLINE void wait_for(unsigned int* counter, unsigned int target)
  {
    count_ref ref(*counter);
    while (ref.load(cuda::std::memory_order_acquire) < target)
    {
      __nanosleep(64);
    }
  }

  template <typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static STRATA_DEVICE STRATA_FORCEINLINE void Run(TempStorage& storage, const arrays<KeyT, ValueT>& a,
                                                   KeyT* keys_between, ValueT* values_between,
                                                   BeginOffsetIteratorT d_begin, EndOffsetIteratorT d_end,
                                                   const huge_state& state, radix_sort::pass_bits<RADIX_BITS> bits)
  {
    const int tid                 = static_cast<int>(threadIdx.x);
    const int passes              = bits.passes();
    const unsigned long long word = *state.huge_word;
    const long long appended      = static_cast<long long>(word >> 40);
    const long long num_huge      = appended < state.capacity ? appended : state.capacity;
    if (num_huge == 0 || passes <= 0)
    {
      return;
    }
    // The tiles of the segments kept (all of them unless the segments overlap).
    long long last_begin = 0;
    long long last_len   = 0;
    bounds_of(d_begin, d_end, static_cast<long long>(state.huge_list[num_huge - 1]), last_begin, last_len);
    const long long tiles = static_cast<long long>(state.huge_tile_base[num_huge - 1]) + (last_len + TILE - 1) / TILE;
    const long long units = tiles * (1 + passes);

    for (;;)
    {
      // A ticket is taken only when its unit can start: a unit held but not started would stall the look-backs of
      // the tiles after it.
      if (tid == 0)
      {
        storage.unit = atomicAdd(state.ticket, 1u);
      }
      __syncthreads();
      const long long unit = static_cast<long long>(storage.unit);
      __syncthreads();
      if (unit >= units)
      {
        return;
      }
      const bool histogram = unit < tiles;
      const long long t    = histogram ? unit : (unit - tiles) % tiles;
      const int pass       = histogram ? -1 : static_cast<int>((unit - tiles) / tiles);

      // The tile's segment: the last whose first tile is at or before t, found by the block's threads probing
      // BLOCK_THREADS first tiles at a time (one round for up to BLOCK_THREADS huge segments).
      long long lo = 0;
      long long hi = num_huge - 1;
      while (lo < hi)
      {
        const long long step  = (hi - lo + BLOCK_THREADS) / BLOCK_THREADS;
        const long long probe = lo + tid * step;
        const int at_or_before =
          __syncthreads_count(probe <= hi && static_cast<long long>(state.huge_tile_base[probe]) <= t);
        lo = lo + (at_or_before - 1) * step;
        hi = lo + step - 1 < hi ? lo + step - 1 : hi;
      }
      const long long r = lo;
      long long begin   = 0;
      long long len     = 0;
      bounds_of(d_begin, d_end, static_cast<long long>(state.huge_list[r]), begin, len);
      const long long j          = t - static_cast<long long>(state.huge_tile_base[r]);
      const long long first      = j * TILE;
      const int valid            = len - first < TILE ? static_cast<int>(len - first) : TILE;
      const unsigned int tiles_r = static_cast<unsigned int>((len + TILE - 1) / TILE);

      if (histogram)
      {
        Histogram(storage, a, state, r, t, begin + first, valid, bits);
      }
      else
      {
        Scatter(storage, a, keys_between, values_between, state, r, t, j, begin, first, valid, tiles_r, pass, bits);
      }
      __syncthreads();
    }
  }

private:
  // A histogram unit: the tile's digit counts of every pass into its segment's totals; its look-back words cleared.
  static STRATA_DEVICE STRATA_FORCEINLINE void Histogram(TempStorage& storage, const arrays<KeyT, ValueT>& a,
                                                         const huge_state& state, long long r, long long t,
                                                         long long at, int valid,
                                                         radix_sort::pass_bits<RADIX_BITS> bits)
  {
    const int tid    = static_cast<int>(threadIdx.x);
    const int passes = bits.passes();
    count_digits<BLOCK_THREADS, RADIX_BITS, DESCENDING>(storage.alias.counts, a.keys_in, at, valid, bits);
    for (int i = tid; i < passes * BINS; i += BLOCK_THREADS)
    {
      if (storage.alias.counts[i] != 0)
      {
        atomicAdd(&state.totals[r * passes * BINS + i], static_cast<unsigned long long>(storage.alias.counts[i]));
      }
    }
    for (int d = tid; d < BINS; d += BLOCK_THREADS)
    {
      word_ref(state.status[t * BINS + d]).store(0, cuda::std::memory_order_relaxed);
    }
    __threadfence();
    __syncthreads();
    if (tid == 0)
    {
      count_ref(state.hist_done[r]).fetch_add(1u, cuda::std::memory_order_release);
    }
  }

  // A scatter unit of pass `pass`: tile j of segment r (global tile t), `valid` keys from item `first` of the
  // segment at `begin`.
  static STRATA_DEVICE STRATA_FORCEINLINE void
  Scatter(TempStorage& storage, const arrays<KeyT, ValueT>& a, KeyT* keys_between, ValueT* values_between,
          const huge_state& state, long long r, long long t, long long j, long long begin, long long first, int valid,
          unsigned int tiles_r, int pass, radix_sort::pass_bits<RADIX_BITS> bits)
  {
    const int tid    = static_cast<int>(threadIdx.x);
    const int passes = bits.passes();
    if (tid == 0)
    {
      // The segment's totals are complete, and its previous pass has been written.
      wait_for(&state.hist_done[r], tiles_r);
      if (pass > 0)
      {
        wait_for(&state.pass_done[r * passes + pass - 1], tiles_r);
      }
      __threadfence();
    }
    __syncthreads();
    const auto b     = pass_buffers<KeyT, ValueT>::of(a, keys_between, values_between, pass, passes);
    const auto start = bits.start(pass);
    const auto width = bits.width(pass);
    // The segment's digit counts of this pass, read before the ranking so that the load overlaps it.
    const unsigned long long total = tid < BINS ? state.totals[(r * passes + pass) * BINS + tid] : 0ull;
    TileT tile(storage.alias.tile);
    tile.Rank(b.keys_src, b.values_src, begin + first, valid, start, width);

    // The segment's digit bases of this pass.
    unsigned long long digit_base = 0;
    ScanT(storage.scan).ExclusiveSum(total, digit_base);

    if (tid < BINS)
    {
      // Publish the tile's keys of digit tid, then look back over the segment's earlier tiles for those before it.
      const unsigned long long tag = static_cast<unsigned long long>(pass + 1) << PASS_SHIFT;
      const unsigned long long own = tile.own;
      word_ref(state.status[t * BINS + tid])
        .store(tag | (j == 0 ? INCLUSIVE : 0ull) | own, cuda::std::memory_order_relaxed);
      unsigned long long before = 0;
      for (long long q = t - 1; j > 0 && q >= t - j; --q)
      {
        word_ref slot(state.status[q * BINS + tid]);
        unsigned long long w = slot.load(cuda::std::memory_order_relaxed);
        while ((w >> PASS_SHIFT) != static_cast<unsigned long long>(pass + 1))
        {
          w = slot.load(cuda::std::memory_order_relaxed);
        }
        before += w & COUNT;
        if (w & INCLUSIVE)
        {
          break;
        }
      }
      if (j > 0)
      {
        word_ref(state.status[t * BINS + tid]).store(tag | INCLUSIVE | (before + own), cuda::std::memory_order_relaxed);
      }
      tile.agent.storage.digit_base[tid] = begin + static_cast<long long>(digit_base + before)
                                         - static_cast<long long>(tile.agent.storage.digit_prefix[tid]);
    }
    __syncthreads();
    tile.Write(b.keys_dst, b.values_dst, valid, start, width);
    __threadfence();
    __syncthreads();
    if (tid == 0)
    {
      count_ref(state.pass_done[r * passes + pass]).fetch_add(1u, cuda::std::memory_order_release);
    }
  }
};

} // namespace segmented_sort
} // namespace detail

STRATA_NAMESPACE_END
