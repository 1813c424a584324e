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
// bits, stable order decides), NaNs go by their bits (negative ones before -inf, positive ones after +inf). A
// descending sort reverses that order: positive NaNs come first (the largest payload first), negative NaNs last,
// after -inf, in ascending order of their payloads (the largest payload last). Values: any trivially copyable type.
// Every sort is stable.
//
// Only the bits [begin_bit, end_bit) of the keys' bit-ordered images are compared (for a decomposer: of the
// concatenation of its members' images, the last member lowest). One digit pass per 8 bits: a pass whose digit is
// the same for every key is skipped. The in/out forms leave d_keys_in (and d_values_in) untouched and need
// temporary storage for one more copy of the keys (and values); the DoubleBuffer forms use both buffers as scratch,
// need little temporary storage, and set the selectors to the buffer that holds the result.
// Complexity: one histogram pass over the keys, then per digit one read and one write of keys (and values).
// Every call also has a single-phase form without the temporary-storage arguments: after num_items come the
// two-phase form's [decomposer] [, begin_bit, end_bit], then, optionally, a stream or a policy
// (strata/device/dispatch/single_phase.cuh; strata::par is in strata/execution/policy.cuh):
//
//   strata::DeviceRadixSort::SortKeys(d_keys_in, d_keys_out, n);                            // pool, default stream
//   strata::DeviceRadixSort::SortPairs(d_keys_in, d_keys_out, d_values_in, d_values_out, n, strata::par.on(s));
//   strata::DeviceRadixSort::SortKeys(d_keys, n, 0, 20, stream);                             // DoubleBuffer, bits
//
// Errors (cudaErrorInvalidValue, before anything is launched or written): negative num_items, begin_bit < 0,
// begin_bit > end_bit, end_bit past the key's bits, too small temp_storage_bytes, null pointers with num_items > 0.
// No items: nothing is written.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_radix_sort.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/double_buffer.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace radix_sort
{
// Enables the overloads that take a decomposer (anything but an integer, which would be a begin_bit, or an
// environment).
template <typename DecomposerT>
constexpr bool is_decomposer_v = !cuda::std::is_integral<DecomposerT>::value && !is_env_v<DecomposerT>;
template <typename DecomposerT>
using enable_if_decomposer_t = cuda::std::enable_if_t<is_decomposer_v<DecomposerT>, int>;
template <typename NumItemsT>
using enable_if_integral_t = cuda::std::enable_if_t<is_item_count_v<NumItemsT>, int>;

// The NVTX name of each entry point.
template <bool IS_DESCENDING, bool KEYS_ONLY>
constexpr const char* entry_name()
{
  if constexpr (KEYS_ONLY)
  {
    return IS_DESCENDING ? "strata::DeviceRadixSort::SortKeysDescending" : "strata::DeviceRadixSort::SortKeys";
  }
  else
  {
    return IS_DESCENDING ? "strata::DeviceRadixSort::SortPairsDescending" : "strata::DeviceRadixSort::SortPairs";
  }
}

// The arguments of a single-phase sort after num_items: [decomposer] [, begin_bit, end_bit] [, env].
template <typename... ArgsT>
struct sort_tail : cuda::std::false_type
{};
template <>
struct sort_tail<> : cuda::std::true_type
{};
template <typename BeginT, typename EndT>
struct sort_tail<BeginT, EndT>
    : cuda::std::bool_constant<cuda::std::is_integral<BeginT>::value && cuda::std::is_integral<EndT>::value>
{};
template <typename DecomposerT>
struct sort_tail<DecomposerT> : cuda::std::bool_constant<is_decomposer_v<DecomposerT>>
{};
template <typename DecomposerT, typename BeginT, typename EndT>
struct sort_tail<DecomposerT, BeginT, EndT>
    : cuda::std::bool_constant<is_decomposer_v<DecomposerT> && sort_tail<BeginT, EndT>::value>
{};

// Whether a tuple's element types are the arguments a sort takes after num_items (sort_tail).
template <typename TupleT>
struct is_sort_tail;
template <typename... T>
struct is_sort_tail<cuda::std::tuple<T...>> : sort_tail<cuda::std::remove_cvref_t<T>...>
{};

// Calls `two_phase(d_temp_storage, temp_storage_bytes, head..., tail..., stream)` with the temporary storage and the
// stream of `env`.
template <typename EnvT, typename CallT, typename HeadT, typename TailT>
cudaError_t run_sort(const EnvT& env, CallT& two_phase, HeadT& head, const TailT& tail)
{
  static_assert(is_sort_tail<TailT>::value, "strata::DeviceRadixSort: the arguments after num_items are [decomposer] "
                                            "[, begin_bit, end_bit] [, a stream or a policy]");
  return ::strata::detail::run_single_phase(env, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
    auto all = cuda::std::tuple_cat(head, tail);
    return cuda::std::apply(
      [&](auto&... arg) {
        return two_phase(d_temp, bytes, arg..., stream);
      },
      all);
  });
}

