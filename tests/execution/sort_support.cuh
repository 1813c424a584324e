// Shared by the frontend sort tests (tests/execution/sort.cu, sort_by_key.cu), after support.cuh: the tiles the sizes
// are built around, keys compared by their bits (-0.0 is not +0.0), the checks of a sort's contract (sorted, and a
// permutation of the input that moved every value with its key), comparators that make the merge sort run, and the
// "which implementation ran" probe of thrust_interop.cu.
#pragma once

#include "support.cuh"

#include "merge_sort_test.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace sort_test
{
using strata::detail::frontend::sort_algorithm;
using strata_test::custom_t;

// -- sizes ----------------------------------------------------------------------------------------------------

// The onesweep tile and the largest single-block tile of DeviceRadixSort's newest tuning, and the merge sort's tile.
template <typename KeyT, typename ValueT = strata::NullType>
constexpr std::size_t radix_tile()
{
  return strata::detail::radix_sort::policy_hub<KeyT, ValueT, std::uint32_t>::MaxPolicy::OnesweepPolicy::TILE_ITEMS;
}
template <typename KeyT, typename ValueT = strata::NullType>
constexpr std::size_t radix_single_tile()
{
  using Policy = typename strata::detail::radix_sort::policy_hub<KeyT, ValueT, std::uint32_t>::MaxPolicy;
  return strata::detail::radix_sort::single_tile_tiers_t<Policy>::largest::TILE_ITEMS;
}
template <typename KeyT, typename ValueT = strata::NullType>
constexpr std::size_t merge_tile()
{
  return strata::detail::merge_sort::policy_hub<KeyT, ValueT>::MaxPolicy::MergeSortPolicy::TILE_ITEMS;
}

// The size classes around the radix sort's onesweep tile, and the edges of its single-block path.
template <typename KeyT, typename ValueT = strata::NullType>
std::vector<std::size_t> radix_sizes(std::uint64_t salt)
{
  std::vector<std::size_t> s = exec_test::sizes(radix_tile<KeyT, ValueT>(), salt);
  const std::size_t single   = radix_single_tile<KeyT, ValueT>();
  s.insert(s.end(), {single - 1, single, single + 1});
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

template <typename KeyT, typename ValueT = strata::NullType>
std::vector<std::size_t> merge_sizes(std::uint64_t salt)
{
  return exec_test::sizes(merge_tile<KeyT, ValueT>(), salt);
}

// -- keys -----------------------------------------------------------------------------------------------------

// CUDA's 16-bit floating-point types, which the host compares through float.
template <typename T>
constexpr bool is_half_v = std::is_same<T, __half>::value || std::is_same<T, __nv_bfloat16>::value;

inline float to_float(__half x)
{
  return __half2float(x);
}
inline float to_float(__nv_bfloat16 x)
{
  return __bfloat162float(x);
}
template <typename T>
T from_float(float x)
{
  if constexpr (std::is_same<T, __half>::value)
  {
    return __float2half(x);
  }
  else
  {
    return __float2bfloat16(x);
  }
}

// Keys of every type the tests sort: merge_sort_test::make_keys's (floats with -0.0 and +0.0 among them), and the
// 16-bit floating-point types made from float keys (multiples of 1/8 in [-128, 128], both zeros among them).
template <typename KeyT>
std::vector<KeyT> make_keys(std::size_t n, merge_sort_test::entropy e, std::uint64_t salt)
{
  if constexpr (is_half_v<KeyT>)
  {
    const std::vector<float> f = merge_sort_test::make_keys<float>(n, e, salt);
    std::vector<KeyT> keys(n);
    std::transform(f.begin(), f.end(), keys.begin(), from_float<KeyT>);
    return keys;
  }
  else
  {
    return merge_sort_test::make_keys<KeyT>(n, e, salt);
  }
}

// What tells two keys (or values) apart: their bits for arithmetic types (-0.0 is not +0.0), all members of custom_t
// (whose padding a copy need not keep).
template <typename T>
auto id_of(const T& x)
{
  if constexpr (std::is_same<T, custom_t>::value)
  {
    return x;
  }
  else
  {
    static_assert(sizeof(T) <= 8, "keys of at most 8 bytes");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &x, sizeof(T));
    return bits;
  }
}

template <typename T>
auto ids_of(const std::vector<T>& v)
{
  std::vector<decltype(id_of(std::declval<T>()))> ids(v.size());
  std::transform(v.begin(), v.end(), ids.begin(), [](const T& x) {
    return id_of(x);
  });
  return ids;
}

// The host's order of the keys the device sorts with cuda::std::less<> / greater<>.
struct host_less
{
  template <typename T>
  bool operator()(const T& a, const T& b) const
  {
    if constexpr (is_half_v<T>)
    {
      return to_float(a) < to_float(b);
    }
    else
    {
      return a < b;
    }
  }
};
struct host_greater
{
  template <typename T>
  bool operator()(const T& a, const T& b) const
  {
    return host_less{}(b, a);
  }
};

// std::stable_sort of `keys` under comp.
template <typename T, typename CompareT>
std::vector<T> stably_sorted(std::vector<T> keys, CompareT comp)
{
  std::stable_sort(keys.begin(), keys.end(), comp);
  return keys;
}

// Checks what a sort that need not be stable must give: `actual` ordered under comp, and the same keys, bits
// included, as `input`.
template <typename T, typename CompareT>
void require_sorted_permutation(const std::vector<T>& actual, const std::vector<T>& input, CompareT comp)
{
  REQUIRE(actual.size() == input.size());
  const auto out_of_order = std::is_sorted_until(actual.begin(), actual.end(), comp) - actual.begin();
  INFO("first item out of order at " << out_of_order << " of " << actual.size());
  CHECK(out_of_order == static_cast<std::ptrdiff_t>(actual.size()));
  auto a = ids_of(actual);
  auto b = ids_of(input);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  INFO("the output holds other keys than the input");
  STRATA_REQUIRE_EQUAL_VECTORS(a, b);
}

// Checks what a sort that need not be stable must give, for keys that compare equal only where they are the same
// but for -0.0 and +0.0 (arithmetic keys under less or greater): at every place a key equal to the stable
// reference's, and as many negative zeros as it has (no zero lost its sign). Linear, unlike
// require_sorted_permutation.
template <typename T>
void require_equal_keys(const std::vector<T>& actual, const std::vector<T>& expected)
{
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i)
  {
    if (host_less{}(actual[i], expected[i]) || host_less{}(expected[i], actual[i]))
    {
      INFO("first key that differs from the reference at " << i << " of " << actual.size() << ": " << id_of(actual[i])
                                                           << " against " << id_of(expected[i]) << " (bits)");
      FAIL("keys differ");
    }
  }
  if constexpr (std::is_floating_point<T>::value || is_half_v<T>)
  {
    T negative_zero;
    if constexpr (is_half_v<T>)
    {
      negative_zero = from_float<T>(-0.0f);
    }
    else
    {
      negative_zero = T(-0.0);
    }
    auto negative_zeros = [&](const std::vector<T>& v) {
      return std::count_if(v.begin(), v.end(), [&](const T& x) {
        return id_of(x) == id_of(negative_zero);
      });
    };
    CHECK(negative_zeros(actual) == negative_zeros(expected));
  }
}

