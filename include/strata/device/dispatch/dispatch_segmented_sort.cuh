// DispatchSegmentedSort: the kernels of DeviceSegmentedSort and DeviceSegmentedRadixSort and the host closure that
// sizes, checks and launches them.
//
// Up to seven launches, none of which waits for the host: the counters' resets; a classification of the segments by
// length that sorts the tiny ones on the spot and appends the others to four lists (block-aggregated appends, so the
// lists' order varies run to run; every segment is sorted on its own, so the results do not); and one persistent
// kernel per listed class (agent/agent_segmented_sort.cuh), each a wave of blocks that reads its list's length when
// it runs and takes segments (the huge class: units of work) from it in turn. The lists are sized by what the
// segments can hold: at most num_items / (class minimum) segments of a class, non-empty segments only; the huge
// class's kernel is launched only where num_items allows a huge segment.
#pragma once

#include <strata/agent/agent_segmented_sort.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_segmented_sort.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/double_buffer.cuh>
#include <strata/util/error.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_sort
{
// The segments of each class: counts[c] of them (as appended; at most capacity[c] are kept), at
// indices[first[c]] on. The huge ones are numbered by one 64-bit counter instead, *huge_word: its high bits count
// them, its low 40 bits their tiles of HUGE_TILE keys, so that a segment's number r and its first tile's number
// (huge_tile_base[r]) grow together.
struct class_lists
{
  cuda::std::uint32_t* indices;
  unsigned int* counts;
  unsigned long long* huge_word;
  unsigned long long* huge_tile_base;
  long long first[CLASSES];
  long long capacity[CLASSES];

  STRATA_DEVICE STRATA_FORCEINLINE long long count(int c) const
  {
    const long long appended = static_cast<long long>(counts[c]);
    return appended < capacity[c] ? appended : capacity[c];
  }
  STRATA_DEVICE STRATA_FORCEINLINE long long segment(int c, long long k) const
  {
    return static_cast<long long>(indices[first[c] + k]);
  }
};

// The class of a segment of `len` items (-1: empty, nothing to sort).
template <typename PolicyT>
STRATA_HOST_DEVICE STRATA_FORCEINLINE int class_of(long long len)
{
  return len <= 0                   ? -1
       : len <= PolicyT::TINY_MAX   ? TINY
       : len <= PolicyT::SMALL_MAX  ? SMALL
       : len <= PolicyT::MEDIUM_MAX ? MEDIUM
       : len <= PolicyT::LARGE_MAX  ? LARGE
                                    : HUGE;
}

// The keys of a huge segment's tile.
template <typename PolicyT>
constexpr int HUGE_TILE = PolicyT::BLOCK_THREADS* PolicyT::HUGE_ITEMS_PER_THREAD;

STRATA_KERNELS_BEGIN

// Each block takes BLOCK_THREADS segments at a time, a thread each: a tiny segment the thread sorts there and then
// (thread_segment_sort); each other non-empty one is appended to its class's list, the block's segments of a class
// with one atomic. A segment that its class's list has no room for (only segments that overlap, or reach past
// num_items, can be so many or so long) is left out.
template <typename MaxPolicyT, bool DESCENDING, typename KeyT, typename ValueT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedSortPolicy::BLOCK_THREADS) void
DeviceSegmentedSortClassifyKernel(arrays<KeyT, ValueT> a, BeginOffsetIteratorT d_begin, EndOffsetIteratorT d_end,
                                  long long num_segments, CountT count, class_lists lists, int begin_bit, int end_bit)
{
  num_segments           = count.resolve(num_segments);
  using Policy           = typename MaxPolicyT::ActivePolicy::SegmentedSortPolicy;
  using TinyT            = thread_segment_sort<Policy::TINY_MAX, DESCENDING, KeyT, ValueT>;
  constexpr int WARPS    = Policy::BLOCK_THREADS / 32;
  constexpr unsigned ALL = 0xffffffffu;
  // The listed classes' counts: per warp, then (a scan over the warps) each warp's first slot in the block's share.
  __shared__ unsigned int warp_counts[HUGE][WARPS];
  __shared__ unsigned int block_first[HUGE];
  const int tid  = static_cast<int>(threadIdx.x);
  const int lane = tid % 32;
  const int warp = tid / 32;
  const key_bits<KeyT, DESCENDING> bits{begin_bit, end_bit - begin_bit};
  const long long stride = static_cast<long long>(gridDim.x) * Policy::BLOCK_THREADS;
  for (long long base = static_cast<long long>(blockIdx.x) * Policy::BLOCK_THREADS; base < num_segments; base += stride)
  {
    const long long s = base + tid;
    int c             = -1;
    long long begin   = 0;
    long long len     = 0;
    if (s < num_segments)
    {
      bounds_of(d_begin, d_end, s, begin, len);
      c = class_of<Policy>(len);
      if (c == HUGE && lists.capacity[HUGE] > 0)
      {
        constexpr long long TILE         = HUGE_TILE<Policy>;
        const unsigned long long tiles   = static_cast<unsigned long long>((len + TILE - 1) / TILE);
        const unsigned long long counted = atomicAdd(lists.huge_word, (1ull << 40) | tiles);
        const long long r                = static_cast<long long>(counted >> 40);
        if (r < lists.capacity[HUGE])
        {
          lists.indices[lists.first[HUGE] + r] = static_cast<cuda::std::uint32_t>(s);
          lists.huge_tile_base[r]              = counted & ((1ull << 40) - 1);
        }
      }
    }
    const int bound = __reduce_max_sync(ALL, c == TINY ? static_cast<unsigned int>(len) : 0u);
    if (c == TINY)
    {
      TinyT::Sort(a, begin, static_cast<int>(len), bound, bits);
    }
    unsigned int mine = 0; // the warp's lanes of this thread's class
    STRATA_UNROLL
    for (int k = SMALL; k < HUGE; ++k)
    {
      const unsigned int mask = __ballot_sync(ALL, c == k);
      mine                    = c == k ? mask : mine;
      if (lane == 0)
      {
        warp_counts[k][warp] = static_cast<unsigned int>(__popc(mask));
      }
    }
    __syncthreads();
    if (tid >= SMALL && tid < HUGE)
    {
      unsigned int total = 0;
      STRATA_UNROLL
      for (int w = 0; w < WARPS; ++w)
      {
        const unsigned int n = warp_counts[tid][w];
        warp_counts[tid][w]  = total;
        total += n;
      }
      block_first[tid] = total > 0 ? atomicAdd(&lists.counts[tid], total) : 0u;
    }
    __syncthreads();
    STRATA_UNROLL
    for (int k = SMALL; k < HUGE; ++k) // a constant class: the lists' fields stay in registers
    {
      if (c == k)
      {
        const long long slot =
          static_cast<long long>(block_first[k]) + warp_counts[k][warp] + __popc(mine & LaneMaskLt());
        if (slot < lists.capacity[k])
        {
          lists.indices[lists.first[k] + slot] = static_cast<cuda::std::uint32_t>(s);
        }
      }
    }
    __syncthreads(); // the counts are free for the next segments
  }
}

