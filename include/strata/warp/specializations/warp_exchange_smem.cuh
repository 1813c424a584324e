// WarpExchange through shared memory: every lane writes its items to a tile in one arrangement, the logical
// warp synchronizes, and every lane reads its items back in the other arrangement.
//
// Bank conflicts. A blocked access (lane l touches tile index l * ITEMS_PER_THREAD + i) strides the tile by
// ITEMS_PER_THREAD; a striped access (index i * LOGICAL_WARP_THREADS + l) is contiguous. With 32 four-byte
// banks, a stride that shares a factor of two with 32 sends several lanes to one bank. The tile therefore holds
// T in units whose bank behaviour is simple, and inserts padding where the stride needs it:
//
//  - T whose size is a multiple of 4 bytes is stored as 32-bit words in separate planes (word k of every item
//    in plane k), so every shared-memory access is a 4-byte access whatever T's size and member layout.
//    (A 16-byte struct copied member by member would otherwise mix 8-, 4- and 2-byte accesses, each with its
//    own conflict pattern.) A warp-wide 4-byte access costs one wavefront when its 32 words sit in 32 banks.
//  - Other T (1- and 2-byte types, odd-sized structs) are stored as T.
//
// Padding: one 4-byte word after every SEGMENT units of the tile, SEGMENT = max(2^k, 128 bytes' worth of
// units), 2^k the largest power of two dividing ITEMS_PER_THREAD. For power-of-two ITEMS_PER_THREAD this maps
// the lanes of a blocked access to distinct banks (lanes whose unpadded words fall in the same bank lie in
// different segments, and each segment shifts its words by one more bank), while a striped access of one
// logical warp stays inside one segment and so stays contiguous. Odd ITEMS_PER_THREAD needs no padding: an odd
// stride visits all 32 banks. Padding is applied when ITEMS_PER_THREAD is 2 or a multiple of 4; for the
// multiples of 4 that are not powers of two it turns a 4-way or worse conflict into a 2-way one (3-way at 60). When
// ITEMS_PER_THREAD is 2 mod 4, the unpadded stride already conflicts only 2-way, and padding would not help.
// For 1- and 2-byte T several lanes share a word, and conflicts stay at most 2-way for ITEMS_PER_THREAD <= 16.
// (Checked with a model of 32 four-byte banks over every shape with ITEMS_PER_THREAD <= 64; on an H200, ncu
// counts no shared-memory bank conflicts for int at 4 and 8 items on 32 lanes, where CUB's unpadded tile has
// 4- and 8-way conflicts, and a BlockedToStriped + StripedToBlocked loop runs 2.4x and 4.4x faster than CUB's.)
//
// Logical warps narrower than 32 lanes issue their accesses together with the other logical warps of the same
// hardware warp, into whatever TempStorage each was given; conflicts between different tiles depend on where the
// caller placed them and are not controlled here.
#pragma once

#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

template <typename T, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS>
struct warp_exchange_smem
{
  static_assert(ITEMS_PER_THREAD >= 1, "at least one item per thread");
  static_assert(cuda::std::has_single_bit(static_cast<unsigned>(LOGICAL_WARP_THREADS))
                  && LOGICAL_WARP_THREADS <= WARP_THREADS,
                "LOGICAL_WARP_THREADS must be a power of two of at most 32");

  static constexpr int TILE_ITEMS = ITEMS_PER_THREAD * LOGICAL_WARP_THREADS;

  // Storage units: 32-bit word planes for T of a whole number of words, T itself otherwise.
  static constexpr bool WORD_PLANES = cuda::std::is_trivially_copyable<T>::value && (sizeof(T) % 4 == 0);
  static constexpr int PLANES       = WORD_PLANES ? static_cast<int>(sizeof(T) / 4) : 1;
  using unit_t                      = cuda::std::conditional_t<WORD_PLANES, unsigned int, T>;
  static constexpr int UNIT_BYTES   = static_cast<int>(sizeof(unit_t));

