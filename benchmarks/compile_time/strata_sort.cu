// One strata::sort of a device_vector<unsigned>, for scripts/compile_time.sh (twin: thrust_sort.cu).
#include <strata/execution/sort.cuh>

#include <thrust/device_vector.h>

void sort(thrust::device_vector<unsigned>& v, cudaStream_t stream)
{
  strata::sort(strata::par.on(stream), v.begin(), v.end());
}
