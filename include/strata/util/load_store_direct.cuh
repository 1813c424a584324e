// Direct loads and stores of a linear segment between memory and per-thread register arrays, in the three
// arrangements the warp and block layers use (CUB's free functions, same names and contracts):
//
//   blocked       thread t holds items [t * ITEMS_PER_THREAD, (t + 1) * ITEMS_PER_THREAD)
//   striped       thread t holds items t, t + THREADS, t + 2 * THREADS, ... (THREADS = the group's width)
//   warp-striped  striped within each 32-thread warp, warps taking consecutive segments of 32 * ITEMS_PER_THREAD
//
// Every load has a guarded form (only indices < valid_items are read; the others are left unchanged) and a
// guarded form with an out-of-bounds default (the others get that value). Every store has a guarded form
// (only indices < valid_items are written). The functions take any random-access iterator; the blocked
// vectorized forms take raw pointers and fall back to element accesses where vector accesses do not apply.
// Cache modifiers are the caller's business: BlockLoad passes ThreadLoad<MODIFIER> to
// detail::load_direct_blocked_vectorized as its vector loader.
#pragma once

#include <strata/config.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// -- blocked ------------------------------------------------------------------------------------------------

// Blocked load of ITEMS_PER_THREAD items per thread from `block_src_it`.
template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectBlocked(int linear_tid, RandomAccessIterator block_src_it,
                                                        T (&dst_items)[ITEMS_PER_THREAD])
{
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    dst_items[i] = block_src_it[linear_tid * ITEMS_PER_THREAD + i];
  }
}

// Blocked load of the items at indices < block_items_end; items at other indices keep their values.
template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectBlocked(int linear_tid, RandomAccessIterator block_src_it,
                                                        T (&dst_items)[ITEMS_PER_THREAD], int block_items_end)
{
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int src_pos = linear_tid * ITEMS_PER_THREAD + i;
    if (src_pos < block_items_end)
    {
      dst_items[i] = block_src_it[src_pos];
    }
  }
}

// Blocked load of the items at indices < block_items_end; items at other indices get `oob_default`.
template <typename T, typename DefaultT, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectBlocked(int linear_tid, RandomAccessIterator block_src_it,
                                                        T (&dst_items)[ITEMS_PER_THREAD], int block_items_end,
                                                        DefaultT oob_default)
{
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int src_pos = linear_tid * ITEMS_PER_THREAD + i;
    if (src_pos < block_items_end)
    {
      dst_items[i] = block_src_it[src_pos];
    }
    else
    {
      dst_items[i] = oob_default;
    }
  }
}

// Blocked store of ITEMS_PER_THREAD items per thread to `block_itr`.
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectBlocked(int linear_tid, OutputIteratorT block_itr,
                                                         const T (&items)[ITEMS_PER_THREAD])
{
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    block_itr[linear_tid * ITEMS_PER_THREAD + i] = items[i];
  }
}

// Blocked store of the items at indices < valid_items.
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectBlocked(int linear_tid, OutputIteratorT block_itr,
                                                         const T (&items)[ITEMS_PER_THREAD], int valid_items)
{
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int dst_pos = linear_tid * ITEMS_PER_THREAD + i;
    if (dst_pos < valid_items)
    {
      block_itr[dst_pos] = items[i];
    }
  }
}

// -- blocked, vectorized ----------------------------------------------------------------------------------------

namespace detail
{

// The unsigned register type of one vector access of BYTES bytes.
template <int BYTES>
struct vector_word;
template <>
struct vector_word<1>
{
  using type = cuda::std::uint8_t;
};
template <>
struct vector_word<2>
{
  using type = cuda::std::uint16_t;
};
template <>
struct vector_word<4>
{
  using type = cuda::std::uint32_t;
};
template <>
struct vector_word<8>
{
  using type = uint2;
};
template <>
struct vector_word<16>
{
  using type = uint4;
};

// How a thread's ITEMS_PER_THREAD consecutive T move as vectors: the widest power-of-two access of at most
// 16 bytes that divides the thread's share of bytes. Every thread's share then starts on a multiple of that
// width from the segment's start, so one alignment check of the segment's pointer covers all threads.
// Vectors are used only for arithmetic T (what CUB calls primitives): those are trivially copyable and have
// no padding, so moving their bytes as wider words is exact; and only where a vector is wider than one T.
template <typename T, int ITEMS_PER_THREAD>
struct blocked_vectorization
{
  static constexpr int THREAD_BYTES = static_cast<int>(sizeof(T)) * ITEMS_PER_THREAD;
  static constexpr int VECTOR_BYTES = (THREAD_BYTES % 16 == 0) ? 16
                                    : (THREAD_BYTES % 8 == 0)  ? 8
                                    : (THREAD_BYTES % 4 == 0)  ? 4
                                    : (THREAD_BYTES % 2 == 0)  ? 2
                                                               : 1;
  static constexpr int VECTORS      = THREAD_BYTES / VECTOR_BYTES;
  static constexpr bool ENABLED     = is_primitive_v<T> && (VECTOR_BYTES > static_cast<int>(sizeof(T)));
  using vector_t                    = typename vector_word<VECTOR_BYTES>::type;

