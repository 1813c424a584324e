// DeviceAdjacentDifference: the difference of every item with its left or right neighbour, CUB's names and contracts.
//
//   strata::DeviceAdjacentDifference::SubtractLeftCopy(d_temp, bytes, d_in, d_out, n);          // two-phase
//   strata::DeviceAdjacentDifference::SubtractLeftCopy(d_in, d_out, n, op, stream);             // single-phase
//   strata::DeviceAdjacentDifference::SubtractRight(d_data, n, cuda::std::minus<>{}, strata::par.on(stream));
//
// SubtractLeftCopy:  d_out[0] = d_in[0], d_out[i] = op(d_in[i], d_in[i - 1]) for 0 < i < n;
// SubtractRightCopy: d_out[i] = op(d_in[i], d_in[i + 1]) for i < n - 1, d_out[n - 1] = d_in[n - 1];
// SubtractLeft and SubtractRight: the same in place (d_in is the output).
// op defaults to cuda::std::minus<> and need not be commutative; the output stores what op returns on two input items
// (and the copied item converted to it). The copy forms' input and output must not overlap; they need no temporary
// storage (the size query answers 1 byte). The in-place forms keep one input item per tile boundary in temporary
// storage. One pass over the items; nothing synchronizes; no items: nothing is launched. num_items: an integer, or a
// strata::device_count (the count in device memory, its bound on the host).
// Errors (cudaErrorInvalidValue, before anything is launched): a negative num_items (bound); a null pointer input or
// output with items, or a null device count; too little temporary storage.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_adjacent_difference.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/error.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace adjacent_difference
{
// Checks the arguments and runs (or sizes) the differences on the narrowest offsets that hold num_items.
template <bool IN_PLACE, bool READ_LEFT, typename InputIteratorT, typename OutputIteratorT, typename DifferenceOpT,
          typename NumItemsT>
cudaError_t run(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                NumItemsT num_items, DifferenceOpT difference_op, cudaStream_t stream)
{
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_out, false));
  return dispatch_offset(num_items, [&](auto offset) {
    using OffsetT = decltype(offset);
    using InputT  = it_value_t<InputIteratorT>;
    return DispatchAdjacentDifference<InputIteratorT, OutputIteratorT, DifferenceOpT, OffsetT, IN_PLACE, READ_LEFT,
                                      policy_hub<InputT, output_t<DifferenceOpT, InputT>>,
                                      item_count_t<NumItemsT>>::Dispatch(d_temp_storage, temp_storage_bytes, d_in,
                                                                         d_out, offset, difference_op, stream,
                                                                         item_count_of(num_items));
  });
}
} // namespace adjacent_difference
} // namespace detail

struct DeviceAdjacentDifference
{
  // d_output[0] = d_input[0], d_output[i] = difference_op(d_input[i], d_input[i - 1]).
  template <typename InputIteratorT, typename OutputIteratorT, typename DifferenceOpT = cuda::std::minus<>,
            typename NumItemsT = cuda::std::uint32_t, detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t SubtractLeftCopy(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_input,
                                      OutputIteratorT d_output, NumItemsT num_items, DifferenceOpT difference_op = {},
                                      cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceAdjacentDifference::SubtractLeftCopy");
    return detail::adjacent_difference::run<false, true>(d_temp_storage, temp_storage_bytes, d_input, d_output,
                                                         num_items, difference_op, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename DifferenceOpT = cuda::std::minus<>,
            typename NumItemsT = cuda::std::uint32_t, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t SubtractLeftCopy(InputIteratorT d_input, OutputIteratorT d_output, NumItemsT num_items,
                                      DifferenceOpT difference_op = {}, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(SubtractLeftCopy), d_input, d_output, num_items,
                                     difference_op);
  }

  // In place: d_input[i] = difference_op(d_input[i], d_input[i - 1]) for i > 0, from the items before the call.
  template <typename RandomAccessIteratorT, typename DifferenceOpT = cuda::std::minus<>,
            typename NumItemsT = cuda::std::uint32_t, detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t SubtractLeft(void* d_temp_storage, size_t& temp_storage_bytes, RandomAccessIteratorT d_input,
                                  NumItemsT num_items, DifferenceOpT difference_op = {}, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceAdjacentDifference::SubtractLeft");
    return detail::adjacent_difference::run<true, true>(d_temp_storage, temp_storage_bytes, d_input, d_input, num_items,
                                                        difference_op, stream);
  }
  template <typename RandomAccessIteratorT, typename DifferenceOpT = cuda::std::minus<>,
            typename NumItemsT = cuda::std::uint32_t, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t SubtractLeft(RandomAccessIteratorT d_input, NumItemsT num_items, DifferenceOpT difference_op = {},
                                  const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(SubtractLeft), d_input, num_items, difference_op);
  }

  // d_output[i] = difference_op(d_input[i], d_input[i + 1]) for i < num_items - 1, d_output[num_items - 1] =
  // d_input[num_items - 1].
  template <typename InputIteratorT, typename OutputIteratorT, typename DifferenceOpT = cuda::std::minus<>,
            typename NumItemsT = cuda::std::uint32_t, detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t SubtractRightCopy(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_input,
                                       OutputIteratorT d_output, NumItemsT num_items, DifferenceOpT difference_op = {},
                                       cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceAdjacentDifference::SubtractRightCopy");
    return detail::adjacent_difference::run<false, false>(d_temp_storage, temp_storage_bytes, d_input, d_output,
                                                          num_items, difference_op, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename DifferenceOpT = cuda::std::minus<>,
            typename NumItemsT = cuda::std::uint32_t, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t SubtractRightCopy(InputIteratorT d_input, OutputIteratorT d_output, NumItemsT num_items,
                                       DifferenceOpT difference_op = {}, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(SubtractRightCopy), d_input, d_output, num_items,
                                     difference_op);
  }

  // In place: d_input[i] = difference_op(d_input[i], d_input[i + 1]) for i < num_items - 1, from the items before
  // the call.
  template <typename RandomAccessIteratorT, typename DifferenceOpT = cuda::std::minus<>,
            typename NumItemsT = cuda::std::uint32_t, detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t SubtractRight(void* d_temp_storage, size_t& temp_storage_bytes, RandomAccessIteratorT d_input,
                                   NumItemsT num_items, DifferenceOpT difference_op = {}, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceAdjacentDifference::SubtractRight");
    return detail::adjacent_difference::run<true, false>(d_temp_storage, temp_storage_bytes, d_input, d_input,
                                                         num_items, difference_op, stream);
  }
  template <typename RandomAccessIteratorT, typename DifferenceOpT = cuda::std::minus<>,
            typename NumItemsT = cuda::std::uint32_t, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t SubtractRight(RandomAccessIteratorT d_input, NumItemsT num_items, DifferenceOpT difference_op = {},
                                   const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(SubtractRight), d_input, num_items, difference_op);
  }
};

STRATA_NAMESPACE_END
