// AgentTopKHistogram and AgentTopKPass: the block-wide bodies of DeviceTopK's radix select
// (device/dispatch/dispatch_topk.cuh launches them).
//
// A key is read as its radix sort image (key_codec: bit-ordered, -0.0 read as +0.0, complemented where the largest
// keys are wanted), so the items wanted are those with the k smallest images, and the search for them fixes the
// k-th smallest image digit by digit, from the most significant. Round r looks at digit r (RADIX_BITS bits) of its
// candidates, every item in round 0 and afterwards the items whose images agree with the k-th one's in the digits
// already fixed. The histogram of the digit over the candidates names the bucket b in which the running count of
// candidates reaches `wanted`, the number still to select: candidates whose digit is below b are selected, those
// whose digit is b are the next round's candidates, the others are never selected. A round is final where the
// bucket's candidates all fit (`below + bucket_items == wanted`) or where no digit is left: then the bucket's first
// `wanted - below` candidates in input order are selected too, so among items equal to the k-th, those at the
// smallest input positions are taken.
//
// Every count stays in device memory, in one plan per round (round_plan): the block that adds the last counts of a
// round's histogram (the last to take a ticket) plans that round, and the round's blocks read the plan. So the host
// launches every round without knowing how many candidates it has, and rounds after a final one return at once.
//
// - AgentTopKHistogram counts digit 0 of every input key (grid-strided tiles, per-block shared counters) and plans
//   round 0.
// - AgentTopKPass runs one round: a single pass over its candidates' source, tiles claimed in launch order by one
//   wave of resident blocks, with a decoupled look-back over pairs of counts (selected, in the bucket) as the
//   three-way partition's. The selected items go to the output after the earlier rounds' ones, in input order, and in
//   a final round the bucket's selected items after them; in a round that is not final the bucket's items go, in
//   input order, to a candidate buffer for the next round, and their next digit is counted on the way (so no round
//   reads its candidates twice). Then its last block plans the next round.
//
// Where the next round's candidates are (candidate_source): the input itself, read again and filtered by the digits
// fixed so far; or one of two buffers of `capacity` items, written by the round before, each round writing the buffer
// it does not read. A round writes its bucket's items only when they are fewer than all its candidates (otherwise
// the next round reads the same source) and fit a buffer (otherwise the next round reads the input again): buffers of
// a fraction of the input (CANDIDATE_SHARE) bound the temporary storage, and a round costs at most one read of the
// input.
#pragma once

#include <strata/agent/agent_scan.cuh>
#include <strata/agent/agent_select.cuh>
#include <strata/agent/agent_three_way_partition.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/block/block_load.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/atomic>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The knobs of AgentTopKHistogram: ITEMS_PER_THREAD keys per thread and tile, read striped.
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_>
struct AgentTopKHistogramPolicy
{
  static constexpr int BLOCK_THREADS    = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS       = BLOCK_THREADS * ITEMS_PER_THREAD;
};

// The knobs of AgentTopKPass (those of AgentSelectPolicy, and two of the select itself). RADIX_BITS: the digit of a
// round (at most 12: a block keeps a counter per digit value in static shared memory); it sets the rounds, and so the
// order of an unsorted result, never the set selected. CANDIDATE_SHARE: each of the two candidate buffers holds 1 /
// CANDIDATE_SHARE of the input. The grid is always one wave of resident blocks taking tiles from a counter.
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, int RADIX_BITS_, int CANDIDATE_SHARE_,
          BlockLoadAlgorithm LOAD_ALGORITHM_, CacheLoadModifier LOAD_MODIFIER_, BlockScanAlgorithm SCAN_ALGORITHM_,
          int LOOK_BACK_DELAY_NS_ = 32, int LOOK_BACK_MAX_DELAY_NS_ = 256, int PREFETCH_QUARTER_WAVES_ = 4,
          int MIN_BLOCKS_PER_SM_ = 1>
struct AgentTopKPolicy
{
  static constexpr int BLOCK_THREADS                 = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD              = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS                    = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr int RADIX_BITS                    = RADIX_BITS_;
  static constexpr int CANDIDATE_SHARE               = CANDIDATE_SHARE_;
  static constexpr BlockLoadAlgorithm LOAD_ALGORITHM = LOAD_ALGORITHM_;
  static constexpr CacheLoadModifier LOAD_MODIFIER   = LOAD_MODIFIER_;
  static constexpr BlockScanAlgorithm SCAN_ALGORITHM = SCAN_ALGORITHM_;
  static constexpr int LOOK_BACK_DELAY_NS            = LOOK_BACK_DELAY_NS_;
  static constexpr int LOOK_BACK_MAX_DELAY_NS        = LOOK_BACK_MAX_DELAY_NS_;
  static constexpr int PREFETCH_QUARTER_WAVES        = PREFETCH_QUARTER_WAVES_;
  static constexpr bool PERSISTENT                   = true;
  static constexpr int MIN_BLOCKS_PER_SM             = MIN_BLOCKS_PER_SM_;
  static_assert(RADIX_BITS >= 1 && RADIX_BITS <= 12, "digits of 1 to 12 bits");
  static_assert(CANDIDATE_SHARE >= 1, "a candidate buffer holds at most the input");
};

