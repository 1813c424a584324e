// DeviceTransform directly: every form (plain, two-phase, policy), one to three inputs and none (a generator), value
// types of every vector width and one wider than a vector, mixed widths, arrays that do not start on a vector
// boundary (offset by 1..3 items, so the item-by-item path runs), every partial-tile remainder around the tile,
// in place, fancy inputs and outputs, TransformStableArgumentAddresses with the items' real addresses, bad arguments,
// no items (nothing launched). More than 2^31 items: device_large.cu.
#include "../execution/support.cuh"

#include <strata/device/device_transform.cuh>

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>

#include <cuda/std/tuple>

#include "device_launch.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
using exec_test::twice;
using strata_test::custom_t;

using u64 = unsigned long long;

// 32 bytes: wider than a vector, so arrays of it are read item by item.
struct wide32
{
  std::int64_t a, b, c, d;
  __host__ __device__ friend bool operator==(const wide32& x, const wide32& y)
  {
    return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
  }
  friend std::ostream& operator<<(std::ostream& os, const wide32& v)
  {
    return os << "(" << v.a << ", " << v.b << ", " << v.c << ", " << v.d << ")";
  }
  __host__ __device__ friend wide32 operator+(const wide32& x, const wide32& y)
  {
    return wide32{x.a + y.a, x.b + y.b, x.c + y.c, x.d + y.d};
  }
};

template <typename T>
std::vector<T> random_items(std::size_t n, std::uint64_t salt)
{
  if constexpr (std::is_same<T, wide32>::value)
  {
    const std::vector<std::int64_t> v = strata_test::random_vector<std::int64_t>(4 * n, salt);
    std::vector<wide32> out(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      out[i] = wide32{v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]};
    }
    return out;
  }
  else
  {
    return strata_test::random_vector<T>(n, salt);
  }
}

// a + b (+ c), as the first input's type.
struct add
{
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const
  {
    return static_cast<T>(a + b);
  }
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b, const T& c) const
  {
    return static_cast<T>(a + b + c);
  }
};

// The tile of DeviceTransform for inputs In... and output Out (pointers).
template <typename Out, typename... In>
constexpr std::size_t tile_items()
{
  return exec_test::transform_tile<Out*, In*...>();
}

template <typename T>
std::vector<T> host_twice(const std::vector<T>& a)
{
  std::vector<T> out(a.size());
  std::transform(a.begin(), a.end(), out.begin(), twice{});
  return out;
}
} // namespace

TEMPLATE_TEST_CASE("DeviceTransform::Transform of one, two and three inputs matches std::transform",
                   "[device][transform]", std::int8_t, std::int32_t, std::int64_t, float, double, custom_t, wide32)
{
  using T = TestType;
  for (const std::size_t n : strata_test::test_sizes(tile_items<T, T>(), std::size_t(1) << 21, 801))
  {
    CAPTURE(n);
    const std::vector<T> a = random_items<T>(n, 3 * n + 1);
    const std::vector<T> b = random_items<T>(n, 5 * n + 2);
    const std::vector<T> c = random_items<T>(n, 7 * n + 3);
    std::vector<T> sum2(n), sum3(n);
    std::transform(a.begin(), a.end(), b.begin(), sum2.begin(), add{});
    for (std::size_t i = 0; i < n; ++i)
    {
      sum3[i] = add{}(a[i], b[i], c[i]);
    }
    strata_test::device_buffer<T> d_a(a), d_b(b), d_c(c), d_out(n);
    const int count = static_cast<int>(n);
    {
      INFO("one input, two-phase (stream and graph)");
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceTransform::Transform(temp, bytes, d_a.data(), d_out.data(), count, twice{}, s);
        },
        n % 2 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream);
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), host_twice(a));
    }
    d_out.poison();
    {
      INFO("two inputs, plain form on the legacy stream");
      REQUIRE(
        strata::DeviceTransform::Transform(cuda::std::make_tuple(d_a.data(), d_b.data()), d_out.data(), count, add{})
        == cudaSuccess);
      STRATA_TEST_SYNC();
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), sum2);
    }
    d_out.poison();
    {
      INFO("three inputs, two-phase with a tuple");
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceTransform::Transform(temp, bytes,
                                                  cuda::std::make_tuple(d_a.data(), d_b.data(), d_c.data()),
                                                  d_out.data(), n, add{}, s);
      });
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), sum3);
    }
    {
      INFO("in place: the output is the first input");
      REQUIRE(
        strata::DeviceTransform::Transform(cuda::std::make_tuple(d_a.data(), d_b.data()), d_a.data(), count, add{})
        == cudaSuccess);
      STRATA_TEST_SYNC();
      STRATA_REQUIRE_EQUAL_VECTORS(d_a.download(), sum2);
    }
  }
}

