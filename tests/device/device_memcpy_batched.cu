// DeviceMemcpy::Batched against copies made on the host. The sources lie in an arena of random bytes, the
// destinations in a poisoned arena with gaps between them, at offsets 0..15 on each side chosen independently; after
// each run the whole destination arena is compared with the host's: every buffer copied, every byte around and between
// them untouched. Cases: no buffers, one buffer of many sizes, every size 0..70 at every pair of alignments, sizes
// around the granule (16 bytes), the round (32 x GRANULES_PER_THREAD granules) and the batch, primes, zero-byte
// buffers with null pointers, 10^5 small buffers, a few of several MiB, a mix; 32- and 64-bit buffer counts and size
// types; fancy iterators; two-phase on a stream and in a graph, single-phase; bad arguments (nothing written); and
// ([large]) one buffer of 1 GiB and, where the memory allows, more than 2^32 bytes in all.
#include <strata/device/device_memcpy.cuh>

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda/stream_ref>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace
{
using strata_test::device_buffer;
using strata_test::launch_mode;

// The granules a lane holds in flight per round, in the policy the tests' device runs.
constexpr std::size_t ROUND_BYTES =
  16 * 32 * strata::detail::batch_memcpy::policy_hub<0>::MaxPolicy::BatchMemcpyPolicy::GRANULES_PER_THREAD;

// Where the buffers of a batch lie: sources at offsets into a source arena, destinations into a destination arena.
struct batch
{
  std::vector<std::size_t> sizes;
  std::vector<std::size_t> src_offsets;
  std::vector<std::size_t> dst_offsets;
  std::size_t src_bytes = 0;
  std::size_t dst_bytes = 0;
  bool null_empty       = false; // zero-byte buffers get null pointers
};

// Lays out buffers of `sizes`: each source `src_skew(i)` bytes past a 16-byte boundary, each destination
// `dst_skew(i)` bytes past one, with 1..gap_max untouched bytes before it (and 64 after the last).
template <typename SrcSkew, typename DstSkew>
batch lay_out(const std::vector<std::size_t>& sizes, SrcSkew src_skew, DstSkew dst_skew, std::uint64_t salt,
              std::size_t gap_max = 40)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  batch b;
  b.sizes         = sizes;
  std::size_t src = 0;
  std::size_t dst = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i)
  {
    src = (src + 15) / 16 * 16 + src_skew(i);
    dst = (dst + std::uniform_int_distribution<std::size_t>(1, gap_max)(rng) + 15) / 16 * 16 + dst_skew(i);
    b.src_offsets.push_back(src);
    b.dst_offsets.push_back(dst);
    src += sizes[i];
    dst += sizes[i] + 1;
  }
  b.src_bytes = src + 64;
  b.dst_bytes = dst + 64;
  return b;
}

// Random skews in 0..15 on each side.
batch lay_out_random(const std::vector<std::size_t>& sizes, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt ^ 0xa11);
  std::vector<std::size_t> skews(2 * sizes.size());
  for (auto& s : skews)
  {
    s = rng() % 16;
  }
  return lay_out(
    sizes,
    [&](std::size_t i) {
      return skews[2 * i];
    },
    [&](std::size_t i) {
      return skews[2 * i + 1];
    },
    salt);
}

// Runs DeviceMemcpy::Batched over `b` with a buffer count of CountT and sizes of SizeT, and checks the whole
// destination arena against the host's copy.
template <typename CountT = std::int64_t, typename SizeT = std::uint64_t>
void check_batch(const batch& b, launch_mode mode, std::uint64_t salt)
{
  const std::size_t n                  = b.sizes.size();
  const std::vector<std::uint8_t> data = strata_test::random_vector<std::uint8_t>(b.src_bytes, salt);
  const device_buffer<std::uint8_t> d_src(data);
  device_buffer<std::uint8_t> d_dst(b.dst_bytes);
  std::vector<void*> srcs(n);
  std::vector<void*> dsts(n);
  std::vector<SizeT> sizes(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    const bool null = b.null_empty && b.sizes[i] == 0;
    srcs[i]         = null ? nullptr : d_src.data() + b.src_offsets[i];
    dsts[i]         = null ? nullptr : d_dst.data() + b.dst_offsets[i];
    sizes[i]        = static_cast<SizeT>(b.sizes[i]);
  }
  const device_buffer<void*> d_srcs(srcs);
  const device_buffer<void*> d_dsts(dsts);
  const device_buffer<SizeT> d_sizes(sizes);
  const std::size_t bytes = strata_test::launch(
    [&](void* temp, std::size_t& temp_bytes, cudaStream_t s) {
      return strata::DeviceMemcpy::Batched(temp, temp_bytes, d_srcs.data(), d_dsts.data(), d_sizes.data(),
                                           static_cast<CountT>(n), s);
    },
    mode);
  if (n == 0)
  {
    CHECK(bytes == strata::detail::temporary_storage::EMPTY_SIZE);
  }
  std::vector<std::uint8_t> expected(b.dst_bytes, strata_test::poison_byte);
  for (std::size_t i = 0; i < n; ++i)
  {
    std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(b.src_offsets[i]), b.sizes[i],
                expected.begin() + static_cast<std::ptrdiff_t>(b.dst_offsets[i]));
  }
  STRATA_REQUIRE_EQUAL_VECTORS(d_dst.download(), expected);
}