namespace detail
{
namespace topk
{
// The image of a key as one word that BFE takes (32 bits for keys of up to 4 bytes, else 64).
template <typename KeyT>
using word_t = radix_sort::bfe_word_t<typename radix_traits<KeyT>::bit_ordered_type>;

// The rounds of keys of KEY_BITS bits in digits of RADIX_BITS: round r's digit is bits [shift(r), high(r)) of the
// image, the most significant first; the last round's digit may be narrower.
template <int KEY_BITS, int RADIX_BITS>
struct radix_rounds
{
  static constexpr int ROUNDS = (KEY_BITS + RADIX_BITS - 1) / RADIX_BITS;
  static constexpr int BINS   = 1 << RADIX_BITS;

  static STRATA_HOST_DEVICE constexpr int high(int round)
  {
    return KEY_BITS - round * RADIX_BITS;
  }
  static STRATA_HOST_DEVICE constexpr int shift(int round)
  {
    return high(round) > RADIX_BITS ? high(round) - RADIX_BITS : 0;
  }
  static STRATA_HOST_DEVICE constexpr int width(int round)
  {
    return high(round) - shift(round);
  }
  // The image bits above round r's digit, those the earlier rounds fixed.
  template <typename WordT>
  static STRATA_HOST_DEVICE constexpr WordT prefix_mask(int round)
  {
    return round == 0 ? WordT(0) : static_cast<WordT>(~WordT(0) << high(round));
  }
};

// Where a round reads its candidates.
enum candidate_source : cuda::std::uint32_t
{
  source_input    = 0, // the input, filtered by the image bits fixed so far
  source_buffer_a = 1,
  source_buffer_b = 2,
};

enum round_status : cuda::std::uint32_t
{
  round_idle   = 0, // nothing to do: an earlier round was final (the state every plan starts in)
  round_refine = 1, // the bucket's candidates go on to the next round
  round_final  = 2, // the bucket's first `bucket_taken` candidates are selected, and the selection is complete
};

// The plan of one round, written by the block that completes its histogram and read by the round's blocks. The
// fields up to `source` come from the round before (the base of the plan), the others from the histogram.
template <typename OffsetT, typename WordT>
struct round_plan
{
  OffsetT source_items;            // items the round reads from its source
  OffsetT candidates;              // of those, the round's candidates: the items whose image starts with `prefix`
  OffsetT wanted;                  // how many candidates this round and the ones after it select (at least 1)
  OffsetT out_base;                // the output position of the round's first selected item
  WordT prefix;                    // the image bits above the round's digit, shared by every candidate
  cuda::std::uint32_t source;      // candidate_source
  OffsetT below;                   // candidates whose digit is below `bucket`: selected, from out_base on
  OffsetT bucket_items;            // candidates whose digit is `bucket`
  OffsetT bucket_taken;            // a final round's selected candidates of the bucket: from out_base + below on
  cuda::std::uint32_t bucket;      // the digit of the k-th smallest image
  cuda::std::uint32_t next_source; // where the next round's candidates are (the round writes a buffer it names)
  cuda::std::uint32_t status;      // round_status
};

// What every kernel of one selection shares, all in temporary storage: the plans, tickets and tile counters (cleared
// by the first kernel: a cleared plan is round_idle), the rounds' histograms and look-back arrays.
template <typename OffsetT, typename WordT>
struct select_control
{
  round_plan<OffsetT, WordT>* plans; // one per round
  unsigned int* blocks_done;         // the tickets of the histogram kernel (0) and of each round (1 + round)
  unsigned int* tile_counters;       // one per round
  OffsetT* histograms;               // one row of 2^RADIX_BITS counts per round
  char* tile_states;                 // one look-back array of `state_tiles` tiles per round,
  size_t tile_state_bytes;           // `tile_state_bytes` apart
  size_t state_tiles;
  OffsetT num_items;
  OffsetT capacity; // items of each candidate buffer
};

// The two candidate buffers (values: NullType pointers for keys only).
template <typename KeyT, typename ValueT>
struct candidate_buffers
{
  KeyT* keys[2];
  ValueT* values[2];