TEMPLATE_TEST_CASE("DeviceTransform::Transform of arrays that do not start on a vector boundary",
                   "[device][transform][alignment]", EXEC_TEST_FEW_TYPES)
{
  using T                = TestType;
  const std::size_t tile = tile_items<T, T>();
  for (const std::size_t n :
       {std::size_t(1), std::size_t(17), tile - 1, tile, tile + 1, 3 * tile + 5, std::size_t(1000003)})
  {
    for (std::size_t in_offset = 0; in_offset <= 3; ++in_offset)
    {
      for (std::size_t out_offset = 0; out_offset <= 3; ++out_offset)
      {
        CAPTURE(n, in_offset, out_offset);
        const std::vector<T> a = strata_test::random_vector<T>(n + in_offset, 11 * n + in_offset);
        strata_test::device_buffer<T> d_a(a), d_out(n + out_offset);
        REQUIRE(strata::DeviceTransform::Transform(d_a.data() + in_offset, d_out.data() + out_offset, n, twice{})
                == cudaSuccess);
        STRATA_TEST_SYNC();
        const std::vector<T> out      = d_out.download();
        const std::vector<T> expected = host_twice(std::vector<T>(a.begin() + in_offset, a.end()));
        STRATA_REQUIRE_EQUAL_VECTORS(std::vector<T>(out.begin() + out_offset, out.end()), expected);
        CHECK(exec_test::all_poisoned(std::vector<T>(out.begin(), out.begin() + out_offset)));
      }
    }
  }
}

namespace
{
// The input pattern of the remainder sweep: a hash of the position.
template <typename T>
struct pattern
{
  __host__ __device__ T operator()(std::size_t i) const
  {
    const u64 x = (i + 1) * 0x9e3779b97f4a7c15ULL;
    return static_cast<T>(static_cast<long long>(x >> 40) % 1000 + 1);
  }
};

template <typename T>
__global__ void fill_with_pattern(T* data, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    data[i] = pattern<T>{}(i);
  }
}

// Counts the items of out[0, n) that are not 2 pattern(first + i) (the input started at item `first` of the pattern),
// and the bytes of out[n, capacity) that are not poison.
template <typename T>
__global__ void count_wrong(const T* out, std::size_t first, std::size_t n, std::size_t capacity, u64* wrong)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < capacity;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    bool ok = true;
    if (i < n)
    {
      ok = out[i] == static_cast<T>(2 * pattern<T>{}(first + i));
    }
    else
    {
      const unsigned char* bytes = reinterpret_cast<const unsigned char*>(out + i);
      for (std::size_t k = 0; k < sizeof(T); ++k)
      {
        ok = ok && bytes[k] == strata_test::poison_byte;
      }
    }
    if (!ok)
    {
      atomicAdd(wrong, 1ULL);
    }
  }
}
} // namespace

