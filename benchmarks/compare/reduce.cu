// DeviceReduce: strata against cub::DeviceReduce on the same buffers in one process.
// Sum of int8, int32, int64, float, double and ArgMin of float at 2^16, 2^20, 2^24 and 2^28 items; ArgMinMax of
// float (strata's one pass) against CUB's ArgMin then ArgMax, the two calls CUB needs for the same answer. Sum of
// float and double in strata's gpu_to_gpu form (reduce_sum_gpu_to_gpu/...), against CUB's Sum and against strata's
// default form (".../default").
// Each case is registered as ".../strata", ".../cub" and ".../copy": a device-to-device cudaMemcpyAsync whose reads
// and writes add up to the bytes the reduction reads, the rate of DRAM traffic at that size (a reduction only
// reads, so it may pass the copy by a little). scripts/compare_report.py prints the ratios.
#include <strata/device/device_reduce.cuh>

#include <cub/device/device_reduce.cuh>

#include "bench_util.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace
{
enum class algorithm
{
  sum,
  sum_gpu_to_gpu,
  argmin,
  argminmax
};

// Where ArgMin writes: the extremum and its position (CUB 3's two-output form).
template <typename T>
struct arg_out
{
  T value;
  std::int64_t index;
};

// Where ArgMinMax writes: both extremes and their positions.
template <typename T>
struct arg_min_max_out
{
  arg_out<T> min;
  arg_out<T> max;
};

template <algorithm ALG, typename T>
struct output
{
  using type = T;
};
template <typename T>
struct output<algorithm::argmin, T>
{
  using type = arg_out<T>;
};
template <typename T>
struct output<algorithm::argminmax, T>
{
  using type = arg_min_max_out<T>;
};

// One library's call, both phases (the size query costs no device time).
template <bool STRATA, algorithm ALG, typename T, typename OutT>
cudaError_t call(void* d_temp, std::size_t& bytes, const T* d_in, OutT* d_out, int n, cudaStream_t s)
{
  if constexpr (ALG == algorithm::sum_gpu_to_gpu)
  {
    if constexpr (STRATA)
    {
      return strata::DeviceReduce::Sum(d_temp, bytes, d_in, d_out, n, strata::gpu_to_gpu, s);
    }
    else
    {
      return cub::DeviceReduce::Sum(d_temp, bytes, d_in, d_out, n, s);
    }
  }
  else if constexpr (ALG == algorithm::sum)
  {
    if constexpr (STRATA)
    {
      return strata::DeviceReduce::Sum(d_temp, bytes, d_in, d_out, n, s);
    }
    else
    {
      return cub::DeviceReduce::Sum(d_temp, bytes, d_in, d_out, n, s);
    }
  }
  else if constexpr (ALG == algorithm::argmin)
  {
    if constexpr (STRATA)
    {
      return strata::DeviceReduce::ArgMin(d_temp, bytes, d_in, &d_out->value, &d_out->index, n, s);
    }
    else
    {
      return cub::DeviceReduce::ArgMin(d_temp, bytes, d_in, &d_out->value, &d_out->index, n, s);
    }
  }
  else if constexpr (STRATA)
  {
    return strata::DeviceReduce::ArgMinMax(d_temp, bytes, d_in, &d_out->min.value, &d_out->min.index, &d_out->max.value,
                                           &d_out->max.index, n, s);
  }
  else
  {
    // CUB's two passes share one temporary buffer, sized for the larger.
    std::size_t min_bytes = 0, max_bytes = 0;
    cudaError_t error = cub::DeviceReduce::ArgMin(nullptr, min_bytes, d_in, &d_out->min.value, &d_out->min.index, n, s);
    if (error == cudaSuccess)
    {
      error = cub::DeviceReduce::ArgMax(nullptr, max_bytes, d_in, &d_out->max.value, &d_out->max.index, n, s);
    }
    if (error != cudaSuccess || d_temp == nullptr)
    {
      bytes = std::max(min_bytes, max_bytes);
      return error;
    }
    error = cub::DeviceReduce::ArgMin(d_temp, min_bytes, d_in, &d_out->min.value, &d_out->min.index, n, s);
    return error != cudaSuccess
           ? error
           : cub::DeviceReduce::ArgMax(d_temp, max_bytes, d_in, &d_out->max.value, &d_out->max.index, n, s);
  }
}

template <bool STRATA, algorithm ALG, typename T>
void bench(benchmark::State& state, int log2_n)
{
  using OutT  = typename output<ALG, T>::type;
  const int n = 1 << log2_n;
  strata_bench::rotating_inputs<T> inputs(static_cast<std::size_t>(n));
  strata_bench::device_array<OutT> out(1);
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK((call<STRATA, ALG>(nullptr, bytes, inputs.at(0), out.get(), n, 0)));
  strata_bench::device_array<char> temp(bytes);
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK((call<STRATA, ALG>(temp.get(), bytes, inputs.next(), out.get(), n, s)));
  });
  strata_bench::set_counters(state, static_cast<std::size_t>(n), static_cast<std::size_t>(n) * sizeof(T));

  // Validate against the other library on the same input.
  std::size_t other_bytes = 0;
  STRATA_BENCH_CHECK((call<!STRATA, ALG>(nullptr, other_bytes, inputs.at(0), out.get(), n, 0)));
  strata_bench::device_array<char> other_temp(other_bytes);
  strata_bench::device_array<OutT> other(1);
  STRATA_BENCH_CHECK((call<STRATA, ALG>(temp.get(), bytes, inputs.at(0), out.get(), n, 0)));
  STRATA_BENCH_CHECK((call<!STRATA, ALG>(other_temp.get(), other_bytes, inputs.at(0), other.get(), n, 0)));
  OutT a{}, b{};
  STRATA_BENCH_CHECK(cudaMemcpy(&a, out.get(), sizeof(OutT), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(&b, other.get(), sizeof(OutT), cudaMemcpyDeviceToHost));
  bool same = true;
  if constexpr (ALG == algorithm::argmin)
  {
    same = a.index == b.index && a.value == b.value;
  }
  else if constexpr (ALG == algorithm::argminmax)
  {
    same = a.min.index == b.min.index && a.min.value == b.min.value && a.max.index == b.max.index
        && a.max.value == b.max.value;
  }
  else if constexpr (std::is_floating_point<T>::value)
  {
    same = std::abs(double(a) - double(b)) <= 1e-3 * std::sqrt(double(n)) * (sizeof(T) == 4 ? 1.0 : 1e-6);
  }
  else
  {
    same = a == b;
  }
  if (!same)
  {
    state.SkipWithError("strata and cub disagree");
  }
}

