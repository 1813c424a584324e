// Thrust compatibility of the element-wise algorithms: thrust::transform, for_each, for_each_n, fill, fill_n, copy,
// copy_n, generate, sequence, tabulate, gather and scatter write the same items through strata::par as through
// thrust::cuda::par, conversions between types included (thrust_compat.cuh).
#include "thrust_compat.cuh"

#include <thrust/copy.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/gather.h>
#include <thrust/generate.h>
#include <thrust/scatter.h>
#include <thrust/sequence.h>
#include <thrust/tabulate.h>
#include <thrust/transform.h>

using namespace compat;

namespace
{
// Adds `step` to the item it is given (a stateful for_each functor that writes its argument).
struct add_step
{
  int step;
  template <typename T>
  __host__ __device__ void operator()(T& x) const
  {
    x = x + T(step);
  }
};

// A generator with a non-const operator() (it keeps no state across calls: the order of calls is unspecified).
struct mutable_seven
{
  __host__ __device__ int operator()()
  {
    return 7;
  }
};

// i * i - 3, from an index.
struct square_less_three
{
  template <typename IndexT>
  __host__ __device__ long long operator()(IndexT i) const
  {
    return static_cast<long long>(i) * static_cast<long long>(i) - 3;
  }
};
} // namespace

TEST_CASE("thrust::transform through strata::par: value types, iterator kinds, operators",
          "[thrust][compat][transform]")
{
  auto scale = [] __host__ __device__(int x) {
    return 2.5 * x;
  };
  for (const std::size_t n : sizes())
  {
    const std::vector<int> in      = random_values<int>(n, 61);
    const std::vector<float> other = random_values<float>(n, 62);
    for_each_kind(input_kinds{}, [&](auto k) {
      compare("transform", std::string("input ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "input", in, [&](auto f, auto l) {
          with_output<kind::vector>(r, "output", n, -1, [&](auto out) {
            return thrust::transform(policy, f, l, out, thrust::negate<int>());
          });
        });
      });
    });
    for_each_kind(output_kinds{}, [&](auto k) {
      compare("transform", std::string("output ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
          with_output<decltype(k)::value>(r, "output", n, -1, [&](auto out) {
            return thrust::transform(policy, f, l, out, thrust::negate<int>());
          });
        });
      });
    });
    // A double result written to int, float and int8 outputs (each converts as its assignment does).
    compare("transform", "double results into int, float and int8", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        with_output<kind::vector>(r, "int", n, -1, [&](auto out) {
          return thrust::transform(policy, f, l, out, scale);
        });
        with_output<kind::vector>(r, "float", n, -1.0f, [&](auto out) {
          return thrust::transform(policy, f, l, out, scale);
        });
        with_output<kind::vector>(r, "int8", n, std::int8_t(-1), [&](auto out) {
          return thrust::transform(policy, f, l, out, scale);
        });
      });
    });
    compare("transform", "binary, int and float into double", n, [&](auto policy, record& r) {
      thrust::device_vector<int> a(in.begin(), in.end());
      thrust::device_vector<float> b(other.begin(), other.end());
      with_output<kind::universal>(r, "output", n, -1.0, [&](auto out) {
        return thrust::transform(policy, a.begin(), a.end(), b.begin(), out, thrust::plus<>());
      });
    });
    compare("transform", "binary, zip input, non-const operator()", n, [&](auto policy, record& r) {
      const std::vector<int> reversed(in.rbegin(), in.rend());
      thrust::device_vector<int> a(in.begin(), in.end()), b(reversed.begin(), reversed.end());
      with_output<kind::vector>(r, "output", n, -1, [&](auto out) {
        return thrust::transform(policy, a.begin(), a.end(), b.begin(), out, mutable_plus{});
      });
    });
    const std::vector<counted> cin = random_values<counted>(n, 63);
    compare("transform", "counted items", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", cin, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, counted(-1), [&](auto out) {
          return thrust::transform(policy, f, l, f, out, thrust::multiplies<counted>());
        });
      });
    });
  }
}

TEST_CASE("thrust::for_each and for_each_n through strata::par", "[thrust][compat][for_each]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> in      = random_values<int>(n, 64);
    const std::vector<counted> cin = random_values<counted>(n, 65);
    const std::vector<vec3> vin    = random_values<vec3>(n, 66);
    for_each_kind(writable_kinds{}, [&](auto k) {
      compare("for_each", name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "data", in, [&](auto f, auto l) {
          r.value("end offset", static_cast<long long>(thrust::for_each(policy, f, l, add_step{3}) - f));
        });
      });
    });
    compare("for_each_n", "counted items", n, [&](auto policy, record& r) {
      with_range<kind::universal>(r, "data", cin, [&](auto f, auto) {
        r.value("end offset", static_cast<long long>(thrust::for_each_n(policy, f, n, add_step{-2}) - f));
      });
    });
    compare("for_each", "vec3 items", n, [&](auto policy, record& r) {
      with_range<kind::managed>(r, "data", vin, [&](auto f, auto l) {
        r.value("end offset", static_cast<long long>(thrust::for_each(policy, f, l, add_step{5}) - f));
      });
    });
  }
}

