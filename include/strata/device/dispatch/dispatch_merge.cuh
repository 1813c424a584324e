// DispatchMerge: DeviceMerge's kernels and the host closure that launches them. The partition kernel finds, for every
// tile boundary of the output, how many of the first range's items come before it (MergePath, one thread a boundary,
// into temporary storage); the merge kernel, launched after it with programmatic stream serialization on sm_90, then
// merges one output tile a block. One binary search per boundary reads about a sector of each range beyond the steps
// that neighbouring boundaries share; a warp's 32-way search inside each block (as the merge sort's passes find their
// shares) reads dozens, twice a tile. Searching that way, DeviceMerge ran at 0.71x CUB's speed on 2^28 u32 keys; with
// the partition pass, at 0.97x (H200).
#pragma once

#include <strata/agent/agent_merge_sort.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_merge.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace merge
{
STRATA_KERNELS_BEGIN

// The number of splits of a merge of `total` items into tiles of tile_items: a boundary before every tile and the end
// (none without items).
template <typename OffsetT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE OffsetT splits_of(OffsetT total, OffsetT tile_items)
{
  return total == OffsetT(0) ? OffsetT(0) : (total + tile_items - OffsetT(1)) / tile_items + OffsetT(1);
}

// splits[t] = MergePath's split at diagonal min(t * tile_items, keys1_count + keys2_count), t < the splits of the
// counts. keys1_count, keys2_count: the counts, or the bounds of count1's and count2's (read here at once: this grid
// is launched in stream order, so whatever wrote them has finished).
template <typename KeyIterator1T, typename KeyIterator2T, typename OffsetT, typename CompareOpT, typename Count1T,
          typename Count2T>
STRATA_KERNEL_ATTRIBUTES void DeviceMergePartitionKernel(KeyIterator1T keys1, OffsetT keys1_count, KeyIterator2T keys2,
                                                         OffsetT keys2_count, OffsetT* splits, OffsetT tile_items,
                                                         CompareOpT compare_op, Count1T count1, Count2T count2)
{
  GridLaunchDependents();
  keys1_count              = count1.resolve(keys1_count);
  keys2_count              = count2.resolve(keys2_count);
  const OffsetT num_splits = splits_of(keys1_count + keys2_count, tile_items);
  const OffsetT t          = static_cast<OffsetT>(blockIdx.x) * OffsetT(blockDim.x) + static_cast<OffsetT>(threadIdx.x);
  if (t < num_splits)
  {
    // The last boundary is the merge's end; the others lie inside it, so their products do not overflow OffsetT.
    const OffsetT diag = t == num_splits - OffsetT(1) ? keys1_count + keys2_count : t * tile_items;
    splits[t]          = MergePath(keys1, keys2, keys1_count, keys2_count, diag, compare_op);
  }
}

// Block b writes positions [b * TILE, (b + 1) * TILE) of the merge, its share of the ranges between splits[b] and
// splits[b + 1]. keys1_count, keys2_count: the counts, or the bounds of count1's and count2's (blocks past the counts'
// tiles return). The counts are read before the grid-dependency wait: the partition kernel before this grid is
// launched in stream order, so whatever wrote them has finished before this grid can start.
template <typename MaxPolicyT, typename KeyIterator1T, typename ValueIterator1T, typename KeyIterator2T,
          typename ValueIterator2T, typename KeyOutputIteratorT, typename ValueOutputIteratorT, typename OffsetT,
          typename CompareOpT, typename KeyT, typename ValueT, typename Count1T, typename Count2T>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::MergePolicy::BLOCK_THREADS) void
DeviceMergeKernel(KeyIterator1T keys1, ValueIterator1T values1, KeyIterator2T keys2, ValueIterator2T values2,
                  OffsetT keys1_count, OffsetT keys2_count, const OffsetT* splits, KeyOutputIteratorT keys_out,
                  ValueOutputIteratorT values_out, CompareOpT compare_op, Count1T count1, Count2T count2)
{
  using Policy = typename MaxPolicyT::ActivePolicy::MergePolicy;
  using Agent  = AgentMergeRanges<Policy, KeyIterator1T, ValueIterator1T, KeyIterator2T, ValueIterator2T,
                                 KeyOutputIteratorT, ValueOutputIteratorT, OffsetT, CompareOpT, KeyT, ValueT>;
  __shared__ typename Agent::TempStorage temp_storage;
  const OffsetT total    = count1.resolve(keys1_count) + count2.resolve(keys2_count);
  const OffsetT diag_beg = static_cast<OffsetT>(blockIdx.x) * OffsetT(Policy::TILE_ITEMS);
  if (diag_beg >= total)
  {
    return; // past the counts' tiles
  }
  const OffsetT diag_end =
    total - diag_beg < OffsetT(Policy::TILE_ITEMS) ? total : diag_beg + OffsetT(Policy::TILE_ITEMS);
  GridDependencyWait();
  const OffsetT keys1_beg = splits[blockIdx.x];
  const OffsetT keys1_end = splits[blockIdx.x + 1];
  Agent(temp_storage, keys1, values1, keys2, values2, keys_out, values_out, compare_op)
    .ConsumeTile(diag_beg, diag_end, keys1_beg, keys1_end);
}

