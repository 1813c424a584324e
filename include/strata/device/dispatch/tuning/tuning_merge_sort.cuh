// Tunings of DeviceMergeSort, per architecture, chosen by the compile-time workload: the size of the larger of the
// key and the value, which sets the registers an item costs and the shared memory a tile takes (a tile of keys,
// then of values, in one union).
#pragma once

#include <strata/agent/agent_merge_sort.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace merge_sort
{

// Items per thread that hold as many bytes as `nominal` 4-byte items, between 1 and `nominal`.
constexpr int items_for_bytes(int nominal, int item_size)
{
  return nominal * 4 / item_size < 1 ? 1 : (nominal * 4 / item_size > nominal ? nominal : nominal * 4 / item_size);
}

// The larger of the key's and the value's size (the key's for a keys-only sort).
template <typename KeyT, typename ValueT>
constexpr int item_size_v = cuda::std::is_same<ValueT, NullType>::value || sizeof(KeyT) >= sizeof(ValueT)
                            ? static_cast<int>(sizeof(KeyT))
                            : static_cast<int>(sizeof(ValueT));

// Loads are LOAD_PLAIN everywhere: LOAD_DEFAULT's favouring of the tile in L2 (block_load_transpose.cuh) made the
// tile sort of u32 keys spill (12 bytes at 48 registers, sm_90), and a merge sort reads each item log2(tiles) times.

// The sm_90 tuning every workload starts from; workloads override the fields they tune.
struct sm90_base_tuning
{
  static constexpr int threads = 256;
  // Items per thread for 4-byte keys and values (fewer for larger ones). Odd: item i of every thread of a warp, as
  // the block sort's rounds write them to shared memory, falls in 32 distinct banks for 4-byte keys.
  static constexpr int nominal_items = 17;
};

template <typename KeyT, typename ValueT, int ITEM_SIZE = item_size_v<KeyT, ValueT>, typename Enable = void>
struct sm90_tuning : sm90_base_tuning
{};

// 8-byte items: 10 a thread rather than the 8 that 17 four-byte items would make. sm90: 1.20x the 8-item tile at
// 2^24 u64 keys, the same at 2^16 and 2^20 (H200).
template <typename KeyT, typename ValueT>
struct sm90_tuning<KeyT, ValueT, 8, void> : sm90_base_tuning
{
  static constexpr int nominal_items = 20;
};

template <typename TuningT, typename KeyT, typename ValueT>
using sm90_merge_sort_policy =
  AgentMergeSortPolicy<TuningT::threads, items_for_bytes(TuningT::nominal_items, item_size_v<KeyT, ValueT>),
                       BLOCK_LOAD_WARP_TRANSPOSE, LOAD_PLAIN, BLOCK_STORE_WARP_TRANSPOSE>;

template <typename KeyT, typename ValueT>
struct policy_hub
{
  static constexpr int ITEM_SIZE = item_size_v<KeyT, ValueT>;

  // Pascal and Volta: 256 threads of 17 four-byte items, warp-transposed loads and stores (CUB's shape; not measured
  // here).
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using MergeSortPolicy = AgentMergeSortPolicy<256, items_for_bytes(17, ITEM_SIZE), BLOCK_LOAD_WARP_TRANSPOSE,
                                                 LOAD_PLAIN, BLOCK_STORE_WARP_TRANSPOSE>;
  };

  // Ampere: Pascal's shape (not measured here).
  struct Policy800 : ChainedPolicy<800, Policy800, Policy600>
  {
    using MergeSortPolicy = typename Policy600::MergeSortPolicy;
  };

  struct Policy900 : ChainedPolicy<900, Policy900, Policy800>
  {
    using MergeSortPolicy = sm90_merge_sort_policy<sm90_tuning<KeyT, ValueT>, KeyT, ValueT>;
  };

  using MaxPolicy = Policy900;
};

} // namespace merge_sort
} // namespace detail
STRATA_NAMESPACE_END
