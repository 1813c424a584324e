// Shared by the tests/device/device_radix_sort_*.cu files: keys with an entropy control and in known patterns, values
// that name their input position, a host reference computed independently of the library (each key's bit-ordered
// image, masked to [begin_bit, end_bit), and std::stable_sort of the positions by it), and one runner that calls any
// form of DeviceRadixSort (in/out or DoubleBuffer, two-phase or single-phase with a policy, on a stream or under graph
// capture) and checks its outputs against the reference.
//
// Keys are compared bit for bit (memcmp): a stable sort must leave every key's own bits, so -0.0 and +0.0 (equal keys)
// and NaN payloads come out in input order with their signs and payloads. Values are the input positions (or a
// bijection of them), so a sort that is not stable, or that moves a value away from its key, fails on the value.
#pragma once

#include <strata/device/device_radix_sort.cuh>
#include <strata/execution/policy.cuh>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace drs_test
{
using u64 = std::uint64_t;

// -- key models ------------------------------------------------------------------------------------------------
//
// key_model<KeyT> says how the host reference reads a key: its host storage type, its width in bits, its bit-ordered
// image (an unsigned number whose order is the key's order) and how to print it. The decomposer test specializes it
// for user types (HAS_DECOMPOSER, decomposer()).

// Keys as the host holds them: bool keys as bytes of 0 or 1 (std::vector<bool> has no contiguous storage).
template <typename KeyT>
using host_key_t = std::conditional_t<std::is_same<KeyT, bool>::value, std::uint8_t, KeyT>;

template <typename KeyT>
constexpr bool is_float_key_v =
  std::is_floating_point<KeyT>::value || std::is_same<KeyT, __half>::value || std::is_same<KeyT, __nv_bfloat16>::value;

// Mantissa bits (without the implicit one) of the floating-point key types.
template <typename KeyT>
constexpr int mantissa_bits()
{
  if constexpr (std::is_same<KeyT, float>::value)
  {
    return 23;
  }
  else if constexpr (std::is_same<KeyT, double>::value)
  {
    return 52;
  }
  else if constexpr (std::is_same<KeyT, __half>::value)
  {
    return 10;
  }
  else
  {
    return 7; // __nv_bfloat16
  }
}

inline u64 low_mask(int bits)
{
  return bits >= 64 ? ~u64(0) : ((u64(1) << bits) - 1);
}

// Bits [begin_bit, end_bit) of an image, right-aligned (0 for an empty range).
inline u64 bit_field(u64 image, int begin_bit, int end_bit)
{
  if (end_bit <= begin_bit || begin_bit >= 64)
  {
    return 0;
  }
  return (image >> begin_bit) & low_mask(end_bit - begin_bit);
}

// The raw bits of an arithmetic key.
template <typename H>
u64 raw_bits(const H& key)
{
  u64 u = 0;
  std::memcpy(&u, &key, sizeof(H));
  return u;
}

// The key of type KeyT whose raw bits are the low bits of `bits` (bool: the lowest bit).
template <typename KeyT>
host_key_t<KeyT> key_from_bits(u64 bits)
{
  host_key_t<KeyT> k{};
  if constexpr (std::is_same<KeyT, bool>::value)
  {
    k = static_cast<std::uint8_t>(bits & 1);
  }
  else
  {
    std::memcpy(&k, &bits, sizeof(KeyT));
  }
  return k;
}

// The bit-ordered image of a floating-point key of BITS bits given as raw bits: a positive key gets its sign bit
// set, a negative one has every bit complemented; -0.0 reads as +0.0 (the two are equal keys).
inline u64 float_image(u64 u, int bits)
{
  const u64 sign = u64(1) << (bits - 1);
  const u64 all  = low_mask(bits);
  if ((u & ~sign & all) == 0)
  {
    u = 0;
  }
  return (u & sign) ? (~u & all) : (u | sign);
}

// Every arithmetic key type: integers (bool included), float, double, __half, __nv_bfloat16.
template <typename KeyT>
struct key_model
{
  using key_type                       = KeyT;
  using host_type                      = host_key_t<KeyT>;
  static constexpr int BITS            = static_cast<int>(sizeof(KeyT) * 8);
  static constexpr bool HAS_DECOMPOSER = false;
  static constexpr bool IS_FLOAT       = is_float_key_v<KeyT>;

  static u64 image(const host_type& key)
  {
    const u64 u = raw_bits(key);
    if constexpr (IS_FLOAT)
    {
      return float_image(u, BITS);
    }
    else if constexpr (std::is_signed<KeyT>::value)
    {
      return u ^ (u64(1) << (BITS - 1));
    }
    else
    {
      return u;
    }
  }

  static std::string text(const host_type& key)
  {
    std::ostringstream os;
    if constexpr (std::is_same<KeyT, float>::value || std::is_same<KeyT, double>::value)
    {
      os << key << " ";
    }
    else if constexpr (!IS_FLOAT && std::is_signed<KeyT>::value)
    {
      os << static_cast<long long>(key) << " ";
    }
    else if constexpr (!IS_FLOAT)
    {
      os << static_cast<unsigned long long>(key) << " ";
    }
    os << "(bits 0x" << std::hex << raw_bits(key) << ")";
    return os.str();
  }
};

// -- values ------------------------------------------------------------------------------------------------------

// The value of input position i: distinct for distinct positions (for types of at least 32 bits and below 2^32
// items), and not monotonic in i, so a sort that leaves the values in place fails on random keys.
template <typename ValueT>
ValueT value_of(std::size_t i)
{
  if constexpr (std::is_same<ValueT, strata_test::custom_t>::value)
  {
    return strata_test::custom_t{static_cast<std::int64_t>(i) * 0x100000001LL + 3, -static_cast<std::int32_t>(i),
                                 static_cast<std::int16_t>(i ^ 0x5a5a)};
  }
  else if constexpr (std::is_floating_point<ValueT>::value)
  {
    return static_cast<ValueT>(i) + ValueT(0.5);
  }
  else
  {
    // An odd multiplier: a bijection modulo 2^32 and 2^64.
    return static_cast<ValueT>(static_cast<u64>(i) * 0x9e3779b1ULL + 7);
  }
}

template <typename ValueT>
std::string value_text(const ValueT& v)
{
  std::ostringstream os;
  if constexpr (std::is_integral<ValueT>::value)
  {
    os << +v;
  }
  else
  {
    os << v;
  }
  return os.str();
}

// -- keys ------------------------------------------------------------------------------------------------------------

enum class pattern
{
  random,         // uniformly random bits (floats: every bit pattern, NaNs and infinities included)
  low_entropy,    // the AND of `ands` random words: few set bits, few distinct keys, long runs of equal digits
  all_equal,      // one random key, not zero (every digit pass can be skipped)
  sorted,         // random keys already in ascending order
  reverse_sorted, // random keys in descending order
  low_bits,       // only the low bits random (64/32-bit keys: below 2^20), the upper digits constant
  top_byte        // only the top byte random, the lower bytes the same in every key (one pass is not skipped)
};

struct key_pattern
{
  pattern kind;
  int ands; // low_entropy: how many random words are ANDed
  const char* name;
};

inline std::vector<key_pattern> all_patterns()
{
  return {{pattern::random, 0, "random"},
          {pattern::low_entropy, 2, "low entropy (AND of 2 words)"},
          {pattern::low_entropy, 3, "low entropy (AND of 3 words)"},
          {pattern::low_entropy, 4, "low entropy (AND of 4 words)"},
          {pattern::all_equal, 0, "all equal"},
          {pattern::sorted, 0, "sorted"},
          {pattern::reverse_sorted, 0, "reverse sorted"},
          {pattern::low_bits, 0, "upper bits zero"},
          {pattern::top_byte, 0, "differing only in the top byte"}};
}

template <typename Model>
std::vector<std::size_t> reference_order(const std::vector<typename Model::host_type>& keys, bool descending,
                                         int begin_bit, int end_bit);

// n keys of an arithmetic KeyT in pattern p.
template <typename KeyT>
std::vector<host_key_t<KeyT>> make_keys(std::size_t n, key_pattern p, u64 salt)
{
  constexpr int BITS  = static_cast<int>(sizeof(KeyT) * 8);
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::vector<host_key_t<KeyT>> keys(n);
  auto word = [&]() -> u64 {
    if (p.kind == pattern::low_entropy)
    {
      u64 w = rng();
      for (int i = 1; i < p.ands; ++i)
      {
        w &= rng();
      }
      return w;
    }
    return rng();
  };
  u64 constant = 0;
  while ((constant & low_mask(std::is_same<KeyT, bool>::value ? 1 : BITS)) == 0)
  {
    constant = rng();
  }
  const int low      = BITS >= 32 ? 20 : BITS / 2;
  const u64 top_mask = BITS > 8 ? (low_mask(8) << (BITS - 8)) : low_mask(BITS);
  for (auto& k : keys)
  {
    switch (p.kind)
    {
      case pattern::all_equal:
        k = key_from_bits<KeyT>(constant);
        break;
      case pattern::low_bits:
        k = key_from_bits<KeyT>(rng() & low_mask(low));
        break;
      case pattern::top_byte:
        k = key_from_bits<KeyT>((constant & ~top_mask) | (rng() & top_mask));
        break;
      default:
        k = key_from_bits<KeyT>(word());
        break;
    }
  }
  if (p.kind == pattern::sorted || p.kind == pattern::reverse_sorted)
  {
    const std::vector<std::size_t> order =
      reference_order<key_model<KeyT>>(keys, p.kind == pattern::reverse_sorted, 0, BITS);
    std::vector<host_key_t<KeyT>> in_order(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      in_order[i] = keys[order[i]];
    }
    keys.swap(in_order);
  }
  return keys;
}

// -- sizes -----------------------------------------------------------------------------------------------------------

// The tiles of the single-block tiers of a policy, smallest first.
template <typename Tiers, int... I>
std::vector<std::size_t> tier_tiles(std::integer_sequence<int, I...>)
{
  return {static_cast<std::size_t>(Tiers::template tier<I>::TILE_ITEMS)...};
}
template <typename PolicyT>
std::vector<std::size_t> single_tile_tiles()
{
  using Tiers = strata::detail::radix_sort::single_tile_tiers_t<PolicyT>;
  return tier_tiles<Tiers>(std::make_integer_sequence<int, Tiers::count>{});
}

// The sm_90 policy of a sort of KeyT (and ValueT): the tests run on sm_90.
template <typename KeyT, typename ValueT>
using sm90_policy = typename strata::detail::radix_sort::policy_hub<KeyT, ValueT, std::uint32_t>::Policy900;

// The tiles the size sweeps of a sort of KeyT (and ValueT) are built around: those of its sm_90 policy: the onesweep
// tile, the largest single-block tile and, where the policy has one, the small-input tile.
template <typename KeyT, typename ValueT = strata::NullType>
std::vector<std::size_t> policy_tiles()
{
  using Policy = sm90_policy<KeyT, ValueT>;
  using Small  = strata::detail::radix_sort::small_onesweep<Policy>;
  std::vector<std::size_t> tiles{Policy::OnesweepPolicy::TILE_ITEMS, single_tile_tiles<Policy>().back()};
  if (Small::defined)
  {
    tiles.push_back(Small::type::TILE_ITEMS);
  }
  return tiles;
}

using strata_test::capped;
using strata_test::sanitizer_run;
using strata_test::sizes_within_cap;

// The sort directions (descending or not) to run for the i-th item of a sweep: both, or under the sanitizer (where
// every launch costs much more) one, by turns, so that a sweep still covers both.
inline std::vector<bool> directions(std::size_t i)
{
  if (sanitizer_run())
  {
    return {i % 2 == 1};
  }
  return {false, true};
}

// test_sizes around the onesweep tile of the sort of KeyT (and ValueT), the small classes of its other tiles
// (policy_tiles), and k tiles + r for every tile, a few k and remainders r from an empty last tile to one item short
// of a full one (under the sanitizer: test_sizes around the onesweep tile, one and two tiles of every tile + 0, 1 and
// tile - 1); and the edges of every smaller single-block tier: tile - 1, tile and tile + 1 (the next tier's sort).
template <typename KeyT, typename ValueT = strata::NullType>
std::vector<std::size_t> sort_sizes(std::size_t max_size, u64 salt)
{
  const std::vector<std::size_t> tiles = policy_tiles<KeyT, ValueT>();
  max_size                             = capped(max_size);
  std::vector<std::size_t> s           = strata_test::test_sizes(tiles[0], max_size, salt);
  const bool few                       = sanitizer_run();
  for (std::size_t t : single_tile_tiles<sm90_policy<KeyT, ValueT>>())
  {
    for (std::size_t x : {t - 1, t, t + 1})
    {
      if (x <= max_size)
      {
        s.push_back(x);
      }
    }
  }
  for (std::size_t t : tiles)
  {
    for (std::size_t x : strata_test::test_sizes(t, max_size, salt + t))
    {
      if (x <= 4 * t && !few)
      {
        s.push_back(x);
      }
    }
    for (std::size_t k : {1, 2, 3, 7})
    {
      if (few && k > 2)
      {
        continue;
      }
      for (std::size_t r : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(31), std::size_t(33), t / 2,
                            t - 33, t - 2, t - 1})
      {
        if (few && r != 0 && r != 1 && r != t - 1)
        {
          continue;
        }
        if (k * t + r <= max_size)
        {
          s.push_back(k * t + r);
        }
      }
    }
  }
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

// -- the host reference ------------------------------------------------------------------------------------------

// The input positions in the order a stable sort by bits [begin_bit, end_bit) of the keys' images puts them.
template <typename Model>
std::vector<std::size_t> reference_order(const std::vector<typename Model::host_type>& keys, bool descending,
                                         int begin_bit, int end_bit)
{
  std::vector<u64> digits(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    digits[i] = bit_field(Model::image(keys[i]), begin_bit, end_bit);
  }
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return descending ? digits[b] < digits[a] : digits[a] < digits[b];
  });
  return order;
}

