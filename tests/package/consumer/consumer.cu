// Uses a warp primitive in a kernel and the backend's device cache from the host.
#include <strata/strata.cuh>

#include <cstdio>

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

int main()
{
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
  {
    std::printf("consumer: built against strata %d.%d; no GPU here, kernel not run\n", STRATA_VERSION_MAJOR,
                STRATA_VERSION_MINOR);
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
  int* d_in = nullptr;
  int* d_out = nullptr;
  int h_out = 0;
  bool ok = cudaMalloc(&d_in, sizeof(h_in)) == cudaSuccess && cudaMalloc(&d_out, sizeof(int)) == cudaSuccess
         && cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice) == cudaSuccess;
  if (ok)
  {
    warp_sum<<<1, 32>>>(d_in, d_out);
    ok = cudaMemcpy(&h_out, d_out, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess && h_out == 528;
  }
  cudaFree(d_in);
  cudaFree(d_out);
  std::printf("consumer: ptx %d, warp sum %d (%s)\n", ptx, h_out, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
