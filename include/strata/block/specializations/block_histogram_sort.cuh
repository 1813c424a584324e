// BlockHistogramSort: the sorting variant of BlockHistogram (BLOCK_HISTO_SORT).
//
// The block sorts its samples with BlockRadixSort, so that equal samples form runs; BlockDiscontinuity finds the
// first item of every run, and its flag operator records where each run begins and where the previous one ends.
// After one barrier the thread that owns a bin adds that bin's run length to the histogram: a plain read-modify-
// write, no atomics, whatever the skew of the samples. The histogram must therefore belong to this block alone.
//
// Samples lie in [0, BINS), so they differ only in their low ceil(log2(BINS)) bits and the sort compares only those
// (one pass of 4 bits for 16 bins, two for 256 bins, whatever the sample type). The run boundaries and the
// discontinuity storage live beside the sort's storage rather than over it: the boundaries are reset before the
// sort, whose barriers order the reset before the flags' writes, and no barrier is needed between the sort and the
// flags.
#pragma once

#include <strata/block/block_discontinuity.cuh>
#include <strata/block/block_radix_sort.cuh>
#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN
namespace detail
{

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BINS, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
struct BlockHistogramSort
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int TILE_ITEMS    = BLOCK_THREADS * ITEMS_PER_THREAD;

  // The bits that tell samples in [0, BINS) apart, sorted in the fewest 4-bit-or-narrower passes, each as narrow
  // as that many passes allow (narrower digits need fewer counters).
  static constexpr int SAMPLE_BITS = static_cast<int>(sizeof(T) * 8);
  static constexpr int SORT_BITS   = log2_ceil(BINS) < SAMPLE_BITS ? log2_ceil(BINS) : SAMPLE_BITS;
  static constexpr int SORT_PASSES = SORT_BITS == 0 ? 1 : (SORT_BITS + 3) / 4;
  static constexpr int RADIX_BITS  = SORT_BITS == 0 ? 1 : (SORT_BITS + SORT_PASSES - 1) / SORT_PASSES;

  using BlockRadixSortT =
    BlockRadixSort<T, BLOCK_DIM_X, ITEMS_PER_THREAD, NullType, RADIX_BITS, true, BLOCK_SCAN_WARP_SCANS,
                   cudaSharedMemBankSizeFourByte, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  using BlockDiscontinuityT = BlockDiscontinuity<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>;

  // Run boundaries are tile positions, at most TILE_ITEMS (< 2^16, the sort's own limit).
  using RunOffset = cuda::std::uint16_t;

  struct _TempStorage
  {
    typename BlockRadixSortT::TempStorage sort;
    typename BlockDiscontinuityT::TempStorage flag;
    RunOffset run_begin[BINS];
    RunOffset run_end[BINS];
  };

  struct TempStorage : Uninitialized<_TempStorage>
  {};

  _TempStorage& temp_storage;
  unsigned int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE explicit BlockHistogramSort(TempStorage& storage)
      : temp_storage(storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  // Flags the first item of every run and records it as the begin of its run and the end of the previous one.
  struct RunBoundaryOp
  {
    _TempStorage& storage;

    STRATA_DEVICE STRATA_FORCEINLINE bool operator()(const T& a, const T& b, int b_index) const
    {
      if (a != b)
      {
        storage.run_begin[static_cast<int>(b)] = static_cast<RunOffset>(b_index);
        storage.run_end[static_cast<int>(a)]   = static_cast<RunOffset>(b_index);
        return true;
      }
      return false;
    }
  };

  // Calls op(bin) for the bins this thread owns: linear_tid, linear_tid + BLOCK_THREADS, ...
  template <typename BinOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ForOwnBins(BinOp op) const
  {
    STRATA_UNROLL
    for (int offset = 0; offset < BINS; offset += BLOCK_THREADS)
    {
      const int bin = offset + static_cast<int>(linear_tid);
      if (offset + BLOCK_THREADS <= BINS || bin < BINS)
      {
        op(bin);
      }
    }
  }

  // requires: every sample lies in [0, BINS); only this block updates `histogram`; each bin is updated by the thread
  // BlockHistogram::InitHistogram zeroes it with.
  template <typename CounterT>
  STRATA_DEVICE STRATA_FORCEINLINE void Composite(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS])
  {
    // Every bin starts as an empty run at the tile's end; the flags overwrite the bounds of the bins present.
    ForOwnBins([&](int bin) {
      temp_storage.run_begin[bin] = static_cast<RunOffset>(TILE_ITEMS);
      temp_storage.run_end[bin]   = static_cast<RunOffset>(TILE_ITEMS);
    });

    BlockRadixSortT(temp_storage.sort).Sort(items, 0, SORT_BITS);

    int head_flags[ITEMS_PER_THREAD];
    BlockDiscontinuityT(temp_storage.flag).FlagHeads(head_flags, items, RunBoundaryOp{temp_storage});
    // The tile's first run begins at 0 (its last run ends at TILE_ITEMS, where it was reset).
    if (linear_tid == 0)
    {
      temp_storage.run_begin[static_cast<int>(items[0])] = 0;
    }
    __syncthreads();

    ForOwnBins([&](int bin) {
      histogram[bin] += static_cast<CounterT>(temp_storage.run_end[bin] - temp_storage.run_begin[bin]);
    });
  }
};

} // namespace detail
STRATA_NAMESPACE_END
