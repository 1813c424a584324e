// BlockStore algorithms that transpose in shared memory and write coalesced: BLOCK_STORE_TRANSPOSE
// (BlockedToStriped, striped write) and BLOCK_STORE_WARP_TRANSPOSE / _TIMESLICED (BlockedToWarpStriped,
// warp-striped write). The exchange goes into a local copy, so the caller's items stay blocked.
#pragma once

#include <strata/block/block_exchange.cuh>
#include <strata/config.cuh>
#include <strata/util/load_store_direct.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
struct block_store_transpose
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  using BlockExchangeT               = BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD, false, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  using TempStorage                  = typename BlockExchangeT::TempStorage;

  TempStorage& temp_storage;
  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE block_store_transpose(TempStorage& storage, int tid)
      : temp_storage(storage)
      , linear_tid(tid)
  {}

  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT it, const T (&items)[ITEMS_PER_THREAD])
  {
    T striped[ITEMS_PER_THREAD];
    BlockExchangeT(temp_storage).BlockedToStriped(items, striped);
    StoreDirectStriped<BLOCK_THREADS>(linear_tid, it, striped);
  }
  // valid_items is the same in every thread (the contract) and stays in a register; CUB passes it through
  // shared memory behind an extra barrier, an old workaround against register spills.
  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT it, const T (&items)[ITEMS_PER_THREAD], int valid_items)
  {
    T striped[ITEMS_PER_THREAD];
    BlockExchangeT(temp_storage).BlockedToStriped(items, striped);
    StoreDirectStriped<BLOCK_THREADS>(linear_tid, it, striped, valid_items);
  }
};

// The warp-striped write needs whole warps (it is CUB's arrangement, striding by 32 in every warp).
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool TIME_SLICED, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
struct block_store_warp_transpose
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(BLOCK_THREADS % WARP_THREADS == 0,
                "BLOCK_STORE_WARP_TRANSPOSE(_TIMESLICED) needs a block of a multiple of 32 threads");
  using BlockExchangeT = BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD, TIME_SLICED, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  using TempStorage    = typename BlockExchangeT::TempStorage;

  TempStorage& temp_storage;
  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE block_store_warp_transpose(TempStorage& storage, int tid)
      : temp_storage(storage)
      , linear_tid(tid)
  {}

  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT it, const T (&items)[ITEMS_PER_THREAD])
  {
    T warp_striped[ITEMS_PER_THREAD];
    BlockExchangeT(temp_storage).BlockedToWarpStriped(items, warp_striped);
    StoreDirectWarpStriped(linear_tid, it, warp_striped);
  }
  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT it, const T (&items)[ITEMS_PER_THREAD], int valid_items)
  {
    T warp_striped[ITEMS_PER_THREAD];
    BlockExchangeT(temp_storage).BlockedToWarpStriped(items, warp_striped);
    StoreDirectWarpStriped(linear_tid, it, warp_striped, valid_items);
  }
};

} // namespace detail
STRATA_NAMESPACE_END