template <typename T>
void bench_copy(benchmark::State& state, int log2_n)
{
  const std::size_t n = std::size_t(1) << log2_n;
  strata_bench::time_copy(state, n * sizeof(T));
  strata_bench::set_counters(state, n, n * sizeof(T));
}

template <algorithm ALG, typename T>
void register_case()
{
  for (int log2_n : {16, 20, 24, 28})
  {
    const std::string base = std::string(ALG == algorithm::sum              ? "reduce_sum/"
                                         : ALG == algorithm::sum_gpu_to_gpu ? "reduce_sum_gpu_to_gpu/"
                                         : ALG == algorithm::argmin         ? "reduce_argmin/"
                                                                            : "reduce_argminmax/")
                           + strata_bench::type_name<T>() + "/2^" + std::to_string(log2_n);
    if constexpr (ALG == algorithm::sum_gpu_to_gpu)
    {
      benchmark::RegisterBenchmark((base + "/default").c_str(),
                                   [log2_n](benchmark::State& st) {
                                     bench<true, algorithm::sum, T>(st, log2_n);
                                   })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    }
    benchmark::RegisterBenchmark((base + "/strata").c_str(),
                                 [log2_n](benchmark::State& st) {
                                   bench<true, ALG, T>(st, log2_n);
                                 })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((base + "/cub").c_str(),
                                 [log2_n](benchmark::State& st) {
                                   bench<false, ALG, T>(st, log2_n);
                                 })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((base + "/copy").c_str(),
                                 [log2_n](benchmark::State& st) {
                                   bench_copy<T>(st, log2_n);
                                 })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
  }
}
} // namespace

int main(int argc, char** argv)
{
  register_case<algorithm::sum, std::int8_t>();
  register_case<algorithm::sum, std::int32_t>();
  register_case<algorithm::sum, std::int64_t>();
  register_case<algorithm::sum, float>();
  register_case<algorithm::sum, double>();
  register_case<algorithm::sum_gpu_to_gpu, float>();
  register_case<algorithm::sum_gpu_to_gpu, double>();
  register_case<algorithm::argmin, float>();
  register_case<algorithm::argminmax, float>();
  return strata_bench::run_benchmarks(argc, argv);
}
