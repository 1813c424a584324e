// strata quick start: the std-like frontend on a stream. Temporary storage comes from strata's pool; errors throw
// strata::cuda_error. The program checks every result on the host and prints what it computed.
#include <strata/execution/execution.cuh>

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include <cstdio>
#include <exception>

#include "example_util.cuh"

struct square
{
  __host__ __device__ int operator()(int x) const
  {
    return x * x;
  }
};

struct is_odd
{
  __host__ __device__ bool operator()(int x) const
  {
    return x % 2 != 0;
  }
};

int main()
try
{
  example::require_gpu("quick_start");
  const int n = 10000;
  cudaStream_t stream;
  example::check(cudaStreamCreate(&stream), "cudaStreamCreate");
  const auto policy = strata::par.on(stream);

  thrust::device_vector<int> v(n), running(n), squares(n);
  strata::sequence(policy, v.begin(), v.end(), 1);             // 1, 2, ..., n
  const int sum  = strata::reduce(policy, v.begin(), v.end()); // waits for the result
  const auto odd = strata::count_if(policy, v.begin(), v.end(), is_odd{});
  strata::inclusive_scan(policy, v.begin(), v.end(), running.begin());      // 1, 3, 6, 10, ...
  strata::transform(policy, v.begin(), v.end(), squares.begin(), square{}); // 1, 4, 9, 16, ...
  example::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");

  const thrust::host_vector<int> h_running = running, h_squares = squares;
  bool ok = sum == n * (n + 1) / 2 && odd == n / 2;
  for (int i = 0; i < n; ++i)
  {
    const int x = i + 1;
    ok          = ok && h_running[i] == x * (x + 1) / 2 && h_squares[i] == x * x;
  }
  std::printf("quick_start: 1 + ... + %d = %d, %d of them odd; running sums %d %d %d %d ...; squares %d %d %d %d ...\n",
              n, sum, static_cast<int>(odd), h_running[0], h_running[1], h_running[2], h_running[3], h_squares[0],
              h_squares[1], h_squares[2], h_squares[3]);
  example::check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  return example::report("quick_start", ok);
}
catch (const std::exception& e)
{
  std::fprintf(stderr, "quick_start: %s\n", e.what());
  return 1;
}
