// The frontend end to end: strata::reduce, strata::inclusive_scan, strata::transform (x * 2), strata::sort and
// strata::copy_if (x > 0: about half the items) on int32 data,
// against the same algorithm through Thrust (thrust::cuda::par.on(s)), through strata's device layer on a
// pre-allocated buffer ("raw": the two-phase call with its temporary storage allocated once), and through CUB's
// device layer the same way ("cub", for reference), in one process, on one non-blocking stream created once.
//
// frontend_latency/<algo>/2^k/<library>, k = 10, 16, 20, 24: host wall-clock time of one complete call, until the
// host holds the result, after warm-up calls (the memory pool and the caches are warm), always on the same input:
//   strata   int r = strata::reduce(strata::par.on(s), d, d + n);  strata::inclusive_scan / strata::transform,
//            then cudaStreamSynchronize(s)
//   thrust   the same through thrust::reduce / inclusive_scan / transform with thrust::cuda::par.on(s)
//   raw      strata::DeviceReduce::Sum(d_temp, bytes, d, d_sum, n, s), cudaMemcpyAsync of the sum to page-locked
//            host memory, cudaStreamSynchronize(s); DeviceScan::InclusiveSum / DeviceTransform::Transform, then
//            cudaStreamSynchronize(s)
//   cub      as raw, with cub::DeviceReduce / DeviceScan / DeviceTransform
//   sort (latency only): strata::sort(strata::par.on(s), out, out + n) and thrust::sort(thrust::cuda::par.on(s), ...)
//            sort the output buffer in place (sorted after the first call; a radix sort's work does not depend on the
//            order); raw and cub are DeviceRadixSort::SortKeys from the input to the output, temporary storage
//            allocated once. For the check, the output holds the input before strata's and Thrust's calls.
//   copy_if (latency only): size_t k = strata::copy_if(strata::par.on(s), d, d + n, out, pred) - out, and
//            thrust::copy_if(thrust::cuda::par.on(s), ...) (both return once the host holds the end); raw and cub
//            are DeviceSelect::If into `out` with the count to a device word, cudaMemcpyAsync of the count to
//            page-locked host memory, cudaStreamSynchronize(s).
// frontend_throughput/<algo>/2^k/<library>, k = 24, 28: CUDA-event time of one call over inputs rotated through
// more memory than the L2 holds, bytes counters set (reduce reads 4n bytes, the others read 4n and write 4n).
// Libraries strata, raw, thrust, and for transform copy: a device-to-device cudaMemcpyAsync of the same 4n bytes
// (read 4n, write 4n), the ceiling of a transform. A reduction still runs until the host holds the sum (every
// library synchronizes), the others are not synchronized (Thrust runs with par_nosync, so that it is not charged a
// synchronization the others do not make).
//
// Values are random, in [-127, 127] without 0, so that no sum or prefix sum of them overflows. After timing, each
// library's result on the first input is compared with raw's (raw's with cub's); a mismatch fails the case.
// scripts/compare_report.py prints every library's time over strata's: "vs raw 1.02x" means strata is 2% faster.
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_scan.cuh>
#include <strata/device/device_radix_sort.cuh>
#include <strata/device/device_select.cuh>
#include <strata/device/device_transform.cuh>
#include <strata/execution/reduce.cuh>
#include <strata/execution/scan.cuh>
#include <strata/execution/select.cuh>
#include <strata/execution/sort.cuh>
#include <strata/execution/transform.cuh>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cub/device/device_transform.cuh>

#include <thrust/copy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/transform.h>

#include "bench_util.cuh"
#include "transform_ops.cuh"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace
{
enum class algorithm
{
  reduce,
  inclusive_scan,
  transform,
  sort,
  copy_if
};

enum class library
{
  strata,
  thrust,
  raw,
  cub,
  copy
};

const char* name_of(algorithm alg)
{
  static const char* const names[] = {"reduce", "inclusive_scan", "transform", "sort", "copy_if"};
  return names[static_cast<int>(alg)];
}

const char* name_of(library lib)
{
  static const char* const names[] = {"strata", "thrust", "raw", "cub", "copy"};
  return names[static_cast<int>(lib)];
}

// copy_if's predicate: x > 0, about half of the values of small_values_kernel.
struct positive
{
  __host__ __device__ bool operator()(int x) const
  {
    return x > 0;
  }
};

// Calls per case before timing starts: the pool reaches its high-water mark, kernels are loaded, caches are warm.
constexpr int WARM_UP_CALLS = 10;

cudaStream_t bench_stream()
{
  static const cudaStream_t stream = [] {
    cudaStream_t s = nullptr;
    STRATA_BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
  }();
  return stream;
}

// One object of T per size (2^log2_n items), made on first use and kept for the process: Google Benchmark runs a
// case's function several times, and the buffers are allocated once.
template <typename T>
T& per_size(int log2_n)
{
  static std::map<int, std::unique_ptr<T>> objects;
  std::unique_ptr<T>& object = objects[log2_n];
  if (!object)
  {
    object = std::make_unique<T>(log2_n);
  }
  return *object;
}

// Maps random words to [-127, -1] and [1, 127].
__global__ void small_values_kernel(int* data, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    const int v = static_cast<int>(static_cast<unsigned>(data[i]) % 254u);
    data[i]     = v < 127 ? v - 127 : v - 126;
  }
}

