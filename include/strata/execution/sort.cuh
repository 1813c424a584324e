// Frontend sorts: std-like calls over DeviceRadixSort and DeviceMergeSort, temporary storage from the policy's
// allocator. They sort in place, never synchronize the host (except for a range in host-accessible memory, such as a
// universal_vector: strata/execution/host_value.cuh) and may be captured into a CUDA graph; is_sorted returns a host
// value (it synchronizes the policy's stream, and only it) and is_sorted_until an iterator.
//
//   strata::sort(strata::par.on(stream), v.begin(), v.end());                              // radix sort, ascending
//   strata::sort(strata::par.on(stream), v.begin(), v.end(), cuda::std::greater<>{});      // radix sort, descending
//   strata::stable_sort_by_key(strata::par.on(stream), keys, keys + n, values, by_name{});  // merge sort
//   bool ok = strata::is_sorted(strata::par.on(stream), v.begin(), v.end());
//   strata::partial_sort(strata::par.on(stream), v.begin(), v.begin() + 10, v.end());  // the 10 smallest, in order
//   strata::top_k(strata::par.on(stream), v.begin(), v.end(), top.begin(), 10);          // the 10 largest, to top
//
// Which sort runs:
// - DeviceRadixSort where it gives the comparator's order: keys of an arithmetic type it sorts (integers and bool of
//   1, 2, 4 or 8 bytes, float, double, __half, __nv_bfloat16), no comparator or a less / greater (cuda::std::, std::
//   or thrust::, of the key type or transparent), and keys (and values) in contiguous device memory (raw pointers,
//   thrust::device_ptr, device_vector iterators). Floating-point keys are ordered as operator< orders them: -0.0 and
//   +0.0 are equal (a stable sort keeps their input order, each zero keeps its sign bit).
// - DeviceMergeSort otherwise: any strict weak order callable on the device, any random-access iterators that can
//   be read and written (zip, permutation, reverse iterators ...).
// Both are stable, so sort and stable_sort (and the by-key pairs) run the same code; sort promises no stability.
// NaN keys are not ordered by operator<; the radix sort puts them by their bits (after +inf, before -inf for
// negative ones; a descending sort reverses that order: positive NaNs first, negative ones last), the merge sort
// wherever the comparator's answers take them.
//
// Temporary storage, one allocation per call from the policy's allocator, given back in stream order: the radix
// sort a second buffer of n keys (and n values) and its digit state; the merge sort n keys (and n values), none for
// one tile; is_sorted and is_sorted_until a reduction's partials. Complexity: the radix sort reads and writes the
// keys (and values) once per 8 bits of key, the merge sort O(n log n) comparisons; is_sorted reads each item twice.
//
// An empty range (or one of a single item) returns at once, touching neither the device nor the allocator. Errors throw
// strata::cuda_error naming the algorithm ("strata::sort: ..."); bad arguments (a policy whose stream belongs to
// another device than the current one among them: cudaErrorInvalidValue) are found before anything is launched, and
// leave cudaGetLastError() clean. Thrust's entry points given strata's policy (thrust::sort(strata::par.on(s), ...),
// stable_sort, sort_by_key, stable_sort_by_key, is_sorted, is_sorted_until) find these by argument-dependent lookup.
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_merge_sort.cuh>
#include <strata/device/device_radix_sort.cuh>
#include <strata/device/device_topk.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/execution/host_value.cuh>
#include <strata/execution/iterators.cuh>
#include <strata/execution/policy.cuh>
#include <strata/execution/reduce.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/cuda_error.cuh>
#include <strata/util/double_buffer.cuh>
#include <strata/util/error.cuh>
#include <strata/util/temporary_storage.cuh>

#include <cuda/functional>
#include <cuda/std/functional>
#include <cuda/std/iterator>

