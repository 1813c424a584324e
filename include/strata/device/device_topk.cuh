// DeviceTopK: the k smallest or largest keys of a sequence (and the values beside them), without sorting it.
//
//   size_t bytes = 0;
//   strata::DeviceTopK::MaxKeys(nullptr, bytes, d_keys, d_top, n, k);                        // size query
//   cudaMalloc(&d_temp, bytes);
//   strata::DeviceTopK::MaxKeys(d_temp, bytes, d_keys, d_top, n, k, strata::topk_order::sorted, stream);
//   strata::DeviceTopK::MinPairs(d_keys, d_top, d_values, d_top_values, n, k);               // single-phase
//
// MinKeys / MinPairs select the k smallest keys, MaxKeys / MaxPairs the k largest; the Pairs forms move the value at
// each selected key's position with it. Keys: the types DeviceRadixSort sorts without a decomposer (integers, bool,
// float, double, __half, __nv_bfloat16), ordered as it orders them: -0.0 and +0.0 are equal keys, NaNs go by their
// bits (positive NaNs above +inf, negative ones below -inf: MaxKeys takes positive NaNs first, MinKeys negative ones).
// Values: any trivially copyable type. 1 <= k <= num_items, any k (k == 0 or num_items == 0: nothing is written). The
// outputs hold k items each and must not overlap the inputs. num_items and k are integers on the host.
//
// Ties are deterministic: among the keys equal to the k-th selected one, those at the smallest input positions are
// selected, so the selected set is a function of the input alone. The order of the output (topk_order, the argument
// before the stream):
// - topk_order::sorted: ascending keys for Min, descending for Max, equal keys in input order (a stable sort of the
//   selected items by key).
// - topk_order::unsorted (the default): the order in which the radix select finds the items. A key's sort image is
//   its bits in key order (DeviceRadixSort's, complemented for Max), read in digits of RADIX_BITS bits (11 in every
//   tuning: detail::topk::policy_hub), the most significant first. Round 0's candidates are all items, and m = k
//   remain to select. Round r takes digit r of each candidate, finds the digit value b at which the count of
//   candidates with digit <= b first reaches m, and selects the candidates with digit < b (say c of them). If those
//   with digit <= b number exactly m, or digit r is the last, the round also selects the first m - c candidates with
//   digit b and the selection ends; otherwise those with digit b are round r + 1's candidates and m -= c. The output
//   holds round 0's selections, round 1's, ..., each round's digit-below-b items in input order, and after the last
//   round's the digit-b items it selects, in input order. Each round's keys are smaller (Min) or larger (Max) than the
//   next round's, and equal keys are in input order. The order is a function of the input and the digit width.
//
// Complexity: a radix select. One read of the keys counts their first digit; then per digit one pass over that
// digit's candidates (every key in the first: a second read of the input), which writes the selected items and the
// next digit's candidates to temporary storage; candidates more than an eighth of the input are read again from the
// input instead. Random 4-byte keys read the input twice and touch about 1/2048 of it afterwards. A sorted result adds
// a radix sort of the k selected items. Launches: 2 + ceil(key bits / 11), and the sort's; nothing synchronizes (every
// count stays in device memory), and the work can be captured into a CUDA graph. Temporary storage: a quarter of the
// input's keys (and values) for the candidates (none for 8-bit keys), 16 bytes a round per tile of 64 bytes of keys
// (36 past 2^31 items), and for a sorted result k keys (and values) and the sort's.
// Errors (cudaErrorInvalidValue, before anything is launched or written): a negative num_items or k, k > num_items, an
// order that is neither topk_order value, a null pointer among the inputs and outputs with k > 0, too little temporary
// storage.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_topk.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/error.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The order of DeviceTopK's output: the radix select's (unsorted, the default), or by key (sorted).
enum class topk_order
{
  unsorted,
  sorted,
};

namespace detail
{
namespace topk
{
template <typename NumItemsT, typename NumOutItemsT>
using enable_if_counts_t =
  cuda::std::enable_if_t<cuda::std::is_integral<NumItemsT>::value && !cuda::std::is_same<NumItemsT, bool>::value
                           && cuda::std::is_integral<NumOutItemsT>::value
                           && !cuda::std::is_same<NumOutItemsT, bool>::value,
                         int>;

// Checks the arguments and runs (or sizes) the selection on the narrowest offsets that hold num_items. The value
// iterators are NullType* for keys only.
template <bool SELECT_MAX, typename KeyInputIteratorT, typename KeyOutputIteratorT, typename ValueInputIteratorT,
          typename ValueOutputIteratorT, typename NumItemsT, typename NumOutItemsT>
cudaError_t run(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT keys_in,
                KeyOutputIteratorT keys_out, ValueInputIteratorT values_in, ValueOutputIteratorT values_out,
                NumItemsT num_items, NumOutItemsT k, topk_order order, cudaStream_t stream)
{
  constexpr bool KEYS_ONLY = cuda::std::is_same<ValueInputIteratorT, NullType*>::value;
  if constexpr (cuda::std::is_signed<NumItemsT>::value)
  {
    if (num_items < 0)
    {
      return cudaErrorInvalidValue;
    }
  }
  if constexpr (cuda::std::is_signed<NumOutItemsT>::value)
  {
    if (k < 0)
    {
      return cudaErrorInvalidValue;
    }
  }
  if (static_cast<unsigned long long>(k) > static_cast<unsigned long long>(num_items)
      || (order != topk_order::unsorted && order != topk_order::sorted))
  {
    return cudaErrorInvalidValue;
  }
  if (d_temp_storage != nullptr && k > 0)
  {
    bool null = is_null_pointer(keys_in) || is_null_pointer(keys_out);
    if constexpr (!KEYS_ONLY)
    {
      null = null || is_null_pointer(values_in) || is_null_pointer(values_out);
    }
    if (null)
    {
      return cudaErrorInvalidValue;
    }
  }
  return dispatch_offset(num_items, [&](auto offset) {
    using OffsetT = decltype(offset);
    return DispatchTopK<KeyInputIteratorT, KeyOutputIteratorT, ValueInputIteratorT, ValueOutputIteratorT, OffsetT,
                        SELECT_MAX>::Dispatch(d_temp_storage, temp_storage_bytes, keys_in, keys_out, values_in,
                                              values_out, offset, static_cast<OffsetT>(k), order == topk_order::sorted,
                                              stream);
  });
}
} // namespace topk
} // namespace detail

