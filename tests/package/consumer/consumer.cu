// Uses strata the ways a user would: warp and block primitives in kernels, the backend's device cache from the host,
// a device algorithm (DeviceReduce::Sum, both phases) and the frontend (sort, inclusive_scan, reduce, and
// thrust::reduce given strata::par), which need the device headers and the backend library. Everything is compiled
// and linked even where there is no GPU to run it, so an install that loses a header or the backend, or a header
// that trips the consumer's warnings (-Wall -Wextra -Wshadow -Werror), fails the build.
#include <strata/block/block_load.cuh>
#include <strata/block/block_radix_sort.cuh>
#include <strata/block/block_reduce.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/execution/execution.cuh>
#include <strata/strata.cuh>

#include <thrust/device_vector.h>
#include <thrust/reduce.h>

#include <cstdio>
#include <vector>

constexpr int block_threads = 128;
constexpr int block_items   = 4;

// Loads, sorts, scans and reduces one tile: with every item 1, the block's result is the sum of (thread + 1).
__global__ void block_primitives(const int* in, int* out)
{
  using load_t   = strata::BlockLoad<int, block_threads, block_items, strata::BLOCK_LOAD_TRANSPOSE>;
  using reduce_t = strata::BlockReduce<int, block_threads>;
  using scan_t   = strata::BlockScan<int, block_threads>;
  using sort_t   = strata::BlockRadixSort<int, block_threads, block_items>;
  __shared__ union
  {
    typename load_t::TempStorage load;
    typename reduce_t::TempStorage reduce;
    typename scan_t::TempStorage scan;
    typename sort_t::TempStorage sort;
  } storage;
  int items[block_items];
  load_t(storage.load).Load(in, items);
  __syncthreads();
  sort_t(storage.sort).Sort(items);
  __syncthreads();
  int prefix = 0;
  scan_t(storage.scan).ExclusiveSum(items[0], prefix);
  __syncthreads();
  const int total = reduce_t(storage.reduce).Sum(prefix + items[block_items - 1]);
  if (threadIdx.x == 0)
  {
    *out = total;
  }
}

// The frontend on 1000 items of 3: sorted they stay, scanned they are 3, 6, ..., reduced 3 * 1000 * 1001 / 2.
static bool frontend()
{
  thrust::device_vector<unsigned> keys(1000, 3u);
  strata::sort(strata::par, keys.begin(), keys.end());
  strata::inclusive_scan(strata::par, keys.begin(), keys.end(), keys.begin());
  const unsigned last   = keys.back();
  const unsigned sum    = strata::reduce(strata::par, keys.begin(), keys.end());
  const unsigned thrust = thrust::reduce(strata::par, keys.begin(), keys.end());
  return last == 3000u && sum == 1501500u && thrust == sum;
}

static bool block()
{
  thrust::device_vector<int> in(block_threads * block_items, 1);
  thrust::device_vector<int> out(1);
  block_primitives<<<1, block_threads>>>(thrust::raw_pointer_cast(in.data()), thrust::raw_pointer_cast(out.data()));
  return out[0] == block_threads * (block_threads + 1) / 2;
}

__global__ void warp_sum(const int* in, int* out)
{
  using WarpReduce = strata::WarpReduce<int>;
  __shared__ typename WarpReduce::TempStorage temp;
  const int sum = WarpReduce(temp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0)
  {
    *out = sum;
  }
}

// Sums 1..n with DeviceReduce::Sum: the size query, cudaMalloc of the temporary storage, the run.
static bool device_sum(int n, long long& h_sum)
{
  std::vector<long long> h_in(n);
  for (int i = 0; i < n; ++i)
  {
    h_in[i] = i + 1;
  }
  long long* d_in  = nullptr;
  long long* d_sum = nullptr;
  void* d_temp     = nullptr;
  size_t bytes     = 0;
  bool ok          = cudaMalloc(&d_in, sizeof(long long) * n) == cudaSuccess
         && cudaMalloc(&d_sum, sizeof(long long)) == cudaSuccess
         && cudaMemcpy(d_in, h_in.data(), sizeof(long long) * n, cudaMemcpyHostToDevice) == cudaSuccess
         && strata::DeviceReduce::Sum(nullptr, bytes, d_in, d_sum, n) == cudaSuccess
         && cudaMalloc(&d_temp, bytes) == cudaSuccess
         && strata::DeviceReduce::Sum(d_temp, bytes, d_in, d_sum, n) == cudaSuccess
         && cudaMemcpy(&h_sum, d_sum, sizeof(long long), cudaMemcpyDeviceToHost) == cudaSuccess;
  cudaFree(d_temp);
  cudaFree(d_sum);
  cudaFree(d_in);
  return ok;
}

int main()
{
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
  {
    std::printf("consumer: built against strata %d.%d with warp and block kernels, DeviceReduce::Sum and the "
                "frontend; no GPU here, nothing run\n",
                STRATA_VERSION_MAJOR, STRATA_VERSION_MINOR);
    return 0;
  }
  int ptx = 0;
  if (strata::PtxVersion(ptx) != cudaSuccess)
  {
    return 1;
  }
  int h_in[32];
  for (int i = 0; i < 32; ++i)
  {
    h_in[i] = i + 1;
  }
  int* d_in    = nullptr;
  int* d_out   = nullptr;
  int h_out    = 0;
  bool warp_ok = cudaMalloc(&d_in, sizeof(h_in)) == cudaSuccess && cudaMalloc(&d_out, sizeof(int)) == cudaSuccess
              && cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice) == cudaSuccess;
  if (warp_ok)
  {
    warp_sum<<<1, 32>>>(d_in, d_out);
    warp_ok = cudaMemcpy(&h_out, d_out, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess && h_out == 528;
  }
  cudaFree(d_in);
  cudaFree(d_out);

  // Several tiles, so both passes of the reduction run.
  const int n            = 1000003;
  const long long expect = static_cast<long long>(n) * (n + 1) / 2;
  long long sum          = 0;
  const bool reduce_ok   = device_sum(n, sum) && sum == expect;

  const bool block_ok    = block();
  const bool frontend_ok = frontend();

  std::printf("consumer: ptx %d, warp sum %d (%s), DeviceReduce::Sum of 1..%d = %lld (%s), block primitives (%s), "
              "frontend (%s)\n",
              ptx, h_out, warp_ok ? "ok" : "WRONG", n, sum, reduce_ok ? "ok" : "WRONG", block_ok ? "ok" : "WRONG",
              frontend_ok ? "ok" : "WRONG");
  return warp_ok && reduce_ok && block_ok && frontend_ok ? 0 : 1;
}
