// strata::sort_by_key and stable_sort_by_key against std::stable_sort on the host, with values that carry their input
// positions (so a value that moved without its key, or out of its stable place, is caught): arithmetic keys (the radix
// sort, ascending and descending) with values of 4 and 8 bytes, custom_t and user comparators (the merge sort),
// keys with full and low entropy, -0.0 beside +0.0, the size classes around both sorts' tiles, keys and values behind
// raw pointers, thrust::device_ptr and device_vector iterators, and fancy iterators (values through zip and
// permutation iterators, keys through a zip iterator). Every call takes at most one allocation from the policy's
// allocator and gives it back on the policy's stream, and returns before its kernels run. Also: which sort the
// frontend picks, Thrust's entry points given strata's policy run strata's, sorts captured into a CUDA graph replay on
// fresh data, and an allocator that fails makes every algorithm throw strata::cuda_error naming it.
#include "sort_support.cuh"

#include <thrust/functional.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/sort.h>
#include <thrust/tuple.h>

#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <tuple>
#include <utility>
#include <vector>

namespace
{
using merge_sort_test::entropy;
using sort_test::by_magnitude;
using sort_test::custom_by_bc;
using sort_test::host_greater;
using sort_test::host_less;
using sort_test::ids_of;
using sort_test::sort_algorithm;
using strata_test::custom_t;

template <typename KeyIt, typename ValueIt, typename CompareT>
constexpr sort_algorithm pairs_sort = strata::detail::frontend::sort_algorithm_v<KeyIt, ValueIt, CompareT>;

// The radix sort where keys and values are contiguous memory and the comparator is less / greater of the keys.
static_assert(pairs_sort<int*, unsigned*, cuda::std::less<>> == sort_algorithm::radix_ascending, "");
static_assert(pairs_sort<thrust::device_vector<float>::iterator, thrust::device_vector<custom_t>::iterator,
                         thrust::greater<float>> == sort_algorithm::radix_descending,
              "");
static_assert(pairs_sort<thrust::device_ptr<std::uint8_t>, thrust::device_ptr<double>,
                         std::less<std::uint8_t>> == sort_algorithm::radix_ascending,
              "");
// The merge sort where the values are not contiguous memory, or the keys are not radix keys.
static_assert(
  pairs_sort<int*, thrust::zip_iterator<thrust::tuple<unsigned*, double*>>, cuda::std::less<>> == sort_algorithm::merge,
  "");
static_assert(
  pairs_sort<int*, thrust::permutation_iterator<unsigned*, int*>, cuda::std::less<>> == sort_algorithm::merge, "");
static_assert(pairs_sort<custom_t*, unsigned*, cuda::std::less<>> == sort_algorithm::merge, "");
static_assert(pairs_sort<int*, unsigned*, by_magnitude> == sort_algorithm::merge, "");

// A key type and a value type, for the type-parameterized tests.
template <typename KeyT, typename ValueT>
struct kv
{
  using key_type   = KeyT;
  using value_type = ValueT;
};

// What a by-key sort left, and where it was run.
template <typename KeyT, typename ValueT>
struct sorted_pairs
{
  std::vector<KeyT> keys;
  std::vector<ValueT> values;
};

// Loads `h` and the position values into `dk` and `dv`, runs `call` (a by-key sort through stream.policy), and
// returns what it left; every allocation must have been given back on the stream.
template <typename KeyT, typename ValueT, typename Call>
sorted_pairs<KeyT, ValueT> run_pairs(exec_test::logged_stream& stream, thrust::device_vector<KeyT>& dk,
                                     thrust::device_vector<ValueT>& dv, const std::vector<KeyT>& h, Call&& call)
{
  exec_test::upload_into(dk, h);
  exec_test::upload_into(dv, sort_test::position_values<ValueT>(h.size()));
  stream.alloc.log().clear();
  call();
  stream.sync();
  stream.require_clean();
  return {exec_test::download(dk), exec_test::download(dv)};
}

// Checks a stable by-key sort's result against std::stable_sort's, keys by their bits.
template <typename KeyT, typename ValueT>
void require_stable_result(const sorted_pairs<KeyT, ValueT>& out,
                           const std::pair<std::vector<KeyT>, std::vector<ValueT>>& expected)
{
  STRATA_REQUIRE_EQUAL_VECTORS(ids_of(out.keys), ids_of(expected.first));
  STRATA_REQUIRE_EQUAL_VECTORS(out.values, expected.second);
}
} // namespace

