// DispatchRadixSort: DeviceRadixSort's kernels and the host closure that sizes, checks and launches them.
//
// An input of at most the largest single-block tile is one launch: one block of the smallest tier whose tile holds
// it sorts it in shared memory. A larger one:
//   1. one clear of the sort's state (digit counts, look-back words);
//   2. the histogram kernel: every pass's digit counts in one read of the keys, turned into digit offsets by the
//      last block, which also marks the passes whose digit is the same for every key;
//   3. per digit pass (and per portion of at most 2^28 - 1 keys), the onesweep kernel, one block per tile, launched
//      with programmatic stream serialization on sm_90 so that its launch overlaps the kernel before it. Each block
//      reads the plan of its pass (skip, sort or copy, and between which buffers) from the histogram's result, so
//      that skipped passes cost one launch and no memory traffic, and the host never waits for the histogram.
//
// A count in device memory (strata::device_count) picks the tier or policy and sizes the storage and the grids by its
// bound; every kernel reads the count, and the blocks of tiles past it return.
#pragma once

#include <strata/agent/agent_radix_sort_histogram.cuh>
#include <strata/agent/agent_radix_sort_onesweep.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/dispatch_transform.cuh>
#include <strata/device/dispatch/tuning/tuning_radix_sort.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/double_buffer.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace radix_sort
{
// The offsets of every radix sort kernel: 64 bits, whatever the type the caller counts its items in. A sort's kernels
// are built once (a second set for 32-bit offsets would double the onesweep kernel, the largest of a sort). Within a
// portion the onesweep kernel counts in 32 bits (its look-back words): the 64 bits are each tile's place and each
// digit's base.
using kernel_offset_t = cuda::std::uint64_t;

// The largest number of digit passes of a key (the histogram keeps that many rows).
template <int RADIX_BITS, typename CodecT>
STRATA_HOST_DEVICE constexpr int max_passes()
{
  return (CodecT::BITS + RADIX_BITS - 1) / RADIX_BITS;
}

// The onesweep policy of a sort: the policy's OnesweepPolicy, or for an input of fewer full tiles of it than the device
// has SMs (SMALL) its SmallOnesweepPolicy where it has one: tiles of fewer items per thread, whose shorter ranking
// chains suit a grid that leaves SMs idle. The temporary storage is sized for the policy that runs.
template <typename PolicyT, typename = void>
struct small_onesweep
{
  static constexpr bool defined = false;
  using type                    = typename PolicyT::OnesweepPolicy;
};
template <typename PolicyT>
struct small_onesweep<PolicyT, cuda::std::void_t<typename PolicyT::SmallOnesweepPolicy>>
{
  static constexpr bool defined = true;
  using type                    = typename PolicyT::SmallOnesweepPolicy;
};
template <typename PolicyT, bool SMALL>
using onesweep_policy_t =
  cuda::std::conditional_t<SMALL, typename small_onesweep<PolicyT>::type, typename PolicyT::OnesweepPolicy>;

// The single-block tiers of a policy (tuning_radix_sort.cuh): its SingleTileTiers, or its SingleTilePolicy alone.
template <typename PolicyT, typename = void>
struct single_tile_tiers_of
{
  using type = single_tile_tiers<typename PolicyT::SingleTilePolicy>;
};
template <typename PolicyT>
struct single_tile_tiers_of<PolicyT, cuda::std::void_t<typename PolicyT::SingleTileTiers>>
{
  using type = typename PolicyT::SingleTileTiers;
};
template <typename PolicyT>
using single_tile_tiers_t = typename single_tile_tiers_of<PolicyT>::type;
template <typename PolicyT, int TIER>
using single_tile_policy_t = typename single_tile_tiers_t<PolicyT>::template tier<TIER>;

STRATA_KERNELS_BEGIN

template <typename MaxPolicyT, typename KeyT, typename OffsetT, typename CodecT, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::HistogramPolicy::BLOCK_THREADS) void
DeviceRadixSortHistogramKernel(const KeyT* d_keys, OffsetT num_items, CountT count, bit_range range,
                               sort_state<OffsetT> state, CodecT codec)
{
  using Policy             = typename MaxPolicyT::ActivePolicy::HistogramPolicy;
  constexpr int RADIX_BITS = MaxPolicyT::ActivePolicy::OnesweepPolicy::RADIX_BITS;
  using Agent = AgentRadixSortHistogram<Policy, RADIX_BITS, max_passes<RADIX_BITS, CodecT>(), KeyT, OffsetT, CodecT>;
  __shared__ typename Agent::TempStorage temp_storage;
  // The first digit pass may be launched now; it waits for this grid before it reads anything.
  GridLaunchDependents();
  num_items = count.resolve(num_items);
  Agent(temp_storage, d_keys, num_items, pass_bits<RADIX_BITS>(range), state, codec).Process();
}

