// AgentScanAtoms: the scan of DeviceScan's gpu_to_gpu forms, whose order of operations depends on the number of items
// and their type alone, so that every GPU, tuning and grid gives the same bits.
//
// The items are cut into atoms of ATOM_ITEMS consecutive items (the last one may be short), and a warp scans an atom.
// Round r = 0 .. ROUNDS - 1 of an atom is 32 * VECTOR consecutive items, lane l taking the VECTOR items from
// (r * 32 + l) * VECTOR on (a 16-byte vector where the items allow it). In a round, each lane folds its items left to
// right (s_w = s_(w-1) op x_w), the lanes' totals are scanned across the warp by a fixed Kogge-Stone network (at
// distance 1, 2, 4, 8, 16, lane l combines lane l - distance's value before its own), and the round's total is its
// last lane's. Atom a's aggregate is the left fold of its rounds' totals. CHUNK_ATOMS consecutive atoms make a chunk,
// whose aggregate is the left fold of its atoms'; chunk c's exclusive prefix P_c is the left fold of the chunks'
// aggregates before it (P_(c+1) = P_c op aggregate_c, published chunk by chunk through the decoupled look-back:
// TilePrefixCallbackOp::ScanEntries), and the prefix of a chunk's atom j is P_c op the chunk's aggregates 0 .. j - 1,
// left to right. Within the atom the carry starts at init op the atom's prefix (either alone where the other is
// missing) and takes each round's total in turn; an item's result is (carry op lane's exclusive prefix) op s_w
// (s_(w-1) for exclusive scans, whose first item takes the carry alone). Items the input lacks are left out, not taken
// as an identity, so that an item's result depends only on the items up to it. Blocks of WARPS warps (whole chunks)
// take WARPS atoms at a time; the block size and the grid decide only which warp scans which atom.
#pragma once

