// The segmented reduce of back-to-back segments (segment s is items [offsets[s], offsets[s + 1]), the offsets
// non-decreasing): kernels and the host function that sizes, checks and launches them. Not wired into
// DeviceSegmentedReduce yet; detail::segmented_reduce_tiles::run is its entry point.
//
// Two launches, neither of which waits for the host: one wave of blocks, each reducing an even share of the items'
// tiles (AgentSegmentedReduceTiles) and leaving two records, then DeviceSegmentedReduce's records kernel (one block)
// folding the records in order into the segments that cross shares. Both are launched with programmatic stream
// serialization on sm_90 and wait for the grid before them before reading anything. Unlike DeviceSegmentedReduce's
// walk, nothing scans the segments' lengths first: the offsets are the prefix. The wave depends only on the device,
// so results are the same bits run to run.
#pragma once

#include <strata/agent/agent_segmented_reduce_tiles.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_segmented_reduce.cuh>
#include <strata/device/dispatch/dispatch_segmented_scan_tiles.cuh>
#include <strata/device/dispatch/tuning/tuning_segmented_reduce_tiles.cuh>
#include <strata/util/device.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_reduce_tiles
{
STRATA_KERNELS_BEGIN

// Block b reduces its share of the items and leaves its records at d_records[2 b] and [2 b + 1].
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename OffsetIteratorT,
          typename AccumT, typename ReductionOpT, typename InitT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::SegmentedReduceTilesPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::SegmentedReduceTilesPolicy::MIN_BLOCKS_PER_SM) void
DeviceSegmentedReduceTilesKernel(InputIteratorT d_in, OutputIteratorT d_out, OffsetIteratorT d_offsets,
                                 long long num_segments, segmented::record<AccumT>* d_records, ReductionOpT op,
                                 InitT init)
{
  using Agent = AgentSegmentedReduceTiles<typename MaxPolicyT::ActivePolicy::SegmentedReduceTilesPolicy, InputIteratorT,
                                          OutputIteratorT, OffsetIteratorT, AccumT, ReductionOpT, InitT>;
  __shared__ typename Agent::TempStorage storage;
  // The records kernel may be launched now (it waits for this grid); this grid waits for the caller's last kernel.
  GridLaunchDependents();
  GridDependencyWait();
  Agent(storage, d_in, d_out, d_offsets, num_segments, op, init).ConsumeShare(d_records + 2 * blockIdx.x);
}

STRATA_KERNELS_END

// The dispatch closure. OffsetIteratorT: num_segments + 1 offsets; InitT: the initial value, or a
// detail::reduce::empty_value.
template <typename PolicyHub, typename InputIteratorT, typename OutputIteratorT, typename OffsetIteratorT,
          typename AccumT, typename ReductionOpT, typename InitT>
struct dispatch
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  OffsetIteratorT d_offsets;
  long long num_segments;
  ReductionOpT op;
  InitT init;
  cudaStream_t stream;
  int device;
  int ptx_version;

  using MaxPolicy                      = typename PolicyHub::MaxPolicy;
  using RecordT                        = segmented::record<AccumT>;
  static constexpr int RECORDS_THREADS = 256;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy = typename ActivePolicyT::SegmentedReduceTilesPolicy;
    if (num_segments == 0)
    {
      if (d_temp_storage == nullptr)
      {
        temp_storage_bytes = temporary_storage::EMPTY_SIZE;
      }
      return cudaSuccess;
    }
    const auto kernel = DeviceSegmentedReduceTilesKernel<MaxPolicy, InputIteratorT, OutputIteratorT, OffsetIteratorT,
                                                         AccumT, ReductionOpT, InitT>;
    size_t wave       = 0;
    STRATA_RETURN_IF_ERROR(WaveBlocks(wave, kernel, Policy::BLOCK_THREADS, device));
    const int grid        = static_cast<int>(wave < size_t(0x3fffff) ? wave : size_t(0x3fffff));
    const int num_records = 2 * grid;

    temporary_storage::layout<1> layout;
    auto records = layout.get_slot(0)->create_alias<RecordT>(static_cast<size_t>(num_records));
    bool mapped  = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped)
    {
      return cudaSuccess;
    }

    const bool programmatic = ptx_version >= 900;
    STRATA_RETURN_IF_ERROR(
      check_launch(LaunchAfter(programmatic, dim3(static_cast<unsigned int>(grid)), dim3(Policy::BLOCK_THREADS), stream,
                               kernel, d_in, d_out, d_offsets, num_segments, records.get(), op, init),
                   stream));
    return check_launch(LaunchAfter(programmatic, dim3(1), dim3(RECORDS_THREADS), stream,
                                    segmented_reduce::DeviceSegmentedReduceRecordsKernel<
                                      RECORDS_THREADS, OutputIteratorT, AccumT, ReductionOpT, InitT>,
                                    static_cast<const RecordT*>(records.get()), num_records, d_out, op, init),
                        stream);
  }
};

// The segmented reduce of num_segments back-to-back segments, d_offsets[s] to d_offsets[s + 1] (num_segments + 1
// offsets, non-decreasing), with the two-phase temporary-storage protocol: d_out[s] = init op (the items of segment s)
// under reduction_op, init for an empty segment (InitT a reduce::empty_value: the items alone, its value for an empty
// segment). PolicyHubT: void for the tuned hub.
template <typename PolicyHubT = void, typename InputIteratorT, typename OutputIteratorT, typename OffsetIteratorT,
          typename NumSegmentsT, typename ReductionOpT, typename InitT>
cudaError_t run(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                OffsetIteratorT d_offsets, NumSegmentsT num_segments, ReductionOpT reduction_op, InitT init,
                cudaStream_t stream)
{
  static_assert(cuda::std::is_integral<NumSegmentsT>::value, "num_segments must be an integer");
  using InputT = it_value_t<InputIteratorT>;
  using AccumT = typename segmented_scan_tiles::accumulator<ReductionOpT, InputT, InitT>::type;
  using PolicyHub =
    cuda::std::conditional_t<cuda::std::is_void<PolicyHubT>::value, policy_hub<InputT, AccumT>, PolicyHubT>;
  STRATA_RETURN_IF_ERROR(
    segmented_scan_tiles::check_back_to_back(d_temp_storage, d_in, d_out, d_offsets, num_segments));
  int device      = 0;
  int ptx_version = 0;
  STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
  dispatch<PolicyHub, InputIteratorT, OutputIteratorT, OffsetIteratorT, AccumT, ReductionOpT, InitT> closure{
    d_temp_storage, temp_storage_bytes,
    d_in,           d_out,
    d_offsets,      static_cast<long long>(num_segments),
    reduction_op,   init,
    stream,         device,
    ptx_version};
  return PolicyHub::MaxPolicy::Invoke(ptx_version, closure);
}
} // namespace segmented_reduce_tiles
} // namespace detail
STRATA_NAMESPACE_END
