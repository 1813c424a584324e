// Frontend segmented sorts: each segment of a range sorted in place, the segments given by an offsets range of n + 1
// offsets as in segmented.cuh (segment s is [first + offsets[s], first + offsets[s + 1]); empty where the second is
// not past the first; segments must not overlap; items in no segment keep their values).
//
//   strata::segmented_sort(strata::par.on(stream), d_keys, d_keys + n, d_offsets, d_offsets + m + 1);
//   strata::segmented_sort_by_key(strata::par.on(stream), keys.begin(), keys.end(), values.begin(),
//                                 offsets.begin(), offsets.end(), cuda::std::greater<>{});
//
// Keys are arithmetic, in contiguous device memory, ordered by cuda::std::less or greater (or std's): the sorts are
// DeviceSegmentedSort's radix sorts, stable, so segmented_sort and segmented_stable_sort agree; floats order as
// -inf < ... < -0.0 == +0.0 < ... < +inf. Nothing synchronizes the host (the calls are capturable into a graph);
// temporary storage comes from the policy's allocator: a second buffer of the keys (and values), through which the
// sort's passes go, and the sort's own storage. Complexity: the sort, and for keys whose passes end in the second
// buffer (an odd number of them) a copy of the segments' items back.
// Errors throw strata::cuda_error naming the algorithm; a reversed offsets range is found before anything is launched.
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_segmented_radix_sort.cuh>
#include <strata/device/device_segmented_sort.cuh>
#include <strata/execution/iterators.cuh>
#include <strata/execution/policy.cuh>
#include <strata/execution/segmented.cuh>
#include <strata/execution/sort.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/double_buffer.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/iterator>

#include <cstddef>
#include <type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace frontend
{
// Sorts each segment of d_keys[0, n) (and d_values with them; ValueT NullType for keys only) in place with the
// DoubleBuffer form, the caller's arrays one buffer and n keys (and values) of temporary storage the other: where the
// passes end in the temporary buffer, the segments' items are copied back (the radix form over no bits copies
// segments and writes nothing else), so items in no segment are never touched.
template <bool DESCENDING, typename PolicyT, typename KeyT, typename ValueT, typename OffsetIt>
cudaError_t segmented_sort_in_place(const PolicyT& policy, KeyT* d_keys, ValueT* d_values, std::ptrdiff_t n,
                                    OffsetIt d_offsets, std::ptrdiff_t segments)
{
  constexpr bool KEYS_ONLY = std::is_same<ValueT, NullType>::value;
  const std::size_t items  = static_cast<std::size_t>(n);
  auto sort = [&](void* d_temp, std::size_t& bytes, DoubleBuffer<KeyT>& keys, DoubleBuffer<ValueT>& values,
                  cudaStream_t stream) -> cudaError_t {
    if constexpr (KEYS_ONLY && DESCENDING)
    {
      (void) values;
      return DeviceSegmentedSort::SortKeysDescending(d_temp, bytes, keys, n, segments, d_offsets, d_offsets + 1,
                                                     stream);
    }
    else if constexpr (KEYS_ONLY)
    {
      (void) values;
      return DeviceSegmentedSort::SortKeys(d_temp, bytes, keys, n, segments, d_offsets, d_offsets + 1, stream);
    }
    else if constexpr (DESCENDING)
    {
      return DeviceSegmentedSort::SortPairsDescending(d_temp, bytes, keys, values, n, segments, d_offsets,
                                                      d_offsets + 1, stream);
    }
    else
    {
      return DeviceSegmentedSort::SortPairs(d_temp, bytes, keys, values, n, segments, d_offsets, d_offsets + 1, stream);
    }
  };
  // The segments' items from the temporary buffers back to the caller's arrays.
  auto copy_back = [&](void* d_temp, std::size_t& bytes, const KeyT* keys, const ValueT* values,
                       cudaStream_t stream) -> cudaError_t {
    if constexpr (KEYS_ONLY)
    {
      (void) values;
      return DeviceSegmentedRadixSort::SortKeys(d_temp, bytes, keys, d_keys, n, segments, d_offsets, d_offsets + 1, 0,
                                                0, stream);
    }
    else
    {
      return DeviceSegmentedRadixSort::SortPairs(d_temp, bytes, keys, d_keys, values, d_values, n, segments, d_offsets,
                                                 d_offsets + 1, 0, 0, stream);
    }
  };

  return sort_in_place_through(policy, d_keys, d_values, items, sort, copy_back);
}

// Sorts each segment of [keys_first, keys_last) under comp (less or greater), values_first[i] moving with
// keys_first[i] (keys only where values_first is nullptr); throws for `name`.
template <typename PolicyT, typename KeyIt, typename ValueIt, typename OffsetIt, typename CompareT>
void segmented_sort(const PolicyT& policy, const char* name, KeyIt keys_first, KeyIt keys_last, ValueIt values_first,
                    OffsetIt offsets_first, OffsetIt offsets_last, CompareT)
{
  constexpr bool KEYS_ONLY           = std::is_same<ValueIt, std::nullptr_t>::value;
  using ValuesT                      = std::conditional_t<KEYS_ONLY, void, ValueIt>;
  constexpr sort_algorithm algorithm = sort_algorithm_v<KeyIt, ValuesT, CompareT>;
  static_assert(algorithm != sort_algorithm::merge,
                "the segmented sorts take arithmetic keys in contiguous device memory (values too) ordered by "
                "cuda::std::less or greater");
  const std::ptrdiff_t n        = static_cast<std::ptrdiff_t>(cuda::std::distance(keys_first, keys_last));
  const std::ptrdiff_t segments = static_cast<std::ptrdiff_t>(segment_count(offsets_first, offsets_last, name));
  if (n <= 0 || segments == 0)
  {
    return;
  }
  constexpr bool DESCENDING = algorithm == sort_algorithm::radix_descending;
  cudaError_t error         = cudaSuccess;
  if constexpr (KEYS_ONLY)
  {
    error = segmented_sort_in_place<DESCENDING>(policy, unwrap(keys_first), static_cast<NullType*>(nullptr), n,
                                                unwrap(offsets_first), segments);
    throw_on_error(error, name);
    finish_for_host(policy, name, keys_first);
  }
  else
  {
    error = segmented_sort_in_place<DESCENDING>(policy, unwrap(keys_first), unwrap(values_first), n,
                                                unwrap(offsets_first), segments);
    throw_on_error(error, name);
    finish_for_host(policy, name, keys_first, values_first);
  }
}
} // namespace frontend
} // namespace detail

