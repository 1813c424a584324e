// DeviceMerge: the stable merge of two sorted ranges, CUB's names and contracts.
//
//   strata::DeviceMerge::MergeKeys(d_temp, bytes, d_a, na, d_b, nb, d_out);                      // two-phase
//   strata::DeviceMerge::MergePairs(d_ka, d_va, na, d_kb, d_vb, nb, d_k, d_v, cuda::std::less<>{}, stream);
//
// Both ranges sorted by compare_op (a strict weak order; default less); the output holds their na + nb items in
// order, and among equal keys the first range's come first, each range's in their order (MergePairs moves each value
// with its key). The key type is the first range's value type (the second's keys are converted to it), the value type
// the first range's values'. The output must not overlap the inputs. Two launches: one thread per output tile boundary
// finds by merge path where the tiles' shares of the ranges start (an OffsetT each in temporary storage), then one
// block per output tile merges its share. Nothing synchronizes; no items: nothing is launched (and the size query
// answers 1 byte).
// Either count (or both) may lie in device memory: a strata::device_count in place of num_keys (num_pairs), whose
// bound its range holds; the tiles and the temporary storage are planned for the bounds, and the kernels read the
// counts.
// Errors (cudaErrorInvalidValue, before anything is launched): a negative count (bound); a null pointer among the
// inputs of a non-empty range or the outputs of a non-empty merge, or a null device count.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_merge.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/error.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace merge
{
// Checks the arguments and runs (or sizes) the merge on the narrowest offsets that hold both ranges' items. The value
// iterators are NullType* for keys only. Count1T, Count2T: an integer, or a strata::device_count (its bound checked
// and planned for, the count read by the kernels).
template <typename KeyIterator1T, typename ValueIterator1T, typename KeyIterator2T, typename ValueIterator2T,
          typename KeyOutputIteratorT, typename ValueOutputIteratorT, typename CompareOpT, typename Count1T,
          typename Count2T>
cudaError_t merge(void* d_temp_storage, size_t& temp_storage_bytes, KeyIterator1T keys1, ValueIterator1T values1,
                  Count1T num1, KeyIterator2T keys2, ValueIterator2T values2, Count2T num2, KeyOutputIteratorT keys_out,
                  ValueOutputIteratorT values_out, CompareOpT compare_op, cudaStream_t stream)
{
  using KeyT               = it_value_t<KeyIterator1T>;
  using ValueT             = non_void_value_t<ValueIterator1T, NullType>;
  constexpr bool KEYS_ONLY = cuda::std::is_same<ValueT, NullType>::value;
  static_assert(is_item_count_v<Count1T> && is_item_count_v<Count2T>,
                "DeviceMerge takes its counts as integers or strata::device_counts");
  // As the host-count forms take them: as int64_t (a count past its range is negative there, and refused).
  const auto count1 = static_cast<cuda::std::int64_t>(count_bound(num1));
  const auto count2 = static_cast<cuda::std::int64_t>(count_bound(num2));
  if (count1 < 0 || count2 < 0 || count1 > cuda::std::numeric_limits<cuda::std::int64_t>::max() - count2)
  {
    return cudaErrorInvalidValue;
  }
  if (d_temp_storage != nullptr)
  {
    bool null = (count1 > 0 && is_null_pointer(keys1)) || (count2 > 0 && is_null_pointer(keys2))
             || (count1 + count2 > 0 && is_null_pointer(keys_out)) || is_null_count(num1) || is_null_count(num2);
    if constexpr (!KEYS_ONLY)
    {
      null = null || (count1 > 0 && is_null_pointer(values1)) || (count2 > 0 && is_null_pointer(values2))
          || (count1 + count2 > 0 && is_null_pointer(values_out));
    }
    if (null)
    {
      return cudaErrorInvalidValue;
    }
  }
  return dispatch_offset(count1 + count2, [&](auto total) {
    using OffsetT = decltype(total);
    return DispatchMerge<KeyIterator1T, ValueIterator1T, KeyIterator2T, ValueIterator2T, KeyOutputIteratorT,
                         ValueOutputIteratorT, OffsetT, CompareOpT, KeyT, ValueT, policy_hub<KeyT, ValueT>,
                         item_count_t<Count1T>, item_count_t<Count2T>>::Dispatch(d_temp_storage, temp_storage_bytes,
                                                                                 keys1, values1,
                                                                                 static_cast<OffsetT>(count1), keys2,
                                                                                 values2, static_cast<OffsetT>(count2),
                                                                                 keys_out, values_out, compare_op,
                                                                                 stream, item_count_of(num1),
                                                                                 item_count_of(num2));
  });
}

// The forms that take a count in device memory: one of the two counts at least is a strata::device_count.
template <typename Count1T, typename Count2T>
struct takes_device_counts
    : cuda::std::bool_constant<is_device_count<Count1T>::value || is_device_count<Count2T>::value>
{};
template <typename Count1T, typename Count2T>
using enable_if_device_counts_t = cuda::std::enable_if_t<
  is_item_count_v<Count1T> && is_item_count_v<Count2T> && takes_device_counts<Count1T, Count2T>::value, int>;
} // namespace merge
} // namespace detail

