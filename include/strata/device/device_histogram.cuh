// DeviceHistogram: histograms of samples in device memory, CUB's names and contracts.
//
//   size_t bytes = 0;
//   strata::DeviceHistogram::HistogramEven(nullptr, bytes, d_samples, d_histogram, 257, 0, 256, n); // size query
//   strata::DeviceHistogram::HistogramEven(d_temp, bytes, d_samples, d_histogram, 257, 0, 256, n);  // 256 bins
//   strata::DeviceHistogram::HistogramRange(d_samples, d_histogram, num_levels, d_levels, n, stream); // single-phase
//   strata::DeviceHistogram::MultiHistogramEven<4, 3>(d_rgba, d_rgb, num_levels3, lower3, upper3, num_pixels,
//                                                     strata::par.on(stream)); // cuda::std::arrays of 3 channels
//
// HistogramEven counts the samples into num_levels - 1 bins of equal width over [lower_level, upper_level); a sample
// goes to bin (sample - lower_level) * (num_levels - 1) / (upper_level - lower_level), computed in the common type of
// the sample and level types as CUB computes it: exactly, rounded down, for integers; as a multiplication by the
// reciprocal of the bin width, truncated, for floating point (a sample below upper_level that this rounds into the
// bin past the last is counted in the last). HistogramRange counts the samples into the num_levels - 1 bins
// [d_levels[i], d_levels[i + 1]) of ascending levels. Samples outside the bins, and NaN, are not counted. The Multi
// forms take pixels of NUM_CHANNELS interleaved samples (1 to 4) and count the first NUM_ACTIVE_CHANNELS, each
// channel into its own histogram with its own levels. The 2D forms take a region of num_rows rows of num_row_samples
// samples (num_row_pixels pixels), row_stride_bytes apart (a multiple of the sample size, at least a row's bytes).
// The output histograms are zeroed first: they hold this call's counts (all zero without samples). Counters: any
// integer type, added to with wrapping atomics. Samples: any arithmetic type other than bool; 8-bit samples (signed
// ones included, whose negative samples CUB loses) cost no arithmetic per sample.
//
// The 1D forms also take their number of samples (pixels) from device memory: a strata::device_count in place of
// num_samples (num_pixels), whose bound the buffer must hold.
// Temporary storage: none (the size query answers 1 byte). Two launches (the zeroing, then one pass over the
// samples, which overlaps it on sm_90); one read of every sample; nothing synchronizes. 32-bit offsets up to 2^31 - 1
// samples spanned by the region, 64-bit beyond.
// Errors (cudaErrorInvalidValue, before anything is launched or written): num_levels < 2; a negative count; more than
// one row with a row stride smaller than a row or not a multiple of the sample size; integer levels with upper_level <
// lower_level, or whose (upper_level - lower_level) * (num_levels - 1) overflows CUB's arithmetic type; a null output
// histogram or levels pointer, null samples with samples to count, or a null device count.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_histogram.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/array>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace histogram
{
template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
constexpr bool check_types()
{
  using SampleT = it_value_t<SampleIteratorT>;
  static_assert(cuda::std::is_arithmetic<SampleT>::value && !cuda::std::is_same<SampleT, bool>::value,
                "DeviceHistogram's samples are of an arithmetic type other than bool");
  static_assert(cuda::std::is_arithmetic<LevelT>::value, "DeviceHistogram's levels are of an arithmetic type");
  static_assert(cuda::std::is_integral<CounterT>::value && !cuda::std::is_same<CounterT, bool>::value,
                "DeviceHistogram's counters are of an integer type");
  static_assert(cuda::std::is_integral<OffsetT>::value,
                "DeviceHistogram takes its numbers of samples, pixels and rows as integers (or, for a 1D input, a "
                "strata::device_count)");
  return true;
}

// Checks what both binnings share: the counts, the row stride, the levels' number, the pointers (on the run only: a
// size query may pass nulls). Gives the samples the region spans (0: none) and its row stride in samples.
template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename OffsetT>
cudaError_t check_region(const void* d_temp_storage, SampleIteratorT d_samples,
                         const cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS>& d_histograms,
                         const cuda::std::array<int, NUM_ACTIVE_CHANNELS>& num_levels, OffsetT num_row_pixels,
                         OffsetT num_rows, size_t row_stride_bytes, unsigned long long& extent,
                         unsigned long long& stride_samples)
{
  using SampleT                    = it_value_t<SampleIteratorT>;
  constexpr unsigned long long MAX = cuda::std::numeric_limits<unsigned long long>::max();
  if constexpr (cuda::std::is_signed<OffsetT>::value)
  {
    if (num_row_pixels < 0 || num_rows < 0)
    {
      return cudaErrorInvalidValue;
    }
  }
  for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
  {
    if (num_levels[c] < 2)
    {
      return cudaErrorInvalidValue;
    }
  }
  const auto pixels = static_cast<unsigned long long>(num_row_pixels);
  const auto rows   = static_cast<unsigned long long>(num_rows);
  if (pixels > MAX / (NUM_CHANNELS * sizeof(SampleT)))
  {
    return cudaErrorInvalidValue;
  }
  const unsigned long long row_samples = pixels * NUM_CHANNELS;
  stride_samples                       = row_samples;
  if (rows > 1)
  {
    if (row_stride_bytes % sizeof(SampleT) != 0 || row_stride_bytes < row_samples * sizeof(SampleT))
    {
      return cudaErrorInvalidValue;
    }
    stride_samples = row_stride_bytes / sizeof(SampleT);
    if (stride_samples > 0 && rows - 1 > (MAX - row_samples) / stride_samples)
    {
      return cudaErrorInvalidValue;
    }
  }
  extent = rows == 0 || pixels == 0 ? 0 : (rows - 1) * stride_samples + row_samples;
  if (d_temp_storage != nullptr)
  {
    for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
    {
      if (d_histograms[c] == nullptr)
      {
        return cudaErrorInvalidValue;
      }
    }
    if (extent > 0 && is_null_pointer(d_samples))
    {
      return cudaErrorInvalidValue;
    }
  }
  return cudaSuccess;
}

template <typename SampleIteratorT, int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS>
using hub_t = policy_hub<it_value_t<SampleIteratorT>, NUM_CHANNELS, NUM_ACTIVE_CHANNELS>;

// check_region on the bound of a count in device memory (of a 1D input: one row), and the count's pointer on the run.
template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename NumPixelsT>
cudaError_t check_count(const void* d_temp_storage, SampleIteratorT d_samples,
                        const cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS>& d_histograms,
                        const cuda::std::array<int, NUM_ACTIVE_CHANNELS>& num_levels, NumPixelsT num_row_pixels,
                        count_value_t<NumPixelsT> num_rows, size_t row_stride_bytes, unsigned long long& extent,
                        unsigned long long& stride_samples)
{
  if (is_device_count<NumPixelsT>::value && num_rows != count_value_t<NumPixelsT>(1))
  {
    return cudaErrorInvalidValue;
  }
  if (d_temp_storage != nullptr && is_null_count(num_row_pixels))
  {
    return cudaErrorInvalidValue;
  }
  return check_region<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_temp_storage, d_samples, d_histograms, num_levels,
                                                         count_bound(num_row_pixels), num_rows, row_stride_bytes,
                                                         extent, stride_samples);
}

