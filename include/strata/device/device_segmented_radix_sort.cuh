// DeviceSegmentedRadixSort: a radix sort of each segment of a sequence of keys (and values), with CUB's two-phase
// temporary-storage API.
//
// Segment s is [d_begin_offsets[s], d_end_offsets[s]) of the keys (empty where the end is not past the begin);
// segments must not overlap, and items in no segment are not written. Keys sort by bits [begin_bit, end_bit) of
// their radix images (unsigned integers in key order: floats as -inf < ... < -0.0 == +0.0 < ... < +inf, NaNs by
// their bits; descending sorts invert them), stably: keys with equal bits keep their order. Each segment is sorted
// by a logical warp, a warp or a block after its length, a huge one by every block (agent/agent_segmented_sort.cuh);
// nothing waits for the host, so a call can be captured into a CUDA graph. num_items and num_segments may lie in
// device memory (strata::device_count): their bounds size the temporary storage, and the kernels read the number of
// segments when they run (num_items only bounds the items the segments cover).
//
//   size_t bytes = 0;
//   strata::DeviceSegmentedRadixSort::SortKeys(nullptr, bytes, d_keys_in, d_keys_out, n, m, d_offsets, d_offsets + 1);
//   cudaMalloc(&d_temp, bytes);
//   strata::DeviceSegmentedRadixSort::SortKeys(d_temp, bytes, d_keys_in, d_keys_out, n, m, d_offsets, d_offsets + 1);
//
// Every call also has a single-phase form, without the temporary-storage arguments, whose last argument (defaulted)
// is a stream or a policy, with or without the bit range:
//
//   strata::DeviceSegmentedRadixSort::SortKeys(d_keys_in, d_keys_out, n, m, d_offsets, d_offsets + 1, 0, 16,
//                                              strata::par.on(stream));
//
// The DoubleBuffer forms use both buffers of each pair and leave the result in the one their selector names after
// the call. Temporary storage: the segment lists (4-byte indices: at most four a segment and about 1.07 an item,
// whichever is fewer), for the in/out forms with more items than a block's sort one more copy of the keys (and
// values), and where a segment can be huge (over 16 K keys) 8 bytes per pass, 4096-key tile and digit (0.75 bytes an
// item for 4-byte keys) and a few counters per possible huge segment.
// Errors (cudaErrorInvalidValue, before anything is launched or written): a negative num_items or num_segments, more
// than 2^32 - 1 segments, begin_bit < 0, end_bit < begin_bit or past the key's bits, too small temp_storage_bytes,
// null key, value or offset pointers with items to sort.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_segmented_sort.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/device_count.cuh>
#include <strata/util/double_buffer.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace segmented_sort
{
// Checks the arguments and runs (or sizes) the sort.
template <bool DESCENDING, typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT,
          typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
cudaError_t sort(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                 DoubleBuffer<ValueT>& d_values, NumItemsT num_items, NumSegmentsT num_segments,
                 BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, int begin_bit, int end_bit,
                 bool is_overwrite_okay, cudaStream_t stream)
{
  constexpr int BITS       = radix_sort::key_codec<KeyT, DESCENDING, radix_sort::no_decomposer>::BITS;
  constexpr bool KEYS_ONLY = cuda::std::is_same<ValueT, NullType>::value;
  static_assert(is_item_count_v<NumItemsT>, "num_items must be an integer or a strata::device_count");
  static_assert(is_item_count_v<NumSegmentsT>, "num_segments must be an integer or a strata::device_count");
  // The host-known counts (a device_count's bound): they size the lists and buffers; the kernels read a count in
  // device memory when they run.
  const long long items    = static_cast<long long>(count_bound(num_items));
  const long long segments = static_cast<long long>(count_bound(num_segments));
  if (items < 0 || segments < 0 || segments > 0xffffffffLL || begin_bit < 0 || end_bit < begin_bit || end_bit > BITS)
  {
    return cudaErrorInvalidValue;
  }
  if (d_temp_storage != nullptr && items > 0 && segments > 0
      && (d_keys.d_buffers[0] == nullptr || d_keys.d_buffers[1] == nullptr
          || (!KEYS_ONLY && (d_values.d_buffers[0] == nullptr || d_values.d_buffers[1] == nullptr))
          || is_null_pointer(d_begin_offsets) || is_null_pointer(d_end_offsets) || is_null_count(num_items)
          || is_null_count(num_segments)))
  {
    return cudaErrorInvalidValue;
  }
  return DispatchSegmentedSort<DESCENDING, KeyT, ValueT, BeginOffsetIteratorT, EndOffsetIteratorT,
                               policy_hub<KeyT, ValueT>,
                               item_count_t<NumSegmentsT>>::Dispatch(d_temp_storage, temp_storage_bytes, d_keys,
                                                                     d_values, items, segments, d_begin_offsets,
                                                                     d_end_offsets, begin_bit, end_bit,
                                                                     is_overwrite_okay, stream,
                                                                     item_count_of(num_segments));
}

// The in/out forms: the inputs are read only, the results land in the outputs.
template <bool DESCENDING, typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT,
          typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
cudaError_t sort_copy(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                      const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items, NumSegmentsT num_segments,
                      BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, int begin_bit,
                      int end_bit, cudaStream_t stream)
{
  DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
  DoubleBuffer<ValueT> values(const_cast<ValueT*>(d_values_in), d_values_out);
  return sort<DESCENDING>(d_temp_storage, temp_storage_bytes, keys, values, num_items, num_segments, d_begin_offsets,
                          d_end_offsets, begin_bit, end_bit, false, stream);
}

// The keys-only forms' values: none (never read or written).
inline NullType* no_values()
{
  return nullptr;
}
} // namespace segmented_sort
} // namespace detail

