// BlockHistogramAtomic: the shared-memory-atomics variant of BlockHistogram (BLOCK_HISTO_ATOMIC).
//
// Every sample is one atomicAdd on its bin, straight from the thread that holds it: no temporary storage, no
// barrier, and the histogram may be shared by several blocks (in global memory). Contention grows with the number
// of equal samples a warp holds at once, so heavily skewed samples favour BLOCK_HISTO_SORT.
#pragma once

#include <strata/config.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{

template <int BINS>
struct BlockHistogramAtomic
{
  struct TempStorage
  {};

  STRATA_DEVICE STRATA_FORCEINLINE explicit BlockHistogramAtomic(TempStorage&) {}

  // requires: every sample lies in [0, BINS); CounterT is a type atomicAdd accepts.
  template <typename T, typename CounterT, int ITEMS_PER_THREAD>
  STRATA_DEVICE STRATA_FORCEINLINE void Composite(const T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS])
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      atomicAdd(histogram + items[i], CounterT(1));
    }
  }
};

} // namespace detail
STRATA_NAMESPACE_END
