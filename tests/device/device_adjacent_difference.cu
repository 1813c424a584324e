// DeviceAdjacentDifference against differences computed on the host: SubtractLeftCopy, SubtractRightCopy and the
// in-place SubtractLeft and SubtractRight, two-phase (on a stream and captured into a graph) and single-phase (a
// cudaStream_t, a cuda::stream_ref); int8, int32, int64, float and double under minus; a non-commutative operator
// whose result is wider than its operands (int32 in, int64 out, and back into int32 in place) and a user type under
// composition of affine maps; fancy input iterators; every remainder of the last tile over three tiles; the copy
// forms write nothing past the output and ask for no temporary storage; bad arguments; more than 2^31 items.
#include <strata/device/device_adjacent_difference.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda/stream_ref>
#include <cuda/std/functional>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace
{
using strata_test::device_buffer;

// The tile of the library's policy for input T and output Out.
template <typename T, typename Out = T>
constexpr std::size_t tile_items()
{
  return strata::detail::adjacent_difference::policy_hub<T, Out>::MaxPolicy::AdjacentDifferencePolicy::TILE_ITEMS;
}

// out[0] = in[0], out[i] = op(in[i], in[i - 1]) (LEFT); out[i] = op(in[i], in[i + 1]), out[n - 1] = in[n - 1].
template <typename Out, bool LEFT, typename T, typename Op>
std::vector<Out> reference(const std::vector<T>& in, Op op)
{
  const std::size_t n = in.size();
  std::vector<Out> out(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    if (LEFT)
    {
      out[i] = i == 0 ? static_cast<Out>(in[i]) : static_cast<Out>(op(in[i], in[i - 1]));
    }
    else
    {
      out[i] = i + 1 == n ? static_cast<Out>(in[i]) : static_cast<Out>(op(in[i], in[i + 1]));
    }
  }
  return out;
}

// a - b in the items' type (what cuda::std::minus<> gives, narrowed back for small integers).
struct host_minus
{
  template <typename T>
  T operator()(const T& a, const T& b) const
  {
    return static_cast<T>(a - b);
  }
};

// 3a - b, as a 64-bit integer: not commutative, and wider than 32-bit operands.
struct three_a_minus_b
{
  template <typename T>
  __host__ __device__ long long operator()(const T& a, const T& b) const
  {
    return 3LL * static_cast<long long>(a) - static_cast<long long>(b);
  }
};

// The map of b, then the map of a: not commutative.
struct compose
{
  __host__ __device__ strata_test::affine32 operator()(const strata_test::affine32& a,
                                                       const strata_test::affine32& b) const
  {
    return strata_test::affine_then{}(b, a);
  }
};

// Runs the four forms two-phase over `in` and checks them against the host; graph capture on odd sizes.
template <typename Out, typename T, typename DeviceOp, typename HostOp>
void check_forms(const std::vector<T>& in, DeviceOp op, HostOp host_op)
{
  const std::size_t n = in.size();
  const auto mode     = n % 2 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
  const device_buffer<T> d_in(in);
  {
    INFO("SubtractLeftCopy");
    device_buffer<Out> d_out(n + 1);
    const std::size_t bytes = strata_test::launch(
      [&](void* temp, std::size_t& temp_bytes, cudaStream_t s) {
        return strata::DeviceAdjacentDifference::SubtractLeftCopy(temp, temp_bytes, d_in.data(), d_out.data(), n, op,
                                                                  s);
      },
      mode);
    CHECK(bytes == strata::detail::temporary_storage::EMPTY_SIZE);
    std::vector<Out> out = d_out.download();
    CHECK(strata_test::all_poisoned(std::vector<Out>(out.end() - 1, out.end())));
    out.pop_back();
    STRATA_REQUIRE_EQUAL_VECTORS(out, (reference<Out, true>(in, host_op)));
  }
  {
    INFO("SubtractRightCopy");
    device_buffer<Out> d_out(n + 1);
    strata_test::launch(
      [&](void* temp, std::size_t& temp_bytes, cudaStream_t s) {
        return strata::DeviceAdjacentDifference::SubtractRightCopy(temp, temp_bytes, d_in.data(), d_out.data(), n, op,
                                                                   s);
      },
      mode);
    std::vector<Out> out = d_out.download();
    CHECK(strata_test::all_poisoned(std::vector<Out>(out.end() - 1, out.end())));
    out.pop_back();
    STRATA_REQUIRE_EQUAL_VECTORS(out, (reference<Out, false>(in, host_op)));
  }
  {
    INFO("SubtractLeft in place");
    device_buffer<T> d_data(in);
    strata_test::launch(
      [&](void* temp, std::size_t& temp_bytes, cudaStream_t s) {
        return strata::DeviceAdjacentDifference::SubtractLeft(temp, temp_bytes, d_data.data(), n, op, s);
      },
      mode);
    STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(), (reference<T, true>(in, host_op)));
  }
  {
    INFO("SubtractRight in place");
    device_buffer<T> d_data(in);
    strata_test::launch(
      [&](void* temp, std::size_t& temp_bytes, cudaStream_t s) {
        return strata::DeviceAdjacentDifference::SubtractRight(temp, temp_bytes, d_data.data(), n, op, s);
      },
      mode);
    STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(), (reference<T, false>(in, host_op)));
  }
}
} // namespace

