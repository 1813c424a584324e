// AgentHistogram: the body of DeviceHistogram's sweep kernel, and the binning rules of HistogramEven and
// HistogramRange (CUB's arithmetic, so that the same samples land in the same bins).
//
// A block counts its share of the samples into privatized counters in shared memory (or, where the bins do not fit
// there, straight into the output with global atomics), then adds each nonzero counter to the output histogram with
// one global atomic. The counters of a channel come in copies laid out bin-major, copy-minor: lane l of every
// warp counts into copy l % copies, and with 32 copies each lane owns a bank, so a warp's 32 shared atomics never
// meet in a bank whatever the samples (a skewed input, all samples in one bin, included); fewer copies where the bins
// would take too much shared memory, or where the block has too few samples to pay for zeroing and adding up more.
//
// Samples are read by 16-byte vector loads from pointers: a row (a whole 1D input is one row) is a head of loose
// samples up to the first 16-byte boundary where a pixel starts, a body of units (whole 16-byte vectors holding
// whole pixels: 1, 2 or 3 vectors), and a tail of loose samples. Rows whose pixels cannot line up with 16-byte
// vectors, and inputs that are not pointers, are read a pixel at a time (only the active channels' samples).
// 8-bit samples are privatized by their bit pattern (256 counters a channel, no arithmetic per sample) and put into
// the output's bins when the counters are added to the output, as CUB does.
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/atomic>
#include <cuda/std/array>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentHistogram: BLOCK_THREADS threads, each reading VECTORS_PER_THREAD 16-byte vectors of
// samples per tile (PIXELS_PER_THREAD pixels where samples are read a pixel at a time) with LOAD_MODIFIER; at most
// MAX_COPIES copies of the counters (a power of two up to 32) within COUNTER_SMEM_BYTES of shared memory, and only as
// many as leave SAMPLES_PER_COUNTER samples of the block per counter; the blocks per SM the registers are bounded for,
// which is also the blocks per SM the grid is sized for.
template <int BLOCK_THREADS_, int VECTORS_PER_THREAD_, CacheLoadModifier LOAD_MODIFIER_ = LOAD_LDG,
          int MAX_COPIES_ = 32, int COUNTER_SMEM_BYTES_ = 48 * 1024, int SAMPLES_PER_COUNTER_ = 4,
          int MIN_BLOCKS_PER_SM_ = 1, int PIXELS_PER_THREAD_ = 4>
struct AgentHistogramPolicy
{
  static constexpr int BLOCK_THREADS               = BLOCK_THREADS_;
  static constexpr int VECTORS_PER_THREAD          = VECTORS_PER_THREAD_;
  static constexpr CacheLoadModifier LOAD_MODIFIER = LOAD_MODIFIER_;
  static constexpr int MAX_COPIES                  = MAX_COPIES_;
  static constexpr int COUNTER_SMEM_BYTES          = COUNTER_SMEM_BYTES_;
  static constexpr int SAMPLES_PER_COUNTER         = SAMPLES_PER_COUNTER_;
  static constexpr int MIN_BLOCKS_PER_SM           = MIN_BLOCKS_PER_SM_;
  static constexpr int PIXELS_PER_THREAD           = PIXELS_PER_THREAD_;

  static_assert(MAX_COPIES_ >= 1 && MAX_COPIES_ <= 32 && (MAX_COPIES_ & (MAX_COPIES_ - 1)) == 0,
                "MAX_COPIES is a power of two from 1 to 32");
  static_assert(BLOCK_THREADS_ % 32 == 0, "whole warps");
};

