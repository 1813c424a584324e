// AgentBatchMemcpy: the bodies of the kernels of DeviceMemcpy::Batched and DeviceCopy::Batched.
//
// The work is cut into granules, one lane's unit: in a memcpy, one 16-byte-aligned block of a destination buffer (n
// bytes at dst make ceil((dst mod 16 + n) / 16) of them; the first and the last may be partial); in an element-wise
// copy, GRANULE_ITEMS consecutive items of a range. The plan gives every buffer a cost, the most granules its size
// can make wherever its destination lies plus BUFFER_COST (what a buffer costs beyond its granules: its descriptor,
// its partial granules), and lays the costs end to end: buffer b owns the positions [P(b), P(b + 1)) of the plan, P
// the exclusive prefix sum of the costs, and its granule k sits at position P(b) + k. Every buffer, an empty one too,
// owns at least one position, so each position belongs to exactly one buffer.
//
// Three kernels. The plan kernel: each warp sums the costs of one plan tile of 32 x PLAN_BUFFERS_PER_LANE buffers.
// The tiles' scan: one block turns the tiles' sums into their exclusive prefix sum, with the total after it. The copy
// kernel: one wave of blocks; warp w of W takes the positions [w * total / W, (w + 1) * total / W), an even share of
// the bytes and of the buffers whatever their sizes, finds the buffer of its first position (a search of the tiles'
// prefix, 32 probes a round, then of that tile's costs), and walks its share: a large buffer is split between the
// warps whose shares it spans, a tiny one takes a lane.
//
// The walk takes the buffers 32 at a time, one per lane: its descriptor (pointers, size, the window of its granules
// that lies in the warp's share) is loaded coalesced and kept in shared memory. The windows' granules are numbered
// across the 32 buffers, and the warp copies them GRANULES_PER_THREAD x 32 at a time, lane l taking granules l,
// l + 32, ..., so that neighbouring lanes copy neighbouring blocks. A lane finds the buffer of its granule by a binary
// search over the lanes' window starts (five shuffles), or knows it where the warp's granules of the round all lie in
// one buffer. It issues the loads of all its granules before its first store.
//
// A whole granule of a memcpy whose source and destination agree modulo 16 moves as one 16-byte load and store;
// where they do not, the two aligned 16-byte source blocks it spans are loaded and funnel-shifted into place (where
// both lie inside the source buffer; else it moves as a partial one). A partial granule (bytes [lo, hi) of its block)
// moves in pieces of 1, 2, 4 and 8 bytes aligned on both sides where source and destination agree modulo 16, byte by
// byte where they do not, its loads ahead of its stores. Nothing outside a source buffer is read and nothing outside
// a destination buffer is written.
#pragma once

#include <strata/block/block_scan.cuh>
#include <strata/config.cuh>
#include <strata/util/load_store_direct.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/ptx_load_store.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/warp_reduce.cuh>
#include <strata/warp/warp_scan.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentBatchMemcpy: BLOCK_THREADS threads, GRANULES_PER_THREAD granules in flight per lane and
// round, the cost of a buffer beyond its granules in the even share (BUFFER_COST, at least 1), the blocks per SM the
// registers are bounded for, the buffers per lane of a plan tile, the items of an element-wise copy's granule, and
// the rows of a round taken at once where sources and destinations disagree modulo 16 (SHIFTED_ROWS, a divisor of
// GRANULES_PER_THREAD: each such granule holds two 16-byte words).
template <int BLOCK_THREADS_, int GRANULES_PER_THREAD_, int BUFFER_COST_, int MIN_BLOCKS_PER_SM_ = 1,
          int PLAN_BUFFERS_PER_LANE_ = 8, int GRANULE_ITEMS_ = 1, int SHIFTED_ROWS_ = 1>
struct AgentBatchMemcpyPolicy
{
  static constexpr int BLOCK_THREADS         = BLOCK_THREADS_;
  static constexpr int GRANULES_PER_THREAD   = GRANULES_PER_THREAD_;
  static constexpr int BUFFER_COST           = BUFFER_COST_;
  static constexpr int MIN_BLOCKS_PER_SM     = MIN_BLOCKS_PER_SM_;
  static constexpr int PLAN_BUFFERS_PER_LANE = PLAN_BUFFERS_PER_LANE_;
  static constexpr int PLAN_TILE_BUFFERS     = WARP_THREADS * PLAN_BUFFERS_PER_LANE_;
  static constexpr int GRANULE_ITEMS         = GRANULE_ITEMS_;
  static constexpr int SHIFTED_ROWS          = SHIFTED_ROWS_;

  static_assert(BLOCK_THREADS % WARP_THREADS == 0, "the copy kernel's blocks are whole warps");
  static_assert(GRANULES_PER_THREAD >= 1 && GRANULES_PER_THREAD <= 8, "1..8 granules per lane and round");
  static_assert(BUFFER_COST >= 1, "every buffer owns at least one position of the plan");
  static_assert(PLAN_BUFFERS_PER_LANE >= 1 && GRANULE_ITEMS >= 1, "positive plan tiles and granules");
  static_assert(SHIFTED_ROWS >= 1 && GRANULES_PER_THREAD % SHIFTED_ROWS == 0, "SHIFTED_ROWS divides the rows");
};