// The small segments, a warp each in turn.
template <typename MaxPolicyT, bool DESCENDING, typename KeyT, typename ValueT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedSortPolicy::BLOCK_THREADS) void
DeviceSegmentedSortWarpKernel(arrays<KeyT, ValueT> a, BeginOffsetIteratorT d_begin, EndOffsetIteratorT d_end,
                              class_lists lists, int begin_bit, int end_bit)
{
  using Policy         = typename MaxPolicyT::ActivePolicy::SegmentedSortPolicy;
  constexpr int GROUPS = Policy::BLOCK_THREADS / 32;
  using SortT          = warp_segment_sort<32, Policy::SMALL_ITEMS_PER_THREAD, DESCENDING, KeyT, ValueT>;
  __shared__ typename SortT::TempStorage storage[GROUPS];

  const int group       = static_cast<int>(threadIdx.x) / 32;
  const long long count = lists.count(SMALL);
  const key_bits<KeyT, DESCENDING> bits{begin_bit, end_bit - begin_bit};
  for (long long k = static_cast<long long>(blockIdx.x) * GROUPS + group; k < count;
       k += static_cast<long long>(gridDim.x) * GROUPS)
  {
    long long begin = 0;
    long long len   = 0;
    bounds_of(d_begin, d_end, lists.segment(SMALL, k), begin, len);
    SortT::Sort(storage[group], a, begin, static_cast<int>(len), bits);
  }
}