namespace detail
{
namespace histogram
{
constexpr int gcd(int a, int b)
{
  return b == 0 ? a : gcd(b, a % b);
}
constexpr int lcm(int a, int b)
{
  return a / gcd(a, b) * b;
}

// Adds `count` to the counter at `counter` (global memory), wrapping as CounterT's addition does.
template <typename CounterT>
STRATA_DEVICE STRATA_FORCEINLINE void add_count(CounterT* counter, unsigned int count)
{
  cuda::atomic_ref<CounterT, cuda::thread_scope_device>(*counter).fetch_add(static_cast<CounterT>(count),
                                                                            cuda::memory_order_relaxed);
}

// The bins of HistogramEven: num_levels - 1 bins of equal width over [lower, upper). As CUB computes them: the sample
// and the levels are converted to their common type; samples outside [lower, upper) (and NaN) are not counted; a
// floating-point sample goes to bin int((sample - lower) * scale) with scale = bins / (upper - lower) rounded in the
// common type (a rounding that would give the bin past the last, for a sample just below `upper`, gives the last
// bin); an integer sample to bin (sample - lower) * bins / (upper - lower), exactly, rounded down. The division runs
// as a multiplication by a precomputed reciprocal where the product fits 32 bits (Granlund and Montgomery's method,
// exact for every 32-bit dividend), else as a 64-bit division.
template <typename SampleT, typename LevelT>
struct even_bins
{
  using level_type               = LevelT;
  using CommonT                  = cuda::std::common_type_t<SampleT, LevelT>;
  static constexpr bool FLOATING = cuda::std::is_floating_point<CommonT>::value;
  // The unsigned type differences of integer samples are taken in (exact, since sample >= lower).
  using UnsignedT = typename cuda::std::conditional_t<FLOATING, cuda::std::type_identity<unsigned int>,
                                                      cuda::std::make_unsigned<CommonT>>::type;
  // CUB's type for (upper - lower) * bins: 32 bits where the sample and the common type take 4 bytes together.
  using ProductT =
    cuda::std::conditional_t<sizeof(SampleT) + sizeof(CommonT) <= 4, cuda::std::uint32_t, cuda::std::uint64_t>;

  CommonT lower;
  CommonT upper;
  CommonT scale;              // floating point: bins / (upper - lower)
  cuda::std::uint64_t range;  // integers: upper - lower
  cuda::std::uint32_t bins;   // num_levels - 1
  cuda::std::uint32_t magic;  // integers with narrow: the reciprocal of range
  cuda::std::uint32_t shift1; // ... and its two shifts
  cuda::std::uint32_t shift2;
  bool narrow; // integers: (range - 1) * bins and range fit 32 bits

  // cudaErrorInvalidValue where CUB refuses the levels: integer levels with upper < lower, or whose
  // (upper - lower) * bins overflows ProductT. requires: num_levels >= 2.
  STRATA_HOST cudaError_t init(int num_levels, LevelT lower_level, LevelT upper_level)
  {
    lower  = static_cast<CommonT>(lower_level);
    upper  = static_cast<CommonT>(upper_level);
    bins   = static_cast<cuda::std::uint32_t>(num_levels - 1);
    scale  = CommonT{};
    range  = 0;
    magic  = 0;
    shift1 = 0;
    shift2 = 0;
    narrow = true;
    if constexpr (FLOATING)
    {
      scale = static_cast<CommonT>(static_cast<CommonT>(bins) / static_cast<CommonT>(upper - lower));
    }
    else
    {
      if (upper < lower)
      {
        return cudaErrorInvalidValue;
      }
      range = static_cast<cuda::std::uint64_t>(
        static_cast<UnsignedT>(static_cast<UnsignedT>(upper) - static_cast<UnsignedT>(lower)));
      if (range > static_cast<cuda::std::uint64_t>(cuda::std::numeric_limits<ProductT>::max() / bins))
      {
        return cudaErrorInvalidValue;
      }
      constexpr cuda::std::uint64_t U32 = 0xffffffffULL;
      narrow                            = range <= U32 && (range == 0 || (range - 1) * bins <= U32);
      if (narrow && range > 0)
      {
        // l = ceil(log2(range)); magic = floor(2^32 (2^l - range) / range) + 1.
        cuda::std::uint32_t l = 0;
        while ((cuda::std::uint64_t(1) << l) < range)
        {
          ++l;
        }
        magic  = static_cast<cuda::std::uint32_t>((((cuda::std::uint64_t(1) << l) - range) << 32) / range + 1);
        shift1 = l < 1 ? l : 1;
        shift2 = l > 1 ? l - 1 : 0;
      }
    }
    return cudaSuccess;
  }