#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <functional>
#include <type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace frontend
{
// -- choosing the sort ----------------------------------------------------------------------------------------

enum class sort_algorithm
{
  radix_ascending,
  radix_descending,
  merge
};

// Key types DeviceRadixSort sorts without a decomposer.
template <typename KeyT>
constexpr bool is_radix_key_v = (std::is_integral<KeyT>::value || std::is_same<KeyT, float>::value
                                 || std::is_same<KeyT, double>::value || std::is_same<KeyT, __half>::value
                                 || std::is_same<KeyT, __nv_bfloat16>::value)
                             && (sizeof(KeyT) == 1 || sizeof(KeyT) == 2 || sizeof(KeyT) == 4 || sizeof(KeyT) == 8);

// The order a comparator puts keys of KeyT in, where a radix sort can give it: less (ascending) and greater
// (descending) of KeyT itself or transparent. A less of another type is not one of them (less<int> on unsigned keys
// compares converted values). thrust::less and thrust::greater are cuda::std's.
template <typename CompareT, typename KeyT>
constexpr sort_algorithm radix_order_of()
{
  if constexpr (cuda::std::is_same<CompareT, cuda::std::less<KeyT>>::value
                || cuda::std::is_same<CompareT, cuda::std::less<void>>::value
                || cuda::std::is_same<CompareT, std::less<KeyT>>::value
                || cuda::std::is_same<CompareT, std::less<void>>::value)
  {
    return sort_algorithm::radix_ascending;
  }
  else if constexpr (cuda::std::is_same<CompareT, cuda::std::greater<KeyT>>::value
                     || cuda::std::is_same<CompareT, cuda::std::greater<void>>::value
                     || cuda::std::is_same<CompareT, std::greater<KeyT>>::value
                     || cuda::std::is_same<CompareT, std::greater<void>>::value)
  {
    return sort_algorithm::radix_descending;
  }
  else
  {
    return sort_algorithm::merge;
  }
}

// Whether IteratorT stands for contiguous device memory of its own, writable value type (the frontend unwraps it to
// a raw pointer): what the radix sort's buffers must be.
template <typename IteratorT>
constexpr bool is_writable_contiguous()
{
  if constexpr (std::is_void<IteratorT>::value)
  {
    return true; // no values
  }
  else
  {
    return std::is_same<unwrapped_t<IteratorT>, std::remove_cv_t<iter_value_t<IteratorT>>*>::value;
  }
}

// The sort that runs for keys KeyIt, values ValueIt (void: keys only) and comparator CompareT.
template <typename KeyIt, typename ValueIt, typename CompareT>
constexpr sort_algorithm sort_algorithm_for()
{
  using KeyT = std::remove_cv_t<iter_value_t<KeyIt>>;
  if constexpr (is_radix_key_v<KeyT> && is_writable_contiguous<KeyIt>() && is_writable_contiguous<ValueIt>())
  {
    return radix_order_of<CompareT, KeyT>();
  }
  else
  {
    return sort_algorithm::merge;
  }
}

template <typename KeyIt, typename ValueIt, typename CompareT>
constexpr sort_algorithm sort_algorithm_v = sort_algorithm_for<KeyIt, ValueIt, CompareT>();

// The comparator the device calls: std::less and std::greater, whose operator() is host-only, become cuda::std's
// (the same order); every other comparator is called as given.
template <typename CompareT>
struct device_comparator
{
  using type = CompareT;
  static type get(CompareT comp)
  {
    return comp;
  }
};
template <typename T>
struct device_comparator<std::less<T>>
{
  using type = cuda::std::less<T>;
  static type get(std::less<T>)
  {
    return type{};
  }
};
template <typename T>
struct device_comparator<std::greater<T>>
{
  using type = cuda::std::greater<T>;
  static type get(std::greater<T>)
  {
    return type{};
  }
};

template <typename CompareT>
typename device_comparator<CompareT>::type to_device(CompareT comp)
{
  return device_comparator<CompareT>::get(comp);
}

// -- the radix sort in place ------------------------------------------------------------------------------------

// Runs a DoubleBuffer sort on the caller's arrays d_keys (and d_values; ValueT NullType for keys only) in one
// allocation from the policy's allocator: the sort's own storage (and copy_back's, the larger of the two) and a
// second buffer of `items` keys (and values). sort(d_temp, bytes, keys, values, stream) is the two-phase sort;
// copy_back(d_temp, bytes, keys, values, stream) the two-phase move of the result back to the caller's arrays, run
// where the passes ended in the second buffer.
template <typename PolicyT, typename KeyT, typename ValueT, typename SortT, typename CopyBackT>
cudaError_t sort_in_place_through(const PolicyT& policy, KeyT* d_keys, ValueT* d_values, std::size_t items, SortT sort,
                                  CopyBackT copy_back)
{
  constexpr bool KEYS_ONLY = std::is_same<ValueT, NullType>::value;
  return run_single_phase(policy, [&](void* d_temp, std::size_t& bytes, cudaStream_t stream) -> cudaError_t {
    DoubleBuffer<KeyT> keys(d_keys, nullptr);
    DoubleBuffer<ValueT> values(d_values, nullptr);
    std::size_t sort_bytes = 0;
    std::size_t copy_bytes = 0;
    STRATA_RETURN_IF_ERROR(sort(nullptr, sort_bytes, keys, values, stream));
    STRATA_RETURN_IF_ERROR(copy_back(nullptr, copy_bytes, d_keys, d_values, stream));

    temporary_storage::layout<3> layout;
    auto sort_storage  = layout.get_slot(0)->create_alias<char>(sort_bytes > copy_bytes ? sort_bytes : copy_bytes);
    auto keys_second   = layout.get_slot(1)->create_alias<KeyT>(items);
    auto values_second = layout.get_slot(2)->create_alias<ValueT>(KEYS_ONLY ? 0 : items);
    bool mapped        = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp, bytes, mapped));
    if (!mapped)
    {
      return cudaSuccess;
    }
    keys.d_buffers[1] = keys_second.get();
    if constexpr (!KEYS_ONLY)
    {
      values.d_buffers[1] = values_second.get();
    }
    STRATA_RETURN_IF_ERROR(sort(sort_storage.get(), sort_bytes, keys, values, stream));
    // Pair sorts move keys and values together: the keys' selector tells where both ended.
    if (keys.selector != 0)
    {
      return copy_back(sort_storage.get(), copy_bytes, keys.Current(), values.Current(), stream);
    }
    return cudaSuccess;
  });
}

