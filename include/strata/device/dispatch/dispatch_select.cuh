// DispatchSelect: the kernels of DeviceSelect and DevicePartition and the host closure that sizes, checks and
// launches them.
//
// The launches are single_pass_launch.cuh's: more than one tile is an init kernel, then the single-pass kernel
// (AgentSelect) as one wave of resident blocks that take tiles from a counter; one tile is one launch with no tile
// state; no items: one thread writes the count, 0.
#pragma once

#include <strata/agent/agent_select.cuh>
#include <strata/agent/agent_select_bulk.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/single_pass_launch.cuh>
#include <strata/device/dispatch/tuning/tuning_select.cuh>
#include <strata/util/device.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace select
{
// The bulk policy of a hub's policy (AgentSelectBulk): its BulkSelectPolicy where it has one.
template <typename PolicyT, typename = void>
struct bulk_policy
{
  static constexpr bool exists = false;
  using type                   = AgentSelectBulkPolicy<64, 1>;
};
template <typename PolicyT>
struct bulk_policy<PolicyT, cuda::std::void_t<typename PolicyT::BulkSelectPolicy>>
{
  static constexpr bool exists = true;
  using type                   = typename PolicyT::BulkSelectPolicy;
};

STRATA_KERNELS_BEGIN

template <typename MaxPolicyT, typename InputIteratorT, typename FlagsIteratorT, typename OutputIteratorT,
          typename NumSelectedIteratorT, typename SelectOpT, typename EqualityOpT, typename OffsetT, mode MODE,
          bool PARTITION, typename ValuesT, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SelectPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::SelectPolicy::MIN_BLOCKS_PER_SM) void
DeviceSelectSweepKernel(InputIteratorT d_in, FlagsIteratorT d_flags, OutputIteratorT d_out,
                        NumSelectedIteratorT d_num_selected_out, ScanTileState<OffsetT> tile_state,
                        unsigned int* tile_counter, SelectOpT select_op, EqualityOpT equality_op, OffsetT num_items,
                        CountT count, unsigned int num_tiles, unsigned int prefetch_distance, ValuesT values)
{
  using Policy = typename MaxPolicyT::ActivePolicy::SelectPolicy;
  using Agent  = AgentSelect<Policy, InputIteratorT, FlagsIteratorT, OutputIteratorT, NumSelectedIteratorT, SelectOpT,
                            EqualityOpT, OffsetT, MODE, PARTITION, ValuesT>;
  __shared__ typename Agent::TempStorage temp_storage;

  GridDependencyWait();
  if (!single_pass::resolve_items<Policy::TILE_ITEMS>(count, num_items, num_tiles, d_num_selected_out))
  {
    return;
  }
  Agent(temp_storage, d_in, d_flags, d_out, d_num_selected_out, select_op, equality_op, num_items, values)
    .ConsumeRange(num_tiles, tile_state, tile_counter, prefetch_distance);
}

// As DeviceSelectSweepKernel, for items of T in an array that starts on 16 bytes, selected by a predicate or as
// Unique, with the tiles in shared memory (AgentSelectBulk, sm_90).
template <typename MaxPolicyT, typename T, typename OutputIteratorT, typename NumSelectedIteratorT, typename SelectOpT,
          typename EqualityOpT, typename OffsetT, mode MODE, bool PARTITION, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(bulk_policy<typename MaxPolicyT::ActivePolicy>::type::BLOCK_THREADS,
                                           bulk_policy<typename MaxPolicyT::ActivePolicy>::type::MIN_BLOCKS_PER_SM) void
DeviceSelectBulkSweepKernel(const T* d_in, OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                            ScanTileState<OffsetT> tile_state, unsigned int* tile_counter, SelectOpT select_op,
                            EqualityOpT equality_op, OffsetT num_items, CountT count, unsigned int num_tiles,
                            unsigned int prefetch_distance)
{
  using Policy = typename bulk_policy<typename MaxPolicyT::ActivePolicy>::type;
  using Agent =
    AgentSelectBulk<Policy, T, OutputIteratorT, NumSelectedIteratorT, SelectOpT, EqualityOpT, OffsetT, MODE, PARTITION>;
  auto& temp_storage = DynamicSharedStorage<typename Agent::TempStorage>();

  GridDependencyWait();
  if (!single_pass::resolve_items<Policy::TILE_ITEMS>(count, num_items, num_tiles, d_num_selected_out))
  {
    return;
  }
  Agent(temp_storage, d_in, d_out, d_num_selected_out, select_op, equality_op, num_items)
    .ConsumeRange(num_tiles, tile_state, tile_counter, prefetch_distance);
}

STRATA_KERNELS_END