// `count` sizes uniform in [lo, hi].
std::vector<std::size_t> uniform_sizes(std::size_t count, std::size_t lo, std::size_t hi, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::vector<std::size_t> sizes(count);
  for (auto& s : sizes)
  {
    s = std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
  }
  return sizes;
}
} // namespace

TEST_CASE("DeviceMemcpy::Batched: no buffers", "[device][memcpy]")
{
  check_batch(batch{}, launch_mode::stream, 1);
  std::size_t bytes = 0;
  REQUIRE(strata::DeviceMemcpy::Batched(nullptr, bytes, static_cast<void**>(nullptr), static_cast<void**>(nullptr),
                                        static_cast<int*>(nullptr), 0)
          == cudaSuccess);
  CHECK(bytes == strata::detail::temporary_storage::EMPTY_SIZE);
  char one = 0;
  CHECK(strata::DeviceMemcpy::Batched(&one, bytes, static_cast<void**>(nullptr), static_cast<void**>(nullptr),
                                      static_cast<int*>(nullptr), 0)
        == cudaSuccess);
}

TEST_CASE("DeviceMemcpy::Batched: one buffer of many sizes", "[device][memcpy]")
{
  std::vector<std::size_t> lengths = {0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 47, 48, 49, 97, 255, 256, 257, 997};
  for (const std::size_t k : {std::size_t(1), std::size_t(2), std::size_t(4)})
  {
    lengths.insert(lengths.end(), {k * ROUND_BYTES - 1, k * ROUND_BYTES, k * ROUND_BYTES + 1});
  }
  lengths.insert(lengths.end(), {7919, 65521, 65536, 65537, 1000003});
  for (const std::size_t size : lengths)
  {
    for (const std::size_t skew : {std::size_t(0), std::size_t(5), std::size_t(8)})
    {
      CAPTURE(size, skew);
      const batch b = lay_out(
        {size},
        [&](std::size_t) {
          return skew;
        },
        [&](std::size_t) {
          return (skew * 3) % 16;
        },
        size + skew);
      check_batch(b, size % 2 ? launch_mode::graph : launch_mode::stream, 7 * size + skew);
    }
  }
}

TEST_CASE("DeviceMemcpy::Batched: every size 0..70 at every pair of alignments", "[device][memcpy]")
{
  // 256 skew pairs x 71 sizes, in one call; and again with the sizes shuffled among the buffers.
  std::vector<std::size_t> sizes;
  for (std::size_t pair = 0; pair < 256; ++pair)
  {
    for (std::size_t size = 0; size <= 70; ++size)
    {
      sizes.push_back(size);
    }
  }
  const auto src_skew = [](std::size_t i) {
    return (i / 71) % 16;
  };
  const auto dst_skew = [](std::size_t i) {
    return (i / 71 / 16) % 16;
  };
  check_batch(lay_out(sizes, src_skew, dst_skew, 3), launch_mode::stream, 3);
  std::mt19937_64 rng = strata_test::make_rng(4);
  std::shuffle(sizes.begin(), sizes.end(), rng);
  check_batch(lay_out(sizes, src_skew, dst_skew, 4, 3), launch_mode::graph, 4);
}

