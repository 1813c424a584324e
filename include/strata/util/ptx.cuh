// Instruction wrappers: lane and warp ids, lane masks, shuffles of any type, warp-wide integer reductions.
//
// The algorithms above this file read as algorithms; every shuffle and special register goes through here.
#pragma once

#include <strata/config.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// -- special registers ----------------------------------------------------------------------------------

// Index of the calling thread within its hardware warp.
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LaneId()
{
  unsigned int r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

// Linear thread index within a (possibly multi-dimensional) block.
STRATA_DEVICE STRATA_FORCEINLINE int RowMajorTid(int block_dim_x, int block_dim_y, int block_dim_z)
{
  return ((block_dim_z == 1) ? 0 : (threadIdx.z * block_dim_x * block_dim_y))
       + ((block_dim_y == 1) ? 0 : (threadIdx.y * block_dim_x)) + threadIdx.x;
}

// Hardware warp index within the block, for a block with `block_threads` linear threads.
STRATA_DEVICE STRATA_FORCEINLINE unsigned int WarpId(int linear_tid)
{
  return static_cast<unsigned int>(linear_tid) / WARP_THREADS;
}

STRATA_DEVICE STRATA_FORCEINLINE unsigned int LaneMaskLt()
{
  unsigned int r;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r));
  return r;
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LaneMaskLe()
{
  unsigned int r;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(r));
  return r;
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LaneMaskGt()
{
  unsigned int r;
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(r));
  return r;
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LaneMaskGe()
{
  unsigned int r;
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(r));
  return r;
}

// Member mask of logical warp number `warp_id` of `LOGICAL_WARP_THREADS` lanes (a power of two <= 32) within
// its hardware warp; all lanes for a 32-lane logical warp.
template <int LOGICAL_WARP_THREADS>
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LogicalWarpMask(unsigned int logical_warp_id)
{
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32, "logical warp of 1..32 lanes");
  if (LOGICAL_WARP_THREADS == 32)
  {
    return 0xffffffffu;
  }
  constexpr unsigned int base = (LOGICAL_WARP_THREADS == 32) ? 0xffffffffu : ((1u << LOGICAL_WARP_THREADS) - 1u);
  constexpr unsigned int warps_per_hw = 32 / LOGICAL_WARP_THREADS;
  return base << ((logical_warp_id % warps_per_hw) * LOGICAL_WARP_THREADS);
}

// -- shuffles of any trivially copyable type --------------------------------------------------------------
//
// A value is moved as ceil(sizeof(T) / 4) 32-bit shuffles. `c` is the PTX clamp/segment operand:
// bits 0-4 hold the clamp value, bits 8-12 the segment mask (32 - logical warp width), as in shfl.sync.

namespace detail
{
enum class shfl_mode
{
  up,
  down,
  idx,
  bfly
};

template <shfl_mode Mode>
STRATA_DEVICE STRATA_FORCEINLINE unsigned int shfl_word(unsigned int word, int src, int c, unsigned int member_mask)
{
  unsigned int r;
  if constexpr (Mode == shfl_mode::up)
  {
    asm volatile("shfl.sync.up.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(word), "r"(src), "r"(c), "r"(member_mask));
  }
  else if constexpr (Mode == shfl_mode::down)
  {
    asm volatile("shfl.sync.down.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(word), "r"(src), "r"(c), "r"(member_mask));
  }
  else if constexpr (Mode == shfl_mode::idx)
  {
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(word), "r"(src), "r"(c), "r"(member_mask));
  }
  else
  {
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(word), "r"(src), "r"(c), "r"(member_mask));
  }
  return r;
}

template <shfl_mode Mode, typename T>
STRATA_DEVICE STRATA_FORCEINLINE T shfl(const T& input, int src, int c, unsigned int member_mask)
{
  static_assert(cuda::std::is_trivially_copyable<T>::value, "shuffled types must be trivially copyable");
  constexpr int WORDS = static_cast<int>((sizeof(T) + sizeof(unsigned int) - 1) / sizeof(unsigned int));
  // Copy through a word array so that types whose size is not a multiple of 4 are handled too.
  unsigned int in_words[WORDS];
  unsigned int out_words[WORDS];
  in_words[WORDS - 1] = 0;
  memcpy(in_words, &input, sizeof(T));
  STRATA_UNROLL
  for (int w = 0; w < WORDS; ++w)
  {
    out_words[w] = shfl_word<Mode>(in_words[w], src, c, member_mask);
  }
  T output;
  memcpy(&output, out_words, sizeof(T));
  return output;
}
} // namespace detail

// Value from lane (self - src_offset) of the logical warp of LOGICAL_WARP_THREADS lanes (clamped at its first lane).
template <int LOGICAL_WARP_THREADS, typename T>
STRATA_DEVICE STRATA_FORCEINLINE T ShuffleUp(const T& input, int src_offset, int first_thread, unsigned int member_mask)
{
  constexpr int SEG = (32 - LOGICAL_WARP_THREADS) << 8;
  return detail::shfl<detail::shfl_mode::up>(input, src_offset, first_thread | SEG, member_mask);
}

// Value from lane (self + src_offset) of the logical warp (clamped at `last_thread`).
template <int LOGICAL_WARP_THREADS, typename T>
STRATA_DEVICE STRATA_FORCEINLINE T ShuffleDown(const T& input, int src_offset, int last_thread, unsigned int member_mask)
{
  constexpr int SEG = (32 - LOGICAL_WARP_THREADS) << 8;
  return detail::shfl<detail::shfl_mode::down>(input, src_offset, last_thread | SEG, member_mask);
}

// Value from lane `src_lane` of the logical warp.
template <int LOGICAL_WARP_THREADS, typename T>
STRATA_DEVICE STRATA_FORCEINLINE T ShuffleIndex(const T& input, int src_lane, unsigned int member_mask)
{
  constexpr int SEG = (32 - LOGICAL_WARP_THREADS) << 8;
  return detail::shfl<detail::shfl_mode::idx>(input, src_lane, (LOGICAL_WARP_THREADS - 1) | SEG, member_mask);
}

// Value from lane (self ^ lane_mask) of the logical warp.
template <int LOGICAL_WARP_THREADS, typename T>
STRATA_DEVICE STRATA_FORCEINLINE T ShuffleXor(const T& input, int lane_mask, unsigned int member_mask)
{
  constexpr int SEG = (32 - LOGICAL_WARP_THREADS) << 8;
  return detail::shfl<detail::shfl_mode::bfly>(input, lane_mask, (LOGICAL_WARP_THREADS - 1) | SEG, member_mask);
}

// -- warp synchronization -------------------------------------------------------------------------------

STRATA_DEVICE STRATA_FORCEINLINE void WarpSync(unsigned int member_mask = 0xffffffffu)
{
  __syncwarp(member_mask);
}

// Ballot over the member mask.
STRATA_DEVICE STRATA_FORCEINLINE unsigned int WarpBallot(int predicate, unsigned int member_mask = 0xffffffffu)
{
  return __ballot_sync(member_mask, predicate);
}

STRATA_NAMESPACE_END
