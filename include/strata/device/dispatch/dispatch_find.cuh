// DispatchFind: DeviceFind::FindIf's kernels and the host closure that sizes and launches them.
//
// Three launches, none of which waits for the host: one thread sets the result in temporary storage to num_items
// (none found); one wave of blocks searches (AgentFind), lowering the result to each match it finds; one thread writes
// the result to the output. The last two are launched with programmatic stream serialization on sm_90 and wait for the
// grid before them in-kernel. No items: one thread writes 0. A count in device memory (CountT detail::item_count) is
// read by the first two kernels; num_items, its bound, sizes the grid.
#pragma once

#include <strata/agent/agent_find.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_find.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace find
{
STRATA_KERNELS_BEGIN

// *d_found = the number of items (none found yet).
template <typename OffsetT, typename CountT>
STRATA_KERNEL_ATTRIBUTES void DeviceFindInitKernel(OffsetT* d_found, OffsetT num_items, CountT count)
{
  *d_found = count.resolve(num_items);
  GridLaunchDependents();
}

// The search: block b tests tiles b, b + gridDim.x, ... until a match lies before its next tile.
template <typename MaxPolicyT, typename InputIteratorT, typename PredicateT, typename OffsetT, typename InputT,
          typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::FindPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::FindPolicy::MIN_BLOCKS_PER_SM) void
DeviceFindIfKernel(InputIteratorT d_in, PredicateT predicate, OffsetT num_items, CountT count, OffsetT* d_found)
{
  using Policy = typename MaxPolicyT::ActivePolicy::FindPolicy;
  using Agent  = AgentFind<Policy, InputIteratorT, PredicateT, OffsetT, InputT>;
  __shared__ typename Agent::TempStorage temp_storage;
  GridDependencyWait();
  num_items = count.resolve(num_items);
  Agent(temp_storage, d_in, predicate, num_items, d_found).ConsumeRange();
}

// *d_out = *d_found, or `value` without d_found.
template <typename OutputIteratorT, typename OffsetT>
STRATA_KERNEL_ATTRIBUTES void DeviceFindWriteKernel(const OffsetT* d_found, OutputIteratorT d_out, OffsetT value)
{
  GridDependencyWait();
  *d_out = d_found != nullptr ? *d_found : value;
}

STRATA_KERNELS_END
} // namespace find
} // namespace detail

// CountT: detail::host_count (num_items is the count), or detail::item_count (num_items bounds a count in device
// memory).
template <typename InputIteratorT, typename OutputIteratorT, typename PredicateT, typename OffsetT,
          typename PolicyHub = detail::find::policy_hub<detail::it_value_t<InputIteratorT>>,
          typename CountT    = detail::host_count>
struct DispatchFind
{
  using InputT    = detail::it_value_t<InputIteratorT>;
  using MaxPolicy = typename PolicyHub::MaxPolicy;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  PredicateT predicate;
  OffsetT num_items;
  cudaStream_t stream;
  int device;
  int ptx_version;
  CountT count;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy = typename ActivePolicyT::FindPolicy;
    detail::temporary_storage::layout<1> layout;
    auto found  = layout.get_slot(0)->create_alias<OffsetT>(num_items > OffsetT(0) ? 1 : 0);
    bool mapped = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped)
    {
      return cudaSuccess;
    }
    const auto write_kernel = detail::find::DeviceFindWriteKernel<OutputIteratorT, OffsetT>;
    if (num_items == OffsetT(0))
    {
      return detail::check_launch(Launch(dim3(1), dim3(1), stream, write_kernel, static_cast<const OffsetT*>(nullptr),
                                         d_out, OffsetT(0)),
                                  stream);
    }

    const auto search_kernel =
      detail::find::DeviceFindIfKernel<MaxPolicy, InputIteratorT, PredicateT, OffsetT, InputT, CountT>;
    size_t wave = 0;
    STRATA_RETURN_IF_ERROR(WaveBlocks(wave, search_kernel, Policy::BLOCK_THREADS, device));
    const OffsetT tiles = (num_items + OffsetT(Policy::TILE_ITEMS - 1)) / OffsetT(Policy::TILE_ITEMS);
    const unsigned int grid =
      static_cast<unsigned int>(static_cast<size_t>(tiles) < wave ? static_cast<size_t>(tiles) : wave);

    const bool programmatic = ptx_version >= 900;
    STRATA_RETURN_IF_ERROR(
      detail::check_launch(Launch(dim3(1), dim3(1), stream, detail::find::DeviceFindInitKernel<OffsetT, CountT>,
                                  found.get(), num_items, count),
                           stream));
    STRATA_RETURN_IF_ERROR(
      detail::check_launch(LaunchAfter(programmatic, dim3(grid), dim3(Policy::BLOCK_THREADS), stream, search_kernel,
                                       d_in, predicate, num_items, count, found.get()),
                           stream));
    return detail::check_launch(LaunchAfter(programmatic, dim3(1), dim3(1), stream, write_kernel,
                                            static_cast<const OffsetT*>(found.get()), d_out, OffsetT(0)),
                                stream);
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the search.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, PredicateT predicate, OffsetT num_items, cudaStream_t stream,
                              CountT count = {})
  {
    int device      = 0;
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
    DispatchFind closure{d_temp_storage, temp_storage_bytes, d_in, d_out, predicate, num_items, stream,
                         device,         ptx_version,        count};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
