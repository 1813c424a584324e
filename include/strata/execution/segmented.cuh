// Frontend segmented algorithms: one result per segment of a range, the segments given by an offsets range of n + 1
// offsets (segment s is [first + offsets[s], first + offsets[s + 1]); empty where the second is not past the first).
//
//   strata::segmented_reduce(strata::par.on(stream), d_in, d_offsets, d_offsets + n + 1, d_sums);       // sums
//   strata::segmented_reduce(strata::par.on(stream), d_in, offsets.begin(), offsets.end(), d_max, INT_MIN,
//                            cuda::maximum<>{});
//
// Results go to device memory and nothing synchronizes the host (the calls are capturable into a graph; an allocator
// that synchronizes to give memory back still does); temporary storage comes from the policy's allocator. The work
// is split by items plus segments, so skewed lengths cost no more than their total (DeviceSegmentedReduce).
// Complexity: one read of the items and two of the offsets, four launches. Errors throw strata::cuda_error naming
// the algorithm; bad arguments (an offsets range whose last is before its first, a null input or output with
// segments) are found before anything is launched. Operators must be associative and commutative; results, floats
// included, are the same run to run. As thrust::reduce, the sum without an initial value adds in the items' value
// type (DeviceSegmentedReduce::Sum adds in the output's).
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_segmented_reduce.cuh>
#include <strata/execution/iterators.cuh>
#include <strata/execution/policy.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/cuda_error.cuh>

#include <cuda/std/functional>
#include <cuda/std/iterator>

STRATA_NAMESPACE_BEGIN

// out[s] = init op (the items of segment s), init for an empty one, for each of the segments the offsets range
// [offsets_first, offsets_last) delimits (one fewer than its offsets; none for fewer than two). Returns the end of the
// output.
template <typename A, typename InputIt, typename OffsetIt, typename OutputIt, typename T, typename BinaryOp>
OutputIt segmented_reduce(const execution_policy<A>& policy, InputIt first, OffsetIt offsets_first,
                          OffsetIt offsets_last, OutputIt out, T init, BinaryOp op)
{
  STRATA_NVTX_RANGE("strata::segmented_reduce");
  const auto offsets = cuda::std::distance(offsets_first, offsets_last);
  if (offsets < 0)
  {
    detail::throw_on_error(cudaErrorInvalidValue, "strata::segmented_reduce");
  }
  if (offsets < 2)
  {
    return out;
  }
  const auto segments  = offsets - 1;
  const auto d_offsets = detail::unwrap(offsets_first);
  detail::throw_on_error(DeviceSegmentedReduce::Reduce(detail::unwrap(first), detail::unwrap(out), segments, d_offsets,
                                                       d_offsets + 1, op, init, policy),
                         "strata::segmented_reduce");
  return out + segments;
}

// init + the items of each segment, each item converted to T.
template <typename A, typename InputIt, typename OffsetIt, typename OutputIt, typename T>
OutputIt segmented_reduce(const execution_policy<A>& policy, InputIt first, OffsetIt offsets_first,
                          OffsetIt offsets_last, OutputIt out, T init)
{
  return segmented_reduce(policy, first, offsets_first, offsets_last, out, init, cuda::std::plus<T>{});
}

// The sum of each segment's items, from value_type(0) (value_type{} for a type that cannot be made from 0).
template <typename A, typename InputIt, typename OffsetIt, typename OutputIt>
OutputIt segmented_reduce(const execution_policy<A>& policy, InputIt first, OffsetIt offsets_first,
                          OffsetIt offsets_last, OutputIt out)
{
  using T = detail::iter_value_t<InputIt>;
  return segmented_reduce(policy, first, offsets_first, offsets_last, out, detail::zero_of<T>(), cuda::std::plus<T>{});
}

STRATA_NAMESPACE_END