  // The buffer a candidate_source names (source_buffer_a or source_buffer_b), picked by a select rather than by an
  // index, which would put the whole struct in local memory.
  STRATA_DEVICE STRATA_FORCEINLINE KeyT* keys_of(cuda::std::uint32_t source) const
  {
    return source == source_buffer_b ? keys[1] : keys[0];
  }
  STRATA_DEVICE STRATA_FORCEINLINE ValueT* values_of(cuda::std::uint32_t source) const
  {
    return source == source_buffer_b ? values[1] : values[0];
  }
};

// *counter += value in shared or global memory, for the 32- and 64-bit counts of either offset type.
template <typename OffsetT>
STRATA_DEVICE STRATA_FORCEINLINE void add_count(OffsetT* counter, OffsetT value)
{
  if constexpr (sizeof(OffsetT) == 8)
  {
    atomicAdd(reinterpret_cast<unsigned long long*>(counter), static_cast<unsigned long long>(value));
  }
  else
  {
    atomicAdd(reinterpret_cast<unsigned int*>(counter), static_cast<unsigned int>(value));
  }
}

// A round's source read through one type: the input (an iterator of any kind) or a candidate buffer, picked at run
// time on each access. Where the input is not a pointer to the buffers' type, this keeps one body of the tile code
// for both sources (two would hold the registers of both).
template <typename IteratorT, typename T>
struct either_source
{
  using value_type        = T;
  using difference_type   = cuda::std::ptrdiff_t;
  using pointer           = const T*;
  using reference         = T;
  using iterator_category = cuda::std::random_access_iterator_tag;