  // No levels: the bins are computed.
  STRATA_DEVICE STRATA_FORCEINLINE const LevelT* global_levels() const
  {
    return nullptr;
  }

  // Whether `sample` is counted, and its bin.
  template <typename LevelsT>
  STRATA_DEVICE STRATA_FORCEINLINE bool bin(SampleT sample, int& bin_index, const LevelsT*) const
  {
    const CommonT value = static_cast<CommonT>(sample);
    if (!(value >= lower && value < upper))
    {
      return false;
    }
    if constexpr (FLOATING)
    {
      const int b = static_cast<int>((value - lower) * scale);
      bin_index   = b < static_cast<int>(bins) - 1 ? b : static_cast<int>(bins) - 1;
    }
    else
    {
      const UnsignedT offset = static_cast<UnsignedT>(static_cast<UnsignedT>(value) - static_cast<UnsignedT>(lower));
      if (narrow)
      {
        const cuda::std::uint32_t n = static_cast<cuda::std::uint32_t>(offset) * bins;
        const cuda::std::uint32_t t = __umulhi(magic, n);
        bin_index                   = static_cast<int>((t + ((n - t) >> shift1)) >> shift2);
      }
      else
      {
        bin_index = static_cast<int>(static_cast<cuda::std::uint64_t>(offset) * bins / range);
      }
    }
    return true;
  }
};

// The bins of HistogramRange: bin i holds the samples in [levels[i], levels[i + 1]) (levels sorted ascending). As
// CUB: the sample is converted to LevelT and its bin is the upper bound of it among the levels, less one; samples below
// the first level or at or above the last (and NaN) are not counted. The search takes log2(num_levels) + 1 steps
// whatever the sample, so a warp's lanes stay together.
template <typename SampleT, typename LevelT>
struct range_bins
{
  using level_type = LevelT;

  const LevelT* d_levels; // in global memory
  int num_levels;
  int top_step; // the largest power of two <= num_levels

  // requires: num_levels >= 2.
  STRATA_HOST cudaError_t init(int levels_count, const LevelT* levels)
  {
    d_levels   = levels;
    num_levels = levels_count;
    top_step   = 1;
    while (top_step <= levels_count / 2)
    {
      top_step *= 2;
    }
    return cudaSuccess;
  }

  STRATA_DEVICE STRATA_FORCEINLINE const LevelT* global_levels() const
  {
    return d_levels;
  }

  // Whether `sample` is counted, and its bin; `levels`: the levels, in global or shared memory.
  STRATA_DEVICE STRATA_FORCEINLINE bool bin(SampleT sample, int& bin_index, const LevelT* levels) const
  {
    const LevelT value = static_cast<LevelT>(sample);
    int above          = 0; // levels known to be <= value
    for (int step = top_step; step > 0; step >>= 1)
    {
      if (above + step <= num_levels && !(value < levels[above + step - 1]))
      {
        above += step;
      }
    }
    bin_index = above - 1;
    return above > 0 && above < num_levels;
  }
};

// Where a block's samples come from: rows of row_pixels pixels, row_stride samples apart; each row cut into
// row_segments segments of segment_units units (the last segment takes the rest of the row). Segment s of row r is
// the (r * row_segments + s)-th; block b takes the b-th, then every gridDim.x-th. A whole 1D input is one row cut into
// one segment per block.
template <typename OffsetT>
struct sweep_shape
{
  OffsetT row_pixels;
  OffsetT num_rows;
  OffsetT row_stride;
  OffsetT row_segments;
  OffsetT segment_units;
};

// The counters in shared memory: channel c's bin b, copy k at word ((c * bins_stride + b) << copies_log2) + k; then,
// for HistogramRange with samples of more than 8 bits, each channel's levels, levels_stride apart, from byte
// levels_offset.
struct counter_layout
{
  int copies_log2;
  int bins_stride;
  int levels_stride;
  int levels_offset;
};

// The sweep's block. NUM_CHANNELS samples make a pixel, of which the first NUM_ACTIVE_CHANNELS are counted.
// BinOpT: even_bins or range_bins. PRIVATIZED: counters in shared memory (dynamic, laid out as counter_layout
// says), else atomics on the output itself (which the dispatch has zeroed: the block waits for that first).
template <typename PolicyT, int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT,
          typename BinOpT, typename OffsetT, bool PRIVATIZED>
class AgentHistogram
{
public:
  using SampleT = it_value_t<SampleIteratorT>;
  using LevelT  = typename BinOpT::level_type;

