// DeviceReduce: reductions of a sequence to one value, with CUB's two-phase temporary-storage API.
//
// Every call works in two phases: with d_temp_storage == nullptr it only writes the bytes it needs to
// temp_storage_bytes; with storage it runs on `stream` and returns without synchronizing. Results are the
// same bits run to run for the same input, size and device (floating-point sums included).
//
//   size_t bytes = 0;
//   strata::DeviceReduce::Sum(nullptr, bytes, d_in, d_out, n);          // size query
//   cudaMalloc(&d_temp, bytes);
//   strata::DeviceReduce::Sum(d_temp, bytes, d_in, d_out, n, stream);   // d_out[0] = d_in[0] + ... + d_in[n-1]
//
// Every call also has a single-phase form, without the temporary-storage arguments, whose last argument (defaulted)
// is a stream or a policy: the storage comes from strata's pool, or the policy's allocator, on that stream
// (strata/device/dispatch/single_phase.cuh), and is given back in stream order before the call returns.
//
//   strata::DeviceReduce::Sum(d_in, d_out, n);                          // the default stream
//   strata::DeviceReduce::Sum(d_in, d_out, n, strata::par.on(stream));
//
// Complexity: one read of the input (O(n) work), two kernel launches (one for inputs of a single tile).
// Errors (cudaErrorInvalidValue, before anything is launched or written): negative num_items, too small
// temp_storage_bytes, a null input pointer with num_items > 0, a null output pointer.
// With num_items == 0 the output is `init` (Reduce, TransformReduce), 0 (Sum), the type's largest or lowest
// value (Min, Max), or {1, that value} (ArgMin, ArgMax), as CUB defines them; ArgMinMax (strata's own) answers
// ArgMin's and ArgMax's results in one pass.
//
// Sum, Reduce and TransformReduce also take strata::gpu_to_gpu (strata/determinism.cuh) before the stream: the result
// is then the same bits on every GPU and under every policy, for an associative and commutative operator. So does
// ReduceByKey (after its equality operator, if any), for an associative operator: its aggregates are then those of
// DeviceScan's gpu_to_gpu scan by key, each run's last (two passes, with num_items accumulators of temporary storage).
//
//   strata::DeviceReduce::Sum(d_temp, bytes, d_in, d_out, n, strata::gpu_to_gpu, stream);
//   strata::DeviceReduce::ReduceByKey(d_temp, bytes, keys, unique, values, sums, d_count, plus, n, strata::gpu_to_gpu);
//
// Complexity of that form: one read of the input, and one more pass for every factor of about 2^11 (floats; 2^10
// doubles) in the number of items; it writes one sum per 8 KiB of input.
#pragma once

#include <strata/config.cuh>
#include <strata/determinism.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_reduce.cuh>
#include <strata/device/dispatch/dispatch_reduce_gpu_to_gpu.cuh>
#include <strata/device/dispatch/dispatch_reduce_by_key.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/device/device_scan.cuh>
#include <strata/nvtx.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/error.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/functional>
#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
// Pairs an item with its position: the indexed transform of ArgMin / ArgMax (see AgentReduce).
template <typename KeyT, typename ValueT>
struct arg_pair_op
{
  using indexed_transform = void;
  template <typename OffsetT, typename InputT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE KeyValuePair<KeyT, ValueT> operator()(OffsetT index, const InputT& item) const
  {
    return KeyValuePair<KeyT, ValueT>(static_cast<KeyT>(index), static_cast<ValueT>(item));
  }
};

// The output of ArgMin/ArgMax's split form: `*out = pair` (or `out[i] = pair`) writes pair.value to d_value_out and
// pair.key to d_index_out.
template <typename ExtremumOutIteratorT, typename IndexOutIteratorT>
struct unzip_pair
{
  struct reference
  {
    ExtremumOutIteratorT d_value_out;
    IndexOutIteratorT d_index_out;
    template <typename PairT>
    STRATA_HOST_DEVICE void operator=(const PairT& pair) const
    {
      *d_value_out = pair.value;
      *d_index_out = pair.key;
    }
  };
  using value_type        = void;
  using difference_type   = cuda::std::ptrdiff_t;
  using pointer           = void;
  using iterator_category = cuda::std::output_iterator_tag;

  ExtremumOutIteratorT d_value_out;
  IndexOutIteratorT d_index_out;

