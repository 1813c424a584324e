// BlockHistogram, BLOCK_HISTO_SORT and BLOCK_HISTO_ATOMIC: Histogram then Composite over several tiles per block,
// into a shared-memory histogram and into a per-block histogram in global memory (InitHistogram, then Composite),
// and, with atomics, into one global histogram composited by every block of the grid. Checked against host counts.
// Sample types of 1 to 4 bytes, 256 bins for 8-bit samples and smaller or larger bin counts (samples < BINS), block
// shapes with partial warps and 2-D, uniform, skewed and constant samples.
#include <strata/block/block_histogram.cuh>

#include "test_util.cuh"

#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

namespace
{
constexpr int GRID_BLOCKS     = 4;
constexpr int TILES_PER_BLOCK = 3;

struct no_storage
{};

template <typename SampleT, typename CounterT, int BX, int BY, int ITEMS, int BINS,
          strata::BlockHistogramAlgorithm ALGORITHM, bool PRIVATE_STORAGE>
__global__ void __launch_bounds__(BX * BY) histogram_kernel(const SampleT* d_samples, CounterT* d_smem_results,
                                                            CounterT* d_block_histograms, CounterT* d_grid_histogram)
{
  using BlockHistogramT = strata::BlockHistogram<SampleT, BX, ITEMS, BINS, ALGORITHM, BY>;
  using storage_t       = std::conditional_t<PRIVATE_STORAGE, no_storage, typename BlockHistogramT::TempStorage>;
  constexpr int THREADS = BX * BY;
  constexpr int TILE    = THREADS * ITEMS;
  __shared__ storage_t temp_storage;
  __shared__ CounterT smem_histogram[BINS];

  auto make = [&]() {
    if constexpr (PRIVATE_STORAGE)
    {
      return BlockHistogramT();
    }
    else
    {
      return BlockHistogramT(temp_storage);
    }
  };
  const int t                 = static_cast<int>(threadIdx.x + BX * threadIdx.y);
  CounterT* const block_histo = d_block_histograms + static_cast<std::size_t>(blockIdx.x) * BINS;
  auto load                   = [&](int tile, SampleT(&samples)[ITEMS]) {
    const std::size_t base = (static_cast<std::size_t>(blockIdx.x) * TILES_PER_BLOCK + tile) * TILE;
    for (int i = 0; i < ITEMS; ++i)
    {
      samples[i] = d_samples[base + t * ITEMS + i];
    }
  };

  // The global per-block histogram is zeroed by InitHistogram; atomics from any thread must wait for all of it.
  make().InitHistogram(block_histo);
  __syncthreads();

  // Consecutive calls on one TempStorage, without barriers between them.
  for (int tile = 0; tile < TILES_PER_BLOCK; ++tile)
  {
    SampleT samples[ITEMS];
    load(tile, samples);
    if (tile == 0)
    {
      make().Histogram(samples, smem_histogram);
    }
    else
    {
      make().Composite(samples, smem_histogram);
    }
    load(tile, samples);
    make().Composite(samples, block_histo);
    if constexpr (ALGORITHM == strata::BLOCK_HISTO_ATOMIC)
    {
      make().Composite(samples, d_grid_histogram);
    }
  }

  __syncthreads();
  for (int bin = t; bin < BINS; bin += THREADS)
  {
    d_smem_results[static_cast<std::size_t>(blockIdx.x) * BINS + bin] = smem_histogram[bin];
  }
}

enum class sample_mix
{
  uniform, // every bin equally likely
  skewed,  // three bins, one of them taking most samples
  constant // one bin (the last)
};

const char* mix_name(sample_mix m)
{
  switch (m)
  {
    case sample_mix::uniform:
      return "uniform";
    case sample_mix::skewed:
      return "skewed";
    case sample_mix::constant:
      return "constant";
  }
  return "?";
}

template <typename SampleT, int BINS>
std::vector<SampleT> make_samples(std::size_t n, sample_mix mix, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  const int hot[3]    = {static_cast<int>(rng() % BINS), static_cast<int>(rng() % BINS), BINS - 1};
  std::vector<SampleT> samples(n);
  for (auto& s : samples)
  {
    int bin = BINS - 1;
    if (mix == sample_mix::uniform)
    {
      bin = static_cast<int>(rng() % BINS);
    }
    else if (mix == sample_mix::skewed)
    {
      const int r = static_cast<int>(rng() % 8);
      bin         = hot[r < 6 ? 0 : (r < 7 ? 1 : 2)];
    }
    s = static_cast<SampleT>(bin);
  }
  return samples;
}

template <typename SampleT, typename CounterT, int BX, int BY, int ITEMS, int BINS,
          strata::BlockHistogramAlgorithm ALGORITHM, bool PRIVATE_STORAGE = false>
void check_histogram(std::uint64_t salt)
{
  constexpr int TILE              = BX * BY * ITEMS;
  constexpr bool ATOMIC           = ALGORITHM == strata::BLOCK_HISTO_ATOMIC;
  constexpr std::size_t PER_BLOCK = static_cast<std::size_t>(TILE) * TILES_PER_BLOCK;
  INFO((ATOMIC ? "BLOCK_HISTO_ATOMIC" : "BLOCK_HISTO_SORT")
       << ", block " << BX << "x" << BY << ", " << ITEMS << " samples per thread of " << sizeof(SampleT) << " bytes, "
       << BINS << " bins" << (PRIVATE_STORAGE ? ", private storage" : ""));
  for (sample_mix mix : {sample_mix::uniform, sample_mix::skewed, sample_mix::constant})
  {
    INFO("samples " << mix_name(mix));
    const std::vector<SampleT> samples = make_samples<SampleT, BINS>(PER_BLOCK * GRID_BLOCKS, mix, salt);

    // Host counts, per block and over the grid.
    std::vector<CounterT> expected_blocks(static_cast<std::size_t>(BINS) * GRID_BLOCKS, CounterT(0));
    std::vector<CounterT> expected_grid(BINS, CounterT(0));
    for (std::size_t i = 0; i < samples.size(); ++i)
    {
      const int bin = static_cast<int>(samples[i]);
      expected_blocks[(i / PER_BLOCK) * BINS + bin] += CounterT(1);
      expected_grid[bin] += CounterT(1);
    }

    strata_test::device_buffer<SampleT> d_samples(samples);
    strata_test::device_buffer<CounterT> d_smem_results(expected_blocks.size());
    strata_test::device_buffer<CounterT> d_block_histograms(expected_blocks.size());
    strata_test::device_buffer<CounterT> d_grid_histogram(BINS);
    STRATA_TEST_CUDA(cudaMemset(d_grid_histogram.data(), 0, sizeof(CounterT) * BINS));
    histogram_kernel<SampleT, CounterT, BX, BY, ITEMS, BINS, ALGORITHM, PRIVATE_STORAGE>
      <<<GRID_BLOCKS, dim3(BX, BY)>>>(d_samples.data(), d_smem_results.data(), d_block_histograms.data(),
                                      d_grid_histogram.data());
    STRATA_TEST_SYNC();

    {
      INFO("Histogram + Composite into shared memory, per block");
      STRATA_REQUIRE_EQUAL_VECTORS(d_smem_results.download(), expected_blocks);
    }
    {
      INFO("InitHistogram + Composite into global memory, per block");
      STRATA_REQUIRE_EQUAL_VECTORS(d_block_histograms.download(), expected_blocks);
    }
    if (ATOMIC)
    {
      INFO("Composite by every block into one global histogram");
      STRATA_REQUIRE_EQUAL_VECTORS(d_grid_histogram.download(), expected_grid);
    }
  }
}

template <typename SampleT, typename CounterT, int BX, int BY, int ITEMS, int BINS, bool PRIVATE_STORAGE = false>
void check_both_algorithms(std::uint64_t salt)
{
  check_histogram<SampleT, CounterT, BX, BY, ITEMS, BINS, strata::BLOCK_HISTO_SORT, PRIVATE_STORAGE>(salt);
  check_histogram<SampleT, CounterT, BX, BY, ITEMS, BINS, strata::BLOCK_HISTO_ATOMIC, PRIVATE_STORAGE>(salt);
}
} // namespace

