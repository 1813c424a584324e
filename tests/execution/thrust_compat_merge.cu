// Thrust compatibility of thrust::merge and thrust::merge_by_key: the same items through strata::par as through
// thrust::cuda::par, for sorted ranges with many equal keys within and across them (stability: the first range's
// first), either range empty, every order-keeping kind of first range and every output kind, greater on descending
// ranges, and values moving with their keys (thrust_compat.cuh).
#include "thrust_compat.cuh"

#include <thrust/functional.h>
#include <thrust/merge.h>

#include <algorithm>

using namespace compat;

namespace
{
// The kinds whose items keep the order of what they are made from (a sorted range stays sorted).
using order_keeping_kinds = kinds<kind::raw, kind::device_ptr, kind::vector, kind::universal, kind::managed,
                                  kind::transform, kind::counting, kind::constant>;

std::vector<int> sorted_values(std::size_t n, std::uint64_t salt, bool descending = false)
{
  std::vector<int> v = random_values<int>(n, salt, -30, 30);
  std::sort(v.begin(), v.end());
  if (descending)
  {
    std::reverse(v.begin(), v.end());
  }
  return v;
}
} // namespace

TEST_CASE("thrust::merge and merge_by_key through strata::par", "[thrust][compat][merge]")
{
  for (const std::size_t n : sizes())
  {
    for (const std::size_t m : {std::size_t(0), n / 3 + 1, n})
    {
      const std::vector<int> a     = sorted_values(n, 101 + m);
      const std::vector<int> b     = sorted_values(m, 102 + n);
      const std::string sizes_name = std::to_string(n) + " and " + std::to_string(m);
      for_each_kind(order_keeping_kinds{}, [&](auto k) {
        compare("merge", std::string("first ") + name_of(k) + ", " + sizes_name, n + m, [&](auto policy, record& r) {
          with_range<decltype(k)::value>(r, "first", a, [&](auto f1, auto l1) {
            with_range<kind::vector>(r, "second", b, [&](auto f2, auto l2) {
              with_output<kind::vector>(r, "output", n + m, -1, [&](auto out) {
                return thrust::merge(policy, f1, l1, f2, l2, out);
              });
            });
          });
        });
      });
      for_each_kind(output_kinds{}, [&](auto k) {
        compare("merge", std::string("output ") + name_of(k) + ", " + sizes_name, n + m, [&](auto policy, record& r) {
          with_range<kind::vector>(r, "first", a, [&](auto f1, auto l1) {
            with_range<kind::vector>(r, "second", b, [&](auto f2, auto l2) {
              with_output<decltype(k)::value>(r, "output", n + m, -1, [&](auto out) {
                return thrust::merge(policy, f1, l1, f2, l2, out);
              });
            });
          });
        });
      });
      const std::vector<int> da = sorted_values(n, 103 + m, true);
      const std::vector<int> db = sorted_values(m, 104 + n, true);
      compare("merge", "greater, " + sizes_name, n + m, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "first", da, [&](auto f1, auto l1) {
          with_range<kind::vector>(r, "second", db, [&](auto f2, auto l2) {
            with_output<kind::vector>(r, "output", n + m, -1, [&](auto out) {
              return thrust::merge(policy, f1, l1, f2, l2, out, thrust::greater<int>());
            });
          });
        });
      });
      // Values that tell the items apart: the first range's i, the second's -(i + 1).
      std::vector<float> va(n), vb(m);
      for (std::size_t i = 0; i < n; ++i)
      {
        va[i] = static_cast<float>(i);
      }
      for (std::size_t i = 0; i < m; ++i)
      {
        vb[i] = -static_cast<float>(i + 1);
      }
      compare("merge_by_key", sizes_name, n + m, [&](auto policy, record& r) {
        thrust::device_vector<int> ka(a.begin(), a.end()), kb(b.begin(), b.end());
        thrust::device_vector<float> dva(va.begin(), va.end()), dvb(vb.begin(), vb.end());
        thrust::device_vector<int> keys_out(n + m, -1);
        thrust::device_vector<float> values_out(n + m, -1.0f);
        const auto ends = thrust::merge_by_key(policy, ka.begin(), ka.end(), kb.begin(), kb.end(), dva.begin(),
                                               dvb.begin(), keys_out.begin(), values_out.begin());
        r.value("keys end offset", static_cast<long long>(ends.first - keys_out.begin()));
        r.value("values end offset", static_cast<long long>(ends.second - values_out.begin()));
        r.device("keys", keys_out);
        r.device("values", values_out);
      });
    }
  }
}