namespace detail
{
namespace batch_memcpy
{
// Positions of the plan, granule indices and byte counts.
using position_t = unsigned long long;

// The bytes of a memcpy granule: one aligned 16-byte block of the destination.
constexpr int GRANULE_BYTES = 16;

// The plan kernel's and the tiles' scan's blocks (both move a few bytes per buffer: their shapes do not matter).
constexpr int PLAN_BLOCK_THREADS = 256;
constexpr int SCAN_BLOCK_THREADS = 256;
constexpr int SCAN_ITEMS         = 16;

// A buffer's size, from its size iterator's value: a negative one (of a signed type) copies nothing.
template <typename SizeT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE position_t size_of(const SizeT& size)
{
  if constexpr (cuda::std::is_signed<SizeT>::value)
  {
    return size < SizeT(0) ? position_t(0) : static_cast<position_t>(size);
  }
  else
  {
    return static_cast<position_t>(size);
  }
}

// How a buffer of `items` items is cut into granules. MEMCPY: its items are ITEM_BYTES bytes each, copied as bytes
// (DeviceMemcpy's sizes count bytes: ITEM_BYTES = 1), and a granule is one aligned 16-byte block of the destination;
// otherwise a granule is GRANULE_ITEMS items, assigned one by one.
template <bool MEMCPY, int ITEM_BYTES, int GRANULE_ITEMS>
struct granules
{
  // The most granules the buffer can make, wherever its destination lies.
  static STRATA_HOST_DEVICE STRATA_FORCEINLINE position_t most(position_t items)
  {
    if constexpr (MEMCPY)
    {
      const position_t bytes = items * position_t(ITEM_BYTES);
      return bytes == 0 ? position_t(0) : (bytes + 2 * GRANULE_BYTES - 2) / GRANULE_BYTES;
    }
    else
    {
      return (items + position_t(GRANULE_ITEMS - 1)) / position_t(GRANULE_ITEMS);
    }
  }

