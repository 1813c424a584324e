// DeviceMergeSort: a stable merge sort of keys, or of keys with values, under any strict weak order, with CUB's
// two-phase temporary-storage API (device/dispatch/dispatch_merge_sort.cuh: tiles sorted by BlockMergeSort, then
// merge passes in which each tile finds its share of the merge by merge path).
//
//   size_t bytes = 0;
//   strata::DeviceMergeSort::SortPairs(nullptr, bytes, d_keys, d_values, n, cuda::std::less<>{});   // size query
//   cudaMalloc(&d_temp, bytes);
//   strata::DeviceMergeSort::SortPairs(d_temp, bytes, d_keys, d_values, n, cuda::std::less<>{}, stream);
//
// compare_op(a, b) is true when a goes before b: any strict weak order on the key type, callable on the device.
// Every form is stable (keys that compare equal keep their input order): SortKeys and SortPairs as well as the
// StableSort* ones, which exist to say so at the call site, as in CUB. Keys and values are read and written through
// any random-access iterators; the in-place forms and the output iterators of the *Copy forms are read back by the
// merge passes, so they must be readable too. The *Copy forms leave their inputs untouched (the input may also be the
// output). num_items may be any integer type; more than 2^31 items take 64-bit offsets.
// Complexity: O(n log n) comparisons; 1 + ceil(log2(n / tile)) launches; temporary storage of n keys and n values
// (none for a single tile).
// Every call also has a single-phase form, without the temporary-storage arguments, whose last argument (defaulted)
// is a stream or a policy (strata/device/dispatch/single_phase.cuh):
//
//   strata::DeviceMergeSort::SortKeys(d_keys, n, cuda::std::greater<>{}, strata::par.on(stream));
//
// Errors (cudaErrorInvalidValue, before anything is launched or written): negative num_items, too small
// temp_storage_bytes, a null key or value pointer with num_items > 0. No items: the query asks for one byte and
// nothing is written.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_merge_sort.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/error.cuh>
#include <strata/util/uninitialized.cuh>

STRATA_NAMESPACE_BEGIN
struct DeviceMergeSort
{
  // Each entry point is written once, as its two-phase form and its single-phase form (the same arguments without
  // the temporary storage, with an optional environment, a stream or a policy, instead of the stream:
  // strata/device/dispatch/single_phase.cuh; without one, strata's pool on the default stream). Every sort is
  // stable: StableSortX is SortX.
#define STRATA_DETAIL_MERGE_SORT_PAIRS(NAME)                                                                          \
  template <typename KeyIteratorT, typename ValueIteratorT, typename OffsetT, typename CompareOpT,                    \
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<OffsetT, EnvT> = 0>                 \
  static cudaError_t NAME(KeyIteratorT d_keys, ValueIteratorT d_items, OffsetT num_items, CompareOpT compare_op,      \
                          const EnvT& env = {})                                                                       \
  {                                                                                                                   \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_keys, d_items, num_items, compare_op);     \
  }                                                                                                                   \
  template <typename KeyIteratorT, typename ValueIteratorT, typename OffsetT, typename CompareOpT>                    \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, KeyIteratorT d_keys,                      \
                          ValueIteratorT d_items, OffsetT num_items, CompareOpT compare_op, cudaStream_t stream = 0)  \
  {                                                                                                                   \
    STRATA_NVTX_RANGE("strata::DeviceMergeSort::" #NAME);                                                             \
    return sort(d_temp_storage, temp_storage_bytes, d_keys, d_items, d_keys, d_items, num_items, compare_op, stream); \
  }

#define STRATA_DETAIL_MERGE_SORT_KEYS(NAME)                                                                         \
  template <typename KeyIteratorT, typename OffsetT, typename CompareOpT>                                           \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, KeyIteratorT d_keys, OffsetT num_items, \
                          CompareOpT compare_op, cudaStream_t stream = 0)                                           \
  {                                                                                                                 \
    STRATA_NVTX_RANGE("strata::DeviceMergeSort::" #NAME);                                                           \
    return sort(d_temp_storage, temp_storage_bytes, d_keys, no_items(), d_keys, no_items(), num_items, compare_op,  \
                stream);                                                                                            \
  }                                                                                                                 \
  template <typename KeyIteratorT, typename OffsetT, typename CompareOpT, typename EnvT = detail::default_env,      \
            detail::enable_if_single_phase_t<OffsetT, EnvT> = 0>                                                    \
  static cudaError_t NAME(KeyIteratorT d_keys, OffsetT num_items, CompareOpT compare_op, const EnvT& env = {})      \
  {                                                                                                                 \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_keys, num_items, compare_op);            \
  }

