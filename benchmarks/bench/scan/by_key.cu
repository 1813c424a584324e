// DeviceScan::InclusiveSumByKey in the tuning format, with keys in runs of random length (8 on average). The
// search space is declared below; the tuning driver compiles this file once per point with -DTUNE_BASE=0 and the
// TUNE_* values, and once with TUNE_BASE=1 (the tuned defaults of tuning_scan.cuh) to compare against.
// A scan by key scans (run head, value) pairs: each tile's keys and values are loaded with BlockLoad and the
// heads flagged against the key before the tile. TUNE_LOAD picks how keys and values are read: 0 warp-striped
// reads transposed through shared memory, 1 vectorized reads straight into each thread's consecutive items.
// A point whose tile does not fit in 48 KiB of static shared memory for a type reports that case as skipped.
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 128:1024:32
// %RANGE% TUNE_ITEMS_PER_THREAD ipt 7:24:1
// %RANGE% TUNE_LOAD ld 0:1:1
// %RANGE% TUNE_DELAY_NS d0 0:256:16
// %RANGE% TUNE_MAX_DELAY_NS dmax 0:2048:64
// %RANGE% TUNE_PREFETCH_QUARTERS pq 0:12:1
// %RANGE% TUNE_PERSISTENT ps 0:1:1
// %RANGE% TUNE_MIN_BLOCKS mb 1:8:1
#include <strata/device/device_scan.cuh>

#include "bench_util.cuh"
#include "tuning_axes.cuh"
#include "scan_tuning_policy.cuh"

#include <cuda/std/functional>

#include <cstdint>
#include <set>
#include <vector>

namespace
{
template <typename KeyT, typename ValueT>
using accum_t = strata::detail::accumulator_t<cuda::std::plus<>, ValueT>;

#if !TUNE_BASE
template <typename KeyT, typename ValueT>
using hub_t = scan_tuning_policy_hub;
#else
template <typename KeyT, typename ValueT>
using hub_t = strata::detail::scan::policy_hub<strata::detail::scan::segmented_value<accum_t<KeyT, ValueT>>,
                                               strata::detail::scan::segmented_op<cuda::std::plus<>>>;
#endif

// The dispatch DeviceScan::InclusiveSumByKey uses, with this file's hub.
template <typename KeyT, typename ValueT>
using dispatch_t = strata::DispatchScanByKey<const KeyT*, const ValueT*, ValueT*, cuda::std::equal_to<>,
                                             cuda::std::plus<>, strata::detail::scan::no_init, std::uint32_t,
                                             accum_t<KeyT, ValueT>, true, hub_t<KeyT, ValueT>>;

// Whether the scan kernel's shared memory fits the 48 KiB a kernel may declare statically.
template <typename KeyT, typename ValueT>
constexpr bool fits_shared_memory()
{
  using D      = dispatch_t<KeyT, ValueT>;
  using Policy = typename hub_t<KeyT, ValueT>::MaxPolicy::ScanPolicy;
  using Agent =
    strata::AgentScan<Policy, typename D::InputIt, ValueT*, typename D::PairOpT, strata::detail::scan::no_init,
                      typename D::PairT, std::uint32_t, true, typename D::OutputOpT>;
  return sizeof(typename Agent::TempStorage) <= 48 * 1024;
}

// Whether d_out holds the inclusive sums of each run of equal keys (integer values: exact, wrapping).
template <typename KeyT, typename ValueT>
bool sums_by_key_match(const KeyT* d_keys, const ValueT* d_values, const ValueT* d_out, std::size_t n)
{
  std::vector<KeyT> keys(n);
  std::vector<ValueT> values(n), out(n);
  STRATA_BENCH_CHECK(cudaMemcpy(keys.data(), d_keys, n * sizeof(KeyT), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(values.data(), d_values, n * sizeof(ValueT), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(ValueT), cudaMemcpyDeviceToHost));
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    if (i == 0 || keys[i] != keys[i - 1])
    {
      sum = 0;
    }
    sum += static_cast<std::uint64_t>(values[i]);
    if (out[i] != static_cast<ValueT>(sum))
    {
      return false;
    }
  }
  return true;
}

template <typename KeyT, typename ValueT>
void sum_by_key(benchmark::State& state)
{
  if constexpr (!fits_shared_memory<KeyT, ValueT>())
  {
    state.SkipWithError("the tile does not fit in static shared memory");
  }
  else
  {
    using Dispatch      = dispatch_t<KeyT, ValueT>;
    const std::size_t n = std::size_t(1) << state.range(0);
    strata_bench::rotating_inputs<ValueT> values(n);
    strata_bench::rotating_run_keys<KeyT> keys(values.sets(), n);
    strata_bench::device_array<ValueT> out(n);
    const auto run = [&](void* d_temp, std::size_t& temp_bytes, std::size_t turn, cudaStream_t s) {
      return Dispatch::Dispatch(d_temp, temp_bytes, keys.at(turn), values.at(turn), out.get(), {}, {}, {},
                                std::uint32_t(n), s);
    };
    strata_bench::two_phase_turns<decltype(run)> timed(run);
    timed.time(state);
    strata_bench::set_counters(state, n, n * (sizeof(KeyT) + 2 * sizeof(ValueT)));

    // Validate once per size (Google Benchmark calls this function several times while it sizes the run).
    static std::set<std::int64_t> validated;
    if (validated.insert(state.range(0)).second)
    {
      STRATA_BENCH_CHECK(cudaMemset(out.get(), 0xa5, n * sizeof(ValueT)));
      timed.once(0);
      if (!sums_by_key_match(keys.at(0), values.at(0), out.get(), n))
      {
        state.SkipWithError("wrong inclusive sums by key");
      }
    }
  }
}
} // namespace

#define STRATA_SCAN_BY_KEY_BENCH(key, value) \
  STRATA_TUNING_BENCH_PAIRS(sum_by_key, "scan_inclusive_sum_by_key", key, value)

#if defined(TUNE_KeyT) && defined(TUNE_ValueT)
STRATA_SCAN_BY_KEY_BENCH(TUNE_KeyT, TUNE_ValueT)
#else
STRATA_SCAN_BY_KEY_BENCH(I32, I32)
STRATA_SCAN_BY_KEY_BENCH(I32, I64)
STRATA_SCAN_BY_KEY_BENCH(I64, I32)
STRATA_SCAN_BY_KEY_BENCH(I8, I32)
#endif

STRATA_BENCHMARK_MAIN()