// One digit pass over one portion: each block sorts one tile of [portion_begin, portion_end), taken from
// `tile_counter`. SMALL: the small-input policy (onesweep_policy_t). With a count in device memory, num_items and
// portion_end are its bound's and the portion ends at the count.
template <typename MaxPolicyT, bool SMALL, typename KeyT, typename ValueT, typename OffsetT, typename CodecT,
          typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(
  onesweep_policy_t<typename MaxPolicyT::ActivePolicy, SMALL>::BLOCK_THREADS,
  onesweep_policy_t<typename MaxPolicyT::ActivePolicy, SMALL>::MIN_BLOCKS_PER_SM) void
DeviceRadixSortOnesweepKernel(sort_buffers<KeyT, ValueT> buffers, bool double_buffer, sort_state<OffsetT> state,
                              cuda::std::uint32_t* lookback, unsigned int* tile_counter, bit_range range, int pass,
                              int portion, OffsetT portion_begin, OffsetT portion_end, OffsetT num_items, CountT count,
                              cuda::std::uint32_t epoch, CodecT codec)
{
  using Policy             = onesweep_policy_t<typename MaxPolicyT::ActivePolicy, SMALL>;
  constexpr int RADIX_BITS = Policy::RADIX_BITS;
  using Agent              = AgentRadixSortOnesweep<Policy, KeyT, ValueT, OffsetT, CodecT>;
  auto& temp_storage       = DynamicSharedStorage<typename Agent::TempStorage>();
  const pass_bits<RADIX_BITS> bits(range);

  // The next pass is not let in early (no GridLaunchDependents: it launches as this grid's blocks end). A grid that
  // fits the GPU at once would have the next pass's blocks placed beside its own while they run, two on some SMs and
  // none on others, and the next pass would run on that placement: u32/u32 pairs at 2^20 took 1.15x as long (H200).
  GridDependencyWait();
  // The trivial passes are read before the tile is taken, so that the read and the atomic are in flight together
  // (one wait at the start of every tile rather than two in a row). A skipped pass's counter is taken from and never
  // read: each launch has its own.
  const unsigned int trivial = *state.trivial_passes;
  // Tiles in the order blocks start, so that a tile only looks back at tiles whose blocks already run.
  __shared__ unsigned int tile_slot;
  if (threadIdx.x == 0)
  {
    tile_slot = atomicAdd(tile_counter, 1u);
  }
  const pass_plan plan = plan_pass(trivial, bits.passes(), pass, double_buffer);
  if (plan.kind == pass_kind::skip)
  {
    return;
  }
  __syncthreads();
  const unsigned int tile = tile_slot;
  unsigned int tiles      = gridDim.x;
  if constexpr (CountT::IN_DEVICE_MEMORY)
  {
    const OffsetT items = count.resolve(num_items);
    portion_end         = items < portion_end ? items : portion_end;
    tiles               = portion_end > portion_begin ? static_cast<unsigned int>(
              (portion_end - portion_begin + OffsetT(Policy::TILE_ITEMS - 1)) / OffsetT(Policy::TILE_ITEMS))
                                                      : 0u;
    if (tile >= tiles)
    {
      return;
    }
  }
  const OffsetT tile_begin = portion_begin + static_cast<OffsetT>(tile) * Policy::TILE_ITEMS;
  const OffsetT rest       = portion_end - tile_begin;
  const int valid          = rest < OffsetT(Policy::TILE_ITEMS) ? static_cast<int>(rest) : Policy::TILE_ITEMS;
  Agent agent(temp_storage, codec);
  KeyT* const keys_src     = buffers.key(plan.src);
  KeyT* const keys_dst     = buffers.key(plan.dst);
  ValueT* const values_src = buffers.value(plan.src);
  ValueT* const values_dst = buffers.value(plan.dst);
  if (plan.kind == pass_kind::copy)
  {
    agent.CopyTile(keys_src, keys_dst, values_src, values_dst, tile_begin, valid);
    return;
  }
  OffsetT* row      = state.offsets + (static_cast<size_t>(pass) * state.portions + portion) * (1 << RADIX_BITS);
  OffsetT* next_row = portion + 1 < state.portions ? row + (1 << RADIX_BITS) : nullptr;
  const bool last   = tile == tiles - 1;
  if (!Agent::ONE_BODY && valid == Policy::TILE_ITEMS)
  {
    agent.template SortTile<true>(keys_src, keys_dst, values_src, values_dst, tile_begin, valid, tile, last,
                                  bits.start(pass), bits.width(pass), row, next_row, lookback, epoch);
  }
  else
  {
    agent.template SortTile<false>(keys_src, keys_dst, values_src, values_dst, tile_begin, valid, tile, last,
                                   bits.start(pass), bits.width(pass), row, next_row, lookback, epoch);
  }
}

