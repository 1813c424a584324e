// DispatchTopK: DeviceTopK's kernels and the host closure that sizes and launches them.
//
// A radix select (agent/agent_topk.cuh) in 2 + ROUNDS launches, whatever the data, none of which the host waits for:
//   1. the init kernel clears the plans, tickets, tile counters and histograms and marks every round's tiles INVALID;
//   2. the histogram kernel counts digit 0 of every key (it reads the keys before it waits for the init kernel), and
//      its last block plans round 0;
//   3. one pass kernel per round, a wave of resident blocks reading the round's plan: a round after a final one
//      returns at once; the last block of a round plans the next.
// Each is launched with programmatic stream serialization on sm_90, so that its launch overlaps the kernel before it;
// the init kernel lets the histogram in at its start, and a round lets the next one in once its blocks have passed
// their tiles. A sorted result is selected into temporary storage, then radix sorted (DispatchRadixSort, stable) into
// the output, or into temporary storage and copied where the output is not a pointer to the keys' (values') type.
//
// Temporary storage: the plans and counters, ROUNDS histograms of 2^RADIX_BITS counts, ROUNDS look-back arrays of one
// word per tile of the input, two candidate buffers of num_items / CANDIDATE_SHARE keys (and values), and for a sorted
// result k keys (and values), k more where the output is not a pointer, and the radix sort's storage.
#pragma once

#include <strata/agent/agent_topk.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/dispatch_radix_sort.cuh>
#include <strata/device/dispatch/tuning/tuning_topk.cuh>
#include <strata/util/device.cuh>
#include <strata/util/double_buffer.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace topk
{
STRATA_KERNELS_BEGIN

// Zeroes the `num_words` words of the plans, tickets and tile counters (a zero plan is round_idle) and the
// `num_counts` histogram counts; marks the `state_tiles` tiles of round blockIdx.y's look-back array INVALID.
template <typename OffsetT>
STRATA_KERNEL_ATTRIBUTES void DeviceTopKInitKernel(unsigned int* words, size_t num_words, OffsetT* histograms,
                                                   size_t num_counts, char* tile_states, size_t tile_state_bytes,
                                                   size_t state_tiles)
{
  // The histogram kernel reads the keys meanwhile; it waits for this grid before it adds its counts.
  GridLaunchDependents();
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (blockIdx.y == 0)
  {
    if (i < num_words)
    {
      words[i] = 0;
    }
    if (i < num_counts)
    {
      histograms[i] = OffsetT(0);
    }
  }
  if (i < state_tiles)
  {
    tile_state_t<OffsetT>(tile_states + blockIdx.y * tile_state_bytes, state_tiles).InitializeStatus(i);
  }
}

// Counts digit 0 of the keys (grid-strided tiles); the last block plans round 0.
template <typename MaxPolicyT, typename KeyInputIteratorT, typename OffsetT, bool SELECT_MAX>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::HistogramPolicy::BLOCK_THREADS) void
DeviceTopKHistogramKernel(KeyInputIteratorT keys_in,
                          select_control<OffsetT, word_t<it_value_t<KeyInputIteratorT>>> control, OffsetT k)
{
  using ActivePolicy = typename MaxPolicyT::ActivePolicy;
  using Agent        = AgentTopKHistogram<typename ActivePolicy::HistogramPolicy, ActivePolicy::TopKPolicy::RADIX_BITS,
                                   it_value_t<KeyInputIteratorT>, OffsetT, SELECT_MAX>;
  __shared__ typename Agent::TempStorage temp_storage;
  Agent(temp_storage, control).Process(keys_in, k);
}

// Round `round`: a wave of blocks taking the round's tiles (after the kernel before has planned it).
template <typename MaxPolicyT, typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
          typename ValueOutputIteratorT, typename OffsetT, typename KeyT, typename ValueT, bool SELECT_MAX>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::TopKPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::TopKPolicy::MIN_BLOCKS_PER_SM) void
DeviceTopKPassKernel(KeyInputIteratorT keys_in, ValueInputIteratorT values_in, KeyOutputIteratorT keys_out,
                     ValueOutputIteratorT values_out, select_control<OffsetT, word_t<KeyT>> control,
                     candidate_buffers<KeyT, ValueT> buffers, int round, unsigned int prefetch_distance)
{
  using Policy = typename MaxPolicyT::ActivePolicy::TopKPolicy;
  using Agent  = AgentTopKPass<Policy, KeyT, ValueT, OffsetT, SELECT_MAX>;
  __shared__ typename Agent::TempStorage temp_storage;
  GridDependencyWait();
  Agent(temp_storage, control, buffers, round).Run(keys_in, values_in, keys_out, values_out, prefetch_distance);
}

