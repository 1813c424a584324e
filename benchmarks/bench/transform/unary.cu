// DeviceTransform of one input (x * 2) in the tuning format. The search space is declared below; the tuning
// driver compiles this file once per point with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1
// (the tuned defaults of tuning_transform.cuh) to compare against.
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 128:1024:128
// %RANGE% TUNE_VECTORS_PER_THREAD vpt 1:16:1
// %RANGE% TUNE_LOAD_MODIFIER ld 0:1:1
// %RANGE% TUNE_STORE_MODIFIER st 0:1:1
// %RANGE% TUNE_PREFETCH_QUARTERS pq 0:8:1
// (ld 1: streaming loads, LOAD_CS; st 1: streaming stores, STORE_CS; pq: L2 prefetch of the tile pq quarter waves
// ahead, 0: none.)
#include <strata/device/dispatch/dispatch_transform.cuh>

#include "bench_util.cuh"
#include "tuning_axes.cuh"
#include "transform_ops.cuh"

#include <cuda/std/tuple>

#include <cstdint>

#ifndef TUNE_BASE
#  define TUNE_BASE 1
#endif
#ifndef TUNE_LOAD_MODIFIER
#  define TUNE_LOAD_MODIFIER 0
#endif
#ifndef TUNE_STORE_MODIFIER
#  define TUNE_STORE_MODIFIER 0
#endif
#ifndef TUNE_PREFETCH_QUARTERS
#  define TUNE_PREFETCH_QUARTERS 0
#endif

namespace
{
#if !TUNE_BASE
// A hub with a single MaxPolicy built from the TUNE_* values.
struct bench_policy_hub
{
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using TransformPolicy = strata::AgentTransformPolicy<
      TUNE_THREADS_PER_BLOCK, TUNE_VECTORS_PER_THREAD, TUNE_LOAD_MODIFIER ? strata::LOAD_CS : strata::LOAD_PLAIN,
      TUNE_STORE_MODIFIER ? strata::STORE_CS : strata::STORE_DEFAULT, TUNE_PREFETCH_QUARTERS>;
  };
  using MaxPolicy = Policy;
};
using hub_t = bench_policy_hub;
#else
using hub_t = strata::detail::transform::policy_hub;
#endif

template <typename T>
void unary(benchmark::State& state)
{
  const std::size_t n = std::size_t(1) << state.range(0);
  using OpT           = strata_bench::twice<T>;
  using Dispatch      = strata::DispatchTransform<std::uint32_t, OpT, T*, hub_t, strata::detail::host_count, const T*>;
  strata_bench::rotating_inputs<T> inputs(n);
  strata_bench::device_array<T> out(n);
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK(Dispatch::Dispatch(cuda::std::make_tuple(static_cast<const T*>(inputs.next())), out.get(),
                                          std::uint32_t(n), OpT{}, s));
  });
  strata_bench::set_counters(state, n, 2 * n * sizeof(T));
}
} // namespace

#define STRATA_TRANSFORM_UNARY_BENCH(token) STRATA_TUNING_BENCH(unary, "transform_unary", "T", token)

#ifdef TUNE_T
STRATA_TRANSFORM_UNARY_BENCH(TUNE_T)
#else
STRATA_ARITHMETIC_TYPES(STRATA_TRANSFORM_UNARY_BENCH)
#endif

STRATA_BENCHMARK_MAIN()
