// DispatchMergeSort: DeviceMergeSort's kernels and the host closure that sizes, checks and launches them.
//
// A sort of n items in tiles of TILE_ITEMS is 1 + P launches, P = ceil(log2(tiles)): the tile sort (AgentBlockSort,
// a block per tile), then P merge passes (AgentMerge, a block per tile). Pass p merges runs of 2^p tiles pairwise.
// Each block of a pass finds where its tile's share of the merge starts and ends itself, two warps searching the
// runs in global memory 32 probes a round, so that a pass is one launch: a search by a thread per tile, in a kernel
// of its own, would wait a memory latency per step of a binary search over the run, and cost a launch more.
// The passes ping-pong between the output and a temporary copy of the keys (and values): the tile sort writes to
// the output when P is even and to the temporary copy when it is odd, so that the last pass writes the output. One
// tile: one launch, no temporary storage. No items: nothing is launched.
//
// A count in device memory (strata::device_count) sizes the storage and the launches by its bound, P among them, so
// that the last pass writes the output whatever the count; the kernels read the count, the blocks past its tiles
// return, and a pass whose runs already span the count's tiles copies its one run.
//
// From sm_90 on, each launch after the first may start while the one before it finishes (programmatic stream
// serialization); every kernel waits in GridDependencyWait before it reads what the one before wrote.
//
// Temporary storage: num_items keys and num_items values (pairs only) when P > 0; else nothing
// (temporary_storage::layout asks for one byte).
#pragma once

#include <strata/agent/agent_merge_sort.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_merge_sort.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace merge_sort
{
STRATA_KERNELS_BEGIN

// Sorts tile blockIdx.x of the input into the same positions of the output.
template <typename MaxPolicyT, typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
          typename ValueOutputIteratorT, typename OffsetT, typename CompareOpT, typename KeyT, typename ValueT,
          typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::MergeSortPolicy::BLOCK_THREADS) void
DeviceMergeSortBlockSortKernel(KeyInputIteratorT keys_in, ValueInputIteratorT values_in, KeyOutputIteratorT keys_out,
                               ValueOutputIteratorT values_out, OffsetT num_items, CountT count, CompareOpT compare_op)
{
  using Policy = typename MaxPolicyT::ActivePolicy::MergeSortPolicy;
  using Agent = AgentBlockSort<Policy, KeyInputIteratorT, ValueInputIteratorT, KeyOutputIteratorT, ValueOutputIteratorT,
                               OffsetT, CompareOpT, KeyT, ValueT>;
  __shared__ typename Agent::TempStorage temp_storage;

  GridLaunchDependents();
  GridDependencyWait();
  unsigned int tiles = gridDim.x;
  if (!resolve_tiles(count, num_items, tiles, Policy::TILE_ITEMS) || blockIdx.x >= tiles)
  {
    return;
  }
  Agent(temp_storage, keys_in, values_in, keys_out, values_out, num_items, compare_op).Process(blockIdx.x);
}

// Writes output tile blockIdx.x of the pass that merges runs of tiles_per_run tiles.
template <typename MaxPolicyT, typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
          typename ValueOutputIteratorT, typename OffsetT, typename CompareOpT, typename KeyT, typename ValueT,
          typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::MergeSortPolicy::BLOCK_THREADS) void
DeviceMergeSortMergeKernel(KeyInputIteratorT keys_in, ValueInputIteratorT values_in, KeyOutputIteratorT keys_out,
                           ValueOutputIteratorT values_out, OffsetT num_items, CountT count, unsigned int tiles_per_run,
                           CompareOpT compare_op)
{
  using Policy = typename MaxPolicyT::ActivePolicy::MergeSortPolicy;
  using Agent  = AgentMerge<Policy, KeyInputIteratorT, ValueInputIteratorT, KeyOutputIteratorT, ValueOutputIteratorT,
                           OffsetT, CompareOpT, KeyT, ValueT>;
  __shared__ typename Agent::TempStorage temp_storage;

  GridLaunchDependents();
  GridDependencyWait();
  unsigned int tiles = gridDim.x;
  if (!resolve_tiles(count, num_items, tiles, Policy::TILE_ITEMS) || blockIdx.x >= tiles)
  {
    return;
  }
  Agent(temp_storage, keys_in, values_in, keys_out, values_out, num_items, compare_op)
    .Process(blockIdx.x, tiles_per_run);
}

STRATA_KERNELS_END

// The key type of a sort: the output's value type, or the input's where the output has none.
template <typename KeyIteratorT, typename KeyInputIteratorT>
using key_t = non_void_value_t<KeyIteratorT, it_value_t<KeyInputIteratorT>>;
} // namespace merge_sort
} // namespace detail

// The dispatch closure of DeviceMergeSort. A keys-only sort passes NullType* for both value iterators. The output
// iterators must be readable too: the merge passes read the runs back from them. The input iterators may be the
// output ones (an in-place sort).
template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyIteratorT, typename ValueIteratorT,
          typename OffsetT, typename CompareOpT,
          typename PolicyHub =
            detail::merge_sort::policy_hub<detail::merge_sort::key_t<KeyIteratorT, KeyInputIteratorT>,
                                           detail::merge_sort::key_t<ValueIteratorT, ValueInputIteratorT>>,
          typename CountT = detail::host_count>
