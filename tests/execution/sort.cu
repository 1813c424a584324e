// strata::sort, stable_sort, is_sorted and is_sorted_until against std:: on the host: arithmetic keys (the radix sort,
// ascending and descending, every way of naming less and greater), __half and __nv_bfloat16, custom_t and user
// comparators (the merge sort), keys with full and low entropy, -0.0 beside +0.0, the size classes around both
// sorts' tiles, raw pointers, thrust::device_ptr, device_vector iterators and fancy iterators (reverse, permutation,
// counting). Every call takes at most one allocation from the policy's allocator and gives it back on the policy's
// stream; sorts return before their kernels run; is_sorted waits for the work before it on its stream. Also: which
// sort the frontend picks (at compile time), Thrust's entry points given strata's policy run strata's, sorts captured
// into a CUDA graph replay on fresh data, and an allocator that fails makes every algorithm throw strata::cuda_error
// naming it. sort_by_key and stable_sort_by_key: sort_by_key.cu.
#include "sort_support.cuh"

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/sort.h>

#include <cuda/std/functional>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <vector>

namespace
{
using merge_sort_test::entropy;
using sort_test::by_magnitude;
using sort_test::custom_by_bc;
using sort_test::host_greater;
using sort_test::host_less;
using sort_test::ids_of;
using sort_test::sort_algorithm;
using strata_test::custom_t;

template <typename KeyIt, typename CompareT>
constexpr sort_algorithm keys_sort = strata::detail::frontend::sort_algorithm_v<KeyIt, void, CompareT>;

// The radix sort for arithmetic keys in contiguous memory under less / greater, however named.
static_assert(keys_sort<int*, cuda::std::less<>> == sort_algorithm::radix_ascending, "");
static_assert(keys_sort<int*, cuda::std::less<int>> == sort_algorithm::radix_ascending, "");
static_assert(keys_sort<thrust::device_ptr<float>, std::less<float>> == sort_algorithm::radix_ascending, "");
static_assert(
  keys_sort<thrust::device_vector<double>::iterator, thrust::less<double>> == sort_algorithm::radix_ascending, "");
static_assert(keys_sort<std::uint8_t*, std::less<>> == sort_algorithm::radix_ascending, "");
static_assert(keys_sort<__half*, cuda::std::less<__half>> == sort_algorithm::radix_ascending, "");
static_assert(keys_sort<__nv_bfloat16*, cuda::std::less<>> == sort_algorithm::radix_ascending, "");
static_assert(keys_sort<bool*, cuda::std::less<>> == sort_algorithm::radix_ascending, "");
static_assert(keys_sort<int*, cuda::std::greater<>> == sort_algorithm::radix_descending, "");
static_assert(keys_sort<thrust::device_vector<std::int64_t>::iterator,
                        thrust::greater<std::int64_t>> == sort_algorithm::radix_descending,
              "");
static_assert(keys_sort<thrust::device_ptr<double>, std::greater<>> == sort_algorithm::radix_descending, "");
// The merge sort for everything else: other comparators (less of another type included), other key types, iterators
// that are not contiguous memory.
static_assert(keys_sort<unsigned*, cuda::std::less<int>> == sort_algorithm::merge, "");
static_assert(keys_sort<int*, by_magnitude> == sort_algorithm::merge, "");
static_assert(keys_sort<int*, cuda::std::less_equal<>> == sort_algorithm::merge, "");
static_assert(keys_sort<custom_t*, cuda::std::less<>> == sort_algorithm::merge, "");
static_assert(keys_sort<long double*, cuda::std::less<>> == sort_algorithm::merge, "");
static_assert(keys_sort<thrust::reverse_iterator<int*>, cuda::std::less<>> == sort_algorithm::merge, "");
static_assert(keys_sort<thrust::permutation_iterator<int*, int*>, cuda::std::less<>> == sort_algorithm::merge, "");

// Descending custom_t under the merge sort's tests' comparator, for the merge path's descending checks.
using custom_descending = merge_sort_test::reversed<custom_by_bc>;

// A key that comes before `x` under host_less (ascending) or host_greater (descending): planted after x, it ends the
// sorted prefix there. custom_t: under custom_by_bc.
template <typename T>
T key_before(const T& x, bool ascending)
{
  if constexpr (std::is_same<T, custom_t>::value)
  {
    T y = x;
    y.b = ascending ? x.b - 1 : x.b + 1;
    return y;
  }
  else
  {
    return ascending ? static_cast<T>(x - T(1)) : static_cast<T>(x + T(1));
  }
}

// Loads `h` into a buffer behind a closed gate on the policy's stream (the buffer holds a decoy until then), runs the
// in-place `call(first, last)`, which must return with the buffer untouched (it neither waited nor ran on another
// stream); once the gate opens the buffer must hold `expected`.
template <typename T, typename Call>
void check_sort_behind_gate(exec_test::logged_stream& stream, const std::vector<T>& h, const std::vector<T>& expected,
                            Call&& call)
{
  thrust::device_vector<T> real  = exec_test::upload(h);
  const std::vector<T> decoy     = exec_test::decoy_of(h);
  thrust::device_vector<T> input = exec_test::upload(decoy);
  stream.alloc.log().clear();
  stream.close();
  stream.copy(input, real);
  call(input.begin(), input.end());
  STRATA_REQUIRE_EQUAL_VECTORS(ids_of(stream.peek(input)), ids_of(decoy));
  stream.open();
  stream.sync();
  CHECK_FALSE(stream.timed_out());
  STRATA_REQUIRE_EQUAL_VECTORS(ids_of(exec_test::download(input)), ids_of(expected));
  stream.require_clean();
}
} // namespace

