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

#include <cstdint>
#include <set>
#include <type_traits>
#include <vector>

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
using dispatch_t =
  strata::DispatchSelect<const T*, strata::detail::select::no_flags, T*, std::uint32_t*, strata_bench::less_than<T>,
                         strata::NullType, std::uint32_t, strata::detail::select::mode::predicate, false,
                         strata::detail::select::no_values, hub_t<T>>;

// Whether the select kernel's shared memory fits the 48 KiB a kernel may declare statically.
template <typename T>
constexpr bool fits_shared_memory()
{
  using Policy = typename hub_t<T>::MaxPolicy::SelectPolicy;
  using Agent  = strata::AgentSelect<Policy, const T*, strata::detail::select::no_flags, T*, std::uint32_t*,
                                    strata_bench::less_than<T>, strata::NullType, std::uint32_t,
                                    strata::detail::select::mode::predicate, false>;
  return sizeof(typename Agent::TempStorage) <= 48 * 1024;
}

// Whether d_out[0, count) holds the selected items of d_in in order and count is their number.
template <typename T>
bool selection_matches(const T* d_in, const T* d_out, const std::uint32_t* d_count, std::size_t n, T threshold)
{
  std::vector<T> in(n), out(n);
  std::uint32_t count = 0;
  STRATA_BENCH_CHECK(cudaMemcpy(in.data(), d_in, n * sizeof(T), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost));
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    if (in[i] < threshold)
    {
      if (k >= count || out[k] != in[i])
      {
        return false;
      }
      ++k;
    }
  }
  return k == count;
}

template <typename T>
void select_if(benchmark::State& state)
{
  if constexpr (!fits_shared_memory<T>())
  {
    state.SkipWithError("the tile does not fit in static shared memory");
  }
  else
  {
    using Dispatch      = dispatch_t<T>;
    const std::size_t n = std::size_t(1) << state.range(0);
    const strata_bench::less_than<T> op{strata_bench::threshold_for<T>(static_cast<int>(state.range(1)))};
    strata_bench::rotating_inputs<T> inputs(n);
    strata_bench::device_array<T> out(n);
    strata_bench::device_array<std::uint32_t> count(1);
    const auto run = [&](void* d_temp, std::size_t& temp_bytes, const T* in, cudaStream_t s) {
      return Dispatch::Dispatch(d_temp, temp_bytes, in, nullptr, out.get(), count.get(), op, {}, std::uint32_t(n), s);
    };
    std::size_t bytes = 0;
    STRATA_BENCH_CHECK(run(nullptr, bytes, inputs.at(0), 0));
    strata_bench::device_array<char> temp(bytes);
    strata_bench::time_loop(state, [&](cudaStream_t s) {
      STRATA_BENCH_CHECK(run(temp.get(), bytes, inputs.next(), s));
    });
    std::uint32_t selected = 0;
    STRATA_BENCH_CHECK(cudaMemcpy(&selected, count.get(), sizeof(selected), cudaMemcpyDeviceToHost));
    strata_bench::set_counters(state, n, (n + selected) * sizeof(T));

    // Validate once per case (Google Benchmark calls this function several times while it sizes the run).
    static std::set<std::pair<std::int64_t, std::int64_t>> validated;
    if (validated.insert({state.range(0), state.range(1)}).second)
    {
      STRATA_BENCH_CHECK(cudaMemset(out.get(), 0xa5, n * sizeof(T)));
      STRATA_BENCH_CHECK(run(temp.get(), bytes, inputs.at(0), 0));
      STRATA_BENCH_CHECK(cudaDeviceSynchronize());
      if (!selection_matches(inputs.at(0), out.get(), count.get(), n, op.threshold))
      {
        state.SkipWithError("wrong selection");
      }
    }
  }
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