TEST_CASE("thrust::fill, fill_n, copy, copy_n and generate through strata::par", "[thrust][compat][fill][copy]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<float> floats = random_values<float>(n, 67);
    const std::vector<int> ints     = random_values<int>(n, 68);
    for_each_kind(output_kinds{}, [&](auto k) {
      compare("fill_n", name_of(k), n, [&](auto policy, record& r) {
        with_output<decltype(k)::value>(r, "output", n, 0, [&](auto out) {
          return thrust::fill_n(policy, out, n, 9);
        });
      });
      compare("copy", std::string("output ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", ints, [&](auto f, auto l) {
          with_output<decltype(k)::value>(r, "output", n, 0, [&](auto out) {
            return thrust::copy(policy, f, l, out);
          });
        });
      });
    });
    for_each_kind(input_kinds{}, [&](auto k) {
      compare("copy", std::string("input ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "input", ints, [&](auto f, auto l) {
          with_output<kind::vector>(r, "output", n, 0, [&](auto out) {
            return thrust::copy(policy, f, l, out);
          });
        });
      });
    });
    compare("fill", "a double into ints", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "data", ints, [&](auto f, auto l) {
        thrust::fill(policy, f, l, 2.75);
      });
    });
    compare("fill", "counted items", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "data", values<counted>(seeds(n, 69)), [&](auto f, auto l) {
        thrust::fill(policy, f, l, counted(4));
      });
    });
    compare("copy", "floats into ints and int8s", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", floats, [&](auto f, auto l) {
        with_output<kind::vector>(r, "int", n, 0, [&](auto out) {
          return thrust::copy(policy, f, l, out);
        });
        with_output<kind::vector>(r, "int8", n, std::int8_t(0), [&](auto out) {
          return thrust::copy_n(policy, f, n, out);
        });
      });
    });
    compare("copy", "vec3 items", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", values<vec3>(seeds(n, 70)), [&](auto f, auto l) {
        with_output<kind::managed>(r, "output", n, vec3(0), [&](auto out) {
          return thrust::copy(policy, f, l, out);
        });
      });
    });
    compare("generate", "non-const generator", n, [&](auto policy, record& r) {
      with_range<kind::universal>(r, "data", ints, [&](auto f, auto l) {
        thrust::generate(policy, f, l, mutable_seven{});
      });
    });
  }
}

TEST_CASE("thrust::sequence and tabulate through strata::par", "[thrust][compat][sequence]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> ints     = std::vector<int>(n, -1);
    const std::vector<float> floats = std::vector<float>(n, -1.0f);
    for_each_kind(writable_kinds{}, [&](auto k) {
      compare("sequence", name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "data", ints, [&](auto f, auto l) {
          thrust::sequence(policy, f, l);
        });
      });
      compare("tabulate", name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "data", ints, [&](auto f, auto l) {
          thrust::tabulate(policy, f, l, square_less_three{});
        });
      });
    });
    // sequence computes init + step * i in init's type, then converts: a double step of 0.5 into ints.
    compare("sequence", "double init and step into ints", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "data", ints, [&](auto f, auto l) {
        thrust::sequence(policy, f, l, 1.25, 0.5);
      });
    });
    compare("sequence", "int init into floats", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "data", floats, [&](auto f, auto l) {
        thrust::sequence(policy, f, l, 3);
      });
    });
    compare("sequence", "float init and step into ints", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "data", ints, [&](auto f, auto l) {
        thrust::sequence(policy, f, l, -2.5f, 0.75f);
      });
    });
    compare("sequence", "int8 items", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "data", std::vector<std::int8_t>(n, 0), [&](auto f, auto l) {
        thrust::sequence(policy, f, l, std::int8_t(5), std::int8_t(3));
      });
    });
  }
}

TEST_CASE("thrust::gather and scatter through strata::par", "[thrust][compat][gather][scatter]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> in = random_values<int>(n, 71);
    std::vector<int> map(n);
    {
      std::mt19937_64 rng = strata_test::make_rng(72);
      for (std::size_t i = 0; i < n; ++i)
      {
        map[i] = static_cast<int>(i);
      }
      std::shuffle(map.begin(), map.end(), rng);
    }
    // Every input kind for the map but counting (its positions would run past the input).
    using map_kinds = kinds<kind::raw, kind::device_ptr, kind::vector, kind::universal, kind::managed, kind::reverse,
                            kind::permutation, kind::transform, kind::constant>;
    for_each_kind(map_kinds{}, [&](auto k) {
      compare("gather", std::string("map ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", in, [&](auto f, auto) {
          with_range<decltype(k)::value>(r, "map", map, [&](auto mf, auto ml) {
            with_output<kind::vector>(r, "output", n, -1, [&](auto out) {
              return thrust::gather(policy, mf, ml, f, out);
            });
          });
        });
      });
    });
    for_each_kind(writable_kinds{}, [&](auto k) {
      compare("scatter", std::string("output ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
          with_range<kind::vector>(r, "map", map, [&](auto mf, auto) {
            with_output<decltype(k)::value>(r, "output", n, -1, [&](auto out) {
              thrust::scatter(policy, f, l, mf, out);
            });
          });
        });
      });
    });
    compare("gather", "float items into double", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", values<float>(in), [&](auto f, auto) {
        with_range<kind::vector>(r, "map", map, [&](auto mf, auto ml) {
          with_output<kind::universal>(r, "output", n, -1.0, [&](auto out) {
            return thrust::gather(policy, mf, ml, f, out);
          });
        });
      });
    });
  }
}
