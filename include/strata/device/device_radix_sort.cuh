// DeviceRadixSort: stable least-significant-digit radix sorts of keys, or of keys and values, with CUB's
// two-phase temporary-storage API (include/strata/agent/agent_radix_sort_onesweep.cuh holds the algorithm).
//
//   size_t bytes = 0;
//   strata::DeviceRadixSort::SortKeys(nullptr, bytes, d_keys_in, d_keys_out, n);          // size query
//   cudaMalloc(&d_temp, bytes);
//   strata::DeviceRadixSort::SortKeys(d_temp, bytes, d_keys_in, d_keys_out, n, 0, 32, stream);
//
// Keys: every 8/16/32/64-bit integer (bool included), float, double, __half, __nv_bfloat16, and user types through
// a decomposer: a functor that takes a key by reference and returns a cuda::std::tuple of references to its
// arithmetic members, the most significant first. Floating-point keys: -0.0 and +0.0 are equal keys (each keeps its
// bits, stable order decides), NaNs go by their bits (negative ones before -inf, positive ones after +inf). Values:
// any trivially copyable type. Every sort is stable.
//
// Only the bits [begin_bit, end_bit) of the keys' bit-ordered images are compared (for a decomposer: of the
// concatenation of its members' images, the last member lowest). One digit pass per 8 bits: a pass whose digit is
// the same for every key is skipped. The in/out forms leave d_keys_in (and d_values_in) untouched and need
// temporary storage for one more copy of the keys (and values); the DoubleBuffer forms use both buffers as scratch,
// need little temporary storage, and set the selectors to the buffer that holds the result.
// Complexity: one histogram pass over the keys, then per digit one read and one write of keys (and values).
// Every call also has a single-phase form that takes an execution policy in place of the temporary-storage
// arguments and the stream (strata/execution/policy.cuh):
//
//   strata::DeviceRadixSort::SortPairs(d_keys_in, d_keys_out, d_values_in, d_values_out, n, strata::par.on(s));
//
// Errors (cudaErrorInvalidValue, before anything is launched or written): negative num_items, begin_bit < 0,
// begin_bit > end_bit, end_bit past the key's bits, too small temp_storage_bytes, null pointers with num_items > 0.
// No items: nothing is written.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_radix_sort.cuh>
#include <strata/execution/policy.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/double_buffer.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace radix_sort
{
// Enables the overloads that take a decomposer (anything but an integer, which would be a begin_bit).
template <typename DecomposerT>
using enable_if_decomposer_t =
    cuda::std::enable_if_t<!cuda::std::is_integral<DecomposerT>::value && !is_execution_policy_v<DecomposerT>, int>;
} // namespace radix_sort
} // namespace detail

struct DeviceRadixSort
{
private:
  template <bool IS_DESCENDING, typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT>
  static cudaError_t sort(void* d_temp_storage,
                          size_t& temp_storage_bytes,
                          DoubleBuffer<KeyT>& d_keys,
                          DoubleBuffer<ValueT>& d_values,
                          NumItemsT num_items,
                          int begin_bit,
                          int end_bit,
                          bool is_overwrite_okay,
                          cudaStream_t stream,
                          DecomposerT decomposer)
  {
    static_assert(cuda::std::is_integral<NumItemsT>::value, "num_items must be an integer");
    if constexpr (cuda::std::is_signed<NumItemsT>::value)
    {
      if (num_items < 0)
      {
        return cudaErrorInvalidValue;
      }
    }
    return detail::dispatch_offset(
        num_items,
        [&](auto offset)
        {
          using OffsetT = decltype(offset);
          return DispatchRadixSort<IS_DESCENDING, KeyT, ValueT, OffsetT, DecomposerT>::Dispatch(
              d_temp_storage, temp_storage_bytes, d_keys, d_values, offset, begin_bit, end_bit, is_overwrite_okay,
              stream, decomposer);
        });
  }

  // The in/out forms: the inputs are read only, the results land in the outputs.
  template <bool IS_DESCENDING, typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT>
  static cudaError_t sort_copy(void* d_temp_storage,
                               size_t& temp_storage_bytes,
                               const KeyT* d_keys_in,
                               KeyT* d_keys_out,
                               const ValueT* d_values_in,
                               ValueT* d_values_out,
                               NumItemsT num_items,
                               int begin_bit,
                               int end_bit,
                               cudaStream_t stream,
                               DecomposerT decomposer)
  {
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<ValueT> values(const_cast<ValueT*>(d_values_in), d_values_out);
    return sort<IS_DESCENDING>(d_temp_storage, temp_storage_bytes, keys, values, num_items, begin_bit, end_bit, false,
                               stream, decomposer);
  }

