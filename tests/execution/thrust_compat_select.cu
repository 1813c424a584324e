// Thrust compatibility of the compaction algorithms: thrust::copy_if, remove_copy_if, remove_copy, remove_if, remove,
// unique, unique_copy, unique_count, unique_by_key, unique_by_key_copy, partition, stable_partition, partition_copy,
// stable_partition_copy and reduce_by_key give the same output through strata::par as through thrust::cuda::par
// (thrust_compat.cuh): every output item, end iterator and count, with and without stencils, in device and in
// host-accessible memory, through reverse iterators, with selection rates from none to all.
#include "thrust_compat.cuh"

#include <thrust/copy.h>
#include <thrust/functional.h>
#include <thrust/partition.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/unique.h>

#include <algorithm>

using namespace compat;

namespace
{
// x < threshold: selection rates from 0 to 100 percent of random_values in [-20, 20].
struct below
{
  int threshold;
  template <typename T>
  __host__ __device__ bool operator()(const T& x) const
  {
    return x < T(threshold);
  }
};

// Keys equal when they agree after division by 4 (an equivalence whose runs hold different items).
struct same_quarter
{
  __host__ __device__ bool operator()(int a, int b) const
  {
    return (a >> 2) == (b >> 2);
  }
};
} // namespace

TEST_CASE("thrust::copy_if, remove_copy_if, remove_copy, remove_if and remove through strata::par",
          "[thrust][compat][select]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> in      = random_values<int>(n, 91, -20, 20);
    const std::vector<int> stencil = random_values<int>(n, 92, -20, 20);
    for (const int threshold : {-21, -19, 0, 19, 21})
    {
      const below pred{threshold};
      const std::string rate = "below " + std::to_string(threshold);
      for_each_kind(kinds<kind::vector, kind::universal>{}, [&](auto k) {
        constexpr kind K = decltype(k)::value;
        compare("copy_if", std::string(name_of(K)) + ", " + rate, n, [&](auto policy, record& r) {
          with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
            with_output<K>(r, "output", n, -99, [&](auto out) {
              return thrust::copy_if(policy, f, l, out, pred);
            });
          });
        });
        compare("copy_if", std::string(name_of(K)) + ", stencil, " + rate, n, [&](auto policy, record& r) {
          with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
            with_range<kind::vector>(r, "stencil", stencil, [&](auto s, auto) {
              with_output<K>(r, "output", n, -99, [&](auto out) {
                return thrust::copy_if(policy, f, l, s, out, pred);
              });
            });
          });
        });
        compare("remove_copy_if", std::string(name_of(K)) + ", " + rate, n, [&](auto policy, record& r) {
          with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
            with_output<K>(r, "output", n, -99, [&](auto out) {
              return thrust::remove_copy_if(policy, f, l, out, pred);
            });
          });
        });
        compare("remove_if", std::string(name_of(K)) + ", " + rate, n, [&](auto policy, record& r) {
          with_range<K>(r, "data", in, [&](auto f, auto l) {
            r.value("end offset", static_cast<long long>(thrust::remove_if(policy, f, l, pred) - f));
          });
        });
        compare("remove_if", std::string(name_of(K)) + ", stencil, " + rate, n, [&](auto policy, record& r) {
          with_range<K>(r, "data", in, [&](auto f, auto l) {
            with_range<kind::vector>(r, "stencil", stencil, [&](auto s, auto) {
              r.value("end offset", static_cast<long long>(thrust::remove_if(policy, f, l, s, pred) - f));
            });
          });
        });
      });
    }
    compare("remove_copy", "device_vector", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, -99, [&](auto out) {
          return thrust::remove_copy(policy, f, l, out, 3);
        });
      });
    });
    compare("remove", "reverse", n, [&](auto policy, record& r) {
      with_range<kind::reverse>(r, "data", in, [&](auto f, auto l) {
        r.value("end offset", static_cast<long long>(thrust::remove(policy, f, l, -7) - f));
      });
    });
    compare("copy_if", "reverse, predicate returning int", n, [&](auto policy, record& r) {
      with_range<kind::reverse>(r, "input", in, [&](auto f, auto l) {
        with_output<kind::vector>(r, "output", n, -99, [&](auto out) {
          return thrust::copy_if(policy, f, l, out, mod3{});
        });
      });
    });
  }
}