TEMPLATE_TEST_CASE("DeviceTransform::Transform at every partial-tile remainder around one and two tiles",
                   "[device][transform][remainders]", std::int8_t, std::int32_t, double)
{
  // n = k tiles + r for every r in [0, tile) and k = 0, 1 (and 2 tiles + 1 item), aligned and one item off, all
  // enqueued on one stream and checked on the device (poison between runs); one read-back at the end.
  using T                    = TestType;
  const std::size_t tile     = tile_items<T, T>();
  const std::size_t capacity = 2 * tile + 8;
  strata_test::device_buffer<T> d_in(capacity), d_out(capacity);
  strata_test::device_buffer<u64> wrong(1);
  fill_with_pattern<<<256, 256>>>(d_in.data(), capacity);
  STRATA_TEST_CUDA(cudaMemset(wrong.data(), 0, sizeof(u64)));
  STRATA_TEST_SYNC();
  cudaStream_t s{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::size_t runs = 0;
  for (std::size_t offset : {std::size_t(0), std::size_t(1)})
  {
    for (const std::size_t n : strata_test::remainder_sweep(2 * tile + 1 - offset, tile))
    {
      STRATA_TEST_CUDA(cudaMemsetAsync(d_out.data(), strata_test::poison_byte, capacity * sizeof(T), s));
      const cudaError_t e =
        strata::DeviceTransform::Transform(d_in.data() + offset, d_out.data() + offset, n, twice{}, s);
      if (e != cudaSuccess)
      {
        CAPTURE(n, offset);
        REQUIRE(e == cudaSuccess);
      }
      count_wrong<<<64, 256, 0, s>>>(d_out.data() + offset, offset, n, capacity - offset, wrong.data());
      ++runs;
    }
  }
  STRATA_TEST_CUDA(cudaStreamSynchronize(s));
  STRATA_TEST_CUDA(cudaGetLastError());
  STRATA_TEST_CUDA(cudaStreamDestroy(s));
  CAPTURE(tile, runs);
  CHECK(wrong.download()[0] == 0);
}

namespace
{
// Generator of the zero-input form: a constant (the order of calls is unspecified).
template <typename T>
struct make_value
{
  T value;
  __host__ __device__ T operator()() const
  {
    return value;
  }
};

struct widen_sum
{
  __host__ __device__ double operator()(std::int8_t a, double b) const
  {
    return a + b;
  }
};

struct pair_sum
{
  __host__ __device__ long long operator()(const thrust::tuple<long long, int>& t) const
  {
    return thrust::get<0>(t) + thrust::get<1>(t);
  }
};
} // namespace

TEST_CASE("DeviceTransform::Transform with no inputs, mixed widths and fancy iterators",
          "[device][transform][iterators]")
{
  for (const std::size_t n :
       strata_test::test_sizes(tile_items<double, std::int8_t, double>(), std::size_t(1) << 20, 803))
  {
    CAPTURE(n);
    {
      INFO("no inputs: a generator");
      strata_test::device_buffer<std::int64_t> d_out(n);
      REQUIRE(strata::DeviceTransform::Transform(cuda::std::tuple<>{}, d_out.data(), n, make_value<std::int64_t>{-4})
              == cudaSuccess);
      STRATA_TEST_SYNC();
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), std::vector<std::int64_t>(n, -4));
    }
    {
      INFO("int8 and double inputs, double output (1- and 8-byte arrays in one chunk)");
      const std::vector<std::int8_t> a = strata_test::random_vector<std::int8_t>(n, n + 1);
      const std::vector<double> b      = strata_test::random_vector<double>(n, n + 2);
      std::vector<double> expected(n);
      std::transform(a.begin(), a.end(), b.begin(), expected.begin(), widen_sum{});
      strata_test::device_buffer<std::int8_t> d_a(a);
      strata_test::device_buffer<double> d_b(b), d_out(n);
      REQUIRE(
        strata::DeviceTransform::Transform(cuda::std::make_tuple(d_a.data(), d_b.data()), d_out.data(), n, widen_sum{})
        == cudaSuccess);
      STRATA_TEST_SYNC();
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
    }
    {
      INFO("counting, constant, transform, permutation and zip inputs; device_ptr output");
      const long long count             = static_cast<long long>(n);
      const std::vector<long long> vals = strata_test::random_vector<long long>(n, n + 3);
      const std::vector<int> ints       = strata_test::random_vector<int>(n, n + 4);
      std::vector<int> reversed(n);
      std::iota(reversed.rbegin(), reversed.rend(), 0);
      strata_test::device_buffer<long long> d_vals(vals), d_out(n);
      strata_test::device_buffer<int> d_ints(ints), d_map(reversed);
      const auto backwards = thrust::make_permutation_iterator(d_vals.data(), d_map.data());
      const auto pairs     = thrust::make_zip_iterator(backwards, d_ints.data());
      const auto evens     = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), twice{});
      REQUIRE(
        strata::DeviceTransform::Transform(cuda::std::make_tuple(evens, thrust::constant_iterator<long long>(3),
                                                                 thrust::make_transform_iterator(pairs, pair_sum{})),
                                           thrust::device_ptr<long long>(d_out.data()), count, add{})
        == cudaSuccess);
      STRATA_TEST_SYNC();
      std::vector<long long> expected(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        expected[i] = 2 * static_cast<long long>(i) + 3 + vals[n - 1 - i] + ints[i];
      }
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
      REQUIRE(strata::DeviceTransform::Transform(thrust::counting_iterator<long long>(0),
                                                 thrust::make_discard_iterator(), count, twice{})
              == cudaSuccess);
      STRATA_TEST_SYNC();
    }
  }
}

