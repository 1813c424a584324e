// DeviceSelect::UniqueByKey in the tuning format: the first key of each run of equal keys (bench_util's run keys, 8
// on average) and its value. The search space is declared below; the tuning driver compiles this file once per point
// with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1 (the tuned defaults of tuning_select.cuh, the
// by-key workload) to compare against. TUNE_LOAD: 0 warp-striped reads transposed through shared memory, 1
// vectorized reads; TUNE_LOAD_MODIFIER: 0 LOAD_DEFAULT, 1 LOAD_PLAIN. A point whose tile does not fit in 48 KiB of
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
#include <strata/device/device_select.cuh>

#include "bench_util.cuh"
#include "tuning_axes.cuh"
#include "select_tuning_policy.cuh"

#include <cuda/std/functional>

#include <cstdint>
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
bool firsts_match(const std::vector<KeyT>& keys, const std::vector<ValueT>& values, const std::vector<KeyT>& unique,
                  const std::vector<ValueT>& firsts, std::uint32_t count)
{
  std::size_t run = 0;
  for (std::size_t i = 0; i < keys.size(); ++i)
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
    using Dispatch = dispatch_t<KeyT, ValueT>;
    strata_bench::time_runs_by_key<KeyT, ValueT>(
      state,
      [](void* d_temp, std::size_t& temp_bytes, const KeyT* keys, const ValueT* values, KeyT* unique, ValueT* out,
         std::uint32_t* count, std::size_t n, cudaStream_t s) {
        return Dispatch::Dispatch(d_temp, temp_bytes, keys, nullptr, unique, count, {}, {}, std::uint32_t(n), s,
                                  values_t<ValueT>{values, out});
      },
      firsts_match<KeyT, ValueT>, "wrong unique keys or values");
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