  IteratorT input;
  const T* buffer;
  difference_type offset;
  bool from_buffer;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE T operator[](difference_type i) const
  {
    return from_buffer ? buffer[offset + i] : static_cast<T>(input[offset + i]);
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE T operator*() const
  {
    return (*this)[0];
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE either_source operator+(difference_type n) const
  {
    either_source moved = *this;
    moved.offset += n;
    return moved;
  }
};

// The source of a round: the input or the buffer, as a pointer where the input is one of T's, else either_source.
template <typename T, typename IteratorT>
STRATA_DEVICE STRATA_FORCEINLINE auto make_source(IteratorT input, const T* buffer, bool from_input)
{
  if constexpr (cuda::std::is_convertible<IteratorT, const T*>::value)
  {
    return from_input ? static_cast<const T*>(input) : buffer;
  }
  else
  {
    return either_source<IteratorT, T>{input, buffer, 0, !from_input};
  }
}

// The look-back state of the rounds: how many items each round has selected so far and how many of its bucket it has
// passed (three_way_partition's pair of counts).
template <typename OffsetT>
using tile_state_t = ScanTileState<three_way_partition::part_counts<OffsetT>>;

// Plans a round: the bucket of its histogram row in which the running count of candidates reaches base.wanted, and
// from it what the round does. Called by every thread of the one block that saw the row complete (the row's counts
// added by every other block before their tickets); the thread whose bins hold the bucket writes the plan.
template <int BLOCK_THREADS, int RADIX_BITS, int KEY_BITS, typename OffsetT, typename WordT>
struct round_planner
{
  using rounds                         = radix_rounds<KEY_BITS, RADIX_BITS>;
  static constexpr int BINS            = rounds::BINS;
  static constexpr int BINS_PER_THREAD = (BINS + BLOCK_THREADS - 1) / BLOCK_THREADS;
  using BlockScanT                     = BlockScan<OffsetT, BLOCK_THREADS>;
  using TempStorage                    = typename BlockScanT::TempStorage;

  static STRATA_DEVICE STRATA_FORCEINLINE void plan(TempStorage& storage, const round_plan<OffsetT, WordT>& base,
                                                    int round, OffsetT* row, OffsetT capacity,
                                                    round_plan<OffsetT, WordT>* out)
  {
    // Each thread holds consecutive bins; a scan of their sums gives each thread the candidates below its bins.
    OffsetT counts[BINS_PER_THREAD];
    OffsetT sum = 0;
    STRATA_UNROLL
    for (int j = 0; j < BINS_PER_THREAD; ++j)
    {
      const int bin = static_cast<int>(threadIdx.x) * BINS_PER_THREAD + j;
      counts[j]     = bin < BINS
                      ? cuda::atomic_ref<OffsetT, cuda::thread_scope_device>(row[bin]).load(cuda::std::memory_order_relaxed)
                      : OffsetT(0);
      sum += counts[j];
    }
    OffsetT before = 0;
    BlockScanT(storage).ExclusiveSum(sum, before);
    if (!(before < base.wanted && base.wanted <= before + sum))
    {
      return;
    }
    round_plan<OffsetT, WordT> plan = base;
    OffsetT below                   = before;
    int bucket                      = 0;
    bool found                      = false;
    STRATA_UNROLL
    for (int j = 0; j < BINS_PER_THREAD; ++j)
    {
      if (!found)
      {
        if (below + counts[j] >= base.wanted)
        {
          bucket            = static_cast<int>(threadIdx.x) * BINS_PER_THREAD + j;
          plan.bucket_items = counts[j];
          found             = true;
        }
        else
        {
          below += counts[j];
        }
      }
    }
    plan.bucket         = static_cast<cuda::std::uint32_t>(bucket);
    plan.below          = below;
    const bool last     = round + 1 == rounds::ROUNDS;
    const bool is_final = last || below + plan.bucket_items == base.wanted;
    plan.status         = is_final ? round_final : round_refine;
    plan.bucket_taken   = is_final ? base.wanted - below : OffsetT(0);
    if (is_final || plan.bucket_items == base.candidates)
    {
      plan.next_source = base.source; // nothing to write: the next round (if any) reads the same candidates
    }
    else if (plan.bucket_items <= capacity)
    {
      plan.next_source = base.source == source_buffer_a ? source_buffer_b : source_buffer_a;
    }
    else
    {
      plan.next_source = source_input;
    }
    *out = plan;
  }

  // The base of the plan of the round after `plan`'s (round `round`), which refines.
  static STRATA_DEVICE STRATA_FORCEINLINE round_plan<OffsetT, WordT> next_base(const round_plan<OffsetT, WordT>& plan,
                                                                               int round, OffsetT num_items)
  {
    round_plan<OffsetT, WordT> next{};
    next.source       = plan.next_source;
    next.candidates   = plan.bucket_items;
    next.source_items = plan.next_source == source_input ? num_items : plan.bucket_items;
    next.wanted       = plan.wanted - plan.below;
    next.out_base     = plan.out_base + plan.below;
    next.prefix       = static_cast<WordT>(plan.prefix | (static_cast<WordT>(plan.bucket) << rounds::shift(round)));
    return next;
  }
};

// Adds a block's shared counts to a histogram row in global memory (the bins it has counted), then takes the
// kernel's ticket: true in the one block that takes the last, which then sees every block's counts.
template <int BLOCK_THREADS, int BINS, typename OffsetT>
STRATA_DEVICE STRATA_FORCEINLINE bool add_counts_and_take_ticket(const OffsetT (&counts)[BINS], OffsetT* row,
                                                                 bool any_counted, unsigned int* blocks_done,
                                                                 bool& last_block)
{
  if (any_counted)
  {
    for (int bin = static_cast<int>(threadIdx.x); bin < BINS; bin += BLOCK_THREADS)
    {
      const OffsetT count = counts[bin];
      if (count != OffsetT(0))
      {
        cuda::atomic_ref<OffsetT, cuda::thread_scope_device>(row[bin]).fetch_add(count,
                                                                                 cuda::std::memory_order_relaxed);
      }
    }
  }
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0)
  {
    last_block = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block)
  {
    return false;
  }
  __threadfence();
  return true;
}
} // namespace topk
} // namespace detail

// Counts digit 0 of every key into the histogram of round 0, then the last block plans round 0. SELECT_MAX: the
// largest keys are wanted (the images complemented).
template <typename PolicyT, int RADIX_BITS, typename KeyT, typename OffsetT, bool SELECT_MAX>
class AgentTopKHistogram
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;

  using CodecT              = detail::radix_sort::key_codec<KeyT, SELECT_MAX>;
  using WordT               = detail::topk::word_t<KeyT>;
  using rounds              = detail::topk::radix_rounds<CodecT::BITS, RADIX_BITS>;
  using PlannerT            = detail::topk::round_planner<BLOCK_THREADS, RADIX_BITS, CodecT::BITS, OffsetT, WordT>;
  static constexpr int BINS = rounds::BINS;

public:
  // The shared counts are of OffsetT: a block's share of more than 2^31 items may pass 32 bits.
  struct TempStorage
  {
    union
    {
      OffsetT counts[BINS];
      typename PlannerT::TempStorage plan;
    };
    bool last_block;
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentTopKHistogram(TempStorage& temp_storage,
                                                      const detail::topk::select_control<OffsetT, WordT>& control)
      : storage_(temp_storage)
      , control_(control)
  {}