struct DispatchMergeSort
{
  using KeyT                      = detail::merge_sort::key_t<KeyIteratorT, KeyInputIteratorT>;
  using ValueT                    = detail::merge_sort::key_t<ValueIteratorT, ValueInputIteratorT>;
  using MaxPolicy                 = typename PolicyHub::MaxPolicy;
  static constexpr bool KEYS_ONLY = cuda::std::is_same<ValueT, NullType>::value;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  KeyInputIteratorT d_input_keys;
  ValueInputIteratorT d_input_items;
  KeyIteratorT d_output_keys;
  ValueIteratorT d_output_items;
  OffsetT num_items; // the count, or the bound of a count in device memory
  CompareOpT compare_op;
  cudaStream_t stream;
  CountT count;
  int device;
  int ptx_version;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy           = typename ActivePolicyT::MergeSortPolicy;
    constexpr int TILE     = Policy::TILE_ITEMS;
    const size_t num_tiles = static_cast<size_t>((num_items + OffsetT(TILE - 1)) / OffsetT(TILE));
    if (num_tiles > size_t(0x7fffffff))
    {
      return cudaErrorInvalidValue; // a block per tile: the grid's x extent
    }
    const int num_passes = detail::log2_ceil(num_tiles);

    detail::temporary_storage::layout<2> layout;
    const size_t buffered = num_passes > 0 ? static_cast<size_t>(num_items) : 0;
    auto keys_buffer      = layout.get_slot(0)->create_alias<KeyT>(buffered);
    auto values_buffer    = layout.get_slot(1)->create_alias<ValueT>(KEYS_ONLY ? 0 : buffered);
    bool mapped           = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped || num_items == 0)
    {
      return cudaSuccess;
    }

    const unsigned int tiles      = static_cast<unsigned int>(num_tiles);
    KeyT* const d_keys_buffer     = keys_buffer.get();
    ValueT* const d_values_buffer = values_buffer.get();

    // The tile sort, into the output or the temporary copy: whichever the passes then leave the result in the output
    // from.
    const bool sort_to_buffer = num_passes % 2 == 1;
    if (sort_to_buffer)
    {
      STRATA_RETURN_IF_ERROR(block_sort<Policy>(false, tiles, d_keys_buffer, d_values_buffer));
    }
    else
    {
      STRATA_RETURN_IF_ERROR(block_sort<Policy>(false, tiles, d_output_keys, d_output_items));
    }

    const bool programmatic = ptx_version >= 900;
    for (int pass = 0; pass < num_passes; ++pass)
    {
      const unsigned int tiles_per_run = 1u << pass;
      const bool from_buffer           = (pass % 2 == 0) == sort_to_buffer;
      if (from_buffer)
      {
        STRATA_RETURN_IF_ERROR(merge_pass<Policy>(programmatic, tiles, tiles_per_run, d_keys_buffer, d_values_buffer,
                                                  d_output_keys, d_output_items));
      }
      else
      {
        STRATA_RETURN_IF_ERROR(merge_pass<Policy>(programmatic, tiles, tiles_per_run, d_output_keys, d_output_items,
                                                  d_keys_buffer, d_values_buffer));
      }
    }
    return cudaSuccess;
  }

  // The tile sort from the input into `keys_out` / `values_out`.
  template <typename PolicyT, typename KeyOutT, typename ValueOutT>
  cudaError_t block_sort(bool programmatic, unsigned int tiles, KeyOutT keys_out, ValueOutT values_out) const
  {
    const auto kernel =
      detail::merge_sort::DeviceMergeSortBlockSortKernel<MaxPolicy, KeyInputIteratorT, ValueInputIteratorT, KeyOutT,
                                                         ValueOutT, OffsetT, CompareOpT, KeyT, ValueT, CountT>;
    return detail::check_launch(LaunchAfter(programmatic, dim3(tiles), dim3(PolicyT::BLOCK_THREADS), stream, kernel,
                                            d_input_keys, d_input_items, keys_out, values_out, num_items, count,
                                            compare_op),
                                stream);
  }

  // One merge pass, from runs of tiles_per_run tiles in keys_in / values_in to runs twice as long in keys_out /
  // values_out.
  template <typename PolicyT, typename KeyInT, typename ValueInT, typename KeyOutT, typename ValueOutT>
  cudaError_t merge_pass(bool programmatic, unsigned int tiles, unsigned int tiles_per_run, KeyInT keys_in,
                         ValueInT values_in, KeyOutT keys_out, ValueOutT values_out) const
  {
    const auto kernel = detail::merge_sort::DeviceMergeSortMergeKernel<MaxPolicy, KeyInT, ValueInT, KeyOutT, ValueOutT,
                                                                       OffsetT, CompareOpT, KeyT, ValueT, CountT>;
    return detail::check_launch(LaunchAfter(programmatic, dim3(tiles), dim3(PolicyT::BLOCK_THREADS), stream, kernel,
                                            keys_in, values_in, keys_out, values_out, num_items, count, tiles_per_run,
                                            compare_op),
                                stream);
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the sort.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_input_keys,
                              ValueInputIteratorT d_input_items, KeyIteratorT d_output_keys,
                              ValueIteratorT d_output_items, OffsetT num_items, CompareOpT compare_op,
                              cudaStream_t stream, CountT count = {})
  {
    int device      = 0;
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
    DispatchMergeSort closure{d_temp_storage, temp_storage_bytes, d_input_keys, d_input_items, d_output_keys,
                              d_output_items, num_items,          compare_op,   stream,        count,
                              device,         ptx_version};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