// Sorts d_keys[0, n) (and d_values with them; ValueT NullType for keys only) in place with DeviceRadixSort, in one
// allocation from the policy's allocator: the sort's own storage and a second buffer of n keys (and n values).
//
// Why the DoubleBuffer form: it takes the caller's array as one buffer and the temporary one as the other and leaves
// the result in the buffer where the last digit pass ends, which is the caller's array for an even number of passes
// (2-, 4- and 8-byte keys: 2, 4, 8 passes of 8 bits): no copy, and n keys (and values) of temporary storage. Only
// 1-byte keys end in the temporary buffer and are copied back (one byte per key). The in/out form into a temporary
// buffer would need that buffer and the third buffer the in/out form keeps internally (2n keys of storage), and a
// copy back of every key and value after every sort.
template <bool DESCENDING, typename PolicyT, typename KeyT, typename ValueT>
cudaError_t radix_sort_in_place(const PolicyT& policy, KeyT* d_keys, ValueT* d_values, std::ptrdiff_t n)
{
  constexpr bool KEYS_ONLY = std::is_same<ValueT, NullType>::value;
  constexpr int END_BIT    = static_cast<int>(sizeof(KeyT)) * 8;
  const std::size_t items  = static_cast<std::size_t>(n);

  // The two-phase sort on `keys` (and `values`).
  auto radix_sort = [&](void* d_temp, std::size_t& bytes, DoubleBuffer<KeyT>& keys, DoubleBuffer<ValueT>& values,
                        cudaStream_t stream) -> cudaError_t {
    if constexpr (KEYS_ONLY && DESCENDING)
    {
      (void) values;
      return DeviceRadixSort::SortKeysDescending(d_temp, bytes, keys, n, 0, END_BIT, stream);
    }
    else if constexpr (KEYS_ONLY)
    {
      (void) values;
      return DeviceRadixSort::SortKeys(d_temp, bytes, keys, n, 0, END_BIT, stream);
    }
    else if constexpr (DESCENDING)
    {
      return DeviceRadixSort::SortPairsDescending(d_temp, bytes, keys, values, n, 0, END_BIT, stream);
    }
    else
    {
      return DeviceRadixSort::SortPairs(d_temp, bytes, keys, values, n, 0, END_BIT, stream);
    }
  };

  // The result goes back to the caller's arrays where the last pass ended in the second buffer (1-byte keys).
  auto copy_back = [&](void*, std::size_t&, const KeyT* keys, const ValueT* values,
                       cudaStream_t stream) -> cudaError_t {
    if (keys == d_keys)
    {
      return cudaSuccess; // sizing: no storage
    }
    STRATA_RETURN_IF_ERROR(cudaMemcpyAsync(d_keys, keys, items * sizeof(KeyT), cudaMemcpyDeviceToDevice, stream));
    if constexpr (!KEYS_ONLY)
    {
      STRATA_RETURN_IF_ERROR(
        cudaMemcpyAsync(d_values, values, items * sizeof(ValueT), cudaMemcpyDeviceToDevice, stream));
    }
    return cudaSuccess;
  };
  return sort_in_place_through(policy, d_keys, d_values, items, radix_sort, copy_back);
}

