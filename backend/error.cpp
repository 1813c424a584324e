// The error category of CUDA runtime errors. The errors that mean no GPU can run the program (no driver, no
// device, a driver too old, an architecture not compiled for) also say what to do.
#include <strata/backend/error.hpp>

#include <cuda_runtime_api.h>

#include <string>

namespace strata
{
namespace backend
{
namespace
{
// What a user must do about the errors that mean no GPU can run this program, or nothing.
std::string remedy(cudaError_t error)
{
  const std::string runtime = std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10);
  switch (error)
  {
    case cudaErrorInsufficientDriver:
      return "no usable NVIDIA driver: none is installed, or it is older than this program's CUDA runtime (" + runtime
           + ") needs; install a driver for CUDA " + runtime + " or newer (nvidia-smi shows the driver's CUDA version)";
    case cudaErrorNoDevice:
      return "no CUDA GPU is visible to this process: nvidia-smi lists the machine's GPUs, and "
             "CUDA_VISIBLE_DEVICES may hide them";
    case cudaErrorNoKernelImageForDevice:
      return "this GPU's architecture is not among those the program was compiled for: add it to "
             "CMAKE_CUDA_ARCHITECTURES (or nvcc's -arch)";
    case cudaErrorUnsupportedPtxVersion:
      return "the NVIDIA driver is older than the compiler that built this program (CUDA " + runtime
           + "): update the driver";
    case cudaErrorSystemDriverMismatch:
      return "the NVIDIA kernel driver and its user-mode library are of different versions: reboot after a driver "
             "update";
    case cudaErrorDevicesUnavailable:
      return "every GPU is busy or in exclusive-process compute mode";
    default:
      return {};
  }
}

class cuda_error_category final : public std::error_category
{
public:
  const char* name() const noexcept override
  {
    return "cuda";
  }
  std::string message(int value) const override
  {
    const auto error  = static_cast<cudaError_t>(value);
    std::string text  = std::string(cudaGetErrorString(error)) + " (" + cudaGetErrorName(error) + ")";
    const auto advice = remedy(error);
    return advice.empty() ? text : text + ": " + advice;
  }
};
} // namespace

const std::error_category& cuda_category() noexcept
{
  static const cuda_error_category category;
  return category;
}
} // namespace backend
} // namespace strata