  // True when the segment starting at `ptr` can be read or written in vectors.
  STRATA_DEVICE STRATA_FORCEINLINE static bool aligned(const void* ptr)
  {
    return reinterpret_cast<cuda::std::uintptr_t>(ptr) % VECTOR_BYTES == 0;
  }
};

// The vector loader and storer used when the caller names none: plain accesses.
struct plain_vector_load
{
  template <typename VectorT>
  STRATA_DEVICE STRATA_FORCEINLINE VectorT operator()(const VectorT* ptr) const
  {
    return *ptr;
  }
};
struct plain_vector_store
{
  template <typename VectorT>
  STRATA_DEVICE STRATA_FORCEINLINE void operator()(VectorT* ptr, const VectorT& value) const
  {
    *ptr = value;
  }
};

// Blocked load through vectors where T and the pointer's alignment allow it, element loads otherwise.
// `load_vector(const vector_t* p)` returns the vector at p (BlockLoad passes ThreadLoad<MODIFIER> here).
template <typename T, int ITEMS_PER_THREAD, typename VectorLoadOp>
STRATA_DEVICE STRATA_FORCEINLINE void load_direct_blocked_vectorized(int linear_tid, const T* block_src_ptr,
                                                                     T (&dst_items)[ITEMS_PER_THREAD],
                                                                     VectorLoadOp load_vector)
{
  using vectorization = blocked_vectorization<T, ITEMS_PER_THREAD>;
  if constexpr (vectorization::ENABLED)
  {
    using vector_t = typename vectorization::vector_t;
    if (vectorization::aligned(block_src_ptr))
    {
      const vector_t* thread_src =
        reinterpret_cast<const vector_t*>(block_src_ptr) + linear_tid * vectorization::VECTORS;
      vector_t vectors[vectorization::VECTORS];
      STRATA_UNROLL
      for (int v = 0; v < vectorization::VECTORS; ++v)
      {
        vectors[v] = load_vector(thread_src + v);
      }
      // Whole-array copy between two register arrays of equal size: it compiles to register moves.
      memcpy(dst_items, vectors, sizeof(dst_items));
      return;
    }
  }
  LoadDirectBlocked(linear_tid, block_src_ptr, dst_items);
}

// Blocked store through vectors where T and the pointer's alignment allow it, element stores otherwise.
// `store_vector(vector_t* p, const vector_t& v)` writes v at p.
template <typename T, int ITEMS_PER_THREAD, typename VectorStoreOp>
STRATA_DEVICE STRATA_FORCEINLINE void store_direct_blocked_vectorized(int linear_tid, T* block_ptr,
                                                                      const T (&items)[ITEMS_PER_THREAD],
                                                                      VectorStoreOp store_vector)
{
  using vectorization = blocked_vectorization<T, ITEMS_PER_THREAD>;
  if constexpr (vectorization::ENABLED)
  {
    using vector_t = typename vectorization::vector_t;
    if (vectorization::aligned(block_ptr))
    {
      vector_t* thread_dst = reinterpret_cast<vector_t*>(block_ptr) + linear_tid * vectorization::VECTORS;
      vector_t vectors[vectorization::VECTORS];
      memcpy(vectors, items, sizeof(vectors));
      STRATA_UNROLL
      for (int v = 0; v < vectorization::VECTORS; ++v)
      {
        store_vector(thread_dst + v, vectors[v]);
      }
      return;
    }
  }
  StoreDirectBlocked(linear_tid, block_ptr, items);
}

} // namespace detail

// Blocked load through 16-byte (or the widest whole) vector loads when T is arithmetic and `block_src_ptr` is
// aligned to the vector width; otherwise (any other T, or a misaligned pointer) element loads, as
// LoadDirectBlocked. The alignment check is made at run time, so any pointer is accepted.
template <typename T, int ITEMS_PER_THREAD>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectBlockedVectorized(int linear_tid, const T* block_src_ptr,
                                                                  T (&dst_items)[ITEMS_PER_THREAD])
{
  detail::load_direct_blocked_vectorized(linear_tid, block_src_ptr, dst_items, detail::plain_vector_load{});
}

// Blocked store through vector stores under the same conditions as LoadDirectBlockedVectorized.
template <typename T, int ITEMS_PER_THREAD>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectBlockedVectorized(int linear_tid, T* block_ptr,
                                                                   const T (&items)[ITEMS_PER_THREAD])
{
  detail::store_direct_blocked_vectorized(linear_tid, block_ptr, items, detail::plain_vector_store{});
}

// -- striped ------------------------------------------------------------------------------------------------

// Striped load across BLOCK_THREADS threads: item i of thread t comes from index t + i * BLOCK_THREADS.
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectStriped(int linear_tid, RandomAccessIterator block_src_it,
                                                        T (&dst_items)[ITEMS_PER_THREAD])
{
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    dst_items[i] = block_src_it[linear_tid + i * BLOCK_THREADS];
  }
}

