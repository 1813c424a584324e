// DeviceSegmentedScan::InclusiveSegmentedSum: strata against CUB on the same buffers in one process, int32 and float
// items at 2^20, 2^24 and 2^28 in the segment cases of segment_cases.cuh (CSR offsets, begin = offsets, end = offsets
// + 1). CCCL 3.0 has no cub::DeviceSegmentedScan, so CUB's side is what a CUB user writes today:
// cub::DeviceScan::InclusiveSumByKey over a key per item, its segment's index (made once per case, outside the timed
// region; it also reads those keys). int32 items are random words (the sums wrap the same in both libraries and are
// compared exactly); float items are in [0, 1), and strata's sums are checked against CUB's to a relative 1e-3.
// Each case is registered as ".../strata", ".../cub" and ".../copy" (a device-to-device cudaMemcpyAsync moving the
// bytes strata's scan reads and writes). GB/s counts each run's own traffic: strata the items and offsets read and
// the sums written, cub the items and keys read and the sums written.
#include <strata/device/device_segmented_scan.cuh>

#include <cub/device/device_scan.cuh>

#include <cuda/std/functional>

#include "bench_util.cuh"
#include "segment_cases.cuh"

#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace
{
using strata_bench::distribution;
using strata_bench::segment_lengths;

enum class library
{
  strata,
  cub,
  copy
};

// keys[i] = the segment of item i (offsets[s] <= i < offsets[s + 1]), by a binary search of the offsets.
__global__ void segment_keys_kernel(const int* offsets, int num_segments, int* keys, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    int lo = 0;
    int hi = num_segments;
    while (hi - lo > 1)
    {
      const int mid = (lo + hi) / 2;
      if (static_cast<std::size_t>(offsets[mid]) <= i)
      {
        lo = mid;
      }
      else
      {
        hi = mid;
      }
    }
    keys[i] = lo;
  }
}

// The inputs of one case, rotated through more than twice the L2: the items of each set, beside them a copy of the
// offsets and the keys of their own; and one library's call on input set `turn`, both phases.
template <typename T>
class workload
{
public:
  explicit workload(const std::vector<int>& offsets)
      : segments_(static_cast<int>(offsets.size() - 1))
      , items_(static_cast<std::size_t>(offsets.back()))
      , offsets_(items_.sets() * offsets.size())
      , keys_(items_.sets() * items_.size())
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
      segment_keys_kernel<<<1024, 256>>>(offsets_at(s), segments_, keys_at(s), items_.size());
      STRATA_BENCH_CHECK(cudaGetLastError());
    }
    STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  }

  template <library LIB>
  cudaError_t run(void* d_temp, std::size_t& bytes, std::size_t turn, T* d_out, cudaStream_t s) const
  {
    if constexpr (LIB == library::strata)
    {
      const int* d_offsets = offsets_at(turn);
      return strata::DeviceSegmentedScan::InclusiveSegmentedSum(d_temp, bytes, items_.at(turn), d_out, d_offsets,
                                                                d_offsets + 1, segments_, s);
    }
    else
    {
      return cub::DeviceScan::InclusiveSumByKey(d_temp, bytes, keys_at(turn), items_.at(turn), d_out,
                                                static_cast<int>(items_.size()), cuda::std::equal_to<>{}, s);
    }
  }

  std::size_t items() const
  {
    return items_.size();
  }

private:
  int* offsets_at(std::size_t turn) const
  {
    return offsets_.get() + turn % items_.sets() * (static_cast<std::size_t>(segments_) + 1);
  }
  int* keys_at(std::size_t turn) const
  {
    return keys_.get() + turn % items_.sets() * items_.size();
  }

  int segments_;
  strata_bench::rotating_inputs<T> items_;
  strata_bench::device_array<int> offsets_;
  strata_bench::device_array<int> keys_;
};

template <library LIB, typename T>
void bench(benchmark::State& state, segment_lengths lengths, int log2_n)
{
  const std::vector<int>& offsets = strata_bench::host_offsets(lengths, log2_n);
  const std::size_t items         = std::size_t(1) << log2_n;
  const std::size_t segments      = offsets.size() - 1;
  const std::size_t strata_bytes  = 2 * items * sizeof(T) + offsets.size() * sizeof(int);
  const std::size_t cub_bytes     = 2 * items * sizeof(T) + items * sizeof(int);

  if constexpr (LIB == library::copy)
  {
    strata_bench::time_copy(state, strata_bytes);
    strata_bench::set_counters(state, items, strata_bytes);
  }
  else
  {
    const workload<T> work(offsets);
    strata_bench::device_array<T> out(items);
    const auto run = [&](void* d_temp, std::size_t& bytes, std::size_t turn, cudaStream_t s) {
      return work.template run<LIB>(d_temp, bytes, turn, out.get(), s);
    };
    strata_bench::two_phase_turns<decltype(run)> timed(run);
    timed.time(state);
    strata_bench::set_counters(state, items, LIB == library::strata ? strata_bytes : cub_bytes);
    state.counters["segments"] = static_cast<double>(segments);

    // Validate against cub on the same input, in strata's run only and once per case, both outputs poisoned first.
    static std::set<std::tuple<distribution, int, int>> validated;
    if (LIB == library::strata && validated.insert(std::make_tuple(lengths.kind, lengths.mean, log2_n)).second)
    {
      strata_bench::device_array<T> cub_out(items);
      const auto cub_run = [&](void* d_temp, std::size_t& bytes, std::size_t turn, cudaStream_t s) {
        return work.template run<library::cub>(d_temp, bytes, turn, cub_out.get(), s);
      };
      strata_bench::two_phase_turns<decltype(cub_run)> cub_timed(cub_run);
      STRATA_BENCH_CHECK(cudaMemset(out.get(), 0xa5, items * sizeof(T)));
      STRATA_BENCH_CHECK(cudaMemset(cub_out.get(), 0x5a, items * sizeof(T)));
      timed.once(0);
      cub_timed.once(0);
      std::vector<T> a(items), b(items);
      STRATA_BENCH_CHECK(cudaMemcpy(a.data(), out.get(), items * sizeof(T), cudaMemcpyDeviceToHost));
      STRATA_BENCH_CHECK(cudaMemcpy(b.data(), cub_out.get(), items * sizeof(T), cudaMemcpyDeviceToHost));
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
  const char* lib = LIB == library::strata ? "/strata" : LIB == library::cub ? "/cub" : "/copy";
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
      const std::string base = "segmented_scan/" + strata_bench::case_name(lengths) + "/" + strata_bench::type_name<T>()
                             + "/2^" + std::to_string(log2_n);
      register_one<library::strata, T>(base, lengths, log2_n);
      register_one<library::cub, T>(base, lengths, log2_n);
      register_one<library::copy, T>(base, lengths, log2_n);
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
