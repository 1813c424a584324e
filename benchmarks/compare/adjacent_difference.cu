// DeviceAdjacentDifference: strata against cub::DeviceAdjacentDifference on the same buffers in one process.
// SubtractLeftCopy of int32 and int64 and the in-place SubtractLeft of int32, a - b wrapping as unsigned arithmetic,
// at 2^16, 2^20, 2^24 and 2^28 items, inputs rotated through more memory than the L2 holds. Each case is registered
// as ".../strata", ".../cub" and ".../copy": a device-to-device cudaMemcpyAsync that reads and writes as many bytes as
// the difference does, the bound it cannot beat. Names: adjacent_difference/<left_copy|left_in_place>/<type>/2^k/
// <library>; scripts/compare_report.py prints the ratios. After timing, strata's output is compared with CUB's on the
// same input, bit for bit.
#include <strata/device/device_adjacent_difference.cuh>

#include <cub/device/device_adjacent_difference.cuh>

#include "bench_util.cuh"
#include "transform_ops.cuh"

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace
{
enum class library
{
  strata,
  cub,
  copy
};

const char* name_of(library lib)
{
  return lib == library::strata ? "strata" : lib == library::cub ? "cub" : "copy";
}

// One library's call: SubtractLeftCopy from `in` to `out`, or SubtractLeft in place on `out` (IN_PLACE).
template <bool IN_PLACE, typename T>
cudaError_t run(library lib, void* d_temp, std::size_t& bytes, const T* in, T* out, int n, cudaStream_t s)
{
  if (lib == library::strata)
  {
    return IN_PLACE
           ? strata::DeviceAdjacentDifference::SubtractLeft(d_temp, bytes, out, n, strata_bench::wrapping_minus<T>{}, s)
           : strata::DeviceAdjacentDifference::SubtractLeftCopy(d_temp, bytes, in, out, n,
                                                                strata_bench::wrapping_minus<T>{}, s);
  }
  return IN_PLACE
         ? cub::DeviceAdjacentDifference::SubtractLeft(d_temp, bytes, out, n, strata_bench::wrapping_minus<T>{}, s)
         : cub::DeviceAdjacentDifference::SubtractLeftCopy(d_temp, bytes, in, out, n, strata_bench::wrapping_minus<T>{},
                                                           s);
}

template <bool IN_PLACE, typename T>
void bench(benchmark::State& state, int log2_n, library lib)
{
  const int n             = 1 << log2_n;
  const std::size_t items = static_cast<std::size_t>(n);
  const std::size_t moved = 2 * items * sizeof(T);
  strata_bench::set_counters(state, items, moved);
  if (lib == library::copy)
  {
    strata_bench::time_copy(state, moved);
    return;
  }

  // In place, the rotating inputs are the outputs (each run differences what the run before left there: the same
  // work on other values).
  strata_bench::rotating_inputs<T> inputs(items);
  strata_bench::device_array<T> out(items);
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK((run<IN_PLACE, T>(lib, nullptr, bytes, inputs.at(0), out.get(), n, 0)));
  strata_bench::device_array<char> temp(bytes);
  std::size_t turn = 0;
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    T* const set = inputs.at(turn++);
    STRATA_BENCH_CHECK((run<IN_PLACE, T>(lib, temp.get(), bytes, set, IN_PLACE ? set : out.get(), n, s)));
  });

  // Validate against CUB on one input, in strata's run only and once per case.
  static std::set<int> validated;
  if (lib == library::strata && validated.insert(log2_n).second)
  {
    strata_bench::device_array<T> a(items);
    strata_bench::device_array<T> b(items);
    std::size_t cub_bytes = 0;
    STRATA_BENCH_CHECK((run<IN_PLACE, T>(library::cub, nullptr, cub_bytes, inputs.at(0), b.get(), n, 0)));
    strata_bench::device_array<char> cub_temp(cub_bytes);
    if (IN_PLACE)
    {
      STRATA_BENCH_CHECK(cudaMemcpy(a.get(), inputs.at(0), items * sizeof(T), cudaMemcpyDeviceToDevice));
      STRATA_BENCH_CHECK(cudaMemcpy(b.get(), inputs.at(0), items * sizeof(T), cudaMemcpyDeviceToDevice));
    }
    else
    {
      STRATA_BENCH_CHECK(cudaMemset(a.get(), 0xa5, items * sizeof(T)));
      STRATA_BENCH_CHECK(cudaMemset(b.get(), 0x5a, items * sizeof(T)));
    }
    STRATA_BENCH_CHECK((run<IN_PLACE, T>(library::strata, temp.get(), bytes, inputs.at(0), a.get(), n, 0)));
    STRATA_BENCH_CHECK((run<IN_PLACE, T>(library::cub, cub_temp.get(), cub_bytes, inputs.at(0), b.get(), n, 0)));
    std::vector<T> ha(items), hb(items);
    STRATA_BENCH_CHECK(cudaMemcpy(ha.data(), a.get(), items * sizeof(T), cudaMemcpyDeviceToHost));
    STRATA_BENCH_CHECK(cudaMemcpy(hb.data(), b.get(), items * sizeof(T), cudaMemcpyDeviceToHost));
    if (std::memcmp(ha.data(), hb.data(), items * sizeof(T)) != 0)
    {
      state.SkipWithError("strata and cub disagree");
    }
  }
}

// adjacent_difference/<left_copy|left_in_place>/<type>/2^k/<library> for every size and library.
template <bool IN_PLACE, typename T>
void register_case()
{
  for (int log2_n : {16, 20, 24, 28})
  {
    for (library lib : {library::strata, library::cub, library::copy})
    {
      const std::string name = std::string("adjacent_difference/") + (IN_PLACE ? "left_in_place/" : "left_copy/")
                             + strata_bench::type_name<T>() + "/2^" + std::to_string(log2_n) + "/" + name_of(lib);
      benchmark::RegisterBenchmark(name.c_str(),
                                   [log2_n, lib](benchmark::State& st) {
                                     bench<IN_PLACE, T>(st, log2_n, lib);
                                   })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    }
  }
}
} // namespace

int main(int argc, char** argv)
{
  register_case<false, std::int32_t>();
  register_case<false, std::int64_t>();
  register_case<true, std::int32_t>();
  return strata_bench::run_benchmarks(argc, argv);
}