  // The granules it makes with its destination at address `dst` (for a memcpy; the same as most() otherwise).
  static STRATA_HOST_DEVICE STRATA_FORCEINLINE position_t exact(position_t items, cuda::std::uintptr_t dst)
  {
    if constexpr (MEMCPY)
    {
      const position_t bytes = items * position_t(ITEM_BYTES);
      return bytes == 0
             ? position_t(0)
             : ((dst & position_t(GRANULE_BYTES - 1)) + bytes + position_t(GRANULE_BYTES - 1)) / GRANULE_BYTES;
    }
    else
    {
      (void) dst;
      return most(items);
    }
  }
};

// A buffer's share of the plan: the most granules it can make and BUFFER_COST.
template <typename PolicyT, bool MEMCPY, int ITEM_BYTES>
STRATA_HOST_DEVICE STRATA_FORCEINLINE position_t buffer_cost(position_t items)
{
  return granules<MEMCPY, ITEM_BYTES, PolicyT::GRANULE_ITEMS>::most(items) + position_t(PolicyT::BUFFER_COST);
}

// Position `w` of `parts` even parts of [0, total): w * total / parts, rounded so that the parts differ by at most 1,
// without a product that could overflow.
STRATA_DEVICE STRATA_FORCEINLINE position_t share_edge(position_t total, position_t w, position_t parts)
{
  const position_t rest = total % parts;
  return (total / parts) * w + (w < rest ? w : rest);
}

// One aligned access of SIZE bytes (1, 2, 4 or 8).
template <int SIZE>
STRATA_DEVICE STRATA_FORCEINLINE access_word_t<SIZE> load_piece(const char* src)
{
  return *reinterpret_cast<const access_word_t<SIZE>*>(src);
}
template <int SIZE>
STRATA_DEVICE STRATA_FORCEINLINE void store_piece(char* dst, access_word_t<SIZE> value)
{
  *reinterpret_cast<access_word_t<SIZE>*>(dst) = value;
}

// The pieces of bytes [lo, hi) of an aligned 16-byte block (hi - lo < 16), each aligned to its size: up to three
// rising ones (1, 2, 4 bytes, where lo has that bit), one of 8 bytes (rising into the block's second half, or from
// its start), then up to three falling ones (4, 2, 1 bytes, where what is left has that bit). Bit k of the result:
// piece k of the sizes 1, 2, 4, 8, 4, 2, 1 is taken; taken pieces lie back to back from lo.
STRATA_HOST_DEVICE STRATA_FORCEINLINE unsigned int partial_pieces(unsigned int lo, unsigned int hi)
{
  unsigned int taken = 0;
  unsigned int o     = lo;
  const auto take    = [&](int k, unsigned int size, bool rising) {
    if ((!rising || (o & size) != 0) && o + size <= hi)
    {
      taken |= 1u << k;
      o += size;
    }
  };
  take(0, 1, true);
  take(1, 2, true);
  take(2, 4, true);
  take(3, 8, o != 0);
  take(4, 4, false);
  take(5, 2, false);
  take(6, 1, false);
  return taken;
}

// Copies bytes [lo, hi) (hi - lo < 16) of the aligned 16-byte block at `block` from the 16-byte aligned `source` on
// (source + i to block + i), in partial_pieces' pieces. Every piece is loaded before the first is stored, so that the
// granule costs one memory round trip; the pieces' places are counted again for the stores rather than held.
STRATA_DEVICE STRATA_FORCEINLINE void copy_partial_aligned(char* block, const char* source, unsigned int lo,
                                                           unsigned int hi)
{
  const unsigned int taken = partial_pieces(lo, hi);
  access_word_t<1> v0{};
  access_word_t<2> v1{};
  access_word_t<4> v2{};
  access_word_t<8> v3{};
  access_word_t<4> v4{};
  access_word_t<2> v5{};
  access_word_t<1> v6{};
  unsigned int o = lo;
  // clang-format off
  if (taken & 1u)  { v0 = load_piece<1>(source + o); o += 1; }
  if (taken & 2u)  { v1 = load_piece<2>(source + o); o += 2; }
  if (taken & 4u)  { v2 = load_piece<4>(source + o); o += 4; }
  if (taken & 8u)  { v3 = load_piece<8>(source + o); o += 8; }
  if (taken & 16u) { v4 = load_piece<4>(source + o); o += 4; }
  if (taken & 32u) { v5 = load_piece<2>(source + o); o += 2; }
  if (taken & 64u) { v6 = load_piece<1>(source + o); }
  o = lo;
  if (taken & 1u)  { store_piece<1>(block + o, v0); o += 1; }
  if (taken & 2u)  { store_piece<2>(block + o, v1); o += 2; }
  if (taken & 4u)  { store_piece<4>(block + o, v2); o += 4; }
  if (taken & 8u)  { store_piece<8>(block + o, v3); o += 8; }
  if (taken & 16u) { store_piece<4>(block + o, v4); o += 4; }
  if (taken & 32u) { store_piece<2>(block + o, v5); o += 2; }
  if (taken & 64u) { store_piece<1>(block + o, v6); }
  // clang-format on
}

// Copies bytes [lo, hi) of the aligned 16-byte block at `block` from `source` on, at any alignment: byte by byte,
// every byte loaded before the first is stored.
STRATA_DEVICE STRATA_FORCEINLINE void copy_partial_bytes(char* block, const char* source, unsigned int lo,
                                                         unsigned int hi)
{
  access_word_t<1> bytes[GRANULE_BYTES];
  STRATA_UNROLL
  for (unsigned int i = 0; i < unsigned(GRANULE_BYTES); ++i)
  {
    bytes[i] = i >= lo && i < hi ? load_piece<1>(source + i) : access_word_t<1>(0);
  }
  STRATA_UNROLL
  for (unsigned int i = 0; i < unsigned(GRANULE_BYTES); ++i)
  {
    if (i >= lo && i < hi)
    {
      store_piece<1>(block + i, bytes[i]);
    }
  }
}

// The 16 bytes at byte `shift` (1..15) of the 32 bytes lo, hi: words shift / 4 .. shift / 4 + 4, funnel-shifted by
// the bytes left over. Branch-free: two rounds of selects, then four funnel shifts.
STRATA_DEVICE STRATA_FORCEINLINE uint4 extract16(const uint4& lo, const uint4& hi, unsigned int shift)
{
  const unsigned int w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  const bool two          = (shift & 8u) != 0;
  const bool one          = (shift & 4u) != 0;
  const unsigned int bits = (shift & 3u) * 8u;
  unsigned int u[6];
  STRATA_UNROLL
  for (int i = 0; i < 6; ++i)
  {
    u[i] = two ? w[i + 2] : w[i];
  }
  unsigned int v[5];
  STRATA_UNROLL
  for (int i = 0; i < 5; ++i)
  {
    v[i] = one ? u[i + 1] : u[i];
  }
  return make_uint4(__funnelshift_r(v[0], v[1], bits), __funnelshift_r(v[1], v[2], bits),
                    __funnelshift_r(v[2], v[3], bits), __funnelshift_r(v[3], v[4], bits));
}

// What an element-wise copy holds of an item between its load and its store: the input ranges' value type.
template <bool MEMCPY, typename InputRangeT>
struct held_item
{
  using type = char;
};
template <typename InputRangeT>
struct held_item<false, InputRangeT>
{
  using type = it_value_t<InputRangeT>;
};

// The difference type of a range's iterator (long long for one without iterator_traits).
template <typename IteratorT, typename = void>
struct difference_of
{
  using type = long long;
};
template <typename IteratorT>
struct difference_of<IteratorT, cuda::std::void_t<typename cuda::std::iterator_traits<IteratorT>::difference_type>>
{
  using type = typename cuda::std::iterator_traits<IteratorT>::difference_type;
};

// The largest t < num_tiles with prefix[t] <= x, for prefix[0] = 0 <= x (prefix increasing). The warp probes 32
// places a round (lane l the l-th of 32 evenly spaced ones), so a round cuts the range 32-fold.
template <typename OffsetT>
STRATA_DEVICE STRATA_FORCEINLINE OffsetT find_tile(const position_t* prefix, OffsetT num_tiles, position_t x,
                                                   unsigned int lane)
{
  // The answer lies in [a, b): prefix[a] <= x, and b is num_tiles or prefix[b] > x.
  OffsetT a = 0;
  OffsetT b = num_tiles;
  while (b - a > OffsetT(1))
  {
    const OffsetT step  = (b - a + OffsetT(WARP_THREADS - 1)) / OffsetT(WARP_THREADS);
    const OffsetT probe = a + OffsetT(lane) * step;
    const bool at_most  = probe < b && prefix[probe] <= x;
    // Lanes 0 .. k-1 hold the probes at most x (lane 0's is a); the answer lies from lane k-1's probe on.
    const unsigned int below = WarpBallot(at_most);
    a += OffsetT(31 - __clz(below)) * step;
    b = a + step < b ? a + step : b;
  }
  return a;
}
} // namespace batch_memcpy
} // namespace detail

