// One thrust::sort of a device_vector<unsigned>, for scripts/compile_time.sh (twin: strata_sort.cu).
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>

void sort(thrust::device_vector<unsigned>& v, cudaStream_t stream)
{
  thrust::sort(thrust::cuda::par.on(stream), v.begin(), v.end());
}