STRATA_KERNELS_END
} // namespace merge
} // namespace detail

// A keys-only merge passes NullType* for the three value iterators. Count1T, Count2T: detail::host_count (the count
// is keys1_count / keys2_count), or detail::item_count (that bounds a count in device memory, which the kernels read).
template <typename KeyIterator1T, typename ValueIterator1T, typename KeyIterator2T, typename ValueIterator2T,
          typename KeyOutputIteratorT, typename ValueOutputIteratorT, typename OffsetT, typename CompareOpT,
          typename KeyT, typename ValueT, typename PolicyHub = detail::merge::policy_hub<KeyT, ValueT>,
          typename Count1T = detail::host_count, typename Count2T = detail::host_count>
struct DispatchMerge
{
  using MaxPolicy = typename PolicyHub::MaxPolicy;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  KeyIterator1T keys1;
  ValueIterator1T values1;
  OffsetT keys1_count;
  KeyIterator2T keys2;
  ValueIterator2T values2;
  OffsetT keys2_count;
  KeyOutputIteratorT keys_out;
  ValueOutputIteratorT values_out;
  CompareOpT compare_op;
  cudaStream_t stream;
  int ptx_version;
  Count1T count1;
  Count2T count2;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy        = typename ActivePolicyT::MergePolicy;
    const OffsetT total = keys1_count + keys2_count;
    const OffsetT tiles = (total + OffsetT(Policy::TILE_ITEMS - 1)) / OffsetT(Policy::TILE_ITEMS);
    if (static_cast<unsigned long long>(tiles) > 0x7fffffffULL)
    {
      return cudaErrorInvalidValue; // more tiles than a grid has blocks
    }
    const OffsetT num_splits = detail::merge::splits_of(total, OffsetT(Policy::TILE_ITEMS)); // none without items
    detail::temporary_storage::layout<1> layout;
    auto splits = layout.get_slot(0)->create_alias<OffsetT>(static_cast<size_t>(num_splits));
    bool mapped = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped || total == OffsetT(0))
    {
      return cudaSuccess;
    }
    constexpr int PARTITION_THREADS = 256;
    const auto partition_kernel =
      detail::merge::DeviceMergePartitionKernel<KeyIterator1T, KeyIterator2T, OffsetT, CompareOpT, Count1T, Count2T>;
    STRATA_RETURN_IF_ERROR(
      detail::check_launch(Launch(dim3(static_cast<unsigned int>((num_splits + OffsetT(PARTITION_THREADS - 1))
                                                                 / OffsetT(PARTITION_THREADS))),
                                  dim3(PARTITION_THREADS), stream, partition_kernel, keys1, keys1_count, keys2,
                                  keys2_count, splits.get(), OffsetT(Policy::TILE_ITEMS), compare_op, count1, count2),
                           stream));
    const auto kernel = detail::merge::DeviceMergeKernel<MaxPolicy, KeyIterator1T, ValueIterator1T, KeyIterator2T,
                                                         ValueIterator2T, KeyOutputIteratorT, ValueOutputIteratorT,
                                                         OffsetT, CompareOpT, KeyT, ValueT, Count1T, Count2T>;
    return detail::check_launch(LaunchAfter(ptx_version >= 900, dim3(static_cast<unsigned int>(tiles)),
                                            dim3(Policy::BLOCK_THREADS), stream, kernel, keys1, values1, keys2, values2,
                                            keys1_count, keys2_count, static_cast<const OffsetT*>(splits.get()),
                                            keys_out, values_out, compare_op, count1, count2),
                                stream);
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the merge.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, KeyIterator1T keys1,
                              ValueIterator1T values1, OffsetT keys1_count, KeyIterator2T keys2,
                              ValueIterator2T values2, OffsetT keys2_count, KeyOutputIteratorT keys_out,
                              ValueOutputIteratorT values_out, CompareOpT compare_op, cudaStream_t stream,
                              Count1T count1 = {}, Count2T count2 = {})
  {
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(PtxVersion(ptx_version));
    DispatchMerge closure{d_temp_storage, temp_storage_bytes, keys1,      values1,    keys1_count, keys2,       values2,
                          keys2_count,    keys_out,           values_out, compare_op, stream,      ptx_version, count1,
                          count2};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
