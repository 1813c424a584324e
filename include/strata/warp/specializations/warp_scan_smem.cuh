// WarpScan for logical warps whose size is not a power of two: a Kogge-Stone scan through shared memory.
//
// Shuffle segments only come in powers of two, so these logical warps exchange partials through shared
// memory instead. The logical warp is the first LOGICAL_WARP_THREADS lanes of a hardware warp; the other
// lanes of that hardware warp do not take part.
#pragma once

#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{

template <typename T, int LOGICAL_WARP_THREADS>
struct warp_scan_smem
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= WARP_THREADS, "logical warp of 1..32 lanes");

  static constexpr int STEPS = log2_ceil(LOGICAL_WARP_THREADS);

  // Two buffers used in turn, one per scan step. A lane writes the buffer of step k+1 only after the barrier
  // of step k, which every lane reaches only after reading the buffer of step k-1 (the same buffer): one
  // barrier per step is enough, where a single buffer would need a second one before each overwrite.
  struct TempStorage
  {
    T buffer[2][LOGICAL_WARP_THREADS];
  };

  TempStorage& storage;
  // Lane within the logical warp (the hardware lane: the logical warp starts at lane 0).
  unsigned int lane_id;
  // Lanes 0 .. LOGICAL_WARP_THREADS-1.
  unsigned int member_mask;

  STRATA_DEVICE STRATA_FORCEINLINE explicit warp_scan_smem(TempStorage& temp_storage)
      : storage(temp_storage)
      , lane_id(LaneId())
      , member_mask(0xffffffffu >> (WARP_THREADS - LOGICAL_WARP_THREADS))
  {}

  // Inclusive scan: after step k, each lane holds the combination of the 2^(k+1) inputs ending at itself
  // (fewer near lane 0). Partials always combine as op(earlier, later).
  template <typename ScanOp>
  STRATA_DEVICE STRATA_FORCEINLINE void inclusive_scan(T input, T& inclusive, ScanOp scan_op)
  {
    inclusive = input;
    STRATA_UNROLL
    for (int step = 0; step < STEPS; ++step)
    {
      const unsigned int offset = 1u << step;
      const bool has_earlier    = lane_id >= offset;
      T* cells                  = storage.buffer[step & 1];
      cells[lane_id]            = inclusive;
      WarpSync(member_mask);
      // Every lane loads and combines (lanes without a predecessor 2^step back read their own cell) and then
      // selects: a guarded load would become a branch, and the barriers after it divergence checks.
      const T earlier  = cells[has_earlier ? lane_id - offset : lane_id];
      const T combined = static_cast<T>(scan_op(earlier, inclusive));
      inclusive        = has_earlier ? combined : inclusive;
    }
  }

  // Publishes every lane's inclusive result in the buffer that the last scan step did not read.
  STRATA_DEVICE STRATA_FORCEINLINE const T* publish(T inclusive)
  {
    T* cells       = storage.buffer[STEPS & 1];
    cells[lane_id] = inclusive;
    WarpSync(member_mask);
    return cells;
  }

  // The inclusive result of the previous lane (lane 0 gets its own value, which callers must not use).
  // At most one of exclusive / aggregate / exclusive_and_aggregate may follow one inclusive_scan.
  STRATA_DEVICE STRATA_FORCEINLINE T exclusive(T inclusive)
  {
    const T* cells = publish(inclusive);
    return cells[lane_id == 0 ? 0 : lane_id - 1];
  }

  // The inclusive result of the last lane: the aggregate of the logical warp.
  STRATA_DEVICE STRATA_FORCEINLINE T aggregate(T inclusive)
  {
    return publish(inclusive)[LOGICAL_WARP_THREADS - 1];
  }

  STRATA_DEVICE STRATA_FORCEINLINE void exclusive_and_aggregate(T inclusive, T& exclusive_out, T& aggregate_out)
  {
    const T* cells = publish(inclusive);
    exclusive_out  = cells[lane_id == 0 ? 0 : lane_id - 1];
    aggregate_out  = cells[LOGICAL_WARP_THREADS - 1];
  }

  STRATA_DEVICE STRATA_FORCEINLINE T broadcast(T input, unsigned int src_lane)
  {
    if (lane_id == src_lane)
    {
      storage.buffer[0][0] = input;
    }
    WarpSync(member_mask);
    return storage.buffer[0][0];
  }
};

} // namespace detail
STRATA_NAMESPACE_END
