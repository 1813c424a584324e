// DeviceFor directly: Bulk, ForEachN, ForEach, ForEachCopyN and ForEachCopy in every form (plain on a stream,
// two-phase, policy), over value types of every vector width, arrays that do not start on a vector boundary, every
// partial-tile remainder around the tiles of both kernels, thrust::device_ptr and fancy iterators; each item visited
// exactly once; bad arguments rejected before anything runs; no items launch nothing. More than 2^31 indices:
// device_large.cu.
#include "../execution/support.cuh"

#include <strata/device/device_for.cuh>

#include <thrust/detail/raw_reference_cast.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "device_launch.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
using strata_test::custom_t;

using u64 = unsigned long long;

// The tile of ForEachN / ForEach / Bulk (AgentFor).
constexpr std::size_t for_tile()
{
  return strata::detail::for_each::policy_hub::MaxPolicy::ForPolicy::TILE_ITEMS;
}

// The tile of ForEachCopyN / ForEachCopy over an array of T (AgentTransform with no output).
template <typename T>
constexpr std::size_t copy_tile()
{
  using Policy = strata::detail::transform::policy_hub::MaxPolicy::TransformPolicy;
  using strata::detail::transform::no_output;
  return strata::AgentTransform<Policy, std::uint32_t, exec_test::any_arity_op, no_output, T*>::TILE_ITEMS;
}

// x = x + x, in place (through a reference, or a thrust::device_reference for device_ptr iterators).
struct double_in_place
{
  template <typename Ref>
  __host__ __device__ void operator()(Ref&& x) const
  {
    auto& item = thrust::raw_reference_cast(x);
    using T    = std::decay_t<decltype(item)>;
    item       = static_cast<T>(item + item);
  }
};

// Counts one visit of index i.
struct count_visit
{
  unsigned int* visits;
  template <typename IndexT>
  __device__ void operator()(IndexT i) const
  {
    atomicAdd(visits + i, 1u);
  }
};

// An integer that identifies an item exactly (the item itself, its 1/1024 ticks for floating point, the first field of
// custom_t), for sums that do not depend on the order of the additions.
template <typename T>
__host__ __device__ u64 ticks(const T& x)
{
  if constexpr (std::is_same<T, custom_t>::value)
  {
    return static_cast<u64>(x.a);
  }
  else if constexpr (std::is_floating_point<T>::value)
  {
    return static_cast<u64>(static_cast<long long>(x * T(1024)));
  }
  else
  {
    return static_cast<u64>(static_cast<long long>(x));
  }
}

// Adds the ticks of the copy it receives, and counts the calls.
struct sum_ticks
{
  u64* sum;
  u64* calls;
  template <typename T>
  __device__ void operator()(T x) const
  {
    atomicAdd(sum, ticks(x));
    atomicAdd(calls, 1ULL);
  }
};

template <typename T>
u64 host_ticks(const std::vector<T>& h)
{
  u64 total = 0;
  for (const T& x : h)
  {
    total += ticks(x);
  }
  return total;
}

// Two device counters (a sum and a count of calls), zeroed.
struct counters
{
  strata_test::device_buffer<u64> d = strata_test::device_buffer<u64>(2);
  counters()
  {
    reset();
  }
  void reset()
  {
    STRATA_TEST_CUDA(cudaMemset(d.data(), 0, 2 * sizeof(u64)));
    STRATA_TEST_SYNC();
  }
  sum_ticks op()
  {
    return sum_ticks{d.data(), d.data() + 1};
  }
  u64 sum()
  {
    return d.download()[0];
  }
  u64 calls()
  {
    return d.download()[1];
  }
};
} // namespace

