// One strata::inclusive_scan of a device_vector<unsigned>, for scripts/compile_time.sh (twin: thrust_scan.cu).
#include <strata/execution/scan.cuh>

#include <thrust/device_vector.h>

void scan(thrust::device_vector<unsigned>& v, cudaStream_t stream)
{
  strata::inclusive_scan(strata::par.on(stream), v.begin(), v.end(), v.begin());
}