template <typename TupleT, size_t... I>
auto tuple_head(const TupleT& all, cuda::std::index_sequence<I...>)
{
  return cuda::std::tie(cuda::std::get<I>(all)...);
}

// A single-phase sort: `two_phase(d_temp_storage, temp_storage_bytes, args...)` is the entry point's two-phase
// overload set, `head` a tuple of references to the arguments up to num_items, `args` those after num_items, the
// environment last if any.
template <typename KeyT, typename CallT, typename HeadT, typename... ArgsT>
cudaError_t run_single_phase(CallT two_phase, HeadT head, const ArgsT&... args)
{
  constexpr size_t N = sizeof...(ArgsT);
  if constexpr (N == 0)
  {
    return run_single_phase<KeyT>(two_phase, head, default_env{});
  }
  else if constexpr (!is_env_v<cuda::std::tuple_element_t<N - 1, cuda::std::tuple<ArgsT...>>>)
  {
    return run_single_phase<KeyT>(two_phase, head, args..., default_env{});
  }
  else
  {
    const auto all  = cuda::std::tie(args...);
    const auto& env = cuda::std::get<N - 1>(all);
    if constexpr (N == 1)
    {
      // No bits: the key's (the two-phase form's defaults, which a stream cannot follow).
      return run_sort(env, two_phase, head, cuda::std::make_tuple(0, key_codec<KeyT, false, no_decomposer>::BITS));
    }
    else
    {
      const auto tail = tuple_head(all, cuda::std::make_index_sequence<N - 1>{});
      return run_sort(env, two_phase, head, tail);
    }
  }
}
} // namespace radix_sort
} // namespace detail

struct DeviceRadixSort
{
private:
  template <bool IS_DESCENDING, typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT>
  static cudaError_t sort(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                          DoubleBuffer<ValueT>& d_values, NumItemsT num_items, int begin_bit, int end_bit,
                          bool is_overwrite_okay, cudaStream_t stream, DecomposerT decomposer)
  {
    STRATA_NVTX_RANGE((detail::radix_sort::entry_name<IS_DESCENDING, cuda::std::is_same<ValueT, NullType>::value>()));
    static_assert(detail::is_item_count_v<NumItemsT>, "num_items must be an integer or a strata::device_count");
    if (d_temp_storage != nullptr && detail::is_null_count(num_items))
    {
      return cudaErrorInvalidValue;
    }
    // The dispatch refuses a negative count and runs the sort on 64-bit offsets, whatever NumItemsT.
    using BoundT = detail::count_value_t<NumItemsT>;
    return DispatchRadixSort<IS_DESCENDING, KeyT, ValueT, BoundT, DecomposerT,
                             detail::radix_sort::policy_hub<KeyT, ValueT, BoundT>,
                             detail::item_count_t<NumItemsT>>::Dispatch(d_temp_storage, temp_storage_bytes, d_keys,
                                                                        d_values, detail::count_bound(num_items),
                                                                        begin_bit, end_bit, is_overwrite_okay, stream,
                                                                        decomposer, detail::item_count_of(num_items));
  }

  // The in/out forms: the inputs are read only, the results land in the outputs.
  template <bool IS_DESCENDING, typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT>
  static cudaError_t sort_copy(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in,
                               KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,
                               int begin_bit, int end_bit, cudaStream_t stream, DecomposerT decomposer)
  {
    DoubleBuffer<KeyT> keys(const_cast<KeyT*>(d_keys_in), d_keys_out);
    DoubleBuffer<ValueT> values(const_cast<ValueT*>(d_values_in), d_values_out);
    return sort<IS_DESCENDING>(d_temp_storage, temp_storage_bytes, keys, values, num_items, begin_bit, end_bit, false,
                               stream, decomposer);
  }

  // The keys-only forms' values: none.
  static const NullType* no_values_in()
  {
    return nullptr;
  }
  static NullType* no_values_out()
  {
    return nullptr;
  }
  static NullType no_values()
  {
    return {};
  }
  template <bool IS_DESCENDING, typename KeyT, typename NumItemsT, typename DecomposerT>
  static cudaError_t sort(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys, NullType,
                          NumItemsT num_items, int begin_bit, int end_bit, bool is_overwrite_okay, cudaStream_t stream,
                          DecomposerT decomposer)
  {
    DoubleBuffer<NullType> values;
    return sort<IS_DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys, values, num_items, begin_bit, end_bit,
                               is_overwrite_okay, stream, decomposer);
  }

  template <typename KeyT, typename DecomposerT = detail::radix_sort::no_decomposer>
  static constexpr int key_bits(DecomposerT = {})
  {
    return detail::radix_sort::key_codec<KeyT, false, DecomposerT>::BITS;
  }