TEMPLATE_TEST_CASE("DeviceFor::ForEachN and ForEach change every item once, in every form", "[device][for]",
                   EXEC_TEST_TYPES)
{
  using T = TestType;
  for (const std::size_t n : strata_test::test_sizes(for_tile(), std::size_t(1) << 21, 901))
  {
    CAPTURE(n);
    const std::vector<T> h = strata_test::random_vector<T>(n, 13 * n + 1);
    std::vector<T> doubled = h;
    std::for_each(doubled.begin(), doubled.end(), double_in_place{});
    std::vector<T> quadrupled = doubled;
    std::for_each(quadrupled.begin(), quadrupled.end(), double_in_place{});
    strata_test::device_buffer<T> d(h);
    {
      INFO("ForEachN, two-phase (stream and graph)");
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceFor::ForEachN(temp, bytes, d.data(), static_cast<int>(n), double_in_place{}, s);
        },
        n % 2 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream);
      STRATA_REQUIRE_EQUAL_VECTORS(d.download(), doubled);
    }
    {
      INFO("ForEach over thrust::device_ptr, plain on the legacy stream");
      const thrust::device_ptr<T> first(d.data());
      REQUIRE(strata::DeviceFor::ForEach(first, first + n, double_in_place{}) == cudaSuccess);
      STRATA_TEST_SYNC();
      STRATA_REQUIRE_EQUAL_VECTORS(d.download(), quadrupled);
    }
    d.upload(h);
    {
      INFO("ForEach, two-phase; ForEachN, policy form");
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceFor::ForEach(temp, bytes, d.data(), d.data() + n, double_in_place{}, s);
      });
      STRATA_REQUIRE_EQUAL_VECTORS(d.download(), doubled);
      exec_test::gated_stream stream;
      REQUIRE(strata::DeviceFor::ForEachN(d.data(), n, double_in_place{}, strata::par.on(stream.get())) == cudaSuccess);
      stream.sync();
      STRATA_REQUIRE_EQUAL_VECTORS(d.download(), quadrupled);
    }
  }
}

TEMPLATE_TEST_CASE("DeviceFor::ForEachCopyN and ForEachCopy pass every item once, aligned or not",
                   "[device][for][copy]", EXEC_TEST_TYPES)
{
  using T = TestType;
  counters c;
  for (const std::size_t n : strata_test::test_sizes(copy_tile<T>(), std::size_t(1) << 21, 903))
  {
    for (std::size_t offset = 0; offset <= 3; ++offset)
    {
      CAPTURE(n, offset);
      const std::vector<T> h = strata_test::random_vector<T>(n + offset, 17 * n + offset);
      const std::vector<T> items(h.begin() + offset, h.end());
      strata_test::device_buffer<T> d(h);
      T* const first = d.data() + offset;
      c.reset();
      if (offset % 2 == 0)
      {
        strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceFor::ForEachCopyN(temp, bytes, first, n, c.op(), s);
        });
      }
      else
      {
        REQUIRE(strata::DeviceFor::ForEachCopy(first, first + n, c.op()) == cudaSuccess);
        STRATA_TEST_SYNC();
      }
      CHECK(c.calls() == n);
      CHECK(c.sum() == host_ticks(items));
      STRATA_REQUIRE_EQUAL_VECTORS(d.download(), h); // copies: the items stay as they were
    }
  }
}

namespace
{
// op(i): out[i] = 3 i + 1, through Bulk.
struct write_index
{
  long long* out;
  template <typename IndexT>
  __device__ void operator()(IndexT i) const
  {
    out[i] = 3 * static_cast<long long>(i) + 1;
  }
};

template <typename T>
__global__ void fill_ones(T* data, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    data[i] = T(1);
  }
}

// Counts the indices of visits[0, capacity) visited a number of times other than 1 below n, or 0 from n on.
__global__ void count_wrong_visits(const unsigned int* visits, std::size_t n, std::size_t capacity, u64* wrong)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < capacity;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    if (visits[i] != (i < n ? 1u : 0u))
    {
      atomicAdd(wrong, 1ULL);
    }
  }
}
} // namespace

TEST_CASE("DeviceFor::Bulk writes every index once, in every form and for every shape type", "[device][for][bulk]")
{
  for (const std::size_t n : strata_test::test_sizes(for_tile(), std::size_t(1) << 21, 905))
  {
    CAPTURE(n);
    strata_test::device_buffer<long long> d(n);
    std::vector<long long> expected(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      expected[i] = 3 * static_cast<long long>(i) + 1;
    }
    const write_index op{d.data()};
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceFor::Bulk(temp, bytes, static_cast<int>(n), op, s);
    });
    STRATA_REQUIRE_EQUAL_VECTORS(d.download(), expected);
    d.poison();
    REQUIRE(strata::DeviceFor::Bulk(static_cast<unsigned>(n), op) == cudaSuccess);
    STRATA_TEST_SYNC();
    STRATA_REQUIRE_EQUAL_VECTORS(d.download(), expected);
    d.poison();
    exec_test::logged_stream stream;
    REQUIRE(strata::DeviceFor::Bulk(static_cast<long long>(n), op, stream.policy) == cudaSuccess);
    stream.sync();
    STRATA_REQUIRE_EQUAL_VECTORS(d.download(), expected);
    CHECK(stream.alloc.log().allocations() == 0);
    d.poison();
    REQUIRE(strata::DeviceFor::Bulk(static_cast<unsigned long long>(n), op) == cudaSuccess);
    STRATA_TEST_SYNC();
    STRATA_REQUIRE_EQUAL_VECTORS(d.download(), expected);
  }
}