// -- the sorts, on the host side ---------------------------------------------------------------------------------

// Sorts [first, last) under comp, throwing for `name`. STABLE only picks the merge sort's entry point that says so
// (every sort here is stable).
template <bool STABLE, typename PolicyT, typename RandomIt, typename CompareT>
void sort_keys(const PolicyT& policy, const char* name, RandomIt first, RandomIt last, CompareT comp)
{
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(cuda::std::distance(first, last));
  if (n <= 1)
  {
    return;
  }
  constexpr sort_algorithm algorithm = sort_algorithm_v<RandomIt, void, CompareT>;
  cudaError_t error                  = cudaSuccess;
  if constexpr (algorithm == sort_algorithm::radix_ascending)
  {
    error = radix_sort_in_place<false>(policy, unwrap(first), static_cast<NullType*>(nullptr), n);
  }
  else if constexpr (algorithm == sort_algorithm::radix_descending)
  {
    error = radix_sort_in_place<true>(policy, unwrap(first), static_cast<NullType*>(nullptr), n);
  }
  else if constexpr (STABLE)
  {
    error = DeviceMergeSort::StableSortKeys(unwrap(first), n, to_device(comp), policy);
  }
  else
  {
    error = DeviceMergeSort::SortKeys(unwrap(first), n, to_device(comp), policy);
  }
  throw_on_error(error, name);
  finish_for_host(policy, name, first);
}

// Sorts [keys_first, keys_last) under comp, values_first[i] moving with keys_first[i], throwing for `name`.
template <bool STABLE, typename PolicyT, typename KeyIt, typename ValueIt, typename CompareT>
void sort_pairs(const PolicyT& policy, const char* name, KeyIt keys_first, KeyIt keys_last, ValueIt values_first,
                CompareT comp)
{
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(cuda::std::distance(keys_first, keys_last));
  if (n <= 1)
  {
    return;
  }
  constexpr sort_algorithm algorithm = sort_algorithm_v<KeyIt, ValueIt, CompareT>;
  cudaError_t error                  = cudaSuccess;
  if constexpr (algorithm == sort_algorithm::radix_ascending)
  {
    error = radix_sort_in_place<false>(policy, unwrap(keys_first), unwrap(values_first), n);
  }
  else if constexpr (algorithm == sort_algorithm::radix_descending)
  {
    error = radix_sort_in_place<true>(policy, unwrap(keys_first), unwrap(values_first), n);
  }
  else if constexpr (STABLE)
  {
    error = DeviceMergeSort::StableSortPairs(unwrap(keys_first), unwrap(values_first), n, to_device(comp), policy);
  }
  else
  {
    error = DeviceMergeSort::SortPairs(unwrap(keys_first), unwrap(values_first), n, to_device(comp), policy);
  }
  throw_on_error(error, name);
  finish_for_host(policy, name, keys_first, values_first);
}

