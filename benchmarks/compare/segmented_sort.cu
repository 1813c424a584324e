// DeviceSegmentedSort: strata against cub::DeviceSegmentedSort on the same buffers in one process. In/out SortKeys of
// u32 keys and SortPairs of u32 keys with u32 values at 2^20, 2^24 and 2^28 items, in the segment cases of
// segment_cases.cuh (CSR offsets, begin = offsets, end = offsets + 1), drawn on the host once per case, outside the
// timed region:
//   segmented_sort/uniform_<m>/<types>/...    lengths uniform in [1, 2m - 1] for m = 4, 64, 4096 and 1048576 (the
//                                             last from 2^24 items on)
//   segmented_sort/power_law_64/<types>/...   lengths k in [1, 2^20] with probability about k^-1.79, 64 on average
//   segmented_sort/giant_tiny/<types>/...     one segment of half the items, amid segments 1 to 8 items long
// <types> is u32 (keys only) or u32_u32 (pairs). Keys and values are random words (radix_sort_inputs.cuh's sort_inputs),
// rotated with a copy of the offsets of their own beside each set through more than twice the L2.
// Before a case is timed, strata's run sorts input set 0 with both libraries into poisoned outputs and compares them
// bit for bit, keys and values: both sorts are stable (CCCL 3.0's SortPairs runs the code of its StableSortPairs), so
// the values must agree too; where they do not, the case is skipped with an error and not timed.
// Each case is registered as ".../strata", ".../cub" and ".../copy": a device-to-device cudaMemcpyAsync whose reads and
// writes add up to the bytes counted for the sorts. GB/s counts the least traffic of any sort, the same for both
// libraries: the keys (and values) read and written once and the offsets read (a sort of long segments makes several
// passes over them). scripts/compare_report.py prints the ratios (other time / strata time).
#include <strata/device/device_segmented_sort.cuh>

#include <cub/device/device_segmented_sort.cuh>

#include "bench_util.cuh"
#include "radix_sort_inputs.cuh"
#include "segment_cases.cuh"

