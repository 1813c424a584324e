// The tile state of single-pass scans (Merrill & Garland's decoupled look-back) and the prefix callback that
// looks back over it.
//
// Every tile publishes first its aggregate (status PARTIAL), then its inclusive prefix (status INCLUSIVE).
// A tile finds its exclusive prefix by reading a window of 32 predecessors at once (one per lane of the first
// warp), combining the aggregates of the nearest ones up to the nearest inclusive prefix, and moving the window
// further back while it finds none. It never waits for more predecessors than it needs, and a tile that is
// still INVALID (not started, or not yet published) is waited for with an exponential backoff, so that the
// spinning warps leave issue slots and memory bandwidth to the tiles they wait on.
//
// Values that fit 4 bytes are packed with their status into one 64-bit word: one relaxed atomic access
// publishes or reads both. Larger values live in their own array, published before their status with release
// order and read after it with acquire order.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/warp_reduce.cuh>

#include <cuda/atomic>
#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

enum ScanTileStatus : cuda::std::uint32_t
{
  SCAN_TILE_INVALID   = 0, // nothing published yet
  SCAN_TILE_PARTIAL   = 1, // the tile's own aggregate
  SCAN_TILE_INCLUSIVE = 2, // the prefix of everything up to and including the tile
};

namespace detail
{
// True when T is published packed with its status in one 64-bit word.
template <typename T>
constexpr bool scan_tile_state_packed_v =
  sizeof(T) <= 4 && cuda::std::is_trivially_copyable<T>::value && alignof(T) <= 4;
} // namespace detail

// Status and value of every tile, in device memory provided by the dispatch (AllocationSize bytes).
template <typename T, bool PACKED = detail::scan_tile_state_packed_v<T>>
class ScanTileState;

// Packed: word = status << 32 | value bits.
template <typename T>
class ScanTileState<T, true>
{
  using word_t = unsigned long long;

public:
  static constexpr size_t AllocationSize(size_t num_tiles)
  {
    return num_tiles * sizeof(word_t);
  }

  ScanTileState() = default;
  STRATA_HOST_DEVICE ScanTileState(void* storage, size_t /* num_tiles */)
      : words_(static_cast<word_t*>(storage))
  {}

  // Marks tile `tile` INVALID (the init kernel does this for every tile before the scan).
  STRATA_DEVICE STRATA_FORCEINLINE void InitializeStatus(size_t tile) const
  {
    words_[tile] = 0;
  }

  STRATA_DEVICE STRATA_FORCEINLINE void SetPartial(size_t tile, const T& value) const
  {
    publish(tile, SCAN_TILE_PARTIAL, value);
  }
  STRATA_DEVICE STRATA_FORCEINLINE void SetInclusive(size_t tile, const T& value) const
  {
    publish(tile, SCAN_TILE_INCLUSIVE, value);
  }

  // Reads the status and value of `tile` (the value is meaningful once the status is not INVALID).
  STRATA_DEVICE STRATA_FORCEINLINE void Read(size_t tile, cuda::std::uint32_t& status, T& value) const
  {
    const word_t word =
      cuda::atomic_ref<word_t, cuda::thread_scope_device>(words_[tile]).load(cuda::std::memory_order_relaxed);
    status = static_cast<cuda::std::uint32_t>(word >> 32);
    value  = from_bits(static_cast<cuda::std::uint32_t>(word));
  }

private:
  static STRATA_DEVICE STRATA_FORCEINLINE T from_bits(cuda::std::uint32_t bits)
  {
    T value;
    memcpy(&value, &bits, sizeof(T));
    return value;
  }
  static STRATA_DEVICE STRATA_FORCEINLINE cuda::std::uint32_t to_bits(const T& value)
  {
    cuda::std::uint32_t bits = 0;
    memcpy(&bits, &value, sizeof(T));
    return bits;
  }

  STRATA_DEVICE STRATA_FORCEINLINE void publish(size_t tile, cuda::std::uint32_t status, const T& value) const
  {
    const word_t word = (static_cast<word_t>(status) << 32) | to_bits(value);
    cuda::atomic_ref<word_t, cuda::thread_scope_device>(words_[tile]).store(word, cuda::std::memory_order_relaxed);
  }

  word_t* words_ = nullptr;
};

// Unpacked: a status array and two value arrays (aggregates and inclusive prefixes, so that a reader never
// sees one value half overwritten by the other); a value is written before its status is released, and read
// after its status is acquired.
template <typename T>
class ScanTileState<T, false>
{
public:
  static constexpr size_t AllocationSize(size_t num_tiles)
  {
    return round_up(num_tiles * sizeof(cuda::std::uint32_t)) + 2 * round_up(num_tiles * sizeof(T));
  }