#define STRATA_DETAIL_MERGE_SORT_KEYS_COPY(NAME)                                                                    \
  template <typename KeyInputIteratorT, typename KeyIteratorT, typename OffsetT, typename CompareOpT>               \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_input_keys,         \
                          KeyIteratorT d_output_keys, OffsetT num_items, CompareOpT compare_op,                     \
                          cudaStream_t stream = 0)                                                                  \
  {                                                                                                                 \
    STRATA_NVTX_RANGE("strata::DeviceMergeSort::" #NAME);                                                           \
    return sort(d_temp_storage, temp_storage_bytes, d_input_keys, no_items(), d_output_keys, no_items(), num_items, \
                compare_op, stream);                                                                                \
  }                                                                                                                 \
  template <typename KeyInputIteratorT, typename KeyIteratorT, typename OffsetT, typename CompareOpT,               \
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<OffsetT, EnvT> = 0>               \
  static cudaError_t NAME(KeyInputIteratorT d_input_keys, KeyIteratorT d_output_keys, OffsetT num_items,            \
                          CompareOpT compare_op, const EnvT& env = {})                                              \
  {                                                                                                                 \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_input_keys, d_output_keys, num_items,    \
                                     compare_op);                                                                   \
  }

  //! Sorts d_keys in place, d_items[i] moving with d_keys[i].
  STRATA_DETAIL_MERGE_SORT_PAIRS(SortPairs)
  STRATA_DETAIL_MERGE_SORT_PAIRS(StableSortPairs)
  //! Sorts d_keys in place.
  STRATA_DETAIL_MERGE_SORT_KEYS(SortKeys)
  STRATA_DETAIL_MERGE_SORT_KEYS(StableSortKeys)
  //! Sorts d_input_keys into d_output_keys.
  STRATA_DETAIL_MERGE_SORT_KEYS_COPY(SortKeysCopy)
  STRATA_DETAIL_MERGE_SORT_KEYS_COPY(StableSortKeysCopy)

#undef STRATA_DETAIL_MERGE_SORT_PAIRS
#undef STRATA_DETAIL_MERGE_SORT_KEYS
#undef STRATA_DETAIL_MERGE_SORT_KEYS_COPY

  //! Sorts d_input_keys into d_output_keys, d_input_items[i] moving with d_input_keys[i] into d_output_items.
  template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyIteratorT, typename ValueIteratorT,
            typename OffsetT, typename CompareOpT>
  static cudaError_t SortPairsCopy(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_input_keys,
                                   ValueInputIteratorT d_input_items, KeyIteratorT d_output_keys,
                                   ValueIteratorT d_output_items, OffsetT num_items, CompareOpT compare_op,
                                   cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceMergeSort::SortPairsCopy");
    return sort(d_temp_storage, temp_storage_bytes, d_input_keys, d_input_items, d_output_keys, d_output_items,
                num_items, compare_op, stream);
  }
  template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyIteratorT, typename ValueIteratorT,
            typename OffsetT, typename CompareOpT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<OffsetT, EnvT> = 0>
  static cudaError_t SortPairsCopy(KeyInputIteratorT d_input_keys, ValueInputIteratorT d_input_items,
                                   KeyIteratorT d_output_keys, ValueIteratorT d_output_items, OffsetT num_items,
                                   CompareOpT compare_op, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(SortPairsCopy), d_input_keys, d_input_items,
                                     d_output_keys, d_output_items, num_items, compare_op);
  }

private:
  // The value iterators of a keys-only sort.
  static NullType* no_items()
  {
    return nullptr;
  }

  template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyIteratorT, typename ValueIteratorT,
            typename NumItemsT, typename CompareOpT>
  static cudaError_t sort(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_input_keys,
                          ValueInputIteratorT d_input_items, KeyIteratorT d_output_keys, ValueIteratorT d_output_items,
                          NumItemsT num_items, CompareOpT compare_op, cudaStream_t stream)
  {
    STRATA_RETURN_IF_ERROR(detail::check_arguments(d_temp_storage, num_items, d_input_keys, d_output_keys, false));
    if constexpr (!cuda::std::is_same<ValueIteratorT, NullType*>::value)
    {
      STRATA_RETURN_IF_ERROR(detail::check_arguments(d_temp_storage, num_items, d_input_items, d_output_items, false));
    }
    return detail::dispatch_offset(num_items, [&](auto offset) {
      using OffsetT = decltype(offset);
      return DispatchMergeSort<
        KeyInputIteratorT, ValueInputIteratorT, KeyIteratorT, ValueIteratorT, OffsetT, CompareOpT,
        detail::merge_sort::policy_hub<detail::merge_sort::key_t<KeyIteratorT, KeyInputIteratorT>,
                                       detail::merge_sort::key_t<ValueIteratorT, ValueInputIteratorT>>,
        detail::item_count_t<NumItemsT>>::Dispatch(d_temp_storage, temp_storage_bytes, d_input_keys, d_input_items,
                                                   d_output_keys, d_output_items, offset, compare_op, stream,
                                                   detail::item_count_of(num_items));
    });
  }
};

STRATA_NAMESPACE_END