// HistogramEven and its forms: checks the arguments and runs (or sizes) the histograms on the narrowest offsets that
// hold the region's samples.
template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
          typename NumPixelsT>
cudaError_t even(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                 cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histograms,
                 cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
                 cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> lower_level,
                 cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> upper_level, NumPixelsT num_row_pixels,
                 count_value_t<NumPixelsT> num_rows, size_t row_stride_bytes, cudaStream_t stream)
{
  static_assert(check_types<SampleIteratorT, CounterT, LevelT, count_value_t<NumPixelsT>>(), "");
  unsigned long long extent = 0;
  unsigned long long stride = 0;
  STRATA_RETURN_IF_ERROR((check_count<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
    d_temp_storage, d_samples, d_histograms, num_levels, num_row_pixels, num_rows, row_stride_bytes, extent, stride)));
  return dispatch_offset(extent, [&](auto offset) {
    using Off = decltype(offset);
    return DispatchHistogram<NUM_CHANNELS, NUM_ACTIVE_CHANNELS, SampleIteratorT, CounterT, LevelT, Off,
                             hub_t<SampleIteratorT, NUM_CHANNELS, NUM_ACTIVE_CHANNELS>,
                             item_count_t<NumPixelsT>>::DispatchEven(d_temp_storage, temp_storage_bytes, d_samples,
                                                                     d_histograms, num_levels, lower_level, upper_level,
                                                                     static_cast<Off>(count_bound(num_row_pixels)),
                                                                     static_cast<Off>(num_rows),
                                                                     static_cast<Off>(stride), stream,
                                                                     item_count_of(num_row_pixels));
  });
}

