// DeviceSegmentedReduce: one reduction per segment of a sequence, with CUB's two-phase temporary-storage API.
//
// Segment s is d_in[d_begin_offsets[s], d_end_offsets[s]) (empty where the end is not past the begin), or in the
// fixed-size forms d_in[s * segment_size, (s + 1) * segment_size); d_out[s] gets its reduction. Segments may lie
// anywhere, overlap or leave gaps. The work is split evenly over the warps of one wave of blocks by items plus
// segments, so that any mix of lengths (empty, tiny, huge, skewed) takes the time of its total; nothing waits for the
// host, so a call can be captured into a CUDA graph and replayed with other offsets. The number of segments may lie
// in device memory (a strata::device_count). As CUB requires, the operator must be associative and commutative;
// results are the same bits run to run on the same device (floating-point sums included).
//
//   size_t bytes = 0;
//   strata::DeviceSegmentedReduce::Sum(nullptr, bytes, d_in, d_out, n, d_offsets, d_offsets + 1);   // size query
//   cudaMalloc(&d_temp, bytes);
//   strata::DeviceSegmentedReduce::Sum(d_temp, bytes, d_in, d_out, n, d_offsets, d_offsets + 1, stream);
//
// Every call also has a single-phase form, without the temporary-storage arguments, whose last argument (defaulted)
// is a stream or a policy (strata/device/dispatch/single_phase.cuh):
//
//   strata::DeviceSegmentedReduce::Sum(d_in, d_out, n, d_offsets, d_offsets + 1, strata::par.on(stream));
//
// Empty segments get the initial value (Reduce), 0 (Sum), the type's largest or lowest value (Min, Max), or {1, that
// value} (ArgMin, ArgMax: the key is the position within the segment), as CUB defines them.
// Complexity: one read of the items and two of the offsets; up to four kernels (a scan of the lengths and its
// initialization, none for fixed-size segments, up to 2048 segments, or one offsets array (d_offsets, d_offsets + 1)
// of up to 8192 segments, which each block checks for order and reads as it is; the reduction; the segments that
// cross warps' shares).
// Errors (cudaErrorInvalidValue, before anything is launched or written): a negative number of segments or segment
// size, too small temp_storage_bytes, a null input, output or offset pointer with segments to reduce.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_segmented_reduce.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/error.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/functional>
#include <cuda/std/functional>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_reduce
{
// Offset iterators, not a segment size: the begin/end forms' enabler.
template <typename BeginOffsetIteratorT>
using enable_if_offsets_t = cuda::std::enable_if_t<!cuda::std::is_integral<BeginOffsetIteratorT>::value, int>;
} // namespace segmented_reduce
} // namespace detail

struct DeviceSegmentedReduce
{
  // d_out[s] = initial_value op (the items of segment s), initial_value for an empty segment.
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename ReductionOpT, typename T,
            detail::segmented_reduce::enable_if_offsets_t<BeginOffsetIteratorT> = 0>
  static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                            EndOffsetIteratorT d_end_offsets, ReductionOpT reduction_op, T initial_value,
                            cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedReduce::Reduce");
    using AccumT = detail::accumulator_t<ReductionOpT, detail::it_value_t<InputIteratorT>, T>;
    return run<detail::segmented_reduce::plain_items, AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                              num_segments, d_begin_offsets, d_end_offsets,
                                                              reduction_op, initial_value, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename ReductionOpT, typename T>
  static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, NumSegmentsT num_segments, int segment_size,
                            ReductionOpT reduction_op, T initial_value, cudaStream_t stream = 0)
  {
    STRATA_RETURN_IF_ERROR(check_segment_size(segment_size));
    using detail::segmented_reduce::fixed_offsets;
    return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, fixed_offsets{segment_size, 0},
                  fixed_offsets{segment_size, segment_size}, reduction_op, initial_value, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename ReductionOpT, typename T, typename EnvT = detail::default_env,
            detail::segmented_reduce::enable_if_offsets_t<BeginOffsetIteratorT> = 0, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t Reduce(InputIteratorT d_in, OutputIteratorT d_out, NumSegmentsT num_segments,
                            BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                            ReductionOpT reduction_op, T initial_value, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(Reduce), d_in, d_out, num_segments, d_begin_offsets,
                                     d_end_offsets, reduction_op, initial_value);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename ReductionOpT, typename T,
            typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t Reduce(InputIteratorT d_in, OutputIteratorT d_out, NumSegmentsT num_segments, int segment_size,
                            ReductionOpT reduction_op, T initial_value, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(Reduce), d_in, d_out, num_segments, segment_size,
                                     reduction_op, initial_value);
  }

  // NAME in its four forms (two-phase and single-phase, offsets and fixed size), each running IMPL<ARGS>.
