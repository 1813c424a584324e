// BlockRadixRank (blocked keys) and BlockRadixRankMatch (warp-striped keys): every RankKeys overload against a host
// counting rank. For a digit extractor over bits [bit_start, bit_start + RADIX_BITS), the rank of the key at tile
// position p is (the number of keys whose digit comes first in the sort order) + (the number of keys of its digit at
// positions before p); exclusive_digit_prefix[bin] is the first of these for digit `bin`, and the counts callback
// gets the number of keys of each digit.
//
// Each block ranks one tile twice with the same TempStorage: RankKeys(keys, ranks, extractor) by one digit, then the
// overload with exclusive_digit_prefix (and, for BlockRadixRankMatch, a counts callback) by another digit.
#include <strata/block/block_radix_rank.cuh>

#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

namespace
{
constexpr int GRID_BLOCKS = 3;

enum class ranker
{
  basic, // BlockRadixRank, blocked arrangement
  match  // BlockRadixRankMatch, warp-striped arrangement
};

// The knobs of BlockRadixRank besides its shape (BlockRadixRankMatch uses SCAN only).
template <bool MEMOIZE_ = true, strata::BlockScanAlgorithm SCAN_ = strata::BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig SMEM_ = cudaSharedMemBankSizeFourByte, bool PRIVATE_STORAGE_ = false>
struct rank_config
{
  static constexpr bool MEMOIZE                    = MEMOIZE_;
  static constexpr strata::BlockScanAlgorithm SCAN = SCAN_;
  static constexpr cudaSharedMemConfig SMEM        = SMEM_;
  static constexpr bool PRIVATE_STORAGE            = PRIVATE_STORAGE_;
};
using default_config = rank_config<>;

template <ranker R, int BX, int BY, int RADIX_BITS, bool DESCENDING, typename Config>
using rank_t = std::conditional_t<
  R == ranker::basic,
  strata::BlockRadixRank<BX, RADIX_BITS, DESCENDING, Config::MEMOIZE, Config::SCAN, Config::SMEM, BY>,
  strata::BlockRadixRankMatch<BX, RADIX_BITS, DESCENDING, Config::SCAN, BY>>;

// Tile position of thread t's item i: blocked, or warp-striped (a last, partial warp of n threads strides by n).
__host__ __device__ inline int tile_position(ranker r, int t, int i, int threads, int items)
{
  if (r == ranker::basic)
  {
    return t * items + i;
  }
  const int w = t / 32;
  const int l = t % 32;
  const int n = (threads - 32 * w) < 32 ? (threads - 32 * w) : 32;
  return w * 32 * items + i * n + l;
}

// Stores the digit counts of the bins a thread is given.
template <int BINS_PER_THREAD>
struct store_counts
{
  int* d_counts;
  int first_bin;
  int radix_digits;

