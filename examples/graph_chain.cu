// A chain of device calls whose counts never visit the host, captured once into a CUDA graph and replayed: keep the
// readings above a threshold (DeviceSelect::If writes how many to device memory), sort them (DeviceRadixSort) and
// sum them (DeviceReduce), the last two taking their number of items from that count through strata::device_count.
// Each replay sees new readings and so another count; the host reads nothing between the calls. The program checks
// every replay on the host.
#include <strata/device/device_radix_sort.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_select.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <numeric>
#include <vector>

#include "example_util.cuh"

namespace
{
struct above
{
  std::uint32_t threshold;
  __host__ __device__ bool operator()(std::uint32_t x) const
  {
    return x > threshold;
  }
};
} // namespace

int main()
{
  example::require_gpu("graph_chain");
  const int n = 1 << 20;
  cudaStream_t stream;
  example::check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  std::uint32_t *d_in = nullptr, *d_kept = nullptr, *d_sorted = nullptr;
  int* d_count              = nullptr;
  unsigned long long* d_sum = nullptr;
  example::check(cudaMalloc(&d_in, n * sizeof(std::uint32_t)), "cudaMalloc");
  example::check(cudaMalloc(&d_kept, n * sizeof(std::uint32_t)), "cudaMalloc");
  example::check(cudaMalloc(&d_sorted, n * sizeof(std::uint32_t)), "cudaMalloc");
  example::check(cudaMalloc(&d_count, sizeof(int)), "cudaMalloc");
  example::check(cudaMalloc(&d_sum, sizeof(unsigned long long)), "cudaMalloc");

  // The selection's count, in device memory, at most n: the number of items of the sort and the sum.
  const above keep{3000000000u};
  const strata::device_count<int> kept(d_count, n);

  // Temporary storage for each call, sized by the bound before the capture (a captured call allocates nothing).
  size_t select_bytes = 0, sort_bytes = 0, sum_bytes = 0;
  example::check(strata::DeviceSelect::If(nullptr, select_bytes, d_in, d_kept, d_count, n, keep), "If (size)");
  example::check(strata::DeviceRadixSort::SortKeys(nullptr, sort_bytes, d_kept, d_sorted, kept), "SortKeys (size)");
  example::check(strata::DeviceReduce::Sum(nullptr, sum_bytes, d_sorted, d_sum, kept), "Sum (size)");
  void *d_select_temp = nullptr, *d_sort_temp = nullptr, *d_sum_temp = nullptr;
  example::check(cudaMalloc(&d_select_temp, select_bytes), "cudaMalloc");
  example::check(cudaMalloc(&d_sort_temp, sort_bytes), "cudaMalloc");
  example::check(cudaMalloc(&d_sum_temp, sum_bytes), "cudaMalloc");

  // Capture the chain once.
  cudaGraph_t graph;
  example::check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  example::check(strata::DeviceSelect::If(d_select_temp, select_bytes, d_in, d_kept, d_count, n, keep, stream), "If");
  example::check(strata::DeviceRadixSort::SortKeys(d_sort_temp, sort_bytes, d_kept, d_sorted, kept, 0, 32, stream),
                 "SortKeys");
  example::check(strata::DeviceReduce::Sum(d_sum_temp, sum_bytes, d_sorted, d_sum, kept, stream), "Sum");
  example::check(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
  cudaGraphExec_t exec;
  example::check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");

  // Replay it over three sets of readings, each keeping a different number of them.
  bool ok = true;
  std::vector<std::uint32_t> h_in(n);
  std::uint64_t state = 88172645463325252ull;
  for (const std::uint32_t spread : {1000000000u, 3100000000u, 4294967295u})
  {
    for (std::uint32_t& x : h_in)
    {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      x = static_cast<std::uint32_t>(state % (static_cast<std::uint64_t>(spread) + 1));
    }
    example::check(cudaMemcpyAsync(d_in, h_in.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice, stream),
                   "cudaMemcpyAsync");
    example::check(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
    int count              = 0;
    unsigned long long sum = 0;
    example::check(cudaMemcpyAsync(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
    example::check(cudaMemcpyAsync(&sum, d_sum, sizeof(sum), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
    example::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    std::vector<std::uint32_t> sorted(static_cast<size_t>(count));
    example::check(cudaMemcpy(sorted.data(), d_sorted, sorted.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
                   "cudaMemcpy");

    std::vector<std::uint32_t> expected;
    std::copy_if(h_in.begin(), h_in.end(), std::back_inserter(expected), keep);
    std::sort(expected.begin(), expected.end());
    const unsigned long long expected_sum = std::accumulate(expected.begin(), expected.end(), 0ull);
    const bool replay_ok                  = sorted == expected && sum == expected_sum;
    std::printf("graph_chain: readings up to %u: %d kept, sum %llu%s\n", spread, count, sum,
                replay_ok ? "" : " (MISMATCH)");
    ok = ok && replay_ok;
  }

  example::check(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy");
  example::check(cudaGraphDestroy(graph), "cudaGraphDestroy");
  for (void* p : {static_cast<void*>(d_in), static_cast<void*>(d_kept), static_cast<void*>(d_sorted),
                  static_cast<void*>(d_count), static_cast<void*>(d_sum), d_select_temp, d_sort_temp, d_sum_temp})
  {
    example::check(cudaFree(p), "cudaFree");
  }
  example::check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  return example::report("graph_chain", ok);
}
