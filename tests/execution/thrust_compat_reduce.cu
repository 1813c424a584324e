// Thrust compatibility of the reductions: thrust::reduce, transform_reduce, inner_product, count, count_if, all_of,
// any_of, none_of and equal give the same answer through strata::par as through thrust::cuda::par (thrust_compat.cuh).
#include "thrust_compat.cuh"

#include <thrust/count.h>
#include <thrust/equal.h>
#include <thrust/functional.h>
#include <thrust/inner_product.h>
#include <thrust/logical.h>
#include <thrust/reduce.h>
#include <thrust/transform_reduce.h>

#include <cuda/functional>

using namespace compat;

#define COMPAT_SUM_TYPES \
  std::int8_t, int, long, float, double, compat::pod, compat::vec3, compat::counted, compat::cfloat

TEMPLATE_TEST_CASE("thrust::reduce through strata::par: every value type", "[thrust][compat][reduce]", COMPAT_SUM_TYPES)
{
  using T = TestType;
  for (const std::size_t n : sizes())
  {
    const std::vector<T> in = random_values<T>(n, 1);
    const T init            = make<T>(7);
    // reduce(first, last) starts from T(0), which a pod (an aggregate) cannot be made from: Thrust rejects the call.
    if constexpr (!std::is_same<T, pod>::value)
    {
      compare("reduce", "no init", n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
          r.value("sum", thrust::reduce(policy, f, l));
        });
      });
    }
    compare("reduce", "init", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        r.value("sum", thrust::reduce(policy, f, l, init));
      });
    });
    compare("reduce", "init, plus<T>", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        r.value("sum", thrust::reduce(policy, f, l, init, thrust::plus<T>()));
      });
    });
  }
}

namespace
{
// thrust::reduce(first, last, init) and (first, last, init, op) over items of InT from init of InitT.
template <typename InT, typename InitT, typename OpT>
void reduce_mixed(const std::string& variant, InitT init, OpT op)
{
  for (const std::size_t n : sizes())
  {
    const std::vector<InT> in = random_values<InT>(n, 2);
    compare("reduce", variant + ", init", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        r.value("sum", thrust::reduce(policy, f, l, init));
      });
    });
    compare("reduce", variant + ", init, op", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        r.value("sum", thrust::reduce(policy, f, l, init, op));
      });
    });
  }
}
} // namespace

TEST_CASE("thrust::reduce through strata::par: items, init and operator of different types", "[thrust][compat][reduce]")
{
  // Items of a type other than init's: thrust::reduce(first, last, init) adds with plus<Init>.
  reduce_mixed<float>("float items, int init", 0, thrust::plus<>());
  reduce_mixed<float>("float items, int init, plus<int>", 3, thrust::plus<int>());
  reduce_mixed<int>("int items, float init", 0.5f, thrust::plus<>());
  reduce_mixed<std::int8_t>("int8 items, int init", 0, thrust::plus<>());
  reduce_mixed<std::int8_t>("int8 items, int8 init", std::int8_t(5), thrust::plus<std::int8_t>());
  reduce_mixed<int>("int items, long long init", 10LL, thrust::plus<long long>());
  reduce_mixed<double>("double items, float init", 0.25f, thrust::plus<float>());
  reduce_mixed<unsigned char>("uint8 items, int init", -3, thrust::maximum<>());
}

TEST_CASE("thrust::reduce through strata::par: every iterator kind", "[thrust][compat][reduce][iterators]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> in = random_values<int>(n, 3);
    for_each_kind(input_kinds{}, [&](auto k) {
      compare("reduce", name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "input", in, [&](auto f, auto l) {
          r.value("sum", thrust::reduce(policy, f, l));
        });
      });
    });
    const std::vector<float> second = random_values<float>(n, 4);
    auto tuple_plus = [] __host__ __device__(const thrust::tuple<int, float>& x, const thrust::tuple<int, float>& y) {
      return thrust::make_tuple(thrust::get<0>(x) + thrust::get<0>(y), thrust::get<1>(x) + thrust::get<1>(y));
    };
    compare("reduce", "zip_iterator", n, [&](auto policy, record& r) {
      thrust::device_vector<int> a(in.begin(), in.end());
      thrust::device_vector<float> b(second.begin(), second.end());
      auto first = thrust::make_zip_iterator(a.begin(), b.begin());
      r.value("sum", thrust::reduce(policy, first, first + n, thrust::make_tuple(1, 0.5f), tuple_plus));
    });
  }
}