// The plan kernel's body: one warp's plan tile of PLAN_TILE_BUFFERS buffers, whose costs it sums.
template <typename PolicyT, typename BufferSizeIteratorT, typename OffsetT, bool MEMCPY, int ITEM_BYTES>
class AgentBatchMemcpyPlan
{
  using position_t  = detail::batch_memcpy::position_t;
  using WarpReduceT = WarpReduce<position_t>;

public:
  struct TempStorage
  {
    typename WarpReduceT::TempStorage reduce[detail::batch_memcpy::PLAN_BLOCK_THREADS / WARP_THREADS];
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentBatchMemcpyPlan(TempStorage& temp_storage, BufferSizeIteratorT sizes,
                                                        OffsetT num_buffers)
      : temp_storage_(temp_storage)
      , sizes_(sizes)
      , num_buffers_(num_buffers)
  {}

  // Writes the sum of tile `tile`'s costs to d_tile_costs[tile] (requires: tile * PLAN_TILE_BUFFERS < num_buffers).
  STRATA_DEVICE STRATA_FORCEINLINE void TileCost(OffsetT tile, detail::batch_memcpy::position_t* d_tile_costs)
  {
    const unsigned int lane = LaneId();
    const OffsetT first     = tile * OffsetT(PolicyT::PLAN_TILE_BUFFERS) + OffsetT(lane);
    position_t sum          = 0;
    STRATA_UNROLL
    for (int i = 0; i < PolicyT::PLAN_BUFFERS_PER_LANE; ++i)
    {
      const OffsetT buffer = first + OffsetT(i * WARP_THREADS);
      if (buffer < num_buffers_)
      {
        sum +=
          detail::batch_memcpy::buffer_cost<PolicyT, MEMCPY, ITEM_BYTES>(detail::batch_memcpy::size_of(sizes_[buffer]));
      }
    }
    sum = WarpReduceT(temp_storage_.reduce[threadIdx.x / WARP_THREADS]).Sum(sum);
    if (lane == 0)
    {
      d_tile_costs[tile] = sum;
    }
  }

private:
  TempStorage& temp_storage_;
  BufferSizeIteratorT sizes_;
  OffsetT num_buffers_;
};

// The tiles' scan: one block replaces the num_tiles tile costs at d_tiles by their exclusive prefix sum and writes the
// total to d_tiles[num_tiles], a chunk of SCAN_BLOCK_THREADS x SCAN_ITEMS costs at a time.
template <typename OffsetT>
class AgentBatchMemcpyScanTiles
{
  using position_t             = detail::batch_memcpy::position_t;
  static constexpr int THREADS = detail::batch_memcpy::SCAN_BLOCK_THREADS;
  static constexpr int ITEMS   = detail::batch_memcpy::SCAN_ITEMS;
  using BlockScanT             = BlockScan<position_t, THREADS>;

public:
  using TempStorage = typename BlockScanT::TempStorage;

  STRATA_DEVICE STRATA_FORCEINLINE explicit AgentBatchMemcpyScanTiles(TempStorage& temp_storage)
      : temp_storage_(temp_storage)
  {}

  STRATA_DEVICE STRATA_FORCEINLINE void Process(position_t* d_tiles, OffsetT num_tiles)
  {
    const int tid      = static_cast<int>(threadIdx.x);
    position_t running = 0;
    for (OffsetT chunk = 0; chunk < num_tiles; chunk += OffsetT(THREADS * ITEMS))
    {
      const OffsetT left = num_tiles - chunk;
      const int valid    = left < OffsetT(THREADS * ITEMS) ? static_cast<int>(left) : THREADS * ITEMS;
      position_t costs[ITEMS];
      LoadDirectBlocked(tid, d_tiles + chunk, costs, valid, position_t(0));
      position_t chunk_total = 0;
      BlockScanT(temp_storage_).ExclusiveSum(costs, costs, chunk_total);
      STRATA_UNROLL
      for (int i = 0; i < ITEMS; ++i)
      {
        costs[i] += running;
      }
      StoreDirectBlocked(tid, d_tiles + chunk, costs, valid);
      running += chunk_total;
      __syncthreads(); // the scan's storage is used again
    }
    if (tid == 0)
    {
      d_tiles[num_tiles] = running;
    }
  }

private:
  TempStorage& temp_storage_;
};

// The copy kernel's body (see the top of this file). MEMCPY: the buffers are copied as bytes (ITEM_BYTES per counted
// item), the iterators yielding pointers; otherwise item by item through the ranges' iterators.
template <typename PolicyT, typename InputBufferIt, typename OutputBufferIt, typename BufferSizeIteratorT,
          typename OffsetT, bool MEMCPY, int ITEM_BYTES>
class AgentBatchMemcpy
{
  using position_t = detail::batch_memcpy::position_t;
  using uintptr_t  = cuda::std::uintptr_t;
  using GranulesT  = detail::batch_memcpy::granules<MEMCPY, ITEM_BYTES, PolicyT::GRANULE_ITEMS>;
  using WarpScanT  = WarpScan<position_t>;