// The inputs of one size, rotated through more memory than the L2 holds (the latency cases use set 0 only), and the
// output every library writes.
class data_set
{
public:
  explicit data_set(int log2_n)
      : n_(std::size_t(1) << log2_n)
      , inputs_(n_)
      , output_(n_)
  {
    for (std::size_t s = 0; s < inputs_.sets(); ++s)
    {
      small_values_kernel<<<1024, 256>>>(inputs_.at(s), n_);
      STRATA_BENCH_CHECK(cudaGetLastError());
    }
    STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  }

  std::size_t size() const
  {
    return n_;
  }
  const int* input(std::size_t turn) const
  {
    return inputs_.at(turn);
  }
  int* output() const
  {
    return output_.get();
  }

private:
  std::size_t n_;
  strata_bench::rotating_inputs<int> inputs_;
  strata_bench::device_array<int> output_;
};

// One library's call of one algorithm at one size, with what it needs allocated once: the temporary storage of the
// device-layer calls (raw, cub) and the device and page-locked host words their sums go through.
template <algorithm ALG, library LIB>
class call
{
  static_assert(LIB != library::copy || ALG == algorithm::transform, "the copy ceiling is a transform's");

public:
  explicit call(int log2_n)
      : data_(per_size<data_set>(log2_n))
      , n_(static_cast<int>(data_.size()))
      , sum_(1)
  {
    STRATA_BENCH_CHECK(cudaMallocHost(&host_sum_, sizeof(int)));
    device_call(nullptr, data_.input(0), nullptr);
    temp_ = std::make_unique<strata_bench::device_array<char>>(temp_bytes_);
  }
  ~call()
  {
    cudaFreeHost(host_sum_);
  }
  call(const call&)            = delete;
  call& operator=(const call&) = delete;

  // One call on `d_in`. WAIT: returns once the host holds the result (a reduction always does).
  template <bool WAIT>
  void run(const int* d_in, cudaStream_t s)
  {
    if constexpr (LIB == library::strata)
    {
      if constexpr (ALG == algorithm::reduce)
      {
        value_ = strata::reduce(strata::par.on(s), d_in, d_in + n_);
      }
      else if constexpr (ALG == algorithm::inclusive_scan)
      {
        strata::inclusive_scan(strata::par.on(s), d_in, d_in + n_, data_.output());
      }
      else if constexpr (ALG == algorithm::transform)
      {
        strata::transform(strata::par.on(s), d_in, d_in + n_, data_.output(), strata_bench::twice<int>{});
      }
      else if constexpr (ALG == algorithm::sort)
      {
        strata::sort(strata::par.on(s), data_.output(), data_.output() + n_);
      }
      else
      {
        value_ = static_cast<int>(strata::copy_if(strata::par.on(s), d_in, d_in + n_, data_.output(), positive{})
                                  - data_.output());
      }
    }
    else if constexpr (LIB == library::thrust)
    {
      if constexpr (WAIT)
      {
        thrust_call(thrust::cuda::par.on(s), d_in);
      }
      else
      {
        thrust_call(thrust::cuda::par_nosync.on(s), d_in);
      }
    }
    else if constexpr (LIB == library::copy)
    {
      STRATA_BENCH_CHECK(
        cudaMemcpyAsync(data_.output(), d_in, data_.size() * sizeof(int), cudaMemcpyDeviceToDevice, s));
    }
    else
    {
      device_call(temp_->get(), d_in, s);
      if constexpr (ALG == algorithm::reduce || ALG == algorithm::copy_if)
      {
        STRATA_BENCH_CHECK(cudaMemcpyAsync(host_sum_, sum_.get(), sizeof(int), cudaMemcpyDeviceToHost, s));
        STRATA_BENCH_CHECK(cudaStreamSynchronize(s));
        value_ = *host_sum_;
      }
    }
    if constexpr (WAIT && ALG != algorithm::reduce && ALG != algorithm::copy_if)
    {
      STRATA_BENCH_CHECK(cudaStreamSynchronize(s));
    }
  }

