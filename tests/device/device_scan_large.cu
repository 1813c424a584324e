// DeviceScan over more than 2^31 items: offsets past 2^31 in every tile and a running prefix carried past 2^31.
// The outputs take 8 GiB, so they are checked in windows (the start, around 2^31, the end) and at random
// positions, read back on their own; a uint32 sum of random data in place is checked whole on the device, against
// the hash its inputs were made from.
#include "device_scan_harness.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <random>
#include <vector>

namespace
{
// 32-bit unsigned addition: the accumulator of a scan with this operator is its result type, std::uint32_t,
// whatever the input type.
struct plus_u32
{
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const
  {
    return a + b;
  }
};

// The segment of position i when runs of `length` equal keys follow each other.
struct run_of
{
  unsigned long long length;
  __host__ __device__ unsigned long long operator()(unsigned long long i) const
  {
    return i / length;
  }
};

// Compares d_out[i] with expected(i) in windows of 2^16 outputs at the start and from 2^16 before 2^31 to the end
// (across 2^31, where 32-bit offsets would wrap), and at random positions.
template <typename Expected>
void check_samples(const std::uint32_t* d_out, std::size_t n, Expected expected)
{
  const std::size_t window = std::size_t(1) << 16;
  const std::size_t two31  = std::size_t(1) << 31;
  for (const std::size_t begin : {std::size_t(0), two31 - window})
  {
    const std::size_t count = begin == 0 ? window : n - begin;
    CAPTURE(begin);
    std::vector<std::uint32_t> actual(count);
    STRATA_TEST_CUDA(cudaMemcpy(actual.data(), d_out + begin, count * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    std::vector<std::uint32_t> wanted(count);
    for (std::size_t i = 0; i < count; ++i)
    {
      wanted[i] = expected(begin + i);
    }
    STRATA_REQUIRE_EQUAL_VECTORS(actual, wanted);
  }
  std::mt19937_64 rng = strata_test::make_rng(0x1a26e);
  std::uniform_int_distribution<std::size_t> position(0, n - 1);
  for (int k = 0; k < 256; ++k)
  {
    const std::size_t i = position(rng);
    CAPTURE(i);
    REQUIRE(device_scan_test::read_element(d_out, i) == expected(i));
  }
}
// A pseudo-random 32-bit value for position i (never all zeros).
__host__ __device__ std::uint32_t hash_of(std::size_t i)
{
  std::uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ULL;
  return static_cast<std::uint32_t>(x >> 29);
}

__global__ void fill_hashes(std::uint32_t* data, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    data[i] = hash_of(i);
  }
}

// Counts the positions where sums[i] - sums[i - 1] (sums[0] at 0) is not hash_of(i): the inclusive sums of the
// hashes, modulo 2^32, are the one sequence with none.
__global__ void count_wrong_sums(const std::uint32_t* sums, std::size_t n, unsigned long long* wrong)
{
  unsigned long long mine = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    const std::uint32_t before = i == 0 ? 0u : sums[i - 1];
    mine += (sums[i] - before != hash_of(i)) ? 1u : 0u;
  }
  if (mine != 0)
  {
    atomicAdd(wrong, mine);
  }
}
} // namespace

TEST_CASE("DeviceScan handles more than 2^31 items", "[device][scan][large]")
{
  // 2 GiB of int8 ones in memory and 8 GiB of 32-bit outputs.
  const std::size_t n = (std::size_t(1) << 31) + 1025;
  strata_test::device_buffer<std::int8_t> d_in(n);
  STRATA_TEST_CUDA(cudaMemset(d_in.data(), 1, n));
  strata_test::device_buffer<std::uint32_t> d_out(n);

  SECTION("InclusiveScan of int8 ones in memory, accumulated in uint32")
  {
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::InclusiveScan(temp, bytes, d_in.data(), d_out.data(), plus_u32{}, n, s);
    });
    check_samples(d_out.data(), n, [](std::size_t i) {
      return static_cast<std::uint32_t>(i + 1);
    });
  }
  SECTION("ExclusiveScan of constant_iterator<int8_t>(1) with a uint32 initial value")
  {
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::ExclusiveScan(temp, bytes, thrust::constant_iterator<std::int8_t>(1), d_out.data(),
                                               cuda::std::plus<>{}, std::uint32_t{5}, n, s);
    });
    check_samples(d_out.data(), n, [](std::size_t i) {
      return static_cast<std::uint32_t>(i + 5);
    });
  }
  SECTION("InclusiveSum of random uint32 in memory, in place")
  {
    fill_hashes<<<4096, 256>>>(d_out.data(), n);
    STRATA_TEST_CUDA(cudaGetLastError());
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::InclusiveSum(temp, bytes, d_out.data(), n, s);
    });
    strata_test::device_buffer<unsigned long long> wrong(1);
    STRATA_TEST_CUDA(cudaMemset(wrong.data(), 0, sizeof(unsigned long long)));
    count_wrong_sums<<<4096, 256>>>(d_out.data(), n, wrong.data());
    STRATA_TEST_CUDA(cudaGetLastError());
    REQUIRE(wrong.download()[0] == 0);
  }
  SECTION("InclusiveSumByKey of uint32 ones under runs of 1000003 keys")
  {
    const unsigned long long run = 1000003;
    auto keys = thrust::make_transform_iterator(thrust::counting_iterator<unsigned long long>(0), run_of{run});
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::InclusiveSumByKey(temp, bytes, keys, thrust::constant_iterator<std::uint32_t>(1),
                                                   d_out.data(), n, cuda::std::equal_to<>{}, s);
    });
    check_samples(d_out.data(), n, [run](std::size_t i) {
      return static_cast<std::uint32_t>(i % run + 1);
    });
  }
}
