// DeviceRadixSort: strata against cub::DeviceRadixSort on the same buffers in one process.
// In/out SortKeys of u8, u16, u32, u64, f32, f64 keys and SortPairs of u32/u32 and u64/u64, all bits, at 2^16,
// 2^20, 2^24 and 2^28 items, with random keys ("random") and low-entropy keys, each the bitwise AND of three random
// words ("and3": a bit is set with probability 1/8, 0.544 bits of entropy per bit); and "radix_sort_skip": u64 keys
// below 2^20 sorted on all 64 bits at 2^24 and 2^28, where 5 of the 8 digit passes can be skipped.
// "radix_sort_latency": small inputs (2^9 to 2^14 random keys and sizes between those, u8 to u64 keys and the two
// pairs), where a sort is one or a few short kernels: host wall-clock time of one call and a cudaStreamSynchronize on a
// non-blocking stream, on the same input each time. Floating-point keys are finite
// (benchmarks/support/radix_sort_inputs.cuh). Each case is registered as ".../strata" and ".../cub"; the temporary
// storage of the timed library is allocated once per case, outside the timing. Counters: items/s (keys per second),
// temp_bytes_strata and temp_bytes_cub (both libraries' temporary storage for the call). After timing, strata's run
// sorts input set 0 with both libraries into poisoned outputs and compares them bit for bit (keys, and values: the
// sorts are stable, so the values must agree too).
// scripts/compare_report.py prints the ratios.
#include <strata/device/device_radix_sort.cuh>

#include <cub/device/device_radix_sort.cuh>

#include <cuda/std/bit>

#include "bench_util.cuh"
#include "radix_sort_inputs.cuh"

#include <cstdint>
#include <set>
#include <string>
#include <type_traits>

namespace
{
using strata_bench::key_spec;
using strata_bench::no_values;
using strata_bench::sort_outputs;

enum class library
{
  strata,
  cub
};

// One library's in/out sort of all the key bits, both phases (the size query costs no device time).
template <library LIB, typename KeyT, typename ValueT>
cudaError_t sort(void* d_temp, std::size_t& bytes, const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                 ValueT* d_values_out, int n, cudaStream_t s)
{
  constexpr int end_bit = 8 * sizeof(KeyT);
  if constexpr (std::is_same<ValueT, no_values>::value)
  {
    if constexpr (LIB == library::strata)
    {
      return strata::DeviceRadixSort::SortKeys(d_temp, bytes, d_keys_in, d_keys_out, n, 0, end_bit, s);
    }
    else
    {
      return cub::DeviceRadixSort::SortKeys(d_temp, bytes, d_keys_in, d_keys_out, n, 0, end_bit, s);
    }
  }
  else
  {
    if constexpr (LIB == library::strata)
    {
      return strata::DeviceRadixSort::SortPairs(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, 0,
                                                end_bit, s);
    }
    else
    {
      return cub::DeviceRadixSort::SortPairs(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, 0,
                                             end_bit, s);
    }
  }
}

template <library LIB, typename KeyT, typename ValueT>
cudaError_t sort_set(void* d_temp, std::size_t& bytes, const strata_bench::sort_inputs<KeyT, ValueT>& in,
                     std::size_t set, sort_outputs<KeyT, ValueT>& out, cudaStream_t s)
{
  return sort<LIB>(d_temp, bytes, in.keys(set), out.keys.get(), in.values(set), out.values.get(),
                   static_cast<int>(in.size()), s);
}

std::string error_text(const char* what, cudaError_t e)
{
  return std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
}

// "" where strata's output on input set 0 (into strata_out) equals cub's bit for bit, else what differs.
template <typename KeyT, typename ValueT>
std::string validate(const strata_bench::sort_inputs<KeyT, ValueT>& in, void* d_strata_temp, std::size_t strata_bytes,
                     std::size_t cub_bytes, sort_outputs<KeyT, ValueT>& strata_out)
{
  const std::size_t n = in.size();
  sort_outputs<KeyT, ValueT> cub_out(n);
  strata_bench::device_array<char> cub_temp(cub_bytes);
  strata_out.poison(0xa5);
  cub_out.poison(0x5a);
  cudaError_t e = sort_set<library::strata>(d_strata_temp, strata_bytes, in, 0, strata_out, 0);
  if (e != cudaSuccess)
  {
    return error_text("strata's sort for validation", e);
  }
  STRATA_BENCH_CHECK(sort_set<library::cub>(cub_temp.get(), cub_bytes, in, 0, cub_out, 0));
  STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  const strata_bench::differences keys = strata_bench::compare_bits(strata_out.keys.get(), cub_out.keys.get(), n);
  if (keys.count > 0)
  {
    return "strata and cub disagree: " + std::to_string(keys.count) + " keys differ, the first at "
         + std::to_string(keys.first);
  }
  if constexpr (sort_outputs<KeyT, ValueT>::HAS_VALUES)
  {
    const strata_bench::differences values =
      strata_bench::compare_bits(strata_out.values.get(), cub_out.values.get(), n);
    if (values.count > 0)
    {
      return "strata and cub disagree: " + std::to_string(values.count) + " values differ, the first at "
           + std::to_string(values.first);
    }
  }
  return "";
}

// One case of one library: its inputs and outputs, both libraries' temporary bytes for the sort (host-side size
// queries) and the timed library's temporary storage, allocated once, outside the timing.
template <library LIB, typename KeyT, typename ValueT>
class sort_case
{
public:
  sort_case(std::size_t n, key_spec spec)
      : in_(n, spec)
      , out_(n)
      , query_error_(query_sizes())
      , temp_(LIB == library::strata ? strata_bytes_ : cub_bytes_)
  {}