TEST_CASE("DeviceFor visits every index once at every partial-tile remainder of both kernels",
          "[device][for][remainders]")
{
  // Every n in [0, 2 tiles + 1] of AgentFor (Bulk over indices) and of the copying kernel (ForEachCopyN over int8,
  // whose tile is the largest), enqueued on one stream, each checked on the device; one read-back at the end.
  const std::size_t capacity = 2 * std::max(for_tile(), copy_tile<std::int8_t>()) + 8;
  strata_test::device_buffer<unsigned int> visits(capacity);
  strata_test::device_buffer<std::int8_t> ones(capacity);
  strata_test::device_buffer<u64> wrong(1), sum(2);
  fill_ones<<<64, 256>>>(ones.data(), capacity);
  STRATA_TEST_CUDA(cudaMemset(wrong.data(), 0, sizeof(u64)));
  STRATA_TEST_SYNC();
  cudaStream_t s{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (const std::size_t n : strata_test::remainder_sweep(2 * for_tile() + 1, for_tile()))
  {
    STRATA_TEST_CUDA(cudaMemsetAsync(visits.data(), 0, capacity * sizeof(unsigned int), s));
    const cudaError_t e = strata::DeviceFor::Bulk(n, count_visit{visits.data()}, s);
    if (e != cudaSuccess)
    {
      CAPTURE(n);
      REQUIRE(e == cudaSuccess);
    }
    count_wrong_visits<<<64, 256, 0, s>>>(visits.data(), n, capacity, wrong.data());
  }
  STRATA_TEST_CUDA(cudaStreamSynchronize(s));
  CHECK(wrong.download()[0] == 0);

  // ForEachCopyN over int8 ones from item 0 and from item 1 (not on a vector boundary): n calls summing to n each.
  std::vector<u64> expected_sums;
  for (const std::size_t offset : {std::size_t(0), std::size_t(1)})
  {
    for (const std::size_t n :
         strata_test::remainder_sweep(2 * copy_tile<std::int8_t>() + 1 - offset, copy_tile<std::int8_t>()))
    {
      expected_sums.push_back(n);
    }
  }
  strata_test::device_buffer<u64> sums(2 * expected_sums.size());
  STRATA_TEST_CUDA(cudaMemset(sums.data(), 0, sums.size() * sizeof(u64)));
  STRATA_TEST_SYNC();
  std::size_t run = 0;
  for (const std::size_t offset : {std::size_t(0), std::size_t(1)})
  {
    for (const std::size_t n :
         strata_test::remainder_sweep(2 * copy_tile<std::int8_t>() + 1 - offset, copy_tile<std::int8_t>()))
    {
      const sum_ticks op{sums.data() + 2 * run, sums.data() + 2 * run + 1};
      const cudaError_t e = strata::DeviceFor::ForEachCopyN(ones.data() + offset, n, op, s);
      if (e != cudaSuccess)
      {
        CAPTURE(n, offset);
        REQUIRE(e == cudaSuccess);
      }
      ++run;
    }
  }
  STRATA_TEST_CUDA(cudaStreamSynchronize(s));
  STRATA_TEST_CUDA(cudaStreamDestroy(s));
  const std::vector<u64> got = sums.download();
  std::vector<u64> got_sums(expected_sums.size()), got_calls(expected_sums.size());
  for (std::size_t r = 0; r < expected_sums.size(); ++r)
  {
    got_sums[r]  = got[2 * r];
    got_calls[r] = got[2 * r + 1];
  }
  STRATA_REQUIRE_EQUAL_VECTORS(got_sums, expected_sums);
  STRATA_REQUIRE_EQUAL_VECTORS(got_calls, expected_sums);
}

namespace
{
struct cube
{
  __host__ __device__ long long operator()(long long i) const
  {
    return i * i * i;
  }
};
} // namespace

TEST_CASE("DeviceFor reads fancy iterators", "[device][for][iterators]")
{
  counters c;
  for (const std::size_t n : strata_test::test_sizes(copy_tile<long long>(), std::size_t(1) << 20, 907))
  {
    CAPTURE(n);
    const long long count = static_cast<long long>(n);
    u64 cubes             = 0;
    for (long long i = 0; i < count; ++i)
    {
      cubes += static_cast<u64>(i * i * i);
    }
    const auto first = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), cube{});
    c.reset();
    REQUIRE(strata::DeviceFor::ForEachCopyN(first, count, c.op()) == cudaSuccess);
    STRATA_TEST_SYNC();
    CHECK(c.sum() == cubes);
    c.reset();
    REQUIRE(strata::DeviceFor::ForEachN(first, count, c.op()) == cudaSuccess);
    STRATA_TEST_SYNC();
    CHECK(c.sum() == cubes);
    CHECK(c.calls() == n);

    strata_test::device_buffer<unsigned int> visits(n);
    STRATA_TEST_CUDA(cudaMemset(visits.data(), 0, (n ? n : 1) * sizeof(unsigned int)));
    STRATA_TEST_SYNC();
    const thrust::counting_iterator<long long> index(0);
    REQUIRE(strata::DeviceFor::ForEach(index, index + count, count_visit{visits.data()}) == cudaSuccess);
    STRATA_TEST_SYNC();
    STRATA_REQUIRE_EQUAL_VECTORS(visits.download(), std::vector<unsigned int>(n, 1u));
  }
}

