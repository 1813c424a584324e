// DeviceCopy::Batched against copies made on the host. Each output range lies in a poisoned arena with gaps between
// the ranges; after each run the whole arena is compared with the host's, so that nothing around or between the ranges
// is written. Pointer ranges of one trivially copyable type (int32, int64, a 12-byte struct), which move as bytes;
// ranges copied item by item: int32 into int64 (a conversion), a 12-byte struct into thrust::device_ptr outputs,
// counting_iterator sources, constant_iterator sizes; empty ranges; no ranges; 32- and 64-bit counts; two-phase on a
// stream and in a graph, single-phase; bad arguments (nothing written).
#include <strata/device/device_copy.cuh>

#include <thrust/device_ptr.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda/stream_ref>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <random>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::launch_mode;

// 12 bytes, 4-byte aligned, trivially copyable.
struct rgb
{
  std::int32_t r, g, b;
  __host__ __device__ friend bool operator==(const rgb& x, const rgb& y)
  {
    return x.r == y.r && x.g == y.g && x.b == y.b;
  }
  friend std::ostream& operator<<(std::ostream& os, const rgb& v)
  {
    return os << "(" << v.r << ", " << v.g << ", " << v.b << ")";
  }
};
static_assert(sizeof(rgb) == 12 && std::is_trivially_copyable<rgb>::value, "a 12-byte trivially copyable struct");

template <typename T>
T random_item(std::mt19937_64& rng)
{
  if constexpr (std::is_same<T, rgb>::value)
  {
    return rgb{static_cast<std::int32_t>(rng()), static_cast<std::int32_t>(rng()), static_cast<std::int32_t>(rng())};
  }
  else
  {
    return static_cast<T>(rng() | 1);
  }
}

// Ranges of `sizes` items: inputs at item offsets into an input arena, outputs at item offsets into an output arena,
// 1..gap items apart.
struct ranges
{
  std::vector<std::size_t> sizes;
  std::vector<std::size_t> in_offsets;
  std::vector<std::size_t> out_offsets;
  std::size_t in_items  = 0;
  std::size_t out_items = 0;
};

ranges lay_out(const std::vector<std::size_t>& sizes, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  ranges r;
  r.sizes        = sizes;
  std::size_t in = 0, out = 0;
  for (const std::size_t size : sizes)
  {
    in += rng() % 4;
    out += 1 + rng() % 5;
    r.in_offsets.push_back(in);
    r.out_offsets.push_back(out);
    in += size;
    out += size;
  }
  r.in_items  = in + 8;
  r.out_items = out + 8;
  return r;
}

std::vector<std::size_t> random_sizes(std::size_t count, std::size_t hi, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::vector<std::size_t> sizes(count);
  for (auto& s : sizes)
  {
    s = rng() % 5 == 0 ? 0 : rng() % (hi + 1);
  }
  return sizes;
}

// Copies `r` from an arena of In to an arena of Out through pointer ranges (`const In*` in, `OutRangeT` out: Out* or
// thrust::device_ptr<Out>), with a count of CountT, and checks the whole output arena.
template <typename In, typename Out, typename OutRangeT = Out*, typename CountT = std::int64_t>
void check_ranges(const ranges& r, launch_mode mode, std::uint64_t salt)
{
  const std::size_t n = r.sizes.size();
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::vector<In> data(r.in_items);
  for (auto& x : data)
  {
    x = random_item<In>(rng);
  }
  const device_buffer<In> d_in(data);
  device_buffer<Out> d_out(r.out_items);
  std::vector<const In*> ins(n);
  std::vector<OutRangeT> outs(n);
  std::vector<int> sizes(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    ins[i]   = d_in.data() + r.in_offsets[i];
    outs[i]  = OutRangeT(d_out.data() + r.out_offsets[i]);
    sizes[i] = static_cast<int>(r.sizes[i]);
  }
  const device_buffer<const In*> d_ins(ins);
  const device_buffer<OutRangeT> d_outs(outs);
  const device_buffer<int> d_sizes(sizes);
  strata_test::launch(
    [&](void* temp, std::size_t& temp_bytes, cudaStream_t s) {
      return strata::DeviceCopy::Batched(temp, temp_bytes, d_ins.data(), d_outs.data(), d_sizes.data(),
                                         static_cast<CountT>(n), s);
    },
    mode);
  // The expected arena: poison, then each range converted.
  device_buffer<Out> d_poison(r.out_items);
  std::vector<Out> expected = d_poison.download();
  for (std::size_t i = 0; i < n; ++i)
  {
    for (std::size_t j = 0; j < r.sizes[i]; ++j)
    {
      expected[r.out_offsets[i] + j] = static_cast<Out>(data[r.in_offsets[i] + j]);
    }
  }
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
}
} // namespace

TEMPLATE_TEST_CASE("DeviceCopy::Batched: pointer ranges of one type move as bytes", "[device][copy]", std::int32_t,
                   std::int64_t, rgb)
{
  using T = TestType;
  static_assert(strata::detail::batch_memcpy::copy_kind<const T**, T**>::MEMCPY, "copied as bytes");
  for (const std::size_t count : {std::size_t(1), std::size_t(33), std::size_t(1000), std::size_t(20000)})
  {
    for (const std::size_t longest : {std::size_t(3), std::size_t(70), std::size_t(1500)})
    {
      CAPTURE(count, longest);
      const std::uint64_t salt = count * 31 + longest;
      check_ranges<T, T>(lay_out(random_sizes(count, longest, salt), salt),
                         salt % 2 ? launch_mode::graph : launch_mode::stream, salt);
    }
  }
  // A few ranges of hundreds of thousands of items.
  check_ranges<T, T>(lay_out({300007, 5, 0, 123457}, 3), launch_mode::stream, 3);
}

