// AgentRadixSortHistogram: the first kernel of a onesweep radix sort. One read of the keys counts the digits of
// every pass at once; the last block to finish turns the counts into each pass's exclusive digit offsets and
// finds the passes whose digit is the same for every key (those passes are skipped).
//
// Counts go to per-block shared histograms (one per pass, PARTS copies so that the warps of a block spread their
// atomics), then once per block to global memory. The global counts start at zero (the dispatch clears them).
#pragma once

#include <strata/agent/radix_sort_common.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/config.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/atomic>
#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN

template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, int PARTS_ = 2>
struct AgentRadixSortHistogramPolicy
{
  static constexpr int BLOCK_THREADS    = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS       = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int PARTS            = PARTS_; // copies of the shared histograms
};

namespace detail
{
namespace radix_sort
{
// The histogram's view of the sort's shared state (temporary storage, cleared before the histogram kernel).
template <typename OffsetT>
struct sort_state
{
  unsigned int* blocks_done;    // histogram blocks that have added their counts
  unsigned int* trivial_passes; // bit q: every key has the same digit in pass q
  OffsetT* offsets;             // [pass][portion][digit]: where the keys of a digit go (see AgentRadixSortOnesweep)
  int portions;                 // rows per pass of `offsets`
};
} // namespace radix_sort
} // namespace detail

