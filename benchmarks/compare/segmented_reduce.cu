// DeviceSegmentedReduce: strata against cub::DeviceSegmentedReduce on the same buffers in one process. Sum of int32
// and float items at 2^20, 2^24 and 2^28, in segments given CSR-style by one array of num_segments + 1 offsets (begin
// = offsets, end = offsets + 1), drawn on the host once per case, outside the timed region:
//   segmented_reduce/uniform_<m>/<type>/...    lengths uniform in [1, 2m - 1] for m = 4, 64, 4096 and 1048576 (the
//                                              last from 2^24 items on: 2^20 items would be a single segment)
//   segmented_reduce/power_law_64/<type>/...   lengths k in [1, 2^20] with probability about k^-1.79: 64 on average,
//                                              most segments short and a few of up to 2^20 items
//   segmented_reduce/giant_tiny/<type>/...     one segment of half the items, amid segments 1 to 8 items long
// The segment that reaches the last item is cut there. int32 items are random words (the sums wrap, the same in both
// libraries, and are compared exactly); float items are in [0, 1), so that no sum cancels, and strata's sums are
// checked against CUB's to a relative 1e-3, as the two group the additions differently.
// Each case is registered as ".../strata", ".../cub" and ".../copy": a device-to-device cudaMemcpyAsync whose reads and
// writes add up to the bytes the reduction moves. uniform_1048576 also has ".../read": a kernel that only reads the
// items (16-byte loads, XORed into a register, one word written per block), the bound of a pass that reads the input
// once, which a reduction of long segments should come close to. scripts/compare_report.py prints the ratios (other
// time / strata time). GB/s counts each run's own traffic: for strata, cub and copy the items and the offsets read and
// the sums written, for read the items.
#include <strata/device/device_segmented_reduce.cuh>

#include <cub/device/device_segmented_reduce.cuh>

