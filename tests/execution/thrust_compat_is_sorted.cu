// Thrust compatibility of the sortedness tests: thrust::is_sorted and is_sorted_until return the same answers through
// strata::par as through thrust::cuda::par (thrust_compat.cuh).
#include "thrust_compat.cuh"

#include <thrust/functional.h>
#include <thrust/sort.h>

#include <algorithm>

using namespace compat;

TEMPLATE_TEST_CASE("thrust::is_sorted and is_sorted_until through strata::par", "[thrust][compat][is_sorted]",
                   COMPAT_ORDERED_TYPES)
{
  using T = TestType;
  for (const std::size_t n : sizes())
  {
    std::vector<int> s = seeds(n, 46, -50, 50);
    std::sort(s.begin(), s.end());
    const std::vector<T> sorted = values<T>(s);
    std::vector<T> broken       = sorted;
    if (n > 2)
    {
      std::swap(broken[n / 3], broken[n / 3 + 1]);
      broken[n / 3] = make<T>(60); // a descent right after n / 3
    }
    std::vector<int> d = s;
    std::reverse(d.begin(), d.end());
    const std::vector<T> descending = values<T>(d);
    for (const std::vector<T>* in : std::vector<const std::vector<T>*>{&sorted, &broken, &descending})
    {
      const std::string variant = in == &sorted ? "sorted" : in == &broken ? "one descent" : "descending";
      compare("is_sorted, is_sorted_until", variant, n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", *in, [&](auto f, auto l) {
          r.value("is_sorted", thrust::is_sorted(policy, f, l));
          r.value("is_sorted_until, greater",
                  static_cast<long long>(thrust::is_sorted_until(policy, f, l, thrust::greater<T>()) - f));
        });
      });
    }
  }
}

TEST_CASE("thrust::is_sorted and is_sorted_until through strata::par: every iterator kind",
          "[thrust][compat][is_sorted][iterators]")
{
  for (const std::size_t n : small_sizes())
  {
    std::vector<int> in = seeds(n, 47, -50, 50);
    std::sort(in.begin(), in.end());
    if (n > 10)
    {
      in[n - 3] = -100;
    }
    compare("is_sorted, is_sorted_until", "non-const comparator", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        r.value("is_sorted", thrust::is_sorted(policy, f, l, mutable_less{}));
        r.value("is_sorted_until", static_cast<long long>(thrust::is_sorted_until(policy, f, l, mutable_less{}) - f));
      });
    });
    for_each_kind(input_kinds{}, [&](auto k) {
      compare("is_sorted, is_sorted_until", name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "input", in, [&](auto f, auto l) {
          r.value("is_sorted_until", static_cast<long long>(thrust::is_sorted_until(policy, f, l) - f));
        });
      });
    });
  }
}
