// DeviceSegmentedScan: one prefix scan per segment of a sequence, with CUB's two-phase temporary-storage API (CUB
// 3.3's DeviceSegmentedScan).
//
// Segment s is d_in[d_in_begin_offsets[s], d_in_end_offsets[s]) (empty where the end is not past the begin); its
// outputs go to the same positions of d_out, or (the forms with d_out_begin_offsets) from d_out[d_out_begin_offsets[s]]
// on. Items in no segment are not written. Exclusive scans start each segment from the initial value (0 for sums);
// inclusive ones from its first item (or, InclusiveSegmentedScanInit, from the initial value combined with it). The
// operator must be associative, not commutative. d_in and d_out may be the same sequence (in place), and may not
// overlap otherwise. The work is split evenly over the warps of one wave of blocks by items plus segments, so that any
// mix of lengths (empty, tiny, huge, skewed) takes the time of its total; nothing waits for the host, so a call can
// be captured into a CUDA graph and replayed with other offsets. The number of segments may lie in device memory (a
// strata::device_count). Results are the same bits run to run on the same device (floating-point sums included).
//
//   size_t bytes = 0;
//   strata::DeviceSegmentedScan::InclusiveSegmentedSum(nullptr, bytes, d_in, d_out, d_offsets, d_offsets + 1, n);
//   cudaMalloc(&d_temp, bytes);
//   strata::DeviceSegmentedScan::InclusiveSegmentedSum(d_temp, bytes, d_in, d_out, d_offsets, d_offsets + 1, n, s);
//
// Every call also has a single-phase form, without the temporary-storage arguments, whose last argument (defaulted)
// is a stream or a policy (strata/device/dispatch/single_phase.cuh).
// One offsets array passed as (d_offsets, d_offsets + 1) with a host count takes a faster path: the offsets must then
// be non-decreasing (as CSR offsets are), and the items from d_offsets[0] to d_offsets[num_segments] are scanned tile
// by tile over one wave of blocks, with no scan of the segments' lengths first.
// Complexity: one read of the items and their segments' heads (the items of a segment crossing into a warp's share,
// up to its end) once more, one write of every output, two reads of the offsets; on the path of one offsets array,
// one read of the items and of the offsets, and each block's last segment part read once more.
// Errors (cudaErrorInvalidValue, before anything is launched or written): a negative number of segments, too small
// temp_storage_bytes, a null input, output or offset pointer with segments to scan.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_segmented_scan.cuh>
#include <strata/device/dispatch/dispatch_segmented_scan_tiles.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_scan
{
// A number of segments (an integer or a strata::device_count) and offset iterators: the forms' enabler.
template <typename NumSegmentsT, typename BeginOffsetIteratorT>
using enable_if_segments_t =
  cuda::std::enable_if_t<is_item_count_v<NumSegmentsT> && !cuda::std::is_integral<BeginOffsetIteratorT>::value, int>;

// Whether a call can take the tiled path of back-to-back segments (detail::segmented_scan_tiles): begin and end
// offsets of one pointer type (the same array, checked at run time), outputs at the items' positions, a host count.
template <typename BeginOffsetIteratorT, typename EndOffsetIteratorT, typename OutBeginOffsetIteratorT,
          typename NumSegmentsT>
using tiles_eligible =
  cuda::std::bool_constant<segmented::one_offsets_array_form<BeginOffsetIteratorT, EndOffsetIteratorT>::value
                           && cuda::std::is_same<OutBeginOffsetIteratorT, same_offsets>::value
                           && cuda::std::is_integral<NumSegmentsT>::value>;
} // namespace segmented_scan
} // namespace detail

