// Google Benchmark support: CUDA-event timing, inputs rotated through more memory than the L2 holds,
// device-side random fills, the counters that make Google Benchmark print GB/s and items/s, the copy that bounds
// a streaming algorithm, and a main that records the GPU in the JSON's context.
//
// Every comparison benchmark registers the same case twice, ".../strata" and ".../cub" (or ".../thrust"),
// on the same buffers in the same process; scripts/compare_report.py turns the JSON into ratios and
// scripts/perf_report.py into docs/performance.md.
#pragma once

#include <benchmark/benchmark.h>
#include <cuda/std/version>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata_bench
{
// splitmix64's finalizer: a bijection of 64-bit words that spreads every input bit over all output bits.
__host__ __device__ inline std::uint64_t mix64(std::uint64_t x)
{
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

inline void check(cudaError_t e, const char* what)
{
  if (e != cudaSuccess)
  {
    std::fprintf(stderr, "strata bench: %s failed: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}
#define STRATA_BENCH_CHECK(expr) ::strata_bench::check((expr), #expr)

// Times work on a stream with a pair of CUDA events; the result goes to Google Benchmark's manual time.
class cuda_timer
{
public:
  cuda_timer()
  {
    STRATA_BENCH_CHECK(cudaEventCreate(&start_));
    STRATA_BENCH_CHECK(cudaEventCreate(&stop_));
  }
  ~cuda_timer()
  {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  cuda_timer(const cuda_timer&)            = delete;
  cuda_timer& operator=(const cuda_timer&) = delete;

  void start(cudaStream_t stream = 0)
  {
    STRATA_BENCH_CHECK(cudaEventRecord(start_, stream));
  }
  // Seconds between start() and now on `stream` (synchronizes on the stop event).
  double stop(cudaStream_t stream = 0)
  {
    STRATA_BENCH_CHECK(cudaEventRecord(stop_, stream));
    STRATA_BENCH_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    STRATA_BENCH_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return static_cast<double>(ms) * 1e-3;
  }

private:
  cudaEvent_t start_{};
  cudaEvent_t stop_{};
};

inline std::size_t l2_bytes()
{
  int device = 0;
  int bytes  = 0;
  STRATA_BENCH_CHECK(cudaGetDevice(&device));
  STRATA_BENCH_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device));
  return static_cast<std::size_t>(bytes);
}

// Fills `n` elements with pseudo-random, never-all-zero values (a hash of the index and the seed), on the device.
template <typename T>
__global__ void fill_random_kernel(T* data, std::size_t n, std::uint64_t seed)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    std::uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ULL ^ seed;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 29;
    if constexpr (std::is_floating_point<T>::value)
    {
      data[i] = static_cast<T>(static_cast<double>(x >> 40) / double(1ULL << 24) - 0.5);
    }
    else
    {
      data[i] = static_cast<T>(x >> 7);
    }
  }
}

template <typename T>
void fill_random(T* data, std::size_t n, std::uint64_t seed)
{
  if (n == 0)
  {
    return;
  }
  fill_random_kernel<<<1024, 256>>>(data, n, seed);
  STRATA_BENCH_CHECK(cudaGetLastError());
}

// Several input buffers of `n` elements whose total exceeds twice the L2 size, handed out in turn, so that no
// timed run finds its input in the cache (a single buffer already larger than that is simply reused).
template <typename T>
class rotating_inputs
{
public:
  explicit rotating_inputs(std::size_t n, std::uint64_t seed = 42)
      : n_(n)
  {
    const std::size_t bytes = std::max<std::size_t>(1, n * sizeof(T));
    const std::size_t sets = std::min<std::size_t>(512, std::max<std::size_t>(1, (2 * l2_bytes() + bytes - 1) / bytes));
    buffers_.resize(sets);
    for (std::size_t s = 0; s < sets; ++s)
    {
      STRATA_BENCH_CHECK(cudaMalloc(&buffers_[s], bytes));
      fill_random(buffers_[s], n, seed + s);
    }
    STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  }
  ~rotating_inputs()
  {
    for (T* p : buffers_)
    {
      cudaFree(p);
    }
  }
  rotating_inputs(const rotating_inputs&)            = delete;
  rotating_inputs& operator=(const rotating_inputs&) = delete;

  T* next()
  {
    T* p    = buffers_[cursor_];
    cursor_ = (cursor_ + 1) % buffers_.size();
    return p;
  }
  T* at(std::size_t s) const
  {
    return buffers_[s % buffers_.size()];
  }
  std::size_t sets() const
  {
    return buffers_.size();
  }
  std::size_t size() const
  {
    return n_;
  }

private:
  std::size_t n_;
  std::vector<T*> buffers_;
  std::size_t cursor_ = 0;
};

// Keys in runs of random length, 8 on average: a run starts wherever a hash of the index is 0 mod 8 (and at 0), so
// lengths are geometric, from 1 to a few dozen. Each key is the index of its run's first item (wrapped to KeyT),
// so neighbouring runs have different keys unless a run is 2^(8 sizeof(KeyT)) items long (never, in practice).
__host__ __device__ inline bool run_starts_at(std::size_t i, std::uint64_t seed)
{
  std::uint64_t x = (i + 1) * 0xd1b54a32d192ed03ULL ^ seed;
  x ^= x >> 32;
  x *= 0x9e3779b97f4a7c15ULL;
  x ^= x >> 29;
  return i == 0 || (x & 7) == 0;
}

template <typename KeyT>
__global__ void fill_run_keys_kernel(KeyT* keys, std::size_t n, std::uint64_t seed)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    std::size_t start = i;
    while (!run_starts_at(start, seed))
    {
      --start;
    }
    keys[i] = static_cast<KeyT>(start);
  }
}

