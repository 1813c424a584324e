// strata's execution policies and allocators: what par, par.on(stream) and par(alloc) hold; every kind of allocator a
// policy accepts (stream-ordered, libcu++ asynchronous and synchronous resources, through cuda::mr resource_refs too,
// Thrust-style allocators, thrust::device_allocator, the pool); allocators that throw or return null (a
// strata::cuda_error naming the algorithm, nothing leaked, outputs untouched, the next call fine); bad arguments
// (last before first, null pointers through the device layer's single-phase forms); .on(cuda::stream_ref); the legacy
// default stream; host-value calls on a stream being captured.
#define LIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE
#include "support.cuh"

#include <cuda/memory_resource>
#include <cuda/std/functional>

#include <thrust/device_allocator.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>

#include <chrono>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace
{
using exec_test::add_one;
using exec_test::is_odd;
using exec_test::returns;
using exec_test::twice;

// The test resources with the property libcu++'s resource_refs ask for.
struct mr_async_resource : exec_test::async_resource
{
  friend void get_property(const mr_async_resource&, cuda::mr::device_accessible) noexcept {}
};
struct mr_sync_resource : exec_test::sync_resource
{
  friend void get_property(const mr_sync_resource&, cuda::mr::device_accessible) noexcept {}
};
static_assert(cuda::mr::async_resource_with<mr_async_resource, cuda::mr::device_accessible>,
              "the test's asynchronous resource is a libcu++ async_resource");
static_assert(cuda::mr::resource_with<mr_sync_resource, cuda::mr::device_accessible>,
              "the test's synchronous resource is a libcu++ resource");

struct index_op
{
  int* out;
  __host__ __device__ void operator()(int i) const
  {
    out[i] = i;
  }
};

// Inputs and outputs for the catalogs of calls below: n ints, keys in runs, a map, poisoned outputs.
struct arena
{
  static constexpr std::size_t n  = std::size_t(1) << 20; // many tiles: every algorithm needs temporary storage
  std::vector<int> h_in           = strata_test::random_vector<int>(n, 1);
  thrust::device_vector<int> in   = exec_test::upload(h_in);
  thrust::device_vector<int> keys = exec_test::upload([] {
    std::vector<int> k(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      k[i] = static_cast<int>(i / 77);
    }
    return k;
  }());
  thrust::device_vector<int> map  = exec_test::upload([] {
    std::vector<int> m(n);
    std::iota(m.rbegin(), m.rend(), 0);
    return m;
  }());
  thrust::device_vector<int> out  = thrust::device_vector<int>(n);

  int* d_in()
  {
    return thrust::raw_pointer_cast(in.data());
  }
  int* d_keys()
  {
    return thrust::raw_pointer_cast(keys.data());
  }
  int* d_map()
  {
    return thrust::raw_pointer_cast(map.data());
  }
  int* d_out()
  {
    return thrust::raw_pointer_cast(out.data());
  }
};

// each(name, call) for one call of every frontend algorithm that takes temporary storage, over the arena's n items.
template <typename Policy, typename Each>
void for_each_allocating_call(const Policy& p, arena& a, Each&& each)
{
  int* const in  = a.d_in();
  int* const end = in + arena::n;
  int* const out = a.d_out();
  each("strata::reduce", [=] {
    (void) strata::reduce(p, in, end, 1);
  });
  each("strata::reduce_into", [=] {
    strata::reduce_into(p, in, end, out, 1);
  });
  each("strata::transform_reduce", [=] {
    (void) strata::transform_reduce(p, in, end, 0, cuda::std::plus<>{}, twice{});
  });
  each("strata::inner_product", [=] {
    (void) strata::inner_product(p, in, end, in, 0);
  });
  each("strata::count", [=] {
    (void) strata::count(p, in, end, 5);
  });
  each("strata::count_if", [=] {
    (void) strata::count_if(p, in, end, is_odd{});
  });
  each("strata::all_of", [=] {
    (void) strata::all_of(p, in, end, is_odd{});
  });
  each("strata::any_of", [=] {
    (void) strata::any_of(p, in, end, is_odd{});
  });
  each("strata::none_of", [=] {
    (void) strata::none_of(p, in, end, is_odd{});
  });
  each("strata::equal", [=] {
    (void) strata::equal(p, in, end, in);
  });
  each("strata::min_element", [=] {
    (void) strata::min_element(p, in, end);
  });
  each("strata::max_element", [=] {
    (void) strata::max_element(p, in, end);
  });
  each("strata::minmax_element", [=] {
    (void) strata::minmax_element(p, in, end);
  });
  each("strata::inclusive_scan", [=] {
    strata::inclusive_scan(p, in, end, out);
  });
  each("strata::exclusive_scan", [=] {
    strata::exclusive_scan(p, in, end, out, 3);
  });
  each("strata::transform_inclusive_scan", [=] {
    strata::transform_inclusive_scan(p, in, end, out, cuda::std::plus<>{}, twice{});
  });
  each("strata::transform_exclusive_scan", [=] {
    strata::transform_exclusive_scan(p, in, end, out, 0, cuda::std::plus<>{}, twice{});
  });
  int* const keys = a.d_keys();
  each("strata::inclusive_scan_by_key", [=] {
    strata::inclusive_scan_by_key(p, keys, keys + arena::n, in, out);
  });
  each("strata::exclusive_scan_by_key", [=] {
    strata::exclusive_scan_by_key(p, keys, keys + arena::n, in, out, 2);
  });
}

// each(name, call) for one call of every frontend algorithm with last before first (a range of -10 items).
template <typename Policy, typename Each>
void for_each_call_with_reversed_range(const Policy& p, arena& a, Each&& each)
{
  int* const first = a.d_in() + 10;
  int* const last  = a.d_in();
  int* const out   = a.d_out();
  int* const keys  = a.d_keys() + 10;
  int* const map   = a.d_map() + 10;
  each("strata::reduce", [=] {
    (void) strata::reduce(p, first, last);
  });
  each("strata::reduce_into", [=] {
    strata::reduce_into(p, first, last, out);
  });
  each("strata::transform_reduce", [=] {
    (void) strata::transform_reduce(p, first, last, 0, cuda::std::plus<>{}, twice{});
  });
  each("strata::inner_product", [=] {
    (void) strata::inner_product(p, first, last, first, 0);
  });
  each("strata::count", [=] {
    (void) strata::count(p, first, last, 5);
  });
  each("strata::count_if", [=] {
    (void) strata::count_if(p, first, last, is_odd{});
  });
  each("strata::all_of", [=] {
    (void) strata::all_of(p, first, last, is_odd{});
  });
  each("strata::any_of", [=] {
    (void) strata::any_of(p, first, last, is_odd{});
  });
  each("strata::none_of", [=] {
    (void) strata::none_of(p, first, last, is_odd{});
  });
  each("strata::equal", [=] {
    (void) strata::equal(p, first, last, first);
  });
  each("strata::min_element", [=] {
    (void) strata::min_element(p, first, last);
  });
  each("strata::max_element", [=] {
    (void) strata::max_element(p, first, last);
  });
  each("strata::minmax_element", [=] {
    (void) strata::minmax_element(p, first, last);
  });
  each("strata::inclusive_scan", [=] {
    strata::inclusive_scan(p, first, last, out);
  });
  each("strata::exclusive_scan", [=] {
    strata::exclusive_scan(p, first, last, out, 3);
  });
  each("strata::transform_inclusive_scan", [=] {
    strata::transform_inclusive_scan(p, first, last, out, cuda::std::plus<>{}, twice{});
  });
  each("strata::transform_exclusive_scan", [=] {
    strata::transform_exclusive_scan(p, first, last, out, 0, cuda::std::plus<>{}, twice{});
  });
  each("strata::inclusive_scan_by_key", [=] {
    strata::inclusive_scan_by_key(p, keys, keys - 10, first, out);
  });
  each("strata::exclusive_scan_by_key", [=] {
    strata::exclusive_scan_by_key(p, keys, keys - 10, first, out, 2);
  });
  each("strata::transform", [=] {
    strata::transform(p, first, last, out, twice{});
  });
  each("strata::for_each", [=] {
    strata::for_each(p, out + 10, out, add_one{});
  });
  each("strata::for_each_n", [=] {
    strata::for_each_n(p, out, -10, add_one{});
  });
  each("strata::fill", [=] {
    strata::fill(p, out + 10, out, 1);
  });
  each("strata::fill_n", [=] {
    strata::fill_n(p, out, -10, 1);
  });
  each("strata::copy", [=] {
    strata::copy(p, first, last, out);
  });
  each("strata::copy_n", [=] {
    strata::copy_n(p, first, -10, out);
  });
  each("strata::sequence", [=] {
    strata::sequence(p, out + 10, out);
  });
  each("strata::tabulate", [=] {
    strata::tabulate(p, out + 10, out, twice{});
  });
  each("strata::generate", [=] {
    strata::generate(p, out + 10, out, returns<int>{7});
  });
  each("strata::gather", [=] {
    strata::gather(p, map, map - 10, first, out);
  });
  each("strata::scatter", [=] {
    strata::scatter(p, first, last, map, out);
  });
}
} // namespace