// Striped load of the items at indices < block_items_end; items at other indices keep their values.
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectStriped(int linear_tid, RandomAccessIterator block_src_it,
                                                        T (&dst_items)[ITEMS_PER_THREAD], int block_items_end)
{
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int src_pos = linear_tid + i * BLOCK_THREADS;
    if (src_pos < block_items_end)
    {
      dst_items[i] = block_src_it[src_pos];
    }
  }
}

// Striped load of the items at indices < block_items_end; items at other indices get `oob_default`.
template <int BLOCK_THREADS, typename T, typename DefaultT, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectStriped(int linear_tid, RandomAccessIterator block_src_it,
                                                        T (&dst_items)[ITEMS_PER_THREAD], int block_items_end,
                                                        DefaultT oob_default)
{
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int src_pos = linear_tid + i * BLOCK_THREADS;
    if (src_pos < block_items_end)
    {
      dst_items[i] = block_src_it[src_pos];
    }
    else
    {
      dst_items[i] = oob_default;
    }
  }
}

// Striped store across BLOCK_THREADS threads: item i of thread t goes to index t + i * BLOCK_THREADS.
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectStriped(int linear_tid, OutputIteratorT block_itr,
                                                         const T (&items)[ITEMS_PER_THREAD])
{
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    block_itr[linear_tid + i * BLOCK_THREADS] = items[i];
  }
}

// Striped store of the items at indices < valid_items.
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectStriped(int linear_tid, OutputIteratorT block_itr,
                                                         const T (&items)[ITEMS_PER_THREAD], int valid_items)
{
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int dst_pos = linear_tid + i * BLOCK_THREADS;
    if (dst_pos < valid_items)
    {
      block_itr[dst_pos] = items[i];
    }
  }
}

// -- warp-striped ---------------------------------------------------------------------------------------------
//
// requires: the threads of the group form whole 32-thread warps (linear_tid / 32 names the warp).

namespace detail
{
// Index of item 0 of thread `linear_tid` in a warp-striped arrangement.
template <int ITEMS_PER_THREAD>
STRATA_DEVICE STRATA_FORCEINLINE int warp_striped_base(int linear_tid)
{
  const int lane = linear_tid & (WARP_THREADS - 1);
  const int warp = linear_tid >> LOG_WARP_THREADS;
  return warp * WARP_THREADS * ITEMS_PER_THREAD + lane;
}
} // namespace detail

// Warp-striped load: item i of lane l of warp w comes from index w * 32 * ITEMS_PER_THREAD + l + 32 * i.
template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectWarpStriped(int linear_tid, RandomAccessIterator block_src_it,
                                                            T (&dst_items)[ITEMS_PER_THREAD])
{
  const int base = detail::warp_striped_base<ITEMS_PER_THREAD>(linear_tid);
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    dst_items[i] = block_src_it[base + i * WARP_THREADS];
  }
}

// Warp-striped load of the items at indices < block_items_end; items at other indices keep their values.
template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectWarpStriped(int linear_tid, RandomAccessIterator block_src_it,
                                                            T (&dst_items)[ITEMS_PER_THREAD], int block_items_end)
{
  const int base = detail::warp_striped_base<ITEMS_PER_THREAD>(linear_tid);
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int src_pos = base + i * WARP_THREADS;
    if (src_pos < block_items_end)
    {
      dst_items[i] = block_src_it[src_pos];
    }
  }
}

// Warp-striped load of the items at indices < block_items_end; items at other indices get `oob_default`.
template <typename T, typename DefaultT, int ITEMS_PER_THREAD, typename RandomAccessIterator>
STRATA_DEVICE STRATA_FORCEINLINE void LoadDirectWarpStriped(int linear_tid, RandomAccessIterator block_src_it,
                                                            T (&dst_items)[ITEMS_PER_THREAD], int block_items_end,
                                                            DefaultT oob_default)
{
  const int base = detail::warp_striped_base<ITEMS_PER_THREAD>(linear_tid);
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int src_pos = base + i * WARP_THREADS;
    if (src_pos < block_items_end)
    {
      dst_items[i] = block_src_it[src_pos];
    }
    else
    {
      dst_items[i] = oob_default;
    }
  }
}

// Warp-striped store: item i of lane l of warp w goes to index w * 32 * ITEMS_PER_THREAD + l + 32 * i.
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectWarpStriped(int linear_tid, OutputIteratorT block_itr,
                                                             const T (&items)[ITEMS_PER_THREAD])
{
  const int base = detail::warp_striped_base<ITEMS_PER_THREAD>(linear_tid);
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    block_itr[base + i * WARP_THREADS] = items[i];
  }
}

// Warp-striped store of the items at indices < valid_items.
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE void StoreDirectWarpStriped(int linear_tid, OutputIteratorT block_itr,
                                                             const T (&items)[ITEMS_PER_THREAD], int valid_items)
{
  const int base = detail::warp_striped_base<ITEMS_PER_THREAD>(linear_tid);
  STRATA_UNROLL
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int dst_pos = base + i * WARP_THREADS;
    if (dst_pos < valid_items)
    {
      block_itr[dst_pos] = items[i];
    }
  }
}

STRATA_NAMESPACE_END