namespace
{
// The position of each item, from its address: what TransformStableArgumentAddresses must pass are the items
// themselves (a copy would live elsewhere).
template <typename T>
struct position_of
{
  const T* base_a;
  const T* base_b;
  __device__ long long operator()(const T& a) const
  {
    return &a - base_a;
  }
  __device__ long long operator()(const T& a, const T& b) const
  {
    // Both arguments must be item i of their arrays: -1 marks a mismatch.
    return (&a - base_a) == (&b - base_b) ? (&a - base_a) : -1;
  }
};
} // namespace

TEMPLATE_TEST_CASE("DeviceTransform::TransformStableArgumentAddresses passes the items' own addresses",
                   "[device][transform][stable]", std::int8_t, double, custom_t)
{
  using T = TestType;
  for (const std::size_t n : strata_test::test_sizes(tile_items<T, T>(), std::size_t(1) << 20, 805))
  {
    CAPTURE(n);
    strata_test::device_buffer<T> d_a(strata_test::random_vector<T>(n, n + 1));
    strata_test::device_buffer<T> d_b(strata_test::random_vector<T>(n, n + 2));
    strata_test::device_buffer<long long> d_out(n);
    std::vector<long long> positions(n);
    std::iota(positions.begin(), positions.end(), 0LL);
    const position_of<T> op{d_a.data(), d_b.data()};
    REQUIRE(strata::DeviceTransform::TransformStableArgumentAddresses(d_a.data(), d_out.data(), n, op) == cudaSuccess);
    STRATA_TEST_SYNC();
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), positions);
    d_out.poison();
    REQUIRE(strata::DeviceTransform::TransformStableArgumentAddresses(cuda::std::make_tuple(d_a.data(), d_b.data()),
                                                                      d_out.data(), static_cast<int>(n), op)
            == cudaSuccess);
    STRATA_TEST_SYNC();
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), positions);
  }
}

TEST_CASE("DeviceTransform's policy form runs on the policy's stream and takes no temporary storage",
          "[device][transform][policy]")
{
  exec_test::logged_stream stream;
  const std::size_t n      = 1000003;
  const std::vector<int> a = strata_test::random_vector<int>(n, 9);
  exec_test::check_behind_gate(stream, a, host_twice(a), [&](auto first, auto, auto out) {
    CHECK(strata::DeviceTransform::Transform(thrust::raw_pointer_cast(&*first), thrust::raw_pointer_cast(&*out),
                                             static_cast<int>(n), twice{}, stream.policy)
          == cudaSuccess);
  });
  exec_test::check_behind_gate(stream, a, host_twice(a), [&](auto first, auto, auto out) {
    CHECK(strata::DeviceTransform::Transform(cuda::std::make_tuple(thrust::raw_pointer_cast(&*first)),
                                             thrust::raw_pointer_cast(&*out), n, twice{}, strata::par.on(stream.get()))
          == cudaSuccess);
  });
  exec_test::check_behind_gate(stream, a, host_twice(a), [&](auto first, auto, auto out) {
    CHECK(strata::DeviceTransform::Transform(thrust::raw_pointer_cast(&*first), thrust::raw_pointer_cast(&*out), n,
                                             twice{}, stream.get())
          == cudaSuccess);
  });
  CHECK(stream.alloc.log().allocations() == 0);
}

