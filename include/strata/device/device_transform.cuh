// DeviceTransform: output[i] = op(inputs[i]...) for i in [0, num_items), CUB's names and signatures.
//
//   strata::DeviceTransform::Transform(d_in, d_out, n, op, stream);                             // one input
//   strata::DeviceTransform::Transform(cuda::std::make_tuple(d_a, d_b), d_out, n, op, stream);  // any number
//   strata::DeviceTransform::Transform(d_in, d_out, n, op, strata::par.on(stream));             // a policy's stream
//
// The last argument is a cudaStream_t, a cuda::stream_ref or a policy (whose stream the call takes); it defaults to
// the default stream.
// Inputs and output are random-access iterators valid on the device. Arrays of 1- to 16-byte trivially copyable
// values behind pointers are read and written as 16-byte vectors (agent/agent_transform.cuh), so a transform moves
// its bytes at about the speed of a device-to-device copy. The output may be one of the inputs (in place), but
// must not otherwise overlap them. op receives copies of the input items; TransformStableArgumentAddresses passes
// references to the items in memory instead (op may take their addresses), reading them one at a time.
// The two-phase forms (d_temp_storage first) exist for CUB's signatures; a transform needs no temporary storage
// (the size query answers 1 byte). Nothing synchronizes; no items: nothing is launched.
// Errors (cudaErrorInvalidValue, before anything is launched): negative num_items; a null pointer input or output
// with num_items > 0.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/device_for.cuh>
#include <strata/device/dispatch/dispatch_transform.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/error.cuh>
#include <strata/util/temporary_storage.cuh>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace transform
{
// output[i] = op(references to the inputs' items i...) (TransformStableArgumentAddresses, one item at a time).
template <typename OpT, typename OutputIteratorT, typename... InputIteratorsT>
struct stable_address_op
{
  OpT op;
  OutputIteratorT output;
  cuda::std::tuple<InputIteratorsT...> inputs;

  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE void operator()(OffsetT i)
  {
    apply(i, cuda::std::index_sequence_for<InputIteratorsT...>{});
  }

private:
  template <typename OffsetT, size_t... I>
  STRATA_DEVICE STRATA_FORCEINLINE void apply(OffsetT i, cuda::std::index_sequence<I...>)
  {
    output[i] = op(cuda::std::get<I>(inputs)[i]...);
  }
};

// cudaErrorInvalidValue for a negative count, or a null pointer among the output and inputs with items.
template <typename OutputIteratorT, typename CountT, typename... InputIteratorsT>
cudaError_t check_arguments(const cuda::std::tuple<InputIteratorsT...>& inputs, OutputIteratorT output,
                            const CountT& count)
{
  bool null = false;
  if (count_bound(count) > 0)
  {
    cuda::std::apply(
      [&](const auto&... it) {
        ((null = null || is_null_pointer(it)), ...);
      },
      cuda::std::tuple_cat(inputs, cuda::std::make_tuple(output)));
  }
  return null ? cudaErrorInvalidValue : for_each::check_range(output, count);
}

// Checks the arguments and launches, with the narrowest offset type that holds num_items.
template <typename OpT, typename OutputIteratorT, typename NumItemsT, typename... InputIteratorsT>
cudaError_t transform(cuda::std::tuple<InputIteratorsT...> inputs, OutputIteratorT output, NumItemsT num_items, OpT op,
                      cudaStream_t stream)
{
  STRATA_RETURN_IF_ERROR(check_arguments(inputs, output, num_items));
  return dispatch_offset(num_items, [&](auto offset) {
    using OffsetT = decltype(offset);
    return DispatchTransform<OffsetT, OpT, OutputIteratorT, policy_hub, item_count_t<NumItemsT>,
                             InputIteratorsT...>::Dispatch(inputs, output, offset, op, stream,
                                                           item_count_of(num_items));
  });
}
} // namespace transform
} // namespace detail