  // `k`: the number of keys to select (1 to num_items).
  template <typename KeyInputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Process(KeyInputIteratorT keys_in, OffsetT k)
  {
    for (int bin = static_cast<int>(threadIdx.x); bin < BINS; bin += BLOCK_THREADS)
    {
      storage_.counts[bin] = OffsetT(0);
    }
    __syncthreads();

    // This block's tiles, strided by the grid. The input is the caller's, written before the selection began: it
    // is read before the wait for the kernel that clears the histograms.
    const OffsetT num_items  = control_.num_items;
    const unsigned int shift = static_cast<unsigned int>(rounds::shift(0));
    const unsigned int width = static_cast<unsigned int>(rounds::width(0));
    for (OffsetT tile_begin = static_cast<OffsetT>(blockIdx.x) * OffsetT(TILE_ITEMS); tile_begin < num_items;
         tile_begin += static_cast<OffsetT>(gridDim.x) * OffsetT(TILE_ITEMS))
    {
      const OffsetT rest = num_items - tile_begin;
      if (rest >= OffsetT(TILE_ITEMS))
      {
        count_tile<true>(keys_in, tile_begin, TILE_ITEMS, shift, width);
      }
      else
      {
        count_tile<false>(keys_in, tile_begin, static_cast<int>(rest), shift, width);
      }
    }
    __syncthreads();

    // The first round may launch now; it waits for this grid before reading anything.
    GridLaunchDependents();
    GridDependencyWait();
    if (!detail::topk::add_counts_and_take_ticket<BLOCK_THREADS, BINS>(storage_.counts, control_.histograms, true,
                                                                       control_.blocks_done, storage_.last_block))
    {
      return;
    }
    detail::topk::round_plan<OffsetT, WordT> base{};
    base.source       = detail::topk::source_input;
    base.source_items = num_items;
    base.candidates   = num_items;
    base.wanted       = k;
    base.out_base     = OffsetT(0);
    base.prefix       = WordT(0);
    PlannerT::plan(storage_.plan, base, 0, control_.histograms, control_.capacity, control_.plans);
  }

private:
  // Counts the digits of the `valid` keys of the tile at `tile_begin` (striped over the threads). A thread adds a run
  // of equal digits among its keys with one atomic, so that inputs of few distinct digits (all keys equal, sorted
  // keys) do not serialize the block on one counter.
  template <bool FULL, typename KeyInputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void count_tile(KeyInputIteratorT keys_in, OffsetT tile_begin, int valid,
                                                   unsigned int shift, unsigned int width)
  {
    KeyT keys[ITEMS_PER_THREAD];
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int idx = i * BLOCK_THREADS + static_cast<int>(threadIdx.x);
      if (FULL || idx < valid)
      {
        keys[i] = keys_in[tile_begin + OffsetT(idx)];
      }
    }
    unsigned int run_digit = 0;
    OffsetT run            = 0;
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      if (FULL || i * BLOCK_THREADS + static_cast<int>(threadIdx.x) < valid)
      {
        const unsigned int digit = BFE(static_cast<WordT>(CodecT::image(keys[i])), shift, width);
        if (run != OffsetT(0) && digit != run_digit)
        {
          detail::topk::add_count(&storage_.counts[run_digit], run);
          run = 0;
        }
        run_digit = digit;
        ++run;
      }
    }
    if (run != OffsetT(0))
    {
      detail::topk::add_count(&storage_.counts[run_digit], run);
    }
  }

  TempStorage& storage_;
  detail::topk::select_control<OffsetT, WordT> control_;
};

// One round of the selection over its candidates' source: selected items to the output, the bucket's items to the
// next round's buffer (or, in a final round, its first ones to the output), the next digit of the bucket's items
// counted; then the block that completes the next round's histogram plans that round. ValueT: NullType for keys only.
template <typename PolicyT, typename KeyT, typename ValueT, typename OffsetT, bool SELECT_MAX>
class AgentTopKPass
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;
  static constexpr int RADIX_BITS       = PolicyT::RADIX_BITS;
  static constexpr bool KEYS_ONLY       = cuda::std::is_same<ValueT, NullType>::value;
  static_assert(ITEMS_PER_THREAD <= 32, "a thread's part masks fit one 32-bit word each");
  static_assert(TILE_ITEMS <= 65536, "positions within a tile fit 16 bits");

  using CodecT              = detail::radix_sort::key_codec<KeyT, SELECT_MAX>;
  using WordT               = detail::topk::word_t<KeyT>;
  using rounds              = detail::topk::radix_rounds<CodecT::BITS, RADIX_BITS>;
  using PlannerT            = detail::topk::round_planner<BLOCK_THREADS, RADIX_BITS, CodecT::BITS, OffsetT, WordT>;
  using PlanT               = detail::topk::round_plan<OffsetT, WordT>;
  static constexpr int BINS = rounds::BINS;

  using CountsT    = detail::three_way_partition::part_counts<OffsetT>;
  using SumT       = detail::three_way_partition::sum_counts;
  using TileStateT = detail::topk::tile_state_t<OffsetT>;
  using BlockLoadT = BlockLoad<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using BlockScanT = BlockScan<CountsT, BLOCK_THREADS, PolicyT::SCAN_ALGORITHM>;
  using PrefixOpT =
    TilePrefixCallbackOp<CountsT, SumT, TileStateT,
                         detail::scan_look_back_delay<PolicyT::LOOK_BACK_DELAY_NS, PolicyT::LOOK_BACK_MAX_DELAY_NS>>;

  // The tile's stored items, grouped in shared memory by their positions in the tile: their keys and values are read
  // again from the source once their places are known (from L1 or L2, the tile having just been read). Few items of
  // a tile are stored in most rounds, and keys held in registers through the scan and the look-back would cost the
  // kernel spills.
  using grouped_tile = Uninitialized<cuda::std::uint16_t[TILE_ITEMS]>;

  // What a round does with a candidate, the same for every block (from the round's plan). It lives in shared memory
  // and is read where it is used: held in registers through a tile, it would cost the scan and the look-back more
  // registers than the kernel has.
  struct round_view
  {
    WordT prefix_mask;
    WordT prefix;
    OffsetT source_items;
    OffsetT below_base;   // output position of the round's first selected item below the bucket
    OffsetT bucket_base;  // output position of a final round's first selected item of the bucket
    OffsetT bucket_taken; // a final round's selected items of the bucket
    unsigned int shift;
    unsigned int width;
    unsigned int next_shift;
    unsigned int next_width;
    unsigned int bucket;
    unsigned int source;
    unsigned int next_source;
    bool is_final;   // the bucket's first bucket_taken items are selected
    bool write;      // the bucket's items go to the next round's buffer
    bool count_next; // the bucket's items are counted by their next digit
  };