  __device__ void operator()(int (&bins)[BINS_PER_THREAD]) const
  {
    for (int track = 0; track < BINS_PER_THREAD; ++track)
    {
      if (first_bin + track < radix_digits)
      {
        d_counts[first_bin + track] = bins[track];
      }
    }
  }
};

struct no_storage
{};

template <typename KeyT, ranker R, int BX, int BY, int ITEMS, int RADIX_BITS, bool DESCENDING, typename Config>
__global__ void __launch_bounds__(BX * BY)
  rank_kernel(const KeyT* d_keys, int* d_ranks, int* d_prefix, int* d_counts, int bit_start_first, int bit_start_second)
{
  using BlockRankT      = rank_t<R, BX, BY, RADIX_BITS, DESCENDING, Config>;
  using storage_t       = std::conditional_t<Config::PRIVATE_STORAGE, no_storage, typename BlockRankT::TempStorage>;
  constexpr int THREADS = BX * BY;
  constexpr int TILE    = THREADS * ITEMS;
  constexpr int DIGITS  = 1 << RADIX_BITS;
  constexpr int BINS    = BlockRankT::BINS_TRACKED_PER_THREAD;
  __shared__ storage_t temp_storage;

  auto make = [&]() {
    if constexpr (Config::PRIVATE_STORAGE)
    {
      return BlockRankT();
    }
    else
    {
      return BlockRankT(temp_storage);
    }
  };

  const int t            = static_cast<int>(threadIdx.x + BX * threadIdx.y);
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * TILE;
  KeyT keys[ITEMS];
  for (int i = 0; i < ITEMS; ++i)
  {
    keys[i] = d_keys[base + tile_position(R, t, i, THREADS, ITEMS)];
  }

  int ranks[ITEMS];
  make().RankKeys(keys, ranks, strata::BFEDigitExtractor<KeyT>(bit_start_first, RADIX_BITS));
  for (int i = 0; i < ITEMS; ++i)
  {
    d_ranks[base + tile_position(R, t, i, THREADS, ITEMS)] = ranks[i];
  }
  __syncthreads();

  int prefix[BINS];
  const strata::BFEDigitExtractor<KeyT> second(bit_start_second, RADIX_BITS);
  if constexpr (R == ranker::match)
  {
    make().RankKeys(keys, ranks, second, prefix, store_counts<BINS>{d_counts + blockIdx.x * DIGITS, t * BINS, DIGITS});
  }
  else
  {
    make().RankKeys(keys, ranks, second, prefix);
  }
  for (int i = 0; i < ITEMS; ++i)
  {
    d_ranks[GRID_BLOCKS * TILE + base + tile_position(R, t, i, THREADS, ITEMS)] = ranks[i];
  }
  for (int track = 0; track < BINS; ++track)
  {
    if (t * BINS + track < DIGITS)
    {
      d_prefix[blockIdx.x * DIGITS + t * BINS + track] = prefix[track];
    }
  }
}

// -- host reference -----------------------------------------------------------------------------------------------

template <typename KeyT>
std::uint32_t host_digit(KeyT key, int bit_start, int bits)
{
  const int width = static_cast<int>(sizeof(KeyT) * 8);
  if (bit_start >= width)
  {
    return 0;
  }
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(key) >> bit_start) & ((std::uint64_t(1) << bits) - 1));
}

struct tile_reference
{
  std::vector<int> ranks;  // per tile position
  std::vector<int> prefix; // per digit: keys ranked before that digit's keys
  std::vector<int> counts; // per digit
};

template <typename KeyT>
tile_reference reference_ranks(const KeyT* keys, int tile, int bit_start, int bits, bool descending)
{
  const int digits = 1 << bits;
  tile_reference ref{std::vector<int>(tile), std::vector<int>(digits), std::vector<int>(digits, 0)};
  std::vector<int> order_digit(tile);
  for (int p = 0; p < tile; ++p)
  {
    const std::uint32_t d = host_digit(keys[p], bit_start, bits);
    order_digit[p]        = descending ? digits - 1 - static_cast<int>(d) : static_cast<int>(d);
    ++ref.counts[d];
  }
  // Keys ranked before each digit, in sort order.
  std::vector<int> before(digits, 0);
  for (int o = 1; o < digits; ++o)
  {
    const int prev_digit = descending ? digits - o : o - 1;
    before[o]            = before[o - 1] + ref.counts[prev_digit];
  }
  std::vector<int> seen(digits, 0);
  for (int p = 0; p < tile; ++p)
  {
    ref.ranks[p] = before[order_digit[p]] + seen[order_digit[p]]++;
  }
  for (int d = 0; d < digits; ++d)
  {
    ref.prefix[d] = before[descending ? digits - 1 - d : d];
  }
  return ref;
}

enum class key_mix
{
  random,   // uniformly random bits
  sparse,   // each bit set with probability 1/8: few digit values, long runs
  one_digit // every key the same
};

template <typename KeyT>
std::vector<KeyT> make_keys(std::size_t n, key_mix mix, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  const KeyT same     = static_cast<KeyT>(rng());
  std::vector<KeyT> keys(n);
  for (auto& k : keys)
  {
    k = mix == key_mix::random ? static_cast<KeyT>(rng())
                               : (mix == key_mix::sparse ? static_cast<KeyT>(rng() & rng() & rng()) : same);
  }
  return keys;
}

template <typename KeyT, ranker R, int BX, int BY, int ITEMS, int RADIX_BITS, bool DESCENDING,
          typename Config = default_config>
