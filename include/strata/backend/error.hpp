// The backend's error text (libstrata_backend): the std::error_category of CUDA runtime errors, one instance in the
// program, so that std::error_code values from any translation unit compare equal.
#pragma once

#include <system_error>

namespace strata
{
namespace backend
{
// Category of std::error_code values holding a cudaError_t; message() gives the error's description and name, and for
// the errors that mean no GPU can run the program (cudaErrorInsufficientDriver, cudaErrorNoDevice,
// cudaErrorNoKernelImageForDevice, ...) what is missing and what to do.
const std::error_category& cuda_category() noexcept;
} // namespace backend
} // namespace strata
