// Shared by the merge sort tests (tests/block/block_merge_sort.cu, tests/warp/warp_merge_sort.cu,
// tests/device/device_merge_sort_*.cu): comparators usable on host and device, keys with an entropy control, the
// values that record where each item came from, and the host reference, std::stable_sort of the valid prefix of a
// tile (computed independently of the code under test).
//
// Stability shows only where keys compare equal: low-entropy keys, -0.0 beside +0.0 (equal under `<`, different in
// their bits, which the checks compare), and custom_t under a comparator that ignores one of its fields.
#pragma once

#include "test_util.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace merge_sort_test
{

// -- comparators (strict weak orders, host and device) -------------------------------------------------------

struct less_op
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return a < b;
  }
};

// As less_op, taking its arguments by value. Comparators taking references and comparators taking values are both
// tested: ptxas 13.0 miscompiled an earlier SerialMerge for the first kind only (thread/thread_merge.cuh).
struct less_by_value
{
  template <typename T>
  __host__ __device__ bool operator()(T a, T b) const
  {
    return a < b;
  }
};

struct greater_op
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return b < a;
  }
};

// custom_t by (b, c) only: keys that differ in `a` alone compare equal, so a stable keys-only sort is checked
// through the keys' `a` fields.
struct custom_by_bc
{
  __host__ __device__ bool operator()(const strata_test::custom_t& x, const strata_test::custom_t& y) const
  {
    return x.b != y.b ? x.b < y.b : x.c < y.c;
  }
};

// The comparator with its arguments swapped: the reverse order.
template <typename CompareOp>
struct reversed
{
  CompareOp op;
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return op(b, a);
  }
};

// The ascending and descending comparators of a key type for the tests: by operator< for every type but custom_t.
template <typename KeyT>
using ascending_t = std::conditional_t<std::is_same<KeyT, strata_test::custom_t>::value, custom_by_bc, less_op>;
template <typename KeyT>
using descending_t = reversed<ascending_t<KeyT>>;

// -- keys ----------------------------------------------------------------------------------------------------

enum class entropy
{
  full,       // strata_test::random_vector's values (floats: multiples of 1/8, both zeros among them)
  few_values, // 4 distinct keys (floats: -0.0 and +0.0 among them)
};

inline const char* entropy_name(entropy e)
{
  return e == entropy::full ? "full" : "few values";
}

template <typename KeyT>
std::vector<KeyT> make_keys(std::size_t n, entropy e, std::uint64_t salt)
{
  std::vector<KeyT> keys = strata_test::random_vector<KeyT>(n, salt);
  std::mt19937_64 rng    = strata_test::make_rng(salt ^ 0xfeedULL);
  if (e == entropy::few_values)
  {
    std::vector<KeyT> pool = strata_test::random_vector<KeyT>(4, salt + 1);
    if constexpr (std::is_floating_point<KeyT>::value)
    {
      pool[0] = KeyT(-0.0);
      pool[1] = KeyT(0.0);
    }
    for (auto& k : keys)
    {
      const KeyT& p = pool[rng() % pool.size()];
      if constexpr (std::is_same<KeyT, strata_test::custom_t>::value)
      {
        // Few distinct (b, c); `a` stays random, so equal keys are told apart.
        k.b = p.b;
        k.c = p.c;
      }
      else
      {
        k = p;
      }
    }
  }
  else if constexpr (std::is_floating_point<KeyT>::value)
  {
    // Signed zeros in full-entropy keys too.
    for (auto& k : keys)
    {
      if (rng() % 16 == 0)
      {
        k = (rng() & 1) ? KeyT(-0.0) : KeyT(0.0);
      }
    }
  }
  return keys;
}

// Whether two keys are the same: their bits for floating point (-0.0 is not +0.0), operator== otherwise (custom_t
// has padding bytes, which a copy need not keep).
template <typename KeyT>
bool same_key(const KeyT& a, const KeyT& b)
{
  if constexpr (std::is_floating_point<KeyT>::value)
  {
    return std::memcmp(&a, &b, sizeof(KeyT)) == 0;
  }
  else
  {
    return a == b;
  }
}

template <typename KeyT>
std::string key_text(const KeyT& key)
{
  std::ostringstream os;
  if constexpr (std::is_same<KeyT, strata_test::custom_t>::value)
  {
    os << key;
  }
  else if constexpr (std::is_floating_point<KeyT>::value)
  {
    os << key << (std::signbit(key) ? " (sign set)" : "");
  }
  else
  {
    os << static_cast<long long>(key);
  }
  return os.str();
}

// -- values --------------------------------------------------------------------------------------------------

// The value that carries input position `pos` (distinct for distinct positions of a tile or an input).
template <typename ValueT>
ValueT value_of(std::size_t pos)
{
  if constexpr (std::is_same<ValueT, strata_test::custom_t>::value)
  {
    const auto p = static_cast<std::int64_t>(pos);
    return strata_test::custom_t{p * 0x100000001LL, static_cast<std::int32_t>(-p), static_cast<std::int16_t>(p)};
  }
  else
  {
    return static_cast<ValueT>(pos);
  }
}

template <typename ValueT>
std::vector<ValueT> position_values(std::size_t n)
{
  std::vector<ValueT> v(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    v[i] = value_of<ValueT>(i);
  }
  return v;
}

// -- the host reference ----------------------------------------------------------------------------------------

// The input positions [0, n) in stably sorted order of their keys.
template <typename KeyT, typename CompareOp>
std::vector<std::size_t> stable_order(const KeyT* keys, std::size_t n, CompareOp compare_op)
{
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return compare_op(keys[a], keys[b]);
  });
  return order;
}

// What a block or warp merge sort leaves in a tile of `tile` items whose first `valid` take part: the valid items
// stably sorted, then oob_default keys with their values where they were. `valid` >= tile: a full tile.
template <typename KeyT, typename ValueT, typename CompareOp>
void reference_tile(const KeyT* keys, const ValueT* values, std::size_t tile, std::size_t valid,
                    const KeyT& oob_default, CompareOp compare_op, KeyT* expected_keys, ValueT* expected_values)
{
  valid                                = std::min(valid, tile);
  const std::vector<std::size_t> order = stable_order(keys, valid, compare_op);
  for (std::size_t i = 0; i < tile; ++i)
  {
    expected_keys[i]   = i < valid ? keys[order[i]] : oob_default;
    expected_values[i] = i < valid ? values[order[i]] : values[i];
  }
}

} // namespace merge_sort_test
