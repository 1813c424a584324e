// Thrust compatibility of the scans by key: thrust::inclusive_scan_by_key and exclusive_scan_by_key give the same
// output through strata::par as through thrust::cuda::par (thrust_compat.cuh).
#include "thrust_compat.cuh"

#include <thrust/functional.h>
#include <thrust/scan.h>

using namespace compat;

namespace
{
// Keys in runs of random lengths (1 to 40): the seed of each run's key.
std::vector<int> run_keys(std::size_t n, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::vector<int> k(n);
  int key = 0;
  for (std::size_t i = 0; i < n;)
  {
    const std::size_t len = 1 + rng() % 40;
    key += 1 + static_cast<int>(rng() % 3);
    for (std::size_t j = 0; j < len && i < n; ++j, ++i)
    {
      k[i] = key;
    }
  }
  return k;
}

// Keys that are equal when their quarters are (a predicate that is not ==).
struct same_quarter
{
  __host__ __device__ bool operator()(int a, int b) const
  {
    return a / 4 == b / 4;
  }
};
} // namespace

#define COMPAT_BY_KEY_TYPES std::int8_t, int, float, double, compat::pod, compat::counted

TEMPLATE_TEST_CASE("thrust scans by key through strata::par: every value type", "[thrust][compat][scan_by_key]",
                   COMPAT_BY_KEY_TYPES)
{
  using V = TestType;
  for (const std::size_t n : sizes())
  {
    const std::vector<int> keys = run_keys(n, 31);
    const std::vector<V> values = random_values<V>(n, 32);
    const V init                = make<V>(5);
    const V fill                = make<V>(-77);
    auto run                    = [&](const std::string& algorithm, const std::string& variant, auto call) {
      compare(algorithm, variant, n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "keys", keys, [&](auto kf, auto kl) {
          with_range<kind::vector>(r, "values", values, [&](auto vf, auto) {
            with_output<kind::vector>(r, "output", n, fill, [&](auto out) {
              return call(policy, kf, kl, vf, out);
            });
          });
        });
      });
    };
    run("inclusive_scan_by_key", "sum", [&](auto policy, auto kf, auto kl, auto vf, auto out) {
      return thrust::inclusive_scan_by_key(policy, kf, kl, vf, out);
    });
    run("inclusive_scan_by_key", "predicate", [&](auto policy, auto kf, auto kl, auto vf, auto out) {
      return thrust::inclusive_scan_by_key(policy, kf, kl, vf, out, same_quarter{});
    });
    if constexpr (!std::is_same<V, pod>::value)
    {
      // The form without init starts every run from value_type{}, which for a pod is {0, 0}: the same as an init.
      run("exclusive_scan_by_key", "no init", [&](auto policy, auto kf, auto kl, auto vf, auto out) {
        return thrust::exclusive_scan_by_key(policy, kf, kl, vf, out);
      });
    }
    run("exclusive_scan_by_key", "init", [&](auto policy, auto kf, auto kl, auto vf, auto out) {
      return thrust::exclusive_scan_by_key(policy, kf, kl, vf, out, init);
    });
    run("exclusive_scan_by_key", "init, predicate, plus<V>", [&](auto policy, auto kf, auto kl, auto vf, auto out) {
      return thrust::exclusive_scan_by_key(policy, kf, kl, vf, out, init, thrust::equal_to<int>(), thrust::plus<V>());
    });
  }
}