TEST_CASE("strata::par, par.on(stream) and par(alloc) hold what they are given", "[execution][policy]")
{
  using pool_policy = strata::execution_policy<strata::pool_allocator>;
  static_assert(std::is_same<std::remove_cv_t<decltype(strata::par)>, pool_policy>::value, "par uses the pool");
  static_assert(std::is_base_of<thrust::cuda_cub::execution_policy<pool_policy>, pool_policy>::value,
                "a strata policy is a Thrust CUDA policy");
  static_assert(strata::is_execution_policy_v<decltype(strata::par)>, "");
  static_assert(strata::is_execution_policy_v<decltype(strata::par.on(cudaStream_t{}))>, "");
  static_assert(!strata::is_execution_policy_v<int>, "");
  static_assert(!strata::is_execution_policy_v<decltype(thrust::cuda::par)>, "Thrust's own policy is not strata's");
  static_assert(!strata::is_execution_policy_v<decltype(thrust::device)>, "");

  exec_test::stream_allocator alloc;
  static_assert(
    std::is_same<decltype(strata::par(alloc)), strata::execution_policy<exec_test::stream_allocator&>>::value,
    "an lvalue allocator is held by reference");
  static_assert(std::is_same<decltype(strata::par(exec_test::stream_allocator{})),
                             strata::execution_policy<exec_test::stream_allocator>>::value,
                "an rvalue allocator is held by value");
  static_assert(strata::is_execution_policy_v<decltype(strata::par(alloc))>, "");
  static_assert(strata::is_execution_policy_v<const decltype(strata::par(alloc).on(cudaStream_t{}))&>, "");

  cudaStream_t s = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(strata::par.stream() == cudaStreamLegacy);
  CHECK(strata::par.on(s).stream() == s);
  CHECK(strata::par.on(cuda::stream_ref{s}).stream() == s);
  CHECK(strata::par.on(cudaStream_t{nullptr}).stream() == cudaStreamLegacy);
  CHECK(strata::par.stream() == cudaStreamLegacy); // .on() made a new policy

  CHECK(&strata::par(alloc).allocator() == &alloc);
  CHECK(&strata::par(alloc).on(s).allocator() == &alloc);
  CHECK(&strata::par.on(s)(alloc).allocator() == &alloc);
  CHECK(strata::par(alloc).on(s).stream() == s);
  CHECK(strata::par.on(s)(alloc).stream() == s);
  CHECK(strata::par(alloc).stream() == cudaStreamLegacy);

  exec_test::stream_allocator copy = alloc;
  const auto held                  = strata::par(std::move(copy)).on(s);
  CHECK(&held.allocator() != &alloc);
  CHECK(&held.allocator() != &copy);
  CHECK(&held.allocator().log() == &alloc.log()); // the test allocator's copies share their log
  STRATA_TEST_CUDA(cudaStreamDestroy(s));
}

