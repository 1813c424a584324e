// BlockLoad algorithms that read coalesced and transpose in shared memory: BLOCK_LOAD_TRANSPOSE (striped read,
// StripedToBlocked) and BLOCK_LOAD_WARP_TRANSPOSE / _TIMESLICED (warp-striped read, WarpStripedToBlocked).
//
// L2 priority of the tile. With LOAD_DEFAULT, a raw pointer and an address in global memory (checked at run
// time), BLOCK_LOAD_TRANSPOSE and BLOCK_LOAD_WARP_TRANSPOSE read the tile with L2 evict_last priority
// (cuda::access_property::persisting). As soon as the block's (WARP_TRANSPOSE: the warp's) items are in shared
// memory, they put the tile's lines back to normal priority (L2RestoreNormalPriority). The lines are favoured only
// while the tile is in flight, so later kernels find the L2 as a plain load would have left it.
// On an H200, tile kernels streaming 2^26 items through DRAM ran 1.6-2.6% faster this way than with plain loads,
// with the same DRAM bytes and no L2 hits. Reading with evict_last alone was faster still, but left the lines
// favoured: a later kernel's re-read of a buffer of 60% of the L2 ran 1.5x slower (the l2_reuse_after cases of
// benchmarks/compare/block_primitives.cu guard against that).
// Any other modifier (LOAD_PLAIN: the plain load), an iterator that is not a pointer, a pointer into shared
// memory, and the time-sliced algorithm read as they would without this.
#pragma once

#include <strata/block/block_exchange.cuh>
#include <strata/block/specializations/block_exchange_tile.cuh>
#include <strata/block/specializations/block_load_direct.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util/load_store_direct.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/annotated_ptr>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

// A tile read through `it`: `favoured` says whether its loads go with L2 evict_last priority (never unless
// ALLOWED), in which case restore(first, count, rank, threads) must put tile items [first, first + count) back to
// normal priority.
template <CacheLoadModifier MODIFIER, typename InputIteratorT, bool ALLOWED = true>
struct tile_source
{
  // LOAD_DEFAULT through a pointer to non-volatile data may favour the tile (see above); whether the pointer is
  // into global memory is checked at run time.
  static constexpr bool MAY_FAVOUR = ALLOWED && MODIFIER == LOAD_DEFAULT && cuda::std::is_pointer<InputIteratorT>::value
                                  && !cuda::std::is_volatile<cuda::std::remove_pointer_t<InputIteratorT>>::value;

  InputIteratorT it;
  bool favoured;

  STRATA_DEVICE STRATA_FORCEINLINE explicit tile_source(InputIteratorT src)
      : it(src)
      , favoured(false)
  {
    if constexpr (MAY_FAVOUR)
    {
      favoured = __isGlobal(src);
    }
  }

  // Calls read(iterator) with the iterator the loads go through.
  template <typename Read>
  STRATA_DEVICE STRATA_FORCEINLINE void load(Read read) const
  {
    if constexpr (MAY_FAVOUR)
    {
      using value_t = cuda::std::remove_cv_t<cuda::std::remove_pointer_t<InputIteratorT>>;
      if (favoured)
      {
        read(cuda::annotated_ptr<const value_t, cuda::access_property::persisting>(it));
        return;
      }
    }
    read(with_load_modifier<MODIFIER>(it));
  }

  STRATA_DEVICE STRATA_FORCEINLINE void restore(int first, int count, int rank, int threads) const
  {
    if constexpr (MAY_FAVOUR)
    {
      if (favoured)
      {
        L2RestoreNormalPriority(it + first, static_cast<long long>(count) * sizeof(*it), rank, threads);
      }
    }
  }
};

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
struct block_load_transpose
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int TILE_ITEMS    = BLOCK_THREADS * ITEMS_PER_THREAD;
  using Exchange                     = block_exchange_tile<T, BLOCK_THREADS, ITEMS_PER_THREAD>;
  // BlockExchange's storage (the same exchange), so that the two stay interchangeable.
  using TempStorage =
    typename BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD, false, BLOCK_DIM_Y, BLOCK_DIM_Z>::TempStorage;
  static_assert(sizeof(TempStorage) == sizeof(typename Exchange::TempStorage), "BlockExchange's tile storage");

  TempStorage& temp_storage;
  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE block_load_transpose(TempStorage& storage, int tid)
      : temp_storage(storage)
      , linear_tid(tid)
  {}

  template <CacheLoadModifier MODIFIER, typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD])
  {
    const tile_source<MODIFIER, InputIteratorT> src(it);
    src.load([&](auto in) {
      LoadDirectStriped<BLOCK_THREADS>(linear_tid, in, items);
    });
    exchange(src, items, TILE_ITEMS);
  }
  template <CacheLoadModifier MODIFIER, typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items)
  {
    const tile_source<MODIFIER, InputIteratorT> src(it);
    src.load([&](auto in) {
      LoadDirectStriped<BLOCK_THREADS>(linear_tid, in, items, valid_items);
    });
    exchange(src, items, valid_items);
  }
  template <CacheLoadModifier MODIFIER, typename InputIteratorT, typename DefaultT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items,
                                             DefaultT oob_default)
  {
    const tile_source<MODIFIER, InputIteratorT> src(it);
    src.load([&](auto in) {
      LoadDirectStriped<BLOCK_THREADS>(linear_tid, in, items, valid_items, oob_default);
    });
    exchange(src, items, valid_items);
  }

