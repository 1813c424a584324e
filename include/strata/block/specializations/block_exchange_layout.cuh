// Where BlockExchange keeps item `idx` of a tile (or of a time slice) in shared memory, and what the exchange
// variants share: the blocked, striped and warp-striped positions of a thread's items.
//
// Bank conflicts. A striped access (consecutive threads, consecutive items) never conflicts. A blocked access
// touches thread t's row of R = ITEMS_PER_THREAD * sizeof(T) bytes. Unpadded, the compiler moves a row as 16-,
// 8- or 4-byte vectors (the widest V dividing R): a wavefront serves 128 / V lanes, and lanes R bytes apart
// collide c = gcd(R / V, 128 / V) ways. That is conflict-free for odd R / V (7, 11, 12, 20 four-byte items...),
// which covers most shapes, so those rows stay unpadded and vectorized. Padding (a gap every so many bytes) breaks
// the vectors into item-sized accesses, one wavefront each per min(sizeof(T), 4) * 32 bytes, so it pays only where
// c exceeds that loss:
//   R a power of two (>= 32 bytes): a gap of max(4, sizeof(T)) bytes every max(128, R) bytes makes the item-wise
//     accesses conflict-free on both sides; taken when c * min(sizeof(T), 4) > 4.
//   other R: a gap of one item (one 4-byte word for smaller items) every 32 leaves about 2-way conflicts; taken
//     when c * min(sizeof(T), 4) > 8 (8- and 16-byte items whose R / 16 is a multiple of 4).
// Counting bank wavefronts of both sides over 1..32 items per thread, 1- to 16-byte items and blocks of 32, 96,
// 100 and 128 threads, this rule needs 12% fewer than CUB's (pad power-of-two rows of more than 4 items by one item
// every 32), never more in any case, and up to 3x fewer for 16-byte items. On an H200, 64 transposes of 128 x 12
// ints and 256 x 20 ints ran 1.3x faster unpadded than padded.
//
// Why padding and not an XOR swizzle: XOR-ing the column with the row index is conflict-free only for
// power-of-two rows, breaks the vector accesses of the conflict-free rows, and blocks that are not a multiple of 32
// threads break its row alignment. Padding costs at most 1/32 more shared memory for items of up to 4 bytes (1/16
// and 1/8 for 8- and 16-byte items in short rows) and a shift and an add where it is applied: once per thread and
// arrangement for power-of-two rows (their accesses then sit at constant offsets from the first), per access for
// the others.
#pragma once

#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/numeric>

STRATA_NAMESPACE_BEGIN
namespace detail
{

template <typename T, int ITEMS_PER_THREAD>
struct block_exchange_layout
{
  static constexpr int ITEM_BYTES = static_cast<int>(sizeof(T));
  static constexpr int ROW_BYTES  = ITEMS_PER_THREAD * ITEM_BYTES;
  // The vector width an unpadded row moves in (0: item by item) and the resulting conflict degree.
  static constexpr int VECTOR_BYTES = ROW_BYTES % 16 == 0 ? 16 : ROW_BYTES % 8 == 0 ? 8 : ROW_BYTES % 4 == 0 ? 4 : 0;
  static constexpr int VECTOR_CONFLICT_WAYS =
    VECTOR_BYTES == 0 ? 1 : static_cast<int>(cuda::std::gcd(ROW_BYTES / VECTOR_BYTES, 128 / VECTOR_BYTES));
  static constexpr int ITEM_WORD_BYTES = ITEM_BYTES < 4 ? ITEM_BYTES : 4;
  static constexpr bool POW2_ROW       = cuda::std::has_single_bit(static_cast<unsigned long long>(ROW_BYTES));

  static constexpr bool INSERT_PADDING = VECTOR_CONFLICT_WAYS * ITEM_WORD_BYTES > (POW2_ROW ? 4 : 8);

  // A gap of PAD_ITEMS (at least 4 bytes) after every PERIOD_ITEMS items, a power of two.
  static constexpr int PAD_ITEMS    = ITEM_BYTES >= 4 ? 1 : (4 + ITEM_BYTES - 1) / ITEM_BYTES;
  static constexpr int PERIOD_ITEMS = POW2_ROW ? (ROW_BYTES > 128 ? ROW_BYTES : 128) / ITEM_BYTES : 32 * PAD_ITEMS;

  // Shared-memory position of tile (or slice) item `idx`.
  static STRATA_HOST_DEVICE STRATA_FORCEINLINE constexpr int offset(int idx)
  {
    return INSERT_PADDING ? idx + static_cast<int>(static_cast<unsigned int>(idx) / PERIOD_ITEMS) * PAD_ITEMS : idx;
  }

