// Thrust code that passes strata's policy: algorithms strata implements run strata's (found by argument-dependent
// lookup: the NVTX hooks record strata's entry point and no CUB entry point), with results equal to std::'s; Thrust
// passing its own policy runs CUB (the control that shows the hooks see the difference). Algorithms strata lacks run
// Thrust's CUDA backend on the policy's stream, with every temporary buffer taken from the policy's allocator (or
// strata's pool) and given back, also when an allocation fails. (thrust_compat_*.cu compare every such call's results
// with Thrust's own.)
#include "support.cuh"

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/gather.h>
#include <thrust/generate.h>
#include <thrust/inner_product.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/logical.h>
#include <thrust/partition.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/scatter.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/tabulate.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/transform_scan.h>
#include <thrust/unique.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>
#include <vector>

namespace
{
using exec_test::add_one;
using exec_test::is_odd;
using exec_test::returns;
using exec_test::twice;

// Runs `call` and checks that exactly the strata entry point `name` opened, and no CUB entry point.
template <typename Call>
void check_strata_ran(const std::string& name, Call&& call)
{
  INFO(name);
  exec_test::entries().clear();
  call();
  const exec_test::entry_log seen = exec_test::entries();
  CHECK(seen.strata == std::vector<std::string>{name});
  INFO("CUB entry points: " << (seen.cub.empty() ? std::string("none") : seen.cub.front()));
  CHECK(seen.cub.empty());
}
} // namespace

