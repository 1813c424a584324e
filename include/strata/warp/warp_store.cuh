// WarpStore: a logical warp writes a blocked arrangement of its lanes' registers to a linear segment of memory.
#pragma once

#include <strata/config.cuh>
#include <strata/util/load_store_direct.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/warp_exchange.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// How WarpStore writes memory. DIRECT, VECTORIZE and TRANSPOSE take the blocked arrangement (lane l holds
// segment items [l * ITEMS_PER_THREAD, (l + 1) * ITEMS_PER_THREAD)); STRIPED takes the striped one.
enum WarpStoreAlgorithm
{
  // Each lane writes its own items directly. Coalescing falls as ITEMS_PER_THREAD grows.
  WARP_STORE_DIRECT,
  // Each lane writes items l, l + LOGICAL_WARP_THREADS, ... (fully coalesced) from a striped arrangement.
  WARP_STORE_STRIPED,
  // As DIRECT, through 16-byte (or the widest whole) vector stores when the iterator is a pointer to T, T is
  // arithmetic and the pointer is aligned to the vector width (checked at run time); otherwise, and for guarded
  // stores, as DIRECT.
  WARP_STORE_VECTORIZE,
  // A WarpExchange (shared memory) from blocked to striped, then coalesced striped writes.
  WARP_STORE_TRANSPOSE
};

namespace detail
{
// The shared memory a WarpStore needs: a WarpExchange tile for TRANSPOSE, nothing otherwise.
template <WarpStoreAlgorithm ALGORITHM, typename T, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS>
struct warp_store_storage
{
  using type = NullType;
};
template <typename T, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS>
struct warp_store_storage<WARP_STORE_TRANSPOSE, T, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>
{
  using type = typename WarpExchange<T, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>::TempStorage;
};
} // namespace detail

// WarpStore<T, ITEMS_PER_THREAD, ALGORITHM, LOGICAL_WARP_THREADS>
//
// Each logical warp of LOGICAL_WARP_THREADS lanes (a power of two <= 32, aligned within the hardware warp)
// stores ITEMS_PER_THREAD * LOGICAL_WARP_THREADS items to consecutive positions starting at the iterator it
// passes. Every lane of the logical warp must call Store with the same iterator and valid_items.
//   Store(itr, items)               all items
//   Store(itr, items, valid_items)  only the segment's first valid_items positions are written
// The caller's items are not modified (CUB's TRANSPOSE store leaves them striped; this one works on a copy).
//
// Temporary storage: TempStorage, one per logical warp (empty except for WARP_STORE_TRANSPOSE). Reusing it for
// another call needs a __syncwarp() of the logical warp first. The default constructor uses one private
// __shared__ TempStorage for the whole thread block: with WARP_STORE_TRANSPOSE that is safe only when a single
// logical warp of the block uses it (as in CUB); pass each logical warp its own TempStorage otherwise.
//
// Example: 16-lane logical warps each storing 64 ints held blocked, through a transpose.
//   using WarpStoreT = strata::WarpStore<int, 4, strata::WARP_STORE_TRANSPOSE, 16>;
//   __shared__ typename WarpStoreT::TempStorage temp_storage[128 / 16];
//   const int warp_id = threadIdx.x / 16;
//   int items[4];                                   // blocked: lane l holds 4l .. 4l+3 of its warp's 64
//   WarpStoreT(temp_storage[warp_id]).Store(d_out + warp_id * 64, items);
template <typename T, int ITEMS_PER_THREAD, WarpStoreAlgorithm ALGORITHM = WARP_STORE_DIRECT,
          int LOGICAL_WARP_THREADS = WARP_THREADS>
class WarpStore
{
  static_assert(cuda::std::has_single_bit(static_cast<unsigned>(LOGICAL_WARP_THREADS))
                  && LOGICAL_WARP_THREADS <= WARP_THREADS,
                "LOGICAL_WARP_THREADS must be a power of two of at most 32");

  using _TempStorage = typename detail::warp_store_storage<ALGORITHM, T, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>::type;
  using exchange_t   = WarpExchange<T, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>;

  STRATA_DEVICE STRATA_FORCEINLINE static _TempStorage& PrivateStorage()
  {
    __shared__ _TempStorage private_storage;
    return private_storage;
  }

  STRATA_DEVICE STRATA_FORCEINLINE static int LogicalLaneId()
  {
    return static_cast<int>(LOGICAL_WARP_THREADS == WARP_THREADS ? LaneId() : LaneId() % LOGICAL_WARP_THREADS);
  }

  _TempStorage& temp_storage;
  // Lane within the logical warp.
  int linear_tid;

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  STRATA_DEVICE STRATA_FORCEINLINE WarpStore()
      : temp_storage(PrivateStorage())
      , linear_tid(LogicalLaneId())
  {}

  STRATA_DEVICE STRATA_FORCEINLINE WarpStore(TempStorage& storage)
      : temp_storage(storage.Alias())
      , linear_tid(LogicalLaneId())
  {}

  // Stores all ITEMS_PER_THREAD * LOGICAL_WARP_THREADS items to the segment at `block_itr`.
  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT block_itr, const T (&items)[ITEMS_PER_THREAD])
  {
    if constexpr (ALGORITHM == WARP_STORE_DIRECT)
    {
      StoreDirectBlocked(linear_tid, block_itr, items);
    }
    else if constexpr (ALGORITHM == WARP_STORE_STRIPED)
    {
      StoreDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items);
    }
    else if constexpr (ALGORITHM == WARP_STORE_VECTORIZE)
    {
      if constexpr (cuda::std::is_same<OutputIteratorT, T*>::value)
      {
        StoreDirectBlockedVectorized(linear_tid, block_itr, items);
      }
      else
      {
        StoreDirectBlocked(linear_tid, block_itr, items);
      }
    }
    else
    {
      T striped[ITEMS_PER_THREAD];
      exchange_t(temp_storage).BlockedToStriped(items, striped);
      StoreDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, striped);
    }
  }

  // Stores the items that belong at the segment's first `valid_items` positions.
  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT block_itr, const T (&items)[ITEMS_PER_THREAD],
                                              int valid_items)
  {
    if constexpr (ALGORITHM == WARP_STORE_DIRECT || ALGORITHM == WARP_STORE_VECTORIZE)
    {
      StoreDirectBlocked(linear_tid, block_itr, items, valid_items);
    }
    else if constexpr (ALGORITHM == WARP_STORE_STRIPED)
    {
      StoreDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items, valid_items);
    }
    else
    {
      T striped[ITEMS_PER_THREAD];
      exchange_t(temp_storage).BlockedToStriped(items, striped);
      StoreDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, striped, valid_items);
    }
  }
};

STRATA_NAMESPACE_END
