// BlockExchange with shared memory for one warp's worth of items (32 * ITEMS_PER_THREAD): the exchange runs in
// one time slice per warp. Slice s holds the tile items [s * 32 * ITEMS_PER_THREAD, (s + 1) * 32 * ITEMS_PER_THREAD),
// exactly the items warp s owns in a blocked arrangement. A block-wide exchange costs two barriers per slice
// (less shared memory, less parallelism); a warp-striped one needs only one barrier between slices.
//
// On the striped side every thread tests each of its items against each slice. Those slice loops are unrolled,
// so the compiler drops every (slice, item) pair whose ranges cannot meet: of the WARPS * ITEMS_PER_THREAD pairs
// only about WARPS + ITEMS_PER_THREAD remain (rolled, transposes of 1024 x 16 ints ran 4x slower on an H200).
// Loops with no striped side (warp-striped exchanges, ScatterToBlocked) gain nothing from unrolling and stay
// rolled, which keeps code size and compile time down.
#pragma once

#include <strata/block/specializations/block_exchange_layout.cuh>
#include <strata/config.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{

template <typename T, int BLOCK_THREADS, int ITEMS_PER_THREAD>
class block_exchange_time_sliced
{
  using layout = block_exchange_layout<T, ITEMS_PER_THREAD>;
  using shape  = block_exchange_shape<BLOCK_THREADS, ITEMS_PER_THREAD>;

  static constexpr int SLICES      = shape::WARPS;
  static constexpr int SLICE_ITEMS = shape::WARP_ITEMS;
  static_assert(SLICES > 1, "time slicing needs more than one warp");

public:
  struct alignas(16) TempStorage
  {
    T buff[layout::buffer_items(SLICE_ITEMS)];
  };

  STRATA_DEVICE STRATA_FORCEINLINE block_exchange_time_sliced(TempStorage& storage, int linear_tid)
      : storage_(storage)
      , shape_(linear_tid)
  {}

  // Striped items are written slice by slice; warp s reads its blocked items in slice s. The results wait in
  // registers until the last slice, because later slices still read `input` (which `output` may alias).
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void StripedToBlocked(const T (&input)[ITEMS_PER_THREAD],
                                                         OutputT (&output)[ITEMS_PER_THREAD])
  {
    T result[ITEMS_PER_THREAD];
    STRATA_UNROLL
    for (int s = 0; s < SLICES; ++s)
    {
      if (s > 0)
      {
        __syncthreads();
      }
      put_striped_in_slice(input, s);
      __syncthreads();
      if (shape_.warp_id == s)
      {
        get_blocked_of_warp(result);
      }
    }
    copy(result, output);
  }

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToStriped(const T (&input)[ITEMS_PER_THREAD],
                                                         OutputT (&output)[ITEMS_PER_THREAD])
  {
    T result[ITEMS_PER_THREAD];
    STRATA_UNROLL
    for (int s = 0; s < SLICES; ++s)
    {
      if (s > 0)
      {
        __syncthreads();
      }
      if (shape_.warp_id == s)
      {
        put_blocked_of_warp(input);
      }
      __syncthreads();
      get_striped_in_slice(result, s);
    }
    copy(result, output);
  }

  // Warp s exchanges its own items in slice s; it reads all of `input` before writing `output`.
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void WarpStripedToBlocked(const T (&input)[ITEMS_PER_THREAD],
                                                             OutputT (&output)[ITEMS_PER_THREAD])
  {
    const int warp_threads = shape_.warp_threads();
    STRATA_NO_UNROLL
    for (int s = 0; s < SLICES; ++s)
    {
      if (s > 0)
      {
        __syncthreads();
      }
      if (shape_.warp_id == s)
      {
        STRATA_UNROLL
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          storage_.buff[layout::offset(i * warp_threads + shape_.lane)] = input[i];
        }
        __syncwarp(shape_.warp_mask());
        get_blocked_of_warp(output);
      }
    }
  }

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToWarpStriped(const T (&input)[ITEMS_PER_THREAD],
                                                             OutputT (&output)[ITEMS_PER_THREAD])
  {
    const int warp_threads = shape_.warp_threads();
    STRATA_NO_UNROLL
    for (int s = 0; s < SLICES; ++s)
    {
      if (s > 0)
      {
        __syncthreads();
      }
      if (shape_.warp_id == s)
      {
        put_blocked_of_warp(input);
        __syncwarp(shape_.warp_mask());
        STRATA_UNROLL
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          output[i] = storage_.buff[layout::offset(i * warp_threads + shape_.lane)];
        }
      }
    }
  }

  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToBlocked(const T (&input)[ITEMS_PER_THREAD],
                                                         OutputT (&output)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    T result[ITEMS_PER_THREAD];
    STRATA_NO_UNROLL
    for (int s = 0; s < SLICES; ++s)
    {
      if (s > 0)
      {
        __syncthreads();
      }
      put_ranked_in_slice(input, ranks, s, [](int) {
        return true;
      });
      __syncthreads();
      if (shape_.warp_id == s)
      {
        get_blocked_of_warp(result);
      }
    }
    copy(result, output);
  }

  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStriped(const T (&input)[ITEMS_PER_THREAD],
                                                         OutputT (&output)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    scatter_to_striped(input, output, ranks, [](int) {
      return true;
    });
  }

  // A negative rank falls in no slice (put_ranked_in_slice compares unsigned), so it is skipped without a test.
  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStripedGuarded(const T (&input)[ITEMS_PER_THREAD],
                                                                OutputT (&output)[ITEMS_PER_THREAD],
                                                                const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    scatter_to_striped(input, output, ranks, [](int) {
      return true;
    });
  }

  template <typename OutputT, typename OffsetT, typename ValidFlag>
  STRATA_DEVICE STRATA_FORCEINLINE void
  ScatterToStripedFlagged(const T (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD],
                          const OffsetT (&ranks)[ITEMS_PER_THREAD], const ValidFlag (&is_valid)[ITEMS_PER_THREAD])
  {
    scatter_to_striped(input, output, ranks, [&](int i) {
      return static_cast<bool>(is_valid[i]);
    });
  }