namespace
{
// Runs a host-value reduce and an asynchronous inclusive_scan through `policy` and checks their results; with
// `gated`, the scan must return before its kernels run behind a gate on `stream`.
template <typename Policy>
void check_runs(const Policy& policy, exec_test::gated_stream& stream, bool gated)
{
  const std::size_t n          = 1000003;
  const std::vector<int> h     = strata_test::random_vector<int>(n, 7);
  thrust::device_vector<int> d = exec_test::upload(h);
  CHECK(strata::reduce(policy, d.begin(), d.end(), 0LL) == std::accumulate(h.begin(), h.end(), 0LL));
  std::vector<int> sums(n);
  std::inclusive_scan(h.begin(), h.end(), sums.begin());
  if (gated)
  {
    exec_test::check_behind_gate(stream, h, sums, [&](auto first, auto last, auto out) {
      strata::inclusive_scan(policy, first, last, out);
    });
  }
  else
  {
    thrust::device_vector<int> out(n);
    exec_test::poison(out);
    strata::inclusive_scan(policy, d.begin(), d.end(), out.begin());
    stream.sync();
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), sums);
  }
}
} // namespace

TEST_CASE("every kind of allocator serves strata's temporary storage on the policy's stream",
          "[execution][policy][allocator]")
{
  exec_test::gated_stream stream;
  const cudaStream_t s = stream.get();
  SECTION("a stream-ordered allocator, held by reference")
  {
    exec_test::stream_allocator alloc;
    check_runs(strata::par(alloc).on(s), stream, true);
    CHECK(alloc.log().allocations() >= 2);
    EXEC_TEST_REQUIRE_CLEAN(alloc.log(), s);
  }
  SECTION("a stream-ordered allocator, held by value")
  {
    exec_test::stream_allocator alloc;
    check_runs(strata::par(exec_test::stream_allocator(alloc)).on(s), stream, true);
    CHECK(alloc.log().allocations() >= 2);
    EXEC_TEST_REQUIRE_CLEAN(alloc.log(), s);
  }
  SECTION("a libcu++ asynchronous resource")
  {
    exec_test::async_resource resource;
    check_runs(strata::par(resource).on(s), stream, true);
    CHECK(resource.log().allocations() >= 2);
    EXEC_TEST_REQUIRE_CLEAN(resource.log(), s);
  }
  SECTION("cuda::mr::async_resource_ref")
  {
    mr_async_resource resource;
    cuda::mr::async_resource_ref<cuda::mr::device_accessible> ref{resource};
    check_runs(strata::par(ref).on(s), stream, true);
    CHECK(resource.log().allocations() >= 2);
    EXEC_TEST_REQUIRE_CLEAN(resource.log(), s);
  }
  SECTION("a libcu++ synchronous resource: memory comes back once the stream is done with it")
  {
    exec_test::sync_resource resource;
    resource.watched = s;
    check_runs(strata::par(resource).on(s), stream, false);
    CHECK(resource.log().allocations() >= 2);
    const std::string problems = resource.log().problems(nullptr);
    INFO(problems);
    CHECK(problems.empty());
  }
  SECTION("cuda::mr::resource_ref")
  {
    mr_sync_resource resource;
    resource.watched = s;
    cuda::mr::resource_ref<cuda::mr::device_accessible> ref{resource};
    check_runs(strata::par(ref).on(s), stream, false);
    CHECK(resource.log().allocations() >= 2);
    const std::string problems = resource.log().problems(nullptr);
    INFO(problems);
    CHECK(problems.empty());
  }
  SECTION("a Thrust-style allocator of 4-byte elements")
  {
    exec_test::thrust_style_allocator alloc;
    check_runs(strata::par(alloc).on(s), stream, false);
    CHECK(alloc.log().allocations() >= 2);
    const std::string problems = alloc.log().problems(nullptr);
    INFO(problems);
    CHECK(problems.empty());
  }
  SECTION("thrust::device_allocator")
  {
    thrust::device_allocator<char> alloc;
    check_runs(strata::par(alloc).on(s), stream, false);
  }
  SECTION("the pool, named")
  {
    check_runs(strata::par(strata::pool_allocator{}).on(s), stream, true);
  }
  SECTION("the pool, by default")
  {
    check_runs(strata::par.on(s), stream, true);
  }
}