  STRATA_HOST_DEVICE reference operator*() const
  {
    return reference{d_value_out, d_index_out};
  }
  template <typename IndexT>
  STRATA_HOST_DEVICE reference operator[](IndexT) const
  {
    return **this;
  }
};
// ArgMinMax's accumulator: ArgMin's pair and ArgMax's pair, reduced side by side in one pass.
template <typename KeyT, typename ValueT>
struct arg_min_max_pair
{
  KeyValuePair<KeyT, ValueT> min;
  KeyValuePair<KeyT, ValueT> max;
};

struct arg_min_max_op
{
  template <typename KeyT, typename ValueT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE arg_min_max_pair<KeyT, ValueT>
  operator()(const arg_min_max_pair<KeyT, ValueT>& a, const arg_min_max_pair<KeyT, ValueT>& b) const
  {
    return {ArgMin{}(a.min, b.min), ArgMax{}(a.max, b.max)};
  }
};

// Pairs an item with its position, as the smallest and as the largest item so far (ArgMinMax's indexed transform).
template <typename KeyT, typename ValueT>
struct arg_min_max_transform
{
  using indexed_transform = void;
  template <typename OffsetT, typename InputT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE arg_min_max_pair<KeyT, ValueT> operator()(OffsetT index,
                                                                                  const InputT& item) const
  {
    const KeyValuePair<KeyT, ValueT> pair(static_cast<KeyT>(index), static_cast<ValueT>(item));
    return {pair, pair};
  }
};

// The output of ArgMinMax: `*out = pair` writes the smallest item and its position to d_min_out and d_min_index_out,
// the largest and its position to d_max_out and d_max_index_out.
template <typename ExtremumOutIteratorT, typename IndexOutIteratorT>
struct unzip_min_max
{
  struct reference
  {
    ExtremumOutIteratorT d_min_out;
    IndexOutIteratorT d_min_index_out;
    ExtremumOutIteratorT d_max_out;
    IndexOutIteratorT d_max_index_out;
    template <typename PairT>
    STRATA_HOST_DEVICE void operator=(const PairT& pair) const
    {
      *d_min_out       = pair.min.value;
      *d_min_index_out = pair.min.key;
      *d_max_out       = pair.max.value;
      *d_max_index_out = pair.max.key;
    }
  };
  using value_type        = void;
  using difference_type   = cuda::std::ptrdiff_t;
  using pointer           = void;
  using iterator_category = cuda::std::output_iterator_tag;

  ExtremumOutIteratorT d_min_out;
  IndexOutIteratorT d_min_index_out;
  ExtremumOutIteratorT d_max_out;
  IndexOutIteratorT d_max_index_out;

  STRATA_HOST_DEVICE reference operator*() const
  {
    return reference{d_min_out, d_min_index_out, d_max_out, d_max_index_out};
  }
  template <typename IndexT>
  STRATA_HOST_DEVICE reference operator[](IndexT) const
  {
    return **this;
  }
};