// The whole sort of at most one tile of single-block tier TIER, in one block (its storage in dynamic shared memory).
template <typename MaxPolicyT, int TIER, typename KeyT, typename ValueT, typename OffsetT, typename CodecT,
          typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(single_tile_policy_t<typename MaxPolicyT::ActivePolicy, TIER>::BLOCK_THREADS,
                                           1) void
DeviceRadixSortSingleTileKernel(const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                                ValueT* d_values_out, int num_items, CountT count, bit_range range, CodecT codec)
{
  using Policy = single_tile_policy_t<typename MaxPolicyT::ActivePolicy, TIER>;
  using Agent  = AgentRadixSortOnesweep<Policy, KeyT, ValueT, OffsetT, CodecT>;
  if constexpr (CountT::IN_DEVICE_MEMORY)
  {
    num_items = count.resolve(num_items);
    if (num_items == 0)
    {
      return;
    }
  }
  Agent(DynamicSharedStorage<typename Agent::TempStorage>(), codec)
    .SortSingleTile(d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, pass_bits<Policy::RADIX_BITS>(range));
}

STRATA_KERNELS_END

// The dynamic shared memory of a block of a onesweep or single-tile kernel of policy OnesweepPolicyT.
template <typename OnesweepPolicyT, typename KeyT, typename ValueT, typename OffsetT, typename CodecT>
constexpr size_t onesweep_shared_bytes =
  sizeof(typename AgentRadixSortOnesweep<OnesweepPolicyT, KeyT, ValueT, OffsetT, CodecT>::TempStorage);
} // namespace radix_sort
} // namespace detail

// The dispatch closure of DeviceRadixSort. ValueT is NullType for keys only. With is_overwrite_okay (the
// DoubleBuffer forms) both buffers of d_keys (and d_values) are scratch and the selectors are set to the result;
// otherwise d_keys.Current() is the read-only input and d_keys.Alternate() the output.
template <bool IS_DESCENDING, typename KeyT, typename ValueT, typename OffsetT,
          typename DecomposerT = detail::radix_sort::no_decomposer,
          typename PolicyHub   = detail::radix_sort::policy_hub<KeyT, ValueT, OffsetT>,
          typename CountT      = detail::host_count>