// The type whose size picks the policy: the items', or for UniqueByKey the wider of the keys and the values (both
// pass through the tile's shared memory).
template <typename InputIteratorT, typename ValuesT>
struct policy_item
{
  using type = it_value_t<InputIteratorT>;
};
template <typename InputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT>
struct policy_item<InputIteratorT, by_key_values<ValuesInputIteratorT, ValuesOutputIteratorT>>
{
  using type = cuda::std::conditional_t<(sizeof(it_value_t<ValuesInputIteratorT>) > sizeof(it_value_t<InputIteratorT>)),
                                        it_value_t<ValuesInputIteratorT>, it_value_t<InputIteratorT>>;
};
template <typename InputIteratorT, typename ValuesT>
using policy_item_t = typename policy_item<InputIteratorT, ValuesT>::type;

// The workload of the policy hub (tuning_select.cuh): what the selection writes besides the selected items.
template <bool PARTITION, typename ValuesT>
constexpr workload policy_workload_v = PARTITION ? workload::partition : workload::select;
template <bool PARTITION, typename ValuesInputIteratorT, typename ValuesOutputIteratorT>
constexpr workload policy_workload_v<PARTITION, by_key_values<ValuesInputIteratorT, ValuesOutputIteratorT>> =
  workload::by_key;

template <typename InputIteratorT, bool PARTITION, typename ValuesT>
using default_policy_hub_t = policy_hub<policy_item_t<InputIteratorT, ValuesT>, policy_workload_v<PARTITION, ValuesT>>;
} // namespace select
} // namespace detail

// The dispatch closure of DeviceSelect and DevicePartition. FlagsIteratorT is detail::select::no_flags for the modes
// without flags; SelectOpT and EqualityOpT are unused (any type) where the mode needs none. CountT: detail::item_count
// where num_items is the bound of a count in device memory (strata::device_count).
template <typename InputIteratorT, typename FlagsIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT,
          typename SelectOpT, typename EqualityOpT, typename OffsetT, detail::select::mode MODE, bool PARTITION,
          typename ValuesT   = detail::select::no_values,
          typename PolicyHub = detail::select::default_policy_hub_t<InputIteratorT, PARTITION, ValuesT>,
          typename CountT    = detail::host_count>
