// DispatchHistogram: DeviceHistogram's kernels and the host closure that sizes and launches them.
//
// Two launches. The init kernel zeroes the output histograms (CUB's contract: they hold the counts of this call
// only, and are zeroed even when there are no samples). The sweep kernel, launched after it with programmatic stream
// serialization on sm_90, starts while the init kernel is still running: its blocks count their samples into
// privatized counters in shared memory and wait for the init kernel only before they add their counters to the
// output (AgentHistogram). Where a channel's bins do not fit in shared memory, the sweep waits first and counts
// straight into the output with global atomics. The sweep's grid is one wave of resident blocks (fewer for small
// inputs), a 1D input cut into one contiguous share per block and rows of a 2D input into tiles; the per-block cost of
// zeroing and adding up the counters is paid once per block, not per tile. No temporary storage (the size query
// answers 1 byte).
#pragma once

#include <strata/agent/agent_histogram.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/tuning/tuning_histogram.cuh>
#include <strata/util/device.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/array>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace histogram
{
STRATA_KERNELS_BEGIN

// Zeroes num_bins[c] counters of d_histograms[c] for every active channel c. Lets the sweep start at once: it waits
// for this grid before it touches the output.
template <int NUM_ACTIVE_CHANNELS, typename CounterT>
STRATA_KERNEL_ATTRIBUTES void DeviceHistogramInitKernel(cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histograms,
                                                        cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_bins)
{
  GridLaunchDependents();
  const unsigned int stride = gridDim.x * blockDim.x;
  STRATA_UNROLL
  for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
  {
    const unsigned int bins = static_cast<unsigned int>(num_bins[c]);
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < bins; i += stride)
    {
      d_histograms[c][i] = CounterT(0);
    }
  }
}

// Counts the samples of the segments of `shape` into the output histograms (AgentHistogram). CountT: host_count, or
// item_count for a 1D input whose number of pixels is in device memory (shape.row_pixels its bound): the count is read
// at once, before the grid-dependency wait, which is safe because the init kernel before this grid is launched without
// programmatic serialization, so whatever wrote the count has finished before this grid can start.
template <typename MaxPolicyT, bool PRIVATIZED, int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT,
          typename CounterT, typename BinOpT, typename OffsetT, typename CountT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::HistogramPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::HistogramPolicy::MIN_BLOCKS_PER_SM) void
DeviceHistogramSweepKernel(SampleIteratorT d_samples, sweep_shape<OffsetT> shape,
                           cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histograms,
                           cuda::std::array<int, NUM_ACTIVE_CHANNELS> privatized_bins,
                           cuda::std::array<BinOpT, NUM_ACTIVE_CHANNELS> bin_ops, counter_layout layout, CountT count)
{
  using Policy = typename MaxPolicyT::ActivePolicy::HistogramPolicy;
  using Agent =
    AgentHistogram<Policy, NUM_CHANNELS, NUM_ACTIVE_CHANNELS, SampleIteratorT, CounterT, BinOpT, OffsetT, PRIVATIZED>;
  if constexpr (CountT::IN_DEVICE_MEMORY)
  {
    // The one row is the count's pixels, cut into the grid's shares again (as the host cuts a count it holds).
    shape.row_pixels    = count.resolve(shape.row_pixels);
    shape.row_stride    = shape.row_pixels * OffsetT(NUM_CHANNELS);
    const OffsetT units = shape.row_stride / OffsetT(Agent::UNIT_SAMPLES);
    shape.segment_units =
      units == OffsetT(0) ? OffsetT(1) : (units + shape.row_segments - OffsetT(1)) / shape.row_segments;
  }
  Agent agent(&DynamicSharedStorage<unsigned char>(), d_samples, shape, d_histograms, privatized_bins, bin_ops, layout);
  agent.InitCounters();
  agent.ConsumeSegments();
  agent.Flush();
}

STRATA_KERNELS_END

// Rounds `value` up to a multiple of `multiple`.
constexpr unsigned long long round_up(unsigned long long value, unsigned long long multiple)
{
  return (value + multiple - 1) / multiple * multiple;
}
} // namespace histogram
} // namespace detail

// NUM_CHANNELS samples make a pixel (1 to 4), of which the first NUM_ACTIVE_CHANNELS are counted, each into its own
// histogram. OffsetT: an unsigned integer type that holds every sample offset of the input (DeviceHistogram picks it).
// CountT: detail::host_count, or detail::item_count for a 1D input (one row) whose number of pixels is in device
// memory, num_row_pixels its bound.
template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
          typename OffsetT,
          typename PolicyHub =
            detail::histogram::policy_hub<detail::it_value_t<SampleIteratorT>, NUM_CHANNELS, NUM_ACTIVE_CHANNELS>,
          typename CountT = detail::host_count>