struct DeviceSegmentedRadixSort
{
  // Each segment's keys, ascending by bits [begin_bit, end_bit), with their values.
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in,
                               KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,
                               NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                               EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                               int end_bit = static_cast<int>(sizeof(KeyT) * 8), cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedRadixSort::SortPairs");
    return detail::segmented_sort::sort_copy<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                    d_values_in, d_values_out, num_items, num_segments, d_begin_offsets,
                                                    d_end_offsets, begin_bit, end_bit, stream);
  }

  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                               DoubleBuffer<ValueT>& d_values, NumItemsT num_items, NumSegmentsT num_segments,
                               BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                               int begin_bit = 0, int end_bit = static_cast<int>(sizeof(KeyT) * 8),
                               cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedRadixSort::SortPairs");
    return detail::segmented_sort::sort<false>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items,
                                               num_segments, d_begin_offsets, d_end_offsets, begin_bit, end_bit, true,
                                               stream);
  }

  // Each segment's keys, descending by bits [begin_bit, end_bit), with their values.
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t
  SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                      const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items, NumSegmentsT num_segments,
                      BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                      int end_bit = static_cast<int>(sizeof(KeyT) * 8), cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedRadixSort::SortPairsDescending");
    return detail::segmented_sort::sort_copy<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                   d_values_in, d_values_out, num_items, num_segments, d_begin_offsets,
                                                   d_end_offsets, begin_bit, end_bit, stream);
  }

  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                                         DoubleBuffer<ValueT>& d_values, NumItemsT num_items, NumSegmentsT num_segments,
                                         BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                         int begin_bit = 0, int end_bit = static_cast<int>(sizeof(KeyT) * 8),
                                         cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedRadixSort::SortPairsDescending");
    return detail::segmented_sort::sort<true>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items,
                                              num_segments, d_begin_offsets, d_end_offsets, begin_bit, end_bit, true,
                                              stream);
  }

  // Each segment's keys, ascending by bits [begin_bit, end_bit).
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                              NumItemsT num_items, NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                              EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                              int end_bit = static_cast<int>(sizeof(KeyT) * 8), cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedRadixSort::SortKeys");
    NullType* const none = detail::segmented_sort::no_values();
    return detail::segmented_sort::sort_copy<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                    static_cast<const NullType*>(none), none, num_items, num_segments,
                                                    d_begin_offsets, d_end_offsets, begin_bit, end_bit, stream);
  }

  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                              NumItemsT num_items, NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                              EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                              int end_bit = static_cast<int>(sizeof(KeyT) * 8), cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedRadixSort::SortKeys");
    NullType* const none = detail::segmented_sort::no_values();
    DoubleBuffer<NullType> values(none, none);
    return detail::segmented_sort::sort<false>(d_temp_storage, temp_storage_bytes, d_keys, values, num_items,
                                               num_segments, d_begin_offsets, d_end_offsets, begin_bit, end_bit, true,
                                               stream);
  }

  // Each segment's keys, descending by bits [begin_bit, end_bit).
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                        KeyT* d_keys_out, NumItemsT num_items, NumSegmentsT num_segments,
                                        BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                        int begin_bit = 0, int end_bit = static_cast<int>(sizeof(KeyT) * 8),
                                        cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedRadixSort::SortKeysDescending");
    NullType* const none = detail::segmented_sort::no_values();
    return detail::segmented_sort::sort_copy<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                   static_cast<const NullType*>(none), none, num_items, num_segments,
                                                   d_begin_offsets, d_end_offsets, begin_bit, end_bit, stream);
  }

  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t
  SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys, NumItemsT num_items,
                     NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                     int begin_bit = 0, int end_bit = static_cast<int>(sizeof(KeyT) * 8), cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceSegmentedRadixSort::SortKeysDescending");
    NullType* const none = detail::segmented_sort::no_values();
    DoubleBuffer<NullType> values(none, none);
    return detail::segmented_sort::sort<true>(d_temp_storage, temp_storage_bytes, d_keys, values, num_items,
                                              num_segments, d_begin_offsets, d_end_offsets, begin_bit, end_bit, true,
                                              stream);
  }

  // The single-phase forms (strata/device/dispatch/single_phase.cuh): every entry point without the
  // temporary-storage arguments, over all bits or bits [begin_bit, end_bit), its last argument (defaulted) a stream or
  // a policy.
