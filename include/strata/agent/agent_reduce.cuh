// AgentReduce: the block-wide body of DeviceReduce's kernels.
//
// A block reduces a contiguous range of tiles. Each thread folds its items into one register accumulator
// (tile after tile, always in the same order, so results are the same bits run to run), then the block
// combines the per-thread accumulators with BlockReduce; the result is valid in thread 0.
//
// Full tiles of primitive types read through raw, 16-byte-aligned pointers are loaded as 16-byte vectors,
// VECTORS_PER_THREAD of them in flight per thread; everything else (fancy iterators, misaligned pointers,
// user types, the partial last tile) is loaded item by item, striped across the block so that loads coalesce.
#pragma once

#include <strata/block/block_reduce.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentReduce. ITEMS_PER_THREAD counts items per thread per tile; for the vector path a
// thread's share of a tile must be a whole number of 16-byte vectors (checked where it is used).
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_,
          BlockReduceAlgorithm BLOCK_ALGORITHM_ = BLOCK_REDUCE_WARP_REDUCTIONS,
          CacheLoadModifier LOAD_MODIFIER_ = LOAD_LDG, int BLOCKS_PER_SM_ = 0>
struct AgentReducePolicy
{
  static constexpr int BLOCK_THREADS                    = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD                 = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS                       = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr BlockReduceAlgorithm BLOCK_ALGORITHM = BLOCK_ALGORITHM_;
  static constexpr CacheLoadModifier LOAD_MODIFIER      = LOAD_MODIFIER_;
  // Resident blocks per SM to size the grid for (0: as many as occupancy allows; otherwise at most that many).
  static constexpr int BLOCKS_PER_SM = BLOCKS_PER_SM_;
};

namespace detail
{
// A transform that also receives the position of each item: transform(index, item). Arg reductions use it
// to pair values with their positions while the values are still read as vectors.
template <typename TransformOpT, typename = void>
struct is_indexed_transform : cuda::std::false_type
{};
template <typename TransformOpT>
struct is_indexed_transform<TransformOpT, cuda::std::void_t<typename TransformOpT::indexed_transform>>
    : cuda::std::true_type
{};

// True when InputIteratorT is a raw pointer to a primitive type that can be read as 16-byte vectors.
template <typename InputIteratorT>
constexpr bool is_vectorizable_input_v =
  cuda::std::is_pointer<InputIteratorT>::value&&
    cuda::std::is_arithmetic<cuda::std::remove_cv_t<cuda::std::remove_pointer_t<InputIteratorT>>>::value
  && (16 % sizeof(cuda::std::remove_pointer_t<InputIteratorT>) == 0);
} // namespace detail

namespace detail
{
namespace reduce
{
// An initial value that is only the output for an empty input and takes no part otherwise (ArgMin / ArgMax:
// combining {1, max} with the result would move ties to position 1).
template <typename T>
struct empty_value
{
  T value;
};

template <typename T>
struct is_empty_value : cuda::std::false_type
{};
template <typename T>
struct is_empty_value<empty_value<T>> : cuda::std::true_type
{};

// The output of a reduction of no items.
template <typename InitT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE const auto& empty_result(const InitT& init)
{
  if constexpr (is_empty_value<InitT>::value)
  {
    return init.value;
  }
  else
  {
    return init;
  }
}

// The output of a reduction whose items combine to `aggregate`: init op aggregate, or the aggregate alone where
// init only stands for an empty input.
template <typename AccumT, typename ReductionOpT, typename InitT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE AccumT with_init(ReductionOpT op, const InitT& init, const AccumT& aggregate)
{
  if constexpr (is_empty_value<InitT>::value)
  {
    return aggregate;
  }
  else
  {
    return op(static_cast<AccumT>(init), aggregate);
  }
}
} // namespace reduce
} // namespace detail

template <typename PolicyT, typename InputIteratorT, typename AccumT, typename OffsetT, typename ReductionOpT,
          typename TransformOpT>
class AgentReduce
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;

  using InputT = detail::it_value_t<InputIteratorT>;

  // The vector path: 16-byte words, each holding ITEMS_PER_VECTOR inputs.
  static constexpr bool CAN_VECTORIZE =
    detail::is_vectorizable_input_v<InputIteratorT> && (ITEMS_PER_THREAD * sizeof(InputT)) % 16 == 0;
  static constexpr int ITEMS_PER_VECTOR   = CAN_VECTORIZE ? 16 / static_cast<int>(sizeof(InputT)) : 1;
  static constexpr int VECTORS_PER_THREAD = ITEMS_PER_THREAD / ITEMS_PER_VECTOR;

  using BlockReduceT = BlockReduce<AccumT, BLOCK_THREADS, PolicyT::BLOCK_ALGORITHM>;

public:
  // The unit in which a range is best split between blocks: one vector (or one item) per thread.
  static constexpr int GRAIN_ITEMS = BLOCK_THREADS * ITEMS_PER_VECTOR;

  using TempStorage = typename BlockReduceT::TempStorage;

  STRATA_DEVICE STRATA_FORCEINLINE AgentReduce(TempStorage& temp_storage, InputIteratorT d_in, ReductionOpT op,
                                               TransformOpT transform)
      : temp_storage_(temp_storage)
      , d_in_(d_in)
      , op_(op)
      , transform_(transform)
  {}

  // Reduces [begin, end) (end > begin); the result is valid in thread 0.
  STRATA_DEVICE STRATA_FORCEINLINE AccumT ConsumeRange(OffsetT begin, OffsetT end)
  {
    if constexpr (CAN_VECTORIZE)
    {
      if (reinterpret_cast<cuda::std::uintptr_t>(d_in_) % 16 == 0)
      {
        return consume<true>(begin, end);
      }
    }
    return consume<false>(begin, end);
  }

