// Thrust compatibility of the scans: thrust::inclusive_scan, exclusive_scan, transform_inclusive_scan and
// transform_exclusive_scan give the same output through strata::par as through thrust::cuda::par
// (thrust_compat.cuh).
#include "thrust_compat.cuh"

#include <thrust/functional.h>
#include <thrust/scan.h>
#include <thrust/transform_scan.h>

using namespace compat;

#define COMPAT_SCAN_TYPES \
  std::int8_t, int, long, float, double, compat::pod, compat::vec3, compat::counted, compat::cfloat

TEMPLATE_TEST_CASE("thrust::inclusive_scan and exclusive_scan through strata::par: every value type",
                   "[thrust][compat][scan]", COMPAT_SCAN_TYPES)
{
  using T = TestType;
  for (const std::size_t n : sizes())
  {
    const std::vector<T> in = random_values<T>(n, 21);
    const T init            = make<T>(3);
    const T fill            = make<T>(-77);
    compare("inclusive_scan", "sum", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, fill, [&](auto out) {
          return thrust::inclusive_scan(policy, f, l, out);
        });
      });
    });
    compare("inclusive_scan", "in place", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "data", in, [&](auto f, auto l) {
        r.value("end offset", static_cast<long long>(thrust::inclusive_scan(policy, f, l, f) - f));
      });
    });
    compare("inclusive_scan", "init, plus<T>", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, fill, [&](auto out) {
          return thrust::inclusive_scan(policy, f, l, out, init, thrust::plus<T>());
        });
      });
    });
    compare("exclusive_scan", "init", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, fill, [&](auto out) {
          return thrust::exclusive_scan(policy, f, l, out, init);
        });
      });
    });
    // exclusive_scan(first, last, out) starts from value_type{}: vec3{} leaves its items unset, so that call's first
    // item is indeterminate with either library.
    if constexpr (!std::is_same<T, vec3>::value)
    {
      compare("exclusive_scan", "no init", n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
          with_output<kind::vector>(r, "output", n, fill, [&](auto out) {
            return thrust::exclusive_scan(policy, f, l, out);
          });
        });
      });
    }
  }
}

namespace
{
// The scans over InT items into OutT outputs from init of InitT (the running value's type is Thrust's).
template <typename InT, typename OutT, typename InitT>
void scan_mixed(const std::string& variant, InitT init)
{
  for (const std::size_t n : sizes())
  {
    const std::vector<InT> in = random_values<InT>(n, 22);
    const OutT fill           = make<OutT>(-77);
    compare("inclusive_scan", variant, n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, fill, [&](auto out) {
          return thrust::inclusive_scan(policy, f, l, out);
        });
      });
    });
    compare("inclusive_scan", variant + ", init", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, fill, [&](auto out) {
          return thrust::inclusive_scan(policy, f, l, out, init, thrust::plus<>());
        });
      });
    });
    compare("exclusive_scan", variant + ", init", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, fill, [&](auto out) {
          return thrust::exclusive_scan(policy, f, l, out, init);
        });
      });
    });
    compare("exclusive_scan", variant + ", init, maximum<>", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, fill, [&](auto out) {
          return thrust::exclusive_scan(policy, f, l, out, init, thrust::maximum<>());
        });
      });
    });
  }
}
} // namespace

TEST_CASE("thrust scans through strata::par: items, init and output of different types", "[thrust][compat][scan]")
{
  // int8 items wrap as int8 in an inclusive scan without init, whatever the output's type.
  scan_mixed<std::int8_t, int>("int8 items, int output, int init", 0);
  scan_mixed<float, int>("float items, int output, int init", 1);
  scan_mixed<float, double>("float items, double output, int init", 0);
  scan_mixed<int, float>("int items, float output, float init", 0.5f);
  scan_mixed<double, float>("double items, float output, float init", 0.25f);
}

