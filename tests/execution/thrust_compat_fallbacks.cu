// Thrust compatibility of the algorithms strata does not implement: given strata::par, Thrust's CUDA backend runs them
// on the policy's stream with the policy's allocator, and they return what they return under thrust::cuda::par,
// outputs in host-accessible memory included (thrust_compat.cuh). Some call strata's algorithms inside (Thrust's
// generic code reaches them by argument-dependent lookup), with Thrust's own iterator types. (adjacent_difference,
// merge, find_if and the vectorized lower_bound are strata's now: thrust_compat_adjacent_difference.cu,
// thrust_compat_merge.cu and thrust_compat_find.cu.)
#include "thrust_compat.cuh"

#include <thrust/binary_search.h>
#include <thrust/functional.h>
#include <thrust/mismatch.h>
#include <thrust/replace.h>
#include <thrust/reverse.h>
#include <thrust/set_operations.h>
#include <thrust/transform.h>

#include <algorithm>

using namespace compat;

TEST_CASE("Thrust's own algorithms through strata::par: set operations, searching, rearranging",
          "[thrust][compat][fallback]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> in = random_values<int>(n, 82, -20, 20);
    std::vector<int> a        = in;
    std::sort(a.begin(), a.end());
    std::vector<int> b = random_values<int>(n, 83, -20, 20);
    std::sort(b.begin(), b.end());
    for_each_kind(kinds<kind::vector, kind::universal>{}, [&](auto k) {
      constexpr kind K = decltype(k)::value;
      compare("set_intersection", name_of(K), n, [&](auto policy, record& r) {
        thrust::device_vector<int> x(a.begin(), a.end()), y(b.begin(), b.end());
        with_output<K>(r, "output", n, -99, [&](auto out) {
          return thrust::set_intersection(policy, x.begin(), x.end(), y.begin(), y.end(), out);
        });
      });
      compare("replace_if", name_of(K), n, [&](auto policy, record& r) {
        with_range<K>(r, "data", in, [&](auto f, auto l) {
          thrust::replace_if(policy, f, l, is_positive{}, 0);
        });
      });
      compare("reverse", name_of(K), n, [&](auto policy, record& r) {
        with_range<K>(r, "data", in, [&](auto f, auto l) {
          thrust::reverse(policy, f, l);
        });
      });
      compare("transform_if", name_of(K), n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
          with_output<K>(r, "output", n, -99, [&](auto out) {
            return thrust::transform_if(policy, f, l, out, thrust::negate<int>(), is_positive{});
          });
        });
      });
    });
    compare("mismatch", "device_vector", n, [&](auto policy, record& r) {
      thrust::device_vector<int> x(a.begin(), a.end()), y(a.begin(), a.end());
      if (n > 3)
      {
        y[n - 3] = 1000;
      }
      r.value("position",
              static_cast<long long>(thrust::mismatch(policy, x.begin(), x.end(), y.begin()).first - x.begin()));
    });
    compare("binary_search", "device_vector", n, [&](auto policy, record& r) {
      thrust::device_vector<int> haystack(a.begin(), a.end());
      r.value("found", thrust::binary_search(policy, haystack.begin(), haystack.end(), 7));
    });
  }
}