  ScanTileState() = default;
  STRATA_HOST_DEVICE ScanTileState(void* storage, size_t num_tiles)
      : status_(static_cast<cuda::std::uint32_t*>(storage))
      , partial_(reinterpret_cast<T*>(static_cast<char*>(storage) + round_up(num_tiles * sizeof(cuda::std::uint32_t))))
      , inclusive_(reinterpret_cast<T*>(reinterpret_cast<char*>(partial_) + round_up(num_tiles * sizeof(T))))
  {}

  STRATA_DEVICE STRATA_FORCEINLINE void InitializeStatus(size_t tile) const
  {
    status_[tile] = SCAN_TILE_INVALID;
  }

  STRATA_DEVICE STRATA_FORCEINLINE void SetPartial(size_t tile, const T& value) const
  {
    partial_[tile] = value;
    release(tile, SCAN_TILE_PARTIAL);
  }
  STRATA_DEVICE STRATA_FORCEINLINE void SetInclusive(size_t tile, const T& value) const
  {
    inclusive_[tile] = value;
    release(tile, SCAN_TILE_INCLUSIVE);
  }

  STRATA_DEVICE STRATA_FORCEINLINE void Read(size_t tile, cuda::std::uint32_t& status, T& value) const
  {
    status = cuda::atomic_ref<cuda::std::uint32_t, cuda::thread_scope_device>(status_[tile])
               .load(cuda::std::memory_order_acquire);
    if (status == SCAN_TILE_PARTIAL)
    {
      value = ThreadLoad<LOAD_CG>(partial_ + tile);
    }
    else if (status == SCAN_TILE_INCLUSIVE)
    {
      value = ThreadLoad<LOAD_CG>(inclusive_ + tile);
    }
  }

private:
  STRATA_HOST_DEVICE static constexpr size_t round_up(size_t bytes)
  {
    return (bytes + 255) / 256 * 256;
  }

  STRATA_DEVICE STRATA_FORCEINLINE void release(size_t tile, cuda::std::uint32_t status) const
  {
    cuda::atomic_ref<cuda::std::uint32_t, cuda::thread_scope_device>(status_[tile])
      .store(status, cuda::std::memory_order_release);
  }

  cuda::std::uint32_t* status_ = nullptr;
  T* partial_                  = nullptr;
  T* inclusive_                = nullptr;
};

// The block-prefix callback of BlockScan for tile `tile_idx` >= 1: called by the first warp with the tile's
// aggregate, it publishes the aggregate, looks back for the exclusive prefix, publishes the inclusive prefix
// and returns the exclusive prefix (combined after `init` when the scan has an initial value).
template <typename T, typename ScanOpT, typename TileStateT>
class TilePrefixCallbackOp
{
  using WarpReduceT = WarpReduce<T>;

public:
  struct TempStorage
  {
    typename WarpReduceT::TempStorage reduce;
    T exclusive_prefix;
    T inclusive_prefix;
  };

  STRATA_DEVICE STRATA_FORCEINLINE
  TilePrefixCallbackOp(TileStateT tile_state, TempStorage& temp_storage, ScanOpT op, size_t tile_idx)
      : tile_state_(tile_state)
      , temp_storage_(temp_storage)
      , op_(op)
      , tile_idx_(tile_idx)
  {}

  // Called by every lane of the first warp; the value returned by lane 0 is the tile's exclusive prefix.
  STRATA_DEVICE STRATA_FORCEINLINE T operator()(const T& block_aggregate)
  {
    const unsigned int lane = LaneId();
    if (lane == 0)
    {
      tile_state_.SetPartial(tile_idx_, block_aggregate);
    }
    const T prefix = EXACT ? look_back_tree(lane) : look_back_in_order(lane);
    if (lane == 0)
    {
      const T inclusive_prefix = op_(prefix, block_aggregate);
      tile_state_.SetInclusive(tile_idx_, inclusive_prefix);
      temp_storage_.exclusive_prefix = prefix;
      temp_storage_.inclusive_prefix = inclusive_prefix;
    }
    return prefix;
  }

  // After the scan (and a barrier): the tile's exclusive and inclusive prefixes, in every thread.
  STRATA_DEVICE STRATA_FORCEINLINE T ExclusivePrefix() const
  {
    return temp_storage_.exclusive_prefix;
  }
  STRATA_DEVICE STRATA_FORCEINLINE T InclusivePrefix() const
  {
    return temp_storage_.inclusive_prefix;
  }

private:
  // Integer arithmetic with the standard operators gives the same result in any association: the look-back
  // may combine with a tree. Anything else (floating point, user operators) is folded strictly left to right,
  // starting at the nearest inclusive prefix: every inclusive prefix is then the left fold of all aggregates
  // before it, whichever predecessor a look-back stopped at, so results are the same bits run to run.
  static constexpr bool EXACT = cuda::std::is_integral<T>::value && detail::op_kind_v<ScanOpT> != detail::op_kind::other;