TEMPLATE_TEST_CASE("strata::sort and stable_sort of arithmetic keys (radix sort) match std::stable_sort for every "
                   "size class",
                   "[execution][sort][radix]", std::uint8_t, std::int16_t, std::int32_t, std::uint64_t, float, double)
{
  using T = TestType;
  exec_test::logged_stream stream;
  const auto& p = stream.policy;
  for (const std::size_t n : sort_test::radix_sizes<T>(501))
  {
    CAPTURE(n);
    for (const entropy e : {entropy::full, entropy::few_values})
    {
      CAPTURE(merge_sort_test::entropy_name(e));
      const std::vector<T> h          = sort_test::make_keys<T>(n, e, 43 * n + static_cast<std::uint64_t>(e) + 1);
      const std::vector<T> ascending  = sort_test::stably_sorted(h, host_less{});
      const std::vector<T> descending = sort_test::stably_sorted(h, host_greater{});
      thrust::device_vector<T> d(n);

      exec_test::for_each_input_kind(d, [&](auto first, auto last) {
        // One allocation (n > 1): the sort's storage and n keys; not two arrays of keys (the in/out form's).
        auto check_storage = [&] {
          CHECK(stream.alloc.log().allocations() == (n > 1 ? 1u : 0u));
          if (n > 65536)
          {
            CHECK(stream.alloc.log().peak_bytes() <= n * sizeof(T) * 3 / 2);
          }
        };
        auto sorted = [&](const char* what, const std::vector<T>& expected, bool stable, auto call) {
          INFO(what);
          const std::vector<T> out = sort_test::run_sort(stream, d, h, call);
          check_storage();
          if (stable)
          {
            STRATA_REQUIRE_EQUAL_VECTORS(ids_of(out), ids_of(expected));
          }
          else
          {
            sort_test::require_equal_keys(out, expected);
          }
        };
        sorted("sort", ascending, false, [&] {
          strata::sort(p, first, last);
        });
        sorted("sort, cuda::std::less<>", ascending, false, [&] {
          strata::sort(p, first, last, cuda::std::less<>{});
        });
        sorted("sort, std::less<T>", ascending, false, [&] {
          strata::sort(p, first, last, std::less<T>{});
        });
        sorted("stable_sort", ascending, true, [&] {
          strata::stable_sort(p, first, last);
        });
        sorted("stable_sort, thrust::less<T>", ascending, true, [&] {
          strata::stable_sort(p, first, last, thrust::less<T>{});
        });
        sorted("sort, cuda::std::greater<>", descending, false, [&] {
          strata::sort(p, first, last, cuda::std::greater<>{});
        });
        sorted("stable_sort, std::greater<T>", descending, true, [&] {
          strata::stable_sort(p, first, last, std::greater<T>{});
        });
      });
    }
  }
}