  // The single-phase forms' calls: sort_copy (in/out) and sort (DoubleBuffer, either buffer may be overwritten) with
  // temporary storage and stream from `policy`.
  template <bool IS_DESCENDING,
            typename PolicyT,
            typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT>
  static cudaError_t sort_copy_on(const PolicyT& policy,
                                  const KeyT* d_keys_in,
                                  KeyT* d_keys_out,
                                  const ValueT* d_values_in,
                                  ValueT* d_values_out,
                                  NumItemsT num_items,
                                  int begin_bit,
                                  int end_bit,
                                  DecomposerT decomposer)
  {
    return detail::run_single_phase(policy, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return sort_copy<IS_DESCENDING>(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items,
                                      begin_bit, end_bit, stream, decomposer);
    });
  }
  template <bool IS_DESCENDING,
            typename PolicyT,
            typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT>
  static cudaError_t sort_on(const PolicyT& policy,
                             DoubleBuffer<KeyT>& d_keys,
                             DoubleBuffer<ValueT>& d_values,
                             NumItemsT num_items,
                             int begin_bit,
                             int end_bit,
                             DecomposerT decomposer)
  {
    return detail::run_single_phase(policy, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return sort<IS_DESCENDING>(d_temp, bytes, d_keys, d_values, num_items, begin_bit, end_bit, true, stream,
                                 decomposer);
    });
  }

  template <typename KeyT, typename DecomposerT = detail::radix_sort::no_decomposer>
  static constexpr int key_bits(DecomposerT = {})
  {
    return detail::radix_sort::key_codec<KeyT, false, DecomposerT>::BITS;
  }