  // The result of the call on input set 0: the sum, or the whole output (poisoned first, so every item must be
  // written).
  std::vector<int> result()
  {
    value_ = 0x5a5a5a5a;
    if (ALG == algorithm::sort && (LIB == library::strata || LIB == library::thrust))
    {
      STRATA_BENCH_CHECK(
        cudaMemcpy(data_.output(), data_.input(0), data_.size() * sizeof(int), cudaMemcpyDeviceToDevice));
    }
    else
    {
      STRATA_BENCH_CHECK(cudaMemset(data_.output(), 0xa5, data_.size() * sizeof(int)));
    }
    run<true>(data_.input(0), bench_stream());
    if constexpr (ALG == algorithm::reduce)
    {
      return {value_};
    }
    else
    {
      std::vector<int> out(data_.size());
      STRATA_BENCH_CHECK(cudaMemcpy(out.data(), data_.output(), out.size() * sizeof(int), cudaMemcpyDeviceToHost));
      if constexpr (ALG == algorithm::copy_if)
      {
        out.push_back(value_); // the count
      }
      return out;
    }
  }

  int value() const
  {
    return value_;
  }

private:
  // The two-phase device call of raw or cub (the size query for null d_temp).
  void device_call(void* d_temp, const int* d_in, cudaStream_t s)
  {
    if constexpr (LIB == library::raw || LIB == library::cub)
    {
      STRATA_BENCH_CHECK(device_layer_call(d_temp, d_in, s));
    }
  }

  cudaError_t device_layer_call(void* d_temp, const int* d_in, cudaStream_t s)
  {
    int* out           = data_.output();
    std::size_t& bytes = temp_bytes_;
    if constexpr (LIB == library::raw && ALG == algorithm::reduce)
    {
      return strata::DeviceReduce::Sum(d_temp, bytes, d_in, sum_.get(), n_, s);
    }
    else if constexpr (LIB == library::raw && ALG == algorithm::inclusive_scan)
    {
      return strata::DeviceScan::InclusiveSum(d_temp, bytes, d_in, out, n_, s);
    }
    else if constexpr (LIB == library::raw && ALG == algorithm::transform)
    {
      return strata::DeviceTransform::Transform(d_temp, bytes, d_in, out, n_, strata_bench::twice<int>{}, s);
    }
    else if constexpr (LIB == library::raw && ALG == algorithm::sort)
    {
      return strata::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, out, n_, 0, int(sizeof(int) * 8), s);
    }
    else if constexpr (LIB == library::raw)
    {
      return strata::DeviceSelect::If(d_temp, bytes, d_in, out, sum_.get(), n_, positive{}, s);
    }
    else if constexpr (ALG == algorithm::reduce)
    {
      return cub::DeviceReduce::Sum(d_temp, bytes, d_in, sum_.get(), n_, s);
    }
    else if constexpr (ALG == algorithm::inclusive_scan)
    {
      return cub::DeviceScan::InclusiveSum(d_temp, bytes, d_in, out, n_, s);
    }
    else if constexpr (ALG == algorithm::transform)
    {
      return cub::DeviceTransform::Transform(d_temp, bytes, d_in, out, n_, strata_bench::twice<int>{}, s);
    }
    else if constexpr (ALG == algorithm::sort)
    {
      return cub::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, out, n_, 0, int(sizeof(int) * 8), s);
    }
    else
    {
      return cub::DeviceSelect::If(d_temp, bytes, d_in, out, sum_.get(), n_, positive{}, s);
    }
  }

  template <typename ThrustPolicyT>
  void thrust_call(const ThrustPolicyT& policy, const int* d_in)
  {
    if constexpr (ALG == algorithm::reduce)
    {
      value_ = thrust::reduce(policy, d_in, d_in + n_);
    }
    else if constexpr (ALG == algorithm::inclusive_scan)
    {
      thrust::inclusive_scan(policy, d_in, d_in + n_, data_.output());
    }
    else if constexpr (ALG == algorithm::transform)
    {
      thrust::transform(policy, d_in, d_in + n_, data_.output(), strata_bench::twice<int>{});
    }
    else if constexpr (ALG == algorithm::sort)
    {
      thrust::sort(policy, data_.output(), data_.output() + n_);
    }
    else
    {
      value_ = static_cast<int>(thrust::copy_if(policy, d_in, d_in + n_, data_.output(), positive{}) - data_.output());
    }
  }

  const data_set& data_;
  int n_;
  strata_bench::device_array<int> sum_;
  int* host_sum_          = nullptr;
  std::size_t temp_bytes_ = 1;
  std::unique_ptr<strata_bench::device_array<char>> temp_;
  int value_ = 0;
};