TEMPLATE_TEST_CASE("strata::sort and stable_sort of __half and __nv_bfloat16 keys (radix sort) match std::stable_sort",
                   "[execution][sort][radix][half]", __half, __nv_bfloat16)
{
  using T = TestType;
  exec_test::logged_stream stream;
  const auto& p = stream.policy;
  for (const std::size_t n : sort_test::radix_sizes<T>(503))
  {
    CAPTURE(n);
    for (const entropy e : {entropy::full, entropy::few_values})
    {
      CAPTURE(merge_sort_test::entropy_name(e));
      const std::vector<T> h          = sort_test::make_keys<T>(n, e, 47 * n + static_cast<std::uint64_t>(e) + 2);
      const std::vector<T> ascending  = sort_test::stably_sorted(h, host_less{});
      const std::vector<T> descending = sort_test::stably_sorted(h, host_greater{});
      thrust::device_vector<T> d(n);
      T* const first = thrust::raw_pointer_cast(d.data());
      T* const last  = first + n;

      std::vector<T> out = sort_test::run_sort(stream, d, h, [&] {
        strata::sort(p, first, last);
      });
      sort_test::require_equal_keys(out, ascending);
      out = sort_test::run_sort(stream, d, h, [&] {
        strata::stable_sort(p, d.begin(), d.end(), cuda::std::less<T>{});
      });
      STRATA_REQUIRE_EQUAL_VECTORS(ids_of(out), ids_of(ascending));
      out = sort_test::run_sort(stream, d, h, [&] {
        strata::stable_sort(p, thrust::device_ptr<T>(first), thrust::device_ptr<T>(last), cuda::std::greater<>{});
      });
      STRATA_REQUIRE_EQUAL_VECTORS(ids_of(out), ids_of(descending));
      CHECK(stream.alloc.log().allocations() == (n > 1 ? 1u : 0u));
    }
  }
}

TEMPLATE_TEST_CASE("strata::sort and stable_sort under other comparators and of other keys (merge sort) match "
                   "std::stable_sort for every size class",
                   "[execution][sort][merge]", custom_t, std::int32_t)
{
  using T = TestType;
  // custom_t by (b, c) only, int32 by magnitude: keys that differ compare equal, so stability shows.
  using Compare = std::conditional_t<std::is_same<T, custom_t>::value, custom_by_bc, by_magnitude>;
  exec_test::logged_stream stream;
  const auto& p = stream.policy;
  for (const std::size_t n : sort_test::merge_sizes<T>(505))
  {
    CAPTURE(n);
    for (const entropy e : {entropy::full, entropy::few_values})
    {
      CAPTURE(merge_sort_test::entropy_name(e));
      const std::vector<T> h         = sort_test::make_keys<T>(n, e, 53 * n + static_cast<std::uint64_t>(e) + 3);
      const std::vector<T> by_comp   = sort_test::stably_sorted(h, Compare{});
      const std::vector<T> ascending = sort_test::stably_sorted(h, host_less{});
      thrust::device_vector<T> d(n);

      exec_test::for_each_input_kind(d, [&](auto first, auto last) {
        auto run = [&](auto call) {
          const std::vector<T> out = sort_test::run_sort(stream, d, h, call);
          CHECK(stream.alloc.log().allocations() <= 1u);
          if (n <= 1)
          {
            CHECK(stream.alloc.log().allocations() == 0u);
          }
          return out;
        };
        sort_test::require_sorted_permutation(run([&] {
                                                strata::sort(p, first, last, Compare{});
                                              }),
                                              h, Compare{});
        STRATA_REQUIRE_EQUAL_VECTORS(ids_of(run([&] {
                                       strata::stable_sort(p, first, last, Compare{});
                                     })),
                                     ids_of(by_comp));
        if constexpr (std::is_same<T, custom_t>::value)
        {
          // operator< (cuda::std::less<>) and its reverse, a user functor.
          sort_test::require_sorted_permutation(run([&] {
                                                  strata::sort(p, first, last);
                                                }),
                                                h, host_less{});
          STRATA_REQUIRE_EQUAL_VECTORS(ids_of(run([&] {
                                         strata::stable_sort(p, first, last, custom_descending{});
                                       })),
                                       ids_of(sort_test::stably_sorted(h, custom_descending{})));
        }
        else
        {
          // Arithmetic keys under a user functor that orders them as operator< does: still the merge sort.
          STRATA_REQUIRE_EQUAL_VECTORS(ids_of(run([&] {
                                         strata::stable_sort(p, first, last, merge_sort_test::less_op{});
                                       })),
                                       ids_of(ascending));
        }
      });
    }
  }
}

