// One strata::sort of a device_vector<int>, for scripts/compile_time.sh --against.
#include <strata/execution/sort.cuh>

#include <thrust/device_vector.h>

void sort(thrust::device_vector<int>& v, cudaStream_t stream)
{
  strata::sort(strata::par.on(stream), v.begin(), v.end());
}
