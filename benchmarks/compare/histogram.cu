// DeviceHistogram: strata against cub::DeviceHistogram on the same buffers in one process. HistogramEven of 8-bit
// samples into 256 bins over [0, 256) and of float samples (multiples of 2^-24 in [-0.5, 0.5)) into 1024 bins over
// [-0.5, 0.5), at 2^20, 2^24 and 2^28 samples, inputs rotated through more memory than the L2 holds. Each case is
// registered as ".../strata", ".../cub" and ".../read": a kernel that only reads the same bytes, the bound a histogram
// cannot beat. Names: histogram/<even_256/u8|even_1024/f32>/2^k/<library>; scripts/compare_report.py prints the
// ratios. After timing, strata's histogram is compared with CUB's on the same input, count for count.
#include <strata/device/device_histogram.cuh>

#include <cub/device/device_histogram.cuh>

#include "bench_util.cuh"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace
{
enum class library
{
  strata,
  cub,
  read
};

const char* name_of(library lib)
{
  return lib == library::strata ? "strata" : lib == library::cub ? "cub" : "read";
}

// A workload: the sample type, its levels and the case's name.
template <typename T>
struct workload;
template <>
struct workload<std::uint8_t>
{
  using level_type                  = int;
  static constexpr int levels       = 257;
  static constexpr level_type lower = 0;
  static constexpr level_type upper = 256;
  static constexpr const char* name = "even_256/u8";
};
template <>
struct workload<float>
{
  using level_type                  = float;
  static constexpr int levels       = 1025;
  static constexpr level_type lower = -0.5f;
  static constexpr level_type upper = 0.5f;
  static constexpr const char* name = "even_1024/f32";
};

// One library's HistogramEven of `n` samples at `in` into `hist`.
template <typename T>
cudaError_t run(library lib, void* d_temp, std::size_t& bytes, const T* in, int* hist, int n, cudaStream_t s)
{
  using W = workload<T>;
  if (lib == library::strata)
  {
    return strata::DeviceHistogram::HistogramEven(d_temp, bytes, in, hist, W::levels, W::lower, W::upper, n, s);
  }
  return cub::DeviceHistogram::HistogramEven(d_temp, bytes, in, hist, W::levels, W::lower, W::upper, n, s);
}

template <typename T>
void bench(benchmark::State& state, int log2_n, library lib)
{
  const int n             = 1 << log2_n;
  const std::size_t items = static_cast<std::size_t>(n);
  strata_bench::set_counters(state, items, items * sizeof(T));
  if (lib == library::read)
  {
    strata_bench::time_read<T>(state, items);
    return;
  }
  strata_bench::rotating_inputs<T> inputs(items);
  strata_bench::device_array<int> hist(workload<T>::levels - 1);
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK(run<T>(lib, nullptr, bytes, inputs.at(0), hist.get(), n, 0));
  strata_bench::device_array<char> temp(bytes);
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK(run<T>(lib, temp.get(), bytes, inputs.next(), hist.get(), n, s));
  });

  // Validate against CUB on one input, in strata's run only and once per case.
  static std::set<int> validated;
  if (lib == library::strata && validated.insert(log2_n).second)
  {
    const std::size_t bins = workload<T>::levels - 1;
    strata_bench::device_array<int> a(bins);
    strata_bench::device_array<int> b(bins);
    std::size_t cub_bytes = 0;
    STRATA_BENCH_CHECK(run<T>(library::cub, nullptr, cub_bytes, inputs.at(0), b.get(), n, 0));
    strata_bench::device_array<char> cub_temp(cub_bytes);
    STRATA_BENCH_CHECK(cudaMemset(a.get(), 0xa5, bins * sizeof(int)));
    STRATA_BENCH_CHECK(cudaMemset(b.get(), 0x5a, bins * sizeof(int)));
    STRATA_BENCH_CHECK(run<T>(library::strata, temp.get(), bytes, inputs.at(0), a.get(), n, 0));
    STRATA_BENCH_CHECK(run<T>(library::cub, cub_temp.get(), cub_bytes, inputs.at(0), b.get(), n, 0));
    std::vector<int> ha(bins), hb(bins);
    STRATA_BENCH_CHECK(cudaMemcpy(ha.data(), a.get(), bins * sizeof(int), cudaMemcpyDeviceToHost));
    STRATA_BENCH_CHECK(cudaMemcpy(hb.data(), b.get(), bins * sizeof(int), cudaMemcpyDeviceToHost));
    long long total = 0;
    for (const int count : ha)
    {
      total += count;
    }
    if (ha != hb || total != static_cast<long long>(n))
    {
      state.SkipWithError("strata and cub disagree");
    }
  }
}

// histogram/<workload>/2^k/<library> for every size and library.
template <typename T>
void register_case()
{
  for (int log2_n : {20, 24, 28})
  {
    for (library lib : {library::strata, library::cub, library::read})
    {
      const std::string name =
        std::string("histogram/") + workload<T>::name + "/2^" + std::to_string(log2_n) + "/" + name_of(lib);
      benchmark::RegisterBenchmark(name.c_str(),
                                   [log2_n, lib](benchmark::State& st) {
                                     bench<T>(st, log2_n, lib);
                                   })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    }
  }
}
} // namespace

int main(int argc, char** argv)
{
  register_case<std::uint8_t>();
  register_case<float>();
  return strata_bench::run_benchmarks(argc, argv);
}