private:
  // The accumulator value of the item at position `index`.
  STRATA_DEVICE STRATA_FORCEINLINE AccumT convert(const InputT& item, OffsetT index)
  {
    if constexpr (detail::is_indexed_transform<TransformOpT>::value)
    {
      return static_cast<AccumT>(transform_(index, item));
    }
    else
    {
      (void) index;
      return static_cast<AccumT>(transform_(item));
    }
  }

  // Folds the item at `index` into the accumulator (the first item of a thread initializes it).
  STRATA_DEVICE STRATA_FORCEINLINE void fold(AccumT& acc, bool& have, const InputT& item, OffsetT index)
  {
    const AccumT value = convert(item, index);
    acc                = have ? op_(acc, value) : value;
    have               = true;
  }

  // Reduces a full tile starting at `tile_begin` into `acc`: each thread's items are combined in order into
  // a tile partial first (independent of `acc`, so the loads issue back to back), then folded into `acc`.
  template <bool VECTORIZED>
  STRATA_DEVICE STRATA_FORCEINLINE void consume_full_tile(OffsetT tile_begin, AccumT& acc, bool& have)
  {
    if constexpr (VECTORIZED)
    {
      using Vector          = uint4;
      const Vector* vectors = reinterpret_cast<const Vector*>(d_in_ + tile_begin) + threadIdx.x;
      Vector loaded[VECTORS_PER_THREAD];
      STRATA_UNROLL
      for (int v = 0; v < VECTORS_PER_THREAD; ++v)
      {
        loaded[v] = ThreadLoad<PolicyT::LOAD_MODIFIER>(vectors + v * BLOCK_THREADS);
      }
      AccumT partial{};
      STRATA_UNROLL
      for (int v = 0; v < VECTORS_PER_THREAD; ++v)
      {
        struct items_t
        {
          InputT item[ITEMS_PER_VECTOR];
        };
        const items_t items = cuda::std::bit_cast<items_t>(loaded[v]);
        STRATA_UNROLL
        for (int i = 0; i < ITEMS_PER_VECTOR; ++i)
        {
          const OffsetT index = tile_begin + OffsetT((v * BLOCK_THREADS + threadIdx.x) * ITEMS_PER_VECTOR + i);
          const AccumT value  = convert(items.item[i], index);
          partial             = (v == 0 && i == 0) ? value : op_(partial, value);
        }
      }
      acc  = have ? op_(acc, partial) : partial;
      have = true;
    }
    else
    {
      InputT items[ITEMS_PER_THREAD];
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        items[i] = ThreadLoad<PolicyT::LOAD_MODIFIER>(d_in_ + (tile_begin + OffsetT(i * BLOCK_THREADS + threadIdx.x)));
      }
      AccumT partial = convert(items[0], tile_begin + OffsetT(threadIdx.x));
      STRATA_UNROLL
      for (int i = 1; i < ITEMS_PER_THREAD; ++i)
      {
        partial = op_(partial, convert(items[i], tile_begin + OffsetT(i * BLOCK_THREADS + threadIdx.x)));
      }
      acc  = have ? op_(acc, partial) : partial;
      have = true;
    }
  }

  // Reduces the whole grains of a range that are left after its full tiles, one 16-byte vector per thread each.
  STRATA_DEVICE STRATA_FORCEINLINE void consume_grains(OffsetT& offset, OffsetT end, AccumT& acc, bool& have)
  {
    const uint4* vectors = reinterpret_cast<const uint4*>(d_in_ + offset) + threadIdx.x;
    while (end - offset >= OffsetT(GRAIN_ITEMS))
    {
      struct items_t
      {
        InputT item[ITEMS_PER_VECTOR];
      };
      const items_t items = cuda::std::bit_cast<items_t>(ThreadLoad<PolicyT::LOAD_MODIFIER>(vectors));
      STRATA_UNROLL
      for (int i = 0; i < ITEMS_PER_VECTOR; ++i)
      {
        fold(acc, have, items.item[i], offset + OffsetT(threadIdx.x * ITEMS_PER_VECTOR + i));
      }
      vectors += BLOCK_THREADS;
      offset += OffsetT(GRAIN_ITEMS);
    }
  }

  template <bool VECTORIZED>
  STRATA_DEVICE STRATA_FORCEINLINE AccumT consume(OffsetT begin, OffsetT end)
  {
    AccumT acc{};
    bool have      = false;
    OffsetT offset = begin;

    // Full tiles.
    while (end - offset >= OffsetT(TILE_ITEMS))
    {
      consume_full_tile<VECTORIZED>(offset, acc, have);
      offset += OffsetT(TILE_ITEMS);
    }

    // Whole grains (ranges are split between blocks in grains, so only the last block has more than this).
    if constexpr (VECTORIZED)
    {
      consume_grains(offset, end, acc, have);
    }

    // The rest, item by item, striped.
    for (OffsetT i = offset + OffsetT(threadIdx.x); i < end; i += OffsetT(BLOCK_THREADS))
    {
      fold(acc, have, ThreadLoad<PolicyT::LOAD_MODIFIER>(d_in_ + i), i);
    }

    // A range shorter than the block leaves threads without items.
    if (end - begin < OffsetT(BLOCK_THREADS))
    {
      return BlockReduceT(temp_storage_).Reduce(acc, op_, static_cast<int>(end - begin));
    }
    return BlockReduceT(temp_storage_).Reduce(acc, op_);
  }

  TempStorage& temp_storage_;
  InputIteratorT d_in_;
  ReductionOpT op_;
  TransformOpT transform_;
};

STRATA_NAMESPACE_END
