// DeviceSegmentedSort: a sort of each segment of a sequence of keys (and values), with CUB's two-phase
// temporary-storage API: DeviceSegmentedRadixSort over all of the keys' bits (device_segmented_radix_sort.cuh says
// how segments, keys and errors are treated). Every sort is stable, so Sort and StableSort give the same result.
//
//   strata::DeviceSegmentedSort::SortPairs(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, m,
//                                          d_offsets, d_offsets + 1, stream);
//
// Every call also has a single-phase form, without the temporary-storage arguments, whose last argument (defaulted)
// is a stream or a policy (strata/device/dispatch/single_phase.cuh):
//
//   strata::DeviceSegmentedSort::SortKeys(d_keys_in, d_keys_out, n, m, d_offsets, d_offsets + 1, strata::par.on(s));
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_segmented_radix_sort.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/double_buffer.cuh>
#include <strata/util/uninitialized.cuh>

STRATA_NAMESPACE_BEGIN

struct DeviceSegmentedSort
{
private:
  template <typename KeyT>
  static constexpr int BITS = static_cast<int>(sizeof(KeyT) * 8);

  template <bool DESCENDING, typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT,
            typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t pairs(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                           const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,
                           NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                           EndOffsetIteratorT d_end_offsets, cudaStream_t stream)
  {
    return detail::segmented_sort::sort_copy<DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                         d_values_in, d_values_out, num_items, num_segments,
                                                         d_begin_offsets, d_end_offsets, 0, BITS<KeyT>, stream);
  }
  template <bool DESCENDING, typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT,
            typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t pairs(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                           DoubleBuffer<ValueT>& d_values, NumItemsT num_items, NumSegmentsT num_segments,
                           BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, cudaStream_t stream)
  {
    return detail::segmented_sort::sort<DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items,
                                                    num_segments, d_begin_offsets, d_end_offsets, 0, BITS<KeyT>, true,
                                                    stream);
  }
  template <bool DESCENDING, typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t keys(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                          NumItemsT num_items, NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                          EndOffsetIteratorT d_end_offsets, cudaStream_t stream)
  {
    NullType* const none = detail::segmented_sort::no_values();
    return pairs<DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                             static_cast<const NullType*>(none), none, num_items, num_segments, d_begin_offsets,
                             d_end_offsets, stream);
  }
  template <bool DESCENDING, typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT>
  static cudaError_t keys(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                          NumItemsT num_items, NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,
                          EndOffsetIteratorT d_end_offsets, cudaStream_t stream)
  {
    NullType* const none = detail::segmented_sort::no_values();
    DoubleBuffer<NullType> values(none, none);
    return pairs<DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys, values, num_items, num_segments,
                             d_begin_offsets, d_end_offsets, stream);
  }

public:
// NAME: the entry point; DESCENDING: its order; each has the in/out and the DoubleBuffer forms, two-phase and
// single-phase, keys only (KEYS) and with values (PAIRS).
#define STRATA_SEGMENTED_SORT_KEYS(NAME, DESCENDING)                                                                 \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,                 \
            typename EndOffsetIteratorT>                                                                             \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out, \
                          NumItemsT num_items, NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,      \
                          EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)                                 \
  {                                                                                                                  \
    STRATA_NVTX_RANGE("strata::DeviceSegmentedSort::" #NAME);                                                        \
    return keys<DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, num_items, num_segments,      \
                            d_begin_offsets, d_end_offsets, stream);                                                 \
  }                                                                                                                  \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,                 \
            typename EndOffsetIteratorT>                                                                             \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,              \
                          NumItemsT num_items, NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,      \
                          EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)                                 \
  {                                                                                                                  \
    STRATA_NVTX_RANGE("strata::DeviceSegmentedSort::" #NAME);                                                        \
    return keys<DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys, num_items, num_segments, d_begin_offsets,    \
                            d_end_offsets, stream);                                                                  \
  }                                                                                                                  \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,                 \
            typename EndOffsetIteratorT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>     \
  static cudaError_t NAME(const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items, NumSegmentsT num_segments,   \
                          BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,                    \
                          const EnvT& env = {})                                                                      \
  {                                                                                                                  \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_keys_in, d_keys_out, num_items,           \
                                     num_segments, d_begin_offsets, d_end_offsets);                                  \
  }                                                                                                                  \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename BeginOffsetIteratorT,                 \
            typename EndOffsetIteratorT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>     \
  static cudaError_t NAME(DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, NumSegmentsT num_segments,                \
                          BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,                    \
                          const EnvT& env = {})                                                                      \
  {                                                                                                                  \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_keys, num_items, num_segments,            \
                                     d_begin_offsets, d_end_offsets);                                                \
  }