struct DeviceSegmentedScan
{
  // d_out[i] = the sum of the items of its segment before item i (0 for the first).
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename NumSegmentsT,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0>
  static cudaError_t ExclusiveSegmentedSum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                           OutputIteratorT d_out, BeginOffsetIteratorT d_in_begin_offsets,
                                           EndOffsetIteratorT d_in_end_offsets, NumSegmentsT num_segments,
                                           cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedScan::ExclusiveSegmentedSum");
    using AccumT =
      detail::accumulator_t<cuda::std::plus<>, detail::it_value_t<InputIteratorT>, detail::it_value_t<InputIteratorT>>;
    return run<true, AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_in_begin_offsets,
                             d_in_end_offsets, detail::segmented_scan::same_offsets{}, cuda::std::plus<>{},
                             detail::it_value_t<InputIteratorT>{}, stream);
  }
  // The outputs of segment s from d_out[d_out_begin_offsets[s]] on.
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename OutBeginOffsetIteratorT,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0>
  static cudaError_t ExclusiveSegmentedSum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                           OutputIteratorT d_out, NumSegmentsT num_segments,
                                           BeginOffsetIteratorT d_in_begin_offsets, EndOffsetIteratorT d_in_end_offsets,
                                           OutBeginOffsetIteratorT d_out_begin_offsets, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedScan::ExclusiveSegmentedSum");
    using AccumT =
      detail::accumulator_t<cuda::std::plus<>, detail::it_value_t<InputIteratorT>, detail::it_value_t<InputIteratorT>>;
    if (d_temp_storage != nullptr && detail::count_bound(num_segments) > 0
        && detail::is_null_pointer(d_out_begin_offsets))
    {
      return cudaErrorInvalidValue;
    }
    return run<true, AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_in_begin_offsets,
                             d_in_end_offsets, d_out_begin_offsets, cuda::std::plus<>{},
                             detail::it_value_t<InputIteratorT>{}, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename NumSegmentsT, typename EnvT = detail::default_env,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0,
            detail::enable_if_env_t<EnvT>                                                    = 0>
  static cudaError_t ExclusiveSegmentedSum(InputIteratorT d_in, OutputIteratorT d_out,
                                           BeginOffsetIteratorT d_in_begin_offsets, EndOffsetIteratorT d_in_end_offsets,
                                           NumSegmentsT num_segments, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(ExclusiveSegmentedSum), d_in, d_out,
                                     d_in_begin_offsets, d_in_end_offsets, num_segments);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename OutBeginOffsetIteratorT, typename EnvT = detail::default_env,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0,
            detail::enable_if_env_t<EnvT>                                                    = 0>
  static cudaError_t ExclusiveSegmentedSum(InputIteratorT d_in, OutputIteratorT d_out, NumSegmentsT num_segments,
                                           BeginOffsetIteratorT d_in_begin_offsets, EndOffsetIteratorT d_in_end_offsets,
                                           OutBeginOffsetIteratorT d_out_begin_offsets, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(ExclusiveSegmentedSum), d_in, d_out, num_segments,
                                     d_in_begin_offsets, d_in_end_offsets, d_out_begin_offsets);
  }

  // d_out[i] = the sum of the items of its segment up to and including item i.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename NumSegmentsT,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0>
  static cudaError_t InclusiveSegmentedSum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                           OutputIteratorT d_out, BeginOffsetIteratorT d_in_begin_offsets,
                                           EndOffsetIteratorT d_in_end_offsets, NumSegmentsT num_segments,
                                           cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedScan::InclusiveSegmentedSum");
    using AccumT =
      detail::accumulator_t<cuda::std::plus<>, detail::it_value_t<InputIteratorT>, detail::it_value_t<InputIteratorT>>;
    return run<false, AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_in_begin_offsets,
                              d_in_end_offsets, detail::segmented_scan::same_offsets{}, cuda::std::plus<>{},
                              detail::reduce::empty_value<detail::it_value_t<InputIteratorT>>{}, stream);
  }
  // The outputs of segment s from d_out[d_out_begin_offsets[s]] on.
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename OutBeginOffsetIteratorT,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0>
  static cudaError_t InclusiveSegmentedSum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                           OutputIteratorT d_out, NumSegmentsT num_segments,
                                           BeginOffsetIteratorT d_in_begin_offsets, EndOffsetIteratorT d_in_end_offsets,
                                           OutBeginOffsetIteratorT d_out_begin_offsets, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedScan::InclusiveSegmentedSum");
    using AccumT =
      detail::accumulator_t<cuda::std::plus<>, detail::it_value_t<InputIteratorT>, detail::it_value_t<InputIteratorT>>;
    if (d_temp_storage != nullptr && detail::count_bound(num_segments) > 0
        && detail::is_null_pointer(d_out_begin_offsets))
    {
      return cudaErrorInvalidValue;
    }
    return run<false, AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_in_begin_offsets,
                              d_in_end_offsets, d_out_begin_offsets, cuda::std::plus<>{},
                              detail::reduce::empty_value<detail::it_value_t<InputIteratorT>>{}, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename NumSegmentsT, typename EnvT = detail::default_env,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0,
            detail::enable_if_env_t<EnvT>                                                    = 0>
  static cudaError_t InclusiveSegmentedSum(InputIteratorT d_in, OutputIteratorT d_out,
                                           BeginOffsetIteratorT d_in_begin_offsets, EndOffsetIteratorT d_in_end_offsets,
                                           NumSegmentsT num_segments, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(InclusiveSegmentedSum), d_in, d_out,
                                     d_in_begin_offsets, d_in_end_offsets, num_segments);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename OutBeginOffsetIteratorT, typename EnvT = detail::default_env,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0,
            detail::enable_if_env_t<EnvT>                                                    = 0>
  static cudaError_t InclusiveSegmentedSum(InputIteratorT d_in, OutputIteratorT d_out, NumSegmentsT num_segments,
                                           BeginOffsetIteratorT d_in_begin_offsets, EndOffsetIteratorT d_in_end_offsets,
                                           OutBeginOffsetIteratorT d_out_begin_offsets, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(InclusiveSegmentedSum), d_in, d_out, num_segments,
                                     d_in_begin_offsets, d_in_end_offsets, d_out_begin_offsets);
  }

  // d_out[i] = initial_value op (the items of its segment before item i).
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename NumSegmentsT, typename ScanOpT, typename InitValueT,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0>
  static cudaError_t ExclusiveSegmentedScan(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                            OutputIteratorT d_out, BeginOffsetIteratorT d_in_begin_offsets,
                                            EndOffsetIteratorT d_in_end_offsets, NumSegmentsT num_segments,
                                            ScanOpT scan_op, InitValueT initial_value, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedScan::ExclusiveSegmentedScan");
    using AccumT = detail::accumulator_t<ScanOpT, detail::it_value_t<InputIteratorT>, InitValueT>;
    return run<true, AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_in_begin_offsets,
                             d_in_end_offsets, detail::segmented_scan::same_offsets{}, scan_op, initial_value, stream);
  }
  // The outputs of segment s from d_out[d_out_begin_offsets[s]] on.
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename OutBeginOffsetIteratorT, typename ScanOpT, typename InitValueT,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0>
  static cudaError_t
  ExclusiveSegmentedScan(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         NumSegmentsT num_segments, BeginOffsetIteratorT d_in_begin_offsets,
                         EndOffsetIteratorT d_in_end_offsets, OutBeginOffsetIteratorT d_out_begin_offsets,
                         ScanOpT scan_op, InitValueT initial_value, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedScan::ExclusiveSegmentedScan");
    using AccumT = detail::accumulator_t<ScanOpT, detail::it_value_t<InputIteratorT>, InitValueT>;
    if (d_temp_storage != nullptr && detail::count_bound(num_segments) > 0
        && detail::is_null_pointer(d_out_begin_offsets))
    {
      return cudaErrorInvalidValue;
    }
    return run<true, AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_in_begin_offsets,
                             d_in_end_offsets, d_out_begin_offsets, scan_op, initial_value, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename NumSegmentsT, typename ScanOpT, typename InitValueT,
            typename EnvT                                                                    = detail::default_env,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0,
            detail::enable_if_env_t<EnvT>                                                    = 0>
  static cudaError_t ExclusiveSegmentedScan(InputIteratorT d_in, OutputIteratorT d_out,
                                            BeginOffsetIteratorT d_in_begin_offsets,
                                            EndOffsetIteratorT d_in_end_offsets, NumSegmentsT num_segments,
                                            ScanOpT scan_op, InitValueT initial_value, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(ExclusiveSegmentedScan), d_in, d_out,
                                     d_in_begin_offsets, d_in_end_offsets, num_segments, scan_op, initial_value);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename OutBeginOffsetIteratorT, typename ScanOpT, typename InitValueT,
            typename EnvT                                                                    = detail::default_env,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0,
            detail::enable_if_env_t<EnvT>                                                    = 0>
  static cudaError_t ExclusiveSegmentedScan(InputIteratorT d_in, OutputIteratorT d_out, NumSegmentsT num_segments,
                                            BeginOffsetIteratorT d_in_begin_offsets,
                                            EndOffsetIteratorT d_in_end_offsets,
                                            OutBeginOffsetIteratorT d_out_begin_offsets, ScanOpT scan_op,
                                            InitValueT initial_value, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(ExclusiveSegmentedScan), d_in, d_out, num_segments,
                                     d_in_begin_offsets, d_in_end_offsets, d_out_begin_offsets, scan_op, initial_value);
  }

  // d_out[i] = the items of its segment up to and including item i, combined with scan_op.
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename NumSegmentsT, typename ScanOpT,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0>
  static cudaError_t InclusiveSegmentedScan(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                            OutputIteratorT d_out, BeginOffsetIteratorT d_in_begin_offsets,
                                            EndOffsetIteratorT d_in_end_offsets, NumSegmentsT num_segments,
                                            ScanOpT scan_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedScan::InclusiveSegmentedScan");
    using AccumT =
      detail::accumulator_t<ScanOpT, detail::it_value_t<InputIteratorT>, detail::it_value_t<InputIteratorT>>;
    return run<false, AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_in_begin_offsets,
                              d_in_end_offsets, detail::segmented_scan::same_offsets{}, scan_op,
                              detail::reduce::empty_value<detail::it_value_t<InputIteratorT>>{}, stream);
  }
  // The outputs of segment s from d_out[d_out_begin_offsets[s]] on.
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename OutBeginOffsetIteratorT, typename ScanOpT,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0>
  static cudaError_t
  InclusiveSegmentedScan(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         NumSegmentsT num_segments, BeginOffsetIteratorT d_in_begin_offsets,
                         EndOffsetIteratorT d_in_end_offsets, OutBeginOffsetIteratorT d_out_begin_offsets,
                         ScanOpT scan_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedScan::InclusiveSegmentedScan");
    using AccumT =
      detail::accumulator_t<ScanOpT, detail::it_value_t<InputIteratorT>, detail::it_value_t<InputIteratorT>>;
    if (d_temp_storage != nullptr && detail::count_bound(num_segments) > 0
        && detail::is_null_pointer(d_out_begin_offsets))
    {
      return cudaErrorInvalidValue;
    }
    return run<false, AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_in_begin_offsets,
                              d_in_end_offsets, d_out_begin_offsets, scan_op,
                              detail::reduce::empty_value<detail::it_value_t<InputIteratorT>>{}, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename NumSegmentsT, typename ScanOpT, typename EnvT = detail::default_env,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0,
            detail::enable_if_env_t<EnvT>                                                    = 0>
  static cudaError_t InclusiveSegmentedScan(InputIteratorT d_in, OutputIteratorT d_out,
                                            BeginOffsetIteratorT d_in_begin_offsets,
                                            EndOffsetIteratorT d_in_end_offsets, NumSegmentsT num_segments,
                                            ScanOpT scan_op, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(InclusiveSegmentedScan), d_in, d_out,
                                     d_in_begin_offsets, d_in_end_offsets, num_segments, scan_op);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename OutBeginOffsetIteratorT, typename ScanOpT,
            typename EnvT                                                                    = detail::default_env,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0,
            detail::enable_if_env_t<EnvT>                                                    = 0>
  static cudaError_t
  InclusiveSegmentedScan(InputIteratorT d_in, OutputIteratorT d_out, NumSegmentsT num_segments,
                         BeginOffsetIteratorT d_in_begin_offsets, EndOffsetIteratorT d_in_end_offsets,
                         OutBeginOffsetIteratorT d_out_begin_offsets, ScanOpT scan_op, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(InclusiveSegmentedScan), d_in, d_out, num_segments,
                                     d_in_begin_offsets, d_in_end_offsets, d_out_begin_offsets, scan_op);
  }

  // d_out[i] = initial_value op (the items of its segment up to and including item i).
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename NumSegmentsT, typename ScanOpT, typename InitValueT,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0>
  static cudaError_t InclusiveSegmentedScanInit(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                OutputIteratorT d_out, BeginOffsetIteratorT d_in_begin_offsets,
                                                EndOffsetIteratorT d_in_end_offsets, NumSegmentsT num_segments,
                                                ScanOpT scan_op, InitValueT initial_value, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedScan::InclusiveSegmentedScanInit");
    using AccumT = detail::accumulator_t<ScanOpT, detail::it_value_t<InputIteratorT>, InitValueT>;
    return run<false, AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_in_begin_offsets,
                              d_in_end_offsets, detail::segmented_scan::same_offsets{}, scan_op, initial_value, stream);
  }
  // The outputs of segment s from d_out[d_out_begin_offsets[s]] on.
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename OutBeginOffsetIteratorT, typename ScanOpT, typename InitValueT,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0>
  static cudaError_t
  InclusiveSegmentedScanInit(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                             OutputIteratorT d_out, NumSegmentsT num_segments, BeginOffsetIteratorT d_in_begin_offsets,
                             EndOffsetIteratorT d_in_end_offsets, OutBeginOffsetIteratorT d_out_begin_offsets,
                             ScanOpT scan_op, InitValueT initial_value, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedScan::InclusiveSegmentedScanInit");
    using AccumT = detail::accumulator_t<ScanOpT, detail::it_value_t<InputIteratorT>, InitValueT>;
    if (d_temp_storage != nullptr && detail::count_bound(num_segments) > 0
        && detail::is_null_pointer(d_out_begin_offsets))
    {
      return cudaErrorInvalidValue;
    }
    return run<false, AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_in_begin_offsets,
                              d_in_end_offsets, d_out_begin_offsets, scan_op, initial_value, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename NumSegmentsT, typename ScanOpT, typename InitValueT,
            typename EnvT                                                                    = detail::default_env,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0,
            detail::enable_if_env_t<EnvT>                                                    = 0>
  static cudaError_t InclusiveSegmentedScanInit(InputIteratorT d_in, OutputIteratorT d_out,
                                                BeginOffsetIteratorT d_in_begin_offsets,
                                                EndOffsetIteratorT d_in_end_offsets, NumSegmentsT num_segments,
                                                ScanOpT scan_op, InitValueT initial_value, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(InclusiveSegmentedScanInit), d_in, d_out,
                                     d_in_begin_offsets, d_in_end_offsets, num_segments, scan_op, initial_value);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename OutBeginOffsetIteratorT, typename ScanOpT, typename InitValueT,
            typename EnvT                                                                    = detail::default_env,
            detail::segmented_scan::enable_if_segments_t<NumSegmentsT, BeginOffsetIteratorT> = 0,
            detail::enable_if_env_t<EnvT>                                                    = 0>
  static cudaError_t InclusiveSegmentedScanInit(InputIteratorT d_in, OutputIteratorT d_out, NumSegmentsT num_segments,
                                                BeginOffsetIteratorT d_in_begin_offsets,
                                                EndOffsetIteratorT d_in_end_offsets,
                                                OutBeginOffsetIteratorT d_out_begin_offsets, ScanOpT scan_op,
                                                InitValueT initial_value, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(InclusiveSegmentedScanInit), d_in, d_out,
                                     num_segments, d_in_begin_offsets, d_in_end_offsets, d_out_begin_offsets, scan_op,
                                     initial_value);
  }

