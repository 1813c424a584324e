// WarpExchange: rearranges the items a logical warp holds between the blocked and the striped arrangement, or
// scatters them by rank into the striped arrangement.
#pragma once

#include <strata/config.cuh>
#include <strata/warp/specializations/warp_exchange_shfl.cuh>
#include <strata/warp/specializations/warp_exchange_smem.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// How WarpExchange moves items between lanes.
enum WarpExchangeAlgorithm
{
  // Through a shared-memory tile of the logical warp (padded against bank conflicts). Any shape; ScatterToStriped.
  WARP_EXCHANGE_SMEM,
  // Through register shuffles; no shared memory. Requires ITEMS_PER_THREAD == LOGICAL_WARP_THREADS.
  WARP_EXCHANGE_SHUFFLE,
};

// WarpExchange<T, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS, ALGORITHM>
//
// The LOGICAL_WARP_THREADS lanes of a logical warp (a power of two <= 32; logical warps are aligned groups of
// lanes of a hardware warp) hold a tile of ITEMS_PER_THREAD * LOGICAL_WARP_THREADS items. In the blocked
// arrangement lane l holds tile items [l * ITEMS_PER_THREAD, (l + 1) * ITEMS_PER_THREAD); in the striped
// arrangement lane l holds items l, l + LOGICAL_WARP_THREADS, l + 2 * LOGICAL_WARP_THREADS, ...
//   BlockedToStriped / StripedToBlocked   convert between the two (output may alias input);
//   ScatterToStriped(items, ranks)        item k of lane l goes to tile position ranks[k], then the tile is
//                                         returned striped (SMEM only).
// Every lane of the logical warp must call each method.
//
// Temporary storage: TempStorage, one per logical warp (an empty one for WARP_EXCHANGE_SHUFFLE). A method may be
// called again with the same storage only after a __syncwarp() of the logical warp, as in CUB.
// Cost: SMEM, ITEMS_PER_THREAD shared-memory writes and reads per lane, conflict-free for odd and power-of-two
// ITEMS_PER_THREAD; SHUFFLE, (N/2) log2(N) shuffles per lane, N = ITEMS_PER_THREAD.
//
// Example: 16-lane logical warps, 4 ints per lane, blocked to striped.
//   using WarpExchangeT = strata::WarpExchange<int, 4, 16>;
//   __shared__ typename WarpExchangeT::TempStorage temp_storage[128 / 16];
//   int items[4];                                   // blocked: lane l holds 4l .. 4l+3 of its warp's tile
//   WarpExchangeT(temp_storage[threadIdx.x / 16]).BlockedToStriped(items, items);
//   // now lane l holds items l, l + 16, l + 32, l + 48
template <typename InputT, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS = WARP_THREADS,
          WarpExchangeAlgorithm WARP_EXCHANGE_ALGORITHM = WARP_EXCHANGE_SMEM>
class WarpExchange
{
  using impl_t = cuda::std::conditional_t<WARP_EXCHANGE_ALGORITHM == WARP_EXCHANGE_SMEM,
                                          detail::warp_exchange_smem<InputT, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>,
                                          detail::warp_exchange_shfl<InputT, ITEMS_PER_THREAD, LOGICAL_WARP_THREADS>>;

  impl_t impl;

public:
  using TempStorage = typename impl_t::TempStorage;

  WarpExchange() = delete;

  STRATA_DEVICE STRATA_FORCEINLINE explicit WarpExchange(TempStorage& temp_storage)
      : impl(temp_storage)
  {}

  // Blocked to striped. `output_items` may be `input_items`.
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToStriped(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    impl.BlockedToStriped(input_items, output_items);
  }

  // Striped to blocked. `output_items` may be `input_items`.
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void StripedToBlocked(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    impl.StripedToBlocked(input_items, output_items);
  }

  // In place: item k of each lane goes to tile position ranks[k]; the tile comes back striped.
  // requires: the ranks of the logical warp are distinct and in [0, ITEMS_PER_THREAD * LOGICAL_WARP_THREADS);
  // striped positions that no item was ranked to come back unspecified.
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStriped(InputT (&items)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    impl.ScatterToStriped(items, items, ranks);
  }

  // As above, into `output_items` (which may be `input_items`).
  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStriped(const InputT (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    impl.ScatterToStriped(input_items, output_items, ranks);
  }
};

STRATA_NAMESPACE_END
