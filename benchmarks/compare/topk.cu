// DeviceTopK::MaxKeys against what a user of this toolkit's CUB does for the k largest keys: CCCL 3.0 has no
// cub::DeviceTopK, so cub::DeviceRadixSort::SortKeysDescending of the whole input, whose first k are the answer. Random
// floats (bench_util's: multiples of 2^-24 in [-0.5, 0.5)), 2^20, 2^24 and 2^28 of them rotated through more memory
// than the L2 holds, k = 10 and 10^4, unsorted and sorted results, all on the same buffers in one process; and "read",
// a kernel that only reads the input, the bound of anything that looks at every key. Names:
// topk/max_<unsorted|sorted>/f32/k=<k>/2^n/<strata|cub_sort|read>; scripts/compare_report.py prints the ratios. After
// timing, strata's sorted result must equal the first k keys of CUB's sort, and its unsorted result the same keys in
// some order.
#include <strata/device/device_topk.cuh>

#include <cub/device/device_radix_sort.cuh>

#include "bench_util.cuh"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace
{
enum class library
{
  strata,
  cub_sort,
  read
};

const char* name_of(library lib)
{
  return lib == library::strata ? "strata" : lib == library::cub_sort ? "cub_sort" : "read";
}

cudaError_t run(library lib, void* d_temp, std::size_t& bytes, const float* in, float* out, std::size_t n,
                std::size_t k, strata::topk_order order, cudaStream_t s)
{
  if (lib == library::strata)
  {
    // int counts: the sizes fit them, and they build the 32-bit offset kernels only.
    return strata::DeviceTopK::MaxKeys(d_temp, bytes, in, out, static_cast<int>(n), static_cast<int>(k), order, s);
  }
  return cub::DeviceRadixSort::SortKeysDescending(d_temp, bytes, in, out, static_cast<std::int64_t>(n), 0, 32, s);
}

void bench(benchmark::State& state, int log2_n, std::size_t k, strata::topk_order order, library lib)
{
  const std::size_t n = std::size_t(1) << log2_n;
  // The bytes that must move: the input read once (CUB's sort moves many times more).
  strata_bench::set_counters(state, n, n * sizeof(float));
  if (lib == library::read)
  {
    strata_bench::time_read<float>(state, n);
    return;
  }
  strata_bench::rotating_inputs<float> inputs(n);
  // strata writes k keys; CUB's sort writes all n.
  strata_bench::device_array<float> out(lib == library::strata ? k : n);
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK(run(lib, nullptr, bytes, inputs.at(0), out.get(), n, k, order, 0));
  strata_bench::device_array<char> temp(bytes);
  std::size_t turn = 0;
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK(run(lib, temp.get(), bytes, inputs.at(turn++), out.get(), n, k, order, s));
  });

  // Validate once per case (Google Benchmark calls the benchmark several times while it sizes the run).
  static std::set<std::tuple<int, std::size_t, int>> validated;
  if (lib == library::strata && validated.insert({log2_n, k, static_cast<int>(order)}).second)
  {
    std::size_t cub_bytes = 0;
    STRATA_BENCH_CHECK(run(library::cub_sort, nullptr, cub_bytes, inputs.at(0), nullptr, n, k, order, 0));
    strata_bench::device_array<char> cub_temp(cub_bytes);
    strata_bench::device_array<float> cub_out(n);
    STRATA_BENCH_CHECK(run(library::strata, temp.get(), bytes, inputs.at(0), out.get(), n, k, order, 0));
    STRATA_BENCH_CHECK(run(library::cub_sort, cub_temp.get(), cub_bytes, inputs.at(0), cub_out.get(), n, k, order, 0));
    std::vector<float> top(k), expected(k);
    STRATA_BENCH_CHECK(cudaMemcpy(top.data(), out.get(), k * sizeof(float), cudaMemcpyDeviceToHost));
    STRATA_BENCH_CHECK(cudaMemcpy(expected.data(), cub_out.get(), k * sizeof(float), cudaMemcpyDeviceToHost));
    if (order == strata::topk_order::unsorted)
    {
      std::sort(top.begin(), top.end(), std::greater<float>{});
    }
    if (top != expected)
    {
      state.SkipWithError("strata's top k differ from CUB's sort");
    }
  }
}

void register_cases()
{
  for (const strata::topk_order order : {strata::topk_order::unsorted, strata::topk_order::sorted})
  {
    for (const std::size_t k : {std::size_t(10), std::size_t(10000)})
    {
      for (const int log2_n : {20, 24, 28})
      {
        for (const library lib : {library::strata, library::cub_sort, library::read})
        {
          const std::string name = std::string("topk/max_")
                                 + (order == strata::topk_order::sorted ? "sorted" : "unsorted")
                                 + "/f32/k=" + std::to_string(k) + "/2^" + std::to_string(log2_n) + "/" + name_of(lib);
          benchmark::RegisterBenchmark(name.c_str(),
                                       [log2_n, k, order, lib](benchmark::State& st) {
                                         bench(st, log2_n, k, order, lib);
                                       })
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
        }
      }
    }
  }
}
} // namespace

int main(int argc, char** argv)
{
  register_cases();
  return strata_bench::run_benchmarks(argc, argv);
}
