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
// Values of at most 4 bytes are packed with their status into one 64-bit word, values of at most 8 bytes into
// one 128-bit word: one relaxed single-copy-atomic access publishes or reads both. Larger values live in their
// own arrays, published before their status with release order and read after it with acquire order.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/warp_reduce.cuh>

#include <cuda/atomic>
#include <cuda/cmath>
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
// How a tile's status and value are kept: one 64-bit word, one 128-bit word (up to 8 bytes of value, or 12 in two
// parts: parts96), or separate arrays.
enum class scan_tile_packing
{
  word64,
  word128,
  parts96,
  split
};

// A type whose value is an 8-byte part and a 4-byte part, though its size is 16 (a pair of a 32-bit count and an 8-byte
// value): it specializes this with `value` true and `split(t, lo, hi)` / `join(lo, hi)`, and one 128-bit word holds it
// beside its status, as for 8-byte values, instead of separate arrays.
template <typename T, typename = void>
struct scan_tile_parts96 : cuda::std::false_type
{};

template <typename T>
constexpr scan_tile_packing scan_tile_packing_v = scan_tile_parts96<T>::value ? scan_tile_packing::parts96
                                                : !cuda::std::is_trivially_copyable<T>::value ? scan_tile_packing::split
                                                : (sizeof(T) <= 4 && alignof(T) <= 4) ? scan_tile_packing::word64
                                                : (sizeof(T) <= 8 && alignof(T) <= 8) ? scan_tile_packing::word128
                                                                                      : scan_tile_packing::split;

// The packed word of a tile and its relaxed accesses; `bits` holds the value's bytes.
template <scan_tile_packing P>
struct scan_tile_word;

template <>
struct scan_tile_word<scan_tile_packing::word64>
{
  using bits_t = cuda::std::uint32_t;
  // status << 32 | value bits
  struct alignas(8) type
  {
    unsigned long long word;
  };
  static STRATA_DEVICE STRATA_FORCEINLINE void store(type* p, cuda::std::uint32_t status, bits_t bits)
  {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(p->word).store(
      (static_cast<unsigned long long>(status) << 32) | bits, cuda::std::memory_order_relaxed);
  }
  static STRATA_DEVICE STRATA_FORCEINLINE void load(type* p, cuda::std::uint32_t& status, bits_t& bits)
  {
    const unsigned long long word =
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(p->word).load(cuda::std::memory_order_relaxed);
    status = static_cast<cuda::std::uint32_t>(word >> 32);
    bits   = static_cast<bits_t>(word);
  }
};

template <>
struct scan_tile_word<scan_tile_packing::word128>
{
  using bits_t = unsigned long long;
  struct alignas(16) type
  {
    unsigned long long value;
    unsigned long long status;
  };
  static STRATA_DEVICE STRATA_FORCEINLINE void store(type* p, cuda::std::uint32_t status, bits_t bits)
  {
    StoreRelaxed128(p, bits, status);
  }
  static STRATA_DEVICE STRATA_FORCEINLINE void load(type* p, cuda::std::uint32_t& status, bits_t& bits)
  {
    unsigned long long word_status = 0;
    LoadRelaxed128(p, bits, word_status);
    status = static_cast<cuda::std::uint32_t>(word_status);
  }
};
} // namespace detail

// Status and value of every tile, in device memory provided by the dispatch (AllocationSize bytes).
template <typename T, detail::scan_tile_packing P = detail::scan_tile_packing_v<T>>
class ScanTileState
{
  using word_traits = detail::scan_tile_word<P>;
  using word_t      = typename word_traits::type;
  using bits_t      = typename word_traits::bits_t;

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
    word_traits::store(words_ + tile, SCAN_TILE_INVALID, 0);
  }

  STRATA_DEVICE STRATA_FORCEINLINE void SetPartial(size_t tile, const T& value) const
  {
    word_traits::store(words_ + tile, SCAN_TILE_PARTIAL, to_bits(value));
  }
  STRATA_DEVICE STRATA_FORCEINLINE void SetInclusive(size_t tile, const T& value) const
  {
    word_traits::store(words_ + tile, SCAN_TILE_INCLUSIVE, to_bits(value));
  }

  // Reads the status and value of `tile` (the value is meaningful once the status is not INVALID).
  STRATA_DEVICE STRATA_FORCEINLINE void Read(size_t tile, cuda::std::uint32_t& status, T& value) const
  {
    bits_t bits = 0;
    word_traits::load(words_ + tile, status, bits);
    memcpy(&value, &bits, sizeof(T));
  }