TEST_CASE("BlockHistogram 8-bit samples, 256 bins", "[block][histogram]")
{
  SECTION("128 threads x 4 samples")
  {
    check_both_algorithms<std::uint8_t, unsigned int, 128, 1, 4, 256>(1);
  }
  SECTION("100 threads (partial last warp) x 7 samples")
  {
    check_both_algorithms<std::uint8_t, unsigned int, 100, 1, 7, 256>(2);
  }
  SECTION("1024 threads x 16 samples")
  {
    check_both_algorithms<std::uint8_t, unsigned int, 1024, 1, 16, 256>(3);
  }
  SECTION("32 threads x 1 sample (fewer threads and samples than bins)")
  {
    check_both_algorithms<std::uint8_t, int, 32, 1, 1, 256>(4);
  }
}

TEST_CASE("BlockHistogram fewer bins than the sample type holds", "[block][histogram]")
{
  SECTION("int16 samples, 37 bins, 100 threads x 7")
  {
    check_both_algorithms<std::int16_t, int, 100, 1, 7, 37>(11);
  }
  SECTION("int8 samples, 16 bins, 64 threads x 3")
  {
    check_both_algorithms<std::int8_t, unsigned int, 64, 1, 3, 16>(12);
  }
  SECTION("uint32 samples, 2 bins, 96 threads x 5")
  {
    check_both_algorithms<std::uint32_t, unsigned int, 96, 1, 5, 2>(13);
  }
}

TEST_CASE("BlockHistogram more bins than threads", "[block][histogram]")
{
  SECTION("uint16 samples, 1000 bins, 256 threads x 3, 64-bit counters")
  {
    check_both_algorithms<std::uint16_t, unsigned long long, 256, 1, 3, 1000>(21);
  }
  SECTION("int32 samples, 300 bins, 64 threads x 4")
  {
    check_both_algorithms<std::int32_t, unsigned int, 64, 1, 4, 300>(22);
  }
}

TEST_CASE("BlockHistogram 2-D block 16x8, private storage", "[block][histogram]")
{
  check_both_algorithms<std::uint32_t, unsigned int, 16, 8, 5, 64, true>(31);
  check_both_algorithms<std::uint8_t, unsigned int, 16, 8, 2, 256, true>(32);
}
