// AgentFind: the body of DeviceFind::FindIf's kernel. One wave of blocks takes the tiles in order, block b tiles b,
// b + G, ... (G blocks): each thread tests its items (read blocked, as vectors where the input is an array), and a
// block that finds a match in a tile lowers the shared result to the tile's first (an atomic minimum) and stops, as
// its later tiles all come after it. While a tile's items load, one thread reads the result so far; the one barrier
// of the tile then tells the block both whether any thread matched and whether the result lies before the block's
// next tile, where it stops too. So a block reads at most one tile past the first match it could have seen, a match
// near the front costs little, and a search without one pays a barrier a tile and no reduction.
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
  using BlockReduceT = BlockReduce<int, BLOCK_THREADS>;

public:
  struct TempStorage
  {
    union
    {
      typename BlockLoadT::TempStorage load;
      typename BlockReduceT::TempStorage reduce;
    } collective;
    // Whether the result read during a tile lies before the block's next tile; two, for consecutive tiles (a thread
    // may still read one while the reading thread writes the next).
    bool stop[2];
  };

  STRATA_DEVICE STRATA_FORCEINLINE AgentFind(TempStorage& temp_storage, InputIteratorT d_in, PredicateT predicate,
                                             OffsetT num_items, OffsetT* d_found)
      : temp_storage_(temp_storage)
      , d_in_(d_in)
      , predicate_(predicate)
      , num_items_(num_items)
      , d_found_(d_found)
  {}

  // Tests the block's tiles in order until none is left, the block matches, or the result lies before its next tile.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeRange()
  {
    const OffsetT stride = OffsetT(gridDim.x) * OffsetT(TILE_ITEMS);
    int turn             = 0;
    for (OffsetT tile_offset = OffsetT(blockIdx.x) * OffsetT(TILE_ITEMS); tile_offset < num_items_;
         tile_offset += stride, turn ^= 1)
    {
      // The result so far, read before the tile's loads are issued and first needed after its items are tested:
      // the two round trips overlap.
      const OffsetT seen = threadIdx.x == 0 ? found().load(cuda::std::memory_order_relaxed) : num_items_;
      const OffsetT left = num_items_ - tile_offset;
      const int mine     = left >= OffsetT(TILE_ITEMS) ? first_in_thread<true>(tile_offset, TILE_ITEMS)
                                                       : first_in_thread<false>(tile_offset, static_cast<int>(left));
      if (threadIdx.x == 0)
      {
        temp_storage_.stop[turn] = seen < tile_offset + stride;
      }
      // One barrier: any match in the tile, the stop flag written, and the load's storage free for the reduction.
      if (__syncthreads_or(mine < TILE_ITEMS))
      {
        const int first = BlockReduceT(temp_storage_.collective.reduce).Reduce(mine, cuda::minimum<>{});
        if (threadIdx.x == 0)
        {
          found().fetch_min(tile_offset + OffsetT(first), cuda::std::memory_order_relaxed);
        }
        return;
      }
      if (temp_storage_.stop[turn])
      {
        return;
      }
    }
  }

private:
  STRATA_DEVICE STRATA_FORCEINLINE cuda::atomic_ref<OffsetT, cuda::thread_scope_device> found() const
  {
    return cuda::atomic_ref<OffsetT, cuda::thread_scope_device>(*d_found_);
  }

  // The position in the tile of the thread's first match (TILE_ITEMS: none).
  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE int first_in_thread(OffsetT tile_offset, int valid_items)
  {
    InputT items[ITEMS_PER_THREAD];
    if constexpr (FULL)
    {
      BlockLoadT(temp_storage_.collective.load).template Load<PolicyT::LOAD_MODIFIER>(d_in_ + tile_offset, items);
    }
    else
    {
      BlockLoadT(temp_storage_.collective.load)
        .template Load<PolicyT::LOAD_MODIFIER>(d_in_ + tile_offset, items, valid_items, InputT(d_in_[tile_offset]));
    }
    // Blocked: thread t holds items t * ITEMS_PER_THREAD ..., so its first match is its lowest.
    int first = TILE_ITEMS;
    STRATA_UNROLL
    for (int k = ITEMS_PER_THREAD - 1; k >= 0; --k)
    {
      const int i = static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD + k;
      if ((FULL || i < valid_items) && static_cast<bool>(predicate_(items[k])))
      {
        first = i;
      }
    }
    return first;
  }

  TempStorage& temp_storage_;
  InputIteratorT d_in_;
  PredicateT predicate_;
  OffsetT num_items_;
  OffsetT* d_found_;
};

STRATA_NAMESPACE_END