  static constexpr int WARPS         = PolicyT::BLOCK_THREADS / WARP_THREADS;
  static constexpr int R             = PolicyT::GRANULES_PER_THREAD;
  static constexpr int ROUND         = R * WARP_THREADS;
  static constexpr int GRANULE_ITEMS = PolicyT::GRANULE_ITEMS;
  static constexpr int GRANULE_BYTES = detail::batch_memcpy::GRANULE_BYTES;

  // What a lane knows of a buffer of its warp's batch, for the batch's granules y that are the buffer's. A memcpy
  // keeps where granule y's destination block would be (block0 + 16 y, modulo 2^64, so that no index is computed per
  // granule), the destination's bounds and the distance from destination to source. An element-wise copy keeps the
  // items and the buffer's granule index of the batch's granule 0 (first + y; its ranges are read again from their
  // iterators, whose values may be of any type).
  struct alignas(16) memcpy_descriptor
  {
    uintptr_t block0;
    uintptr_t begin;
    uintptr_t end;
    uintptr_t apart; // source - destination
  };
  struct alignas(16) copy_descriptor
  {
    position_t items;
    position_t first;
  };
  using descriptor_t = cuda::std::conditional_t<MEMCPY, memcpy_descriptor, copy_descriptor>;

  // An element-wise copy holds a granule's items between their loads and their stores, where their type allows.
  using InputRangeT  = detail::it_value_t<InputBufferIt>;
  using OutputRangeT = detail::it_value_t<OutputBufferIt>;
  using HeldT        = typename detail::batch_memcpy::held_item<MEMCPY, InputRangeT>::type;
  static constexpr bool HOLD =
    cuda::std::is_default_constructible<HeldT>::value && cuda::std::is_copy_assignable<HeldT>::value;
  using in_difference_t  = typename detail::batch_memcpy::difference_of<InputRangeT>::type;
  using out_difference_t = typename detail::batch_memcpy::difference_of<OutputRangeT>::type;

  // How a lane's whole granule of a memcpy round moves: as one aligned 16-byte word, or as two funnel-shifted ones
  // (NONE: past the windows, or partial).
  enum : unsigned int
  {
    NONE         = 0,
    ALIGNED_WORD = 1,
    SHIFTED      = 2
  };

public:
  struct TempStorage
  {
    descriptor_t buffers[WARPS][WARP_THREADS];
    typename WarpScanT::TempStorage scan[WARPS];
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentBatchMemcpy(TempStorage& temp_storage, InputBufferIt input_it,
                                                    OutputBufferIt output_it, BufferSizeIteratorT sizes,
                                                    OffsetT num_buffers)
      : temp_storage_(temp_storage)
      , input_it_(input_it)
      , output_it_(output_it)
      , sizes_(sizes)
      , num_buffers_(num_buffers)
      , warp_(threadIdx.x / WARP_THREADS)
      , lane_(LaneId())
  {}

  // Copies the calling warp's share of the plan. d_tile_prefix: the plan tiles' exclusive prefix sums of the
  // buffers' costs, and the total after them (num_buffers > 0).
  STRATA_DEVICE STRATA_FORCEINLINE void Process(const position_t* d_tile_prefix, OffsetT num_tiles)
  {
    const position_t total = d_tile_prefix[num_tiles];
    const position_t warps = position_t(gridDim.x) * position_t(WARPS);
    const position_t w     = position_t(blockIdx.x) * position_t(WARPS) + position_t(warp_);
    const position_t lo    = detail::batch_memcpy::share_edge(total, w, warps);
    const position_t hi    = detail::batch_memcpy::share_edge(total, w + 1, warps);
    if (lo >= hi)
    {
      return;
    }
    const OffsetT tile = detail::batch_memcpy::find_tile(d_tile_prefix, num_tiles, lo, lane_);
    OffsetT buffer     = 0;
    position_t start   = 0;
    find_buffer(tile, d_tile_prefix[tile], lo, buffer, start);
    walk(buffer, start, lo, hi);
  }

private:
  // The buffer that owns position x of tile `tile` (whose first buffer starts at position tile_start): its index and
  // its first position.
  STRATA_DEVICE STRATA_FORCEINLINE void find_buffer(OffsetT tile, position_t tile_start, position_t x, OffsetT& buffer,
                                                    position_t& start)
  {
    const OffsetT first = tile * OffsetT(PolicyT::PLAN_TILE_BUFFERS);
    // Every size of the tile first, so that their loads are in flight together.
    position_t costs[PolicyT::PLAN_BUFFERS_PER_LANE];
    STRATA_UNROLL
    for (int i = 0; i < PolicyT::PLAN_BUFFERS_PER_LANE; ++i)
    {
      const OffsetT b = first + OffsetT(i * WARP_THREADS) + OffsetT(lane_);
      costs[i] =
        b < num_buffers_
          ? detail::batch_memcpy::buffer_cost<PolicyT, MEMCPY, ITEM_BYTES>(detail::batch_memcpy::size_of(sizes_[b]))
          : position_t(0);
    }
    position_t before = tile_start;
    STRATA_UNROLL
    for (int i = 0; i < PolicyT::PLAN_BUFFERS_PER_LANE; ++i)
    {
      position_t inclusive = 0;
      position_t row_total = 0;
      WarpScanT(temp_storage_.scan[warp_]).InclusiveSum(costs[i], inclusive, row_total);
      const position_t own   = before + inclusive - costs[i];
      const unsigned int hit = WarpBallot(costs[i] > 0 && own <= x && x - own < costs[i]);
      if (hit != 0)
      {
        const int owner = __ffs(hit) - 1;
        buffer          = first + OffsetT(i * WARP_THREADS) + OffsetT(owner);
        start           = ShuffleIndex<WARP_THREADS>(own, owner, 0xffffffffu);
        return;
      }
      before += row_total;
    }
  }