struct DispatchSelect
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  FlagsIteratorT d_flags;
  OutputIteratorT d_out;
  NumSelectedIteratorT d_num_selected_out;
  SelectOpT select_op;
  EqualityOpT equality_op;
  OffsetT num_items; // the count, or the bound of a count in device memory
  CountT count;
  ValuesT values;
  cudaStream_t stream;
  int device;
  int ptx_version;

  using MaxPolicy  = typename PolicyHub::MaxPolicy;
  using TileStateT = ScanTileState<OffsetT>;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy = typename ActivePolicyT::SelectPolicy;
    using Bulk   = detail::select::bulk_policy<ActivePolicyT>;
    using T      = detail::it_value_t<InputIteratorT>;
    // The bulk agent: items in an array (of a type that moves by bytes), selected by a predicate or as Unique.
    constexpr bool BULK = Bulk::exists && cuda::std::is_pointer<InputIteratorT>::value
                       && (MODE == detail::select::mode::predicate || MODE == detail::select::mode::unique)
                       && cuda::std::is_same<ValuesT, detail::select::no_values>::value
                       && cuda::std::is_trivially_copyable<T>::value && (Bulk::type::TILE_ITEMS * sizeof(T)) % 16 == 0;
    size_t state_tiles = 0;
    if constexpr (BULK)
    {
      using BulkPolicy = typename Bulk::type;
      const size_t bulk_tiles =
        static_cast<size_t>((num_items + OffsetT(BulkPolicy::TILE_ITEMS) - 1) / OffsetT(BulkPolicy::TILE_ITEMS));
      state_tiles = bulk_tiles;
      if (ptx_version >= 900 && reinterpret_cast<cuda::std::uintptr_t>(d_in) % 16 == 0)
      {
        int sm_count = 0;
        STRATA_RETURN_IF_ERROR(SmCount(sm_count, device));
        if (bulk_tiles >= static_cast<size_t>(sm_count) * BulkPolicy::MIN_TILES_PER_SM)
        {
          return invoke_bulk<BulkPolicy>(
            static_cast<size_t>((num_items + OffsetT(Policy::TILE_ITEMS) - 1) / OffsetT(Policy::TILE_ITEMS)));
        }
      }
    }
    const auto kernel = detail::select::DeviceSelectSweepKernel<MaxPolicy, InputIteratorT, FlagsIteratorT,
                                                                OutputIteratorT, NumSelectedIteratorT, SelectOpT,
                                                                EqualityOpT, OffsetT, MODE, PARTITION, ValuesT, CountT>;
    return detail::single_pass::launch<Policy, TileStateT>(
      d_temp_storage, temp_storage_bytes, num_items, d_num_selected_out,
      detail::single_pass::DeviceSinglePassInitKernel<TileStateT, NumSelectedIteratorT, OffsetT>, kernel,
      [&](bool programmatic, unsigned int grid, const TileStateT& tile_state, unsigned int* counter,
          unsigned int prefetch_distance, unsigned int num_tiles) {
        return detail::check_launch(LaunchAfterShared(programmatic, dim3(grid), dim3(Policy::BLOCK_THREADS), 0, stream,
                                                      kernel, d_in, d_flags, d_out, d_num_selected_out, tile_state,
                                                      counter, select_op, equality_op, num_items, count, num_tiles,
                                                      prefetch_distance, values),
                                    stream);
      },
      stream, device, ptx_version, 0, state_tiles);
  }

  // The selection by AgentSelectBulk (its tiles in dynamic shared memory), with storage for `state_tiles` tiles (the
  // register path's, which the size query may have taken).
  template <typename BulkPolicy>
  cudaError_t invoke_bulk(size_t state_tiles)
  {
    using T = detail::it_value_t<InputIteratorT>;
    const auto kernel =
      detail::select::DeviceSelectBulkSweepKernel<MaxPolicy, T, OutputIteratorT, NumSelectedIteratorT, SelectOpT,
                                                  EqualityOpT, OffsetT, MODE, PARTITION, CountT>;
    using Agent = AgentSelectBulk<BulkPolicy, T, OutputIteratorT, NumSelectedIteratorT, SelectOpT, EqualityOpT, OffsetT,
                                  MODE, PARTITION>;
    constexpr size_t SMEM_BYTES = sizeof(typename Agent::TempStorage);
    STRATA_RETURN_IF_ERROR(PrepareSharedMemory(kernel, BulkPolicy::BLOCK_THREADS, SMEM_BYTES, device));
    const T* const in = d_in;
    return detail::single_pass::launch<BulkPolicy, TileStateT>(
      d_temp_storage, temp_storage_bytes, num_items, d_num_selected_out,
      detail::single_pass::DeviceSinglePassInitKernel<TileStateT, NumSelectedIteratorT, OffsetT>, kernel,
      [&](bool programmatic, unsigned int grid, const TileStateT& tile_state, unsigned int* counter,
          unsigned int prefetch_distance, unsigned int num_tiles) {
        return detail::check_launch(LaunchAfterShared(programmatic, dim3(grid), dim3(BulkPolicy::BLOCK_THREADS),
                                                      SMEM_BYTES, stream, kernel, in, d_out, d_num_selected_out,
                                                      tile_state, counter, select_op, equality_op, num_items, count,
                                                      num_tiles, prefetch_distance),
                                    stream);
      },
      stream, device, ptx_version, SMEM_BYTES, state_tiles);
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the selection. `count`: where the
  // count lies when num_items is a device_count's bound.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                              FlagsIteratorT d_flags, OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                              SelectOpT select_op, EqualityOpT equality_op, OffsetT num_items, cudaStream_t stream,
                              ValuesT values = {}, CountT count = {})
  {
    if constexpr (cuda::std::is_signed<OffsetT>::value)
    {
      if (num_items < 0)
      {
        return cudaErrorInvalidValue;
      }
    }
    int device      = 0;
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
    DispatchSelect closure{d_temp_storage, temp_storage_bytes, d_in,      d_flags, d_out,  d_num_selected_out,
                           select_op,      equality_op,        num_items, count,   values, stream,
                           device,         ptx_version};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

namespace detail
{
namespace select
{
// The entry points' common body: checks the arguments (the count output is written even for no items) and runs the
// selection on the narrowest offsets that hold num_items.
template <mode MODE, bool PARTITION, typename InputIteratorT, typename FlagsIteratorT, typename OutputIteratorT,
          typename NumSelectedIteratorT, typename SelectOpT, typename EqualityOpT, typename NumItemsT,
          typename ValuesT = no_values>
cudaError_t run(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, FlagsIteratorT d_flags,
                OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out, SelectOpT select_op,
                EqualityOpT equality_op, NumItemsT num_items, cudaStream_t stream, ValuesT values = {})
{
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_out, false));
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_num_selected_out, true));
  if constexpr (has_flags(MODE))
  {
    STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_flags, d_out, false));
  }
  if constexpr (!cuda::std::is_same<ValuesT, no_values>::value)
  {
    STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, values.in, values.out, false));
  }
  return dispatch_offset(num_items, [&](auto offset) {
    using OffsetT = decltype(offset);
    return DispatchSelect<InputIteratorT, FlagsIteratorT, OutputIteratorT, NumSelectedIteratorT, SelectOpT, EqualityOpT,
                          OffsetT, MODE, PARTITION, ValuesT, default_policy_hub_t<InputIteratorT, PARTITION, ValuesT>,
                          item_count_t<NumItemsT>>::Dispatch(d_temp_storage, temp_storage_bytes, d_in, d_flags, d_out,
                                                             d_num_selected_out, select_op, equality_op, offset, stream,
                                                             values, item_count_of(num_items));
  });
}
} // namespace select
} // namespace detail

STRATA_NAMESPACE_END