private:
  template <bool EXCLUSIVE, typename AccumT, typename InputIteratorT, typename OutputIteratorT, typename NumSegmentsT,
            typename BeginOffsetIteratorT, typename EndOffsetIteratorT, typename OutBeginOffsetIteratorT,
            typename ScanOpT, typename InitT>
  static cudaError_t run(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                         EndOffsetIteratorT d_end_offsets, OutBeginOffsetIteratorT d_out_begin_offsets, ScanOpT op,
                         InitT init, cudaStream_t stream)
  {
    STRATA_RETURN_IF_ERROR(detail::check_arguments(d_temp_storage, num_segments, d_in, d_out, false));
    if (d_temp_storage != nullptr && detail::count_bound(num_segments) > 0
        && (detail::is_null_pointer(d_begin_offsets) || detail::is_null_pointer(d_end_offsets)))
    {
      return cudaErrorInvalidValue;
    }
    // One offsets array (the ends the begins shifted by one), outputs in place of the items, a host count: the tiled
    // path (no scan of the lengths, one read of the offsets). The two phases see the same pointers, so take the same
    // path.
    if constexpr (detail::segmented_scan::tiles_eligible<BeginOffsetIteratorT, EndOffsetIteratorT,
                                                         OutBeginOffsetIteratorT, NumSegmentsT>::value)
    {
      if (d_end_offsets == d_begin_offsets + 1)
      {
        return detail::segmented_scan_tiles::run<EXCLUSIVE, void, AccumT>(d_temp_storage, temp_storage_bytes, d_in,
                                                                          d_out, d_begin_offsets, num_segments, op,
                                                                          init, stream);
      }
    }
    return detail::dispatch_offset(num_segments, [&](auto offset) {
      using OffsetT = decltype(offset);
      return DispatchSegmentedScan<InputIteratorT, OutputIteratorT, BeginOffsetIteratorT, EndOffsetIteratorT,
                                   OutBeginOffsetIteratorT, OffsetT, ScanOpT, InitT, AccumT, EXCLUSIVE,
                                   detail::segmented_scan::policy_hub<detail::it_value_t<InputIteratorT>, AccumT>,
                                   detail::item_count_t<NumSegmentsT>>::Dispatch(d_temp_storage, temp_storage_bytes,
                                                                                 d_in, d_out, offset, d_begin_offsets,
                                                                                 d_end_offsets, d_out_begin_offsets, op,
                                                                                 init, stream,
                                                                                 detail::item_count_of(num_segments));
    });
  }
};

STRATA_NAMESPACE_END
