// DeviceSegmentedReduce::Sum in the tuning format. The search space is declared below; the tuning driver compiles
// this file once per point with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1 (the tuned defaults
// of tuning_segmented_reduce.cuh) to compare against. Runtime axes: 2^20 ... 2^28 items in CSR segments of the
// compare benchmark's cases (segment_cases.cuh), MeanLength:<m> for uniform lengths in [1, 2m - 1].
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 64:512:64
// %RANGE% TUNE_ITEMS_PER_THREAD ipt 4:24:2
// %RANGE% TUNE_SEGMENTS_PER_TILE spt 32:256:32
// %RANGE% TUNE_FAST_ITEMS_LOG2 fast 6:16:1
// %RANGE% TUNE_MIN_BLOCKS mb 1:4:1
// %RANGE% TUNE_RUN_VECTORS rv 2:16:2
// %RANGE% TUNE_WAVES waves 1:8:1
#include <strata/device/device_segmented_reduce.cuh>

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
template <typename T>
struct bench_policy_hub
{
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using SegmentedReducePolicy =
      strata::AgentSegmentedReducePolicy<TUNE_THREADS_PER_BLOCK, TUNE_ITEMS_PER_THREAD, TUNE_SEGMENTS_PER_TILE,
                                         1 << TUNE_FAST_ITEMS_LOG2, TUNE_MIN_BLOCKS, TUNE_RUN_VECTORS, TUNE_WAVES>;
  };
  using MaxPolicy = Policy;
};
template <typename T>
using hub_t = bench_policy_hub<T>;
#else
template <typename T>
using hub_t = strata::detail::segmented_reduce::policy_hub<T, T>;
#endif

template <typename T>
void sum(benchmark::State& state)
{
  const int log2_n = static_cast<int>(state.range(0));
  const strata_bench::segment_lengths lengths{strata_bench::distribution::uniform, static_cast<int>(state.range(1))};
  const std::vector<int>& offsets = strata_bench::host_offsets(lengths, log2_n);
  const std::size_t n             = std::size_t(1) << log2_n;
  const int segments              = static_cast<int>(offsets.size() - 1);
  using Dispatch = strata::DispatchSegmentedReduce<const T*, T*, const int*, const int*, int, cuda::std::plus<>, T, T,
                                                   strata::detail::segmented_reduce::plain_items, hub_t<T>>;
  strata_bench::rotating_inputs<T> inputs(n);
  strata_bench::device_array<int> d_offsets(offsets.size());
  STRATA_BENCH_CHECK(cudaMemcpy(d_offsets.get(), offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
  strata_bench::device_array<T> out(segments);
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK(Dispatch::Dispatch(nullptr, bytes, inputs.at(0), out.get(), segments, d_offsets.get(),
                                        d_offsets.get() + 1, {}, T{}, 0));
  strata_bench::device_array<char> temp(bytes);
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK(Dispatch::Dispatch(temp.get(), bytes, inputs.next(), out.get(), segments, d_offsets.get(),
                                          d_offsets.get() + 1, {}, T{}, s));
  });
  strata_bench::set_counters(state, n, n * sizeof(T) + offsets.size() * sizeof(int) + segments * sizeof(T));
}

} // namespace

int main(int argc, char** argv)
{
#ifdef TUNE_T
  strata_bench::register_segment_tuning("segmented_reduce_sum", STRATA_TUNE_STRING(TUNE_T),
                                        sum<STRATA_TUNE_TYPE(TUNE_T)>);
#else
  strata_bench::register_segment_tuning("segmented_reduce_sum", "I32", sum<std::int32_t>);
  strata_bench::register_segment_tuning("segmented_reduce_sum", "F32", sum<float>);
#endif
  return strata_bench::run_benchmarks(argc, argv);
}
