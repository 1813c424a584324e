// DeviceTransform: strata against cub::DeviceTransform::Transform on the same buffers in one process.
// Unary x * 2 of int8, int32, int64, float and double, and binary a + b of int32, at 2^16, 2^20, 2^24 and 2^28 items,
// inputs rotated through more memory than the L2 holds. Each case is registered as ".../strata", ".../cub" and
// ".../copy": a device-to-device cudaMemcpyAsync that reads and writes as many bytes as the transform does, the
// bound a transform cannot beat. Names: transform/<unary|binary>/<type>/2^k/<library>; scripts/compare_report.py
// prints the ratios.
#include <strata/device/device_transform.cuh>

#include <cub/device/device_transform.cuh>

#include "bench_util.cuh"
#include "transform_ops.cuh"

#include <cuda/std/tuple>

#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace
{
enum class arity
{
  unary,
  binary
};

enum class library
{
  strata,
  cub,
  copy
};

// The inputs of one case (two rotations for a binary transform) and one library's call on input set `turn`.
template <arity ARITY, typename T>
class workload
{
public:
  explicit workload(int n)
      : n_(n)
      , a_(static_cast<std::size_t>(n))
  {
    if (ARITY == arity::binary)
    {
      b_ = std::make_unique<strata_bench::rotating_inputs<T>>(static_cast<std::size_t>(n), 4242);
    }
  }

  template <library LIB>
  cudaError_t run(std::size_t turn, T* d_out, cudaStream_t s) const
  {
    const T* d_a = a_.at(turn);
    if constexpr (ARITY == arity::unary)
    {
      if constexpr (LIB == library::strata)
      {
        return strata::DeviceTransform::Transform(d_a, d_out, n_, strata_bench::twice<T>{}, s);
      }
      else
      {
        return cub::DeviceTransform::Transform(d_a, d_out, n_, strata_bench::twice<T>{}, s);
      }
    }
    else
    {
      const T* d_b = b_->at(turn);
      if constexpr (LIB == library::strata)
      {
        return strata::DeviceTransform::Transform(cuda::std::make_tuple(d_a, d_b), d_out, n_,
                                                  strata_bench::wrapping_plus<T>{}, s);
      }
      else
      {
        return cub::DeviceTransform::Transform(cuda::std::make_tuple(d_a, d_b), d_out, n_,
                                               strata_bench::wrapping_plus<T>{}, s);
      }
    }
  }

private:
  int n_;
  strata_bench::rotating_inputs<T> a_;
  std::unique_ptr<strata_bench::rotating_inputs<T>> b_;
};

// Bytes a run reads and writes: each input and the output.
template <arity ARITY, typename T>
std::size_t bytes_moved(std::size_t n)
{
  return (ARITY == arity::unary ? 2 : 3) * n * sizeof(T);
}

const char* name_of(library lib)
{
  return lib == library::strata ? "strata" : lib == library::cub ? "cub" : "copy";
}

template <arity ARITY, typename T>
void bench(benchmark::State& state, int log2_n, library lib)
{
  const int n             = 1 << log2_n;
  const std::size_t items = static_cast<std::size_t>(n);
  const std::size_t moved = bytes_moved<ARITY, T>(items);
  strata_bench::set_counters(state, items, moved);

  if (lib == library::copy)
  {
    strata_bench::time_copy(state, moved);
    return;
  }

  const workload<ARITY, T> work(n);
  strata_bench::device_array<T> out(items);
  std::size_t turn = 0;
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK(lib == library::strata ? work.template run<library::strata>(turn++, out.get(), s)
                                              : work.template run<library::cub>(turn++, out.get(), s));
  });

  // Validate against cub on the same input, in strata's run only and once per size, both outputs poisoned first.
  // The operators are exact (integers wrap, floats double), so the outputs must be equal bit for bit.
  static std::set<int> validated;
  if (lib == library::strata && validated.insert(log2_n).second)
  {
    strata_bench::device_array<T> cub_out(items);
    STRATA_BENCH_CHECK(cudaMemset(out.get(), 0xa5, items * sizeof(T)));
    STRATA_BENCH_CHECK(cudaMemset(cub_out.get(), 0x5a, items * sizeof(T)));
    STRATA_BENCH_CHECK(work.template run<library::strata>(0, out.get(), 0));
    STRATA_BENCH_CHECK(work.template run<library::cub>(0, cub_out.get(), 0));
    std::vector<T> a(items), b(items);
    STRATA_BENCH_CHECK(cudaMemcpy(a.data(), out.get(), items * sizeof(T), cudaMemcpyDeviceToHost));
    STRATA_BENCH_CHECK(cudaMemcpy(b.data(), cub_out.get(), items * sizeof(T), cudaMemcpyDeviceToHost));
    if (std::memcmp(a.data(), b.data(), items * sizeof(T)) != 0)
    {
      state.SkipWithError("strata and cub disagree");
    }
  }
}

// transform/<unary|binary>/<type>/2^k/<library> for every size and library.
template <arity ARITY, typename T>
void register_case()
{
  for (int log2_n : {16, 20, 24, 28})
  {
    for (library lib : {library::strata, library::cub, library::copy})
    {
      const std::string name = std::string("transform/") + (ARITY == arity::unary ? "unary/" : "binary/")
                             + strata_bench::type_name<T>() + "/2^" + std::to_string(log2_n) + "/" + name_of(lib);
      benchmark::RegisterBenchmark(name.c_str(),
                                   [log2_n, lib](benchmark::State& st) {
                                     bench<ARITY, T>(st, log2_n, lib);
                                   })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    }
  }
}
} // namespace

int main(int argc, char** argv)
{
  register_case<arity::unary, std::int8_t>();
  register_case<arity::unary, std::int32_t>();
  register_case<arity::unary, std::int64_t>();
  register_case<arity::unary, float>();
  register_case<arity::unary, double>();
  register_case<arity::binary, std::int32_t>();
  return strata_bench::run_benchmarks(argc, argv);
}