// The medium segments, a block each in turn.
template <typename MaxPolicyT, bool DESCENDING, typename KeyT, typename ValueT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedSortPolicy::BLOCK_THREADS) void
DeviceSegmentedSortMediumKernel(arrays<KeyT, ValueT> a, BeginOffsetIteratorT d_begin, EndOffsetIteratorT d_end,
                                class_lists lists, int begin_bit, int end_bit)
{
  using Policy = typename MaxPolicyT::ActivePolicy::SegmentedSortPolicy;
  using SortT  = block_segment_sort<Policy::BLOCK_THREADS, Policy::MEDIUM_ITEMS_PER_THREAD, DESCENDING, KeyT, ValueT>;
  __shared__ typename SortT::TempStorage storage;

  const long long count = lists.count(MEDIUM);
  for (long long k = blockIdx.x; k < count; k += gridDim.x)
  {
    long long begin = 0;
    long long len   = 0;
    bounds_of(d_begin, d_end, lists.segment(MEDIUM, k), begin, len);
    SortT::Sort(storage, a, begin, static_cast<int>(len), begin_bit, end_bit);
  }
}

// The large segments, a block each in turn; passes between the first and the last go through keys_temp and
// values_temp.
template <typename MaxPolicyT, bool DESCENDING, typename KeyT, typename ValueT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedSortPolicy::BLOCK_THREADS) void
DeviceSegmentedSortLargeKernel(arrays<KeyT, ValueT> a, KeyT* keys_temp, ValueT* values_temp,
                               BeginOffsetIteratorT d_begin, EndOffsetIteratorT d_end, class_lists lists, int begin_bit,
                               int end_bit)
{
  using Policy = typename MaxPolicyT::ActivePolicy::SegmentedSortPolicy;
  using SortT  = block_large_sort<Policy::BLOCK_THREADS, Policy::LARGE_ITEMS_PER_THREAD, Policy::RADIX_BITS, DESCENDING,
                                 KeyT, ValueT>;
  __shared__ typename SortT::TempStorage storage;

  const long long count = lists.count(LARGE);
  for (long long k = blockIdx.x; k < count; k += gridDim.x)
  {
    long long begin = 0;
    long long len   = 0;
    bounds_of(d_begin, d_end, lists.segment(LARGE, k), begin, len);
    SortT::Sort(storage, a, keys_temp, values_temp, begin, len,
                radix_sort::pass_bits<Policy::RADIX_BITS>(radix_sort::bit_range{begin_bit, end_bit}));
    __syncthreads();
  }
}

// The huge segments: every block of one wave, in units of work taken by a ticket (huge_sort).
template <typename MaxPolicyT, bool DESCENDING, typename KeyT, typename ValueT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedSortPolicy::BLOCK_THREADS) void
DeviceSegmentedSortHugeKernel(arrays<KeyT, ValueT> a, KeyT* keys_temp, ValueT* values_temp,
                              BeginOffsetIteratorT d_begin, EndOffsetIteratorT d_end, huge_state state, int begin_bit,
                              int end_bit)
{
  using Policy = typename MaxPolicyT::ActivePolicy::SegmentedSortPolicy;
  using SortT =
    huge_sort<Policy::BLOCK_THREADS, Policy::HUGE_ITEMS_PER_THREAD, Policy::RADIX_BITS, DESCENDING, KeyT, ValueT>;
  __shared__ typename SortT::TempStorage storage;
  SortT::Run(storage, a, keys_temp, values_temp, d_begin, d_end, state,
             radix_sort::pass_bits<Policy::RADIX_BITS>(radix_sort::bit_range{begin_bit, end_bit}));
}