TEST_CASE("Thrust's algorithms given strata's policy run strata's implementation", "[execution][thrust]")
{
  exec_test::logged_stream stream;
  const auto p                 = stream.policy;
  const std::size_t n          = 1000003;
  const std::vector<int> h     = strata_test::random_vector<int>(n, 1);
  thrust::device_vector<int> d = exec_test::upload(h);
  thrust::device_vector<int> out(n);
  thrust::device_vector<int> keys = exec_test::upload([&] {
    std::vector<int> k(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      k[i] = static_cast<int>(i / 100);
    }
    return k;
  }());
  std::vector<int> reversed_index(n);
  std::iota(reversed_index.rbegin(), reversed_index.rend(), 0);
  thrust::device_vector<int> map = exec_test::upload(reversed_index);
  std::vector<int> expected(n);
  auto output = [&] {
    stream.sync();
    return exec_test::download(out);
  };

  check_strata_ran("strata::reduce", [&] {
    CHECK(thrust::reduce(p, d.begin(), d.end(), 0LL) == std::accumulate(h.begin(), h.end(), 0LL));
  });
  check_strata_ran("strata::reduce", [&] {
    CHECK(thrust::reduce(p, d.begin(), d.end(), -1, thrust::maximum<int>{}) == *std::max_element(h.begin(), h.end()));
  });
  check_strata_ran("strata::transform_reduce", [&] {
    CHECK(thrust::transform_reduce(p, d.begin(), d.end(), twice{}, 0LL, thrust::plus<long long>{})
          == 2 * std::accumulate(h.begin(), h.end(), 0LL));
  });
  check_strata_ran("strata::inner_product", [&] {
    CHECK(
      thrust::inner_product(p, d.begin(), d.end(), d.begin(), 0LL, thrust::plus<long long>{}, thrust::minimum<int>{})
      == std::accumulate(h.begin(), h.end(), 0LL));
  });
  check_strata_ran("strata::count", [&] {
    CHECK(thrust::count(p, d.begin(), d.end(), h[n / 2]) == std::count(h.begin(), h.end(), h[n / 2]));
  });
  check_strata_ran("strata::count_if", [&] {
    CHECK(thrust::count_if(p, d.begin(), d.end(), is_odd{}) == std::count_if(h.begin(), h.end(), is_odd{}));
  });
  check_strata_ran("strata::all_of", [&] {
    CHECK_FALSE(thrust::all_of(p, d.begin(), d.end(), is_odd{}));
  });
  check_strata_ran("strata::any_of", [&] {
    CHECK(thrust::any_of(p, d.begin(), d.end(), is_odd{}));
  });
  check_strata_ran("strata::none_of", [&] {
    CHECK_FALSE(thrust::none_of(p, d.begin(), d.end(), is_odd{}));
  });
  check_strata_ran("strata::equal", [&] {
    CHECK(thrust::equal(p, d.begin(), d.end(), d.begin()));
  });
  check_strata_ran("strata::min_element", [&] {
    CHECK(thrust::min_element(p, d.begin(), d.end()) - d.begin() == std::min_element(h.begin(), h.end()) - h.begin());
  });
  check_strata_ran("strata::max_element", [&] {
    CHECK(thrust::max_element(p, d.begin(), d.end()) - d.begin() == std::max_element(h.begin(), h.end()) - h.begin());
  });
  check_strata_ran("strata::minmax_element", [&] {
    const auto mm = thrust::minmax_element(p, d.begin(), d.end());
    CHECK(mm.first - d.begin() == std::min_element(h.begin(), h.end()) - h.begin());
    CHECK(mm.second - d.begin() == std::max_element(h.begin(), h.end()) - h.begin());
  });

  check_strata_ran("strata::inclusive_scan", [&] {
    thrust::inclusive_scan(p, d.begin(), d.end(), out.begin());
  });
  std::inclusive_scan(h.begin(), h.end(), expected.begin());
  STRATA_REQUIRE_EQUAL_VECTORS(output(), expected);
  check_strata_ran("strata::inclusive_scan", [&] {
    thrust::inclusive_scan(p, d.begin(), d.end(), out.begin(), 5, thrust::plus<int>{});
  });
  std::inclusive_scan(h.begin(), h.end(), expected.begin(), std::plus<>{}, 5);
  STRATA_REQUIRE_EQUAL_VECTORS(output(), expected);
  check_strata_ran("strata::exclusive_scan", [&] {
    thrust::exclusive_scan(p, d.begin(), d.end(), out.begin(), 5);
  });
  std::exclusive_scan(h.begin(), h.end(), expected.begin(), 5);
  STRATA_REQUIRE_EQUAL_VECTORS(output(), expected);
  check_strata_ran("strata::transform_inclusive_scan", [&] {
    thrust::transform_inclusive_scan(p, d.begin(), d.end(), out.begin(), twice{}, thrust::plus<int>{});
  });
  std::transform_inclusive_scan(h.begin(), h.end(), expected.begin(), std::plus<>{}, twice{});
  STRATA_REQUIRE_EQUAL_VECTORS(output(), expected);
  check_strata_ran("strata::transform_exclusive_scan", [&] {
    thrust::transform_exclusive_scan(p, d.begin(), d.end(), out.begin(), twice{}, 1, thrust::plus<int>{});
  });
  std::transform_exclusive_scan(h.begin(), h.end(), expected.begin(), 1, std::plus<>{}, twice{});
  STRATA_REQUIRE_EQUAL_VECTORS(output(), expected);
  check_strata_ran("strata::inclusive_scan_by_key", [&] {
    thrust::inclusive_scan_by_key(p, keys.begin(), keys.end(), d.begin(), out.begin());
  });
  for (std::size_t i = 0; i < n; ++i)
  {
    expected[i] = i % 100 == 0 ? h[i] : expected[i - 1] + h[i];
  }
  STRATA_REQUIRE_EQUAL_VECTORS(output(), expected);
  check_strata_ran("strata::exclusive_scan_by_key", [&] {
    thrust::exclusive_scan_by_key(p, keys.begin(), keys.end(), d.begin(), out.begin(), 3);
  });
  for (std::size_t i = 0; i < n; ++i)
  {
    expected[i] = i % 100 == 0 ? 3 : expected[i - 1] + h[i - 1];
  }
  STRATA_REQUIRE_EQUAL_VECTORS(output(), expected);

  check_strata_ran("strata::transform", [&] {
    thrust::transform(p, d.begin(), d.end(), out.begin(), twice{});
  });
  std::transform(h.begin(), h.end(), expected.begin(), twice{});
  STRATA_REQUIRE_EQUAL_VECTORS(output(), expected);
  check_strata_ran("strata::transform", [&] {
    thrust::transform(p, d.begin(), d.end(), d.begin(), out.begin(), thrust::minus<int>{});
  });
  STRATA_REQUIRE_EQUAL_VECTORS(output(), std::vector<int>(n, 0));
  check_strata_ran("strata::copy", [&] {
    thrust::copy(p, d.begin(), d.end(), out.begin());
  });
  STRATA_REQUIRE_EQUAL_VECTORS(output(), h);
  check_strata_ran("strata::gather", [&] {
    thrust::gather(p, map.begin(), map.end(), d.begin(), out.begin());
  });
  STRATA_REQUIRE_EQUAL_VECTORS(output(), std::vector<int>(h.rbegin(), h.rend()));
  check_strata_ran("strata::scatter", [&] {
    thrust::scatter(p, d.begin(), d.end(), map.begin(), out.begin());
  });
  STRATA_REQUIRE_EQUAL_VECTORS(output(), std::vector<int>(h.rbegin(), h.rend()));
  check_strata_ran("strata::fill", [&] {
    thrust::fill(p, out.begin(), out.end(), 4);
  });
  STRATA_REQUIRE_EQUAL_VECTORS(output(), std::vector<int>(n, 4));
  check_strata_ran("strata::fill_n", [&] {
    thrust::fill_n(p, out.begin(), n, 6);
  });
  STRATA_REQUIRE_EQUAL_VECTORS(output(), std::vector<int>(n, 6));
  check_strata_ran("strata::copy_n", [&] {
    thrust::copy_n(p, d.begin(), n, out.begin());
  });
  STRATA_REQUIRE_EQUAL_VECTORS(output(), h);
  check_strata_ran("strata::sequence", [&] {
    thrust::sequence(p, out.begin(), out.end(), 10, 3);
  });
  for (std::size_t i = 0; i < n; ++i)
  {
    expected[i] = 10 + 3 * static_cast<int>(i);
  }
  STRATA_REQUIRE_EQUAL_VECTORS(output(), expected);
  check_strata_ran("strata::tabulate", [&] {
    thrust::tabulate(p, out.begin(), out.end(), thrust::negate<int>{});
  });
  for (std::size_t i = 0; i < n; ++i)
  {
    expected[i] = -static_cast<int>(i);
  }
  STRATA_REQUIRE_EQUAL_VECTORS(output(), expected);
  check_strata_ran("strata::generate", [&] {
    thrust::generate(p, out.begin(), out.end(), returns<int>{7});
  });
  STRATA_REQUIRE_EQUAL_VECTORS(output(), std::vector<int>(n, 7));
  check_strata_ran("strata::for_each", [&] {
    thrust::for_each(p, out.begin(), out.end(), add_one{});
  });
  STRATA_REQUIRE_EQUAL_VECTORS(output(), std::vector<int>(n, 8));
  check_strata_ran("strata::for_each_n", [&] {
    thrust::for_each_n(p, out.begin(), n, add_one{});
  });
  STRATA_REQUIRE_EQUAL_VECTORS(output(), std::vector<int>(n, 9));

  stream.sync();
  stream.require_clean();
}

