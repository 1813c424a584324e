// NVTX ranges around the public device and frontend entry points, in the domain "strata", named after the
// entry point ("strata::DeviceReduce::Sum", "strata::reduce"). One range per outermost call: the first entry point
// that runs inside it names it, and it lasts until the outermost call returns. So a frontend algorithm that calls
// device entry points shows as the frontend's range, and a single-phase device call (which opens an unnamed entry,
// then runs the two-phase entry point twice: size query, then the work) shows as one range named by that entry
// point, the allocation of its temporary storage included.
// Define NVTX_DISABLE to compile them out.
//
// STRATA_DETAIL_BEFORE_NVTX_RANGE(name), if defined before strata's headers, is expanded wherever a range is named
// (tests use it to see which entry points ran), with or without NVTX.
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

// Entry points open on this thread, and whether the outermost one's range has been named (and, with NVTX, pushed).
inline thread_local int nvtx_depth  = 0;
inline thread_local bool nvtx_named = false;

// Marks an entry point open for its scope. The outermost one closes the range named inside it, if any.
class nvtx_entry
{
public:
  nvtx_entry() noexcept
      : outermost_(nvtx_depth++ == 0)
  {}
  ~nvtx_entry()
  {
    --nvtx_depth;
    if (outermost_ && nvtx_named)
    {
#if STRATA_DETAIL_HAS_NVTX
      ::nvtxDomainRangePop(::nvtx3::domain::get<nvtx_domain>());
#endif
      nvtx_named = false;
    }
  }
  nvtx_entry(const nvtx_entry&)            = delete;
  nvtx_entry& operator=(const nvtx_entry&) = delete;

private:
  bool outermost_;
};

// True for the first entry point of an outermost call, which names its range (and must push it).
inline bool nvtx_claim_name() noexcept
{
  if (nvtx_named)
  {
    return false;
  }
  nvtx_named = true;
  return true;
}

#if STRATA_DETAIL_HAS_NVTX
inline void nvtx_push(const ::nvtx3::registered_string_in<nvtx_domain>& name) noexcept
{
  ::nvtx3::event_attributes attributes{name};
  ::nvtxDomainRangePushEx(::nvtx3::domain::get<nvtx_domain>(), attributes.get());
}
#  define STRATA_DETAIL_NVTX_PUSH(name_literal)                                                                \
    static const ::nvtx3::registered_string_in<::strata::detail::nvtx_domain> strata_nvtx_name_{name_literal}; \
    ::strata::detail::nvtx_push(strata_nvtx_name_)
#else
#  define STRATA_DETAIL_NVTX_PUSH(name_literal)
#endif
} // namespace detail
STRATA_NAMESPACE_END

// Marks an entry point, named by a string literal, open until the end of the enclosing scope; names the outermost
// call's range if nothing has yet (the name is registered once).
#define STRATA_NVTX_RANGE(name_literal)                  \
  const ::strata::detail::nvtx_entry strata_nvtx_entry_; \
  if (::strata::detail::nvtx_claim_name())               \
  {                                                      \
    STRATA_DETAIL_BEFORE_NVTX_RANGE(name_literal);       \
    STRATA_DETAIL_NVTX_PUSH(name_literal);               \
  }
