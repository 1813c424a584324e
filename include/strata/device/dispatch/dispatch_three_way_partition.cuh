// DispatchThreeWayPartition: the kernel of DevicePartition::If with two selection operators, and the host closure
// that sizes, checks and launches it, with the single-pass launch sequence (single_pass_launch.cuh: no items write
// both counts, 0) and DeviceSelect's policy for the item type.
#pragma once

#include <strata/agent/agent_three_way_partition.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_select.cuh>
#include <strata/device/dispatch/single_pass_launch.cuh>
#include <strata/device/dispatch/tuning/tuning_select.cuh>
#include <strata/util/device.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace three_way_partition
{
STRATA_KERNELS_BEGIN

template <typename MaxPolicyT, typename InputIteratorT, typename FirstOutputIteratorT, typename SecondOutputIteratorT,
          typename UnselectedOutputIteratorT, typename NumSelectedIteratorT, typename SelectFirstPartOpT,
          typename SelectSecondPartOpT, typename OffsetT, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SelectPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::SelectPolicy::MIN_BLOCKS_PER_SM) void
DeviceThreeWayPartitionKernel(InputIteratorT d_in, FirstOutputIteratorT d_first_part_out,
                              SecondOutputIteratorT d_second_part_out, UnselectedOutputIteratorT d_unselected_out,
                              NumSelectedIteratorT d_num_selected_out, ScanTileState<part_counts<OffsetT>> tile_state,
                              unsigned int* tile_counter, SelectFirstPartOpT select_first_part_op,
                              SelectSecondPartOpT select_second_part_op, OffsetT num_items, CountT count,
                              unsigned int num_tiles, unsigned int prefetch_distance)
{
  using Policy = typename MaxPolicyT::ActivePolicy::SelectPolicy;
  using Agent  = AgentThreeWayPartition<Policy, InputIteratorT, FirstOutputIteratorT, SecondOutputIteratorT,
                                       UnselectedOutputIteratorT, NumSelectedIteratorT, SelectFirstPartOpT,
                                       SelectSecondPartOpT, OffsetT>;
  __shared__ typename Agent::TempStorage temp_storage;

  GridDependencyWait();
  if (!single_pass::resolve_items<Policy::TILE_ITEMS, 2>(count, num_items, num_tiles, d_num_selected_out))
  {
    return;
  }
  Agent(temp_storage, d_in, d_first_part_out, d_second_part_out, d_unselected_out, d_num_selected_out,
        select_first_part_op, select_second_part_op, num_items)
    .ConsumeRange(num_tiles, tile_state, tile_counter, prefetch_distance);
}

STRATA_KERNELS_END
} // namespace three_way_partition
} // namespace detail

template <typename InputIteratorT, typename FirstOutputIteratorT, typename SecondOutputIteratorT,
          typename UnselectedOutputIteratorT, typename NumSelectedIteratorT, typename SelectFirstPartOpT,
          typename SelectSecondPartOpT, typename OffsetT,
          typename PolicyHub = detail::select::policy_hub<detail::it_value_t<InputIteratorT>>,
          typename CountT    = detail::host_count>