template <typename PolicyT, int RADIX_BITS, int MAX_PASSES, typename KeyT, typename OffsetT, typename CodecT>
struct AgentRadixSortHistogram
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;
  static constexpr int PARTS            = PolicyT::PARTS;
  static constexpr int RADIX_DIGITS     = 1 << RADIX_BITS;
  static_assert(BLOCK_THREADS >= RADIX_DIGITS, "one thread per digit in the offsets scan");

  using BlockScanT = BlockScan<OffsetT, BLOCK_THREADS>;

  struct _TempStorage
  {
    union
    {
      cuda::std::uint32_t counts[PARTS][MAX_PASSES][RADIX_DIGITS];
      typename BlockScanT::TempStorage scan;
    };
    bool last_block;
    unsigned int trivial;
  };
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  _TempStorage& storage;
  const KeyT* d_keys;
  OffsetT num_items;
  detail::radix_sort::pass_bits<RADIX_BITS> bits;
  detail::radix_sort::sort_state<OffsetT> state;
  CodecT codec;

  STRATA_DEVICE STRATA_FORCEINLINE AgentRadixSortHistogram(TempStorage& temp_storage, const KeyT* keys, OffsetT items,
                                                           detail::radix_sort::pass_bits<RADIX_BITS> digits,
                                                           detail::radix_sort::sort_state<OffsetT> progress,
                                                           CodecT key_codec)
      : storage(temp_storage.Alias())
      , d_keys(keys)
      , num_items(items)
      , bits(digits)
      , state(progress)
      , codec(key_codec)
  {}

  // Adds the digits of every pass of the `valid` keys at `keys` (striped over the threads) to the counts of `part`.
  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE void CountTile(const KeyT* keys_in, int valid, int part, int passes,
                                                  const cuda::std::uint32_t (&start)[MAX_PASSES],
                                                  const cuda::std::uint32_t (&width)[MAX_PASSES])
  {
    KeyT keys[ITEMS_PER_THREAD];
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int idx = i * BLOCK_THREADS + static_cast<int>(threadIdx.x);
      if (FULL || idx < valid)
      {
        keys[i] = keys_in[idx];
      }
    }
    // Each key's image once, its digits for every pass from it.
    typename CodecT::image_t images[ITEMS_PER_THREAD];
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      images[i] = codec.image_of(keys[i]);
    }
    STRATA_UNROLL
    for (int pass = 0; pass < MAX_PASSES; ++pass)
    {
      if (pass < passes)
      {
        STRATA_UNROLL
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          if (FULL || i * BLOCK_THREADS + static_cast<int>(threadIdx.x) < valid)
          {
            atomicAdd(&storage.counts[part][pass][codec.digit_of(images[i], start[pass], width[pass])], 1u);
          }
        }
      }
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE void Process()
  {
    const int passes = bits.passes();
    for (int i = threadIdx.x; i < PARTS * MAX_PASSES * RADIX_DIGITS; i += BLOCK_THREADS)
    {
      (&storage.counts[0][0][0])[i] = 0;
    }
    __syncthreads();

    // Count every pass's digits of this block's tiles (tiles strided by the grid), items striped over the threads.
    const int part = (threadIdx.x / WARP_THREADS) % PARTS;
    cuda::std::uint32_t start[MAX_PASSES];
    cuda::std::uint32_t width[MAX_PASSES];
    STRATA_UNROLL
    for (int pass = 0; pass < MAX_PASSES; ++pass)
    {
      start[pass] = pass < passes ? bits.start(pass) : 0u;
      width[pass] = pass < passes ? bits.width(pass) : 0u;
    }
    for (OffsetT tile_begin = static_cast<OffsetT>(blockIdx.x) * TILE_ITEMS; tile_begin < num_items;
         tile_begin += static_cast<OffsetT>(gridDim.x) * TILE_ITEMS)
    {
      const OffsetT rest = num_items - tile_begin;
      if (rest >= OffsetT(TILE_ITEMS))
      {
        CountTile<true>(d_keys + tile_begin, TILE_ITEMS, part, passes, start, width);
      }
      else
      {
        CountTile<false>(d_keys + tile_begin, static_cast<int>(rest), part, passes, start, width);
      }
    }
    __syncthreads();

    // Add the block's counts to the global ones (row 0 of each pass's offsets).
    for (int i = threadIdx.x; i < passes * RADIX_DIGITS; i += BLOCK_THREADS)
    {
      const int pass            = i / RADIX_DIGITS;
      const int digit           = i % RADIX_DIGITS;
      cuda::std::uint32_t count = 0;
      STRATA_UNROLL
      for (int p = 0; p < PARTS; ++p)
      {
        count += storage.counts[p][pass][digit];
      }
      if (count != 0)
      {
        cuda::atomic_ref<OffsetT, cuda::thread_scope_device>(
          state.offsets[static_cast<size_t>(pass) * state.portions * RADIX_DIGITS + digit])
          .fetch_add(static_cast<OffsetT>(count), cuda::std::memory_order_relaxed);
      }
    }

    // The last block to get here sees every block's counts.
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
    {
      const unsigned int done = atomicAdd(state.blocks_done, 1u);
      storage.last_block      = done == gridDim.x - 1;
      storage.trivial         = 0;
    }
    __syncthreads();
    if (!storage.last_block)
    {
      return;
    }
    __threadfence();

    // Counts -> exclusive offsets, pass by pass; a pass whose one digit holds every key is trivial.
    for (int pass = 0; pass < passes; ++pass)
    {
      OffsetT* row  = state.offsets + static_cast<size_t>(pass) * state.portions * RADIX_DIGITS;
      OffsetT count = 0;
      if (threadIdx.x < RADIX_DIGITS)
      {
        count =
          cuda::atomic_ref<OffsetT, cuda::thread_scope_device>(row[threadIdx.x]).load(cuda::std::memory_order_relaxed);
        if (count == num_items)
        {
          atomicOr(&storage.trivial, 1u << pass);
        }
      }
      OffsetT offset = 0;
      BlockScanT(storage.scan).ExclusiveSum(count, offset);
      __syncthreads();
      if (threadIdx.x < RADIX_DIGITS)
      {
        row[threadIdx.x] = offset;
      }
    }
    __syncthreads();
    if (threadIdx.x == 0)
    {
      *state.trivial_passes = storage.trivial;
    }
  }
};

STRATA_NAMESPACE_END
