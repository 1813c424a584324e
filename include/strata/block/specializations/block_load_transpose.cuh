// BlockLoad algorithms that read coalesced and transpose in shared memory: BLOCK_LOAD_TRANSPOSE (striped read,
// StripedToBlocked) and BLOCK_LOAD_WARP_TRANSPOSE / _TIMESLICED (warp-striped read, WarpStripedToBlocked).
#pragma once

#include <strata/block/block_exchange.cuh>
#include <strata/block/specializations/block_load_direct.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util/load_store_direct.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
struct block_load_transpose
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  using BlockExchangeT = BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD, false, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  using TempStorage    = typename BlockExchangeT::TempStorage;

  TempStorage& temp_storage;
  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE block_load_transpose(TempStorage& storage, int tid)
      : temp_storage(storage)
      , linear_tid(tid)
  {}

  template <CacheLoadModifier MODIFIER, typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD])
  {
    LoadDirectStriped<BLOCK_THREADS>(linear_tid, with_load_modifier<MODIFIER>(it), items);
    BlockExchangeT(temp_storage).StripedToBlocked(items, items);
  }
  template <CacheLoadModifier MODIFIER, typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items)
  {
    LoadDirectStriped<BLOCK_THREADS>(linear_tid, with_load_modifier<MODIFIER>(it), items, valid_items);
    BlockExchangeT(temp_storage).StripedToBlocked(items, items);
  }
  template <CacheLoadModifier MODIFIER, typename InputIteratorT, typename DefaultT>
  STRATA_DEVICE STRATA_FORCEINLINE void
  Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items, DefaultT oob_default)
  {
    LoadDirectStriped<BLOCK_THREADS>(linear_tid, with_load_modifier<MODIFIER>(it), items, valid_items, oob_default);
    BlockExchangeT(temp_storage).StripedToBlocked(items, items);
  }
};

// The warp-striped read needs whole warps (it is CUB's arrangement, striding by 32 in every warp).
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool TIME_SLICED, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
struct block_load_warp_transpose
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(BLOCK_THREADS % WARP_THREADS == 0,
                "BLOCK_LOAD_WARP_TRANSPOSE(_TIMESLICED) needs a block of a multiple of 32 threads");
  using BlockExchangeT = BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD, TIME_SLICED, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  using TempStorage    = typename BlockExchangeT::TempStorage;

  TempStorage& temp_storage;
  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE block_load_warp_transpose(TempStorage& storage, int tid)
      : temp_storage(storage)
      , linear_tid(tid)
  {}

  template <CacheLoadModifier MODIFIER, typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD])
  {
    LoadDirectWarpStriped(linear_tid, with_load_modifier<MODIFIER>(it), items);
    BlockExchangeT(temp_storage).WarpStripedToBlocked(items, items);
  }
  template <CacheLoadModifier MODIFIER, typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items)
  {
    LoadDirectWarpStriped(linear_tid, with_load_modifier<MODIFIER>(it), items, valid_items);
    BlockExchangeT(temp_storage).WarpStripedToBlocked(items, items);
  }
  template <CacheLoadModifier MODIFIER, typename InputIteratorT, typename DefaultT>
  STRATA_DEVICE STRATA_FORCEINLINE void
  Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items, DefaultT oob_default)
  {
    LoadDirectWarpStriped(linear_tid, with_load_modifier<MODIFIER>(it), items, valid_items, oob_default);
    BlockExchangeT(temp_storage).WarpStripedToBlocked(items, items);
  }
};

} // namespace detail
STRATA_NAMESPACE_END