#include "bench_util.cuh"
#include "segment_cases.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace
{
enum class library
{
  strata,
  cub,
  copy,
  read
};

using strata_bench::distribution;
using strata_bench::segment_lengths;

// The inputs of one case, rotated through more than twice the L2: the items of each set and beside them a copy of the
// offsets of their own (so that a timed run finds its offsets no more in the L2 than its items); and one library's
// call on input set `turn`, both phases (the size query costs no device time).
template <typename T>
class workload
{
public:
  explicit workload(const std::vector<int>& offsets)
      : segments_(static_cast<int>(offsets.size() - 1))
      , items_(static_cast<std::size_t>(offsets.back()))
      , offsets_(items_.sets() * offsets.size())
  {
    for (std::size_t s = 0; s < items_.sets(); ++s)
    {
      if constexpr (std::is_same<T, float>::value)
      {
        strata_bench::fill_unit_kernel<<<1024, 256>>>(items_.at(s), items_.size(), 777 + s);
        STRATA_BENCH_CHECK(cudaGetLastError());
      }
      STRATA_BENCH_CHECK(
        cudaMemcpy(offsets_at(s), offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
    }
    STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  }

  template <library LIB>
  cudaError_t run(void* d_temp, std::size_t& bytes, std::size_t turn, T* d_sums, cudaStream_t s) const
  {
    const int* d_offsets = offsets_at(turn);
    if constexpr (LIB == library::strata)
    {
      return strata::DeviceSegmentedReduce::Sum(d_temp, bytes, items_.at(turn), d_sums, segments_, d_offsets,
                                                d_offsets + 1, s);
    }
    else
    {
      return cub::DeviceSegmentedReduce::Sum(d_temp, bytes, items_.at(turn), d_sums, segments_, d_offsets,
                                             d_offsets + 1, s);
    }
  }

private:
  int* offsets_at(std::size_t turn) const
  {
    return offsets_.get() + turn % items_.sets() * (static_cast<std::size_t>(segments_) + 1);
  }

  int segments_;
  strata_bench::rotating_inputs<T> items_;
  strata_bench::device_array<int> offsets_;
};

template <library LIB, typename T>
void bench(benchmark::State& state, segment_lengths lengths, int log2_n)
{
  const std::vector<int>& offsets = strata_bench::host_offsets(lengths, log2_n);
  const std::size_t items         = std::size_t(1) << log2_n;
  const std::size_t segments      = offsets.size() - 1;
  const std::size_t in_bytes      = items * sizeof(T);
  const std::size_t moved_bytes   = in_bytes + offsets.size() * sizeof(int) + segments * sizeof(T);

  if constexpr (LIB == library::copy)
  {
    strata_bench::time_copy(state, moved_bytes);
    strata_bench::set_counters(state, items, moved_bytes);
  }
  else if constexpr (LIB == library::read)
  {
    strata_bench::time_read<T>(state, items);
    strata_bench::set_counters(state, items, in_bytes);
  }
  else
  {
    const workload<T> work(offsets);
    strata_bench::device_array<T> sums(segments);
    const auto run = [&](void* d_temp, std::size_t& bytes, std::size_t turn, cudaStream_t s) {
      return work.template run<LIB>(d_temp, bytes, turn, sums.get(), s);
    };
    strata_bench::two_phase_turns<decltype(run)> timed(run);
    timed.time(state);
    strata_bench::set_counters(state, items, moved_bytes);
    state.counters["segments"] = static_cast<double>(segments);

    // Validate against cub on the same input, in strata's run only and once per case (Google Benchmark calls this
    // function several times while it sizes the run), with both outputs poisoned first.
    static std::set<std::tuple<distribution, int, int>> validated;
    if (LIB == library::strata && validated.insert(std::make_tuple(lengths.kind, lengths.mean, log2_n)).second)
    {
      strata_bench::device_array<T> cub_sums(segments);
      const auto cub_run = [&](void* d_temp, std::size_t& bytes, std::size_t turn, cudaStream_t s) {
        return work.template run<library::cub>(d_temp, bytes, turn, cub_sums.get(), s);
      };
      strata_bench::two_phase_turns<decltype(cub_run)> cub_timed(cub_run);
      STRATA_BENCH_CHECK(cudaMemset(sums.get(), 0xa5, segments * sizeof(T)));
      STRATA_BENCH_CHECK(cudaMemset(cub_sums.get(), 0x5a, segments * sizeof(T)));
      timed.once(0);
      cub_timed.once(0);
      std::vector<T> a(segments), b(segments);
      STRATA_BENCH_CHECK(cudaMemcpy(a.data(), sums.get(), segments * sizeof(T), cudaMemcpyDeviceToHost));
      STRATA_BENCH_CHECK(cudaMemcpy(b.data(), cub_sums.get(), segments * sizeof(T), cudaMemcpyDeviceToHost));
      if (!strata_bench::same_sums(a, b))
      {
        state.SkipWithError("strata and cub disagree");
      }
    }
  }
}

template <library LIB, typename T>
void register_one(const std::string& base, segment_lengths lengths, int log2_n)
{
  const char* lib = LIB == library::strata ? "/strata"
                  : LIB == library::cub    ? "/cub"
                  : LIB == library::copy   ? "/copy"
                                           : "/read";
  benchmark::RegisterBenchmark((base + lib).c_str(),
                               [lengths, log2_n](benchmark::State& st) {
                                 bench<LIB, T>(st, lengths, log2_n);
                               })
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
}

// The cases of one type: every distribution of lengths at every size that has more than one segment.
template <typename T>
void register_cases()
{
  for (const segment_lengths& lengths : strata_bench::segment_cases())
  {
    for (int log2_n : {20, 24, 28})
    {
      if (lengths.kind == distribution::uniform && lengths.mean >= (1 << log2_n))
      {
        continue;
      }
      const std::string base = "segmented_reduce/" + strata_bench::case_name(lengths) + "/"
                             + strata_bench::type_name<T>() + "/2^" + std::to_string(log2_n);
      register_one<library::strata, T>(base, lengths, log2_n);
      register_one<library::cub, T>(base, lengths, log2_n);
      register_one<library::copy, T>(base, lengths, log2_n);
      if (lengths.kind == distribution::uniform && lengths.mean == 1 << 20)
      {
        register_one<library::read, T>(base, lengths, log2_n);
      }
    }
  }
}
} // namespace

int main(int argc, char** argv)
{
  register_cases<std::int32_t>();
  register_cases<float>();
  return strata_bench::run_benchmarks(argc, argv);
}