// The first sorted position where the keys (bit for bit) or the values differ from the reference, or -1.
template <typename H, typename V>
long long first_wrong(const std::vector<H>& keys_in, const std::vector<V>& values_in,
                      const std::vector<std::size_t>& order, const std::vector<H>& keys_out,
                      const std::vector<V>* values_out)
{
  for (std::size_t p = 0; p < order.size(); ++p)
  {
    if (std::memcmp(&keys_out[p], &keys_in[order[p]], sizeof(H)) != 0)
    {
      return static_cast<long long>(p);
    }
    if (values_out != nullptr && !((*values_out)[p] == values_in[order[p]]))
    {
      return static_cast<long long>(p);
    }
  }
  return -1;
}

// -- calling every form of DeviceRadixSort ----------------------------------------------------------------------------

enum class form
{
  in_out,              // (d_temp, bytes, d_keys_in, d_keys_out, [d_values_in, d_values_out,] n, ..., stream)
  double_buffer,       // (d_temp, bytes, DoubleBuffer keys, [DoubleBuffer values,] n, ..., stream)
  policy_in_out,       // (d_keys_in, d_keys_out, [d_values_in, d_values_out,] n, ..., strata::par.on(stream))
  policy_double_buffer // (DoubleBuffer keys, [DoubleBuffer values,] n, ..., strata::par.on(stream))
};