void check_rank(int bit_start_first, int bit_start_second, std::uint64_t salt)
{
  constexpr int THREADS = BX * BY;
  constexpr int TILE    = THREADS * ITEMS;
  constexpr int DIGITS  = 1 << RADIX_BITS;
  INFO((R == ranker::basic ? "BlockRadixRank" : "BlockRadixRankMatch")
       << " block " << BX << "x" << BY << ", " << ITEMS << " keys per thread of " << sizeof(KeyT) << " bytes, "
       << RADIX_BITS << "-bit digits, " << (DESCENDING ? "descending" : "ascending") << ", bit starts "
       << bit_start_first << " and " << bit_start_second);
  for (key_mix mix : {key_mix::random, key_mix::sparse, key_mix::one_digit})
  {
    INFO("key mix " << static_cast<int>(mix));
    const std::vector<KeyT> keys = make_keys<KeyT>(static_cast<std::size_t>(TILE) * GRID_BLOCKS, mix, salt);
    strata_test::device_buffer<KeyT> d_keys(keys);
    strata_test::device_buffer<int> d_ranks(2 * static_cast<std::size_t>(TILE) * GRID_BLOCKS);
    strata_test::device_buffer<int> d_prefix(static_cast<std::size_t>(DIGITS) * GRID_BLOCKS);
    strata_test::device_buffer<int> d_counts(static_cast<std::size_t>(DIGITS) * GRID_BLOCKS);
    rank_kernel<KeyT, R, BX, BY, ITEMS, RADIX_BITS, DESCENDING, Config>
      <<<GRID_BLOCKS, dim3(BX, BY)>>>(d_keys.data(), d_ranks.data(), d_prefix.data(), d_counts.data(), bit_start_first,
                                      bit_start_second);
    STRATA_TEST_SYNC();
    const std::vector<int> ranks  = d_ranks.download();
    const std::vector<int> prefix = d_prefix.download();
    const std::vector<int> counts = d_counts.download();

    for (int tile = 0; tile < GRID_BLOCKS; ++tile)
    {
      INFO("tile " << tile);
      const KeyT* tile_keys = keys.data() + static_cast<std::size_t>(tile) * TILE;
      for (int call = 0; call < 2; ++call)
      {
        INFO((call == 0 ? "RankKeys(keys, ranks, extractor)"
                        : "RankKeys(keys, ranks, extractor, exclusive_digit_prefix[, callback])"));
        const tile_reference ref =
          reference_ranks(tile_keys, TILE, call == 0 ? bit_start_first : bit_start_second, RADIX_BITS, DESCENDING);
        const auto first = ranks.begin() + (static_cast<std::size_t>(call) * GRID_BLOCKS + tile) * TILE;
        STRATA_REQUIRE_EQUAL_VECTORS(std::vector<int>(first, first + TILE), ref.ranks);
        if (call == 1)
        {
          const auto p = prefix.begin() + static_cast<std::size_t>(tile) * DIGITS;
          INFO("exclusive_digit_prefix");
          STRATA_REQUIRE_EQUAL_VECTORS(std::vector<int>(p, p + DIGITS), ref.prefix);
          if (R == ranker::match)
          {
            const auto c = counts.begin() + static_cast<std::size_t>(tile) * DIGITS;
            INFO("counts callback");
            STRATA_REQUIRE_EQUAL_VECTORS(std::vector<int>(c, c + DIGITS), ref.counts);
          }
        }
      }
    }
  }
}
} // namespace