  // Padding, as explained at the top of the file; only for units of 1, 2 or 4 bytes, whose bank mapping it models.
  static constexpr bool PADDED =
    (UNIT_BYTES == 1 || UNIT_BYTES == 2 || UNIT_BYTES == 4) && (ITEMS_PER_THREAD == 2 || ITEMS_PER_THREAD % 4 == 0);
  static constexpr int PAD_UNITS       = PADDED ? 4 / UNIT_BYTES : 0;
  static constexpr int ITEMS_POW2_PART = ITEMS_PER_THREAD & -ITEMS_PER_THREAD;
  static constexpr int BANK_ROW_UNITS  = PADDED ? 128 / UNIT_BYTES : 1;
  static constexpr int LOG_SEGMENT = cuda::ilog2(ITEMS_POW2_PART > BANK_ROW_UNITS ? ITEMS_POW2_PART : BANK_ROW_UNITS);

  // Position in the padded tile of tile index `idx`.
  STRATA_HOST_DEVICE STRATA_FORCEINLINE static constexpr int slot(int idx)
  {
    return PADDED ? idx + (idx >> LOG_SEGMENT) * PAD_UNITS : idx;
  }
  static constexpr int TILE_SLOTS = slot(TILE_ITEMS - 1) + 1;

  struct _TempStorage
  {
    unit_t planes[PLANES][TILE_SLOTS];
  };
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  _TempStorage& temp_storage;
  // Lane within the logical warp.
  unsigned int lane_id;
  // The lanes of this logical warp within the hardware warp.
  unsigned int member_mask;

  STRATA_DEVICE STRATA_FORCEINLINE explicit warp_exchange_smem(TempStorage& storage)
      : temp_storage(storage.Alias())
      , lane_id(LOGICAL_WARP_THREADS == WARP_THREADS ? LaneId() : LaneId() % LOGICAL_WARP_THREADS)
      , member_mask(LogicalWarpMask<LOGICAL_WARP_THREADS>(LaneId() / LOGICAL_WARP_THREADS))
  {}

  STRATA_DEVICE STRATA_FORCEINLINE void put(int idx, const T& item)
  {
    const int s = slot(idx);
    if constexpr (WORD_PLANES)
    {
      unsigned int words[PLANES];
      memcpy(words, &item, sizeof(T));
      STRATA_UNROLL
      for (int p = 0; p < PLANES; ++p)
      {
        temp_storage.planes[p][s] = words[p];
      }
    }
    else
    {
      temp_storage.planes[0][s] = item;
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE T get(int idx) const
  {
    const int s = slot(idx);
    if constexpr (WORD_PLANES)
    {
      unsigned int words[PLANES];
      STRATA_UNROLL
      for (int p = 0; p < PLANES; ++p)
      {
        words[p] = temp_storage.planes[p][s];
      }
      T item;
      memcpy(&item, words, sizeof(T));
      return item;
    }
    else
    {
      return temp_storage.planes[0][s];
    }
  }

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void BlockedToStriped(const T (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    if constexpr (LOGICAL_WARP_THREADS == 1)
    {
      // A one-lane warp's blocked and striped arrangements coincide.
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        output_items[i] = input_items[i];
      }
    }
    else
    {
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        put(static_cast<int>(lane_id) * ITEMS_PER_THREAD + i, input_items[i]);
      }
      WarpSync(member_mask);
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        output_items[i] = get(i * LOGICAL_WARP_THREADS + static_cast<int>(lane_id));
      }
    }
  }

  template <typename OutputT>
  STRATA_DEVICE STRATA_FORCEINLINE void StripedToBlocked(const T (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD])
  {
    if constexpr (LOGICAL_WARP_THREADS == 1)
    {
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        output_items[i] = input_items[i];
      }
    }
    else
    {
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        put(i * LOGICAL_WARP_THREADS + static_cast<int>(lane_id), input_items[i]);
      }
      WarpSync(member_mask);
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        output_items[i] = get(static_cast<int>(lane_id) * ITEMS_PER_THREAD + i);
      }
    }
  }

  template <typename OutputT, typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void ScatterToStriped(const T (&input_items)[ITEMS_PER_THREAD],
                                                         OutputT (&output_items)[ITEMS_PER_THREAD],
                                                         const OffsetT (&ranks)[ITEMS_PER_THREAD])
  {
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      put(static_cast<int>(ranks[i]), input_items[i]);
    }
    WarpSync(member_mask);
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      output_items[i] = get(i * LOGICAL_WARP_THREADS + static_cast<int>(lane_id));
    }
  }
};

} // namespace detail
STRATA_NAMESPACE_END
