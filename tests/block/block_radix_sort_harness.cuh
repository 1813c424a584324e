// Shared by the tests/block/block_radix_sort_*.cu files: one kernel that runs one BlockRadixSort method on several
// tiles per block, key generators with an entropy control, and the host check against a stable sort computed
// independently (std::stable_sort by operator< over the whole key, or by the key's bits in [begin_bit, end_bit)
// twiddled here on the host).
//
// Thread t (row-major rank) loads tile items t * ITEMS + i (blocked). After the sort it stores its items to the tile
// positions they stand for: t * ITEMS + i for the blocked results, i * BLOCK_THREADS + t for the striped ones. So a
// correct sort leaves every output tile in sorted order in memory, whatever the method. Values are the items' input
// positions (or a 16-byte struct made from them), so the check sees where every item came from: a sort that is not
// stable, or that moves a value away from its key, fails.
#pragma once

#include <strata/block/block_radix_sort.cuh>

#include "test_util.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace block_radix_sort_test
{

constexpr int GRID_BLOCKS     = 2;
constexpr int TILES_PER_BLOCK = 2;
constexpr int NUM_TILES       = GRID_BLOCKS * TILES_PER_BLOCK;

// The compile-time knobs of a BlockRadixSort besides its shape, and how the kernel calls it.
template <int RADIX_BITS_ = 4, bool MEMOIZE_ = true, strata::BlockScanAlgorithm SCAN_ = strata::BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig SMEM_ = cudaSharedMemBankSizeFourByte, bool PRIVATE_STORAGE_ = false,
          bool DEFAULT_BITS_ = false>
struct sort_config
{
  static constexpr int RADIX_BITS                  = RADIX_BITS_;
  static constexpr bool MEMOIZE                    = MEMOIZE_;
  static constexpr strata::BlockScanAlgorithm SCAN = SCAN_;
  static constexpr cudaSharedMemConfig SMEM        = SMEM_;
  // The default constructor (private __shared__ storage) instead of a TempStorage.
  static constexpr bool PRIVATE_STORAGE = PRIVATE_STORAGE_;
  // The overloads without begin_bit / end_bit (the kernel ignores the ones it is given).
  static constexpr bool DEFAULT_BITS = DEFAULT_BITS_;
};
using default_config = sort_config<>;

// Which member function: the four sorts, and for a key-value BlockRadixSort its keys-only overloads.
enum method : int
{
  sort_blocked,            // Sort
  sort_descending_blocked, // SortDescending
  sort_striped,            // SortBlockedToStriped
  sort_descending_striped, // SortDescendingBlockedToStriped
};

__host__ __device__ constexpr bool is_descending(int m)
{
  return m == sort_descending_blocked || m == sort_descending_striped;
}
__host__ __device__ constexpr bool is_striped(int m)
{
  return m == sort_striped || m == sort_descending_striped;
}
inline const char* method_name(int m)
{
  switch (m)
  {
    case sort_blocked:
      return "Sort";
    case sort_descending_blocked:
      return "SortDescending";
    case sort_striped:
      return "SortBlockedToStriped";
    case sort_descending_striped:
      return "SortDescendingBlockedToStriped";
  }
  return "?";
}

struct no_storage
{};

// ValueT = strata::NullType sorts keys only; KEYS_ONLY_CALL calls the keys-only overloads of a key-value sort.
template <typename KeyT, typename ValueT, int BX, int BY, int ITEMS, int METHOD, bool KEYS_ONLY_CALL, typename Config>
__global__ void __launch_bounds__(BX * BY)
  sort_kernel(const KeyT* d_keys_in, const ValueT* d_values_in, KeyT* d_keys_out, ValueT* d_values_out, int begin_bit,
              int end_bit)
{
  using BlockRadixSortT = strata::BlockRadixSort<KeyT, BX, ITEMS, ValueT, Config::RADIX_BITS, Config::MEMOIZE,
                                                 Config::SCAN, Config::SMEM, BY>;
  using storage_t = std::conditional_t<Config::PRIVATE_STORAGE, no_storage, typename BlockRadixSortT::TempStorage>;
  constexpr bool WITH_VALUES = !std::is_same<ValueT, strata::NullType>::value && !KEYS_ONLY_CALL;
  constexpr int THREADS      = BX * BY;
  constexpr int TILE         = THREADS * ITEMS;
  __shared__ storage_t temp_storage;

  const int t = static_cast<int>(threadIdx.x + BX * threadIdx.y);
  for (int tile_in_block = 0; tile_in_block < TILES_PER_BLOCK; ++tile_in_block)
  {
    const std::size_t base = (static_cast<std::size_t>(blockIdx.x) * TILES_PER_BLOCK + tile_in_block) * TILE;
    KeyT keys[ITEMS];
    ValueT values[ITEMS];
    for (int i = 0; i < ITEMS; ++i)
    {
      keys[i] = d_keys_in[base + t * ITEMS + i];
      if constexpr (WITH_VALUES)
      {
        values[i] = d_values_in[base + t * ITEMS + i];
      }
    }

    auto sorter = [&]() {
      if constexpr (Config::PRIVATE_STORAGE)
      {
        return BlockRadixSortT();
      }
      else
      {
        return BlockRadixSortT(temp_storage);
      }
    }();
    // The call: keys or keys and values, with or without a bit range.
    auto call = [&](auto&&... items) {
      if constexpr (Config::DEFAULT_BITS)
      {
        if constexpr (METHOD == sort_blocked)
        {
          sorter.Sort(items...);
        }
        else if constexpr (METHOD == sort_descending_blocked)
        {
          sorter.SortDescending(items...);
        }
        else if constexpr (METHOD == sort_striped)
        {
          sorter.SortBlockedToStriped(items...);
        }
        else
        {
          sorter.SortDescendingBlockedToStriped(items...);
        }
      }
      else
      {
        if constexpr (METHOD == sort_blocked)
        {
          sorter.Sort(items..., begin_bit, end_bit);
        }
        else if constexpr (METHOD == sort_descending_blocked)
        {
          sorter.SortDescending(items..., begin_bit, end_bit);
        }
        else if constexpr (METHOD == sort_striped)
        {
          sorter.SortBlockedToStriped(items..., begin_bit, end_bit);
        }
        else
        {
          sorter.SortDescendingBlockedToStriped(items..., begin_bit, end_bit);
        }
      }
    };
    if constexpr (WITH_VALUES)
    {
      call(keys, values);
    }
    else
    {
      call(keys);
    }

    for (int i = 0; i < ITEMS; ++i)
    {
      const int pos          = is_striped(METHOD) ? i * THREADS + t : t * ITEMS + i;
      d_keys_out[base + pos] = keys[i];
      if constexpr (WITH_VALUES)
      {
        d_values_out[base + pos] = values[i];
      }
    }
    // The next tile reuses the TempStorage.
    __syncthreads();
  }
}

// -- keys ------------------------------------------------------------------------------------------------------

// Keys as the host holds them: bool keys as bytes of 0 or 1 (std::vector<bool> has no contiguous storage).
template <typename KeyT>
using host_key_t = std::conditional_t<std::is_same<KeyT, bool>::value, std::uint8_t, KeyT>;

// How varied the keys are. Fewer distinct keys mean longer runs of equal digits, where stability shows.
enum class entropy
{
  full,       // uniformly random bits (floats: random finite values of every magnitude, and special values)
  sparse,     // integers: each bit set with probability 1/8 (AND of three random words); floats: a pool of 6 values
  few_values, // 8 distinct keys
  constant    // one key
};

inline const char* entropy_name(entropy e)
{
  switch (e)
  {
    case entropy::full:
      return "full";
    case entropy::sparse:
      return "sparse";
    case entropy::few_values:
      return "few values";
    case entropy::constant:
      return "constant";
  }
  return "?";
}

template <typename KeyT>
KeyT key_from_bits(std::uint64_t bits)
{
  if constexpr (std::is_same<KeyT, bool>::value)
  {
    return (bits & 1) != 0;
  }
  else
  {
    KeyT k;
    std::memcpy(&k, &bits, sizeof(KeyT));
    return k;
  }
}

// A finite float or double: random sign, exponent and mantissa; with probability 1/8 one of the special values
// (both zeros, both infinities, the smallest subnormals, the extremes, small integers).
template <typename KeyT>
KeyT random_float_key(std::mt19937_64& rng)
{
  using limits = std::numeric_limits<KeyT>;
  if (rng() % 8 == 0)
  {
    const KeyT specials[] = {KeyT(-0.0),
                             KeyT(0.0),
                             limits::infinity(),
                             -limits::infinity(),
                             limits::denorm_min(),
                             -limits::denorm_min(),
                             limits::max(),
                             limits::lowest(),
                             KeyT(1),
                             KeyT(-1),
                             KeyT(2)};
    return specials[rng() % (sizeof(specials) / sizeof(specials[0]))];
  }
  const int mantissa_bits  = limits::digits - 1;
  const int exponent_bits  = static_cast<int>(sizeof(KeyT) * 8) - 1 - mantissa_bits;
  const std::uint64_t sign = rng() & 1;
  // Exponent fields 0 (subnormals) .. max - 1 (finite).
  const std::uint64_t exponent = rng() % ((std::uint64_t(1) << exponent_bits) - 1);
  const std::uint64_t mantissa = rng() & ((std::uint64_t(1) << mantissa_bits) - 1);
  return key_from_bits<KeyT>((sign << (exponent_bits + mantissa_bits)) | (exponent << mantissa_bits) | mantissa);
}

template <typename KeyT>
KeyT random_key(std::mt19937_64& rng)
{
  if constexpr (std::is_floating_point<KeyT>::value)
  {
    return random_float_key<KeyT>(rng);
  }
  else if constexpr (std::is_same<KeyT, bool>::value)
  {
    return (rng() & 1) != 0;
  }
  else
  {
    return key_from_bits<KeyT>(rng());
  }
}

template <typename KeyT>
std::vector<host_key_t<KeyT>> make_keys(std::size_t n, entropy e, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::vector<host_key_t<KeyT>> pool;
  if (e == entropy::few_values || e == entropy::constant
      || (e == entropy::sparse && std::is_floating_point<KeyT>::value))
  {
    const std::size_t distinct = e == entropy::constant ? 1 : (e == entropy::few_values ? 8 : 6);
    for (std::size_t i = 0; i < distinct; ++i)
    {
      pool.push_back(static_cast<host_key_t<KeyT>>(random_key<KeyT>(rng)));
    }
    if constexpr (std::is_floating_point<KeyT>::value)
    {
      // Both zeros, so that their relative order (equal keys, distinct bits) is checked in long runs.
      if (e == entropy::sparse)
      {
        pool[0] = static_cast<KeyT>(-0.0);
        pool[1] = static_cast<KeyT>(0.0);
      }
    }
  }
  std::vector<host_key_t<KeyT>> keys(n);
  for (auto& k : keys)
  {
    if (!pool.empty())
    {
      k = pool[rng() % pool.size()];
    }
    else if (e == entropy::sparse)
    {
      k = static_cast<host_key_t<KeyT>>(key_from_bits<KeyT>(rng() & rng() & rng()));
    }
    else
    {
      k = static_cast<host_key_t<KeyT>>(random_key<KeyT>(rng));
    }
  }
  return keys;
}

// -- values ----------------------------------------------------------------------------------------------------

// The value that carries input position `pos` (distinct for distinct positions).
template <typename ValueT>
ValueT value_of(int pos)
{
  if constexpr (std::is_same<ValueT, strata_test::custom_t>::value)
  {
    return strata_test::custom_t{static_cast<std::int64_t>(pos) * 0x100000001LL, -pos, static_cast<std::int16_t>(pos)};
  }
  else
  {
    return static_cast<ValueT>(pos);
  }
}

// -- the host reference ------------------------------------------------------------------------------------------

// The key's bits in an order whose unsigned comparison is the key's order, computed here independently of the
// library: signed integers flip their sign bit; floats flip every bit when negative, else only the sign bit; -0.0
// counts as +0.0.
template <typename KeyT>
std::uint64_t host_ordered_bits(KeyT key)
{
  constexpr int BITS        = static_cast<int>(sizeof(KeyT) * 8);
  const std::uint64_t width = BITS == 64 ? ~std::uint64_t(0) : ((std::uint64_t(1) << BITS) - 1);
  const std::uint64_t sign  = std::uint64_t(1) << (BITS - 1);
  std::uint64_t u           = 0;
  std::memcpy(&u, &key, sizeof(KeyT));
  if constexpr (std::is_floating_point<KeyT>::value)
  {
    if (key == KeyT(0))
    {
      u = 0;
    }
    return (u & sign) ? (~u & width) : (u | sign);
  }
  else if constexpr (std::is_signed<KeyT>::value)
  {
    return (u ^ sign) & width;
  }
  else
  {
    return u;
  }
}

// Bits [begin_bit, end_bit) of the ordered bits.
template <typename KeyT>
std::uint64_t host_sort_digits(KeyT key, int begin_bit, int end_bit)
{
  if (end_bit <= begin_bit || begin_bit >= 64)
  {
    return 0;
  }
  const int bits            = end_bit - begin_bit;
  const std::uint64_t field = host_ordered_bits(key) >> begin_bit;
  return bits >= 64 ? field : (field & ((std::uint64_t(1) << bits) - 1));
}

// The input positions of a tile in stably sorted order.
template <typename KeyT>
std::vector<int> reference_order(const KeyT* keys, int tile, bool descending, int begin_bit, int end_bit)
{
  std::vector<int> order(tile);
  std::iota(order.begin(), order.end(), 0);
  const bool whole_key = begin_bit == 0 && end_bit >= static_cast<int>(sizeof(KeyT) * 8);
  if (whole_key)
  {
    // The whole key: operator< itself, -0.0 == +0.0 included.
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return descending ? keys[b] < keys[a] : keys[a] < keys[b];
    });
  }
  else
  {
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      const std::uint64_t da = host_sort_digits(keys[a], begin_bit, end_bit);
      const std::uint64_t db = host_sort_digits(keys[b], begin_bit, end_bit);
      return descending ? db < da : da < db;
    });
  }
  return order;
}

