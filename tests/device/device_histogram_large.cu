// DeviceHistogram with more than 2^31 8-bit samples (64-bit offsets): HistogramEven over the whole input, and the 2D
// form over two rows of 2^30 + 3 samples with padding between them, from a start that is not 16-byte aligned,
// against counts made on the host.
#include "device_histogram_harness.cuh"

#include <cstdint>
#include <vector>

namespace
{
__host__ __device__ inline std::uint8_t large_sample(std::size_t i)
{
  return static_cast<std::uint8_t>((i * 7 + i / 1000) % 251);
}

__global__ void fill_large(std::uint8_t* data, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    data[i] = large_sample(i);
  }
}
} // namespace

TEST_CASE("DeviceHistogram: more than 2^31 samples", "[device][histogram][large]")
{
  const std::size_t n = (std::size_t(1) << 31) + 4097;
  histogram_test::device_buffer<std::uint8_t> d_samples(n);
  fill_large<<<1024, 256>>>(d_samples.data(), n);
  STRATA_TEST_SYNC();
  histogram_test::device_buffer<unsigned int> d_histogram(256);

  // 1D: 256 bins of one value each.
  REQUIRE(
    strata::DeviceHistogram::HistogramEven(d_samples.data(), d_histogram.data(), 257, 0, 256, static_cast<long long>(n))
    == cudaSuccess);
  STRATA_TEST_SYNC();
  std::vector<unsigned int> expected(256, 0u);
  for (std::size_t i = 0; i < n; ++i)
  {
    ++expected[large_sample(i)];
  }
  STRATA_REQUIRE_EQUAL_VECTORS(d_histogram.download(), expected);

  // 2D: two rows of 2^30 + 3 samples, 2^30 + 11 apart, from sample 5; 64 bins over [10, 250).
  const long long row    = (1LL << 30) + 3;
  const long long stride = (1LL << 30) + 11;
  d_histogram.poison();
  REQUIRE(strata::DeviceHistogram::HistogramEven(d_samples.data() + 5, d_histogram.data(), 65, 10, 250, row, 2LL,
                                                 static_cast<std::size_t>(stride))
          == cudaSuccess);
  STRATA_TEST_SYNC();
  std::vector<unsigned int> expected_2d(64, 0u);
  for (long long r = 0; r < 2; ++r)
  {
    for (long long i = 0; i < row; ++i)
    {
      const int s = large_sample(static_cast<std::size_t>(5 + r * stride + i));
      if (s >= 10 && s < 250)
      {
        ++expected_2d[static_cast<std::size_t>((s - 10) * 64 / 240)];
      }
    }
  }
  std::vector<unsigned int> got = d_histogram.download();
  got.resize(64);
  STRATA_REQUIRE_EQUAL_VECTORS(got, expected_2d);
}
