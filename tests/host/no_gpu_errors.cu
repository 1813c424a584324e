// Without a usable GPU (no driver, a driver too old, no device), a call says which call failed, what is missing
// and what to do, instead of the runtime's bare "CUDA driver version is insufficient for CUDA runtime version".
#include <strata/execution/execution.cuh>

#include <thrust/iterator/counting_iterator.h>

#include "catch2_shim.hpp"

#include <string>

namespace
{
bool contains(const std::string& text, const std::string& part)
{
  return text.find(part) != std::string::npos;
}
} // namespace

TEST_CASE("the errors that mean no GPU can run the program say what is missing and what to do", "[host][error]")
{
  const std::string driver = strata::cuda_error(cudaErrorInsufficientDriver, "strata::reduce").what();
  CAPTURE(driver);
  CHECK(contains(driver, "strata::reduce: "));
  CHECK(contains(driver, "(cudaErrorInsufficientDriver)"));
  CHECK(contains(driver, "no usable NVIDIA driver"));
  CHECK(contains(driver, "install a driver for CUDA " + std::to_string(CUDART_VERSION / 1000) + "."));

  const std::string device = strata::cuda_error(cudaErrorNoDevice, "strata::sort").what();
  CAPTURE(device);
  CHECK(contains(device, "strata::sort: "));
  CHECK(contains(device, "no CUDA GPU is visible"));
  CHECK(contains(device, "CUDA_VISIBLE_DEVICES"));

  const std::string arch = strata::cuda_error(cudaErrorNoKernelImageForDevice, "strata::inclusive_scan").what();
  CAPTURE(arch);
  CHECK(contains(arch, "CMAKE_CUDA_ARCHITECTURES"));

  // Any other error: the runtime's description and name only.
  const std::string memory = strata::cuda_error(cudaErrorMemoryAllocation, "strata::reduce").what();
  CAPTURE(memory);
  CHECK(memory
        == std::string("strata::reduce: ") + cudaGetErrorString(cudaErrorMemoryAllocation)
             + " (cudaErrorMemoryAllocation)");
}

TEST_CASE("without a usable GPU a frontend call throws an error naming the call and what is missing", "[host][error]")
{
  int devices                = 0;
  const cudaError_t counting = cudaGetDeviceCount(&devices);
  if (counting == cudaSuccess && devices > 0)
  {
    STRATA_TEST_SKIP("this machine has a usable GPU");
  }
  cudaGetLastError();
  try
  {
    (void) strata::reduce(strata::par, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(1000));
    FAIL("strata::reduce returned without a GPU");
  }
  catch (const strata::cuda_error& e)
  {
    const std::string what = e.what();
    CAPTURE(what, counting);
    CHECK(e.error() == counting);
    CHECK(contains(what, "strata::reduce: "));
    CHECK((contains(what, "no usable NVIDIA driver") || contains(what, "no CUDA GPU is visible")));
  }
}