TEMPLATE_TEST_CASE("strata::sort_by_key and stable_sort_by_key of arithmetic keys (radix sort) match std::stable_sort "
                   "for every size class",
                   "[execution][sort_by_key][radix]", (kv<std::uint8_t, std::uint32_t>),
                   (kv<std::int32_t, std::uint32_t>), (kv<float, std::uint64_t>), (kv<std::int64_t, double>) )
{
  using K = typename TestType::key_type;
  using V = typename TestType::value_type;
  exec_test::logged_stream stream;
  const auto& p = stream.policy;
  for (const std::size_t n : sort_test::radix_sizes<K, V>(601))
  {
    CAPTURE(n);
    for (const entropy e : {entropy::full, entropy::few_values})
    {
      CAPTURE(merge_sort_test::entropy_name(e));
      const std::vector<K> h = sort_test::make_keys<K>(n, e, 113 * n + static_cast<std::uint64_t>(e) + 1);
      const auto ascending   = sort_test::stably_sorted_pairs<K, V>(h, host_less{});
      const auto descending  = sort_test::stably_sorted_pairs<K, V>(h, host_greater{});
      thrust::device_vector<K> dk(n);
      thrust::device_vector<V> dv(n);

      exec_test::for_each_input_kind(dk, [&](auto keys_first, auto keys_last) {
        const auto values_first = exec_test::output_like(keys_first, dv);
        auto run                = [&](auto call) {
          const sorted_pairs<K, V> out = run_pairs(stream, dk, dv, h, call);
          // One allocation (n > 1): the sort's storage and n keys and values, not two arrays of each.
          CHECK(stream.alloc.log().allocations() == (n > 1 ? 1u : 0u));
          if (n > 65536)
          {
            CHECK(stream.alloc.log().peak_bytes() <= n * (sizeof(K) + sizeof(V)) * 3 / 2);
          }
          return out;
        };
        {
          INFO("sort_by_key");
          const auto out = run([&] {
            strata::sort_by_key(p, keys_first, keys_last, values_first);
          });
          sort_test::require_pairs_moved_together(out.keys, out.values, h, host_less{});
        }
        {
          INFO("sort_by_key, thrust::greater<K>");
          const auto out = run([&] {
            strata::sort_by_key(p, keys_first, keys_last, values_first, thrust::greater<K>{});
          });
          sort_test::require_pairs_moved_together(out.keys, out.values, h, host_greater{});
        }
        {
          INFO("stable_sort_by_key");
          require_stable_result(run([&] {
                                  strata::stable_sort_by_key(p, keys_first, keys_last, values_first);
                                }),
                                ascending);
        }
        {
          INFO("stable_sort_by_key, std::less<K>");
          require_stable_result(run([&] {
                                  strata::stable_sort_by_key(p, keys_first, keys_last, values_first, std::less<K>{});
                                }),
                                ascending);
        }
        {
          INFO("stable_sort_by_key, cuda::std::greater<>");
          require_stable_result(run([&] {
                                  strata::stable_sort_by_key(p, keys_first, keys_last, values_first,
                                                             cuda::std::greater<>{});
                                }),
                                descending);
        }
      });
    }
  }
}

TEMPLATE_TEST_CASE("strata::sort_by_key and stable_sort_by_key under other comparators and of other keys (merge sort) "
                   "match std::stable_sort for every size class",
                   "[execution][sort_by_key][merge]", custom_t, std::int32_t)
{
  using K       = TestType;
  using V       = std::uint32_t;
  using Compare = std::conditional_t<std::is_same<K, custom_t>::value, custom_by_bc, by_magnitude>;
  exec_test::logged_stream stream;
  const auto& p = stream.policy;
  for (const std::size_t n : sort_test::merge_sizes<K, V>(603))
  {
    CAPTURE(n);
    for (const entropy e : {entropy::full, entropy::few_values})
    {
      CAPTURE(merge_sort_test::entropy_name(e));
      const std::vector<K> h = sort_test::make_keys<K>(n, e, 127 * n + static_cast<std::uint64_t>(e) + 2);
      thrust::device_vector<K> dk(n);
      thrust::device_vector<V> dv(n);

      exec_test::for_each_input_kind(dk, [&](auto keys_first, auto keys_last) {
        const auto values_first = exec_test::output_like(keys_first, dv);
        auto run                = [&](auto call) {
          const sorted_pairs<K, V> out = run_pairs(stream, dk, dv, h, call);
          CHECK(stream.alloc.log().allocations() <= 1u);
          if (n <= 1)
          {
            CHECK(stream.alloc.log().allocations() == 0u);
          }
          return out;
        };
        {
          INFO("sort_by_key, a user comparator");
          const auto out = run([&] {
            strata::sort_by_key(p, keys_first, keys_last, values_first, Compare{});
          });
          sort_test::require_pairs_moved_together(out.keys, out.values, h, Compare{});
        }
        {
          INFO("stable_sort_by_key, a user comparator");
          require_stable_result(run([&] {
                                  strata::stable_sort_by_key(p, keys_first, keys_last, values_first, Compare{});
                                }),
                                sort_test::stably_sorted_pairs<K, V>(h, Compare{}));
        }
        if constexpr (std::is_same<K, custom_t>::value)
        {
          INFO("stable_sort_by_key of custom_t by operator<");
          require_stable_result(run([&] {
                                  strata::stable_sort_by_key(p, keys_first, keys_last, values_first);
                                }),
                                sort_test::stably_sorted_pairs<K, V>(h, host_less{}));
        }
      });
    }
  }
}

