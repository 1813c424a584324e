// BlockScanRaking: the raking reduce-then-scan variants of BlockScan (BLOCK_SCAN_RAKING and
// BLOCK_SCAN_RAKING_MEMOIZE).
//
// Every thread places its value in a shared grid (BlockRakingLayout); after one barrier the first warp rakes it:
// each raking thread reduces a segment of consecutive values, the warp scans those partials with shuffles, and
// each raking thread writes the scan of its segment back, seeded with its exclusive partial. After a second
// barrier every thread reads its own result. Two barriers per scan, whatever the block size.
//
// Blocks of at most one warp need no grid: their single warp scans the inputs directly.
#pragma once

#include <strata/block/block_raking_layout.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_reduce.cuh>
#include <strata/thread/thread_scan.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/warp_scan.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

// MEMOIZE keeps each raking segment in registers from the upsweep to the downsweep instead of reading it from
// shared memory twice: fewer shared-memory reads, more registers live across the warp scan.
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z, bool MEMOIZE>
struct BlockScanRaking
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(BLOCK_THREADS >= 1 && BLOCK_THREADS <= 1024, "a block has 1..1024 threads");

  using Layout = BlockRakingLayout<T, BLOCK_THREADS>;

  static constexpr int RAKING_THREADS    = Layout::RAKING_THREADS;
  static constexpr int SEGMENT_LENGTH    = Layout::SEGMENT_LENGTH;
  static constexpr bool WARP_SYNCHRONOUS = BLOCK_THREADS <= WARP_THREADS;

  // The scan of raking partials runs on the whole first warp, also when fewer of its lanes own a segment
  // (blocks whose size is not a multiple of 32): lanes past the last segment trail every real one, so their
  // values cannot reach a real lane's prefix. A full warp keeps the scan on power-of-two shuffles, and the
  // prefix callback is always called by a whole warp. A block smaller than a warp scans with all its threads.
  static constexpr int SCAN_LANES = WARP_SYNCHRONOUS ? BLOCK_THREADS : WARP_THREADS;

  using WarpScanT = WarpScan<T, SCAN_LANES>;

  // Warp scans of other sizes than powers of two exchange values through their TempStorage.
  static constexpr bool WARP_SCAN_IN_SHARED_MEMORY = !cuda::std::has_single_bit(static_cast<unsigned>(SCAN_LANES));

  // Every member starts on a 16-byte line: elements of 16 bytes or less then never straddle one, so every
  // read is an exact vector load (a load widened over a neighbour's bytes would also read what another lane
  // may be writing).
  struct _TempStorage
  {
    alignas(16) cuda::std::conditional_t<WARP_SYNCHRONOUS, NullType, typename Layout::TempStorage> raking_grid;
    alignas(16) T block_aggregate;
    alignas(16) typename WarpScanT::TempStorage warp_scan;
  };

  struct TempStorage : Uninitialized<_TempStorage>
  {};

  _TempStorage& temp_storage;
  unsigned int linear_tid;

  STRATA_DEVICE STRATA_FORCEINLINE explicit BlockScanRaking(TempStorage& storage)
      : temp_storage(storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
  {}

  // -- exclusive scans ------------------------------------------------------------------------------------

  // Without an initial value the output of thread 0 is undefined.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOp scan_op)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      WarpScanT(temp_storage.warp_scan).ExclusiveScan(input, output, scan_op);
    }
    else
    {
      RakingScan<false>(input, output, scan_op, [&](const T& partial, bool& apply_prefix, T&) {
        T exclusive;
        WarpScanT(temp_storage.warp_scan).ExclusiveScan(partial, exclusive, scan_op);
        apply_prefix = linear_tid != 0;
        return exclusive;
      });
    }
  }

  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, const T& initial_value, ScanOp scan_op)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      WarpScanT(temp_storage.warp_scan).ExclusiveScan(input, output, initial_value, scan_op);
    }
    else
    {
      RakingScan<false>(input, output, scan_op, [&](const T& partial, bool&, T&) {
        T exclusive;
        WarpScanT(temp_storage.warp_scan).ExclusiveScan(partial, exclusive, initial_value, scan_op);
        return exclusive;
      });
    }
  }

  // Without an initial value the output of thread 0 is undefined.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOp scan_op, T& block_aggregate)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      WarpScanT(temp_storage.warp_scan).ExclusiveScan(input, output, scan_op, block_aggregate);
    }
    else
    {
      RakingScan<false, true>(input, output, scan_op, [&](const T& partial, bool& apply_prefix, T& inclusive) {
        T exclusive;
        WarpScanT(temp_storage.warp_scan).Scan(partial, inclusive, exclusive, scan_op);
        apply_prefix = linear_tid != 0;
        return exclusive;
      });
      block_aggregate = temp_storage.block_aggregate;
    }
  }

  // block_aggregate does not include initial_value.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, const T& initial_value, ScanOp scan_op,
                                                      T& block_aggregate)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      WarpScanT(temp_storage.warp_scan).ExclusiveScan(input, output, initial_value, scan_op, block_aggregate);
    }
    else
    {
      RakingScan<false, true>(input, output, scan_op, [&](const T& partial, bool&, T& inclusive) {
        T exclusive;
        WarpScanT(temp_storage.warp_scan).Scan(partial, inclusive, exclusive, scan_op);
        return SeedWith(initial_value, exclusive, scan_op);
      });
      block_aggregate = temp_storage.block_aggregate;
    }
  }

  // The first warp calls block_prefix_callback_op(block_aggregate); lane 0's return value prefixes the block.
  template <typename ScanOp, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOp scan_op,
                                                      BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      WarpScanT warp_scan(temp_storage.warp_scan);
      T block_aggregate;
      warp_scan.ExclusiveScan(input, output, scan_op, block_aggregate);
      SyncBeforeReuse();
      const T block_prefix = warp_scan.Broadcast(block_prefix_callback_op(block_aggregate), 0);
      output               = SeedWith(block_prefix, output, scan_op);
    }
    else
    {
      RakingScan<false>(input, output, scan_op, [&](const T& partial, bool&, T&) {
        return CallbackSeed(partial, scan_op, block_prefix_callback_op);
      });
    }
  }

  // -- inclusive scans ------------------------------------------------------------------------------------

  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOp scan_op)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      WarpScanT(temp_storage.warp_scan).InclusiveScan(input, output, scan_op);
    }
    else
    {
      RakingScan<true>(input, output, scan_op, [&](const T& partial, bool& apply_prefix, T&) {
        T exclusive;
        WarpScanT(temp_storage.warp_scan).ExclusiveScan(partial, exclusive, scan_op);
        apply_prefix = linear_tid != 0;
        return exclusive;
      });
    }
  }

  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOp scan_op, T& block_aggregate)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      WarpScanT(temp_storage.warp_scan).InclusiveScan(input, output, scan_op, block_aggregate);
    }
    else
    {
      RakingScan<true, true>(input, output, scan_op, [&](const T& partial, bool& apply_prefix, T& inclusive) {
        T exclusive;
        WarpScanT(temp_storage.warp_scan).Scan(partial, inclusive, exclusive, scan_op);
        apply_prefix = linear_tid != 0;
        return exclusive;
      });
      block_aggregate = temp_storage.block_aggregate;
    }
  }

  // The first warp calls block_prefix_callback_op(block_aggregate); lane 0's return value prefixes the block.
  template <typename ScanOp, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOp scan_op,
                                                      BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    if constexpr (WARP_SYNCHRONOUS)
    {
      WarpScanT warp_scan(temp_storage.warp_scan);
      T block_aggregate;
      warp_scan.InclusiveScan(input, output, scan_op, block_aggregate);
      SyncBeforeReuse();
      const T block_prefix = warp_scan.Broadcast(block_prefix_callback_op(block_aggregate), 0);
      output               = scan_op(block_prefix, output);
    }
    else
    {
      RakingScan<true>(input, output, scan_op, [&](const T& partial, bool&, T&) {
        return CallbackSeed(partial, scan_op, block_prefix_callback_op);
      });
    }
  }

