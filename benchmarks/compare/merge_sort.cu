// DeviceMergeSort: strata against cub::DeviceMergeSort on the same buffers in one process.
// SortKeysCopy of random u32 and u64 keys and SortPairsCopy of random u32 keys with u32 values, ascending by
// cuda::std::less<>, at 2^16, 2^20, 2^24 and 2^28 items, inputs rotated through more memory than the L2 holds (the
// *Copy forms leave them unsorted for the next run). Names: merge_sort_<keys|pairs>/<type>/2^k/<strata|cub>; the items
// counter makes Google Benchmark print keys/s, and scripts/compare_report.py prints the ratios. After timing, strata's
// output is checked against cub's on the same input (both sorts are stable, so they must agree exactly).
#include <strata/device/device_merge_sort.cuh>

#include <cub/device/device_merge_sort.cuh>

#include "bench_util.cuh"

#include <cuda/std/functional>

#include <cstdint>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace
{
enum class library
{
  strata,
  cub
};

// The inputs of one case and one library's call on input set `turn` (values only for pairs: ValueT != void).
template <typename KeyT, typename ValueT>
class workload
{
  static constexpr bool PAIRS = !std::is_void<ValueT>::value;
  using value_t               = std::conditional_t<PAIRS, ValueT, char>;

public:
  explicit workload(std::size_t n)
      : n_(n)
      , keys_(n, 42)
      , values_(PAIRS ? n : 0, 4242)
  {}

  template <library LIB>
  cudaError_t run(void* d_temp, std::size_t& bytes, std::size_t turn, KeyT* keys_out, value_t* values_out,
                  cudaStream_t s) const
  {
    const KeyT* keys_in = keys_.at(turn);
    const int n         = static_cast<int>(n_);
    if constexpr (PAIRS)
    {
      const value_t* values_in = values_.at(turn);
      if constexpr (LIB == library::strata)
      {
        return strata::DeviceMergeSort::SortPairsCopy(d_temp, bytes, keys_in, values_in, keys_out, values_out, n,
                                                      cuda::std::less<>{}, s);
      }
      else
      {
        return cub::DeviceMergeSort::SortPairsCopy(d_temp, bytes, keys_in, values_in, keys_out, values_out, n,
                                                   cuda::std::less<>{}, s);
      }
    }
    else
    {
      (void) values_out;
      if constexpr (LIB == library::strata)
      {
        return strata::DeviceMergeSort::SortKeysCopy(d_temp, bytes, keys_in, keys_out, n, cuda::std::less<>{}, s);
      }
      else
      {
        return cub::DeviceMergeSort::SortKeysCopy(d_temp, bytes, keys_in, keys_out, n, cuda::std::less<>{}, s);
      }
    }
  }

private:
  std::size_t n_;
  strata_bench::rotating_inputs<KeyT> keys_;
  strata_bench::rotating_inputs<value_t> values_;
};

template <typename T>
std::vector<T> download(const T* d, std::size_t n)
{
  std::vector<T> h(n);
  STRATA_BENCH_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

template <library LIB, typename KeyT, typename ValueT>
void bench(benchmark::State& state, int log2_n)
{
  constexpr bool PAIRS = !std::is_void<ValueT>::value;
  using value_t        = std::conditional_t<PAIRS, ValueT, char>;
  const std::size_t n  = std::size_t(1) << log2_n;

  const workload<KeyT, ValueT> work(n);
  strata_bench::device_array<KeyT> keys_out(n);
  strata_bench::device_array<value_t> values_out(PAIRS ? n : 0);
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK(work.template run<LIB>(nullptr, bytes, 0, keys_out.get(), values_out.get(), 0));
  strata_bench::device_array<char> temp(bytes);
  std::size_t turn = 0;
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK(work.template run<LIB>(temp.get(), bytes, turn++, keys_out.get(), values_out.get(), s));
  });
  state.counters["temp_bytes"] = static_cast<double>(bytes);

  // Validate against cub on the same input, in strata's run only and once per case (Google Benchmark calls this
  // function several times while it sizes the run), with both outputs poisoned first.
  static std::set<int> validated;
  if (LIB == library::strata && validated.insert(log2_n).second)
  {
    std::size_t cub_bytes = 0;
    strata_bench::device_array<KeyT> cub_keys(n);
    strata_bench::device_array<value_t> cub_values(PAIRS ? n : 0);
    STRATA_BENCH_CHECK(work.template run<library::cub>(nullptr, cub_bytes, 0, cub_keys.get(), cub_values.get(), 0));
    strata_bench::device_array<char> cub_temp(cub_bytes);
    STRATA_BENCH_CHECK(cudaMemset(keys_out.get(), 0xa5, n * sizeof(KeyT)));
    STRATA_BENCH_CHECK(cudaMemset(cub_keys.get(), 0x5a, n * sizeof(KeyT)));
    STRATA_BENCH_CHECK(work.template run<library::strata>(temp.get(), bytes, 0, keys_out.get(), values_out.get(), 0));
    STRATA_BENCH_CHECK(
      work.template run<library::cub>(cub_temp.get(), cub_bytes, 0, cub_keys.get(), cub_values.get(), 0));
    bool same = download(keys_out.get(), n) == download(cub_keys.get(), n);
    if constexpr (PAIRS)
    {
      same = same && download(values_out.get(), n) == download(cub_values.get(), n);
    }
    if (!same)
    {
      state.SkipWithError("strata and cub disagree");
    }
  }
  // Items per iteration (keys/s); bytes: one read of the input and one write of the output.
  strata_bench::set_counters(state, n, 2 * n * (sizeof(KeyT) + (PAIRS ? sizeof(value_t) : 0)));
}

template <typename KeyT, typename ValueT>
void register_case(const std::string& name)
{
  for (int log2_n : {16, 20, 24, 28})
  {
    const std::string base = name + "/2^" + std::to_string(log2_n);
    benchmark::RegisterBenchmark((base + "/strata").c_str(),
                                 [log2_n](benchmark::State& st) {
                                   bench<library::strata, KeyT, ValueT>(st, log2_n);
                                 })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((base + "/cub").c_str(),
                                 [log2_n](benchmark::State& st) {
                                   bench<library::cub, KeyT, ValueT>(st, log2_n);
                                 })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
  }
}
} // namespace

int main(int argc, char** argv)
{
  register_case<std::uint32_t, void>("merge_sort_keys/u32");
  register_case<std::uint64_t, void>("merge_sort_keys/u64");
  register_case<std::uint32_t, std::uint32_t>("merge_sort_pairs/u32_u32");
  return strata_bench::run_benchmarks(argc, argv);
}
