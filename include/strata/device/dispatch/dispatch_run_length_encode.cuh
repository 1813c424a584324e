// The dispatch of DeviceRunLengthEncode: one launch (after the tile-state init) of DeviceReduce::ReduceByKey's kernel
// over 1s (made in registers: no values input), in AgentReduceByKey's runs::encode form for Encode (each run's first
// item and its length) and its runs::non_trivial form for NonTrivialRuns (the start and the length of every run of
// more than one item).
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_reduce_by_key.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/functional>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace run_length_encode
{
// The body of Encode (runs::encode: FirstOutputIteratorT gets each run's first item) and NonTrivialRuns
// (runs::non_trivial: each long run's start): checks the arguments (the count is written even for no items) and
// encodes on the narrowest offsets that hold num_items, the lengths accumulated in those offsets.
template <reduce_by_key::runs MODE, typename InputIteratorT, typename FirstOutputIteratorT,
          typename LengthsOutputIteratorT, typename NumRunsOutputIteratorT, typename NumItemsT>
cudaError_t run(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, FirstOutputIteratorT d_first_out,
                LengthsOutputIteratorT d_lengths_out, NumRunsOutputIteratorT d_num_runs_out, NumItemsT num_items,
                cudaStream_t stream)
{
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_first_out, false));
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_lengths_out, false));
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_num_runs_out, true));
  return dispatch_offset(num_items, [&](auto offset) {
    using OffsetT = decltype(offset);
    // The values argument, never read: the kernel's values are 1s.
    using OnesT    = const OffsetT*;
    using Dispatch = DispatchReduceByKey<InputIteratorT, FirstOutputIteratorT, OnesT, LengthsOutputIteratorT,
                                         NumRunsOutputIteratorT, cuda::std::equal_to<>, cuda::std::plus<>, OffsetT,
                                         OffsetT, reduce_by_key::policy_hub<it_value_t<InputIteratorT>, OffsetT>, MODE,
                                         item_count_t<NumItemsT>>;
    return Dispatch::Dispatch(d_temp_storage, temp_storage_bytes, d_in, d_first_out, OnesT(nullptr), d_lengths_out,
                              d_num_runs_out, cuda::std::equal_to<>{}, cuda::std::plus<>{}, offset, stream,
                              item_count_of(num_items));
  });
}
} // namespace run_length_encode
} // namespace detail
STRATA_NAMESPACE_END
