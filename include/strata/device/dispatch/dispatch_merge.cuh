// DispatchMerge: DeviceMerge's kernel and the host closure that launches it. One launch, one block per output tile
// (AgentMergeRanges: each block finds its share of the two ranges by merge path itself); no temporary storage.
#pragma once

#include <strata/agent/agent_merge_sort.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_merge.cuh>
#include <strata/util/device.cuh>
#include <strata/util/error.cuh>
#include <strata/util/temporary_storage.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace merge
{
STRATA_KERNELS_BEGIN

// Block b writes positions [b * TILE, (b + 1) * TILE) of the merge.
template <typename MaxPolicyT, typename KeyIterator1T, typename ValueIterator1T, typename KeyIterator2T,
          typename ValueIterator2T, typename KeyOutputIteratorT, typename ValueOutputIteratorT, typename OffsetT,
          typename CompareOpT, typename KeyT, typename ValueT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::MergePolicy::BLOCK_THREADS) void
DeviceMergeKernel(KeyIterator1T keys1, ValueIterator1T values1, OffsetT keys1_count, KeyIterator2T keys2,
                  ValueIterator2T values2, OffsetT keys2_count, KeyOutputIteratorT keys_out,
                  ValueOutputIteratorT values_out, CompareOpT compare_op)
{
  using Policy = typename MaxPolicyT::ActivePolicy::MergePolicy;
  using Agent  = AgentMergeRanges<Policy, KeyIterator1T, ValueIterator1T, KeyIterator2T, ValueIterator2T,
                                 KeyOutputIteratorT, ValueOutputIteratorT, OffsetT, CompareOpT, KeyT, ValueT>;
  __shared__ typename Agent::TempStorage temp_storage;
  const OffsetT total    = keys1_count + keys2_count;
  const OffsetT diag_beg = static_cast<OffsetT>(blockIdx.x) * OffsetT(Policy::TILE_ITEMS);
  const OffsetT diag_end =
    total - diag_beg < OffsetT(Policy::TILE_ITEMS) ? total : diag_beg + OffsetT(Policy::TILE_ITEMS);
  Agent(temp_storage, keys1, values1, keys1_count, keys2, values2, keys2_count, keys_out, values_out, compare_op)
    .ConsumeTile(diag_beg, diag_end);
}

STRATA_KERNELS_END
} // namespace merge
} // namespace detail

// A keys-only merge passes NullType* for the three value iterators.
template <typename KeyIterator1T, typename ValueIterator1T, typename KeyIterator2T, typename ValueIterator2T,
          typename KeyOutputIteratorT, typename ValueOutputIteratorT, typename OffsetT, typename CompareOpT,
          typename KeyT, typename ValueT, typename PolicyHub = detail::merge::policy_hub<KeyT, ValueT>>
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

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy = typename ActivePolicyT::MergePolicy;
    detail::temporary_storage::layout<1> layout;
    bool mapped = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    const OffsetT total = keys1_count + keys2_count;
    if (!mapped || total == OffsetT(0))
    {
      return cudaSuccess;
    }
    const OffsetT tiles = (total + OffsetT(Policy::TILE_ITEMS - 1)) / OffsetT(Policy::TILE_ITEMS);
    if (static_cast<unsigned long long>(tiles) > 0x7fffffffULL)
    {
      return cudaErrorInvalidValue; // more tiles than a grid has blocks
    }
    const auto kernel =
      detail::merge::DeviceMergeKernel<MaxPolicy, KeyIterator1T, ValueIterator1T, KeyIterator2T, ValueIterator2T,
                                       KeyOutputIteratorT, ValueOutputIteratorT, OffsetT, CompareOpT, KeyT, ValueT>;
    return detail::check_launch(Launch(dim3(static_cast<unsigned int>(tiles)), dim3(Policy::BLOCK_THREADS), stream,
                                       kernel, keys1, values1, keys1_count, keys2, values2, keys2_count, keys_out,
                                       values_out, compare_op),
                                stream);
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the merge.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, KeyIterator1T keys1,
                              ValueIterator1T values1, OffsetT keys1_count, KeyIterator2T keys2,
                              ValueIterator2T values2, OffsetT keys2_count, KeyOutputIteratorT keys_out,
                              ValueOutputIteratorT values_out, CompareOpT compare_op, cudaStream_t stream)
  {
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(PtxVersion(ptx_version));
    DispatchMerge closure{d_temp_storage, temp_storage_bytes, keys1,    values1,    keys1_count, keys2,
                          values2,        keys2_count,        keys_out, values_out, compare_op,  stream};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