TEST_CASE("strata::sort and stable_sort through reverse and permutation iterators (merge sort)",
          "[execution][sort][merge][fancy]")
{
  exec_test::logged_stream stream;
  const auto& p = stream.policy;
  for (const std::size_t n :
       strata_test::sizes_within_cap({std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(1000),
                                      sort_test::merge_tile<int>() + 1, std::size_t(1000003)}))
  {
    CAPTURE(n);
    const std::vector<int> h = sort_test::make_keys<int>(n, entropy::few_values, 59 * n + 4);
    thrust::device_vector<int> d(n);

    // A reversed view sorted ascending is the memory sorted descending.
    const std::vector<int> descending = sort_test::stably_sorted(h, host_greater{});
    std::vector<int> out              = sort_test::run_sort(stream, d, h, [&] {
      strata::sort(p, thrust::make_reverse_iterator(d.end()), thrust::make_reverse_iterator(d.begin()));
    });
    STRATA_REQUIRE_EQUAL_VECTORS(out, descending);

    // Stability through the reversed view: the last of equal keys in memory comes first in the view.
    std::vector<int> reversed(h.rbegin(), h.rend());
    std::vector<int> expected = sort_test::stably_sorted(reversed, by_magnitude{});
    std::reverse(expected.begin(), expected.end());
    out = sort_test::run_sort(stream, d, h, [&] {
      strata::stable_sort(p, thrust::make_reverse_iterator(d.end()), thrust::make_reverse_iterator(d.begin()),
                          by_magnitude{});
    });
    STRATA_REQUIRE_EQUAL_VECTORS(out, expected);

    // The items seen through a permutation: view[i] = d[map[i]] ends sorted.
    std::vector<int> map(n);
    std::iota(map.begin(), map.end(), 0);
    std::shuffle(map.begin(), map.end(), strata_test::make_rng(n + 61));
    thrust::device_vector<int> d_map = exec_test::upload(map);
    std::vector<int> view(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      view[i] = h[static_cast<std::size_t>(map[i])];
    }
    const std::vector<int> view_sorted = sort_test::stably_sorted(view, host_less{});
    out                                = sort_test::run_sort(stream, d, h, [&] {
      strata::sort(p, thrust::make_permutation_iterator(d.begin(), d_map.begin()),
                                                  thrust::make_permutation_iterator(d.begin(), d_map.end()));
    });
    for (std::size_t i = 0; i < n; ++i)
    {
      view[i] = out[static_cast<std::size_t>(map[i])];
    }
    STRATA_REQUIRE_EQUAL_VECTORS(view, view_sorted);
  }
}

TEMPLATE_TEST_CASE("strata::is_sorted and is_sorted_until match std:: for every size class",
                   "[execution][sort][is_sorted]", std::int32_t, float, custom_t)
{
  using T               = TestType;
  constexpr bool CUSTOM = std::is_same<T, custom_t>::value;
  exec_test::logged_stream stream;
  const auto& p = stream.policy;
  for (const std::size_t n : exec_test::sizes(exec_test::reduce_tile<T>(), 507))
  {
    CAPTURE(n);
    std::mt19937_64 rng = strata_test::make_rng(61 * n + 5);
    for (const bool ascending : {true, false})
    {
      CAPTURE(ascending);
      const std::vector<T> random = sort_test::make_keys<T>(n, entropy::few_values, 67 * n + ascending);
      // Sorted; sorted but for one key planted before its predecessor; random (mostly ending its prefix at once).
      std::vector<std::vector<T>> inputs;
      if constexpr (CUSTOM)
      {
        inputs.push_back(ascending ? sort_test::stably_sorted(random, custom_by_bc{})
                                   : sort_test::stably_sorted(random, custom_descending{}));
      }
      else
      {
        inputs.push_back(ascending ? sort_test::stably_sorted(random, host_less{})
                                   : sort_test::stably_sorted(random, host_greater{}));
      }
      if (n >= 2)
      {
        std::vector<T> planted = inputs[0];
        const std::size_t i    = 1 + static_cast<std::size_t>(rng() % (n - 1));
        planted[i]             = key_before(planted[i - 1], ascending);
        inputs.push_back(planted);
      }
      inputs.push_back(random);

      for (const std::vector<T>& h : inputs)
      {
        thrust::device_vector<T> d = exec_test::upload(h);
        // std::'s answers, under the comparator the device is given.
        auto host_answers = [&](auto comp) {
          return std::make_pair(std::is_sorted(h.begin(), h.end(), comp),
                                std::is_sorted_until(h.begin(), h.end(), comp) - h.begin());
        };
        exec_test::for_each_input_kind(d, [&](auto first, auto last) {
          stream.alloc.log().clear();
          if constexpr (CUSTOM)
          {
            const auto expected = ascending ? host_answers(custom_by_bc{}) : host_answers(custom_descending{});
            if (ascending)
            {
              CHECK(strata::is_sorted(p, first, last, custom_by_bc{}) == expected.first);
              CHECK(strata::is_sorted_until(p, first, last, custom_by_bc{}) - first == expected.second);
            }
            else
            {
              CHECK(strata::is_sorted(p, first, last, custom_descending{}) == expected.first);
              CHECK(strata::is_sorted_until(p, first, last, custom_descending{}) - first == expected.second);
            }
          }
          else if (ascending)
          {
            const auto expected = host_answers(host_less{});
            CHECK(strata::is_sorted(p, first, last) == expected.first);
            CHECK(strata::is_sorted_until(p, first, last) - first == expected.second);
            CHECK(strata::is_sorted(p, first, last, std::less<T>{}) == expected.first);
            CHECK(strata::is_sorted_until(p, first, last, thrust::less<T>{}) - first == expected.second);
          }
          else
          {
            const auto expected = host_answers(host_greater{});
            CHECK(strata::is_sorted(p, first, last, cuda::std::greater<>{}) == expected.first);
            CHECK(strata::is_sorted_until(p, first, last, std::greater<T>{}) - first == expected.second);
          }
          stream.require_clean();
          if (n <= 1)
          {
            CHECK(stream.alloc.log().allocations() == 0u);
          }
        });
      }
    }
  }
}