  // Copies the granules of the warp's share [lo, hi) of the plan, from buffer `buffer` (which starts at position
  // `start`) on, 32 buffers a batch.
  STRATA_DEVICE STRATA_FORCEINLINE void walk(OffsetT buffer, position_t start, position_t lo, position_t hi)
  {
    descriptor_t* const descriptors = temp_storage_.buffers[warp_];
    for (;;)
    {
      const OffsetT b  = buffer + OffsetT(lane_);
      const bool valid = b < num_buffers_;
      position_t items = 0;
      uintptr_t src    = 0;
      uintptr_t dst    = 0;
      if (valid)
      {
        items = detail::batch_memcpy::size_of(sizes_[b]);
        if constexpr (MEMCPY)
        {
          src = reinterpret_cast<uintptr_t>(static_cast<const void*>(input_it_[b]));
          dst = reinterpret_cast<uintptr_t>(static_cast<void*>(output_it_[b]));
        }
      }
      const position_t cost =
        valid ? detail::batch_memcpy::buffer_cost<PolicyT, MEMCPY, ITEM_BYTES>(items) : position_t(0);
      const position_t count = valid ? GranulesT::exact(items, dst) : position_t(0);

      // The buffer's positions, and the window of its granules inside the share.
      position_t inclusive   = 0;
      position_t batch_costs = 0;
      WarpScanT(temp_storage_.scan[warp_]).InclusiveSum(cost, inclusive, batch_costs);
      const position_t own_start = start + inclusive - cost;
      const position_t from      = own_start > lo ? own_start : lo;
      const position_t own_end   = own_start + count;
      const position_t to        = own_end < hi ? own_end : hi;
      const position_t window    = to > from ? to - from : position_t(0);

      // The windows numbered across the batch: this buffer's are the batch's granules [window_start, + window).
      position_t window_end = 0;
      position_t granules   = 0;
      WarpScanT(temp_storage_.scan[warp_]).InclusiveSum(window, window_end, granules);
      const position_t window_start = window_end - window;

      WarpSync(); // the batch before has read its descriptors
      descriptor_t& own      = descriptors[lane_];
      const position_t first = (from - own_start) - window_start;
      if constexpr (MEMCPY)
      {
        own.block0 = (dst & ~uintptr_t(GRANULE_BYTES - 1)) + uintptr_t(first) * uintptr_t(GRANULE_BYTES);
        own.begin  = dst;
        own.end    = dst + uintptr_t(items * position_t(ITEM_BYTES));
        own.apart  = src - dst;
      }
      else
      {
        own.items = items;
        own.first = first;
      }
      WarpSync();

      start += batch_costs;

      // A memcpy whose windows' sources and destinations all agree modulo 16 needs no funnel shift: its rounds take
      // the path that holds one 16-byte word per granule, in a loop of their own.
      if constexpr (MEMCPY)
      {
        if (WarpBallot(window > 0 && ((src ^ dst) & uintptr_t(GRANULE_BYTES - 1)) != 0) == 0)
        {
          for (position_t round = 0; round < granules; round += position_t(ROUND))
          {
            copy_round<true>(descriptors, buffer, window_start, round, granules - round);
          }
        }
        else
        {
          for (position_t round = 0; round < granules; round += position_t(ROUND))
          {
            copy_round<false>(descriptors, buffer, window_start, round, granules - round);
          }
        }
      }
      else
      {
        for (position_t round = 0; round < granules; round += position_t(ROUND))
        {
          copy_round<false>(descriptors, buffer, window_start, round, granules - round);
        }
      }

      buffer += OffsetT(WARP_THREADS);
      if (start >= hi || buffer >= num_buffers_)
      {
        return;
      }
    }
  }

  // The lane of the batch whose window holds granule `offset` of the round: the last lane whose window starts at or
  // before it (`ahead`: where the lane's window starts, relative to the round), by a binary search over the lanes.
  STRATA_DEVICE STRATA_FORCEINLINE int owner_of(int ahead, int offset) const
  {
    int owner = 0;
    STRATA_UNROLL
    for (int step = WARP_THREADS / 2; step >= 1; step /= 2)
    {
      const int probe = ShuffleIndex<WARP_THREADS>(ahead, owner + step, 0xffffffffu);
      owner += probe <= offset ? step : 0;
    }
    return owner;
  }

