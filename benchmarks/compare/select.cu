// DeviceSelect and DevicePartition: strata against cub::DeviceSelect / cub::DevicePartition on the same buffers in
// one process. int32 and int64 items at 2^20, 2^24 and 2^28:
//   select/if_<p>pct/<type>/...             DeviceSelect::If with `x < threshold`, p = 50 and 1 percent selected (the
//                                           values are uniform in [0, 2^(bits-1)), so the threshold sets the rate to
//                                           within noise)
//   select/unique/<type>/...                DeviceSelect::Unique of runs of random length, 4 on average
//   select/unique_by_key/<type>/...         DeviceSelect::UniqueByKey of the same keys, with values of the same type
//   select/run_length_encode/<type>/...     DeviceRunLengthEncode::Encode of the same runs (int lengths)
//   select/reduce_by_key/<type>/...         DeviceReduce::ReduceByKey of the same keys, sums of values of the same type
//   select/reduce_by_key_f32/<type>/...     the same with float values (int32 keys only; the sums are checked against
//                                           CUB's to a relative 1e-3, as the two group the additions differently)
//   select/partition_if_50pct/<type>/...    DevicePartition::If with `x < threshold`, 50 percent selected
//   select/partition_three_way/<type>/...   DevicePartition::If with `x < threshold(33%)` and `x < threshold(66%)`:
//                                           about a third of the items in each part
// Each case is registered as ".../strata", ".../cub" and ".../copy": a device-to-device cudaMemcpyAsync of the input
// (it reads the input's bytes and writes as many), the lower bound on time of a call that writes every item. At 1
// percent, where a selection writes almost nothing, select_if also has ".../read": a kernel that only reads the input
// (16-byte loads, XORed into a register, one word written per block), the bound of a pass that reads the input once;
// strata is meant to reach 90% of its rate there. scripts/compare_report.py prints the ratios (other time / strata
// time). GB/s counts each run's own traffic: for strata and cub the input read and the items written (keys and values
// for UniqueByKey and ReduceByKey; the count of the last timed run, for select), for copy twice the input, for read the input.
#include <strata/device/device_partition.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_run_length_encode.cuh>
#include <strata/device/device_select.cuh>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>

#include "bench_util.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
enum class algorithm
{
  select_if,
  unique,
  unique_by_key,
  run_length_encode,
  reduce_by_key,
  reduce_by_key_float,
  partition_if,
  partition_three_way
};

// The algorithms that read values beside their keys (from the workload's `unselected_` buffer, into `second_`).
constexpr bool by_key(algorithm alg)
{
  return alg == algorithm::unique_by_key || alg == algorithm::reduce_by_key || alg == algorithm::reduce_by_key_float;
}

enum class library
{
  strata,
  cub,
  copy,
  read
};

// Bits of the values of the predicate cases: uniform in [0, 2^value_bits), non-negative in T.
template <typename T>
__host__ __device__ constexpr int value_bits()
{
  return 8 * int(sizeof(T)) - 1;
}

// The threshold that selects `pct` percent of values uniform in [0, 2^value_bits).
template <typename T>
T threshold_for(int pct)
{
  return static_cast<T>((std::uint64_t(1) << value_bits<T>()) / 100 * std::uint64_t(pct));
}

// A hash of an index and a seed (splitmix64's finalizer), uniform in all 64 bits.
__host__ __device__ inline std::uint64_t mix(std::uint64_t i, std::uint64_t seed)
{
  return strata_bench::mix64((i + 1) * 0x9e3779b97f4a7c15ULL ^ seed);
}

// Values uniform in [0, 2^value_bits).
template <typename T>
__global__ void fill_uniform_kernel(T* data, std::size_t n, std::uint64_t seed)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    data[i] = static_cast<T>(mix(i, seed) >> (64 - value_bits<T>()));
  }
}

// Runs of random length, 4 on average: a run starts wherever the hash of the index is 0 mod 4 (and at 0), so lengths
// are geometric. Each item is the index of its run's first item, so neighbouring runs always differ.
template <typename T>
__global__ void fill_runs_kernel(T* data, std::size_t n, std::uint64_t seed)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    std::size_t start = i;
    while (start != 0 && (mix(start, seed) & 3) != 0)
    {
      --start;
    }
    data[i] = static_cast<T>(start);
  }
}