TEST_CASE("Thrust's algorithms given Thrust's policy run CUB, not strata (the hooks tell them apart)",
          "[execution][thrust]")
{
  exec_test::gated_stream stream;
  const std::vector<int> h     = strata_test::random_vector<int>(100003, 2);
  thrust::device_vector<int> d = exec_test::upload(h);
  exec_test::entries().clear();
  CHECK(thrust::reduce(thrust::cuda::par.on(stream.get()), d.begin(), d.end(), 0LL)
        == std::accumulate(h.begin(), h.end(), 0LL));
  const exec_test::entry_log seen = exec_test::entries();
  CHECK(seen.strata.empty());
  REQUIRE_FALSE(seen.cub.empty());
  CHECK(seen.cub.front().find("DeviceReduce") != std::string::npos);
}

namespace
{
// Thrust algorithms through `policy` on `stream`, strata's (stable_partition, unique, copy_if) and Thrust's own
// (reduce_by_key); checks their results against std::.
template <typename Policy>
void run_thrust_fallbacks(const Policy& policy, exec_test::gated_stream& stream)
{
  const std::size_t n      = 1000003;
  const std::vector<int> h = strata_test::random_vector<int>(n, 3);

  thrust::device_vector<int> d = exec_test::upload(h);
  // stable_partition: odd values first, each group in input order (with a temporary copy of the data).
  std::vector<int> partitioned = h;
  std::stable_partition(partitioned.begin(), partitioned.end(), is_odd{});
  thrust::stable_partition(policy, d.begin(), d.end(), is_odd{});
  stream.sync();
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), partitioned);
  exec_test::upload_into(d, h);

  // Few distinct keys, so unique and reduce_by_key have work to do.
  std::vector<int> small(n);
  std::transform(h.begin(), h.end(), small.begin(), [](int x) {
    return x & 255;
  });
  std::vector<int> small_sorted = small;
  std::sort(small_sorted.begin(), small_sorted.end());
  thrust::device_vector<int> d_small = exec_test::upload(small_sorted);
  const auto end                     = thrust::unique(policy, d_small.begin(), d_small.end());
  std::vector<int> distinct          = small_sorted;
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  REQUIRE(end - d_small.begin() == static_cast<std::ptrdiff_t>(distinct.size()));
  d_small.resize(distinct.size());
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d_small), distinct);

  // reduce_by_key over the sorted keys: the length of each run of equal keys.
  const thrust::device_vector<int> sorted_keys = exec_test::upload(small_sorted);
  thrust::device_vector<int> run_keys(distinct.size()), run_lengths(distinct.size());
  const auto runs = thrust::reduce_by_key(policy, sorted_keys.begin(), sorted_keys.end(),
                                          thrust::make_constant_iterator(1), run_keys.begin(), run_lengths.begin());
  stream.sync();
  REQUIRE(runs.first - run_keys.begin() == static_cast<std::ptrdiff_t>(distinct.size()));
  std::vector<int> lengths;
  for (const int key : distinct)
  {
    lengths.push_back(static_cast<int>(std::count(small_sorted.begin(), small_sorted.end(), key)));
  }
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(run_keys), distinct);
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(run_lengths), lengths);

  thrust::device_vector<int> odd(n);
  const auto odd_end = thrust::copy_if(policy, d.begin(), d.end(), odd.begin(), is_odd{});
  CHECK(odd_end - odd.begin() == std::count_if(h.begin(), h.end(), is_odd{}));
}
} // namespace

