// DeviceSelect: stream compaction, CUB's names and contracts. Each call keeps some of num_items items, in their
// order, writes them to d_out[0, k) and k to *d_num_selected_out (in device memory: nothing returns to the host).
//
//   strata::DeviceSelect::If(d_temp, bytes, d_in, d_out, d_num_selected, n, is_even);  // two-phase
//   strata::DeviceSelect::If(d_in, d_out, d_num_selected, n, is_even, stream);         // single-phase
//   strata::DeviceSelect::Unique(d_in, d_out, d_num_selected, n, strata::par.on(s));
//
// If: the items for which select_op(item) is true. Flagged: those whose flag d_flags[i] is true. FlaggedIf: those for
// which select_op(d_flags[i]) is true. Unique: the first item of each run of consecutive equal items; UniqueByKey: the
// first key of each run of equal keys (under equality_op, default equal_to), and its value beside it. If, Flagged and
// FlaggedIf have in-place forms (d_data both input and output). One pass over the input (a decoupled look-back over
// the tiles' counts: agent/agent_select.cuh). Bad arguments (a negative count; a null input, output or count output
// when there are items) give cudaErrorInvalidValue and launch nothing; no items writes 0 to the count output.
//
// Every entry point has a two-phase form (temporary storage first; with null d_temp_storage, only its size is
// computed) and a single-phase form (the same arguments without the temporary storage, and last an optional
// cudaStream_t, cuda::stream_ref or policy: strata/device/dispatch/single_phase.cuh).
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_select.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

namespace detail
{
namespace select
{

// The select operator of the modes that take none.
struct no_select_op
{};
} // namespace select
} // namespace detail