  static constexpr int BLOCK_THREADS = PolicyT::BLOCK_THREADS;
  // 8-bit samples are counted by their bit pattern, and binned as the counters leave.
  static constexpr bool BYTE_SAMPLES = sizeof(SampleT) == 1;
  // Levels copied into shared memory (HistogramRange, privatized, samples of more than 8 bits).
  static constexpr bool STAGED_LEVELS =
    PRIVATIZED && !BYTE_SAMPLES && cuda::std::is_same<BinOpT, range_bins<SampleT, LevelT>>::value;
  // Read as 16-byte vectors: samples of a pointer, whose size divides 16.
  static constexpr bool VECTORIZED = cuda::std::is_pointer<SampleIteratorT>::value && sizeof(SampleT) <= 8
                                  && 16 % sizeof(SampleT) == 0 && cuda::std::is_trivially_copyable<SampleT>::value;
  static constexpr int VEC_SAMPLES = VECTORIZED ? 16 / static_cast<int>(sizeof(SampleT)) : 1;
  // A unit: whole 16-byte vectors holding whole pixels (one pixel where samples are read a pixel at a time).
  static constexpr int UNIT_SAMPLES = VECTORIZED ? lcm(VEC_SAMPLES, NUM_CHANNELS) : NUM_CHANNELS;
  static constexpr int UNIT_VECS    = VECTORIZED ? UNIT_SAMPLES / VEC_SAMPLES : 0;
  static constexpr int UNITS_PER_THREAD =
    VECTORIZED ? (PolicyT::VECTORS_PER_THREAD / UNIT_VECS > 0 ? PolicyT::VECTORS_PER_THREAD / UNIT_VECS : 1)
               : PolicyT::PIXELS_PER_THREAD;
  static constexpr int TILE_UNITS      = BLOCK_THREADS * UNITS_PER_THREAD;
  static constexpr int PIXELS_PER_UNIT = UNIT_SAMPLES / NUM_CHANNELS;

  static_assert(NUM_CHANNELS >= 1 && NUM_CHANNELS <= 4, "1 to 4 channels");
  static_assert(NUM_ACTIVE_CHANNELS >= 1 && NUM_ACTIVE_CHANNELS <= NUM_CHANNELS, "1 to NUM_CHANNELS active channels");
  static_assert(PRIVATIZED || !BYTE_SAMPLES, "8-bit samples are always privatized");

  STRATA_DEVICE STRATA_FORCEINLINE
  AgentHistogram(unsigned char* smem, SampleIteratorT d_samples, const sweep_shape<OffsetT>& shape,
                 const cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS>& d_histograms,
                 const cuda::std::array<int, NUM_ACTIVE_CHANNELS>& privatized_bins,
                 const cuda::std::array<BinOpT, NUM_ACTIVE_CHANNELS>& bin_ops, const counter_layout& layout)
      : smem_(smem)
      , d_samples_(d_samples)
      , shape_(shape)
      , d_histograms_(d_histograms)
      , privatized_bins_(privatized_bins)
      , bin_ops_(bin_ops)
      , layout_(layout)
      , copies_(1 << layout.copies_log2)
      , counter_stride_(4 << layout.copies_log2)
      , channel_bytes_((layout.bins_stride << layout.copies_log2) * 4)
      , lane_counters_(smem + 4 * (LaneId() & static_cast<unsigned int>(copies_ - 1)))
  {}