// out[i] = in[i] for i < count: a sorted result to output iterators that are not pointers to its types.
template <typename KeyT, typename ValueT, typename KeyOutputIteratorT, typename ValueOutputIteratorT, typename OffsetT>
STRATA_KERNEL_ATTRIBUTES void DeviceTopKCopyKernel(const KeyT* keys, const ValueT* values, KeyOutputIteratorT keys_out,
                                                   ValueOutputIteratorT values_out, OffsetT count)
{
  for (OffsetT i = static_cast<OffsetT>(blockIdx.x) * OffsetT(blockDim.x) + OffsetT(threadIdx.x); i < count;
       i += static_cast<OffsetT>(gridDim.x) * OffsetT(blockDim.x))
  {
    keys_out[i] = keys[i];
    if constexpr (!cuda::std::is_same<ValueT, NullType>::value)
    {
      values_out[i] = values[i];
    }
  }
}

STRATA_KERNELS_END
} // namespace topk
} // namespace detail

// SELECT_MAX: the largest keys (else the smallest). A keys-only selection passes NullType* for the value iterators.
// num_items and k: 1 <= k <= num_items for any work (either 0: nothing is launched).
template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename ValueInputIteratorT,
          typename ValueOutputIteratorT, typename OffsetT, bool SELECT_MAX,
          typename PolicyHub = detail::topk::policy_hub<detail::it_value_t<KeyInputIteratorT>,
                                                        detail::non_void_value_t<ValueInputIteratorT, NullType>>>
struct DispatchTopK
{
  using KeyT                      = detail::it_value_t<KeyInputIteratorT>;
  using ValueT                    = detail::non_void_value_t<ValueInputIteratorT, NullType>;
  using WordT                     = detail::topk::word_t<KeyT>;
  using CodecT                    = detail::radix_sort::key_codec<KeyT, SELECT_MAX>;
  using MaxPolicy                 = typename PolicyHub::MaxPolicy;
  using PlanT                     = detail::topk::round_plan<OffsetT, WordT>;
  using TileStateT                = detail::topk::tile_state_t<OffsetT>;
  using SortT                     = DispatchRadixSort<SELECT_MAX, KeyT, ValueT, OffsetT>;
  static constexpr bool KEYS_ONLY = cuda::std::is_same<ValueT, NullType>::value;
  // Outputs a radix sort can write: pointers to the keys' and values' types.
  static constexpr bool SORT_INTO_OUTPUT = cuda::std::is_same<KeyOutputIteratorT, KeyT*>::value
                                        && (KEYS_ONLY || cuda::std::is_same<ValueOutputIteratorT, ValueT*>::value);
  static_assert(sizeof(PlanT) % sizeof(unsigned int) == 0, "the init kernel clears the plans word by word");

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  KeyInputIteratorT keys_in;
  KeyOutputIteratorT keys_out;
  ValueInputIteratorT values_in;
  ValueOutputIteratorT values_out;
  OffsetT num_items;
  OffsetT k;
  bool sorted;
  cudaStream_t stream;
  int device;
  int ptx_version;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using TopKPolicy         = typename ActivePolicyT::TopKPolicy;
    using HistogramPolicy    = typename ActivePolicyT::HistogramPolicy;
    constexpr int RADIX_BITS = TopKPolicy::RADIX_BITS;
    using rounds             = detail::topk::radix_rounds<CodecT::BITS, RADIX_BITS>;
    constexpr int ROUNDS     = rounds::ROUNDS;
    constexpr int BINS       = rounds::BINS;

    const bool work        = num_items > OffsetT(0) && k > OffsetT(0);
    const bool sort_result = work && sorted && k > OffsetT(1); // one item is sorted as selected
    const OffsetT tiles =
      work ? (num_items + OffsetT(TopKPolicy::TILE_ITEMS - 1)) / OffsetT(TopKPolicy::TILE_ITEMS) : OffsetT(0);
    if (static_cast<unsigned long long>(tiles) > 0x7fffffffULL)
    {
      return cudaErrorInvalidValue; // tiles are numbered by a 32-bit counter
    }
    // Each candidate buffer's items, a multiple of 256 so that the second buffer starts as aligned as the first (the
    // L2 prefetch of a tile needs 16 bytes). Keys of one round (8-bit keys) need none: that round is final.
    constexpr OffsetT ALIGN_ITEMS = 256;
    OffsetT capacity              = 0;
    if (work && ROUNDS > 1)
    {
      capacity = (num_items + OffsetT(TopKPolicy::CANDIDATE_SHARE - 1)) / OffsetT(TopKPolicy::CANDIDATE_SHARE);
      capacity = (capacity + ALIGN_ITEMS - 1) / ALIGN_ITEMS * ALIGN_ITEMS;
    }
    const size_t counter_words    = work ? static_cast<size_t>(2 * ROUNDS + 1) : 0;
    const size_t control_words    = work ? ROUNDS * sizeof(PlanT) / sizeof(unsigned int) + counter_words : 0;
    const size_t tile_state_bytes = work ? TileStateT::AllocationSize(static_cast<size_t>(tiles)) : 0;
    const size_t result_items     = sort_result ? static_cast<size_t>(k) * (SORT_INTO_OUTPUT ? 1 : 2) : 0;

