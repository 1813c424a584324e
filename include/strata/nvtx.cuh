// NVTX ranges around the public device and frontend entry points, in the domain "strata", named after the
// entry point ("strata::DeviceReduce::Sum"). Define NVTX_DISABLE to compile them out.
#pragma once

#include <strata/config.cuh>

#if !defined(NVTX_DISABLE) && __has_include(<nvtx3/nvtx3.hpp>)
#  include <nvtx3/nvtx3.hpp>

STRATA_NAMESPACE_BEGIN
namespace detail
{
struct nvtx_domain
{
  static constexpr const char* name = "strata";
};
} // namespace detail
STRATA_NAMESPACE_END

// Opens a range named by a string literal until the end of the enclosing scope; the name is registered once.
#  define STRATA_NVTX_RANGE(name_literal)                                                                        \
    static const ::nvtx3::registered_string_in<::strata::detail::nvtx_domain> strata_nvtx_name_{name_literal};   \
    const ::nvtx3::scoped_range_in<::strata::detail::nvtx_domain> strata_nvtx_range_                             \
    {                                                                                                            \
      strata_nvtx_name_                                                                                          \
    }
#else
#  define STRATA_NVTX_RANGE(name_literal)
#endif