private:
  static STRATA_DEVICE STRATA_FORCEINLINE bits_t to_bits(const T& value)
  {
    bits_t bits = 0;
    memcpy(&bits, &value, sizeof(T));
    return bits;
  }

  word_t* words_ = nullptr;
};

// A value of two parts (8 and 4 bytes) in one 128-bit word: the 8-byte part, then the 4-byte part above the status.
template <typename T>
class ScanTileState<T, detail::scan_tile_packing::parts96>
{
  using parts = detail::scan_tile_parts96<T>;
  struct alignas(16) word_t
  {
    unsigned long long lo;
    unsigned long long hi;
  };

public:
  static constexpr size_t AllocationSize(size_t num_tiles)
  {
    return num_tiles * sizeof(word_t);
  }

  ScanTileState() = default;
  STRATA_HOST_DEVICE ScanTileState(void* storage, size_t /* num_tiles */)
      : words_(static_cast<word_t*>(storage))
  {}

  STRATA_DEVICE STRATA_FORCEINLINE void InitializeStatus(size_t tile) const
  {
    StoreRelaxed128(words_ + tile, 0ull, static_cast<unsigned long long>(SCAN_TILE_INVALID));
  }
  STRATA_DEVICE STRATA_FORCEINLINE void SetPartial(size_t tile, const T& value) const
  {
    store(tile, SCAN_TILE_PARTIAL, value);
  }
  STRATA_DEVICE STRATA_FORCEINLINE void SetInclusive(size_t tile, const T& value) const
  {
    store(tile, SCAN_TILE_INCLUSIVE, value);
  }

  STRATA_DEVICE STRATA_FORCEINLINE void Read(size_t tile, cuda::std::uint32_t& status, T& value) const
  {
    unsigned long long lo = 0;
    unsigned long long hi = 0;
    LoadRelaxed128(words_ + tile, lo, hi);
    status = static_cast<cuda::std::uint32_t>(hi);
    value  = parts::join(lo, static_cast<cuda::std::uint32_t>(hi >> 32));
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE void store(size_t tile, cuda::std::uint32_t status, const T& value) const
  {
    unsigned long long lo  = 0;
    cuda::std::uint32_t hi = 0;
    parts::split(value, lo, hi);
    StoreRelaxed128(words_ + tile, lo, (static_cast<unsigned long long>(hi) << 32) | status);
  }

  word_t* words_ = nullptr;
};

// Unpacked: a status array and two value arrays (aggregates and inclusive prefixes, so that a reader never
// sees one value half overwritten by the other); a value is written before its status is released, and read
// after its status is acquired.
template <typename T>
class ScanTileState<T, detail::scan_tile_packing::split>
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
    return ::cuda::round_up(bytes, size_t{256});
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

namespace detail
{
// True when combining T with ScanOpT gives the same result in any association, so that the look-back may
// reduce a window with a tree: integers under the standard operators. Operators that wrap one of those (the
// segmented operator of the by-key scans) specialize it.
template <typename T, typename ScanOpT>
struct scan_op_is_exact
    : cuda::std::bool_constant<cuda::std::is_integral<T>::value && op_kind_v<ScanOpT> != op_kind::other>
{};

// Operators under which some right operands restart the value: op(a, b) == b in everything but parts that are exact
// in any association (the run count of ReduceByKey's operator, whose values restart at every run's head). Such an
// operator specializes this with `value` true, `static bool restarts(const T& b)` and `static constexpr bool absorbs`:
// whether op(a, b) == b whole for a restarting b (the by-key scans' segmented operator), so that nothing before it
// counts. An inexact one's look-back then folds in order only from the nearest restarting (or inclusive) predecessor,
// and sums the exact parts before it with a tree unless the restart absorbs them; an exact one's that absorbs stops
// at the nearest restarting predecessor too.
template <typename T, typename ScanOpT>
struct scan_op_restarts : cuda::std::false_type
{
  static constexpr bool absorbs = false;
};

// How long a look-back waits between polls of a window that still has an INVALID tile: DELAY_NS first,
// doubling up to MAX_DELAY_NS (0: poll without sleeping).
template <int DELAY_NS, int MAX_DELAY_NS>
struct scan_look_back_delay
{
  static_assert(DELAY_NS >= 0 && MAX_DELAY_NS >= DELAY_NS, "look-back delays must grow");
  unsigned int delay = DELAY_NS;
  STRATA_DEVICE STRATA_FORCEINLINE void wait()
  {
    if constexpr (MAX_DELAY_NS > 0)
    {
      __nanosleep(delay);
      delay = delay * 2 < MAX_DELAY_NS ? delay * 2 : MAX_DELAY_NS;
    }
  }
};
} // namespace detail

// The block-prefix callback of BlockScan for tile `tile_idx` >= 1: called by the first warp with the tile's
// aggregate, it publishes the aggregate, looks back for the exclusive prefix, publishes the inclusive prefix
// and returns the exclusive prefix (combined after `init` when the scan has an initial value). DelayT is a
// detail::scan_look_back_delay.
template <typename T, typename ScanOpT, typename TileStateT, typename DelayT = detail::scan_look_back_delay<32, 256>>
class TilePrefixCallbackOp
{
  using WarpReduceT = WarpReduce<T>;