TEST_CASE("thrust::reduce through strata::par: every kind of operator", "[thrust][compat][reduce][operators]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> in = random_values<int>(n, 5);
    auto check                = [&](const std::string& variant, auto op) {
      compare("reduce", variant, n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
          r.value("result", thrust::reduce(policy, f, l, 3, op));
        });
      });
    };
    check("maximum", thrust::maximum<int>());
    check("stateful functor", clamped_max{40});
    check("non-const operator()", mutable_plus{});
    check("host-device lambda", [] __host__ __device__(int a, int b) {
      return a < b ? a : b;
    });
    check("device lambda with its return type", cuda::proclaim_return_type<int>([] __device__(int a, int b) {
            return a + b;
          }));
  }
}

TEMPLATE_TEST_CASE("thrust::transform_reduce through strata::par", "[thrust][compat][transform_reduce]", int, float,
                   std::int8_t, compat::pod, compat::counted)
{
  using T = TestType;
  for (const std::size_t n : sizes())
  {
    const std::vector<T> in = random_values<T>(n, 6);
    compare("transform_reduce", "identity, init, plus<T>", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        r.value("sum", thrust::transform_reduce(policy, f, l, identity{}, make<T>(1), thrust::plus<T>()));
      });
    });
    if constexpr (std::is_arithmetic<T>::value)
    {
      compare("transform_reduce", "negate<T>, int init, plus<int>", n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
          r.value("sum", thrust::transform_reduce(policy, f, l, thrust::negate<T>(), 2, thrust::plus<int>()));
        });
      });
      auto square = [] __host__ __device__(T x) {
        return x * x;
      };
      compare("transform_reduce", "square in a lambda, long long init, plus<>", n, [&](auto policy, record& r) {
        with_range<kind::reverse>(r, "input", in, [&](auto f, auto l) {
          r.value("sum", thrust::transform_reduce(policy, f, l, square, 10LL, thrust::plus<>()));
        });
      });
    }
  }
}

TEST_CASE("thrust::inner_product through strata::par", "[thrust][compat][inner_product]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<float> a       = random_values<float>(n, 7);
    const std::vector<float> b       = random_values<float>(n, 8);
    const std::vector<int> c         = random_values<int>(n, 9);
    const std::vector<std::int8_t> d = random_values<std::int8_t>(n, 10);
    // inner_product(first1, last1, first2, init) multiplies and adds in init's type.
    compare("inner_product", "float ranges, int init", n, [&](auto policy, record& r) {
      thrust::device_vector<float> x(a.begin(), a.end()), y(b.begin(), b.end());
      r.value("result", thrust::inner_product(policy, x.begin(), x.end(), y.begin(), 0));
    });
    compare("inner_product", "float ranges, float init", n, [&](auto policy, record& r) {
      thrust::device_vector<float> x(a.begin(), a.end()), y(b.begin(), b.end());
      r.value("result", thrust::inner_product(policy, x.begin(), x.end(), y.begin(), 0.5f));
    });
    compare("inner_product", "int8 ranges, int8 init", n, [&](auto policy, record& r) {
      thrust::device_vector<std::int8_t> x(d.begin(), d.end());
      r.value("result", thrust::inner_product(policy, x.begin(), x.end(), x.begin(), std::int8_t(1)));
    });
    compare("inner_product", "int and float ranges, long long init, plus and minimum", n, [&](auto policy, record& r) {
      thrust::device_vector<int> x(c.begin(), c.end());
      thrust::device_vector<float> y(b.begin(), b.end());
      r.value("result", thrust::inner_product(policy, x.begin(), x.end(), y.begin(), 5LL, thrust::plus<long long>(),
                                              thrust::minimum<>()));
    });
    compare("inner_product", "counted ranges, counted init", n, [&](auto policy, record& r) {
      const std::vector<counted> cc = values<counted>(std::vector<int>(c.begin(), c.end()));
      thrust::device_vector<counted> x(cc.begin(), cc.end());
      r.value("result", thrust::inner_product(policy, x.begin(), x.end(), x.rbegin(), counted(3)));
    });
  }
}

