// Frontend histograms (strata's own; Thrust has none) over DeviceHistogram.
//
//   strata::histogram_even(strata::par.on(stream), v.begin(), v.end(), counts.begin(), 256, 0, 256);
//   strata::histogram_range(strata::par.on(stream), v.begin(), v.end(), counts.begin(), levels.begin(), levels.end());
//
// histogram_even counts the items of [first, last) in num_bins bins that split [lower, upper) evenly,
// histogram_range in the bins [levels[i], levels[i + 1]) of a sorted range of num_bins + 1 levels; items outside
// every bin are not counted, as DeviceHistogram defines it (CUB's rules). The counts are written (not added) to
// [result, result + num_bins), in the output's value type (an integer); returns result + num_bins. The counters and
// the levels are contiguous memory the device reads and writes (device_vector, universal_vector, pointers), the
// items any input iterator. Never synchronizes the host (but for counters in host-accessible memory,
// strata/execution/host_value.cuh); may be captured into a CUDA graph; no temporary storage. Errors throw
// strata::cuda_error naming the algorithm; bad arguments (num_bins < 1, fewer than two levels, upper < lower where
// DeviceHistogram refuses it) are found before anything is launched.
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_histogram.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/execution/host_value.cuh>
#include <strata/execution/iterators.cuh>
#include <strata/execution/policy.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/cuda_error.cuh>

#include <cuda/std/iterator>

#include <climits>
#include <cstdint>
#include <type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace frontend
{
// The counters' pointer: the histogram is written through a CounterT*, so the output must be contiguous.
template <typename OutputIt>
auto counters_of(OutputIt result)
{
  const auto counters = unwrap(result);
  static_assert(std::is_pointer<decltype(counters)>::value,
                "strata::histogram_even / histogram_range: the counters must be contiguous memory (a pointer, "
                "thrust::device_ptr, or a device_vector or universal_vector iterator)");
  static_assert(std::is_integral<std::remove_pointer_t<decltype(counters)>>::value,
                "strata::histogram_even / histogram_range: the counters are integers");
  return counters;
}

template <typename PolicyT, typename InputIt, typename OutputIt, typename Call>
OutputIt histogram(const PolicyT& policy, const char* name, InputIt first, InputIt last, OutputIt result,
                   long long num_bins, Call&& call)
{
  const auto n = cuda::std::distance(first, last);
  if (num_bins < 1 || num_bins >= INT_MAX)
  {
    throw_on_error(cudaErrorInvalidValue, name);
  }
  const auto counters = counters_of(result);
  throw_on_error(run_single_phase(policy,
                                  [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
                                    return call(d_temp, bytes, unwrap(first), counters, static_cast<int>(num_bins + 1),
                                                static_cast<std::int64_t>(n), stream);
                                  }),
                 name);
  finish_for_host(policy, name, result);
  return result + num_bins;
}
} // namespace frontend
} // namespace detail

template <typename A, typename D, typename InputIt, typename OutputIt, typename LevelT>
OutputIt histogram_even(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt result,
                        int num_bins, LevelT lower, LevelT upper)
{
  STRATA_NVTX_RANGE("strata::histogram_even");
  return detail::frontend::histogram(
    policy, "strata::histogram_even", first, last, result, num_bins,
    [&](void* d_temp, size_t& bytes, auto samples, auto counters, int num_levels, std::int64_t n, cudaStream_t stream) {
      return DeviceHistogram::HistogramEven(d_temp, bytes, samples, counters, num_levels, lower, upper, n, stream);
    });
}

template <typename A, typename D, typename InputIt, typename OutputIt, typename LevelIt>
OutputIt histogram_range(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt result,
                         LevelIt levels_first, LevelIt levels_last)
{
  STRATA_NVTX_RANGE("strata::histogram_range");
  const auto levels = detail::unwrap(levels_first);
  static_assert(std::is_pointer<decltype(levels)>::value,
                "strata::histogram_range: the levels must be contiguous memory the device reads (a pointer, "
                "thrust::device_ptr, or a device_vector or universal_vector iterator)");
  const long long num_levels = static_cast<long long>(cuda::std::distance(levels_first, levels_last));
  return detail::frontend::histogram(policy, "strata::histogram_range", first, last, result, num_levels - 1,
                                     [&](void* d_temp, size_t& bytes, auto samples, auto counters, int levels_count,
                                         std::int64_t n, cudaStream_t stream) {
                                       using LevelT = std::remove_cv_t<std::remove_pointer_t<decltype(levels)>>;
                                       return DeviceHistogram::HistogramRange(d_temp, bytes, samples, counters,
                                                                              levels_count,
                                                                              static_cast<const LevelT*>(levels), n,
                                                                              stream);
                                     });
}

STRATA_NAMESPACE_END