#define STRATA_DETAIL_SEGMENTED_REDUCE(NAME, IMPL)                                                                     \
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,   \
            typename EndOffsetIteratorT, detail::segmented_reduce::enable_if_offsets_t<BeginOffsetIteratorT> = 0>      \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,                       \
                          OutputIteratorT d_out, NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,      \
                          EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)                                   \
  {                                                                                                                    \
    STRATA_NVTX_RANGE("strata::DeviceSegmentedReduce::" #NAME);                                                        \
    return IMPL(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets, d_end_offsets,         \
                stream);                                                                                               \
  }                                                                                                                    \
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT>                                  \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,                       \
                          OutputIteratorT d_out, NumSegmentsT num_segments, int segment_size, cudaStream_t stream = 0) \
  {                                                                                                                    \
    STRATA_RETURN_IF_ERROR(check_segment_size(segment_size));                                                          \
    using detail::segmented_reduce::fixed_offsets;                                                                     \
    return NAME(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, fixed_offsets{segment_size, 0},         \
                fixed_offsets{segment_size, segment_size}, stream);                                                    \
  }                                                                                                                    \
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,   \
            typename EndOffsetIteratorT, typename EnvT = detail::default_env,                                          \
            detail::segmented_reduce::enable_if_offsets_t<BeginOffsetIteratorT> = 0,                                   \
            detail::enable_if_env_t<EnvT>                                       = 0>                                   \
  static cudaError_t NAME(InputIteratorT d_in, OutputIteratorT d_out, NumSegmentsT num_segments,                       \
                          BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,                      \
                          const EnvT& env = {})                                                                        \
  {                                                                                                                    \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_in, d_out, num_segments, d_begin_offsets,   \
                                     d_end_offsets);                                                                   \
  }                                                                                                                    \
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT,                                  \
            typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>                                    \
  static cudaError_t NAME(InputIteratorT d_in, OutputIteratorT d_out, NumSegmentsT num_segments, int segment_size,     \
                          const EnvT& env = {})                                                                        \
  {                                                                                                                    \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_in, d_out, num_segments, segment_size);     \
  }

  // Sum: 0 for an empty segment, summed in the output's value type.
  STRATA_DETAIL_SEGMENTED_REDUCE(Sum, sum)
  // Min and Max: the type's largest (lowest) value for an empty segment.
  STRATA_DETAIL_SEGMENTED_REDUCE(Min, extremum<cuda::minimum<>>)
  STRATA_DETAIL_SEGMENTED_REDUCE(Max, extremum<cuda::maximum<>>)
  // ArgMin and ArgMax: {position in the segment, value} of its smallest (largest) item, the first on ties; {1, the
  // type's largest (lowest) value} for an empty segment. The output's value type is a KeyValuePair<KeyT, ValueT>.
  STRATA_DETAIL_SEGMENTED_REDUCE(ArgMin, arg<::strata::ArgMin>)
  STRATA_DETAIL_SEGMENTED_REDUCE(ArgMax, arg<::strata::ArgMax>)

#undef STRATA_DETAIL_SEGMENTED_REDUCE