struct DispatchThreeWayPartition
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  FirstOutputIteratorT d_first_part_out;
  SecondOutputIteratorT d_second_part_out;
  UnselectedOutputIteratorT d_unselected_out;
  NumSelectedIteratorT d_num_selected_out;
  SelectFirstPartOpT select_first_part_op;
  SelectSecondPartOpT select_second_part_op;
  OffsetT num_items; // the count, or the bound of a count in device memory
  CountT count;
  cudaStream_t stream;
  int device;
  int ptx_version;

  using MaxPolicy  = typename PolicyHub::MaxPolicy;
  using TileStateT = ScanTileState<detail::three_way_partition::part_counts<OffsetT>>;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy      = typename ActivePolicyT::SelectPolicy;
    const auto kernel = detail::three_way_partition::DeviceThreeWayPartitionKernel<
      MaxPolicy, InputIteratorT, FirstOutputIteratorT, SecondOutputIteratorT, UnselectedOutputIteratorT,
      NumSelectedIteratorT, SelectFirstPartOpT, SelectSecondPartOpT, OffsetT, CountT>;
    return detail::single_pass::launch<Policy, TileStateT>(
      d_temp_storage, temp_storage_bytes, num_items, d_num_selected_out,
      detail::single_pass::DeviceSinglePassInitKernel<TileStateT, NumSelectedIteratorT, OffsetT, 2>, kernel,
      [&](bool programmatic, unsigned int grid, const TileStateT& tile_state, unsigned int* counter,
          unsigned int prefetch_distance, unsigned int num_tiles) {
        return detail::check_launch(LaunchAfterShared(programmatic, dim3(grid), dim3(Policy::BLOCK_THREADS), 0, stream,
                                                      kernel, d_in, d_first_part_out, d_second_part_out,
                                                      d_unselected_out, d_num_selected_out, tile_state, counter,
                                                      select_first_part_op, select_second_part_op, num_items, count,
                                                      num_tiles, prefetch_distance),
                                    stream);
      },
      stream, device, ptx_version);
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the partition.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                              FirstOutputIteratorT d_first_part_out, SecondOutputIteratorT d_second_part_out,
                              UnselectedOutputIteratorT d_unselected_out, NumSelectedIteratorT d_num_selected_out,
                              SelectFirstPartOpT select_first_part_op, SelectSecondPartOpT select_second_part_op,
                              OffsetT num_items, cudaStream_t stream, CountT count = {})
  {
    int device      = 0;
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
    DispatchThreeWayPartition closure{d_temp_storage,
                                      temp_storage_bytes,
                                      d_in,
                                      d_first_part_out,
                                      d_second_part_out,
                                      d_unselected_out,
                                      d_num_selected_out,
                                      select_first_part_op,
                                      select_second_part_op,
                                      num_items,
                                      count,
                                      stream,
                                      device,
                                      ptx_version};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

namespace detail
{
namespace three_way_partition
{
// Enables the single-phase three-way If: its second argument is an output iterator, never the size_t& of the two-way
// two-phase If (whose eight arguments it could otherwise take, a stream of 0 or a null d_temp_storage matching it
// better).
template <typename FirstOutputIteratorT>
using enable_if_output_t = cuda::std::enable_if_t<!cuda::std::is_integral<FirstOutputIteratorT>::value, int>;

// DevicePartition::If's three-way body: checks the arguments (the counts are written even for no items) and runs
// the partition on the narrowest offsets that hold num_items.
template <typename InputIteratorT, typename FirstOutputIteratorT, typename SecondOutputIteratorT,
          typename UnselectedOutputIteratorT, typename NumSelectedIteratorT, typename SelectFirstPartOpT,
          typename SelectSecondPartOpT, typename NumItemsT>
cudaError_t run(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                FirstOutputIteratorT d_first_part_out, SecondOutputIteratorT d_second_part_out,
                UnselectedOutputIteratorT d_unselected_out, NumSelectedIteratorT d_num_selected_out,
                NumItemsT num_items, SelectFirstPartOpT select_first_part_op, SelectSecondPartOpT select_second_part_op,
                cudaStream_t stream)
{
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_first_part_out, false));
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_second_part_out, false));
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_unselected_out, false));
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_num_selected_out, true));
  return dispatch_offset(num_items, [&](auto offset) {
    using OffsetT = decltype(offset);
    return DispatchThreeWayPartition<InputIteratorT, FirstOutputIteratorT, SecondOutputIteratorT,
                                     UnselectedOutputIteratorT, NumSelectedIteratorT, SelectFirstPartOpT,
                                     SelectSecondPartOpT, OffsetT, select::policy_hub<it_value_t<InputIteratorT>>,
                                     item_count_t<NumItemsT>>::Dispatch(d_temp_storage, temp_storage_bytes, d_in,
                                                                        d_first_part_out, d_second_part_out,
                                                                        d_unselected_out, d_num_selected_out,
                                                                        select_first_part_op, select_second_part_op,
                                                                        offset, stream, item_count_of(num_items));
  });
}
} // namespace three_way_partition
} // namespace detail

STRATA_NAMESPACE_END
