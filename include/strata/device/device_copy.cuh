// DeviceCopy: copies of many ranges of items in one launch sequence, CUB's names and contracts.
//
//   strata::DeviceCopy::Batched(d_temp, bytes, d_in_ranges, d_out_ranges, d_sizes, num_ranges);   // two-phase
//   strata::DeviceCopy::Batched(d_in_ranges, d_out_ranges, d_sizes, num_ranges, stream);            // single-phase
//   strata::DeviceCopy::Batched(d_in_ranges, d_out_ranges, thrust::make_constant_iterator(64), n, strata::par.on(s));
//
// Range i: output_it[i][j] = input_it[i][j] for j < sizes[i], where input_it yields input iterators (pointers,
// Thrust's fancy iterators, any random-access iterator valid on the device), output_it output iterators, and sizes
// item counts of any integer type. Ranges of any size, empty ones among them (their iterators are never used), in any
// number; a negative size copies nothing. Where both ranges are pointers to one trivially copyable type (T* or
// const T* in, T* out), its items move as bytes, as DeviceMemcpy::Batched moves them (16-byte accesses wherever
// alignment allows); otherwise each item is assigned through the iterators, a few items per lane in flight. An input
// range may overlap other inputs; an output range must overlap no input and no other output (else the result is
// undefined, as CUB's). Work, launches and temporary storage are DeviceMemcpy::Batched's. Nothing synchronizes; no
// ranges: nothing is launched (the size query answers 1 byte).
// Errors (cudaErrorInvalidValue, before anything is launched): a negative num_ranges; a null pointer among the three
// iterators with ranges to copy; too little temporary storage.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_batch_memcpy.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/device/device_memcpy.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/error.cuh>

#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN

struct DeviceCopy
{
  // output_it[i][j] = input_it[i][j] for j < sizes[i], for every i < num_ranges.
  template <typename InputIt, typename OutputIt, typename SizeIteratorT, typename NumRangesT = cuda::std::int64_t,
            detail::enable_if_count_t<NumRangesT> = 0>
  static cudaError_t Batched(void* d_temp_storage, size_t& temp_storage_bytes, InputIt input_it, OutputIt output_it,
                             SizeIteratorT sizes, NumRangesT num_ranges, cudaStream_t stream = 0)
  {
    using kind = detail::batch_memcpy::copy_kind<InputIt, OutputIt>;
    STRATA_NVTX_RANGE("strata::DeviceCopy::Batched");
    return detail::batch_memcpy::run<kind::MEMCPY, kind::ITEM_BYTES>(d_temp_storage, temp_storage_bytes, input_it,
                                                                     output_it, sizes, num_ranges, stream);
  }
  template <typename InputIt, typename OutputIt, typename SizeIteratorT, typename NumRangesT = cuda::std::int64_t,
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumRangesT, EnvT> = 0>
  static cudaError_t Batched(InputIt input_it, OutputIt output_it, SizeIteratorT sizes, NumRangesT num_ranges,
                             const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(Batched), input_it, output_it, sizes, num_ranges);
  }
};

STRATA_NAMESPACE_END
