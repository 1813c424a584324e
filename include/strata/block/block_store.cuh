// BlockStore: a block writes a tile of items, held in a blocked arrangement across its threads, to memory.
#pragma once

#include <strata/block/specializations/block_store_direct.cuh>
#include <strata/block/specializations/block_store_transpose.cuh>
#include <strata/config.cuh>
#include <strata/util/load_store_direct.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>

STRATA_NAMESPACE_BEGIN

// How BlockStore writes a tile (CUB's names). Every algorithm writes the same blocked arrangement; they differ in
// how the memory is accessed.
enum BlockStoreAlgorithm
{
  // Each thread writes its own consecutive items: no shared memory, poorly coalesced for many items per thread.
  // A full tile written to a T* moves through vectors, as BLOCK_STORE_VECTORIZE (unlike CUB's, which writes item
  // by item).
  BLOCK_STORE_DIRECT,
  // Coalesced writes of a striped arrangement (the items are taken as striped, not blocked).
  BLOCK_STORE_STRIPED,
  // 16-byte (or the widest whole) vector writes when T is arithmetic, the output is a T* aligned to the vector
  // width (checked at run time) and the tile is full; item by item otherwise. In strata the same writes as
  // BLOCK_STORE_DIRECT.
  BLOCK_STORE_VECTORIZE,
  // A BlockExchange through shared memory (one barrier), then coalesced striped writes.
  BLOCK_STORE_TRANSPOSE,
  // A warp-local exchange (no block barrier), then coalesced warp-striped writes. Needs a multiple of 32 threads.
  BLOCK_STORE_WARP_TRANSPOSE,
  // As BLOCK_STORE_WARP_TRANSPOSE with shared memory for one warp only, used by the warps in turn (barriers).
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED,
};

namespace detail
{
template <BlockStoreAlgorithm ALGORITHM, typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BLOCK_DIM_Y,
          int BLOCK_DIM_Z>
struct block_store_algorithm;

template <typename T, int X, int IPT, int Y, int Z>
struct block_store_algorithm<BLOCK_STORE_DIRECT, T, X, IPT, Y, Z>
{
  using type = block_store_direct<T, X * Y * Z, IPT>;
};
template <typename T, int X, int IPT, int Y, int Z>
struct block_store_algorithm<BLOCK_STORE_STRIPED, T, X, IPT, Y, Z>
{
  using type = block_store_striped<T, X * Y * Z, IPT>;
};
template <typename T, int X, int IPT, int Y, int Z>
struct block_store_algorithm<BLOCK_STORE_VECTORIZE, T, X, IPT, Y, Z>
{
  using type = block_store_direct<T, X * Y * Z, IPT>; // DIRECT vectorizes full tiles too
};
template <typename T, int X, int IPT, int Y, int Z>
struct block_store_algorithm<BLOCK_STORE_TRANSPOSE, T, X, IPT, Y, Z>
{
  using type = block_store_transpose<T, X, IPT, Y, Z>;
};
template <typename T, int X, int IPT, int Y, int Z>
struct block_store_algorithm<BLOCK_STORE_WARP_TRANSPOSE, T, X, IPT, Y, Z>
{
  using type = block_store_warp_transpose<T, X, IPT, false, Y, Z>;
};
template <typename T, int X, int IPT, int Y, int Z>
struct block_store_algorithm<BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED, T, X, IPT, Y, Z>
{
  using type = block_store_warp_transpose<T, X, IPT, true, Y, Z>;
};
} // namespace detail

// BlockStore<T, BLOCK_DIM_X, ITEMS_PER_THREAD, ALGORITHM = BLOCK_STORE_DIRECT, BLOCK_DIM_Y = 1, BLOCK_DIM_Z = 1>
//
// Store(it, items): thread t (RowMajorTid) writes its items to tile positions [t * ITEMS_PER_THREAD, (t + 1) *
// ITEMS_PER_THREAD) of the tile starting at `it` (BLOCK_STORE_STRIPED: positions t + i * BLOCK_THREADS instead).
// Store(it, items, valid_items): only tile positions below valid_items are written; nothing else is touched.
// `items` is left as it was (the transposing algorithms exchange into a copy).
//
// Temporary storage: TempStorage (empty for DIRECT, STRIPED and VECTORIZE), or the default constructor's private
// __shared__ allocation. Every thread of the block must call Store (same valid_items in every thread). The
// TRANSPOSE algorithms use their storage without a closing barrier: put a __syncthreads() before reusing it.
//
// Example (128 threads, 4 items each, coalesced):
//   using BlockStoreT = strata::BlockStore<int, 128, 4, strata::BLOCK_STORE_WARP_TRANSPOSE>;
//   __shared__ typename BlockStoreT::TempStorage temp_storage;
//   int items[4]; // ... thread t holds tile items 4t .. 4t + 3
//   BlockStoreT(temp_storage).Store(d_out + blockIdx.x * 512, items);
//   BlockStoreT(temp_storage).Store(d_out + offset, items, n - offset); // after a __syncthreads()
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockStore
{
  using Impl =
    typename detail::block_store_algorithm<ALGORITHM, T, BLOCK_DIM_X, ITEMS_PER_THREAD, BLOCK_DIM_Y, BLOCK_DIM_Z>::type;
  using _TempStorage = typename Impl::TempStorage;

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  // Uses a private __shared__ allocation as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockStore()
      : impl_(PrivateStorage(), RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  // Uses `temp_storage` as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockStore(TempStorage& temp_storage)
      : impl_(temp_storage.Alias(), RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT block_itr, const T (&items)[ITEMS_PER_THREAD])
  {
    impl_.Store(block_itr, items);
  }

  template <typename OutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Store(OutputIteratorT block_itr, const T (&items)[ITEMS_PER_THREAD],
                                              int valid_items)
  {
    impl_.Store(block_itr, items, valid_items);
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
