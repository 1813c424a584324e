// DeviceSelect::If in the tuning format, with `x < threshold` selecting 1 or 50 percent of random items (the
// Selected axis, in percent). The search space is declared below; the tuning driver compiles this file once per
// point with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1 (the tuned defaults of
// tuning_select.cuh) to compare against. TUNE_LOAD: 0 warp-striped reads transposed through shared memory, 1
// vectorized reads; TUNE_LOAD_MODIFIER: 0 LOAD_DEFAULT, 1 LOAD_PLAIN; TUNE_BULK=1: inputs of TUNE_BULK_MIN_TILES tiles
// per SM and more run AgentSelectBulk, TUNE_BULK_ITEMS items per thread (select_tuning_policy.cuh). A point whose tile
// does not fit in 48 KiB of static shared memory for a type reports that case as skipped.
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 128:1024:32
// %RANGE% TUNE_ITEMS_PER_THREAD ipt 4:32:1
// %RANGE% TUNE_LOAD ld 0:1:1
// %RANGE% TUNE_LOAD_MODIFIER lm 0:1:1
// %RANGE% TUNE_DELAY_NS d0 0:256:16
// %RANGE% TUNE_MAX_DELAY_NS dmax 0:2048:64
// %RANGE% TUNE_PREFETCH_QUARTERS pq 0:12:1
// %RANGE% TUNE_PERSISTENT ps 0:1:1
// %RANGE% TUNE_MIN_BLOCKS mb 1:8:1
// %RANGE% TUNE_BULK bk 0:1:1
// %RANGE% TUNE_BULK_ITEMS bi 4:32:4
// %RANGE% TUNE_BULK_MIN_BLOCKS bmb 1:6:1
// %RANGE% TUNE_BULK_MIN_TILES bmt 0:4:1
#include <strata/device/device_select.cuh>

#include "bench_util.cuh"
#include "tuning_axes.cuh"
#include "select_tuning_policy.cuh"

namespace
{
#if !TUNE_BASE
template <typename T>
using hub_t = select_tuning_policy_hub;
#else
template <typename T>
using hub_t = strata::detail::select::policy_hub<T>;
#endif

template <typename T>
void select_if(benchmark::State& state)
{
  time_predicate_selection<T, false, hub_t<T>>(state, static_cast<int>(state.range(1)));
}
} // namespace

// "select_if/T{ct}:<TOKEN>/Elements{io}[pow2]:<k>/Selected:<percent>".
#define STRATA_SELECT_IF_BENCH(token)                                              \
  BENCHMARK(select_if<STRATA_TUNE_TYPE(token)>)                                    \
    ->Name(strata_bench::tuning_name("select_if", "T", STRATA_TUNE_STRING(token))) \
    ->ArgNames({"Elements{io}[pow2]", "Selected"})                                 \
    ->ArgsProduct({{16, 20, 24, 28}, {1, 50}})                                     \
    ->UseManualTime()                                                              \
    ->Unit(benchmark::kMicrosecond);

#ifdef TUNE_T
STRATA_SELECT_IF_BENCH(TUNE_T)
#else
STRATA_SELECT_IF_BENCH(I32)
STRATA_SELECT_IF_BENCH(I64)
#endif

STRATA_BENCHMARK_MAIN()
