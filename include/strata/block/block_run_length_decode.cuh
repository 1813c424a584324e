// BlockRunLengthDecode: expands the runs (value, length) held by a thread block into a blocked arrangement of
// decoded items, one window of the decoded sequence at a time.
#pragma once

#include <strata/block/block_scan.cuh>
#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN

// BlockRunLengthDecode<ItemT, BLOCK_DIM_X, RUNS_PER_THREAD, DECODED_ITEMS_PER_THREAD, DecodedOffsetT, BLOCK_DIM_Y,
//                      BLOCK_DIM_Z>
//
// The block holds BLOCK_THREADS * RUNS_PER_THREAD runs in a blocked arrangement (thread t holds runs
// t * RUNS_PER_THREAD ... (t + 1) * RUNS_PER_THREAD - 1, threads ranked by RowMajorTid); run r repeats
// run_values[r] run_lengths[r] times, and the decoded sequence is the concatenation of the runs in order.
// The constructor takes the runs' lengths (and returns the decoded size) or the offsets at which they begin
// (the exclusive prefix sum of the lengths, non-decreasing, the first one 0). Runs of length 0 may appear
// anywhere. RunLengthDecode(decoded_items, from_decoded_offset) returns the window of
// BLOCK_THREADS * DECODED_ITEMS_PER_THREAD decoded items that starts at from_decoded_offset, in a blocked
// arrangement; the overload with `item_offsets` also gives each item's index within its run. Items of the window
// at or past the decoded size are unspecified. Decoded offsets, including from_decoded_offset plus the window
// size, must fit in DecodedOffsetT.
//
// Temporary storage: the constructor uses TempStorage (with barriers, so every thread of the block must construct
// the object) and leaves the runs in it; the TempStorage must not be reused until the last RunLengthDecode call.
// RunLengthDecode only reads it, so successive windows need no barrier between them. The constructors without a
// TempStorage argument use a private __shared__ allocation.
// Cost: the lengths constructors run one block-wide scan, one shared-memory store per run and two barriers, the
// offsets constructors the stores and two barriers; each window costs one binary search over the block's runs per
// thread and one step per decoded item. Runs of length 0 before the end of the decoded sequence make each step a
// loop over the empty runs it meets (at the end of the sequence they cost nothing).
//
// Example (128 threads, 2 runs and 4 decoded items each):
//   using BlockRunLengthDecodeT = strata::BlockRunLengthDecode<int, 128, 2, 4>;
//   __shared__ typename BlockRunLengthDecodeT::TempStorage temp_storage;
//   int values[2], decoded[4]; uint32_t lengths[2], total; // ... values and lengths loaded
//   BlockRunLengthDecodeT rld(temp_storage, values, lengths, total);
//   for (uint32_t window = 0; window < total; window += 128 * 4) rld.RunLengthDecode(decoded, window);
template <typename ItemT, int BLOCK_DIM_X, int RUNS_PER_THREAD, int DECODED_ITEMS_PER_THREAD,
          typename DecodedOffsetT = cuda::std::uint32_t, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockRunLengthDecode
{
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static_assert(BLOCK_THREADS >= 1 && BLOCK_THREADS <= 1024, "a thread block has 1..1024 threads");
  static_assert(RUNS_PER_THREAD >= 1 && DECODED_ITEMS_PER_THREAD >= 1, "at least one run and one decoded item");

  // The runs of the whole block.
  static constexpr int BLOCK_RUNS = BLOCK_THREADS * RUNS_PER_THREAD;
  // The binary search over BLOCK_RUNS run offsets takes steps of 2^SEARCH_LOG_STEP, ..., 2, 1.
  static constexpr int SEARCH_LOG_STEP = cuda::ilog2(BLOCK_RUNS);

  // The run offsets' scan. sm90: the constructor plus one window, 256 threads, 2 runs and 8 items each, takes
  // 0.090 ms per 2^24 runs with the memoizing raking scan and 0.095 ms with warp scans (H200).
  using RunOffsetScanT = BlockScan<DecodedOffsetT, BLOCK_DIM_X, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_DIM_Y, BLOCK_DIM_Z>;

  // The scan's storage is dead once the run offsets are known, so the runs reuse it.
  union _TempStorage
  {
    typename RunOffsetScanT::TempStorage offset_scan;
    struct
    {
      ItemT run_values[BLOCK_RUNS];
      DecodedOffsetT run_offsets[BLOCK_RUNS];
    } runs;
  };

public:
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  // Runs given by their lengths; total_decoded_size = the sum of all run lengths, in every thread.
  template <typename RunLengthT, typename TotalDecodedSizeT>
  STRATA_DEVICE STRATA_FORCEINLINE
  BlockRunLengthDecode(TempStorage& temp_storage, const ItemT (&run_values)[RUNS_PER_THREAD],
                       const RunLengthT (&run_lengths)[RUNS_PER_THREAD], TotalDecodedSizeT& total_decoded_size)
      : temp_storage_(temp_storage.Alias())
      , linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
      , empty_runs_before_items_(false)
  {
    InitWithRunLengths(run_values, run_lengths, total_decoded_size);
  }

  // Runs given by the decoded offsets at which they begin.
  template <typename UserRunOffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE BlockRunLengthDecode(TempStorage& temp_storage,
                                                        const ItemT (&run_values)[RUNS_PER_THREAD],
                                                        const UserRunOffsetT (&run_offsets)[RUNS_PER_THREAD])
      : temp_storage_(temp_storage.Alias())
      , linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
      , empty_runs_before_items_(false)
  {
    InitWithRunOffsets(run_values, run_offsets);
  }

  // Runs given by their lengths, in a private __shared__ allocation.
  template <typename RunLengthT, typename TotalDecodedSizeT>
  STRATA_DEVICE STRATA_FORCEINLINE BlockRunLengthDecode(const ItemT (&run_values)[RUNS_PER_THREAD],
                                                        const RunLengthT (&run_lengths)[RUNS_PER_THREAD],
                                                        TotalDecodedSizeT& total_decoded_size)
      : temp_storage_(PrivateStorage())
      , linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
      , empty_runs_before_items_(false)
  {
    InitWithRunLengths(run_values, run_lengths, total_decoded_size);
  }

  // Runs given by the decoded offsets at which they begin, in a private __shared__ allocation.
  template <typename UserRunOffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE BlockRunLengthDecode(const ItemT (&run_values)[RUNS_PER_THREAD],
                                                        const UserRunOffsetT (&run_offsets)[RUNS_PER_THREAD])
      : temp_storage_(PrivateStorage())
      , linear_tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z))
      , empty_runs_before_items_(false)
  {
    InitWithRunOffsets(run_values, run_offsets);
  }

  // The decoded items from_decoded_offset ... from_decoded_offset + BLOCK_THREADS * DECODED_ITEMS_PER_THREAD - 1
  // in a blocked arrangement; item_offsets[i] = the index of decoded_items[i] within its run.
  // requires: from_decoded_offset >= the first run's offset (0 for the run-lengths constructors)
  template <typename RelativeOffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void RunLengthDecode(ItemT (&decoded_items)[DECODED_ITEMS_PER_THREAD],
                                                        RelativeOffsetT (&item_offsets)[DECODED_ITEMS_PER_THREAD],
                                                        DecodedOffsetT from_decoded_offset = 0)
  {
    // The same branch in every thread of the block.
    if (empty_runs_before_items_)
    {
      DecodeWindow<true>(decoded_items, item_offsets, from_decoded_offset);
    }
    else
    {
      DecodeWindow<false>(decoded_items, item_offsets, from_decoded_offset);
    }
  }

  // The decoded items from_decoded_offset ... from_decoded_offset + BLOCK_THREADS * DECODED_ITEMS_PER_THREAD - 1
  // in a blocked arrangement.
  // requires: from_decoded_offset >= the first run's offset (0 for the run-lengths constructors)
  STRATA_DEVICE STRATA_FORCEINLINE void RunLengthDecode(ItemT (&decoded_items)[DECODED_ITEMS_PER_THREAD],
                                                        DecodedOffsetT from_decoded_offset = 0)
  {
    DecodedOffsetT item_offsets[DECODED_ITEMS_PER_THREAD];
    RunLengthDecode(decoded_items, item_offsets, from_decoded_offset);
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE static _TempStorage& PrivateStorage()
  {
    __shared__ _TempStorage private_storage;
    return private_storage;
  }

  // Each thread finds the run of its first item by a binary search, then walks forward one run at a time.
  // SKIP_EMPTY_RUNS: a step may land on runs of length 0 that precede decoded items, so it steps on past them.
  // Without them (the common case), a step is one predicated load, like a walk that ignores empty runs, and runs
  // of length 0 at the end can only be reached past the decoded size, where items are unspecified.
  template <bool SKIP_EMPTY_RUNS, typename RelativeOffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void DecodeWindow(ItemT (&decoded_items)[DECODED_ITEMS_PER_THREAD],
                                                     RelativeOffsetT (&item_offsets)[DECODED_ITEMS_PER_THREAD],
                                                     DecodedOffsetT from_decoded_offset) const
  {
    DecodedOffsetT offset =
      from_decoded_offset
      + static_cast<DecodedOffsetT>(linear_tid_) * static_cast<DecodedOffsetT>(DECODED_ITEMS_PER_THREAD);
    // An offset that this thread's loop never reaches: the end of the block's last run, whose length is unknown.
    const DecodedOffsetT thread_end = offset + static_cast<DecodedOffsetT>(DECODED_ITEMS_PER_THREAD);

    int run                  = LastRunStartingAtOrBefore(offset);
    DecodedOffsetT run_begin = temp_storage_.runs.run_offsets[run];
    DecodedOffsetT run_end   = RunEnd(run, thread_end);
    ItemT value              = temp_storage_.runs.run_values[run];

    STRATA_UNROLL
    for (int i = 0; i < DECODED_ITEMS_PER_THREAD; ++i)
    {
      if (i > 0 && offset == run_end)
      {
        if constexpr (SKIP_EMPTY_RUNS)
        {
          // Runs of length 0 end where they begin.
          do
          {
            ++run;
            run_end = RunEnd(run, thread_end);
          } while (run_end == offset);
        }
        else
        {
          ++run;
          run_end = RunEnd(run, thread_end);
        }
        run_begin = offset;
        value     = temp_storage_.runs.run_values[run];
      }
      decoded_items[i] = value;
      item_offsets[i]  = static_cast<RelativeOffsetT>(offset - run_begin);
      ++offset;
    }
  }

  template <typename RunLengthT, typename TotalDecodedSizeT>
  STRATA_DEVICE STRATA_FORCEINLINE void InitWithRunLengths(const ItemT (&run_values)[RUNS_PER_THREAD],
                                                           const RunLengthT (&run_lengths)[RUNS_PER_THREAD],
                                                           TotalDecodedSizeT& total_decoded_size)
  {
    DecodedOffsetT lengths[RUNS_PER_THREAD];
    STRATA_UNROLL
    for (int i = 0; i < RUNS_PER_THREAD; ++i)
    {
      lengths[i] = static_cast<DecodedOffsetT>(run_lengths[i]);
    }
    DecodedOffsetT run_offsets[RUNS_PER_THREAD];
    DecodedOffsetT decoded_size;
    RunOffsetScanT(temp_storage_.offset_scan).ExclusiveSum(lengths, run_offsets, decoded_size);
    total_decoded_size = static_cast<TotalDecodedSizeT>(decoded_size);
    // The runs overwrite the scan's storage, which other threads may still be reading.
    __syncthreads();
    StoreRuns(run_values, run_offsets);
    // An empty run before the decoded size is followed by decoded items; empty runs at the end are harmless.
    bool empty_run_before_items = false;
    STRATA_UNROLL
    for (int i = 0; i < RUNS_PER_THREAD; ++i)
    {
      empty_run_before_items |= lengths[i] == 0 && run_offsets[i] < decoded_size;
    }
    empty_runs_before_items_ = __syncthreads_or(empty_run_before_items) != 0;
  }

  template <typename UserRunOffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void InitWithRunOffsets(const ItemT (&run_values)[RUNS_PER_THREAD],
                                                           const UserRunOffsetT (&run_offsets)[RUNS_PER_THREAD])
  {
    DecodedOffsetT offsets[RUNS_PER_THREAD];
    STRATA_UNROLL
    for (int i = 0; i < RUNS_PER_THREAD; ++i)
    {
      offsets[i] = static_cast<DecodedOffsetT>(run_offsets[i]);
    }
    StoreRuns(run_values, offsets);
    __syncthreads();
    // Without the decoded size, any empty run (two equal offsets in a row) may precede decoded items.
    bool empty_run = false;
    STRATA_UNROLL
    for (int i = 0; i + 1 < RUNS_PER_THREAD; ++i)
    {
      empty_run |= offsets[i] == offsets[i + 1];
    }
    if (linear_tid_ + 1 < BLOCK_THREADS)
    {
      empty_run |= offsets[RUNS_PER_THREAD - 1] == temp_storage_.runs.run_offsets[(linear_tid_ + 1) * RUNS_PER_THREAD];
    }
    empty_runs_before_items_ = __syncthreads_or(empty_run) != 0;
  }

  STRATA_DEVICE STRATA_FORCEINLINE void StoreRuns(const ItemT (&run_values)[RUNS_PER_THREAD],
                                                  const DecodedOffsetT (&run_offsets)[RUNS_PER_THREAD])
  {
    STRATA_UNROLL
    for (int i = 0; i < RUNS_PER_THREAD; ++i)
    {
      temp_storage_.runs.run_values[linear_tid_ * RUNS_PER_THREAD + i]  = run_values[i];
      temp_storage_.runs.run_offsets[linear_tid_ * RUNS_PER_THREAD + i] = run_offsets[i];
    }
  }

  // The last run whose offset is at most `offset` (the first run if there is none). Runs of length 0 share their
  // offset with the next run, so this is the run that holds decoded item `offset` (or the block's last run,
  // past the decoded size). A binary search with a compile-time number of steps: the number of run offsets
  // <= `offset` is built bit by bit, from the largest power of two down.
  STRATA_DEVICE STRATA_FORCEINLINE int LastRunStartingAtOrBefore(DecodedOffsetT offset) const
  {
    int count = 0;
    STRATA_UNROLL
    for (int log_step = SEARCH_LOG_STEP; log_step >= 0; --log_step)
    {
      const int next = count + (1 << log_step);
      if (next <= BLOCK_RUNS && temp_storage_.runs.run_offsets[next - 1] <= offset)
      {
        count = next;
      }
    }
    return count > 0 ? count - 1 : 0;
  }

  // Where run `run` ends: the next run's offset, or `unbounded` for the block's last run.
  STRATA_DEVICE STRATA_FORCEINLINE DecodedOffsetT RunEnd(int run, DecodedOffsetT unbounded) const
  {
    return run == BLOCK_RUNS - 1 ? unbounded : temp_storage_.runs.run_offsets[run + 1];
  }

  _TempStorage& temp_storage_;
  int linear_tid_;
  // Whether some run of length 0 precedes decoded items (the same in every thread).
  bool empty_runs_before_items_;
};

STRATA_NAMESPACE_END