private:
  static cudaError_t check_segment_size(int segment_size)
  {
    return segment_size < 0 ? cudaErrorInvalidValue : cudaSuccess;
  }

  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t sum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                         EndOffsetIteratorT d_end_offsets, cudaStream_t stream)
  {
    using InputT = detail::it_value_t<InputIteratorT>;
    using InitT  = detail::non_void_value_t<OutputIteratorT, InputT>;
    using AccumT = detail::accumulator_t<cuda::std::plus<>, InputT, InitT>;
    return run<detail::segmented_reduce::plain_items, AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                              num_segments, d_begin_offsets, d_end_offsets,
                                                              cuda::std::plus<>{}, InitT{}, stream);
  }

  template <typename OpT, typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT,
            typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t extremum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                              EndOffsetIteratorT d_end_offsets, cudaStream_t stream)
  {
    using InputT          = detail::it_value_t<InputIteratorT>;
    using AccumT          = detail::accumulator_t<OpT, InputT, InputT>;
    constexpr bool is_min = cuda::std::is_same<OpT, cuda::minimum<>>::value;
    const InputT init = is_min ? cuda::std::numeric_limits<InputT>::max() : cuda::std::numeric_limits<InputT>::lowest();
    return run<detail::segmented_reduce::plain_items, AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                              num_segments, d_begin_offsets, d_end_offsets, OpT{}, init,
                                                              stream);
  }

  // PairT: the output's value type, a KeyValuePair<KeyT, ValueT>.
  template <typename ArgOpT, typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT,
            typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t arg(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                         EndOffsetIteratorT d_end_offsets, cudaStream_t stream)
  {
    using PairT           = detail::it_value_t<OutputIteratorT>;
    using KeyT            = typename PairT::KeyT;
    using ValueT          = typename PairT::ValueT;
    constexpr bool is_min = cuda::std::is_same<ArgOpT, ::strata::ArgMin>::value;
    const detail::reduce::empty_value<PairT> empty{
      PairT(KeyT(1), is_min ? cuda::std::numeric_limits<ValueT>::max() : cuda::std::numeric_limits<ValueT>::lowest())};
    return run<detail::segmented_reduce::arg_items<KeyT, ValueT>, PairT>(d_temp_storage, temp_storage_bytes, d_in,
                                                                         d_out, num_segments, d_begin_offsets,
                                                                         d_end_offsets, ArgOpT{}, empty, stream);
  }

  template <typename ItemsT, typename AccumT, typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT,
            typename BeginOffsetIteratorT, typename EndOffsetIteratorT, typename ReductionOpT, typename InitT>
  static cudaError_t run(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                         EndOffsetIteratorT d_end_offsets, ReductionOpT op, InitT init, cudaStream_t stream)
  {
    STRATA_RETURN_IF_ERROR(detail::check_arguments(d_temp_storage, num_segments, d_in, d_out, false));
    if (d_temp_storage != nullptr && detail::count_bound(num_segments) > 0
        && (detail::is_null_pointer(d_begin_offsets) || detail::is_null_pointer(d_end_offsets)))
    {
      return cudaErrorInvalidValue;
    }
    return detail::dispatch_offset(num_segments, [&](auto offset) {
      using OffsetT = decltype(offset);
      return DispatchSegmentedReduce<InputIteratorT, OutputIteratorT, BeginOffsetIteratorT, EndOffsetIteratorT, OffsetT,
                                     ReductionOpT, InitT, AccumT, ItemsT,
                                     detail::segmented_reduce::policy_hub<detail::it_value_t<InputIteratorT>, AccumT>,
                                     detail::item_count_t<NumSegmentsT>>::Dispatch(d_temp_storage, temp_storage_bytes,
                                                                                   d_in, d_out, offset, d_begin_offsets,
                                                                                   d_end_offsets, op, init, stream,
                                                                                   detail::item_count_of(num_segments));
    });
  }
};

STRATA_NAMESPACE_END