namespace
{
// Every allocating algorithm with `alloc` failing its first allocation as `how`: a strata::cuda_error naming the
// algorithm, nothing held, the output untouched; then the same call with the allocator working succeeds.
template <typename Allocator>
void check_allocation_failures(Allocator& alloc, exec_test::failure how, bool stream_ordered)
{
  exec_test::gated_stream stream;
  const cudaStream_t s = stream.get();
  arena a;
  const auto policy = strata::par(alloc).on(s);
  for_each_allocating_call(policy, a, [&](const char* name, auto call) {
    INFO(name);
    exec_test::poison(a.out);
    alloc.log().clear();
    alloc.log().fail_at(1, how);
    exec_test::require_cuda_error(call, cudaErrorMemoryAllocation, name);
    CHECK(alloc.log().failed() == 1);
    CHECK(alloc.log().allocations() == 0);
    stream.sync();
    CHECK(exec_test::all_poisoned(exec_test::download(a.out)));

    alloc.log().fail_at(0, exec_test::failure::none);
    call();
    stream.sync();
    CHECK(alloc.log().allocations() == 1);
    const std::string problems = alloc.log().problems(s, stream_ordered);
    INFO("allocator: " << problems);
    CHECK(problems.empty());
  });
}
} // namespace

TEST_CASE("an allocator that throws or returns null makes every algorithm throw strata::cuda_error, leaking nothing",
          "[execution][policy][allocator][errors]")
{
  for (const exec_test::failure how : {exec_test::failure::throws, exec_test::failure::returns_null})
  {
    CAPTURE(how == exec_test::failure::throws ? "throws" : "returns null");
    {
      INFO("stream-ordered allocator");
      exec_test::stream_allocator alloc;
      check_allocation_failures(alloc, how, true);
    }
    {
      INFO("libcu++ asynchronous resource");
      exec_test::async_resource resource;
      check_allocation_failures(resource, how, true);
    }
    {
      INFO("libcu++ synchronous resource");
      exec_test::sync_resource resource;
      check_allocation_failures(resource, how, false);
    }
    {
      INFO("Thrust-style allocator");
      exec_test::thrust_style_allocator alloc;
      check_allocation_failures(alloc, how, false);
    }
  }
}