// HistogramRange and its forms, as `even`.
template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
          typename NumPixelsT>
cudaError_t range(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                  cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histograms,
                  cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
                  cuda::std::array<const LevelT*, NUM_ACTIVE_CHANNELS> d_levels, NumPixelsT num_row_pixels,
                  count_value_t<NumPixelsT> num_rows, size_t row_stride_bytes, cudaStream_t stream)
{
  static_assert(check_types<SampleIteratorT, CounterT, LevelT, count_value_t<NumPixelsT>>(), "");
  unsigned long long extent = 0;
  unsigned long long stride = 0;
  STRATA_RETURN_IF_ERROR((check_count<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
    d_temp_storage, d_samples, d_histograms, num_levels, num_row_pixels, num_rows, row_stride_bytes, extent, stride)));
  if (d_temp_storage != nullptr)
  {
    for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
    {
      if (d_levels[c] == nullptr)
      {
        return cudaErrorInvalidValue;
      }
    }
  }
  return dispatch_offset(extent, [&](auto offset) {
    using Off = decltype(offset);
    return DispatchHistogram<NUM_CHANNELS, NUM_ACTIVE_CHANNELS, SampleIteratorT, CounterT, LevelT, Off,
                             hub_t<SampleIteratorT, NUM_CHANNELS, NUM_ACTIVE_CHANNELS>,
                             item_count_t<NumPixelsT>>::DispatchRange(d_temp_storage, temp_storage_bytes, d_samples,
                                                                      d_histograms, num_levels, d_levels,
                                                                      static_cast<Off>(count_bound(num_row_pixels)),
                                                                      static_cast<Off>(num_rows),
                                                                      static_cast<Off>(stride), stream,
                                                                      item_count_of(num_row_pixels));
  });
}

// The first N values at `ptr`, for the forms that take C arrays.
template <int N, typename T>
cuda::std::array<cuda::std::remove_const_t<T>, N> to_array(T* ptr)
{
  cuda::std::array<cuda::std::remove_const_t<T>, N> values{};
  for (int i = 0; i < N; ++i)
  {
    values[i] = ptr[i];
  }
  return values;
}
} // namespace histogram
} // namespace detail

struct DeviceHistogram
{
  // -- evenly divided ranges -----------------------------------------------------------------------------------

