// One two-phase cub::DeviceRadixSort::SortKeys over unsigned, for scripts/compile_time.sh (twin:
// strata_device_sort.cu).
#include <cub/device/device_radix_sort.cuh>

cudaError_t sort(void* d_temp, size_t& bytes, const unsigned* d_in, unsigned* d_out, int n, cudaStream_t stream)
{
  return cub::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, n, 0, 32, stream);
}
