// The error category of CUDA runtime errors.
#include <strata/backend/error.hpp>

#include <cuda_runtime_api.h>

#include <string>

namespace strata
{
namespace backend
{
namespace
{
class cuda_error_category final : public std::error_category
{
public:
  const char* name() const noexcept override
  {
    return "cuda";
  }
  std::string message(int value) const override
  {
    const auto error = static_cast<cudaError_t>(value);
    return std::string(cudaGetErrorString(error)) + " (" + cudaGetErrorName(error) + ")";
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
