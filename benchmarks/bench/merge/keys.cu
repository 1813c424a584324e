// DeviceMerge::MergeKeys in the tuning format: two sorted halves of random keys (bench_util's fill, each half sorted)
// merged by cuda::std::less<>, from 2^16 to 2^28 keys in all. The search space is declared below; the tuning driver
// compiles this file once per point with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1 (the
// defaults of tuning_merge.cuh) to compare against. TUNE_LOAD / TUNE_STORE: merge_sort_tuning_policy.cuh (DeviceMerge
// merges a tile as the merge sort's passes do). A point whose tile does not fit in 48 KiB of static shared memory for
// a type reports that case as skipped. Counters: keys/s and the bytes of one read of the halves and one write.
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 64:512:32
// %RANGE% TUNE_ITEMS_PER_THREAD ipt 7:24:1
// %RANGE% TUNE_LOAD ld 0:1:1
// %RANGE% TUNE_STORE st 0:1:1
#include "bench_util.cuh"
#include "merge_sort_tuning_policy.cuh"
#include "tuning_axes.cuh"

#include <strata/device/device_merge.cuh>

#include <thrust/device_ptr.h>
#include <thrust/sort.h>

#include <cstdint>

namespace
{
#if !TUNE_BASE
struct merge_tuning_policy_hub
{
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using MergePolicy = merge_sort_tuning_policy_hub::Policy::MergeSortPolicy;
  };
  using MaxPolicy = Policy;
};
template <typename KeyT>
using merge_hub_t = merge_tuning_policy_hub;
#else
template <typename KeyT>
using merge_hub_t = strata::detail::merge::policy_hub<KeyT, strata::NullType>;
#endif

template <typename KeyT>
using merge_dispatch_t =
  strata::DispatchMerge<const KeyT*, strata::NullType*, const KeyT*, strata::NullType*, KeyT*, strata::NullType*,
                        std::uint32_t, cuda::std::less<>, KeyT, strata::NullType, merge_hub_t<KeyT>>;

template <typename KeyT>
constexpr bool merge_fits_shared_memory()
{
  using Policy = typename merge_hub_t<KeyT>::MaxPolicy::MergePolicy;
  using Agent  = strata::AgentMergeRanges<Policy, const KeyT*, strata::NullType*, const KeyT*, strata::NullType*, KeyT*,
                                         strata::NullType*, std::uint32_t, cuda::std::less<>, KeyT, strata::NullType>;
  return sizeof(typename Agent::TempStorage) <= 48 * 1024;
}

template <typename KeyT>
void merge_keys(benchmark::State& state)
{
  if constexpr (!merge_fits_shared_memory<KeyT>())
  {
    state.SkipWithError("the tile does not fit in 48 KiB of shared memory");
  }
  else
  {
    const std::size_t n    = std::size_t(1) << state.range(0);
    const std::uint32_t h1 = static_cast<std::uint32_t>(n / 2);
    const std::uint32_t h2 = static_cast<std::uint32_t>(n - n / 2);
    strata_bench::rotating_inputs<KeyT> keys(n);
    for (std::size_t s = 0; s < keys.sets(); ++s)
    {
      thrust::device_ptr<KeyT> p(keys.at(s));
      thrust::sort(p, p + h1);
      thrust::sort(p + h1, p + static_cast<std::ptrdiff_t>(n));
    }
    strata_bench::device_array<KeyT> out(n);
    strata::NullType* none = nullptr;
    std::size_t bytes      = 0;
    STRATA_BENCH_CHECK(merge_dispatch_t<KeyT>::Dispatch(nullptr, bytes, keys.at(0), none, h1, keys.at(0) + h1, none, h2,
                                                        out.get(), none, cuda::std::less<>{}, 0));
    strata_bench::device_array<char> temp(bytes);
    std::size_t turn = 0;
    strata_bench::time_loop(state, [&](cudaStream_t s) {
      const KeyT* in = keys.at(turn++);
      STRATA_BENCH_CHECK(merge_dispatch_t<KeyT>::Dispatch(temp.get(), bytes, in, none, h1, in + h1, none, h2, out.get(),
                                                          none, cuda::std::less<>{}, s));
    });
    strata_bench::set_counters(state, n, 2 * n * sizeof(KeyT));
  }
}
} // namespace

#define STRATA_MERGE_KEYS_BENCH(token) STRATA_TUNING_BENCH(merge_keys, "merge_keys", "KeyT", token)

#ifdef TUNE_KeyT
STRATA_MERGE_KEYS_BENCH(TUNE_KeyT)
#else
STRATA_MERGE_KEYS_BENCH(U32)
STRATA_MERGE_KEYS_BENCH(U64)
#endif

STRATA_BENCHMARK_MAIN()