struct DeviceTopK
{
  // MinKeys and MaxKeys: d_keys_out[0, k) = the k smallest (largest) of d_keys_in[0, num_items), in `order`.
#define STRATA_DETAIL_TOPK_KEYS(NAME, SELECT_MAX)                                                                     \
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename NumItemsT, typename NumOutItemsT,       \
            detail::topk::enable_if_counts_t<NumItemsT, NumOutItemsT> = 0>                                            \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in,              \
                          KeyOutputIteratorT d_keys_out, NumItemsT num_items, NumOutItemsT k,                         \
                          topk_order order = topk_order::unsorted, cudaStream_t stream = 0)                           \
  {                                                                                                                   \
    STRATA_NVTX_RANGE("strata::DeviceTopK::" #NAME);                                                                  \
    return detail::topk::run<SELECT_MAX>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,                   \
                                         static_cast<NullType*>(nullptr), static_cast<NullType*>(nullptr), num_items, \
                                         k, order, stream);                                                           \
  }                                                                                                                   \
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename NumItemsT, typename NumOutItemsT,       \
            typename EnvT = detail::default_env, detail::topk::enable_if_counts_t<NumItemsT, NumOutItemsT> = 0,       \
            detail::enable_if_env_t<EnvT> = 0>                                                                        \
  static cudaError_t NAME(KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out, NumItemsT num_items,            \
                          NumOutItemsT k, topk_order order = topk_order::unsorted, const EnvT& env = {})              \
  {                                                                                                                   \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_keys_in, d_keys_out, num_items, k, order); \
  }

  // MinPairs and MaxPairs: the same keys, each with the value at its position in d_values_in.
#define STRATA_DETAIL_TOPK_PAIRS(NAME, SELECT_MAX)                                                                     \
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename ValueInputIteratorT,                     \
            typename ValueOutputIteratorT, typename NumItemsT, typename NumOutItemsT,                                  \
            detail::topk::enable_if_counts_t<NumItemsT, NumOutItemsT> = 0>                                             \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in,               \
                          KeyOutputIteratorT d_keys_out, ValueInputIteratorT d_values_in,                              \
                          ValueOutputIteratorT d_values_out, NumItemsT num_items, NumOutItemsT k,                      \
                          topk_order order = topk_order::unsorted, cudaStream_t stream = 0)                            \
  {                                                                                                                    \
    STRATA_NVTX_RANGE("strata::DeviceTopK::" #NAME);                                                                   \
    return detail::topk::run<SELECT_MAX>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,       \
                                         d_values_out, num_items, k, order, stream);                                   \
  }                                                                                                                    \
  template <typename KeyInputIteratorT, typename KeyOutputIteratorT, typename ValueInputIteratorT,                     \
            typename ValueOutputIteratorT, typename NumItemsT, typename NumOutItemsT,                                  \
            typename EnvT = detail::default_env, detail::topk::enable_if_counts_t<NumItemsT, NumOutItemsT> = 0,        \
            detail::enable_if_env_t<EnvT> = 0>                                                                         \
  static cudaError_t NAME(KeyInputIteratorT d_keys_in, KeyOutputIteratorT d_keys_out, ValueInputIteratorT d_values_in, \
                          ValueOutputIteratorT d_values_out, NumItemsT num_items, NumOutItemsT k,                      \
                          topk_order order = topk_order::unsorted, const EnvT& env = {})                               \
  {                                                                                                                    \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_keys_in, d_keys_out, d_values_in,           \
                                     d_values_out, num_items, k, order);                                               \
  }

  STRATA_DETAIL_TOPK_KEYS(MinKeys, false)
  STRATA_DETAIL_TOPK_KEYS(MaxKeys, true)
  STRATA_DETAIL_TOPK_PAIRS(MinPairs, false)
  STRATA_DETAIL_TOPK_PAIRS(MaxPairs, true)

#undef STRATA_DETAIL_TOPK_KEYS
#undef STRATA_DETAIL_TOPK_PAIRS
};

STRATA_NAMESPACE_END