struct DispatchHistogram
{
  static_assert(NUM_CHANNELS >= 1 && NUM_CHANNELS <= 4, "DeviceHistogram takes pixels of 1 to 4 channels");
  static_assert(NUM_ACTIVE_CHANNELS >= 1 && NUM_ACTIVE_CHANNELS <= NUM_CHANNELS,
                "DeviceHistogram counts 1 to NUM_CHANNELS active channels");

  using SampleT   = detail::it_value_t<SampleIteratorT>;
  using MaxPolicy = typename PolicyHub::MaxPolicy;
  using EvenOpT   = detail::histogram::even_bins<SampleT, LevelT>;
  using RangeOpT  = detail::histogram::range_bins<SampleT, LevelT>;
  template <typename T>
  using per_channel = cuda::std::array<T, NUM_ACTIVE_CHANNELS>;

  // The closure of one call: the samples, the outputs and their binning rule (BinOpT: EvenOpT or RangeOpT).
  template <typename BinOpT>
  struct closure
  {
    void* d_temp_storage;
    size_t& temp_storage_bytes;
    SampleIteratorT d_samples;
    per_channel<CounterT*> d_histograms;
    per_channel<int> num_levels;
    per_channel<BinOpT> bin_ops;
    OffsetT num_row_pixels;
    OffsetT num_rows;
    OffsetT row_stride;
    cudaStream_t stream;
    int ptx_version;
    CountT count;

    template <typename ActivePolicyT>
    cudaError_t Invoke()
    {
      detail::temporary_storage::layout<1> layout; // no temporary storage
      bool mapped = false;
      STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
      if (!mapped)
      {
        return cudaSuccess;
      }

      // Zero the outputs.
      per_channel<int> num_bins{};
      int most_bins = 0;
      for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
      {
        num_bins[c] = num_levels[c] - 1;
        most_bins   = num_bins[c] > most_bins ? num_bins[c] : most_bins;
      }
      constexpr int INIT_THREADS   = 256;
      const long long init_wanted  = (static_cast<long long>(most_bins) + INIT_THREADS - 1) / INIT_THREADS;
      const unsigned int init_grid = static_cast<unsigned int>(init_wanted < 4096 ? init_wanted : 4096);
      const auto init_kernel       = detail::histogram::DeviceHistogramInitKernel<NUM_ACTIVE_CHANNELS, CounterT>;
      STRATA_RETURN_IF_ERROR(detail::check_launch(
        Launch(dim3(init_grid), dim3(INIT_THREADS), stream, init_kernel, d_histograms, num_bins), stream));

      // A 2D input whose rows follow one another is one row.
      OffsetT pixels = num_row_pixels;
      OffsetT rows   = num_rows;
      OffsetT stride = row_stride;
      if (rows == OffsetT(0) || pixels == OffsetT(0))
      {
        return cudaSuccess;
      }
      if (rows == OffsetT(1) || stride == pixels * OffsetT(NUM_CHANNELS))
      {
        pixels *= rows;
        rows   = OffsetT(1);
        stride = pixels * OffsetT(NUM_CHANNELS);
      }

      using Policy = typename ActivePolicyT::HistogramPolicy;
      using AgentT = detail::histogram::AgentHistogram<Policy, NUM_CHANNELS, NUM_ACTIVE_CHANNELS, SampleIteratorT,
                                                       CounterT, BinOpT, OffsetT, true>;
      constexpr bool BYTE_SAMPLES = AgentT::BYTE_SAMPLES;

      // The counters (and levels) in shared memory: does one copy fit at all?
      per_channel<int> privatized_bins{};
      int most_privatized = 0;
      int most_levels     = 0;
      for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
      {
        privatized_bins[c] = BYTE_SAMPLES ? 256 : num_bins[c];
        most_privatized    = privatized_bins[c] > most_privatized ? privatized_bins[c] : most_privatized;
        most_levels        = num_levels[c] > most_levels ? num_levels[c] : most_levels;
      }
      int device = 0;
      STRATA_RETURN_IF_ERROR(CurrentDevice(device));
      ::strata::backend::device_attributes attributes{};
      STRATA_RETURN_IF_ERROR(DeviceAttributes(attributes, device));
      detail::histogram::counter_layout counters{};
      counters.bins_stride =
        static_cast<int>(detail::histogram::round_up(static_cast<unsigned long long>(most_privatized), 4));
      const unsigned long long copy_bytes = static_cast<unsigned long long>(NUM_ACTIVE_CHANNELS)
                                          * static_cast<unsigned long long>(counters.bins_stride) * 4;
      unsigned long long levels_bytes = 0;
      if constexpr (AgentT::STAGED_LEVELS)
      {
        counters.levels_stride =
          static_cast<int>(detail::histogram::round_up(static_cast<unsigned long long>(most_levels), 4));
        levels_bytes = static_cast<unsigned long long>(NUM_ACTIVE_CHANNELS)
                     * static_cast<unsigned long long>(counters.levels_stride) * sizeof(LevelT);
      }
      if constexpr (BYTE_SAMPLES)
      {
        return sweep<Policy, true>(attributes, counters, copy_bytes, levels_bytes, pixels, rows, stride,
                                   privatized_bins);
      }
      else
      {
        if (copy_bytes + levels_bytes <= static_cast<unsigned long long>(attributes.max_shared_memory_per_block_optin))
        {
          return sweep<Policy, true>(attributes, counters, copy_bytes, levels_bytes, pixels, rows, stride,
                                     privatized_bins);
        }
        // More bins than a block's shared memory holds: straight into the output.
        return sweep<Policy, false>(attributes, detail::histogram::counter_layout{}, 0, 0, pixels, rows, stride,
                                    num_bins);
      }
    }

