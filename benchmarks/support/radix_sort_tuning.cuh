// The body of the DeviceRadixSort benchmarks in the tuning format (benchmarks/bench/radix_sort/keys.cu and
// pairs.cu). With TUNE_BASE=1 (the default) the sort runs with the library's policy hub; otherwise with
// `radix_sort_tuning_policy_hub`, whose single policy takes the onesweep kernel's block size, items per thread,
// digit width, minimum blocks per SM and (pairs) whether values go to shared memory with their keys from the TUNE_*
// values the tuning driver passes, and the histogram and
// single-tile policies from the library's hub (the single-tile one with the tuned digit width, which the dispatch
// requires to be the same). A variant has no small-input policy: below the size where the library's hub switches to
// one (1-byte keys under a tile per SM, dispatch_radix_sort.cuh), the base and a variant run different kernels.
//
// Runtime axes: the input size, 2^16 ... 2^28 items, and the keys' bit entropy in thousandths: 1000 random keys,
// 544 each key the AND of 3 random words (radix_sort_inputs.cuh; 811, 337 and 201 are 2, 4 and 5 words).
// Names (tuning_axes.cuh): "radix_sort_keys/KeyT{ct}:U32/Elements{io}[pow2]:24/Entropy:544".
#pragma once

#include <strata/device/dispatch/dispatch_radix_sort.cuh>

#include "bench_util.cuh"
#include "radix_sort_inputs.cuh"
#include "tuning_axes.cuh"

#include <cstdint>
#include <set>
#include <string>
#include <type_traits>
#include <utility>

#ifndef TUNE_BASE
#  define TUNE_BASE 1
#endif

namespace radix_sort_bench
{
using offset_t = std::uint32_t; // what DeviceRadixSort uses for fewer than 2^31 items

// The library's value type for a keys-only sort (NullType), from the bench inputs' (no_values).
template <typename ValueT>
using library_value_t =
  std::conditional_t<std::is_same<ValueT, strata_bench::no_values>::value, strata::NullType, ValueT>;

// The library's own hub for the sort: a keys-only sort's is the NullType one (its tuning is the keys-only one).
template <typename KeyT, typename ValueT>
using library_hub_t = strata::detail::radix_sort::policy_hub<KeyT, library_value_t<ValueT>, offset_t>;

#if !TUNE_BASE
template <typename KeyT, typename ValueT>
struct radix_sort_tuning_policy_hub
{
  using base = typename library_hub_t<KeyT, ValueT>::MaxPolicy;
  // A knob the variant leaves out keeps the library's value.
#  ifdef TUNE_RADIX_BITS
  static constexpr int radix_bits = TUNE_RADIX_BITS;
#  else
  static constexpr int radix_bits             = base::OnesweepPolicy::RADIX_BITS;
#  endif
#  ifdef TUNE_MIN_BLOCKS
  static constexpr int min_blocks = TUNE_MIN_BLOCKS;
#  else
  static constexpr int min_blocks             = base::OnesweepPolicy::MIN_BLOCKS_PER_SM;
#  endif
#  ifdef TUNE_VALUES_WITH_KEYS
  static constexpr bool values_with_keys = TUNE_VALUES_WITH_KEYS != 0;
#  else
  static constexpr bool values_with_keys      = base::OnesweepPolicy::VALUES_WITH_KEYS;
#  endif
#  ifdef TUNE_VALUES_AFTER_LOOKBACK
  static constexpr bool values_after_lookback = TUNE_VALUES_AFTER_LOOKBACK != 0;
#  else
  static constexpr bool values_after_lookback = base::OnesweepPolicy::VALUES_AFTER_LOOKBACK;
#  endif
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using OnesweepPolicy =
      strata::AgentRadixSortOnesweepPolicy<TUNE_THREADS_PER_BLOCK, TUNE_ITEMS_PER_THREAD, radix_bits, min_blocks,
                                           values_with_keys, values_after_lookback>;
    using HistogramPolicy = typename base::HistogramPolicy;
    // One single-block tier, the library's largest (the tuned sizes pass it).
    using base_single = typename strata::detail::radix_sort::single_tile_tiers_t<base>::largest;
    using SingleTilePolicy =
      strata::AgentRadixSortOnesweepPolicy<base_single::BLOCK_THREADS, base_single::ITEMS_PER_THREAD, radix_bits>;
  };
  using MaxPolicy = Policy;
};
template <typename KeyT, typename ValueT>
using hub_t = radix_sort_tuning_policy_hub<KeyT, ValueT>;
#else
template <typename KeyT, typename ValueT>
using hub_t = library_hub_t<KeyT, ValueT>;
#endif


template <typename KeyT, typename ValueT>
using dispatch_t = strata::DispatchRadixSort<false, KeyT, library_value_t<ValueT>, offset_t,
                                             strata::detail::radix_sort::no_decomposer, hub_t<KeyT, ValueT>>;

