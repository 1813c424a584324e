// BlockRadixRank and BlockRadixRankMatch: the stable rank of every key of a tile by one radix digit, the step
// that one pass of a radix sort scatters by.
#pragma once

#include <strata/block/block_scan.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! How a tile's keys are ranked (chosen by the policies of radix sorting agents).
enum RadixRankAlgorithm
{
  //! BlockRadixRank with MEMOIZE_OUTER_SCAN = false: thread-private digit counters; keys in a blocked arrangement.
  RADIX_RANK_BASIC,
  //! BlockRadixRank with MEMOIZE_OUTER_SCAN = true: as RADIX_RANK_BASIC, the raking segment kept in registers.
  RADIX_RANK_MEMOIZE,
  //! BlockRadixRankMatch: warp-private digit counters, lanes of equal digits found by matching; keys in a
  //! warp-striped arrangement. Less shared memory than RADIX_RANK_BASIC; supports a counts callback.
  RADIX_RANK_MATCH,
};

//! The callback that ignores the digit counts (the default of the RankKeys overloads that take none).
template <int BINS_PER_THREAD>
struct BlockRadixRankEmptyCallback
{
  STRATA_DEVICE STRATA_FORCEINLINE void operator()(int (&)[BINS_PER_THREAD]) {}
};

//! BlockRadixRank<BLOCK_DIM_X, RADIX_BITS, IS_DESCENDING, MEMOIZE_OUTER_SCAN, INNER_SCAN_ALGORITHM, SMEM_CONFIG,
//! BLOCK_DIM_Y, BLOCK_DIM_Z> ranks the keys of a tile held by a thread block by one digit of RADIX_BITS bits.
//!
//! - Keys are unsigned bits (twiddled, see radix_rank_sort_operations.cuh) in a blocked arrangement: thread t holds
//!   tile items t * KEYS_PER_THREAD + i, threads ranked by RowMajorTid. `digit_extractor.Digit(key)` gives the digit,
//!   which must be below 2^RADIX_BITS.
//! - ranks[i] is the key's position in the tile stably sorted by digit (ascending, or descending when
//!   IS_DESCENDING): the keys of smaller (larger) digits come first, then the keys of its own digit that precede it
//!   in the tile. The ranks of a tile are a permutation of [0, tile size).
//! - The exclusive_digit_prefix overload also gives, for bin b = linear_tid * BINS_TRACKED_PER_THREAD + track
//!   (b < 2^RADIX_BITS), the rank of the first key of digit b (the number of keys ranked before digit b).
//! - Temporary storage: TempStorage, or the default constructor's private __shared__ allocation. Every thread of
//!   the block must call RankKeys; pass a __syncthreads() before reusing the TempStorage.
//! - Tiles of at most 65535 keys (16-bit counters). Shared memory: (2^RADIX_BITS / 2 + 1) 32-bit counters per
//!   thread with the default 4-byte SMEM_CONFIG (cudaSharedMemBankSizeEightByte packs four 16-bit counters into
//!   64-bit words), plus a BlockScan's storage.
//! - Cost: per key one shared-memory read and write of its thread's counter; two barriers and a raking pass of
//!   2^RADIX_BITS / 2 + 1 counters per thread around one BlockScan of INNER_SCAN_ALGORITHM.
//!
//! Example (128 threads, 4 keys each, ranked by bits [0, 4)):
//!   using BlockRadixRankT = strata::BlockRadixRank<128, 4, false>;
//!   __shared__ typename BlockRadixRankT::TempStorage temp_storage;
//!   unsigned int keys[4];  // ... a blocked arrangement
//!   int ranks[4];
//!   BlockRadixRankT(temp_storage).RankKeys(keys, ranks, strata::BFEDigitExtractor<unsigned int>(0, 4));
template <int BLOCK_DIM_X, int RADIX_BITS, bool IS_DESCENDING, bool MEMOIZE_OUTER_SCAN = true,
          BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig SMEM_CONFIG = cudaSharedMemBankSizeFourByte, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockRadixRank
{
  static_assert(RADIX_BITS >= 1 && RADIX_BITS <= 16, "digits of 1..16 bits");

  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int RADIX_DIGITS  = 1 << RADIX_BITS;

  // Every thread counts its own keys in 16-bit counters, several packed into one word: a digit's counter sits in
  // lane (digit % COUNTER_LANES), field (digit / COUNTER_LANES) of the word. Scanning the words with word-wide
  // additions scans all fields at once, and no field overflows into the next because no count exceeds the tile.
  using DigitCounter = cuda::std::uint16_t;
  using PackedCounter =
    cuda::std::conditional_t<SMEM_CONFIG == cudaSharedMemBankSizeEightByte, unsigned long long, unsigned int>;

  static constexpr int PACKING_RATIO     = static_cast<int>(sizeof(PackedCounter) / sizeof(DigitCounter));
  static constexpr int LOG_PACKING_RATIO = cuda::ilog2(PACKING_RATIO);
  static constexpr int LOG_COUNTER_LANES = RADIX_BITS > LOG_PACKING_RATIO ? RADIX_BITS - LOG_PACKING_RATIO : 0;
  static constexpr int COUNTER_LANES     = 1 << LOG_COUNTER_LANES;
  static constexpr int MAX_TILE_ITEMS    = 65535;

  // Counters are laid out [lane][thread][field]: in the counting pass thread t touches word lane * BLOCK_THREADS + t,
  // so the threads of a warp hit distinct banks whatever their digits (when BLOCK_THREADS is a multiple of 32). The
  // scan rakes the same words as [thread][segment] rows; an extra, always-zero lane makes the rows an odd number of
  // words long, so that the raking threads of a warp hit distinct banks too. (One lane needs no padding: a row of
  // one word is conflict-free already.)
  static constexpr int RAKING_SEGMENT = COUNTER_LANES == 1 ? 1 : COUNTER_LANES + 1;

public:
  //! Bins of the exclusive_digit_prefix output per thread.
  static constexpr int BINS_TRACKED_PER_THREAD = RADIX_DIGITS > BLOCK_THREADS
                                                 ? (RADIX_DIGITS + BLOCK_THREADS - 1) / BLOCK_THREADS
                                                 : 1;

private:
  using BlockScanT = BlockScan<PackedCounter, BLOCK_DIM_X, INNER_SCAN_ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z>;

  struct alignas(16) _TempStorage
  {
    union Aliasable
    {
      DigitCounter digit_counters[RAKING_SEGMENT][BLOCK_THREADS][PACKING_RATIO];
      PackedCounter raking_grid[BLOCK_THREADS][RAKING_SEGMENT];
    } aliasable;
    // Separate from the counters: the scan runs while the raking segments are still live.
    typename BlockScanT::TempStorage block_scan;
  };

  _TempStorage& temp_storage;
  unsigned int linear_tid;

  static STRATA_DEVICE STRATA_FORCEINLINE _TempStorage& PrivateStorage()
  {
    __shared__ _TempStorage private_storage;
    return private_storage;
  }

  // The digit in counting order: descending ranks count digits from the top.
  static STRATA_DEVICE STRATA_FORCEINLINE cuda::std::uint32_t CountingDigit(cuda::std::uint32_t digit)
  {
    return IS_DESCENDING ? static_cast<cuda::std::uint32_t>(RADIX_DIGITS - 1) - digit : digit;
  }

  STRATA_DEVICE STRATA_FORCEINLINE DigitCounter& Counter(cuda::std::uint32_t counting_digit, unsigned int thread)
  {
    return temp_storage.aliasable
      .digit_counters[counting_digit & (COUNTER_LANES - 1)][thread][counting_digit >> LOG_COUNTER_LANES];
  }

  // Each thread clears only its own column, which no other thread touches before the next barrier.
  STRATA_DEVICE STRATA_FORCEINLINE void ResetCounters()
  {
    STRATA_UNROLL
    for (int lane = 0; lane < RAKING_SEGMENT; ++lane)
    {
      *reinterpret_cast<PackedCounter*>(temp_storage.aliasable.digit_counters[lane][linear_tid]) = 0;
    }
  }

  // The sum of the words' fields below each field, in that field: what field f must add so that it continues
  // where fields 0 .. f-1 ended.
  static STRATA_DEVICE STRATA_FORCEINLINE PackedCounter LowerFieldTotals(PackedCounter block_aggregate)
  {
    PackedCounter totals = 0;
    STRATA_UNROLL
    for (int field = 1; field < PACKING_RATIO; ++field)
    {
      totals += block_aggregate << (8 * sizeof(DigitCounter) * field);
    }
    return totals;
  }

  // Exclusive prefix sum over all counter words in [thread][segment] order, which is the rank order: digit
  // (lane, then field) first, thread next.
  STRATA_DEVICE STRATA_FORCEINLINE void ScanCounters()
  {
    PackedCounter* row = temp_storage.aliasable.raking_grid[linear_tid];
    PackedCounter segment[RAKING_SEGMENT];
    PackedCounter partial = 0;
    STRATA_UNROLL
    for (int i = 0; i < RAKING_SEGMENT; ++i)
    {
      segment[i] = row[i];
      partial += segment[i];
    }

    PackedCounter running, block_aggregate;
    BlockScanT(temp_storage.block_scan).ExclusiveSum(partial, running, block_aggregate);
    running += LowerFieldTotals(block_aggregate);

    STRATA_UNROLL
    for (int i = 0; i < RAKING_SEGMENT; ++i)
    {
      // Without memoization the segment is read again from shared memory (fewer registers live across the scan).
      const PackedCounter count = MEMOIZE_OUTER_SCAN ? segment[i] : row[i];
      row[i]                    = running;
      running += count;
    }
  }

public:
  //! Shared memory for one RankKeys call.
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  //! Uses a private __shared__ allocation as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockRadixRank()
      : temp_storage(PrivateStorage())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  //! Uses `storage` as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockRadixRank(TempStorage& storage)
      : temp_storage(storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  //! ranks[i] = the stable rank of keys[i] by digit_extractor.Digit(keys[i]).
  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT>
  STRATA_DEVICE STRATA_FORCEINLINE void RankKeys(const UnsignedBits (&keys)[KEYS_PER_THREAD],
                                                 int (&ranks)[KEYS_PER_THREAD], DigitExtractorT digit_extractor)
  {
    static_assert(BLOCK_THREADS * KEYS_PER_THREAD <= MAX_TILE_ITEMS, "16-bit digit counters hold tiles of < 2^16 keys");

    DigitCounter* counters[KEYS_PER_THREAD];
    DigitCounter thread_prefixes[KEYS_PER_THREAD];

    // Count this thread's keys per digit; the count before a key is its rank among the thread's keys of its digit.
    ResetCounters();
    STRATA_UNROLL
    for (int i = 0; i < KEYS_PER_THREAD; ++i)
    {
      counters[i]        = &Counter(CountingDigit(digit_extractor.Digit(keys[i])), linear_tid);
      thread_prefixes[i] = *counters[i];
      *counters[i]       = static_cast<DigitCounter>(thread_prefixes[i] + 1);
    }
    __syncthreads();

    // Turn the counters into the number of keys ranked before each (digit, thread) pair.
    ScanCounters();
    __syncthreads();

    STRATA_UNROLL
    for (int i = 0; i < KEYS_PER_THREAD; ++i)
    {
      ranks[i] = static_cast<int>(thread_prefixes[i]) + static_cast<int>(*counters[i]);
    }
  }

  //! As above; exclusive_digit_prefix[track] = the number of keys ranked before those of digit
  //! linear_tid * BINS_TRACKED_PER_THREAD + track (left unwritten for bins past 2^RADIX_BITS).
  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT>
  STRATA_DEVICE STRATA_FORCEINLINE void RankKeys(const UnsignedBits (&keys)[KEYS_PER_THREAD],
                                                 int (&ranks)[KEYS_PER_THREAD], DigitExtractorT digit_extractor,
                                                 int (&exclusive_digit_prefix)[BINS_TRACKED_PER_THREAD])
  {
    RankKeys(keys, ranks, digit_extractor);

    // Thread 0's counter of a digit holds the keys ranked before every key of that digit.
    constexpr bool EVERY_BIN_VALID = BINS_TRACKED_PER_THREAD * BLOCK_THREADS == RADIX_DIGITS;
    STRATA_UNROLL
    for (int track = 0; track < BINS_TRACKED_PER_THREAD; ++track)
    {
      const unsigned int bin = linear_tid * BINS_TRACKED_PER_THREAD + track;
      if (EVERY_BIN_VALID || bin < RADIX_DIGITS)
      {
        exclusive_digit_prefix[track] = static_cast<int>(Counter(CountingDigit(bin), 0));
      }
    }
  }
};

//! BlockRadixRankMatch<BLOCK_DIM_X, RADIX_BITS, IS_DESCENDING, INNER_SCAN_ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z> ranks
//! the keys of a tile by one digit, as BlockRadixRank does, with per-warp digit counters: the lanes of a warp that
//! hold equal digits find each other by matching (MatchAny), and one of them updates the warp's counter.
//!
//! - Keys are in a warp-striped arrangement (BlockExchange's): warp w holds tile items w * 32 * KEYS_PER_THREAD +
//!   i * n + lane, n being the warp's thread count (32, or fewer in a last, partial warp). Ranks are stable in that
//!   order. `digit_extractor.Digit(key)` must be below 2^RADIX_BITS.
//! - The callback overloads call callback(bins) in every thread after ranking, with bins[track] = the number of
//!   keys of digit linear_tid * BINS_TRACKED_PER_THREAD + track (0 for bins past 2^RADIX_BITS);
//!   exclusive_digit_prefix as in BlockRadixRank.
//! - Temporary storage: TempStorage, or the default constructor's private __shared__ allocation. Every thread of
//!   the block must call RankKeys; pass a __syncthreads() before reusing the TempStorage.
//! - Shared memory: one 32-bit counter per (digit, warp), plus a BlockScan's storage; no limit on the tile size
//!   below 2^31 keys.
//! - Cost: per key RADIX_BITS ballots (a match.any.sync above 8 bits), a shared-memory read and two warp barriers;
//!   three block barriers around one BlockScan of about 2^RADIX_BITS * warps / BLOCK_THREADS counters per thread.
//!
//! Example (256 threads, 8 keys each, 8-bit digits from bit 16):
//!   using BlockRadixRankT = strata::BlockRadixRankMatch<256, 8, false>;
//!   __shared__ typename BlockRadixRankT::TempStorage temp_storage;
//!   unsigned int keys[8];  // ... a warp-striped arrangement
//!   int ranks[8];
//!   BlockRadixRankT(temp_storage).RankKeys(keys, ranks, strata::BFEDigitExtractor<unsigned int>(16, 8));
template <int BLOCK_DIM_X, int RADIX_BITS, bool IS_DESCENDING,
          BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockRadixRankMatch
{
  static_assert(RADIX_BITS >= 1 && RADIX_BITS <= 16, "digits of 1..16 bits");

  static constexpr int BLOCK_THREADS        = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int RADIX_DIGITS         = 1 << RADIX_BITS;
  static constexpr int WARPS                = (BLOCK_THREADS + WARP_THREADS - 1) / WARP_THREADS;
  static constexpr int PARTIAL_WARP_THREADS = BLOCK_THREADS % WARP_THREADS;

  // Counters are laid out [digit][warp]: a linear scan over them visits digit by digit, warp by warp within a
  // digit, which is the rank order. An odd row length spreads the counters of different digits that lanes of one
  // warp update over distinct banks; the raking rows of the scan are odd for the same reason.
  static constexpr int PADDED_WARPS          = (WARPS % 2 == 0) ? WARPS + 1 : WARPS;
  static constexpr int COUNTERS              = PADDED_WARPS * RADIX_DIGITS;
  static constexpr int RAKING_SEGMENT        = (COUNTERS + BLOCK_THREADS - 1) / BLOCK_THREADS;
  static constexpr int PADDED_RAKING_SEGMENT = (RAKING_SEGMENT % 2 == 0) ? RAKING_SEGMENT + 1 : RAKING_SEGMENT;

public:
  //! Bins of the exclusive_digit_prefix and callback outputs per thread.
  static constexpr int BINS_TRACKED_PER_THREAD = RADIX_DIGITS > BLOCK_THREADS
                                                 ? (RADIX_DIGITS + BLOCK_THREADS - 1) / BLOCK_THREADS
                                                 : 1;

private:
  using BlockScanT = BlockScan<int, BLOCK_DIM_X, INNER_SCAN_ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z>;

  struct alignas(16) _TempStorage
  {
    typename BlockScanT::TempStorage block_scan;
    union Aliasable
    {
      int warp_digit_counters[RADIX_DIGITS][PADDED_WARPS];
      int raking_grid[BLOCK_THREADS][PADDED_RAKING_SEGMENT];
    } aliasable;
  };

  _TempStorage& temp_storage;
  unsigned int linear_tid;

  static STRATA_DEVICE STRATA_FORCEINLINE _TempStorage& PrivateStorage()
  {
    __shared__ _TempStorage private_storage;
    return private_storage;
  }

  static STRATA_DEVICE STRATA_FORCEINLINE cuda::std::uint32_t CountingDigit(cuda::std::uint32_t digit)
  {
    return IS_DESCENDING ? static_cast<cuda::std::uint32_t>(RADIX_DIGITS - 1) - digit : digit;
  }

  // The lanes of this thread's warp (fewer than 32 in a last, partial warp).
  static STRATA_DEVICE STRATA_FORCEINLINE unsigned int WarpMembers(unsigned int warp_id)
  {
    constexpr unsigned int PARTIAL_MASK = PARTIAL_WARP_THREADS == 0 ? 0xffffffffu : (1u << PARTIAL_WARP_THREADS) - 1u;
    return (PARTIAL_WARP_THREADS != 0 && warp_id == WARPS - 1) ? PARTIAL_MASK : 0xffffffffu;
  }

public:
  //! Shared memory for one RankKeys call.
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  //! Uses a private __shared__ allocation as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockRadixRankMatch()
      : temp_storage(PrivateStorage())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  //! Uses `storage` as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockRadixRankMatch(TempStorage& storage)
      : temp_storage(storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  //! callback(bins) with bins[track] = the number of keys of digit linear_tid * BINS_TRACKED_PER_THREAD + track, in a
  //! tile of KEYS_PER_THREAD keys per thread. requires: the counters hold a finished RankKeys' scan.
  template <int KEYS_PER_THREAD, typename CountsCallback>
  STRATA_DEVICE STRATA_FORCEINLINE void CallBack(CountsCallback callback)
  {
    constexpr int TILE_ITEMS = KEYS_PER_THREAD * BLOCK_THREADS;
    int bins[BINS_TRACKED_PER_THREAD];
    STRATA_UNROLL
    for (int track = 0; track < BINS_TRACKED_PER_THREAD; ++track)
    {
      const unsigned int bin = linear_tid * BINS_TRACKED_PER_THREAD + track;
      bins[track]            = 0;
      if (bin < RADIX_DIGITS)
      {
        // Counters hold exclusive prefixes in counting order; a digit's count runs to the next digit's prefix.
        const unsigned int d = CountingDigit(bin);
        const int next = (d + 1 < RADIX_DIGITS) ? temp_storage.aliasable.warp_digit_counters[d + 1][0] : TILE_ITEMS;
        bins[track]    = next - temp_storage.aliasable.warp_digit_counters[d][0];
      }
    }
    callback(bins);
  }

  //! ranks[i] = the stable rank of keys[i] by digit_extractor.Digit(keys[i]); then callback(digit counts).
  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT, typename CountsCallback>
  STRATA_DEVICE STRATA_FORCEINLINE void RankKeys(const UnsignedBits (&keys)[KEYS_PER_THREAD],
                                                 int (&ranks)[KEYS_PER_THREAD], DigitExtractorT digit_extractor,
                                                 CountsCallback callback)
  {
    // The raking rows cover every counter.
    STRATA_UNROLL
    for (int i = 0; i < PADDED_RAKING_SEGMENT; ++i)
    {
      temp_storage.aliasable.raking_grid[linear_tid][i] = 0;
    }
    __syncthreads();

    // Warp by warp, one strip of 32 keys at a time: the lanes of equal digits add their number to the warp's counter
    // of that digit, and each takes the counter's old value plus its place among them as its rank within the warp.
    const unsigned int warp_id      = WARPS == 1 ? 0u : linear_tid / WARP_THREADS;
    const unsigned int members      = WarpMembers(warp_id);
    const unsigned int lane_mask_lt = LaneMaskLt();
    int* counters[KEYS_PER_THREAD];
    STRATA_UNROLL
    for (int i = 0; i < KEYS_PER_THREAD; ++i)
    {
      const cuda::std::uint32_t digit = CountingDigit(digit_extractor.Digit(keys[i]));
      const unsigned int peers        = MatchAny<RADIX_BITS>(digit, members);
      counters[i]                     = &temp_storage.aliasable.warp_digit_counters[digit][warp_id];
      const int warp_prefix           = *counters[i];
      // Every lane has read the counter before its first peer overwrites it ...
      WarpSync(members);
      const int earlier_peers = __popc(peers & lane_mask_lt);
      if (earlier_peers == 0)
      {
        *counters[i] = warp_prefix + __popc(peers);
      }
      // ... and the new value is visible to the next strip.
      WarpSync(members);
      ranks[i] = warp_prefix + earlier_peers;
    }
    __syncthreads();

    // Exclusive scan of all counters, in rank order.
    int segment[PADDED_RAKING_SEGMENT];
    STRATA_UNROLL
    for (int i = 0; i < PADDED_RAKING_SEGMENT; ++i)
    {
      segment[i] = temp_storage.aliasable.raking_grid[linear_tid][i];
    }
    BlockScanT(temp_storage.block_scan).ExclusiveSum(segment, segment);
    STRATA_UNROLL
    for (int i = 0; i < PADDED_RAKING_SEGMENT; ++i)
    {
      temp_storage.aliasable.raking_grid[linear_tid][i] = segment[i];
    }
    __syncthreads();

    if constexpr (!cuda::std::is_same<CountsCallback, BlockRadixRankEmptyCallback<BINS_TRACKED_PER_THREAD>>::value)
    {
      CallBack<KEYS_PER_THREAD>(callback);
    }

    STRATA_UNROLL
    for (int i = 0; i < KEYS_PER_THREAD; ++i)
    {
      ranks[i] += *counters[i];
    }
  }

  //! ranks[i] = the stable rank of keys[i] by digit_extractor.Digit(keys[i]).
  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT>
  STRATA_DEVICE STRATA_FORCEINLINE void RankKeys(const UnsignedBits (&keys)[KEYS_PER_THREAD],
                                                 int (&ranks)[KEYS_PER_THREAD], DigitExtractorT digit_extractor)
  {
    RankKeys(keys, ranks, digit_extractor, BlockRadixRankEmptyCallback<BINS_TRACKED_PER_THREAD>());
  }

  //! As RankKeys with a callback; also exclusive_digit_prefix[track] = the number of keys ranked before those of
  //! digit linear_tid * BINS_TRACKED_PER_THREAD + track (left unwritten for bins past 2^RADIX_BITS).
  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT, typename CountsCallback>
  STRATA_DEVICE STRATA_FORCEINLINE void
  RankKeys(const UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD], DigitExtractorT digit_extractor,
           int (&exclusive_digit_prefix)[BINS_TRACKED_PER_THREAD], CountsCallback callback)
  {
    RankKeys(keys, ranks, digit_extractor, callback);

    constexpr bool EVERY_BIN_VALID = BINS_TRACKED_PER_THREAD * BLOCK_THREADS == RADIX_DIGITS;
    STRATA_UNROLL
    for (int track = 0; track < BINS_TRACKED_PER_THREAD; ++track)
    {
      const unsigned int bin = linear_tid * BINS_TRACKED_PER_THREAD + track;
      if (EVERY_BIN_VALID || bin < RADIX_DIGITS)
      {
        exclusive_digit_prefix[track] = temp_storage.aliasable.warp_digit_counters[CountingDigit(bin)][0];
      }
    }
  }

  //! As above, without a callback.
  template <typename UnsignedBits, int KEYS_PER_THREAD, typename DigitExtractorT>
  STRATA_DEVICE STRATA_FORCEINLINE void RankKeys(const UnsignedBits (&keys)[KEYS_PER_THREAD],
                                                 int (&ranks)[KEYS_PER_THREAD], DigitExtractorT digit_extractor,
                                                 int (&exclusive_digit_prefix)[BINS_TRACKED_PER_THREAD])
  {
    RankKeys(keys, ranks, digit_extractor, exclusive_digit_prefix,
             BlockRadixRankEmptyCallback<BINS_TRACKED_PER_THREAD>());
  }
};

STRATA_NAMESPACE_END