TEST_CASE("strata::is_sorted and is_sorted_until of fancy iterators", "[execution][sort][is_sorted][fancy]")
{
  exec_test::logged_stream stream;
  const auto& p = stream.policy;
  for (const std::size_t size : strata_test::sizes_within_cap({0, 1, 2, 1000, 1000003}))
  {
    const long long n = static_cast<long long>(size);
    CAPTURE(n);
    const thrust::counting_iterator<long long> first(-5);
    const thrust::counting_iterator<long long> last = first + n;
    CHECK(strata::is_sorted(p, first, last));
    CHECK(strata::is_sorted_until(p, first, last) == last);
    CHECK(strata::is_sorted(p, first, last, cuda::std::greater<>{}) == (n <= 1));
    CHECK(strata::is_sorted_until(p, first, last, cuda::std::greater<>{}) - first == std::min(n, 1LL));

    // An ascending array seen backwards descends.
    std::vector<int> h(static_cast<std::size_t>(n));
    std::iota(h.begin(), h.end(), 3);
    thrust::device_vector<int> d = exec_test::upload(h);
    const auto rfirst            = thrust::make_reverse_iterator(d.end());
    const auto rlast             = thrust::make_reverse_iterator(d.begin());
    CHECK(strata::is_sorted(p, rfirst, rlast) == (n <= 1));
    CHECK(strata::is_sorted(p, rfirst, rlast, cuda::std::greater<>{}));
    CHECK(strata::is_sorted_until(p, rfirst, rlast) - rfirst == std::min(n, 1LL));
  }
  stream.require_clean();
}

TEST_CASE("strata::is_sorted waits for its stream's earlier work, and only takes memory on it",
          "[execution][sort][is_sorted][stream]")
{
  exec_test::logged_stream stream;
  for (const std::size_t n :
       strata_test::sizes_within_cap({std::size_t(2), exec_test::reduce_tile<int>() + 1, std::size_t(1000003)}))
  {
    CAPTURE(n);
    std::vector<int> sorted(n);
    std::iota(sorted.begin(), sorted.end(), -7);
    // Not sorted until the real items reach it, behind a 20 ms delay on the policy's stream.
    thrust::device_vector<int> real  = exec_test::upload(sorted);
    thrust::device_vector<int> input = exec_test::upload(std::vector<int>(sorted.rbegin(), sorted.rend()));
    stream.alloc.log().clear();
    stream.delay(std::chrono::milliseconds(20));
    stream.copy(input, real);
    CHECK(strata::is_sorted(stream.policy, input.begin(), input.end()));
    stream.delay(std::chrono::milliseconds(20));
    stream.copy(input, real);
    CHECK(strata::is_sorted_until(stream.policy, input.begin(), input.end()) == input.end());
    stream.require_clean();
  }
}

