// Thrust compatibility of the extrema over every iterator kind and kind of comparator: thrust::min_element,
// max_element and minmax_element return the same positions through strata::par as through thrust::cuda::par
// (thrust_compat.cuh).
#include "thrust_compat.cuh"

#include <thrust/extrema.h>
#include <thrust/functional.h>

using namespace compat;

namespace
{
// Orders by distance from `center` (a stateful comparator, with many ties).
struct closer_to
{
  int center;
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    const T c(center);
    const T da = a < c ? c - a : a - c;
    const T db = b < c ? c - b : b - c;
    return da < db;
  }
};

// Records the positions the three extrema calls return over [f, l) under `comp`.
template <typename Policy, typename It, typename Compare>
void record_extrema(Policy policy, record& r, It f, It l, Compare comp)
{
  r.value("min_element", static_cast<long long>(thrust::min_element(policy, f, l, comp) - f));
  r.value("max_element", static_cast<long long>(thrust::max_element(policy, f, l, comp) - f));
  const auto mm = thrust::minmax_element(policy, f, l, comp);
  r.value("minmax_element.first", static_cast<long long>(mm.first - f));
  r.value("minmax_element.second", static_cast<long long>(mm.second - f));
}
} // namespace

TEST_CASE("thrust extrema through strata::par: every iterator kind and kind of comparator",
          "[thrust][compat][extrema][iterators]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> in = random_values<int>(n, 43, -5, 5);
    for_each_kind(input_kinds{}, [&](auto k) {
      compare("minmax_element", name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "input", in, [&](auto f, auto l) {
          const auto mm = thrust::minmax_element(policy, f, l);
          r.value("first", static_cast<long long>(mm.first - f));
          r.value("second", static_cast<long long>(mm.second - f));
        });
      });
    });
    compare("min_element, max_element, minmax_element", "greater<int>", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        record_extrema(policy, r, f, l, thrust::greater<int>());
      });
    });
    auto by_abs = [] __host__ __device__(int a, int b) {
      return (a < 0 ? -a : a) < (b < 0 ? -b : b);
    };
    compare("minmax_element", "host-device lambda", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        const auto mm = thrust::minmax_element(policy, f, l, by_abs);
        r.value("first", static_cast<long long>(mm.first - f));
        r.value("second", static_cast<long long>(mm.second - f));
      });
    });
    compare("min_element", "stateful comparator", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        r.value("position", static_cast<long long>(thrust::min_element(policy, f, l, closer_to{2}) - f));
      });
    });
    compare("min_element, max_element, minmax_element", "non-const comparator", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        record_extrema(policy, r, f, l, mutable_less{});
      });
    });
    const std::vector<long> longs = random_values<long>(n, 44, -3, 3);
    compare("min_element, max_element, minmax_element", "long items", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", longs, [&](auto f, auto l) {
        record_extrema(policy, r, f, l, thrust::less<long>());
      });
    });
    const std::vector<float> second = random_values<float>(n, 45, -2, 2);
    compare("min_element, max_element, minmax_element", "zip_iterator", n, [&](auto policy, record& r) {
      thrust::device_vector<int> a(in.begin(), in.end());
      thrust::device_vector<float> b(second.begin(), second.end());
      auto f = thrust::make_zip_iterator(a.begin(), b.begin());
      record_extrema(policy, r, f, f + n, thrust::greater<thrust::tuple<int, float>>());
    });
  }
}