namespace reduce_by_key
{
// The later of two operands: the reduction of a run's inclusive scan by key is its last item.
struct take_last
{
  template <typename T>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE T operator()(const T&, const T& b) const
  {
    return b;
  }
};

// ReduceByKey's gpu_to_gpu form: where the operator is inexact, the gpu_to_gpu inclusive scan by key of the values
// into a buffer of AccumT (DeviceScan's order), then ReduceByKey of the keys and that buffer under take_last, which
// gives each run's last scanned value exactly, with the run keys and the count. Otherwise the default form.
template <typename AccumT = void, typename KeysInputIteratorT, typename UniqueOutputIteratorT,
          typename ValuesInputIteratorT, typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT,
          typename EqualityOpT, typename ReductionOpT, typename NumItemsT>
cudaError_t run_gpu_to_gpu(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                           UniqueOutputIteratorT d_unique_out, ValuesInputIteratorT d_values_in,
                           AggregatesOutputIteratorT d_aggregates_out, NumRunsOutputIteratorT d_num_runs_out,
                           EqualityOpT equality_op, ReductionOpT reduction_op, NumItemsT num_items, cudaStream_t stream)
{
  static_assert(cuda::std::is_integral<NumItemsT>::value,
                "DeviceReduce's gpu_to_gpu forms take num_items as an integer (not a strata::device_count)");
  using A =
    cuda::std::conditional_t<cuda::std::is_void<AccumT>::value, accum_t<ReductionOpT, ValuesInputIteratorT>, AccumT>;
  if constexpr (scan_op_is_exact<A, ReductionOpT>::value)
  {
    return run<AccumT>(d_temp_storage, temp_storage_bytes, d_keys_in, d_unique_out, d_values_in, d_aggregates_out,
                       d_num_runs_out, equality_op, reduction_op, num_items, stream);
  }
  else
  {
    STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_keys_in, d_unique_out, d_values_in,
                                           d_aggregates_out, d_num_runs_out));
    // The scan, then the reduction of its results; their own storage shares a slot (the scan is done with it before
    // the reduction starts).
    const auto scan_values = [&](void* temp, size_t& bytes, A* d_scanned) {
      return scan::run_by_key_gpu_to_gpu<true, A>(temp, bytes, d_keys_in, d_values_in, d_scanned, reduction_op,
                                                  scan::no_init{}, num_items, equality_op, stream);
    };
    const auto reduce_runs = [&](void* temp, size_t& bytes, const A* d_scanned) {
      return run<A>(temp, bytes, d_keys_in, d_unique_out, d_scanned, d_aggregates_out, d_num_runs_out, equality_op,
                    take_last{}, num_items, stream);
    };
    size_t scan_bytes   = 0;
    size_t reduce_bytes = 0;
    STRATA_RETURN_IF_ERROR(scan_values(nullptr, scan_bytes, nullptr));
    STRATA_RETURN_IF_ERROR(reduce_runs(nullptr, reduce_bytes, nullptr));
    temporary_storage::layout<2> layout;
    auto scanned     = layout.get_slot(0)->create_alias<A>(static_cast<size_t>(num_items));
    auto scan_temp   = layout.get_slot(1)->create_alias<char>(scan_bytes);
    auto reduce_temp = layout.get_slot(1)->create_alias<char>(reduce_bytes);
    bool mapped      = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped)
    {
      return cudaSuccess;
    }
    STRATA_RETURN_IF_ERROR(scan_values(scan_temp.get(), scan_bytes, scanned.get()));
    return reduce_runs(reduce_temp.get(), reduce_bytes, scanned.get());
  }
}
} // namespace reduce_by_key
} // namespace detail

struct DeviceReduce
{
  // d_out[0] = init op d_in[0] op ... op d_in[num_items - 1], for an associative `reduction_op`.
  template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename InitT,
            typename NumItemsT>
  static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, NumItemsT num_items, ReductionOpT reduction_op, InitT init,
                            cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceReduce::Reduce");
    return reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, reduction_op, init, Identity{}, stream);
  }

  // d_out[0] = init op transform(d_in[0]) op ... op transform(d_in[num_items - 1]).
  template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename TransformOpT,
            typename InitT, typename NumItemsT>
  static cudaError_t TransformReduce(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                     OutputIteratorT d_out, NumItemsT num_items, ReductionOpT reduction_op,
                                     TransformOpT transform_op, InitT init, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceReduce::TransformReduce");
    return reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, reduction_op, init, transform_op, stream);
  }

  // -- Single-phase forms: each call with its temporary storage and stream taken from `env`, a stream or a policy
  //    (strata/device/dispatch/single_phase.cuh); without one, strata's pool on the default stream.

  template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename InitT,
            typename NumItemsT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t Reduce(InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items, ReductionOpT reduction_op,
                            InitT init, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(Reduce), d_in, d_out, num_items, reduction_op, init);
  }

  template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename TransformOpT,
            typename InitT, typename NumItemsT, typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t TransformReduce(InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,
                                     ReductionOpT reduction_op, TransformOpT transform_op, InitT init,
                                     const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(TransformReduce), d_in, d_out, num_items,
                                     reduction_op, transform_op, init);
  }

  // The single-phase form of NAME(d_in, d_out, num_items).
#define STRATA_DETAIL_REDUCE_SINGLE_PHASE(NAME)                                                                  \
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT,                               \
            typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>                              \
  static cudaError_t NAME(InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items, const EnvT& env = {}) \
  {                                                                                                              \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_in, d_out, num_items);                \
  }

  // d_out[0] = d_in[0] + ... + d_in[num_items - 1] (0 for no items), summed in the output's value type.
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t Sum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceReduce::Sum");
    using InitT = detail::non_void_value_t<OutputIteratorT, detail::it_value_t<InputIteratorT>>;
    return reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cuda::std::plus<>{}, InitT{}, Identity{},
                  stream);
  }
  STRATA_DETAIL_REDUCE_SINGLE_PHASE(Sum)

  // Min and Max: d_out[0] = the smallest (largest) input, or for no items EMPTY, the input type's largest (lowest)
  // value.