TEST_CASE("every algorithm given last before first throws cudaErrorInvalidValue and touches nothing",
          "[execution][policy][errors]")
{
  exec_test::logged_stream stream;
  arena a;
  const auto policy = stream.policy;
  for_each_call_with_reversed_range(policy, a, [&](const char* name, auto call) {
    INFO(name);
    exec_test::poison(a.out);
    stream.alloc.log().clear();
    exec_test::require_cuda_error(call, cudaErrorInvalidValue, name);
    stream.sync();
    CHECK(exec_test::all_poisoned(exec_test::download(a.out)));
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(a.in), a.h_in);
    CHECK(stream.alloc.log().allocations() == 0);
  });
}

TEST_CASE("the device layer's single-phase forms reject null pointers and give back what they took",
          "[execution][policy][errors][device]")
{
  exec_test::logged_stream stream;
  arena a;
  const auto policy                               = stream.policy;
  int* const null                                 = nullptr;
  int* const in                                   = a.d_in();
  int* const out                                  = a.d_out();
  const int n                                     = static_cast<int>(arena::n);
  strata::KeyValuePair<int, int>* const null_pair = nullptr;
  auto rejects                                    = [&](const char* name, cudaError_t error) {
    INFO(name);
    CHECK(error == cudaErrorInvalidValue);
    stream.sync();
    stream.require_clean();
    CHECK(exec_test::all_poisoned(exec_test::download(a.out)));
    stream.alloc.log().clear();
  };
  exec_test::poison(a.out);
  rejects("DeviceReduce::Sum, null input", strata::DeviceReduce::Sum(null, out, n, policy));
  rejects("DeviceReduce::Sum, null output", strata::DeviceReduce::Sum(in, null, n, policy));
  rejects("DeviceReduce::Sum, negative count", strata::DeviceReduce::Sum(in, out, -1, policy));
  rejects("DeviceReduce::Reduce, null input",
          strata::DeviceReduce::Reduce(null, out, n, cuda::std::plus<>{}, 0, policy));
  rejects("DeviceReduce::Min, null input", strata::DeviceReduce::Min(null, out, n, policy));
  rejects("DeviceReduce::Max, null output", strata::DeviceReduce::Max(in, null, n, policy));
  rejects("DeviceReduce::ArgMax, null output", strata::DeviceReduce::ArgMax(in, null_pair, n, policy));
  rejects("DeviceReduce::TransformReduce, null input",
          strata::DeviceReduce::TransformReduce(null, out, n, cuda::std::plus<>{}, twice{}, 0, policy));
  rejects("DeviceScan::InclusiveSum, null input", strata::DeviceScan::InclusiveSum(null, out, n, policy));
  rejects("DeviceScan::ExclusiveSum, null output", strata::DeviceScan::ExclusiveSum(in, null, n, policy));
  rejects("DeviceScan::InclusiveSum in place, null", strata::DeviceScan::InclusiveSum(null, n, policy));
  rejects("DeviceScan::InclusiveScan, negative count",
          strata::DeviceScan::InclusiveScan(in, out, cuda::std::plus<>{}, -3, policy));
  rejects("DeviceScan::ExclusiveScan, null input",
          strata::DeviceScan::ExclusiveScan(null, out, cuda::std::plus<>{}, 0, n, policy));
  rejects("DeviceScan::InclusiveScanInit, null output",
          strata::DeviceScan::InclusiveScanInit(in, null, cuda::std::plus<>{}, 0, n, policy));
  rejects("DeviceScan::InclusiveSumByKey, null keys", strata::DeviceScan::InclusiveSumByKey(null, in, out, n, policy));
  rejects("DeviceScan::ExclusiveScanByKey, null values",
          strata::DeviceScan::ExclusiveScanByKey(in, null, out, cuda::std::plus<>{}, 0, n, policy));
  rejects("DeviceTransform::Transform, null input", strata::DeviceTransform::Transform(null, out, n, twice{}, policy));
  rejects("DeviceTransform::Transform, null output", strata::DeviceTransform::Transform(in, null, n, twice{}, policy));
  rejects("DeviceTransform::Transform, negative count",
          strata::DeviceTransform::Transform(in, out, -2, twice{}, policy));
  rejects("DeviceFor::ForEachN, null", strata::DeviceFor::ForEachN(null, n, add_one{}, policy));
  rejects("DeviceFor::ForEachCopyN, negative count", strata::DeviceFor::ForEachCopyN(in, -1, twice{}, policy));
  rejects("DeviceFor::Bulk, negative shape", strata::DeviceFor::Bulk(-5, index_op{out}, policy));
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(a.in), a.h_in);
}

