// BlockScanWarpScans: the tiled warp-scans variant of BlockScan (BLOCK_SCAN_WARP_SCANS).
//
// Every warp scans its own values with shuffles, the last lane of each warp publishes the warp's aggregate,
// and after one barrier every thread combines the aggregates of the warps before its own (in warp order, so
// non-commutative operators stay exact). One barrier per scan; the prefix-callback scans need a second one to
// hand the first warp's prefix to the others. Shorter latency than raking, more operator applications.
//
// Requires BLOCK_THREADS to be a multiple of 32 (BlockScan falls back to raking otherwise).
#pragma once

#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/warp_scan.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{

template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z>
struct BlockScanWarpScans
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(BLOCK_THREADS % WARP_THREADS == 0 && BLOCK_THREADS <= 1024,
                "BlockScanWarpScans needs whole warps (at most 32 of them)");

  static constexpr int WARPS = BLOCK_THREADS / WARP_THREADS;

  using WarpScanT = WarpScan<T, WARP_THREADS>;

  // Every member starts on a 16-byte line, so that the reads of the aggregates merge into vector loads and no
  // load is widened over bytes that another thread may be writing.
  struct _TempStorage
  {
    alignas(16) T warp_aggregates[WARPS];
    alignas(16) T block_prefix;
    alignas(16) typename WarpScanT::TempStorage warp_scan[WARPS];
  };

  struct TempStorage : Uninitialized<_TempStorage>
  {};

  _TempStorage& temp_storage;
  unsigned int linear_tid;
  unsigned int warp_id;
  unsigned int lane_id;

  STRATA_DEVICE STRATA_FORCEINLINE explicit BlockScanWarpScans(TempStorage& storage)
      : temp_storage(storage.Alias())
      , linear_tid(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
      , warp_id(WARPS == 1 ? 0u : linear_tid / WARP_THREADS)
      , lane_id(linear_tid % WARP_THREADS)
  {}

  // -- exclusive scans ------------------------------------------------------------------------------------

  // Without an initial value the output of thread 0 is undefined.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOp scan_op)
  {
    T block_aggregate;
    ExclusiveScan(input, output, scan_op, block_aggregate);
  }

  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, const T& initial_value, ScanOp scan_op)
  {
    T block_aggregate;
    ExclusiveScan(input, output, initial_value, scan_op, block_aggregate);
  }

  // Without an initial value the output of thread 0 is undefined.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOp scan_op, T& block_aggregate)
  {
    T inclusive, exclusive;
    WarpScanT(temp_storage.warp_scan[warp_id]).Scan(input, inclusive, exclusive, scan_op);
    const T warp_prefix = WarpPrefix(inclusive, scan_op, block_aggregate);
    output              = exclusive;
    if (warp_id != 0)
    {
      output = (lane_id == 0) ? warp_prefix : static_cast<T>(scan_op(warp_prefix, exclusive));
    }
  }

  // block_aggregate does not include initial_value.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, const T& initial_value, ScanOp scan_op,
                                                      T& block_aggregate)
  {
    T inclusive, exclusive;
    WarpScanT(temp_storage.warp_scan[warp_id]).Scan(input, inclusive, exclusive, scan_op);
    T warp_prefix = WarpPrefix(inclusive, scan_op, block_aggregate);
    warp_prefix   = (warp_id == 0) ? initial_value : static_cast<T>(scan_op(initial_value, warp_prefix));
    output        = (lane_id == 0) ? warp_prefix : static_cast<T>(scan_op(warp_prefix, exclusive));
  }

  // The first warp calls block_prefix_callback_op(block_aggregate); lane 0's return value prefixes the block.
  template <typename ScanOp, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void ExclusiveScan(T input, T& output, ScanOp scan_op,
                                                      BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    T block_aggregate;
    ExclusiveScan(input, output, scan_op, block_aggregate);
    const T block_prefix = BlockPrefix(block_aggregate, block_prefix_callback_op);
    output               = (linear_tid == 0) ? block_prefix : static_cast<T>(scan_op(block_prefix, output));
  }

  // -- inclusive scans ------------------------------------------------------------------------------------

  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOp scan_op)
  {
    T block_aggregate;
    InclusiveScan(input, output, scan_op, block_aggregate);
  }

  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOp scan_op, T& block_aggregate)
  {
    T inclusive;
    WarpScanT(temp_storage.warp_scan[warp_id]).InclusiveScan(input, inclusive, scan_op);
    const T warp_prefix = WarpPrefix(inclusive, scan_op, block_aggregate);
    output              = (warp_id == 0) ? inclusive : static_cast<T>(scan_op(warp_prefix, inclusive));
  }

  // The first warp calls block_prefix_callback_op(block_aggregate); lane 0's return value prefixes the block.
  template <typename ScanOp, typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE void InclusiveScan(T input, T& output, ScanOp scan_op,
                                                      BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    T block_aggregate;
    InclusiveScan(input, output, scan_op, block_aggregate);
    const T block_prefix = BlockPrefix(block_aggregate, block_prefix_callback_op);
    output               = scan_op(block_prefix, output);
  }

private:
  // Combines the warp aggregates: returns the reduction of the warps before the calling one (undefined in
  // warp 0) and sets block_aggregate to the reduction of all of them, in every thread. `inclusive` is the
  // calling lane's inclusive warp-scan value; the last lane's is the warp aggregate.
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE T WarpPrefix(const T& inclusive, ScanOp scan_op, T& block_aggregate)
  {
    if constexpr (WARPS == 1)
    {
      block_aggregate = WarpScanT(temp_storage.warp_scan[0]).Broadcast(inclusive, WARP_THREADS - 1);
      return block_aggregate;
    }
    else
    {
      if (lane_id == WARP_THREADS - 1)
      {
        temp_storage.warp_aggregates[warp_id] = inclusive;
      }
      __syncthreads();

      T running     = temp_storage.warp_aggregates[0];
      T warp_prefix = running;
      STRATA_UNROLL
      for (int w = 1; w < WARPS; ++w)
      {
        if (warp_id == static_cast<unsigned int>(w))
        {
          warp_prefix = running;
        }
        running = scan_op(running, temp_storage.warp_aggregates[w]);
      }
      block_aggregate = running;
      return warp_prefix;
    }
  }

  // The first warp calls the callback with the block aggregate; lane 0's return value reaches every thread
  // through shared memory (a second barrier) or, for a one-warp block, a shuffle.
  template <typename BlockPrefixCallbackOp>
  STRATA_DEVICE STRATA_FORCEINLINE T BlockPrefix(const T& block_aggregate,
                                                 BlockPrefixCallbackOp& block_prefix_callback_op)
  {
    if constexpr (WARPS == 1)
    {
      return WarpScanT(temp_storage.warp_scan[0]).Broadcast(block_prefix_callback_op(block_aggregate), 0);
    }
    else
    {
      if (warp_id == 0)
      {
        const T block_prefix = block_prefix_callback_op(block_aggregate);
        if (lane_id == 0)
        {
          temp_storage.block_prefix = block_prefix;
        }
      }
      __syncthreads();
      return temp_storage.block_prefix;
    }
  }
};

} // namespace detail
STRATA_NAMESPACE_END