  // Windows the in-order look-back keeps in shared memory while it looks further back; older windows are read
  // again when folded.
  static constexpr int CACHED_WINDOWS = 4;

public:
  struct TempStorage
  {
    union
    {
      typename WarpReduceT::TempStorage reduce;
      Uninitialized<T[CACHED_WINDOWS][WARP_THREADS]> windows;
    };
    Uninitialized<T> exclusive_prefix;
    Uninitialized<T> inclusive_prefix;
  };

  STRATA_DEVICE STRATA_FORCEINLINE TilePrefixCallbackOp(TileStateT tile_state, TempStorage& temp_storage, ScanOpT op,
                                                        size_t tile_idx)
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
    const T prefix = look_back(lane);
    if (lane == 0)
    {
      const T inclusive_prefix = op_(prefix, block_aggregate);
      tile_state_.SetInclusive(tile_idx_, inclusive_prefix);
      temp_storage_.exclusive_prefix.Alias() = prefix;
      temp_storage_.inclusive_prefix.Alias() = inclusive_prefix;
    }
    return prefix;
  }

  // For a tile that publishes `entries` (1 to 32) consecutive entries from tile_idx on, called by every lane of the
  // first warp, lane j with entry j's aggregate (lanes from `entries` on with anything): publishes the aggregates,
  // looks back (from tile_idx - 1; tile 0 has nothing before it), publishes each entry's inclusive prefix, the left
  // fold of every aggregate up to its own, and returns entry j's exclusive prefix in lane j (unset for entry 0).
  STRATA_DEVICE STRATA_FORCEINLINE T ScanEntries(const T& aggregate, int entries)
  {
    const int lane = static_cast<int>(LaneId());
    bool have      = tile_idx_ != 0;
    // Tile 0 publishes inclusive prefixes only, so that no look-back passes it.
    if (have && lane < entries)
    {
      tile_state_.SetPartial(tile_idx_ + static_cast<size_t>(lane), aggregate);
    }
    T acc{};
    if (have)
    {
      acc = ShuffleIndex<WARP_THREADS>(look_back(static_cast<unsigned int>(lane)), 0, 0xffffffffu);
    }
    T exclusive = acc;
    T inclusive = acc;
    // A fixed trip count: every lane's shuffle issues ahead of the dependent chain of operators.
    STRATA_UNROLL
    for (int j = 0; j < WARP_THREADS; ++j)
    {
      const T next = ShuffleIndex<WARP_THREADS>(aggregate, j, 0xffffffffu);
      if (j < entries)
      {
        exclusive = lane == j ? acc : exclusive;
        acc       = have ? op_(acc, next) : next;
        have      = true;
        inclusive = lane == j ? acc : inclusive;
      }
    }
    if (lane < entries)
    {
      tile_state_.SetInclusive(tile_idx_ + static_cast<size_t>(lane), inclusive);
    }
    return exclusive;
  }