TEST_CASE("strata::stable_sort_by_key with values through zip and permutation iterators and keys through a zip "
          "iterator (merge sort)",
          "[execution][sort_by_key][merge][fancy]")
{
  exec_test::logged_stream stream;
  const auto& p = stream.policy;
  for (const std::size_t n :
       strata_test::sizes_within_cap({std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(1000),
                                      sort_test::merge_tile<int, std::uint32_t>() + 1, std::size_t(1000003)}))
  {
    CAPTURE(n);
    const std::vector<int> h = sort_test::make_keys<int>(n, entropy::few_values, 131 * n + 3);
    const auto expected      = sort_test::stably_sorted_pairs<int, std::uint32_t>(h, host_less{});
    thrust::device_vector<int> dk(n);

    {
      INFO("values: a zip of two arrays");
      std::vector<double> halves(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        halves[i] = 0.5 * static_cast<double>(i);
      }
      thrust::device_vector<std::uint32_t> positions = exec_test::upload(sort_test::position_values<std::uint32_t>(n));
      thrust::device_vector<double> d_halves         = exec_test::upload(halves);
      exec_test::upload_into(dk, h);
      stream.alloc.log().clear();
      strata::stable_sort_by_key(p, dk.begin(), dk.end(),
                                 thrust::make_zip_iterator(positions.begin(), d_halves.begin()));
      stream.sync();
      stream.require_clean();
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(dk), expected.first);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(positions), expected.second);
      std::vector<double> expected_halves(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        expected_halves[i] = 0.5 * static_cast<double>(expected.second[i]);
      }
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d_halves), expected_halves);
    }
    {
      INFO("values: seen through a permutation");
      std::vector<int> map(n);
      std::iota(map.begin(), map.end(), 0);
      std::shuffle(map.begin(), map.end(), strata_test::make_rng(n + 137));
      thrust::device_vector<int> d_map = exec_test::upload(map);
      // storage[map[i]] is the value of position i.
      std::vector<std::uint32_t> storage(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        storage[static_cast<std::size_t>(map[i])] = static_cast<std::uint32_t>(i);
      }
      thrust::device_vector<std::uint32_t> d_storage = exec_test::upload(storage);
      exec_test::upload_into(dk, h);
      stream.alloc.log().clear();
      strata::stable_sort_by_key(p, dk.begin(), dk.end(),
                                 thrust::make_permutation_iterator(d_storage.begin(), d_map.begin()));
      stream.sync();
      stream.require_clean();
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(dk), expected.first);
      const std::vector<std::uint32_t> out = exec_test::download(d_storage);
      std::vector<std::uint32_t> seen(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        seen[i] = out[static_cast<std::size_t>(map[i])];
      }
      STRATA_REQUIRE_EQUAL_VECTORS(seen, expected.second);
    }
    {
      INFO("keys: a zip of two arrays, in lexicographic order");
      const std::vector<int> second = sort_test::make_keys<int>(n, entropy::few_values, 139 * n + 5);
      std::vector<std::tuple<int, int>> zipped(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        zipped[i] = std::make_tuple(h[i], second[i]);
      }
      const auto expected_zip =
        sort_test::stably_sorted_pairs<std::tuple<int, int>, std::uint32_t>(zipped, std::less<std::tuple<int, int>>{});
      thrust::device_vector<int> d_second     = exec_test::upload(second);
      thrust::device_vector<std::uint32_t> dv = exec_test::upload(sort_test::position_values<std::uint32_t>(n));
      exec_test::upload_into(dk, h);
      stream.alloc.log().clear();
      strata::stable_sort_by_key(p, thrust::make_zip_iterator(dk.begin(), d_second.begin()),
                                 thrust::make_zip_iterator(dk.end(), d_second.end()), dv.begin());
      stream.sync();
      stream.require_clean();
      const std::vector<int> first_out  = exec_test::download(dk);
      const std::vector<int> second_out = exec_test::download(d_second);
      std::vector<std::tuple<int, int>> out(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        out[i] = std::make_tuple(first_out[i], second_out[i]);
      }
      CHECK(out == expected_zip.first);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(dv), expected_zip.second);
    }
  }
}