// One buffer of run keys for each of `sets` input sets (give it rotating_inputs::sets(), so the keys of a timed
// run are no more in the L2 than its values).
template <typename KeyT>
class rotating_run_keys
{
public:
  rotating_run_keys(std::size_t sets, std::size_t n, std::uint64_t seed = 4242)
  {
    buffers_.resize(sets);
    for (std::size_t s = 0; s < sets; ++s)
    {
      STRATA_BENCH_CHECK(cudaMalloc(&buffers_[s], std::max<std::size_t>(1, n) * sizeof(KeyT)));
      if (n > 0)
      {
        fill_run_keys_kernel<<<1024, 256>>>(buffers_[s], n, seed + s);
        STRATA_BENCH_CHECK(cudaGetLastError());
      }
    }
    STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  }
  ~rotating_run_keys()
  {
    for (KeyT* p : buffers_)
    {
      cudaFree(p);
    }
  }
  rotating_run_keys(const rotating_run_keys&)            = delete;
  rotating_run_keys& operator=(const rotating_run_keys&) = delete;

  const KeyT* at(std::size_t s) const
  {
    return buffers_[s % buffers_.size()];
  }

private:
  std::vector<KeyT*> buffers_;
};

// A device allocation released at scope exit.
template <typename T>
class device_array
{
public:
  explicit device_array(std::size_t n)
  {
    STRATA_BENCH_CHECK(cudaMalloc(&ptr_, std::max<std::size_t>(1, n) * sizeof(T)));
  }
  ~device_array()
  {
    cudaFree(ptr_);
  }
  device_array(const device_array&)            = delete;
  device_array& operator=(const device_array&) = delete;
  T* get() const
  {
    return ptr_;
  }

private:
  T* ptr_ = nullptr;
};

// The short name of an arithmetic type in benchmark names: i8 ... i64, f32, f64.
template <typename T>
std::string type_name()
{
  if (std::is_floating_point<T>::value)
  {
    return sizeof(T) == 4 ? "f32" : "f64";
  }
  return "i" + std::to_string(8 * sizeof(T));
}

// Items and bytes (read + written) per iteration, so Google Benchmark reports items/s and bytes/s.
inline void set_counters(benchmark::State& state, std::size_t items, std::size_t bytes)
{
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(items));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes));
  state.counters["elements"] = static_cast<double>(items);
}

// Runs `launch(stream)` once per benchmark iteration under CUDA-event timing (after one warm-up launch).
template <typename Launch>
void time_loop(benchmark::State& state, Launch&& launch, cudaStream_t stream = 0)
{
  launch(stream);
  STRATA_BENCH_CHECK(cudaStreamSynchronize(stream));
  cuda_timer timer;
  for (auto _ : state)
  {
    timer.start(stream);
    launch(stream);
    state.SetIterationTime(timer.stop(stream));
  }
  STRATA_BENCH_CHECK(cudaGetLastError());
}

