// One two-phase strata::DeviceScan::InclusiveSum over unsigned, for scripts/compile_time.sh (twin:
// cub_device_scan.cu).
#include <strata/device/device_scan.cuh>

cudaError_t scan(void* d_temp, size_t& bytes, const unsigned* d_in, unsigned* d_out, int n, cudaStream_t stream)
{
  return strata::DeviceScan::InclusiveSum(d_temp, bytes, d_in, d_out, n, stream);
}
