// DeviceFind: the first item that satisfies a predicate, and sorted search of many values, CUB's names and contracts.
//
//   strata::DeviceFind::FindIf(d_temp, bytes, d_in, d_index, is_negative, n);     // two-phase
//   strata::DeviceFind::FindIf(d_in, d_index, is_negative, n, stream);             // single-phase
//   strata::DeviceFind::LowerBound(d_temp, bytes, d_sorted, m, d_values, k, d_positions, cuda::std::less<>{});
//
// FindIf: the index of the first item for which the predicate holds to *d_out, num_items where none does (0 for no
// items), in device memory. The search stops early: only tiles that start before the first match are read (one wave
// of blocks takes the tiles in order, each checking the result so far before its next tile), so a match near the
// front costs little. d_out must not overlap the input. Temporary storage: one offset. num_items (and LowerBound's and
// UpperBound's values_num_items) may be a strata::device_count: the count in device memory, its bound on the host.
// LowerBound / UpperBound: for each of the values_num_items values, the position in the range (sorted by comp) of the
// first item that is not ordered before the value (LowerBound) or that the value is ordered before (UpperBound), to
// d_output; a binary search per value, the values read as DeviceTransform reads its input (16-byte vectors from
// arrays), so values in order find their range's items in cache. No temporary storage (the query answers 1 byte).
// Errors (cudaErrorInvalidValue, before anything is launched): a negative count; a null input or output where items
// are read or written (FindIf's output always is); too little temporary storage. Nothing synchronizes.
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_transform.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_find.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/error.cuh>
#include <strata/util/temporary_storage.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace find
{
// The position in [range, range + size) that a binary search for a value ends at: the first item not ordered before
// the value (UPPER false), or the first the value is ordered before (UPPER true).
template <bool UPPER, typename RangeIteratorT, typename OffsetT, typename CompareOpT>
struct bound_search
{
  RangeIteratorT range;
  OffsetT size;
  CompareOpT comp;

  template <typename ValueT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE OffsetT operator()(const ValueT& value) const
  {
    OffsetT first = 0;
    OffsetT count = size;
    while (count > OffsetT(0))
    {
      const OffsetT half = count / OffsetT(2);
      const OffsetT mid  = first + half;
      const bool right =
        UPPER ? !static_cast<bool>(comp(value, range[mid])) : static_cast<bool>(comp(range[mid], value));
      first = right ? mid + OffsetT(1) : first;
      count = right ? count - half - OffsetT(1) : half;
    }
    return first;
  }
};

// Whether a value is in the sorted range: its lower bound's item is not ordered after it.
template <typename RangeIteratorT, typename OffsetT, typename CompareOpT>
struct contains_value
{
  bound_search<false, RangeIteratorT, OffsetT, CompareOpT> lower;

  template <typename ValueT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE bool operator()(const ValueT& value) const
  {
    const OffsetT at = lower(value);
    return at < lower.size && !static_cast<bool>(lower.comp(value, lower.range[at]));
  }
};

// What a search of many values writes for each: its lower bound's position, its upper bound's, or whether it is in
// the range (the frontend's binary_search).
enum class search
{
  lower_bound,
  upper_bound,
  contains
};

// Checks the arguments and runs (or sizes) FindIf on the narrowest offsets that hold num_items.
template <typename InputIteratorT, typename OutputIteratorT, typename PredicateT, typename NumItemsT>
cudaError_t find_if(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                    PredicateT predicate, NumItemsT num_items, cudaStream_t stream)
{
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_out, true));
  return dispatch_offset(num_items, [&](auto offset) {
    using OffsetT = decltype(offset);
    return DispatchFind<InputIteratorT, OutputIteratorT, PredicateT, OffsetT, policy_hub<it_value_t<InputIteratorT>>,
                        item_count_t<NumItemsT>>::Dispatch(d_temp_storage, temp_storage_bytes, d_in, d_out, predicate,
                                                           offset, stream, item_count_of(num_items));
  });
}

// Checks the arguments and runs (or sizes) the search of many values: a transform of the values, the search on the
// narrowest offsets that hold range_num_items.
template <search SEARCH, typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT,
          typename ValuesNumItemsT, typename OutputIteratorT, typename CompareOpT>
