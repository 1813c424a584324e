// Instruction wrappers: lane and warp ids, lane masks, shuffles of any type, warp-wide integer reductions,
// relaxed 128-bit accesses, bulk copies and the mbarriers they complete on.
//
// The algorithms above this file read as algorithms; every shuffle and special register goes through here.
#pragma once

#include <strata/config.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/ptx>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// -- special registers ----------------------------------------------------------------------------------

// Index of the calling thread within its hardware warp.
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LaneId()
{
  return cuda::ptx::get_sreg_laneid();
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
  return cuda::ptx::get_sreg_lanemask_lt();
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LaneMaskLe()
{
  return cuda::ptx::get_sreg_lanemask_le();
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LaneMaskGt()
{
  return cuda::ptx::get_sreg_lanemask_gt();
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int LaneMaskGe()
{
  return cuda::ptx::get_sreg_lanemask_ge();
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

// -- shuffles of any type ----------------------------------------------------------------------------------
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
  const auto lane  = static_cast<cuda::std::uint32_t>(src);
  const auto clamp = static_cast<cuda::std::uint32_t>(c);
  if constexpr (Mode == shfl_mode::up)
  {
    return cuda::ptx::shfl_sync_up(word, lane, clamp, member_mask);
  }
  else if constexpr (Mode == shfl_mode::down)
  {
    return cuda::ptx::shfl_sync_down(word, lane, clamp, member_mask);
  }
  else if constexpr (Mode == shfl_mode::idx)
  {
    return cuda::ptx::shfl_sync_idx(word, lane, clamp, member_mask);
  }
  else
  {
    return cuda::ptx::shfl_sync_bfly(word, lane, clamp, member_mask);
  }
}

template <shfl_mode Mode, typename T>
STRATA_DEVICE STRATA_FORCEINLINE T shfl(const T& input, int src, int c, unsigned int member_mask)
{
  constexpr int WORDS = static_cast<int>((sizeof(T) + sizeof(unsigned int) - 1) / sizeof(unsigned int));
  // Copy through a word array so that types whose size is not a multiple of 4 are handled too.
  unsigned int in_words[WORDS];
  unsigned int out_words[WORDS];
  in_words[WORDS - 1] = 0;
  memcpy(in_words, static_cast<const void*>(&input), sizeof(T));
  STRATA_UNROLL
  for (int w = 0; w < WORDS; ++w)
  {
    out_words[w] = shfl_word<Mode>(in_words[w], src, c, member_mask);
  }
  if constexpr (cuda::std::is_trivially_copyable<T>::value && cuda::std::is_default_constructible<T>::value)
  {
    T output;
    memcpy(&output, out_words, sizeof(T));
    return output;
  }
  else
  {
    // A type with its own copy operations (or no default constructor) crosses lanes as the bytes of the source
    // lane's object, and is copied out of them by its copy constructor, as CUB moves such types.
    Uninitialized<T> output;
    memcpy(output.storage, out_words, sizeof(T));
    return output.Alias();
  }
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
STRATA_DEVICE STRATA_FORCEINLINE T ShuffleDown(const T& input, int src_offset, int last_thread,
                                               unsigned int member_mask)
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

// -- shuffle-up fused with an add ---------------------------------------------------------------------------
//
// value(self - src_offset) + value(self) when that lane lies in the logical warp at or after `first_thread`,
// otherwise value(self). The shuffle's own in-range predicate guards the add, so one step of an inclusive sum
// is two instructions with no lane-id compare and no branch. 64-bit values move as two words; both shuffles
// yield the same predicate.

template <int LOGICAL_WARP_THREADS>
STRATA_DEVICE STRATA_FORCEINLINE unsigned int ShuffleUpAdd(unsigned int value, int src_offset, int first_thread,
                                                           unsigned int member_mask)
{
  constexpr int SEG = (32 - LOGICAL_WARP_THREADS) << 8;
  asm volatile("{\n\t.reg .u32 t;\n\t.reg .pred p;\n\t"
               "shfl.sync.up.b32 t|p, %0, %1, %2, %3;\n\t"
               "@p add.u32 %0, t, %0;\n\t}"
               : "+r"(value)
               : "r"(src_offset), "r"(first_thread | SEG), "r"(member_mask));
  return value;
}

template <int LOGICAL_WARP_THREADS>
STRATA_DEVICE STRATA_FORCEINLINE float ShuffleUpAdd(float value, int src_offset, int first_thread,
                                                    unsigned int member_mask)
{
  constexpr int SEG = (32 - LOGICAL_WARP_THREADS) << 8;
  asm volatile("{\n\t.reg .f32 t;\n\t.reg .pred p;\n\t"
               "shfl.sync.up.b32 t|p, %0, %1, %2, %3;\n\t"
               "@p add.f32 %0, t, %0;\n\t}"
               : "+f"(value)
               : "r"(src_offset), "r"(first_thread | SEG), "r"(member_mask));
  return value;
}

template <int LOGICAL_WARP_THREADS>
STRATA_DEVICE STRATA_FORCEINLINE unsigned long long ShuffleUpAdd(unsigned long long value, int src_offset,
                                                                 int first_thread, unsigned int member_mask)
{
  constexpr int SEG = (32 - LOGICAL_WARP_THREADS) << 8;
  asm volatile("{\n\t.reg .u32 lo, hi;\n\t.reg .u64 t;\n\t.reg .pred p;\n\t"
               "mov.b64 {lo, hi}, %0;\n\t"
               "shfl.sync.up.b32 lo|p, lo, %1, %2, %3;\n\t"
               "shfl.sync.up.b32 hi|p, hi, %1, %2, %3;\n\t"
               "mov.b64 t, {lo, hi};\n\t"
               "@p add.u64 %0, t, %0;\n\t}"
               : "+l"(value)
               : "r"(src_offset), "r"(first_thread | SEG), "r"(member_mask));
  return value;
}

template <int LOGICAL_WARP_THREADS>
STRATA_DEVICE STRATA_FORCEINLINE double ShuffleUpAdd(double value, int src_offset, int first_thread,
                                                     unsigned int member_mask)
{
  constexpr int SEG = (32 - LOGICAL_WARP_THREADS) << 8;
  asm volatile("{\n\t.reg .u32 lo, hi;\n\t.reg .f64 t;\n\t.reg .pred p;\n\t"
               "mov.b64 {lo, hi}, %0;\n\t"
               "shfl.sync.up.b32 lo|p, lo, %1, %2, %3;\n\t"
               "shfl.sync.up.b32 hi|p, hi, %1, %2, %3;\n\t"
               "mov.b64 t, {lo, hi};\n\t"
               "@p add.f64 %0, t, %0;\n\t}"
               : "+d"(value)
               : "r"(src_offset), "r"(first_thread | SEG), "r"(member_mask));
  return value;
}

// -- shuffle-down fused with an add ---------------------------------------------------------------------------
//
// value(self) + value(self + src_offset) when that lane lies in the logical warp at or before `last_thread`
// (a logical lane, which may differ from lane to lane), otherwise value(self). The shuffle's own in-range
// predicate guards the add, so one step of a bounded reduction tree is two instructions with no lane-id
// compare. The own value stays on the left: reduction trees keep their operand order.

template <int LOGICAL_WARP_THREADS>
STRATA_DEVICE STRATA_FORCEINLINE unsigned int ShuffleDownAdd(unsigned int value, int src_offset, int last_thread,
                                                             unsigned int member_mask)
{
  constexpr int SEG = (32 - LOGICAL_WARP_THREADS) << 8;
  asm volatile("{\n\t.reg .u32 t;\n\t.reg .pred p;\n\t"
               "shfl.sync.down.b32 t|p, %0, %1, %2, %3;\n\t"
               "@p add.u32 %0, %0, t;\n\t}"
               : "+r"(value)
               : "r"(src_offset), "r"(last_thread | SEG), "r"(member_mask));
  return value;
}

template <int LOGICAL_WARP_THREADS>
STRATA_DEVICE STRATA_FORCEINLINE float ShuffleDownAdd(float value, int src_offset, int last_thread,
                                                      unsigned int member_mask)
{
  constexpr int SEG = (32 - LOGICAL_WARP_THREADS) << 8;
  asm volatile("{\n\t.reg .f32 t;\n\t.reg .pred p;\n\t"
               "shfl.sync.down.b32 t|p, %0, %1, %2, %3;\n\t"
               "@p add.f32 %0, %0, t;\n\t}"
               : "+f"(value)
               : "r"(src_offset), "r"(last_thread | SEG), "r"(member_mask));
  return value;
}

// -- warp-wide reductions of 32-bit integers (redux.sync) ---------------------------------------------------
//
// One instruction reduces a value over the lanes of `member_mask`, and every one of those lanes receives the
// result. The instruction exists from sm_80 on (the runtime declares it only there), so these are defined only
// where it exists: call them inside NV_IF_TARGET(NV_PROVIDES_SM_80, ...).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
STRATA_DEVICE STRATA_FORCEINLINE unsigned int WarpReduxAdd(unsigned int value, unsigned int member_mask)
{
  return __reduce_add_sync(member_mask, value);
}
STRATA_DEVICE STRATA_FORCEINLINE int WarpReduxMin(int value, unsigned int member_mask)
{
  return __reduce_min_sync(member_mask, value);
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int WarpReduxMin(unsigned int value, unsigned int member_mask)
{
  return __reduce_min_sync(member_mask, value);
}
STRATA_DEVICE STRATA_FORCEINLINE int WarpReduxMax(int value, unsigned int member_mask)
{
  return __reduce_max_sync(member_mask, value);
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int WarpReduxMax(unsigned int value, unsigned int member_mask)
{
  return __reduce_max_sync(member_mask, value);
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int WarpReduxAnd(unsigned int value, unsigned int member_mask)
{
  return __reduce_and_sync(member_mask, value);
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int WarpReduxOr(unsigned int value, unsigned int member_mask)
{
  return __reduce_or_sync(member_mask, value);
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int WarpReduxXor(unsigned int value, unsigned int member_mask)
{
  return __reduce_xor_sync(member_mask, value);
}
#endif

// -- named barriers -------------------------------------------------------------------------------------

// Named barriers (ids 1 to 15; 0 is __syncthreads'): NamedBarrierSync waits until `threads` threads, whole warps,
// the calling one included, have come to barrier `id`, a __syncthreads of a group of warps. (Hand-offs from one group
// of warps to another go through mbarriers, MbarrierArrive and MbarrierWait: compute-sanitizer's racecheck takes no
// ordering from bar.arrive, and reports every hand-off through one as a hazard.)
STRATA_DEVICE STRATA_FORCEINLINE void NamedBarrierSync(unsigned int id, unsigned int threads)
{
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
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

// -- lanes with equal labels -------------------------------------------------------------------------------

// match.any.sync: the lanes of `member_mask` whose `label` equals this lane's (this lane included). sm_70 on.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
STRATA_DEVICE STRATA_FORCEINLINE unsigned int MatchAnySync(unsigned int label, unsigned int member_mask = 0xffffffffu)
{
  return __match_any_sync(member_mask, label);
}
#endif

// The lanes of `member_mask` whose label agrees with this lane's in its low LABEL_BITS bits (this lane included).
// Labels of up to 8 bits take one ballot per bit, each keeping the lanes that agree on that bit: match.any.sync
// is slower than a few ballots at such widths (CUB, which ranks radix digits the same way, makes the same choice).
// Wider labels use match.any.sync.
template <int LABEL_BITS>
STRATA_DEVICE STRATA_FORCEINLINE unsigned int MatchAny(unsigned int label, unsigned int member_mask = 0xffffffffu)
{
  static_assert(LABEL_BITS >= 1 && LABEL_BITS <= 32, "labels of 1..32 bits");
  if constexpr (LABEL_BITS <= 8)
  {
    // Per bit: a test that sets a predicate, the ballot, the ballot complemented where the bit is clear, an AND:
    // four instructions (the same in C++ compiles to six or seven).
    unsigned int peers = member_mask;
    STRATA_UNROLL
    for (int bit = 0; bit < LABEL_BITS; ++bit)
    {
      unsigned int agree;
      asm("{\n\t.reg .pred p;\n\t"
          "and.b32 %0, %1, %2;\n\t"
          "setp.ne.u32 p, %0, 0;\n\t"
          "vote.sync.ballot.b32 %0, p, %3;\n\t"
          "@!p not.b32 %0, %0;\n\t}"
          : "=&r"(agree)
          : "r"(label), "r"(1u << bit), "r"(member_mask));
      peers &= agree;
    }
    return peers;
  }
  else
  {
    constexpr unsigned int LABEL_MASK = (LABEL_BITS == 32) ? 0xffffffffu : ((1u << (LABEL_BITS % 32)) - 1u);
    return __match_any_sync(member_mask, label & LABEL_MASK);
  }
}

// -- bit fields --------------------------------------------------------------------------------------------
//
// Bits [bit_start, bit_start + num_bits) of `source`, right-aligned, for any bit_start and num_bits: bits past the
// top of `source` read as 0 and at most 32 bits are returned. PTX shr clamps shift amounts at the operand width,
// where a C++ shift by the width or more is undefined; from sm_70 on the bfe instruction is emulated, and a shift
// and a mask are what it would expand to.
STRATA_DEVICE STRATA_FORCEINLINE unsigned int BFE(unsigned int source, unsigned int bit_start, unsigned int num_bits)
{
  unsigned int shifted;
  asm("shr.b32 %0, %1, %2;" : "=r"(shifted) : "r"(source), "r"(bit_start));
  return shifted & (num_bits >= 32 ? 0xffffffffu : ((1u << num_bits) - 1u));
}
STRATA_DEVICE STRATA_FORCEINLINE unsigned int BFE(unsigned long long source, unsigned int bit_start,
                                                  unsigned int num_bits)
{
  unsigned long long shifted;
  asm("shr.b64 %0, %1, %2;" : "=l"(shifted) : "l"(source), "r"(bit_start));
  return static_cast<unsigned int>(shifted) & (num_bits >= 32 ? 0xffffffffu : ((1u << num_bits) - 1u));
}

// -- values the compiler must not share between uses ---------------------------------------------------------

// `value`, as a fresh value the compiler cannot merge with another computation of it. Addresses derived from
// it in two places (a tile's load and its store) are then computed twice, where each is used, instead of
// being kept in registers all the way between: cheaper than the registers they would hold.
STRATA_DEVICE STRATA_FORCEINLINE int Unshared(int value)
{
  asm volatile("mov.b32 %0, %1;" : "=r"(value) : "r"(value));
  return value;
}

// -- programmatic dependent launch (sm_90+) ------------------------------------------------------------------

// Lets the grid launched after this one on the stream with programmatic stream serialization start now
// (it still waits in GridDependencyWait for this grid to finish). No effect before sm_90.
STRATA_DEVICE STRATA_FORCEINLINE void GridLaunchDependents()
{
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cudaTriggerProgrammaticLaunchCompletion();));
}

// Waits until the grids this grid depends on have finished and their writes are visible. Returns at once for a
// grid launched without a programmatic dependency, and before sm_90.
STRATA_DEVICE STRATA_FORCEINLINE void GridDependencyWait()
{
  NV_IF_TARGET(NV_PROVIDES_SM_90, (cudaGridDependencySynchronize();));
}

// -- 128-bit relaxed accesses and bulk L2 prefetch ------------------------------------------------------------

// A relaxed, gpu-scope load of the 16 bytes at `ptr` (16-byte aligned, global memory) as one single-copy
// atomic access: a concurrent StoreRelaxed128 is seen whole or not at all.
STRATA_DEVICE STRATA_FORCEINLINE void LoadRelaxed128(const void* ptr, unsigned long long& lo, unsigned long long& hi)
{
  asm volatile("{\n\t.reg .b128 t;\n\tld.relaxed.gpu.global.b128 t, [%2];\n\tmov.b128 {%0, %1}, t;\n\t}"
               : "=l"(lo), "=l"(hi)
               : "l"(ptr)
               : "memory");
}

// A relaxed, gpu-scope store of 16 bytes to `ptr` (16-byte aligned, global memory) as one single-copy atomic
// access.
STRATA_DEVICE STRATA_FORCEINLINE void StoreRelaxed128(void* ptr, unsigned long long lo, unsigned long long hi)
{
  asm volatile("{\n\t.reg .b128 t;\n\tmov.b128 t, {%1, %2};\n\tst.relaxed.gpu.global.b128 [%0], t;\n\t}"
               :
               : "l"(ptr), "l"(lo), "l"(hi)
               : "memory");
}

// Asks for `bytes` bytes at `ptr` (both multiples of 16; global memory) to be brought into L2, without waiting
// and without registers: one thread's instruction covers a whole tile. Does nothing before sm_90.
STRATA_DEVICE STRATA_FORCEINLINE void PrefetchL2Bulk(const void* ptr, unsigned int bytes)
{
  NV_IF_TARGET(NV_PROVIDES_SM_90,
               (asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(ptr), "r"(bytes)
                             : "memory");),
               ((void) ptr; (void) bytes;));
}

// -- L2 eviction priority ----------------------------------------------------------------------------------------

// Puts the 128-byte L2 lines that overlap the `bytes` bytes at `ptr` (global memory) back to normal eviction
// priority (`applypriority`; no data moves, absent lines are left alone). The calling thread takes lines rank,
// rank + threads, rank + 2 * threads, ... of them, so `threads` threads share the range. Every line touched holds
// at least one byte of the range. Does nothing before sm_80 or for bytes <= 0.
STRATA_DEVICE STRATA_FORCEINLINE void L2RestoreNormalPriority(const void* ptr, long long bytes, int rank, int threads)
{
  using cuda::std::uintptr_t;
  if (bytes <= 0)
  {
    return;
  }
  const uintptr_t begin  = reinterpret_cast<uintptr_t>(ptr);
  const uintptr_t last   = (begin + static_cast<uintptr_t>(bytes) - 1) & ~uintptr_t{127};
  const uintptr_t stride = static_cast<uintptr_t>(threads) * 128;
  for (uintptr_t line = (begin & ~uintptr_t{127}) + static_cast<uintptr_t>(rank) * 128; line <= last; line += stride)
  {
    NV_IF_TARGET(NV_PROVIDES_SM_80, (asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(line)
                                                  : "memory");));
  }
}

// -- bulk copies between global and shared memory, completed on an mbarrier (sm_90+) ----------------------------
//
// A block moves a whole tile with one instruction of one thread: BulkLoad copies global memory into shared
// memory and signals the transaction bytes on an mbarrier that every thread then waits on; BulkStore copies
// shared memory out in a bulk group of the issuing thread, which waits in BulkStoreWaitRead before the source
// may be written again (and before the block exits). Addresses and sizes are multiples of 16 bytes. Generic
// writes to shared memory that a bulk store will read need ProxyFenceShared() in each writing thread first.
// These exist from sm_90 on: call them inside NV_IF_TARGET(NV_PROVIDES_SM_90, ...).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
// Makes `bar` an mbarrier whose phases `arrivals` arrivals complete (one, with its transaction bytes, for a bulk
// load); visible to the bulk-copy unit once the block has synchronized.
STRATA_DEVICE STRATA_FORCEINLINE void MbarrierInit(cuda::std::uint64_t* bar, cuda::std::uint32_t arrivals = 1)
{
  cuda::ptx::mbarrier_init(bar, arrivals);
  cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
}

// Arrives on `bar` expecting `bytes` of bulk copies (BulkCopyIn) to land before its phase completes.
STRATA_DEVICE STRATA_FORCEINLINE void MbarrierArriveExpect(cuda::std::uint64_t* bar, cuda::std::uint32_t bytes)
{
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, bar,
                                       bytes);
}

// Copies `bytes` from global `src` into shared `dst`, counted on `bar` (whose arrival expects them).
STRATA_DEVICE STRATA_FORCEINLINE void BulkCopyIn(void* dst, const void* src, cuda::std::uint32_t bytes,
                                                 cuda::std::uint64_t* bar)
{
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, dst, src, bytes, bar);
}

// Copies `bytes` from global `src` into shared `dst`; the arrival on `bar` completes when they have landed.
STRATA_DEVICE STRATA_FORCEINLINE void BulkLoad(void* dst, const void* src, cuda::std::uint32_t bytes,
                                               cuda::std::uint64_t* bar)
{
  MbarrierArriveExpect(bar, bytes);
  BulkCopyIn(dst, src, bytes, bar);
}

// Waits until the phase of `bar` with parity `phase` has completed.
STRATA_DEVICE STRATA_FORCEINLINE void MbarrierWait(cuda::std::uint64_t* bar, cuda::std::uint32_t phase)
{
  while (!cuda::ptx::mbarrier_try_wait_parity(bar, phase))
  {}
}

// Copies `bytes` from shared `src` to global `dst` in the calling thread's bulk group.
STRATA_DEVICE STRATA_FORCEINLINE void BulkStore(void* dst, const void* src, cuda::std::uint32_t bytes)
{
  cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, dst, src, bytes);
  cuda::ptx::cp_async_bulk_commit_group();
}

// Waits until the calling thread's bulk stores have read their shared-memory sources.
STRATA_DEVICE STRATA_FORCEINLINE void BulkStoreWaitRead()
{
  cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
}

// Arrives on `bar` without transaction bytes, one of the arrivals that complete its phase: what the calling thread
// wrote to shared memory before is visible to the threads that wait on the phase (and what it read before is read
// before they write).
STRATA_DEVICE STRATA_FORCEINLINE void MbarrierArrive(cuda::std::uint64_t* bar)
{
  (void) cuda::ptx::mbarrier_arrive(bar);
}

// Orders this thread's generic shared-memory accesses before later bulk copies of the block.
STRATA_DEVICE STRATA_FORCEINLINE void ProxyFenceShared()
{
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
}
#endif

STRATA_NAMESPACE_END