inline const char* form_name(form f)
{
  switch (f)
  {
    case form::in_out:
      return "in/out";
    case form::double_buffer:
      return "DoubleBuffer";
    case form::policy_in_out:
      return "in/out with a policy";
    case form::policy_double_buffer:
      return "DoubleBuffer with a policy";
  }
  return "?";
}

inline bool is_double_buffer(form f)
{
  return f == form::double_buffer || f == form::policy_double_buffer;
}
inline bool is_policy(form f)
{
  return f == form::policy_in_out || f == form::policy_double_buffer;
}

struct sort_options
{
  bool descending = false;
  int begin_bit   = 0;
  int end_bit     = -1; // -1: every bit of the key
  // Call the overload without begin_bit / end_bit: the policy forms and the decomposer forms have one that still
  // takes a stream or a policy (the plain two-phase forms, whose stream follows the bits, always get the bits).
  bool default_bits             = false;
  form api                      = form::in_out;
  strata_test::launch_mode mode = strata_test::launch_mode::stream;
  int initial_selector          = 0;  // DoubleBuffer forms: the buffer the keys start in
  int initial_value_selector    = -1; // and the values (-1: as the keys)
};

template <typename ValueT>
constexpr bool is_keys_only_v = std::is_same<ValueT, strata::NullType>::value;

