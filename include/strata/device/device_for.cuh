// DeviceFor: an operation applied to every index of a shape or every item of a range, CUB's names and signatures.
//
//   strata::DeviceFor::Bulk(n, op, stream);                     // op(i) for i in [0, n)
//   strata::DeviceFor::ForEachN(d_data, n, op, stream);         // op(d_data[i]): op may change the item
//   strata::DeviceFor::ForEachCopyN(d_data, n, op, stream);     // op(copy of d_data[i]): read as 16-byte vectors
//   strata::DeviceFor::ForEach(first, last, op, strata::par.on(stream));   // a policy's stream
//
// The last argument is a cudaStream_t, a cuda::stream_ref or a policy (whose stream the call takes); it defaults to
// the default stream.
// The order in which op sees items is unspecified; op must not depend on it. The two-phase forms (d_temp_storage
// first) exist for CUB's signatures; nothing here needs temporary storage (the size query answers 1 byte). Nothing
// synchronizes; no items: nothing is launched.
// Errors (cudaErrorInvalidValue, before anything is launched): a negative count, a null pointer with items.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_for.cuh>
#include <strata/device/dispatch/dispatch_transform.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/error.cuh>
#include <strata/util/temporary_storage.cuh>

#include <cuda/std/iterator>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace for_each
{
// cudaErrorInvalidValue for a negative count (a device_count's bound), or a null pointer with items (a device_count's
// among them).
template <typename IteratorT, typename CountT>
cudaError_t check_range(IteratorT first, const CountT& count)
{
  static_assert(is_item_count_v<CountT>, "the count must be an integer or a strata::device_count");
  using NumItemsT           = count_value_t<CountT>;
  const NumItemsT num_items = count_bound(count);
  if (is_null_count(count))
  {
    return cudaErrorInvalidValue;
  }
  if constexpr (cuda::std::is_signed<NumItemsT>::value)
  {
    if (num_items < 0)
    {
      return cudaErrorInvalidValue;
    }
  }
  if constexpr (cuda::std::is_pointer<IteratorT>::value)
  {
    if (num_items > NumItemsT(0) && first == nullptr)
    {
      return cudaErrorInvalidValue;
    }
  }
  return cudaSuccess;
}

// The indices DeviceFor::Bulk and DeviceTransform::TransformStableArgumentAddresses hand their operators: reads as
// first[i] == i.
template <typename IndexT>
struct index_range
{
  template <typename OffsetT>
  STRATA_HOST_DEVICE IndexT operator[](OffsetT i) const
  {
    return static_cast<IndexT>(i);
  }
};

// op(first[i]) for i in [0, num_items), on the item itself.
template <typename IteratorT, typename NumItemsT, typename OpT>
cudaError_t for_each_n(IteratorT first, NumItemsT num_items, OpT op, cudaStream_t stream)
{
  STRATA_RETURN_IF_ERROR(check_range(first, num_items));
  return dispatch_offset(num_items, [&](auto offset) {
    return DispatchFor<IteratorT, decltype(offset), OpT, for_each::policy_hub, item_count_t<NumItemsT>>::Dispatch(
      first, offset, op, stream, item_count_of(num_items));
  });
}

// op(a copy of first[i]) for i in [0, num_items): arrays are read as vectors.
template <typename IteratorT, typename NumItemsT, typename OpT>
cudaError_t for_each_copy_n(IteratorT first, NumItemsT num_items, OpT op, cudaStream_t stream)
{
  STRATA_RETURN_IF_ERROR(check_range(first, num_items));
  return dispatch_offset(num_items, [&](auto offset) {
    using OffsetT = decltype(offset);
    return DispatchTransform<OffsetT, OpT, transform::no_output, transform::policy_hub, item_count_t<NumItemsT>,
                             IteratorT>::Dispatch(cuda::std::make_tuple(first), transform::no_output{}, offset, op,
                                                  stream, item_count_of(num_items));
  });
}

// The size query of the two-phase forms: nothing is stored.
inline bool size_query(void* d_temp_storage, size_t& temp_storage_bytes)
{
  if (d_temp_storage == nullptr)
  {
    temp_storage_bytes = temporary_storage::EMPTY_SIZE;
    return true;
  }
  return false;
}
} // namespace for_each
} // namespace detail

