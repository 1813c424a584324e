// BlockStore algorithms that write straight from registers, with no shared memory: BLOCK_STORE_DIRECT and
// BLOCK_STORE_VECTORIZE (one implementation, block_store_direct: blocked; a full tile through 16-byte vectors
// where the pointer allows, partial tiles item by item) and BLOCK_STORE_STRIPED.
#pragma once

#include <strata/config.cuh>
#include <strata/util/load_store_direct.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

template <typename T, int BLOCK_THREADS, int ITEMS_PER_THREAD>
struct block_store_direct
{
  using TempStorage = NullType;

  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE block_store_direct(TempStorage&, int tid)
      : linear_tid(tid)
  {}

  // A full tile through a T*: vectors of up to 16 bytes where T and the pointer's alignment (checked at run time)
  // allow (see block_load_direct).
  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT it, const T (&items)[ITEMS_PER_THREAD])
  {
    if constexpr (cuda::std::is_same<OutputIteratorT, T*>::value)
    {
      StoreDirectBlockedVectorized(linear_tid, it, items);
    }
    else
    {
      StoreDirectBlocked(linear_tid, it, items);
    }
  }
  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT it, const T (&items)[ITEMS_PER_THREAD], int valid_items)
  {
    StoreDirectBlocked(linear_tid, it, items, valid_items);
  }
};

template <typename T, int BLOCK_THREADS, int ITEMS_PER_THREAD>
struct block_store_striped
{
  using TempStorage = NullType;

  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE block_store_striped(TempStorage&, int tid)
      : linear_tid(tid)
  {}

  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT it, const T (&items)[ITEMS_PER_THREAD])
  {
    StoreDirectStriped<BLOCK_THREADS>(linear_tid, it, items);
  }
  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT it, const T (&items)[ITEMS_PER_THREAD], int valid_items)
  {
    StoreDirectStriped<BLOCK_THREADS>(linear_tid, it, items, valid_items);
  }
};

} // namespace detail
STRATA_NAMESPACE_END