// No bits to sort by: each segment copied by a block, in turn.
template <typename MaxPolicyT, typename KeyT, typename ValueT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedSortPolicy::BLOCK_THREADS) void
DeviceSegmentedSortCopyKernel(arrays<KeyT, ValueT> a, BeginOffsetIteratorT d_begin, EndOffsetIteratorT d_end,
                              long long num_segments, CountT count)
{
  num_segments = count.resolve(num_segments);
  using Policy = typename MaxPolicyT::ActivePolicy::SegmentedSortPolicy;
  for (long long s = blockIdx.x; s < num_segments; s += gridDim.x)
  {
    long long begin = 0;
    long long len   = 0;
    bounds_of(d_begin, d_end, s, begin, len);
    for (long long i = threadIdx.x; i < len; i += Policy::BLOCK_THREADS)
    {
      a.keys_out[begin + i] = a.keys_in[begin + i];
      if constexpr (!arrays<KeyT, ValueT>::KEYS_ONLY)
      {
        a.values_out[begin + i] = a.values_in[begin + i];
      }
    }
  }
}

STRATA_KERNELS_END
} // namespace segmented_sort
} // namespace detail

// The dispatch closure of the segmented sorts: sorts each segment [d_begin_offsets[s], d_end_offsets[s]) of the keys
// (and values; ValueT NullType: none) by bits [begin_bit, end_bit), stably. In/out forms (is_overwrite_okay false):
// from d_buffers[0] to d_buffers[1], the passes between through temporary storage; DoubleBuffer forms: from the
// current buffers into the ones the passes end in, both used, the selectors set to it.
template <bool DESCENDING, typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT,
          typename PolicyHub = detail::segmented_sort::policy_hub<KeyT, ValueT>, typename CountT = detail::host_count>