// A two-phase call over rotating input sets, `run(d_temp, temp_bytes, set, stream)`: its temporary storage sized by
// the size query, timed on set after set (time), and run once more on a set of choice for validation (once).
template <typename Run>
class two_phase_turns
{
public:
  explicit two_phase_turns(Run run)
      : run_(std::move(run))
      , bytes_(size_query(run_))
      , temp_(bytes_)
  {}
  void time(benchmark::State& state)
  {
    std::size_t turn = 0;
    time_loop(state, [&](cudaStream_t s) {
      STRATA_BENCH_CHECK(run_(temp_.get(), bytes_, turn++, s));
    });
  }
  void once(std::size_t turn)
  {
    STRATA_BENCH_CHECK(run_(temp_.get(), bytes_, turn, 0));
  }

private:
  static std::size_t size_query(Run& run)
  {
    std::size_t bytes = 0;
    STRATA_BENCH_CHECK(run(nullptr, bytes, 0, 0));
    return bytes;
  }
  Run run_;
  std::size_t bytes_;
  device_array<char> temp_;
};

// The body of the benchmarks that make one key and one value of each run of equal keys (bench_util's run keys, with
// values) and count the runs (ReduceByKey, UniqueByKey): `launch(d_temp, temp_bytes, keys, values, unique_out,
// values_out, count_out, n, stream)` is the two-phase call, timed over the rotating input sets; `matches(keys, values,
// unique_out, values_out, count)`, given host copies, validates its output once per size, `wrong` naming a failure.
template <typename KeyT, typename ValueT, typename Launch, typename Matches>
void time_runs_by_key(benchmark::State& state, Launch launch, Matches matches, const char* wrong)
{
  const std::size_t n = std::size_t(1) << state.range(0);
  rotating_inputs<ValueT> values(n);
  rotating_run_keys<KeyT> keys(values.sets(), n);
  device_array<KeyT> unique(n);
  device_array<ValueT> values_out(n);
  device_array<std::uint32_t> count(1);
  const auto run = [&](void* d_temp, std::size_t& temp_bytes, std::size_t turn, cudaStream_t s) {
    return launch(d_temp, temp_bytes, keys.at(turn), values.at(turn), unique.get(), values_out.get(), count.get(), n,
                  s);
  };
  two_phase_turns<decltype(run)> timed(run);
  timed.time(state);
  std::uint32_t runs = 0;
  STRATA_BENCH_CHECK(cudaMemcpy(&runs, count.get(), sizeof(runs), cudaMemcpyDeviceToHost));
  set_counters(state, n, (n + runs) * (sizeof(KeyT) + sizeof(ValueT)));

  // Validate once per size (Google Benchmark calls the benchmark several times while it sizes the run).
  static std::set<std::int64_t> validated;
  if (validated.insert(state.range(0)).second)
  {
    STRATA_BENCH_CHECK(cudaMemset(values_out.get(), 0xa5, n * sizeof(ValueT)));
    timed.once(0);
    std::vector<KeyT> h_keys(n), h_unique(n);
    std::vector<ValueT> h_values(n), h_values_out(n);
    STRATA_BENCH_CHECK(cudaMemcpy(h_keys.data(), keys.at(0), n * sizeof(KeyT), cudaMemcpyDeviceToHost));
    STRATA_BENCH_CHECK(cudaMemcpy(h_values.data(), values.at(0), n * sizeof(ValueT), cudaMemcpyDeviceToHost));
    STRATA_BENCH_CHECK(cudaMemcpy(h_unique.data(), unique.get(), n * sizeof(KeyT), cudaMemcpyDeviceToHost));
    STRATA_BENCH_CHECK(cudaMemcpy(h_values_out.data(), values_out.get(), n * sizeof(ValueT), cudaMemcpyDeviceToHost));
    STRATA_BENCH_CHECK(cudaMemcpy(&runs, count.get(), sizeof(runs), cudaMemcpyDeviceToHost));
    if (!matches(h_keys, h_values, h_unique, h_values_out, runs))
    {
      state.SkipWithError(wrong);
    }
  }
}

// Times one device-to-device cudaMemcpyAsync of `copy_bytes` per iteration, from the next of `sources` to `dst`:
// a copy reads and writes at the rate DRAM sustains, the bound of an algorithm that streams as many bytes.
template <typename T>
void time_copy(benchmark::State& state, rotating_inputs<T>& sources, T* dst, std::size_t copy_bytes)
{
  time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK(cudaMemcpyAsync(dst, sources.next(), copy_bytes, cudaMemcpyDeviceToDevice, s));
  });
}