// -- is_sorted ------------------------------------------------------------------------------------------------

// Whether a pair of neighbours (a, b) is in order: !comp(b, a).
template <typename CompareT>
struct neighbours_in_order
{
  mutable CompareT comp; // mutable: a comparator may have a non-const operator() (Thrust accepts those)
  template <typename PairT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE bool operator()(const PairT& p) const
  {
    return !static_cast<bool>(comp(thrust::get<1>(p), thrust::get<0>(p)));
  }
};

// For the pair of neighbours (first[i], first[i + 1]): i + 1 where they are out of order, `none` (n) otherwise; the
// smallest of these is where the sorted prefix ends.
template <typename CompareT>
struct descent_position
{
  using indexed_transform = void;
  mutable CompareT comp;
  std::ptrdiff_t none;
  template <typename OffsetT, typename PairT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE std::ptrdiff_t operator()(OffsetT index, const PairT& p) const
  {
    return comp(thrust::get<1>(p), thrust::get<0>(p)) ? static_cast<std::ptrdiff_t>(index) + 1 : none;
  }
};

// The pairs of neighbours of [first, first + n): n - 1 of them from the returned iterator.
template <typename ForwardIt>
auto neighbours(ForwardIt first)
{
  auto items = unwrap(first);
  return thrust::make_zip_iterator(items, items + 1);
}
} // namespace frontend
} // namespace detail

// -- sort and stable_sort -------------------------------------------------------------------------------------

// Sorts [first, last) so that comp(later, earlier) is false for every pair; equal items may end in any order.
template <typename A, typename D, typename RandomIt, typename Compare>
void sort(const execution_policy<A, D>& policy, RandomIt first, RandomIt last, Compare comp)
{
  STRATA_NVTX_RANGE("strata::sort");
  detail::frontend::sort_keys<false>(policy, "strata::sort", first, last, comp);
}

// Ascending, by operator<.
template <typename A, typename D, typename RandomIt>
void sort(const execution_policy<A, D>& policy, RandomIt first, RandomIt last)
{
  STRATA_NVTX_RANGE("strata::sort");
  detail::frontend::sort_keys<false>(policy, "strata::sort", first, last, cuda::std::less<>{});
}

// As sort, and items that compare equal keep their order.
template <typename A, typename D, typename RandomIt, typename Compare>
void stable_sort(const execution_policy<A, D>& policy, RandomIt first, RandomIt last, Compare comp)
{
  STRATA_NVTX_RANGE("strata::stable_sort");
  detail::frontend::sort_keys<true>(policy, "strata::stable_sort", first, last, comp);
}

template <typename A, typename D, typename RandomIt>
void stable_sort(const execution_policy<A, D>& policy, RandomIt first, RandomIt last)
{
  STRATA_NVTX_RANGE("strata::stable_sort");
  detail::frontend::sort_keys<true>(policy, "strata::stable_sort", first, last, cuda::std::less<>{});
}

// -- partial_sort and nth_element (std's; Thrust has neither) ----------------------------------------------------

// partial_sort leaves the (middle - first) smallest items under comp in [first, middle), in order, and the others in
// [middle, last); nth_element leaves at nth the item a sort would put there, none after it in [first, nth) and none
// before it in (nth, last). Both sort the whole range as sort does (the radix sort where the keys allow it), which
// meets both contracts at the sort's cost whatever middle or nth is. A middle or nth outside [first, last]
// throws strata::cuda_error (cudaErrorInvalidValue) before anything runs; middle == first and nth == last do nothing.
template <typename A, typename D, typename RandomIt, typename Compare>
void partial_sort(const execution_policy<A, D>& policy, RandomIt first, RandomIt middle, RandomIt last, Compare comp)
{
  STRATA_NVTX_RANGE("strata::partial_sort");
  const auto k = cuda::std::distance(first, middle);
  if (k < 0 || k > cuda::std::distance(first, last))
  {
    detail::throw_on_error(cudaErrorInvalidValue, "strata::partial_sort");
  }
  if (k > 0)
  {
    detail::frontend::sort_keys<false>(policy, "strata::partial_sort", first, last, comp);
  }
}
template <typename A, typename D, typename RandomIt>
void partial_sort(const execution_policy<A, D>& policy, RandomIt first, RandomIt middle, RandomIt last)
{
  partial_sort(policy, first, middle, last, cuda::std::less<>{});
}