private:
  // The block read tile items [0, min(valid_items, TILE_ITEMS)); its threads share putting their lines back.
  template <typename Source>
  STRATA_DEVICE STRATA_FORCEINLINE void exchange(const Source& src, T (&items)[ITEMS_PER_THREAD], int valid_items)
  {
    Exchange(temp_storage.Alias(), linear_tid).StripedToBlocked(items, items, [&] {
      src.restore(0, valid_items < TILE_ITEMS ? valid_items : TILE_ITEMS, linear_tid, BLOCK_THREADS);
    });
  }
};

// The warp-striped read needs whole warps (it is CUB's arrangement, striding by 32 in every warp).
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool TIME_SLICED, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
struct block_load_warp_transpose
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int WARP_ITEMS    = WARP_THREADS * ITEMS_PER_THREAD;
  static_assert(BLOCK_THREADS % WARP_THREADS == 0,
                "BLOCK_LOAD_WARP_TRANSPOSE(_TIMESLICED) needs a block of a multiple of 32 threads");
  using BlockExchangeT = BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD, TIME_SLICED, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  using TempStorage    = typename BlockExchangeT::TempStorage;
  // Without time slicing BlockExchange is this exchange, which is called directly for its after-put hook.
  using Exchange = block_exchange_tile<T, BLOCK_THREADS, ITEMS_PER_THREAD>;
  static_assert(TIME_SLICED || sizeof(TempStorage) == sizeof(typename Exchange::TempStorage),
                "BlockExchange's tile storage");

  TempStorage& temp_storage;
  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE block_load_warp_transpose(TempStorage& storage, int tid)
      : temp_storage(storage)
      , linear_tid(tid)
  {}

  template <CacheLoadModifier MODIFIER, typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD])
  {
    const tile_source<MODIFIER, InputIteratorT, !TIME_SLICED> src(it);
    src.load([&](auto in) {
      LoadDirectWarpStriped(linear_tid, in, items);
    });
    exchange(src, items, WARP_ITEMS);
  }
  template <CacheLoadModifier MODIFIER, typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items)
  {
    const tile_source<MODIFIER, InputIteratorT, !TIME_SLICED> src(it);
    src.load([&](auto in) {
      LoadDirectWarpStriped(linear_tid, in, items, valid_items);
    });
    exchange(src, items, valid_items - warp_offset());
  }
  template <CacheLoadModifier MODIFIER, typename InputIteratorT, typename DefaultT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items,
                                             DefaultT oob_default)
  {
    const tile_source<MODIFIER, InputIteratorT, !TIME_SLICED> src(it);
    src.load([&](auto in) {
      LoadDirectWarpStriped(linear_tid, in, items, valid_items, oob_default);
    });
    exchange(src, items, valid_items - warp_offset());
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE int warp_offset() const
  {
    return static_cast<int>(WarpId(linear_tid)) * WARP_ITEMS;
  }

  // The warp read its items [warp_offset, warp_offset + min(warp_valid, WARP_ITEMS)); its lanes share putting
  // their lines back.
  template <typename Source>
  STRATA_DEVICE STRATA_FORCEINLINE void exchange(const Source& src, T (&items)[ITEMS_PER_THREAD], int warp_valid)
  {
    if constexpr (TIME_SLICED)
    {
      BlockExchangeT(temp_storage).WarpStripedToBlocked(items, items);
    }
    else
    {
      Exchange(temp_storage.Alias(), linear_tid).WarpStripedToBlocked(items, items, [&] {
        src.restore(warp_offset(), warp_valid < WARP_ITEMS ? warp_valid : WARP_ITEMS,
                    static_cast<int>(static_cast<unsigned int>(linear_tid) % WARP_THREADS), WARP_THREADS);
      });
    }
  }
};

} // namespace detail
STRATA_NAMESPACE_END