cudaError_t bound(void* d_temp_storage, size_t& temp_storage_bytes, RangeIteratorT d_range,
                  RangeNumItemsT range_num_items, ValuesIteratorT d_values, ValuesNumItemsT values_num_items,
                  OutputIteratorT d_output, CompareOpT comp, cudaStream_t stream)
{
  static_assert(cuda::std::is_integral<RangeNumItemsT>::value && is_item_count_v<ValuesNumItemsT>,
                "DeviceFind takes the range's number of items as an integer, the values' as an integer or a "
                "strata::device_count");
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, values_num_items, d_values, d_output, false));
  if constexpr (cuda::std::is_signed<RangeNumItemsT>::value)
  {
    if (range_num_items < 0)
    {
      return cudaErrorInvalidValue;
    }
  }
  if (d_temp_storage == nullptr)
  {
    temp_storage_bytes = temporary_storage::EMPTY_SIZE;
    return cudaSuccess;
  }
  if (count_bound(values_num_items) > 0 && range_num_items > 0 && is_null_pointer(d_range))
  {
    return cudaErrorInvalidValue;
  }
  return dispatch_offset(range_num_items, [&](auto range_offset) {
    using OffsetT = decltype(range_offset);
    using BoundT  = bound_search<SEARCH == search::upper_bound, RangeIteratorT, OffsetT, CompareOpT>;
    const BoundT bound_of{d_range, range_offset, comp};
    if constexpr (SEARCH == search::contains)
    {
      return DeviceTransform::Transform(d_values, d_output, values_num_items,
                                        contains_value<RangeIteratorT, OffsetT, CompareOpT>{bound_of}, stream);
    }
    else
    {
      return DeviceTransform::Transform(d_values, d_output, values_num_items, bound_of, stream);
    }
  });
}
} // namespace find
} // namespace detail

struct DeviceFind
{
  // *d_out = the index of the first item of d_in for which scan_op holds, num_items where none does.
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename NumItemsT,
            detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t FindIf(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, ScanOpT scan_op, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceFind::FindIf");
    return detail::find::find_if(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op, num_items, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename NumItemsT,
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t FindIf(InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op, NumItemsT num_items,
                            const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(FindIf), d_in, d_out, scan_op, num_items);
  }

  // d_output[i] = the position of the first item of the sorted range not ordered before d_values[i] under comp.
  template <typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT, typename ValuesNumItemsT,
            typename OutputIteratorT, typename CompareOpT>
  static cudaError_t LowerBound(void* d_temp_storage, size_t& temp_storage_bytes, RangeIteratorT d_range,
                                RangeNumItemsT range_num_items, ValuesIteratorT d_values,
                                ValuesNumItemsT values_num_items, OutputIteratorT d_output, CompareOpT comp,
                                cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceFind::LowerBound");
    return detail::find::bound<detail::find::search::lower_bound>(d_temp_storage, temp_storage_bytes, d_range,
                                                                  range_num_items, d_values, values_num_items, d_output,
                                                                  comp, stream);
  }
  template <typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT, typename ValuesNumItemsT,
            typename OutputIteratorT, typename CompareOpT, typename EnvT = detail::default_env,
            detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t LowerBound(RangeIteratorT d_range, RangeNumItemsT range_num_items, ValuesIteratorT d_values,
                                ValuesNumItemsT values_num_items, OutputIteratorT d_output, CompareOpT comp,
                                const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(LowerBound), d_range, range_num_items, d_values,
                                     values_num_items, d_output, comp);
  }

  // d_output[i] = the position of the first item of the sorted range that d_values[i] is ordered before under comp.
  template <typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT, typename ValuesNumItemsT,
            typename OutputIteratorT, typename CompareOpT>
  static cudaError_t UpperBound(void* d_temp_storage, size_t& temp_storage_bytes, RangeIteratorT d_range,
                                RangeNumItemsT range_num_items, ValuesIteratorT d_values,
                                ValuesNumItemsT values_num_items, OutputIteratorT d_output, CompareOpT comp,
                                cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceFind::UpperBound");
    return detail::find::bound<detail::find::search::upper_bound>(d_temp_storage, temp_storage_bytes, d_range,
                                                                  range_num_items, d_values, values_num_items, d_output,
                                                                  comp, stream);
  }
  template <typename RangeIteratorT, typename RangeNumItemsT, typename ValuesIteratorT, typename ValuesNumItemsT,
            typename OutputIteratorT, typename CompareOpT, typename EnvT = detail::default_env,
            detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t UpperBound(RangeIteratorT d_range, RangeNumItemsT range_num_items, ValuesIteratorT d_values,
                                ValuesNumItemsT values_num_items, OutputIteratorT d_output, CompareOpT comp,
                                const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(UpperBound), d_range, range_num_items, d_values,
                                     values_num_items, d_output, comp);
  }
};

STRATA_NAMESPACE_END
