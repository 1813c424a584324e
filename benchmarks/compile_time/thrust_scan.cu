// One thrust::inclusive_scan of a device_vector<unsigned>, for scripts/compile_time.sh (twin: strata_scan.cu).
#include <thrust/device_vector.h>
#include <thrust/scan.h>
#include <thrust/system/cuda/execution_policy.h>

void scan(thrust::device_vector<unsigned>& v, cudaStream_t stream)
{
  thrust::inclusive_scan(thrust::cuda::par.on(stream), v.begin(), v.end(), v.begin());
}