TEST_CASE("strata::sort and stable_sort return before their kernels run, which run on the policy's stream",
          "[execution][sort][stream]")
{
  exec_test::logged_stream stream;
  const auto& p = stream.policy;
  for (const std::size_t n : strata_test::sizes_within_cap({std::size_t(1000), std::size_t(1000003)}))
  {
    CAPTURE(n);
    {
      INFO("radix sort, int32");
      const std::vector<int> h = sort_test::make_keys<int>(n, entropy::full, 71 * n);
      check_sort_behind_gate(stream, h, sort_test::stably_sorted(h, host_less{}), [&](auto first, auto last) {
        strata::sort(p, first, last);
      });
    }
    {
      INFO("radix sort, uint8 descending (the result is copied back from the second buffer)");
      const std::vector<std::uint8_t> h = sort_test::make_keys<std::uint8_t>(n, entropy::full, 73 * n);
      check_sort_behind_gate(stream, h, sort_test::stably_sorted(h, host_greater{}), [&](auto first, auto last) {
        strata::sort(p, first, last, cuda::std::greater<>{});
      });
    }
    {
      INFO("merge sort, custom_t");
      const std::vector<custom_t> h = sort_test::make_keys<custom_t>(n, entropy::few_values, 79 * n);
      check_sort_behind_gate(stream, h, sort_test::stably_sorted(h, custom_by_bc{}), [&](auto first, auto last) {
        strata::stable_sort(p, first, last, custom_by_bc{});
      });
    }
  }
}

TEST_CASE("Thrust's sorts given strata's policy run strata's implementation", "[execution][sort][thrust]")
{
  exec_test::logged_stream stream;
  const auto p                  = stream.policy;
  const std::size_t n           = strata_test::capped(1000003);
  const std::vector<int> h      = sort_test::make_keys<int>(n, entropy::few_values, 83);
  const std::vector<custom_t> c = sort_test::make_keys<custom_t>(n, entropy::few_values, 89);
  thrust::device_vector<int> d(n);
  thrust::device_vector<custom_t> dc(n);
  auto output = [&] {
    stream.sync();
    return exec_test::download(d);
  };

  const std::vector<int> ascending  = sort_test::stably_sorted(h, host_less{});
  const std::vector<int> descending = sort_test::stably_sorted(h, host_greater{});

  exec_test::upload_into(d, h);
  sort_test::check_strata_ran("strata::sort", [&] {
    thrust::sort(p, d.begin(), d.end());
  });
  STRATA_REQUIRE_EQUAL_VECTORS(output(), ascending);
  sort_test::check_strata_ran("strata::is_sorted", [&] {
    CHECK(thrust::is_sorted(p, d.begin(), d.end()));
  });
  sort_test::check_strata_ran("strata::is_sorted_until", [&] {
    CHECK(thrust::is_sorted_until(p, d.begin(), d.end(), thrust::greater<int>{}) - d.begin()
          == std::is_sorted_until(ascending.begin(), ascending.end(), host_greater{}) - ascending.begin());
  });

  exec_test::upload_into(d, h);
  sort_test::check_strata_ran("strata::sort", [&] {
    thrust::sort(p, d.begin(), d.end(), thrust::greater<int>{});
  });
  STRATA_REQUIRE_EQUAL_VECTORS(output(), descending);
  sort_test::check_strata_ran("strata::is_sorted", [&] {
    CHECK(thrust::is_sorted(p, d.begin(), d.end(), thrust::greater<int>{}));
  });
  sort_test::check_strata_ran("strata::is_sorted_until", [&] {
    CHECK(thrust::is_sorted_until(p, d.begin(), d.end()) - d.begin()
          == std::is_sorted_until(descending.begin(), descending.end()) - descending.begin());
  });

  exec_test::upload_into(d, h);
  sort_test::check_strata_ran("strata::stable_sort", [&] {
    thrust::stable_sort(p, d.begin(), d.end(), by_magnitude{});
  });
  STRATA_REQUIRE_EQUAL_VECTORS(output(), sort_test::stably_sorted(h, by_magnitude{}));
  exec_test::upload_into(d, h);
  sort_test::check_strata_ran("strata::stable_sort", [&] {
    thrust::stable_sort(p, d.begin(), d.end());
  });
  STRATA_REQUIRE_EQUAL_VECTORS(output(), sort_test::stably_sorted(h, host_less{}));

  exec_test::upload_into(dc, c);
  sort_test::check_strata_ran("strata::sort", [&] {
    thrust::sort(p, dc.begin(), dc.end(), custom_by_bc{});
  });
  stream.sync();
  sort_test::require_sorted_permutation(exec_test::download(dc), c, custom_by_bc{});

  stream.sync();
  stream.require_clean();
}

TEST_CASE("Thrust's sort given Thrust's policy runs CUB, not strata (the hooks tell them apart)",
          "[execution][sort][thrust]")
{
  exec_test::gated_stream stream;
  const std::vector<int> h     = sort_test::make_keys<int>(100003, entropy::full, 97);
  thrust::device_vector<int> d = exec_test::upload(h);
  exec_test::entries().clear();
  thrust::sort(thrust::cuda::par.on(stream.get()), d.begin(), d.end());
  stream.sync();
  const exec_test::entry_log seen = exec_test::entries();
  CHECK(seen.strata.empty());
  CHECK_FALSE(seen.cub.empty());
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), sort_test::stably_sorted(h, host_less{}));
}