// The copy that moves `moved_bytes` in all, half read and half written, through buffers of its own: the ceiling
// of a device algorithm whose reads and writes add up to `moved_bytes`.
inline void time_copy(benchmark::State& state, std::size_t moved_bytes)
{
  const std::size_t copy_bytes = moved_bytes / 2;
  rotating_inputs<std::uint8_t> sources(copy_bytes);
  device_array<std::uint8_t> dst(copy_bytes);
  time_copy(state, sources, dst.get(), copy_bytes);
}

// "13.0" for the CUDA version number 13000.
inline std::string cuda_version_string(int version)
{
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

// nvidia-smi's spelling of a GPU's UUID: "GPU-" and the 16 bytes in hex, grouped 4-2-2-2-6.
inline std::string uuid_string(const cudaUUID_t& uuid)
{
  std::string text = "GPU-";
  for (int i = 0; i < 16; ++i)
  {
    char byte[3];
    std::snprintf(byte, sizeof(byte), "%02x", static_cast<unsigned char>(uuid.bytes[i]));
    text += byte;
    if (i == 3 || i == 5 || i == 7 || i == 9)
    {
      text += "-";
    }
  }
  return text;
}

// Records the current GPU and the CUDA versions in the JSON's "context", so that a result file says what it was
// measured on. Without a usable GPU it records why and goes on: listing the benchmarks needs no GPU.
inline void add_device_context()
{
  benchmark::AddCustomContext("cuda_toolkit_version", cuda_version_string(CUDART_VERSION));
#ifdef CCCL_VERSION
  benchmark::AddCustomContext("cccl_version", std::to_string(CCCL_VERSION / 1000000) + "."
                                                + std::to_string(CCCL_VERSION / 1000 % 1000) + "."
                                                + std::to_string(CCCL_VERSION % 1000));
#endif
  int version = 0;
  if (cudaRuntimeGetVersion(&version) == cudaSuccess)
  {
    benchmark::AddCustomContext("cuda_runtime_version", cuda_version_string(version));
  }
  if (cudaDriverGetVersion(&version) == cudaSuccess && version > 0) // 0: no driver installed
  {
    benchmark::AddCustomContext("cuda_driver_version", cuda_version_string(version));
  }
  int device = 0;
  cudaDeviceProp prop{};
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess)
  {
    e = cudaGetDeviceProperties(&prop, device);
  }
  if (e != cudaSuccess)
  {
    cudaGetLastError(); // not left behind for a later check to report
    benchmark::AddCustomContext("gpu_name", std::string("none (") + cudaGetErrorString(e) + ")");
    return;
  }
  benchmark::AddCustomContext("gpu_name", prop.name);
  benchmark::AddCustomContext("gpu_uuid", uuid_string(prop.uuid));
  benchmark::AddCustomContext("gpu_compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor));
  benchmark::AddCustomContext("gpu_sm_count", std::to_string(prop.multiProcessorCount));
  benchmark::AddCustomContext("gpu_memory_bytes", std::to_string(prop.totalGlobalMem));
  benchmark::AddCustomContext("gpu_l2_bytes", std::to_string(prop.l2CacheSize));
  int memory_clock_khz = 0;
  int bus_bits         = 0;
  if (cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess
      && cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) == cudaSuccess)
  {
    // Double data rate: two transfers of the bus width per memory clock.
    const double peak_gbps = 2.0 * memory_clock_khz * 1e3 * (bus_bits / 8) / 1e9;
    benchmark::AddCustomContext("gpu_memory_clock_khz", std::to_string(memory_clock_khz));
    benchmark::AddCustomContext("gpu_memory_bus_bits", std::to_string(bus_bits));
    benchmark::AddCustomContext("gpu_peak_bandwidth_gbps", std::to_string(static_cast<long long>(peak_gbps)));
  }
}