  // After the scan (and a barrier): the tile's exclusive and inclusive prefixes, in every thread.
  STRATA_DEVICE STRATA_FORCEINLINE T ExclusivePrefix() const
  {
    return temp_storage_.exclusive_prefix.Alias();
  }
  STRATA_DEVICE STRATA_FORCEINLINE T InclusivePrefix() const
  {
    return temp_storage_.inclusive_prefix.Alias();
  }

private:
  // Exact operators may combine a window with a tree. Anything else (floating point, user operators) is folded
  // strictly left to right, starting at the nearest inclusive prefix (or, for an operator that restarts, at the
  // nearest restarting predecessor: look_back_from_restart): every inclusive prefix is then the left fold of all
  // aggregates before it, whichever predecessor a look-back stopped at, so results are the same bits run to run.
  static constexpr bool EXACT    = detail::scan_op_is_exact<T, ScanOpT>::value;
  static constexpr bool RESTARTS = detail::scan_op_restarts<T, ScanOpT>::value;
  static constexpr bool ABSORBS  = detail::scan_op_restarts<T, ScanOpT>::absorbs;

  // The exclusive prefix of tile_idx (>= 1), in lane 0.
  STRATA_DEVICE STRATA_FORCEINLINE T look_back(unsigned int lane)
  {
    if constexpr (EXACT)
    {
      return look_back_tree(lane, static_cast<long long>(tile_idx_) - 1);
    }
    else if constexpr (RESTARTS)
    {
      return look_back_from_restart(lane);
    }
    else
    {
      return look_back_in_order(lane);
    }
  }

