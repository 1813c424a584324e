// DevicePartition: CUB's names and contracts. Each call writes the selected items of num_items items, in their order,
// to d_out[0, k), the rejected ones in reverse order to d_out[k, num_items) (the last rejected item first, as CUB
// writes them), and k to *d_num_selected_out (in device memory).
//
//   strata::DevicePartition::If(d_temp, bytes, d_in, d_out, d_num_selected, n, is_even);  // two-phase
//   strata::DevicePartition::Flagged(d_in, d_flags, d_out, d_num_selected, n, stream);    // single-phase
//
// If: selected when select_op(item) is true. Flagged: when d_flags[i] is true. One pass over the input, as
// DeviceSelect's (agent/agent_select.cuh); the same argument checks and forms (strata/device/device_select.cuh).
//
// If with two selection operators (three-way) writes the items for which select_first_part_op is true to
// d_first_part_out, of the others those for which select_second_part_op is true to d_second_part_out, and the rest to
// d_unselected_out, each part in the items' order, and the sizes of the first two parts to d_num_selected_out[0] and
// [1] (the third is num_items minus both). One pass over the input (agent/agent_three_way_partition.cuh).
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_select.cuh>
#include <strata/device/dispatch/dispatch_select.cuh>
#include <strata/device/dispatch/dispatch_three_way_partition.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>

#include <cuda/std/functional>

STRATA_NAMESPACE_BEGIN

struct DevicePartition
{
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT, typename SelectOp,
            typename NumItemsT, detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t If(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                        NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, SelectOp select_op,
                        cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DevicePartition::If");
    return detail::select::run<detail::select::mode::predicate, true>(d_temp_storage, temp_storage_bytes, d_in,
                                                                      detail::select::no_flags{}, d_out,
                                                                      d_num_selected_out, select_op,
                                                                      cuda::std::equal_to<>{}, num_items, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT,
            typename SelectOp, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t If(InputIteratorT d_in, OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                        NumItemsT num_items, SelectOp select_op, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(If), d_in, d_out, d_num_selected_out, num_items,
                                     select_op);
  }

  // -- If with two selection operators: three parts -----------------------------------------------------------------
  template <typename InputIteratorT, typename FirstOutputIteratorT, typename SecondOutputIteratorT,
            typename UnselectedOutputIteratorT, typename NumSelectedIteratorT, typename SelectFirstPartOp,
            typename SelectSecondPartOp, typename NumItemsT, detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t If(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                        FirstOutputIteratorT d_first_part_out, SecondOutputIteratorT d_second_part_out,
                        UnselectedOutputIteratorT d_unselected_out, NumSelectedIteratorT d_num_selected_out,
                        NumItemsT num_items, SelectFirstPartOp select_first_part_op,
                        SelectSecondPartOp select_second_part_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DevicePartition::If");
    return detail::three_way_partition::run(d_temp_storage, temp_storage_bytes, d_in, d_first_part_out,
                                            d_second_part_out, d_unselected_out, d_num_selected_out, num_items,
                                            select_first_part_op, select_second_part_op, stream);
  }
  template <typename InputIteratorT, typename FirstOutputIteratorT, typename SecondOutputIteratorT,
            typename UnselectedOutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT,
            typename SelectFirstPartOp, typename SelectSecondPartOp, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT>                     = 0,
            detail::three_way_partition::enable_if_output_t<FirstOutputIteratorT> = 0>
  static cudaError_t
  If(InputIteratorT d_in, FirstOutputIteratorT d_first_part_out, SecondOutputIteratorT d_second_part_out,
     UnselectedOutputIteratorT d_unselected_out, NumSelectedIteratorT d_num_selected_out, NumItemsT num_items,
     SelectFirstPartOp select_first_part_op, SelectSecondPartOp select_second_part_op, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(If), d_in, d_first_part_out, d_second_part_out,
                                     d_unselected_out, d_num_selected_out, num_items, select_first_part_op,
                                     select_second_part_op);
  }

  template <typename InputIteratorT, typename FlagIterator, typename OutputIteratorT, typename NumSelectedIteratorT,
            typename NumItemsT, detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t Flagged(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                             FlagIterator d_flags, OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                             NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DevicePartition::Flagged");
    return detail::select::run<detail::select::mode::flagged, true>(d_temp_storage, temp_storage_bytes, d_in, d_flags,
                                                                    d_out, d_num_selected_out,
                                                                    detail::select::no_select_op{},
                                                                    cuda::std::equal_to<>{}, num_items, stream);
  }
  template <typename InputIteratorT, typename FlagIterator, typename OutputIteratorT, typename NumSelectedIteratorT,
            typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t Flagged(InputIteratorT d_in, FlagIterator d_flags, OutputIteratorT d_out,
                             NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(Flagged), d_in, d_flags, d_out, d_num_selected_out,
                                     num_items);
  }
};

STRATA_NAMESPACE_END