TEST_CASE("par.on(cuda::stream_ref) runs on that stream", "[execution][policy][stream]")
{
  exec_test::logged_stream stream;
  const cuda::stream_ref ref{stream.get()};
  check_runs(strata::par(stream.alloc).on(ref), stream, true);
  stream.require_clean();
}

TEST_CASE("a policy without a stream runs on the legacy default stream", "[execution][policy][stream]")
{
  // The legacy default stream waits for blocking streams: a gate on a blocking stream holds back work enqueued on it
  // (and nothing on a non-blocking stream).
  exec_test::gated_stream blocking(cudaStreamDefault);
  exec_test::stream_allocator alloc;
  const std::size_t n      = 1000003;
  const std::vector<int> h = strata_test::random_vector<int>(n, 11);
  std::vector<int> sums(n);
  std::inclusive_scan(h.begin(), h.end(), sums.begin());
  thrust::device_vector<int> d = exec_test::upload(h);
  thrust::device_vector<int> out(n);
  // A first call outside the gate, so that nothing the first call does once (such as reading device attributes) runs
  // while the legacy stream is held.
  strata::inclusive_scan(strata::par(alloc), d.begin(), d.end(), out.begin());
  exec_test::poison(out);
  alloc.log().clear();

  blocking.close();
  strata::inclusive_scan(strata::par(alloc), d.begin(), d.end(), out.begin());
  CHECK(exec_test::all_poisoned(blocking.peek(out)));
  blocking.open();
  STRATA_TEST_CUDA(cudaStreamSynchronize(cudaStreamLegacy));
  CHECK_FALSE(blocking.timed_out());
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), sums);
  CHECK(alloc.log().allocations() == 1);
  EXEC_TEST_REQUIRE_CLEAN(alloc.log(), cudaStreamLegacy);

  // The default pool, too.
  exec_test::poison(out);
  strata::exclusive_scan(strata::par, d.begin(), d.end(), out.begin(), 0);
  STRATA_TEST_CUDA(cudaStreamSynchronize(cudaStreamLegacy));
  std::exclusive_scan(h.begin(), h.end(), sums.begin(), 0);
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), sums);
  CHECK(strata::reduce(strata::par, d.begin(), d.end(), 0LL) == std::accumulate(h.begin(), h.end(), 0LL));
}

