// ChainedPolicy: a compile-time list of tuning policies, newest architecture first, and the selection of one.
//
//   struct policy_hub {
//     struct Policy600 : ChainedPolicy<600, Policy600, Policy600> { ... };   // the oldest ends the chain
//     struct Policy800 : ChainedPolicy<800, Policy800, Policy600> { ... };
//     struct Policy900 : ChainedPolicy<900, Policy900, Policy800> { ... };
//     using MaxPolicy = Policy900;
//   };
//
// On the host, `MaxPolicy::Invoke(ptx_version, closure)` walks the chain to the newest policy whose PTX
// version is <= the device's and calls `closure.template Invoke<ThatPolicy>()`; the closure launches kernels
// with that policy's launch configuration. Kernels are instantiated with MaxPolicy only and read
// `MaxPolicy::ActivePolicy` inside: in each device compilation pass it is the policy for that pass's
// architecture, the same one the host selected for a device that runs that pass's code. One kernel
// instantiation per MaxPolicy, not one per policy.
#pragma once

#include <strata/config.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

template <int PTX_VERSION, typename PolicyT, typename PrevPolicyT>
struct ChainedPolicy
{
  // PTX version (e.g. 900) from which this policy applies.
  static constexpr int PTX_VERSION_VALUE = PTX_VERSION;

  // The policy of the current device compilation pass (the oldest policy on the host pass).
  using ActivePolicy =
    cuda::std::conditional_t<(STRATA_PTX_ARCH < PTX_VERSION), typename PrevPolicyT::ActivePolicy, PolicyT>;

  // Calls `closure.template Invoke<P>()` for the newest policy P of the chain with P's PTX version <= ptx_version.
  template <typename ClosureT>
  static cudaError_t Invoke(int ptx_version, ClosureT& closure)
  {
    if (ptx_version < PTX_VERSION)
    {
      return PrevPolicyT::Invoke(ptx_version, closure);
    }
    return closure.template Invoke<PolicyT>();
  }
};

// The end of a chain: the oldest policy applies to every older device too.
template <int PTX_VERSION, typename PolicyT>
struct ChainedPolicy<PTX_VERSION, PolicyT, PolicyT>
{
  static constexpr int PTX_VERSION_VALUE = PTX_VERSION;
  using ActivePolicy                     = PolicyT;

  template <typename ClosureT>
  static cudaError_t Invoke(int, ClosureT& closure)
  {
    return closure.template Invoke<PolicyT>();
  }
};

namespace detail
{
// Items per thread that make about `bytes` bytes of items of `item_size` bytes per thread, between 1 and `most`
// (the policy hubs' sizing of a tile by its items' size).
constexpr int items_for_bytes(int bytes, int item_size, int most)
{
  return bytes / item_size < 1 ? 1 : (bytes / item_size > most ? most : bytes / item_size);
}
} // namespace detail

STRATA_NAMESPACE_END
