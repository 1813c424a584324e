// DeviceFind: strata against Thrust in one process (the toolkit's CUB has no DeviceFind).
//
//   find_if/<match_1pct|absent>/i32/2^k/<library>, k = 20, 24, 28: the index of the first item equal to a marker
//     that lies at n / 100 (or nowhere), in inputs rotated through more memory than the L2 holds, every other item odd
//     and the marker even. strata: DeviceFind::FindIf, then the index copied to page-locked host memory; thrust:
//     thrust::find_if(thrust::cuda::par.on(s), ...), which returns once the host holds the result; read: a kernel
//     that only reads the whole input (what a search that cannot stop early costs).
//   lower_bound/<sorted|random>/i32/2^k/<library>, k = 20, 24: the lower bound of 2^k values (in order, or shuffled)
//     in 2^k sorted keys. strata: DeviceFind::LowerBound; thrust: thrust::lower_bound's vectorized form.
// Each strata run is checked against Thrust's answer once per case.
#include <strata/device/device_find.cuh>

#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/find.h>
#include <thrust/sort.h>

#include "bench_util.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace
{
enum class library
{
  strata,
  thrust,
  read
};

const char* name_of(library lib)
{
  return lib == library::strata ? "strata" : lib == library::thrust ? "thrust" : "read";
}

// x == 2 (every other item is odd).
struct is_marker
{
  __host__ __device__ bool operator()(int x) const
  {
    return x == 2;
  }
};

__global__ void fill_odd(int* data, std::size_t n, std::uint32_t seed)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    data[i] = static_cast<int>((static_cast<std::uint32_t>(i) * 2654435761u + seed) | 1u);
  }
}

// Input sets of n odd items, the marker at `at` in each (none for at >= n), more sets than the L2 holds.
class marked_inputs
{
public:
  marked_inputs(std::size_t n, std::size_t at)
  {
    const std::size_t bytes = std::max<std::size_t>(1, n * sizeof(int));
    const std::size_t sets =
      std::min<std::size_t>(64, std::max<std::size_t>(1, (2 * strata_bench::l2_bytes() + bytes - 1) / bytes));
    for (std::size_t s = 0; s < sets; ++s)
    {
      sets_.push_back(std::make_unique<strata_bench::device_array<int>>(n));
      fill_odd<<<1024, 256>>>(sets_.back()->get(), n, static_cast<std::uint32_t>(s * 7919));
      if (at < n)
      {
        const int marker = 2;
        STRATA_BENCH_CHECK(cudaMemcpy(sets_.back()->get() + at, &marker, sizeof(int), cudaMemcpyHostToDevice));
      }
    }
    STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  }
  const int* next()
  {
    const int* p = sets_[cursor_]->get();
    cursor_      = (cursor_ + 1) % sets_.size();
    return p;
  }

private:
  std::vector<std::unique_ptr<strata_bench::device_array<int>>> sets_;
  std::size_t cursor_ = 0;
};

void find_if(benchmark::State& state, int log2_n, bool absent, library lib)
{
  const std::size_t n = std::size_t(1) << log2_n;
  strata_bench::set_counters(state, n, n * sizeof(int));
  if (lib == library::read)
  {
    strata_bench::time_read<int>(state, n);
    return;
  }
  const std::size_t at = absent ? n : n / 100;
  marked_inputs inputs(n, at);
  strata_bench::device_array<long long> d_index(1);
  long long* h_index = nullptr;
  STRATA_BENCH_CHECK(cudaMallocHost(&h_index, sizeof(long long)));
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK(strata::DeviceFind::FindIf(nullptr, bytes, inputs.next(), d_index.get(), is_marker{}, n));
  strata_bench::device_array<char> temp(bytes);
  long long found = -1;
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    const int* in = inputs.next();
    if (lib == library::strata)
    {
      STRATA_BENCH_CHECK(strata::DeviceFind::FindIf(temp.get(), bytes, in, d_index.get(), is_marker{}, n, s));
      STRATA_BENCH_CHECK(cudaMemcpyAsync(h_index, d_index.get(), sizeof(long long), cudaMemcpyDeviceToHost, s));
    }
    else
    {
      found = thrust::find_if(thrust::cuda::par.on(s), in, in + n, is_marker{}) - in;
    }
  });
  STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  const long long got = lib == library::strata ? *h_index : found;
  if (got != static_cast<long long>(at))
  {
    state.SkipWithError("wrong index");
  }
  cudaFreeHost(h_index);
}

