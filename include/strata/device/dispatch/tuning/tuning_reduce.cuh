// Tunings of DeviceReduce, per architecture, chosen by the compile-time workload: the size of the input
// items (which sets how many fit a 16-byte vector) and the kind of operator.
#pragma once

#include <strata/agent/agent_reduce.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/thread/thread_operators.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace reduce
{

// Items per thread per tile that make `bytes` bytes per thread for inputs of `input_size` bytes (at least 1).
constexpr int items_for_bytes(int bytes, int input_size)
{
  return bytes / input_size > 0 ? bytes / input_size : 1;
}

// sm_90 (H100, H200), the default for any workload: 256 threads, 64 bytes of input per thread per tile (four
// 16-byte vectors in flight), the grid one full wave at the occupancy the compiler allows.
// sm90: 4.51 TB/s at 2^28 i32, 4.60 TB/s at 2^28 f64, 4.08 TB/s at 2^28 i8 (H200)
template <typename InputT, typename AccumT, op_kind OP, int INPUT_SIZE = static_cast<int>(sizeof(InputT))>
struct sm90_tuning
{
  static constexpr int threads       = 256;
  static constexpr int items         = items_for_bytes(64, INPUT_SIZE);
  static constexpr int blocks_per_sm = 0; // one full wave at the occupancy the compiler allows
};

template <typename InputT, typename AccumT, typename ReductionOpT>
struct policy_hub
{
  static constexpr int INPUT_SIZE = static_cast<int>(sizeof(InputT));

  // Pascal: 256 threads x 16 four-byte items, read through the read-only path.
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using ReducePolicy =
      AgentReducePolicy<256, items_for_bytes(64, INPUT_SIZE), BLOCK_REDUCE_WARP_REDUCTIONS, LOAD_LDG, 8>;
    using SingleTilePolicy = ReducePolicy;
  };

  // Volta: as Pascal.
  struct Policy700 : ChainedPolicy<700, Policy700, Policy600>
  {
    using ReducePolicy     = typename Policy600::ReducePolicy;
    using SingleTilePolicy = ReducePolicy;
  };

  // Ampere: 512 threads keep more loads in flight per SM at the same bytes per thread.
  struct Policy800 : ChainedPolicy<800, Policy800, Policy700>
  {
    using ReducePolicy =
      AgentReducePolicy<512, items_for_bytes(64, INPUT_SIZE), BLOCK_REDUCE_WARP_REDUCTIONS, LOAD_LDG, 4>;
    using SingleTilePolicy = ReducePolicy;
  };

  // Hopper.
  struct Policy900 : ChainedPolicy<900, Policy900, Policy800>
  {
    using tuning = sm90_tuning<InputT, AccumT, op_kind_v<ReductionOpT>>;
    using ReducePolicy =
      AgentReducePolicy<tuning::threads, tuning::items, BLOCK_REDUCE_WARP_REDUCTIONS, LOAD_LDG, tuning::blocks_per_sm>;
    using SingleTilePolicy = ReducePolicy;
  };

  using MaxPolicy = Policy900;
};

} // namespace reduce
} // namespace detail
STRATA_NAMESPACE_END