#define STRATA_DETAIL_REDUCE_EXTREMUM(NAME, OP, EMPTY)                                           \
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>               \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, \
                          OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0)   \
  {                                                                                              \
    STRATA_NVTX_RANGE("strata::DeviceReduce::" #NAME);                                           \
    using InitT = detail::it_value_t<InputIteratorT>;                                            \
    return reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, OP{},              \
                  cuda::std::numeric_limits<InitT>::EMPTY(), Identity{}, stream);                \
  }                                                                                              \
  STRATA_DETAIL_REDUCE_SINGLE_PHASE(NAME)

  STRATA_DETAIL_REDUCE_EXTREMUM(Min, cuda::minimum<>, max)
  STRATA_DETAIL_REDUCE_EXTREMUM(Max, cuda::maximum<>, lowest)

  // ArgMin and ArgMax, in two forms:
  // - d_out[0] = {position, value} of the smallest (largest) input, the first such position on ties; for no items
  //   {1, the value type's largest (lowest) value}. The output's value type is a KeyValuePair<KeyT, ValueT>.
  // - CUB 3's form: the smallest (largest) input to d_value_out[0] and its position (the first on ties) to
  //   d_index_out[0]; for no items the value type's largest (lowest) value and position 1.
#define STRATA_DETAIL_REDUCE_ARG(NAME)                                                                               \
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT,                                   \
            typename = cuda::std::enable_if_t<detail::is_item_count_v<NumItemsT>>>                                   \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,                     \
                          OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0)                       \
  {                                                                                                                  \
    STRATA_NVTX_RANGE("strata::DeviceReduce::" #NAME);                                                               \
    return arg_reduce<::strata::NAME>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, stream);           \
  }                                                                                                                  \
  template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT>                      \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,                     \
                          ExtremumOutIteratorT d_value_out, IndexOutIteratorT d_index_out,                           \
                          cuda::std::int64_t num_items, cudaStream_t stream = 0)                                     \
  {                                                                                                                  \
    STRATA_NVTX_RANGE("strata::DeviceReduce::" #NAME);                                                               \
    return split_arg_reduce<::strata::NAME>(d_temp_storage, temp_storage_bytes, d_in, d_value_out, d_index_out,      \
                                            num_items, stream);                                                      \
  }                                                                                                                  \
  template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT, typename CountT>     \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,                     \
                          ExtremumOutIteratorT d_value_out, IndexOutIteratorT d_index_out,                           \
                          device_count<CountT> num_items, cudaStream_t stream = 0)                                   \
  {                                                                                                                  \
    STRATA_NVTX_RANGE("strata::DeviceReduce::" #NAME);                                                               \
    return split_arg_reduce<::strata::NAME>(d_temp_storage, temp_storage_bytes, d_in, d_value_out, d_index_out,      \
                                            num_items, stream);                                                      \
  }                                                                                                                  \
  STRATA_DETAIL_REDUCE_SINGLE_PHASE(NAME)                                                                            \
  template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT,                      \
            typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>                                  \
  static cudaError_t NAME(InputIteratorT d_in, ExtremumOutIteratorT d_value_out, IndexOutIteratorT d_index_out,      \
                          cuda::std::int64_t num_items, const EnvT& env = {})                                        \
  {                                                                                                                  \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_in, d_value_out, d_index_out, num_items); \
  }                                                                                                                  \
  template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT, typename CountT,     \
            typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>                                  \
  static cudaError_t NAME(InputIteratorT d_in, ExtremumOutIteratorT d_value_out, IndexOutIteratorT d_index_out,      \
                          device_count<CountT> num_items, const EnvT& env = {})                                      \
  {                                                                                                                  \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_in, d_value_out, d_index_out, num_items); \
  }

  STRATA_DETAIL_REDUCE_ARG(ArgMin)
  STRATA_DETAIL_REDUCE_ARG(ArgMax)

  // ArgMinMax (strata's own): ArgMin's and ArgMax's results in one pass over the input: the smallest input to
  // d_min_out[0] and its position (the first on ties) to d_min_index_out[0], the largest to d_max_out[0] and its
  // position (the first on ties) to d_max_index_out[0]; for no items the value type's largest and lowest values,
  // both at position 1, as ArgMin and ArgMax answer. The four outputs may be of any kind the single outputs of
  // ArgMin and ArgMax may be; null pointers among them are refused.
  template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT>
  static cudaError_t ArgMinMax(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                               ExtremumOutIteratorT d_min_out, IndexOutIteratorT d_min_index_out,
                               ExtremumOutIteratorT d_max_out, IndexOutIteratorT d_max_index_out,
                               cuda::std::int64_t num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceReduce::ArgMinMax");
    return arg_min_max(d_temp_storage, temp_storage_bytes, d_in, d_min_out, d_min_index_out, d_max_out, d_max_index_out,
                       num_items, stream);
  }
  template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT, typename CountT>
  static cudaError_t ArgMinMax(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                               ExtremumOutIteratorT d_min_out, IndexOutIteratorT d_min_index_out,
                               ExtremumOutIteratorT d_max_out, IndexOutIteratorT d_max_index_out,
                               device_count<CountT> num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceReduce::ArgMinMax");
    return arg_min_max(d_temp_storage, temp_storage_bytes, d_in, d_min_out, d_min_index_out, d_max_out, d_max_index_out,
                       num_items, stream);
  }
  template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT,
            typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t ArgMinMax(InputIteratorT d_in, ExtremumOutIteratorT d_min_out, IndexOutIteratorT d_min_index_out,
                               ExtremumOutIteratorT d_max_out, IndexOutIteratorT d_max_index_out,
                               cuda::std::int64_t num_items, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(ArgMinMax), d_in, d_min_out, d_min_index_out,
                                     d_max_out, d_max_index_out, num_items);
  }
  template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT, typename CountT,
            typename EnvT = detail::default_env, detail::enable_if_env_t<EnvT> = 0>
  static cudaError_t ArgMinMax(InputIteratorT d_in, ExtremumOutIteratorT d_min_out, IndexOutIteratorT d_min_index_out,
                               ExtremumOutIteratorT d_max_out, IndexOutIteratorT d_max_index_out,
                               device_count<CountT> num_items, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(ArgMinMax), d_in, d_min_out, d_min_index_out,
                                     d_max_out, d_max_index_out, num_items);
  }

