// The segmented scan of back-to-back segments (detail::segmented_scan_tiles::run: tails, then a tiled scan) as an
// inclusive sum, in the tuning format, on the cases of inclusive_sum.cu (DispatchSegmentedScan's walk) so that the two
// compare point for point; DeviceSegmentedScan takes this path for one offsets array. The tuning driver compiles this file once per point with -DTUNE_BASE=0
// and the TUNE_* values, and once with TUNE_BASE=1 (tuning_segmented_scan_tiles.cuh). Runtime axes: 2^20 ... 2^28
// items in CSR segments of uniform lengths in [1, 2m - 1], MeanLength:<m> (segment_cases.cuh).
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 128:512:128
// %RANGE% TUNE_ITEMS_PER_THREAD ipt 4:24:2
// %RANGE% TUNE_MIN_BLOCKS mb 1:4:1
#include <strata/device/dispatch/dispatch_segmented_scan_tiles.cuh>

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
    using SegmentedScanTilesPolicy =
      strata::AgentSegmentedScanTilesPolicy<TUNE_THREADS_PER_BLOCK, TUNE_ITEMS_PER_THREAD,
                                            strata::BLOCK_SCAN_WARP_SCANS, TUNE_MIN_BLOCKS>;
  };
  using MaxPolicy = Policy;
};
template <typename T>
using hub_t = bench_policy_hub;
#else
template <typename T>
using hub_t = strata::detail::segmented_scan_tiles::policy_hub<T, T>;
#endif

template <typename T>
void tiles_inclusive_sum(benchmark::State& state)
{
  const int log2_n = static_cast<int>(state.range(0));
  const strata_bench::segment_lengths lengths{strata_bench::distribution::uniform, static_cast<int>(state.range(1))};
  const std::vector<int>& offsets = strata_bench::host_offsets(lengths, log2_n);
  const std::size_t n             = std::size_t(1) << log2_n;
  const int segments              = static_cast<int>(offsets.size() - 1);
  const strata::detail::reduce::empty_value<T> no_init{T{}};
  strata_bench::rotating_inputs<T> inputs(n);
  strata_bench::device_array<int> d_offsets(offsets.size());
  STRATA_BENCH_CHECK(cudaMemcpy(d_offsets.get(), offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
  strata_bench::device_array<T> out(n);
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK(
    (strata::detail::segmented_scan_tiles::run<false, hub_t<T>>(nullptr, bytes, static_cast<const T*>(inputs.at(0)),
                                                                out.get(), static_cast<const int*>(d_offsets.get()),
                                                                segments, cuda::std::plus<>{}, no_init, 0)));
  strata_bench::device_array<char> temp(bytes);
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK((strata::detail::segmented_scan_tiles::run<false, hub_t<T>>(
      temp.get(), bytes, static_cast<const T*>(inputs.next()), out.get(), static_cast<const int*>(d_offsets.get()),
      segments, cuda::std::plus<>{}, no_init, s)));
  });
  strata_bench::set_counters(state, n, 2 * n * sizeof(T) + offsets.size() * sizeof(int));
}

} // namespace

int main(int argc, char** argv)
{
#ifdef TUNE_T
  strata_bench::register_segment_tuning("segmented_scan_tiles_inclusive_sum", STRATA_TUNE_STRING(TUNE_T),
                                        tiles_inclusive_sum<STRATA_TUNE_TYPE(TUNE_T)>);
#else
  strata_bench::register_segment_tuning("segmented_scan_tiles_inclusive_sum", "I32", tiles_inclusive_sum<std::int32_t>);
  strata_bench::register_segment_tuning("segmented_scan_tiles_inclusive_sum", "F32", tiles_inclusive_sum<float>);
#endif
  return strata_bench::run_benchmarks(argc, argv);
}