  // Zeroes the counters and stages the levels (privatized), or waits for the zeroed output (not privatized).
  STRATA_DEVICE STRATA_FORCEINLINE void InitCounters()
  {
    if constexpr (PRIVATIZED)
    {
      const int vectors = (NUM_ACTIVE_CHANNELS * layout_.bins_stride) << layout_.copies_log2 >> 2;
      uint4* counters   = reinterpret_cast<uint4*>(smem_);
      for (int i = static_cast<int>(threadIdx.x); i < vectors; i += BLOCK_THREADS)
      {
        counters[i] = make_uint4(0u, 0u, 0u, 0u);
      }
      if constexpr (STAGED_LEVELS)
      {
        STRATA_UNROLL
        for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
        {
          LevelT* staged = staged_levels(c);
          for (int i = static_cast<int>(threadIdx.x); i < bin_ops_[c].num_levels; i += BLOCK_THREADS)
          {
            staged[i] = bin_ops_[c].d_levels[i];
          }
        }
      }
      __syncthreads();
    }
    else
    {
      GridDependencyWait();
    }
  }

  // Counts the block's segments.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeSegments()
  {
    const OffsetT segments = shape_.num_rows * shape_.row_segments;
    for (OffsetT s = static_cast<OffsetT>(blockIdx.x); s < segments; s += static_cast<OffsetT>(gridDim.x))
    {
      const OffsetT row = s / shape_.row_segments;
      ConsumeSegment(row, s - row * shape_.row_segments);
    }
  }

  // Adds the block's nonzero counters to the output (privatized), after the output has been zeroed.
  STRATA_DEVICE STRATA_FORCEINLINE void Flush()
  {
    if constexpr (PRIVATIZED)
    {
      __syncthreads();
      GridDependencyWait();
      const unsigned int lane      = LaneId();
      const unsigned int mask      = static_cast<unsigned int>(copies_ - 1);
      const unsigned int* counters = reinterpret_cast<const unsigned int*>(smem_);
      STRATA_UNROLL
      for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
      {
        for (int b = static_cast<int>(threadIdx.x); b < privatized_bins_[c]; b += BLOCK_THREADS)
        {
          // The copies of a bin, each lane starting at its own copy: the lanes of a warp read different banks.
          const unsigned int* copies = counters + ((c * layout_.bins_stride + b) << layout_.copies_log2);
          unsigned int count         = 0;
          for (int k = 0; k < copies_; ++k)
          {
            count += copies[(static_cast<unsigned int>(k) + lane) & mask];
          }
          if (count != 0)
          {
            int out_bin = b;
            if constexpr (BYTE_SAMPLES)
            {
              const SampleT sample = cuda::std::bit_cast<SampleT>(static_cast<unsigned char>(b));
              if (!bin_ops_[c].bin(sample, out_bin, bin_ops_[c].global_levels()))
              {
                continue;
              }
            }
            add_count(d_histograms_[c] + out_bin, count);
          }
        }
      }
    }
  }

private:
  // Channel c's staged levels.
  STRATA_DEVICE STRATA_FORCEINLINE LevelT* staged_levels(int c) const
  {
    return reinterpret_cast<LevelT*>(smem_ + layout_.levels_offset) + c * layout_.levels_stride;
  }

  // The levels channel C's samples are searched in: staged in shared memory, or the caller's.
  template <int C>
  STRATA_DEVICE STRATA_FORCEINLINE const LevelT* levels() const
  {
    if constexpr (STAGED_LEVELS)
    {
      return staged_levels(C);
    }
    else
    {
      return bin_ops_[C].global_levels();
    }
  }

  // One sample of channel C into its bin (8-bit samples: into the counter of its bit pattern).
  template <int C>
  STRATA_DEVICE STRATA_FORCEINLINE void Count(SampleT sample)
  {
    if constexpr (BYTE_SAMPLES)
    {
      Increment<C>(static_cast<int>(cuda::std::bit_cast<unsigned char>(sample)));
    }
    else
    {
      int b = 0;
      if (bin_ops_[C].bin(sample, b, levels<C>()))
      {
        Increment<C>(b);
      }
    }
  }