private:
  // A warp scan through shared memory may only reuse its TempStorage (for the broadcast of the block prefix)
  // after its lanes synchronize.
  STRATA_DEVICE STRATA_FORCEINLINE void SyncBeforeReuse() const
  {
    if constexpr (WARP_SCAN_IN_SHARED_MEMORY)
    {
      WarpSync(0xffffffffu >> (WARP_THREADS - SCAN_LANES));
    }
  }

  // Whether element `i` of the calling raking thread's segment holds a thread's value: only the last
  // segment can be short, and only when BLOCK_THREADS is not a multiple of SEGMENT_LENGTH.
  STRATA_DEVICE STRATA_FORCEINLINE bool InSegment(int i) const
  {
    return Layout::UNGUARDED || (static_cast<int>(linear_tid) * SEGMENT_LENGTH + i < BLOCK_THREADS);
  }

  // `prefix` combined in front of a lane's exclusive partial; lane 0 has no partial and takes `prefix` itself.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE T SeedWith(const T& prefix, const T& exclusive, ScanOp scan_op) const
  {
    return (linear_tid == 0) ? prefix : static_cast<T>(scan_op(prefix, exclusive));
  }

  // Raking-warp step of the callback scans: every lane of the first warp gets the block aggregate and calls
  // the callback; lane 0's return value is broadcast and seeds every segment.
  template <typename ScanOp, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE T CallbackSeed(const T& partial, ScanOp scan_op,
                                                  BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    WarpScanT warp_scan(temp_storage.warp_scan);
    T inclusive, exclusive;
    warp_scan.Scan(partial, inclusive, exclusive, scan_op);
    const T block_aggregate = warp_scan.Broadcast(inclusive, RAKING_THREADS - 1);
    const T block_prefix    = warp_scan.Broadcast(block_prefix_callback_op(block_aggregate), 0);
    return SeedWith(block_prefix, exclusive, scan_op);
  }

  // Reads the calling raking thread's segment. Past the end of a short last segment it repeats the first
  // element, so that every register holds a real value: scans over the whole array then stay well defined, and
  // their results past the end are never stored.
  STRATA_DEVICE STRATA_FORCEINLINE void LoadSegment(const T* segment_ptr, T (&segment)[SEGMENT_LENGTH]) const
  {
    STRATA_UNROLL
    for (int i = 0; i < SEGMENT_LENGTH; ++i)
    {
      segment[i] = segment_ptr[InSegment(i) ? i : 0];
    }
  }

  // The raking skeleton shared by every multi-warp scan. `warp_step(partial, apply_prefix, inclusive)` runs on
  // every lane of the first warp with that lane's segment reduction and returns the segment's exclusive
  // prefix; it clears `apply_prefix` where no prefix exists (the first segment of a scan without initial
  // value). With PUBLISH_AGGREGATE it also sets `inclusive` to the lane's inclusive partial: the last raking
  // lane's is the block aggregate, which it stores in temp_storage.block_aggregate for every thread to read
  // after the closing barrier.
  template <bool INCLUSIVE, bool PUBLISH_AGGREGATE = false, typename ScanOp, typename WarpStep>
  STRATA_DEVICE STRATA_FORCEINLINE void RakingScan(T input, T& output, ScanOp scan_op, WarpStep warp_step)
  {
    T* placement = Layout::PlacementPtr(temp_storage.raking_grid, linear_tid);
    *placement   = input;
    __syncthreads();

    if (linear_tid < WARP_THREADS)
    {
      // Lanes past the last segment (RAKING_THREADS < 32) scan their own input as a stand-in partial.
      const bool raking = (RAKING_THREADS == WARP_THREADS) || (linear_tid < RAKING_THREADS);
      T* segment_ptr    = Layout::RakingPtr(temp_storage.raking_grid, raking ? linear_tid : 0);

      // Upsweep: reduce the segment in thread order.
      T segment[SEGMENT_LENGTH];
      T partial = input;
      if (raking)
      {
        LoadSegment(segment_ptr, segment);
        if constexpr (Layout::UNGUARDED)
        {
          partial = ThreadReduce(segment, scan_op);
        }
        else
        {
          partial = segment[0];
          STRATA_UNROLL
          for (int i = 1; i < SEGMENT_LENGTH; ++i)
          {
            if (InSegment(i))
            {
              partial = scan_op(partial, segment[i]);
            }
          }
        }
      }

      bool apply_prefix = true;
      T inclusive       = partial;
      const T prefix    = warp_step(partial, apply_prefix, inclusive);

      // Downsweep: scan the segment seeded with its exclusive prefix, in registers, then write it back in place.
      // The stores come after all the loads, so that the compiler may still serve RAKING's second read of the
      // segment from the registers of the first when it has them to spare.
      if (raking)
      {
        if constexpr (!MEMOIZE)
        {
          LoadSegment(segment_ptr, segment);
        }
        if constexpr (INCLUSIVE)
        {
          ThreadScanInclusive(segment, segment, scan_op, prefix, apply_prefix);
        }
        else
        {
          ThreadScanExclusive(segment, segment, scan_op, prefix, apply_prefix);
        }
        STRATA_UNROLL
        for (int i = 0; i < SEGMENT_LENGTH; ++i)
        {
          if (InSegment(i))
          {
            segment_ptr[i] = segment[i];
          }
        }
      }
      // Stored after the segment, not before it: a store between the two reads of the segment would keep the
      // compiler from serving the second from registers.
      if (PUBLISH_AGGREGATE && linear_tid == RAKING_THREADS - 1)
      {
        temp_storage.block_aggregate = inclusive;
      }
    }
    __syncthreads();
    output = *placement;
  }
};

} // namespace detail
STRATA_NAMESPACE_END