TEMPLATE_TEST_CASE("DeviceAdjacentDifference: the four forms under minus match the host",
                   "[device][adjacent_difference]", std::int8_t, std::int32_t, std::int64_t, float, double)
{
  using T = TestType;
  for (const std::size_t n : strata_test::test_sizes(tile_items<T>(), std::size_t(1) << 21, 0xad1))
  {
    CAPTURE(n);
    check_forms<T>(strata_test::random_vector<T>(n, 41 * n + 3), cuda::std::minus<>{}, host_minus{});
  }
}

TEST_CASE("DeviceAdjacentDifference: a non-commutative operator with a wider result, and a user type",
          "[device][adjacent_difference]")
{
  for (const std::size_t n : strata_test::test_sizes(tile_items<std::int32_t, long long>(), std::size_t(1) << 20, 7))
  {
    CAPTURE(n);
    check_forms<long long>(strata_test::random_vector<std::int32_t>(n, 13 * n + 1), three_a_minus_b{},
                           three_a_minus_b{});
  }
  for (const std::size_t n : strata_test::test_sizes(tile_items<strata_test::affine32>(), std::size_t(1) << 20, 9))
  {
    CAPTURE(n);
    check_forms<strata_test::affine32>(strata_test::random_vector<strata_test::affine32>(n, 17 * n + 5), compose{},
                                       compose{});
  }
}