namespace
{
// Loads keys into a buffer behind a closed gate on the policy's stream (a decoy until then) and runs the by-key sort
// `call(keys_first, keys_last, values_first)`, which must return with keys and values untouched; once the gate opens
// they must be std::stable_sort's under comp.
template <typename KeyT, typename CompareT, typename Call>
void check_pairs_behind_gate(exec_test::logged_stream& stream, const std::vector<KeyT>& h, CompareT comp, Call&& call)
{
  using V                          = std::uint32_t;
  const std::vector<V> positions   = sort_test::position_values<V>(h.size());
  const auto expected              = sort_test::stably_sorted_pairs<KeyT, V>(h, comp);
  thrust::device_vector<KeyT> real = exec_test::upload(h);
  const std::vector<KeyT> decoy    = exec_test::decoy_of(h);
  thrust::device_vector<KeyT> keys = exec_test::upload(decoy);
  thrust::device_vector<V> values  = exec_test::upload(positions);
  stream.alloc.log().clear();
  stream.close();
  stream.copy(keys, real);
  call(keys.begin(), keys.end(), values.begin());
  STRATA_REQUIRE_EQUAL_VECTORS(ids_of(stream.peek(keys)), ids_of(decoy));
  STRATA_REQUIRE_EQUAL_VECTORS(stream.peek(values), positions);
  stream.open();
  stream.sync();
  CHECK_FALSE(stream.timed_out());
  STRATA_REQUIRE_EQUAL_VECTORS(ids_of(exec_test::download(keys)), ids_of(expected.first));
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(values), expected.second);
  stream.require_clean();
}
} // namespace

TEST_CASE("strata::sort_by_key and stable_sort_by_key return before their kernels run, which run on the policy's "
          "stream",
          "[execution][sort_by_key][stream]")
{
  exec_test::logged_stream stream;
  const auto& p = stream.policy;
  for (const std::size_t n : strata_test::sizes_within_cap({std::size_t(1000), std::size_t(1000003)}))
  {
    CAPTURE(n);
    {
      INFO("radix sort, int32 keys, descending");
      check_pairs_behind_gate(stream, sort_test::make_keys<int>(n, entropy::few_values, 149 * n), host_greater{},
                              [&](auto keys_first, auto keys_last, auto values_first) {
                                strata::stable_sort_by_key(p, keys_first, keys_last, values_first,
                                                           cuda::std::greater<>{});
                              });
    }
    {
      INFO("radix sort, uint8 keys (the result is copied back from the second buffers)");
      check_pairs_behind_gate(stream, sort_test::make_keys<std::uint8_t>(n, entropy::full, 151 * n), host_less{},
                              [&](auto keys_first, auto keys_last, auto values_first) {
                                strata::stable_sort_by_key(p, keys_first, keys_last, values_first);
                              });
    }
    {
      INFO("merge sort, custom_t keys");
      check_pairs_behind_gate(stream, sort_test::make_keys<custom_t>(n, entropy::few_values, 157 * n), custom_by_bc{},
                              [&](auto keys_first, auto keys_last, auto values_first) {
                                strata::stable_sort_by_key(p, keys_first, keys_last, values_first, custom_by_bc{});
                              });
    }
  }
}