// The inputs of one case (rotated through more than twice the L2) and one library's call on them, both phases (the
// size query costs no device time). Input set `turn` is the turn-th of the rotation.
template <algorithm ALG, typename T>
class workload
{
public:
  workload(int n, int pct)
      : n_(n)
      , values_(static_cast<std::size_t>(n))
      , op_{threshold_for<T>(pct)}
      , second_op_{threshold_for<T>(2 * pct)}
      , second_(ALG == algorithm::partition_three_way || by_key(ALG) ? static_cast<std::size_t>(n) : 0)
      , unselected_(ALG == algorithm::partition_three_way || by_key(ALG) ? static_cast<std::size_t>(n) : 0)
      , lengths_(ALG == algorithm::run_length_encode ? static_cast<std::size_t>(n) : 0)
  {
    for (std::size_t s = 0; s < values_.sets(); ++s)
    {
      if constexpr (ALG == algorithm::unique || by_key(ALG) || ALG == algorithm::run_length_encode)
      {
        fill_runs_kernel<<<1024, 256>>>(values_.at(s), values_.size(), 777 + s);
      }
      else
      {
        fill_uniform_kernel<<<1024, 256>>>(values_.at(s), values_.size(), 777 + s);
      }
      STRATA_BENCH_CHECK(cudaGetLastError());
    }
    if constexpr (ALG == algorithm::reduce_by_key_float)
    {
      static_assert(sizeof(T) == sizeof(float), "float values live in the keys' buffers");
      strata_bench::fill_unit_kernel<<<1024, 256>>>(reinterpret_cast<float*>(unselected_.get()),
                                                    static_cast<std::size_t>(n), 999);
      STRATA_BENCH_CHECK(cudaGetLastError());
    }
    else if constexpr (by_key(ALG))
    {
      fill_uniform_kernel<<<1024, 256>>>(unselected_.get(), static_cast<std::size_t>(n), 999);
      STRATA_BENCH_CHECK(cudaGetLastError());
    }
    STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  }

  template <library LIB>
  cudaError_t run(void* d_temp, std::size_t& bytes, std::size_t turn, T* d_out, int* d_num_selected,
                  cudaStream_t s) const
  {
    const T* d_in = values_.at(turn);
    if constexpr (ALG == algorithm::select_if)
    {
      if constexpr (LIB == library::strata)
      {
        return strata::DeviceSelect::If(d_temp, bytes, d_in, d_out, d_num_selected, n_, op_, s);
      }
      else
      {
        return cub::DeviceSelect::If(d_temp, bytes, d_in, d_out, d_num_selected, n_, op_, s);
      }
    }
    else if constexpr (ALG == algorithm::unique)
    {
      if constexpr (LIB == library::strata)
      {
        return strata::DeviceSelect::Unique(d_temp, bytes, d_in, d_out, d_num_selected, n_, s);
      }
      else
      {
        return cub::DeviceSelect::Unique(d_temp, bytes, d_in, d_out, d_num_selected, n_, s);
      }
    }
    else if constexpr (ALG == algorithm::unique_by_key)
    {
      // Values: the workload's `unselected_` buffer (uniform values) in, `second_` out.
      if constexpr (LIB == library::strata)
      {
        return strata::DeviceSelect::UniqueByKey(d_temp, bytes, d_in, static_cast<const T*>(unselected_.get()), d_out,
                                                 second_.get(), d_num_selected, n_, s);
      }
      else
      {
        return cub::DeviceSelect::UniqueByKey(d_temp, bytes, d_in, static_cast<const T*>(unselected_.get()), d_out,
                                              second_.get(), d_num_selected, n_, s);
      }
    }
    else if constexpr (ALG == algorithm::reduce_by_key || ALG == algorithm::reduce_by_key_float)
    {
      // Values: the workload's `unselected_` buffer in (as floats for reduce_by_key_float), sums to `second_`.
      using V           = std::conditional_t<ALG == algorithm::reduce_by_key_float, float, T>;
      const V* d_values = reinterpret_cast<const V*>(unselected_.get());
      V* d_sums         = reinterpret_cast<V*>(second_.get());
      if constexpr (LIB == library::strata)
      {
        return strata::DeviceReduce::ReduceByKey(d_temp, bytes, d_in, d_out, d_values, d_sums, d_num_selected,
                                                 cuda::std::plus<>{}, n_, s);
      }
      else
      {
        return cub::DeviceReduce::ReduceByKey(d_temp, bytes, d_in, d_out, d_values, d_sums, d_num_selected,
                                              cuda::std::plus<>{}, n_, s);
      }
    }
    else if constexpr (ALG == algorithm::run_length_encode)
    {
      // The run lengths go to the workload's buffer; d_num_selected holds the number of runs.
      if constexpr (LIB == library::strata)
      {
        return strata::DeviceRunLengthEncode::Encode(d_temp, bytes, d_in, d_out, lengths_.get(), d_num_selected, n_, s);
      }
      else
      {
        return cub::DeviceRunLengthEncode::Encode(d_temp, bytes, d_in, d_out, lengths_.get(), d_num_selected, n_, s);
      }
    }
    else if constexpr (ALG == algorithm::partition_if)
    {
      if constexpr (LIB == library::strata)
      {
        return strata::DevicePartition::If(d_temp, bytes, d_in, d_out, d_num_selected, n_, op_, s);
      }
      else
      {
        return cub::DevicePartition::If(d_temp, bytes, d_in, d_out, d_num_selected, n_, op_, s);
      }
    }
    else
    {
      // The first part goes to d_out, the others to this workload's buffers; d_num_selected holds two counts.
      if constexpr (LIB == library::strata)
      {
        return strata::DevicePartition::If(d_temp, bytes, d_in, d_out, second_.get(), unselected_.get(), d_num_selected,
                                           n_, op_, second_op_, s);
      }
      else
      {
        return cub::DevicePartition::If(d_temp, bytes, d_in, d_out, second_.get(), unselected_.get(), d_num_selected,
                                        n_, op_, second_op_, s);
      }
    }
  }