struct DispatchSegmentedSort
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  DoubleBuffer<KeyT>& d_keys;
  DoubleBuffer<ValueT>& d_values;
  long long num_items;
  long long num_segments;
  BeginOffsetIteratorT d_begin_offsets;
  EndOffsetIteratorT d_end_offsets;
  int begin_bit;
  int end_bit;
  bool is_overwrite_okay;
  cudaStream_t stream;
  CountT count; // num_segments in device memory (num_segments is then its bound), or host_count
  int device;
  int ptx_version;

  using MaxPolicy                 = typename PolicyHub::MaxPolicy;
  static constexpr bool KEYS_ONLY = cuda::std::is_same<ValueT, NullType>::value;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy = typename ActivePolicyT::SegmentedSortPolicy;
    using detail::segmented_sort::CLASSES;
    namespace ss = detail::segmented_sort;

    const int passes =
      detail::radix_sort::pass_bits<Policy::RADIX_BITS>(detail::radix_sort::bit_range{begin_bit, end_bit}).passes();
    const bool work = num_items > 0 && num_segments > 0 && passes > 0;

    // The lists: non-empty segments only, each class at most num_items / (its smallest length) of them.
    detail::segmented_sort::class_lists lists{};
    const long long smallest[CLASSES] = {1, Policy::TINY_MAX + 1, Policy::SMALL_MAX + 1, Policy::MEDIUM_MAX + 1,
                                         Policy::LARGE_MAX + 1};
    long long total                   = 0;
    for (int c = 0; c < CLASSES; ++c)
    {
      // The tiny segments are sorted as they are classified: no list.
      const long long most = work && c != ss::TINY ? num_items / smallest[c] : 0;
      lists.capacity[c]    = most < num_segments ? most : num_segments;
      lists.first[c]       = total;
      total += lists.capacity[c];
    }
    // The large and huge segments' passes between the first and the last, where no DoubleBuffer takes them.
    const bool third_buffer = work && !is_overwrite_okay && passes >= 2 && lists.capacity[ss::LARGE] > 0;

    // The huge segments' sort: the counters cleared before each call (the huge word, the ticket, per segment the
    // histogram tiles done, the tiles done each pass and the digit totals each pass) and the look-back words of
    // every tile and digit, which every pass reuses (each cleared by its tile's histogram unit).
    constexpr long long HUGE_TILE = ss::HUGE_TILE<Policy>;
    constexpr int BINS            = 1 << Policy::RADIX_BITS;
    const long long huge          = lists.capacity[ss::HUGE];
    const long long huge_tiles    = huge > 0 ? num_items / HUGE_TILE + huge + 1 : 0;
    const size_t counter_words    = huge > 0 ? static_cast<size_t>(2 + huge * (1 + passes) + huge * passes * BINS) : 0;

    detail::temporary_storage::layout<8> layout;
    auto indices  = layout.get_slot(0)->create_alias<cuda::std::uint32_t>(static_cast<size_t>(total));
    auto counts   = layout.get_slot(1)->create_alias<unsigned int>(work ? CLASSES : 0);
    auto keys_tmp = layout.get_slot(2)->create_alias<KeyT>(third_buffer ? static_cast<size_t>(num_items) : 0);
    auto values_tmp =
      layout.get_slot(3)->create_alias<ValueT>(third_buffer && !KEYS_ONLY ? static_cast<size_t>(num_items) : 0);
    auto huge_base = layout.get_slot(4)->create_alias<unsigned long long>(static_cast<size_t>(huge));
    // One block of 8-byte words, cleared at once: the huge word; then as 4-byte counters the ticket, the histogram
    // tiles done of each segment and the tiles done of each segment and pass (in at most 1 + huge * (1 + passes)
    // words); then the totals.
    auto counters = layout.get_slot(5)->create_alias<unsigned long long>(counter_words);
    auto status   = layout.get_slot(6)->create_alias<unsigned long long>(static_cast<size_t>(huge_tiles) * BINS);
    bool mapped   = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped)
    {
      return cudaSuccess;
    }

    // Where the result goes: the output of the in/out forms; for the DoubleBuffer forms the buffer that one move per
    // pass ends in (the current one where no bits are sorted).
    const int key_result    = is_overwrite_okay ? (d_keys.selector ^ (passes & 1)) : 1;
    const int value_result  = is_overwrite_okay ? (d_values.selector ^ (passes & 1)) : 1;
    KeyT* const keys_in     = d_keys.d_buffers[is_overwrite_okay ? d_keys.selector : 0];
    ValueT* const values_in = d_values.d_buffers[is_overwrite_okay ? d_values.selector : 0];
    if (!work)
    {
      // Nothing to sort (no bits: every segment keeps its order): the in/out forms copy the segments.
      if (!is_overwrite_okay && num_items > 0 && num_segments > 0)
      {
        return CopySegments<ActivePolicyT>(keys_in, d_keys.d_buffers[1], values_in, d_values.d_buffers[1]);
      }
      return cudaSuccess;
    }
    if (is_overwrite_okay)
    {
      d_keys.selector   = key_result;
      d_values.selector = value_result;
    }
    const detail::segmented_sort::arrays<KeyT, ValueT> a{keys_in, d_keys.d_buffers[key_result], values_in,
                                                         d_values.d_buffers[value_result]};
    // The large segments' passes between the first and the last: the third buffer, or the DoubleBuffer's other half
    // (in the in/out forms without a third buffer, no pass goes between: one pass or no large segment).
    KeyT* const keys_between     = third_buffer ? keys_tmp.get() : d_keys.d_buffers[key_result ^ 1];
    ValueT* const values_between = third_buffer ? values_tmp.get() : d_values.d_buffers[value_result ^ 1];
    lists.indices                = indices.get();
    lists.counts                 = counts.get();
    detail::segmented_sort::huge_state state{};
    if (huge > 0)
    {
      unsigned long long* const words = counters.get();
      lists.huge_word                 = words;
      lists.huge_tile_base            = huge_base.get();
      state.huge_word                 = words;
      state.huge_list                 = indices.get() + lists.first[ss::HUGE];
      state.huge_tile_base            = huge_base.get();
      state.capacity                  = huge;
      unsigned int* const small       = reinterpret_cast<unsigned int*>(words + 1);
      state.ticket                    = small;
      state.hist_done                 = small + 1;
      state.pass_done                 = small + 1 + huge;
      state.totals                    = words + 2 + huge * (1 + passes);
      state.status                    = status.get();
      STRATA_RETURN_IF_ERROR(cudaMemsetAsync(words, 0, counter_words * sizeof(unsigned long long), stream));
    }

    STRATA_RETURN_IF_ERROR(cudaMemsetAsync(lists.counts, 0, CLASSES * sizeof(unsigned int), stream));
    STRATA_RETURN_IF_ERROR(LaunchWave<ActivePolicyT>(
      detail::segmented_sort::DeviceSegmentedSortClassifyKernel<MaxPolicy, DESCENDING, KeyT, ValueT,
                                                                BeginOffsetIteratorT, EndOffsetIteratorT, CountT>,
      (num_segments + Policy::BLOCK_THREADS - 1) / Policy::BLOCK_THREADS, a, d_begin_offsets, d_end_offsets,
      num_segments, count, lists, begin_bit, end_bit));
    STRATA_RETURN_IF_ERROR(LaunchWave<ActivePolicyT>(
      detail::segmented_sort::DeviceSegmentedSortWarpKernel<MaxPolicy, DESCENDING, KeyT, ValueT, BeginOffsetIteratorT,
                                                            EndOffsetIteratorT>,
      lists.capacity[ss::SMALL], a, d_begin_offsets, d_end_offsets, lists, begin_bit, end_bit));
    STRATA_RETURN_IF_ERROR(LaunchWave<ActivePolicyT>(
      detail::segmented_sort::DeviceSegmentedSortMediumKernel<MaxPolicy, DESCENDING, KeyT, ValueT, BeginOffsetIteratorT,
                                                              EndOffsetIteratorT>,
      lists.capacity[ss::MEDIUM], a, d_begin_offsets, d_end_offsets, lists, begin_bit, end_bit));
    STRATA_RETURN_IF_ERROR(LaunchWave<ActivePolicyT>(
      detail::segmented_sort::DeviceSegmentedSortLargeKernel<MaxPolicy, DESCENDING, KeyT, ValueT, BeginOffsetIteratorT,
                                                             EndOffsetIteratorT>,
      lists.capacity[ss::LARGE], a, keys_between, values_between, d_begin_offsets, d_end_offsets, lists, begin_bit,
      end_bit));
    return LaunchWave<ActivePolicyT>(
      detail::segmented_sort::DeviceSegmentedSortHugeKernel<MaxPolicy, DESCENDING, KeyT, ValueT, BeginOffsetIteratorT,
                                                            EndOffsetIteratorT>,
      huge_tiles, a, keys_between, values_between, d_begin_offsets, d_end_offsets, state, begin_bit, end_bit);
  }

  // Launches `kernel` on one wave of blocks, or on fewer where `most_blocks` (the most the work can use) is fewer;
  // nothing where it is 0.
  template <typename ActivePolicyT, typename KernelT, typename... Args>
  cudaError_t LaunchWave(KernelT kernel, long long most_blocks, Args... args)
  {
    using Policy = typename ActivePolicyT::SegmentedSortPolicy;
    if (most_blocks <= 0)
    {
      return cudaSuccess;
    }
    size_t wave = 0;
    STRATA_RETURN_IF_ERROR(WaveBlocks(wave, kernel, Policy::BLOCK_THREADS, device));
    const long long grid = most_blocks < static_cast<long long>(wave) ? most_blocks : static_cast<long long>(wave);
    return detail::check_launch(
      Launch(dim3(static_cast<unsigned int>(grid)), dim3(Policy::BLOCK_THREADS), stream, kernel, args...), stream);
  }

  // No bits to sort by: the in/out forms' segments copied as they are (every segment's sort is the identity).
  template <typename ActivePolicyT>
  cudaError_t CopySegments(const KeyT* keys_in, KeyT* keys_out, const ValueT* values_in, ValueT* values_out)
  {
    return LaunchWave<ActivePolicyT>(
      detail::segmented_sort::DeviceSegmentedSortCopyKernel<MaxPolicy, KeyT, ValueT, BeginOffsetIteratorT,
                                                            EndOffsetIteratorT, CountT>,
      num_segments, detail::segmented_sort::arrays<KeyT, ValueT>{keys_in, keys_out, values_in, values_out},
      d_begin_offsets, d_end_offsets, num_segments, count);
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the sort.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                              DoubleBuffer<ValueT>& d_values, long long num_items, long long num_segments,
                              BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, int begin_bit,
                              int end_bit, bool is_overwrite_okay, cudaStream_t stream, CountT count = {})
  {
    int device      = 0;
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
    DispatchSegmentedSort closure{
      d_temp_storage, temp_storage_bytes, d_keys,  d_values,          num_items, num_segments, d_begin_offsets,
      d_end_offsets,  begin_bit,          end_bit, is_overwrite_okay, stream,    count,        device,
      ptx_version};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
