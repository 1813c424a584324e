// strata::inclusive_scan_by_key and exclusive_scan_by_key against std::inclusive_scan / exclusive_scan run over each
// run of equal keys on the host: every overload (default equality and sum, a key predicate, an operator, an init),
// key patterns from one run to all-distinct keys and runs around the tile size, value types whose code paths differ,
// a non-commutative operator, values in place, inputs behind raw pointers, thrust::device_ptr, device_vector
// iterators and fancy iterators. Every call gives back its temporary storage on the policy's stream and returns
// before its kernels run behind a gate on that stream.
#include "support.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace
{
using strata_test::custom_t;
using strata_test::mat2x2;

using strata_test::mat_mul;

// Keys in runs of random lengths in [min_run, max_run]; consecutive runs have different keys.
struct key_pattern
{
  const char* name;
  std::size_t min_run;
  std::size_t max_run;
};

std::vector<int> keys_in_runs(std::size_t n, key_pattern pattern, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::uniform_int_distribution<std::size_t> length(pattern.min_run, pattern.max_run);
  std::vector<int> keys(n);
  int key = 1;
  for (std::size_t i = 0; i < n; ++key)
  {
    const std::size_t end = std::min(n, i + length(rng));
    for (; i < end; ++i)
    {
      keys[i] = key * 7; // multiples of 7: tens_equal groups some runs together
    }
  }
  return keys;
}

// Keys equal when they have the same tens: a predicate that joins runs the default equality keeps apart.
struct tens_equal
{
  __host__ __device__ bool operator()(int a, int b) const
  {
    return a / 10 == b / 10;
  }
};

// The host reference: std::inclusive_scan or std::exclusive_scan over each run of keys equal under `same` (a run
// breaks where same(previous key, key) is false), each run starting afresh.
template <typename V, typename Same, typename Op>
std::vector<V> scan_runs(const std::vector<int>& keys, const std::vector<V>& values, Same same, Op op, bool inclusive,
                         V init)
{
  std::vector<V> out(values.size());
  std::size_t begin = 0;
  while (begin < keys.size())
  {
    std::size_t end = begin + 1;
    while (end < keys.size() && same(keys[end - 1], keys[end]))
    {
      ++end;
    }
    const auto first = values.begin() + static_cast<std::ptrdiff_t>(begin);
    const auto last  = values.begin() + static_cast<std::ptrdiff_t>(end);
    const auto to    = out.begin() + static_cast<std::ptrdiff_t>(begin);
    if (inclusive)
    {
      std::inclusive_scan(first, last, to, op);
    }
    else
    {
      std::exclusive_scan(first, last, to, init, op);
    }
    begin = end;
  }
  return out;
}

const key_pattern patterns[] = {{"one run", std::size_t(1) << 30, std::size_t(1) << 30},
                                {"all keys distinct", 1, 1},
                                {"runs of 1 to 3", 1, 3},
                                {"runs of 1 to 300", 1, 300},
                                {"runs of 3000 to 9000", 3000, 9000}};

template <typename T>
using sum_accum_t = std::decay_t<decltype(std::declval<T>() + std::declval<T>())>;

} // namespace

TEMPLATE_TEST_CASE("strata::inclusive_scan_by_key and exclusive_scan_by_key sums match std:: over each run of keys",
                   "[execution][scan_by_key]", EXEC_TEST_FEW_TYPES)
{
  using V = TestType;
  exec_test::logged_stream stream;
  thrust::device_vector<V> out;
  const std::equal_to<> same{};
  for (const key_pattern& pattern : patterns)
  {
    CAPTURE(pattern.name);
    for (const std::size_t n : exec_test::sizes(exec_test::scan_tile<sum_accum_t<V>>(), 601))
    {
      CAPTURE(n);
      const std::vector<int> keys = keys_in_runs(n, pattern, n + 1);
      const std::vector<V> values = strata_test::random_vector<V>(n, 53 * n + 2);
      const V init                = exec_test::random_init<V>(n + 3);
      const exec_test::host_sum sum{};
      const std::vector<V> inclusive      = scan_runs(keys, values, same, sum, true, V{});
      const std::vector<V> exclusive      = scan_runs(keys, values, same, sum, false, V{});
      const std::vector<V> exclusive_init = scan_runs(keys, values, same, sum, false, init);
      const std::vector<V> by_tens        = scan_runs(keys, values, tens_equal{}, sum, true, V{});
      const std::vector<V> by_tens_init   = scan_runs(keys, values, tens_equal{}, sum, false, init);
      thrust::device_vector<int> d_keys   = exec_test::upload(keys);
      thrust::device_vector<V> d_values   = exec_test::upload(values);
      out.resize(n);

      exec_test::for_each_input_kind(d_keys, [&](auto keys_first, auto keys_last) {
        const auto d_first      = exec_test::output_like(keys_first, out);
        const auto values_first = exec_test::output_like(keys_first, d_values);
        stream.alloc.log().clear();
        exec_test::poison(out);
        CHECK(strata::inclusive_scan_by_key(stream.policy, keys_first, keys_last, values_first, d_first)
              == d_first + n);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), inclusive);
        exec_test::poison(out);
        CHECK(strata::inclusive_scan_by_key(stream.policy, keys_first, keys_last, values_first, d_first, tens_equal{})
              == d_first + n);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), by_tens);
        exec_test::poison(out);
        CHECK(strata::inclusive_scan_by_key(stream.policy, keys_first, keys_last, values_first, d_first, tens_equal{},
                                            cuda::std::plus<>{})
              == d_first + n);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), by_tens);
        exec_test::poison(out);
        CHECK(strata::exclusive_scan_by_key(stream.policy, keys_first, keys_last, values_first, d_first)
              == d_first + n);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), exclusive);
        exec_test::poison(out);
        CHECK(strata::exclusive_scan_by_key(stream.policy, keys_first, keys_last, values_first, d_first, init)
              == d_first + n);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), exclusive_init);
        exec_test::poison(out);
        CHECK(
          strata::exclusive_scan_by_key(stream.policy, keys_first, keys_last, values_first, d_first, init, tens_equal{})
          == d_first + n);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), by_tens_init);
        exec_test::poison(out);
        CHECK(strata::exclusive_scan_by_key(stream.policy, keys_first, keys_last, values_first, d_first, init,
                                            tens_equal{}, cuda::std::plus<>{})
              == d_first + n);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), by_tens_init);
        stream.require_clean();
        if (n == 0)
        {
          CHECK(stream.alloc.log().allocations() == 0);
        }
      });
    }
  }
}