TEST_CASE("thrust::unique, unique_copy, unique_count, unique_by_key and unique_by_key_copy through strata::par",
          "[thrust][compat][select]")
{
  for (const std::size_t n : sizes())
  {
    std::vector<int> keys = random_values<int>(n, 93, -20, 20);
    std::sort(keys.begin(), keys.end());
    const std::vector<int> values = random_values<int>(n, 94, -1000, 1000);
    const std::vector<int> mixed  = random_values<int>(n, 95, -2, 2); // short runs, unsorted
    for_each_kind(kinds<kind::vector, kind::universal>{}, [&](auto k) {
      constexpr kind K = decltype(k)::value;
      compare("unique", name_of(K), n, [&](auto policy, record& r) {
        with_range<K>(r, "data", keys, [&](auto f, auto l) {
          r.value("end offset", static_cast<long long>(thrust::unique(policy, f, l) - f));
        });
      });
      compare("unique", std::string(name_of(K)) + ", short runs, predicate", n, [&](auto policy, record& r) {
        with_range<K>(r, "data", mixed, [&](auto f, auto l) {
          r.value("end offset", static_cast<long long>(thrust::unique(policy, f, l, same_quarter{}) - f));
        });
      });
      compare("unique_copy", name_of(K), n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "input", mixed, [&](auto f, auto l) {
          with_output<K>(r, "output", n, -99, [&](auto out) {
            return thrust::unique_copy(policy, f, l, out);
          });
        });
      });
      compare("unique_count", name_of(K), n, [&](auto policy, record& r) {
        with_range<K>(r, "data", mixed, [&](auto f, auto l) {
          r.value("count", static_cast<long long>(thrust::unique_count(policy, f, l)));
          r.value("count by quarter", static_cast<long long>(thrust::unique_count(policy, f, l, same_quarter{})));
        });
      });
      compare("unique_by_key", name_of(K), n, [&](auto policy, record& r) {
        with_range<K>(r, "keys", keys, [&](auto kf, auto kl) {
          with_range<K>(r, "values", values, [&](auto vf, auto) {
            const auto ends = thrust::unique_by_key(policy, kf, kl, vf);
            r.value("keys end offset", static_cast<long long>(ends.first - kf));
            r.value("values end offset", static_cast<long long>(ends.second - vf));
          });
        });
      });
      compare("unique_by_key_copy", std::string(name_of(K)) + ", predicate", n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "keys", mixed, [&](auto kf, auto kl) {
          with_range<kind::vector>(r, "values", values, [&](auto vf, auto) {
            with_output<K>(r, "keys out", n, -99, [&](auto ko) {
              with_output<K>(r, "values out", n, -99, [&](auto vo) {
                const auto ends = thrust::unique_by_key_copy(policy, kf, kl, vf, ko, vo, same_quarter{});
                r.value("keys end offset", static_cast<long long>(ends.first - ko));
                return ends.second;
              });
            });
          });
        });
      });
    });
  }
}

