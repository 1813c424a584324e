// DispatchReduceByKey: the kernel of DeviceReduce::ReduceByKey (AgentReduceByKey) and the host closure that sizes,
// checks and launches it with the single-pass launch sequence (single_pass_launch.cuh: no items write 0 runs), on
// the policy of tuning/tuning_reduce_by_key.cuh.
#pragma once

#include <strata/agent/agent_reduce_by_key.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/single_pass_launch.cuh>
#include <strata/device/dispatch/tuning/tuning_reduce_by_key.cuh>
#include <strata/util/device.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace reduce_by_key
{
STRATA_KERNELS_BEGIN

template <typename MaxPolicyT, typename KeysInputIteratorT, typename UniqueOutputIteratorT,
          typename ValuesInputIteratorT, typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT,
          typename EqualityOpT, typename ReductionOpT, typename OffsetT, typename AccumT, runs MODE, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::ScanPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::ScanPolicy::MIN_BLOCKS_PER_SM) void
DeviceReduceByKeyKernel(KeysInputIteratorT d_keys_in, UniqueOutputIteratorT d_unique_out,
                        ValuesInputIteratorT d_values_in, AggregatesOutputIteratorT d_aggregates_out,
                        NumRunsOutputIteratorT d_num_runs_out, ScanTileState<run_value<OffsetT, AccumT>> tile_state,
                        unsigned int* tile_counter, EqualityOpT equality_op, ReductionOpT reduction_op,
                        OffsetT num_items, CountT count, unsigned int num_tiles, unsigned int prefetch_distance)
{
  using Policy = typename MaxPolicyT::ActivePolicy::ScanPolicy;
  using Agent =
    AgentReduceByKey<Policy, KeysInputIteratorT, UniqueOutputIteratorT, ValuesInputIteratorT, AggregatesOutputIteratorT,
                     NumRunsOutputIteratorT, EqualityOpT, ReductionOpT, OffsetT, AccumT, MODE>;
  auto& temp_storage = DynamicSharedStorage<typename Agent::TempStorage>();

  GridDependencyWait();
  if (!single_pass::resolve_items<Policy::TILE_ITEMS>(count, num_items, num_tiles, d_num_runs_out))
  {
    return;
  }
  Agent(temp_storage, d_keys_in, d_unique_out, d_values_in, d_aggregates_out, d_num_runs_out, equality_op, reduction_op,
        num_items)
    .ConsumeRange(num_tiles, tile_state, tile_counter, prefetch_distance);
}

STRATA_KERNELS_END

// The values' accumulator: what reduction_op returns for two input values (CUB's rule).
template <typename ReductionOpT, typename ValuesInputIteratorT>
using accum_t = accumulator_t<ReductionOpT, it_value_t<ValuesInputIteratorT>>;
} // namespace reduce_by_key
} // namespace detail

// MODE: runs::reduce for DeviceReduce::ReduceByKey; runs::encode and runs::non_trivial for DeviceRunLengthEncode's
// Encode and NonTrivialRuns (AgentReduceByKey's forms over 1s, which never read d_values_in).
template <typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
          typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename EqualityOpT,
          typename ReductionOpT, typename OffsetT,
          typename AccumT    = detail::reduce_by_key::accum_t<ReductionOpT, ValuesInputIteratorT>,
          typename PolicyHub = detail::reduce_by_key::policy_hub<detail::it_value_t<KeysInputIteratorT>, AccumT>,
          detail::reduce_by_key::runs MODE = detail::reduce_by_key::runs::reduce, typename CountT = detail::host_count>