  // d_histogram[b] = the number of the num_samples samples in bin b of num_levels - 1 even bins over
  // [lower_level, upper_level).
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
  static cudaError_t HistogramEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                                   CounterT* d_histogram, int num_levels, LevelT lower_level, LevelT upper_level,
                                   OffsetT num_samples, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceHistogram::HistogramEven");
    return detail::histogram::even<1, 1>(d_temp_storage, temp_storage_bytes, d_samples,
                                         cuda::std::array<CounterT*, 1>{d_histogram},
                                         cuda::std::array<int, 1>{num_levels}, cuda::std::array<LevelT, 1>{lower_level},
                                         cuda::std::array<LevelT, 1>{upper_level}, num_samples, 1, 0, stream);
  }
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT,
            typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t HistogramEven(SampleIteratorT d_samples, CounterT* d_histogram, int num_levels, LevelT lower_level,
                                   LevelT upper_level, OffsetT num_samples, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(HistogramEven), d_samples, d_histogram, num_levels,
                                     lower_level, upper_level, num_samples);
  }

  // The 2D form: num_rows rows of num_row_samples samples, row_stride_bytes apart.
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
  static cudaError_t HistogramEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                                   CounterT* d_histogram, int num_levels, LevelT lower_level, LevelT upper_level,
                                   OffsetT num_row_samples, OffsetT num_rows, size_t row_stride_bytes,
                                   cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceHistogram::HistogramEven");
    return detail::histogram::even<1, 1>(d_temp_storage, temp_storage_bytes, d_samples,
                                         cuda::std::array<CounterT*, 1>{d_histogram},
                                         cuda::std::array<int, 1>{num_levels}, cuda::std::array<LevelT, 1>{lower_level},
                                         cuda::std::array<LevelT, 1>{upper_level}, num_row_samples, num_rows,
                                         row_stride_bytes, stream);
  }
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT,
            typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t HistogramEven(SampleIteratorT d_samples, CounterT* d_histogram, int num_levels, LevelT lower_level,
                                   LevelT upper_level, OffsetT num_row_samples, OffsetT num_rows,
                                   size_t row_stride_bytes, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(HistogramEven), d_samples, d_histogram, num_levels,
                                     lower_level, upper_level, num_row_samples, num_rows, row_stride_bytes);
  }

  // Pixels of NUM_CHANNELS interleaved samples; channel c < NUM_ACTIVE_CHANNELS into d_histogram[c], with
  // num_levels[c] levels over [lower_level[c], upper_level[c]).
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  static cudaError_t MultiHistogramEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                                        cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
                                        cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
                                        cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> lower_level,
                                        cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> upper_level, OffsetT num_pixels,
                                        cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceHistogram::MultiHistogramEven");
    return detail::histogram::even<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_temp_storage, temp_storage_bytes, d_samples,
                                                                      d_histogram, num_levels, lower_level, upper_level,
                                                                      num_pixels, 1, 0, stream);
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t MultiHistogramEven(SampleIteratorT d_samples,
                                        cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
                                        cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
                                        cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> lower_level,
                                        cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> upper_level, OffsetT num_pixels,
                                        const EnvT& env = {})
  {
    return detail::call_single_phase(
      env,
      [](void* d_temp_storage, size_t& temp_storage_bytes, auto&... arg) {
        return MultiHistogramEven<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_temp_storage, temp_storage_bytes, arg...);
      },
      d_samples, d_histogram, num_levels, lower_level, upper_level, num_pixels);
  }

  // The 2D form: num_rows rows of num_row_pixels pixels, row_stride_bytes apart.
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  static cudaError_t MultiHistogramEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                                        cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
                                        cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
                                        cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> lower_level,
                                        cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> upper_level,
                                        OffsetT num_row_pixels, OffsetT num_rows, size_t row_stride_bytes,
                                        cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceHistogram::MultiHistogramEven");
    return detail::histogram::even<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_temp_storage, temp_storage_bytes, d_samples,
                                                                      d_histogram, num_levels, lower_level, upper_level,
                                                                      num_row_pixels, num_rows, row_stride_bytes,
                                                                      stream);
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t
  MultiHistogramEven(SampleIteratorT d_samples, cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
                     cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
                     cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> lower_level,
                     cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> upper_level, OffsetT num_row_pixels,
                     OffsetT num_rows, size_t row_stride_bytes, const EnvT& env = {})
  {
    return detail::call_single_phase(
      env,
      [](void* d_temp_storage, size_t& temp_storage_bytes, auto&... arg) {
        return MultiHistogramEven<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_temp_storage, temp_storage_bytes, arg...);
      },
      d_samples, d_histogram, num_levels, lower_level, upper_level, num_row_pixels, num_rows, row_stride_bytes);
  }

  // The forms of CUB before 3.0, with C arrays of NUM_ACTIVE_CHANNELS values.
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  static cudaError_t
  MultiHistogramEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                     CounterT* d_histogram[NUM_ACTIVE_CHANNELS], const int num_levels[NUM_ACTIVE_CHANNELS],
                     const LevelT lower_level[NUM_ACTIVE_CHANNELS], const LevelT upper_level[NUM_ACTIVE_CHANNELS],
                     OffsetT num_pixels, cudaStream_t stream = 0)
  {
    return MultiHistogramEven<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
      d_temp_storage, temp_storage_bytes, d_samples, detail::histogram::to_array<NUM_ACTIVE_CHANNELS>(d_histogram),
      detail::histogram::to_array<NUM_ACTIVE_CHANNELS>(num_levels),
      detail::histogram::to_array<NUM_ACTIVE_CHANNELS>(lower_level),
      detail::histogram::to_array<NUM_ACTIVE_CHANNELS>(upper_level), num_pixels, stream);
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  static cudaError_t
  MultiHistogramEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                     CounterT* d_histogram[NUM_ACTIVE_CHANNELS], const int num_levels[NUM_ACTIVE_CHANNELS],
                     const LevelT lower_level[NUM_ACTIVE_CHANNELS], const LevelT upper_level[NUM_ACTIVE_CHANNELS],
                     OffsetT num_row_pixels, OffsetT num_rows, size_t row_stride_bytes, cudaStream_t stream = 0)
  {
    return MultiHistogramEven<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
      d_temp_storage, temp_storage_bytes, d_samples, detail::histogram::to_array<NUM_ACTIVE_CHANNELS>(d_histogram),
      detail::histogram::to_array<NUM_ACTIVE_CHANNELS>(num_levels),
      detail::histogram::to_array<NUM_ACTIVE_CHANNELS>(lower_level),
      detail::histogram::to_array<NUM_ACTIVE_CHANNELS>(upper_level), num_row_pixels, num_rows, row_stride_bytes,
      stream);
  }

  // -- custom ranges ------------------------------------------------------------------------------------------

  // d_histogram[b] = the number of the num_samples samples in [d_levels[b], d_levels[b + 1]), b < num_levels - 1.
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
  static cudaError_t HistogramRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                                    CounterT* d_histogram, int num_levels, const LevelT* d_levels, OffsetT num_samples,
                                    cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceHistogram::HistogramRange");
    return detail::histogram::range<1, 1>(d_temp_storage, temp_storage_bytes, d_samples,
                                          cuda::std::array<CounterT*, 1>{d_histogram},
                                          cuda::std::array<int, 1>{num_levels},
                                          cuda::std::array<const LevelT*, 1>{d_levels}, num_samples, 1, 0, stream);
  }
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT,
            typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t HistogramRange(SampleIteratorT d_samples, CounterT* d_histogram, int num_levels,
                                    const LevelT* d_levels, OffsetT num_samples, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(HistogramRange), d_samples, d_histogram, num_levels,
                                     d_levels, num_samples);
  }

  // The 2D form: num_rows rows of num_row_samples samples, row_stride_bytes apart.
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
  static cudaError_t HistogramRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                                    CounterT* d_histogram, int num_levels, const LevelT* d_levels,
                                    OffsetT num_row_samples, OffsetT num_rows, size_t row_stride_bytes,
                                    cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceHistogram::HistogramRange");
    return detail::histogram::range<1, 1>(d_temp_storage, temp_storage_bytes, d_samples,
                                          cuda::std::array<CounterT*, 1>{d_histogram},
                                          cuda::std::array<int, 1>{num_levels},
                                          cuda::std::array<const LevelT*, 1>{d_levels}, num_row_samples, num_rows,
                                          row_stride_bytes, stream);
  }
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT,
            typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t HistogramRange(SampleIteratorT d_samples, CounterT* d_histogram, int num_levels,
                                    const LevelT* d_levels, OffsetT num_row_samples, OffsetT num_rows,
                                    size_t row_stride_bytes, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(HistogramRange), d_samples, d_histogram, num_levels,
                                     d_levels, num_row_samples, num_rows, row_stride_bytes);
  }

  // Pixels of NUM_CHANNELS interleaved samples; channel c < NUM_ACTIVE_CHANNELS into d_histogram[c], with the
  // num_levels[c] levels at d_levels[c].
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  static cudaError_t MultiHistogramRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                                         cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
                                         cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
                                         cuda::std::array<const LevelT*, NUM_ACTIVE_CHANNELS> d_levels,
                                         OffsetT num_pixels, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceHistogram::MultiHistogramRange");
    return detail::histogram::range<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_temp_storage, temp_storage_bytes, d_samples,
                                                                       d_histogram, num_levels, d_levels, num_pixels, 1,
                                                                       0, stream);
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t MultiHistogramRange(SampleIteratorT d_samples,
                                         cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
                                         cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
                                         cuda::std::array<const LevelT*, NUM_ACTIVE_CHANNELS> d_levels,
                                         OffsetT num_pixels, const EnvT& env = {})
  {
    return detail::call_single_phase(
      env,
      [](void* d_temp_storage, size_t& temp_storage_bytes, auto&... arg) {
        return MultiHistogramRange<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_temp_storage, temp_storage_bytes, arg...);
      },
      d_samples, d_histogram, num_levels, d_levels, num_pixels);
  }

  // The 2D form: num_rows rows of num_row_pixels pixels, row_stride_bytes apart.
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  static cudaError_t MultiHistogramRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                                         cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
                                         cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
                                         cuda::std::array<const LevelT*, NUM_ACTIVE_CHANNELS> d_levels,
                                         OffsetT num_row_pixels, OffsetT num_rows, size_t row_stride_bytes,
                                         cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceHistogram::MultiHistogramRange");
    return detail::histogram::range<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_temp_storage, temp_storage_bytes, d_samples,
                                                                       d_histogram, num_levels, d_levels,
                                                                       num_row_pixels, num_rows, row_stride_bytes,
                                                                       stream);
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t
  MultiHistogramRange(SampleIteratorT d_samples, cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
                      cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
                      cuda::std::array<const LevelT*, NUM_ACTIVE_CHANNELS> d_levels, OffsetT num_row_pixels,
                      OffsetT num_rows, size_t row_stride_bytes, const EnvT& env = {})
  {
    return detail::call_single_phase(
      env,
      [](void* d_temp_storage, size_t& temp_storage_bytes, auto&... arg) {
        return MultiHistogramRange<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_temp_storage, temp_storage_bytes, arg...);
      },
      d_samples, d_histogram, num_levels, d_levels, num_row_pixels, num_rows, row_stride_bytes);
  }

  // The forms of CUB before 3.0, with C arrays of NUM_ACTIVE_CHANNELS values.
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  static cudaError_t
  MultiHistogramRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                      CounterT* d_histogram[NUM_ACTIVE_CHANNELS], const int num_levels[NUM_ACTIVE_CHANNELS],
                      const LevelT* const d_levels[NUM_ACTIVE_CHANNELS], OffsetT num_pixels, cudaStream_t stream = 0)
  {
    return MultiHistogramRange<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
      d_temp_storage, temp_storage_bytes, d_samples, detail::histogram::to_array<NUM_ACTIVE_CHANNELS>(d_histogram),
      detail::histogram::to_array<NUM_ACTIVE_CHANNELS>(num_levels),
      detail::histogram::to_array<NUM_ACTIVE_CHANNELS>(d_levels), num_pixels, stream);
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  static cudaError_t MultiHistogramRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                                         CounterT* d_histogram[NUM_ACTIVE_CHANNELS],
                                         const int num_levels[NUM_ACTIVE_CHANNELS],
                                         const LevelT* const d_levels[NUM_ACTIVE_CHANNELS], OffsetT num_row_pixels,
                                         OffsetT num_rows, size_t row_stride_bytes, cudaStream_t stream = 0)
  {
    return MultiHistogramRange<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
      d_temp_storage, temp_storage_bytes, d_samples, detail::histogram::to_array<NUM_ACTIVE_CHANNELS>(d_histogram),
      detail::histogram::to_array<NUM_ACTIVE_CHANNELS>(num_levels),
      detail::histogram::to_array<NUM_ACTIVE_CHANNELS>(d_levels), num_row_pixels, num_rows, row_stride_bytes, stream);
  }
};

STRATA_NAMESPACE_END