public:
  // Shared memory: the load, the scan, the grouped tile and the planning are never live at the same time; the
  // look-back's state outlives the scan, and the counts of the next digit live through the whole round.
  struct TempStorage
  {
    union
    {
      typename BlockLoadT::TempStorage load;
      typename BlockScanT::TempStorage scan;
      grouped_tile grouped;
      typename PlannerT::TempStorage plan;
    };
    typename PrefixOpT::TempStorage prefix;
    OffsetT counts[BINS];
    round_view view;
    unsigned int tile_idx;
    bool last_block;
  };

  STRATA_DEVICE STRATA_FORCEINLINE
  AgentTopKPass(TempStorage& temp_storage, const detail::topk::select_control<OffsetT, WordT>& control,
                const detail::topk::candidate_buffers<KeyT, ValueT>& buffers, int round)
      : storage_(temp_storage)
      , control_(control)
      , buffers_(buffers)
      , round_(round)
  {}

  // Runs the round (after the kernel's grid dependency wait): its candidates from the input (keys_in, values_in) or
  // from a candidate buffer, its selected items to keys_out and values_out.
  template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
            typename ValueOutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void Run(KeyInputIteratorT keys_in, ValueInputIteratorT values_in,
                                            KeyOutputIteratorT keys_out, ValueOutputIteratorT values_out,
                                            unsigned int prefetch_distance)
  {
    const PlanT plan = control_.plans[round_];
    if (plan.status == detail::topk::round_idle)
    {
      return;
    }
    const bool is_final = plan.status == detail::topk::round_final;
    if (threadIdx.x == 0)
    {
      round_view& view  = storage_.view;
      view.prefix_mask  = rounds::template prefix_mask<WordT>(round_);
      view.prefix       = plan.prefix;
      view.source_items = plan.source_items;
      view.below_base   = plan.out_base;
      view.bucket_base  = plan.out_base + plan.below;
      view.bucket_taken = plan.bucket_taken;
      view.shift        = static_cast<unsigned int>(rounds::shift(round_));
      view.width        = static_cast<unsigned int>(rounds::width(round_));
      view.next_shift   = is_final ? 0u : static_cast<unsigned int>(rounds::shift(round_ + 1));
      view.next_width   = is_final ? 0u : static_cast<unsigned int>(rounds::width(round_ + 1));
      view.bucket       = plan.bucket;
      view.source       = plan.source;
      view.next_source  = plan.next_source;
      view.is_final     = is_final;
      view.count_next   = !is_final;
      view.write = !is_final && plan.next_source != plan.source && plan.next_source != detail::topk::source_input;
    }
    if (!is_final)
    {
      for (int bin = static_cast<int>(threadIdx.x); bin < BINS; bin += BLOCK_THREADS)
      {
        storage_.counts[bin] = OffsetT(0);
      }
    }

    // The view and the counts are ready after the barrier with which the first tile is claimed.
    const unsigned int num_tiles =
      static_cast<unsigned int>((plan.source_items + OffsetT(TILE_ITEMS - 1)) / OffsetT(TILE_ITEMS));
    const TileStateT tile_state(control_.tile_states + static_cast<size_t>(round_) * control_.tile_state_bytes,
                                control_.state_tiles);
    bool any_tile = false;
    detail::scan::consume_claimed_tiles<true>(storage_.tile_idx, num_tiles, control_.tile_counters + round_,
                                              [&](unsigned int tile_idx, auto is_last, unsigned int* claim) {
                                                any_tile = true;
                                                consume_tile<decltype(is_last)::value>(tile_idx, num_tiles, tile_state,
                                                                                       claim, prefetch_distance,
                                                                                       keys_in, values_in, keys_out,
                                                                                       values_out);
                                              });
    __syncthreads();

    // The next round may launch now; it waits for this grid before reading anything.
    GridLaunchDependents();
    if (is_final)
    {
      return;
    }
    OffsetT* const row = control_.histograms + static_cast<size_t>(round_ + 1) * BINS;
    if (!detail::topk::add_counts_and_take_ticket<BLOCK_THREADS, BINS>(storage_.counts, row, any_tile,
                                                                       control_.blocks_done + 1 + round_,
                                                                       storage_.last_block))
    {
      return;
    }
    PlannerT::plan(storage_.plan, PlannerT::next_base(plan, round_, control_.num_items), round_ + 1, row,
                   control_.capacity, control_.plans + round_ + 1);
  }