  // A thread's unrolled accesses take constant offsets from the position of its first one where the gaps between
  // them do not depend on where they start (without padding, or with a power-of-two row, whose items and period
  // divide one another); offset(first) is then computed once, not per access.
  //
  // A blocked row (tile items row + i, row a multiple of ITEMS_PER_THREAD, i < ITEMS_PER_THREAD): gaps fall only
  // between rows, or at the same places in every row.
  static constexpr bool ROW_SPLITS = !INSERT_PADDING || POW2_ROW;
  static STRATA_HOST_DEVICE STRATA_FORCEINLINE constexpr int row_item(int row_position, int i)
  {
    return row_position + (INSERT_PADDING ? i + (i / PERIOD_ITEMS) * PAD_ITEMS : i);
  }
  // offset(row_start + i), split where the row allows.
  static STRATA_HOST_DEVICE STRATA_FORCEINLINE constexpr int row_offset(int row_start, int i)
  {
    if constexpr (ROW_SPLITS)
    {
      return row_item(offset(row_start), i);
    }
    else
    {
      return offset(row_start + i);
    }
  }

  // A striped column (tile items first + i * STRIDE, a power of two): STRIDE and the period divide one another; where
  // the period is the larger, `first` must lie less than STRIDE past a multiple of it (a block's thread index, or a
  // warp's first item plus a lane where the period divides a warp's items: WARP_STRIPED_SPLITS).
  template <int STRIDE>
  static constexpr bool STRIDE_SPLITS =
    !INSERT_PADDING || (POW2_ROW && STRIDE > 0 && cuda::std::has_single_bit(static_cast<unsigned int>(STRIDE)));
  template <int STRIDE>
  static STRATA_HOST_DEVICE STRATA_FORCEINLINE constexpr int strided_item(int first_position, int i)
  {
    return first_position + i * STRIDE + (INSERT_PADDING ? (i * STRIDE / PERIOD_ITEMS) * PAD_ITEMS : 0);
  }
  static constexpr bool WARP_STRIPED_SPLITS =
    STRIDE_SPLITS<WARP_THREADS> && (!INSERT_PADDING || (WARP_THREADS * ITEMS_PER_THREAD) % PERIOD_ITEMS == 0);

  // Items a buffer for `items` tile positions must hold.
  static constexpr int buffer_items(int items)
  {
    return offset(items - 1) + 1;
  }
};

// The shape of a block as BlockExchange sees it: warps, the last (possibly partial) warp, and a thread's place.
//
// Warp-striped arrangement: warp w owns tile items [w * 32 * ITEMS_PER_THREAD, ...) and hands them out round
// robin over its lanes, item i of lane l being warp_offset + i * warp_threads + l. A last warp with fewer than 32
// threads strides by its own thread count, so its items stay inside the tile (for blocks of a multiple of 32
// threads this is exactly CUB's warp-striped arrangement).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
struct block_exchange_shape
{
  static_assert(BLOCK_THREADS >= 1 && BLOCK_THREADS <= 1024, "a thread block has 1..1024 threads");
  static_assert(ITEMS_PER_THREAD >= 1, "at least one item per thread");

  static constexpr int WARPS             = (BLOCK_THREADS + WARP_THREADS - 1) / WARP_THREADS;
  static constexpr int LAST_WARP_THREADS = BLOCK_THREADS - (WARPS - 1) * WARP_THREADS;
  static constexpr bool PARTIAL_WARP     = LAST_WARP_THREADS != WARP_THREADS;
  static constexpr int TILE_ITEMS        = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int WARP_ITEMS        = WARP_THREADS * ITEMS_PER_THREAD;

  int linear_tid;
  int warp_id;
  int lane;

  // `tid` is taken as Unshared: the exchanges of a tile's load and of its store (the same shape, often the
  // same offsets) would otherwise share their address arithmetic and keep it in registers across the work
  // between them (H200, 256x16 int BlockLoad/BlockScan/BlockStore: 48 registers against 32).
  STRATA_DEVICE STRATA_FORCEINLINE explicit block_exchange_shape(int tid_in)
      : linear_tid(Unshared(tid_in))
      , warp_id(WARPS == 1 ? 0 : static_cast<int>(static_cast<unsigned int>(linear_tid) / WARP_THREADS))
      , lane(WARPS == 1 ? linear_tid : static_cast<int>(static_cast<unsigned int>(linear_tid) % WARP_THREADS))
  {}

  STRATA_DEVICE STRATA_FORCEINLINE bool in_last_warp() const
  {
    return warp_id == WARPS - 1;
  }
  // Threads of this thread's warp.
  STRATA_DEVICE STRATA_FORCEINLINE int warp_threads() const
  {
    return (PARTIAL_WARP && in_last_warp()) ? LAST_WARP_THREADS : WARP_THREADS;
  }
  // The lanes of this thread's warp, for __syncwarp.
  STRATA_DEVICE STRATA_FORCEINLINE unsigned int warp_mask() const
  {
    constexpr unsigned int LAST_MASK = PARTIAL_WARP ? ((1u << LAST_WARP_THREADS) - 1u) : 0xffffffffu;
    return (PARTIAL_WARP && in_last_warp()) ? LAST_MASK : 0xffffffffu;
  }
};

} // namespace detail
STRATA_NAMESPACE_END