  template <int C>
  STRATA_DEVICE STRATA_FORCEINLINE void Increment(int b)
  {
    if constexpr (PRIVATIZED)
    {
      // A multiply-add per sample: bin b's copy of this lane, counter_stride_ bytes from bin b - 1's.
      unsigned char* counter = lane_counters_ + C * channel_bytes_ + b * counter_stride_;
      atomicAdd(reinterpret_cast<unsigned int*>(counter), 1u);
    }
    else
    {
      add_count(d_histograms_[C] + b, 1u);
    }
  }

  // A sample whose channel, c < NUM_ACTIVE_CHANNELS, is known at run time only.
  template <int C = 0>
  STRATA_DEVICE STRATA_FORCEINLINE void CountChannel(int c, SampleT sample)
  {
    if constexpr (C < NUM_ACTIVE_CHANNELS)
    {
      if (c == C)
      {
        Count<C>(sample);
      }
      else
      {
        CountChannel<C + 1>(c, sample);
      }
    }
  }

  // Segment `segment` of row `row`.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeSegment(OffsetT row, OffsetT segment)
  {
    const OffsetT row_offset = row * shape_.row_stride;
    const bool last          = segment + OffsetT(1) == shape_.row_segments;
    if constexpr (VECTORIZED)
    {
      const SampleT* row_ptr    = d_samples_ + row_offset;
      const OffsetT row_samples = shape_.row_pixels * OffsetT(NUM_CHANNELS);
      const int head            = vector_head(row_ptr);
      if (head >= 0)
      {
        const OffsetT loose_head = static_cast<OffsetT>(head) < row_samples ? static_cast<OffsetT>(head) : row_samples;
        const OffsetT units      = (row_samples - loose_head) / OffsetT(UNIT_SAMPLES);
        const OffsetT begin      = segment_begin(segment, units);
        const OffsetT end        = last ? units : segment_begin(segment + OffsetT(1), units);
        ConsumeUnits(reinterpret_cast<const uint4*>(row_ptr + loose_head), begin, end);
        if (segment == OffsetT(0))
        {
          ConsumeLoose(row_ptr, loose_head, loose_head + units * OffsetT(UNIT_SAMPLES), row_samples);
        }
        return;
      }
    }
    // A pixel at a time, the segments cut at the same units.
    const OffsetT pixels = shape_.row_pixels;
    const OffsetT units  = pixels / OffsetT(PIXELS_PER_UNIT);
    const OffsetT begin  = segment_begin(segment, units) * OffsetT(PIXELS_PER_UNIT);
    const OffsetT end    = last ? pixels : segment_begin(segment + OffsetT(1), units) * OffsetT(PIXELS_PER_UNIT);
    ConsumePixels(row_offset, begin, end);
  }

  // The first unit of segment `segment` of a row of `units` units.
  STRATA_DEVICE STRATA_FORCEINLINE OffsetT segment_begin(OffsetT segment, OffsetT units) const
  {
    const OffsetT begin = segment * shape_.segment_units;
    return begin < units ? begin : units;
  }

  // The loose samples before the first unit of the row at `row_ptr`: to the first 16-byte boundary at which a pixel
  // starts; -1 where no boundary within a pixel's reach starts one (the row is read a pixel at a time).
  STRATA_DEVICE STRATA_FORCEINLINE int vector_head(const SampleT* row_ptr) const
  {
    const auto address = reinterpret_cast<cuda::std::uintptr_t>(row_ptr);
    if (address % sizeof(SampleT) != 0)
    {
      return -1;
    }
    const int to_boundary = static_cast<int>((16 - (address & 15)) & 15) / static_cast<int>(sizeof(SampleT));
    STRATA_UNROLL
    for (int k = 0; k < NUM_CHANNELS; ++k)
    {
      if ((to_boundary + k * VEC_SAMPLES) % NUM_CHANNELS == 0)
      {
        return to_boundary + k * VEC_SAMPLES;
      }
    }
    return -1;
  }

