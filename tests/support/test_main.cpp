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

int main(int argc, char* argv[])
{
#if STRATA_TEST_NEEDS_GPU
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