template <typename A, typename D, typename RandomIt, typename Compare>
void nth_element(const execution_policy<A, D>& policy, RandomIt first, RandomIt nth, RandomIt last, Compare comp)
{
  STRATA_NVTX_RANGE("strata::nth_element");
  const auto k = cuda::std::distance(first, nth);
  const auto n = cuda::std::distance(first, last);
  if (k < 0 || k > n)
  {
    detail::throw_on_error(cudaErrorInvalidValue, "strata::nth_element");
  }
  if (k < n)
  {
    detail::frontend::sort_keys<false>(policy, "strata::nth_element", first, last, comp);
  }
}
template <typename A, typename D, typename RandomIt>
void nth_element(const execution_policy<A, D>& policy, RandomIt first, RandomIt nth, RandomIt last)
{
  nth_element(policy, first, nth, last, cuda::std::less<>{});
}

// -- top_k (strata's own) ---------------------------------------------------------------------------------------

// The k items of [first, last) that come first in comp's order, in that order, to [result, result + k): with greater
// (the default) the k largest, descending; with less the k smallest, ascending. Among equal items those at the first
// positions are taken, in input order. Returns result + k. The items are of a type the radix sort takes (integers,
// float, double, __half, __nv_bfloat16) and comp is less or greater of it (or transparent), as sort's radix path;
// the input any iterator, the output any writable one. DeviceTopK's radix select (about two reads of the input, then
// the candidates) and a radix sort of the k selected; temporary storage from the policy's allocator. Never
// synchronizes the host (but for an output in host-accessible memory). k < 0 or k > last - first throws
// strata::cuda_error (cudaErrorInvalidValue) before anything runs; k == 0 does nothing.
template <typename A, typename D, typename InputIt, typename OutputIt, typename Compare>
OutputIt top_k(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt result,
               detail::iter_difference_t<InputIt> k, Compare comp)
{
  STRATA_NVTX_RANGE("strata::top_k");
  (void) comp;
  using KeyT           = std::remove_cv_t<detail::iter_value_t<InputIt>>;
  constexpr auto order = detail::frontend::radix_order_of<Compare, KeyT>();
  static_assert(detail::frontend::is_radix_key_v<KeyT>,
                "strata::top_k: the items must be of a type the radix sort takes (integers, float, double, __half, "
                "__nv_bfloat16)");
  static_assert(order != detail::frontend::sort_algorithm::merge,
                "strata::top_k: comp must be less or greater of the item type (or transparent)");
  const auto n = cuda::std::distance(first, last);
  if (k < 0 || k > n)
  {
    detail::throw_on_error(cudaErrorInvalidValue, "strata::top_k");
  }
  if (k == 0)
  {
    return result;
  }
  const auto keys_in  = detail::unwrap(first);
  const auto keys_out = detail::unwrap(result);
  detail::throw_on_error(detail::run_single_phase(policy,
                                                  [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
                                                    return order == detail::frontend::sort_algorithm::radix_descending
                                                           ? DeviceTopK::MaxKeys(d_temp, bytes, keys_in, keys_out, n, k,
                                                                                 topk_order::sorted, stream)
                                                           : DeviceTopK::MinKeys(d_temp, bytes, keys_in, keys_out, n, k,
                                                                                 topk_order::sorted, stream);
                                                  }),
                         "strata::top_k");
  detail::finish_for_host(policy, "strata::top_k", result);
  return result + k;
}
template <typename A, typename D, typename InputIt, typename OutputIt>
OutputIt top_k(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt result,
               detail::iter_difference_t<InputIt> k)
{
  return top_k(policy, first, last, result, k, cuda::std::greater<>{});
}

