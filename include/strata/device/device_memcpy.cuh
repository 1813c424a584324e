// DeviceMemcpy: copies of many buffers of bytes in one launch sequence, CUB's names and contracts.
//
//   strata::DeviceMemcpy::Batched(d_temp, bytes, d_srcs, d_dsts, d_sizes, num_buffers);           // two-phase
//   strata::DeviceMemcpy::Batched(d_srcs, d_dsts, d_sizes, num_buffers, stream);                    // single-phase
//   strata::DeviceMemcpy::Batched(d_srcs, d_dsts, d_sizes, num_buffers, strata::par.on(stream));
//
// Buffer i: sizes[i] bytes from input_buffer_it[i] to output_buffer_it[i] (iterators over pointers, any pointer type,
// and over byte counts of any integer type). Buffers of any size, 0 bytes among them (their pointers may be null,
// nothing of them is touched), in any number, at any alignment; a negative size copies nothing. A source may overlap
// other sources; a destination must overlap no source and no other destination (else the result is undefined, as
// CUB's). Bytes outside the destination buffers are never written, bytes outside the source buffers never read.
// Work: every byte read and written once, split evenly over one wave of warps by bytes and buffers together, whatever
// the sizes; three launches (the plan's sums, their scan, the copy); temporary storage of 8 bytes per 256 buffers.
// Nothing synchronizes; no buffers: nothing is launched (the size query answers 1 byte).
// Errors (cudaErrorInvalidValue, before anything is launched): a negative num_buffers; a null pointer among the three
// iterators with buffers to copy; too little temporary storage.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_batch_memcpy.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/error.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace batch_memcpy
{
// Checks the arguments and runs (or sizes) the batched copy on the narrowest buffer indices that hold num_buffers.
// MEMCPY, ITEM_BYTES: as DispatchBatchMemcpy's.
template <bool MEMCPY, int ITEM_BYTES, typename InputBufferIt, typename OutputBufferIt, typename BufferSizeIteratorT,
          typename NumBuffersT>
cudaError_t run(void* d_temp_storage, size_t& temp_storage_bytes, InputBufferIt input_it, OutputBufferIt output_it,
                BufferSizeIteratorT sizes, NumBuffersT num_buffers, cudaStream_t stream)
{
  static_assert(cuda::std::is_integral<NumBuffersT>::value, "the number of buffers is an integer on the host");
  if constexpr (cuda::std::is_signed<NumBuffersT>::value)
  {
    if (num_buffers < 0)
    {
      return cudaErrorInvalidValue;
    }
  }
  if (d_temp_storage != nullptr && num_buffers > 0
      && (is_null_pointer(input_it) || is_null_pointer(output_it) || is_null_pointer(sizes)))
  {
    return cudaErrorInvalidValue;
  }
  return dispatch_offset(num_buffers, [&](auto offset) {
    using OffsetT = decltype(offset);
    return DispatchBatchMemcpy<InputBufferIt, OutputBufferIt, BufferSizeIteratorT, OffsetT, MEMCPY,
                               ITEM_BYTES>::Dispatch(d_temp_storage, temp_storage_bytes, input_it, output_it, sizes,
                                                     offset, stream);
  });
}
} // namespace batch_memcpy
} // namespace detail

struct DeviceMemcpy
{
  // Copies buffer_sizes[i] bytes from input_buffer_it[i] to output_buffer_it[i], for every i < num_buffers.
  template <typename InputBufferIt, typename OutputBufferIt, typename BufferSizeIteratorT,
            typename NumBuffersT = cuda::std::int64_t, detail::enable_if_count_t<NumBuffersT> = 0>
  static cudaError_t Batched(void* d_temp_storage, size_t& temp_storage_bytes, InputBufferIt input_buffer_it,
                             OutputBufferIt output_buffer_it, BufferSizeIteratorT buffer_sizes, NumBuffersT num_buffers,
                             cudaStream_t stream = 0)
  {
    static_assert(cuda::std::is_pointer<detail::it_value_t<InputBufferIt>>::value
                    && cuda::std::is_pointer<detail::it_value_t<OutputBufferIt>>::value,
                  "DeviceMemcpy::Batched copies memory buffers: its iterators yield pointers (DeviceCopy::Batched "
                  "copies ranges of any iterators)");
    STRATA_NVTX_RANGE("strata::DeviceMemcpy::Batched");
    return detail::batch_memcpy::run<true, 1>(d_temp_storage, temp_storage_bytes, input_buffer_it, output_buffer_it,
                                              buffer_sizes, num_buffers, stream);
  }
  template <typename InputBufferIt, typename OutputBufferIt, typename BufferSizeIteratorT,
            typename NumBuffersT = cuda::std::int64_t, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumBuffersT, EnvT> = 0>
  static cudaError_t Batched(InputBufferIt input_buffer_it, OutputBufferIt output_buffer_it,
                             BufferSizeIteratorT buffer_sizes, NumBuffersT num_buffers, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(Batched), input_buffer_it, output_buffer_it,
                                     buffer_sizes, num_buffers);
  }
};

STRATA_NAMESPACE_END
