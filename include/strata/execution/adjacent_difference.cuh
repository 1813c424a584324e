// Frontend adjacent differences: std::adjacent_difference over DeviceAdjacentDifference.
//
//   strata::adjacent_difference(strata::par.on(stream), first, last, out);                   // out[i] = x[i] - x[i-1]
//   strata::adjacent_difference(strata::par.on(stream), first, last, first, cuda::std::plus<>{}); // in place
//
// d_first[0] = *first, d_first[i] = op(first[i], first[i - 1]); op need not be commutative and defaults to minus of
// the input's value type (Thrust's: int8 items wrap as int8, whatever the output). The output may be the input (in
// place: the items before the call are differenced, as std:: and Thrust do) but must not otherwise overlap it. Returns
// d_first + (last - first). Never synchronizes the host (but for an output in host-accessible memory,
// strata/execution/host_value.cuh); may be captured into a CUDA graph. Where the output is the input, or either is an
// iterator that is not a pointer (as Thrust, which lets those alias), the items at the tiles' edges are copied first:
// one allocation from the policy's allocator, given back in stream order. Errors throw strata::cuda_error naming the
// algorithm; bad arguments are found before anything is launched. thrust::adjacent_difference given strata's policy
// runs this.
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_adjacent_difference.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/execution/host_value.cuh>
#include <strata/execution/iterators.cuh>
#include <strata/execution/policy.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/cuda_error.cuh>

#include <cuda/std/functional>
#include <cuda/std/iterator>

#include <type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace frontend
{
// Whether the items cannot overlap: pointers to one type that differ (the output must not otherwise overlap the
// input). The same pointer, and iterators that cannot be compared (which Thrust lets alias), take the form that copies
// the tiles' edge items before any tile is written.
template <typename InputT, typename OutputT>
bool distinct_items(const InputT& input, const OutputT& output)
{
  if constexpr (std::is_pointer<InputT>::value && std::is_pointer<OutputT>::value
                && std::is_same<std::remove_cv_t<std::remove_pointer_t<InputT>>,
                                std::remove_cv_t<std::remove_pointer_t<OutputT>>>::value)
  {
    return static_cast<const void*>(input) != static_cast<const void*>(output);
  }
  else
  {
    (void) input;
    (void) output;
    return false;
  }
}

template <typename PolicyT, typename InputIt, typename OutputIt, typename BinaryOp>
OutputIt adjacent_difference(const PolicyT& policy, const char* name, InputIt first, InputIt last, OutputIt d_first,
                             BinaryOp op)
{
  const auto n        = cuda::std::distance(first, last);
  const auto input    = unwrap(first);
  const auto output   = unwrap(d_first);
  const bool distinct = distinct_items(input, output);
  throw_on_error(run_single_phase(policy,
                                  [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
                                    return distinct ? adjacent_difference::run<false, true>(d_temp, bytes, input,
                                                                                            output, n, op, stream)
                                                    : adjacent_difference::run<true, true>(d_temp, bytes, input, output,
                                                                                           n, op, stream);
                                  }),
                 name);
  finish_for_host(policy, name, d_first);
  return d_first + n;
}
} // namespace frontend
} // namespace detail

template <typename A, typename D, typename InputIt, typename OutputIt, typename BinaryOp>
OutputIt adjacent_difference(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first,
                             BinaryOp op)
{
  STRATA_NVTX_RANGE("strata::adjacent_difference");
  return detail::frontend::adjacent_difference(policy, "strata::adjacent_difference", first, last, d_first, op);
}

template <typename A, typename D, typename InputIt, typename OutputIt>
OutputIt adjacent_difference(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first)
{
  STRATA_NVTX_RANGE("strata::adjacent_difference");
  return detail::frontend::adjacent_difference(policy, "strata::adjacent_difference", first, last, d_first,
                                               cuda::std::minus<detail::iter_value_t<InputIt>>{});
}

STRATA_NAMESPACE_END