// -- sort_by_key and stable_sort_by_key (Thrust's) ------------------------------------------------------------

// Sorts the keys [keys_first, keys_last) under comp; values_first[i] moves with keys_first[i]. Keys that compare
// equal may end in any order. The values must not overlap the keys.
template <typename A, typename D, typename KeyIt, typename ValueIt, typename Compare>
void sort_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last, ValueIt values_first,
                 Compare comp)
{
  STRATA_NVTX_RANGE("strata::sort_by_key");
  detail::frontend::sort_pairs<false>(policy, "strata::sort_by_key", keys_first, keys_last, values_first, comp);
}

template <typename A, typename D, typename KeyIt, typename ValueIt>
void sort_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last, ValueIt values_first)
{
  STRATA_NVTX_RANGE("strata::sort_by_key");
  detail::frontend::sort_pairs<false>(policy, "strata::sort_by_key", keys_first, keys_last, values_first,
                                      cuda::std::less<>{});
}

// As sort_by_key, and keys that compare equal keep their order (with their values).
template <typename A, typename D, typename KeyIt, typename ValueIt, typename Compare>
void stable_sort_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last, ValueIt values_first,
                        Compare comp)
{
  STRATA_NVTX_RANGE("strata::stable_sort_by_key");
  detail::frontend::sort_pairs<true>(policy, "strata::stable_sort_by_key", keys_first, keys_last, values_first, comp);
}

template <typename A, typename D, typename KeyIt, typename ValueIt>
void stable_sort_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last, ValueIt values_first)
{
  STRATA_NVTX_RANGE("strata::stable_sort_by_key");
  detail::frontend::sort_pairs<true>(policy, "strata::stable_sort_by_key", keys_first, keys_last, values_first,
                                     cuda::std::less<>{});
}

// -- is_sorted and is_sorted_until ----------------------------------------------------------------------------

// Whether no item compares less (under comp) than the item before it; true for fewer than two items. A host value:
// synchronizes the policy's stream.
template <typename A, typename D, typename ForwardIt, typename Compare>
bool is_sorted(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, Compare comp)
{
  STRATA_NVTX_RANGE("strata::is_sorted");
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(cuda::std::distance(first, last));
  if (n <= 1)
  {
    return true;
  }
  using OpT = detail::frontend::neighbours_in_order<typename detail::frontend::device_comparator<Compare>::type>;
  return detail::frontend::transform_reduce_to_host<bool>(policy, "strata::is_sorted",
                                                          detail::frontend::neighbours(first), n - 1,
                                                          cuda::std::logical_and<>{},
                                                          OpT{detail::frontend::to_device(comp)}, true);
}

template <typename A, typename D, typename ForwardIt>
bool is_sorted(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last)
{
  return ::strata::is_sorted(policy, first, last, cuda::std::less<>{});
}

// The end of the longest sorted prefix of [first, last): the first item that compares less than the one before
// it, or last. Synchronizes the policy's stream (the position is read on the host).
template <typename A, typename D, typename ForwardIt, typename Compare>
ForwardIt is_sorted_until(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, Compare comp)
{
  STRATA_NVTX_RANGE("strata::is_sorted_until");
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(cuda::std::distance(first, last));
  if (n <= 1)
  {
    return last;
  }
  using OpT = detail::frontend::descent_position<typename detail::frontend::device_comparator<Compare>::type>;
  const std::ptrdiff_t end =
    detail::frontend::indexed_reduce_to_host<std::ptrdiff_t>(policy, "strata::is_sorted_until",
                                                             detail::frontend::neighbours(first), n - 1,
                                                             cuda::minimum<>{},
                                                             OpT{detail::frontend::to_device(comp), n});
  return first + end;
}

template <typename A, typename D, typename ForwardIt>
ForwardIt is_sorted_until(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last)
{
  return ::strata::is_sorted_until(policy, first, last, cuda::std::less<>{});
}

STRATA_NAMESPACE_END
