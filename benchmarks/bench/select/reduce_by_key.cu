// DeviceReduce::ReduceByKey in the tuning format: sums of the values of runs of equal keys of random length (8 on
// average, bench_util's run keys). The search space is declared below; the tuning driver compiles this file once per
// point with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1 (the tuned defaults of
// tuning_reduce_by_key.cuh) to compare against. TUNE_LOAD: 0 warp-striped reads transposed through shared memory, 1
// vectorized reads; TUNE_LOAD_MODIFIER: 0 LOAD_DEFAULT (tiles read with L2 evict_last priority, put back to normal once
// loaded: block_load_transpose.cuh), 1 LOAD_PLAIN. A point whose tile does not fit in the 227 KiB of shared memory a
// block may have reports that case as skipped. TUNE_EXACT_LOOK_BACK=1 (a macro outside the space, for measuring what
// determinism costs): the look-back treats float sums as exact and reduces its windows with a tree, as CUB's does, so
// float aggregates may differ in their last bits run to run.
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
#include <strata/device/device_reduce.cuh>

#include "bench_util.cuh"
#include "look_back_tuning_defaults.cuh"
#include "tuning_axes.cuh"

#include <cuda/std/functional>

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#ifndef TUNE_LOAD_MODIFIER
#  define TUNE_LOAD_MODIFIER 0
#endif

#if defined(TUNE_EXACT_LOOK_BACK) && TUNE_EXACT_LOOK_BACK
STRATA_NAMESPACE_BEGIN
namespace detail
{
template <>
struct scan_op_is_exact<reduce_by_key::run_value<std::uint32_t, float>, reduce_by_key::run_op<cuda::std::plus<>>>
    : cuda::std::true_type
{};
} // namespace detail
STRATA_NAMESPACE_END
#endif

namespace
{
#if !TUNE_BASE
struct reduce_by_key_tuning_policy_hub
{
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using ScanPolicy =
      strata::AgentScanPolicy<TUNE_THREADS_PER_BLOCK, TUNE_ITEMS_PER_THREAD,
                              TUNE_LOAD == 0 ? strata::BLOCK_LOAD_WARP_TRANSPOSE : strata::BLOCK_LOAD_VECTORIZE,
                              TUNE_LOAD_MODIFIER == 0 ? strata::LOAD_DEFAULT : strata::LOAD_PLAIN,
                              strata::BLOCK_STORE_WARP_TRANSPOSE, strata::BLOCK_SCAN_WARP_SCANS, TUNE_DELAY_NS,
                              TUNE_MAX_DELAY_NS, TUNE_PREFETCH_QUARTERS, TUNE_PERSISTENT != 0, TUNE_MIN_BLOCKS>;
  };
  using MaxPolicy = Policy;
};
template <typename KeyT, typename ValueT>
using hub_t = reduce_by_key_tuning_policy_hub;
#else
template <typename KeyT, typename ValueT>
using hub_t = strata::detail::reduce_by_key::policy_hub<KeyT, ValueT>;
#endif

template <typename KeyT, typename ValueT>
using dispatch_t =
  strata::DispatchReduceByKey<const KeyT*, KeyT*, const ValueT*, ValueT*, std::uint32_t*, cuda::std::equal_to<>,
                              cuda::std::plus<>, std::uint32_t, ValueT, hub_t<KeyT, ValueT>>;

// Whether the kernel's shared memory fits the 227 KiB a block may have on sm_90 (it is dynamic shared memory).
template <typename KeyT, typename ValueT>
constexpr bool fits_shared_memory()
{
  using Policy = typename hub_t<KeyT, ValueT>::MaxPolicy::ScanPolicy;
  using Agent  = strata::AgentReduceByKey<Policy, const KeyT*, KeyT*, const ValueT*, ValueT*, std::uint32_t*,
                                         cuda::std::equal_to<>, cuda::std::plus<>, std::uint32_t, ValueT>;
  return sizeof(typename Agent::TempStorage) <= 227 * 1024;
}

// Whether the runs' last keys, sums (floats: within a relative 1e-4 of a double sum) and count are right.
template <typename KeyT, typename ValueT>
bool reductions_match(const std::vector<KeyT>& keys, const std::vector<ValueT>& values, const std::vector<KeyT>& unique,
                      const std::vector<ValueT>& sums, std::uint32_t count)
{
  std::size_t run     = 0;
  std::uint64_t exact = 0;
  double approx       = 0.0;
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    exact += static_cast<std::uint64_t>(values[i]);
    approx += static_cast<double>(values[i]);
    if (i + 1 == keys.size() || keys[i + 1] != keys[i])
    {
      if (run >= count || unique[run] != keys[i])
      {
        return false;
      }
      const bool sum_ok = std::is_floating_point<ValueT>::value
                          ? std::fabs(static_cast<double>(sums[run]) - approx) <= 1e-4 * std::fabs(approx) + 1e-3
                          : sums[run] == static_cast<ValueT>(exact);
      if (!sum_ok)
      {
        return false;
      }
      ++run;
      exact  = 0;
      approx = 0.0;
    }
  }
  return run == count;
}

template <typename KeyT, typename ValueT>
void sum_by_key(benchmark::State& state)
{
  if constexpr (!fits_shared_memory<KeyT, ValueT>())
  {
    state.SkipWithError("the tile does not fit in shared memory");
  }
  else
  {
    using Dispatch = dispatch_t<KeyT, ValueT>;
    strata_bench::time_runs_by_key<KeyT, ValueT>(
      state,
      [](void* d_temp, std::size_t& temp_bytes, const KeyT* keys, const ValueT* values, KeyT* unique, ValueT* out,
         std::uint32_t* count, std::size_t n, cudaStream_t s) {
        return Dispatch::Dispatch(d_temp, temp_bytes, keys, unique, values, out, count, {}, {}, std::uint32_t(n), s);
      },
      reductions_match<KeyT, ValueT>, "wrong reductions by key");
  }
}
} // namespace

#define STRATA_REDUCE_BY_KEY_BENCH(key, value) STRATA_TUNING_BENCH_PAIRS(sum_by_key, "reduce_by_key", key, value)

#if defined(TUNE_KeyT) && defined(TUNE_ValueT)
STRATA_REDUCE_BY_KEY_BENCH(TUNE_KeyT, TUNE_ValueT)
#else
STRATA_REDUCE_BY_KEY_BENCH(I32, I32)
STRATA_REDUCE_BY_KEY_BENCH(I64, I64)
STRATA_REDUCE_BY_KEY_BENCH(I32, F32)
#endif

STRATA_BENCHMARK_MAIN()
