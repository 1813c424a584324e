// BlockExchange with the whole tile in shared memory: every thread writes all its items, one barrier, every
// thread reads all its items. Warp-striped exchanges stay within a warp and need only a __syncwarp.
#pragma once

#include <strata/block/specializations/block_exchange_layout.cuh>
#include <strata/config.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

template <typename T, int BLOCK_THREADS, int ITEMS_PER_THREAD>
class block_exchange_tile
{
  using layout = block_exchange_layout<T, ITEMS_PER_THREAD>;
  using shape  = block_exchange_shape<BLOCK_THREADS, ITEMS_PER_THREAD>;

public:
  struct alignas(16) TempStorage
  {
    T buff[layout::buffer_items(shape::TILE_ITEMS)];
  };

  STRATA_DEVICE STRATA_FORCEINLINE block_exchange_tile(TempStorage& storage, int linear_tid)
      : storage_(storage)
      , shape_(linear_tid)
  {}

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void StripedToBlocked(const T (&input)[ITEMS_PER_THREAD],
                                                         OutputT (&output)[ITEMS_PER_THREAD])
  {
    StripedToBlocked(input, output, [] {});
  }
  // As above, calling after_put() in every thread after the barrier, when every item of the block is in shared
  // memory (so every load that produced them has completed).
  template <typename OutputT, typename AfterPut>
  STRATA_DEVICE STRATA_FORCEINLINE void StripedToBlocked(const T (&input)[ITEMS_PER_THREAD],
                                                         OutputT (&output)[ITEMS_PER_THREAD], AfterPut after_put)
  {
    put(input, [&](int i) {
      return striped(i);
    });
    __syncthreads();
    after_put();
    get(output, [&](int i) {
      return blocked(i);
    });
  }

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToStriped(const T (&input)[ITEMS_PER_THREAD],
                                                         OutputT (&output)[ITEMS_PER_THREAD])
  {
    put(input, [&](int i) {
      return blocked(i);
    });
    __syncthreads();
    get(output, [&](int i) {
      return striped(i);
    });
  }

  // A warp's items never leave the warp, so the warp's own barrier orders the accesses.
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void WarpStripedToBlocked(const T (&input)[ITEMS_PER_THREAD],
                                                             OutputT (&output)[ITEMS_PER_THREAD])
  {
    WarpStripedToBlocked(input, output, [] {});
  }
  // As above, calling after_put() in every thread after the warp's barrier, when every item of the warp is in
  // shared memory (so every load of the warp that produced them has completed).
  template <typename OutputT, typename AfterPut>
  STRATA_DEVICE STRATA_FORCEINLINE void WarpStripedToBlocked(const T (&input)[ITEMS_PER_THREAD],
                                                             OutputT (&output)[ITEMS_PER_THREAD], AfterPut after_put)
  {
    put(input, [&](int i) {
      return warp_striped(i);
    });
    __syncwarp(shape_.warp_mask());
    after_put();
    get(output, [&](int i) {
      return warp_blocked(i);
    });
  }

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToWarpStriped(const T (&input)[ITEMS_PER_THREAD],
                                                             OutputT (&output)[ITEMS_PER_THREAD])
  {
    put(input, [&](int i) {
      return warp_blocked(i);
    });
    __syncwarp(shape_.warp_mask());
    get(output, [&](int i) {
      return warp_striped(i);
    });
  }

  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToBlocked(const T (&input)[ITEMS_PER_THREAD],
                                                         OutputT (&output)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    put(input, [&](int i) {
      return layout::offset(static_cast<int>(ranks[i]));
    });
    __syncthreads();
    get(output, [&](int i) {
      return blocked(i);
    });
  }

  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStriped(const T (&input)[ITEMS_PER_THREAD],
                                                         OutputT (&output)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    put(input, [&](int i) {
      return layout::offset(static_cast<int>(ranks[i]));
    });
    __syncthreads();
    get(output, [&](int i) {
      return striped(i);
    });
  }

  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStripedGuarded(const T (&input)[ITEMS_PER_THREAD],
                                                                OutputT (&output)[ITEMS_PER_THREAD],
                                                                const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    put_if(
      input,
      [&](int i) {
        return layout::offset(static_cast<int>(ranks[i]));
      },
      [&](int i) {
        return !is_negative(ranks[i]);
      });
    __syncthreads();
    get(output, [&](int i) {
      return striped(i);
    });
  }

