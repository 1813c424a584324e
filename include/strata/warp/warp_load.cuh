// WarpLoad: a logical warp reads a linear segment of memory into a blocked arrangement of its lanes' registers.
#pragma once

#include <strata/config.cuh>
#include <strata/util/load_store_direct.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/warp_exchange.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// How WarpLoad reads memory. DIRECT, VECTORIZE and TRANSPOSE produce the blocked arrangement (lane l holds
// segment items [l * ITEMS_PER_THREAD, (l + 1) * ITEMS_PER_THREAD)); STRIPED produces the striped one.
enum WarpLoadAlgorithm
{
  // Each lane reads its own items directly. Coalescing falls as ITEMS_PER_THREAD grows.
  WARP_LOAD_DIRECT,
  // Each lane reads items l, l + LOGICAL_WARP_THREADS, ... (fully coalesced) and keeps them striped, as in CUB.
  WARP_LOAD_STRIPED,
  // As DIRECT, through 16-byte (or the widest whole) vector loads when the iterator is a pointer to InputT,
  // InputT is arithmetic and the pointer is aligned to the vector width (checked at run time); otherwise, and
  // for guarded loads, as DIRECT.
  WARP_LOAD_VECTORIZE,
  // Coalesced striped reads, then a WarpExchange (shared memory) into the blocked arrangement.
  WARP_LOAD_TRANSPOSE
};

namespace detail
{
// The shared memory a WarpLoad needs: a WarpExchange tile for TRANSPOSE, nothing otherwise.
template <WarpLoadAlgorithm ALGORITHM, typename T, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS>
struct warp_load_storage
{
  using type = NullType;
};
template <typename T, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS>
struct warp_load_storage<WARP_LOAD_TRANSPOSE, T, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>
{
  using type = typename WarpExchange<T, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>::TempStorage;
};

// True when `IteratorT` is a raw pointer to T (const or not): the only iterators accessed in vectors.
template <typename IteratorT, typename T>
constexpr bool is_pointer_to_v =
  cuda::std::is_same<IteratorT, T*>::value || cuda::std::is_same<IteratorT, const T*>::value;
} // namespace detail

// WarpLoad<InputT, ITEMS_PER_THREAD, ALGORITHM, LOGICAL_WARP_THREADS>
//
// Each logical warp of LOGICAL_WARP_THREADS lanes (a power of two <= 32, aligned within the hardware warp)
// loads ITEMS_PER_THREAD * LOGICAL_WARP_THREADS consecutive items starting at the iterator it passes, in the
// arrangement ALGORITHM produces (blocked for all but WARP_LOAD_STRIPED). Every lane of the logical warp must call
// Load with the same iterator and valid_items.
//   Load(itr, items)                            all items
//   Load(itr, items, valid_items)               segment items >= valid_items are not read; the register
//                                               items that would hold them are left unspecified
//   Load(itr, items, valid_items, oob_default)  ... and are set to oob_default
//
// Temporary storage: TempStorage, one per logical warp (empty except for WARP_LOAD_TRANSPOSE). Reusing it for
// another call needs a __syncwarp() of the logical warp first. The default constructor uses one private
// __shared__ TempStorage for the whole thread block: with WARP_LOAD_TRANSPOSE that is safe only when a single
// logical warp of the block uses it (as in CUB); pass each logical warp its own TempStorage otherwise.
//
// Example: 16-lane logical warps each loading 64 ints, transposed to blocked.
//   using WarpLoadT = strata::WarpLoad<int, 4, strata::WARP_LOAD_TRANSPOSE, 16>;
//   __shared__ typename WarpLoadT::TempStorage temp_storage[128 / 16];
//   const int warp_id = threadIdx.x / 16;
//   int items[4];
//   WarpLoadT(temp_storage[warp_id]).Load(d_in + warp_id * 64, items);
template <typename InputT, int ITEMS_PER_THREAD, WarpLoadAlgorithm ALGORITHM = WARP_LOAD_DIRECT,
          int LOGICAL_WARP_THREADS = WARP_THREADS>
class WarpLoad
{
  static_assert(cuda::std::has_single_bit(static_cast<unsigned>(LOGICAL_WARP_THREADS))
                  && LOGICAL_WARP_THREADS <= WARP_THREADS,
                "LOGICAL_WARP_THREADS must be a power of two of at most 32");

  using _TempStorage =
    typename detail::warp_load_storage<ALGORITHM, InputT, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>::type;
  using exchange_t = WarpExchange<InputT, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>;

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

  STRATA_DEVICE STRATA_FORCEINLINE WarpLoad()
      : temp_storage(PrivateStorage())
      , linear_tid(LogicalLaneId())
  {}

  STRATA_DEVICE STRATA_FORCEINLINE WarpLoad(TempStorage& storage)
      : temp_storage(storage.Alias())
      , linear_tid(LogicalLaneId())
  {}

  // Loads all ITEMS_PER_THREAD * LOGICAL_WARP_THREADS items of the segment at `block_itr`.
  template <typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD])
  {
    if constexpr (ALGORITHM == WARP_LOAD_DIRECT)
    {
      LoadDirectBlocked(linear_tid, block_itr, items);
    }
    else if constexpr (ALGORITHM == WARP_LOAD_STRIPED)
    {
      LoadDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items);
    }
    else if constexpr (ALGORITHM == WARP_LOAD_VECTORIZE)
    {
      if constexpr (detail::is_pointer_to_v<InputIteratorT, InputT>)
      {
        LoadDirectBlockedVectorized(linear_tid, block_itr, items);
      }
      else
      {
        LoadDirectBlocked(linear_tid, block_itr, items);
      }
    }
    else
    {
      LoadDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items);
      exchange_t(temp_storage).StripedToBlocked(items, items);
    }
  }

  // Loads the segment's first `valid_items` items.
  template <typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD],
                                             int valid_items)
  {
    if constexpr (ALGORITHM == WARP_LOAD_DIRECT || ALGORITHM == WARP_LOAD_VECTORIZE)
    {
      LoadDirectBlocked(linear_tid, block_itr, items, valid_items);
    }
    else if constexpr (ALGORITHM == WARP_LOAD_STRIPED)
    {
      LoadDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items, valid_items);
    }
    else
    {
      LoadDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items, valid_items);
      exchange_t(temp_storage).StripedToBlocked(items, items);
    }
  }

  // Loads the segment's first `valid_items` items; the others become `oob_default`.
  template <typename InputIteratorT, typename DefaultT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD],
                                             int valid_items, DefaultT oob_default)
  {
    if constexpr (ALGORITHM == WARP_LOAD_DIRECT || ALGORITHM == WARP_LOAD_VECTORIZE)
    {
      LoadDirectBlocked(linear_tid, block_itr, items, valid_items, oob_default);
    }
    else if constexpr (ALGORITHM == WARP_LOAD_STRIPED)
    {
      LoadDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items, valid_items, oob_default);
    }
    else
    {
      LoadDirectStriped<LOGICAL_WARP_THREADS>(linear_tid, block_itr, items, valid_items, oob_default);
      exchange_t(temp_storage).StripedToBlocked(items, items);
    }
  }
};

STRATA_NAMESPACE_END
