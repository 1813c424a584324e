// One two-phase cub::DeviceReduce::Sum over int, for scripts/compile_time.sh (twin: strata_device_reduce.cu).
#include <cub/device/device_reduce.cuh>

cudaError_t sum(void* d_temp, size_t& bytes, const int* d_in, int* d_out, int n, cudaStream_t stream)
{
  return cub::DeviceReduce::Sum(d_temp, bytes, d_in, d_out, n, stream);
}
