// AgentSegmentedWalk: how the kernels of DeviceSegmentedReduce and DeviceSegmentedScan split and walk their work.
//
// The work of a segmented algorithm is a merge of two lists: the items of all segments, one after the other (the
// prefix sum P of the segments' lengths numbers them: segment s holds items [P(s), P(s + 1))), and the segments'
// ends. Item i of segment s and the end of segment s are the steps at merged positions i + s and P(s + 1) + s.
// One wave of blocks splits the merged list evenly, and each block splits its share evenly between its warps (each
// finds its first step with a search of P), so that every warp has the same number of items plus segment ends,
// whatever the lengths. A warp walks its share on its own, with no block-wide barrier, in sub-tiles of 32 x
// ITEMS_PER_THREAD items and the segment ends among them: the ends (and the items, where the segments lie back to
// back) are read coalesced into shared memory, ideally while the sub-tile before is worked on, and each lane learns
// which of its items end a segment. Where the segments do not lie back to back, lanes gather their items through the
// begin offsets. The agents fold the lanes' items themselves (a reduction per segment, or a scan) and carry the open
// segment from lane to lane with scan_parts. Every split depends only on the input and the grid, so results are the
// same bits run to run.
#pragma once

#include <strata/agent/agent_reduce.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/config.cuh>
#include <strata/util/even_share.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>
#include <strata/warp/warp_scan.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented
{
// The positions in the merged list and in the items of all segments.
using position_t = long long;

// Part of one segment's reduction: `value` when `valid` (no items and no initial value: not valid), and whether the
// segment started inside the warp's share that holds it (so nothing before it belongs to it).
template <typename AccumT>
struct partial
{
  AccumT value;
  bool valid;
  bool reset;
};

// Combines parts in merged order: a part that starts a segment replaces what came before it.
template <typename ReductionOpT>
struct partial_op
{
  mutable ReductionOpT op;
  template <typename AccumT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE partial<AccumT> operator()(const partial<AccumT>& a,
                                                                   const partial<AccumT>& b) const
  {
    if (b.reset)
    {
      return b;
    }
    if (!b.valid)
    {
      return a;
    }
    if (!a.valid)
    {
      return partial<AccumT>{b.value, true, a.reset};
    }
    return partial<AccumT>{static_cast<AccumT>(op(a.value, b.value)), true, a.reset};
  }
};

// A segment's part before any of its items: the initial value, or nothing where InitT only stands for no items
// (a detail::reduce::empty_value).
template <typename AccumT, typename InitT>
STRATA_DEVICE STRATA_FORCEINLINE partial<AccumT> fresh_part(const InitT& init)
{
  if constexpr (reduce::is_empty_value<InitT>::value)
  {
    return partial<AccumT>{AccumT{}, false, true};
  }
  else
  {
    return partial<AccumT>{static_cast<AccumT>(init), true, true};
  }
}

// The part of a segment that starts with a run of items folded to `value` (none unless `has`).
template <typename AccumT, typename ReductionOpT, typename InitT>
STRATA_DEVICE STRATA_FORCEINLINE partial<AccumT> started_part(ReductionOpT& op, const InitT& init, const AccumT& value,
                                                              bool has)
{
  return has ? partial<AccumT>{reduce::with_init(op, init, value), true, true} : fresh_part<AccumT>(init);
}

// What a segment's reduction writes for its final part: its value, or the output of no items (init, or the empty
// value's output) where it has none.
template <typename OutputT, typename AccumT, typename InitT>
STRATA_DEVICE STRATA_FORCEINLINE OutputT result_of(const partial<AccumT>& part, const InitT& init)
{
  return part.valid ? static_cast<OutputT>(part.value) : static_cast<OutputT>(reduce::empty_result(init));
}

// A warp's part of a segment that crosses an edge of its share (segment < 0: none).
template <typename AccumT>
struct record
{
  position_t segment;
  partial<AccumT> part;
};

// P, the prefix sums of the segments' lengths (P(s): the items of the segments before s), as the agent reads it.
// scanned_prefix: the scan of the lengths, one 64-bit word per segment and one more: P(s) in the low 62 bits and, in
// bit 62, whether the offsets broke contiguity before segment s (a segment that does not begin where the one before
// it ends, or ends before it begins). Where the last word has no break, the items of all segments lie back to back
// from d_in[begin[0]] on.
struct scanned_prefix
{
  static constexpr position_t BREAK = position_t(1) << 62;
  const position_t* words;
  STRATA_DEVICE STRATA_FORCEINLINE position_t operator()(position_t s) const
  {
    return words[s] & (BREAK - 1);
  }
  STRATA_DEVICE STRATA_FORCEINLINE bool contiguous(position_t num_segments) const
  {
    return (words[num_segments] & BREAK) == 0;
  }
};

// Segments of `size` items each, back to back.
struct fixed_prefix
{
  position_t size;
  STRATA_DEVICE STRATA_FORCEINLINE position_t operator()(position_t s) const
  {
    return s * size;
  }
  STRATA_DEVICE STRATA_FORCEINLINE bool contiguous(position_t) const
  {
    return true;
  }
};

// Segments given by one array of offsets (begin = offsets, end = offsets + 1) that the kernel has found
// non-decreasing (offsets_ordered): they lie back to back, so P(s) = offsets[s] - offsets[0] needs no scan. `base`,
// offsets[0], is read by the kernel (local_prefix::resolve).
template <typename OffsetIteratorT>
struct offsets_prefix
{
  OffsetIteratorT offsets;
  position_t base;
  STRATA_DEVICE STRATA_FORCEINLINE position_t operator()(position_t s) const
  {
    return static_cast<position_t>(offsets[s]) - base;
  }
  STRATA_DEVICE STRATA_FORCEINLINE bool contiguous(position_t) const
  {
    return true;
  }
};

// Whether begin and end offsets of these types may be one array, (d_offsets, d_offsets + 1): pointers of one type
// (whether the end is one past the begin is for the caller to check at run time).
template <typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
using one_offsets_array_form =
  cuda::std::bool_constant<cuda::std::is_pointer<BeginOffsetIteratorT>::value
                           && cuda::std::is_same<BeginOffsetIteratorT, EndOffsetIteratorT>::value>;

template <typename PrefixT>
struct is_offsets_prefix : cuda::std::false_type
{};
template <typename OffsetIteratorT>
struct is_offsets_prefix<offsets_prefix<OffsetIteratorT>> : cuda::std::true_type
{};

// Up to this many segments, one offsets array is read as P (offsets_prefix) once every block has checked, all of them
// itself, that the offsets do not decrease: a read of so few offsets from cache costs less than a scan kernel before
// the main one. Past it, the lengths' scan stays (its kernels cost little against so many segments).
constexpr int ORDER_CHECKED_SEGMENTS = 8192;

// Whether offsets[0] <= offsets[1] <= ... <= offsets[n], as the block's threads (all of them call) read them: the
// same answer in every thread, and in every block.
template <int BLOCK_THREADS, typename OffsetIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE bool offsets_ordered(OffsetIteratorT offsets, position_t n)
{
  constexpr int BATCH = 4;
  bool broken         = false;
  for (position_t first = threadIdx.x + 1; first <= n; first += BATCH * BLOCK_THREADS)
  {
    position_t before[BATCH];
    position_t at[BATCH];
    STRATA_UNROLL
    for (int u = 0; u < BATCH; ++u)
    {
      const position_t i = first + u * BLOCK_THREADS;
      const position_t j = i <= n ? i : n;
      before[u]          = static_cast<position_t>(offsets[j - 1]);
      at[u]              = static_cast<position_t>(offsets[j]);
    }
    STRATA_UNROLL
    for (int u = 0; u < BATCH; ++u)
    {
      broken |= at[u] < before[u];
    }
  }
  return __syncthreads_or(broken) == 0;
}

// The segment of merged position `diagonal`: the smallest s in [lo, hi] with P(s + 1) + s >= diagonal, when the
// answer lies in [lo, hi]. THREADS threads (rank 0..THREADS-1) search together, one probe each a round; count(pred)
// counts the threads whose probe lies before the answer (__syncthreads_count for a block, a ballot for a warp).
template <int THREADS, typename PrefixT, typename CountT>
STRATA_DEVICE STRATA_FORCEINLINE position_t merge_path_search(const PrefixT& prefix, position_t lo, position_t hi,
                                                              position_t diagonal, int rank, CountT count)
{
  while (lo < hi)
  {
    const position_t span  = hi - lo;
    const position_t step  = (span + THREADS - 1) / THREADS;
    const position_t probe = lo + static_cast<position_t>(rank) * step;
    const int before       = count(probe < hi && prefix(probe + 1) + probe < diagonal);
    // Probes lo, lo + step, ... before the answer are `before`; the answer is past the last of them.
    const position_t new_lo = before == 0 ? lo : lo + static_cast<position_t>(before - 1) * step + 1;
    const position_t new_hi = lo + static_cast<position_t>(before) * step;
    lo                      = new_lo;
    hi                      = new_hi < hi ? new_hi : hi;
  }
  return lo;
}

// Moves an edge between two shares at merged position `diagonal` (in `segment`, as merge_path_search finds it: the
// smallest s with P(s + 1) + s >= diagonal) out of a segment it would cut short on one side: past the segment's end
// when fewer than `items` (and no more than before it) of its items lie from the edge on, to its start when fewer
// than `items` lie before it; nothing for items <= 0, an edge at a segment's start, or one past the last segment. The
// moved edge keeps the convention, moves by at most `items` steps, and edges in order stay in order.
template <typename PrefixT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE void snap_edge(const PrefixT& prefix, position_t num_segments,
                                                     position_t& diagonal, position_t& segment, position_t items)
{
  if (items <= 0 || segment >= num_segments)
  {
    return;
  }
  const position_t item   = diagonal - segment;
  const position_t before = item - prefix(segment);
  const position_t after  = prefix(segment + 1) - item;
  if (before <= 0)
  {
    return;
  }
  if (after < items && after <= before)
  {
    segment += 1;
    diagonal = prefix(segment) + segment;
  }
  else if (before < items)
  {
    diagonal = prefix(segment) + segment;
  }
}

// A block's work in a segmented kernel of a one-wave grid: its even share [first, last) of all merged steps, and how
// the walk reads the items (contiguous: back to back from d_in[base] on; otherwise through the begin offsets).
struct block_work
{
  position_t first;
  position_t last;
  bool contiguous;
  position_t base;
};
template <typename PrefixT, typename BeginOffsetIteratorT>
STRATA_DEVICE STRATA_FORCEINLINE block_work plan_block(const PrefixT& prefix, position_t num_segments,
                                                       BeginOffsetIteratorT d_begin_offsets)
{
  block_work work;
  work.contiguous = prefix.contiguous(num_segments);
  work.base       = work.contiguous && num_segments > 0 ? static_cast<position_t>(d_begin_offsets[0]) : 0;
  even_share<position_t>::make(prefix(num_segments) + num_segments, 1, static_cast<int>(gridDim.x))
    .range(blockIdx.x, work.first, work.last);
  return work;
}

// The lanes' parts scanned under partial_op: `carry_in`, the carry and the parts of the lanes before; `aggregate`,
// the parts of all lanes (without the carry). A Kogge-Stone scan of the value and a word of flags (1: valid,
// 2: reset), two shuffles a step: a part that starts a segment keeps itself, one without a value takes the one
// before it.
template <typename AccumT, typename ReductionOpT>
STRATA_DEVICE STRATA_FORCEINLINE void scan_parts(const partial<AccumT>& part, const partial<AccumT>& carry,
                                                 ReductionOpT& op, int lane, partial<AccumT>& carry_in,
                                                 partial<AccumT>& aggregate)
{
  constexpr unsigned int ALL = 0xffffffffu;
  AccumT value               = part.value;
  unsigned int flags         = (part.valid ? 1u : 0u) | (part.reset ? 2u : 0u);
  STRATA_UNROLL
  for (int distance = 1; distance < 32; distance *= 2)
  {
    const AccumT before_value       = ShuffleUp<32>(value, distance, 0, ALL);
    const unsigned int before_flags = __shfl_up_sync(ALL, flags, distance);
    if (lane >= distance && (flags & 2u) == 0)
    {
      if (before_flags & 1u)
      {
        value = (flags & 1u) ? static_cast<AccumT>(op(before_value, value)) : before_value;
      }
      flags |= before_flags;
    }
  }
  const AccumT last_value         = ShuffleIndex<32>(value, 31, ALL);
  const unsigned int last_flags   = __shfl_sync(ALL, flags, 31);
  aggregate                       = partial<AccumT>{last_value, (last_flags & 1u) != 0, (last_flags & 2u) != 0};
  const AccumT before_value       = ShuffleUp<32>(value, 1, 0, ALL);
  const unsigned int before_flags = __shfl_up_sync(ALL, flags, 1);
  const partial_op<ReductionOpT> pop{op};
  carry_in =
    lane == 0 ? carry : pop(carry, partial<AccumT>{before_value, (before_flags & 1u) != 0, (before_flags & 2u) != 0});
}

// The words whose scan makes scanned_prefix's: the length of segment s (end[s] - begin[s], 0 where end <= begin) and,
// in bit 62, whether it breaks contiguity (ends before it begins, or does not begin where segment s - 1 ends).
template <typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
class length_iterator
{
public:
  using value_type        = position_t;
  using difference_type   = cuda::std::ptrdiff_t;
  using pointer           = void;
  using reference         = position_t;
  using iterator_category = cuda::std::random_access_iterator_tag;

  STRATA_HOST_DEVICE length_iterator(BeginOffsetIteratorT begin, EndOffsetIteratorT end, difference_type offset = 0)
      : begin_(begin)
      , end_(end)
      , offset_(offset)
  {}

  STRATA_HOST_DEVICE STRATA_FORCEINLINE position_t operator[](difference_type i) const
  {
    // The end before segment 0 is read as segment 0's own (and ignored): no branch around the load, so that the
    // reads of a run of lengths all go out before any of them is used.
    const difference_type s   = offset_ + i;
    const position_t first    = static_cast<position_t>(begin_[s]);
    const position_t last     = static_cast<position_t>(end_[s]);
    const position_t end_prev = static_cast<position_t>(end_[s > 0 ? s - 1 : s]);
    const bool broken         = last < first || (s > 0 && first != end_prev);
    return (last > first ? last - first : position_t(0)) | (broken ? scanned_prefix::BREAK : position_t(0));
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE position_t operator*() const
  {
    return (*this)[0];
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE length_iterator operator+(difference_type n) const
  {
    return length_iterator(begin_, end_, offset_ + n);
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE length_iterator operator-(difference_type n) const
  {
    return length_iterator(begin_, end_, offset_ - n);
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE difference_type operator-(const length_iterator& other) const
  {
    return offset_ - other.offset_;
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE length_iterator& operator+=(difference_type n)
  {
    offset_ += n;
    return *this;
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE length_iterator& operator++()
  {
    ++offset_;
    return *this;
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE bool operator==(const length_iterator& other) const
  {
    return offset_ == other.offset_;
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE bool operator!=(const length_iterator& other) const
  {
    return offset_ != other.offset_;
  }

private:
  BeginOffsetIteratorT begin_;
  EndOffsetIteratorT end_;
  difference_type offset_;
};

// The length word of segment s (length_iterator's), or 0 for s >= n, read at a valid index either way (segment 0's:
// the kernels run only where there is one): a run of them is loaded with no branch, all reads in flight at once.
template <typename LengthsT>
STRATA_DEVICE STRATA_FORCEINLINE position_t length_or_zero(const LengthsT& lengths, position_t s, position_t n)
{
  const position_t word = lengths[s < n ? s : position_t(0)];
  return s < n ? word : position_t(0);
}

// The offsets of segments of `size` items each, shifted by `shift` items (0: begins, size: ends).
struct fixed_offsets
{
  using value_type        = position_t;
  using difference_type   = cuda::std::ptrdiff_t;
  using pointer           = void;
  using reference         = position_t;
  using iterator_category = cuda::std::random_access_iterator_tag;

  position_t size;
  position_t shift;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE position_t operator[](difference_type s) const
  {
    return static_cast<position_t>(s) * size + shift;
  }
};

// Sums the lengths in the low 62 bits of scanned_prefix's words and keeps any break.
struct length_plus
{
  STRATA_HOST_DEVICE STRATA_FORCEINLINE position_t operator()(position_t a, position_t b) const
  {
    constexpr position_t LENGTH = scanned_prefix::BREAK - 1;
    return ((a & LENGTH) + (b & LENGTH)) | ((a | b) & scanned_prefix::BREAK);
  }
};

// P's words from the lengths of segments [0, n), n <= THREADS * ROWS, by a block of THREADS threads: warp w takes the
// ROWS rows of 32 consecutive segments from 32 ROWS w on, its lanes reading them a row at a time (coalesced, every
// row in flight at once); a warp scan per row, the rows' totals carried along the warp's rows, and the warps' totals
// (through shared memory, one barrier) carried to every later warp. store(i, word) gets words[i] for every i in
// [0, n], word 0 being P(0) = 0 with no break; consecutive lanes store consecutive words.
template <int THREADS, int ROWS>
struct lengths_scan
{
  static constexpr int WARPS = THREADS / 32;
  static_assert(THREADS % 32 == 0, "whole warps");
  using WarpScanT = WarpScan<position_t>;
  struct TempStorage
  {
    typename WarpScanT::TempStorage scan[WARPS];
    position_t totals[WARPS];
  };

  template <typename LengthsT, typename StoreT>
  static STRATA_DEVICE STRATA_FORCEINLINE void run(TempStorage& storage, const LengthsT& lengths, position_t n,
                                                   StoreT store)
  {
    const length_plus plus{};
    const int warp        = static_cast<int>(threadIdx.x) / 32;
    const int lane        = static_cast<int>(threadIdx.x) % 32;
    const position_t base = static_cast<position_t>(warp) * 32 * ROWS + lane;
    position_t word[ROWS];
    STRATA_UNROLL
    for (int r = 0; r < ROWS; ++r)
    {
      word[r] = length_or_zero(lengths, base + 32 * r, n);
    }
    position_t total = 0;
    STRATA_UNROLL
    for (int r = 0; r < ROWS; ++r)
    {
      position_t row_total;
      WarpScanT(storage.scan[warp]).InclusiveScan(word[r], word[r], plus, row_total);
      word[r] = plus(total, word[r]);
      total   = plus(total, row_total);
    }
    if (lane == 0)
    {
      storage.totals[warp] = total;
    }
    __syncthreads();
    position_t before = 0;
    for (int w = 0; w < warp; ++w)
    {
      before = plus(before, storage.totals[w]);
    }
    STRATA_UNROLL
    for (int r = 0; r < ROWS; ++r)
    {
      if (base + 32 * r < n)
      {
        store(base + 32 * r + 1, plus(before, word[r]));
      }
    }
    if (threadIdx.x == 0)
    {
      store(position_t(0), position_t(0));
    }
  }
};

// Up to this many segments, each block of the main kernel scans the lengths itself into shared memory
// (lengths_scan, 8 rows a warp at 256 threads): no scan kernels, no word array in global memory.
constexpr int LOCAL_PREFIX_SEGMENTS = 2048;

// Where the main kernel finds P: scanned_prefix's words from the scan kernels, or (words null) its block's own scan of
// the lengths; fixed_prefix needs neither, offsets_prefix only the first offset.
template <int BLOCK_THREADS, typename PrefixT, typename LengthsT>
struct local_prefix
{
  struct TempStorage
  {};
  static STRATA_DEVICE STRATA_FORCEINLINE void resolve(TempStorage&, PrefixT&, const LengthsT&, position_t) {}
};

template <int BLOCK_THREADS, typename LengthsT>
struct local_prefix<BLOCK_THREADS, scanned_prefix, LengthsT>
{
  static constexpr int ROWS = (LOCAL_PREFIX_SEGMENTS + BLOCK_THREADS - 1) / BLOCK_THREADS;
  using ScanT               = lengths_scan<BLOCK_THREADS, ROWS>;
  struct TempStorage
  {
    position_t words[ROWS * BLOCK_THREADS + 1];
    typename ScanT::TempStorage scan;
  };
  static STRATA_DEVICE STRATA_FORCEINLINE void resolve(TempStorage& storage, scanned_prefix& prefix,
                                                       const LengthsT& lengths, position_t num_segments)
  {
    if (prefix.words != nullptr)
    {
      return;
    }
    ScanT::run(storage.scan, lengths, num_segments, [&](position_t i, position_t word) {
      storage.words[i] = word;
    });
    __syncthreads();
    prefix.words = storage.words;
  }
};

template <int BLOCK_THREADS, typename OffsetIteratorT, typename LengthsT>
struct local_prefix<BLOCK_THREADS, offsets_prefix<OffsetIteratorT>, LengthsT>
{
  struct TempStorage
  {};
  static STRATA_DEVICE STRATA_FORCEINLINE void resolve(TempStorage&, offsets_prefix<OffsetIteratorT>& prefix,
                                                       const LengthsT&, position_t)
  {
    prefix.base = static_cast<position_t>(prefix.offsets[0]);
  }
};

// The shared memory of a block of a segmented algorithm's main kernel: its agent's and, beside it (P's words are read
// all through the walk), that of its own scan of the lengths. The kernels take it from dynamic shared memory, so that
// a block's own scan of more lengths may pass the 48 KiB of static shared memory.
template <typename AgentT, typename LocalPrefixT>
struct kernel_storage
{
  typename AgentT::TempStorage agent;
  typename LocalPrefixT::TempStorage prefix;
};

// The records of all warps' shares, folded in order under partial_op by one block: thread t takes a run of
// consecutive records and folds them (BATCH loads in flight at a time, the first BATCH kept in registers), a block
// scan gives each thread the fold of the records before its run, and a second pass over the run (in batches again,
// the later ones from cache) calls action(i, record, before) for every share's first record (even i) that names a
// segment, `before` being the fold of all records before it.
template <int BLOCK_THREADS, typename AccumT>
struct records_fold
{
  using PartialT             = partial<AccumT>;
  using BlockScanT           = BlockScan<PartialT, BLOCK_THREADS>;
  using TempStorage          = typename BlockScanT::TempStorage;
  static constexpr int BATCH = 8;

  template <typename RecordT, typename ReductionOpT, typename ActionT>
  static STRATA_DEVICE STRATA_FORCEINLINE void run(TempStorage& storage, const RecordT* d_records, int num_records,
                                                   ReductionOpT op, ActionT action)
  {
    const partial_op<ReductionOpT> pop{op};
    const PartialT none{AccumT{}, false, false};
    const int run   = (num_records + BLOCK_THREADS - 1) / BLOCK_THREADS;
    const int first = static_cast<int>(threadIdx.x) * run;
    const int last  = first + run < num_records ? first + run : num_records;
    const auto part = [&](const RecordT& r) {
      return r.segment >= 0 ? r.part : none;
    };
    const auto load = [&](RecordT(&batch)[BATCH], int base) {
      STRATA_UNROLL
      for (int u = 0; u < BATCH; ++u)
      {
        batch[u] = base + u < last ? d_records[base + u] : RecordT{-1, none};
      }
    };

    RecordT kept[BATCH];
    load(kept, first);
    PartialT folded = none;
    STRATA_UNROLL
    for (int u = 0; u < BATCH; ++u)
    {
      folded = pop(folded, part(kept[u]));
    }
    for (int base = first + BATCH; base < last; base += BATCH)
    {
      RecordT batch[BATCH];
      load(batch, base);
      STRATA_UNROLL
      for (int u = 0; u < BATCH; ++u)
      {
        folded = pop(folded, part(batch[u]));
      }
    }
    PartialT before;
    BlockScanT(storage).ExclusiveScan(folded, before, none, pop);
    const auto act = [&](const RecordT(&batch)[BATCH], int base) {
      STRATA_UNROLL
      for (int u = 0; u < BATCH; ++u)
      {
        const int i = base + u;
        if (i < last && batch[u].segment >= 0 && i % 2 == 0)
        {
          action(i, batch[u], before);
        }
        before = pop(before, part(batch[u]));
      }
    };
    act(kept, first);
    for (int base = first + BATCH; base < last; base += BATCH)
    {
      RecordT batch[BATCH];
      load(batch, base);
      act(batch, base);
    }
  }
};

} // namespace segmented
} // namespace detail

// One warp's walk of its share (see the file comment): the split, the loads and the staging of sub-tiles. The
// agents hold one and fold the lanes' items themselves. PolicyT: BLOCK_THREADS, ITEMS_PER_THREAD, SEGMENTS_PER_TILE.
// OutputT: what an agent may stage in place of a sub-tile's items once it has read them (the scan's outputs, written
// out coalesced).
template <typename PolicyT, typename InputIteratorT, typename BeginOffsetIteratorT, typename PrefixT,
          typename OutputT = detail::it_value_t<InputIteratorT>>
class AgentSegmentedWalk
{
public:
  static constexpr int BLOCK_THREADS     = PolicyT::BLOCK_THREADS;
  static constexpr int WARPS             = BLOCK_THREADS / 32;
  static constexpr int ITEMS_PER_THREAD  = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS        = 32 * ITEMS_PER_THREAD;
  static constexpr int SEGMENTS_PER_TILE = PolicyT::SEGMENTS_PER_TILE;
  static constexpr int SEGMENTS_PER_LANE = SEGMENTS_PER_TILE / 32;
  static_assert(BLOCK_THREADS % 32 == 0, "whole warps");
  static_assert(ITEMS_PER_THREAD < 32, "the ends in a lane's items are bits 0..ITEMS_PER_THREAD of a 32-bit mask");
  static_assert(SEGMENTS_PER_TILE % 32 == 0, "every lane stages the same number of segment ends");
  // A staged end this far (or farther) past the sub-tile's first item is past every sub-tile.
  static constexpr int FAR = 1 << 30;
  // The staged items, one padding slot after every 32, so that lanes reading runs of consecutive items hit different
  // banks.
  static constexpr int PADDED_ITEMS = TILE_ITEMS + TILE_ITEMS / 32;

  using position_t = detail::segmented::position_t;
  using InputT     = detail::it_value_t<InputIteratorT>;

  // Where a sub-tile starts: item `item` (counted over all segments) of `segment`, or the end of `segment` when it
  // has no items left; `start` is P(segment). `window`: how many segment ends the sub-tile stages.
  struct cursor
  {
    position_t segment;
    position_t item;
    position_t start;
    int window;
  };

  // What a sub-tile needs from global memory, loaded before the sub-tile before it is worked on: the ends
  // P(s + k + 1) of its segments (k striped over the lanes) and, where the items lie back to back, its items
  // (striped).
  struct loads
  {
    position_t ends[SEGMENTS_PER_LANE];
    InputT items[ITEMS_PER_THREAD];
  };

  // A staged sub-tile: `items` items from its cursor on and the ends of its first `ends` staged segments (of
  // `segments` staged).
  struct tile
  {
    int segments;
    int items;
    int ends;
  };

  // One warp's shared memory.
  struct WarpStorage
  {
    // The sub-tile's segments s + k, relative to its first item i: where each ends (P(s + k + 1) - i, at most FAR);
    // the ends among lane l's items (bit j: one before item l * ITEMS_PER_THREAD + j) and the first segment k ending
    // there; and either the items (back to back; then an agent's outputs in their slots) or the segments' begin
    // offsets (gathered).
    int end[SEGMENTS_PER_TILE];
    unsigned int ends_mask[32];
    int first_end[32];
    union
    {
      Uninitialized<InputT> items[PADDED_ITEMS];
      Uninitialized<OutputT> outputs[PADDED_ITEMS];
      position_t begin[SEGMENTS_PER_TILE];
    } source;
  };

  struct TempStorage
  {
    WarpStorage warp[WARPS];
    position_t warp_segment[WARPS + 1];  // the segment of each warp's first step, and of the block's end
    position_t warp_diagonal[WARPS + 1]; // and their merged positions
  };

  // contiguous: the items of all segments lie back to back from d_in[base] on (P(s) items before segment s).
  STRATA_DEVICE STRATA_FORCEINLINE AgentSegmentedWalk(TempStorage& temp_storage, InputIteratorT d_items,
                                                      BeginOffsetIteratorT d_begin_offsets, PrefixT segment_prefix,
                                                      position_t segments, bool back_to_back, position_t first_item)
      : temp_storage_(temp_storage)
      , storage(temp_storage.warp[threadIdx.x / 32])
      , warp(static_cast<int>(threadIdx.x / 32))
      , lane(static_cast<int>(threadIdx.x % 32))
      , d_in(d_items)
      , d_begin(d_begin_offsets)
      , prefix(segment_prefix)
      , num_segments(segments)
      , contiguous(back_to_back)
      , base(first_item)
  {}

  // Splits the block's merged steps [diagonal_begin, diagonal_end) evenly between its warps (every thread of the
  // block calls); returns the cursor of this warp's first step and sets end_segment / end_item to its last. With
  // snap_items > 0, every edge between shares (the block's too) that would cut fewer than snap_items items off one
  // side of a segment moves to that side's end of the segment (Snap), so that no share holds a short part of a long
  // segment; both shares at an edge move it alike.
  STRATA_DEVICE STRATA_FORCEINLINE cursor Split(position_t diagonal_begin, position_t diagonal_end,
                                                position_t snap_items = 0)
  {
    using detail::segmented::merge_path_search;
    const auto block_count = [](bool before) {
      return __syncthreads_count(before);
    };
    const auto warp_count = [](bool before) {
      return __popc(__ballot_sync(0xffffffffu, before));
    };
    const position_t first_segment =
      merge_path_search<BLOCK_THREADS>(prefix, position_t(0), num_segments, diagonal_begin, threadIdx.x, block_count);
    const position_t last_segment =
      merge_path_search<BLOCK_THREADS>(prefix, first_segment, num_segments, diagonal_end, threadIdx.x, block_count);
    // The warp's first step; its last is the next warp's first (or the block's end), as that warp finds it.
    position_t begin = 0;
    position_t end   = 0;
    detail::even_share<position_t>::make(diagonal_end - diagonal_begin, 1, WARPS).range(warp, begin, end);
    begin += diagonal_begin;
    position_t segment = merge_path_search<32>(prefix, first_segment, last_segment, begin, lane, warp_count);
    Snap(begin, segment, snap_items);
    if (lane == 0)
    {
      temp_storage_.warp_segment[warp]  = segment;
      temp_storage_.warp_diagonal[warp] = begin;
    }
    if (threadIdx.x == 0)
    {
      position_t last     = last_segment;
      position_t diagonal = diagonal_end;
      Snap(diagonal, last, snap_items);
      temp_storage_.warp_segment[WARPS]  = last;
      temp_storage_.warp_diagonal[WARPS] = diagonal;
    }
    __syncthreads();
    end_segment = temp_storage_.warp_segment[warp + 1];
    end_item    = temp_storage_.warp_diagonal[warp + 1] - end_segment;
    cursor at;
    at.segment = segment;
    at.item    = begin - segment;
    at.start   = segment < num_segments ? prefix(segment) : at.item;
    at.window  = 32;
    return at;
  }

  // Moves the edge at `diagonal` out of a segment it would cut short (detail::segmented::snap_edge).
  STRATA_DEVICE STRATA_FORCEINLINE void Snap(position_t& diagonal, position_t& segment, position_t items) const
  {
    detail::segmented::snap_edge(prefix, num_segments, diagonal, segment, items);
  }

  // Whether steps of the share are left from `at` on.
  STRATA_DEVICE STRATA_FORCEINLINE bool Left(const cursor& at) const
  {
    return at.item < end_item || at.segment < end_segment;
  }

  // Whether the segment open at `at` starts there (its first item, or its end when it is empty).
  STRATA_DEVICE STRATA_FORCEINLINE bool Starts(const cursor& at) const
  {
    return at.segment < num_segments && at.item == at.start;
  }

  // Whether the segment open after the share's last step goes on past it (the next share does not start it).
  STRATA_DEVICE STRATA_FORCEINLINE bool OpenAtEnd() const
  {
    return end_segment < num_segments && end_item > prefix(end_segment);
  }

  // The items of at.segment from `at` on in the share (read from P).
  STRATA_DEVICE STRATA_FORCEINLINE position_t Run(const cursor& at) const
  {
    return (at.segment < end_segment ? prefix(at.segment + 1) : end_item) - at.item;
  }

  // Where the segment after at.segment ends in the share (at.segment < end_segment): P(at.segment + 2), or the
  // share's last item where that segment is the share's last.
  STRATA_DEVICE STRATA_FORCEINLINE position_t NextEnd(const cursor& at) const
  {
    return at.segment + 1 < end_segment ? prefix(at.segment + 2) : end_item;
  }

  // How many segments (from at.segment on) a sub-tile at `at` stages, and how many items (from at.item on) it may
  // take at most.
  STRATA_DEVICE STRATA_FORCEINLINE int WindowSegments(const cursor& at) const
  {
    const position_t left = num_segments - at.segment;
    return left < position_t(at.window) ? static_cast<int>(left) : at.window;
  }
  STRATA_DEVICE STRATA_FORCEINLINE int WindowItems(const cursor& at) const
  {
    const position_t left = end_item - at.item;
    return left < position_t(TILE_ITEMS) ? static_cast<int>(left) : TILE_ITEMS;
  }

  // Issues the loads of the sub-tile at `at` (coalesced: lane l takes k and items l, l + 32, ...).
  STRATA_DEVICE STRATA_FORCEINLINE void Load(const cursor& at, loads& into) const
  {
    const int segments = WindowSegments(at);
    STRATA_UNROLL
    for (int j = 0; j < SEGMENTS_PER_LANE; ++j)
    {
      const int k = lane + 32 * j;
      if (k < segments)
      {
        into.ends[j] = prefix(at.segment + k + 1);
      }
    }
    if (contiguous)
    {
      const int items       = WindowItems(at);
      const position_t from = base + at.item;
      STRATA_UNROLL
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        const int i = lane + 32 * j;
        if (i < items)
        {
          into.items[j] = d_in[from + i];
        }
      }
    }
  }

  // Stages the sub-tile at `at` from its loads: its ends and items (gathered segments: their begin offsets, read
  // now) in shared memory; its items: not past the last staged end when more segments follow it; its ends: the
  // staged ones at or before its last item, of the share's segments, marked in the lanes' masks. Leaves the cursor
  // after it in `after` (and the window there: twice this sub-tile's ends).
  STRATA_DEVICE STRATA_FORCEINLINE tile Frame(const cursor& at, const loads& from, cursor& after)
  {
    tile t;
    t.segments = WindowSegments(at);
    int staged[SEGMENTS_PER_LANE];
    STRATA_UNROLL
    for (int j = 0; j < SEGMENTS_PER_LANE; ++j)
    {
      const int k = lane + 32 * j;
      staged[j]   = FAR;
      if (k < t.segments)
      {
        const position_t end = from.ends[j] - at.item;
        staged[j]            = end < position_t(FAR) ? static_cast<int>(end) : FAR;
        storage.end[k]       = staged[j];
        if (!contiguous)
        {
          storage.source.begin[k] = static_cast<position_t>(d_begin[at.segment + k]);
        }
      }
    }
    storage.ends_mask[lane] = 0;
    storage.first_end[lane] = FAR;
    t.items                 = WindowItems(at);
    if (contiguous)
    {
      STRATA_UNROLL
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        const int i = lane + 32 * j;
        if (i < t.items)
        {
          storage.source.items[Padded(i)].Alias() = from.items[j];
        }
      }
    }
    __syncwarp();

    if (position_t(t.segments) < num_segments - at.segment)
    {
      t.items = t.items < storage.end[t.segments - 1] ? t.items : storage.end[t.segments - 1];
    }
    // The ends are in order, so the lanes count them.
    const position_t share_segments = end_segment - at.segment;
    const int limit = share_segments < position_t(t.segments) ? static_cast<int>(share_segments) : t.segments;
    t.ends          = 0;
    STRATA_UNROLL
    for (int j = 0; j < SEGMENTS_PER_LANE; ++j)
    {
      const int k = lane + 32 * j;
      t.ends += __popc(__ballot_sync(0xffffffffu, k < limit && staged[j] <= t.items));
    }
    STRATA_UNROLL
    for (int j = 0; j < SEGMENTS_PER_LANE; ++j)
    {
      const int k = lane + 32 * j;
      if (k < t.ends)
      {
        const int end   = staged[j];
        const int owner = end / ITEMS_PER_THREAD < 32 ? end / ITEMS_PER_THREAD : 31;
        atomicOr(&storage.ends_mask[owner], 1u << (end - owner * ITEMS_PER_THREAD));
        atomicMin(&storage.first_end[owner], k);
      }
    }
    after.segment  = at.segment + t.ends;
    after.item     = at.item + t.items;
    after.start    = t.ends == 0 ? at.start : at.item + storage.end[t.ends - 1];
    const int grow = (2 * t.ends + 31) / 32 * 32;
    after.window   = grow < 32 ? 32 : grow < SEGMENTS_PER_TILE ? grow : SEGMENTS_PER_TILE;
    __syncwarp(); // the lanes' ends
    return t;
  }

  // The items of after.segment from `after` on in the share, where the staged ends of the sub-tile before it tell
  // (-1 otherwise: past the window, or past FAR).
  STRATA_DEVICE STRATA_FORCEINLINE position_t NextRun(const cursor& at, const tile& t, const cursor& after) const
  {
    if (after.segment == end_segment)
    {
      return end_item - after.item;
    }
    if (t.ends < t.segments && storage.end[t.ends] < FAR)
    {
      return at.item + storage.end[t.ends] - after.item;
    }
    return -1;
  }

  // The staged segment of the lane's first item (the first whose end is at or after it; t.ends where none is).
  STRATA_DEVICE STRATA_FORCEINLINE int FirstSegment(const tile& t) const
  {
    if (storage.ends_mask[lane] != 0)
    {
      return storage.first_end[lane];
    }
    int lo = 0;
    int hi = t.ends;
    while (lo < hi)
    {
      const int mid = (lo + hi) / 2;
      if (storage.end[mid] < lane * ITEMS_PER_THREAD)
      {
        lo = mid + 1;
      }
      else
      {
        hi = mid;
      }
    }
    return lo;
  }

  // Item e of the sub-tile lies at position Offset(at, kk) + e of its staged segment kk.
  STRATA_DEVICE STRATA_FORCEINLINE position_t Offset(const cursor& at, int kk) const
  {
    return kk == 0 ? at.item - at.start : -static_cast<position_t>(storage.end[kk - 1]);
  }

  // Item e of the sub-tile, of staged segment kk at `offset` (Offset(at, kk)).
  STRATA_DEVICE STRATA_FORCEINLINE InputT Item(int e, int kk, position_t offset) const
  {
    return contiguous ? InputT(storage.source.items[Padded(e)].Alias())
                      : InputT(d_in[storage.source.begin[kk] + offset + e]);
  }

  STRATA_DEVICE STRATA_FORCEINLINE static int Padded(int item)
  {
    return item + (item >> 5);
  }

private:
  TempStorage& temp_storage_;

public:
  WarpStorage& storage;
  int warp;
  int lane;
  InputIteratorT d_in;
  BeginOffsetIteratorT d_begin;
  PrefixT prefix;
  position_t num_segments;
  bool contiguous;
  position_t base;
  position_t end_segment = 0; // the share's last step: its segment and item
  position_t end_item    = 0;
};

STRATA_NAMESPACE_END