namespace
{
// Captures sorts of both kinds through `policy` on `stream` into a graph, then replays it twice on fresh keys
// (written to the same buffers), checking every result after each replay.
template <typename Policy>
void check_sort_graph_replays(const Policy& policy, exec_test::gated_stream& stream)
{
  const std::size_t n = strata_test::capped(1000003);
  thrust::device_vector<int> a(n);
  thrust::device_vector<std::uint8_t> b(n);
  thrust::device_vector<custom_t> c(n);
  thrust::device_vector<int> small(100);
  exec_test::settle();

  cudaGraph_t graph{};
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
  strata::sort(policy, a.begin(), a.end());
  strata::sort(policy, b.begin(), b.end(), cuda::std::greater<>{});
  strata::stable_sort(policy, c.begin(), c.end(), custom_by_bc{});
  strata::sort(policy, small.begin(), small.end());
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream.get(), &graph));
  cudaGraphExec_t exec{};
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));

  for (int replay = 0; replay < 2; ++replay)
  {
    CAPTURE(replay);
    const std::uint64_t salt           = 300 + static_cast<std::uint64_t>(replay);
    const std::vector<int> ha          = sort_test::make_keys<int>(n, entropy::full, salt);
    const std::vector<std::uint8_t> hb = sort_test::make_keys<std::uint8_t>(n, entropy::full, salt + 10);
    const std::vector<custom_t> hc     = sort_test::make_keys<custom_t>(n, entropy::few_values, salt + 20);
    const std::vector<int> hs          = sort_test::make_keys<int>(100, entropy::full, salt + 30);
    exec_test::upload_into(a, ha);
    exec_test::upload_into(b, hb);
    exec_test::upload_into(c, hc);
    exec_test::upload_into(small, hs);
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream.get()));
    stream.sync();
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(a), sort_test::stably_sorted(ha, host_less{}));
    STRATA_REQUIRE_EQUAL_VECTORS(ids_of(exec_test::download(b)), ids_of(sort_test::stably_sorted(hb, host_greater{})));
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(c), sort_test::stably_sorted(hc, custom_by_bc{}));
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(small), sort_test::stably_sorted(hs, host_less{}));
  }
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
}
} // namespace

TEST_CASE("strata::sort and stable_sort captured into a CUDA graph replay on fresh data", "[execution][sort][graph]")
{
  exec_test::gated_stream stream;
  SECTION("temporary storage from the pool")
  {
    check_sort_graph_replays(strata::par.on(stream.get()), stream);
  }
  SECTION("temporary storage from a stream-ordered allocator")
  {
    exec_test::stream_allocator alloc;
    check_sort_graph_replays(strata::par(alloc).on(stream.get()), stream);
    CHECK(alloc.log().allocations() == 4); // captured once: one per sort
    EXEC_TEST_REQUIRE_CLEAN(alloc.log(), stream.get());
  }
}

TEST_CASE("strata::is_sorted throws on a stream being captured, and leaves the capture intact",
          "[execution][sort][is_sorted][graph][errors]")
{
  exec_test::logged_stream stream;
  thrust::device_vector<int> d =
    exec_test::upload(sort_test::make_keys<int>(strata_test::capped(1000003), entropy::full, 101));
  auto while_capturing = [&](const char* name, auto call) {
    exec_test::require_thrown_while_capturing(stream, cudaStreamCaptureModeGlobal, cudaErrorStreamCaptureUnsupported,
                                              name, call);
  };
  while_capturing("strata::is_sorted", [&] {
    (void) strata::is_sorted(stream.policy, d.begin(), d.end());
  });
  while_capturing("strata::is_sorted_until", [&] {
    (void) strata::is_sorted_until(stream.policy, d.begin(), d.end());
  });
}

