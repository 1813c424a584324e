// DeviceMemcpy::Batched in the tuning format. The search space is declared below; the tuning driver compiles this file
// once per point with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1 (the defaults of
// tuning_batch_memcpy.cuh) to compare against. Runtime axes: 2^k buffers (Elements{io}[pow2]) of sizes uniform in
// [MaxBytes / 8, MaxBytes] bytes (MaxBytes: 64, 4096, 1 MiB), back to back in a source arena of random bytes and at the
// same offsets in the destination arena, so that sources and destinations agree modulo 16; Skew:1 moves every
// destination 5 bytes further (sources and destinations then disagree modulo 16).
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 128:512:128
// %RANGE% TUNE_GRANULES_PER_THREAD gpt 2:8:2
// %RANGE% TUNE_BUFFER_COST bc 1:8:1
// %RANGE% TUNE_MIN_BLOCKS mb 1:4:1
// %RANGE% TUNE_SHIFTED_ROWS sr 1:2:1
#include <strata/device/dispatch/dispatch_batch_memcpy.cuh>

#include "bench_util.cuh"
#include "tuning_axes.cuh"

#include <cstdint>
#include <random>
#include <vector>

#ifndef TUNE_BASE
#  define TUNE_BASE 1
#endif

namespace
{
#if !TUNE_BASE
// A hub with a single MaxPolicy built from the TUNE_* values.
struct bench_policy_hub
{
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using BatchMemcpyPolicy =
      strata::AgentBatchMemcpyPolicy<TUNE_THREADS_PER_BLOCK, TUNE_GRANULES_PER_THREAD, TUNE_BUFFER_COST,
                                     TUNE_MIN_BLOCKS, 8, 1, TUNE_SHIFTED_ROWS>;
  };
  using MaxPolicy = Policy;
};
using hub_t = bench_policy_hub;
#else
using hub_t = strata::detail::batch_memcpy::policy_hub<0>;
#endif

void uniform(benchmark::State& state)
{
  const std::size_t count = std::size_t(1) << state.range(0);
  const auto max_bytes    = static_cast<std::uint32_t>(state.range(1));
  const std::size_t skew  = state.range(2) != 0 ? 5 : 0;
  using Dispatch = strata::DispatchBatchMemcpy<void**, void**, const std::uint32_t*, std::uint32_t, true, 1, hub_t>;
  std::mt19937_64 rng(0x5eed + state.range(0) * 131 + max_bytes);
  std::uniform_int_distribution<std::uint32_t> draw(max_bytes / 8, max_bytes);
  std::vector<std::uint32_t> sizes(count);
  std::vector<std::size_t> offsets(count);
  std::size_t total = 0;
  for (std::size_t i = 0; i < count; ++i)
  {
    sizes[i]   = draw(rng);
    offsets[i] = total;
    total += sizes[i];
  }
  strata_bench::device_array<std::uint8_t> src(total);
  strata_bench::device_array<std::uint8_t> dst(total + skew);
  strata_bench::fill_random(src.get(), total, 11);
  std::vector<void*> srcs(count), dsts(count);
  for (std::size_t i = 0; i < count; ++i)
  {
    srcs[i] = src.get() + offsets[i];
    dsts[i] = dst.get() + offsets[i] + skew;
  }
  strata_bench::device_array<void*> d_srcs(count);
  strata_bench::device_array<void*> d_dsts(count);
  strata_bench::device_array<std::uint32_t> d_sizes(count);
  STRATA_BENCH_CHECK(cudaMemcpy(d_srcs.get(), srcs.data(), count * sizeof(void*), cudaMemcpyHostToDevice));
  STRATA_BENCH_CHECK(cudaMemcpy(d_dsts.get(), dsts.data(), count * sizeof(void*), cudaMemcpyHostToDevice));
  STRATA_BENCH_CHECK(cudaMemcpy(d_sizes.get(), sizes.data(), count * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK(Dispatch::Dispatch(nullptr, bytes, d_srcs.get(), d_dsts.get(), d_sizes.get(),
                                        static_cast<std::uint32_t>(count), 0));
  strata_bench::device_array<char> temp(bytes);
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK(Dispatch::Dispatch(temp.get(), bytes, d_srcs.get(), d_dsts.get(), d_sizes.get(),
                                          static_cast<std::uint32_t>(count), s));
  });
  strata_bench::set_counters(state, count, 2 * total);
}
} // namespace

int main(int argc, char** argv)
{
  auto* bench = benchmark::RegisterBenchmark("batch_memcpy_uniform", uniform);
  for (const int skew : {0, 1})
  {
    bench->Args({16, 64, skew})->Args({20, 64, skew})->Args({16, 4096, skew})->Args({20, 4096, skew});
    bench->Args({12, 1 << 20, skew});
  }
  bench->ArgNames({"Elements{io}[pow2]", "MaxBytes", "Skew"})->UseManualTime()->Unit(benchmark::kMicrosecond);
  return strata_bench::run_benchmarks(argc, argv);
}
