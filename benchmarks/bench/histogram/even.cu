// DeviceHistogram::HistogramEven in the tuning format: 8-bit samples into 256 bins over [0, 256) (U8) and float
// samples in [-0.5, 0.5) into 1024 bins (F32). The search space is declared below; the tuning driver compiles this file
// once per point with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1 (the defaults of
// tuning_histogram.cuh) to compare against. TUNE_MAX_COPIES_LOG2: at most 2^k copies of the counters (0: one);
// TUNE_COUNTER_KIB: the shared memory the copies may take; TUNE_LOAD: 0 the read-only path (ld.global.nc), 1 streaming
// (ld.global.cs).
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 128:1024:128
// %RANGE% TUNE_VECTORS_PER_THREAD vpt 1:8:1
// %RANGE% TUNE_MAX_COPIES_LOG2 cp 0:5:1
// %RANGE% TUNE_COUNTER_KIB ck 16:128:16
// %RANGE% TUNE_MIN_BLOCKS mb 1:4:1
// %RANGE% TUNE_LOAD ld 0:1:1
#include <strata/device/dispatch/dispatch_histogram.cuh>

#include "bench_util.cuh"
#include "tuning_axes.cuh"

#include <cstdint>
#include <type_traits>

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
    using HistogramPolicy =
      strata::AgentHistogramPolicy<TUNE_THREADS_PER_BLOCK, TUNE_VECTORS_PER_THREAD,
                                   TUNE_LOAD == 0 ? strata::LOAD_LDG : strata::LOAD_CS, 1 << TUNE_MAX_COPIES_LOG2,
                                   TUNE_COUNTER_KIB * 1024, 4, TUNE_MIN_BLOCKS>;
  };
  using MaxPolicy = Policy;
};
template <typename T>
using hub_t = bench_policy_hub;
#else
template <typename T>
using hub_t = strata::detail::histogram::policy_hub<T, 1, 1>;
#endif

// The levels of each sample type's workload: 256 bins over [0, 256) for integers, 1024 over [-0.5, 0.5) for floats.
template <typename T>
struct levels
{
  static constexpr bool FLOATING = std::is_floating_point<T>::value;
  using type                     = std::conditional_t<FLOATING, T, int>;
  static constexpr int count     = FLOATING ? 1025 : 257;
  static constexpr type lower    = FLOATING ? type(-0.5) : type(0);
  static constexpr type upper    = FLOATING ? type(0.5) : type(256);
};

template <typename T>
void histogram_even(benchmark::State& state)
{
  const std::size_t n = std::size_t(1) << state.range(0);
  using L             = levels<T>;
  using LevelT        = typename L::type;
  using Dispatch      = strata::DispatchHistogram<1, 1, const T*, int, LevelT, std::uint32_t, hub_t<T>>;
  strata_bench::rotating_inputs<T> inputs(n);
  strata_bench::device_array<int> hist(L::count - 1);
  const auto call = [&](void* temp, std::size_t& bytes, const T* in, cudaStream_t s) {
    return Dispatch::DispatchEven(temp, bytes, in, cuda::std::array<int*, 1>{hist.get()},
                                  cuda::std::array<int, 1>{L::count}, cuda::std::array<LevelT, 1>{L::lower},
                                  cuda::std::array<LevelT, 1>{L::upper}, std::uint32_t(n), std::uint32_t(1),
                                  std::uint32_t(n), s);
  };
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK(call(nullptr, bytes, inputs.at(0), 0));
  strata_bench::device_array<char> temp(bytes);
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK(call(temp.get(), bytes, inputs.next(), s));
  });
  strata_bench::set_counters(state, n, n * sizeof(T));
}
} // namespace

#define STRATA_HISTOGRAM_EVEN_BENCH(token) STRATA_TUNING_BENCH(histogram_even, "histogram_even", "SampleT", token)

#ifdef TUNE_T
STRATA_HISTOGRAM_EVEN_BENCH(TUNE_T)
#else
STRATA_HISTOGRAM_EVEN_BENCH(U8)
STRATA_HISTOGRAM_EVEN_BENCH(F32)
#endif

STRATA_BENCHMARK_MAIN()