// -- values ---------------------------------------------------------------------------------------------------

using merge_sort_test::position_values;

// The input position a value of merge_sort_test::value_of carries.
template <typename ValueT>
std::size_t position_of(const ValueT& v)
{
  if constexpr (std::is_same<ValueT, custom_t>::value)
  {
    return static_cast<std::size_t>(-static_cast<std::int64_t>(v.b));
  }
  else
  {
    return static_cast<std::size_t>(v);
  }
}

// Checks what sort_by_key must give for values that carry their input positions: keys ordered under comp, every
// position once, and every key moved with its value (the key beside the value of position p is keys_in[p], bits
// included).
template <typename KeyT, typename ValueT, typename CompareT>
void require_pairs_moved_together(const std::vector<KeyT>& keys_out, const std::vector<ValueT>& values_out,
                                  const std::vector<KeyT>& keys_in, CompareT comp)
{
  const std::size_t n = keys_in.size();
  REQUIRE(keys_out.size() == n);
  REQUIRE(values_out.size() == n);
  const auto out_of_order = std::is_sorted_until(keys_out.begin(), keys_out.end(), comp) - keys_out.begin();
  INFO("first key out of order at " << out_of_order << " of " << n);
  CHECK(out_of_order == static_cast<std::ptrdiff_t>(n));
  // The first output that breaks a rule, found without an assertion and a message per item (test.execution.sort_by_key
  // made 1.4 billion of them).
  std::vector<bool> seen(n, false);
  const char* broken = nullptr;
  std::size_t i      = 0;
  std::size_t p      = 0;
  for (; i < n; ++i)
  {
    p = position_of(values_out[i]);
    if (p >= n)
    {
      broken = "a position past the input";
    }
    else if (seen[p])
    {
      broken = "a position seen before";
    }
    else if (id_of(keys_out[i]) != id_of(keys_in[p]))
    {
      broken = "a key other than that position's";
    }
    if (broken != nullptr)
    {
      break;
    }
    seen[p] = true;
  }
  INFO("output " << i << " holds the value of position " << p << ": " << (broken != nullptr ? broken : "none"));
  REQUIRE(broken == nullptr);
}