struct DeviceSelect
{
  // -- If: select_op(item) --------------------------------------------------------------------------------------------
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT, typename SelectOp,
            typename NumItemsT, detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t If(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                        NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, SelectOp select_op,
                        cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSelect::If");
    return detail::select::run<detail::select::mode::predicate, false>(d_temp_storage, temp_storage_bytes, d_in,
                                                                       detail::select::no_flags{}, d_out,
                                                                       d_num_selected_out, select_op,
                                                                       cuda::std::equal_to<>{}, num_items, stream);
  }
  template <typename IteratorT, typename NumSelectedIteratorT, typename SelectOp, typename NumItemsT,
            detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t If(void* d_temp_storage, size_t& temp_storage_bytes, IteratorT d_data,
                        NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, SelectOp select_op,
                        cudaStream_t stream = 0)
  {
    return If(d_temp_storage, temp_storage_bytes, d_data, d_data, d_num_selected_out, num_items, select_op, stream);
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
  template <typename IteratorT, typename NumSelectedIteratorT, typename NumItemsT, typename SelectOp,
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t If(IteratorT d_data, NumSelectedIteratorT d_num_selected_out, NumItemsT num_items,
                        SelectOp select_op, const EnvT& env = {})
  {
    return If(d_data, d_data, d_num_selected_out, num_items, select_op, env);
  }

  // -- Flagged: d_flags[i] --------------------------------------------------------------------------------------------
  template <typename InputIteratorT, typename FlagIterator, typename OutputIteratorT, typename NumSelectedIteratorT,
            typename NumItemsT, detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t Flagged(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                             FlagIterator d_flags, OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                             NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSelect::Flagged");
    return detail::select::run<detail::select::mode::flagged, false>(d_temp_storage, temp_storage_bytes, d_in, d_flags,
                                                                     d_out, d_num_selected_out,
                                                                     detail::select::no_select_op{},
                                                                     cuda::std::equal_to<>{}, num_items, stream);
  }
  template <typename IteratorT, typename FlagIterator, typename NumSelectedIteratorT, typename NumItemsT,
            detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t Flagged(void* d_temp_storage, size_t& temp_storage_bytes, IteratorT d_data, FlagIterator d_flags,
                             NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, cudaStream_t stream = 0)
  {
    return Flagged(d_temp_storage, temp_storage_bytes, d_data, d_flags, d_data, d_num_selected_out, num_items, stream);
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
  template <typename IteratorT, typename FlagIterator, typename NumSelectedIteratorT, typename NumItemsT,
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t Flagged(IteratorT d_data, FlagIterator d_flags, NumSelectedIteratorT d_num_selected_out,
                             NumItemsT num_items, const EnvT& env = {})
  {
    return Flagged(d_data, d_flags, d_data, d_num_selected_out, num_items, env);
  }

  // -- FlaggedIf: select_op(d_flags[i]) -------------------------------------------------------------------------------
  template <typename InputIteratorT, typename FlagIterator, typename OutputIteratorT, typename NumSelectedIteratorT,
            typename SelectOp, typename NumItemsT, detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t FlaggedIf(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                               FlagIterator d_flags, OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                               NumItemsT num_items, SelectOp select_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSelect::FlaggedIf");
    return detail::select::run<detail::select::mode::flagged_if, false>(d_temp_storage, temp_storage_bytes, d_in,
                                                                        d_flags, d_out, d_num_selected_out, select_op,
                                                                        cuda::std::equal_to<>{}, num_items, stream);
  }
  template <typename IteratorT, typename FlagIterator, typename NumSelectedIteratorT, typename SelectOp,
            typename NumItemsT, detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t FlaggedIf(void* d_temp_storage, size_t& temp_storage_bytes, IteratorT d_data, FlagIterator d_flags,
                               NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, SelectOp select_op,
                               cudaStream_t stream = 0)
  {
    return FlaggedIf(d_temp_storage, temp_storage_bytes, d_data, d_flags, d_data, d_num_selected_out, num_items,
                     select_op, stream);
  }
  template <typename InputIteratorT, typename FlagIterator, typename OutputIteratorT, typename NumSelectedIteratorT,
            typename NumItemsT, typename SelectOp, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t FlaggedIf(InputIteratorT d_in, FlagIterator d_flags, OutputIteratorT d_out,
                               NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, SelectOp select_op,
                               const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(FlaggedIf), d_in, d_flags, d_out, d_num_selected_out,
                                     num_items, select_op);
  }
  template <typename IteratorT, typename FlagIterator, typename NumSelectedIteratorT, typename NumItemsT,
            typename SelectOp, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t FlaggedIf(IteratorT d_data, FlagIterator d_flags, NumSelectedIteratorT d_num_selected_out,
                               NumItemsT num_items, SelectOp select_op, const EnvT& env = {})
  {
    return FlaggedIf(d_data, d_flags, d_data, d_num_selected_out, num_items, select_op, env);
  }

  // -- Unique: the first item of each run of equal items ---------------------------------------------------------------
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT,
            detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t Unique(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out, NumItemsT num_items,
                            cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSelect::Unique");
    return detail::select::run<detail::select::mode::unique, false>(d_temp_storage, temp_storage_bytes, d_in,
                                                                    detail::select::no_flags{}, d_out,
                                                                    d_num_selected_out, detail::select::no_select_op{},
                                                                    cuda::std::equal_to<>{}, num_items, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT,
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t Unique(InputIteratorT d_in, OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                            NumItemsT num_items, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(Unique), d_in, d_out, d_num_selected_out, num_items);
  }

  // -- UniqueByKey: the first key of each run of equal keys, and its value --------------------------------------------
  template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
            typename ValueOutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT, typename EqualityOpT,
            detail::enable_if_count_t<NumItemsT> = 0, detail::enable_if_equality_op_t<EqualityOpT> = 0>
  static cudaError_t UniqueByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in,
                                 ValueInputIteratorT d_values_in, KeyOutputIteratorT d_keys_out,
                                 ValueOutputIteratorT d_values_out, NumSelectedIteratorT d_num_selected_out,
                                 NumItemsT num_items, EqualityOpT equality_op, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSelect::UniqueByKey");
    return detail::select::run<detail::select::mode::unique, false>(
      d_temp_storage, temp_storage_bytes, d_keys_in, detail::select::no_flags{}, d_keys_out, d_num_selected_out,
      detail::select::no_select_op{}, equality_op, num_items, stream,
      detail::select::by_key_values<ValueInputIteratorT, ValueOutputIteratorT>{d_values_in, d_values_out});
  }
  template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
            typename ValueOutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT,
            detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t UniqueByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in,
                                 ValueInputIteratorT d_values_in, KeyOutputIteratorT d_keys_out,
                                 ValueOutputIteratorT d_values_out, NumSelectedIteratorT d_num_selected_out,
                                 NumItemsT num_items, cudaStream_t stream = 0)
  {
    return UniqueByKey(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_keys_out, d_values_out,
                       d_num_selected_out, num_items, cuda::std::equal_to<>{}, stream);
  }
  template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
            typename ValueOutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT, typename EqualityOpT,
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0,
            detail::enable_if_equality_op_t<EqualityOpT> = 0>
  static cudaError_t UniqueByKey(KeyInputIteratorT d_keys_in, ValueInputIteratorT d_values_in,
                                 KeyOutputIteratorT d_keys_out, ValueOutputIteratorT d_values_out,
                                 NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, EqualityOpT equality_op,
                                 const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(UniqueByKey), d_keys_in, d_values_in, d_keys_out,
                                     d_values_out, d_num_selected_out, num_items, equality_op);
  }
  template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
            typename ValueOutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT,
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t UniqueByKey(KeyInputIteratorT d_keys_in, ValueInputIteratorT d_values_in,
                                 KeyOutputIteratorT d_keys_out, ValueOutputIteratorT d_values_out,
                                 NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, const EnvT& env = {})
  {
    return UniqueByKey(d_keys_in, d_values_in, d_keys_out, d_values_out, d_num_selected_out, num_items,
                       cuda::std::equal_to<>{}, env);
  }
};

STRATA_NAMESPACE_END