#define STRATA_SEGMENTED_SORT_PAIRS(NAME, DESCENDING)                                                                 \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT, typename BeginOffsetIteratorT, \
            typename EndOffsetIteratorT>                                                                              \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,  \
                          const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,                       \
                          NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,                            \
                          EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0)                                  \
  {                                                                                                                   \
    STRATA_NVTX_RANGE("strata::DeviceSegmentedSort::" #NAME);                                                         \
    return pairs<DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,    \
                             num_items, num_segments, d_begin_offsets, d_end_offsets, stream);                        \
  }                                                                                                                   \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT, typename BeginOffsetIteratorT, \
            typename EndOffsetIteratorT>                                                                              \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,               \
                          DoubleBuffer<ValueT>& d_values, NumItemsT num_items, NumSegmentsT num_segments,             \
                          BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,                     \
                          cudaStream_t stream = 0)                                                                    \
  {                                                                                                                   \
    STRATA_NVTX_RANGE("strata::DeviceSegmentedSort::" #NAME);                                                         \
    return pairs<DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, num_segments,           \
                             d_begin_offsets, d_end_offsets, stream);                                                 \
  }                                                                                                                   \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT, typename BeginOffsetIteratorT, \
            typename EndOffsetIteratorT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>      \
  static cudaError_t NAME(const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,   \
                          NumItemsT num_items, NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,       \
                          EndOffsetIteratorT d_end_offsets, const EnvT& env = {})                                     \
  {                                                                                                                   \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_keys_in, d_keys_out, d_values_in,          \
                                     d_values_out, num_items, num_segments, d_begin_offsets, d_end_offsets);          \
  }                                                                                                                   \
  template <typename KeyT, typename NumItemsT, typename NumSegmentsT, typename ValueT, typename BeginOffsetIteratorT, \
            typename EndOffsetIteratorT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>      \
  static cudaError_t NAME(DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values, NumItemsT num_items,            \
                          NumSegmentsT num_segments, BeginOffsetIteratorT d_begin_offsets,                            \
                          EndOffsetIteratorT d_end_offsets, const EnvT& env = {})                                     \
  {                                                                                                                   \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_keys, d_values, num_items, num_segments,   \
                                     d_begin_offsets, d_end_offsets);                                                 \
  }

  STRATA_SEGMENTED_SORT_KEYS(SortKeys, false)
  STRATA_SEGMENTED_SORT_KEYS(SortKeysDescending, true)
  STRATA_SEGMENTED_SORT_KEYS(StableSortKeys, false)
  STRATA_SEGMENTED_SORT_KEYS(StableSortKeysDescending, true)
  STRATA_SEGMENTED_SORT_PAIRS(SortPairs, false)
  STRATA_SEGMENTED_SORT_PAIRS(SortPairsDescending, true)
  STRATA_SEGMENTED_SORT_PAIRS(StableSortPairs, false)
  STRATA_SEGMENTED_SORT_PAIRS(StableSortPairsDescending, true)
#undef STRATA_SEGMENTED_SORT_KEYS
#undef STRATA_SEGMENTED_SORT_PAIRS
};

STRATA_NAMESPACE_END