  // The three-way partition's second and unselected parts of the last run (UniqueByKey: its values out and in).
  T* second() const
  {
    return second_.get();
  }
  T* unselected() const
  {
    return unselected_.get();
  }
  // The run-length encoding's lengths of the last run.
  int* lengths() const
  {
    return lengths_.get();
  }

private:
  int n_;
  strata_bench::rotating_inputs<T> values_;
  strata_bench::less_than<T> op_;
  strata_bench::less_than<T> second_op_;
  strata_bench::device_array<T> second_;
  strata_bench::device_array<T> unselected_;
  strata_bench::device_array<int> lengths_;
};

// Items of T a run writes: every item for a partition, the selected ones otherwise (with their values, or their int
// lengths rounded up to whole items).
template <algorithm ALG, typename T>
std::size_t items_written(std::size_t n, std::size_t selected)
{
  return ALG == algorithm::select_if || ALG == algorithm::unique ? selected
       : by_key(ALG)                                             ? 2 * selected // keys and values
       : ALG == algorithm::run_length_encode ? selected + (selected * sizeof(int) + sizeof(T) - 1) / sizeof(T)
                                             : n;
}

template <library LIB, algorithm ALG, typename T>
void bench(benchmark::State& state, int log2_n, int pct)
{
  const int n                = 1 << log2_n;
  const std::size_t items    = static_cast<std::size_t>(n);
  const std::size_t in_bytes = items * sizeof(T);

  if constexpr (LIB == library::copy)
  {
    strata_bench::time_copy(state, 2 * in_bytes); // copies in_bytes: reads the input's bytes and writes as many
    strata_bench::set_counters(state, items, 2 * in_bytes);
  }
  else if constexpr (LIB == library::read)
  {
    strata_bench::time_read<T>(state, items);
    strata_bench::set_counters(state, items, in_bytes);
  }
  else
  {
    const workload<ALG, T> work(n, pct);
    strata_bench::device_array<T> out(items);
    strata_bench::device_array<int> num_selected(2);
    std::size_t bytes = 0;
    STRATA_BENCH_CHECK(work.template run<LIB>(nullptr, bytes, 0, out.get(), num_selected.get(), 0));
    strata_bench::device_array<char> temp(bytes);
    std::size_t turn = 0;
    strata_bench::time_loop(state, [&](cudaStream_t s) {
      STRATA_BENCH_CHECK(work.template run<LIB>(temp.get(), bytes, turn++, out.get(), num_selected.get(), s));
    });
    int selected = 0;
    STRATA_BENCH_CHECK(cudaMemcpy(&selected, num_selected.get(), sizeof(int), cudaMemcpyDeviceToHost));
    strata_bench::set_counters(state, items,
                               (by_key(ALG) ? 2 : 1) * in_bytes
                                 + items_written<ALG, T>(items, static_cast<std::size_t>(selected)) * sizeof(T));
    state.counters["selected"] = static_cast<double>(selected);

    // Validate against cub on the same input, in strata's run only and once per case (Google Benchmark calls this
    // function several times while it sizes the run), with both outputs poisoned first: the same count and the same
    // items (for a partition, the whole output: the rejected items too, in CUB's reverse order).
    static std::set<std::pair<int, int>> validated;
    if (LIB == library::strata && validated.insert({log2_n, pct}).second)
    {
      std::size_t cub_bytes = 0;
      STRATA_BENCH_CHECK(work.template run<library::cub>(nullptr, cub_bytes, 0, out.get(), num_selected.get(), 0));
      strata_bench::device_array<char> cub_temp(cub_bytes);
      strata_bench::device_array<T> cub_out(items);
      strata_bench::device_array<int> cub_num_selected(2);
      // The counts and every item written by the last run into `d_out` (and, three-way, the workload's buffers);
      // empty when a count is out of range.
      const auto written_by = [&](const T* d_out, const int* d_num, std::vector<int>& counts) {
        counts.assign(2, 0);
        STRATA_BENCH_CHECK(cudaMemcpy(counts.data(), d_num, 2 * sizeof(int), cudaMemcpyDeviceToHost));
        std::vector<T> all;
        const auto append = [&](const T* d, int count) {
          const std::size_t old = all.size();
          all.resize(old + static_cast<std::size_t>(count));
          STRATA_BENCH_CHECK(cudaMemcpy(all.data() + old, d, count * sizeof(T), cudaMemcpyDeviceToHost));
        };
        if constexpr (ALG == algorithm::run_length_encode)
        {
          counts[1] = 0;
          if (counts[0] >= 0 && counts[0] <= n)
          {
            append(d_out, counts[0]);
            // The lengths, as bytes in whole items of T (zero-padded).
            std::vector<int> lengths(static_cast<std::size_t>(counts[0]));
            STRATA_BENCH_CHECK(
              cudaMemcpy(lengths.data(), work.lengths(), lengths.size() * sizeof(int), cudaMemcpyDeviceToHost));
            std::vector<T> packed((lengths.size() * sizeof(int) + sizeof(T) - 1) / sizeof(T), T(0));
            std::memcpy(packed.data(), lengths.data(), lengths.size() * sizeof(int));
            all.insert(all.end(), packed.begin(), packed.end());
          }
        }
        else if constexpr (ALG == algorithm::reduce_by_key_float)
        {
          counts[1] = 0; // the float sums are compared apart, to a tolerance
          if (counts[0] >= 0 && counts[0] <= n)
          {
            append(d_out, counts[0]);
          }
        }
        else if constexpr (by_key(ALG))
        {
          counts[1] = 0;
          if (counts[0] >= 0 && counts[0] <= n)
          {
            append(d_out, counts[0]);
            append(work.second(), counts[0]);
          }
        }
        else if constexpr (ALG == algorithm::partition_three_way)
        {
          if (counts[0] >= 0 && counts[1] >= 0 && counts[0] + counts[1] <= n)
          {
            append(d_out, counts[0]);
            append(work.second(), counts[1]);
            append(work.unselected(), n - counts[0] - counts[1]);
          }
        }
        else
        {
          counts[1] = 0;
          if (counts[0] >= 0 && counts[0] <= n)
          {
            append(d_out, static_cast<int>(items_written<ALG, T>(items, static_cast<std::size_t>(counts[0]))));
          }
        }
        return all;
      };
      STRATA_BENCH_CHECK(cudaMemset(out.get(), 0xa5, in_bytes));
      STRATA_BENCH_CHECK(cudaMemset(cub_out.get(), 0x5a, in_bytes));
      STRATA_BENCH_CHECK(cudaMemset(num_selected.get(), 0xff, 2 * sizeof(int)));
      if constexpr (by_key(ALG) || ALG == algorithm::partition_three_way)
      {
        STRATA_BENCH_CHECK(cudaMemset(work.second(), 0xa5, in_bytes));
      }
      if constexpr (ALG == algorithm::run_length_encode)
      {
        STRATA_BENCH_CHECK(cudaMemset(work.lengths(), 0xa5, items * sizeof(int)));
      }
      STRATA_BENCH_CHECK(cudaMemset(cub_num_selected.get(), 0xfe, 2 * sizeof(int)));
      std::vector<int> counts, cub_counts;
      STRATA_BENCH_CHECK(work.template run<library::strata>(temp.get(), bytes, 0, out.get(), num_selected.get(), 0));
      const std::vector<T> a = written_by(out.get(), num_selected.get(), counts);
      std::vector<float> sums;
      if constexpr (ALG == algorithm::reduce_by_key_float)
      {
        sums.resize(static_cast<std::size_t>(std::max(counts[0], 0)));
        STRATA_BENCH_CHECK(cudaMemcpy(sums.data(), work.second(), sums.size() * sizeof(float), cudaMemcpyDeviceToHost));
      }
      STRATA_BENCH_CHECK(
        work.template run<library::cub>(cub_temp.get(), cub_bytes, 0, cub_out.get(), cub_num_selected.get(), 0));
      const std::vector<T> b = written_by(cub_out.get(), cub_num_selected.get(), cub_counts);
      bool sums_agree        = true;
      if constexpr (ALG == algorithm::reduce_by_key_float)
      {
        std::vector<float> cub_sums(sums.size());
        STRATA_BENCH_CHECK(
          cudaMemcpy(cub_sums.data(), work.second(), cub_sums.size() * sizeof(float), cudaMemcpyDeviceToHost));
        for (std::size_t i = 0; i < sums.size() && sums_agree; ++i)
        {
          sums_agree = std::fabs(sums[i] - cub_sums[i]) <= 1e-3f * std::max(1.0f, std::fabs(cub_sums[i]));
        }
      }
      if (counts != cub_counts || a != b || (a.empty() && counts[0] != 0) || !sums_agree)
      {
        state.SkipWithError("strata and cub disagree");
      }
    }
  }
}

