// Tunings of DeviceFor's in-place forms (op(first[i]) on the item itself), per architecture.
#pragma once

#include <strata/agent/agent_for.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace for_each
{
struct policy_hub
{
  // Every architecture: 256 threads, 4 items each (4 independent accesses in flight per thread).
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using ForPolicy = AgentForPolicy<256, 4>;
  };

  using MaxPolicy = Policy600;
};
} // namespace for_each
} // namespace detail
STRATA_NAMESPACE_END
