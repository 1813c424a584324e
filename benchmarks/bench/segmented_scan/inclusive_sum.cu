// DeviceSegmentedScan::InclusiveSegmentedSum's walk (DispatchSegmentedScan, which the segments of one offsets array no
// longer take: tiles.cu is theirs) in the tuning format. The search space is declared below; the tuning
// driver compiles this file once per point with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1 (the
// tuned defaults of tuning_segmented_scan.cuh) to compare against. Runtime axes: 2^20 ... 2^28 items in CSR segments
// of the compare benchmark's cases (segment_cases.cuh), MeanLength:<m> for uniform lengths in [1, 2m - 1].
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 64:512:64
// %RANGE% TUNE_ITEMS_PER_THREAD ipt 4:24:2
// %RANGE% TUNE_SEGMENTS_PER_TILE spt 32:256:32
// %RANGE% TUNE_MIN_BLOCKS mb 1:4:1
#include <strata/device/device_segmented_scan.cuh>

#include "bench_util.cuh"
#include "segment_cases.cuh"
#include "tuning_axes.cuh"

#include <cstdint>
#include <string>
#include <vector>

#ifndef TUNE_BASE
#  define TUNE_BASE 1
#endif

namespace
{
#if !TUNE_BASE
// A hub with a single MaxPolicy built from the TUNE_* values.
struct bench_policy_hub
{
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using SegmentedScanPolicy = strata::AgentSegmentedScanPolicy<TUNE_THREADS_PER_BLOCK, TUNE_ITEMS_PER_THREAD,
                                                                 TUNE_SEGMENTS_PER_TILE, TUNE_MIN_BLOCKS>;
  };
  using MaxPolicy = Policy;
};
template <typename T>
using hub_t = bench_policy_hub;
#else
template <typename T>
using hub_t = strata::detail::segmented_scan::policy_hub<T, T>;
#endif

template <typename T>
void inclusive_sum(benchmark::State& state)
{
  const int log2_n = static_cast<int>(state.range(0));
  const strata_bench::segment_lengths lengths{strata_bench::distribution::uniform, static_cast<int>(state.range(1))};
  const std::vector<int>& offsets = strata_bench::host_offsets(lengths, log2_n);
  const std::size_t n             = std::size_t(1) << log2_n;
  const int segments              = static_cast<int>(offsets.size() - 1);
  using Dispatch =
    strata::DispatchSegmentedScan<const T*, T*, const int*, const int*, strata::detail::segmented_scan::same_offsets,
                                  int, cuda::std::plus<>, strata::detail::reduce::empty_value<T>, T, false, hub_t<T>>;
  strata_bench::rotating_inputs<T> inputs(n);
  strata_bench::device_array<int> d_offsets(offsets.size());
  STRATA_BENCH_CHECK(cudaMemcpy(d_offsets.get(), offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
  strata_bench::device_array<T> out(n);
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK(Dispatch::Dispatch(nullptr, bytes, inputs.at(0), out.get(), segments, d_offsets.get(),
                                        d_offsets.get() + 1, {}, {}, {}, 0));
  strata_bench::device_array<char> temp(bytes);
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK(Dispatch::Dispatch(temp.get(), bytes, inputs.next(), out.get(), segments, d_offsets.get(),
                                          d_offsets.get() + 1, {}, {}, {}, s));
  });
  strata_bench::set_counters(state, n, 2 * n * sizeof(T) + offsets.size() * sizeof(int));
}

} // namespace

int main(int argc, char** argv)
{
#ifdef TUNE_T
  strata_bench::register_segment_tuning("segmented_scan_inclusive_sum", STRATA_TUNE_STRING(TUNE_T),
                                        inclusive_sum<STRATA_TUNE_TYPE(TUNE_T)>);
#else
  strata_bench::register_segment_tuning("segmented_scan_inclusive_sum", "I32", inclusive_sum<std::int32_t>);
  strata_bench::register_segment_tuning("segmented_scan_inclusive_sum", "F32", inclusive_sum<float>);
#endif
  return strata_bench::run_benchmarks(argc, argv);
}
