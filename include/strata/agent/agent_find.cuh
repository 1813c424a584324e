// AgentFind: the body of DeviceFind::FindIf's kernel. One wave of blocks takes the tiles in order, block b tiles b,
// b + G, ... (G blocks): each thread tests its items (read blocked, as vectors where the input is an array), the block
// reduces the index of its first match, and one thread lowers the shared result to it (an atomic minimum). Before each
// tile the block reads the result, and stops once a match lies before the tile: only tiles that start before the first
// match are read, so a match near the front costs little.
#pragma once

#include <strata/block/block_load.cuh>
#include <strata/block/block_reduce.cuh>
#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/atomic>
#include <cuda/functional>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentFind: BLOCK_THREADS threads of ITEMS_PER_THREAD items each, how a tile is loaded, and the
// blocks per SM the registers are bounded for (the grid is one wave of them).
template <int BLOCK_THREADS_, int ITEMS_PER_THREAD_, BlockLoadAlgorithm LOAD_ALGORITHM_ = BLOCK_LOAD_DIRECT,
          CacheLoadModifier LOAD_MODIFIER_ = LOAD_DEFAULT, int MIN_BLOCKS_PER_SM_ = 1>
struct AgentFindPolicy
{
  static constexpr int BLOCK_THREADS                 = BLOCK_THREADS_;
  static constexpr int ITEMS_PER_THREAD              = ITEMS_PER_THREAD_;
  static constexpr int TILE_ITEMS                    = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr BlockLoadAlgorithm LOAD_ALGORITHM = LOAD_ALGORITHM_;
  static constexpr CacheLoadModifier LOAD_MODIFIER   = LOAD_MODIFIER_;
  static constexpr int MIN_BLOCKS_PER_SM             = MIN_BLOCKS_PER_SM_;
};

// d_found: the index of the first match found so far (num_items: none), lowered atomically.
template <typename PolicyT, typename InputIteratorT, typename PredicateT, typename OffsetT, typename InputT>
class AgentFind
{
  static constexpr int BLOCK_THREADS    = PolicyT::BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = PolicyT::ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS       = PolicyT::TILE_ITEMS;

  using BlockLoadT   = BlockLoad<InputT, BLOCK_THREADS, ITEMS_PER_THREAD, PolicyT::LOAD_ALGORITHM>;
  using BlockReduceT = BlockReduce<OffsetT, BLOCK_THREADS>;

public:
  union TempStorage
  {
    typename BlockLoadT::TempStorage load;
    typename BlockReduceT::TempStorage reduce;
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentFind(TempStorage& temp_storage, InputIteratorT d_in, PredicateT predicate,
                                             OffsetT num_items, OffsetT* d_found)
      : temp_storage_(temp_storage)
      , d_in_(d_in)
      , predicate_(predicate)
      , num_items_(num_items)
      , d_found_(d_found)
  {}

  // Tests the block's tiles in order until none is left or a match lies before the next one.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange()
  {
    for (OffsetT tile = blockIdx.x;; tile += OffsetT(gridDim.x))
    {
      const OffsetT tile_offset = tile * OffsetT(TILE_ITEMS);
      if (tile_offset >= num_items_)
      {
        return;
      }
      // One barrier: the result as thread 0 reads it, and the storage free from the last tile's reduction.
      const bool stop =
        __syncthreads_or(threadIdx.x == 0 && found().load(cuda::std::memory_order_relaxed) < tile_offset);
      if (stop)
      {
        return;
      }
      const OffsetT left  = num_items_ - tile_offset;
      const OffsetT first = left >= OffsetT(TILE_ITEMS) ? first_match<true>(tile_offset, TILE_ITEMS)
                                                        : first_match<false>(tile_offset, static_cast<int>(left));
      if (threadIdx.x == 0 && first < num_items_)
      {
        found().fetch_min(first, cuda::std::memory_order_relaxed);
      }
    }
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE cuda::atomic_ref<OffsetT, cuda::thread_scope_device> found() const
  {
    return cuda::atomic_ref<OffsetT, cuda::thread_scope_device>(*d_found_);
  }

  // The index of the tile's first match (num_items: none), in thread 0.
  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE OffsetT first_match(OffsetT tile_offset, int valid_items)
  {
    InputT items[ITEMS_PER_THREAD];
    if constexpr (FULL)
    {
      BlockLoadT(temp_storage_.load).template Load<PolicyT::LOAD_MODIFIER>(d_in_ + tile_offset, items);
    }
    else
    {
      BlockLoadT(temp_storage_.load)
        .template Load<PolicyT::LOAD_MODIFIER>(d_in_ + tile_offset, items, valid_items, InputT(d_in_[tile_offset]));
    }
    // Blocked: thread t holds items t * ITEMS_PER_THREAD ..., so its first match is its lowest.
    OffsetT first = num_items_;
    STRATA_UNROLL
    for (int k = ITEMS_PER_THREAD - 1; k >= 0; --k)
    {
      const int i = static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD + k;
      if ((FULL || i < valid_items) && static_cast<bool>(predicate_(items[k])))
      {
        first = tile_offset + OffsetT(i);
      }
    }
    __syncthreads(); // the load's storage is the reduction's
    return BlockReduceT(temp_storage_.reduce).Reduce(first, cuda::minimum<>{});
  }

  TempStorage& temp_storage_;
  InputIteratorT d_in_;
  PredicateT predicate_;
  OffsetT num_items_;
  OffsetT* d_found_;
};

STRATA_NAMESPACE_END
