// NVTX ranges around the public device and frontend entry points, in the domain "strata", named after the
// entry point ("strata::DeviceReduce::Sum", "strata::reduce"). Only the outermost entry point of a call opens a
// range: a frontend algorithm or a single-phase device call that calls other entry points shows as one range.
// Define NVTX_DISABLE to compile them out.
//
// STRATA_DETAIL_BEFORE_NVTX_RANGE(name), if defined before strata's headers, is expanded wherever an outermost range
// opens (tests use it to see which entry points ran), with or without NVTX.
#pragma once

#include <strata/config.cuh>

#ifndef STRATA_DETAIL_BEFORE_NVTX_RANGE
#  define STRATA_DETAIL_BEFORE_NVTX_RANGE(name)
#endif

#if !defined(NVTX_DISABLE) && __has_include(<nvtx3/nvtx3.hpp>)
#  include <nvtx3/nvtx3.hpp>
#  define STRATA_DETAIL_HAS_NVTX 1
#else
#  define STRATA_DETAIL_HAS_NVTX 0
#endif

STRATA_NAMESPACE_BEGIN
namespace detail
{
#if STRATA_DETAIL_HAS_NVTX
struct nvtx_domain
{
  static constexpr const char* name = "strata";
};
#endif

// Entry points open on this thread.
inline thread_local int nvtx_depth = 0;

// Marks an entry point open for its scope; `outermost` tells whether it is the first on this thread.
class nvtx_entry
{
public:
  nvtx_entry() noexcept
      : outermost_(nvtx_depth++ == 0)
  {}
  ~nvtx_entry()
  {
    --nvtx_depth;
  }
  nvtx_entry(const nvtx_entry&)            = delete;
  nvtx_entry& operator=(const nvtx_entry&) = delete;
  bool outermost() const noexcept
  {
    return outermost_;
  }

private:
  bool outermost_;
};

#if STRATA_DETAIL_HAS_NVTX
// The range of an outermost entry point (nothing otherwise).
class nvtx_range
{
public:
  nvtx_range(const nvtx_entry& entry, const ::nvtx3::registered_string_in<nvtx_domain>& name)
  {
    if (entry.outermost())
    {
      ::nvtx3::event_attributes attributes{name};
      ::nvtxDomainRangePushEx(::nvtx3::domain::get<nvtx_domain>(), attributes.get());
      open_ = true;
    }
  }
  ~nvtx_range()
  {
    if (open_)
    {
      ::nvtxDomainRangePop(::nvtx3::domain::get<nvtx_domain>());
    }
  }
  nvtx_range(const nvtx_range&)            = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;

private:
  bool open_ = false;
};
#endif
} // namespace detail
STRATA_NAMESPACE_END

// Opens a range named by a string literal until the end of the enclosing scope (the outermost entry point's only);
// the name is registered once.
#if STRATA_DETAIL_HAS_NVTX
#  define STRATA_NVTX_RANGE(name_literal)                                                                        \
    const ::strata::detail::nvtx_entry strata_nvtx_entry_;                                                       \
    if (strata_nvtx_entry_.outermost())                                                                          \
    {                                                                                                            \
      STRATA_DETAIL_BEFORE_NVTX_RANGE(name_literal);                                                             \
    }                                                                                                            \
    static const ::nvtx3::registered_string_in<::strata::detail::nvtx_domain> strata_nvtx_name_{name_literal};   \
    const ::strata::detail::nvtx_range strata_nvtx_range_                                                        \
    {                                                                                                            \
      strata_nvtx_entry_, strata_nvtx_name_                                                                      \
    }
#else
#  define STRATA_NVTX_RANGE(name_literal)                                                                        \
    const ::strata::detail::nvtx_entry strata_nvtx_entry_;                                                       \
    if (strata_nvtx_entry_.outermost())                                                                          \
    {                                                                                                            \
      STRATA_DETAIL_BEFORE_NVTX_RANGE(name_literal);                                                             \
    }
#endif
