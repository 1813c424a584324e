// strata quick start: a custom kernel built from strata's warp primitives, with CUB's names and contracts.
//
// Each warp of 32 threads sums its 32 values (WarpReduce) and turns them into running totals (WarpScan).
// The program checks the results against the host and prints a few of them.
#include <strata/warp/warp_reduce.cuh>
#include <strata/warp/warp_scan.cuh>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace
{
constexpr int BLOCK_THREADS   = 128;
constexpr int WARPS_PER_BLOCK = BLOCK_THREADS / 32;

__global__ void warp_totals(const int* in, int* running, int* warp_sums, int n)
{
  using WarpReduce = strata::WarpReduce<int>;
  using WarpScan   = strata::WarpScan<int>;
  __shared__ typename WarpReduce::TempStorage reduce_storage[WARPS_PER_BLOCK];
  __shared__ typename WarpScan::TempStorage scan_storage[WARPS_PER_BLOCK];

  const int i    = blockIdx.x * BLOCK_THREADS + threadIdx.x;
  const int warp = threadIdx.x / 32;
  const int x    = i < n ? in[i] : 0;

  int prefix = 0;
  WarpScan(scan_storage[warp]).InclusiveSum(x, prefix);
  const int sum = WarpReduce(reduce_storage[warp]).Sum(x);
  if (i < n)
  {
    running[i] = prefix;
  }
  if (threadIdx.x % 32 == 0)
  {
    warp_sums[i / 32] = sum;
  }
}

bool check(cudaError_t e, const char* what)
{
  if (e != cudaSuccess)
  {
    std::fprintf(stderr, "quick_start: %s: %s\n", what, cudaGetErrorString(e));
  }
  return e == cudaSuccess;
}
} // namespace

int main()
{
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
  {
    std::fprintf(stderr, "quick_start: no CUDA GPU on this machine; strata's examples need one to run.\n");
    return 1;
  }

  const int n     = 1 << 20;
  const int warps = n / 32;
  std::vector<int> h_in(n);
  std::srand(7);
  for (int& v : h_in)
  {
    v = std::rand() % 201 - 100;
  }

  int *d_in = nullptr, *d_running = nullptr, *d_sums = nullptr;
  bool ok = check(cudaMalloc(&d_in, n * sizeof(int)), "cudaMalloc") && check(cudaMalloc(&d_running, n * sizeof(int)), "cudaMalloc")
         && check(cudaMalloc(&d_sums, warps * sizeof(int)), "cudaMalloc")
         && check(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice), "cudaMemcpy");
  std::vector<int> h_running(n), h_sums(warps);
  if (ok)
  {
    warp_totals<<<n / BLOCK_THREADS, BLOCK_THREADS>>>(d_in, d_running, d_sums, n);
    ok = check(cudaGetLastError(), "launch")
      && check(cudaMemcpy(h_running.data(), d_running, n * sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy")
      && check(cudaMemcpy(h_sums.data(), d_sums, warps * sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy");
  }
  cudaFree(d_in);
  cudaFree(d_running);
  cudaFree(d_sums);
  if (!ok)
  {
    return 1;
  }

  int wrong = 0;
  for (int w = 0; w < warps; ++w)
  {
    int total = 0;
    for (int l = 0; l < 32; ++l)
    {
      total += h_in[w * 32 + l];
      wrong += h_running[w * 32 + l] != total;
    }
    wrong += h_sums[w] != total;
  }
  std::printf("quick_start: %d warps; warp 0 sums to %d, its running totals start %d %d %d ...\n", warps, h_sums[0],
              h_running[0], h_running[1], h_running[2]);
  std::printf("quick_start: %s\n", wrong == 0 ? "all results match the host" : "MISMATCH");
  return wrong == 0 ? 0 : 1;
}
