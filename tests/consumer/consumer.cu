// A user's translation unit: the frontend, the device layer and the block primitives, each instantiated.
#include <strata/block/block_load.cuh>
#include <strata/block/block_radix_sort.cuh>
#include <strata/block/block_reduce.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/execution/execution.cuh>

#include <thrust/device_vector.h>
#include <thrust/reduce.h>

#include <cstdio>

constexpr int threads = 128;
constexpr int items   = 4;

__global__ void block_kernel(const int* in, int* out)
{
  using load_t   = strata::BlockLoad<int, threads, items, strata::BLOCK_LOAD_TRANSPOSE>;
  using reduce_t = strata::BlockReduce<int, threads>;
  using scan_t   = strata::BlockScan<int, threads>;
  using sort_t   = strata::BlockRadixSort<int, threads, items>;
  __shared__ union
  {
    typename load_t::TempStorage load;
    typename reduce_t::TempStorage reduce;
    typename scan_t::TempStorage scan;
    typename sort_t::TempStorage sort;
  } storage;
  int thread_items[items];
  load_t(storage.load).Load(in + blockIdx.x * threads * items, thread_items);
  __syncthreads();
  sort_t(storage.sort).Sort(thread_items);
  __syncthreads();
  int prefix = 0;
  scan_t(storage.scan).ExclusiveSum(thread_items[0], prefix);
  __syncthreads();
  const int total = reduce_t(storage.reduce).Sum(prefix + thread_items[items - 1]);
  if (threadIdx.x == 0)
  {
    out[blockIdx.x] = total;
  }
}

int main()
{
  thrust::device_vector<unsigned> keys(1000, 3u);
  strata::sort(strata::par, keys.begin(), keys.end());
  strata::inclusive_scan(strata::par, keys.begin(), keys.end(), keys.begin());
  const unsigned sum        = strata::reduce(strata::par, keys.begin(), keys.end());
  const unsigned thrust_sum = thrust::reduce(strata::par, keys.begin(), keys.end());

  thrust::device_vector<int> in(threads * items, 1);
  thrust::device_vector<int> out(1);
  block_kernel<<<1, threads>>>(thrust::raw_pointer_cast(in.data()), thrust::raw_pointer_cast(out.data()));
  std::size_t bytes = 0;
  strata::DeviceReduce::Sum(nullptr, bytes, thrust::raw_pointer_cast(in.data()), thrust::raw_pointer_cast(out.data()),
                            static_cast<int>(in.size()));
  std::printf("%u %u %d\n", sum, thrust_sum, static_cast<int>(out[0]));
  return 0;
}
