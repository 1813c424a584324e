// BlockLoad: a block reads a tile of items from memory into a blocked arrangement across its threads.
#pragma once

#include <strata/block/specializations/block_load_direct.cuh>
#include <strata/block/specializations/block_load_transpose.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util/load_store_direct.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>

STRATA_NAMESPACE_BEGIN

// How BlockLoad reads a tile (CUB's names). Every algorithm produces the same blocked arrangement; they differ
// in how the memory is accessed.
enum BlockLoadAlgorithm
{
  // Each thread reads its own consecutive items: no shared memory, poorly coalesced for many items per thread.
  // A full tile read from a pointer to T moves through vectors, as BLOCK_LOAD_VECTORIZE (unlike CUB's, which reads
  // item by item): the arrangement is the same, with fewer instructions and cache wavefronts.
  BLOCK_LOAD_DIRECT,
  // Coalesced reads, and the result is striped, not blocked (for consumers that do not care about the order).
  BLOCK_LOAD_STRIPED,
  // 16-byte (or the widest whole) vector reads when T is arithmetic, the input is a pointer to T aligned to the
  // vector width (checked at run time) and the tile is full; item by item otherwise. In strata the same reads as
  // BLOCK_LOAD_DIRECT.
  BLOCK_LOAD_VECTORIZE,
  // Coalesced striped reads, then a BlockExchange through shared memory (one barrier).
  BLOCK_LOAD_TRANSPOSE,
  // Coalesced warp-striped reads, then a warp-local exchange (no block barrier). Needs a multiple of 32 threads.
  BLOCK_LOAD_WARP_TRANSPOSE,
  // As BLOCK_LOAD_WARP_TRANSPOSE with shared memory for one warp only, used by the warps in turn (barriers).
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
};

namespace detail
{
template <BlockLoadAlgorithm ALGORITHM, typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BLOCK_DIM_Y,
          int BLOCK_DIM_Z>
struct block_load_algorithm;

template <typename T, int X, int IPT, int Y, int Z>
struct block_load_algorithm<BLOCK_LOAD_DIRECT, T, X, IPT, Y, Z>
{
  using type = block_load_direct<T, X * Y * Z, IPT>;
};
template <typename T, int X, int IPT, int Y, int Z>
struct block_load_algorithm<BLOCK_LOAD_STRIPED, T, X, IPT, Y, Z>
{
  using type = block_load_striped<T, X * Y * Z, IPT>;
};
template <typename T, int X, int IPT, int Y, int Z>
struct block_load_algorithm<BLOCK_LOAD_VECTORIZE, T, X, IPT, Y, Z>
{
  using type = block_load_direct<T, X * Y * Z, IPT>; // DIRECT vectorizes full tiles too
};
template <typename T, int X, int IPT, int Y, int Z>
struct block_load_algorithm<BLOCK_LOAD_TRANSPOSE, T, X, IPT, Y, Z>
{
  using type = block_load_transpose<T, X, IPT, Y, Z>;
};
template <typename T, int X, int IPT, int Y, int Z>
struct block_load_algorithm<BLOCK_LOAD_WARP_TRANSPOSE, T, X, IPT, Y, Z>
{
  using type = block_load_warp_transpose<T, X, IPT, false, Y, Z>;
};
template <typename T, int X, int IPT, int Y, int Z>
struct block_load_algorithm<BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED, T, X, IPT, Y, Z>
{
  using type = block_load_warp_transpose<T, X, IPT, true, Y, Z>;
};
} // namespace detail

// BlockLoad<T, BLOCK_DIM_X, ITEMS_PER_THREAD, ALGORITHM = BLOCK_LOAD_DIRECT, BLOCK_DIM_Y = 1, BLOCK_DIM_Z = 1>
//
// Load(it, items): thread t (RowMajorTid) receives tile items [t * ITEMS_PER_THREAD, (t + 1) * ITEMS_PER_THREAD)
// of the tile starting at `it` (BLOCK_LOAD_STRIPED: items t + i * BLOCK_THREADS instead).
// Load(it, items, valid_items): only tile items below valid_items are read; the others are left unspecified.
// Load(it, items, valid_items, oob_default): as above, and the items at or past valid_items get oob_default.
// `it` is any random-access iterator whose values convert to T. Load<MODIFIER>(...) reads a raw pointer through
// ThreadLoad<MODIFIER> (LOAD_LDG, LOAD_CS, ...), in every algorithm; the default is LOAD_DEFAULT, with which
// TRANSPOSE and WARP_TRANSPOSE favour a tile in global memory in L2 while it is in flight and put its lines back
// to normal priority before returning (block_load_transpose.cuh); LOAD_PLAIN reads plainly.
//
// Temporary storage: TempStorage (empty for DIRECT, STRIPED and VECTORIZE), or the default constructor's private
// __shared__ allocation. Every thread of the block must call Load (same valid_items in every thread). The
// TRANSPOSE algorithms use their storage without a closing barrier: put a __syncthreads() before reusing it.
//
// Example (128 threads, 4 items each, coalesced):
//   using BlockLoadT = strata::BlockLoad<int, 128, 4, strata::BLOCK_LOAD_WARP_TRANSPOSE>;
//   __shared__ typename BlockLoadT::TempStorage temp_storage;
//   int items[4];
//   BlockLoadT(temp_storage).Load(d_in + blockIdx.x * 512, items);   // thread t: d_in[.. 4t .. 4t + 3]
//   BlockLoadT(temp_storage).Load(d_in + offset, items, n - offset, 0); // after a __syncthreads()
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockLoad
{
  using Impl =
    typename detail::block_load_algorithm<ALGORITHM, T, BLOCK_DIM_X, ITEMS_PER_THREAD, BLOCK_DIM_Y, BLOCK_DIM_Z>::type;
  using _TempStorage = typename Impl::TempStorage;

public:
  using TempStorage = Uninitialized<_TempStorage>;

  // Uses a private __shared__ allocation as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockLoad()
      : impl_(PrivateStorage(), RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  // Uses `temp_storage` as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockLoad(TempStorage& temp_storage)
      : impl_(temp_storage.Alias(), RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  template <CacheLoadModifier MODIFIER = LOAD_DEFAULT, typename RandomAccessIterator>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD])
  {
    impl_.template Load<MODIFIER>(block_src_it, dst_items);
  }

  template <CacheLoadModifier MODIFIER = LOAD_DEFAULT, typename RandomAccessIterator>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
                                             int block_items_end)
  {
    impl_.template Load<MODIFIER>(block_src_it, dst_items, block_items_end);
  }

  template <CacheLoadModifier MODIFIER = LOAD_DEFAULT, typename RandomAccessIterator, typename DefaultT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
                                             int block_items_end, DefaultT oob_default)
  {
    impl_.template Load<MODIFIER>(block_src_it, dst_items, block_items_end, oob_default);
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