TEST_CASE("DeviceMemcpy::Batched: sizes around the granule, the round and the batch, and primes", "[device][memcpy]")
{
  std::vector<std::size_t> sizes;
  for (const std::size_t edge : {std::size_t(16), std::size_t(32), std::size_t(64), std::size_t(512), ROUND_BYTES,
                                 2 * ROUND_BYTES, std::size_t(32) * ROUND_BYTES})
  {
    sizes.insert(sizes.end(), {edge - 1, edge, edge + 1});
  }
  for (const std::size_t prime : {2, 3, 5, 13, 61, 127, 509, 1021, 2039, 4093, 8191, 16381, 131071})
  {
    sizes.push_back(prime);
  }
  // Batches of 31, 32 and 33 buffers, whose edges fall in different places of the 32-buffer batches.
  for (const std::size_t count : {std::size_t(31), std::size_t(32), std::size_t(33), sizes.size()})
  {
    std::vector<std::size_t> some(sizes.begin(),
                                  sizes.begin() + static_cast<std::ptrdiff_t>(std::min(count, sizes.size())));
    while (some.size() < count)
    {
      some.push_back(some.size() * 37 % 4099);
    }
    CAPTURE(count);
    check_batch(lay_out_random(some, count), launch_mode::stream, count);
  }
  check_batch(lay_out_random(sizes, 11), launch_mode::graph, 11);
}

TEST_CASE("DeviceMemcpy::Batched: zero-byte buffers, with null pointers among them", "[device][memcpy]")
{
  std::vector<std::size_t> sizes(3000);
  std::mt19937_64 rng = strata_test::make_rng(5);
  for (auto& s : sizes)
  {
    s = rng() % 3 == 0 ? 0 : rng() % 100;
  }
  batch b      = lay_out_random(sizes, 5);
  b.null_empty = true;
  check_batch(b, launch_mode::stream, 5);
  // Only empty buffers, all null.
  batch empty      = lay_out_random(std::vector<std::size_t>(1000, 0), 6);
  empty.null_empty = true;
  check_batch(empty, launch_mode::graph, 6);
}

TEST_CASE("DeviceMemcpy::Batched: many small buffers, a few large ones, and a mix", "[device][memcpy]")
{
  const std::size_t many = strata_test::sanitizer_run() ? 20000 : 150000;
  check_batch(lay_out_random(uniform_sizes(many, 0, 64, 7), 7), launch_mode::stream, 7);
  check_batch(lay_out_random(uniform_sizes(many, 8, 4096, 8), 8), launch_mode::graph, 8);
  const std::size_t mib = strata_test::sanitizer_run() ? 1 : 5;
  check_batch(lay_out_random({mib << 20, (mib << 20) + 3, 7, (2 * mib << 20) - 1}, 9), launch_mode::stream, 9);
  // Mostly small, some medium, rarely large (up to 256 KiB).
  std::mt19937_64 rng = strata_test::make_rng(10);
  std::vector<std::size_t> mixed(strata_test::sanitizer_run() ? 3000 : 40000);
  for (auto& s : mixed)
  {
    s = strata_test::mixed_segment_length(rng);
  }
  check_batch(lay_out_random(mixed, 10), launch_mode::graph, 10);
}

TEST_CASE("DeviceMemcpy::Batched: 32- and 64-bit buffer counts and size types", "[device][memcpy]")
{
  const batch b = lay_out_random(uniform_sizes(5000, 0, 300, 12), 12);
  check_batch<std::int32_t, std::uint32_t>(b, launch_mode::stream, 12);
  check_batch<std::uint32_t, std::int64_t>(b, launch_mode::graph, 13);
  check_batch<std::int64_t, std::int32_t>(b, launch_mode::stream, 14);
  check_batch<std::uint64_t, std::size_t>(b, launch_mode::stream, 15);
}

namespace
{
// The address of buffer i of a fixed-stride layout: base + i * stride + skew(i).
struct strided_pointer
{
  std::uint8_t* base;
  std::size_t stride;
  __host__ __device__ void* operator()(long long i) const
  {
    return base + static_cast<std::size_t>(i) * stride + static_cast<std::size_t>(i % 13);
  }
};
struct strided_source
{
  const std::uint8_t* base;
  std::size_t stride;
  __host__ __device__ const void* operator()(long long i) const
  {
    return base + static_cast<std::size_t>(i) * stride + static_cast<std::size_t>(i % 7);
  }
};
// Size of buffer i: i % 97 + 1 bytes.
struct size_of_index
{
  __host__ __device__ int operator()(long long i) const
  {
    return static_cast<int>(i % 97) + 1;
  }
};
} // namespace

