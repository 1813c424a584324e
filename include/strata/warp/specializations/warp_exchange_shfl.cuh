// WarpExchange through register shuffles, for ITEMS_PER_THREAD == LOGICAL_WARP_THREADS (a power of two): the
// logical warp's tile is then a square matrix with lane l holding row l, and both exchanges are its transpose.
//
// The transpose runs in log2(N) stages, N = LOGICAL_WARP_THREADS. Write an element's position as (lane, item).
// Stage s (s = N/2, N/4, ..., 1) swaps bit s of the lane with bit s of the item index: the element at (l, i)
// with bit s set in exactly one of l and i moves to (l ^ s, i ^ s). After every bit has been swapped, (l, i)
// has become (i, l). Each stage is N/2 exchanges with the partner lane l ^ s: a lane whose bit s is clear sends
// item i + s and receives the partner's item i into i + s; a lane whose bit s is set sends item i and receives
// into i (for each i with bit s clear). Item indices are compile-time constants, so the array stays in
// registers; only the choice between the two items of a pair depends on the lane, which is a select.
//
// Cost per lane: (N/2) * log2(N) shuffles of T, no shared memory, no barrier beyond the shuffles themselves.
#pragma once

#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{

template <typename T, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS>
struct warp_exchange_shfl
{
  static_assert(cuda::std::has_single_bit(static_cast<unsigned>(LOGICAL_WARP_THREADS))
                  && LOGICAL_WARP_THREADS <= WARP_THREADS,
                "LOGICAL_WARP_THREADS must be a power of two of at most 32");
  static_assert(ITEMS_PER_THREAD == LOGICAL_WARP_THREADS,
                "WARP_EXCHANGE_SHUFFLE requires ITEMS_PER_THREAD == LOGICAL_WARP_THREADS");

  static constexpr int N      = LOGICAL_WARP_THREADS;
  static constexpr int STAGES = cuda::ilog2(N);

  // Shuffles need no shared memory.
  struct TempStorage : Uninitialized<NullType>
  {};

  // Lane within the logical warp.
  unsigned int lane_id;
  // The lanes of this logical warp within the hardware warp.
  unsigned int member_mask;

  STRATA_DEVICE STRATA_FORCEINLINE explicit warp_exchange_shfl(TempStorage& /*temp_storage*/)
      : lane_id(LOGICAL_WARP_THREADS == WARP_THREADS ? LaneId() : LaneId() % LOGICAL_WARP_THREADS)
      , member_mask(LogicalWarpMask<LOGICAL_WARP_THREADS>(LaneId() / LOGICAL_WARP_THREADS))
  {}

  // Transposes the N x N tile held one row per lane, in place.
  STRATA_DEVICE STRATA_FORCEINLINE void transpose(T (&items)[N]) const
  {
    STRATA_UNROLL
    for (int stage = 0; stage < STAGES; ++stage)
    {
      const int s     = (N / 2) >> stage;
      const bool high = (lane_id & static_cast<unsigned int>(s)) != 0;
      STRATA_UNROLL
      for (int i = 0; i < N; ++i)
      {
        if ((i & s) == 0)
        {
          const T send = high ? items[i] : items[i + s];
          const T recv = ShuffleXor<LOGICAL_WARP_THREADS>(send, s, member_mask);
          if (high)
          {
            items[i] = recv;
          }
          else
          {
            items[i + s] = recv;
          }
        }
      }
    }
  }

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToStriped(const T (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    // Work on a copy, so that output_items may alias input_items.
    T items[N];
    STRATA_UNROLL
    for (int i = 0; i < N; ++i)
    {
      items[i] = input_items[i];
    }
    transpose(items);
    STRATA_UNROLL
    for (int i = 0; i < N; ++i)
    {
      output_items[i] = items[i];
    }
  }

  // The transpose is its own inverse.
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void StripedToBlocked(const T (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    BlockedToStriped(input_items, output_items);
  }

  // A scatter by arbitrary ranks needs addressable storage; registers are not addressable by a run-time index.
  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStriped(const T (&)[ITEMS_PER_THREAD], OutputT (&)[ITEMS_PER_THREAD],
                                                         const OffsetT (&)[ITEMS_PER_THREAD])
  {
    static_assert(sizeof(OffsetT) == 0,
                  "WARP_EXCHANGE_SHUFFLE does not provide ScatterToStriped; use WARP_EXCHANGE_SMEM");
  }
};

} // namespace detail
STRATA_NAMESPACE_END