    // The radix sort's own storage, for k items (its size depends on nothing the run adds).
    size_t sort_bytes = 0;
    if (sort_result)
    {
      DoubleBuffer<KeyT> sort_keys;
      DoubleBuffer<ValueT> sort_values;
      STRATA_RETURN_IF_ERROR(
        SortT::Dispatch(nullptr, sort_bytes, sort_keys, sort_values, k, 0, CodecT::BITS, false, stream));
    }

    detail::temporary_storage::layout<8> layout;
    auto control    = layout.get_slot(0)->create_alias<unsigned int>(control_words);
    auto histograms = layout.get_slot(1)->create_alias<OffsetT>(work ? static_cast<size_t>(ROUNDS) * BINS : 0);
    auto tile_state = layout.get_slot(2)->create_alias<char>(static_cast<size_t>(ROUNDS) * tile_state_bytes);
    auto cand_keys  = layout.get_slot(3)->create_alias<KeyT>(2 * static_cast<size_t>(capacity));
    auto cand_values =
      layout.get_slot(4)->create_alias<ValueT>(KEYS_ONLY ? size_t(0) : 2 * static_cast<size_t>(capacity));
    auto result_keys   = layout.get_slot(5)->create_alias<KeyT>(result_items);
    auto result_values = layout.get_slot(6)->create_alias<ValueT>(KEYS_ONLY ? size_t(0) : result_items);
    auto sort_storage  = layout.get_slot(7)->create_alias<char>(sort_bytes);
    bool mapped        = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped || !work)
    {
      return cudaSuccess;
    }

    detail::topk::select_control<OffsetT, WordT> state{};
    state.plans            = reinterpret_cast<PlanT*>(control.get());
    state.blocks_done      = control.get() + ROUNDS * sizeof(PlanT) / sizeof(unsigned int);
    state.tile_counters    = state.blocks_done + ROUNDS + 1;
    state.histograms       = histograms.get();
    state.tile_states      = tile_state.get();
    state.tile_state_bytes = tile_state_bytes;
    state.state_tiles      = static_cast<size_t>(tiles);
    state.num_items        = num_items;
    state.capacity         = capacity;
    detail::topk::candidate_buffers<KeyT, ValueT> buffers{};
    buffers.keys[0] = cand_keys.get();
    buffers.keys[1] = cand_keys.get() + capacity;
    if constexpr (!KEYS_ONLY)
    {
      buffers.values[0] = cand_values.get();
      buffers.values[1] = cand_values.get() + capacity;
    }

    // The selection's state, cleared.
    constexpr int INIT_THREADS = 256;
    size_t init_items          = control_words > state.state_tiles ? control_words : state.state_tiles;
    init_items                 = init_items > static_cast<size_t>(ROUNDS) * BINS ? init_items : ROUNDS * BINS;
    STRATA_RETURN_IF_ERROR(detail::check_launch(
      Launch(dim3(static_cast<unsigned int>((init_items + INIT_THREADS - 1) / INIT_THREADS), ROUNDS),
             dim3(INIT_THREADS), stream, detail::topk::DeviceTopKInitKernel<OffsetT>, control.get(), control_words,
             histograms.get(), static_cast<size_t>(ROUNDS) * BINS, tile_state.get(), tile_state_bytes,
             state.state_tiles),
      stream));

    // Digit 0 of every key: one wave, at most one block per tile.
    const auto histogram_kernel =
      detail::topk::DeviceTopKHistogramKernel<MaxPolicy, KeyInputIteratorT, OffsetT, SELECT_MAX>;
    size_t histogram_wave = 0;
    STRATA_RETURN_IF_ERROR(WaveBlocks(histogram_wave, histogram_kernel, HistogramPolicy::BLOCK_THREADS, device));
    const size_t histogram_tiles = static_cast<size_t>((num_items + OffsetT(HistogramPolicy::TILE_ITEMS - 1))
                                                       / OffsetT(HistogramPolicy::TILE_ITEMS));
    STRATA_RETURN_IF_ERROR(detail::check_launch(
      LaunchAfter(ptx_version >= 900,
                  dim3(static_cast<unsigned int>(histogram_tiles < histogram_wave ? histogram_tiles : histogram_wave)),
                  dim3(HistogramPolicy::BLOCK_THREADS), stream, histogram_kernel, keys_in, state, k),
      stream));

    if (!sort_result)
    {
      return rounds_into<TopKPolicy, ROUNDS>(keys_out, values_out, state, buffers, tiles);
    }
    KeyT* const unsorted_keys     = result_keys.get();
    ValueT* const unsorted_values = result_values.get();
    STRATA_RETURN_IF_ERROR((rounds_into<TopKPolicy, ROUNDS>(unsorted_keys, unsorted_values, state, buffers, tiles)));

    // The k items, stably sorted by key (ascending images: descending keys for the largest).
    KeyT* sorted_keys     = nullptr;
    ValueT* sorted_values = nullptr;
    if constexpr (SORT_INTO_OUTPUT)
    {
      sorted_keys = keys_out;
      if constexpr (!KEYS_ONLY)
      {
        sorted_values = values_out;
      }
    }
    else
    {
      sorted_keys   = unsorted_keys + k;
      sorted_values = KEYS_ONLY ? nullptr : unsorted_values + k;
    }
    DoubleBuffer<KeyT> sort_keys(unsorted_keys, sorted_keys);
    DoubleBuffer<ValueT> sort_values(unsorted_values, sorted_values);
    STRATA_RETURN_IF_ERROR(
      SortT::Dispatch(sort_storage.get(), sort_bytes, sort_keys, sort_values, k, 0, CodecT::BITS, false, stream));
    if constexpr (!SORT_INTO_OUTPUT)
    {
      constexpr int COPY_THREADS = 256;
      const OffsetT copy_blocks  = (k + OffsetT(COPY_THREADS - 1)) / OffsetT(COPY_THREADS);
      const auto copy_kernel =
        detail::topk::DeviceTopKCopyKernel<KeyT, ValueT, KeyOutputIteratorT, ValueOutputIteratorT, OffsetT>;
      return detail::check_launch(Launch(dim3(static_cast<unsigned int>(copy_blocks)), dim3(COPY_THREADS), stream,
                                         copy_kernel, static_cast<const KeyT*>(sorted_keys),
                                         static_cast<const ValueT*>(sorted_values), keys_out, values_out, k),
                                  stream);
    }
    return cudaSuccess;
  }

  // The rounds' launches, the selected items to out_keys and out_values.
  template <typename TopKPolicy, int ROUNDS, typename OutKeysT, typename OutValuesT>
  cudaError_t rounds_into(OutKeysT out_keys, OutValuesT out_values,
                          const detail::topk::select_control<OffsetT, WordT>& state,
                          const detail::topk::candidate_buffers<KeyT, ValueT>& buffers, OffsetT tiles) const
  {
    const auto kernel = detail::topk::DeviceTopKPassKernel<MaxPolicy, KeyInputIteratorT, ValueInputIteratorT, OutKeysT,
                                                           OutValuesT, OffsetT, KeyT, ValueT, SELECT_MAX>;
    size_t wave       = 0;
    STRATA_RETURN_IF_ERROR(WaveBlocks(wave, kernel, TopKPolicy::BLOCK_THREADS, device));
    const unsigned int grid      = static_cast<unsigned int>(static_cast<size_t>(tiles) < wave ? tiles : wave);
    const auto prefetch_distance = static_cast<unsigned int>(wave * TopKPolicy::PREFETCH_QUARTER_WAVES / 4);
    for (int round = 0; round < ROUNDS; ++round)
    {
      STRATA_RETURN_IF_ERROR(detail::check_launch(
        LaunchAfter(ptx_version >= 900, dim3(grid), dim3(TopKPolicy::BLOCK_THREADS), stream, kernel, keys_in, values_in,
                    out_keys, out_values, state, buffers, round, prefetch_distance),
        stream));
    }
    return cudaSuccess;
  }

  // Picks the policy for the current device's PTX version and runs (or sizes) the selection.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT keys_in,
                              KeyOutputIteratorT keys_out, ValueInputIteratorT values_in,
                              ValueOutputIteratorT values_out, OffsetT num_items, OffsetT k, bool sorted,
                              cudaStream_t stream)
  {
    int device      = 0;
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
    DispatchTopK closure{d_temp_storage, temp_storage_bytes, keys_in, keys_out, values_in,
                         values_out,     num_items,          k,       sorted,   stream,
                         device,         ptx_version};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
