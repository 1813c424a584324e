// One two-phase strata::DeviceReduce::Sum over int, for scripts/compile_time.sh (twin: cub_device_reduce.cu).
#include <strata/device/device_reduce.cuh>

cudaError_t sum(void* d_temp, size_t& bytes, const int* d_in, int* d_out, int n, cudaStream_t stream)
{
  return strata::DeviceReduce::Sum(d_temp, bytes, d_in, d_out, n, stream);
}