  // One round: the batch's granules [round, round + min(ROUND, left)), lane l taking granules round + l + 32 r (row
  // r). A memcpy whose windows all agree modulo 16 (ALIGNED) takes the round at once; otherwise SHIFTED_ROWS rows at a
  // time, whose granules hold twice the registers.
  template <bool ALIGNED>
  STRATA_DEVICE STRATA_FORCEINLINE void copy_round(const descriptor_t* descriptors, OffsetT batch,
                                                   position_t window_start, position_t round, position_t left)
  {
    // Where the lane's window starts relative to the round, clamped to [-1, ROUND]: comparisons with the round's
    // offsets [0, ROUND) keep their results.
    const long long relative = static_cast<long long>(window_start - round);
    const int ahead          = relative < 0 ? -1 : (relative > ROUND ? ROUND : static_cast<int>(relative));
    const int last           = left < position_t(ROUND) ? static_cast<int>(left) - 1 : ROUND - 1;
    // The lanes whose windows start at or before an offset are the first ones: their count less one is its owner.
    const int first_owner = __popc(WarpBallot(ahead <= 0)) - 1;
    const int last_owner  = __popc(WarpBallot(ahead <= last)) - 1;
    const int one_owner   = first_owner == last_owner ? first_owner : -1;
    if constexpr (!MEMCPY)
    {
      copy_items(descriptors, ahead, one_owner, batch, round, last);
    }
    else if constexpr (ALIGNED)
    {
      copy_bytes<R, true>(descriptors, ahead, one_owner, round, 0, last);
    }
    else
    {
      STRATA_UNROLL
      for (int row = 0; row < R; row += PolicyT::SHIFTED_ROWS)
      {
        copy_bytes<PolicyT::SHIFTED_ROWS, false>(descriptors, ahead, one_owner, round, row, last);
      }
    }
  }

  // The lane that owns granule `offset` of the round: `one_owner` where one lane owns the whole round (warp-uniform),
  // else a search over the lanes.
  STRATA_DEVICE STRATA_FORCEINLINE int owner(int ahead, int one_owner, int offset) const
  {
    return one_owner >= 0 ? one_owner : owner_of(ahead, offset);
  }

  // Where the batch's granule y of buffer `d` lies: its aligned destination block, the bytes [lo, hi) of it that the
  // buffer covers, and the source address of the block's byte 0.
  struct place
  {
    char* block;
    const char* source;
    unsigned int lo;
    unsigned int hi;
  };
  static STRATA_DEVICE STRATA_FORCEINLINE place place_of(const memcpy_descriptor& d, position_t y)
  {
    const uintptr_t block = d.block0 + uintptr_t(y) * uintptr_t(GRANULE_BYTES);
    place p;
    p.block  = reinterpret_cast<char*>(block);
    p.source = reinterpret_cast<const char*>(block + d.apart);
    p.lo     = block < d.begin ? static_cast<unsigned int>(d.begin - block) : 0u;
    p.hi =
      d.end - block >= uintptr_t(GRANULE_BYTES) ? unsigned(GRANULE_BYTES) : static_cast<unsigned int>(d.end - block);
    return p;
  }