struct DeviceTransform
{
  // output[i] = transform_op(get<0>(inputs)[i], get<1>(inputs)[i], ...).
  template <typename... RandomAccessIteratorsIn, typename RandomAccessIteratorOut, typename NumItemsT,
            typename TransformOp>
  static cudaError_t Transform(cuda::std::tuple<RandomAccessIteratorsIn...> inputs, RandomAccessIteratorOut output,
                               NumItemsT num_items, TransformOp transform_op, detail::stream_arg stream = {})
  {
    STRATA_NVTX_RANGE("strata::DeviceTransform::Transform");
    STRATA_RETURN_IF_ERROR(stream.check());
    return detail::transform::transform(inputs, output, num_items, transform_op, stream.get());
  }

  // output[i] = transform_op(input[i]).
  template <typename RandomAccessIteratorIn, typename RandomAccessIteratorOut, typename NumItemsT, typename TransformOp>
  static cudaError_t Transform(RandomAccessIteratorIn input, RandomAccessIteratorOut output, NumItemsT num_items,
                               TransformOp transform_op, detail::stream_arg stream = {})
  {
    return Transform(cuda::std::make_tuple(input), output, num_items, transform_op, stream);
  }

  // Two-phase forms: a transform stores nothing (the size query answers temporary_storage::EMPTY_SIZE).
  template <typename... RandomAccessIteratorsIn, typename RandomAccessIteratorOut, typename NumItemsT,
            typename TransformOp>
  static cudaError_t Transform(void* d_temp_storage, size_t& temp_storage_bytes,
                               cuda::std::tuple<RandomAccessIteratorsIn...> inputs, RandomAccessIteratorOut output,
                               NumItemsT num_items, TransformOp transform_op, cudaStream_t stream = nullptr)
  {
    if (d_temp_storage == nullptr)
    {
      temp_storage_bytes = detail::temporary_storage::EMPTY_SIZE;
      return cudaSuccess;
    }
    return Transform(inputs, output, num_items, transform_op, stream);
  }

  template <typename RandomAccessIteratorIn, typename RandomAccessIteratorOut, typename NumItemsT, typename TransformOp>
  static cudaError_t Transform(void* d_temp_storage, size_t& temp_storage_bytes, RandomAccessIteratorIn input,
                               RandomAccessIteratorOut output, NumItemsT num_items, TransformOp transform_op,
                               cudaStream_t stream = nullptr)
  {
    return Transform(d_temp_storage, temp_storage_bytes, cuda::std::make_tuple(input), output, num_items, transform_op,
                     stream);
  }

  // output[i] = transform_op(references to get<0>(inputs)[i], ...): op may take the items' addresses.
  template <typename... RandomAccessIteratorsIn, typename RandomAccessIteratorOut, typename NumItemsT,
            typename TransformOp>
  static cudaError_t TransformStableArgumentAddresses(cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
                                                      RandomAccessIteratorOut output, NumItemsT num_items,
                                                      TransformOp transform_op, detail::stream_arg stream = {})
  {
    STRATA_NVTX_RANGE("strata::DeviceTransform::TransformStableArgumentAddresses");
    STRATA_RETURN_IF_ERROR(stream.check());
    STRATA_RETURN_IF_ERROR(detail::transform::check_arguments(inputs, output, num_items));
    using OpT = detail::transform::stable_address_op<TransformOp, RandomAccessIteratorOut, RandomAccessIteratorsIn...>;
    using IndexT = detail::count_value_t<NumItemsT>;
    return detail::for_each::for_each_n(detail::for_each::index_range<IndexT>{}, num_items,
                                        OpT{transform_op, output, inputs}, stream.get());
  }

  template <typename RandomAccessIteratorIn, typename RandomAccessIteratorOut, typename NumItemsT, typename TransformOp>
  static cudaError_t TransformStableArgumentAddresses(RandomAccessIteratorIn input, RandomAccessIteratorOut output,
                                                      NumItemsT num_items, TransformOp transform_op,
                                                      detail::stream_arg stream = {})
  {
    return TransformStableArgumentAddresses(cuda::std::make_tuple(input), output, num_items, transform_op, stream);
  }
};

STRATA_NAMESPACE_END
