// Thrust compatibility of the extrema: thrust::min_element, max_element and minmax_element return the same positions
// through strata::par as through thrust::cuda::par, ties included (thrust_compat.cuh).
#include "thrust_compat.cuh"

#include <thrust/extrema.h>
#include <thrust/functional.h>


using namespace compat;

namespace
{
// Records the positions the three extrema calls return over [f, l) under the default order.
template <typename Policy, typename It>
void record_extrema(Policy policy, record& r, It f, It l)
{
  r.value("min_element", static_cast<long long>(thrust::min_element(policy, f, l) - f));
  r.value("max_element", static_cast<long long>(thrust::max_element(policy, f, l) - f));
  const auto mm = thrust::minmax_element(policy, f, l);
  r.value("minmax_element.first", static_cast<long long>(mm.first - f));
  r.value("minmax_element.second", static_cast<long long>(mm.second - f));
}
} // namespace

// Every ordered type but long and double (the iterator test has long items; double takes float's path).
TEMPLATE_TEST_CASE("thrust extrema through strata::par: value types, with ties", "[thrust][compat][extrema]",
                   std::int8_t, int, float, compat::pod, compat::vec3, compat::counted)
{
  using T = TestType;
  for (const std::size_t n : sizes())
  {
    // Few distinct items (many ties on both extremes), and many.
    for (const int spread : {3, 1000})
    {
      const std::vector<T> in = random_values<T>(n, 41 + spread, -spread, spread);
      compare("min_element, max_element, minmax_element", "spread " + std::to_string(spread), n,
              [&](auto policy, record& r) {
                with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
                  record_extrema(policy, r, f, l);
                });
              });
    }
  }
}