TEST_CASE("thrust::count and count_if through strata::par", "[thrust][compat][count]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> s     = seeds(n, 11, -4, 4);
    const std::vector<int> in    = values<int>(s);
    const std::vector<float> fin = values<float>(s);
    for_each_kind(input_kinds{}, [&](auto k) {
      compare("count", name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "input", in, [&](auto f, auto l) {
          r.value("count", thrust::count(policy, f, l, 2));
        });
      });
      compare("count_if", name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "input", in, [&](auto f, auto l) {
          r.value("count", thrust::count_if(policy, f, l, is_positive{}));
        });
      });
    });
    compare("count", "float items, int value", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", fin, [&](auto f, auto l) {
        r.value("count", thrust::count(policy, f, l, 1));
      });
    });
    compare("count", "counted items", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", values<counted>(s), [&](auto f, auto l) {
        r.value("count", thrust::count(policy, f, l, counted(-1)));
      });
    });
    // A predicate returning an int: Thrust adds its results up as counts.
    compare("count_if", "predicate returning int", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        r.value("count", thrust::count_if(policy, f, l, mod3{}));
      });
    });
    auto is_even = [] __host__ __device__(int x) {
      return x % 2 == 0;
    };
    compare("count_if", "host-device lambda", n, [&](auto policy, record& r) {
      with_range<kind::universal>(r, "input", in, [&](auto f, auto l) {
        r.value("count", thrust::count_if(policy, f, l, is_even));
      });
    });
  }
}

TEST_CASE("thrust::all_of, any_of, none_of through strata::par", "[thrust][compat][logical]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> mixed = random_values<int>(n, 12);
    const std::vector<int> ones(n, 1);
    for (const auto* in : {&mixed, &ones})
    {
      const std::string variant = in == &ones ? "all positive" : "mixed";
      compare("all_of", variant, n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", *in, [&](auto f, auto l) {
          r.value("all", thrust::all_of(policy, f, l, is_positive{}));
        });
      });
      compare("any_of", variant, n, [&](auto policy, record& r) {
        with_range<kind::managed>(r, "input", *in, [&](auto f, auto l) {
          r.value("any", thrust::any_of(policy, f, l, mod3{}));
        });
      });
      compare("none_of", variant, n, [&](auto policy, record& r) {
        with_range<kind::reverse>(r, "input", *in, [&](auto f, auto l) {
          r.value("none", thrust::none_of(policy, f, l, is_positive{}));
        });
      });
    }
  }
}

TEST_CASE("thrust::equal through strata::par", "[thrust][compat][equal]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> s = seeds(n, 13);
    const std::vector<int> a = values<int>(s);
    std::vector<int> b       = a;
    if (n > 1)
    {
      b[n / 2] += 1;
    }
    // Quarter steps: each float item converts to the int item beside it, as equal_to<int> compares them.
    std::vector<float> f(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      f[i] = static_cast<float>(a[i]) + (a[i] >= 0 ? 0.25f : -0.25f);
    }
    compare("equal", "same items", n, [&](auto policy, record& r) {
      thrust::device_vector<int> x(a.begin(), a.end()), y(a.begin(), a.end());
      r.value("equal", thrust::equal(policy, x.begin(), x.end(), y.begin()));
    });
    compare("equal", "one item differs", n, [&](auto policy, record& r) {
      thrust::universal_vector<int> x(a.begin(), a.end()), y(b.begin(), b.end());
      r.value("equal", thrust::equal(policy, x.begin(), x.end(), y.begin()));
    });
    compare("equal", "int and float ranges", n, [&](auto policy, record& r) {
      thrust::device_vector<int> x(a.begin(), a.end());
      thrust::device_vector<float> y(f.begin(), f.end());
      r.value("equal", thrust::equal(policy, x.begin(), x.end(), y.begin()));
      r.value("equal, reversed", thrust::equal(policy, y.begin(), y.end(), x.begin()));
    });
    auto same_quarter = [] __host__ __device__(int p, int q) {
      return p / 4 == q / 4;
    };
    compare("equal", "predicate", n, [&](auto policy, record& r) {
      thrust::device_vector<int> x(a.begin(), a.end()), y(b.begin(), b.end());
      r.value("equal", thrust::equal(policy, x.begin(), x.end(), y.begin(), same_quarter));
    });
  }
}
