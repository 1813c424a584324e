// DeviceMergeSort::SortKeysCopy in the tuning format: random keys (a hash of the index, bench_util's fill), ascending
// by cuda::std::less<>, from 2^16 to 2^28. The search space is declared below; the tuning driver compiles this file
// once per point with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1 (the tuned defaults of
// tuning_merge_sort.cuh) to compare against. TUNE_LOAD / TUNE_STORE: merge_sort_tuning_policy.cuh. A point whose
// tile does not fit in 48 KiB of static shared memory for a type reports that case as skipped. Counters: keys/s
// (items) and the bytes of one read of the input and one write of the output.
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 64:512:32
// %RANGE% TUNE_ITEMS_PER_THREAD ipt 7:24:1
// %RANGE% TUNE_LOAD ld 0:1:1
// %RANGE% TUNE_STORE st 0:1:1
#include "bench_util.cuh"
#include "tuning_axes.cuh"
#include "merge_sort_tuning_policy.cuh"

#include <cstdint>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

namespace
{
// Whether `out` is sorted and holds the same keys as `in`, as a multiset (sums of two hashes of every key).
template <typename KeyT>
bool sorted_permutation(const KeyT* d_in, const KeyT* d_out, std::size_t n)
{
  std::vector<KeyT> in(n), out(n);
  STRATA_BENCH_CHECK(cudaMemcpy(in.data(), d_in, n * sizeof(KeyT), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(KeyT), cudaMemcpyDeviceToHost));
  auto digest = [](const std::vector<KeyT>& v) {
    std::uint64_t a = 0, b = 0;
    for (const KeyT& k : v)
    {
      std::uint64_t x = 0;
      std::memcpy(&x, &k, sizeof(KeyT));
      a += x * 0x9e3779b97f4a7c15ULL + 1;
      b += (x ^ (x >> 17)) * 0xbf58476d1ce4e5b9ULL;
    }
    return std::make_pair(a, b);
  };
  for (std::size_t i = 1; i < n; ++i)
  {
    if (out[i] < out[i - 1])
    {
      return false;
    }
  }
  return digest(in) == digest(out);
}

template <typename KeyT>
void keys(benchmark::State& state)
{
  using ValueT = strata::NullType;
  if constexpr (!merge_sort_fits_shared_memory<KeyT, ValueT>())
  {
    state.SkipWithError("the tile does not fit in static shared memory");
  }
  else
  {
    using Dispatch      = merge_sort_dispatch_t<KeyT, ValueT>;
    const std::size_t n = std::size_t(1) << state.range(0);
    strata_bench::rotating_inputs<KeyT> inputs(n);
    strata_bench::device_array<KeyT> out(n);
    auto run = [&](void* temp, std::size_t& bytes, const KeyT* in, cudaStream_t s) {
      return Dispatch::Dispatch(temp, bytes, in, nullptr, out.get(), nullptr, std::uint32_t(n), {}, s);
    };
    std::size_t bytes = 0;
    STRATA_BENCH_CHECK(run(nullptr, bytes, inputs.at(0), 0));
    strata_bench::device_array<char> temp(bytes);
    strata_bench::time_loop(state, [&](cudaStream_t s) {
      STRATA_BENCH_CHECK(run(temp.get(), bytes, inputs.next(), s));
    });
    strata_bench::set_counters(state, n, 2 * n * sizeof(KeyT));

    // Validate once per size (Google Benchmark calls this function several times while it sizes the run).
    static std::set<std::int64_t> validated;
    if (validated.insert(state.range(0)).second)
    {
      STRATA_BENCH_CHECK(cudaMemset(out.get(), 0xa5, n * sizeof(KeyT)));
      STRATA_BENCH_CHECK(run(temp.get(), bytes, inputs.at(0), 0));
      if (!sorted_permutation(inputs.at(0), out.get(), n))
      {
        state.SkipWithError("the output is not the input sorted");
      }
    }
  }
}
} // namespace

#define STRATA_MERGE_SORT_KEYS_BENCH(token) STRATA_TUNING_BENCH(keys, "merge_sort_keys", "KeyT", token)

#ifdef TUNE_KeyT
STRATA_MERGE_SORT_KEYS_BENCH(TUNE_KeyT)
#else
STRATA_ARITHMETIC_TYPES(STRATA_MERGE_SORT_KEYS_BENCH)
#endif

STRATA_BENCHMARK_MAIN()
