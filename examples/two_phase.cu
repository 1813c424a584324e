// strata's device layer with CUB's two-phase API and a buffer the caller owns: ask each algorithm how much
// temporary storage it needs (null storage), allocate once what the larger asks for, and run both on a stream.
// Nothing synchronizes until the caller does; no memory is allocated behind the caller's back. The program checks
// the results on the host.
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

#include "example_util.cuh"

int main()
{
  example::require_gpu("two_phase");
  const int n = 1 << 20;
  std::vector<int> h_in(n);
  for (int i = 0; i < n; ++i)
  {
    h_in[i] = i % 7 - 3;
  }
  cudaStream_t stream;
  example::check(cudaStreamCreate(&stream), "cudaStreamCreate");
  int *d_in = nullptr, *d_sum = nullptr, *d_running = nullptr;
  example::check(cudaMalloc(&d_in, n * sizeof(int)), "cudaMalloc");
  example::check(cudaMalloc(&d_sum, sizeof(int)), "cudaMalloc");
  example::check(cudaMalloc(&d_running, n * sizeof(int)), "cudaMalloc");
  example::check(cudaMemcpyAsync(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice, stream),
                 "cudaMemcpyAsync");

  // Phase one: the sizes (no work is done, nothing is launched).
  size_t reduce_bytes = 0, scan_bytes = 0;
  example::check(strata::DeviceReduce::Sum(nullptr, reduce_bytes, d_in, d_sum, n), "DeviceReduce::Sum (size)");
  example::check(strata::DeviceScan::InclusiveSum(nullptr, scan_bytes, d_in, d_running, n),
                 "DeviceScan::InclusiveSum (size)");
  size_t temp_bytes = std::max(reduce_bytes, scan_bytes);
  void* d_temp      = nullptr;
  example::check(cudaMalloc(&d_temp, temp_bytes), "cudaMalloc");

  // Phase two: the work, one call after the other on the stream, both in the same buffer (stream order keeps them
  // apart).
  example::check(strata::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_sum, n, stream), "DeviceReduce::Sum");
  example::check(strata::DeviceScan::InclusiveSum(d_temp, temp_bytes, d_in, d_running, n, stream),
                 "DeviceScan::InclusiveSum");

  int sum = 0;
  std::vector<int> running(n);
  example::check(cudaMemcpyAsync(&sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  example::check(cudaMemcpyAsync(running.data(), d_running, n * sizeof(int), cudaMemcpyDeviceToHost, stream),
                 "cudaMemcpyAsync");
  example::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  for (void* p : {static_cast<void*>(d_in), static_cast<void*>(d_sum), static_cast<void*>(d_running), d_temp})
  {
    example::check(cudaFree(p), "cudaFree");
  }
  example::check(cudaStreamDestroy(stream), "cudaStreamDestroy");

  const bool ok = example::is_running_sum(h_in, running) && sum == std::accumulate(h_in.begin(), h_in.end(), 0);
  std::printf("two_phase: %zu bytes of temporary storage (reduce asked %zu, scan %zu); sum %d; running sums %d %d %d "
              "%d ...\n",
              temp_bytes, reduce_bytes, scan_bytes, sum, running[0], running[1], running[2], running[3]);
  return example::report("two_phase", ok);
}