  // Lane l reads predecessor window_end - l (predecessors before tile 0 read as inclusive: tile 0 always is),
  // and the warp polls until no lane sees an INVALID tile.
  STRATA_DEVICE STRATA_FORCEINLINE void read_window(long long window_end, unsigned int lane,
                                                    cuda::std::uint32_t& status, T& value) const
  {
    const long long predecessor = window_end - static_cast<long long>(lane);
    status                      = SCAN_TILE_INCLUSIVE;
    DelayT delay{};
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
      delay.wait();
    }
  }

  // The exact look-back from predecessor `window_end` on: each window's part up to the nearest inclusive predecessor
  // (or, where a restart absorbs, restarting one) is reduced with a tree.
  STRATA_DEVICE STRATA_FORCEINLINE T look_back_tree(unsigned int lane, long long window_end)
  {
    cuda::std::uint32_t status;
    T value{};
    read_window(window_end, lane, status, value);
    return look_back_tree(lane, window_end, status, value, 0);
  }

  // The same with the window ending at `window_end` already read (read_window's status and value), from its lane
  // `skip` on (the predecessors window_end - skip and before).
  STRATA_DEVICE STRATA_FORCEINLINE T look_back_tree(unsigned int lane, long long window_end, cuda::std::uint32_t status,
                                                    T value, int skip)
  {
    T prefix{};
    bool have_prefix = false;
    while (true)
    {
      bool stops = status == SCAN_TILE_INCLUSIVE;
      if constexpr (ABSORBS)
      {
        stops = stops || detail::scan_op_restarts<T, ScanOpT>::restarts(value);
      }
      const unsigned int stop = __ballot_sync(0xffffffffu, stops) & ~((1u << skip) - 1u);
      const int last_lane     = stop ? (__ffs(stop) - 1) : (WARP_THREADS - 1);
      // Lane j takes the value of lane last_lane - j, so ascending lanes hold lanes skip to last_lane in sequence
      // order.
      const int source     = last_lane - static_cast<int>(lane);
      const T ordered      = ShuffleIndex<WARP_THREADS>(value, source < 0 ? 0 : source, 0xffffffffu);
      const T window_value = WarpReduceT(temp_storage_.reduce).Reduce(ordered, op_, last_lane + 1 - skip);
      if (lane == 0)
      {
        prefix      = have_prefix ? op_(window_value, prefix) : window_value;
        have_prefix = true;
      }
      if (stop)
      {
        return prefix;
      }
      window_end -= WARP_THREADS;
      skip = 0;
      __syncwarp();
      read_window(window_end, lane, status, value);
    }
  }

  // Lane 0 folds lanes `first` down to 0 of a window (held in shared memory, lane j at index j) into `acc`,
  // in sequence order; with `restart`, lane `first` holds an inclusive prefix, which replaces `acc`. The trip
  // count is fixed and the lanes past `first` predicated off, so every shared-memory read issues ahead of the
  // dependent chain of operators.
  STRATA_DEVICE STRATA_FORCEINLINE void fold_window(const T (&window)[WARP_THREADS], int first, bool restart,
                                                    T& acc) const
  {
    if (restart)
    {
      acc = window[first];
      --first;
    }
    STRATA_UNROLL
    for (int j = WARP_THREADS - 1; j >= 0; --j)
    {
      const T value = window[j];
      if (j <= first)
      {
        acc = op_(acc, value);
      }
    }
  }

  // The in-order look-back: walk back window by window to the nearest inclusive predecessor (keeping the last
  // CACHED_WINDOWS windows read in shared memory), then lane 0 folds forward from it.
  STRATA_DEVICE STRATA_FORCEINLINE T look_back_in_order(unsigned int lane)
  {
    auto& windows              = temp_storage_.windows.Alias();
    const long long nearest    = static_cast<long long>(tile_idx_) - 1;
    int farthest               = 0; // index of the window with the nearest inclusive predecessor (0: nearest)
    cuda::std::uint32_t status = SCAN_TILE_INVALID;
    T value{};
    unsigned int inclusive = 0;
    while (true)
    {
      read_window(nearest - static_cast<long long>(farthest) * WARP_THREADS, lane, status, value);
      windows[farthest % CACHED_WINDOWS][lane] = value;
      inclusive                                = __ballot_sync(0xffffffffu, status == SCAN_TILE_INCLUSIVE);
      if (inclusive)
      {
        break;
      }
      ++farthest;
    }
    __syncwarp();
    T acc{};
    if (lane == 0)
    {
      fold_window(windows[farthest % CACHED_WINDOWS], __ffs(inclusive) - 1, true, acc);
    }
    for (int w = farthest - 1; w >= 0; --w)
    {
      int first    = WARP_THREADS - 1;
      bool restart = false;
      if (w <= farthest - CACHED_WINDOWS)
      {
        // Passed over without an INVALID tile, so reading it again does not wait; a tile that has become
        // inclusive since restarts the fold with the value the fold would reach.
        __syncwarp();
        read_window(nearest - static_cast<long long>(w) * WARP_THREADS, lane, status, value);
        windows[w % CACHED_WINDOWS][lane] = value;
        const unsigned int now_inclusive  = __ballot_sync(0xffffffffu, status == SCAN_TILE_INCLUSIVE);
        __syncwarp();
        if (now_inclusive)
        {
          first   = __ffs(now_inclusive) - 1;
          restart = true;
        }
      }
      if (lane == 0)
      {
        fold_window(windows[w % CACHED_WINDOWS], first, restart, acc);
      }
    }
    return acc;
  }

  // The look-back of an inexact operator that restarts (detail::scan_op_restarts): in the nearest window, the nearest
  // predecessor that is inclusive or restarts starts the fold, which goes on in sequence order; the predecessors
  // before a restarting one contribute only exact parts, summed with the tree look-back. Every inclusive prefix is
  // still the left fold of all aggregates before it. Where no predecessor of the window starts a fold, the in-order
  // look-back runs instead.
  STRATA_DEVICE STRATA_FORCEINLINE T look_back_from_restart(unsigned int lane)
  {
    const long long nearest = static_cast<long long>(tile_idx_) - 1;
    cuda::std::uint32_t status;
    T value{};
    read_window(nearest, lane, status, value);
    const unsigned int inclusive = __ballot_sync(0xffffffffu, status == SCAN_TILE_INCLUSIVE);
    const unsigned int starts =
      inclusive | __ballot_sync(0xffffffffu, detail::scan_op_restarts<T, ScanOpT>::restarts(value));
    if (starts == 0)
    {
      return look_back_in_order(lane);
    }
    const int first = __ffs(starts) - 1;
    T acc           = ShuffleIndex<WARP_THREADS>(value, first, 0xffffffffu);
    if (!ABSORBS && (inclusive >> first & 1u) == 0)
    {
      // The exact parts before the restart, from the lanes of this window past it on (read again only beyond it).
      const T before = first + 1 < WARP_THREADS ? look_back_tree(lane, nearest, status, value, first + 1)
                                                : look_back_tree(lane, nearest - WARP_THREADS);
      acc            = op_(before, acc);
    }
    for (int j = first - 1; j >= 0; --j)
    {
      const T next = ShuffleIndex<WARP_THREADS>(value, j, 0xffffffffu);
      acc          = op_(acc, next);
    }
    return acc;
  }

  TileStateT tile_state_;
  TempStorage& temp_storage_;
  mutable ScanOpT op_; // mutable: an operator may have a non-const operator() (Thrust accepts those)
  size_t tile_idx_;
};

STRATA_NAMESPACE_END