struct DispatchReduceByKey
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  KeysInputIteratorT d_keys_in;
  UniqueOutputIteratorT d_unique_out;
  ValuesInputIteratorT d_values_in;
  AggregatesOutputIteratorT d_aggregates_out;
  NumRunsOutputIteratorT d_num_runs_out;
  EqualityOpT equality_op;
  ReductionOpT reduction_op;
  OffsetT num_items; // the count, or the bound of a count in device memory
  CountT count;
  cudaStream_t stream;
  int device;
  int ptx_version;

  using MaxPolicy  = typename PolicyHub::MaxPolicy;
  using TileStateT = ScanTileState<detail::reduce_by_key::run_value<OffsetT, AccumT>>;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy      = typename ActivePolicyT::ScanPolicy;
    const auto kernel = detail::reduce_by_key::DeviceReduceByKeyKernel<
      MaxPolicy, KeysInputIteratorT, UniqueOutputIteratorT, ValuesInputIteratorT, AggregatesOutputIteratorT,
      NumRunsOutputIteratorT, EqualityOpT, ReductionOpT, OffsetT, AccumT, MODE, CountT>;
    using Agent = AgentReduceByKey<Policy, KeysInputIteratorT, UniqueOutputIteratorT, ValuesInputIteratorT,
                                   AggregatesOutputIteratorT, NumRunsOutputIteratorT, EqualityOpT, ReductionOpT,
                                   OffsetT, AccumT, MODE>;
    constexpr size_t SMEM_BYTES = sizeof(typename Agent::TempStorage);
    STRATA_RETURN_IF_ERROR(PrepareSharedMemoryOver48KiB<SMEM_BYTES>(kernel, Policy::BLOCK_THREADS, device));
    return detail::single_pass::launch<Policy, TileStateT>(
      d_temp_storage, temp_storage_bytes, num_items, d_num_runs_out,
      detail::single_pass::DeviceSinglePassInitKernel<TileStateT, NumRunsOutputIteratorT, OffsetT>, kernel,
      [&](bool programmatic, unsigned int grid, const TileStateT& tile_state, unsigned int* counter,
          unsigned int prefetch_distance, unsigned int num_tiles) {
        return detail::check_launch(LaunchAfterShared(programmatic, dim3(grid), dim3(Policy::BLOCK_THREADS), SMEM_BYTES,
                                                      stream, kernel, d_keys_in, d_unique_out, d_values_in,
                                                      d_aggregates_out, d_num_runs_out, tile_state, counter,
                                                      equality_op, reduction_op, num_items, count, num_tiles,
                                                      prefetch_distance),
                                    stream);
      },
      stream, device, ptx_version, SMEM_BYTES);
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the reduction.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                              UniqueOutputIteratorT d_unique_out, ValuesInputIteratorT d_values_in,
                              AggregatesOutputIteratorT d_aggregates_out, NumRunsOutputIteratorT d_num_runs_out,
                              EqualityOpT equality_op, ReductionOpT reduction_op, OffsetT num_items,
                              cudaStream_t stream, CountT count = {})
  {
    int device      = 0;
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
    DispatchReduceByKey closure{d_temp_storage, temp_storage_bytes, d_keys_in,      d_unique_out,
                                d_values_in,    d_aggregates_out,   d_num_runs_out, equality_op,
                                reduction_op,   num_items,          count,          stream,
                                device,         ptx_version};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

namespace detail
{
namespace reduce_by_key
{
// ReduceByKey's arguments: keys against the run keys' and the count's outputs (the count is written even for no
// items), values against the aggregates'.
template <typename NumItemsT, typename KeysInputIteratorT, typename UniqueOutputIteratorT,
          typename ValuesInputIteratorT, typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT>
cudaError_t check_arguments(const void* d_temp_storage, NumItemsT num_items, KeysInputIteratorT d_keys_in,
                            UniqueOutputIteratorT d_unique_out, ValuesInputIteratorT d_values_in,
                            AggregatesOutputIteratorT d_aggregates_out, NumRunsOutputIteratorT d_num_runs_out)
{
  STRATA_RETURN_IF_ERROR(detail::check_arguments(d_temp_storage, num_items, d_keys_in, d_unique_out, false));
  STRATA_RETURN_IF_ERROR(detail::check_arguments(d_temp_storage, num_items, d_values_in, d_aggregates_out, false));
  return detail::check_arguments(d_temp_storage, num_items, d_keys_in, d_num_runs_out, true);
}

// DeviceReduce::ReduceByKey's body: checks the arguments (the count is written even for no items) and reduces on
// the narrowest offsets that hold num_items, accumulating in AccumT (void: CUB's rule, accum_t; the frontend names
// Thrust's, the values' type).
template <typename AccumT = void, typename KeysInputIteratorT, typename UniqueOutputIteratorT,
          typename ValuesInputIteratorT, typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT,
          typename EqualityOpT, typename ReductionOpT, typename NumItemsT>
cudaError_t run(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                UniqueOutputIteratorT d_unique_out, ValuesInputIteratorT d_values_in,
                AggregatesOutputIteratorT d_aggregates_out, NumRunsOutputIteratorT d_num_runs_out,
                EqualityOpT equality_op, ReductionOpT reduction_op, NumItemsT num_items, cudaStream_t stream)
{
  STRATA_RETURN_IF_ERROR(
    check_arguments(d_temp_storage, num_items, d_keys_in, d_unique_out, d_values_in, d_aggregates_out, d_num_runs_out));
  return dispatch_offset(num_items, [&](auto offset) {
    using OffsetT = decltype(offset);
    using A =
      cuda::std::conditional_t<cuda::std::is_void<AccumT>::value, accum_t<ReductionOpT, ValuesInputIteratorT>, AccumT>;
    return DispatchReduceByKey<KeysInputIteratorT, UniqueOutputIteratorT, ValuesInputIteratorT,
                               AggregatesOutputIteratorT, NumRunsOutputIteratorT, EqualityOpT, ReductionOpT, OffsetT, A,
                               policy_hub<it_value_t<KeysInputIteratorT>, A>, runs::reduce,
                               item_count_t<NumItemsT>>::Dispatch(d_temp_storage, temp_storage_bytes, d_keys_in,
                                                                  d_unique_out, d_values_in, d_aggregates_out,
                                                                  d_num_runs_out, equality_op, reduction_op, offset,
                                                                  stream, item_count_of(num_items));
  });
}
} // namespace reduce_by_key
} // namespace detail

STRATA_NAMESPACE_END
