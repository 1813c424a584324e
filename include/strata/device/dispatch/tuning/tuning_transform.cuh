// Tunings of DeviceTransform and DeviceFor's copying forms, per architecture. A transform is bandwidth-bound: the
// tuning sets the bytes each thread keeps in flight (VECTORS_PER_THREAD 16-byte vectors of the widest array).
#pragma once

#include <strata/agent/agent_transform.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace transform
{
struct policy_hub
{
  // Pascal to Ampere: 256 threads, four 16-byte vectors per thread per array.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using TransformPolicy = AgentTransformPolicy<256, 4>;
  };

  // Hopper.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy600>
  {
    using TransformPolicy = AgentTransformPolicy<256, 4>;
  };

  using MaxPolicy = Policy900;
};
} // namespace transform
} // namespace detail
STRATA_NAMESPACE_END