struct DeviceMerge
{
  // keys_out = the stable merge of [keys_in1, + num_keys1) and [keys_in2, + num_keys2).
  template <typename KeyIteratorIn1, typename KeyIteratorIn2, typename KeyIteratorOut,
            typename CompareOp = cuda::std::less<>>
  static cudaError_t MergeKeys(void* d_temp_storage, size_t& temp_storage_bytes, KeyIteratorIn1 keys_in1,
                               cuda::std::int64_t num_keys1, KeyIteratorIn2 keys_in2, cuda::std::int64_t num_keys2,
                               KeyIteratorOut keys_out, CompareOp compare_op = {}, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE("strata::DeviceMerge::MergeKeys");
    return detail::merge::merge(d_temp_storage, temp_storage_bytes, keys_in1, static_cast<NullType*>(nullptr),
                                num_keys1, keys_in2, static_cast<NullType*>(nullptr), num_keys2, keys_out,
                                static_cast<NullType*>(nullptr), compare_op, stream);
  }
  template <typename KeyIteratorIn1, typename KeyIteratorIn2, typename KeyIteratorOut,
            typename CompareOp = cuda::std::less<>, typename EnvT = detail::default_env,
            detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t MergeKeys(KeyIteratorIn1 keys_in1, cuda::std::int64_t num_keys1, KeyIteratorIn2 keys_in2,
                               cuda::std::int64_t num_keys2, KeyIteratorOut keys_out, CompareOp compare_op = {},
                               const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(MergeKeys), keys_in1, num_keys1, keys_in2, num_keys2,
                                     keys_out, compare_op);
  }

  // The same with either count (or both) in device memory: a strata::device_count, whose bound the range holds.
  template <typename KeyIteratorIn1, typename Count1T, typename KeyIteratorIn2, typename Count2T,
            typename KeyIteratorOut, typename CompareOp = cuda::std::less<>,
            detail::merge::enable_if_device_counts_t<Count1T, Count2T> = 0>
  static cudaError_t MergeKeys(void* d_temp_storage, size_t& temp_storage_bytes, KeyIteratorIn1 keys_in1,
                               Count1T num_keys1, KeyIteratorIn2 keys_in2, Count2T num_keys2, KeyIteratorOut keys_out,
                               CompareOp compare_op = {}, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE("strata::DeviceMerge::MergeKeys");
    return detail::merge::merge(d_temp_storage, temp_storage_bytes, keys_in1, static_cast<NullType*>(nullptr),
                                num_keys1, keys_in2, static_cast<NullType*>(nullptr), num_keys2, keys_out,
                                static_cast<NullType*>(nullptr), compare_op, stream);
  }
  template <typename KeyIteratorIn1, typename Count1T, typename KeyIteratorIn2, typename Count2T,
            typename KeyIteratorOut, typename CompareOp = cuda::std::less<>, typename EnvT = detail::default_env,
            detail::merge::enable_if_device_counts_t<Count1T, Count2T> = 0, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t MergeKeys(KeyIteratorIn1 keys_in1, Count1T num_keys1, KeyIteratorIn2 keys_in2, Count2T num_keys2,
                               KeyIteratorOut keys_out, CompareOp compare_op = {}, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(MergeKeys), keys_in1, num_keys1, keys_in2, num_keys2,
                                     keys_out, compare_op);
  }

  // keys_out / values_out = the stable merge of the two ranges of pairs, each value moving with its key.
  template <typename KeyIteratorIn1, typename ValueIteratorIn1, typename KeyIteratorIn2, typename ValueIteratorIn2,
            typename KeyIteratorOut, typename ValueIteratorOut, typename CompareOp = cuda::std::less<>>
  static cudaError_t MergePairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyIteratorIn1 keys_in1,
                                ValueIteratorIn1 values_in1, cuda::std::int64_t num_pairs1, KeyIteratorIn2 keys_in2,
                                ValueIteratorIn2 values_in2, cuda::std::int64_t num_pairs2, KeyIteratorOut keys_out,
                                ValueIteratorOut values_out, CompareOp compare_op = {}, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE("strata::DeviceMerge::MergePairs");
    return detail::merge::merge(d_temp_storage, temp_storage_bytes, keys_in1, values_in1, num_pairs1, keys_in2,
                                values_in2, num_pairs2, keys_out, values_out, compare_op, stream);
  }
  template <typename KeyIteratorIn1, typename ValueIteratorIn1, typename KeyIteratorIn2, typename ValueIteratorIn2,
            typename KeyIteratorOut, typename ValueIteratorOut, typename CompareOp = cuda::std::less<>,
            typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t MergePairs(KeyIteratorIn1 keys_in1, ValueIteratorIn1 values_in1, cuda::std::int64_t num_pairs1,
                                KeyIteratorIn2 keys_in2, ValueIteratorIn2 values_in2, cuda::std::int64_t num_pairs2,
                                KeyIteratorOut keys_out, ValueIteratorOut values_out, CompareOp compare_op = {},
                                const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(MergePairs), keys_in1, values_in1, num_pairs1,
                                     keys_in2, values_in2, num_pairs2, keys_out, values_out, compare_op);
  }
  // The same with either count (or both) in device memory.
  template <typename KeyIteratorIn1, typename ValueIteratorIn1, typename Count1T, typename KeyIteratorIn2,
            typename ValueIteratorIn2, typename Count2T, typename KeyIteratorOut, typename ValueIteratorOut,
            typename CompareOp = cuda::std::less<>, detail::merge::enable_if_device_counts_t<Count1T, Count2T> = 0>
  static cudaError_t MergePairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyIteratorIn1 keys_in1,
                                ValueIteratorIn1 values_in1, Count1T num_pairs1, KeyIteratorIn2 keys_in2,
                                ValueIteratorIn2 values_in2, Count2T num_pairs2, KeyIteratorOut keys_out,
                                ValueIteratorOut values_out, CompareOp compare_op = {}, cudaStream_t stream = nullptr)
  {
    STRATA_NVTX_RANGE("strata::DeviceMerge::MergePairs");
    return detail::merge::merge(d_temp_storage, temp_storage_bytes, keys_in1, values_in1, num_pairs1, keys_in2,
                                values_in2, num_pairs2, keys_out, values_out, compare_op, stream);
  }
  template <typename KeyIteratorIn1, typename ValueIteratorIn1, typename Count1T, typename KeyIteratorIn2,
            typename ValueIteratorIn2, typename Count2T, typename KeyIteratorOut, typename ValueIteratorOut,
            typename CompareOp = cuda::std::less<>, typename EnvT = detail::default_env,
            detail::merge::enable_if_device_counts_t<Count1T, Count2T> = 0, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t MergePairs(KeyIteratorIn1 keys_in1, ValueIteratorIn1 values_in1, Count1T num_pairs1,
                                KeyIteratorIn2 keys_in2, ValueIteratorIn2 values_in2, Count2T num_pairs2,
                                KeyIteratorOut keys_out, ValueIteratorOut values_out, CompareOp compare_op = {},
                                const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(MergePairs), keys_in1, values_in1, num_pairs1,
                                     keys_in2, values_in2, num_pairs2, keys_out, values_out, compare_op);
  }
};

STRATA_NAMESPACE_END
