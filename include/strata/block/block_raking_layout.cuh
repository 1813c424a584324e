// BlockRakingLayout: the shared-memory grid through which a block hands one value per thread to a single
// raking warp, laid out so that the raking reads are free of bank conflicts.
#pragma once

#include <strata/config.cuh>
#include <strata/util/uninitialized.cuh>

STRATA_NAMESPACE_BEGIN

//! A shared-memory grid of BLOCK_THREADS elements of T, cut into RAKING_THREADS consecutive segments of
//! SEGMENT_LENGTH elements, one per raking thread (at most one warp of them).
//!
//! Every thread writes its element through PlacementPtr(storage, linear_tid); after a barrier, raking thread
//! r walks its segment through RakingPtr(storage, r): elements r * SEGMENT_LENGTH ... (r + 1) * SEGMENT_LENGTH - 1
//! of the block, in thread order, so a raking pass preserves the order non-commutative operators need.
//!
//! Raking threads read element i of their segments at the same time, so segment starts are SEGMENT_LENGTH
//! apart. An even stride maps several raking threads to one bank; the grid then pads each segment with one
//! element to make the stride odd. A stride of 2 is left unpadded: the 2-way conflict costs less than the
//! 50% larger grid.
//!
//! When BLOCK_THREADS is not a multiple of SEGMENT_LENGTH the last segment is short (UNGUARDED is false):
//! its missing elements are never written, and rakers must not read past element BLOCK_THREADS - 1.
//!
//! Example (a block of 128 threads handing its values to 32 rakers of 4 elements each):
//!   using Layout = strata::BlockRakingLayout<int, 128>;
//!   __shared__ typename Layout::TempStorage grid;
//!   *Layout::PlacementPtr(grid, threadIdx.x) = value;
//!   __syncthreads();
//!   if (threadIdx.x < Layout::RAKING_THREADS) { const int* segment = Layout::RakingPtr(grid, threadIdx.x); }
template <typename T, int BLOCK_THREADS>
struct BlockRakingLayout
{
  static_assert(BLOCK_THREADS >= 1, "a block has at least one thread");

  // Elements placed in the grid: one per thread.
  static constexpr int SHARED_ELEMENTS = BLOCK_THREADS;

  // At most one warp rakes: its threads then synchronize with warp-level operations only.
  static constexpr int MAX_RAKING_THREADS = (BLOCK_THREADS < WARP_THREADS) ? BLOCK_THREADS : WARP_THREADS;

  // Elements each raking thread reduces sequentially.
  static constexpr int SEGMENT_LENGTH = (SHARED_ELEMENTS + MAX_RAKING_THREADS - 1) / MAX_RAKING_THREADS;

  // Raking threads that own at least one element (fewer than MAX_RAKING_THREADS when segments round up).
  static constexpr int RAKING_THREADS = (SHARED_ELEMENTS + SEGMENT_LENGTH - 1) / SEGMENT_LENGTH;

  // One padding element per segment when the segment stride would otherwise be even (and larger than 2).
  static constexpr int USE_SEGMENT_PADDING = ((SEGMENT_LENGTH % 2) == 0 && SEGMENT_LENGTH > 2) ? 1 : 0;

  // Distance between the starts of consecutive segments.
  static constexpr int SEGMENT_STRIDE = SEGMENT_LENGTH + USE_SEGMENT_PADDING;

  // Elements in the grid, padding included.
  static constexpr int GRID_ELEMENTS = RAKING_THREADS * SEGMENT_STRIDE;

  // True when every segment is full, so rakers need no bounds check.
  static constexpr bool UNGUARDED = (SHARED_ELEMENTS % SEGMENT_LENGTH) == 0;

  struct _TempStorage
  {
    T buff[GRID_ELEMENTS];
  };

  struct TempStorage : Uninitialized<_TempStorage>
  {};

  // Where thread `linear_tid` (0 <= linear_tid < BLOCK_THREADS) places its element.
  static STRATA_DEVICE STRATA_FORCEINLINE T* PlacementPtr(TempStorage& temp_storage, unsigned int linear_tid)
  {
    unsigned int offset = linear_tid;
    if (USE_SEGMENT_PADDING)
    {
      offset += linear_tid / SEGMENT_LENGTH;
    }
    return temp_storage.Alias().buff + offset;
  }

  // The first element of raking thread `raking_tid`'s segment (0 <= raking_tid < RAKING_THREADS).
  static STRATA_DEVICE STRATA_FORCEINLINE T* RakingPtr(TempStorage& temp_storage, unsigned int raking_tid)
  {
    return temp_storage.Alias().buff + raking_tid * SEGMENT_STRIDE;
  }
};

STRATA_NAMESPACE_END