#undef STRATA_DETAIL_REDUCE_SINGLE_PHASE
#undef STRATA_DETAIL_REDUCE_EXTREMUM
#undef STRATA_DETAIL_REDUCE_ARG

  // -- gpu_to_gpu forms: the same results, the same bits on every GPU and policy (an order fixed by num_items and the
  //    types alone; `reduction_op` associative and commutative). num_items is an integer.

  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t Sum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         NumItemsT num_items, gpu_to_gpu_t, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceReduce::Sum");
    using InitT = detail::non_void_value_t<OutputIteratorT, detail::it_value_t<InputIteratorT>>;
    return reduce_gpu_to_gpu(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cuda::std::plus<>{}, InitT{},
                             Identity{}, stream);
  }

  template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename InitT,
            typename NumItemsT>
  static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, NumItemsT num_items, ReductionOpT reduction_op, InitT init,
                            gpu_to_gpu_t, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceReduce::Reduce");
    return reduce_gpu_to_gpu(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, reduction_op, init, Identity{},
                             stream);
  }

  template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename TransformOpT,
            typename InitT, typename NumItemsT>
  static cudaError_t TransformReduce(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                     OutputIteratorT d_out, NumItemsT num_items, ReductionOpT reduction_op,
                                     TransformOpT transform_op, InitT init, gpu_to_gpu_t, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceReduce::TransformReduce");
    return reduce_gpu_to_gpu(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, reduction_op, init,
                             transform_op, stream);
  }

  // ReduceByKey: for each run of consecutive keys that equality_op (==, unless given) finds equal, the run's last key
  // to d_unique_out, the reduction of its values under `reduction_op` (associative) to d_aggregates_out, in run
  // order, and the number of runs to *d_num_runs_out (in device memory; 0 for no items). One pass
  // (dispatch/dispatch_reduce_by_key.cuh); aggregates are the same bits run to run, floating point included.
  template <typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
            typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename ReductionOpT,
            typename NumItemsT, typename EqualityOpT, detail::enable_if_count_t<NumItemsT> = 0,
            detail::enable_if_equality_op_t<EqualityOpT> = 0>
  static cudaError_t ReduceByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                                 UniqueOutputIteratorT d_unique_out, ValuesInputIteratorT d_values_in,
                                 AggregatesOutputIteratorT d_aggregates_out, NumRunsOutputIteratorT d_num_runs_out,
                                 ReductionOpT reduction_op, NumItemsT num_items, EqualityOpT equality_op,
                                 cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceReduce::ReduceByKey");
    return detail::reduce_by_key::run(d_temp_storage, temp_storage_bytes, d_keys_in, d_unique_out, d_values_in,
                                      d_aggregates_out, d_num_runs_out, equality_op, reduction_op, num_items, stream);
  }
  template <typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
            typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename ReductionOpT,
            typename NumItemsT, detail::enable_if_count_t<NumItemsT> = 0>
  static cudaError_t ReduceByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                                 UniqueOutputIteratorT d_unique_out, ValuesInputIteratorT d_values_in,
                                 AggregatesOutputIteratorT d_aggregates_out, NumRunsOutputIteratorT d_num_runs_out,
                                 ReductionOpT reduction_op, NumItemsT num_items, cudaStream_t stream = 0)
  {
    return ReduceByKey(d_temp_storage, temp_storage_bytes, d_keys_in, d_unique_out, d_values_in, d_aggregates_out,
                       d_num_runs_out, reduction_op, num_items, cuda::std::equal_to<>{}, stream);
  }
  template <typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
            typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename ReductionOpT,
            typename NumItemsT, typename EqualityOpT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0, detail::enable_if_equality_op_t<EqualityOpT> = 0>
  static cudaError_t ReduceByKey(KeysInputIteratorT d_keys_in, UniqueOutputIteratorT d_unique_out,
                                 ValuesInputIteratorT d_values_in, AggregatesOutputIteratorT d_aggregates_out,
                                 NumRunsOutputIteratorT d_num_runs_out, ReductionOpT reduction_op, NumItemsT num_items,
                                 EqualityOpT equality_op, const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(ReduceByKey), d_keys_in, d_unique_out, d_values_in,
                                     d_aggregates_out, d_num_runs_out, reduction_op, num_items, equality_op);
  }
  template <typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
            typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename ReductionOpT,
            typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t ReduceByKey(KeysInputIteratorT d_keys_in, UniqueOutputIteratorT d_unique_out,
                                 ValuesInputIteratorT d_values_in, AggregatesOutputIteratorT d_aggregates_out,
                                 NumRunsOutputIteratorT d_num_runs_out, ReductionOpT reduction_op, NumItemsT num_items,
                                 const EnvT& env = {})
  {
    return ReduceByKey(d_keys_in, d_unique_out, d_values_in, d_aggregates_out, d_num_runs_out, reduction_op, num_items,
                       cuda::std::equal_to<>{}, env);
  }

  // ReduceByKey's gpu_to_gpu forms (two-phase, num_items an integer): [equality_op,] gpu_to_gpu before the stream.
  // The same results, the aggregates the same bits on every GPU and policy (reduction_op associative; it need not
  // commute). Where the operator is inexact they take two passes: the values' gpu_to_gpu inclusive scan by key into
  // temporary storage (num_items accumulators), then ReduceByKey picking each run's last scanned value.
  template <typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
            typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename ReductionOpT,
            typename NumItemsT, typename EqualityOpT>
  static cudaError_t ReduceByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                                 UniqueOutputIteratorT d_unique_out, ValuesInputIteratorT d_values_in,
                                 AggregatesOutputIteratorT d_aggregates_out, NumRunsOutputIteratorT d_num_runs_out,
                                 ReductionOpT reduction_op, NumItemsT num_items, EqualityOpT equality_op, gpu_to_gpu_t,
                                 cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceReduce::ReduceByKey");
    return detail::reduce_by_key::run_gpu_to_gpu(d_temp_storage, temp_storage_bytes, d_keys_in, d_unique_out,
                                                 d_values_in, d_aggregates_out, d_num_runs_out, equality_op,
                                                 reduction_op, num_items, stream);
  }
  template <typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
            typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename ReductionOpT,
            typename NumItemsT>
  static cudaError_t ReduceByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                                 UniqueOutputIteratorT d_unique_out, ValuesInputIteratorT d_values_in,
                                 AggregatesOutputIteratorT d_aggregates_out, NumRunsOutputIteratorT d_num_runs_out,
                                 ReductionOpT reduction_op, NumItemsT num_items, gpu_to_gpu_t, cudaStream_t stream = 0)
  {
    return ReduceByKey(d_temp_storage, temp_storage_bytes, d_keys_in, d_unique_out, d_values_in, d_aggregates_out,
                       d_num_runs_out, reduction_op, num_items, cuda::std::equal_to<>{}, gpu_to_gpu, stream);
  }