TEST_CASE("DeviceAdjacentDifference: every remainder of the last tile", "[device][adjacent_difference]")
{
  using T                   = std::int32_t;
  const std::size_t tile    = tile_items<T>();
  const std::size_t last    = 3 * tile + 1;
  const std::vector<T> full = strata_test::random_vector<T>(last, 77);
  device_buffer<T> d_in(full);
  device_buffer<T> d_out(last);
  device_buffer<T> d_data(last);
  device_buffer<char> d_temp(1 << 16);
  for (const std::size_t n : strata_test::remainder_sweep(last, tile))
  {
    CAPTURE(n);
    const std::vector<T> in(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
    std::size_t bytes = 0;
    REQUIRE(strata::DeviceAdjacentDifference::SubtractRightCopy(nullptr, bytes, d_in.data(), d_out.data(), n)
            == cudaSuccess);
    REQUIRE(strata::DeviceAdjacentDifference::SubtractRightCopy(d_temp.data(), bytes, d_in.data(), d_out.data(), n)
            == cudaSuccess);
    STRATA_TEST_CUDA(cudaMemcpy(d_data.data(), d_in.data(), sizeof(T) * last, cudaMemcpyDeviceToDevice));
    REQUIRE(strata::DeviceAdjacentDifference::SubtractLeft(nullptr, bytes, d_data.data(), n) == cudaSuccess);
    REQUIRE(bytes <= std::size_t(1) << 16);
    REQUIRE(strata::DeviceAdjacentDifference::SubtractLeft(d_temp.data(), bytes, d_data.data(), n) == cudaSuccess);
    STRATA_TEST_SYNC();
    std::vector<T> out  = d_out.download();
    std::vector<T> data = d_data.download();
    out.resize(n);
    REQUIRE(std::equal(data.begin() + static_cast<std::ptrdiff_t>(n), data.end(),
                       full.begin() + static_cast<std::ptrdiff_t>(n))); // nothing past n changed
    data.resize(n);
    STRATA_REQUIRE_EQUAL_VECTORS(out, (reference<T, false>(in, host_minus{})));
    STRATA_REQUIRE_EQUAL_VECTORS(data, (reference<T, true>(in, host_minus{})));
  }
}

namespace
{
// i * i as a 64-bit integer.
struct square
{
  __host__ __device__ long long operator()(int i) const
  {
    return static_cast<long long>(i) * i;
  }
};
} // namespace

TEST_CASE("DeviceAdjacentDifference: single-phase forms and fancy inputs", "[device][adjacent_difference]")
{
  const std::size_t n = 3 * tile_items<long long>() + 17;
  cudaStream_t stream{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const auto squares = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), square{});
  std::vector<long long> in(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    in[i] = square{}(static_cast<int>(i));
  }
  device_buffer<long long> d_out(n);
  REQUIRE(strata::DeviceAdjacentDifference::SubtractLeftCopy(squares, d_out.data(), n, cuda::std::minus<>{}, stream)
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), (reference<long long, true>(in, host_minus{})));

  d_out.poison();
  REQUIRE(strata::DeviceAdjacentDifference::SubtractRightCopy(squares, d_out.data(), n, cuda::std::minus<>{},
                                                              cuda::stream_ref{stream})
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), (reference<long long, false>(in, host_minus{})));

  device_buffer<long long> d_data(in);
  REQUIRE(strata::DeviceAdjacentDifference::SubtractLeft(d_data.data(), n, cuda::std::minus<>{}, stream)
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(), (reference<long long, true>(in, host_minus{})));

  d_data.upload(in);
  REQUIRE(strata::DeviceAdjacentDifference::SubtractRight(d_data.data(), n) == cudaSuccess); // minus, stream 0
  STRATA_TEST_SYNC();
  STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(), (reference<long long, false>(in, host_minus{})));
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceAdjacentDifference: bad arguments are refused and nothing is written",
          "[device][adjacent_difference][errors]")
{
  const std::size_t n       = 3 * tile_items<int>() + 5;
  const std::vector<int> in = strata_test::random_vector<int>(n, 5);
  device_buffer<int> d_in(in);
  device_buffer<int> d_out(n);
  device_buffer<char> d_temp(1 << 16);
  std::size_t bytes = 1 << 16;
  using strata::DeviceAdjacentDifference;
  CHECK(DeviceAdjacentDifference::SubtractLeftCopy(d_temp.data(), bytes, d_in.data(), d_out.data(), -1)
        == cudaErrorInvalidValue);
  CHECK(
    DeviceAdjacentDifference::SubtractLeftCopy(d_temp.data(), bytes, static_cast<const int*>(nullptr), d_out.data(), n)
    == cudaErrorInvalidValue);
  CHECK(DeviceAdjacentDifference::SubtractRightCopy(d_temp.data(), bytes, d_in.data(), static_cast<int*>(nullptr), n)
        == cudaErrorInvalidValue);
  CHECK(DeviceAdjacentDifference::SubtractRight(d_temp.data(), bytes, static_cast<int*>(nullptr), n)
        == cudaErrorInvalidValue);
  CHECK(DeviceAdjacentDifference::SubtractLeft(d_in.data(), -5) == cudaErrorInvalidValue);
  // In place over several tiles needs an item per tile boundary: one byte is too little.
  std::size_t needed = 0;
  REQUIRE(DeviceAdjacentDifference::SubtractLeft(nullptr, needed, d_in.data(), n) == cudaSuccess);
  REQUIRE(needed > 1);
  std::size_t too_little = 1;
  CHECK(DeviceAdjacentDifference::SubtractLeft(d_temp.data(), too_little, d_in.data(), n) == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_out.download()));
  CHECK(d_in.download() == in);
  // No items: a size of one byte, nothing launched or written.
  std::size_t empty = 0;
  REQUIRE(DeviceAdjacentDifference::SubtractLeft(nullptr, empty, d_in.data(), 0) == cudaSuccess);
  CHECK(empty == strata::detail::temporary_storage::EMPTY_SIZE);
  CHECK(DeviceAdjacentDifference::SubtractLeftCopy(d_temp.data(), empty, static_cast<const int*>(nullptr),
                                                   static_cast<int*>(nullptr), 0)
        == cudaSuccess);
}

namespace
{
__global__ void fill_mod_251(std::uint8_t* data, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    data[i] = static_cast<std::uint8_t>((i * 7 + i / 1000) % 251);
  }
}
} // namespace

TEST_CASE("DeviceAdjacentDifference: more than 2^31 items in place", "[device][adjacent_difference][large]")
{
  const std::size_t n = (std::size_t(1) << 31) + 4097;
  device_buffer<std::uint8_t> d_data(n);
  fill_mod_251<<<1024, 256>>>(d_data.data(), n);
  STRATA_TEST_SYNC();
  REQUIRE(strata::DeviceAdjacentDifference::SubtractLeft(d_data.data(), n) == cudaSuccess);
  STRATA_TEST_SYNC();
  const std::vector<std::uint8_t> out = d_data.download();
  const auto item                     = [](std::size_t i) {
    return static_cast<std::uint8_t>((i * 7 + i / 1000) % 251);
  };
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    const std::uint8_t expected = i == 0 ? item(0) : static_cast<std::uint8_t>(item(i) - item(i - 1));
    wrong += out[i] != expected;
  }
  CHECK(wrong == 0);
}