TEST_CASE("BlockRadixRank, 1-D blocks", "[block][radix_rank]")
{
  SECTION("128 threads x 4, 4-bit digits, ascending")
  {
    check_rank<std::uint32_t, ranker::basic, 128, 1, 4, 4, false>(0, 13, 1);
  }
  SECTION("128 threads x 4, 4-bit digits, descending")
  {
    check_rank<std::uint32_t, ranker::basic, 128, 1, 4, 4, true>(28, 2, 2);
  }
  SECTION("100 threads x 3, 5-bit digits, descending, no memoization, raking scan")
  {
    check_rank<std::uint32_t, ranker::basic, 100, 1, 3, 5, true, rank_config<false, strata::BLOCK_SCAN_RAKING>>(27, 9,
                                                                                                                3);
  }
  SECTION("96 threads x 2, 7-bit digits (2 bins per thread, the last ones unused), 8-byte counters")
  {
    check_rank<std::uint32_t, ranker::basic, 96, 1, 2, 7, false,
               rank_config<true, strata::BLOCK_SCAN_WARP_SCANS, cudaSharedMemBankSizeEightByte>>(24, 3, 4);
  }
  SECTION("256 threads x 7 uint16 keys, 1-bit digits, descending")
  {
    check_rank<std::uint16_t, ranker::basic, 256, 1, 7, 1, true>(15, 0, 5);
  }
  SECTION("32 threads x 7, 2-bit digits in 8-byte counters, descending")
  {
    check_rank<std::uint32_t, ranker::basic, 32, 1, 7, 2, true,
               rank_config<false, strata::BLOCK_SCAN_RAKING_MEMOIZE, cudaSharedMemBankSizeEightByte>>(30, 6, 6);
  }
  SECTION("1024 threads x 16, 4-bit digits")
  {
    check_rank<std::uint32_t, ranker::basic, 1024, 1, 16, 4, false>(4, 20, 7);
  }
  SECTION("64 threads x 1, 3-bit digits, 8-byte counters, private storage")
  {
    check_rank<std::uint32_t, ranker::basic, 64, 1, 1, 3, false,
               rank_config<true, strata::BLOCK_SCAN_WARP_SCANS, cudaSharedMemBankSizeEightByte, true>>(11, 29, 8);
  }
}

TEST_CASE("BlockRadixRank, 2-D block 16x8, 64-bit keys", "[block][radix_rank]")
{
  // Bit starts past 32 (the 64-bit extractor), and one whose digit runs past the top bit (reads as zeros).
  check_rank<std::uint64_t, ranker::basic, 16, 8, 5, 6, false, rank_config<true, strata::BLOCK_SCAN_RAKING_MEMOIZE>>(37,
                                                                                                                     61,
                                                                                                                     9);
  check_rank<std::uint64_t, ranker::basic, 16, 8, 5, 6, true, default_config>(0, 58, 10);
}

TEST_CASE("BlockRadixRankMatch, 1-D blocks", "[block][radix_rank][match]")
{
  SECTION("128 threads x 4, 4-bit digits")
  {
    check_rank<std::uint32_t, ranker::match, 128, 1, 4, 4, false>(0, 17, 21);
  }
  SECTION("128 threads x 3, 8-bit digits (2 bins per thread), descending")
  {
    check_rank<std::uint32_t, ranker::match, 128, 1, 3, 8, true>(24, 5, 22);
  }
  SECTION("100 threads (partial last warp) x 7, 5-bit digits, raking scan")
  {
    check_rank<std::uint32_t, ranker::match, 100, 1, 7, 5, false, rank_config<true, strata::BLOCK_SCAN_RAKING>>(1, 29,
                                                                                                                23);
  }
  SECTION("40 threads (a warp and 8 threads) x 5, 3-bit digits, descending")
  {
    check_rank<std::uint32_t, ranker::match, 40, 1, 5, 3, true>(7, 30, 24);
  }
  SECTION("32 threads x 16, 6-bit digits (2 bins per thread), descending")
  {
    check_rank<std::uint32_t, ranker::match, 32, 1, 16, 6, true>(26, 12, 25);
  }
  SECTION("256 threads x 8, 8-bit digits, private storage")
  {
    check_rank<std::uint32_t, ranker::match, 256, 1, 8, 8, false,
               rank_config<true, strata::BLOCK_SCAN_WARP_SCANS, cudaSharedMemBankSizeFourByte, true>>(16, 0, 26);
  }
  SECTION("64 threads x 2, 9-bit digits (match.any.sync), 8 bins per thread")
  {
    check_rank<std::uint32_t, ranker::match, 64, 1, 2, 9, false>(23, 2, 27);
  }
  SECTION("1024 threads x 4 uint16 keys, 4-bit digits, descending")
  {
    check_rank<std::uint16_t, ranker::match, 1024, 1, 4, 4, true>(12, 3, 28);
  }
}

TEST_CASE("BlockRadixRankMatch, 2-D block 16x8, 64-bit keys", "[block][radix_rank][match]")
{
  check_rank<std::uint64_t, ranker::match, 16, 8, 2, 4, true>(44, 62, 31);
  check_rank<std::uint64_t, ranker::match, 16, 8, 2, 4, false>(3, 33, 32);
}
