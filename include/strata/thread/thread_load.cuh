// ThreadLoad<MODIFIER>(itr): one thread reads one value, choosing how the read goes through the cache hierarchy.
//
// Block loads and the tile-state look-back read through here so that a policy's cache modifier reaches the
// instruction. Through a pointer, a value of any trivially copyable type is read as the widest native words its
// alignment allows (a 16-byte aligned type as 16-byte vector loads, a 12-byte struct of ints as three 4-byte
// loads); any other iterator is simply dereferenced, since its value may be computed rather than stored. A type that
// is not trivially copyable is read by its copy constructor, a plain load (its bytes are not the whole of its value).
//
// Example: stream a tile in once, without keeping it in L1.
//   float x = strata::ThreadLoad<strata::LOAD_CS>(d_in + i);
#pragma once

#include <strata/config.cuh>
#include <strata/util/ptx_load_store.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/bit>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// How a load uses the cache hierarchy (CUB's names, and LOAD_PLAIN). Every modifier but LOAD_DEFAULT, LOAD_PLAIN and
// LOAD_VOLATILE maps to a PTX cache operator of ld.global and therefore requires a pointer into global memory.
enum CacheLoadModifier
{
  LOAD_DEFAULT,  // strata chooses: a plain load, except that BlockLoad's TRANSPOSE and WARP_TRANSPOSE favour their
                 // tile in L2 while it is in flight (block/specializations/block_load_transpose.cuh)
  LOAD_CA,       // cache at all levels (ld.global.ca)
  LOAD_CG,       // cache in L2 only, bypassing L1 (ld.global.cg)
  LOAD_CS,       // streaming, likely read once (ld.global.cs)
  LOAD_CV,       // fetch again on every load, for values other agents write (ld.global.cv)
  LOAD_LDG,      // the read-only data path (ld.global.nc); the data must not change while the kernel runs
  LOAD_VOLATILE, // a volatile load from any memory space (ld.volatile)
  LOAD_PLAIN,    // a plain load everywhere: the compiler chooses (what CUB's LOAD_DEFAULT does)
};

namespace detail
{

// The PTX cache operator of a modifier that has one.
template <CacheLoadModifier MODIFIER>
constexpr ld_global_op ld_global_op_v = MODIFIER == LOAD_CA ? ld_global_op::ca
                                      : MODIFIER == LOAD_CG ? ld_global_op::cg
                                      : MODIFIER == LOAD_CS ? ld_global_op::cs
                                      : MODIFIER == LOAD_CV ? ld_global_op::cv
                                                            : ld_global_op::nc;

// Reads the T at `ptr` as sizeof(T) / access_bytes_v<T> native words, each with one instruction of `Loader`.
template <typename Loader, typename T>
STRATA_DEVICE STRATA_FORCEINLINE T load_words(const T* ptr)
{
  static_assert(cuda::std::is_trivially_copyable<T>::value,
                "ThreadLoad with a cache modifier moves raw words, so the value type must be trivially copyable");
  using Word          = access_word_t<access_bytes_v<T>>;
  constexpr int WORDS = static_cast<int>(sizeof(T) / sizeof(Word));
  struct words_t
  {
    Word w[WORDS];
  } words;
  const Word* src = reinterpret_cast<const Word*>(ptr);
  STRATA_UNROLL
  for (int i = 0; i < WORDS; ++i)
  {
    words.w[i] = Loader::load(src + i);
  }
  return cuda::std::bit_cast<T>(words);
}

} // namespace detail

// Reads *itr with the cache behaviour MODIFIER. For pointers to trivially copyable values the value is read with the
// PTX cache operator (LOAD_DEFAULT and LOAD_PLAIN: a plain load; LOAD_VOLATILE: a volatile load); other iterators, and
// values of other types, are dereferenced.
// requires: for LOAD_CA, LOAD_CG, LOAD_CS, LOAD_CV and LOAD_LDG through a pointer, the pointer is into global memory.
template <CacheLoadModifier MODIFIER, typename InputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE detail::it_value_t<InputIteratorT> ThreadLoad(InputIteratorT itr)
{
  if constexpr (!cuda::std::is_pointer<InputIteratorT>::value || MODIFIER == LOAD_DEFAULT || MODIFIER == LOAD_PLAIN
                || !cuda::std::is_trivially_copyable<detail::it_value_t<InputIteratorT>>::value)
  {
    return *itr;
  }
  else
  {
    using T      = cuda::std::remove_cv_t<cuda::std::remove_pointer_t<InputIteratorT>>;
    const T* ptr = const_cast<const T*>(itr);
    if constexpr (MODIFIER == LOAD_VOLATILE)
    {
      return detail::load_words<detail::ptx_ld_volatile>(ptr);
    }
    else
    {
      return detail::load_words<detail::ptx_ld_global<detail::ld_global_op_v<MODIFIER>>>(ptr);
    }
  }
}

STRATA_NAMESPACE_END