TEST_CASE("DeviceCopy::Batched: ranges copied item by item", "[device][copy]")
{
  static_assert(!strata::detail::batch_memcpy::copy_kind<const std::int32_t**, std::int64_t**>::MEMCPY,
                "a conversion is copied item by item");
  static_assert(!strata::detail::batch_memcpy::copy_kind<const rgb**, thrust::device_ptr<rgb>*>::MEMCPY,
                "device_ptr outputs are copied item by item");
  for (const std::size_t count : {std::size_t(1), std::size_t(31), std::size_t(5000)})
  {
    CAPTURE(count);
    const ranges r = lay_out(random_sizes(count, 300, count), count);
    check_ranges<std::int32_t, std::int64_t>(r, launch_mode::stream, count);
    check_ranges<rgb, rgb, thrust::device_ptr<rgb>>(r, launch_mode::graph, count + 1);
    check_ranges<std::int32_t, std::int64_t, std::int64_t*, std::uint32_t>(r, launch_mode::stream, count + 2);
  }
}

namespace
{
// Range i counts up from 1000 i.
struct counting_from
{
  __host__ __device__ thrust::counting_iterator<int> operator()(int i) const
  {
    return thrust::counting_iterator<int>(1000 * i);
  }
};
} // namespace

TEST_CASE("DeviceCopy::Batched: counting sources, constant sizes, single-phase forms", "[device][copy]")
{
  const std::size_t n    = 3001;
  const int size         = 37;
  const std::size_t span = 40;
  device_buffer<int> d_out(n * span);
  std::vector<int*> outs(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    outs[i] = d_out.data() + i * span + i % 3;
  }
  const device_buffer<int*> d_outs(outs);
  const auto sources        = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), counting_from{});
  std::vector<int> expected = d_out.download();
  for (std::size_t i = 0; i < n; ++i)
  {
    for (int j = 0; j < size; ++j)
    {
      expected[i * span + i % 3 + static_cast<std::size_t>(j)] = 1000 * static_cast<int>(i) + j;
    }
  }
  cudaStream_t stream{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  REQUIRE(strata::DeviceCopy::Batched(sources, d_outs.data(), thrust::constant_iterator<int>(size), n, stream)
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);

  d_out.poison();
  REQUIRE(strata::DeviceCopy::Batched(sources, d_outs.data(), thrust::constant_iterator<int>(size),
                                      static_cast<std::int32_t>(n), cuda::stream_ref{stream})
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);

  // Two-phase, in a graph.
  d_out.poison();
  strata_test::launch(
    [&](void* temp, std::size_t& temp_bytes, cudaStream_t s) {
      return strata::DeviceCopy::Batched(temp, temp_bytes, sources, d_outs.data(), thrust::constant_iterator<int>(size),
                                         n, s);
    },
    launch_mode::graph);
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceCopy::Batched: no ranges, empty ranges", "[device][copy]")
{
  check_ranges<std::int32_t, std::int32_t>(ranges{}, launch_mode::stream, 1);
  check_ranges<std::int64_t, std::int64_t>(lay_out(std::vector<std::size_t>(500, 0), 2), launch_mode::graph, 2);
  check_ranges<std::int32_t, std::int64_t>(lay_out(std::vector<std::size_t>(70, 0), 3), launch_mode::stream, 3);
}

TEST_CASE("DeviceCopy::Batched: bad arguments are refused and nothing is written", "[device][copy][errors]")
{
  const ranges r = lay_out(random_sizes(50, 100, 9), 9);
  device_buffer<int> d_in(r.in_items);
  device_buffer<int> d_out(r.out_items);
  std::vector<const int*> ins;
  std::vector<int*> outs;
  std::vector<int> sizes;
  for (std::size_t i = 0; i < r.sizes.size(); ++i)
  {
    ins.push_back(d_in.data() + r.in_offsets[i]);
    outs.push_back(d_out.data() + r.out_offsets[i]);
    sizes.push_back(static_cast<int>(r.sizes[i]));
  }
  const device_buffer<const int*> d_ins(ins);
  const device_buffer<int*> d_outs(outs);
  const device_buffer<int> d_sizes(sizes);
  device_buffer<char> d_temp(1 << 16);
  const int n       = static_cast<int>(ins.size());
  std::size_t bytes = 1 << 16;
  using strata::DeviceCopy;
  CHECK(DeviceCopy::Batched(d_temp.data(), bytes, d_ins.data(), d_outs.data(), d_sizes.data(), -1)
        == cudaErrorInvalidValue);
  CHECK(DeviceCopy::Batched(d_temp.data(), bytes, static_cast<const int**>(nullptr), d_outs.data(), d_sizes.data(), n)
        == cudaErrorInvalidValue);
  CHECK(DeviceCopy::Batched(d_temp.data(), bytes, d_ins.data(), static_cast<int**>(nullptr), d_sizes.data(), n)
        == cudaErrorInvalidValue);
  CHECK(DeviceCopy::Batched(d_temp.data(), bytes, d_ins.data(), d_outs.data(), static_cast<int*>(nullptr), n)
        == cudaErrorInvalidValue);
  CHECK(DeviceCopy::Batched(d_ins.data(), d_outs.data(), d_sizes.data(), std::int64_t(-3)) == cudaErrorInvalidValue);
  std::size_t too_little = 1;
  CHECK(DeviceCopy::Batched(d_temp.data(), too_little, d_ins.data(), d_outs.data(), d_sizes.data(), n)
        == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_out.download()));
}