TEST_CASE("DeviceTransform rejects bad arguments before launching; no items launch nothing",
          "[device][transform][errors]")
{
  const int n = 100000;
  strata_test::device_buffer<int> d_a(strata_test::random_vector<int>(n, 1)),
    d_b(strata_test::random_vector<int>(n, 2));
  strata_test::device_buffer<int> d_out(n);
  int* const null = nullptr;
  // Three inputs, the first two given.
  const auto inputs = [&](int* x, int* y) {
    return cuda::std::make_tuple(x, y, d_a.data());
  };
  CHECK(strata::DeviceTransform::Transform(d_a.data(), d_out.data(), -1, twice{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceTransform::Transform(null, d_out.data(), n, twice{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceTransform::Transform(d_a.data(), null, n, twice{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceTransform::Transform(inputs(null, d_b.data()), d_out.data(), n, add{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceTransform::Transform(inputs(d_a.data(), null), d_out.data(), n, add{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceTransform::Transform(cuda::std::make_tuple(d_a.data(), d_b.data(), null), d_out.data(), n, add{})
        == cudaErrorInvalidValue);
  std::size_t bytes = 1;
  char storage      = 0;
  CHECK(strata::DeviceTransform::Transform(&storage, bytes, d_a.data(), d_out.data(), -7, twice{})
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceTransform::Transform(&storage, bytes, null, d_out.data(), n, twice{}) == cudaErrorInvalidValue);
  CHECK(strata::DeviceTransform::TransformStableArgumentAddresses(null, d_out.data(), n, twice{})
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceTransform::TransformStableArgumentAddresses(d_a.data(), d_out.data(), -2, twice{})
        == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  CHECK(exec_test::all_poisoned(d_out.download()));

  // The size query answers one byte.
  bytes = 0;
  CHECK(strata::DeviceTransform::Transform(nullptr, bytes, d_a.data(), d_out.data(), n, twice{}) == cudaSuccess);
  CHECK(bytes == 1);

  // No items: success, even with null pointers, and nothing enqueued (a capture of the call holds no node).
  cudaStream_t s{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  STRATA_TEST_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  const cudaError_t empty_plain  = strata::DeviceTransform::Transform(null, null, 0, twice{}, s);
  const cudaError_t empty_tuple  = strata::DeviceTransform::Transform(inputs(null, null), null, 0, add{}, s);
  const cudaError_t empty_stable = strata::DeviceTransform::TransformStableArgumentAddresses(null, null, 0, twice{}, s);
  const cudaError_t empty_policy =
    strata::DeviceTransform::Transform(d_a.data(), d_out.data(), 0, twice{}, strata::par.on(s));
  cudaGraph_t graph{};
  STRATA_TEST_CUDA(cudaStreamEndCapture(s, &graph));
  CHECK(empty_plain == cudaSuccess);
  CHECK(empty_tuple == cudaSuccess);
  CHECK(empty_stable == cudaSuccess);
  CHECK(empty_policy == cudaSuccess);
  std::size_t nodes = 1;
  STRATA_TEST_CUDA(cudaGraphGetNodes(graph, nullptr, &nodes));
  CHECK(nodes == 0);
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  STRATA_TEST_CUDA(cudaStreamDestroy(s));
  CHECK(exec_test::all_poisoned(d_out.download()));
}
