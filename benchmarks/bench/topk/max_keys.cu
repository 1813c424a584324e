// DeviceTopK::MaxKeys, unsorted, k = 1000, in the tuning format. The search space is declared below; the tuning driver
// compiles this file once per point with -DTUNE_BASE=0 and the TUNE_* values, and once with TUNE_BASE=1 (the defaults
// of tuning_topk.cuh) to compare against. TUNE_RADIX_BITS: the digit of a round; TUNE_CANDIDATE_SHARE: each candidate
// buffer holds 1 / share of the input; TUNE_HISTOGRAM_ITEMS: keys per thread of the first digit's histogram (256
// threads); TUNE_ITEMS_PER_THREAD: keys per thread of a round's tile, as 4-byte keys (half as many 8-byte ones), so
// that the largest tile (512 x 16 keys) and 2^11 counts stay within 48 KiB of static shared memory.
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 128:512:128
// %RANGE% TUNE_ITEMS_PER_THREAD ipt 4:16:2
// %RANGE% TUNE_RADIX_BITS rb 8:11:1
// %RANGE% TUNE_CANDIDATE_SHARE cs 4:16:4
// %RANGE% TUNE_HISTOGRAM_ITEMS hipt 8:32:8
// %RANGE% TUNE_MIN_BLOCKS mb 1:4:1
#include <strata/device/dispatch/dispatch_topk.cuh>

#include "bench_util.cuh"
#include "tuning_axes.cuh"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#ifndef TUNE_BASE
#  define TUNE_BASE 1
#endif

namespace
{
#if !TUNE_BASE
// A hub with a single MaxPolicy built from the TUNE_* values; items per thread count 4-byte keys (halved for 8-byte
// ones), so every type's tile stays within 48 KiB of static shared memory.
template <typename T>
struct bench_policy_hub
{
  static constexpr int ITEMS = TUNE_ITEMS_PER_THREAD * 4 / static_cast<int>(sizeof(T)) > 0
                               ? TUNE_ITEMS_PER_THREAD * 4 / static_cast<int>(sizeof(T))
                               : 1;
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using HistogramPolicy = strata::AgentTopKHistogramPolicy<256, TUNE_HISTOGRAM_ITEMS>;
    using TopKPolicy = strata::AgentTopKPolicy<TUNE_THREADS_PER_BLOCK, ITEMS, TUNE_RADIX_BITS, TUNE_CANDIDATE_SHARE,
                                               strata::BLOCK_LOAD_WARP_TRANSPOSE, strata::LOAD_PLAIN,
                                               strata::BLOCK_SCAN_WARP_SCANS, 32, 256, 4, TUNE_MIN_BLOCKS>;
  };
  using MaxPolicy = Policy;
};
template <typename T>
using hub_t = bench_policy_hub<T>;
#else
template <typename T>
using hub_t = strata::detail::topk::policy_hub<T, strata::NullType>;
#endif

constexpr std::size_t K = 1000;

template <typename T>
void max_keys(benchmark::State& state)
{
  const std::size_t n = std::size_t(1) << state.range(0);
  using Dispatch =
    strata::DispatchTopK<const T*, T*, strata::NullType*, strata::NullType*, std::uint32_t, true, hub_t<T>>;
  strata_bench::rotating_inputs<T> inputs(n);
  strata_bench::device_array<T> out(K);
  const auto run = [&](void* temp, std::size_t& bytes, const T* in, cudaStream_t s) {
    return Dispatch::Dispatch(temp, bytes, in, out.get(), nullptr, nullptr, std::uint32_t(n), std::uint32_t(K), false,
                              s);
  };
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK(run(nullptr, bytes, inputs.at(0), 0));
  strata_bench::device_array<char> temp(bytes);
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK(run(temp.get(), bytes, inputs.next(), s));
  });
  strata_bench::set_counters(state, n, n * sizeof(T));

  // Validate once per type and size: the K keys, sorted, are the input's K largest.
  static std::set<std::string> validated;
  if (validated.insert(strata_bench::type_name<T>() + "/" + std::to_string(state.range(0))).second)
  {
    STRATA_BENCH_CHECK(run(temp.get(), bytes, inputs.at(0), 0));
    std::vector<T> keys(n), top(K);
    STRATA_BENCH_CHECK(cudaMemcpy(keys.data(), inputs.at(0), n * sizeof(T), cudaMemcpyDeviceToHost));
    STRATA_BENCH_CHECK(cudaMemcpy(top.data(), out.get(), K * sizeof(T), cudaMemcpyDeviceToHost));
    std::nth_element(keys.begin(), keys.begin() + (K - 1), keys.end(), std::greater<T>{});
    keys.resize(K);
    std::sort(keys.begin(), keys.end(), std::greater<T>{});
    std::sort(top.begin(), top.end(), std::greater<T>{});
    if (keys != top)
    {
      state.SkipWithError("the top keys differ from the host's");
    }
  }
}
} // namespace

#define STRATA_TOPK_MAX_KEYS_BENCH(token) STRATA_TUNING_BENCH(max_keys, "topk_max_keys", "T", token)

#ifdef TUNE_T
STRATA_TOPK_MAX_KEYS_BENCH(TUNE_T)
#else
STRATA_TOPK_MAX_KEYS_BENCH(F32)
STRATA_TOPK_MAX_KEYS_BENCH(U32)
STRATA_TOPK_MAX_KEYS_BENCH(F64)
#endif

STRATA_BENCHMARK_MAIN()