// Fails the case unless LIB's result on input set 0 equals raw's (raw's: cub's). Once per size.
template <algorithm ALG, library LIB>
void validate(benchmark::State& state, int log2_n)
{
  static std::set<int> done;
  if (LIB == library::copy || !done.insert(log2_n).second)
  {
    return;
  }
  constexpr library REFERENCE = LIB == library::raw ? library::cub : library::raw;
  if (per_size<call<ALG, LIB>>(log2_n).result() != per_size<call<ALG, REFERENCE>>(log2_n).result())
  {
    state.SkipWithError((std::string(name_of(LIB)) + " and " + name_of(REFERENCE) + " disagree").c_str());
  }
}

// Bytes a call reads and writes (copy_if: its reads, and half as many writes).
std::size_t bytes_moved(algorithm alg, std::size_t n)
{
  return (alg == algorithm::reduce ? 2 : alg == algorithm::copy_if ? 3 : 4) * n * sizeof(int) / 2;
}

template <algorithm ALG, library LIB>
void latency(benchmark::State& state, int log2_n)
{
  call<ALG, LIB>& c    = per_size<call<ALG, LIB>>(log2_n);
  const int* d_in      = per_size<data_set>(log2_n).input(0);
  const cudaStream_t s = bench_stream();
  for (int i = 0; i < WARM_UP_CALLS; ++i)
  {
    c.template run<true>(d_in, s);
  }
  for (auto _ : state)
  {
    c.template run<true>(d_in, s);
  }
  benchmark::DoNotOptimize(c.value());
  const std::size_t n = std::size_t(1) << log2_n;
  strata_bench::set_counters(state, n, bytes_moved(ALG, n));
  validate<ALG, LIB>(state, log2_n);
}

template <algorithm ALG, library LIB>
void throughput(benchmark::State& state, int log2_n)
{
  call<ALG, LIB>& c    = per_size<call<ALG, LIB>>(log2_n);
  const data_set& data = per_size<data_set>(log2_n);
  std::size_t turn     = 0;
  for (int i = 0; i < WARM_UP_CALLS; ++i)
  {
    c.template run<true>(data.input(turn++), bench_stream());
  }
  strata_bench::time_loop(
    state,
    [&](cudaStream_t s) {
      c.template run<false>(data.input(turn++), s);
    },
    bench_stream());
  strata_bench::set_counters(state, data.size(), bytes_moved(ALG, data.size()));
  validate<ALG, LIB>(state, log2_n);
}

// frontend_<latency|throughput>/<algo>/2^k/<library>, timed by the host's clock or by CUDA events.
template <algorithm ALG, bool LATENCY, library LIB>
void register_one(const std::string& base, int log2_n)
{
  auto* b = benchmark::RegisterBenchmark((base + name_of(LIB)).c_str(), [log2_n](benchmark::State& st) {
    if constexpr (LATENCY)
    {
      latency<ALG, LIB>(st, log2_n);
    }
    else
    {
      throughput<ALG, LIB>(st, log2_n);
    }
  });
  b->Unit(benchmark::kMicrosecond);
  LATENCY ? b->UseRealTime() : b->UseManualTime();
}

template <algorithm ALG, bool LATENCY, library... LIBS>
void register_cases(int log2_n)
{
  const std::string base = std::string(LATENCY ? "frontend_latency/" : "frontend_throughput/") + name_of(ALG) + "/2^"
                         + std::to_string(log2_n) + "/";
  (register_one<ALG, LATENCY, LIBS>(base, log2_n), ...);
}

template <algorithm ALG>
void register_algorithm()
{
  for (int log2_n : {10, 16, 20, 24})
  {
    register_cases<ALG, true, library::strata, library::thrust, library::raw, library::cub>(log2_n);
  }
  if constexpr (ALG != algorithm::sort && ALG != algorithm::copy_if)
  {
    for (int log2_n : {24, 28})
    {
      if constexpr (ALG == algorithm::transform)
      {
        register_cases<ALG, false, library::strata, library::raw, library::thrust, library::copy>(log2_n);
      }
      else
      {
        register_cases<ALG, false, library::strata, library::raw, library::thrust>(log2_n);
      }
    }
  }
}
} // namespace

int main(int argc, char** argv)
{
  register_algorithm<algorithm::reduce>();
  register_algorithm<algorithm::inclusive_scan>();
  register_algorithm<algorithm::transform>();
  register_algorithm<algorithm::sort>();
  register_algorithm<algorithm::copy_if>();
  return strata_bench::run_benchmarks(argc, argv);
}
