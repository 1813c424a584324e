// Thrust compatibility of the searches: thrust::find, find_if, find_if_not and mismatch, and the
// vectorized thrust::lower_bound, upper_bound and binary_search, give the same answers through strata::par as through
// thrust::cuda::par, for every input kind, a match at the first item, in the middle, at the last and nowhere, sorted
// ranges with runs of equal items, values in order and shuffled, less and greater (thrust_compat.cuh).
#include "thrust_compat.cuh"

#include <thrust/binary_search.h>
#include <thrust/find.h>
#include <thrust/functional.h>
#include <thrust/mismatch.h>

#include <algorithm>

using namespace compat;

namespace
{
// The kinds whose items keep the order of what they are made from (a sorted range stays sorted).
using order_keeping_kinds = kinds<kind::raw, kind::device_ptr, kind::vector, kind::universal, kind::managed,
                                  kind::transform, kind::counting, kind::constant>;

// a and b differ by at most 1.
struct within_one
{
  __host__ __device__ bool operator()(int a, int b) const
  {
    return a - b <= 1 && b - a <= 1;
  }
};

// x == target.
struct equal_to_value
{
  int target;
  __host__ __device__ bool operator()(int x) const
  {
    return x == target;
  }
};
} // namespace

TEST_CASE("thrust::find, find_if and find_if_not through strata::par", "[thrust][compat][find]")
{
  for (const std::size_t n : sizes())
  {
    std::vector<int> in = random_values<int>(n, 81, -50, 50);
    for (const std::size_t at : {std::size_t(0), n / 2, n == 0 ? 0 : n - 1, n})
    {
      std::vector<int> with = in;
      std::replace(with.begin(), with.end(), 77, 76);
      if (at < n)
      {
        with[at] = 77;
      }
      const std::string where = at == n ? "nowhere" : "at " + std::to_string(at);
      for_each_kind(input_kinds{}, [&](auto k) {
        compare("find_if", std::string(name_of(k)) + ", " + where, n, [&](auto policy, record& r) {
          with_range<decltype(k)::value>(r, "input", with, [&](auto f, auto l) {
            r.value("index", static_cast<long long>(thrust::find_if(policy, f, l, equal_to_value{77}) - f));
          });
        });
      });
      compare("find", where, n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", with, [&](auto f, auto l) {
          r.value("index", static_cast<long long>(thrust::find(policy, f, l, 77) - f));
        });
      });
      compare("find_if_not", where, n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", with, [&](auto f, auto l) {
          r.value("index",
                  static_cast<long long>(thrust::find_if_not(policy, f, l, thrust::not_fn(equal_to_value{77})) - f));
        });
      });
    }
  }
}

TEST_CASE("thrust::mismatch through strata::par", "[thrust][compat][find]")
{
  for (const std::size_t n : sizes())
  {
    // Distinct values in a scattered order; the second range differs from the first at `at` only.
    std::vector<int> in(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      in[i] = static_cast<int>((i * 7919) % 1000003) * 2 - 1000003;
    }
    for (const std::size_t at : {std::size_t(0), n / 2, n == 0 ? 0 : n - 1, n})
    {
      const std::string where = at >= n ? "nowhere" : "at " + std::to_string(at);
      std::vector<int> other  = in;
      if (at < n)
      {
        other[at] += 1;
      }
      for_each_kind(input_kinds{}, [&](auto k) {
        compare("mismatch", std::string(name_of(k)) + ", " + where, n, [&](auto policy, record& r) {
          with_range<decltype(k)::value>(r, "first", in, [&](auto f1, auto l1) {
            with_range<kind::vector>(r, "second", other, [&](auto f2, auto) {
              const auto found = thrust::mismatch(policy, f1, l1, f2);
              r.value("first", static_cast<long long>(found.first - f1));
              r.value("second", static_cast<long long>(found.second - f2));
            });
          });
        });
      });
      compare("mismatch with a predicate", where, n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "first", in, [&](auto f1, auto l1) {
          with_range<kind::vector>(r, "second", other, [&](auto f2, auto) {
            // Items within one of each other match, so the one changed pair matches too.
            r.value("first", static_cast<long long>(thrust::mismatch(policy, f1, l1, f2, within_one{}).first - f1));
          });
        });
      });
    }
  }
}

TEST_CASE("vectorized thrust::lower_bound, upper_bound and binary_search through strata::par", "[thrust][compat][find]")
{
  for (const std::size_t n : sizes())
  {
    std::vector<int> keys = random_values<int>(n, 91, -40, 40);
    std::sort(keys.begin(), keys.end());
    std::vector<int> descending(keys.rbegin(), keys.rend());
    std::vector<int> values        = random_values<int>(n + 7, 92, -45, 45);
    std::vector<int> sorted_values = values;
    std::sort(sorted_values.begin(), sorted_values.end());
    for (const bool in_order : {false, true})
    {
      const std::vector<int>& v = in_order ? sorted_values : values;
      const std::string order   = in_order ? "values in order" : "values shuffled";
      for_each_kind(order_keeping_kinds{}, [&](auto k) {
        compare("lower_bound", std::string("keys ") + name_of(k) + ", " + order, n, [&](auto policy, record& r) {
          with_range<decltype(k)::value>(r, "keys", keys, [&](auto f, auto l) {
            with_range<kind::vector>(r, "values", v, [&](auto vf, auto vl) {
              with_output<kind::vector>(r, "positions", v.size(), -1L, [&](auto out) {
                return thrust::lower_bound(policy, f, l, vf, vl, out);
              });
            });
          });
        });
      });
      compare("upper_bound", order, n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "keys", keys, [&](auto f, auto l) {
          with_range<kind::vector>(r, "values", v, [&](auto vf, auto vl) {
            with_output<kind::vector>(r, "positions", v.size(), -1, [&](auto out) {
              return thrust::upper_bound(policy, f, l, vf, vl, out);
            });
          });
        });
      });
      compare("binary_search", order, n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "keys", keys, [&](auto f, auto l) {
          with_range<kind::vector>(r, "values", v, [&](auto vf, auto vl) {
            with_output<kind::vector>(r, "found", v.size(), false, [&](auto out) {
              return thrust::binary_search(policy, f, l, vf, vl, out);
            });
          });
        });
      });
      compare("lower_bound", std::string("descending keys, greater, ") + order, n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "keys", descending, [&](auto f, auto l) {
          with_range<kind::vector>(r, "values", v, [&](auto vf, auto vl) {
            with_output<kind::vector>(r, "positions", v.size(), -1, [&](auto out) {
              return thrust::lower_bound(policy, f, l, vf, vl, out, thrust::greater<int>());
            });
          });
        });
      });
    }
  }
}