// The arguments after num_items, ending with `last` (a stream or a policy).
template <typename Model, typename Last, typename F>
cudaError_t with_tail(const sort_options& o, int begin_bit, int end_bit, const Last& last, F&& f)
{
  constexpr bool IS_STREAM = std::is_same<Last, cudaStream_t>::value;
  if constexpr (Model::HAS_DECOMPOSER)
  {
    return o.default_bits ? f(Model::decomposer(), last) : f(Model::decomposer(), begin_bit, end_bit, last);
  }
  else if constexpr (!IS_STREAM)
  {
    return o.default_bits ? f(last) : f(begin_bit, end_bit, last);
  }
  else
  {
    return f(begin_bit, end_bit, last);
  }
}

template <typename KeyT, typename ValueT, typename... Tail>
cudaError_t call_in_out(bool descending, void* d_temp, std::size_t& bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                        const ValueT* d_values_in, ValueT* d_values_out, int n, const Tail&... tail)
{
  using strata::DeviceRadixSort;
  if constexpr (is_keys_only_v<ValueT>)
  {
    return descending ? DeviceRadixSort::SortKeysDescending(d_temp, bytes, d_keys_in, d_keys_out, n, tail...)
                      : DeviceRadixSort::SortKeys(d_temp, bytes, d_keys_in, d_keys_out, n, tail...);
  }
  else
  {
    return descending
           ? DeviceRadixSort::SortPairsDescending(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                                  tail...)
           : DeviceRadixSort::SortPairs(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, tail...);
  }
}