  // strata's size query's error; the case is skipped where it is not cudaSuccess.
  cudaError_t query_error() const
  {
    return query_error_;
  }

  // The timed library's sort of input set `set` on `stream`.
  cudaError_t sort(std::size_t set, cudaStream_t stream)
  {
    std::size_t bytes = LIB == library::strata ? strata_bytes_ : cub_bytes_;
    return sort_set<LIB>(temp_.get(), bytes, in_, set, out_, stream);
  }

  // The counters of a case that ran, and in strata's run, once per case, the comparison with CUB's result (Google
  // Benchmark calls a case's function several times while it sizes the run).
  void finish(benchmark::State& state, const std::string& name)
  {
    state.counters["elements"]          = static_cast<double>(in_.size());
    state.counters["temp_bytes_strata"] = static_cast<double>(strata_bytes_);
    state.counters["temp_bytes_cub"]    = static_cast<double>(cub_bytes_);
    static std::set<std::string> validated;
    if (LIB == library::strata && validated.insert(name).second)
    {
      const std::string problem = validate(in_, temp_.get(), strata_bytes_, cub_bytes_, out_);
      if (!problem.empty())
      {
        state.SkipWithError(problem.c_str());
      }
    }
  }

private:
  cudaError_t query_sizes()
  {
    const cudaError_t e = sort_set<library::strata>(nullptr, strata_bytes_, in_, 0, out_, 0);
    if (e == cudaSuccess)
    {
      STRATA_BENCH_CHECK(sort_set<library::cub>(nullptr, cub_bytes_, in_, 0, out_, 0));
    }
    return e;
  }

