// One call of thrust::reduce on a device_vector<int>, for scripts/compile_time.sh (twin: strata_reduce.cu).
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/system/cuda/execution_policy.h>

int sum(const thrust::device_vector<int>& v, cudaStream_t stream)
{
  return thrust::reduce(thrust::cuda::par.on(stream), v.begin(), v.end());
}
