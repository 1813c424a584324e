// Frontend segmented algorithms over the segments of a range given by an offsets range of n + 1 offsets (segment s
// is [first + offsets[s], first + offsets[s + 1]); empty where the second is not past the first): one result per
// segment (segmented_reduce), or a scan of every segment (segmented_inclusive_scan, segmented_exclusive_scan: item
// first[i]'s output at out[i], items in no segment not written).
//
//   strata::segmented_reduce(strata::par.on(stream), d_in, d_offsets, d_offsets + n + 1, d_sums);       // sums
//   strata::segmented_reduce(strata::par.on(stream), d_in, offsets.begin(), offsets.end(), d_max, INT_MIN,
//                            cuda::maximum<>{});
//   strata::segmented_inclusive_scan(strata::par.on(stream), d_in, d_offsets, d_offsets + n + 1, d_out);
//
// Results go to device memory and nothing synchronizes the host (the calls are capturable into a graph; an allocator
// that synchronizes to give memory back still does); temporary storage comes from the policy's allocator. The work
// is split by items plus segments, so skewed lengths cost no more than their total (DeviceSegmentedReduce,
// DeviceSegmentedScan). Complexity: one read of the items (the scans: and of the items of segments that cross between
// warps' shares, up to their first end) and two of the offsets. Errors throw strata::cuda_error naming the
// algorithm; bad arguments (an offsets range whose last is before its first, a null input or output with segments)
// are found before anything is launched. The reduction's operator must be associative and commutative, the scans'
// associative; results, floats included, are the same run to run. As thrust::reduce and std::inclusive_scan, the
// forms without an initial value work in the items' value type (DeviceSegmentedReduce::Sum adds in the output's).
// The scans return nothing: where the last segment ends lies in device memory.
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_segmented_reduce.cuh>
#include <strata/device/device_segmented_scan.cuh>
#include <strata/execution/iterators.cuh>
#include <strata/execution/policy.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/cuda_error.cuh>

#include <cuda/std/functional>
#include <cuda/std/iterator>

STRATA_NAMESPACE_BEGIN
namespace detail
{
// The number of segments an offsets range of n + 1 offsets delimits (0 for fewer than two offsets); throws for a
// reversed range.
template <typename OffsetIt>
auto segment_count(OffsetIt offsets_first, OffsetIt offsets_last, const char* algorithm)
{
  const auto offsets = cuda::std::distance(offsets_first, offsets_last);
  if (offsets < 0)
  {
    detail::throw_on_error(cudaErrorInvalidValue, algorithm);
  }
  return offsets < 2 ? decltype(offsets)(0) : offsets - 1;
}
} // namespace detail

// out[s] = init op (the items of segment s), init for an empty one, for each of the segments the offsets range
// [offsets_first, offsets_last) delimits (one fewer than its offsets; none for fewer than two). Returns the end of the
// output.
template <typename A, typename D, typename InputIt, typename OffsetIt, typename OutputIt, typename T, typename BinaryOp>
OutputIt segmented_reduce(const execution_policy<A, D>& policy, InputIt first, OffsetIt offsets_first,
                          OffsetIt offsets_last, OutputIt out, T init, BinaryOp op)
{
  STRATA_NVTX_RANGE("strata::segmented_reduce");
  const auto segments = detail::segment_count(offsets_first, offsets_last, "strata::segmented_reduce");
  if (segments == 0)
  {
    return out;
  }
  const auto d_offsets = detail::unwrap(offsets_first);
  detail::throw_on_error(DeviceSegmentedReduce::Reduce(detail::unwrap(first), detail::unwrap(out), segments, d_offsets,
                                                       d_offsets + 1, op, init, policy),
                         "strata::segmented_reduce");
  return out + segments;
}

// init + the items of each segment, each item converted to T.
template <typename A, typename D, typename InputIt, typename OffsetIt, typename OutputIt, typename T>
OutputIt segmented_reduce(const execution_policy<A, D>& policy, InputIt first, OffsetIt offsets_first,
                          OffsetIt offsets_last, OutputIt out, T init)
{
  return segmented_reduce(policy, first, offsets_first, offsets_last, out, init, cuda::std::plus<T>{});
}