  // Units [begin, end) of a row body starting at `body` (16-byte aligned), a tile at a time.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeUnits(const uint4* body, OffsetT begin, OffsetT end)
  {
    OffsetT tile = begin;
    for (; end - tile >= OffsetT(TILE_UNITS); tile += OffsetT(TILE_UNITS))
    {
      ConsumeTile<true>(body, tile, TILE_UNITS);
    }
    if (tile < end)
    {
      ConsumeTile<false>(body, tile, static_cast<int>(end - tile));
    }
  }

  // The tile of `valid` units from unit `tile`: unit tile + k * BLOCK_THREADS + threadIdx.x is the thread's k-th.
  template <bool FULL>
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(const uint4* body, OffsetT tile, int valid)
  {
    uint4 vectors[UNITS_PER_THREAD][UNIT_VECS];
    STRATA_UNROLL
    for (int k = 0; k < UNITS_PER_THREAD; ++k)
    {
      const int unit = k * BLOCK_THREADS + static_cast<int>(threadIdx.x);
      if (FULL || unit < valid)
      {
        const uint4* at = body + (tile + static_cast<OffsetT>(unit)) * OffsetT(UNIT_VECS);
        STRATA_UNROLL
        for (int v = 0; v < UNIT_VECS; ++v)
        {
          vectors[k][v] = ThreadLoad<PolicyT::LOAD_MODIFIER>(at + v);
        }
      }
    }
    STRATA_UNROLL
    for (int k = 0; k < UNITS_PER_THREAD; ++k)
    {
      if (FULL || k * BLOCK_THREADS + static_cast<int>(threadIdx.x) < valid)
      {
        CountUnit(vectors[k]);
      }
    }
  }

  // The samples of one unit; sample i of a unit belongs to channel i % NUM_CHANNELS.
  STRATA_DEVICE STRATA_FORCEINLINE void CountUnit(const uint4 (&vectors)[UNIT_VECS])
  {
    if constexpr (BYTE_SAMPLES)
    {
      count_words<0>(vectors);
    }
    else
    {
      count_unit_samples<0>(vectors);
    }
  }

  // Word W (32 bits) of a unit.
  template <int W>
  static STRATA_DEVICE STRATA_FORCEINLINE unsigned int unit_word(const uint4 (&vectors)[UNIT_VECS])
  {
    const uint4& v = vectors[W / 4];
    return W % 4 == 0 ? v.x : W % 4 == 1 ? v.y : W % 4 == 2 ? v.z : v.w;
  }

  // Sample I of a unit (of 2, 4 or 8 bytes), from its words.
  template <int I>
  static STRATA_DEVICE STRATA_FORCEINLINE SampleT unit_sample(const uint4 (&vectors)[UNIT_VECS])
  {
    if constexpr (sizeof(SampleT) == 2)
    {
      return cuda::std::bit_cast<SampleT>(static_cast<unsigned short>(unit_word<I / 2>(vectors) >> (16 * (I % 2))));
    }
    else if constexpr (sizeof(SampleT) == 4)
    {
      return cuda::std::bit_cast<SampleT>(unit_word<I>(vectors));
    }
    else
    {
      const unsigned long long lo = unit_word<2 * I>(vectors);
      const unsigned long long hi = unit_word<2 * I + 1>(vectors);
      return cuda::std::bit_cast<SampleT>(lo | (hi << 32));
    }
  }

  // 8-bit samples: the bytes of 32-bit word W of the unit are its samples 4 W .. 4 W + 3.
  template <int W>
  STRATA_DEVICE STRATA_FORCEINLINE void count_words(const uint4 (&vectors)[UNIT_VECS])
  {
    if constexpr (W < 4 * UNIT_VECS)
    {
      const unsigned int word = unit_word<W>(vectors);
      count_byte<4 * W + 0>(word >> 0);
      count_byte<4 * W + 1>(word >> 8);
      count_byte<4 * W + 2>(word >> 16);
      count_byte<4 * W + 3>(word >> 24);
      count_words<W + 1>(vectors);
    }
  }
  template <int I>
  STRATA_DEVICE STRATA_FORCEINLINE void count_byte(unsigned int shifted)
  {
    if constexpr (I % NUM_CHANNELS < NUM_ACTIVE_CHANNELS)
    {
      Increment<I % NUM_CHANNELS>(static_cast<int>(shifted & 0xffu));
    }
  }

