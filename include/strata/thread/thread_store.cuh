// ThreadStore<MODIFIER>(itr, val): one thread writes one value, choosing how the write goes through the caches.
//
// Block stores and the tile-state look-back write through here so that a policy's cache modifier reaches the
// instruction. Through a pointer, a value of any trivially copyable type is written as the widest native words its
// alignment allows (see ThreadLoad); any other output iterator, and values of a type that is not trivially
// copyable, are assigned through.
//
// Example: publish a tile's aggregate to L2 for the look-back of later tiles.
//   strata::ThreadStore<strata::STORE_CG>(d_tile_aggregates + tile, aggregate);
#pragma once

#include <strata/config.cuh>
#include <strata/util/ptx_load_store.cuh>

#include <cuda/std/bit>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// How a store uses the cache hierarchy (CUB's names). Every modifier but STORE_DEFAULT and STORE_VOLATILE maps
// to a PTX cache operator of st.global and therefore requires a pointer into global memory.
enum CacheStoreModifier
{
  STORE_DEFAULT,  // a plain store: the compiler chooses
  STORE_WB,       // write back through the caches (st.global.wb)
  STORE_CG,       // cache in L2 only, bypassing L1 (st.global.cg)
  STORE_CS,       // streaming, likely not read again soon (st.global.cs)
  STORE_WT,       // write through to system memory (st.global.wt)
  STORE_VOLATILE, // a volatile store to any memory space (st.volatile)
};

namespace detail
{

// The PTX cache operator of a modifier that has one.
template <CacheStoreModifier MODIFIER>
constexpr st_global_op st_global_op_v = MODIFIER == STORE_WB ? st_global_op::wb
                                      : MODIFIER == STORE_CG ? st_global_op::cg
                                      : MODIFIER == STORE_CS ? st_global_op::cs
                                                             : st_global_op::wt;

// Writes `value` to `ptr` as sizeof(T) / access_bytes_v<T> native words, each with one instruction of `Storer`.
template <typename Storer, typename T>
STRATA_DEVICE STRATA_FORCEINLINE void store_words(T* ptr, const T& value)
{
  static_assert(cuda::std::is_trivially_copyable<T>::value,
                "ThreadStore with a cache modifier moves raw words, so the value type must be trivially copyable");
  using Word          = access_word_t<access_bytes_v<T>>;
  constexpr int WORDS = static_cast<int>(sizeof(T) / sizeof(Word));
  struct words_t
  {
    Word w[WORDS];
  };
  const words_t words = cuda::std::bit_cast<words_t>(value);
  Word* dst           = reinterpret_cast<Word*>(ptr);
  STRATA_UNROLL
  for (int i = 0; i < WORDS; ++i)
  {
    Storer::store(dst + i, words.w[i]);
  }
}

} // namespace detail

// Writes `val` to *itr with the cache behaviour MODIFIER. Through a pointer to a trivially copyable type, `val` is
// first converted to the pointee type and written with the PTX cache operator (STORE_DEFAULT: a plain store;
// STORE_VOLATILE: a volatile store); other iterators are assigned through.
// requires: for STORE_WB, STORE_CG, STORE_CS and STORE_WT through a pointer, the pointer is into global memory.
template <CacheStoreModifier MODIFIER, typename OutputIteratorT, typename T>
STRATA_DEVICE STRATA_FORCEINLINE void ThreadStore(OutputIteratorT itr, T val)
{
  if constexpr (!cuda::std::is_pointer<OutputIteratorT>::value || MODIFIER == STORE_DEFAULT
                || !cuda::std::is_trivially_copyable<
                   cuda::std::remove_cv_t<cuda::std::remove_pointer_t<OutputIteratorT>>>::value)
  {
    *itr = val;
  }
  else
  {
    static_assert(!cuda::std::is_const<cuda::std::remove_pointer_t<OutputIteratorT>>::value,
                  "ThreadStore needs a pointer to non-const");
    using ValueT       = cuda::std::remove_cv_t<cuda::std::remove_pointer_t<OutputIteratorT>>;
    ValueT* ptr        = const_cast<ValueT*>(itr);
    const ValueT value = val;
    if constexpr (MODIFIER == STORE_VOLATILE)
    {
      detail::store_words<detail::ptx_st_volatile>(ptr, value);
    }
    else
    {
      detail::store_words<detail::ptx_st_global<detail::st_global_op_v<MODIFIER>>>(ptr, value);
    }
  }
}

STRATA_NAMESPACE_END