private:
  // One tile of the round's source: its candidates split by their digit (bits of two masks per thread), the places of
  // the selected items and of the bucket's items among all tiles' from a scan of pairs of counts with the look-back,
  // and the tile's stored items grouped in shared memory, then written as consecutive runs. With `claim_next`, thread
  // 0 claims the block's next tile once this one has its prefix, as the three-way partition's tiles do.
  template <bool IS_LAST_TILE, typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
            typename ValueOutputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE void
  consume_tile(unsigned int tile_idx, unsigned int num_tiles, const TileStateT& tile_state, unsigned int* claim_next,
               unsigned int prefetch_distance, KeyInputIteratorT keys_in, ValueInputIteratorT values_in,
               KeyOutputIteratorT keys_out, ValueOutputIteratorT values_out)
  {
    const round_view& view    = storage_.view;
    const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    const int valid_items     = IS_LAST_TILE ? static_cast<int>(view.source_items - tile_offset) : TILE_ITEMS;

    // The round's source (the input or a buffer) is made where it is read, from the kernel's parameters and the view,
    // so that it holds no registers through the scan and the look-back.
    const auto keys_src = key_source(keys_in);
    using KeySourceT    = decltype(keys_src);
    constexpr bool PREFETCHABLE =
      detail::scan::prefetchable_tiles_v<PolicyT, cuda::std::remove_const_t<KeySourceT>, KeyT>;
    detail::select::prefetch_ahead<PolicyT, PREFETCHABLE, cuda::std::remove_const_t<KeySourceT>, OffsetT>(
      keys_src, tile_idx, num_tiles, prefetch_distance);
    KeyT keys[ITEMS_PER_THREAD];
    detail::scan::load_tile<PolicyT, BlockLoadT, IS_LAST_TILE>(storage_.load, keys_src, tile_offset, valid_items, keys);

    // Bit i of `selected`: keys[i] is a candidate below the bucket; of `in_bucket`: a candidate of the bucket.
    const int thread_first = static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD;
    unsigned int selected  = 0;
    unsigned int in_bucket = 0;
    {
      const WordT prefix_mask   = view.prefix_mask;
      const WordT prefix        = view.prefix;
      const unsigned int shift  = view.shift;
      const unsigned int width  = view.width;
      const unsigned int bucket = view.bucket;
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if (!IS_LAST_TILE || thread_first + i < valid_items)
        {
          const WordT image = static_cast<WordT>(CodecT::image(keys[i]));
          if ((image & prefix_mask) == prefix)
          {
            const unsigned int digit = BFE(image, shift, width);
            selected |= static_cast<unsigned int>(digit < bucket) << i;
            in_bucket |= static_cast<unsigned int>(digit == bucket) << i;
          }
        }
      }
    }
    // The bucket's items by their next digit, in a loop of its own: counted in the loop above, every key's next
    // digit would be made ahead of the atomics and held, at the cost of registers the scan needs.
    if (view.count_next && in_bucket != 0)
    {
      const unsigned int next_shift = view.next_shift;
      const unsigned int next_width = view.next_width;
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if ((in_bucket >> i) & 1u)
        {
          const WordT image = static_cast<WordT>(CodecT::image(keys[i]));
          detail::topk::add_count(&storage_.counts[BFE(image, next_shift, next_width)], OffsetT(1));
        }
      }
    }
    __syncthreads();

    // The places of the thread's first items of each kind among all the round's, and the tile's.
    const CountsT thread_counts{static_cast<OffsetT>(__popc(selected)), static_cast<OffsetT>(__popc(in_bucket))};
    CountsT thread_rank{}, tile_prefix{}, tile_count{};
    detail::three_way_partition::scan_tile_counts<IS_LAST_TILE, BlockScanT, PrefixOpT>(
      storage_.scan, storage_.prefix, tile_state, tile_idx, thread_counts, thread_rank, tile_prefix, tile_count);
    unsigned int claimed = 0;
    if (claim_next != nullptr && threadIdx.x == 0)
    {
      claimed = atomicAdd(claim_next, 1u);
    }

    // The tile's stored items: every selected one, then the bucket's that are written (all of them where they go on
    // to the next round's buffer; in a final round those among the round's first bucket_taken).
    const int selected_count = static_cast<int>(tile_count.first);
    int bucket_stored        = 0;
    if (view.is_final)
    {
      const OffsetT bucket_taken = view.bucket_taken;
      if (tile_prefix.second < bucket_taken)
      {
        const OffsetT left = bucket_taken - tile_prefix.second;
        bucket_stored      = left < tile_count.second ? static_cast<int>(left) : static_cast<int>(tile_count.second);
      }
    }
    else if (view.write)
    {
      bucket_stored = static_cast<int>(tile_count.second);
    }
    const int stored = selected_count + bucket_stored;
    if (stored > 0)
    {
      int selected_rank = static_cast<int>(thread_rank.first - tile_prefix.first);
      int bucket_rank   = static_cast<int>(thread_rank.second - tile_prefix.second);
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const int is_selected  = static_cast<int>((selected >> i) & 1u);
        const int is_in_bucket = static_cast<int>((in_bucket >> i) & 1u);
        if (is_selected || (is_in_bucket && bucket_rank < bucket_stored))
        {
          const int slot                 = is_selected ? selected_rank : selected_count + bucket_rank;
          storage_.grouped.Alias()[slot] = static_cast<cuda::std::uint16_t>(thread_first + i);
        }
        selected_rank += is_selected;
        bucket_rank += is_in_bucket;
      }
      __syncthreads();

      // Selected items after the round's earlier ones; the bucket's after the round's earlier ones of the bucket, to
      // the output (final) or to the next round's buffer.
      const bool is_final       = view.is_final;
      const OffsetT below_base  = view.below_base + tile_prefix.first;
      const OffsetT bucket_base = (is_final ? view.bucket_base : OffsetT(0)) + tile_prefix.second;
      KeyT* const next_keys     = buffers_.keys_of(view.next_source);
      ValueT* const next_values = buffers_.values_of(view.next_source);
      const auto stored_keys    = key_source(keys_in);
      const auto stored_values  = value_source(values_in);
      for (int j = static_cast<int>(threadIdx.x); j < stored; j += BLOCK_THREADS)
      {
        const OffsetT source = tile_offset + OffsetT(storage_.grouped.Alias()[j]);
        const bool below     = j < selected_count;
        const OffsetT place  = below ? below_base + OffsetT(j) : bucket_base + OffsetT(j - selected_count);
        if (below || is_final)
        {
          keys_out[place] = stored_keys[source];
          if constexpr (!KEYS_ONLY)
          {
            values_out[place] = stored_values[source];
          }
        }
        else
        {
          next_keys[place] = stored_keys[source];
          if constexpr (!KEYS_ONLY)
          {
            next_values[place] = stored_values[source];
          }
        }
      }
    }
    if (claim_next != nullptr && threadIdx.x == 0)
    {
      storage_.tile_idx = claimed;
    }
  }

  // The keys and the values of the round's source (the view's), one type for both sources (detail::topk::make_source).
  template <typename KeyInputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE auto key_source(KeyInputIteratorT keys_in) const
  {
    const unsigned int source = storage_.view.source;
    return detail::topk::make_source<KeyT>(keys_in, buffers_.keys_of(source), source == detail::topk::source_input);
  }
  template <typename ValueInputIteratorT>
  STRATA_DEVICE STRATA_FORCEINLINE auto value_source(ValueInputIteratorT values_in) const
  {
    if constexpr (KEYS_ONLY)
    {
      return static_cast<const ValueT*>(nullptr);
    }
    else
    {
      const unsigned int source = storage_.view.source;
      return detail::topk::make_source<ValueT>(values_in, buffers_.values_of(source),
                                               source == detail::topk::source_input);
    }
  }

  TempStorage& storage_;
  detail::topk::select_control<OffsetT, WordT> control_;
  detail::topk::candidate_buffers<KeyT, ValueT> buffers_;
  int round_;
};

STRATA_NAMESPACE_END
