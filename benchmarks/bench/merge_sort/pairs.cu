// DeviceMergeSort::SortPairsCopy in the tuning format: random keys and values (bench_util's fill), ascending by
// cuda::std::less<>, from 2^16 to 2^28, for key/value types i32/i32, i64/i64 and i32/i64. The search space is
// declared below; the tuning driver compiles this file once per point with -DTUNE_BASE=0 and the TUNE_* values, and
// once with TUNE_BASE=1 (the tuned defaults of tuning_merge_sort.cuh) to compare against. TUNE_LOAD / TUNE_STORE:
// merge_sort_tuning_policy.cuh. A point whose tile does not fit in 48 KiB of static shared memory for a pair of
// types reports that case as skipped. Counters: pairs/s (items) and the bytes of one read of the input and one
// write of the output.
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 64:512:32
// %RANGE% TUNE_ITEMS_PER_THREAD ipt 7:24:1
// %RANGE% TUNE_LOAD ld 0:1:1
// %RANGE% TUNE_STORE st 0:1:1
#include "bench_util.cuh"
#include "tuning_axes.cuh"
#include "merge_sort_tuning_policy.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>
#include <vector>

namespace
{
// Whether the output is the input stably sorted by key: the keys in order, and every value the one the stable
// sort puts there (recomputed on the host with std::stable_sort of the positions).
template <typename KeyT, typename ValueT>
bool stably_sorted(const KeyT* d_keys_in, const ValueT* d_values_in, const KeyT* d_keys_out, const ValueT* d_values_out,
                   std::size_t n)
{
  std::vector<KeyT> keys_in(n), keys_out(n);
  std::vector<ValueT> values_in(n), values_out(n);
  STRATA_BENCH_CHECK(cudaMemcpy(keys_in.data(), d_keys_in, n * sizeof(KeyT), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(values_in.data(), d_values_in, n * sizeof(ValueT), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(keys_out.data(), d_keys_out, n * sizeof(KeyT), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(values_out.data(), d_values_out, n * sizeof(ValueT), cudaMemcpyDeviceToHost));
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return keys_in[a] < keys_in[b];
  });
  for (std::size_t i = 0; i < n; ++i)
  {
    if (!(keys_out[i] == keys_in[order[i]]) || !(values_out[i] == values_in[order[i]]))
    {
      return false;
    }
  }
  return true;
}

template <typename KeyT, typename ValueT>
void pairs(benchmark::State& state)
{
  if constexpr (!merge_sort_fits_shared_memory<KeyT, ValueT>())
  {
    state.SkipWithError("the tile does not fit in static shared memory");
  }
  else
  {
    using Dispatch      = merge_sort_dispatch_t<KeyT, ValueT>;
    const std::size_t n = std::size_t(1) << state.range(0);
    strata_bench::rotating_inputs<KeyT> keys(n, 42);
    strata_bench::rotating_inputs<ValueT> values(n, 4242);
    strata_bench::device_array<KeyT> keys_out(n);
    strata_bench::device_array<ValueT> values_out(n);
    std::size_t turn = 0;
    auto run         = [&](void* temp, std::size_t& bytes, std::size_t set, cudaStream_t s) {
      return Dispatch::Dispatch(temp, bytes, keys.at(set), values.at(set), keys_out.get(), values_out.get(),
                                        std::uint32_t(n), {}, s);
    };
    std::size_t bytes = 0;
    STRATA_BENCH_CHECK(run(nullptr, bytes, 0, 0));
    strata_bench::device_array<char> temp(bytes);
    strata_bench::time_loop(state, [&](cudaStream_t s) {
      STRATA_BENCH_CHECK(run(temp.get(), bytes, turn++, s));
    });
    strata_bench::set_counters(state, n, 2 * n * (sizeof(KeyT) + sizeof(ValueT)));

    // Validate once per size, up to 2^24 (the host's stable sort of 2^28 pairs takes too long).
    static std::set<std::int64_t> validated;
    if (state.range(0) <= 24 && validated.insert(state.range(0)).second)
    {
      STRATA_BENCH_CHECK(cudaMemset(keys_out.get(), 0xa5, n * sizeof(KeyT)));
      STRATA_BENCH_CHECK(cudaMemset(values_out.get(), 0xa5, n * sizeof(ValueT)));
      STRATA_BENCH_CHECK(run(temp.get(), bytes, 0, 0));
      if (!stably_sorted(keys.at(0), values.at(0), keys_out.get(), values_out.get(), n))
      {
        state.SkipWithError("the output is not the input stably sorted");
      }
    }
  }
}
} // namespace

#define STRATA_MERGE_SORT_PAIRS_BENCH(key, value) STRATA_TUNING_BENCH_PAIRS(pairs, "merge_sort_pairs", key, value)

#if defined(TUNE_KeyT) && defined(TUNE_ValueT)
STRATA_MERGE_SORT_PAIRS_BENCH(TUNE_KeyT, TUNE_ValueT)
#else
STRATA_MERGE_SORT_PAIRS_BENCH(I32, I32)
STRATA_MERGE_SORT_PAIRS_BENCH(I64, I64)
STRATA_MERGE_SORT_PAIRS_BENCH(I32, I64)
#endif

STRATA_BENCHMARK_MAIN()
