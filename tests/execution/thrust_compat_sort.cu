// Thrust compatibility of the sorts of keys: thrust::sort and stable_sort leave the same items in the same order
// through strata::par as through thrust::cuda::par (thrust_compat.cuh): equal keys keep their input order (both
// libraries sort stably), -0.0 and +0.0 compare equal and NaNs go where the radix sort puts them.
#include "thrust_compat.cuh"

#include <thrust/functional.h>
#include <thrust/sort.h>

using namespace compat;

namespace
{
// Orders by the last decimal digit only (a stateful comparator with many ties: stability shows).
struct by_digit
{
  int base;
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    const int x = static_cast<int>(a) % base;
    const int y = static_cast<int>(b) % base;
    return (x < 0 ? -x : x) < (y < 0 ? -y : y);
  }
};

} // namespace

#define COMPAT_SORT_KEY_TYPES \
  std::int8_t, std::uint16_t, int, long, unsigned long long, float, double, compat::pod, compat::vec3, compat::counted

TEMPLATE_TEST_CASE("thrust::sort and stable_sort through strata::par: every key type", "[thrust][compat][sort]",
                   COMPAT_SORT_KEY_TYPES)
{
  using T = TestType;
  for (const std::size_t n : sort_sizes())
  {
    const std::vector<T> keys = sort_keys<T>(n, 51, true);
    compare("sort", "default order", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "keys", keys, [&](auto f, auto l) {
        thrust::sort(policy, f, l);
      });
    });
    compare("sort", "greater<T>", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "keys", keys, [&](auto f, auto l) {
        thrust::sort(policy, f, l, thrust::greater<T>());
      });
    });
    compare("stable_sort", "less<T>", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "keys", keys, [&](auto f, auto l) {
        thrust::stable_sort(policy, f, l, thrust::less<T>());
      });
    });
    // A comparator the radix sort cannot take (the merge sort runs): for int and the types that always merge.
    if constexpr (std::is_same<T, int>::value || !std::is_arithmetic<T>::value)
    {
      const std::vector<T> ordered = sort_keys<T>(n, 52, false);
      compare("stable_sort", "non-const comparator", n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "keys", ordered, [&](auto f, auto l) {
          thrust::stable_sort(policy, f, l, mutable_greater{});
        });
      });
    }
  }
}

TEST_CASE("thrust::sort through strata::par: every iterator kind and kind of comparator",
          "[thrust][compat][sort][iterators]")
{
  auto descending = [] __host__ __device__(int a, int b) {
    return b < a;
  };
  for (const std::size_t n : sort_sizes())
  {
    const std::vector<int> keys = sort_keys<int>(n, 53, false);
    for_each_kind(writable_kinds{}, [&](auto k) {
      compare("sort", name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "keys", keys, [&](auto f, auto l) {
          thrust::sort(policy, f, l);
        });
      });
    });
    compare("stable_sort", "stateful comparator", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "keys", keys, [&](auto f, auto l) {
        thrust::stable_sort(policy, f, l, by_digit{10});
      });
    });
    compare("sort", "host-device lambda", n, [&](auto policy, record& r) {
      with_range<kind::vector>(r, "keys", keys, [&](auto f, auto l) {
        thrust::sort(policy, f, l, descending);
      });
    });
    const std::vector<int> second = random_values<int>(n, 54, -3, 3);
    compare("sort", "zip_iterator of two vectors", n, [&](auto policy, record& r) {
      thrust::device_vector<int> a(keys.begin(), keys.end()), b(second.begin(), second.end());
      auto f = thrust::make_zip_iterator(a.begin(), b.begin());
      thrust::sort(policy, f, f + n);
      r.device("first", a);
      r.device("second", b);
    });
  }
}