#include <strata/agent/agent_reduce.cuh>
#include <strata/agent/agent_reduce_atoms.cuh>
#include <strata/agent/agent_scan.cuh>
#include <strata/agent/agent_scan_by_key.cuh>
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The knobs of the gpu_to_gpu scan: the threads of a block (whole chunks of warps, at most 32 warps, each scanning an
// atom of the block's tile), registers bounded for MIN_BLOCKS_PER_SM blocks an SM, and the look-back's waits (as
// AgentScanPolicy's). None changes the result.
template <int BLOCK_THREADS_, int MIN_BLOCKS_PER_SM_ = 1, int LOOK_BACK_DELAY_NS_ = 32,
          int LOOK_BACK_MAX_DELAY_NS_ = 256>
struct AgentScanAtomsPolicy
{
  static constexpr int BLOCK_THREADS          = BLOCK_THREADS_;
  static constexpr int MIN_BLOCKS_PER_SM      = MIN_BLOCKS_PER_SM_;
  static constexpr int LOOK_BACK_DELAY_NS     = LOOK_BACK_DELAY_NS_;
  static constexpr int LOOK_BACK_MAX_DELAY_NS = LOOK_BACK_MAX_DELAY_NS_;
  static_assert(BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024, "whole warps, at most 32 of them");
};

namespace detail
{
namespace scan_atoms
{
// Rounds of an atom.
constexpr int ROUNDS = 8;

// Atoms of a chunk, the look-back's unit: one entry an atom would make the look-back the bottleneck.
constexpr int CHUNK_ATOMS = 8;

// The items of an atom of T: 32 lanes, ROUNDS rounds of a vector each.
template <typename T>
constexpr int atom_items_v = 32 * ROUNDS* reduce_atoms::vector_items_v<T>;

// Whether AccumT and ScanOpT are the (head, value) pairs of a scan by key under its segmented operator.
template <typename AccumT, typename ScanOpT>
struct is_segmented_pair : cuda::std::false_type
{};
template <typename V, typename ScanOpT>
struct is_segmented_pair<scan::segmented_value<V>, scan::segmented_op<ScanOpT>> : cuda::std::true_type
{};

// The steps of the order that the register and the shared-memory agents share: a round's scan, a round's results,
// and a tile's atoms' prefixes.
template <typename AccumT, typename ScanOpT, int VECTOR, bool INCLUSIVE>
struct atom_ops
{
  using MaybeT = reduce_atoms::maybe<AccumT>;
  ScanOpT& op;

  STRATA_DEVICE STRATA_FORCEINLINE MaybeT join(const MaybeT& a, const MaybeT& b)
  {
    return reduce_atoms::join(op, a, b);
  }

  // The lane's items in round r of an atom with `left` items from its start (VECTOR in every round of a WHOLE one).
  template <bool WHOLE, typename OffsetT>
  static STRATA_DEVICE STRATA_FORCEINLINE int lane_items(int r, int lane, OffsetT left)
  {
    const OffsetT at = OffsetT((r * 32 + lane) * VECTOR);
    return WHOLE ? VECTOR : at >= left ? 0 : left - at < OffsetT(VECTOR) ? static_cast<int>(left - at) : VECTOR;
  }

  // A round of the lane's `present` items (all VECTOR where WHOLE) in s: folds them in place, and gives the lane's
  // exclusive prefix in the round (`before`) and the round's total (its last present lane's).
  template <bool WHOLE>
  STRATA_DEVICE STRATA_FORCEINLINE void scan_round(AccumT (&s)[VECTOR], int present, int lane, MaybeT& before,
                                                   MaybeT& round_total)
  {
    STRATA_UNROLL
    for (int w = 1; w < VECTOR; ++w)
    {
      if (WHOLE || w < present)
      {
        s[w] = static_cast<AccumT>(op(s[w - 1], s[w]));
      }
    }
    across_lanes<WHOLE>(s, present, lane, before, round_total);
  }

  // The cross-lane half of scan_round, from the lane's folded items s: the lane's exclusive prefix in the round and
  // the round's total.
  template <bool WHOLE>
  STRATA_DEVICE STRATA_FORCEINLINE void across_lanes(const AccumT (&s)[VECTOR], int present, int lane, MaybeT& before,
                                                     MaybeT& round_total)
  {
    if constexpr (is_segmented_pair<AccumT, ScanOpT>::value)
    {
      across_lanes_segmented<WHOLE>(s, present, lane, before, round_total);
      return;
    }
    // The lane's total: its last present item's fold (no index computed at run time, which would put the lane's
    // state in local memory).
    MaybeT total{AccumT{}, false};
    STRATA_UNROLL
    for (int w = 0; w < VECTOR; ++w)
    {
      if (WHOLE || w < present)
      {
        total = MaybeT{s[w], true};
      }
    }
    // Kogge-Stone across the lanes (a missing lane follows every present one, so present lanes see only present
    // lanes).
    STRATA_UNROLL
    for (int distance = 1; distance < 32; distance *= 2)
    {
      MaybeT other;
      other.value = ShuffleUp<32>(total.value, distance, 0, 0xffffffffu);
      other.valid = WHOLE || __shfl_up_sync(0xffffffffu, total.valid ? 1 : 0, distance) != 0;
      if (lane >= distance)
      {
        total = WHOLE ? MaybeT{static_cast<AccumT>(op(other.value, total.value)), true} : join(other, total);
      }
    }
    before.value        = ShuffleUp<32>(total.value, 1, 0, 0xffffffffu);
    before.valid        = lane > 0;
    const int last_lane = WHOLE ? 31 : __popc(__ballot_sync(0xffffffffu, present > 0)) - 1;
    round_total.value   = ShuffleIndex<32>(total.value, last_lane < 0 ? 0 : last_lane, 0xffffffffu);
    round_total.valid   = last_lane >= 0;
  }

  // across_lanes for the (head, value) pairs of a scan by key under segmented_op, with the same operations: op(a, b)
  // is b where b is a head, else (a's head, a's value op b's); a lane's head after a step of the network is its own
  // or the head of the lane `distance` before it, so the heads travel as one ballot, shifted, and each step moves a
  // value alone. Lanes without items follow every lane with items, whose results never read theirs.
  template <bool WHOLE>
  STRATA_DEVICE STRATA_FORCEINLINE void across_lanes_segmented(const AccumT (&s)[VECTOR], int present, int lane,
                                                               MaybeT& before, MaybeT& round_total)
  {
    using ValueT = decltype(AccumT::value);
    AccumT total{};
    STRATA_UNROLL
    for (int w = 0; w < VECTOR; ++w)
    {
      if (WHOLE || w < present)
      {
        total = s[w];
      }
    }
    unsigned int heads = __ballot_sync(0xffffffffu, total.head != 0);
    ValueT value       = total.value;
    STRATA_UNROLL
    for (int distance = 1; distance < 32; distance *= 2)
    {
      const ValueT other = ShuffleUp<32>(value, distance, 0, 0xffffffffu);
      if (lane >= distance && ((heads >> lane) & 1u) == 0)
      {
        value = static_cast<ValueT>(op.op(other, value));
      }
      heads |= heads << distance;
    }
    const ValueT up     = ShuffleUp<32>(value, 1, 0, 0xffffffffu);
    before.value        = AccumT{lane > 0 ? static_cast<int>((heads >> (lane - 1)) & 1u) : 0, up};
    before.valid        = lane > 0;
    const int last_lane = WHOLE ? 31 : __popc(__ballot_sync(0xffffffffu, present > 0)) - 1;
    const int from      = last_lane < 0 ? 0 : last_lane;
    round_total.value   = AccumT{static_cast<int>((heads >> from) & 1u), ShuffleIndex<32>(value, from, 0xffffffffu)};
    round_total.valid   = last_lane >= 0;
  }

  // A round's results from the lane's folds s and its prefix (the carry op its exclusive prefix in the round).
  STRATA_DEVICE STRATA_FORCEINLINE void round_results(const MaybeT& prefix, const AccumT (&s)[VECTOR],
                                                      AccumT (&out)[VECTOR])
  {
    STRATA_UNROLL
    for (int w = 0; w < VECTOR; ++w)
    {
      if constexpr (INCLUSIVE)
      {
        out[w] = join(prefix, MaybeT{s[w], true}).value;
      }
      else
      {
        out[w] = w == 0 ? prefix.value : join(prefix, MaybeT{s[w - 1], true}).value;
      }
    }
  }

  // The exclusive prefixes of a lone tile's chunks (entry j in lane j, unset for entry 0), as ScanEntries gives them.
  STRATA_DEVICE STRATA_FORCEINLINE AccumT fold_tile(const AccumT& aggregate, int entries, int lane)
  {
    AccumT acc{};
    AccumT exclusive{};
    STRATA_UNROLL
    for (int j = 0; j < 32; ++j)
    {
      const AccumT next = ShuffleIndex<32>(aggregate, j, 0xffffffffu);
      if (j < entries)
      {
        exclusive = lane == j ? acc : exclusive;
        acc       = j == 0 ? next : static_cast<AccumT>(op(acc, next));
      }
    }
    return exclusive;
  }

  // Called by the first warp of a block whose tile `tile_idx` has `tile_atoms` atoms with the given aggregates: lane j
  // folds chunk j's atoms' aggregates, the warp publishes the chunks' aggregates, looks back (with `look_back`; a lone
  // tile does not) and publishes their inclusive prefixes; lane j then gives each atom of its chunk its prefix.
  template <int WARPS, typename PrefixOpT, typename TileStateT>
  STRATA_DEVICE STRATA_FORCEINLINE void tile_prefixes(TileStateT tile_state, typename PrefixOpT::TempStorage& storage,
                                                      unsigned int tile_idx, int tile_atoms, bool look_back,
                                                      const AccumT* aggregates, AccumT* prefixes, bool* has_prefix)
  {
    const int lane        = static_cast<int>(LaneId());
    const int tile_chunks = (tile_atoms + CHUNK_ATOMS - 1) / CHUNK_ATOMS;
    MaybeT chunk{AccumT{}, false};
    if (lane < tile_chunks)
    {
      STRATA_UNROLL
      for (int k = 0; k < CHUNK_ATOMS; ++k)
      {
        if (lane * CHUNK_ATOMS + k < tile_atoms)
        {
          chunk = join(chunk, MaybeT{aggregates[lane * CHUNK_ATOMS + k], true});
        }
      }
    }
    MaybeT prefix{AccumT{}, false};
    if (look_back)
    {
      PrefixOpT prefix_op(tile_state, storage, op,
                          static_cast<size_t>(tile_idx) * static_cast<size_t>(WARPS / CHUNK_ATOMS));
      prefix.value = prefix_op.ScanEntries(chunk.value, tile_chunks);
    }
    else
    {
      prefix.value = fold_tile(chunk.value, tile_chunks, lane);
    }
    prefix.valid = tile_idx != 0 || lane != 0;
    if (lane < tile_chunks)
    {
      STRATA_UNROLL
      for (int k = 0; k < CHUNK_ATOMS; ++k)
      {
        if (lane * CHUNK_ATOMS + k < tile_atoms)
        {
          prefixes[lane * CHUNK_ATOMS + k]   = prefix.value;
          has_prefix[lane * CHUNK_ATOMS + k] = prefix.valid;
          prefix                             = join(prefix, MaybeT{aggregates[lane * CHUNK_ATOMS + k], true});
        }
      }
    }
  }
};
} // namespace scan_atoms
} // namespace detail

// Scans InputIteratorT's items by ScanOpT in AccumT into OutputIteratorT, an atom a warp, a tile of WARPS atoms a
// block. INCLUSIVE: inclusive or exclusive scan; InitValueT: the initial value's type, or detail::scan::no_init (an
// exclusive scan's first result is then AccumT{}).
// A lane keeps its items' folds in registers across the look-back and scans across the lanes again for the results;
// atoms with all their items skip the per-item checks, read and written one by one or, behind 16-byte-aligned
// pointers to arithmetic types, in vectors.
template <typename PolicyT, typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
          typename AccumT, typename OffsetT, bool INCLUSIVE>
class AgentScanAtoms
{
  using InputT  = detail::it_value_t<InputIteratorT>;
  using OutputT = detail::non_void_value_t<OutputIteratorT, AccumT>;
  using MaybeT  = detail::reduce_atoms::maybe<AccumT>;
  using PrefixOp =
    TilePrefixCallbackOp<AccumT, ScanOpT, ScanTileState<AccumT>,
                         detail::scan_look_back_delay<PolicyT::LOOK_BACK_DELAY_NS, PolicyT::LOOK_BACK_MAX_DELAY_NS>>;

  static constexpr bool HAS_INIT = !cuda::std::is_same<InitValueT, detail::scan::no_init>::value;

public:
  static constexpr int VECTOR     = detail::reduce_atoms::vector_items_v<InputT>;
  static constexpr int ROUNDS     = detail::scan_atoms::ROUNDS;
  static constexpr int ATOM_ITEMS = detail::scan_atoms::atom_items_v<InputT>;
  static constexpr int WARPS      = PolicyT::BLOCK_THREADS / 32;
  // Atoms a chunk: the unit of the look-back.
  static constexpr int CHUNK_ATOMS = detail::scan_atoms::CHUNK_ATOMS;
  static constexpr int CHUNKS      = WARPS / CHUNK_ATOMS;
  static_assert(WARPS % CHUNK_ATOMS == 0, "a block scans whole chunks");

  struct TempStorage
  {
    typename PrefixOp::TempStorage prefix;
    Uninitialized<AccumT[WARPS]> aggregates; // each warp's atom's
    Uninitialized<AccumT[WARPS]> prefixes;   // each warp's atom's exclusive prefix
    bool has_prefix[WARPS];                  // whether it has one (all but atom 0)
    unsigned int tile_idx;
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentScanAtoms(TempStorage& temp_storage, InputIteratorT d_in, OutputIteratorT d_out,
                                                  ScanOpT op, InitValueT init, OffsetT num_items,
                                                  ScanTileState<AccumT> tile_state)
      : temp_storage_(temp_storage)
      , d_in_(d_in)
      , d_out_(d_out)
      , op_(op)
      , init_(init)
      , num_items_(num_items)
      , tile_state_(tile_state)
  {}

  // Scans tile 0 alone when `tile_counter` is null (a single tile), else tile after tile claimed from it, the next
  // claimed once the current one has its prefix.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(unsigned int num_tiles, unsigned int* tile_counter)
  {
    detail::scan::consume_claimed_tiles<true>(temp_storage_.tile_idx, num_tiles, tile_counter,
                                              [&](unsigned int tile_idx, auto, unsigned int* claim_next) {
                                                consume_tile(tile_idx, tile_counter != nullptr, claim_next);
                                              });
  }

private:
  struct alignas(16) in_vector_t
  {
    InputT items[VECTOR];
  };
  struct alignas(16) out_vector_t
  {
    OutputT items[VECTOR];
  };

  // Pointers to arithmetic types that make 16-byte vectors of VECTOR items both ways.
  static constexpr bool VECTOR_IO = VECTOR > 1
                                 && detail::is_vectorizable_input_v<InputIteratorT>&&
                                      cuda::std::is_pointer<OutputIteratorT>::value
                                 && sizeof(OutputT) == sizeof(InputT) && cuda::std::is_arithmetic<OutputT>::value;

  // A lane's part of an atom between the atom's aggregate and its prefix: the folds of its items alone (the
  // cross-lane scans are done again for the results, rather than kept in registers across the look-back).
  struct lane_state
  {
    AccumT s[ROUNDS][VECTOR]; // the lane's left folds of each round's items
  };

  using OpsT = detail::scan_atoms::atom_ops<AccumT, ScanOpT, VECTOR, INCLUSIVE>;
  STRATA_DEVICE STRATA_FORCEINLINE OpsT ops()
  {
    return OpsT{op_};
  }
  STRATA_DEVICE STRATA_FORCEINLINE MaybeT join(const MaybeT& a, const MaybeT& b)
  {
    return detail::reduce_atoms::join(op_, a, b);
  }

  STRATA_DEVICE STRATA_FORCEINLINE void consume_tile(unsigned int tile_idx, bool look_back, unsigned int* claim_next)
  {
    const int warp       = static_cast<int>(threadIdx.x / 32);
    const int lane       = static_cast<int>(LaneId());
    const OffsetT atoms  = (num_items_ + OffsetT(ATOM_ITEMS) - 1) / OffsetT(ATOM_ITEMS);
    const OffsetT first  = static_cast<OffsetT>(tile_idx) * OffsetT(WARPS);
    const OffsetT atom   = first + OffsetT(warp);
    const int tile_atoms = atoms - first < OffsetT(WARPS) ? static_cast<int>(atoms - first) : WARPS;
    const OffsetT base   = atom * OffsetT(ATOM_ITEMS);
    const OffsetT left   = atom < atoms ? num_items_ - base : OffsetT(0);
    bool vectorized      = false;
    if constexpr (VECTOR_IO)
    {
      vectorized = reinterpret_cast<cuda::std::uintptr_t>(d_in_) % 16 == 0
                && reinterpret_cast<cuda::std::uintptr_t>(d_out_) % 16 == 0 && left >= OffsetT(ATOM_ITEMS);
    }

    lane_state state;
    if (atom < atoms)
    {
      const MaybeT aggregate = by_atom_kind(left, vectorized, [&](auto kind) {
        return scan_lanes<decltype(kind)::value>(state, base, left, lane);
      });
      if (lane == 0)
      {
        temp_storage_.aggregates.Alias()[warp] = aggregate.value;
      }
    }
    __syncthreads();

    if (warp == 0)
    {
      ops().template tile_prefixes<WARPS, PrefixOp>(tile_state_, temp_storage_.prefix, tile_idx, tile_atoms, look_back,
                                                    temp_storage_.aggregates.Alias(), temp_storage_.prefixes.Alias(),
                                                    temp_storage_.has_prefix);
    }
    __syncthreads();
    unsigned int claimed = 0;
    if (claim_next != nullptr && threadIdx.x == 0)
    {
      claimed = atomicAdd(claim_next, 1u);
    }
    if (atom < atoms)
    {
      write_atom(state, base, left, lane, vectorized, warp);
    }
    if (claim_next != nullptr && threadIdx.x == 0)
    {
      temp_storage_.tile_idx = claimed;
    }
  }

  // Writes the warp's atom (at `base`, `left` items from there on) from the lane states, once the block's tile has
  // its atoms' prefixes.
  STRATA_DEVICE STRATA_FORCEINLINE void write_atom(const lane_state& state, OffsetT base, OffsetT left, int lane,
                                                   bool vectorized, int warp)
  {
    // The carry: init op the atom's exclusive prefix.
    MaybeT carry{AccumT{}, false};
    if constexpr (HAS_INIT)
    {
      carry = MaybeT{static_cast<AccumT>(init_), true};
    }
    carry = join(carry, MaybeT{temp_storage_.prefixes.Alias()[warp], temp_storage_.has_prefix[warp]});
    by_atom_kind(left, vectorized, [&](auto kind) {
      write_lanes<decltype(kind)::value>(state, carry, base, left, lane);
    });
  }

  // How an atom is read and written: PARTIAL (fewer than ATOM_ITEMS items left, each checked), WHOLE (every item
  // there, read and written one by one), VECTORS (every item there, read and written in 16-byte vectors).
  enum atom_kind
  {
    PARTIAL,
    WHOLE,
    VECTORS
  };

  // f(integral_constant<int, kind>) for the atom with `left` items from its start (vectorized: its vectors qualify).
  template <typename F>
  static STRATA_DEVICE STRATA_FORCEINLINE auto by_atom_kind(OffsetT left, bool vectorized, F&& f)
  {
    if constexpr (VECTOR_IO)
    {
      if (vectorized)
      {
        return f(cuda::std::integral_constant<int, VECTORS>{});
      }
    }
    if (left >= OffsetT(ATOM_ITEMS))
    {
      return f(cuda::std::integral_constant<int, WHOLE>{});
    }
    return f(cuda::std::integral_constant<int, PARTIAL>{});
  }

  // Loads the lane's items of the atom at `base` (`left` items from there on), folds each round's, scans the lanes'
  // totals, and returns the atom's aggregate (in every lane).
  template <int KIND>
  STRATA_DEVICE STRATA_FORCEINLINE MaybeT scan_lanes(lane_state& state, OffsetT base, OffsetT left, int lane)
  {
    constexpr bool FULL = KIND != PARTIAL;
    int present[ROUNDS]; // the lane's items in each round
    if constexpr (KIND == VECTORS)
    {
      const uint4* const in = reinterpret_cast<const uint4*>(&d_in_[base]);
      uint4 loaded[ROUNDS];
      STRATA_UNROLL
      for (int r = 0; r < ROUNDS; ++r)
      {
        loaded[r] = ThreadLoad<LOAD_LDG>(in + r * 32 + lane);
      }
      STRATA_UNROLL
      for (int r = 0; r < ROUNDS; ++r)
      {
        present[r] = VECTOR;
        STRATA_UNROLL
        for (int w = 0; w < VECTOR; ++w)
        {
          state.s[r][w] = static_cast<AccumT>(cuda::std::bit_cast<in_vector_t>(loaded[r]).items[w]);
        }
      }
    }
    else
    {
      STRATA_UNROLL
      for (int r = 0; r < ROUNDS; ++r)
      {
        const OffsetT at = OffsetT((r * 32 + lane) * VECTOR);
        present[r]       = OpsT::template lane_items<FULL>(r, lane, left);
        STRATA_UNROLL
        for (int w = 0; w < VECTOR; ++w)
        {
          if (FULL || w < present[r])
          {
            state.s[r][w] = static_cast<AccumT>(InputT(d_in_[base + at + OffsetT(w)]));
          }
        }
      }
    }

    MaybeT aggregate{AccumT{}, false};
    STRATA_UNROLL
    for (int r = 0; r < ROUNDS; ++r)
    {
      MaybeT before, total;
      ops().template scan_round<FULL>(state.s[r], present[r], lane, before, total);
      aggregate = join(aggregate, total);
    }
    return aggregate;
  }

  // Writes the lane's results, the atom's carry starting at `carry`.
  template <int KIND>
  STRATA_DEVICE STRATA_FORCEINLINE void write_lanes(const lane_state& state, MaybeT carry, OffsetT base, OffsetT left,
                                                    int lane)
  {
    constexpr bool FULL = KIND != PARTIAL;
    STRATA_UNROLL
    for (int r = 0; r < ROUNDS; ++r)
    {
      const OffsetT at  = OffsetT((r * 32 + lane) * VECTOR);
      const int present = OpsT::template lane_items<FULL>(r, lane, left);
      MaybeT before, total;
      ops().template across_lanes<FULL>(state.s[r], present, lane, before, total);
      AccumT results[VECTOR];
      ops().round_results(join(carry, before), state.s[r], results);
      OutputT out[VECTOR];
      STRATA_UNROLL
      for (int w = 0; w < VECTOR; ++w)
      {
        out[w] = static_cast<OutputT>(results[w]);
      }
      if constexpr (KIND == VECTORS)
      {
        out_vector_t vector;
        STRATA_UNROLL
        for (int w = 0; w < VECTOR; ++w)
        {
          vector.items[w] = out[w];
        }
        reinterpret_cast<uint4*>(&d_out_[base])[r * 32 + lane] = cuda::std::bit_cast<uint4>(vector);
      }
      else
      {
        STRATA_UNROLL
        for (int w = 0; w < VECTOR; ++w)
        {
          if (FULL || at + OffsetT(w) < left)
          {
            d_out_[base + at + OffsetT(w)] = out[w];
          }
        }
      }
      carry = join(carry, total);
    }
  }

  TempStorage& temp_storage_;
  InputIteratorT d_in_;
  OutputIteratorT d_out_;
  ScanOpT op_;
  InitValueT init_;
  OffsetT num_items_;
  ScanTileState<AccumT> tile_state_;
};

namespace detail
{
namespace scan_atoms
{
// The input of a gpu_to_gpu scan by key: item i as (whether its key starts a run, its value in AccumT), scanned under
// segmented_op.
template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename EqualityOpT, typename AccumT>
struct by_key_pairs
{
  using value_type        = scan::segmented_value<AccumT>;
  using difference_type   = cuda::std::ptrdiff_t;
  using pointer           = void;
  using reference         = value_type;
  using iterator_category = cuda::std::random_access_iterator_tag;

  KeysInputIteratorT keys;
  ValuesInputIteratorT values;
  mutable EqualityOpT equality_op; // mutable: an operator may have a non-const operator() (Thrust accepts those)

  template <typename OffsetT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE value_type operator[](OffsetT i) const
  {
    return value_type{i == OffsetT(0) || !equality_op(keys[i - OffsetT(1)], keys[i]), static_cast<AccumT>(values[i])};
  }
};

// An output iterator whose item i takes a scanned pair through `write` (write(out + i, i, pair)).
template <typename OutputIteratorT, typename WriteT>
struct pair_output
{
  struct reference
  {
    OutputIteratorT at;
    cuda::std::ptrdiff_t i;
    WriteT write;
    template <typename V>
    STRATA_HOST_DEVICE STRATA_FORCEINLINE void operator=(const scan::segmented_value<V>& pair) const
    {
      write(at, i, pair);
    }
  };
  using value_type        = void;
  using difference_type   = cuda::std::ptrdiff_t;
  using pointer           = void;
  using iterator_category = cuda::std::output_iterator_tag;

  OutputIteratorT out;
  WriteT write;

  template <typename OffsetT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE reference operator[](OffsetT i) const
  {
    return reference{out + i, static_cast<cuda::std::ptrdiff_t>(i), write};
  }
};

// The inclusive scan by key's results: each inclusive pair's value.
struct inclusive_values
{
  template <typename V>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE V result(bool, const V& scanned) const
  {
    return scanned;
  }

  template <typename OutputIteratorT, typename V>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE void operator()(OutputIteratorT at, cuda::std::ptrdiff_t,
                                                        const scan::segmented_value<V>& pair) const
  {
    *at = pair.value;
  }
};

// The exclusive scan by key's results from the exclusive scan of the pairs: scan::segmented_exclusive_output's rule
// (init at a run's first item, else init op the pair's value: the run's earlier values), the heads found again from
// the keys.
template <typename KeysInputIteratorT, typename EqualityOpT, typename ScanOpT, typename AccumT>
struct exclusive_values
{
  KeysInputIteratorT keys;
  mutable EqualityOpT equality_op;
  scan::segmented_exclusive_output<AccumT, ScanOpT> rule;

  STRATA_HOST_DEVICE STRATA_FORCEINLINE AccumT result(bool head, const AccumT& scanned) const
  {
    return rule.at(head, scanned);
  }

  template <typename OutputIteratorT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE void operator()(OutputIteratorT at, cuda::std::ptrdiff_t i,
                                                        const scan::segmented_value<AccumT>& pair) const
  {
    *at = result(i == 0 || !equality_op(keys[i - 1], keys[i]), pair.value);
  }
};

// The tiles of AgentScanAtomsBulk: scan::bulk_items or scan::bulk_keyed (the shared memory and its copies), and how
// a lane's VECTOR items of vector v (v * VECTOR on in the tile) become accumulators (`load`, also filling the state
// the lane keeps until it stores their results, `round_t`) and take their results in place (`store`, those
// `present`). ItemT: the type whose 16-byte vectors shape the atoms.

// Arrays of one arithmetic type T that start on 16 bytes, scanned in place in shared memory.
template <typename T>
struct array_tile : scan::bulk_items<T>
{
  using ItemT                 = T;
  static constexpr int VECTOR = reduce_atoms::vector_items_v<T>;
  static_assert(VECTOR > 1 && 16 % sizeof(T) == 0, "items pack whole into 16-byte vectors");

  struct alignas(16) vector_t
  {
    T items[VECTOR];
  };
  template <int N>
  using storage = typename scan::bulk_items<T>::template storage<N>;
  struct round_t
  {};

  template <int N, typename AccumT>
  STRATA_DEVICE STRATA_FORCEINLINE void load(const storage<N>& s, int v, int, AccumT (&x)[VECTOR], round_t&)
  {
    const vector_t loaded = reinterpret_cast<const vector_t*>(s.items)[v];
    STRATA_UNROLL
    for (int w = 0; w < VECTOR; ++w)
    {
      x[w] = static_cast<AccumT>(loaded.items[w]);
    }
  }

  template <bool WHOLE, int N, typename AccumT>
  STRATA_DEVICE STRATA_FORCEINLINE void store(storage<N>& s, int v, const AccumT (&results)[VECTOR], int present,
                                              const round_t&)
  {
    T* const items = s.items + v * VECTOR;
    if (WHOLE || present == VECTOR)
    {
      vector_t stored;
      STRATA_UNROLL
      for (int w = 0; w < VECTOR; ++w)
      {
        stored.items[w] = static_cast<T>(results[w]);
      }
      *reinterpret_cast<vector_t*>(items) = stored;
    }
    else
    {
      STRATA_UNROLL
      for (int w = 0; w < VECTOR; ++w)
      {
        if (w < present)
        {
          items[w] = static_cast<T>(results[w]);
        }
      }
    }
  }
};

// A scan by key of arithmetic keys K and values V in arrays that start on 16 bytes, its results (V) to another such
// array: each item's pair (head, value) made from the keys in shared memory (the head from the key before it: the
// lane before's by a shuffle, the tile's first item's from the key before the tile), the results written over the
// values through WriteT's rule (inclusive_values, or exclusive_values with the heads kept from the load).
template <typename K, typename V, typename EqualityOpT, typename AccumT, typename WriteT>
struct by_key_tile : scan::bulk_keyed<K, V>
{
  using ItemT                 = scan::segmented_value<AccumT>;
  static constexpr int VECTOR = reduce_atoms::vector_items_v<ItemT>;

  template <typename T>
  struct alignas(sizeof(T) * VECTOR) vector_of
  {
    T items[VECTOR];
  };
  template <int N>
  using storage = typename scan::bulk_keyed<K, V>::template storage<N>;
  struct round_t
  {
    unsigned int heads; // bit w: item w of the lane's vector starts a run
  };

  mutable EqualityOpT equality_op; // mutable: an operator may have a non-const operator() (Thrust accepts those)
  WriteT write;

  // Called by every lane of the warp.
  template <int N>
  STRATA_DEVICE STRATA_FORCEINLINE void load(const storage<N>& s, int v, int lane, ItemT (&x)[VECTOR], round_t& round)
  {
    const vector_of<K> k = reinterpret_cast<const vector_of<K>*>(s.keys)[v];
    const vector_of<V> d = reinterpret_cast<const vector_of<V>*>(s.values)[v];
    // The key before the lane's first item: the lane before's last, for lane 0 the item before in the tile's keys
    // or the key before the tile (none for the first item of all).
    const K up    = ShuffleUp<32>(k.items[VECTOR - 1], 1, 0, 0xffffffffu);
    bool has_prev = true;
    K prev        = up;
    if (lane == 0)
    {
      has_prev = v != 0 || s.has_before;
      prev     = v != 0 ? s.keys[v * VECTOR - 1] : s.before;
    }
    round.heads = 0;
    STRATA_UNROLL
    for (int w = 0; w < VECTOR; ++w)
    {
      const bool head = w == 0 ? !has_prev || !equality_op(prev, k.items[0]) : !equality_op(k.items[w - 1], k.items[w]);
      round.heads |= static_cast<unsigned int>(head) << w;
      x[w] = ItemT{head, static_cast<AccumT>(d.items[w])};
    }
  }

  template <bool WHOLE, int N>
  STRATA_DEVICE STRATA_FORCEINLINE void store(storage<N>& s, int v, const ItemT (&results)[VECTOR], int present,
                                              const round_t& round)
  {
    vector_of<V> stored;
    STRATA_UNROLL
    for (int w = 0; w < VECTOR; ++w)
    {
      stored.items[w] = static_cast<V>(write.result(((round.heads >> w) & 1u) != 0, results[w].value));
    }
    V* const values = s.values + v * VECTOR;
    if (WHOLE || present == VECTOR)
    {
      *reinterpret_cast<vector_of<V>*>(values) = stored;
    }
    else
    {
      STRATA_UNROLL
      for (int w = 0; w < VECTOR; ++w)
      {
        if (w < present)
        {
          values[w] = stored.items[w];
        }
      }
    }
  }
};
} // namespace scan_atoms

namespace scan
{
// AgentScanAtomsBulk's tiles (bulk_tile_of's protocol): arrays of one arithmetic type that packs whole into 16-byte
// vectors, and scans by key of arrays of arithmetic keys and values, their results to an array of the values' type.
template <typename InT, typename T, typename AccumT>
struct bulk_tile_of<
  scan_atoms_bulk_agent, InT*, T*, AccumT,
  cuda::std::enable_if_t<cuda::std::is_same<cuda::std::remove_cv_t<InT>, T>::value && cuda::std::is_arithmetic<T>::value
                         && (reduce_atoms::vector_items_v<T> > 1)>>
{
  static constexpr bool exists = true;
  using type                   = scan_atoms::array_tile<T>;
  static bool aligned(InT* in, T* out)
  {
    return starts_on_16(in, out);
  }
  static type make(InT* in, T* out)
  {
    return type{{in, out}};
  }
};

template <typename KIn, typename VIn, typename EqualityOpT, typename AccumV, typename V, typename WriteT,
          typename AccumT>
struct bulk_tile_of<
  scan_atoms_bulk_agent, scan_atoms::by_key_pairs<KIn*, VIn*, EqualityOpT, AccumV>, scan_atoms::pair_output<V*, WriteT>,
  AccumT,
  cuda::std::enable_if_t<cuda::std::is_same<cuda::std::remove_cv_t<VIn>, V>::value && cuda::std::is_arithmetic<V>::value
                         && cuda::std::is_arithmetic<KIn>::value>>
{
  static constexpr bool exists = true;
  using type                   = scan_atoms::by_key_tile<cuda::std::remove_cv_t<KIn>, V, EqualityOpT, AccumV, WriteT>;
  using InputT                 = scan_atoms::by_key_pairs<KIn*, VIn*, EqualityOpT, AccumV>;
  using OutputT                = scan_atoms::pair_output<V*, WriteT>;
  static bool aligned(const InputT& in, const OutputT& out)
  {
    return starts_on_16(in.keys, in.values, out.out);
  }
  static type make(const InputT& in, const OutputT& out)
  {
    return type{{in.keys, in.values, out.out}, in.equality_op, out.write};
  }
};
} // namespace scan
} // namespace detail

// The same order with each tile held in shared memory (sm_90), its items and results moved by TileT
// (detail::scan_atoms::array_tile, by_key_tile): bulk copies in (the last tile, which may be short, item by item),
// each warp scanning its atom's rounds from shared memory twice (once for the aggregate, once more for the results,
// written in place), one bulk copy out. Registers hold a round at a time, not the atom, so that an SM keeps six tiles
// in flight. The grid is one wave of resident blocks that claim tiles in order, each only once its buffer is free
// (AgentScanBulk's protocol).
template <typename PolicyT, typename TileT, typename ScanOpT, typename InitValueT, typename AccumT, typename OffsetT,
          bool INCLUSIVE>
class AgentScanAtomsBulk
{
  using MaybeT = detail::reduce_atoms::maybe<AccumT>;
  using PrefixOp =
    TilePrefixCallbackOp<AccumT, ScanOpT, ScanTileState<AccumT>,
                         detail::scan_look_back_delay<PolicyT::LOOK_BACK_DELAY_NS, PolicyT::LOOK_BACK_MAX_DELAY_NS>>;
  static constexpr bool HAS_INIT = !cuda::std::is_same<InitValueT, detail::scan::no_init>::value;

public:
  static constexpr int VECTOR       = TileT::VECTOR;
  static constexpr int ROUNDS       = detail::scan_atoms::ROUNDS;
  static constexpr int ATOM_ITEMS   = detail::scan_atoms::atom_items_v<typename TileT::ItemT>;
  static constexpr int WARPS        = PolicyT::BLOCK_THREADS / 32;
  static constexpr int TILE_VECTORS = WARPS * ROUNDS * 32;
  static constexpr int TILE_ITEMS   = TILE_VECTORS * VECTOR;
  static_assert(WARPS % detail::scan_atoms::CHUNK_ATOMS == 0, "a block scans whole chunks");

  struct TempStorage
  {
    typename TileT::template storage<TILE_ITEMS> tile;
    typename PrefixOp::TempStorage prefix;
    AccumT aggregates[WARPS];
    AccumT prefixes[WARPS];
    bool has_prefix[WARPS];
    cuda::std::uint64_t tile_landed; // mbarrier of the tile's bulk load
    unsigned int tile_idx;
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentScanAtomsBulk(TempStorage& temp_storage, TileT tile, ScanOpT op,
                                                      InitValueT init, OffsetT num_items,
                                                      ScanTileState<AccumT> tile_state)
      : temp_storage_(temp_storage)
      , tile_(tile)
      , op_(op)
      , init_(init)
      , num_items_(num_items)
      , tile_state_(tile_state)
  {}

  // Scans tiles until none is left: tile 0 alone when `tile_counter` is null (a single tile), else the tiles the
  // block claims from it.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange(unsigned int num_tiles, unsigned int* tile_counter)
  {
    NV_IF_TARGET(NV_PROVIDES_SM_90, (consume_range(num_tiles, tile_counter);))
  }

private:
  using OpsT = detail::scan_atoms::atom_ops<AccumT, ScanOpT, VECTOR, INCLUSIVE>;

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  // Thread 0 claims the block's next tile once the buffer is free and starts loading it (a whole tile by bulk
  // copies; else a plain arrival that publishes the index).
  STRATA_DEVICE STRATA_FORCEINLINE void fill(bool& exhausted, unsigned int num_tiles, unsigned int* tile_counter)
  {
    unsigned int tile_idx = num_tiles;
    if (!exhausted)
    {
      BulkStoreWaitRead();
      tile_idx  = tile_counter == nullptr ? 0u : atomicAdd(tile_counter, 1u);
      exhausted = tile_counter == nullptr || tile_idx + 1 >= num_tiles;
    }
    temp_storage_.tile_idx    = tile_idx;
    const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    if (tile_idx < num_tiles && num_items_ - tile_offset >= OffsetT(TILE_ITEMS))
    {
      tile_.load_whole(temp_storage_.tile, tile_offset, &temp_storage_.tile_landed);
    }
    else
    {
      MbarrierArrive(&temp_storage_.tile_landed);
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE void consume_range(unsigned int num_tiles, unsigned int* tile_counter)
  {
    bool exhausted = false;
    if (threadIdx.x == 0)
    {
      MbarrierInit(&temp_storage_.tile_landed);
    }
    __syncthreads();
    cuda::std::uint32_t phase = 0;
    while (true)
    {
      if (threadIdx.x == 0)
      {
        fill(exhausted, num_tiles, tile_counter);
      }
      MbarrierWait(&temp_storage_.tile_landed, phase);
      phase ^= 1u;
      const unsigned int tile_idx = temp_storage_.tile_idx;
      if (tile_idx >= num_tiles)
      {
        break;
      }
      const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
      if (num_items_ - tile_offset < OffsetT(TILE_ITEMS))
      {
        consume<true>(tile_idx, tile_counter != nullptr);
      }
      else
      {
        consume<false>(tile_idx, tile_counter != nullptr);
      }
    }
    if (threadIdx.x == 0)
    {
      BulkStoreWaitRead();
    }
  }

  // Scans tile `tile_idx` in the buffer and stores it; ends past a barrier after every thread's last use of the tile
  // index, the scan's shared memory and (but for a short last tile, after which nothing is loaded) the buffer.
  template <bool SHORT>
  STRATA_DEVICE STRATA_FORCEINLINE void consume(unsigned int tile_idx, bool look_back)
  {
    const int warp            = static_cast<int>(threadIdx.x / 32);
    const int lane            = static_cast<int>(LaneId());
    const OffsetT tile_offset = static_cast<OffsetT>(tile_idx) * OffsetT(TILE_ITEMS);
    const int valid_items     = SHORT ? static_cast<int>(num_items_ - tile_offset) : TILE_ITEMS;
    if constexpr (SHORT)
    {
      if (threadIdx.x == 0)
      {
        BulkStoreWaitRead();
      }
      __syncthreads();
      tile_.load_last(temp_storage_.tile, tile_offset, valid_items, static_cast<int>(threadIdx.x),
                      PolicyT::BLOCK_THREADS);
      __syncthreads();
    }
    const int left        = valid_items - warp * ATOM_ITEMS; // the items of the warp's atom on
    const int tile_atoms  = (valid_items + ATOM_ITEMS - 1) / ATOM_ITEMS;
    const int atom_vector = warp * ROUNDS * 32; // the atom's first vector in the tile
    OpsT ops{op_};

    // The atom's aggregate (each round scanned, nothing kept: the second pass scans the rounds again, which leaves
    // the registers free for more blocks an SM).
    if (left > 0)
    {
      MaybeT aggregate{AccumT{}, false};
      STRATA_UNROLL
      for (int r = 0; r < ROUNDS; ++r)
      {
        AccumT s[VECTOR];
        typename TileT::round_t round;
        MaybeT before;
        MaybeT total;
        tile_.load(temp_storage_.tile, atom_vector + r * 32 + lane, lane, s, round);
        ops.template scan_round<!SHORT>(s, OpsT::template lane_items<!SHORT>(r, lane, left), lane, before, total);
        aggregate = ops.join(aggregate, total);
      }
      if (lane == 0)
      {
        temp_storage_.aggregates[warp] = aggregate.value;
      }
    }
    __syncthreads();
    if (warp == 0)
    {
      ops.template tile_prefixes<WARPS, PrefixOp>(tile_state_, temp_storage_.prefix, tile_idx, tile_atoms, look_back,
                                                  temp_storage_.aggregates, temp_storage_.prefixes,
                                                  temp_storage_.has_prefix);
    }
    __syncthreads();

    // The results, in place.
    if (left > 0)
    {
      MaybeT carry{AccumT{}, false};
      if constexpr (HAS_INIT)
      {
        carry = MaybeT{static_cast<AccumT>(init_), true};
      }
      carry = ops.join(carry, MaybeT{temp_storage_.prefixes[warp], temp_storage_.has_prefix[warp]});
      STRATA_UNROLL
      for (int r = 0; r < ROUNDS; ++r)
      {
        AccumT s[VECTOR];
        typename TileT::round_t round;
        MaybeT before;
        MaybeT total;
        const int vector  = atom_vector + r * 32 + lane;
        const int present = OpsT::template lane_items<!SHORT>(r, lane, left);
        tile_.load(temp_storage_.tile, vector, lane, s, round);
        ops.template scan_round<!SHORT>(s, present, lane, before, total);
        AccumT results[VECTOR];
        ops.round_results(ops.join(carry, before), s, results);
        tile_.template store<!SHORT>(temp_storage_.tile, vector, results, present, round);
        carry = ops.join(carry, total);
      }
    }

    if constexpr (SHORT)
    {
      __syncthreads();
      tile_.store_last(temp_storage_.tile, tile_offset, valid_items, static_cast<int>(threadIdx.x),
                       PolicyT::BLOCK_THREADS);
    }
    else
    {
      ProxyFenceShared();
      __syncthreads();
      if (threadIdx.x == 0)
      {
        tile_.store_whole(temp_storage_.tile, static_cast<cuda::std::size_t>(tile_offset));
      }
    }
  }
#endif

  TempStorage& temp_storage_;
  TileT tile_;
  ScanOpT op_;
  InitValueT init_;
  OffsetT num_items_;
  ScanTileState<AccumT> tile_state_;
};

STRATA_NAMESPACE_END
