// DeviceReduce::Sum in the tuning format. The search space is declared below; the tuning driver compiles
// this file once per point with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1 (the tuned
// defaults of tuning_reduce.cuh) to compare against.
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 128:1024:128
// %RANGE% TUNE_BYTES_PER_THREAD bpt 16:128:16
// %RANGE% TUNE_BLOCKS_PER_SM bps 0:16:1
#include <strata/device/device_reduce.cuh>

#include "bench_util.cuh"
#include "tuning_axes.cuh"

#include <cstdint>
#include <string>

#ifndef TUNE_BASE
#  define TUNE_BASE 1
#endif

namespace
{
#if !TUNE_BASE
// A hub with a single MaxPolicy built from the TUNE_* values.
template <typename InputT>
struct bench_policy_hub
{
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using ReducePolicy =
      strata::AgentReducePolicy<TUNE_THREADS_PER_BLOCK,
                                strata::detail::reduce::items_for_bytes(TUNE_BYTES_PER_THREAD, sizeof(InputT)),
                                strata::BLOCK_REDUCE_WARP_REDUCTIONS, strata::LOAD_LDG, TUNE_BLOCKS_PER_SM>;
    using SingleTilePolicy = ReducePolicy;
  };
  using MaxPolicy = Policy;
};
template <typename T>
using hub_t = bench_policy_hub<T>;
#else
template <typename T>
using hub_t = strata::detail::reduce::policy_hub<T, T, cuda::std::plus<>>;
#endif

template <typename T>
void sum(benchmark::State& state)
{
  const std::size_t n = std::size_t(1) << state.range(0);
  using Dispatch =
    strata::DispatchReduce<const T*, T*, std::uint32_t, cuda::std::plus<>, T, T, strata::Identity, hub_t<T>>;
  strata_bench::rotating_inputs<T> inputs(n);
  strata_bench::device_array<T> out(1);
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK(Dispatch::Dispatch(nullptr, bytes, inputs.at(0), out.get(), std::uint32_t(n), {}, T{}, 0));
  strata_bench::device_array<char> temp(bytes);
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK(Dispatch::Dispatch(temp.get(), bytes, inputs.next(), out.get(), std::uint32_t(n), {}, T{}, s));
  });
  strata_bench::set_counters(state, n, n * sizeof(T));
}
} // namespace

#define STRATA_REDUCE_SUM_BENCH(token) STRATA_TUNING_BENCH(sum, "reduce_sum", "T", token)

#ifdef TUNE_T
STRATA_REDUCE_SUM_BENCH(TUNE_T)
#else
STRATA_ARITHMETIC_TYPES(STRATA_REDUCE_SUM_BENCH)
#endif

STRATA_BENCHMARK_MAIN()
