// Uses strata the ways a user would: a warp primitive in a kernel, the backend's device cache from the host, and a
// device algorithm (DeviceReduce::Sum, both phases), which needs the device headers and the backend library. The
// device algorithm is compiled and linked even where there is no GPU to run it, so an install that loses a device
// header or the backend fails the build.
#include <strata/device/device_reduce.cuh>
#include <strata/strata.cuh>

#include <cstdio>
#include <vector>

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
    std::printf("consumer: built against strata %d.%d with a warp kernel and DeviceReduce::Sum; no GPU here, "
                "nothing run\n",
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

  std::printf("consumer: ptx %d, warp sum %d (%s), DeviceReduce::Sum of 1..%d = %lld (%s)\n", ptx, h_out,
              warp_ok ? "ok" : "WRONG", n, sum, reduce_ok ? "ok" : "WRONG");
  return warp_ok && reduce_ok ? 0 : 1;
}