struct DispatchRadixSort
{
  using MaxPolicy = typename PolicyHub::MaxPolicy;
  // The closure that runs the kernels: 64-bit offsets (kernel_offset_t), under the default hub's 64-bit twin or the
  // same custom hub. A closure of other offsets hands its sort to that one.
  using kernel_hub = cuda::std::conditional_t<
    cuda::std::is_same<PolicyHub, detail::radix_sort::policy_hub<KeyT, ValueT, OffsetT>>::value,
    detail::radix_sort::policy_hub<KeyT, ValueT, detail::radix_sort::kernel_offset_t>, PolicyHub>;
  static constexpr bool RUNS_KERNELS = cuda::std::is_same<OffsetT, detail::radix_sort::kernel_offset_t>::value
                                    && cuda::std::is_same<PolicyHub, kernel_hub>::value;
  using CodecT                    = detail::radix_sort::key_codec<KeyT, IS_DESCENDING, DecomposerT>;
  static constexpr bool KEYS_ONLY = cuda::std::is_same<ValueT, NullType>::value;

  void* d_temp_storage;
  size_t& temp_storage_bytes;
  DoubleBuffer<KeyT>& d_keys;
  DoubleBuffer<ValueT>& d_values;
  OffsetT num_items; // the count, or the bound of a count in device memory
  int begin_bit;
  int end_bit;
  bool is_overwrite_okay;
  cudaStream_t stream;
  CodecT codec;
  CountT count;
  int device;
  int ptx_version;

  // Where the state of a onesweep sort lies in its temporary storage: [header][offsets][look-back words]. The
  // header holds the histogram's block counter, the trivial passes and one tile counter per digit-pass launch.
  struct state_layout
  {
    int passes;
    int portions;
    OffsetT portion_items;
    size_t header_bytes;
    size_t offsets_bytes;
    size_t bytes;
  };