#define STRATA_SEGMENTED_RADIX_SORT_KEYS(NAME)                                                                     \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,               \
            typename EndOffsetIteratorT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>   \
  static cudaError_t NAME(const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items, NumSegmentsT num_segments, \
                          BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, int begin_bit,   \
                          int end_bit, const EnvT& env = {})                                                       \
  {                                                                                                                \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_keys_in, d_keys_out, num_items,         \
                                     num_segments, d_begin_offsets, d_end_offsets, begin_bit, end_bit);            \
  }                                                                                                                \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,               \
            typename EndOffsetIteratorT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>   \
  static cudaError_t NAME(const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items, NumSegmentsT num_segments, \
                          BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,                  \
                          const EnvT& env = {})                                                                    \
  {                                                                                                                \
    return NAME(d_keys_in, d_keys_out, num_items, num_segments, d_begin_offsets, d_end_offsets, 0,                 \
                static_cast<int>(sizeof(KeyT) * 8), env);                                                          \
  }                                                                                                                \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,               \
            typename EndOffsetIteratorT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>   \
  static cudaError_t NAME(DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, NumSegmentsT num_segments,              \
                          BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, int begin_bit,   \
                          int end_bit, const EnvT& env = {})                                                       \
  {                                                                                                                \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_keys, num_items, num_segments,          \
                                     d_begin_offsets, d_end_offsets, begin_bit, end_bit);                          \
  }                                                                                                                \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,               \
            typename EndOffsetIteratorT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>   \
  static cudaError_t NAME(DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, NumSegmentsT num_segments,              \
                          BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,                  \
                          const EnvT& env = {})                                                                    \
  {                                                                                                                \
    return NAME(d_keys, num_items, num_segments, d_begin_offsets, d_end_offsets, 0,                                \
                static_cast<int>(sizeof(KeyT) * 8), env);                                                          \
  }
#define STRATA_SEGMENTED_RADIX_SORT_PAIRS(NAME)                                                                        \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT, typename BeginOffsetIteratorT,  \
            typename EndOffsetIteratorT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>       \
  static cudaError_t NAME(const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,    \
                          NumItemsT num_items, NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,        \
                          EndOffsetIteratorT d_end_offsets, int begin_bit, int end_bit, const EnvT& env = {})          \
  {                                                                                                                    \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_keys_in, d_keys_out, d_values_in,           \
                                     d_values_out, num_items, num_segments, d_begin_offsets, d_end_offsets, begin_bit, \
                                     end_bit);                                                                         \
  }                                                                                                                    \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT, typename BeginOffsetIteratorT,  \
            typename EndOffsetIteratorT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>       \
  static cudaError_t NAME(const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,    \
                          NumItemsT num_items, NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,        \
                          EndOffsetIteratorT d_end_offsets, const EnvT& env = {})                                      \
  {                                                                                                                    \
    return NAME(d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, num_segments, d_begin_offsets,            \
                d_end_offsets, 0, static_cast<int>(sizeof(KeyT) * 8), env);                                            \
  }                                                                                                                    \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT, typename BeginOffsetIteratorT,  \
            typename EndOffsetIteratorT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>       \
  static cudaError_t NAME(DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values, NumItemsT num_items,             \
                          NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,                             \
                          EndOffsetIteratorT d_end_offsets, int begin_bit, int end_bit, const EnvT& env = {})          \
  {                                                                                                                    \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_keys, d_values, num_items, num_segments,    \
                                     d_begin_offsets, d_end_offsets, begin_bit, end_bit);                              \
  }                                                                                                                    \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT, typename BeginOffsetIteratorT,  \
            typename EndOffsetIteratorT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>       \
  static cudaError_t NAME(DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values, NumItemsT num_items,             \
                          NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,                             \
                          EndOffsetIteratorT d_end_offsets, const EnvT& env = {})                                      \
  {                                                                                                                    \
    return NAME(d_keys, d_values, num_items, num_segments, d_begin_offsets, d_end_offsets, 0,                          \
                static_cast<int>(sizeof(KeyT) * 8), env);                                                              \
  }

  STRATA_SEGMENTED_RADIX_SORT_KEYS(SortKeys)
  STRATA_SEGMENTED_RADIX_SORT_KEYS(SortKeysDescending)
  STRATA_SEGMENTED_RADIX_SORT_PAIRS(SortPairs)
  STRATA_SEGMENTED_RADIX_SORT_PAIRS(SortPairsDescending)
#undef STRATA_SEGMENTED_RADIX_SORT_KEYS
#undef STRATA_SEGMENTED_RADIX_SORT_PAIRS
};

STRATA_NAMESPACE_END