template <typename KeyT, typename ValueT, typename... Tail>
cudaError_t call_double_buffer(bool descending, void* d_temp, std::size_t& bytes, strata::DoubleBuffer<KeyT>& d_keys,
                               strata::DoubleBuffer<ValueT>& d_values, int n, const Tail&... tail)
{
  using strata::DeviceRadixSort;
  if constexpr (is_keys_only_v<ValueT>)
  {
    return descending ? DeviceRadixSort::SortKeysDescending(d_temp, bytes, d_keys, n, tail...)
                      : DeviceRadixSort::SortKeys(d_temp, bytes, d_keys, n, tail...);
  }
  else
  {
    return descending ? DeviceRadixSort::SortPairsDescending(d_temp, bytes, d_keys, d_values, n, tail...)
                      : DeviceRadixSort::SortPairs(d_temp, bytes, d_keys, d_values, n, tail...);
  }
}

template <typename KeyT, typename ValueT, typename... Tail>
cudaError_t call_policy_in_out(bool descending, const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                               ValueT* d_values_out, int n, const Tail&... tail)
{
  using strata::DeviceRadixSort;
  if constexpr (is_keys_only_v<ValueT>)
  {
    return descending ? DeviceRadixSort::SortKeysDescending(d_keys_in, d_keys_out, n, tail...)
                      : DeviceRadixSort::SortKeys(d_keys_in, d_keys_out, n, tail...);
  }
  else
  {
    return descending
           ? DeviceRadixSort::SortPairsDescending(d_keys_in, d_keys_out, d_values_in, d_values_out, n, tail...)
           : DeviceRadixSort::SortPairs(d_keys_in, d_keys_out, d_values_in, d_values_out, n, tail...);
  }
}