TEST_CASE("Thrust's by-key sorts given strata's policy run strata's implementation", "[execution][sort_by_key][thrust]")
{
  exec_test::logged_stream stream;
  const auto p                  = stream.policy;
  const std::size_t n           = strata_test::capped(1000003);
  using V                       = std::uint32_t;
  const std::vector<int> h      = sort_test::make_keys<int>(n, entropy::few_values, 163);
  const std::vector<custom_t> c = sort_test::make_keys<custom_t>(n, entropy::few_values, 167);
  thrust::device_vector<int> dk(n);
  thrust::device_vector<custom_t> dc(n);
  thrust::device_vector<V> dv(n);

  {
    const auto out = run_pairs(stream, dk, dv, h, [&] {
      sort_test::check_strata_ran("strata::sort_by_key", [&] {
        thrust::sort_by_key(p, dk.begin(), dk.end(), dv.begin());
      });
    });
    sort_test::require_pairs_moved_together(out.keys, out.values, h, host_less{});
  }
  require_stable_result(run_pairs(stream, dk, dv, h,
                                  [&] {
                                    sort_test::check_strata_ran("strata::stable_sort_by_key", [&] {
                                      thrust::stable_sort_by_key(p, dk.begin(), dk.end(), dv.begin(),
                                                                 thrust::greater<int>{});
                                    });
                                  }),
                        sort_test::stably_sorted_pairs<int, V>(h, host_greater{}));
  require_stable_result(run_pairs(stream, dk, dv, h,
                                  [&] {
                                    sort_test::check_strata_ran("strata::stable_sort_by_key", [&] {
                                      thrust::stable_sort_by_key(p, dk.begin(), dk.end(), dv.begin());
                                    });
                                  }),
                        sort_test::stably_sorted_pairs<int, V>(h, host_less{}));
  {
    const auto out = run_pairs(stream, dc, dv, c, [&] {
      sort_test::check_strata_ran("strata::sort_by_key", [&] {
        thrust::sort_by_key(p, dc.begin(), dc.end(), dv.begin(), custom_by_bc{});
      });
    });
    sort_test::require_pairs_moved_together(out.keys, out.values, c, custom_by_bc{});
  }
}

namespace
{
// Captures by-key sorts of both kinds through `policy` on `stream` into a graph, then replays it twice on fresh keys
// (written to the same buffers, with fresh position values), checking every result after each replay.
template <typename Policy>
void check_pairs_graph_replays(const Policy& policy, exec_test::gated_stream& stream)
{
  using V             = std::uint32_t;
  const std::size_t n = strata_test::capped(1000003);
  thrust::device_vector<std::uint8_t> k8(n);
  thrust::device_vector<int> k32(n);
  thrust::device_vector<custom_t> kc(n);
  thrust::device_vector<V> v8(n), v32(n), vc(n);
  exec_test::settle();

  cudaGraph_t graph{};
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
  strata::sort_by_key(policy, k8.begin(), k8.end(), v8.begin());
  strata::stable_sort_by_key(policy, k32.begin(), k32.end(), v32.begin(), cuda::std::greater<>{});
  strata::stable_sort_by_key(policy, kc.begin(), kc.end(), vc.begin(), custom_by_bc{});
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream.get(), &graph));
  cudaGraphExec_t exec{};
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));

  const std::vector<V> positions = sort_test::position_values<V>(n);
  for (int replay = 0; replay < 2; ++replay)
  {
    CAPTURE(replay);
    const std::uint64_t salt           = 400 + static_cast<std::uint64_t>(replay);
    const std::vector<std::uint8_t> h8 = sort_test::make_keys<std::uint8_t>(n, entropy::full, salt);
    const std::vector<int> h32         = sort_test::make_keys<int>(n, entropy::few_values, salt + 10);
    const std::vector<custom_t> hc     = sort_test::make_keys<custom_t>(n, entropy::few_values, salt + 20);
    exec_test::upload_into(k8, h8);
    exec_test::upload_into(k32, h32);
    exec_test::upload_into(kc, hc);
    exec_test::upload_into(v8, positions);
    exec_test::upload_into(v32, positions);
    exec_test::upload_into(vc, positions);
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream.get()));
    stream.sync();
    sort_test::require_pairs_moved_together(exec_test::download(k8), exec_test::download(v8), h8, host_less{});
    require_stable_result(sorted_pairs<int, V>{exec_test::download(k32), exec_test::download(v32)},
                          sort_test::stably_sorted_pairs<int, V>(h32, host_greater{}));
    require_stable_result(sorted_pairs<custom_t, V>{exec_test::download(kc), exec_test::download(vc)},
                          sort_test::stably_sorted_pairs<custom_t, V>(hc, custom_by_bc{}));
  }
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
}
} // namespace

