// AgentReduceAtoms: the reduction of DeviceReduce's gpu_to_gpu form, whose order of operations depends on the number
// of items and their type alone, so that every GPU, tuning and grid gives the same bits.
//
// The items are cut into atoms of ATOM_ITEMS consecutive items (the last one may be short). A warp reduces an atom:
// lane l takes the items at (r * 32 + l) * VECTOR + w of the atom, for rounds r = 0 .. ROUNDS - 1 and w = 0 ..
// VECTOR - 1 (a 16-byte vector a round where the items allow it); it keeps VECTOR running sums, sum w taking the
// items of every round at w in round order, and folds them in order of w. The lanes' sums are combined by a fixed
// butterfly: at distance 16, 8, 4, 2, 1, lane l adds lane l ^ distance's sum to its own (items the atom lacks are
// left out, not added as zeros, so that a short atom is the same function of its items as a whole one). Lane 0's
// sum is the atom's. A pass of atoms gives one sum an atom; passes repeat over the sums until one is left.
#pragma once

#include <strata/agent/agent_reduce.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace reduce_atoms
{
// The items of a 16-byte vector of T (1 for types that do not divide 16 bytes).
template <typename T>
constexpr int vector_items_v = sizeof(T) <= 16 && 16 % sizeof(T) == 0 ? static_cast<int>(16 / sizeof(T)) : 1;

// Rounds a lane takes in an atom.
constexpr int ROUNDS = 16;

// The items of an atom of T: 32 lanes, ROUNDS rounds of a vector each.
template <typename T>
constexpr int atom_items_v = 32 * ROUNDS* vector_items_v<T>;

// A sum that may have no items yet.
template <typename AccumT>
struct maybe
{
  AccumT value;
  bool valid;
};

// a op b, or whichever of them has items.
template <typename AccumT, typename OpT>
STRATA_DEVICE STRATA_FORCEINLINE maybe<AccumT> join(OpT& op, const maybe<AccumT>& a, const maybe<AccumT>& b)
{
  if (!b.valid)
  {
    return a;
  }
  if (!a.valid)
  {
    return b;
  }
  return maybe<AccumT>{static_cast<AccumT>(op(a.value, b.value)), true};
}
} // namespace reduce_atoms
} // namespace detail

// InputIteratorT's items, transformed by TransformOpT into AccumT, reduced by ReductionOpT an atom at a time by the
// calling warp.
template <typename InputIteratorT, typename AccumT, typename OffsetT, typename ReductionOpT, typename TransformOpT>
class AgentReduceAtoms
{
  using InputT = detail::it_value_t<InputIteratorT>;
  using MaybeT = detail::reduce_atoms::maybe<AccumT>;

public:
  static constexpr int VECTOR     = detail::reduce_atoms::vector_items_v<InputT>;
  static constexpr int ROUNDS     = detail::reduce_atoms::ROUNDS;
  static constexpr int ATOM_ITEMS = detail::reduce_atoms::atom_items_v<InputT>;

  STRATA_DEVICE STRATA_FORCEINLINE AgentReduceAtoms(InputIteratorT d_in, OffsetT num_items, ReductionOpT op,
                                                    TransformOpT transform)
      : d_in_(d_in)
      , num_items_(num_items)
      , op_(op)
      , transform_(transform)
  {}

  // The sum of atom `atom` (valid in lane 0; every lane of the warp calls). `vectorized`: d_in is a pointer aligned
  // to 16 bytes, so that whole atoms are read in vectors.
  STRATA_DEVICE STRATA_FORCEINLINE AccumT ConsumeAtom(OffsetT atom, bool vectorized)
  {
    const int lane      = static_cast<int>(LaneId());
    const OffsetT first = atom * OffsetT(ATOM_ITEMS);
    const OffsetT left  = num_items_ - first;
    if constexpr (VECTOR > 1 && detail::is_vectorizable_input_v<InputIteratorT>)
    {
      if (vectorized && left >= OffsetT(ATOM_ITEMS))
      {
        return consume_whole(first, lane);
      }
    }
    return consume_partial(first, left, lane);
  }

private:
  struct alignas(16) vector_t
  {
    InputT items[VECTOR];
  };

  STRATA_DEVICE STRATA_FORCEINLINE void add(MaybeT& sum, const InputT& item)
  {
    const AccumT x = static_cast<AccumT>(transform_(item));
    sum.value      = sum.valid ? static_cast<AccumT>(op_(sum.value, x)) : x;
    sum.valid      = true;
  }

  // The lane's sums, sum w taking round r's item at w (where visit(r, w, sums[w]) adds it) in round order, then
  // combined: the one order of whole and short atoms.
  template <typename VisitT>
  STRATA_DEVICE STRATA_FORCEINLINE AccumT fold_rounds(VisitT visit)
  {
    MaybeT sums[VECTOR];
    STRATA_UNROLL
    for (int w = 0; w < VECTOR; ++w)
    {
      sums[w].valid = false;
    }
    STRATA_UNROLL
    for (int r = 0; r < ROUNDS; ++r)
    {
      STRATA_UNROLL
      for (int w = 0; w < VECTOR; ++w)
      {
        visit(r, w, sums[w]);
      }
    }
    return combine(sums);
  }

  // A whole atom, every round's vector loaded (read-only path) before any is added.
  STRATA_DEVICE STRATA_FORCEINLINE AccumT consume_whole(OffsetT first, int lane)
  {
    const uint4* const in = reinterpret_cast<const uint4*>(&d_in_[first]);
    uint4 loaded[ROUNDS];
    STRATA_UNROLL
    for (int r = 0; r < ROUNDS; ++r)
    {
      loaded[r] = ThreadLoad<LOAD_LDG>(in + r * 32 + lane);
    }
    return fold_rounds([&](int r, int w, MaybeT& sum) {
      add(sum, cuda::std::bit_cast<vector_t>(loaded[r]).items[w]);
    });
  }

  // The same order item by item, for a short atom, an input that is not an aligned pointer, or one read through an
  // iterator.
  STRATA_DEVICE STRATA_FORCEINLINE AccumT consume_partial(OffsetT first, OffsetT left, int lane)
  {
    return fold_rounds([&](int r, int w, MaybeT& sum) {
      const OffsetT at = OffsetT((r * 32 + lane) * VECTOR + w);
      if (at < left)
      {
        add(sum, InputT(d_in_[first + at]));
      }
    });
  }

  // The lane's sums folded in order of w, then the lanes' by the butterfly; lane 0's result.
  STRATA_DEVICE STRATA_FORCEINLINE AccumT combine(const MaybeT (&sums)[VECTOR])
  {
    MaybeT lane_sum = sums[0];
    STRATA_UNROLL
    for (int w = 1; w < VECTOR; ++w)
    {
      lane_sum = join(lane_sum, sums[w]);
    }
    STRATA_UNROLL
    for (int distance = 16; distance >= 1; distance /= 2)
    {
      MaybeT other;
      other.value = ShuffleXor<32>(lane_sum.value, distance, 0xffffffffu);
      other.valid = __shfl_xor_sync(0xffffffffu, lane_sum.valid ? 1 : 0, distance) != 0;
      lane_sum    = join(lane_sum, other);
    }
    return lane_sum.value;
  }

  STRATA_DEVICE STRATA_FORCEINLINE MaybeT join(const MaybeT& a, const MaybeT& b)
  {
    return detail::reduce_atoms::join(op_, a, b);
  }

  InputIteratorT d_in_;
  OffsetT num_items_;
  ReductionOpT op_;
  TransformOpT transform_;
};

STRATA_NAMESPACE_END