template <typename KeyT, typename ValueT, typename... Tail>
cudaError_t call_policy_double_buffer(bool descending, strata::DoubleBuffer<KeyT>& d_keys,
                                      strata::DoubleBuffer<ValueT>& d_values, int n, const Tail&... tail)
{
  using strata::DeviceRadixSort;
  if constexpr (is_keys_only_v<ValueT>)
  {
    return descending ? DeviceRadixSort::SortKeysDescending(d_keys, n, tail...)
                      : DeviceRadixSort::SortKeys(d_keys, n, tail...);
  }
  else
  {
    return descending ? DeviceRadixSort::SortPairsDescending(d_keys, d_values, n, tail...)
                      : DeviceRadixSort::SortPairs(d_keys, d_values, n, tail...);
  }
}

// Runs `call(policy)` for a policy on a fresh non-blocking stream, plainly or captured into a graph and replayed.
template <typename Call>
void run_with_policy(Call&& call, strata_test::launch_mode mode)
{
  // The inputs were written on the legacy default stream, which a non-blocking stream does not wait for.
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  cudaStream_t s{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  if (mode == strata_test::launch_mode::stream)
  {
    STRATA_TEST_CUDA(call(strata::par.on(s)));
  }
  else
  {
    cudaGraph_t graph{};
    cudaGraphExec_t exec{};
    STRATA_TEST_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    const cudaError_t captured = call(strata::par.on(s));
    STRATA_TEST_CUDA(cudaStreamEndCapture(s, &graph));
    STRATA_TEST_CUDA(captured);
    STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, s));
    STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
    STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  }
  STRATA_TEST_CUDA(cudaStreamSynchronize(s));
  STRATA_TEST_CUDA(cudaGetLastError());
  STRATA_TEST_CUDA(cudaStreamDestroy(s));
}