template <typename KeyT>
std::string key_text(KeyT key)
{
  std::ostringstream os;
  std::uint64_t u = 0;
  std::memcpy(&u, &key, sizeof(KeyT));
  if constexpr (std::is_floating_point<KeyT>::value)
  {
    os << key;
  }
  else
  {
    os << static_cast<long long>(key);
  }
  os << " (bits 0x" << std::hex << u << ")";
  return os.str();
}

// Runs METHOD on NUM_TILES tiles of `keys` and checks keys (bit for bit) and values against the reference.
template <typename KeyT, typename ValueT, int BX, int BY, int ITEMS, int METHOD, typename Config = default_config,
          bool KEYS_ONLY_CALL = false>
void check_sort(const std::vector<host_key_t<KeyT>>& keys, int begin_bit, int end_bit)
{
  constexpr int TILE         = BX * BY * ITEMS;
  constexpr bool WITH_VALUES = !std::is_same<ValueT, strata::NullType>::value && !KEYS_ONLY_CALL;
  REQUIRE(keys.size() == static_cast<std::size_t>(TILE) * NUM_TILES);
  if (Config::DEFAULT_BITS)
  {
    begin_bit = 0;
    end_bit   = static_cast<int>(sizeof(KeyT) * 8);
  }
  INFO("block " << BX << "x" << BY << ", " << ITEMS << " items per thread, " << method_name(METHOD)
                << (WITH_VALUES ? " (keys and values)" : " (keys only)") << ", RADIX_BITS " << Config::RADIX_BITS
                << ", bits [" << begin_bit << ", " << end_bit << ")");

  using stored_value_t = std::conditional_t<WITH_VALUES, ValueT, int>;
  std::vector<stored_value_t> values(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    values[i] = value_of<stored_value_t>(static_cast<int>(i % TILE));
  }
  using H = host_key_t<KeyT>;
  strata_test::device_buffer<H> d_keys_in(keys);
  strata_test::device_buffer<H> d_keys_out(keys.size());
  strata_test::device_buffer<stored_value_t> d_values_in(values);
  strata_test::device_buffer<stored_value_t> d_values_out(keys.size());

  sort_kernel<KeyT, ValueT, BX, BY, ITEMS, METHOD, KEYS_ONLY_CALL, Config><<<GRID_BLOCKS, dim3(BX, BY)>>>(
    reinterpret_cast<const KeyT*>(d_keys_in.data()), reinterpret_cast<const ValueT*>(d_values_in.data()),
    reinterpret_cast<KeyT*>(d_keys_out.data()), reinterpret_cast<ValueT*>(d_values_out.data()), begin_bit, end_bit);
  STRATA_TEST_SYNC();
  const std::vector<H> out_keys                = d_keys_out.download();
  const std::vector<stored_value_t> out_values = d_values_out.download();

  for (int tile = 0; tile < NUM_TILES; ++tile)
  {
    const H* in                  = keys.data() + static_cast<std::size_t>(tile) * TILE;
    const std::vector<int> order = reference_order(in, TILE, is_descending(METHOD), begin_bit, end_bit);
    for (int pos = 0; pos < TILE; ++pos)
    {
      const std::size_t at = static_cast<std::size_t>(tile) * TILE + pos;
      const H expected     = in[order[pos]];
      if (std::memcmp(&out_keys[at], &expected, sizeof(H)) != 0)
      {
        INFO("tile " << tile << ", sorted position " << pos << ": key " << key_text(out_keys[at]) << ", expected "
                     << key_text(expected) << " from input position " << order[pos]);
        FAIL("keys differ");
      }
      if (WITH_VALUES && !(out_values[at] == value_of<stored_value_t>(order[pos])))
      {
        INFO("tile " << tile << ", sorted position " << pos << ": value " << out_values[at] << ", expected the value of"
                     << " input position " << order[pos] << " (key " << key_text(expected) << ")");
        FAIL("values differ (unstable sort, or a value separated from its key)");
      }
    }
  }
  SUCCEED();
}

// Runs all four methods.
template <typename KeyT, typename ValueT, int BX, int BY, int ITEMS, typename Config = default_config>
void check_all_methods(const std::vector<host_key_t<KeyT>>& keys, int begin_bit, int end_bit)
{
  check_sort<KeyT, ValueT, BX, BY, ITEMS, sort_blocked, Config>(keys, begin_bit, end_bit);
  check_sort<KeyT, ValueT, BX, BY, ITEMS, sort_descending_blocked, Config>(keys, begin_bit, end_bit);
  check_sort<KeyT, ValueT, BX, BY, ITEMS, sort_striped, Config>(keys, begin_bit, end_bit);
  check_sort<KeyT, ValueT, BX, BY, ITEMS, sort_descending_striped, Config>(keys, begin_bit, end_bit);
}

template <typename KeyT, int TILE>
std::vector<host_key_t<KeyT>> tile_keys(entropy e, std::uint64_t salt)
{
  return make_keys<KeyT>(static_cast<std::size_t>(TILE) * NUM_TILES, e, salt);
}

} // namespace block_radix_sort_test
