// DeviceRunLengthEncode: CUB's names and contracts.
//
//   strata::DeviceRunLengthEncode::Encode(d_temp, bytes, d_in, d_unique_out, d_counts_out, d_num_runs_out, n);
//   strata::DeviceRunLengthEncode::Encode(d_in, d_unique_out, d_counts_out, d_num_runs_out, n, stream);
//   strata::DeviceRunLengthEncode::NonTrivialRuns(d_temp, bytes, d_in, d_offsets_out, d_lengths_out, d_num_runs_out, n);
//
// Encode: for each run of consecutive equal items (operator==), its first item to d_unique_out, its length to
// d_counts_out, and the number of runs to *d_num_runs_out (in device memory).
// NonTrivialRuns: for each run of more than one equal item, its first item's index to d_offsets_out and its length to
// d_lengths_out, and the number of such runs to *d_num_runs_out.
// Each is one pass, DeviceReduce::ReduceByKey's kernel over 1s (dispatch/dispatch_run_length_encode.cuh). Bad
// arguments (a negative count; a null input or output when there are items; a null count output) give
// cudaErrorInvalidValue and launch nothing; no items write 0 runs. Two-phase and single-phase forms, as
// DeviceSelect's (strata/device/device_select.cuh).
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_select.cuh>
#include <strata/device/dispatch/dispatch_run_length_encode.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>

STRATA_NAMESPACE_BEGIN

struct DeviceRunLengthEncode
{
  template <typename InputIteratorT, typename UniqueOutputIteratorT, typename LengthsOutputIteratorT,
            typename NumRunsOutputIteratorT, typename NumItemsT, detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t Encode(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                            UniqueOutputIteratorT d_unique_out, LengthsOutputIteratorT d_counts_out,
                            NumRunsOutputIteratorT d_num_runs_out, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRunLengthEncode::Encode");
    return detail::run_length_encode::run<detail::reduce_by_key::runs::encode>(d_temp_storage, temp_storage_bytes, d_in,
                                                                               d_unique_out, d_counts_out,
                                                                               d_num_runs_out, num_items, stream);
  }
  template <typename InputIteratorT, typename UniqueOutputIteratorT, typename LengthsOutputIteratorT,
            typename NumRunsOutputIteratorT, typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t Encode(InputIteratorT d_in, UniqueOutputIteratorT d_unique_out,
                            LengthsOutputIteratorT d_counts_out, NumRunsOutputIteratorT d_num_runs_out,
                            NumItemsT num_items, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(Encode), d_in, d_unique_out, d_counts_out,
                                     d_num_runs_out, num_items);
  }

  template <typename InputIteratorT, typename OffsetsOutputIteratorT, typename LengthsOutputIteratorT,
            typename NumRunsOutputIteratorT, typename NumItemsT, detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t NonTrivialRuns(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                    OffsetsOutputIteratorT d_offsets_out, LengthsOutputIteratorT d_lengths_out,
                                    NumRunsOutputIteratorT d_num_runs_out, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRunLengthEncode::NonTrivialRuns");
    return detail::run_length_encode::run<detail::reduce_by_key::runs::non_trivial>(d_temp_storage, temp_storage_bytes,
                                                                                    d_in, d_offsets_out, d_lengths_out,
                                                                                    d_num_runs_out, num_items, stream);
  }
  template <typename InputIteratorT, typename OffsetsOutputIteratorT, typename LengthsOutputIteratorT,
            typename NumRunsOutputIteratorT, typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t NonTrivialRuns(InputIteratorT d_in, OffsetsOutputIteratorT d_offsets_out,
                                    LengthsOutputIteratorT d_lengths_out, NumRunsOutputIteratorT d_num_runs_out,
                                    NumItemsT num_items, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NonTrivialRuns), d_in, d_offsets_out, d_lengths_out,
                                     d_num_runs_out, num_items);
  }
};

STRATA_NAMESPACE_END