// Sorts `h_keys` (KeyT: the device key type; ValueT = strata::NullType sorts keys only, else the values are
// value_of(input position)) with the form and options `o`, and checks the result against the host reference: the keys
// bit for bit and the values, where the DoubleBuffer selectors say; the inputs of in/out forms unchanged. Outputs and
// the DoubleBuffers' alternate buffers start poisoned.
template <typename KeyT, typename ValueT = strata::NullType, typename Model = key_model<KeyT>>
void check_sort(const std::vector<typename Model::host_type>& h_keys, const sort_options& o)
{
  using H               = typename Model::host_type;
  constexpr bool PAIRS  = !is_keys_only_v<ValueT>;
  using V               = std::conditional_t<PAIRS, ValueT, int>; // host storage of the values
  const std::size_t n   = h_keys.size();
  const int begin_bit   = o.default_bits ? 0 : o.begin_bit;
  const int end_bit     = o.default_bits || o.end_bit < 0 ? Model::BITS : o.end_bit;
  const bool db         = is_double_buffer(o.api);
  const int first       = db ? o.initial_selector : 0;
  const int first_value = db && o.initial_value_selector >= 0 ? o.initial_value_selector : first;
  INFO(form_name(o.api) << (o.descending ? ", descending" : ", ascending") << (PAIRS ? ", pairs" : ", keys only")
                        << ", n " << n << ", bits ["
                        << (o.default_bits ? std::string("default")
                                           : std::to_string(begin_bit) + ", " + std::to_string(end_bit))
                        << ")" << (o.mode == strata_test::launch_mode::graph ? ", graph" : "")
                        << (db ? ", initial selectors " + std::to_string(first) + " (keys), "
                                   + std::to_string(first_value) + " (values)"
                               : std::string()));

  std::vector<V> h_values(PAIRS ? n : 0);
  for (std::size_t i = 0; i < h_values.size(); ++i)
  {
    h_values[i] = value_of<V>(i);
  }
  // Buffer `first` holds the input, the other one (the output of the in/out forms) starts poisoned.
  strata_test::device_buffer<H> keys[2]   = {strata_test::device_buffer<H>(n), strata_test::device_buffer<H>(n)};
  strata_test::device_buffer<V> values[2] = {strata_test::device_buffer<V>(h_values.size()),
                                             strata_test::device_buffer<V>(h_values.size())};
  keys[first].upload(h_keys);
  values[first_value].upload(h_values);
  KeyT* const d_keys[2]     = {reinterpret_cast<KeyT*>(keys[0].data()), reinterpret_cast<KeyT*>(keys[1].data())};
  ValueT* const d_values[2] = {reinterpret_cast<ValueT*>(values[0].data()),
                               reinterpret_cast<ValueT*>(values[1].data())};
  const int num_items       = static_cast<int>(n);

  strata::DoubleBuffer<KeyT> db_keys(d_keys[0], d_keys[1]);
  strata::DoubleBuffer<ValueT> db_values(d_values[0], d_values[1]);
  db_keys.selector   = o.initial_selector;
  db_values.selector = first_value;

  switch (o.api)
  {
    case form::in_out:
      strata_test::launch(
        [&](void* t, std::size_t& bytes, cudaStream_t s) {
          return with_tail<Model>(o, begin_bit, end_bit, s, [&](const auto&... tail) {
            return call_in_out(o.descending, t, bytes, d_keys[0], d_keys[1], d_values[0], d_values[1], num_items,
                               tail...);
          });
        },
        o.mode);
      break;
    case form::double_buffer:
      // The same DoubleBuffers for the size query and the run, as a caller would pass them.
      strata_test::launch(
        [&](void* t, std::size_t& bytes, cudaStream_t s) {
          return with_tail<Model>(o, begin_bit, end_bit, s, [&](const auto&... tail) {
            return call_double_buffer(o.descending, t, bytes, db_keys, db_values, num_items, tail...);
          });
        },
        o.mode);
      break;
    case form::policy_in_out:
      run_with_policy(
        [&](const auto& policy) {
          return with_tail<Model>(o, begin_bit, end_bit, policy, [&](const auto&... tail) {
            return call_policy_in_out(o.descending, d_keys[0], d_keys[1], d_values[0], d_values[1], num_items, tail...);
          });
        },
        o.mode);
      break;
    case form::policy_double_buffer:
      run_with_policy(
        [&](const auto& policy) {
          return with_tail<Model>(o, begin_bit, end_bit, policy, [&](const auto&... tail) {
            return call_policy_double_buffer(o.descending, db_keys, db_values, num_items, tail...);
          });
        },
        o.mode);
      break;
  }

  // Where the results are.
  int key_result   = 1;
  int value_result = 1;
  if (db)
  {
    REQUIRE(db_keys.d_buffers[0] == d_keys[0]);
    REQUIRE(db_keys.d_buffers[1] == d_keys[1]);
    REQUIRE((db_keys.selector == 0 || db_keys.selector == 1));
    key_result = db_keys.selector;
    if constexpr (PAIRS)
    {
      REQUIRE(db_values.d_buffers[0] == d_values[0]);
      REQUIRE(db_values.d_buffers[1] == d_values[1]);
      REQUIRE((db_values.selector == 0 || db_values.selector == 1));
      value_result = db_values.selector;
    }
  }
  const std::vector<H> out_keys        = keys[key_result].download();
  const std::vector<V> out_values      = values[value_result].download();
  const std::vector<V>* checked_values = PAIRS ? &out_values : nullptr;

  // Both zeros read as +0.0 in either direction, also where a bit range cuts into their images.
  const std::vector<std::size_t> order = reference_order<Model>(h_keys, o.descending, begin_bit, end_bit);
  const long long wrong                = first_wrong(h_keys, h_values, order, out_keys, checked_values);
  if (wrong >= 0)
  {
    const std::size_t p = static_cast<std::size_t>(wrong);
    INFO("sorted position " << p << ": key " << Model::text(out_keys[p]) << ", expected "
                            << Model::text(h_keys[order[p]]) << " from input position " << order[p]);
    if (PAIRS)
    {
      INFO("value " << value_text(out_values[p]) << ", expected " << value_text(h_values[order[p]]));
      FAIL("keys or values differ from a stable sort (unstable, a value separated from its key, or a key lost)");
    }
    FAIL("keys differ from a stable sort");
  }
  if (!db)
  {
    INFO("the inputs are left as they were");
    CHECK((n == 0 || std::memcmp(keys[0].download().data(), h_keys.data(), n * sizeof(H)) == 0));
    if (PAIRS)
    {
      STRATA_REQUIRE_EQUAL_VECTORS(values[0].download(), h_values);
    }
  }
}

} // namespace drs_test