TEST_CASE("an allocator that throws or returns null makes every sort throw strata::cuda_error naming it, leaking "
          "nothing and leaving the keys as they were",
          "[execution][sort][allocator][errors]")
{
  const std::size_t n                = strata_test::capped(1000003);
  const std::vector<int> hi          = sort_test::make_keys<int>(n, entropy::full, 103);
  const std::vector<std::uint8_t> hu = sort_test::make_keys<std::uint8_t>(n, entropy::full, 107);
  const std::vector<custom_t> hc     = sort_test::make_keys<custom_t>(n, entropy::few_values, 109);
  const std::vector<int> sorted_i    = sort_test::stably_sorted(hi, host_less{});
  thrust::device_vector<int> di(n);
  thrust::device_vector<std::uint8_t> du(n);
  thrust::device_vector<custom_t> dc(n);

  for (const exec_test::failure how : {exec_test::failure::throws, exec_test::failure::returns_null})
  {
    CAPTURE(how == exec_test::failure::throws ? "throws" : "returns null");
    exec_test::logged_stream stream;
    const auto& p = stream.policy;
    // `call` with the first allocation failing, then working; `unchanged` checks the keys after the failure.
    auto check = [&](const char* name, auto reset, auto unchanged, auto call) {
      INFO(name);
      reset();
      stream.alloc.log().clear();
      stream.alloc.log().fail_at(1, how);
      exec_test::require_cuda_error(call, cudaErrorMemoryAllocation, name);
      CHECK(stream.alloc.log().failed() == 1);
      CHECK(stream.alloc.log().allocations() == 0);
      stream.sync();
      unchanged();
      stream.alloc.log().fail_at(0, exec_test::failure::none);
      call();
      stream.sync();
      CHECK(stream.alloc.log().allocations() == 1);
      stream.require_clean();
    };
    auto reset_i = [&] {
      exec_test::upload_into(di, hi);
    };
    auto reset_u = [&] {
      exec_test::upload_into(du, hu);
    };
    auto reset_c = [&] {
      exec_test::upload_into(dc, hc);
    };
    auto unchanged_i = [&] {
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(di), hi);
    };
    auto unchanged_u = [&] {
      STRATA_REQUIRE_EQUAL_VECTORS(ids_of(exec_test::download(du)), ids_of(hu));
    };
    auto unchanged_c = [&] {
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(dc), hc);
    };
    auto sorted_keys = [&] {
      exec_test::upload_into(di, sorted_i);
    };
    auto no_check = [] {};

    check("strata::sort", reset_i, unchanged_i, [&] {
      strata::sort(p, di.begin(), di.end());
    });
    check("strata::sort", reset_u, unchanged_u, [&] {
      strata::sort(p, du.begin(), du.end(), cuda::std::greater<>{});
    });
    check("strata::sort", reset_c, unchanged_c, [&] {
      strata::sort(p, dc.begin(), dc.end(), custom_by_bc{});
    });
    check("strata::stable_sort", reset_i, unchanged_i, [&] {
      strata::stable_sort(p, di.begin(), di.end());
    });
    check("strata::stable_sort", reset_c, unchanged_c, [&] {
      strata::stable_sort(p, dc.begin(), dc.end(), custom_by_bc{});
    });
    // No CHECK around the calls: it would catch the exception the check expects.
    check("strata::is_sorted", sorted_keys, no_check, [&] {
      (void) strata::is_sorted(p, di.begin(), di.end());
    });
    check("strata::is_sorted_until", sorted_keys, no_check, [&] {
      (void) strata::is_sorted_until(p, di.begin(), di.end());
    });
  }
}

TEST_CASE("strata::sort, stable_sort, is_sorted and is_sorted_until of empty and one-item ranges touch nothing",
          "[execution][sort][empty]")
{
  exec_test::logged_stream stream;
  const auto& p   = stream.policy;
  int* const null = nullptr;
  strata::sort(p, null, null);
  strata::sort(p, null, null, cuda::std::greater<>{});
  strata::stable_sort(p, null, null, by_magnitude{});
  CHECK(strata::is_sorted(p, null, null));
  CHECK(strata::is_sorted_until(p, null, null) == null);
  custom_t* const null_custom = nullptr;
  strata::sort(p, null_custom, null_custom);
  strata::stable_sort(p, null_custom, null_custom, custom_by_bc{});

  thrust::device_vector<int> d = exec_test::upload(std::vector<int>{9, 4, 1});
  strata::sort(p, d.begin() + 1, d.begin() + 1);
  strata::sort(p, d.begin() + 1, d.begin() + 2);
  strata::stable_sort(p, d.begin(), d.begin() + 1, by_magnitude{});
  strata::sort(p, thrust::make_reverse_iterator(d.begin() + 1), thrust::make_reverse_iterator(d.begin()));
  CHECK(strata::is_sorted(p, d.begin() + 1, d.begin() + 2));
  CHECK(strata::is_sorted_until(p, d.begin(), d.begin() + 1) == d.begin() + 1);
  stream.sync();
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), (std::vector<int>{9, 4, 1}));
  CHECK(stream.alloc.log().allocations() == 0);
  stream.require_clean();
}
