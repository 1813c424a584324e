// The Catch2 main of every strata test executable.
//
// GPU tests (STRATA_TEST_NEEDS_GPU=1) exit with STRATA_SKIP_RETURN_CODE when no CUDA device is usable, so CTest
// reports them as skipped on a machine without a GPU; host tests always run.
#if STRATA_CATCH2_MAJOR >= 3
#  include <catch2/catch_session.hpp>
#else
#  define CATCH_CONFIG_RUNNER
#  include <catch2/catch.hpp>
#endif

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char* argv[])
{
#if STRATA_TEST_NEEDS_GPU
  // Every kernel loaded before the first test: the tests that hold a stream behind a spinning gate kernel enqueue
  // algorithms behind it, and with CUDA's lazy loading the first launch of a kernel loads its module, which waits
  // for the gate kernel to finish. The caller's setting, if any, stands.
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  int devices = 0;
  const cudaError_t error = cudaGetDeviceCount(&devices);
  if (error != cudaSuccess || devices == 0)
  {
    std::printf("SKIPPED: no CUDA device (%s)\n", error != cudaSuccess ? cudaGetErrorString(error) : "0 devices");
    return STRATA_SKIP_RETURN_CODE;
  }
#endif
  return Catch::Session().run(argc, argv);
}
