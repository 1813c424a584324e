// An existing Thrust program switched to strata with one token: the execution policy. Every call below is spelled
// as Thrust spells it. With strata::par.on(stream) where the program had thrust::cuda::par.on(stream), the
// algorithms strata implements (sequence, transform, reduce, inclusive_scan, ...) run strata's code, found by
// argument-dependent lookup, and the one it does not (unique_count) runs Thrust's CUDA backend, on the same stream,
// with temporary storage from strata's pool. The program checks its results against the host.
#include <strata/execution/execution.cuh>

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/unique.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <numeric>
#include <vector>

#include "example_util.cuh"

// A pseudo-random value in [0, 1000) for each index.
struct scramble
{
  __host__ __device__ int operator()(int i) const
  {
    return (i * 7919) % 1000;
  }
};

int main()
try
{
  example::require_gpu("thrust_interop");
  const int n = 1 << 16;
  cudaStream_t stream;
  example::check(cudaStreamCreate(&stream), "cudaStreamCreate");

  const auto policy = strata::par.on(stream); // was: thrust::cuda::par.on(stream)

  thrust::device_vector<int> values(n);
  thrust::sequence(policy, values.begin(), values.end());                              // 0, 1, 2, ...
  thrust::transform(policy, values.begin(), values.end(), values.begin(), scramble{}); // strata's transform
  const long long total = thrust::reduce(policy, values.begin(), values.end(), 0LL);   // strata's reduce
  thrust::sort(policy, values.begin(), values.end());                                  // strata's sort
  const auto distinct = thrust::unique_count(policy, values.begin(), values.end());    // Thrust's unique_count
  thrust::inclusive_scan(policy, values.begin(), values.end(), values.begin());        // strata's scan
  example::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  const thrust::host_vector<int> running = values;

  std::vector<int> expected(n);
  for (int i = 0; i < n; ++i)
  {
    expected[i] = scramble{}(i);
  }
  std::sort(expected.begin(), expected.end());
  long long expected_distinct = 0;
  for (int i = 0; i < n; ++i)
  {
    expected_distinct += (i == 0 || expected[i] != expected[i - 1]) ? 1 : 0;
  }
  const bool ok = example::is_running_sum(expected, running)
               && total == std::accumulate(expected.begin(), expected.end(), 0LL) && distinct == expected_distinct;
  std::printf("thrust_interop: %d values total %lld, %lld distinct; running totals of the sorted values %d %d %d ... "
              "%d; "
              "strata's pool served up to %zu bytes of temporary storage\n",
              n, total, static_cast<long long>(distinct), running[0], running[1], running[2], running[n - 1],
              strata::memory_pool_stats().high_water_mark);
  example::check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  return example::report("thrust_interop", ok);
}
catch (const std::exception& e)
{
  std::fprintf(stderr, "thrust_interop: %s\n", e.what());
  return 1;
}
