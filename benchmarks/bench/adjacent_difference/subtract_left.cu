// DeviceAdjacentDifference::SubtractLeftCopy (a - b) in the tuning format. The search space is declared below; the
// tuning driver compiles this file once per point with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1
// (the defaults of tuning_adjacent_difference.cuh) to compare against. TUNE_LOAD: 0 warp-transposed reads, 1 direct
// (vectorized) reads; TUNE_STORE: 0 warp-transposed writes, 1 direct (vectorized) writes.
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 128:1024:64
// %RANGE% TUNE_ITEMS_PER_THREAD ipt 2:32:1
// %RANGE% TUNE_LOAD ld 0:1:1
// %RANGE% TUNE_STORE st 0:1:1
// %RANGE% TUNE_MIN_BLOCKS mb 1:8:1
#include <strata/device/dispatch/dispatch_adjacent_difference.cuh>

#include "bench_util.cuh"
#include "transform_ops.cuh"
#include "tuning_axes.cuh"

#include <cstdint>

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
    using AdjacentDifferencePolicy = strata::AgentAdjacentDifferencePolicy<
      TUNE_THREADS_PER_BLOCK, TUNE_ITEMS_PER_THREAD,
      TUNE_LOAD == 0 ? strata::BLOCK_LOAD_WARP_TRANSPOSE : strata::BLOCK_LOAD_DIRECT, strata::LOAD_DEFAULT,
      TUNE_STORE == 0 ? strata::BLOCK_STORE_WARP_TRANSPOSE : strata::BLOCK_STORE_DIRECT, TUNE_MIN_BLOCKS>;
  };
  using MaxPolicy = Policy;
};
template <typename T>
using hub_t = bench_policy_hub;
#else
template <typename T>
using hub_t = strata::detail::adjacent_difference::policy_hub<T, T>;
#endif

template <typename T>
void subtract_left(benchmark::State& state)
{
  const std::size_t n = std::size_t(1) << state.range(0);
  using Dispatch      = strata::DispatchAdjacentDifference<const T*, T*, strata_bench::wrapping_minus<T>, std::uint32_t,
                                                      false, true, hub_t<T>>;
  strata_bench::rotating_inputs<T> inputs(n);
  strata_bench::device_array<T> out(n);
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK(Dispatch::Dispatch(nullptr, bytes, inputs.at(0), out.get(), std::uint32_t(n),
                                        strata_bench::wrapping_minus<T>{}, 0));
  strata_bench::device_array<char> temp(bytes);
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK(Dispatch::Dispatch(temp.get(), bytes, inputs.next(), out.get(), std::uint32_t(n),
                                          strata_bench::wrapping_minus<T>{}, s));
  });
  strata_bench::set_counters(state, n, 2 * n * sizeof(T));
}
} // namespace

#define STRATA_SUBTRACT_LEFT_BENCH(token) \
  STRATA_TUNING_BENCH(subtract_left, "adjacent_difference_subtract_left", "T", token)

#ifdef TUNE_T
STRATA_SUBTRACT_LEFT_BENCH(TUNE_T)
#else
STRATA_SUBTRACT_LEFT_BENCH(I32)
STRATA_SUBTRACT_LEFT_BENCH(I64)
#endif

STRATA_BENCHMARK_MAIN()
