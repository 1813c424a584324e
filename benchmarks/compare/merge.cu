// DeviceMerge: strata against cub::DeviceMerge on the same buffers in one process. MergeKeys of two sorted halves of
// 2^(k-1) u32 keys each, and MergePairs with u32 values, k = 20, 24, 28; random keys (sorted per half) rotated through
// more memory than the L2 holds. Names: merge/<keys|pairs>/u32/2^k/<library>; scripts/compare_report.py prints the
// ratios. After timing, strata's output is compared with CUB's bit for bit.
#include <strata/device/device_merge.cuh>

#include <cub/device/device_merge.cuh>

#include <thrust/device_ptr.h>
#include <thrust/sort.h>

#include "bench_util.cuh"

#include <cuda/std/functional>

#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace
{
enum class library
{
  strata,
  cub
};

const char* name_of(library lib)
{
  return lib == library::strata ? "strata" : "cub";
}

template <bool PAIRS>
cudaError_t run(library lib, void* d_temp, std::size_t& bytes, const std::uint32_t* keys, const std::uint32_t* values,
                std::int64_t half, std::uint32_t* keys_out, std::uint32_t* values_out, cudaStream_t s)
{
  if constexpr (PAIRS)
  {
    return lib == library::strata
           ? strata::DeviceMerge::MergePairs(d_temp, bytes, keys, values, half, keys + half, values + half, half,
                                             keys_out, values_out, cuda::std::less<>{}, s)
           : cub::DeviceMerge::MergePairs(d_temp, bytes, keys, values, half, keys + half, values + half, half, keys_out,
                                          values_out, cuda::std::less<>{}, s);
  }
  else
  {
    (void) values;
    (void) values_out;
    return lib == library::strata ? strata::DeviceMerge::MergeKeys(d_temp, bytes, keys, half, keys + half, half,
                                                                   keys_out, cuda::std::less<>{}, s)
                                  : cub::DeviceMerge::MergeKeys(d_temp, bytes, keys, half, keys + half, half, keys_out,
                                                                cuda::std::less<>{}, s);
  }
}

template <bool PAIRS>
void bench(benchmark::State& state, int log2_n, library lib)
{
  const std::size_t n     = std::size_t(1) << log2_n;
  const std::int64_t half = static_cast<std::int64_t>(n / 2);
  strata_bench::set_counters(state, n, (PAIRS ? 4 : 2) * n * sizeof(std::uint32_t));
  // Input sets: each half sorted.
  strata_bench::rotating_inputs<std::uint32_t> keys(n);
  for (std::size_t s = 0; s < keys.sets(); ++s)
  {
    thrust::device_ptr<std::uint32_t> p(keys.at(s));
    thrust::sort(p, p + half);
    thrust::sort(p + half, p + static_cast<std::int64_t>(n));
  }
  strata_bench::rotating_inputs<std::uint32_t> values(PAIRS ? n : 1);
  strata_bench::device_array<std::uint32_t> keys_out(n), values_out(PAIRS ? n : 1);
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK(
    run<PAIRS>(lib, nullptr, bytes, keys.at(0), values.at(0), half, keys_out.get(), values_out.get(), 0));
  strata_bench::device_array<char> temp(bytes);
  std::size_t turn = 0;
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    const std::size_t t = turn++;
    STRATA_BENCH_CHECK(
      run<PAIRS>(lib, temp.get(), bytes, keys.at(t), values.at(t), half, keys_out.get(), values_out.get(), s));
  });

  static std::set<int> validated;
  if (lib == library::strata && validated.insert(log2_n).second)
  {
    std::size_t cub_bytes = 0;
    STRATA_BENCH_CHECK(run<PAIRS>(library::cub, nullptr, cub_bytes, keys.at(0), values.at(0), half, keys_out.get(),
                                  values_out.get(), 0));
    strata_bench::device_array<char> cub_temp(cub_bytes);
    strata_bench::device_array<std::uint32_t> cub_keys(n), cub_values(PAIRS ? n : 1);
    STRATA_BENCH_CHECK(run<PAIRS>(library::strata, temp.get(), bytes, keys.at(0), values.at(0), half, keys_out.get(),
                                  values_out.get(), 0));
    STRATA_BENCH_CHECK(run<PAIRS>(library::cub, cub_temp.get(), cub_bytes, keys.at(0), values.at(0), half,
                                  cub_keys.get(), cub_values.get(), 0));
    const std::size_t m = PAIRS ? n : 1;
    std::vector<std::uint32_t> a(n), b(n), va(m), vb(m);
    STRATA_BENCH_CHECK(cudaMemcpy(a.data(), keys_out.get(), n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    STRATA_BENCH_CHECK(cudaMemcpy(b.data(), cub_keys.get(), n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    STRATA_BENCH_CHECK(cudaMemcpy(va.data(), values_out.get(), m * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    STRATA_BENCH_CHECK(cudaMemcpy(vb.data(), cub_values.get(), m * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    if (a != b || (PAIRS && va != vb))
    {
      state.SkipWithError("strata and cub disagree");
    }
  }
}

template <bool PAIRS>
void register_case()
{
  for (int log2_n : {20, 24, 28})
  {
    for (library lib : {library::strata, library::cub})
    {
      const std::string name =
        std::string("merge/") + (PAIRS ? "pairs" : "keys") + "/u32/2^" + std::to_string(log2_n) + "/" + name_of(lib);
      benchmark::RegisterBenchmark(name.c_str(),
                                   [log2_n, lib](benchmark::State& st) {
                                     bench<PAIRS>(st, log2_n, lib);
                                   })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    }
  }
}
} // namespace

int main(int argc, char** argv)
{
  register_case<false>();
  register_case<true>();
  return strata_bench::run_benchmarks(argc, argv);
}