  // Rows [row, row + ROWS) of a memcpy round: the loads of every whole granule are issued, then their stores; then
  // the partial granules are copied one after another (each with its loads ahead of its stores), in a loop that is
  // not unrolled, so that they hold the registers of one. ALIGNED: no window needs a funnel shift. A whole granule's
  // `how`: its kind in bits 0-1 and the source's misalignment above; a partial granule's row is a bit of `partial`
  // and its owner 5 bits of `owners`.
  template <int ROWS, bool ALIGNED>
  STRATA_DEVICE STRATA_FORCEINLINE void copy_bytes(const descriptor_t* descriptors, int ahead, int one_owner,
                                                   position_t round, int row, int last)
  {
    uint4 low[ROWS];
    uint4 high[ALIGNED ? 1 : ROWS];
    char* blocks[ROWS];
    unsigned int how[ROWS];
    unsigned int partial      = 0;
    unsigned long long owners = 0;
    STRATA_UNROLL
    for (int r = 0; r < ROWS; ++r)
    {
      const int offset = static_cast<int>(lane_) + (row + r) * WARP_THREADS;
      const int lane   = owner(ahead, one_owner, offset);
      how[r]           = NONE;
      blocks[r]        = nullptr;
      if (offset <= last)
      {
        const memcpy_descriptor d = descriptors[lane];
        const place p             = place_of(d, round + position_t(offset));
        const uintptr_t source    = reinterpret_cast<uintptr_t>(p.source);
        const unsigned int shift  = static_cast<unsigned int>(source & uintptr_t(GRANULE_BYTES - 1));
        const uintptr_t aligned   = source - shift;
        blocks[r]                 = p.block;
        if (p.lo == 0 && p.hi == unsigned(GRANULE_BYTES) && (ALIGNED || shift == 0))
        {
          low[r] = *reinterpret_cast<const uint4*>(aligned);
          how[r] = ALIGNED_WORD;
        }
        else if (!ALIGNED && p.lo == 0 && p.hi == unsigned(GRANULE_BYTES) && aligned >= d.begin + d.apart
                 && aligned + 2 * GRANULE_BYTES <= d.end + d.apart)
        {
          low[r]                = reinterpret_cast<const uint4*>(aligned)[0];
          high[ALIGNED ? 0 : r] = reinterpret_cast<const uint4*>(aligned)[1];
          how[r]                = SHIFTED | (shift << 2);
        }
        else
        {
          partial |= 1u << r;
          owners |= static_cast<unsigned long long>(lane) << (5 * r);
        }
      }
    }
    STRATA_UNROLL
    for (int r = 0; r < ROWS; ++r)
    {
      if (how[r] == ALIGNED_WORD)
      {
        *reinterpret_cast<uint4*>(blocks[r]) = low[r];
      }
      else if (!ALIGNED && (how[r] & 3u) == SHIFTED)
      {
        *reinterpret_cast<uint4*>(blocks[r]) =
          detail::batch_memcpy::extract16(low[r], high[ALIGNED ? 0 : r], how[r] >> 2);
      }
    }
    STRATA_NO_UNROLL
    for (unsigned int rows = partial; rows != 0; rows &= rows - 1u)
    {
      const int r               = __ffs(static_cast<int>(rows)) - 1;
      const memcpy_descriptor d = descriptors[(owners >> (5 * r)) & 31u];
      const place p             = place_of(d, round + position_t(static_cast<int>(lane_) + (row + r) * WARP_THREADS));
      if (ALIGNED || (d.apart & uintptr_t(GRANULE_BYTES - 1)) == 0)
      {
        detail::batch_memcpy::copy_partial_aligned(p.block, p.source, p.lo, p.hi);
      }
      else
      {
        detail::batch_memcpy::copy_partial_bytes(p.block, p.source, p.lo, p.hi);
      }
    }
  }

  // The element-wise copy's round: every granule's items are loaded, then stored (or each item assigned from the
  // input where its type cannot be held).
  STRATA_DEVICE STRATA_FORCEINLINE void copy_items(const descriptor_t* descriptors, int ahead, int one_owner,
                                                   OffsetT batch, position_t round, int last)
  {
    int owners[R];
    STRATA_UNROLL
    for (int r = 0; r < R; ++r)
    {
      owners[r] = owner(ahead, one_owner, static_cast<int>(lane_) + r * WARP_THREADS);
    }
    if constexpr (!HOLD)
    {
      STRATA_UNROLL
      for (int r = 0; r < R; ++r)
      {
        const int offset = static_cast<int>(lane_) + r * WARP_THREADS;
        if (offset <= last)
        {
          const copy_descriptor d = descriptors[owners[r]];
          const position_t item   = (d.first + round + position_t(offset)) * position_t(GRANULE_ITEMS);
          const InputRangeT in    = input_it_[batch + OffsetT(owners[r])];
          OutputRangeT out        = output_it_[batch + OffsetT(owners[r])];
          for (int i = 0; i < GRANULE_ITEMS && item + position_t(i) < d.items; ++i)
          {
            out[static_cast<out_difference_t>(item + position_t(i))] =
              in[static_cast<in_difference_t>(item + position_t(i))];
          }
        }
      }
    }
    else
    {
      HeldT held[R][GRANULE_ITEMS];
      STRATA_UNROLL
      for (int r = 0; r < R; ++r)
      {
        const int offset = static_cast<int>(lane_) + r * WARP_THREADS;
        if (offset <= last)
        {
          const copy_descriptor d = descriptors[owners[r]];
          const position_t item   = (d.first + round + position_t(offset)) * position_t(GRANULE_ITEMS);
          const InputRangeT in    = input_it_[batch + OffsetT(owners[r])];
          STRATA_UNROLL
          for (int i = 0; i < GRANULE_ITEMS; ++i)
          {
            if (item + position_t(i) < d.items)
            {
              held[r][i] = in[static_cast<in_difference_t>(item + position_t(i))];
            }
          }
        }
      }
      STRATA_UNROLL
      for (int r = 0; r < R; ++r)
      {
        const int offset = static_cast<int>(lane_) + r * WARP_THREADS;
        if (offset <= last)
        {
          const copy_descriptor d = descriptors[owners[r]];
          const position_t item   = (d.first + round + position_t(offset)) * position_t(GRANULE_ITEMS);
          OutputRangeT out        = output_it_[batch + OffsetT(owners[r])];
          STRATA_UNROLL
          for (int i = 0; i < GRANULE_ITEMS; ++i)
          {
            if (item + position_t(i) < d.items)
            {
              out[static_cast<out_difference_t>(item + position_t(i))] = held[r][i];
            }
          }
        }
      }
    }
  }

  TempStorage& temp_storage_;
  InputBufferIt input_it_;
  OutputBufferIt output_it_;
  BufferSizeIteratorT sizes_;
  OffsetT num_buffers_;
  unsigned int warp_;
  unsigned int lane_;
};

STRATA_NAMESPACE_END