private:
  template <typename OutputT, typename OffsetT, typename PredicateOp>
  STRATA_DEVICE STRATA_FORCEINLINE void scatter_to_striped(const T (&input)[ITEMS_PER_THREAD],
                                                           OutputT (&output)[ITEMS_PER_THREAD],
                                                           const OffsetT (&ranks)[ITEMS_PER_THREAD], PredicateOp pred)
  {
    T result[ITEMS_PER_THREAD];
    STRATA_UNROLL
    for (int s = 0; s < SLICES; ++s)
    {
      if (s > 0)
      {
        __syncthreads();
      }
      put_ranked_in_slice(input, ranks, s, pred);
      __syncthreads();
      get_striped_in_slice(result, s);
    }
    copy(result, output);
  }

  // Warp-local blocked positions: the whole slice belongs to the calling warp.
  STRATA_DEVICE STRATA_FORCEINLINE void put_blocked_of_warp(const T (&input)[ITEMS_PER_THREAD])
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      storage_.buff[layout::row_offset(shape_.lane * ITEMS_PER_THREAD, i)] = input[i];
    }
  }
  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void get_blocked_of_warp(OutputT (&output)[ITEMS_PER_THREAD])
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      output[i] = storage_.buff[layout::row_offset(shape_.lane * ITEMS_PER_THREAD, i)];
    }
  }

  // Striped item i of this thread is tile item i * BLOCK_THREADS + linear_tid; it lies in slice s when
  // linear_tid is in [s * SLICE_ITEMS - i * BLOCK_THREADS, that + SLICE_ITEMS). Both bounds are compile-time
  // constants once the loops are unrolled, so disjoint pairs vanish and covering pairs lose their test.
  STRATA_HOST_DEVICE static constexpr bool strip_meets_slice(int i, int s)
  {
    return i * BLOCK_THREADS < (s + 1) * SLICE_ITEMS && s * SLICE_ITEMS < (i + 1) * BLOCK_THREADS;
  }
  STRATA_DEVICE STRATA_FORCEINLINE void put_striped_in_slice(const T (&input)[ITEMS_PER_THREAD], int s)
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      if (strip_meets_slice(i, s))
      {
        const int pos = i * BLOCK_THREADS + shape_.linear_tid - s * SLICE_ITEMS;
        if (pos >= 0 && pos < SLICE_ITEMS)
        {
          storage_.buff[layout::offset(pos)] = input[i];
        }
      }
    }
  }
  STRATA_DEVICE STRATA_FORCEINLINE void get_striped_in_slice(T (&result)[ITEMS_PER_THREAD], int s)
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      if (strip_meets_slice(i, s))
      {
        const int pos = i * BLOCK_THREADS + shape_.linear_tid - s * SLICE_ITEMS;
        if (pos >= 0 && pos < SLICE_ITEMS)
        {
          result[i] = storage_.buff[layout::offset(pos)];
        }
      }
    }
  }

  template <typename OffsetT, typename PredicateOp>
  STRATA_DEVICE STRATA_FORCEINLINE void put_ranked_in_slice(const T (&input)[ITEMS_PER_THREAD],
                                                            const OffsetT (&ranks)[ITEMS_PER_THREAD], int s,
                                                            PredicateOp pred)
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int pos = static_cast<int>(ranks[i]) - s * SLICE_ITEMS;
      if (static_cast<unsigned int>(pos) < static_cast<unsigned int>(SLICE_ITEMS) && pred(i))
      {
        storage_.buff[layout::offset(pos)] = input[i];
      }
    }
  }

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE static void copy(const T (&result)[ITEMS_PER_THREAD],
                                                    OutputT (&output)[ITEMS_PER_THREAD])
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      output[i] = result[i];
    }
  }

  TempStorage& storage_;
  shape shape_;
};

} // namespace detail
STRATA_NAMESPACE_END
