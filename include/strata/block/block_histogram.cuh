// BlockHistogram: the histogram of the samples held by a thread block, into an existing array of counters.
#pragma once

#include <strata/block/specializations/block_histogram_atomic.cuh>
#include <strata/block/specializations/block_histogram_sort.cuh>
#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! The algorithms BlockHistogram can use. Both give the same counts; they differ in speed.
enum BlockHistogramAlgorithm
{
  //! Sort the samples (BlockRadixSort over the bits that tell bins apart), find the runs of equal samples
  //! (BlockDiscontinuity) and add each run's length to its bin. Speed independent of the samples' skew; the
  //! histogram must belong to the block (no two blocks composite into the same array).
  BLOCK_HISTO_SORT,
  //! One atomicAdd per sample. No temporary storage and no barrier; fastest for well spread samples; the
  //! histogram may be shared by several blocks. Slows down when many threads of a warp hold equal samples.
  BLOCK_HISTO_ATOMIC,
};

//! BlockHistogram<T, BLOCK_DIM_X, ITEMS_PER_THREAD, BINS, ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z> counts the
//! BLOCK_THREADS * ITEMS_PER_THREAD samples of a thread block into BINS counters, in shared or global memory.
//!
//! - Samples are integers in [0, BINS), ITEMS_PER_THREAD per thread in any arrangement; a sample s adds one to
//!   histogram[s]. Composite adds the counts to the histogram as it is; Histogram zeroes it first; InitHistogram
//!   only zeroes it (each thread zeroes bins linear_tid, linear_tid + BLOCK_THREADS, ...).
//! - BLOCK_HISTO_SORT sorts `items` in place (they come back sorted, blocked); BLOCK_HISTO_ATOMIC leaves them.
//! - Temporary storage: TempStorage (empty for BLOCK_HISTO_ATOMIC), or the default constructor's private
//!   __shared__ allocation. Every thread of the block must call each member function. Consecutive calls on the same
//!   TempStorage need no barrier between them; pass a __syncthreads() before reusing it for another collective, and
//!   before other threads read the histogram after a call.
//! - Tiles of at most 65535 samples with BLOCK_HISTO_SORT. CounterT: any arithmetic type with BLOCK_HISTO_SORT, a
//!   type atomicAdd takes (int, unsigned int, unsigned long long, float, double) with BLOCK_HISTO_ATOMIC.
//! - Cost: BLOCK_HISTO_SORT is a sort of ceil(log2(BINS)) bits, a discontinuity pass and one barrier, then
//!   BINS / BLOCK_THREADS read-modify-writes per thread; BLOCK_HISTO_ATOMIC is ITEMS_PER_THREAD atomics per thread.
//!
//! Example (128 threads, 4 byte samples each, 256 bins in shared memory):
//!   using BlockHistogramT = strata::BlockHistogram<unsigned char, 128, 4, 256>;
//!   __shared__ typename BlockHistogramT::TempStorage temp_storage;
//!   __shared__ unsigned int smem_histogram[256];
//!   unsigned char samples[4];  // ... loaded by each thread
//!   BlockHistogramT(temp_storage).Histogram(samples, smem_histogram);
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BINS,
          BlockHistogramAlgorithm ALGORITHM = BLOCK_HISTO_SORT, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockHistogram
{
  static_assert(cuda::std::is_integral<T>::value, "histogram samples are integers (bin indices)");
  static_assert(BINS >= 1, "at least one bin");

  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

  using InternalBlockHistogram = cuda::std::conditional_t<
    ALGORITHM == BLOCK_HISTO_SORT,
    detail::BlockHistogramSort<T, BLOCK_DIM_X, ITEMS_PER_THREAD, BINS, BLOCK_DIM_Y, BLOCK_DIM_Z>,
    detail::BlockHistogramAtomic<BINS>>;
  using _TempStorage = typename InternalBlockHistogram::TempStorage;

  _TempStorage& temp_storage;
  unsigned int linear_tid;

  static STRATA_DEVICE STRATA_FORCEINLINE _TempStorage& PrivateStorage()
  {
    __shared__ _TempStorage private_storage;
    return private_storage;
  }

public:
  //! Shared memory for the calls of one BlockHistogram.
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  //! Uses a private __shared__ allocation as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockHistogram()
      : temp_storage(PrivateStorage())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  //! Uses `storage` as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockHistogram(TempStorage& storage)
      : temp_storage(storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  //! Zeroes histogram[0 .. BINS); each thread its bins linear_tid, linear_tid + BLOCK_THREADS, ...
  template <typename CounterT>
  STRATA_DEVICE STRATA_FORCEINLINE void InitHistogram(CounterT histogram[BINS])
  {
    STRATA_UNROLL
    for (int offset = 0; offset < BINS; offset += BLOCK_THREADS)
    {
      const int bin = offset + static_cast<int>(linear_tid);
      if (offset + BLOCK_THREADS <= BINS || bin < BINS)
      {
        histogram[bin] = CounterT(0);
      }
    }
  }

  //! histogram = the counts of the block's samples.
  template <typename CounterT>
  STRATA_DEVICE STRATA_FORCEINLINE void Histogram(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS])
  {
    InitHistogram(histogram);
    // The sorting variant updates every bin from the thread that just zeroed it; atomics come from any thread.
    if constexpr (ALGORITHM == BLOCK_HISTO_ATOMIC)
    {
      __syncthreads();
    }
    InternalBlockHistogram(temp_storage).Composite(items, histogram);
  }

  //! histogram += the counts of the block's samples.
  template <typename CounterT>
  STRATA_DEVICE STRATA_FORCEINLINE void Composite(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS])
  {
    InternalBlockHistogram(temp_storage).Composite(items, histogram);
  }
};

STRATA_NAMESPACE_END