TEST_CASE("host-value algorithms throw on a stream being captured, and leave the capture intact",
          "[execution][policy][graph][errors]")
{
  exec_test::logged_stream stream;
  arena a;
  const auto policy    = stream.policy;
  int* const in        = a.d_in();
  int* const end       = in + arena::n;
  auto while_capturing = [&](const char* name, auto call) {
    exec_test::require_thrown_while_capturing(stream, cudaStreamCaptureModeGlobal, cudaErrorStreamCaptureUnsupported,
                                              name, call);
  };
  while_capturing("strata::reduce", [&] {
    (void) strata::reduce(policy, in, end);
  });
  while_capturing("strata::transform_reduce", [&] {
    (void) strata::transform_reduce(policy, in, end, 0, cuda::std::plus<>{}, twice{});
  });
  while_capturing("strata::count_if", [&] {
    (void) strata::count_if(policy, in, end, is_odd{});
  });
  while_capturing("strata::all_of", [&] {
    (void) strata::all_of(policy, in, end, is_odd{});
  });
  while_capturing("strata::equal", [&] {
    (void) strata::equal(policy, in, end, in);
  });
  while_capturing("strata::min_element", [&] {
    (void) strata::min_element(policy, in, end);
  });
  while_capturing("strata::minmax_element", [&] {
    (void) strata::minmax_element(policy, in, end);
  });

  // The stream works as before.
  CHECK(strata::reduce(policy, a.in.begin(), a.in.end(), 0LL) == std::accumulate(a.h_in.begin(), a.h_in.end(), 0LL));
}

TEST_CASE("strata::cuda_error is a std::system_error in the CUDA category", "[execution][policy][errors]")
{
  const strata::cuda_error e(cudaErrorInvalidValue, "strata::something");
  const std::system_error& base = e;
  CHECK(base.code().value() == static_cast<int>(cudaErrorInvalidValue));
  CHECK(std::string(base.code().category().name()) == "cuda");
  CHECK(e.error() == cudaErrorInvalidValue);
  const std::string what = e.what();
  CHECK(what.find("strata::something: ") == 0);
  CHECK(what.find("cudaErrorInvalidValue") != std::string::npos);
}
