// The policy a DeviceSelect benchmark in the tuning format (benchmarks/bench/select/*.cu) runs with: with
// TUNE_BASE=1 (the default) the library's own tuning, otherwise `select_tuning_policy_hub`, a hub with a single
// policy built from the TUNE_* values the tuning driver passes. Knobs a variant leaves out take the library's
// defaults. TUNE_LOAD picks how a tile is read: 0 warp-striped reads transposed through shared memory, 1 vectorized
// reads straight into each thread's consecutive items. TUNE_BULK=1 adds a BulkSelectPolicy
// (agent/agent_select_bulk.cuh) of the same threads and look-back and prefetch knobs, TUNE_BULK_ITEMS items per
// thread, TUNE_BULK_MIN_BLOCKS blocks per SM and TUNE_BULK_MIN_TILES tiles per SM below which the register agent runs.
// Also the body of the benchmarks of `x < threshold` selections and partitions (time_predicate_selection).
#pragma once

#include <strata/device/device_select.cuh>

#include "bench_util.cuh"
#include "look_back_tuning_defaults.cuh"

#include <cstdint>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

#ifndef TUNE_LOAD_MODIFIER
#  define TUNE_LOAD_MODIFIER 0
#endif
#ifndef TUNE_BULK
#  define TUNE_BULK 0
#endif
#ifndef TUNE_BULK_ITEMS
#  define TUNE_BULK_ITEMS 16
#endif
#ifndef TUNE_BULK_MIN_BLOCKS
#  define TUNE_BULK_MIN_BLOCKS 1
#endif
#ifndef TUNE_BULK_MIN_TILES
#  define TUNE_BULK_MIN_TILES 2
#endif

#if !TUNE_BASE
struct select_tuning_policy_hub
{
  struct no_bulk
  {};
  struct bulk
  {
    using BulkSelectPolicy =
      strata::AgentSelectBulkPolicy<TUNE_THREADS_PER_BLOCK, TUNE_BULK_ITEMS, TUNE_DELAY_NS, TUNE_MAX_DELAY_NS,
                                    TUNE_PREFETCH_QUARTERS, TUNE_BULK_MIN_BLOCKS, TUNE_BULK_MIN_TILES>;
  };
  struct Policy
      : strata::ChainedPolicy<300, Policy, Policy>
      , std::conditional_t<TUNE_BULK != 0, bulk, no_bulk>
  {
    using SelectPolicy =
      strata::AgentSelectPolicy<TUNE_THREADS_PER_BLOCK, TUNE_ITEMS_PER_THREAD,
                                TUNE_LOAD == 0 ? strata::BLOCK_LOAD_WARP_TRANSPOSE : strata::BLOCK_LOAD_VECTORIZE,
                                TUNE_LOAD_MODIFIER == 0 ? strata::LOAD_DEFAULT : strata::LOAD_PLAIN,
                                strata::BLOCK_SCAN_WARP_SCANS, TUNE_DELAY_NS, TUNE_MAX_DELAY_NS, TUNE_PREFETCH_QUARTERS,
                                TUNE_PERSISTENT != 0, TUNE_MIN_BLOCKS>;
  };
  using MaxPolicy = Policy;
};
#endif

// DeviceSelect::If (PARTITION false) or DevicePartition::If (true) of `x < threshold` over an array of T, on Hub.
template <typename T, bool PARTITION, typename Hub>
using predicate_select_dispatch_t =
  strata::DispatchSelect<const T*, strata::detail::select::no_flags, T*, std::uint32_t*, strata_bench::less_than<T>,
                         strata::NullType, std::uint32_t, strata::detail::select::mode::predicate, PARTITION,
                         strata::detail::select::no_values, Hub>;

// Whether that selection's kernel fits the 48 KiB of shared memory a kernel may declare statically.
template <typename T, bool PARTITION, typename Hub>
constexpr bool predicate_select_fits_shared_memory()
{
  using Policy = typename Hub::MaxPolicy::SelectPolicy;
  using Agent  = strata::AgentSelect<Policy, const T*, strata::detail::select::no_flags, T*, std::uint32_t*,
                                    strata_bench::less_than<T>, strata::NullType, std::uint32_t,
                                    strata::detail::select::mode::predicate, PARTITION>;
  return sizeof(typename Agent::TempStorage) <= 48 * 1024;
}

// Whether d_out holds the items of d_in below `threshold` in order (a partition: then the others, in reverse order
// from the end) and the count is their number.
template <typename T, bool PARTITION>
bool predicate_selection_matches(const T* d_in, const T* d_out, const std::uint32_t* d_count, std::size_t n,
                                 T threshold)
{
  std::vector<T> in(n), out(n);
  std::uint32_t count = 0;
  STRATA_BENCH_CHECK(cudaMemcpy(in.data(), d_in, n * sizeof(T), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost));
  std::size_t selected = 0;
  std::size_t rejected = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    const bool keep = in[i] < threshold;
    if (!keep && !PARTITION)
    {
      continue;
    }
    const std::size_t at = keep ? selected++ : n - 1 - rejected++;
    if (at >= n || (keep && selected > count) || out[at] != in[i])
    {
      return false;
    }
  }
  return selected == count;
}

// Times the selection (or partition) of n = 2^state.range(0) random items, `pct` percent selected, on Hub, and
// validates its output once per case.
template <typename T, bool PARTITION, typename Hub>
void time_predicate_selection(benchmark::State& state, int pct)
{
  if constexpr (!predicate_select_fits_shared_memory<T, PARTITION, Hub>())
  {
    state.SkipWithError("the tile does not fit in static shared memory");
  }
  else
  {
    using Dispatch      = predicate_select_dispatch_t<T, PARTITION, Hub>;
    const std::size_t n = std::size_t(1) << state.range(0);
    const strata_bench::less_than<T> op{strata_bench::threshold_for<T>(pct)};
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
    strata_bench::set_counters(state, n, (n + (PARTITION ? n : selected)) * sizeof(T));

    // Validate once per case (Google Benchmark calls the benchmark several times while it sizes the run).
    static std::set<std::pair<std::int64_t, int>> validated;
    if (validated.insert({state.range(0), pct}).second)
    {
      STRATA_BENCH_CHECK(cudaMemset(out.get(), 0xa5, n * sizeof(T)));
      STRATA_BENCH_CHECK(run(temp.get(), bytes, inputs.at(0), 0));
      STRATA_BENCH_CHECK(cudaDeviceSynchronize());
      if (!predicate_selection_matches<T, PARTITION>(inputs.at(0), out.get(), count.get(), n, op.threshold))
      {
        state.SkipWithError(PARTITION ? "wrong partition" : "wrong selection");
      }
    }
  }
}