public:
  // Each entry point's overloads are written once, in the macros below, for its ascending and its descending name.
  // For each layout (in/out pointers, or DoubleBuffers), the two-phase forms take, after num_items:
  //   [begin_bit = 0, end_bit = the key's bits] [, stream]
  //   decomposer [, stream]                          (the decomposer's bits)
  //   decomposer, begin_bit, end_bit [, stream]
  // and the single-phase forms the same arguments with, instead of the stream, an optional environment (a stream or
  // a policy). The in/out forms leave the inputs untouched; the DoubleBuffer forms may overwrite either buffer and
  // set its selector to the buffer that holds the result.
#define STRATA_DETAIL_RADIX_SORT_PAIRS(NAME, IS_DESCENDING)                                                            \
  template <typename KeyT, typename ValueT, typename NumItemsT>                                                        \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,   \
                          const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items, int begin_bit = 0,     \
                          int end_bit = key_bits<KeyT>(), cudaStream_t stream = 0)                                     \
  {                                                                                                                    \
    return sort_copy<IS_DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,            \
                                    d_values_out, num_items, begin_bit, end_bit, stream,                               \
                                    detail::radix_sort::no_decomposer{});                                              \
  }                                                                                                                    \
  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT,                                  \
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>                                               \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,   \
                          const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,                        \
                          DecomposerT decomposer, int begin_bit, int end_bit, cudaStream_t stream = 0)                 \
  {                                                                                                                    \
    return sort_copy<IS_DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,            \
                                    d_values_out, num_items, begin_bit, end_bit, stream, decomposer);                  \
  }                                                                                                                    \
  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT,                                  \
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>                                               \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,   \
                          const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,                        \
                          DecomposerT decomposer, cudaStream_t stream = 0)                                             \
  {                                                                                                                    \
    return NAME(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items,       \
                decomposer, 0, key_bits<KeyT>(decomposer), stream);                                                    \
  }                                                                                                                    \
  template <typename KeyT, typename ValueT, typename NumItemsT>                                                        \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,                \
                          DoubleBuffer<ValueT>& d_values, NumItemsT num_items, int begin_bit = 0,                      \
                          int end_bit = key_bits<KeyT>(), cudaStream_t stream = 0)                                     \
  {                                                                                                                    \
    return sort<IS_DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, begin_bit, end_bit,    \
                               true, stream, detail::radix_sort::no_decomposer{});                                     \
  }                                                                                                                    \
  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT,                                  \
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>                                               \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,                \
                          DoubleBuffer<ValueT>& d_values, NumItemsT num_items, DecomposerT decomposer, int begin_bit,  \
                          int end_bit, cudaStream_t stream = 0)                                                        \
  {                                                                                                                    \
    return sort<IS_DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, begin_bit, end_bit,    \
                               true, stream, decomposer);                                                              \
  }                                                                                                                    \
  template <typename KeyT, typename ValueT, typename NumItemsT, typename DecomposerT,                                  \
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>                                               \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,                \
                          DoubleBuffer<ValueT>& d_values, NumItemsT num_items, DecomposerT decomposer,                 \
                          cudaStream_t stream = 0)                                                                     \
  {                                                                                                                    \
    return NAME(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, decomposer, 0,                        \
                key_bits<KeyT>(decomposer), stream);                                                                   \
  }                                                                                                                    \
  template <typename KeyT, typename ValueT, typename NumItemsT, typename... ArgsT,                                     \
            detail::radix_sort::enable_if_integral_t<NumItemsT> = 0>                                                   \
  static cudaError_t NAME(const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,    \
                          NumItemsT num_items, const ArgsT&... args)                                                   \
  {                                                                                                                    \
    return detail::radix_sort::run_single_phase<KeyT>(STRATA_DETAIL_TWO_PHASE(NAME),                                   \
                                                      cuda::std::tie(d_keys_in, d_keys_out, d_values_in, d_values_out, \
                                                                     num_items),                                       \
                                                      args...);                                                        \
  }                                                                                                                    \
  template <typename KeyT, typename ValueT, typename NumItemsT, typename... ArgsT,                                     \
            detail::radix_sort::enable_if_integral_t<NumItemsT> = 0>                                                   \
  static cudaError_t NAME(DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values, NumItemsT num_items,             \
                          const ArgsT&... args)                                                                        \
  {                                                                                                                    \
    return detail::radix_sort::run_single_phase<KeyT>(STRATA_DETAIL_TWO_PHASE(NAME),                                   \
                                                      cuda::std::tie(d_keys, d_values, num_items), args...);           \
  }