// Sorts each segment of [first, last) that the offsets range [offsets_first, offsets_last) delimits, under comp
// (cuda::std::less or greater); equal keys keep their order.
template <typename A, typename D, typename RandomIt, typename OffsetIt, typename Compare>
void segmented_sort(const execution_policy<A, D>& policy, RandomIt first, RandomIt last, OffsetIt offsets_first,
                    OffsetIt offsets_last, Compare comp)
{
  STRATA_NVTX_RANGE("strata::segmented_sort");
  detail::frontend::segmented_sort(policy, "strata::segmented_sort", first, last, nullptr, offsets_first, offsets_last,
                                   comp);
}

// Ascending.
template <typename A, typename D, typename RandomIt, typename OffsetIt>
void segmented_sort(const execution_policy<A, D>& policy, RandomIt first, RandomIt last, OffsetIt offsets_first,
                    OffsetIt offsets_last)
{
  STRATA_NVTX_RANGE("strata::segmented_sort");
  detail::frontend::segmented_sort(policy, "strata::segmented_sort", first, last, nullptr, offsets_first, offsets_last,
                                   cuda::std::less<>{});
}

// As segmented_sort (which is stable too).
template <typename A, typename D, typename RandomIt, typename OffsetIt, typename Compare>
void segmented_stable_sort(const execution_policy<A, D>& policy, RandomIt first, RandomIt last, OffsetIt offsets_first,
                           OffsetIt offsets_last, Compare comp)
{
  STRATA_NVTX_RANGE("strata::segmented_stable_sort");
  detail::frontend::segmented_sort(policy, "strata::segmented_stable_sort", first, last, nullptr, offsets_first,
                                   offsets_last, comp);
}

template <typename A, typename D, typename RandomIt, typename OffsetIt>
void segmented_stable_sort(const execution_policy<A, D>& policy, RandomIt first, RandomIt last, OffsetIt offsets_first,
                           OffsetIt offsets_last)
{
  STRATA_NVTX_RANGE("strata::segmented_stable_sort");
  detail::frontend::segmented_sort(policy, "strata::segmented_stable_sort", first, last, nullptr, offsets_first,
                                   offsets_last, cuda::std::less<>{});
}

// Sorts the keys of each segment under comp; values_first[i] moves with keys_first[i]. The values must not overlap
// the keys.
template <typename A, typename D, typename KeyIt, typename ValueIt, typename OffsetIt, typename Compare>
void segmented_sort_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last,
                           ValueIt values_first, OffsetIt offsets_first, OffsetIt offsets_last, Compare comp)
{
  STRATA_NVTX_RANGE("strata::segmented_sort_by_key");
  detail::frontend::segmented_sort(policy, "strata::segmented_sort_by_key", keys_first, keys_last, values_first,
                                   offsets_first, offsets_last, comp);
}

template <typename A, typename D, typename KeyIt, typename ValueIt, typename OffsetIt>
void segmented_sort_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last,
                           ValueIt values_first, OffsetIt offsets_first, OffsetIt offsets_last)
{
  STRATA_NVTX_RANGE("strata::segmented_sort_by_key");
  detail::frontend::segmented_sort(policy, "strata::segmented_sort_by_key", keys_first, keys_last, values_first,
                                   offsets_first, offsets_last, cuda::std::less<>{});
}

// As segmented_sort_by_key (which is stable too).
template <typename A, typename D, typename KeyIt, typename ValueIt, typename OffsetIt, typename Compare>
void segmented_stable_sort_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last,
                                  ValueIt values_first, OffsetIt offsets_first, OffsetIt offsets_last, Compare comp)
{
  STRATA_NVTX_RANGE("strata::segmented_stable_sort_by_key");
  detail::frontend::segmented_sort(policy, "strata::segmented_stable_sort_by_key", keys_first, keys_last, values_first,
                                   offsets_first, offsets_last, comp);
}

template <typename A, typename D, typename KeyIt, typename ValueIt, typename OffsetIt>
void segmented_stable_sort_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last,
                                  ValueIt values_first, OffsetIt offsets_first, OffsetIt offsets_last)
{
  STRATA_NVTX_RANGE("strata::segmented_stable_sort_by_key");
  detail::frontend::segmented_sort(policy, "strata::segmented_stable_sort_by_key", keys_first, keys_last, values_first,
                                   offsets_first, offsets_last, cuda::std::less<>{});
}

STRATA_NAMESPACE_END