private:
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT, typename ReductionOpT,
            typename InitT, typename TransformOpT>
  static cudaError_t reduce(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, NumItemsT num_items, ReductionOpT op, InitT init,
                            TransformOpT transform, cudaStream_t stream)
  {
    STRATA_RETURN_IF_ERROR(detail::check_arguments(d_temp_storage, num_items, d_in, d_out, true));
    // The input's value type (not its reference type: a device_reference or a zip's tuple of references),
    // transformed.
    using InputT = cuda::std::decay_t<cuda::std::invoke_result_t<TransformOpT&, detail::it_value_t<InputIteratorT>>>;
    using AccumT = detail::accumulator_t<ReductionOpT, InputT, InitT>;
    return detail::dispatch_offset(num_items, [&](auto offset) {
      using OffsetT = decltype(offset);
      return DispatchReduce<InputIteratorT, OutputIteratorT, OffsetT, ReductionOpT, InitT, AccumT, TransformOpT,
                            detail::reduce::policy_hub<detail::it_value_t<InputIteratorT>, AccumT, ReductionOpT>,
                            detail::item_count_t<NumItemsT>>::Dispatch(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                                       offset, op, init, stream, transform,
                                                                       detail::item_count_of(num_items));
    });
  }

  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT, typename ReductionOpT,
            typename InitT, typename TransformOpT>
  static cudaError_t reduce_gpu_to_gpu(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                       OutputIteratorT d_out, NumItemsT num_items, ReductionOpT op, InitT init,
                                       TransformOpT transform, cudaStream_t stream)
  {
    static_assert(cuda::std::is_integral<NumItemsT>::value,
                  "DeviceReduce's gpu_to_gpu forms take num_items as an integer (not a strata::device_count)");
    STRATA_RETURN_IF_ERROR(detail::check_arguments(d_temp_storage, num_items, d_in, d_out, true));
    using InputT = cuda::std::decay_t<cuda::std::invoke_result_t<TransformOpT&, detail::it_value_t<InputIteratorT>>>;
    using AccumT = detail::accumulator_t<ReductionOpT, InputT, InitT>;
    return detail::dispatch_offset(num_items, [&](auto offset) {
      using OffsetT = decltype(offset);
      return DispatchReduceGpuToGpu<InputIteratorT, OutputIteratorT, OffsetT, ReductionOpT, InitT, AccumT,
                                    TransformOpT>::Dispatch(d_temp_storage, temp_storage_bytes, d_in, d_out, offset, op,
                                                            init, transform, stream);
    });
  }

  // PairT defaults to the output's value type (a KeyValuePair<KeyT, ValueT>).
  template <typename ArgOpT, typename InputIteratorT, typename OutputIteratorT, typename NumItemsT,
            typename PairT = detail::it_value_t<OutputIteratorT>>
  static cudaError_t arg_reduce(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream)
  {
    using KeyT            = typename PairT::KeyT;
    using ValueT          = typename PairT::ValueT;
    constexpr bool is_min = cuda::std::is_same<ArgOpT, ::strata::ArgMin>::value;
    using EmptyT          = detail::reduce::empty_value<PairT>;
    const EmptyT empty{
      PairT(KeyT(1), is_min ? cuda::std::numeric_limits<ValueT>::max() : cuda::std::numeric_limits<ValueT>::lowest())};
    STRATA_RETURN_IF_ERROR(detail::check_arguments(d_temp_storage, num_items, d_in, d_out, true));
    return detail::dispatch_offset(num_items, [&](auto offset) {
      using OffsetT = decltype(offset);
      using PairOp  = detail::arg_pair_op<KeyT, ValueT>;
      // Items are read as they are (vectorized where possible) and paired with their positions; the smallest
      // position wins ties.
      return DispatchReduce<InputIteratorT, OutputIteratorT, OffsetT, ArgOpT, EmptyT, PairT, PairOp,
                            detail::reduce::policy_hub<detail::it_value_t<InputIteratorT>, PairT, ArgOpT>,
                            detail::item_count_t<NumItemsT>>::Dispatch(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                                       offset, ArgOpT{}, empty, stream, PairOp{},
                                                                       detail::item_count_of(num_items));
    });
  }

  // NumItemsT: cuda::std::int64_t, or a device_count.
  template <typename ArgOpT, typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT,
            typename NumItemsT>
  static cudaError_t split_arg_reduce(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                      ExtremumOutIteratorT d_value_out, IndexOutIteratorT d_index_out,
                                      NumItemsT num_items, cudaStream_t stream)
  {
    using ValueT = detail::non_void_value_t<ExtremumOutIteratorT, detail::it_value_t<InputIteratorT>>;
    using PairT  = KeyValuePair<cuda::std::int64_t, ValueT>;
    if (d_temp_storage != nullptr && detail::count_bound(num_items) >= 0)
    {
      if constexpr (cuda::std::is_pointer<ExtremumOutIteratorT>::value)
      {
        if (d_value_out == nullptr)
        {
          return cudaErrorInvalidValue;
        }
      }
      if constexpr (cuda::std::is_pointer<IndexOutIteratorT>::value)
      {
        if (d_index_out == nullptr)
        {
          return cudaErrorInvalidValue;
        }
      }
    }
    using OutT = detail::unzip_pair<ExtremumOutIteratorT, IndexOutIteratorT>;
    return arg_reduce<ArgOpT, InputIteratorT, OutT, NumItemsT, PairT>(d_temp_storage, temp_storage_bytes, d_in,
                                                                      OutT{d_value_out, d_index_out}, num_items,
                                                                      stream);
  }

  // NumItemsT: cuda::std::int64_t, or a device_count.
  template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT, typename NumItemsT>
  static cudaError_t arg_min_max(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                 ExtremumOutIteratorT d_min_out, IndexOutIteratorT d_min_index_out,
                                 ExtremumOutIteratorT d_max_out, IndexOutIteratorT d_max_index_out, NumItemsT num_items,
                                 cudaStream_t stream)
  {
    using ValueT = detail::non_void_value_t<ExtremumOutIteratorT, detail::it_value_t<InputIteratorT>>;
    using KeyT   = cuda::std::int64_t;
    using PairT  = detail::arg_min_max_pair<KeyT, ValueT>;
    if (d_temp_storage != nullptr && detail::count_bound(num_items) >= 0)
    {
      if constexpr (cuda::std::is_pointer<ExtremumOutIteratorT>::value)
      {
        if (d_min_out == nullptr || d_max_out == nullptr)
        {
          return cudaErrorInvalidValue;
        }
      }
      if constexpr (cuda::std::is_pointer<IndexOutIteratorT>::value)
      {
        if (d_min_index_out == nullptr || d_max_index_out == nullptr)
        {
          return cudaErrorInvalidValue;
        }
      }
    }
    using OutT   = detail::unzip_min_max<ExtremumOutIteratorT, IndexOutIteratorT>;
    using EmptyT = detail::reduce::empty_value<PairT>;
    const OutT d_out{d_min_out, d_min_index_out, d_max_out, d_max_index_out};
    const EmptyT empty{PairT{KeyValuePair<KeyT, ValueT>(KeyT(1), cuda::std::numeric_limits<ValueT>::max()),
                             KeyValuePair<KeyT, ValueT>(KeyT(1), cuda::std::numeric_limits<ValueT>::lowest())}};
    STRATA_RETURN_IF_ERROR(detail::check_arguments(d_temp_storage, num_items, d_in, d_out, true));
    return detail::dispatch_offset(num_items, [&](auto offset) {
      using OffsetT     = decltype(offset);
      using TransformOp = detail::arg_min_max_transform<KeyT, ValueT>;
      using OpT         = detail::arg_min_max_op;
      // As ArgMin's: the items read as they are (vectorized where possible), paired with their positions.
      return DispatchReduce<InputIteratorT, OutT, OffsetT, OpT, EmptyT, PairT, TransformOp,
                            detail::reduce::policy_hub<detail::it_value_t<InputIteratorT>, PairT, OpT>,
                            detail::item_count_t<NumItemsT>>::Dispatch(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                                       offset, OpT{}, empty, stream, TransformOp{},
                                                                       detail::item_count_of(num_items));
    });
  }
};

STRATA_NAMESPACE_END