#define STRATA_DETAIL_RADIX_SORT_KEYS(NAME, IS_DESCENDING)                                                             \
  template <typename KeyT, typename NumItemsT>                                                                         \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,   \
                          NumItemsT num_items, int begin_bit = 0, int end_bit = key_bits<KeyT>(),                      \
                          cudaStream_t stream = 0)                                                                     \
  {                                                                                                                    \
    return sort_copy<IS_DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, no_values_in(),         \
                                    no_values_out(), num_items, begin_bit, end_bit, stream,                            \
                                    detail::radix_sort::no_decomposer{});                                              \
  }                                                                                                                    \
  template <typename KeyT, typename NumItemsT, typename DecomposerT,                                                   \
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>                                               \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,   \
                          NumItemsT num_items, DecomposerT decomposer, int begin_bit, int end_bit,                     \
                          cudaStream_t stream = 0)                                                                     \
  {                                                                                                                    \
    return sort_copy<IS_DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, no_values_in(),         \
                                    no_values_out(), num_items, begin_bit, end_bit, stream, decomposer);               \
  }                                                                                                                    \
  template <typename KeyT, typename NumItemsT, typename DecomposerT,                                                   \
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>                                               \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,   \
                          NumItemsT num_items, DecomposerT decomposer, cudaStream_t stream = 0)                        \
  {                                                                                                                    \
    return NAME(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, num_items, decomposer, 0,                   \
                key_bits<KeyT>(decomposer), stream);                                                                   \
  }                                                                                                                    \
  template <typename KeyT, typename NumItemsT>                                                                         \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,                \
                          NumItemsT num_items, int begin_bit = 0, int end_bit = key_bits<KeyT>(),                      \
                          cudaStream_t stream = 0)                                                                     \
  {                                                                                                                    \
    return sort<IS_DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys, no_values(), num_items, begin_bit, end_bit, \
                               true, stream, detail::radix_sort::no_decomposer{});                                     \
  }                                                                                                                    \
  template <typename KeyT, typename NumItemsT, typename DecomposerT,                                                   \
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>                                               \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,                \
                          NumItemsT num_items, DecomposerT decomposer, int begin_bit, int end_bit,                     \
                          cudaStream_t stream = 0)                                                                     \
  {                                                                                                                    \
    return sort<IS_DESCENDING>(d_temp_storage, temp_storage_bytes, d_keys, no_values(), num_items, begin_bit, end_bit, \
                               true, stream, decomposer);                                                              \
  }                                                                                                                    \
  template <typename KeyT, typename NumItemsT, typename DecomposerT,                                                   \
            detail::radix_sort::enable_if_decomposer_t<DecomposerT> = 0>                                               \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,                \
                          NumItemsT num_items, DecomposerT decomposer, cudaStream_t stream = 0)                        \
  {                                                                                                                    \
    return NAME(d_temp_storage, temp_storage_bytes, d_keys, num_items, decomposer, 0, key_bits<KeyT>(decomposer),      \
                stream);                                                                                               \
  }                                                                                                                    \
  template <typename KeyT, typename NumItemsT, typename... ArgsT,                                                      \
            detail::radix_sort::enable_if_integral_t<NumItemsT> = 0>                                                   \
  static cudaError_t NAME(const KeyT* d_keys_in, KeyT* d_keys_out, NumItemsT num_items, const ArgsT&... args)          \
  {                                                                                                                    \
    return detail::radix_sort::run_single_phase<KeyT>(STRATA_DETAIL_TWO_PHASE(NAME),                                   \
                                                      cuda::std::tie(d_keys_in, d_keys_out, num_items), args...);      \
  }                                                                                                                    \
  template <typename KeyT, typename NumItemsT, typename... ArgsT,                                                      \
            detail::radix_sort::enable_if_integral_t<NumItemsT> = 0>                                                   \
  static cudaError_t NAME(DoubleBuffer<KeyT>& d_keys, NumItemsT num_items, const ArgsT&... args)                       \
  {                                                                                                                    \
    return detail::radix_sort::run_single_phase<KeyT>(STRATA_DETAIL_TWO_PHASE(NAME),                                   \
                                                      cuda::std::tie(d_keys, num_items), args...);                     \
  }

  // Sorts keys ascending and moves each value with its key.
  STRATA_DETAIL_RADIX_SORT_PAIRS(SortPairs, false)
  // Sorts keys descending (equal keys still in input order) and moves each value with its key.
  STRATA_DETAIL_RADIX_SORT_PAIRS(SortPairsDescending, true)
  // Sorts keys ascending.
  STRATA_DETAIL_RADIX_SORT_KEYS(SortKeys, false)
  // Sorts keys descending (equal keys still in input order).
  STRATA_DETAIL_RADIX_SORT_KEYS(SortKeysDescending, true)

#undef STRATA_DETAIL_RADIX_SORT_PAIRS
#undef STRATA_DETAIL_RADIX_SORT_KEYS
};

STRATA_NAMESPACE_END