template <library LIB, algorithm ALG, typename T>
void register_one(const std::string& base, int log2_n, int pct)
{
  const char* lib = LIB == library::strata ? "/strata"
                  : LIB == library::cub    ? "/cub"
                  : LIB == library::copy   ? "/copy"
                                           : "/read";
  benchmark::RegisterBenchmark((base + lib).c_str(),
                               [log2_n, pct](benchmark::State& st) {
                                 bench<LIB, ALG, T>(st, log2_n, pct);
                               })
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
}

// The cases of one algorithm and type at every size; `pct`: the percentages selected (unused by Unique).
template <algorithm ALG, typename T>
void register_case(std::initializer_list<int> pcts)
{
  for (int pct : pcts)
  {
    for (int log2_n : {20, 24, 28})
    {
      const std::string name = ALG == algorithm::select_if           ? "select/if_" + std::to_string(pct) + "pct/"
                             : ALG == algorithm::unique              ? std::string("select/unique/")
                             : ALG == algorithm::unique_by_key       ? std::string("select/unique_by_key/")
                             : ALG == algorithm::run_length_encode   ? std::string("select/run_length_encode/")
                             : ALG == algorithm::reduce_by_key       ? std::string("select/reduce_by_key/")
                             : ALG == algorithm::reduce_by_key_float ? std::string("select/reduce_by_key_f32/")
                             : ALG == algorithm::partition_if ? "select/partition_if_" + std::to_string(pct) + "pct/"
                                                              : std::string("select/partition_three_way/");
      const std::string base = name + strata_bench::type_name<T>() + "/2^" + std::to_string(log2_n);
      register_one<library::strata, ALG, T>(base, log2_n, pct);
      register_one<library::cub, ALG, T>(base, log2_n, pct);
      register_one<library::copy, ALG, T>(base, log2_n, pct);
      if (ALG == algorithm::select_if && pct == 1)
      {
        register_one<library::read, ALG, T>(base, log2_n, pct);
      }
    }
  }
}
} // namespace

int main(int argc, char** argv)
{
  register_case<algorithm::select_if, std::int32_t>({50, 1});
  register_case<algorithm::select_if, std::int64_t>({50, 1});
  register_case<algorithm::unique, std::int32_t>({0});
  register_case<algorithm::unique, std::int64_t>({0});
  register_case<algorithm::unique_by_key, std::int32_t>({0});
  register_case<algorithm::unique_by_key, std::int64_t>({0});
  register_case<algorithm::run_length_encode, std::int32_t>({0});
  register_case<algorithm::run_length_encode, std::int64_t>({0});
  register_case<algorithm::reduce_by_key, std::int32_t>({0});
  register_case<algorithm::reduce_by_key, std::int64_t>({0});
  register_case<algorithm::reduce_by_key_float, std::int32_t>({0});
  register_case<algorithm::partition_if, std::int32_t>({50});
  register_case<algorithm::partition_if, std::int64_t>({50});
  register_case<algorithm::partition_three_way, std::int32_t>({33});
  register_case<algorithm::partition_three_way, std::int64_t>({33});
  return strata_bench::run_benchmarks(argc, argv);
}