    // Sizes the counters' copies and the grid, and launches the sweep (after the init kernel).
    template <typename Policy, bool PRIVATIZED>
    cudaError_t sweep(const ::strata::backend::device_attributes& attributes,
                      detail::histogram::counter_layout counters, unsigned long long copy_bytes,
                      unsigned long long levels_bytes, OffsetT pixels, OffsetT rows, OffsetT stride,
                      per_channel<int> privatized_bins) const
    {
      using AgentT = detail::histogram::AgentHistogram<Policy, NUM_CHANNELS, NUM_ACTIVE_CHANNELS, SampleIteratorT,
                                                       CounterT, BinOpT, OffsetT, PRIVATIZED>;
      const auto kernel =
        detail::histogram::DeviceHistogramSweepKernel<MaxPolicy, PRIVATIZED, NUM_CHANNELS, NUM_ACTIVE_CHANNELS,
                                                      SampleIteratorT, CounterT, BinOpT, OffsetT, CountT>;
      const unsigned long long units_per_row =
        static_cast<unsigned long long>(pixels) * NUM_CHANNELS / AgentT::UNIT_SAMPLES;
      const unsigned long long row_tiles =
        units_per_row == 0 ? 1 : (units_per_row + AgentT::TILE_UNITS - 1) / AgentT::TILE_UNITS;
      const unsigned long long counted =
        static_cast<unsigned long long>(pixels) * static_cast<unsigned long long>(rows) * NUM_ACTIVE_CHANNELS;
      // The most blocks with work: a unit per thread in 1D, a tile per block in 2D.
      const unsigned long long busy_blocks = rows == OffsetT(1)
                                             ? (units_per_row + Policy::BLOCK_THREADS - 1) / Policy::BLOCK_THREADS
                                             : static_cast<unsigned long long>(rows) * row_tiles;
      unsigned long long planned           = static_cast<unsigned long long>(attributes.sm_count)
                                 * static_cast<unsigned long long>(Policy::MIN_BLOCKS_PER_SM);
      planned = busy_blocks < planned ? busy_blocks : planned;
      planned = planned > 0 ? planned : 1;

      // Copies of the counters: as many as the shared memory budget allows and the block's samples pay for.
      size_t smem_bytes = 0;
      if constexpr (PRIVATIZED)
      {
        int copies = Policy::MAX_COPIES;
        while (copies > 1
               && copy_bytes * static_cast<unsigned long long>(copies) + levels_bytes > Policy::COUNTER_SMEM_BYTES)
        {
          copies /= 2;
        }
        const unsigned long long block_samples = counted / planned;
        while (copies > 1
               && copy_bytes / 4 * static_cast<unsigned long long>(copies) * Policy::SAMPLES_PER_COUNTER
                    > block_samples)
        {
          copies /= 2;
        }
        while ((1 << counters.copies_log2) < copies)
        {
          ++counters.copies_log2;
        }
        counters.levels_offset = static_cast<int>(copy_bytes * static_cast<unsigned long long>(copies));
        smem_bytes = static_cast<size_t>(copy_bytes * static_cast<unsigned long long>(copies) + levels_bytes);
        if (smem_bytes > 48 * 1024)
        {
          // Once per kernel and device, for the most any call may take, so that no smaller size set later lowers the
          // kernel's limit below what an earlier call was prepared for.
          STRATA_RETURN_IF_ERROR(PrepareSharedMemory(kernel, Policy::BLOCK_THREADS,
                                                     static_cast<size_t>(attributes.max_shared_memory_per_block_optin),
                                                     attributes.device));
        }
      }
      int occupancy = 0;
      STRATA_RETURN_IF_ERROR(MaxSmOccupancy(occupancy, kernel, Policy::BLOCK_THREADS, attributes.device, smem_bytes));
      if (occupancy < 1)
      {
        return cudaErrorInvalidConfiguration;
      }
      const int per_sm = occupancy < Policy::MIN_BLOCKS_PER_SM ? occupancy : Policy::MIN_BLOCKS_PER_SM;
      unsigned long long grid =
        static_cast<unsigned long long>(attributes.sm_count) * static_cast<unsigned long long>(per_sm);
      grid = busy_blocks < grid ? busy_blocks : grid;
      // At most 2^30 samples a block, so that no 32-bit counter of a block can overflow.
      const unsigned long long fewest = (counted >> 30) + 1;
      grid                            = grid > fewest ? grid : fewest;
      grid                            = grid < 0x7fffffffULL ? grid : 0x7fffffffULL;

      detail::histogram::sweep_shape<OffsetT> shape{};
      shape.row_pixels = pixels;
      shape.num_rows   = rows;
      shape.row_stride = stride;
      if (rows == OffsetT(1))
      {
        // One contiguous share of the units per block.
        shape.row_segments  = static_cast<OffsetT>(grid);
        shape.segment_units = static_cast<OffsetT>(units_per_row == 0 ? 1 : (units_per_row + grid - 1) / grid);
      }
      else
      {
        // A tile per segment, segments taken in turn.
        shape.row_segments                = static_cast<OffsetT>(row_tiles);
        shape.segment_units               = static_cast<OffsetT>(AgentT::TILE_UNITS);
        const unsigned long long segments = static_cast<unsigned long long>(rows) * row_tiles;
        grid                              = segments < grid ? segments : grid;
      }
      return detail::check_launch(LaunchAfterShared(ptx_version >= 900, dim3(static_cast<unsigned int>(grid)),
                                                    dim3(Policy::BLOCK_THREADS), smem_bytes, stream, kernel, d_samples,
                                                    shape, d_histograms, privatized_bins, bin_ops, counters, count),
                                  stream);
    }
  };

