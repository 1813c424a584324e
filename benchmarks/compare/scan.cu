// DeviceScan: strata against cub::DeviceScan on the same buffers in one process.
// InclusiveSum of int8, int32, int64, float, double and InclusiveSumByKey of int32 values under int32 keys (runs of
// random length, 8 on average) at 2^16, 2^20, 2^24 and 2^28 items; InclusiveSum of float and double in strata's
// gpu_to_gpu form (scan_inclusive_sum_gpu_to_gpu/...), against CUB's InclusiveSum and against strata's default form
// (".../default"); InclusiveSumByKey of float values in gpu_to_gpu form (scan_inclusive_sum_gpu_to_gpu/f32_by_key),
// against CUB's and strata's default InclusiveSumByKey. Each case is registered as ".../strata",
// ".../cub" and ".../copy": a device-to-device cudaMemcpyAsync that reads and writes as many bytes as the scan
// does, the bound a scan cannot beat. scripts/compare_report.py prints the ratios.
#include <strata/device/device_scan.cuh>

#include <cub/device/device_scan.cuh>

#include "bench_util.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace
{
enum class algorithm
{
  sum,
  sum_gpu_to_gpu,
  sum_by_key,
  sum_by_key_gpu_to_gpu
};

constexpr bool by_key(algorithm alg)
{
  return alg == algorithm::sum_by_key || alg == algorithm::sum_by_key_gpu_to_gpu;
}

enum class library
{
  strata,
  cub,
  copy
};

// The inputs of one case and one library's call on them, both phases (the size query costs no device time).
// Input set `turn` is the turn-th of the rotation.
template <algorithm ALG, typename T>
class workload
{
public:
  explicit workload(int n)
      : n_(n)
      , values_(static_cast<std::size_t>(n))
      , keys_(by_key(ALG) ? values_.sets() : 0, static_cast<std::size_t>(n))
  {}

  template <library LIB>
  cudaError_t run(void* d_temp, std::size_t& bytes, std::size_t turn, T* d_out, cudaStream_t s) const
  {
    const T* d_in = values_.at(turn);
    if constexpr (ALG == algorithm::sum || ALG == algorithm::sum_gpu_to_gpu)
    {
      if constexpr (LIB == library::strata && ALG == algorithm::sum_gpu_to_gpu)
      {
        return strata::DeviceScan::InclusiveSum(d_temp, bytes, d_in, d_out, n_, strata::gpu_to_gpu, s);
      }
      else if constexpr (LIB == library::strata)
      {
        return strata::DeviceScan::InclusiveSum(d_temp, bytes, d_in, d_out, n_, s);
      }
      else
      {
        return cub::DeviceScan::InclusiveSum(d_temp, bytes, d_in, d_out, n_, s);
      }
    }
    else
    {
      const std::int32_t* d_keys = keys_.at(turn);
      if constexpr (LIB == library::strata && ALG == algorithm::sum_by_key_gpu_to_gpu)
      {
        return strata::DeviceScan::InclusiveSumByKey(d_temp, bytes, d_keys, d_in, d_out, n_, cuda::std::equal_to<>{},
                                                     strata::gpu_to_gpu, s);
      }
      else if constexpr (LIB == library::strata)
      {
        return strata::DeviceScan::InclusiveSumByKey(d_temp, bytes, d_keys, d_in, d_out, n_, cuda::std::equal_to<>{},
                                                     s);
      }
      else
      {
        return cub::DeviceScan::InclusiveSumByKey(d_temp, bytes, d_keys, d_in, d_out, n_, cuda::std::equal_to<>{}, s);
      }
    }
  }

  const T* values(std::size_t turn) const
  {
    return values_.at(turn);
  }

private:
  int n_;
  strata_bench::rotating_inputs<T> values_;
  strata_bench::rotating_run_keys<std::int32_t> keys_;
};

// Bytes a run reads and writes: the values in and out, and the keys for a scan by key.
template <algorithm ALG, typename T>
std::size_t bytes_moved(std::size_t n)
{
  return 2 * n * sizeof(T) + (by_key(ALG) ? n * sizeof(std::int32_t) : 0);
}

// Whether strata's inclusive sums equal cub's. Integer sums wrap, so any order gives the same bits. Floating-point
// sums are deterministic in both libraries but may associate differently: each addition rounds by at most half
// an ulp of a partial sum, and for these zero-mean inputs the partial sums stay far below the running sum of
// magnitudes, so position i is allowed 64 epsilon times |in[0]| + ... + |in[i]| (a wide margin for rounding,
// while a tile prefix added twice or missed is far outside it in the early positions); a sum by key adds fewer of
// them.
template <algorithm ALG, typename T>
bool same_sums(const std::vector<T>& strata_out, const std::vector<T>& cub_out, const T* d_in)
{
  if constexpr (!std::is_floating_point<T>::value)
  {
    return strata_out == cub_out;
  }
  else
  {
    std::vector<T> in(strata_out.size());
    STRATA_BENCH_CHECK(cudaMemcpy(in.data(), d_in, in.size() * sizeof(T), cudaMemcpyDeviceToHost));
    const double tolerance = 64.0 * std::numeric_limits<T>::epsilon();
    double magnitude       = 0.0;
    for (std::size_t i = 0; i < in.size(); ++i)
    {
      magnitude += std::abs(double(in[i]));
      if (!(std::abs(double(strata_out[i]) - double(cub_out[i])) <= tolerance * magnitude))
      {
        return false;
      }
    }
    return true;
  }
}

template <library LIB, algorithm ALG, typename T>
void bench(benchmark::State& state, int log2_n)
{
  const int n             = 1 << log2_n;
  const std::size_t items = static_cast<std::size_t>(n);
  const std::size_t moved = bytes_moved<ALG, T>(items);

  if constexpr (LIB == library::copy)
  {
    strata_bench::time_copy(state, moved);
  }
  else
  {
    const workload<ALG, T> work(n);
    strata_bench::device_array<T> out(items);
    std::size_t bytes = 0;
    STRATA_BENCH_CHECK(work.template run<LIB>(nullptr, bytes, 0, out.get(), 0));
    strata_bench::device_array<char> temp(bytes);
    std::size_t turn = 0;
    strata_bench::time_loop(state, [&](cudaStream_t s) {
      STRATA_BENCH_CHECK(work.template run<LIB>(temp.get(), bytes, turn++, out.get(), s));
    });

    // Validate against cub on the same input, in strata's run only and once per size (Google Benchmark calls this
    // function several times while it sizes the run), with both outputs poisoned first.
    static std::set<int> validated;
    if (LIB == library::strata && validated.insert(log2_n).second)
    {
      std::size_t cub_bytes = 0;
      STRATA_BENCH_CHECK(work.template run<library::cub>(nullptr, cub_bytes, 0, out.get(), 0));
      strata_bench::device_array<char> cub_temp(cub_bytes);
      strata_bench::device_array<T> cub_out(items);
      STRATA_BENCH_CHECK(cudaMemset(out.get(), 0xa5, items * sizeof(T)));
      STRATA_BENCH_CHECK(cudaMemset(cub_out.get(), 0x5a, items * sizeof(T)));
      STRATA_BENCH_CHECK(work.template run<library::strata>(temp.get(), bytes, 0, out.get(), 0));
      STRATA_BENCH_CHECK(work.template run<library::cub>(cub_temp.get(), cub_bytes, 0, cub_out.get(), 0));
      std::vector<T> a(items), b(items);
      STRATA_BENCH_CHECK(cudaMemcpy(a.data(), out.get(), items * sizeof(T), cudaMemcpyDeviceToHost));
      STRATA_BENCH_CHECK(cudaMemcpy(b.data(), cub_out.get(), items * sizeof(T), cudaMemcpyDeviceToHost));
      if (!same_sums<ALG>(a, b, work.values(0)))
      {
        state.SkipWithError("strata and cub disagree");
      }
    }
  }
  strata_bench::set_counters(state, items, moved);
}

template <algorithm ALG, typename T>
void register_case()
{
  for (int log2_n : {16, 20, 24, 28})
  {
    const std::string base = std::string(ALG == algorithm::sum          ? "scan_inclusive_sum/"
                                         : ALG == algorithm::sum_by_key ? "scan_inclusive_sum_by_key/"
                                                                        : "scan_inclusive_sum_gpu_to_gpu/")
                           + strata_bench::type_name<T>() + (ALG == algorithm::sum_by_key_gpu_to_gpu ? "_by_key" : "")
                           + "/2^" + std::to_string(log2_n);
    if constexpr (ALG == algorithm::sum_gpu_to_gpu || ALG == algorithm::sum_by_key_gpu_to_gpu)
    {
      constexpr algorithm DEFAULT = ALG == algorithm::sum_gpu_to_gpu ? algorithm::sum : algorithm::sum_by_key;
      benchmark::RegisterBenchmark((base + "/default").c_str(),
                                   [log2_n](benchmark::State& st) {
                                     bench<library::strata, DEFAULT, T>(st, log2_n);
                                   })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    }
    benchmark::RegisterBenchmark((base + "/strata").c_str(),
                                 [log2_n](benchmark::State& st) {
                                   bench<library::strata, ALG, T>(st, log2_n);
                                 })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((base + "/cub").c_str(),
                                 [log2_n](benchmark::State& st) {
                                   bench<library::cub, ALG, T>(st, log2_n);
                                 })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((base + "/copy").c_str(),
                                 [log2_n](benchmark::State& st) {
                                   bench<library::copy, ALG, T>(st, log2_n);
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
  register_case<algorithm::sum_by_key, std::int32_t>();
  register_case<algorithm::sum_by_key_gpu_to_gpu, float>();
  return strata_bench::run_benchmarks(argc, argv);
}