  // Lane l reads predecessor window_end - l (predecessors before tile 0 read as inclusive: tile 0 always is),
  // and the warp waits, backing off, until no lane sees an INVALID tile.
  STRATA_DEVICE STRATA_FORCEINLINE void
  read_window(long long window_end, unsigned int lane, cuda::std::uint32_t& status, T& value) const
  {
    const long long predecessor = window_end - static_cast<long long>(lane);
    status                      = SCAN_TILE_INCLUSIVE;
    unsigned int delay          = 32;
    while (true)
    {
      if (predecessor >= 0)
      {
        tile_state_.Read(static_cast<size_t>(predecessor), status, value);
      }
      if (!__any_sync(0xffffffffu, status == SCAN_TILE_INVALID))
      {
        return;
      }
      __nanosleep(delay);
      delay = delay < 1024 ? delay * 2 : delay;
    }
  }

  // The exact look-back: each window's part up to the nearest inclusive predecessor is reduced with a tree.
  STRATA_DEVICE STRATA_FORCEINLINE T look_back_tree(unsigned int lane)
  {
    long long window_end = static_cast<long long>(tile_idx_) - 1;
    T prefix{};
    bool have_prefix = false;
    while (true)
    {
      cuda::std::uint32_t status;
      T value{};
      read_window(window_end, lane, status, value);
      const unsigned int inclusive = __ballot_sync(0xffffffffu, status == SCAN_TILE_INCLUSIVE);
      const int last_lane          = inclusive ? (__ffs(inclusive) - 1) : (WARP_THREADS - 1);
      // Lane j takes the value of lane last_lane - j, so ascending lanes hold the window in sequence order.
      const int source     = last_lane - static_cast<int>(lane);
      const T ordered      = ShuffleIndex<WARP_THREADS>(value, source < 0 ? 0 : source, 0xffffffffu);
      const T window_value = WarpReduceT(temp_storage_.reduce).Reduce(ordered, op_, last_lane + 1);
      if (lane == 0)
      {
        prefix      = have_prefix ? op_(window_value, prefix) : window_value;
        have_prefix = true;
      }
      if (inclusive)
      {
        return prefix;
      }
      window_end -= WARP_THREADS;
      __syncwarp();
    }
  }

  // Folds lanes `first` down to 0 of a window into `acc` in sequence order; an inclusive predecessor restarts
  // the fold from its prefix (the same value the fold would reach). Every lane ends with the result.
  STRATA_DEVICE STRATA_FORCEINLINE void
  fold_window(int first, cuda::std::uint32_t status, const T& value, T& acc, bool& have) const
  {
    for (int j = first; j >= 0; --j)
    {
      const cuda::std::uint32_t s = __shfl_sync(0xffffffffu, status, j);
      const T v                   = ShuffleIndex<WARP_THREADS>(value, j, 0xffffffffu);
      acc                         = (s == SCAN_TILE_INCLUSIVE || !have) ? v : op_(acc, v);
      have                        = true;
    }
  }

  // The in-order look-back: find the window of the nearest inclusive predecessor, then fold forward from it.
  STRATA_DEVICE STRATA_FORCEINLINE T look_back_in_order(unsigned int lane)
  {
    const long long nearest = static_cast<long long>(tile_idx_) - 1;
    long long window_end    = nearest;
    cuda::std::uint32_t status;
    T value{};
    unsigned int inclusive;
    while (true)
    {
      read_window(window_end, lane, status, value);
      inclusive = __ballot_sync(0xffffffffu, status == SCAN_TILE_INCLUSIVE);
      if (inclusive)
      {
        break;
      }
      window_end -= WARP_THREADS;
    }
    T acc{};
    bool have = false;
    fold_window(__ffs(inclusive) - 1, status, value, acc, have);
    // The nearer windows had no INVALID tile when passed over, so re-reading them does not wait.
    while (window_end < nearest)
    {
      window_end += WARP_THREADS;
      read_window(window_end, lane, status, value);
      fold_window(WARP_THREADS - 1, status, value, acc, have);
    }
    return acc;
  }

  TileStateT tile_state_;
  TempStorage& temp_storage_;
  ScanOpT op_;
  size_t tile_idx_;
};

STRATA_NAMESPACE_END