struct DeviceFor
{
  // op(i) for every i in [0, shape) (ShapeT: an integer type, or a strata::device_count).
  template <typename ShapeT, typename OpT>
  static cudaError_t Bulk(ShapeT shape, OpT op, detail::stream_arg stream = {})
  {
    STRATA_NVTX_RANGE("strata::DeviceFor::Bulk");
    STRATA_RETURN_IF_ERROR(stream.check());
    static_assert(detail::is_item_count_v<ShapeT>, "Bulk's shape must be an integer or a strata::device_count");
    using IndexT = detail::count_value_t<ShapeT>;
    return detail::for_each::for_each_n(detail::for_each::index_range<IndexT>{}, shape, op, stream.get());
  }

  // NAME##N(first, num_items, op) and NAME(first, last = first + num_items, op), each also in CUB's two-phase form
  // (which stores nothing), for the two NAMEs:
  // - ForEachN and ForEach: op(first[i]) for every i in [0, num_items); op receives the item and may change it.
  // - ForEachCopyN and ForEachCopy: op(a copy of first[i]); items are read as 16-byte vectors where they are arrays.
#define STRATA_DETAIL_FOR_EACH(NAME, IMPL)                                                                             \
  template <typename RandomAccessIteratorT, typename NumItemsT, typename OpT>                                          \
  static cudaError_t NAME##N(RandomAccessIteratorT first, NumItemsT num_items, OpT op, detail::stream_arg stream = {}) \
  {                                                                                                                    \
    STRATA_NVTX_RANGE("strata::DeviceFor::" #NAME "N");                                                                \
    STRATA_RETURN_IF_ERROR(stream.check());                                                                            \
    return detail::for_each::IMPL(first, num_items, op, stream.get());                                                 \
  }                                                                                                                    \
  template <typename RandomAccessIteratorT, typename OpT>                                                              \
  static cudaError_t NAME(RandomAccessIteratorT first, RandomAccessIteratorT last, OpT op,                             \
                          detail::stream_arg stream = {})                                                              \
  {                                                                                                                    \
    STRATA_NVTX_RANGE("strata::DeviceFor::" #NAME);                                                                    \
    return NAME##N(first, cuda::std::distance(first, last), op, stream);                                               \
  }                                                                                                                    \
  template <typename RandomAccessIteratorT, typename NumItemsT, typename OpT>                                          \
  static cudaError_t NAME##N(void* d_temp_storage, size_t& temp_storage_bytes, RandomAccessIteratorT first,            \
                             NumItemsT num_items, OpT op, cudaStream_t stream = nullptr)                               \
  {                                                                                                                    \
    return detail::for_each::size_query(d_temp_storage, temp_storage_bytes) ? cudaSuccess                              \
                                                                            : NAME##N(first, num_items, op, stream);   \
  }                                                                                                                    \
  template <typename RandomAccessIteratorT, typename OpT>                                                              \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, RandomAccessIteratorT first,               \
                          RandomAccessIteratorT last, OpT op, cudaStream_t stream = nullptr)                           \
  {                                                                                                                    \
    return detail::for_each::size_query(d_temp_storage, temp_storage_bytes) ? cudaSuccess                              \
                                                                            : NAME(first, last, op, stream);           \
  }

  STRATA_DETAIL_FOR_EACH(ForEach, for_each_n)
  STRATA_DETAIL_FOR_EACH(ForEachCopy, for_each_copy_n)
#undef STRATA_DETAIL_FOR_EACH

  // Bulk in CUB's two-phase form: nothing is stored.
  template <typename ShapeT, typename OpT>
  static cudaError_t Bulk(void* d_temp_storage, size_t& temp_storage_bytes, ShapeT shape, OpT op,
                          cudaStream_t stream = nullptr)
  {
    return detail::for_each::size_query(d_temp_storage, temp_storage_bytes) ? cudaSuccess : Bulk(shape, op, stream);
  }
};

STRATA_NAMESPACE_END