  const strata_bench::sort_inputs<KeyT, ValueT> in_;
  sort_outputs<KeyT, ValueT> out_;
  std::size_t strata_bytes_ = 0;
  std::size_t cub_bytes_    = 0;
  cudaError_t query_error_;
  strata_bench::device_array<char> temp_;
};

template <library LIB, typename KeyT, typename ValueT>
void bench(benchmark::State& state, const std::string& name, int log2_n, key_spec spec)
{
  const std::size_t n = std::size_t(1) << log2_n;
  sort_case<LIB, KeyT, ValueT> c(n, spec);
  if (c.query_error() != cudaSuccess)
  {
    state.SkipWithError(error_text("strata's size query", c.query_error()).c_str());
    return;
  }

  // One warm-up sort, then one timed sort per iteration, each on the next input set. An error (strata's sort is
  // the one under development) fails the case instead of the whole executable.
  cudaError_t e = c.sort(0, 0);
  STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  if (e != cudaSuccess)
  {
    state.SkipWithError(error_text("sort", e).c_str());
    return;
  }
  strata_bench::cuda_timer timer;
  std::size_t set = 1;
  for (auto _ : state)
  {
    timer.start();
    e                    = c.sort(set++, 0);
    const double seconds = timer.stop();
    if (e != cudaSuccess)
    {
      state.SkipWithError(error_text("sort", e).c_str());
      break;
    }
    state.SetIterationTime(seconds);
  }
  STRATA_BENCH_CHECK(cudaGetLastError());
  if (e != cudaSuccess)
  {
    return;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
  c.finish(state, name);
}

// The host latency of one sort of input set 0 until the stream is done with it, on a non-blocking stream.
template <library LIB, typename KeyT, typename ValueT>
void latency(benchmark::State& state, const std::string& name, std::size_t n)
{
  sort_case<LIB, KeyT, ValueT> c(n, key_spec{1, 0});
  cudaError_t e = c.query_error();
  if (e != cudaSuccess)
  {
    state.SkipWithError(error_text("strata's size query", e).c_str());
    return;
  }
  static const cudaStream_t stream = [] {
    cudaStream_t s = nullptr;
    STRATA_BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
  }();
  for (int i = 0; i < 10 && e == cudaSuccess; ++i)
  {
    e = c.sort(0, stream);
  }
  STRATA_BENCH_CHECK(cudaStreamSynchronize(stream));
  for (auto _ : state)
  {
    if (e != cudaSuccess)
    {
      break;
    }
    e = c.sort(0, stream);
    STRATA_BENCH_CHECK(cudaStreamSynchronize(stream));
  }
  if (e != cudaSuccess)
  {
    state.SkipWithError(error_text("sort", e).c_str());
    return;
  }
  c.finish(state, name);
}

template <typename KeyT, typename ValueT>
std::string types_name()
{
  std::string types = strata_bench::sort_type_name<KeyT>();
  if constexpr (!std::is_same<ValueT, no_values>::value)
  {
    types += "_" + strata_bench::sort_type_name<ValueT>();
  }
  return types;
}

// Registers "radix_sort_latency/<types>/<size>/{strata,cub}" for each number of keys: <size> is 2^<log2 n> for a power
// of two, else the number.
template <typename KeyT, typename ValueT = no_values>
void register_latency(std::initializer_list<std::size_t> sizes)
{
  for (const std::size_t n : sizes)
  {
    const std::string size =
      cuda::std::has_single_bit(n) ? "2^" + std::to_string(cuda::std::countr_zero(n)) : std::to_string(n);
    const std::string base = "radix_sort_latency/" + types_name<KeyT, ValueT>() + "/" + size;
    benchmark::RegisterBenchmark((base + "/strata").c_str(),
                                 [base, n](benchmark::State& st) {
                                   latency<library::strata, KeyT, ValueT>(st, base, n);
                                 })
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((base + "/cub").c_str(),
                                 [base, n](benchmark::State& st) {
                                   latency<library::cub, KeyT, ValueT>(st, base, n);
                                 })
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  }
}

// Registers "<algorithm>/<types>/<keys>/2^<log2 n>/{strata,cub}" for each size.
template <typename KeyT, typename ValueT>
void register_case(const std::string& algorithm, const std::string& keys, key_spec spec,
                   std::initializer_list<int> sizes)
{
  const std::string types = types_name<KeyT, ValueT>();
  for (int log2_n : sizes)
  {
    const std::string base = algorithm + "/" + types + "/" + keys + "/2^" + std::to_string(log2_n);
    benchmark::RegisterBenchmark((base + "/strata").c_str(),
                                 [base, log2_n, spec](benchmark::State& st) {
                                   bench<library::strata, KeyT, ValueT>(st, base, log2_n, spec);
                                 })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((base + "/cub").c_str(),
                                 [base, log2_n, spec](benchmark::State& st) {
                                   bench<library::cub, KeyT, ValueT>(st, base, log2_n, spec);
                                 })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
  }
}

template <typename KeyT, typename ValueT = no_values>
void register_sizes(const std::string& algorithm)
{
  register_case<KeyT, ValueT>(algorithm, "random", key_spec{1, 0}, {16, 20, 24, 28});
  register_case<KeyT, ValueT>(algorithm, "and3", key_spec{3, 0}, {16, 20, 24, 28});
}
} // namespace

int main(int argc, char** argv)
{
  register_sizes<std::uint8_t>("radix_sort_keys");
  register_sizes<std::uint16_t>("radix_sort_keys");
  register_sizes<std::uint32_t>("radix_sort_keys");
  register_sizes<std::uint64_t>("radix_sort_keys");
  register_sizes<float>("radix_sort_keys");
  register_sizes<double>("radix_sort_keys");
  register_sizes<std::uint32_t, std::uint32_t>("radix_sort_pairs");
  register_sizes<std::uint64_t, std::uint64_t>("radix_sort_pairs");
  // Random keys below 2^20 sorted on all 64 bits: digits 3..7 (bits 24..63) are 0 in every key.
  register_case<std::uint64_t, no_values>("radix_sort_skip", "below_2^20", key_spec{1, 20}, {24, 28});
  // Powers of two from 2^9 to 2^14, and sizes between the single-block tiers (tuning_radix_sort.cuh): just past a
  // tier's tile, and CUB's largest single-block tile (4864 items of up to 4 bytes, 2304 of 8).
  register_latency<std::uint8_t>({512, 1024, 4096, 8192, 16384});
  register_latency<std::uint16_t>({512, 1024, 4096, 8192, 16384});
  register_latency<std::uint32_t>({512, 1024, 1536, 4096, 4864, 8192, 12288, 16384});
  register_latency<std::uint64_t>({512, 1024, 1536, 2304, 4096, 8192, 12288, 16384});
  register_latency<std::uint32_t, std::uint32_t>({512, 1024, 1536, 4096, 4864, 8192, 12288, 16384});
  register_latency<std::uint64_t, std::uint64_t>({512, 1024, 1536, 2304, 4096, 8192, 12288, 16384});
  return strata_bench::run_benchmarks(argc, argv);
}
