// Thrust compatibility of thrust::adjacent_difference: the same items through strata::par as through
// thrust::cuda::par, for every input and output kind, in place (the output is the input), with a non-commutative
// operator, and with int8 items into an int output (the default minus is Thrust's minus of the input's type: it wraps
// in int8 before the output converts) (thrust_compat.cuh).
#include "thrust_compat.cuh"

#include <thrust/adjacent_difference.h>
#include <thrust/functional.h>

using namespace compat;

namespace
{
// 2a - b: not commutative.
struct twice_minus
{
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const
  {
    return static_cast<T>(2 * a - b);
  }
};
} // namespace

TEST_CASE("thrust::adjacent_difference through strata::par: iterator kinds, in place, operators",
          "[thrust][compat][adjacent_difference]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> in = random_values<int>(n, 71);
    for_each_kind(input_kinds{}, [&](auto k) {
      compare("adjacent_difference", std::string("input ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "input", in, [&](auto f, auto l) {
          with_output<kind::vector>(r, "output", n, -1, [&](auto out) {
            return thrust::adjacent_difference(policy, f, l, out);
          });
        });
      });
    });
    for_each_kind(output_kinds{}, [&](auto k) {
      compare("adjacent_difference", std::string("output ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
          with_output<decltype(k)::value>(r, "output", n, -1, [&](auto out) {
            return thrust::adjacent_difference(policy, f, l, out, twice_minus{});
          });
        });
      });
    });
    for_each_kind(writable_kinds{}, [&](auto k) {
      compare("adjacent_difference", std::string("in place ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "data", in, [&](auto f, auto l) {
          r.value("end offset", static_cast<long long>(thrust::adjacent_difference(policy, f, l, f) - f));
        });
      });
    });
    const std::vector<std::int8_t> small = random_values<std::int8_t>(n, 72, -120, 120);
    compare("adjacent_difference", "int8 items into int", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", small, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, -1, [&](auto out) {
          return thrust::adjacent_difference(policy, f, l, out);
        });
      });
    });
    const std::vector<double> reals = random_values<double>(n, 73);
    compare("adjacent_difference", "double, in place, plus", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "data", reals, [&](auto f, auto l) {
        thrust::adjacent_difference(policy, f, l, f, thrust::plus<double>());
      });
    });
  }
}