// The keys and values std::stable_sort gives for `keys` under comp, values carrying their positions.
template <typename KeyT, typename ValueT, typename CompareT>
std::pair<std::vector<KeyT>, std::vector<ValueT>> stably_sorted_pairs(const std::vector<KeyT>& keys, CompareT comp)
{
  const std::vector<std::size_t> order = merge_sort_test::stable_order(keys.data(), keys.size(), comp);
  std::vector<KeyT> k(keys.size());
  std::vector<ValueT> v(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i)
  {
    k[i] = keys[order[i]];
    v[i] = merge_sort_test::value_of<ValueT>(order[i]);
  }
  return {k, v};
}

// -- comparators the radix sort does not take (so the merge sort runs) ---------------------------------------

using merge_sort_test::custom_by_bc; // custom_t by (b, c) only: keys that differ in `a` alone compare equal

// Integers by magnitude: x and -x compare equal. It takes values, as a comparator given keys through proxy references
// (device_reference, through a reverse iterator over a device_vector) must.
struct by_magnitude
{
  __host__ __device__ bool operator()(long long a, long long b) const
  {
    return (a < 0 ? -a : a) < (b < 0 ? -b : b);
  }
};

// -- which implementation ran ---------------------------------------------------------------------------------

// Runs `call` and checks that exactly the strata entry point `name` opened, and no CUB entry point.
template <typename Call>
void check_strata_ran(const std::string& name, Call&& call)
{
  INFO(name);
  exec_test::entries().clear();
  call();
  const exec_test::entry_log seen = exec_test::entries();
  CHECK(seen.strata == std::vector<std::string>{name});
  INFO("CUB entry points: " << (seen.cub.empty() ? std::string("none") : seen.cub.front()));
  CHECK(seen.cub.empty());
}

// -- one sort call, checked -----------------------------------------------------------------------------------

// Runs `call` (an in-place sort enqueued through stream.policy) on `d` freshly loaded with `h`, and returns what it
// left in `d`. Every allocation must have been given back on the stream (the log keeps what the call took, for the
// caller to check).
template <typename T, typename Call>
std::vector<T> run_sort(exec_test::logged_stream& stream, thrust::device_vector<T>& d, const std::vector<T>& h,
                        Call&& call)
{
  exec_test::upload_into(d, h);
  stream.alloc.log().clear();
  call();
  stream.sync();
  stream.require_clean();
  return exec_test::download(d);
}
} // namespace sort_test