TEST_CASE("strata::sort_by_key and stable_sort_by_key captured into a CUDA graph replay on fresh data",
          "[execution][sort_by_key][graph]")
{
  exec_test::gated_stream stream;
  SECTION("temporary storage from the pool")
  {
    check_pairs_graph_replays(strata::par.on(stream.get()), stream);
  }
  SECTION("temporary storage from a stream-ordered allocator")
  {
    exec_test::stream_allocator alloc;
    check_pairs_graph_replays(strata::par(alloc).on(stream.get()), stream);
    CHECK(alloc.log().allocations() == 3); // captured once: one per sort
    EXEC_TEST_REQUIRE_CLEAN(alloc.log(), stream.get());
  }
}

TEST_CASE("an allocator that throws or returns null makes every by-key sort throw strata::cuda_error naming it, "
          "leaking nothing and leaving keys and values as they were",
          "[execution][sort_by_key][allocator][errors]")
{
  using V                        = std::uint32_t;
  const std::size_t n            = strata_test::capped(1000003);
  const std::vector<int> hi      = sort_test::make_keys<int>(n, entropy::full, 173);
  const std::vector<custom_t> hc = sort_test::make_keys<custom_t>(n, entropy::few_values, 179);
  const std::vector<V> positions = sort_test::position_values<V>(n);
  thrust::device_vector<int> di(n);
  thrust::device_vector<custom_t> dc(n);
  thrust::device_vector<V> dv(n);

  for (const exec_test::failure how : {exec_test::failure::throws, exec_test::failure::returns_null})
  {
    CAPTURE(how == exec_test::failure::throws ? "throws" : "returns null");
    exec_test::logged_stream stream;
    const auto& p = stream.policy;
    // `call` with the first allocation failing, then working.
    auto check = [&](const char* name, bool custom, auto call) {
      INFO(name);
      exec_test::upload_into(di, hi);
      exec_test::upload_into(dc, hc);
      exec_test::upload_into(dv, positions);
      stream.alloc.log().clear();
      stream.alloc.log().fail_at(1, how);
      exec_test::require_cuda_error(call, cudaErrorMemoryAllocation, name);
      CHECK(stream.alloc.log().failed() == 1);
      CHECK(stream.alloc.log().allocations() == 0);
      stream.sync();
      if (custom)
      {
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(dc), hc);
      }
      else
      {
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(di), hi);
      }
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(dv), positions);
      stream.alloc.log().fail_at(0, exec_test::failure::none);
      call();
      stream.sync();
      CHECK(stream.alloc.log().allocations() == 1);
      stream.require_clean();
    };
    check("strata::sort_by_key", false, [&] {
      strata::sort_by_key(p, di.begin(), di.end(), dv.begin());
    });
    check("strata::stable_sort_by_key", false, [&] {
      strata::stable_sort_by_key(p, di.begin(), di.end(), dv.begin(), cuda::std::greater<>{});
    });
    check("strata::sort_by_key", true, [&] {
      strata::sort_by_key(p, dc.begin(), dc.end(), dv.begin(), custom_by_bc{});
    });
    check("strata::stable_sort_by_key", true, [&] {
      strata::stable_sort_by_key(p, dc.begin(), dc.end(), dv.begin(), custom_by_bc{});
    });
  }
}

TEST_CASE("strata::sort_by_key and stable_sort_by_key of empty and one-item ranges touch nothing",
          "[execution][sort_by_key][empty]")
{
  exec_test::logged_stream stream;
  const auto& p    = stream.policy;
  int* const keys  = nullptr;
  unsigned* values = nullptr;
  strata::sort_by_key(p, keys, keys, values);
  strata::sort_by_key(p, keys, keys, values, cuda::std::greater<>{});
  strata::stable_sort_by_key(p, keys, keys, values, by_magnitude{});
  custom_t* const custom_keys = nullptr;
  strata::stable_sort_by_key(p, custom_keys, custom_keys, values, custom_by_bc{});

  thrust::device_vector<int> dk      = exec_test::upload(std::vector<int>{9, 4, 1});
  thrust::device_vector<unsigned> dv = exec_test::upload(std::vector<unsigned>{0, 1, 2});
  strata::sort_by_key(p, dk.begin() + 1, dk.begin() + 1, dv.begin());
  strata::sort_by_key(p, dk.begin() + 1, dk.begin() + 2, dv.begin());
  strata::stable_sort_by_key(p, dk.begin(), dk.begin() + 1, dv.begin(), by_magnitude{});
  stream.sync();
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(dk), (std::vector<int>{9, 4, 1}));
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(dv), (std::vector<unsigned>{0, 1, 2}));
  CHECK(stream.alloc.log().allocations() == 0);
  stream.require_clean();
}
