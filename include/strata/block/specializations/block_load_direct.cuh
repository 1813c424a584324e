// BlockLoad algorithms that read straight into registers, with no shared memory: BLOCK_LOAD_DIRECT and
// BLOCK_LOAD_VECTORIZE (one implementation, block_load_direct: blocked; a full tile through 16-byte vectors where
// the pointer allows, partial tiles item by item) and BLOCK_LOAD_STRIPED.
//
// Every Load takes the cache modifier as a template argument. Through a raw pointer the reads go through
// ThreadLoad<MODIFIER>; any other iterator is dereferenced as it is (it carries its own caching behaviour).
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util/load_store_direct.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

// A raw pointer whose element reads go through ThreadLoad<MODIFIER>: the direct loads index their iterator
// with operator[] only, so this is all they need to honour a modifier.
template <CacheLoadModifier MODIFIER, typename ValueT>
struct modified_load_pointer
{
  const ValueT* ptr;

  STRATA_DEVICE STRATA_FORCEINLINE ValueT operator[](int offset) const
  {
    return ThreadLoad<MODIFIER>(ptr + offset);
  }
};

// `it` itself, or for a raw pointer and a modifier other than LOAD_DEFAULT and LOAD_PLAIN, a pointer that reads
// with it.
template <CacheLoadModifier MODIFIER, typename InputIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE auto with_load_modifier(InputIteratorT it)
{
  if constexpr (MODIFIER != LOAD_DEFAULT && MODIFIER != LOAD_PLAIN && cuda::std::is_pointer<InputIteratorT>::value)
  {
    using value_t = cuda::std::remove_cv_t<cuda::std::remove_pointer_t<InputIteratorT>>;
    return modified_load_pointer<MODIFIER, value_t>{it};
  }
  else
  {
    return it;
  }
}

template <typename T, int BLOCK_THREADS, int ITEMS_PER_THREAD>
struct block_load_direct
{
  using TempStorage = NullType;

  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE block_load_direct(TempStorage&, int tid)
      : linear_tid(tid)
  {}

  // A full tile through a pointer to T: vectors of up to 16 bytes (where T and the pointer's alignment, checked at
  // run time, allow), which read the same blocked arrangement with fewer instructions and cache wavefronts.
  template <CacheLoadModifier MODIFIER, typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD])
  {
    if constexpr (cuda::std::is_pointer<InputIteratorT>::value
                  && cuda::std::is_same<cuda::std::remove_cv_t<cuda::std::remove_pointer_t<InputIteratorT>>, T>::value)
    {
      load_direct_blocked_vectorized(linear_tid, static_cast<const T*>(it), items, [](const auto* vector_ptr) {
        return ThreadLoad<MODIFIER>(vector_ptr);
      });
    }
    else
    {
      LoadDirectBlocked(linear_tid, with_load_modifier<MODIFIER>(it), items);
    }
  }
  template <CacheLoadModifier MODIFIER, typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items)
  {
    LoadDirectBlocked(linear_tid, with_load_modifier<MODIFIER>(it), items, valid_items);
  }
  template <CacheLoadModifier MODIFIER, typename InputIteratorT, typename DefaultT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items,
                                             DefaultT oob_default)
  {
    LoadDirectBlocked(linear_tid, with_load_modifier<MODIFIER>(it), items, valid_items, oob_default);
  }
};

template <typename T, int BLOCK_THREADS, int ITEMS_PER_THREAD>
struct block_load_striped
{
  using TempStorage = NullType;

  int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE block_load_striped(TempStorage&, int tid)
      : linear_tid(tid)
  {}

  template <CacheLoadModifier MODIFIER, typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD])
  {
    LoadDirectStriped<BLOCK_THREADS>(linear_tid, with_load_modifier<MODIFIER>(it), items);
  }
  template <CacheLoadModifier MODIFIER, typename InputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items)
  {
    LoadDirectStriped<BLOCK_THREADS>(linear_tid, with_load_modifier<MODIFIER>(it), items, valid_items);
  }
  template <CacheLoadModifier MODIFIER, typename InputIteratorT, typename DefaultT>
  STRATA_DEVICE STRATA_FORCEINLINE void Load(InputIteratorT it, T (&items)[ITEMS_PER_THREAD], int valid_items,
                                             DefaultT oob_default)
  {
    LoadDirectStriped<BLOCK_THREADS>(linear_tid, with_load_modifier<MODIFIER>(it), items, valid_items, oob_default);
  }
};

} // namespace detail
STRATA_NAMESPACE_END