// -- the host references, compiled once with optimization -----------------------------------------------------

// The test files' host code is built at -O0 (strata_add_test), where the references and checks of millions of keys
// would take minutes: those of the key and pair types below are instantiated once, at -O3, in sort_reference.part.cu
// (linked into both sort tests) and only declared here. Other instantiations stay in the test files.
// clang-format off
#define SORT_TEST_REFERENCE_KEYS(X)                                                                               \
  X(std::uint8_t) X(std::int16_t) X(std::int32_t) X(std::int64_t) X(std::uint64_t) X(float) X(double) X(__half)  \
  X(__nv_bfloat16) X(strata_test::custom_t)
#define SORT_TEST_REFERENCE_PAIRS(X)                                                                              \
  X(std::uint8_t, std::uint32_t) X(std::int32_t, std::uint32_t) X(float, std::uint64_t) X(std::int64_t, double)   \
  X(strata_test::custom_t, std::uint32_t)
// clang-format on

#ifdef SORT_TEST_REFERENCE_DEFINITIONS
#  define SORT_TEST_REFERENCE_EXTERN
#else
#  define SORT_TEST_REFERENCE_EXTERN extern
#endif

#define SORT_TEST_REFERENCE_COMPARE(T, C)                                                                     \
  SORT_TEST_REFERENCE_EXTERN template std::vector<T> sort_test::stably_sorted<T, C>(std::vector<T>, C);       \
  SORT_TEST_REFERENCE_EXTERN template void sort_test::require_sorted_permutation<T, C>(const std::vector<T>&, \
                                                                                       const std::vector<T>&, C);
#define SORT_TEST_REFERENCE_KEY(T)                                                                                  \
  SORT_TEST_REFERENCE_EXTERN template std::vector<T> sort_test::make_keys<T>(std::size_t, merge_sort_test::entropy, \
                                                                             std::uint64_t);                        \
  SORT_TEST_REFERENCE_EXTERN template void sort_test::require_equal_keys<T>(const std::vector<T>&,                  \
                                                                            const std::vector<T>&);                 \
  SORT_TEST_REFERENCE_COMPARE(T, sort_test::host_less)                                                              \
  SORT_TEST_REFERENCE_COMPARE(T, sort_test::host_greater)
#define SORT_TEST_REFERENCE_PAIR_COMPARE(K, V, C)                                                                  \
  SORT_TEST_REFERENCE_EXTERN template std::pair<std::vector<K>, std::vector<V>>                                    \
  sort_test::stably_sorted_pairs<K, V, C>(const std::vector<K>&, C);                                               \
  SORT_TEST_REFERENCE_EXTERN template void sort_test::require_pairs_moved_together<K, V, C>(const std::vector<K>&, \
                                                                                            const std::vector<V>&, \
                                                                                            const std::vector<K>&, C);
#define SORT_TEST_REFERENCE_PAIR(K, V)                         \
  SORT_TEST_REFERENCE_PAIR_COMPARE(K, V, sort_test::host_less) \
  SORT_TEST_REFERENCE_PAIR_COMPARE(K, V, sort_test::host_greater)

SORT_TEST_REFERENCE_KEYS(SORT_TEST_REFERENCE_KEY)
SORT_TEST_REFERENCE_PAIRS(SORT_TEST_REFERENCE_PAIR)
SORT_TEST_REFERENCE_COMPARE(strata_test::custom_t, sort_test::custom_by_bc)
SORT_TEST_REFERENCE_COMPARE(std::int32_t, sort_test::by_magnitude)
SORT_TEST_REFERENCE_PAIR_COMPARE(strata_test::custom_t, std::uint32_t, sort_test::custom_by_bc)
SORT_TEST_REFERENCE_PAIR_COMPARE(std::int32_t, std::uint32_t, sort_test::by_magnitude)