// The main of every benchmark executable: the GPU into the context, then Google Benchmark. A flag the installed
// Google Benchmark does not take fails the run instead of being ignored (1.7 takes `--benchmark_min_time=0.2` but
// rejects `=0.2s`, the form 1.8 documents), so that scripts/bench_flags.sh can tell which form a binary accepts.
inline int run_benchmarks(int argc, char** argv)
{
  add_device_context();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
  {
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// The threshold below which `pct` percent of the random items of bench_util (x >> 7 of 64 random bits, in T) lie:
// their low bits are uniform, so a threshold on a T's full range, less its top bit for signed types, gives the rate.
template <typename T>
T threshold_for(int pct)
{
  using U              = std::make_unsigned_t<T>;
  const double top     = std::is_signed<T>::value ? double(std::numeric_limits<T>::max()) : double(U(~U(0)));
  const double lowest  = std::is_signed<T>::value ? double(std::numeric_limits<T>::min()) : 0.0;
  const double span    = top - lowest;
  const double at_rate = lowest + span * pct / 100.0;
  return static_cast<T>(at_rate);
}

// The select operator of the DeviceSelect benchmarks: an item is selected when it is below the threshold.
template <typename T>
struct less_than
{
  T threshold;
  __host__ __device__ bool operator()(const T& x) const
  {
    return x < threshold;
  }
};

// Floats uniform in [0, 1), multiples of 2^-24 (so that sums of up to 2^24 of them stay well inside float's range).
template <typename T>
__global__ void fill_unit_kernel(T* data, std::size_t n, std::uint64_t seed)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    data[i] = static_cast<T>(mix64((i + 1) * 0x9e3779b97f4a7c15ULL ^ seed) >> 40) * T(0x1p-24);
  }
}

// Reads `vectors` 16-byte words, four loads in flight per thread, and writes the XOR of the block's words: nothing
// but the reads of the input, which the compiler cannot drop.
template <int THREADS>
__global__ void __launch_bounds__(THREADS)
  read_kernel(const uint4* __restrict__ in, std::size_t vectors, unsigned int* out)
{
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  std::size_t i            = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  unsigned int acc         = 0;
  for (; i + 3 * stride < vectors; i += 4 * stride)
  {
    const uint4 a = in[i];
    const uint4 b = in[i + stride];
    const uint4 c = in[i + 2 * stride];
    const uint4 d = in[i + 3 * stride];
    acc ^= (a.x ^ a.y ^ a.z ^ a.w) ^ (b.x ^ b.y ^ b.z ^ b.w) ^ (c.x ^ c.y ^ c.z ^ c.w) ^ (d.x ^ d.y ^ d.z ^ d.w);
  }
  for (; i < vectors; i += stride)
  {
    const uint4 a = in[i];
    acc ^= a.x ^ a.y ^ a.z ^ a.w;
  }
  for (int offset = 16; offset > 0; offset /= 2)
  {
    acc ^= __shfl_xor_sync(0xffffffffu, acc, offset);
  }
  __shared__ unsigned int warp_acc[32];
  if (threadIdx.x % 32 == 0)
  {
    warp_acc[threadIdx.x / 32] = acc;
  }
  __syncthreads();
  if (threadIdx.x == 0)
  {
    unsigned int block_acc = 0;
    for (unsigned int w = 0; w < blockDim.x / 32; ++w)
    {
      block_acc ^= warp_acc[w];
    }
    out[blockIdx.x] = block_acc;
  }
}

// Times read_kernel over inputs of `n` items of T (rotating_inputs), on one wave of resident blocks: the bandwidth of
// a kernel that only reads its input, the baseline of algorithms that read much more than they write.
template <typename T>
void time_read(benchmark::State& state, std::size_t n)
{
  constexpr int threads     = 256;
  const std::size_t bytes   = n * sizeof(T);
  const std::size_t vectors = bytes / sizeof(uint4);
  if (bytes % sizeof(uint4) != 0)
  {
    state.SkipWithError("the read kernel wants a multiple of 16 bytes");
    return;
  }
  int device = 0, sms = 0, per_sm = 0;
  STRATA_BENCH_CHECK(cudaGetDevice(&device));
  STRATA_BENCH_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  STRATA_BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_kernel<threads>, threads, 0));
  const std::size_t wave = std::size_t(sms) * std::size_t(std::max(per_sm, 1));
  const unsigned int grid =
    static_cast<unsigned int>(std::max<std::size_t>(1, std::min(wave, (vectors + threads - 1) / threads)));
  rotating_inputs<T> inputs(n);
  device_array<unsigned int> out(grid);
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    read_kernel<threads><<<grid, threads, 0, s>>>(reinterpret_cast<const uint4*>(inputs.next()), vectors, out.get());
  });
}

} // namespace strata_bench

// In place of BENCHMARK_MAIN() for benchmarks registered statically (BENCHMARK(...)).
#define STRATA_BENCHMARK_MAIN()                        \
  int main(int argc, char** argv)                      \
  {                                                    \
    return ::strata_bench::run_benchmarks(argc, argv); \
  }
