// Thrust compatibility of the sorts of pairs: thrust::sort_by_key and stable_sort_by_key leave the same keys and values
// in the same order through strata::par as through thrust::cuda::par (thrust_compat.cuh), equal keys with their values
// in input order.
#include "thrust_compat.cuh"

#include <thrust/functional.h>
#include <thrust/sort.h>

using namespace compat;

namespace
{
// sort_by_key of keys of KeyT and values of ValueT in the default order, and with EVERY_FORM greater<KeyT>, the
// stable sort's default order and a non-const comparator too.
template <typename KeyT, typename ValueT, bool EVERY_FORM = false>
void sort_pairs_forms(const std::string& variant)
{
  for (const std::size_t n : sort_sizes())
  {
    const std::vector<KeyT> keys     = sort_keys<KeyT>(n, 55, true);
    const std::vector<KeyT> ordered  = sort_keys<KeyT>(n, 56, false);
    const std::vector<ValueT> values = random_values<ValueT>(n, 57);
    auto run = [&](const std::string& algorithm, const std::string& form, const std::vector<KeyT>& k, auto call) {
      compare(algorithm, variant + ", " + form, n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "keys", k, [&](auto kf, auto kl) {
          with_range<kind::vector>(r, "values", values, [&](auto vf, auto) {
            call(policy, kf, kl, vf);
          });
        });
      });
    };
    run("sort_by_key", "default order", keys, [](auto policy, auto kf, auto kl, auto vf) {
      thrust::sort_by_key(policy, kf, kl, vf);
    });
    if constexpr (EVERY_FORM)
    {
      run("sort_by_key", "greater<KeyT>", keys, [](auto policy, auto kf, auto kl, auto vf) {
        thrust::sort_by_key(policy, kf, kl, vf, thrust::greater<KeyT>());
      });
      run("stable_sort_by_key", "default order", keys, [](auto policy, auto kf, auto kl, auto vf) {
        thrust::stable_sort_by_key(policy, kf, kl, vf);
      });
      run("stable_sort_by_key", "non-const comparator", ordered, [](auto policy, auto kf, auto kl, auto vf) {
        thrust::stable_sort_by_key(policy, kf, kl, vf, mutable_greater{});
      });
    }
  }
}
} // namespace

TEST_CASE("thrust::sort_by_key through strata::par: key and value types", "[thrust][compat][sort_by_key]")
{
  sort_pairs_forms<int, int, true>("int keys, int values");
  sort_pairs_forms<int, double>("int keys, double values");
  sort_pairs_forms<int, std::int8_t>("int keys, int8 values");
  sort_pairs_forms<int, pod>("int keys, pod values");
  sort_pairs_forms<int, counted>("int keys, counted values");
  sort_pairs_forms<float, int, true>("float keys, int values");
  sort_pairs_forms<unsigned long long, long>("uint64 keys, long values");
  sort_pairs_forms<pod, int>("pod keys, int values");
  sort_pairs_forms<counted, vec3>("counted keys, vec3 values");
}

TEST_CASE("thrust::sort_by_key through strata::par: every iterator kind", "[thrust][compat][sort_by_key][iterators]")
{
  for (const std::size_t n : small_sizes())
  {
    const std::vector<int> keys   = sort_keys<int>(n, 58, false);
    const std::vector<int> values = random_values<int>(n, 59);
    for_each_kind(writable_kinds{}, [&](auto k) {
      compare("sort_by_key", std::string("keys ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<decltype(k)::value>(r, "keys", keys, [&](auto kf, auto kl) {
          with_range<kind::vector>(r, "values", values, [&](auto vf, auto) {
            thrust::sort_by_key(policy, kf, kl, vf);
          });
        });
      });
      compare("stable_sort_by_key", std::string("values ") + name_of(k), n, [&](auto policy, record& r) {
        with_range<kind::vector>(r, "keys", keys, [&](auto kf, auto kl) {
          with_range<decltype(k)::value>(r, "values", values, [&](auto vf, auto) {
            thrust::stable_sort_by_key(policy, kf, kl, vf, thrust::greater<int>());
          });
        });
      });
    });
  }
}