TEST_CASE("DeviceMemcpy::Batched: fancy iterators and single-phase forms", "[device][memcpy]")
{
  const std::size_t n                  = 4099;
  const std::size_t stride             = 128;
  const std::vector<std::uint8_t> data = strata_test::random_vector<std::uint8_t>(n * stride, 21);
  const device_buffer<std::uint8_t> d_src(data);
  device_buffer<std::uint8_t> d_dst(n * stride);
  const auto srcs =
    thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), strided_source{d_src.data(), stride});
  const auto dsts =
    thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), strided_pointer{d_dst.data(), stride});
  const auto sizes = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), size_of_index{});
  std::vector<std::uint8_t> expected(n * stride, strata_test::poison_byte);
  for (std::size_t i = 0; i < n; ++i)
  {
    std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(i * stride + i % 7), i % 97 + 1,
                expected.begin() + static_cast<std::ptrdiff_t>(i * stride + i % 13));
  }
  cudaStream_t stream{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  REQUIRE(strata::DeviceMemcpy::Batched(srcs, dsts, sizes, n, stream) == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(d_dst.download(), expected);

  d_dst.poison();
  REQUIRE(strata::DeviceMemcpy::Batched(srcs, dsts, sizes, static_cast<std::uint32_t>(n), cuda::stream_ref{stream})
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_REQUIRE_EQUAL_VECTORS(d_dst.download(), expected);

  // Every buffer of one size (a constant iterator), default stream.
  d_dst.poison();
  REQUIRE(strata::DeviceMemcpy::Batched(srcs, dsts, thrust::constant_iterator<int>(50), n) == cudaSuccess);
  STRATA_TEST_SYNC();
  std::vector<std::uint8_t> fifty(n * stride, strata_test::poison_byte);
  for (std::size_t i = 0; i < n; ++i)
  {
    std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(i * stride + i % 7), 50,
                fifty.begin() + static_cast<std::ptrdiff_t>(i * stride + i % 13));
  }
  STRATA_REQUIRE_EQUAL_VECTORS(d_dst.download(), fifty);
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceMemcpy::Batched: bad arguments are refused and nothing is written", "[device][memcpy][errors]")
{
  const batch b                        = lay_out_random(uniform_sizes(100, 1, 200, 30), 30);
  const std::vector<std::uint8_t> data = strata_test::random_vector<std::uint8_t>(b.src_bytes, 30);
  const device_buffer<std::uint8_t> d_src(data);
  device_buffer<std::uint8_t> d_dst(b.dst_bytes);
  std::vector<void*> srcs, dsts;
  std::vector<std::int64_t> sizes;
  for (std::size_t i = 0; i < b.sizes.size(); ++i)
  {
    srcs.push_back(d_src.data() + b.src_offsets[i]);
    dsts.push_back(d_dst.data() + b.dst_offsets[i]);
    sizes.push_back(static_cast<std::int64_t>(b.sizes[i]));
  }
  const device_buffer<void*> d_srcs(srcs);
  const device_buffer<void*> d_dsts(dsts);
  const device_buffer<std::int64_t> d_sizes(sizes);
  device_buffer<char> d_temp(1 << 16);
  const std::int64_t n = static_cast<std::int64_t>(srcs.size());
  std::size_t bytes    = 1 << 16;
  using strata::DeviceMemcpy;
  CHECK(DeviceMemcpy::Batched(d_temp.data(), bytes, d_srcs.data(), d_dsts.data(), d_sizes.data(), -1)
        == cudaErrorInvalidValue);
  CHECK(DeviceMemcpy::Batched(nullptr, bytes, d_srcs.data(), d_dsts.data(), d_sizes.data(), std::int64_t(-5))
        == cudaErrorInvalidValue);
  CHECK(DeviceMemcpy::Batched(d_temp.data(), bytes, static_cast<void**>(nullptr), d_dsts.data(), d_sizes.data(), n)
        == cudaErrorInvalidValue);
  CHECK(DeviceMemcpy::Batched(d_temp.data(), bytes, d_srcs.data(), static_cast<void**>(nullptr), d_sizes.data(), n)
        == cudaErrorInvalidValue);
  CHECK(
    DeviceMemcpy::Batched(d_temp.data(), bytes, d_srcs.data(), d_dsts.data(), static_cast<std::int64_t*>(nullptr), n)
    == cudaErrorInvalidValue);
  CHECK(DeviceMemcpy::Batched(d_srcs.data(), d_dsts.data(), d_sizes.data(), -2) == cudaErrorInvalidValue);
  std::size_t needed = 0;
  REQUIRE(DeviceMemcpy::Batched(nullptr, needed, d_srcs.data(), d_dsts.data(), d_sizes.data(), n) == cudaSuccess);
  REQUIRE(needed > 1);
  std::size_t too_little = needed - 1;
  CHECK(DeviceMemcpy::Batched(d_temp.data(), too_little, d_srcs.data(), d_dsts.data(), d_sizes.data(), n)
        == cudaErrorInvalidValue);
  CHECK(DeviceMemcpy::Batched(static_cast<void*>(nullptr), too_little, d_srcs.data(), d_dsts.data(), d_sizes.data(),
                              n)
        == cudaSuccess); // a size query
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_dst.download()));
  CHECK(d_src.download() == data);
  // Negative sizes copy nothing.
  std::vector<std::int64_t> negative(sizes.size(), -7);
  const device_buffer<std::int64_t> d_negative(negative);
  REQUIRE(DeviceMemcpy::Batched(d_temp.data(), bytes, d_srcs.data(), d_dsts.data(), d_negative.data(), n)
          == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_dst.download()));
}

