// One two-phase strata::DeviceRadixSort::SortKeys over unsigned, for scripts/compile_time.sh (twin:
// cub_device_sort.cu).
#include <strata/device/device_radix_sort.cuh>

cudaError_t sort(void* d_temp, size_t& bytes, const unsigned* d_in, unsigned* d_out, int n, cudaStream_t stream)
{
  return strata::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, n, 0, 32, stream);
}