  template <typename OutputT, typename OffsetT, typename ValidFlag>
  STRATA_DEVICE STRATA_FORCEINLINE void
  ScatterToStripedFlagged(const T (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD],
                          const OffsetT (&ranks)[ITEMS_PER_THREAD], const ValidFlag (&is_valid)[ITEMS_PER_THREAD])
  {
    put_if(
      input,
      [&](int i) {
        return layout::offset(static_cast<int>(ranks[i]));
      },
      [&](int i) {
        return static_cast<bool>(is_valid[i]);
      });
    __syncthreads();
    get(output, [&](int i) {
      return striped(i);
    });
  }

private:
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE static bool is_negative(OffsetT rank)
  {
    if constexpr (cuda::std::is_signed<OffsetT>::value)
    {
      return rank < 0;
    }
    else
    {
      return false;
    }
  }

  // The shared-memory positions of the thread's item i in the blocked, striped, warp-blocked and warp-striped
  // arrangements, as constant offsets from the first where the layout allows (block_exchange_layout).
  STRATA_DEVICE STRATA_FORCEINLINE int blocked(int i) const
  {
    return layout::row_offset(shape_.linear_tid * ITEMS_PER_THREAD, i);
  }
  STRATA_DEVICE STRATA_FORCEINLINE int striped(int i) const
  {
    if constexpr (layout::template STRIDE_SPLITS<BLOCK_THREADS>)
    {
      return layout::template strided_item<BLOCK_THREADS>(layout::offset(shape_.linear_tid), i);
    }
    else
    {
      return layout::offset(i * BLOCK_THREADS + shape_.linear_tid);
    }
  }
  STRATA_DEVICE STRATA_FORCEINLINE int warp_blocked(int i) const
  {
    return layout::row_offset(shape_.warp_id * shape::WARP_ITEMS + shape_.lane * ITEMS_PER_THREAD, i);
  }
  STRATA_DEVICE STRATA_FORCEINLINE int warp_striped(int i) const
  {
    const int first = shape_.warp_id * shape::WARP_ITEMS + shape_.lane;
    if constexpr (!shape::PARTIAL_WARP && layout::WARP_STRIPED_SPLITS)
    {
      return layout::template strided_item<WARP_THREADS>(layout::offset(first), i);
    }
    else
    {
      return layout::offset(first + i * shape_.warp_threads());
    }
  }

  // Writes item i to shared-memory position position(i). All reads of `input` happen here, before the barrier that
  // precedes every get(), which is what lets `input` and `output` be the same array.
  template <typename PositionOp>
  STRATA_DEVICE STRATA_FORCEINLINE void put(const T (&input)[ITEMS_PER_THREAD], PositionOp position)
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      storage_.buff[position(i)] = input[i];
    }
  }
  template <typename PositionOp, typename PredicateOp>
  STRATA_DEVICE STRATA_FORCEINLINE void put_if(const T (&input)[ITEMS_PER_THREAD], PositionOp position,
                                               PredicateOp pred)
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      if (pred(i))
      {
        storage_.buff[position(i)] = input[i];
      }
    }
  }
  // Reads item i from shared-memory position position(i).
  template <typename OutputT, typename PositionOp>
  STRATA_DEVICE STRATA_FORCEINLINE void get(OutputT (&output)[ITEMS_PER_THREAD], PositionOp position)
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      output[i] = storage_.buff[position(i)];
    }
  }

  TempStorage& storage_;
  shape shape_;
};

} // namespace detail
STRATA_NAMESPACE_END