TEST_CASE("DeviceFor returns before its kernels run, which run on the given stream", "[device][for][stream]")
{
  exec_test::gated_stream stream;
  const std::size_t n = 1000003;
  strata_test::device_buffer<long long> d(n);
  std::vector<long long> expected(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    expected[i] = 3 * static_cast<long long>(i) + 1;
  }
  for (const bool policy_form : {false, true})
  {
    CAPTURE(policy_form);
    d.poison();
    stream.close();
    const cudaError_t e = policy_form ? strata::DeviceFor::Bulk(n, write_index{d.data()}, strata::par.on(stream.get()))
                                      : strata::DeviceFor::Bulk(n, write_index{d.data()}, stream.get());
    CHECK(e == cudaSuccess);
    CHECK(exec_test::all_poisoned(stream.peek(d.data(), n)));
    stream.open();
    stream.sync();
    CHECK_FALSE(stream.timed_out());
    STRATA_REQUIRE_EQUAL_VECTORS(d.download(), expected);
  }
}

TEST_CASE("DeviceFor rejects bad arguments before launching; no items launch nothing", "[device][for][errors]")
{
  const int n = 100000;
  strata_test::device_buffer<int> d(strata_test::random_vector<int>(n, 3));
  const std::vector<int> before = d.download();
  int* const null               = nullptr;
  counters c;
  CHECK(strata::DeviceFor::Bulk(-1, write_index{nullptr}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEachN(d.data(), -1, double_in_place{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEachN(null, n, double_in_place{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEach(d.data() + 5, d.data(), double_in_place{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEachCopyN(null, n, c.op()) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEachCopyN(d.data(), -3, c.op()) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEachCopy(d.data() + 5, d.data(), c.op()) == cudaErrorInvalidValue);
  std::size_t bytes = 1;
  char storage      = 0;
  CHECK(strata::DeviceFor::ForEachN(&storage, bytes, null, n, double_in_place{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::Bulk(&storage, bytes, -2, write_index{nullptr}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceFor::ForEachN(d.data(), -1, double_in_place{}, strata::par) == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  STRATA_REQUIRE_EQUAL_VECTORS(d.download(), before);
  CHECK(c.calls() == 0);

  // The size query answers one byte for every form.
  bytes = 0;
  CHECK(strata::DeviceFor::ForEachCopyN(nullptr, bytes, d.data(), n, c.op()) == cudaSuccess);
  CHECK(bytes == 1);
  bytes = 0;
  CHECK(strata::DeviceFor::Bulk(nullptr, bytes, n, write_index{nullptr}) == cudaSuccess);
  CHECK(bytes == 1);

  // No items: success, with null pointers too, and nothing enqueued (a capture of the calls holds no node).
  cudaStream_t s{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  STRATA_TEST_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  const cudaError_t results[] = {strata::DeviceFor::Bulk(0, write_index{nullptr}, s),
                                 strata::DeviceFor::ForEachN(null, 0, double_in_place{}, s),
                                 strata::DeviceFor::ForEach(null, null, double_in_place{}, s),
                                 strata::DeviceFor::ForEachCopyN(null, 0u, c.op(), s),
                                 strata::DeviceFor::ForEachCopy(d.data(), d.data(), c.op(), strata::par.on(s))};
  cudaGraph_t graph{};
  STRATA_TEST_CUDA(cudaStreamEndCapture(s, &graph));
  for (const cudaError_t e : results)
  {
    CHECK(e == cudaSuccess);
  }
  std::size_t nodes = 1;
  STRATA_TEST_CUDA(cudaGraphGetNodes(graph, nullptr, &nodes));
  CHECK(nodes == 0);
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  STRATA_TEST_CUDA(cudaStreamDestroy(s));
}
