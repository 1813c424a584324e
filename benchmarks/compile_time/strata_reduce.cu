// One call of strata::reduce on a device_vector<int>, for scripts/compile_time.sh (twin: thrust_reduce.cu).
#include <strata/execution/reduce.cuh>

#include <thrust/device_vector.h>

int sum(const thrust::device_vector<int>& v, cudaStream_t stream)
{
  return strata::reduce(strata::par.on(stream), v.begin(), v.end());
}