  // HistogramEven: channel c's num_levels[c] - 1 bins split [lower_level[c], upper_level[c]) evenly.
  static cudaError_t DispatchEven(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                                  per_channel<CounterT*> d_histograms, per_channel<int> num_levels,
                                  per_channel<LevelT> lower_level, per_channel<LevelT> upper_level,
                                  OffsetT num_row_pixels, OffsetT num_rows, OffsetT row_stride_samples,
                                  cudaStream_t stream, CountT count = {})
  {
    per_channel<EvenOpT> ops{};
    for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
    {
      STRATA_RETURN_IF_ERROR(ops[c].init(num_levels[c], lower_level[c], upper_level[c]));
    }
    return run(d_temp_storage, temp_storage_bytes, d_samples, d_histograms, num_levels, ops, num_row_pixels, num_rows,
               row_stride_samples, stream, count);
  }

  // HistogramRange: channel c's bins lie between the num_levels[c] ascending levels at d_levels[c].
  static cudaError_t DispatchRange(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                                   per_channel<CounterT*> d_histograms, per_channel<int> num_levels,
                                   per_channel<const LevelT*> d_levels, OffsetT num_row_pixels, OffsetT num_rows,
                                   OffsetT row_stride_samples, cudaStream_t stream, CountT count = {})
  {
    per_channel<RangeOpT> ops{};
    for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
    {
      STRATA_RETURN_IF_ERROR(ops[c].init(num_levels[c], d_levels[c]));
    }
    return run(d_temp_storage, temp_storage_bytes, d_samples, d_histograms, num_levels, ops, num_row_pixels, num_rows,
               row_stride_samples, stream, count);
  }

private:
  // Picks the policy for the current device's PTX version and runs (or sizes) the histograms.
  template <typename BinOpT>
  static cudaError_t run(void* d_temp_storage, size_t& temp_storage_bytes, SampleIteratorT d_samples,
                         per_channel<CounterT*> d_histograms, per_channel<int> num_levels, per_channel<BinOpT> ops,
                         OffsetT num_row_pixels, OffsetT num_rows, OffsetT row_stride_samples, cudaStream_t stream,
                         CountT count)
  {
    if (CountT::IN_DEVICE_MEMORY && num_rows > OffsetT(1))
    {
      return cudaErrorInvalidValue; // a count in device memory is a 1D input's
    }
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(PtxVersion(ptx_version));
    closure<BinOpT> c{d_temp_storage, temp_storage_bytes, d_samples,          d_histograms, num_levels,  ops,
                      num_row_pixels, num_rows,           row_stride_samples, stream,       ptx_version, count};
    return MaxPolicy::Invoke(ptx_version, c);
  }
};

STRATA_NAMESPACE_END