// Whether a policy's onesweep and single-tile kernels can be built: whole warps, a thread per digit, no more
// resident threads asked for than an SM holds (2048), and the tiles' dynamic shared memory within sm_90's 227 KiB
// (checked without instantiating a kernel that a static_assert would reject).
template <typename Policy>
constexpr bool agent_shape_ok()
{
  return Policy::BLOCK_THREADS % 32 == 0 && Policy::BLOCK_THREADS >= (1 << Policy::RADIX_BITS)
      && Policy::BLOCK_THREADS <= 1024 && Policy::BLOCK_THREADS * Policy::MIN_BLOCKS_PER_SM <= 2048;
}
template <typename Policy, typename KeyT, typename ValueT>
constexpr bool agent_fits(std::size_t shared_bytes)
{
  if constexpr (!agent_shape_ok<Policy>())
  {
    return false;
  }
  else
  {
    using CodecT = strata::detail::radix_sort::key_codec<KeyT, false, strata::detail::radix_sort::no_decomposer>;
    using Agent  = strata::AgentRadixSortOnesweep<Policy, KeyT, library_value_t<ValueT>, offset_t, CodecT>;
    return sizeof(typename Agent::TempStorage) <= shared_bytes;
  }
}
template <typename KeyT, typename ValueT>
constexpr bool policy_fits()
{
  using Max = typename hub_t<KeyT, ValueT>::MaxPolicy;
  return agent_fits<typename Max::OnesweepPolicy, KeyT, ValueT>(227 * 1024)
      && agent_fits<typename strata::detail::radix_sort::single_tile_tiers_t<Max>::largest, KeyT, ValueT>(227 * 1024);
}

template <typename KeyT, typename ValueT>
void sort(benchmark::State& state)
{
  if constexpr (!policy_fits<KeyT, ValueT>())
  {
    state.SkipWithError("the policy's tile does not fit in a block's shared memory, or its block is not whole warps "
                        "with a thread per digit, or its blocks per SM ask for more than 2048 threads");
  }
  else
  {
    using Dispatch            = dispatch_t<KeyT, ValueT>;
    using LibValueT           = library_value_t<ValueT>;
    constexpr bool HAS_VALUES = !std::is_same<ValueT, strata_bench::no_values>::value;
    const std::size_t n       = std::size_t(1) << state.range(0);
    const int and_words       = strata_bench::and_words_for_entropy(static_cast<int>(state.range(1)));
    if (and_words < 1)
    {
      state.SkipWithError("entropy: 1000, 811, 544, 337 or 201 (thousandths)");
      return;
    }
    const strata_bench::sort_inputs<KeyT, ValueT> in(n, strata_bench::key_spec{and_words, 0},
                                                     strata_bench::value_fill::index);
    strata_bench::device_array<KeyT> keys_out(n);
    strata_bench::device_array<ValueT> values_out(HAS_VALUES ? n : 0);

    // The in/out form: the input set is read only, the result lands in the outputs.
    auto run = [&](void* d_temp, std::size_t& bytes, std::size_t set, cudaStream_t s) {
      strata::DoubleBuffer<KeyT> keys(const_cast<KeyT*>(in.keys(set)), keys_out.get());
      strata::DoubleBuffer<LibValueT> values;
      if constexpr (HAS_VALUES)
      {
        values = strata::DoubleBuffer<LibValueT>(const_cast<ValueT*>(in.values(set)), values_out.get());
      }
      return Dispatch::Dispatch(d_temp, bytes, keys, values, static_cast<offset_t>(n), 0, int(8 * sizeof(KeyT)), false,
                                s, {});
    };
    std::size_t bytes = 0;
    STRATA_BENCH_CHECK(run(nullptr, bytes, 0, 0));
    strata_bench::device_array<char> temp(bytes);
    std::size_t set = 0;
    strata_bench::time_loop(state, [&](cudaStream_t s) {
      STRATA_BENCH_CHECK(run(temp.get(), bytes, set++, s));
    });
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
    state.counters["elements"]   = static_cast<double>(n);
    state.counters["temp_bytes"] = static_cast<double>(bytes);

    // Validate once per case (Google Benchmark calls this function several times while it sizes the run).
    static std::set<std::pair<std::int64_t, std::int64_t>> validated;
    if (validated.insert({state.range(0), state.range(1)}).second)
    {
      STRATA_BENCH_CHECK(cudaMemset(keys_out.get(), 0xa5, n * sizeof(KeyT)));
      if constexpr (HAS_VALUES)
      {
        STRATA_BENCH_CHECK(cudaMemset(values_out.get(), 0xa5, n * sizeof(ValueT)));
      }
      STRATA_BENCH_CHECK(run(temp.get(), bytes, 0, 0));
      STRATA_BENCH_CHECK(cudaDeviceSynchronize());
      const std::string problem = strata_bench::check_sort(in.keys(0), keys_out.get(), values_out.get(), n);
      if (!problem.empty())
      {
        state.SkipWithError(problem.c_str());
      }
    }
  }
}

// Registers sort<KeyT, ValueT> as "<name>/KeyT{ct}:<key token>[/ValueT{ct}:<value token>]" over the sizes and
// entropies (tuning_axes.cuh).
template <typename KeyT, typename ValueT = strata_bench::no_values>
void register_sort(const std::string& name, const char* key_token, const char* value_token = nullptr)
{
  std::string full = strata_bench::tuning_name(name, "KeyT", key_token);
  if constexpr (!std::is_same<ValueT, strata_bench::no_values>::value)
  {
    full = strata_bench::tuning_name(full, "ValueT", value_token);
  }
  benchmark::RegisterBenchmark(full.c_str(), sort<KeyT, ValueT>)
    ->ArgsProduct({{16, 20, 24, 28}, {1000, 544}})
    ->ArgNames({"Elements{io}[pow2]", "Entropy"})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
}
} // namespace radix_sort_bench
