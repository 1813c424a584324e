// BlockExchange: rearranges a tile of items partitioned across the threads of a block, between the blocked,
// striped and warp-striped arrangements, or to positions given by a rank per item.
#pragma once

#include <strata/block/specializations/block_exchange_tile.cuh>
#include <strata/block/specializations/block_exchange_time_sliced.cuh>
#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD, WARP_TIME_SLICING = false, BLOCK_DIM_Y = 1, BLOCK_DIM_Z = 1>
//
// A tile is BLOCK_THREADS * ITEMS_PER_THREAD items; threads are ranked by RowMajorTid. Arrangements:
//   blocked:      thread t holds tile items t * ITEMS_PER_THREAD + i        (consecutive items per thread)
//   striped:      thread t holds tile items i * BLOCK_THREADS + t           (consecutive threads, coalesced)
//   warp-striped: warp w holds items [w * 32 * ITEMS_PER_THREAD, ...) and its lane l holds warp_offset + i * 32 + l
//                 (a last warp of n < 32 threads strides by n, so a block of any size exchanges within the tile).
// StripedToBlocked, BlockedToStriped, WarpStripedToBlocked and BlockedToWarpStriped convert between them.
// ScatterToBlocked / ScatterToStriped send item i to tile position ranks[i] (every rank of the tile exactly once)
// and return the blocked / striped arrangement of the result. ScatterToStripedGuarded skips items of negative
// rank, ScatterToStripedFlagged items whose is_valid flag is false; positions nobody writes read unspecified values.
// input and output may be the same array; the one-argument overloads exchange in place.
//
// WARP_TIME_SLICING = true keeps only one warp's worth of items (32 * ITEMS_PER_THREAD) in shared memory and
// runs the exchange warp by warp, at the cost of two barriers per warp.
//
// Temporary storage: TempStorage, or the default constructor's private __shared__ allocation. Every thread of
// the block must call every exchange. Block-wide exchanges pass a __syncthreads(); warp-striped ones only a
// __syncwarp() (unless time-sliced). None ends with a barrier, so put a __syncthreads() between an exchange and
// any later use of the same TempStorage.
// Cost: each item is written to and read from shared memory once. Bank conflicts are avoided by vector accesses
// of whole rows where those are conflict-free and by padding where not (specializations/block_exchange_layout.cuh).
//
// Example (128 threads, 4 items each):
//   using BlockExchangeT = strata::BlockExchange<int, 128, 4>;
//   __shared__ typename BlockExchangeT::TempStorage temp_storage;
//   int items[4];
//   strata::LoadDirectStriped<128>(threadIdx.x, d_in, items);  // coalesced, striped
//   BlockExchangeT(temp_storage).StripedToBlocked(items);        // now thread t holds items 4t .. 4t + 3
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockExchange
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

  // Time slicing only changes anything with more than one warp.
  using Impl         = cuda::std::conditional_t<WARP_TIME_SLICING && (BLOCK_THREADS > WARP_THREADS),
                                        detail::block_exchange_time_sliced<T, BLOCK_THREADS, ITEMS_PER_THREAD>,
                                        detail::block_exchange_tile<T, BLOCK_THREADS, ITEMS_PER_THREAD>>;
  using _TempStorage = typename Impl::TempStorage;

public:
  using TempStorage = Uninitialized<_TempStorage>;

  // Uses a private __shared__ allocation as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockExchange()
      : impl_(PrivateStorage(), RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  // Uses `temp_storage` as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockExchange(TempStorage& temp_storage)
      : impl_(temp_storage.Alias(), RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void StripedToBlocked(const T (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    impl_.StripedToBlocked(input_items, output_items);
  }

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToStriped(const T (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    impl_.BlockedToStriped(input_items, output_items);
  }

  // Synchronizes only within each warp.
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void WarpStripedToBlocked(const T (&input_items)[ITEMS_PER_THREAD],
                                                             OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    impl_.WarpStripedToBlocked(input_items, output_items);
  }

  // Synchronizes only within each warp.
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToWarpStriped(const T (&input_items)[ITEMS_PER_THREAD],
                                                             OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    impl_.BlockedToWarpStriped(input_items, output_items);
  }

  // requires: the ranks of the block are a permutation of [0, BLOCK_THREADS * ITEMS_PER_THREAD).
  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToBlocked(const T (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    impl_.ScatterToBlocked(input_items, output_items, ranks);
  }

  // requires: the ranks of the block are a permutation of [0, BLOCK_THREADS * ITEMS_PER_THREAD).
  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStriped(const T (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    impl_.ScatterToStriped(input_items, output_items, ranks);
  }

  // Items of negative rank are dropped. requires: the other ranks are distinct and below the tile size.
  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStripedGuarded(const T (&input_items)[ITEMS_PER_THREAD],
                                                                OutputT (&output_items)[ITEMS_PER_THREAD],
                                                                const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    impl_.ScatterToStripedGuarded(input_items, output_items, ranks);
  }

  // Items whose flag is false are dropped. requires: the ranks of flagged items are distinct, in [0, tile size).
  template <typename OutputT, typename OffsetT, typename ValidFlag>
  STRATA_DEVICE STRATA_FORCEINLINE void
  ScatterToStripedFlagged(const T (&input_items)[ITEMS_PER_THREAD], OutputT (&output_items)[ITEMS_PER_THREAD],
                          const OffsetT (&ranks)[ITEMS_PER_THREAD], const ValidFlag (&is_valid)[ITEMS_PER_THREAD])
  {
    impl_.ScatterToStripedFlagged(input_items, output_items, ranks, is_valid);
  }

  // In-place forms.
  STRATA_DEVICE STRATA_FORCEINLINE void StripedToBlocked(T (&items)[ITEMS_PER_THREAD])
  {
    impl_.StripedToBlocked(items, items);
  }
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToStriped(T (&items)[ITEMS_PER_THREAD])
  {
    impl_.BlockedToStriped(items, items);
  }
  STRATA_DEVICE STRATA_FORCEINLINE void WarpStripedToBlocked(T (&items)[ITEMS_PER_THREAD])
  {
    impl_.WarpStripedToBlocked(items, items);
  }
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToWarpStriped(T (&items)[ITEMS_PER_THREAD])
  {
    impl_.BlockedToWarpStriped(items, items);
  }
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToBlocked(T (&items)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    impl_.ScatterToBlocked(items, items, ranks);
  }
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStriped(T (&items)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    impl_.ScatterToStriped(items, items, ranks);
  }
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStripedGuarded(T (&items)[ITEMS_PER_THREAD],
                                                                const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    impl_.ScatterToStripedGuarded(items, items, ranks);
  }
  template <typename OffsetT, typename ValidFlag>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStripedFlagged(T (&items)[ITEMS_PER_THREAD],
                                                                const OffsetT (&ranks)[ITEMS_PER_THREAD],
                                                                const ValidFlag (&is_valid)[ITEMS_PER_THREAD])
  {
    impl_.ScatterToStripedFlagged(items, items, ranks, is_valid);
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE static _TempStorage& PrivateStorage()
  {
    __shared__ _TempStorage private_storage;
    return private_storage;
  }

  Impl impl_;
};

STRATA_NAMESPACE_END
