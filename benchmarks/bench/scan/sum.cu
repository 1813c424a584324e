// DeviceScan::InclusiveSum in the tuning format. The search space is declared below; the tuning driver compiles
// this file once per point with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1 (the tuned
// defaults of tuning_scan.cuh) to compare against. TUNE_LOAD picks how a tile is read: 0 warp-striped reads
// transposed through shared memory, 1 vectorized reads straight into each thread's consecutive items.
// A point whose tile does not fit in shared memory (48 KiB static, 227 KiB dynamic for bulk tiles) for a type
// reports that case as skipped.
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 128:1024:32
// %RANGE% TUNE_ITEMS_PER_THREAD ipt 7:24:1
// %RANGE% TUNE_LOAD ld 0:1:1
// %RANGE% TUNE_DELAY_NS d0 0:256:16
// %RANGE% TUNE_MAX_DELAY_NS dmax 0:2048:64
// %RANGE% TUNE_PREFETCH_QUARTERS pq 0:12:1
// %RANGE% TUNE_PERSISTENT ps 0:1:1
// %RANGE% TUNE_MIN_BLOCKS mb 1:8:1
// %RANGE% TUNE_BULK bulk 0:1:1
// %RANGE% TUNE_VECTORS vec 1:15:2
// %RANGE% TUNE_MIN_TILES_PER_SM mt 0:32:1
#include <strata/device/device_scan.cuh>

#include "bench_util.cuh"
#include "tuning_axes.cuh"
#include "scan_tuning_policy.cuh"

#include <cuda/std/functional>

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <type_traits>
#include <vector>

namespace
{
#if !TUNE_BASE
template <typename AccumT>
using hub_t = scan_tuning_policy_hub;
#else
template <typename AccumT>
using hub_t = strata::detail::scan::policy_hub<AccumT, cuda::std::plus<>>;
#endif

// Narrow integers accumulate as int, as DeviceScan::InclusiveSum does.
template <typename T>
using accum_t = strata::detail::accumulator_t<cuda::std::plus<>, T>;

template <typename T>
using dispatch_t = strata::DispatchScan<const T*, T*, cuda::std::plus<>, strata::detail::scan::no_init, std::uint32_t,
                                        accum_t<T>, hub_t<accum_t<T>>>;

// Whether the scan kernel's shared memory fits the 48 KiB a kernel may declare statically, and the bulk kernel's
// (where the policy has one) the 227 KiB a block may have.
template <typename T>
constexpr bool fits_shared_memory()
{
  using Policy = typename hub_t<accum_t<T>>::MaxPolicy::ScanPolicy;
  using Agent  = strata::AgentScan<Policy, const T*, T*, cuda::std::plus<>, strata::detail::scan::no_init, accum_t<T>,
                                  std::uint32_t, true>;
  using Bulk   = strata::detail::scan::bulk_policy<typename hub_t<accum_t<T>>::MaxPolicy>;
  using BulkAgent =
    strata::AgentScanBulk<typename Bulk::type, strata::detail::scan::bulk_array_tile<T>, cuda::std::plus<>,
                          strata::detail::scan::no_init, accum_t<T>, std::uint32_t, true>;
  constexpr bool bulk_fits = !Bulk::exists || sizeof(typename BulkAgent::TempStorage) <= 227 * 1024;
  return sizeof(typename Agent::TempStorage) <= 48 * 1024 && bulk_fits;
}

// Whether d_out holds the inclusive sums of d_in. Integer sums wrap, so they are compared exactly (accumulated in
// 64 unsigned bits, whose low bits any order of wrapping additions agrees with). The inputs of bench_util are
// multiples of 2^-24 below 1/2 in magnitude, so a double reference is exact up to 2^28 items; float outputs may
// differ from it by rounding, allowed 64 epsilon times the running sum of magnitudes.
template <typename T>
bool inclusive_sums_match(const T* d_in, const T* d_out, std::size_t n)
{
  std::vector<T> in(n), out(n);
  STRATA_BENCH_CHECK(cudaMemcpy(in.data(), d_in, n * sizeof(T), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
  if constexpr (std::is_floating_point<T>::value)
  {
    const double tolerance = 64.0 * std::numeric_limits<T>::epsilon();
    double sum             = 0.0;
    double magnitude       = 0.0;
    for (std::size_t i = 0; i < n; ++i)
    {
      sum += double(in[i]);
      magnitude += std::abs(double(in[i]));
      if (!(std::abs(double(out[i]) - sum) <= tolerance * magnitude))
      {
        return false;
      }
    }
  }
  else
  {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
      sum += static_cast<std::uint64_t>(in[i]);
      if (out[i] != static_cast<T>(sum))
      {
        return false;
      }
    }
  }
  return true;
}

template <typename T>
void sum(benchmark::State& state)
{
  if constexpr (!fits_shared_memory<T>())
  {
    state.SkipWithError("the tile does not fit in static shared memory");
  }
  else
  {
    const std::size_t n = std::size_t(1) << state.range(0);
    using Dispatch      = dispatch_t<T>;
    strata_bench::rotating_inputs<T> inputs(n);
    strata_bench::device_array<T> out(n);
    std::size_t bytes = 0;
    STRATA_BENCH_CHECK(Dispatch::Dispatch(nullptr, bytes, inputs.at(0), out.get(), {}, {}, std::uint32_t(n), 0));
    strata_bench::device_array<char> temp(bytes);
    strata_bench::time_loop(state, [&](cudaStream_t s) {
      STRATA_BENCH_CHECK(Dispatch::Dispatch(temp.get(), bytes, inputs.next(), out.get(), {}, {}, std::uint32_t(n), s));
    });
    strata_bench::set_counters(state, n, 2 * n * sizeof(T));

    // Validate once per size (Google Benchmark calls this function several times while it sizes the run).
    static std::set<std::int64_t> validated;
    if (validated.insert(state.range(0)).second)
    {
      STRATA_BENCH_CHECK(cudaMemset(out.get(), 0xa5, n * sizeof(T)));
      STRATA_BENCH_CHECK(Dispatch::Dispatch(temp.get(), bytes, inputs.at(0), out.get(), {}, {}, std::uint32_t(n), 0));
      if (!inclusive_sums_match(inputs.at(0), out.get(), n))
      {
        state.SkipWithError("wrong inclusive sums");
      }
    }
  }
}
} // namespace

#define STRATA_SCAN_SUM_BENCH(token) STRATA_TUNING_BENCH(sum, "scan_inclusive_sum", "T", token)

#ifdef TUNE_T
STRATA_SCAN_SUM_BENCH(TUNE_T)
#else
STRATA_ARITHMETIC_TYPES(STRATA_SCAN_SUM_BENCH)
#endif

STRATA_BENCHMARK_MAIN()