namespace
{
__host__ __device__ inline std::uint8_t byte_at(std::size_t i)
{
  std::uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 29;
  return static_cast<std::uint8_t>(x >> 17);
}

__global__ void fill_bytes(std::uint8_t* data, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    data[i] = byte_at(i);
  }
}

// Counts the bytes of dst[0, n) that are not src_start's bytes (byte_at(src_start + i)) and, outside [lo, hi), the
// bytes that are not the poison.
__global__ void count_wrong(const std::uint8_t* dst, std::size_t n, std::size_t lo, std::size_t hi,
                            std::size_t src_start, unsigned long long* wrong)
{
  unsigned long long bad = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    const std::uint8_t expected = i >= lo && i < hi ? byte_at(src_start + (i - lo)) : strata_test::poison_byte;
    bad += dst[i] != expected;
  }
  if (bad != 0)
  {
    atomicAdd(wrong, bad);
  }
}
} // namespace

TEST_CASE("DeviceMemcpy::Batched: a buffer of 1 GiB, and more than 2^32 bytes in all", "[device][memcpy][large]")
{
  // Buffers of 1 GiB + 3 bytes from source offset 5 + k to destination offset 16 k + 11 + k of their own arenas.
  const std::size_t gib   = std::size_t(1) << 30;
  const std::size_t size  = gib + 3;
  const std::size_t arena = size + 64;
  std::size_t free_bytes  = 0;
  std::size_t total_bytes = 0;
  STRATA_TEST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  // One buffer where 2.5 GiB are free; five (5 GiB + 15 bytes in all) where 11 GiB are.
  const std::size_t count = free_bytes >= 11 * gib ? 5 : free_bytes >= 5 * gib / 2 ? 1 : 0;
  if (count == 0)
  {
    STRATA_TEST_SKIP("needs 2560 MiB of free device memory; the device has " << (free_bytes >> 20) << " MiB free");
  }
  CAPTURE(count);
  device_buffer<std::uint8_t> d_src(arena);
  fill_bytes<<<1024, 256>>>(d_src.data(), arena);
  STRATA_TEST_SYNC();
  std::vector<std::uint8_t*> d_dsts(count);
  for (auto& d : d_dsts)
  {
    STRATA_TEST_CUDA(cudaMalloc(&d, arena));
    STRATA_TEST_CUDA(cudaMemset(d, strata_test::poison_byte, arena));
  }
  std::vector<void*> srcs(count), dsts(count);
  std::vector<std::size_t> sizes(count, size);
  for (std::size_t k = 0; k < count; ++k)
  {
    srcs[k] = d_src.data() + 5 + k;
    dsts[k] = d_dsts[k] + 11 + k;
  }
  const device_buffer<void*> d_srcs(srcs);
  const device_buffer<void*> d_dst_ptrs(dsts);
  const device_buffer<std::size_t> d_sizes(sizes);
  REQUIRE(strata::DeviceMemcpy::Batched(d_srcs.data(), d_dst_ptrs.data(), d_sizes.data(), count) == cudaSuccess);
  STRATA_TEST_SYNC();
  device_buffer<unsigned long long> d_wrong(1);
  STRATA_TEST_CUDA(cudaMemset(d_wrong.data(), 0, sizeof(unsigned long long)));
  for (std::size_t k = 0; k < count; ++k)
  {
    count_wrong<<<1024, 256>>>(d_dsts[k], arena, 11 + k, 11 + k + size, 5 + k, d_wrong.data());
  }
  STRATA_TEST_SYNC();
  CHECK(d_wrong.download()[0] == 0);
  for (auto d : d_dsts)
  {
    STRATA_TEST_CUDA(cudaFree(d));
  }
}