TEST_CASE("Thrust's own algorithms take their temporary buffers from the policy's allocator, on its stream",
          "[execution][thrust][allocator]")
{
  exec_test::logged_stream stream;
  run_thrust_fallbacks(stream.policy, stream);
  CHECK(stream.alloc.log().allocations() >= 4);
  stream.require_clean();
}

TEST_CASE("Thrust's own algorithms given strata's policy take their temporary buffers from strata's pool",
          "[execution][thrust][pool]")
{
  exec_test::gated_stream stream;
  const std::size_t n          = 1000003;
  thrust::device_vector<int> d = exec_test::upload(strata_test::random_vector<int>(n, 4));
  stream.sync();
  strata::reset_memory_pool_high_water_mark();
  const std::size_t before = strata::memory_pool_stats().high_water_mark;

  // Thrust's own policy: the temporary buffers come from elsewhere, the pool's mark stays.
  thrust::stable_partition(thrust::cuda::par.on(stream.get()), d.begin(), d.end(), is_odd{});
  stream.sync();
  CHECK(strata::memory_pool_stats().high_water_mark == before);

  // strata's policy: stable_partition's buffer (a copy of the n items) comes from the pool.
  exec_test::upload_into(d, strata_test::random_vector<int>(n, 5));
  thrust::stable_partition(strata::par.on(stream.get()), d.begin(), d.end(), is_odd{});
  stream.sync();
  CHECK(strata::memory_pool_stats().high_water_mark >= before + n * sizeof(int));
  CHECK(strata::memory_pool_stats().bytes_in_use == before);
}

TEST_CASE("thrust::sort with strata's policy returns before its kernels run, which run on the policy's stream",
          "[execution][thrust][stream]")
{
  exec_test::logged_stream stream;
  const std::size_t n      = 1000003;
  const std::vector<int> h = strata_test::random_vector<int>(n, 6);
  std::vector<int> sorted  = h;
  std::sort(sorted.begin(), sorted.end());
  thrust::device_vector<int> d = exec_test::upload(h);
  stream.close(std::chrono::seconds(5));
  thrust::sort(stream.policy, d.begin(), d.end());
  STRATA_REQUIRE_EQUAL_VECTORS(stream.peek(d), h);
  stream.open();
  stream.sync();
  CHECK_FALSE(stream.timed_out());
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), sorted);
  CHECK(stream.alloc.log().allocations() >= 1);
  stream.require_clean();
}

TEST_CASE("a Thrust algorithm whose temporary buffer cannot be had throws and loses no memory",
          "[execution][thrust][allocator][errors]")
{
  exec_test::logged_stream stream;
  const std::size_t n      = 1000003;
  const std::vector<int> h = strata_test::random_vector<int>(n, 7);
  thrust::device_vector<int> keys(n), values(n);
  auto sort_pairs = [&] {
    exec_test::upload_into(keys, h);
    exec_test::upload_into(values, h);
    thrust::sort_by_key(stream.policy, keys.begin(), keys.end(), values.begin());
    stream.sync();
  };
  sort_pairs();
  const std::size_t allocations = stream.alloc.log().allocations();
  REQUIRE(allocations >= 1);
  for (const exec_test::failure how : {exec_test::failure::throws, exec_test::failure::returns_null})
  {
    for (std::size_t k = 1; k <= allocations; ++k)
    {
      CAPTURE(k, how == exec_test::failure::throws ? "throws" : "returns null");
      stream.alloc.log().clear();
      stream.alloc.log().fail_at(k, how);
      CHECK_THROWS(sort_pairs());
      STRATA_TEST_CUDA(cudaStreamSynchronize(stream.get()));
      STRATA_TEST_CUDA(cudaGetLastError());
      CHECK(stream.alloc.log().failed() == 1);
      stream.require_clean();
    }
  }
  stream.alloc.log().fail_at(0, exec_test::failure::none);
  stream.alloc.log().clear();
  sort_pairs();
  std::vector<int> sorted = h;
  std::sort(sorted.begin(), sorted.end());
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(keys), sorted);
  stream.require_clean();
}