public:
  // Sorts keys ascending and moves each value with its key.
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairs(void* d_temp_storage,
                               size_t& temp_storage_bytes,
                               const KeyT* d_keys_in,
                               KeyT* d_keys_out,
                               const ValueT* d_values_in,
                               ValueT* d_values_out,
                               NumItemsT num_items,
                               int begin_bit       = 0,
                               int end_bit         = key_bits<KeyT>(),
                               cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairs");
    return sort_copy<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                            num_items, begin_bit, end_bit, stream, detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortPairs(void* d_temp_storage,
                               size_t& temp_storage_bytes,
                               const KeyT* d_keys_in,
                               KeyT* d_keys_out,
                               const ValueT* d_values_in,
                               ValueT* d_values_out,
                               NumItemsT num_items,
                               DecomposerT decomposer,
                               cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairs");
    return sort_copy<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                            num_items, 0, key_bits<KeyT>(decomposer), stream, decomposer);
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortPairs(void* d_temp_storage,
                               size_t& temp_storage_bytes,
                               const KeyT* d_keys_in,
                               KeyT* d_keys_out,
                               const ValueT* d_values_in,
                               ValueT* d_values_out,
                               NumItemsT num_items,
                               DecomposerT decomposer,
                               int begin_bit,
                               int end_bit,
                               cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairs");
    return sort_copy<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                            num_items, begin_bit, end_bit, stream, decomposer);
  }

  // As SortPairs, in the DoubleBuffer form.
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairs(void* d_temp_storage,
                               size_t& temp_storage_bytes,
                               DoubleBuffer<KeyT>& d_keys,
                               DoubleBuffer<ValueT>& d_values,
                               NumItemsT num_items,
                               int begin_bit       = 0,
                               int end_bit         = key_bits<KeyT>(),
                               cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairs");
    return sort<false>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, begin_bit, end_bit, true,
                       stream, detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortPairs(void* d_temp_storage,
                               size_t& temp_storage_bytes,
                               DoubleBuffer<KeyT>& d_keys,
                               DoubleBuffer<ValueT>& d_values,
                               NumItemsT num_items,
                               DecomposerT decomposer,
                               cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairs");
    return sort<false>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, 0, key_bits<KeyT>(decomposer),
                       true, stream, decomposer);
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortPairs(void* d_temp_storage,
                               size_t& temp_storage_bytes,
                               DoubleBuffer<KeyT>& d_keys,
                               DoubleBuffer<ValueT>& d_values,
                               NumItemsT num_items,
                               DecomposerT decomposer,
                               int begin_bit,
                               int end_bit,
                               cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairs");
    return sort<false>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, begin_bit, end_bit, true,
                       stream, decomposer);
  }

  // Sorts keys descending (equal keys still in input order) and moves each value with its key.
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairsDescending(void* d_temp_storage,
                                         size_t& temp_storage_bytes,
                                         const KeyT* d_keys_in,
                                         KeyT* d_keys_out,
                                         const ValueT* d_values_in,
                                         ValueT* d_values_out,
                                         NumItemsT num_items,
                                         int begin_bit       = 0,
                                         int end_bit         = key_bits<KeyT>(),
                                         cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairsDescending");
    return sort_copy<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                           num_items, begin_bit, end_bit, stream, detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortPairsDescending(void* d_temp_storage,
                                         size_t& temp_storage_bytes,
                                         const KeyT* d_keys_in,
                                         KeyT* d_keys_out,
                                         const ValueT* d_values_in,
                                         ValueT* d_values_out,
                                         NumItemsT num_items,
                                         DecomposerT decomposer,
                                         cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairsDescending");
    return sort_copy<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                           num_items, 0, key_bits<KeyT>(decomposer), stream, decomposer);
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortPairsDescending(void* d_temp_storage,
                                         size_t& temp_storage_bytes,
                                         const KeyT* d_keys_in,
                                         KeyT* d_keys_out,
                                         const ValueT* d_values_in,
                                         ValueT* d_values_out,
                                         NumItemsT num_items,
                                         DecomposerT decomposer,
                                         int begin_bit,
                                         int end_bit,
                                         cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairsDescending");
    return sort_copy<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                           num_items, begin_bit, end_bit, stream, decomposer);
  }

  // As SortPairsDescending, in the DoubleBuffer form.
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairsDescending(void* d_temp_storage,
                                         size_t& temp_storage_bytes,
                                         DoubleBuffer<KeyT>& d_keys,
                                         DoubleBuffer<ValueT>& d_values,
                                         NumItemsT num_items,
                                         int begin_bit       = 0,
                                         int end_bit         = key_bits<KeyT>(),
                                         cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairsDescending");
    return sort<true>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, begin_bit, end_bit, true, stream,
                      detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortPairsDescending(void* d_temp_storage,
                                         size_t& temp_storage_bytes,
                                         DoubleBuffer<KeyT>& d_keys,
                                         DoubleBuffer<ValueT>& d_values,
                                         NumItemsT num_items,
                                         DecomposerT decomposer,
                                         cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairsDescending");
    return sort<true>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, 0, key_bits<KeyT>(decomposer),
                      true, stream, decomposer);
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortPairsDescending(void* d_temp_storage,
                                         size_t& temp_storage_bytes,
                                         DoubleBuffer<KeyT>& d_keys,
                                         DoubleBuffer<ValueT>& d_values,
                                         NumItemsT num_items,
                                         DecomposerT decomposer,
                                         int begin_bit,
                                         int end_bit,
                                         cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairsDescending");
    return sort<true>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, begin_bit, end_bit, true, stream,
                      decomposer);
  }

  // Sorts keys ascending.
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeys(void* d_temp_storage,
                              size_t& temp_storage_bytes,
                              const KeyT* d_keys_in,
                              KeyT* d_keys_out,
                              NumItemsT num_items,
                              int begin_bit       = 0,
                              int end_bit         = key_bits<KeyT>(),
                              cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeys");
    return sort_copy<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                            static_cast<const NullType*>(nullptr), static_cast<NullType*>(nullptr), num_items,
                            begin_bit, end_bit, stream, detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortKeys(void* d_temp_storage,
                              size_t& temp_storage_bytes,
                              const KeyT* d_keys_in,
                              KeyT* d_keys_out,
                              NumItemsT num_items,
                              DecomposerT decomposer,
                              cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeys");
    return sort_copy<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                            static_cast<const NullType*>(nullptr), static_cast<NullType*>(nullptr), num_items, 0,
                            key_bits<KeyT>(decomposer), stream, decomposer);
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortKeys(void* d_temp_storage,
                              size_t& temp_storage_bytes,
                              const KeyT* d_keys_in,
                              KeyT* d_keys_out,
                              NumItemsT num_items,
                              DecomposerT decomposer,
                              int begin_bit,
                              int end_bit,
                              cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeys");
    return sort_copy<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                            static_cast<const NullType*>(nullptr), static_cast<NullType*>(nullptr), num_items,
                            begin_bit, end_bit, stream, decomposer);
  }

  // As SortKeys, in the DoubleBuffer form.
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeys(void* d_temp_storage,
                              size_t& temp_storage_bytes,
                              DoubleBuffer<KeyT>& d_keys,
                              NumItemsT num_items,
                              int begin_bit       = 0,
                              int end_bit         = key_bits<KeyT>(),
                              cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeys");
    DoubleBuffer<NullType> values;
    return sort<false>(d_temp_storage, temp_storage_bytes, d_keys, values, num_items, begin_bit, end_bit, true, stream,
                       detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortKeys(void* d_temp_storage,
                              size_t& temp_storage_bytes,
                              DoubleBuffer<KeyT>& d_keys,
                              NumItemsT num_items,
                              DecomposerT decomposer,
                              cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeys");
    DoubleBuffer<NullType> values;
    return sort<false>(d_temp_storage, temp_storage_bytes, d_keys, values, num_items, 0, key_bits<KeyT>(decomposer),
                       true, stream, decomposer);
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortKeys(void* d_temp_storage,
                              size_t& temp_storage_bytes,
                              DoubleBuffer<KeyT>& d_keys,
                              NumItemsT num_items,
                              DecomposerT decomposer,
                              int begin_bit,
                              int end_bit,
                              cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeys");
    DoubleBuffer<NullType> values;
    return sort<false>(d_temp_storage, temp_storage_bytes, d_keys, values, num_items, begin_bit, end_bit, true, stream,
                       decomposer);
  }

  // Sorts keys descending.
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeysDescending(void* d_temp_storage,
                                        size_t& temp_storage_bytes,
                                        const KeyT* d_keys_in,
                                        KeyT* d_keys_out,
                                        NumItemsT num_items,
                                        int begin_bit       = 0,
                                        int end_bit         = key_bits<KeyT>(),
                                        cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeysDescending");
    return sort_copy<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                           static_cast<const NullType*>(nullptr), static_cast<NullType*>(nullptr), num_items, begin_bit,
                           end_bit, stream, detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortKeysDescending(void* d_temp_storage,
                                        size_t& temp_storage_bytes,
                                        const KeyT* d_keys_in,
                                        KeyT* d_keys_out,
                                        NumItemsT num_items,
                                        DecomposerT decomposer,
                                        cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeysDescending");
    return sort_copy<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                           static_cast<const NullType*>(nullptr), static_cast<NullType*>(nullptr), num_items, 0,
                           key_bits<KeyT>(decomposer), stream, decomposer);
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortKeysDescending(void* d_temp_storage,
                                        size_t& temp_storage_bytes,
                                        const KeyT* d_keys_in,
                                        KeyT* d_keys_out,
                                        NumItemsT num_items,
                                        DecomposerT decomposer,
                                        int begin_bit,
                                        int end_bit,
                                        cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeysDescending");
    return sort_copy<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                           static_cast<const NullType*>(nullptr), static_cast<NullType*>(nullptr), num_items, begin_bit,
                           end_bit, stream, decomposer);
  }

  // As SortKeysDescending, in the DoubleBuffer form.
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeysDescending(void* d_temp_storage,
                                        size_t& temp_storage_bytes,
                                        DoubleBuffer<KeyT>& d_keys,
                                        NumItemsT num_items,
                                        int begin_bit       = 0,
                                        int end_bit         = key_bits<KeyT>(),
                                        cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeysDescending");
    DoubleBuffer<NullType> values;
    return sort<true>(d_temp_storage, temp_storage_bytes, d_keys, values, num_items, begin_bit, end_bit, true, stream,
                      detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortKeysDescending(void* d_temp_storage,
                                        size_t& temp_storage_bytes,
                                        DoubleBuffer<KeyT>& d_keys,
                                        NumItemsT num_items,
                                        DecomposerT decomposer,
                                        cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeysDescending");
    DoubleBuffer<NullType> values;
    return sort<true>(d_temp_storage, temp_storage_bytes, d_keys, values, num_items, 0, key_bits<KeyT>(decomposer),
                      true, stream, decomposer);
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>
  static cudaError_t SortKeysDescending(void* d_temp_storage,
                                        size_t& temp_storage_bytes,
                                        DoubleBuffer<KeyT>& d_keys,
                                        NumItemsT num_items,
                                        DecomposerT decomposer,
                                        int begin_bit,
                                        int end_bit,
                                        cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeysDescending");
    DoubleBuffer<NullType> values;
    return sort<true>(d_temp_storage, temp_storage_bytes, d_keys, values, num_items, begin_bit, end_bit, true, stream,
                      decomposer);
  }

  // -- Single-phase forms: temporary storage and stream from `policy` ------------------------------------------

  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename PolicyT,
            detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t SortPairs(const KeyT* d_keys_in,
                               KeyT* d_keys_out,
                               const ValueT* d_values_in,
                               ValueT* d_values_out,
                               NumItemsT num_items,
                               const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairs");
    return sort_copy_on<false>(policy, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, 0,
                               key_bits<KeyT>(), detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename PolicyT,
            detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t SortPairs(const KeyT* d_keys_in,
                               KeyT* d_keys_out,
                               const ValueT* d_values_in,
                               ValueT* d_values_out,
                               NumItemsT num_items,
                               int begin_bit,
                               int end_bit,
                               const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairs");
    return sort_copy_on<false>(policy, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, begin_bit,
                               end_bit, detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t SortPairs(const KeyT* d_keys_in,
                               KeyT* d_keys_out,
                               const ValueT* d_values_in,
                               ValueT* d_values_out,
                               NumItemsT num_items,
                               DecomposerT decomposer,
                               const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairs");
    return sort_copy_on<false>(policy, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, 0,
                               key_bits<KeyT>(decomposer), decomposer);
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t SortPairs(const KeyT* d_keys_in,
                               KeyT* d_keys_out,
                               const ValueT* d_values_in,
                               ValueT* d_values_out,
                               NumItemsT num_items,
                               DecomposerT decomposer,
                               int begin_bit,
                               int end_bit,
                               const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairs");
    return sort_copy_on<false>(policy, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, begin_bit,
                               end_bit, decomposer);
  }

  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename PolicyT,
            detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t
  SortPairs(DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values, NumItemsT num_items, const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairs");
    return sort_on<false>(policy, d_keys, d_values, num_items, 0, key_bits<KeyT>(),
                          detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename PolicyT,
            detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t SortPairs(DoubleBuffer<KeyT>& d_keys,
                               DoubleBuffer<ValueT>& d_values,
                               NumItemsT num_items,
                               int begin_bit,
                               int end_bit,
                               const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairs");
    return sort_on<false>(policy, d_keys, d_values, num_items, begin_bit, end_bit,
                          detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t SortPairs(DoubleBuffer<KeyT>& d_keys,
                               DoubleBuffer<ValueT>& d_values,
                               NumItemsT num_items,
                               DecomposerT decomposer,
                               const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairs");
    return sort_on<false>(policy, d_keys, d_values, num_items, 0, key_bits<KeyT>(decomposer), decomposer);
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t SortPairs(DoubleBuffer<KeyT>& d_keys,
                               DoubleBuffer<ValueT>& d_values,
                               NumItemsT num_items,
                               DecomposerT decomposer,
                               int begin_bit,
                               int end_bit,
                               const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairs");
    return sort_on<false>(policy, d_keys, d_values, num_items, begin_bit, end_bit, decomposer);
  }

  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename PolicyT,
            detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t SortPairsDescending(const KeyT* d_keys_in,
                                         KeyT* d_keys_out,
                                         const ValueT* d_values_in,
                                         ValueT* d_values_out,
                                         NumItemsT num_items,
                                         const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairsDescending");
    return sort_copy_on<true>(policy, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, 0,
                              key_bits<KeyT>(), detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename PolicyT,
            detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t SortPairsDescending(const KeyT* d_keys_in,
                                         KeyT* d_keys_out,
                                         const ValueT* d_values_in,
                                         ValueT* d_values_out,
                                         NumItemsT num_items,
                                         int begin_bit,
                                         int end_bit,
                                         const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairsDescending");
    return sort_copy_on<true>(policy, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, begin_bit, end_bit,
                              detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t SortPairsDescending(const KeyT* d_keys_in,
                                         KeyT* d_keys_out,
                                         const ValueT* d_values_in,
                                         ValueT* d_values_out,
                                         NumItemsT num_items,
                                         DecomposerT decomposer,
                                         const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairsDescending");
    return sort_copy_on<true>(policy, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, 0,
                              key_bits<KeyT>(decomposer), decomposer);
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t SortPairsDescending(const KeyT* d_keys_in,
                                         KeyT* d_keys_out,
                                         const ValueT* d_values_in,
                                         ValueT* d_values_out,
                                         NumItemsT num_items,
                                         DecomposerT decomposer,
                                         int begin_bit,
                                         int end_bit,
                                         const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairsDescending");
    return sort_copy_on<true>(policy, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, begin_bit, end_bit,
                              decomposer);
  }

  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename PolicyT,
            detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t SortPairsDescending(DoubleBuffer<KeyT>& d_keys,
                                         DoubleBuffer<ValueT>& d_values,
                                         NumItemsT num_items,
                                         const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairsDescending");
    return sort_on<true>(policy, d_keys, d_values, num_items, 0, key_bits<KeyT>(),
                         detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename PolicyT,
            detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t SortPairsDescending(DoubleBuffer<KeyT>& d_keys,
                                         DoubleBuffer<ValueT>& d_values,
                                         NumItemsT num_items,
                                         int begin_bit,
                                         int end_bit,
                                         const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairsDescending");
    return sort_on<true>(policy, d_keys, d_values, num_items, begin_bit, end_bit,
                         detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t SortPairsDescending(DoubleBuffer<KeyT>& d_keys,
                                         DoubleBuffer<ValueT>& d_values,
                                         NumItemsT num_items,
                                         DecomposerT decomposer,
                                         const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairsDescending");
    return sort_on<true>(policy, d_keys, d_values, num_items, 0, key_bits<KeyT>(decomposer), decomposer);
  }
  template <typename KeyT,
            typename ValueT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t SortPairsDescending(DoubleBuffer<KeyT>& d_keys,
                                         DoubleBuffer<ValueT>& d_values,
                                         NumItemsT num_items,
                                         DecomposerT decomposer,
                                         int begin_bit,
                                         int end_bit,
                                         const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortPairsDescending");
    return sort_on<true>(policy, d_keys, d_values, num_items, begin_bit, end_bit, decomposer);
  }

  template <typename KeyT, typename NumItemsT, typename PolicyT, detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t SortKeys(const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items, const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeys");
    return sort_copy_on<false>(policy, d_keys_in, d_keys_out, static_cast<const NullType*>(nullptr),
                               static_cast<NullType*>(nullptr), num_items, 0, key_bits<KeyT>(),
                               detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT, typename NumItemsT, typename PolicyT, detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t SortKeys(const KeyT* d_keys_in,
                              KeyT* d_keys_out,
                              NumItemsT num_items,
                              int begin_bit,
                              int end_bit,
                              const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeys");
    return sort_copy_on<false>(policy, d_keys_in, d_keys_out, static_cast<const NullType*>(nullptr),
                               static_cast<NullType*>(nullptr), num_items, begin_bit, end_bit,
                               detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t
  SortKeys(const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items, DecomposerT decomposer, const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeys");
    return sort_copy_on<false>(policy, d_keys_in, d_keys_out, static_cast<const NullType*>(nullptr),
                               static_cast<NullType*>(nullptr), num_items, 0, key_bits<KeyT>(decomposer), decomposer);
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t SortKeys(const KeyT* d_keys_in,
                              KeyT* d_keys_out,
                              NumItemsT num_items,
                              DecomposerT decomposer,
                              int begin_bit,
                              int end_bit,
                              const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeys");
    return detail::run_single_phase(
        policy,
        [&](void* d_temp, size_t& bytes, cudaStream_t stream)
        {
          return sort_copy<false>(d_temp, bytes, d_keys_in, d_keys_out, static_cast<const NullType*>(nullptr),
                                  static_cast<NullType*>(nullptr), num_items, begin_bit, end_bit, stream, decomposer);
        });
  }

  template <typename KeyT, typename NumItemsT, typename PolicyT, detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t SortKeys(DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeys");
    DoubleBuffer<NullType> values;
    return sort_on<false>(policy, d_keys, values, num_items, 0, key_bits<KeyT>(),
                          detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT, typename NumItemsT, typename PolicyT, detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t
  SortKeys(DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, int begin_bit, int end_bit, const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeys");
    DoubleBuffer<NullType> values;
    return sort_on<false>(policy, d_keys, values, num_items, begin_bit, end_bit, detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t
  SortKeys(DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, DecomposerT decomposer, const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeys");
    DoubleBuffer<NullType> values;
    return sort_on<false>(policy, d_keys, values, num_items, 0, key_bits<KeyT>(decomposer), decomposer);
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t SortKeys(DoubleBuffer<KeyT>& d_keys,
                              NumItemsT num_items,
                              DecomposerT decomposer,
                              int begin_bit,
                              int end_bit,
                              const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeys");
    DoubleBuffer<NullType> values;
    return sort_on<false>(policy, d_keys, values, num_items, begin_bit, end_bit, decomposer);
  }

  template <typename KeyT, typename NumItemsT, typename PolicyT, detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t
  SortKeysDescending(const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items, const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeysDescending");
    return sort_copy_on<true>(policy, d_keys_in, d_keys_out, static_cast<const NullType*>(nullptr),
                              static_cast<NullType*>(nullptr), num_items, 0, key_bits<KeyT>(),
                              detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT, typename NumItemsT, typename PolicyT, detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t SortKeysDescending(const KeyT* d_keys_in,
                                        KeyT* d_keys_out,
                                        NumItemsT num_items,
                                        int begin_bit,
                                        int end_bit,
                                        const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeysDescending");
    return sort_copy_on<true>(policy, d_keys_in, d_keys_out, static_cast<const NullType*>(nullptr),
                              static_cast<NullType*>(nullptr), num_items, begin_bit, end_bit,
                              detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t SortKeysDescending(const KeyT* d_keys_in,
                                        KeyT* d_keys_out,
                                        NumItemsT num_items,
                                        DecomposerT decomposer,
                                        const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeysDescending");
    return sort_copy_on<true>(policy, d_keys_in, d_keys_out, static_cast<const NullType*>(nullptr),
                              static_cast<NullType*>(nullptr), num_items, 0, key_bits<KeyT>(decomposer), decomposer);
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t SortKeysDescending(const KeyT* d_keys_in,
                                        KeyT* d_keys_out,
                                        NumItemsT num_items,
                                        DecomposerT decomposer,
                                        int begin_bit,
                                        int end_bit,
                                        const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeysDescending");
    return detail::run_single_phase(
        policy,
        [&](void* d_temp, size_t& bytes, cudaStream_t stream)
        {
          return sort_copy<true>(d_temp, bytes, d_keys_in, d_keys_out, static_cast<const NullType*>(nullptr),
                                 static_cast<NullType*>(nullptr), num_items, begin_bit, end_bit, stream, decomposer);
        });
  }

  template <typename KeyT, typename NumItemsT, typename PolicyT, detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t SortKeysDescending(DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeysDescending");
    DoubleBuffer<NullType> values;
    return sort_on<true>(policy, d_keys, values, num_items, 0, key_bits<KeyT>(), detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT, typename NumItemsT, typename PolicyT, detail::enable_if_execution_policy_t<PolicyT> = 0>
  static cudaError_t
  SortKeysDescending(DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, int begin_bit, int end_bit, const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeysDescending");
    DoubleBuffer<NullType> values;
    return sort_on<true>(policy, d_keys, values, num_items, begin_bit, end_bit, detail::radix_sort::no_decomposer{});
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t
  SortKeysDescending(DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, DecomposerT decomposer, const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeysDescending");
    DoubleBuffer<NullType> values;
    return sort_on<true>(policy, d_keys, values, num_items, 0, key_bits<KeyT>(decomposer), decomposer);
  }
  template <typename KeyT,
            typename NumItemsT,
            typename DecomposerT,
            typename PolicyT,
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0,
            detail::enable_if_execution_policy_t<PolicyT>           = 0>
  static cudaError_t SortKeysDescending(DoubleBuffer<KeyT>& d_keys,
                                        NumItemsT num_items,
                                        DecomposerT decomposer,
                                        int begin_bit,
                                        int end_bit,
                                        const PolicyT& policy)
  {
    STRATA_NVTX_RANGE("strata::DeviceRadixSort::SortKeysDescending");
    DoubleBuffer<NullType> values;
    return detail::run_single_phase(
        policy, [&](void* d_temp, size_t& bytes, cudaStream_t stream)
        { return sort<true>(d_temp, bytes, d_keys, values, num_items, begin_bit, end_bit, true, stream, decomposer); });
  }
};

STRATA_NAMESPACE_END
