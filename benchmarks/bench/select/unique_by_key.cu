// DeviceSelect::UniqueByKey in the tuning format: the first key of each run of equal keys (bench_util's run keys, 8
// on average) and its value. The search space is declared below; the tuning driver compiles this file once per point
// with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1 (the tuned defaults of tuning_select.cuh, the
// by-key workload) to compare against. TUNE_LOAD: 0 warp-striped reads transposed through shared memory, 1
// vectorized reads; TUNE_LOAD_MODIFIER: 0 LOAD_DEFAULT, 1 LOAD_PLAIN; TUNE_PREFETCH_VALUES: 1 asks L2 for each tile's
// values as the tile starts (AgentSelectPolicy's PREFETCH_VALUES). A point whose tile does not fit in 48 KiB of
// static shared memory for a type reports that case as skipped.
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
// %RANGE% TUNE_PREFETCH_VALUES pv 0:1:1
#include <strata/device/device_select.cuh>

#include "bench_util.cuh"
#include "tuning_axes.cuh"
#include "select_tuning_policy.cuh"

#include <cuda/std/functional>

#include <cstdint>
#include <set>
#include <type_traits>
#include <vector>

namespace
{
template <typename ValueT>
using values_t = strata::detail::select::by_key_values<const ValueT*, ValueT*>;

#if !TUNE_BASE
template <typename KeyT, typename ValueT>
using hub_t = select_tuning_policy_hub;
#else
template <typename KeyT, typename ValueT>
using hub_t = strata::detail::select::default_policy_hub_t<const KeyT*, false, values_t<ValueT>>;
#endif

template <typename KeyT, typename ValueT>
using dispatch_t =
  strata::DispatchSelect<const KeyT*, strata::detail::select::no_flags, KeyT*, std::uint32_t*,
                         strata::detail::select::no_select_op, cuda::std::equal_to<>, std::uint32_t,
                         strata::detail::select::mode::unique, false, values_t<ValueT>, hub_t<KeyT, ValueT>>;

// Whether the select kernel's shared memory fits the 48 KiB a kernel may declare statically.
template <typename KeyT, typename ValueT>
constexpr bool fits_shared_memory()
{
  using Policy = typename hub_t<KeyT, ValueT>::MaxPolicy::SelectPolicy;
  using Agent  = strata::AgentSelect<Policy, const KeyT*, strata::detail::select::no_flags, KeyT*, std::uint32_t*,
                                    strata::detail::select::no_select_op, cuda::std::equal_to<>, std::uint32_t,
                                    strata::detail::select::mode::unique, false, values_t<ValueT>>;
  return sizeof(typename Agent::TempStorage) <= 48 * 1024;
}

// Whether the first key of each run and its value, and the number of runs, are right.
template <typename KeyT, typename ValueT>
bool firsts_match(const KeyT* d_keys, const ValueT* d_values, const KeyT* d_unique, const ValueT* d_firsts,
                  const std::uint32_t* d_count, std::size_t n)
{
  std::vector<KeyT> keys(n), unique(n);
  std::vector<ValueT> values(n), firsts(n);
  std::uint32_t count = 0;
  STRATA_BENCH_CHECK(cudaMemcpy(keys.data(), d_keys, n * sizeof(KeyT), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(values.data(), d_values, n * sizeof(ValueT), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(unique.data(), d_unique, n * sizeof(KeyT), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(firsts.data(), d_firsts, n * sizeof(ValueT), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost));
  std::size_t run = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    if (i == 0 || keys[i] != keys[i - 1])
    {
      if (run >= count || unique[run] != keys[i] || firsts[run] != values[i])
      {
        return false;
      }
      ++run;
    }
  }
  return run == count;
}

template <typename KeyT, typename ValueT>
void unique_by_key(benchmark::State& state)
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
    strata_bench::device_array<KeyT> unique(n);
    strata_bench::device_array<ValueT> firsts(n);
    strata_bench::device_array<std::uint32_t> count(1);
    const auto run = [&](void* d_temp, std::size_t& temp_bytes, std::size_t turn, cudaStream_t s) {
      return Dispatch::Dispatch(d_temp, temp_bytes, keys.at(turn), nullptr, unique.get(), count.get(), {}, {},
                                std::uint32_t(n), s, values_t<ValueT>{values.at(turn), firsts.get()});
    };
    strata_bench::two_phase_turns<decltype(run)> timed(run);
    timed.time(state);
    std::uint32_t runs = 0;
    STRATA_BENCH_CHECK(cudaMemcpy(&runs, count.get(), sizeof(runs), cudaMemcpyDeviceToHost));
    strata_bench::set_counters(state, n, (n + runs) * (sizeof(KeyT) + sizeof(ValueT)));

    // Validate once per size (Google Benchmark calls this function several times while it sizes the run).
    static std::set<std::int64_t> validated;
    if (validated.insert(state.range(0)).second)
    {
      STRATA_BENCH_CHECK(cudaMemset(firsts.get(), 0xa5, n * sizeof(ValueT)));
      timed.once(0);
      if (!firsts_match(keys.at(0), values.at(0), unique.get(), firsts.get(), count.get(), n))
      {
        state.SkipWithError("wrong unique keys or values");
      }
    }
  }
}
} // namespace

#define STRATA_UNIQUE_BY_KEY_BENCH(key, value) STRATA_TUNING_BENCH_PAIRS(unique_by_key, "unique_by_key", key, value)

#if defined(TUNE_KeyT) && defined(TUNE_ValueT)
STRATA_UNIQUE_BY_KEY_BENCH(TUNE_KeyT, TUNE_ValueT)
#else
STRATA_UNIQUE_BY_KEY_BENCH(I32, I32)
STRATA_UNIQUE_BY_KEY_BENCH(I64, I64)
#endif

STRATA_BENCHMARK_MAIN()