// The sum of each segment's items, from value_type(0) (value_type{} for a type that cannot be made from 0).
template <typename A, typename D, typename InputIt, typename OffsetIt, typename OutputIt>
OutputIt segmented_reduce(const execution_policy<A, D>& policy, InputIt first, OffsetIt offsets_first,
                          OffsetIt offsets_last, OutputIt out)
{
  using T = detail::iter_value_t<InputIt>;
  return segmented_reduce(policy, first, offsets_first, offsets_last, out, detail::zero_of<T>(), cuda::std::plus<T>{});
}

// out[i] = the items of first[i]'s segment up to and including first[i], combined in order with op, for every item
// of the segments the offsets range [offsets_first, offsets_last) delimits (non-decreasing offsets).
template <typename A, typename D, typename InputIt, typename OffsetIt, typename OutputIt, typename BinaryOp>
void segmented_inclusive_scan(const execution_policy<A, D>& policy, InputIt first, OffsetIt offsets_first,
                              OffsetIt offsets_last, OutputIt out, BinaryOp op)
{
  STRATA_NVTX_RANGE("strata::segmented_inclusive_scan");
  const auto segments = detail::segment_count(offsets_first, offsets_last, "strata::segmented_inclusive_scan");
  if (segments == 0)
  {
    return;
  }
  const auto d_offsets = detail::unwrap(offsets_first);
  detail::throw_on_error(DeviceSegmentedScan::InclusiveSegmentedScan(detail::unwrap(first), detail::unwrap(out),
                                                                     d_offsets, d_offsets + 1, segments, op, policy),
                         "strata::segmented_inclusive_scan");
}

// The running sums of each segment's items, in the items' value type.
template <typename A, typename D, typename InputIt, typename OffsetIt, typename OutputIt>
void segmented_inclusive_scan(const execution_policy<A, D>& policy, InputIt first, OffsetIt offsets_first,
                              OffsetIt offsets_last, OutputIt out)
{
  using T = detail::iter_value_t<InputIt>;
  segmented_inclusive_scan(policy, first, offsets_first, offsets_last, out, cuda::std::plus<T>{});
}

// out[i] = init op (the items of first[i]'s segment before first[i]), combined in order, for every item of the
// segments the offsets range [offsets_first, offsets_last) delimits (non-decreasing offsets).
template <typename A, typename D, typename InputIt, typename OffsetIt, typename OutputIt, typename T, typename BinaryOp>
void segmented_exclusive_scan(const execution_policy<A, D>& policy, InputIt first, OffsetIt offsets_first,
                              OffsetIt offsets_last, OutputIt out, T init, BinaryOp op)
{
  STRATA_NVTX_RANGE("strata::segmented_exclusive_scan");
  const auto segments = detail::segment_count(offsets_first, offsets_last, "strata::segmented_exclusive_scan");
  if (segments == 0)
  {
    return;
  }
  const auto d_offsets = detail::unwrap(offsets_first);
  detail::throw_on_error(DeviceSegmentedScan::ExclusiveSegmentedScan(detail::unwrap(first), detail::unwrap(out),
                                                                     d_offsets, d_offsets + 1, segments, op, init,
                                                                     policy),
                         "strata::segmented_exclusive_scan");
}

// init + the items of each segment before each item, in T.
template <typename A, typename D, typename InputIt, typename OffsetIt, typename OutputIt, typename T>
void segmented_exclusive_scan(const execution_policy<A, D>& policy, InputIt first, OffsetIt offsets_first,
                              OffsetIt offsets_last, OutputIt out, T init)
{
  segmented_exclusive_scan(policy, first, offsets_first, offsets_last, out, init, cuda::std::plus<T>{});
}

// The sums of each segment's items before each item, from value_type(0).
template <typename A, typename D, typename InputIt, typename OffsetIt, typename OutputIt>
void segmented_exclusive_scan(const execution_policy<A, D>& policy, InputIt first, OffsetIt offsets_first,
                              OffsetIt offsets_last, OutputIt out)
{
  using T = detail::iter_value_t<InputIt>;
  segmented_exclusive_scan(policy, first, offsets_first, offsets_last, out, detail::zero_of<T>(), cuda::std::plus<T>{});
}

STRATA_NAMESPACE_END