TEST_CASE("thrust::partition, stable_partition, partition_copy and stable_partition_copy through strata::par",
          "[thrust][compat][select]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> in = random_values<int>(n, 96, -20, 20);
    for (const int threshold : {-21, 0, 21})
    {
      const below pred{threshold};
      const std::string rate = "below " + std::to_string(threshold);
      for_each_kind(kinds<kind::vector, kind::universal>{}, [&](auto k) {
        constexpr kind K = decltype(k)::value;
        compare("partition", std::string(name_of(K)) + ", " + rate, n, [&](auto policy, record& r) {
          with_range<K>(r, "data", in, [&](auto f, auto l) {
            r.value("middle", static_cast<long long>(thrust::partition(policy, f, l, pred) - f));
          });
        });
        compare("stable_partition", std::string(name_of(K)) + ", " + rate, n, [&](auto policy, record& r) {
          with_range<K>(r, "data", in, [&](auto f, auto l) {
            r.value("middle", static_cast<long long>(thrust::stable_partition(policy, f, l, pred) - f));
          });
        });
        compare("partition_copy", std::string(name_of(K)) + ", " + rate, n, [&](auto policy, record& r) {
          with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
            with_output<K>(r, "selected", n, -99, [&](auto yes) {
              with_output<K>(r, "rejected", n, -99, [&](auto no) {
                const auto ends = thrust::partition_copy(policy, f, l, yes, no, pred);
                r.value("selected end offset", static_cast<long long>(ends.first - yes));
                return ends.second;
              });
            });
          });
        });
        compare("stable_partition_copy", std::string(name_of(K)) + ", " + rate, n, [&](auto policy, record& r) {
          with_range<kind::vector>(r, "input", in, [&](auto f, auto l) {
            with_output<K>(r, "selected", n, -99, [&](auto yes) {
              with_output<K>(r, "rejected", n, -99, [&](auto no) {
                const auto ends = thrust::stable_partition_copy(policy, f, l, yes, no, pred);
                r.value("selected end offset", static_cast<long long>(ends.first - yes));
                return ends.second;
              });
            });
          });
        });
      });
    }
    compare("stable_partition", "reverse", n, [&](auto policy, record& r) {
      with_range<kind::reverse>(r, "data", in, [&](auto f, auto l) {
        r.value("middle", static_cast<long long>(thrust::stable_partition(policy, f, l, is_positive{}) - f));
      });
    });
  }
}

TEST_CASE("thrust::reduce_by_key through strata::par", "[thrust][compat][select][reduce_by_key]")
{
  for (const std::size_t n : sizes())
  {
    const std::vector<int> in = random_values<int>(n, 81, -20, 20);
    std::vector<int> sorted   = in;
    std::sort(sorted.begin(), sorted.end());
    for_each_kind(kinds<kind::vector, kind::universal>{}, [&](auto k) {
      constexpr kind K = decltype(k)::value;
      // Sorted keys (long runs), then the unsorted values as keys (runs of one or two), under ==; the unsorted keys
      // again under a coarser equality, and with thrust::maximum.
      for (const bool long_runs : {true, false})
      {
        compare("reduce_by_key", std::string(name_of(K)) + (long_runs ? ", sorted keys" : ", random keys"), n,
                [&](auto policy, record& r) {
                  with_range<kind::vector>(r, "keys", long_runs ? sorted : in, [&](auto kf, auto kl) {
                    with_range<kind::vector>(r, "values", in, [&](auto vf, auto) {
                      with_output<K>(r, "keys out", n, -99, [&](auto ko) {
                        with_output<K>(r, "values out", n, -99, [&](auto vo) {
                          const auto ends = thrust::reduce_by_key(policy, kf, kl, vf, ko, vo);
                          r.value("keys end offset", static_cast<long long>(ends.first - ko));
                          return ends.second;
                        });
                      });
                    });
                  });
                });
      }
      compare("reduce_by_key", std::string(name_of(K)) + ", same quarter, maximum", n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "keys", in, [&](auto kf, auto kl) {
          with_range<kind::vector>(r, "values", in, [&](auto vf, auto) {
            with_output<K>(r, "keys out", n, -99, [&](auto ko) {
              with_output<K>(r, "values out", n, -99, [&](auto vo) {
                const auto ends =
                  thrust::reduce_by_key(policy, kf, kl, vf, ko, vo, same_quarter{}, thrust::maximum<int>{});
                r.value("keys end offset", static_cast<long long>(ends.first - ko));
                return ends.second;
              });
            });
          });
        });
      });
    });
  }
}