  template <typename OnesweepPolicy>
  state_layout onesweep_state(int passes) const
  {
    constexpr int DIGITS   = 1 << OnesweepPolicy::RADIX_BITS;
    constexpr OffsetT TILE = OnesweepPolicy::TILE_ITEMS;
    state_layout l{};
    l.passes                    = passes;
    const OffsetT portion_tiles = static_cast<OffsetT>(detail::radix_sort::MAX_PORTION_ITEMS / TILE);
    l.portion_items             = portion_tiles * TILE;
    l.portions                  = static_cast<int>((num_items + l.portion_items - 1) / l.portion_items);
    const OffsetT tiles         = (num_items + TILE - 1) / TILE;
    const size_t lookback_tiles = static_cast<size_t>(tiles < portion_tiles ? tiles : portion_tiles);
    l.header_bytes              = cuda::round_up<size_t>((2 + static_cast<size_t>(passes) * l.portions) * 4, 16);
    l.offsets_bytes = cuda::round_up<size_t>(static_cast<size_t>(passes) * l.portions * DIGITS * sizeof(OffsetT), 16);
    l.bytes         = l.header_bytes + l.offsets_bytes + lookback_tiles * DIGITS * sizeof(cuda::std::uint32_t);
    return l;
  }

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    if constexpr (detail::radix_sort::small_onesweep<ActivePolicyT>::defined)
    {
      // Fewer full tiles than SMs: the small-input policy (unless the single-tile sort takes the input).
      using OnesweepPolicy = typename ActivePolicyT::OnesweepPolicy;
      using SmallPolicy    = typename detail::radix_sort::small_onesweep<ActivePolicyT>::type;
      static_assert(SmallPolicy::RADIX_BITS == OnesweepPolicy::RADIX_BITS, "one digit width per policy");
      int sm_count = 0;
      STRATA_RETURN_IF_ERROR(SmCount(sm_count, device));
      const OffsetT tiles = num_items / OffsetT(OnesweepPolicy::TILE_ITEMS);
      if (tiles < static_cast<OffsetT>(sm_count))
      {
        return InvokeWith<ActivePolicyT, true>();
      }
    }
    return InvokeWith<ActivePolicyT, false>();
  }

  template <typename ActivePolicyT, bool SMALL>
  cudaError_t InvokeWith()
  {
    using OnesweepPolicy     = detail::radix_sort::onesweep_policy_t<ActivePolicyT, SMALL>;
    using SingleTileTiers    = detail::radix_sort::single_tile_tiers_t<ActivePolicyT>;
    constexpr int RADIX_BITS = OnesweepPolicy::RADIX_BITS;

    const detail::radix_sort::bit_range range{begin_bit, end_bit};
    const int passes       = detail::radix_sort::pass_bits<RADIX_BITS>(range).passes();
    const bool single_tile = num_items <= OffsetT(SingleTileTiers::largest::TILE_ITEMS);
    const bool onesweep    = !single_tile && passes > 0;

    // Temporary storage: the third buffer of the in/out forms, and the sort's state.
    const state_layout state = onesweep ? onesweep_state<OnesweepPolicy>(passes) : state_layout{};
    // One pass moves the keys at most once, from the input to the output: no third buffer.
    const bool third_buffer = onesweep && !is_overwrite_okay && passes >= 2;

    detail::temporary_storage::layout<3> layout;
    auto keys_tmp = layout.get_slot(0)->create_alias<KeyT>(third_buffer ? static_cast<size_t>(num_items) : 0);
    auto values_tmp =
      layout.get_slot(1)->create_alias<ValueT>(third_buffer && !KEYS_ONLY ? static_cast<size_t>(num_items) : 0);
    auto state_mem = layout.get_slot(2)->create_alias<char>(state.bytes);
    bool mapped    = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped || num_items == 0)
    {
      return cudaSuccess;
    }
    if (d_keys.d_buffers[0] == nullptr || d_keys.d_buffers[1] == nullptr
        || (!KEYS_ONLY && (d_values.d_buffers[0] == nullptr || d_values.d_buffers[1] == nullptr)))
    {
      return cudaErrorInvalidValue;
    }

    // Where the result goes: the output of the in/out forms; for the DoubleBuffer forms the buffer that one move
    // per pass would end in.
    const int key_result    = is_overwrite_okay ? (d_keys.selector ^ (passes & 1)) : 1;
    const int value_result  = is_overwrite_okay ? (d_values.selector ^ (passes & 1)) : 1;
    KeyT* const keys_in     = d_keys.d_buffers[is_overwrite_okay ? d_keys.selector : 0];
    ValueT* const values_in = d_values.d_buffers[is_overwrite_okay ? d_values.selector : 0];

    cudaError_t error = cudaSuccess;
    if (passes == 0)
    {
      // No bits to sort by: the input is the result.
      if (!is_overwrite_okay)
      {
        error = copy(d_keys.d_buffers[1], keys_in);
        if (error == cudaSuccess && !KEYS_ONLY)
        {
          error = copy(d_values.d_buffers[1], values_in);
        }
      }
    }
    else if (single_tile)
    {
      error = single_tile_sort<ActivePolicyT, 0>(keys_in, d_keys.d_buffers[key_result], values_in,
                                                 d_values.d_buffers[value_result]);
    }
    else
    {
      detail::radix_sort::sort_buffers<KeyT, ValueT> buffers{};
      buffers.keys[detail::radix_sort::BUFFER_IN]  = keys_in;
      buffers.keys[detail::radix_sort::BUFFER_OUT] = d_keys.d_buffers[key_result];
      buffers.keys[detail::radix_sort::BUFFER_TMP] =
        is_overwrite_okay ? d_keys.d_buffers[key_result ^ 1] : keys_tmp.get();
      buffers.values[detail::radix_sort::BUFFER_IN]  = values_in;
      buffers.values[detail::radix_sort::BUFFER_OUT] = d_values.d_buffers[value_result];
      buffers.values[detail::radix_sort::BUFFER_TMP] =
        is_overwrite_okay ? d_values.d_buffers[value_result ^ 1] : values_tmp.get();
      error = onesweep_sort<ActivePolicyT, SMALL>(buffers, state_mem.get(), state);
    }
    if (error == cudaSuccess && is_overwrite_okay)
    {
      d_keys.selector   = key_result;
      d_values.selector = value_result;
    }
    return error;
  }

  template <typename T>
  cudaError_t copy(T* d_out, const T* d_in) const
  {
    if (d_out == d_in)
    {
      return cudaSuccess;
    }
    if constexpr (CountT::IN_DEVICE_MEMORY)
    {
      // The count's items, copied by DeviceTransform's kernel (which reads the count).
      return DispatchTransform<OffsetT, Identity, T*, detail::transform::policy_hub, CountT, const T*>::Dispatch(
        cuda::std::make_tuple(d_in), d_out, num_items, Identity{}, stream, count);
    }
    return cudaMemcpyAsync(d_out, d_in, static_cast<size_t>(num_items) * sizeof(T), cudaMemcpyDeviceToDevice, stream);
  }

  // The sort of an input of at most one tile: one block of the first single-block tier, from TIER up, whose tile
  // holds it.
  template <typename ActivePolicyT, int TIER>
  cudaError_t single_tile_sort(const KeyT* keys_in, KeyT* keys_out, const ValueT* values_in, ValueT* values_out) const
  {
    using Tiers  = detail::radix_sort::single_tile_tiers_t<ActivePolicyT>;
    using Policy = typename Tiers::template tier<TIER>;
    static_assert(Policy::RADIX_BITS == ActivePolicyT::OnesweepPolicy::RADIX_BITS, "one digit width per policy");
    if constexpr (TIER + 1 < Tiers::count)
    {
      if (num_items > OffsetT(Policy::TILE_ITEMS))
      {
        return single_tile_sort<ActivePolicyT, TIER + 1>(keys_in, keys_out, values_in, values_out);
      }
    }
    const auto kernel =
      detail::radix_sort::DeviceRadixSortSingleTileKernel<MaxPolicy, TIER, KeyT, ValueT, OffsetT, CodecT, CountT>;
    constexpr size_t SHARED_BYTES = detail::radix_sort::onesweep_shared_bytes<Policy, KeyT, ValueT, OffsetT, CodecT>;
    STRATA_RETURN_IF_ERROR(PrepareSharedMemoryOver48KiB<SHARED_BYTES>(kernel, Policy::BLOCK_THREADS, device));
    return detail::check_launch(LaunchAfterShared(false, dim3(1), dim3(Policy::BLOCK_THREADS), SHARED_BYTES, stream,
                                                  kernel, keys_in, keys_out, values_in, values_out,
                                                  static_cast<int>(num_items), count,
                                                  detail::radix_sort::bit_range{begin_bit, end_bit}, codec),
                                stream);
  }

  template <typename ActivePolicyT, bool SMALL>
  cudaError_t onesweep_sort(const detail::radix_sort::sort_buffers<KeyT, ValueT>& buffers, char* state_mem,
                            const state_layout& layout) const
  {
    using OnesweepPolicy  = detail::radix_sort::onesweep_policy_t<ActivePolicyT, SMALL>;
    using HistogramPolicy = typename ActivePolicyT::HistogramPolicy;
    const detail::radix_sort::bit_range range{begin_bit, end_bit};
    const int passes            = layout.passes;
    const int portions          = layout.portions;
    const OffsetT portion_items = layout.portion_items;

    detail::radix_sort::sort_state<OffsetT> state{};
    state.blocks_done           = reinterpret_cast<unsigned int*>(state_mem);
    state.trivial_passes        = reinterpret_cast<unsigned int*>(state_mem) + 1;
    unsigned int* tile_counters = reinterpret_cast<unsigned int*>(state_mem) + 2;
    state.offsets               = reinterpret_cast<OffsetT*>(state_mem + layout.header_bytes);
    state.portions              = portions;
    auto* lookback = reinterpret_cast<cuda::std::uint32_t*>(state_mem + layout.header_bytes + layout.offsets_bytes);

    // A tile over 48 KiB needs the kernel's shared memory raised, before anything is launched.
    const auto onesweep =
      detail::radix_sort::DeviceRadixSortOnesweepKernel<MaxPolicy, SMALL, KeyT, ValueT, OffsetT, CodecT, CountT>;
    constexpr size_t SHARED_BYTES =
      detail::radix_sort::onesweep_shared_bytes<OnesweepPolicy, KeyT, ValueT, OffsetT, CodecT>;
    STRATA_RETURN_IF_ERROR(PrepareSharedMemoryOver48KiB<SHARED_BYTES>(onesweep, OnesweepPolicy::BLOCK_THREADS, device));
    STRATA_RETURN_IF_ERROR(cudaMemsetAsync(state_mem, 0, layout.bytes, stream));

    // Histogram: one wave, at most one block per tile of the histogram policy.
    const auto histogram = detail::radix_sort::DeviceRadixSortHistogramKernel<MaxPolicy, KeyT, OffsetT, CodecT, CountT>;
    size_t wave          = 0;
    STRATA_RETURN_IF_ERROR(WaveBlocks(wave, histogram, HistogramPolicy::BLOCK_THREADS, device));
    const size_t histogram_tiles = static_cast<size_t>((num_items + OffsetT(HistogramPolicy::TILE_ITEMS) - 1)
                                                       / OffsetT(HistogramPolicy::TILE_ITEMS));
    STRATA_RETURN_IF_ERROR(
      detail::check_launch(Launch(dim3(static_cast<unsigned int>(histogram_tiles < wave ? histogram_tiles : wave)),
                                  dim3(HistogramPolicy::BLOCK_THREADS), stream, histogram,
                                  static_cast<const KeyT*>(buffers.keys[detail::radix_sort::BUFFER_IN]), num_items,
                                  count, range, state, codec),
                           stream));

    // The digit passes, portion by portion.
    constexpr OffsetT TILE = OnesweepPolicy::TILE_ITEMS;
    int launch             = 0;
    for (int pass = 0; pass < passes; ++pass)
    {
      for (int portion = 0; portion < portions; ++portion, ++launch)
      {
        const OffsetT portion_begin = static_cast<OffsetT>(portion) * portion_items;
        const OffsetT rest          = num_items - portion_begin;
        const OffsetT portion_end   = portion_begin + (rest < portion_items ? rest : portion_items);
        const unsigned int grid     = static_cast<unsigned int>((portion_end - portion_begin + TILE - 1) / TILE);
        const auto epoch = static_cast<cuda::std::uint32_t>(launch % detail::radix_sort::LOOKBACK_EPOCHS + 1);
        STRATA_RETURN_IF_ERROR(detail::check_launch(
          LaunchAfterShared(ptx_version >= 900, dim3(grid), dim3(OnesweepPolicy::BLOCK_THREADS), SHARED_BYTES, stream,
                            onesweep, buffers, is_overwrite_okay, state, lookback, tile_counters + launch, range, pass,
                            portion, portion_begin, portion_end, num_items, count, epoch, codec),
          stream));
      }
    }
    return cudaSuccess;
  }

  // Checks the bit range, picks the policy for the current device's PTX version and runs (or sizes) the sort.
  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                              DoubleBuffer<ValueT>& d_values, OffsetT num_items, int begin_bit, int end_bit,
                              bool is_overwrite_okay, cudaStream_t stream, DecomposerT decomposer = {},
                              CountT count = {})
  {
    if (begin_bit < 0 || end_bit < begin_bit || end_bit > CodecT::BITS)
    {
      return cudaErrorInvalidValue;
    }
    if constexpr (cuda::std::is_signed<OffsetT>::value)
    {
      if (num_items < 0)
      {
        return cudaErrorInvalidValue;
      }
    }
    if constexpr (!RUNS_KERNELS)
    {
      return DispatchRadixSort<IS_DESCENDING, KeyT, ValueT, detail::radix_sort::kernel_offset_t, DecomposerT,
                               kernel_hub, CountT>::Dispatch(d_temp_storage, temp_storage_bytes, d_keys, d_values,
                                                             static_cast<detail::radix_sort::kernel_offset_t>(
                                                               num_items),
                                                             begin_bit, end_bit, is_overwrite_okay, stream, decomposer,
                                                             count);
    }
    else
    {
      int device      = 0;
      int ptx_version = 0;
      STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
      DispatchRadixSort closure{d_temp_storage, temp_storage_bytes, d_keys, d_values,           num_items, begin_bit,
                                end_bit,        is_overwrite_okay,  stream, CodecT(decomposer), count,     device,
                                ptx_version};
      return MaxPolicy::Invoke(ptx_version, closure);
    }
  }
};

STRATA_NAMESPACE_END