  template <int I>
  STRATA_DEVICE STRATA_FORCEINLINE void count_unit_samples(const uint4 (&vectors)[UNIT_VECS])
  {
    if constexpr (I < UNIT_SAMPLES)
    {
      if constexpr (I % NUM_CHANNELS < NUM_ACTIVE_CHANNELS)
      {
        Count<I % NUM_CHANNELS>(unit_sample<I>(vectors));
      }
      count_unit_samples<I + 1>(vectors);
    }
  }

  // The row's loose samples: [0, head) and [body_end, row_samples), sample i of channel i % NUM_CHANNELS.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeLoose(const SampleT* row_ptr, OffsetT head, OffsetT body_end,
                                                     OffsetT row_samples)
  {
    const OffsetT loose = head + (row_samples - body_end);
    for (OffsetT i = static_cast<OffsetT>(threadIdx.x); i < loose; i += OffsetT(BLOCK_THREADS))
    {
      const OffsetT at = i < head ? i : body_end + (i - head);
      const int c      = static_cast<int>(at % OffsetT(NUM_CHANNELS));
      if (c < NUM_ACTIVE_CHANNELS)
      {
        CountChannel(c, ThreadLoad<LOAD_LDG>(row_ptr + at));
      }
    }
  }

  // Pixels [begin, end) of the row at `row_offset`, a pixel per thread and PIXELS_PER_THREAD at a time; only the
  // active channels' samples are read.
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumePixels(OffsetT row_offset, OffsetT begin, OffsetT end)
  {
    constexpr int PPT = PolicyT::PIXELS_PER_THREAD;
    for (OffsetT base = begin; base < end; base += OffsetT(PPT * BLOCK_THREADS))
    {
      SampleT samples[PPT][NUM_ACTIVE_CHANNELS];
      STRATA_UNROLL
      for (int k = 0; k < PPT; ++k)
      {
        const OffsetT pixel = base + static_cast<OffsetT>(k * BLOCK_THREADS + static_cast<int>(threadIdx.x));
        if (pixel < end)
        {
          STRATA_UNROLL
          for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c)
          {
            samples[k][c] = load_sample(row_offset + pixel * OffsetT(NUM_CHANNELS) + OffsetT(c));
          }
        }
      }
      STRATA_UNROLL
      for (int k = 0; k < PPT; ++k)
      {
        if (base + static_cast<OffsetT>(k * BLOCK_THREADS + static_cast<int>(threadIdx.x)) < end)
        {
          count_pixel<0>(samples[k]);
        }
      }
    }
  }

  template <int C>
  STRATA_DEVICE STRATA_FORCEINLINE void count_pixel(const SampleT (&pixel)[NUM_ACTIVE_CHANNELS])
  {
    if constexpr (C < NUM_ACTIVE_CHANNELS)
    {
      Count<C>(pixel[C]);
      count_pixel<C + 1>(pixel);
    }
  }

  STRATA_DEVICE STRATA_FORCEINLINE SampleT load_sample(OffsetT at) const
  {
    if constexpr (cuda::std::is_pointer<SampleIteratorT>::value)
    {
      return ThreadLoad<LOAD_LDG>(d_samples_ + at);
    }
    else
    {
      return d_samples_[at];
    }
  }

  unsigned char* smem_;
  SampleIteratorT d_samples_;
  sweep_shape<OffsetT> shape_;
  cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histograms_;
  cuda::std::array<int, NUM_ACTIVE_CHANNELS> privatized_bins_;
  cuda::std::array<BinOpT, NUM_ACTIVE_CHANNELS> bin_ops_;
  counter_layout layout_;
  int copies_;
  int counter_stride_;           // bytes from one bin's copies to the next's
  int channel_bytes_;            // bytes of a channel's counters
  unsigned char* lane_counters_; // the calling lane's copy of channel 0's bin 0
};
} // namespace histogram
} // namespace detail

STRATA_NAMESPACE_END