TEST_CASE("thrust scans through strata::par: every input and output kind", "[thrust][compat][scan][iterators]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> in = random_values<int>(n, 23);
    for_each_kind(input_kinds{}, [&](auto k) {
      compare("inclusive_scan", std::string("input ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "input", in, [&](auto f, auto l) {
          with_output<kind::vector>(r, "output", n, -1, [&](auto out) {
            return thrust::inclusive_scan(policy, f, l, out);
          });
        });
      });
    });
    for_each_kind(output_kinds{}, [&](auto k) {
      compare("inclusive_scan", std::string("output ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
          with_output<decltype(k)::value>(r, "output", n, -1, [&](auto out) {
            return thrust::inclusive_scan(policy, f, l, out);
          });
        });
      });
    });
    const std::vector<float> second = random_values<float>(n, 24);
    auto pair_plus = [] __host__ __device__(const thrust::tuple<int, float>& x, const thrust::tuple<int, float>& y) {
      return thrust::make_tuple(thrust::get<0>(x) + thrust::get<0>(y), thrust::get<1>(x) + thrust::get<1>(y));
    };
    compare("inclusive_scan", "zip_iterator in and out", n, [&](auto policy, record& r) {
      thrust::device_vector<int> a(in.begin(), in.end()), c(n, -1);
      thrust::device_vector<float> b(second.begin(), second.end()), d(n, -1.0f);
      auto first = thrust::make_zip_iterator(a.begin(), b.begin());
      auto out   = thrust::make_zip_iterator(c.begin(), d.begin());
      r.value("end offset",
              static_cast<long long>(thrust::inclusive_scan(policy, first, first + n, out, pair_plus) - out));
      r.device("output 0", c);
      r.device("output 1", d);
    });
  }
}

TEST_CASE("thrust scans through strata::par: every kind of operator", "[thrust][compat][scan][operators]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> in   = random_values<int>(n, 25);
    const std::vector<pod> maps = random_values<pod>(n, 26);
    auto check                  = [&](const std::string& variant, auto op) {
      compare("inclusive_scan", variant, n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
          with_output<kind::vector>(r, "output", n, -1, [&](auto out) {
            return thrust::inclusive_scan(policy, f, l, out, op);
          });
        });
      });
      compare("exclusive_scan", variant, n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
          with_output<kind::vector>(r, "output", n, -1, [&](auto out) {
            return thrust::exclusive_scan(policy, f, l, out, 2, op);
          });
        });
      });
    };
    check("stateful functor", clamped_max{35});
    check("non-const operator()", mutable_plus{});
    check("host-device lambda", [] __host__ __device__(int a, int b) {
      return a < b ? a : b;
    });
    // Non-commutative: the composition of affine maps, with and without init.
    compare("inclusive_scan", "non-commutative", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", maps, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, pod{-1, -1}, [&](auto out) {
          return thrust::inclusive_scan(policy, f, l, out, compose{});
        });
      });
    });
    compare("inclusive_scan", "non-commutative, init", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", maps, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, pod{-1, -1}, [&](auto out) {
          return thrust::inclusive_scan(policy, f, l, out, pod{3, 1}, compose{});
        });
      });
    });
    compare("exclusive_scan", "non-commutative", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", maps, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, pod{-1, -1}, [&](auto out) {
          return thrust::exclusive_scan(policy, f, l, out, pod{1, 0}, compose{});
        });
      });
    });
  }
}

TEST_CASE("thrust::transform_inclusive_scan and transform_exclusive_scan through strata::par",
          "[thrust][compat][transform_scan]")
{
  auto halve = [] __host__ __device__(int x) {
    return static_cast<double>(x) / 2;
  };
  for (const std::size_t n : sizes())
  {
    const std::vector<int> in             = random_values<int>(n, 27);
    const std::vector<std::int8_t> narrow = random_values<std::int8_t>(n, 28);
    compare("transform_inclusive_scan", "negate, plus", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, -1, [&](auto out) {
          return thrust::transform_inclusive_scan(policy, f, l, out, thrust::negate<int>(), thrust::plus<int>());
        });
      });
    });
    compare("transform_inclusive_scan", "double from a lambda, int output", n, [&](auto policy, record& r) {
      with_range<kind::universal>(r, "input", in, [&](auto f, auto l) {
        with_output<kind::universal>(r, "output", n, -1, [&](auto out) {
          return thrust::transform_inclusive_scan(policy, f, l, out, halve, thrust::plus<>());
        });
      });
    });
    compare("transform_inclusive_scan", "init", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", narrow, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, -1, [&](auto out) {
          return thrust::transform_inclusive_scan(policy, f, l, out, identity{}, 100, thrust::plus<>());
        });
      });
    });
    // transform_exclusive_scan converts each transformed item to init's type (an int: halves are cut).
    compare("transform_exclusive_scan", "double from a lambda, int init", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, -1.0f, [&](auto out) {
          return thrust::transform_exclusive_scan(policy, f, l, out, halve, 1, thrust::plus<>());
        });
      });
    });
    compare("transform_exclusive_scan", "int8 items, int8 init", n, [&](auto policy, record& r) {
      with_range<kind::managed>(r, "input", narrow, [&](auto f, auto l) {
        with_output<kind::managed>(r, "output", n, 0, [&](auto out) {
          return thrust::transform_exclusive_scan(policy, f, l, out, identity{}, std::int8_t(-3), thrust::plus<>());
        });
      });
    });
  }
}
