// DevicePartition::If in the tuning format: `x < threshold` selecting 50 percent of random items, the selected ones
// first in order and the rest after them in reverse order (every item written). The search space is declared below;
// the tuning driver compiles this file once per point with -DTUNE_BASE=0 and the TUNE_* values, and once with
// TUNE_BASE=1 (the tuned defaults of tuning_select.cuh, the partition workload) to compare against. TUNE_LOAD: 0
// warp-striped reads transposed through shared memory, 1 vectorized reads; TUNE_LOAD_MODIFIER: 0 LOAD_DEFAULT, 1
// LOAD_PLAIN; TUNE_BULK=1: inputs of TUNE_BULK_MIN_TILES tiles per SM and more run AgentSelectBulk, TUNE_BULK_ITEMS
// items per thread (select_tuning_policy.cuh). A point whose tile does not fit in 48 KiB of static shared memory for a
// type reports that case as skipped.
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
#include <strata/device/device_partition.cuh>

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
using hub_t = strata::detail::select::policy_hub<T, strata::detail::select::workload::partition>;
#endif

template <typename T>
void partition_if(benchmark::State& state)
{
  time_predicate_selection<T, true, hub_t<T>>(state, 50);
}
} // namespace

#define STRATA_PARTITION_IF_BENCH(token) STRATA_TUNING_BENCH(partition_if, "partition_if", "T", token)

#ifdef TUNE_T
STRATA_PARTITION_IF_BENCH(TUNE_T)
#else
STRATA_PARTITION_IF_BENCH(I32)
STRATA_PARTITION_IF_BENCH(I64)
#endif

STRATA_BENCHMARK_MAIN()