TEST_CASE("thrust scans by key through strata::par: types that differ, keys of other types, operators",
          "[thrust][compat][scan_by_key]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> key_seeds      = run_keys(n, 33);
    const std::vector<std::int8_t> narrow = random_values<std::int8_t>(n, 34);
    const std::vector<float> floats       = random_values<float>(n, 35);
    const std::vector<pod> maps           = random_values<pod>(n, 36);
    auto check = [&](const std::string& algorithm, const std::string& variant, const auto& keys, const auto& values,
                     auto fill, auto call) {
      compare(algorithm, variant, n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "keys", keys, [&](auto kf, auto kl) {
          with_range<kind::vector>(r, "values", values, [&](auto vf, auto) {
            with_output<kind::vector>(r, "output", n, fill, [&](auto out) {
              return call(policy, kf, kl, vf, out);
            });
          });
        });
      });
    };
    // int8 values wrap as int8 in an inclusive scan, whatever the output; an exclusive scan runs in init's type.
    check("inclusive_scan_by_key", "int8 values, int output", key_seeds, narrow, -1,
          [](auto policy, auto kf, auto kl, auto vf, auto out) {
            return thrust::inclusive_scan_by_key(policy, kf, kl, vf, out);
          });
    check("exclusive_scan_by_key", "int8 values, int output, int init", key_seeds, narrow, -1,
          [](auto policy, auto kf, auto kl, auto vf, auto out) {
            return thrust::exclusive_scan_by_key(policy, kf, kl, vf, out, 100);
          });
    check("exclusive_scan_by_key", "float values, double output, int init", key_seeds, floats, -1.0,
          [](auto policy, auto kf, auto kl, auto vf, auto out) {
            return thrust::exclusive_scan_by_key(policy, kf, kl, vf, out, 1);
          });
    check("inclusive_scan_by_key", "float keys", values<float>(key_seeds), floats, -1.0f,
          [](auto policy, auto kf, auto kl, auto vf, auto out) {
            return thrust::inclusive_scan_by_key(policy, kf, kl, vf, out);
          });
    check("inclusive_scan_by_key", "pod keys", values<pod>(key_seeds), floats, -1.0f,
          [](auto policy, auto kf, auto kl, auto vf, auto out) {
            return thrust::inclusive_scan_by_key(policy, kf, kl, vf, out);
          });
    check("inclusive_scan_by_key", "non-commutative", key_seeds, maps, pod{-1, -1},
          [](auto policy, auto kf, auto kl, auto vf, auto out) {
            return thrust::inclusive_scan_by_key(policy, kf, kl, vf, out, thrust::equal_to<int>(), compose{});
          });
    check(
      "exclusive_scan_by_key", "non-commutative", key_seeds, maps, pod{-1, -1},
      [](auto policy, auto kf, auto kl, auto vf, auto out) {
        return thrust::exclusive_scan_by_key(policy, kf, kl, vf, out, pod{1, 0}, thrust::equal_to<int>(), compose{});
      });
    check("inclusive_scan_by_key", "stateful operator", key_seeds, values<int>(key_seeds), -1,
          [](auto policy, auto kf, auto kl, auto vf, auto out) {
            return thrust::inclusive_scan_by_key(policy, kf, kl, vf, out, thrust::equal_to<int>(), clamped_max{30});
          });
    check("exclusive_scan_by_key", "predicate, non-const operator()", key_seeds, values<int>(key_seeds), -1,
          [](auto policy, auto kf, auto kl, auto vf, auto out) {
            return thrust::exclusive_scan_by_key(policy, kf, kl, vf, out, 7, same_quarter{}, mutable_plus{});
          });
  }
}

TEST_CASE("thrust scans by key through strata::par: every iterator kind", "[thrust][compat][scan_by_key][iterators]")
{
  for (const std::size_t n : small_sizes())
  {
    const std::vector<int> keys   = run_keys(n, 37);
    const std::vector<int> values = random_values<int>(n, 38);
    for_each_kind(input_kinds{}, [&](auto k) {
      compare("inclusive_scan_by_key", std::string("keys ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "keys", keys, [&](auto kf, auto kl) {
          with_range<kind::vector>(r, "values", values, [&](auto vf, auto) {
            with_output<kind::vector>(r, "output", n, -1, [&](auto out) {
              return thrust::inclusive_scan_by_key(policy, kf, kl, vf, out);
            });
          });
        });
      });
      compare("exclusive_scan_by_key", std::string("values ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "keys", keys, [&](auto kf, auto kl) {
          with_range<decltype(k)::value>(r, "values", values, [&](auto vf, auto) {
            with_output<kind::vector>(r, "output", n, -1, [&](auto out) {
              return thrust::exclusive_scan_by_key(policy, kf, kl, vf, out, 3);
            });
          });
        });
      });
    });
    for_each_kind(output_kinds{}, [&](auto k) {
      compare("inclusive_scan_by_key", std::string("output ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "keys", keys, [&](auto kf, auto kl) {
          with_range<kind::vector>(r, "values", values, [&](auto vf, auto) {
            with_output<decltype(k)::value>(r, "output", n, -1, [&](auto out) {
              return thrust::inclusive_scan_by_key(policy, kf, kl, vf, out);
            });
          });
        });
      });
    });
  }
}