__global__ void sorted_keys(int* keys, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    keys[i] = static_cast<int>(3 * i);
  }
}

__global__ void probe_values(int* values, std::size_t n, bool in_order)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    const std::uint32_t j = in_order ? static_cast<std::uint32_t>(i) : static_cast<std::uint32_t>(i) * 2654435761u;
    values[i]             = static_cast<int>((j % static_cast<std::uint32_t>(n)) * 3 + (j & 3) - 1);
  }
}

void lower_bound(benchmark::State& state, int log2_n, bool in_order, library lib)
{
  const std::size_t n = std::size_t(1) << log2_n;
  strata_bench::set_counters(state, n, 2 * n * sizeof(int));
  strata_bench::device_array<int> keys(n), values(n), out(n), check(n);
  sorted_keys<<<1024, 256>>>(keys.get(), n);
  probe_values<<<1024, 256>>>(values.get(), n, in_order);
  STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  const auto run = [&](library which, int* dst, cudaStream_t s) {
    if (which == library::strata)
    {
      STRATA_BENCH_CHECK(strata::DeviceFind::LowerBound(keys.get(), n, values.get(), n, dst, cuda::std::less<>{}, s));
    }
    else
    {
      thrust::lower_bound(thrust::cuda::par.on(s), keys.get(), keys.get() + n, values.get(), values.get() + n, dst);
    }
  };
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    run(lib, out.get(), s);
  });
  static std::set<std::pair<int, bool>> validated;
  if (lib == library::strata && validated.insert({log2_n, in_order}).second)
  {
    run(library::thrust, check.get(), 0);
    std::vector<int> a(n), b(n);
    STRATA_BENCH_CHECK(cudaMemcpy(a.data(), out.get(), n * sizeof(int), cudaMemcpyDeviceToHost));
    STRATA_BENCH_CHECK(cudaMemcpy(b.data(), check.get(), n * sizeof(int), cudaMemcpyDeviceToHost));
    if (a != b)
    {
      state.SkipWithError("strata and thrust disagree");
    }
  }
}

void add(const std::string& name, std::function<void(benchmark::State&)> f)
{
  benchmark::RegisterBenchmark(name.c_str(), f)->UseManualTime()->Unit(benchmark::kMicrosecond);
}
} // namespace

int main(int argc, char** argv)
{
  for (const bool absent : {false, true})
  {
    for (int log2_n : {20, 24, 28})
    {
      for (library lib : {library::strata, library::thrust, library::read})
      {
        add(std::string("find_if/") + (absent ? "absent" : "match_1pct") + "/i32/2^" + std::to_string(log2_n) + "/"
              + name_of(lib),
            [=](benchmark::State& st) {
              find_if(st, log2_n, absent, lib);
            });
      }
    }
  }
  for (const bool in_order : {true, false})
  {
    for (int log2_n : {20, 24})
    {
      for (library lib : {library::strata, library::thrust})
      {
        add(std::string("lower_bound/") + (in_order ? "sorted" : "random") + "/i32/2^" + std::to_string(log2_n) + "/"
              + name_of(lib),
            [=](benchmark::State& st) {
              lower_bound(st, log2_n, in_order, lib);
            });
      }
    }
  }
  return strata_bench::run_benchmarks(argc, argv);
}