#include <cstdint>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace
{
enum class library
{
  strata,
  cub,
  copy
};

using strata_bench::distribution;
using strata_bench::no_values;
using strata_bench::segment_lengths;
using strata_bench::sort_outputs;
using KeyT = std::uint32_t;

// The inputs of one case, rotated through more than twice the L2: the keys (and values) of each set and beside them a
// copy of the offsets of their own; and one library's call on input set `turn`, both phases (the size query costs no
// device time).
template <typename ValueT>
class workload
{
public:
  explicit workload(const std::vector<int>& offsets)
      : segments_(static_cast<int>(offsets.size() - 1))
      , in_(static_cast<std::size_t>(offsets.back()), strata_bench::key_spec{})
      , offsets_(in_.sets() * offsets.size())
  {
    for (std::size_t s = 0; s < in_.sets(); ++s)
    {
      STRATA_BENCH_CHECK(
        cudaMemcpy(offsets_at(s), offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
    }
    STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  }

  template <library LIB>
  cudaError_t run(void* d_temp, std::size_t& bytes, std::size_t turn, sort_outputs<KeyT, ValueT>& out,
                  cudaStream_t s) const
  {
    const int* d_offsets = offsets_at(turn);
    const int n          = static_cast<int>(in_.size());
    if constexpr (!sort_outputs<KeyT, ValueT>::HAS_VALUES)
    {
      if constexpr (LIB == library::strata)
      {
        return strata::DeviceSegmentedSort::SortKeys(d_temp, bytes, in_.keys(turn), out.keys.get(), n, segments_,
                                                     d_offsets, d_offsets + 1, s);
      }
      else
      {
        return cub::DeviceSegmentedSort::SortKeys(d_temp, bytes, in_.keys(turn), out.keys.get(), n, segments_,
                                                  d_offsets, d_offsets + 1, s);
      }
    }
    else
    {
      if constexpr (LIB == library::strata)
      {
        return strata::DeviceSegmentedSort::SortPairs(d_temp, bytes, in_.keys(turn), out.keys.get(), in_.values(turn),
                                                      out.values.get(), n, segments_, d_offsets, d_offsets + 1, s);
      }
      else
      {
        return cub::DeviceSegmentedSort::SortPairs(d_temp, bytes, in_.keys(turn), out.keys.get(), in_.values(turn),
                                                   out.values.get(), n, segments_, d_offsets, d_offsets + 1, s);
      }
    }
  }

private:
  int* offsets_at(std::size_t turn) const
  {
    return offsets_.get() + turn % in_.sets() * (static_cast<std::size_t>(segments_) + 1);
  }

  int segments_;
  strata_bench::sort_inputs<KeyT, ValueT> in_;
  strata_bench::device_array<int> offsets_;
};

// "" where strata's sort of input set 0 (`strata_timed`, into `out`) equals cub's bit for bit, else what differs.
template <typename ValueT, typename Timed>
std::string validate(const workload<ValueT>& work, Timed& strata_timed, sort_outputs<KeyT, ValueT>& out,
                     std::size_t items)
{
  sort_outputs<KeyT, ValueT> cub_out(items);
  const auto cub_run = [&](void* d_temp, std::size_t& bytes, std::size_t turn, cudaStream_t s) {
    return work.template run<library::cub>(d_temp, bytes, turn, cub_out, s);
  };
  strata_bench::two_phase_turns<decltype(cub_run)> cub_timed(cub_run);
  out.poison(0xa5);
  cub_out.poison(0x5a);
  strata_timed.once(0);
  cub_timed.once(0);
  STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  const strata_bench::differences keys = strata_bench::compare_bits(out.keys.get(), cub_out.keys.get(), items);
  if (keys.count > 0)
  {
    return "strata and cub disagree: " + std::to_string(keys.count) + " keys differ, the first at "
         + std::to_string(keys.first);
  }
  if constexpr (sort_outputs<KeyT, ValueT>::HAS_VALUES)
  {
    const strata_bench::differences values = strata_bench::compare_bits(out.values.get(), cub_out.values.get(), items);
    if (values.count > 0)
    {
      return "strata and cub disagree: " + std::to_string(values.count) + " values differ, the first at "
           + std::to_string(values.first);
    }
  }
  return "";
}

template <library LIB, typename ValueT>
void bench(benchmark::State& state, const std::string& name, segment_lengths lengths, int log2_n)
{
  constexpr bool HAS_VALUES       = sort_outputs<KeyT, ValueT>::HAS_VALUES;
  const std::vector<int>& offsets = strata_bench::host_offsets(lengths, log2_n);
  const std::size_t items         = std::size_t(1) << log2_n;
  const std::size_t segments      = offsets.size() - 1;
  const std::size_t item_bytes    = sizeof(KeyT) + (HAS_VALUES ? sizeof(ValueT) : 0);
  const std::size_t moved_bytes   = 2 * items * item_bytes + offsets.size() * sizeof(int);

  if constexpr (LIB == library::copy)
  {
    strata_bench::time_copy(state, moved_bytes);
    strata_bench::set_counters(state, items, moved_bytes);
  }
  else
  {
    const workload<ValueT> work(offsets);
    sort_outputs<KeyT, ValueT> out(items);
    const auto run = [&](void* d_temp, std::size_t& bytes, std::size_t turn, cudaStream_t s) {
      return work.template run<LIB>(d_temp, bytes, turn, out, s);
    };
    strata_bench::two_phase_turns<decltype(run)> timed(run);

    // Validate against cub on the same input before timing, in strata's run only and once per case (Google Benchmark
    // calls this function several times while it sizes the run).
    static std::set<std::string> validated;
    if (LIB == library::strata && validated.insert(name).second)
    {
      const std::string problem = validate(work, timed, out, items);
      if (!problem.empty())
      {
        state.SkipWithError(problem.c_str());
        return;
      }
    }
    timed.time(state);
    strata_bench::set_counters(state, items, moved_bytes);
    state.counters["segments"] = static_cast<double>(segments);
  }
}

template <library LIB, typename ValueT>
void register_one(const std::string& base, segment_lengths lengths, int log2_n)
{
  const char* lib = LIB == library::strata ? "/strata" : LIB == library::cub ? "/cub" : "/copy";
  benchmark::RegisterBenchmark((base + lib).c_str(),
                               [base, lengths, log2_n](benchmark::State& st) {
                                 bench<LIB, ValueT>(st, base, lengths, log2_n);
                               })
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
}

// The cases of keys only (ValueT no_values) or pairs: every distribution of lengths at every size that has more than
// one segment.
template <typename ValueT>
void register_cases()
{
  std::string types = strata_bench::sort_type_name<KeyT>();
  if constexpr (!std::is_same<ValueT, no_values>::value)
  {
    types += "_" + strata_bench::sort_type_name<ValueT>();
  }
  for (const segment_lengths& lengths : strata_bench::segment_cases())
  {
    for (int log2_n : {20, 24, 28})
    {
      if (lengths.kind == distribution::uniform && lengths.mean >= (1 << log2_n))
      {
        continue;
      }
      const std::string base =
        "segmented_sort/" + strata_bench::case_name(lengths) + "/" + types + "/2^" + std::to_string(log2_n);
      register_one<library::strata, ValueT>(base, lengths, log2_n);
      register_one<library::cub, ValueT>(base, lengths, log2_n);
      register_one<library::copy, ValueT>(base, lengths, log2_n);
    }
  }
}
} // namespace

int main(int argc, char** argv)
{
  register_cases<no_values>();
  register_cases<std::uint32_t>();
  return strata_bench::run_benchmarks(argc, argv);
}