TEST_CASE("strata::inclusive_scan_by_key and exclusive_scan_by_key keep the order of matrix products, values in place",
          "[execution][scan_by_key][noncommutative]")
{
  exec_test::logged_stream stream;
  const std::equal_to<> same{};
  for (const key_pattern& pattern : patterns)
  {
    CAPTURE(pattern.name);
    for (const std::size_t n : exec_test::sizes(exec_test::scan_tile<mat2x2, mat_mul>(), 603))
    {
      CAPTURE(n);
      const std::vector<int> keys         = keys_in_runs(n, pattern, n + 5);
      const std::vector<mat2x2> values    = strata_test::random_vector<mat2x2>(n, 59 * n + 3);
      const mat2x2 init                   = exec_test::random_init<mat2x2>(n + 7);
      const std::vector<mat2x2> inclusive = scan_runs(keys, values, same, mat_mul{}, true, init);
      const std::vector<mat2x2> exclusive = scan_runs(keys, values, same, mat_mul{}, false, init);
      thrust::device_vector<int> d_keys   = exec_test::upload(keys);
      thrust::device_vector<mat2x2> d     = exec_test::upload(values);
      stream.alloc.log().clear();
      CHECK(strata::inclusive_scan_by_key(stream.policy, d_keys.begin(), d_keys.end(), d.begin(), d.begin(),
                                          cuda::std::equal_to<>{}, mat_mul{})
            == d.end());
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), inclusive);
      d = exec_test::upload(values);
      CHECK(strata::exclusive_scan_by_key(stream.policy, d_keys.begin(), d_keys.end(), d.begin(), d.begin(), init,
                                          cuda::std::equal_to<>{}, mat_mul{})
            == d.end());
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), exclusive);
      stream.require_clean();
    }
  }
}

namespace
{
// Runs of `length` keys from a counting iterator: i / length.
struct run_of
{
  int length;
  __host__ __device__ int operator()(int i) const
  {
    return i / length;
  }
};
} // namespace

TEST_CASE("strata::inclusive_scan_by_key and exclusive_scan_by_key read fancy keys and values, behind a gate",
          "[execution][scan_by_key][iterators][stream]")
{
  exec_test::logged_stream stream;
  for (const std::size_t n : exec_test::sizes(exec_test::scan_tile<int>(), 605))
  {
    CAPTURE(n);
    const int count = static_cast<int>(n);
    const int run   = 1 + static_cast<int>(n % 4099);
    const auto keys = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), run_of{run});
    std::vector<int> h_keys(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      h_keys[i] = run_of{run}(static_cast<int>(i));
    }
    stream.alloc.log().clear();
    {
      INFO("constant values: positions within each run");
      const std::vector<int> expected =
        scan_runs(h_keys, std::vector<int>(n, 1), std::equal_to<>{}, exec_test::host_sum{}, false, 0);
      thrust::device_vector<int> out(n);
      exec_test::poison(out);
      CHECK(
        strata::exclusive_scan_by_key(stream.policy, keys, keys + count, thrust::constant_iterator<int>(1), out.begin())
        == out.end());
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);
    }
    {
      INFO("values in memory, behind a gate");
      const std::vector<int> values   = strata_test::random_vector<int>(n, n + 11);
      const std::vector<int> expected = scan_runs(h_keys, values, std::equal_to<>{}, exec_test::host_sum{}, true, 0);
      exec_test::check_behind_gate(stream, values, expected, [&](auto first, auto, auto out) {
        CHECK(strata::inclusive_scan_by_key(stream.policy, keys, keys + count, first, out) == out + count);
      });
    }
    stream.require_clean();
  }
}

TEST_CASE("strata scans by key of an empty range return d_first and write nothing", "[execution][scan_by_key][empty]")
{
  exec_test::logged_stream stream;
  int* const null = nullptr;
  CHECK(strata::inclusive_scan_by_key(stream.policy, null, null, null, null) == null);
  CHECK(strata::exclusive_scan_by_key(stream.policy, null, null, null, null, 3) == null);
  thrust::device_vector<int> keys(3, 1), values(3, 2), out(3);
  exec_test::poison(out);
  CHECK(strata::inclusive_scan_by_key(stream.policy, keys.begin() + 1, keys.begin() + 1, values.begin(), out.begin())
        == out.begin());
  CHECK(strata::exclusive_scan_by_key(stream.policy, keys.begin() + 1, keys.begin() + 1, values.begin(), out.begin(), 9,
                                      tens_equal{}, cuda::std::plus<>{})
        == out.begin());
  stream.sync();
  CHECK(exec_test::all_poisoned(exec_test::download(out)));
  CHECK(stream.alloc.log().allocations() == 0);
  stream.require_clean();
}
