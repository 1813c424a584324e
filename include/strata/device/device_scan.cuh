// DeviceScan: prefix scans with CUB's two-phase temporary-storage API, in one pass over the data
// (decoupled look-back: include/strata/agent/agent_scan.cuh).
//
//   size_t bytes = 0;
//   strata::DeviceScan::InclusiveSum(nullptr, bytes, d_in, d_out, n);          // size query
//   cudaMalloc(&d_temp, bytes);
//   strata::DeviceScan::InclusiveSum(d_temp, bytes, d_in, d_out, n, stream);   // d_out[i] = d_in[0] + ... + d_in[i]
//
// The operator must be associative; it need not be commutative: results are the sequential ones, and
// floating-point results are the same bits run to run on the same device. d_in may equal d_out (in place).
// Complexity: one read of the input and one write of the output (O(n) work), two launches (one for a
// single tile). By-key scans restart at every key that differs from its predecessor under `equality_op`;
// their output may be their value input, but unlike CUB's it must not overlap the keys (a tile reads the key
// before its first item, which the previous tile's output would overwrite).
// Every call also has a single-phase form, without the temporary-storage arguments, whose last argument (defaulted)
// is a stream or a policy (strata/device/dispatch/single_phase.cuh):
//
//   strata::DeviceScan::InclusiveSum(d_in, d_out, n, stream);
//   strata::DeviceScan::InclusiveSum(d_in, d_out, n, strata::par(alloc).on(stream));
//
// Every scan also takes strata::gpu_to_gpu (strata/determinism.cuh) before the stream (the by-key ones after their
// equality operator, if any): the results are then the same bits on every GPU and under every policy (two-phase
// forms, num_items an integer). A by-key scan is then the gpu_to_gpu scan of (head flag, value) pairs.
//
//   strata::DeviceScan::InclusiveSum(d_temp, bytes, d_in, d_out, n, strata::gpu_to_gpu, stream);
//   strata::DeviceScan::InclusiveSumByKey(d_temp, bytes, d_keys, d_in, d_out, n, strata::gpu_to_gpu, stream);
//
// That form also reads the input once and writes the output once, one prefix published a chunk of 32 KiB; on large
// inputs it runs at about 0.86x of the default form's throughput for floats and doubles (docs/performance.md).
// Errors (cudaErrorInvalidValue, before anything is launched or written): negative num_items, too small
// temp_storage_bytes, a null input or output pointer with num_items > 0. No items: nothing is written.
#pragma once

#include <strata/config.cuh>
#include <strata/determinism.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_scan.cuh>
#include <strata/device/dispatch/dispatch_scan_by_key.cuh>
#include <strata/device/dispatch/dispatch_scan_gpu_to_gpu.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/error.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/cstddef>
#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace scan
{
// The accumulator of a scan of InputT items: AccumT where it is named (the frontend names Thrust's:
// strata/execution/scan.cuh), else CUB's rule, the decayed type of op(init, item), or of op(item, item) without init.
template <typename AccumT, typename ScanOpT, typename InputT, typename InitValueT>
struct accumulator
{
  using type = AccumT;
};
template <typename ScanOpT, typename InputT, typename InitValueT>
struct accumulator<void, ScanOpT, InputT, InitValueT>
{
  using type = accumulator_t<ScanOpT, InputT, InitValueT>;
};
template <typename ScanOpT, typename InputT>
struct accumulator<void, ScanOpT, InputT, no_init>
{
  using type = accumulator_t<ScanOpT, InputT, InputT>;
};

// The scans, accumulating in AccumT (void: CUB's rule).
template <bool INCLUSIVE, typename AccumT = void, typename InputIteratorT, typename OutputIteratorT, typename ScanOpT,
          typename InitValueT, typename NumItemsT>
cudaError_t run(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                ScanOpT op, InitValueT init, NumItemsT num_items, cudaStream_t stream)
{
  using A = typename accumulator<AccumT, ScanOpT, it_value_t<InputIteratorT>, InitValueT>::type;
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_out, false));
  return dispatch_offset(num_items, [&](auto offset) {
    using OffsetT = decltype(offset);
    using Hub     = policy_hub<A, ScanOpT, stage_bytes_v<InputIteratorT, OutputIteratorT, A>>;
    return DispatchScan<InputIteratorT, OutputIteratorT, ScanOpT, InitValueT, OffsetT, A, Hub, INCLUSIVE,
                        scanned_output, item_count_t<NumItemsT>>::Dispatch(d_temp_storage, temp_storage_bytes, d_in,
                                                                           d_out, op, init, offset, stream,
                                                                           scanned_output{}, item_count_of(num_items));
  });
}

// The gpu_to_gpu scans: the atom order (dispatch/dispatch_scan_gpu_to_gpu.cuh) where the operator is inexact, the
// default scan where any association gives the same result. Accumulating in AccumT (void: CUB's rule).
template <bool INCLUSIVE, typename AccumT = void, typename InputIteratorT, typename OutputIteratorT, typename ScanOpT,
          typename InitValueT, typename NumItemsT>
cudaError_t run_gpu_to_gpu(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                           ScanOpT op, InitValueT init, NumItemsT num_items, cudaStream_t stream)
{
  static_assert(cuda::std::is_integral<NumItemsT>::value,
                "DeviceScan's gpu_to_gpu forms take num_items as an integer (not a strata::device_count)");
  using A = typename accumulator<AccumT, ScanOpT, it_value_t<InputIteratorT>, InitValueT>::type;
  if constexpr (scan_op_is_exact<A, ScanOpT>::value)
  {
    return run<INCLUSIVE, AccumT>(d_temp_storage, temp_storage_bytes, d_in, d_out, op, init, num_items, stream);
  }
  else
  {
    STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_out, false));
    return dispatch_offset(num_items, [&](auto offset) {
      using OffsetT = decltype(offset);
      return DispatchScanGpuToGpu<InputIteratorT, OutputIteratorT, ScanOpT, InitValueT, OffsetT, A,
                                  INCLUSIVE>::Dispatch(d_temp_storage, temp_storage_bytes, d_in, d_out, op, init,
                                                       offset, stream);
    });
  }
}

// The by-key scans' arguments: the keys and the values against the output.
template <typename NumItemsT, typename KeysInputIteratorT, typename ValuesInputIteratorT,
          typename ValuesOutputIteratorT>
cudaError_t check_by_key_arguments(const void* d_temp_storage, NumItemsT num_items, KeysInputIteratorT d_keys_in,
                                   ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out)
{
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_keys_in, d_values_out, false));
  return check_arguments(d_temp_storage, num_items, d_values_in, d_values_out, false);
}

template <bool INCLUSIVE, typename AccumT = void, typename KeysInputIteratorT, typename ValuesInputIteratorT,
          typename ValuesOutputIteratorT, typename ScanOpT, typename InitValueT, typename NumItemsT,
          typename EqualityOpT>
cudaError_t run_by_key(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                       ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out, ScanOpT op,
                       InitValueT init, NumItemsT num_items, EqualityOpT equality_op, cudaStream_t stream)
{
  using A = typename accumulator<AccumT, ScanOpT, it_value_t<ValuesInputIteratorT>, InitValueT>::type;
  STRATA_RETURN_IF_ERROR(check_by_key_arguments(d_temp_storage, num_items, d_keys_in, d_values_in, d_values_out));
  return dispatch_offset(num_items, [&](auto offset) {
    using OffsetT = decltype(offset);
    return DispatchScanByKey<KeysInputIteratorT, ValuesInputIteratorT, ValuesOutputIteratorT, EqualityOpT, ScanOpT,
                             InitValueT, OffsetT, A, INCLUSIVE, policy_hub<segmented_value<A>, segmented_op<ScanOpT>>,
                             item_count_t<NumItemsT>>::Dispatch(d_temp_storage, temp_storage_bytes, d_keys_in,
                                                                d_values_in, d_values_out, equality_op, op, init,
                                                                offset, stream, item_count_of(num_items));
  });
}
// The gpu_to_gpu scans by key where the operator is inexact: the gpu_to_gpu scan of (head, value) pairs
// (scan_atoms::by_key_pairs) under segmented_op, whose order follows from the item count and the pair type alone;
// an inclusive scan by key writes each inclusive pair's value, an exclusive one init at a run's first item and init op
// the exclusive pair's value elsewhere (scan_atoms::exclusive_values). Exact operators: the default scan by key.
template <bool INCLUSIVE, typename AccumT = void, typename KeysInputIteratorT, typename ValuesInputIteratorT,
          typename ValuesOutputIteratorT, typename ScanOpT, typename InitValueT, typename NumItemsT,
          typename EqualityOpT>
cudaError_t run_by_key_gpu_to_gpu(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                                  ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out, ScanOpT op,
                                  InitValueT init, NumItemsT num_items, EqualityOpT equality_op, cudaStream_t stream)
{
  static_assert(cuda::std::is_integral<NumItemsT>::value,
                "DeviceScan's gpu_to_gpu forms take num_items as an integer (not a strata::device_count)");
  using A = typename accumulator<AccumT, ScanOpT, it_value_t<ValuesInputIteratorT>, InitValueT>::type;
  if constexpr (scan_op_is_exact<A, ScanOpT>::value)
  {
    return run_by_key<INCLUSIVE, AccumT>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out, op,
                                         init, num_items, equality_op, stream);
  }
  else
  {
    STRATA_RETURN_IF_ERROR(check_by_key_arguments(d_temp_storage, num_items, d_keys_in, d_values_in, d_values_out));
    using InputT = scan_atoms::by_key_pairs<KeysInputIteratorT, ValuesInputIteratorT, EqualityOpT, A>;
    const InputT pairs{d_keys_in, d_values_in, equality_op};
    const auto scan_to = [&](auto write) {
      return run_gpu_to_gpu<INCLUSIVE>(d_temp_storage, temp_storage_bytes, pairs,
                                       scan_atoms::pair_output<ValuesOutputIteratorT, decltype(write)>{d_values_out,
                                                                                                       write},
                                       segmented_op<ScanOpT>{op}, no_init{}, num_items, stream);
    };
    if constexpr (INCLUSIVE)
    {
      return scan_to(scan_atoms::inclusive_values{});
    }
    else
    {
      return scan_to(scan_atoms::exclusive_values<KeysInputIteratorT, EqualityOpT, ScanOpT, A>{
        d_keys_in, equality_op, {op, static_cast<A>(init)}});
    }
  }
}

// The initial value of a sum: none for an inclusive one, else the zero of the output's value type (of the input's
// where the output has none).
template <bool INCLUSIVE, typename InputIteratorT, typename OutputIteratorT>
auto sum_init()
{
  if constexpr (INCLUSIVE)
  {
    return no_init{};
  }
  else
  {
    return non_void_value_t<OutputIteratorT, it_value_t<InputIteratorT>>{};
  }
}

// A by-key scan's single-phase form: `equality_op` may be the environment (the equality operator omitted), then
// cuda::std::equal_to<>.
template <typename CallT, typename EqualityOpT, typename EnvT, typename... ArgsT>
cudaError_t call_by_key(CallT two_phase, const EqualityOpT& equality_op, const EnvT& env, ArgsT&... args)
{
  if constexpr (is_env_v<EqualityOpT>)
  {
    static_assert(cuda::std::is_same<EnvT, default_env>::value,
                  "strata::DeviceScan: the arguments after num_items are [equality_op] [, a stream or a policy]");
    return call_single_phase(equality_op, two_phase, args..., cuda::std::equal_to<>{});
  }
  else
  {
    return call_single_phase(env, two_phase, args..., equality_op);
  }
}
} // namespace scan
} // namespace detail

struct DeviceScan
{
  // Each entry point with the same arguments as another is written once, below, with its twin: its two-phase forms,
  // then its single-phase forms (the same arguments without the temporary storage, with an optional environment, a
  // stream or a policy, instead of the stream: strata/device/dispatch/single_phase.cuh; without one, strata's pool
  // on the default stream). Every scan but the by-key ones has an in-place form (d_data both input and output).

  // ExclusiveSum: d_out[i] = T{} + d_in[0] + ... + d_in[i - 1], T the output's value type (else the input's).
  // InclusiveSum: d_out[i] = d_in[0] + ... + d_in[i].
#define STRATA_DETAIL_SCAN_SUM(NAME, INCLUSIVE)                                                                    \
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>                                 \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,                   \
                          OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0)                     \
  {                                                                                                                \
    STRATA_NVTX_RANGE("strata::DeviceScan::" #NAME);                                                               \
    return detail::scan::run<INCLUSIVE>(d_temp_storage, temp_storage_bytes, d_in, d_out, cuda::std::plus<>{},      \
                                        detail::scan::sum_init<INCLUSIVE, InputIteratorT, OutputIteratorT>(),      \
                                        num_items, stream);                                                        \
  }                                                                                                                \
  template <typename IteratorT, typename NumItemsT>                                                                \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, IteratorT d_data, NumItemsT num_items, \
                          cudaStream_t stream = 0)                                                                 \
  {                                                                                                                \
    return NAME(d_temp_storage, temp_storage_bytes, d_data, d_data, num_items, stream);                            \
  }                                                                                                                \
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT,                                 \
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>            \
  static cudaError_t NAME(InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items, const EnvT& env = {})   \
  {                                                                                                                \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_in, d_out, num_items);                  \
  }                                                                                                                \
  template <typename IteratorT, typename NumItemsT, typename EnvT = detail::default_env,                           \
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>                                                 \
  static cudaError_t NAME(IteratorT d_data, NumItemsT num_items, const EnvT& env = {})                             \
  {                                                                                                                \
    return NAME(d_data, d_data, num_items, env);                                                                   \
  }

  // ExclusiveScan: d_out[i] = init op d_in[0] op ... op d_in[i - 1].
  // InclusiveScanInit: d_out[i] = init op d_in[0] op ... op d_in[i].
#define STRATA_DETAIL_SCAN_INIT(NAME, INCLUSIVE)                                                                       \
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,                  \
            typename NumItemsT>                                                                                        \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,                       \
                          OutputIteratorT d_out, ScanOpT scan_op, InitValueT init_value, NumItemsT num_items,          \
                          cudaStream_t stream = 0)                                                                     \
  {                                                                                                                    \
    STRATA_NVTX_RANGE("strata::DeviceScan::" #NAME);                                                                   \
    return detail::scan::run<INCLUSIVE>(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op, init_value,          \
                                        num_items, stream);                                                            \
  }                                                                                                                    \
  template <typename IteratorT, typename ScanOpT, typename InitValueT, typename NumItemsT>                             \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, IteratorT d_data, ScanOpT scan_op,         \
                          InitValueT init_value, NumItemsT num_items, cudaStream_t stream = 0)                         \
  {                                                                                                                    \
    return NAME(d_temp_storage, temp_storage_bytes, d_data, d_data, scan_op, init_value, num_items, stream);           \
  }                                                                                                                    \
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,                  \
            typename NumItemsT, typename EnvT = detail::default_env,                                                   \
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>                                                     \
  static cudaError_t NAME(InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op, InitValueT init_value,          \
                          NumItemsT num_items, const EnvT& env = {})                                                   \
  {                                                                                                                    \
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(NAME), d_in, d_out, scan_op, init_value, num_items); \
  }                                                                                                                    \
  template <typename IteratorT, typename ScanOpT, typename InitValueT, typename NumItemsT,                             \
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>                \
  static cudaError_t NAME(IteratorT d_data, ScanOpT scan_op, InitValueT init_value, NumItemsT num_items,               \
                          const EnvT& env = {})                                                                        \
  {                                                                                                                    \
    return NAME(d_data, d_data, scan_op, init_value, num_items, env);                                                  \
  }

  // gpu_to_gpu forms (strata/determinism.cuh): the same results, the same bits on every GPU and policy (an order
  // fixed by num_items and the types alone). num_items is an integer.
#define STRATA_DETAIL_SCAN_GPU_TO_GPU(NAME, INCLUSIVE, INIT_PARAMS, OP, INIT)                                       \
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT STRATA_DETAIL_SCAN_##INIT_PARAMS> \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,                    \
                          OutputIteratorT d_out STRATA_DETAIL_SCAN_##INIT_PARAMS##_ARGS, NumItemsT num_items,       \
                          gpu_to_gpu_t, cudaStream_t stream = 0)                                                    \
  {                                                                                                                 \
    STRATA_NVTX_RANGE("strata::DeviceScan::" #NAME);                                                                \
    return detail::scan::run_gpu_to_gpu<INCLUSIVE>(d_temp_storage, temp_storage_bytes, d_in, d_out, OP, INIT,       \
                                                   num_items, stream);                                              \
  }
#define STRATA_DETAIL_SCAN_SUM_PARAMS
#define STRATA_DETAIL_SCAN_SUM_PARAMS_ARGS
#define STRATA_DETAIL_SCAN_OP_PARAMS , typename ScanOpT
#define STRATA_DETAIL_SCAN_OP_PARAMS_ARGS , ScanOpT scan_op
#define STRATA_DETAIL_SCAN_INIT_PARAMS , typename ScanOpT, typename InitValueT
#define STRATA_DETAIL_SCAN_INIT_PARAMS_ARGS , ScanOpT scan_op, InitValueT init_value
  STRATA_DETAIL_SCAN_GPU_TO_GPU(ExclusiveSum, false, SUM_PARAMS, cuda::std::plus<>{},
                                (detail::scan::sum_init<false, InputIteratorT, OutputIteratorT>()))
  STRATA_DETAIL_SCAN_GPU_TO_GPU(InclusiveSum, true, SUM_PARAMS, cuda::std::plus<>{}, detail::scan::no_init{})
  STRATA_DETAIL_SCAN_GPU_TO_GPU(ExclusiveScan, false, INIT_PARAMS, scan_op, init_value)
  STRATA_DETAIL_SCAN_GPU_TO_GPU(InclusiveScanInit, true, INIT_PARAMS, scan_op, init_value)
  STRATA_DETAIL_SCAN_GPU_TO_GPU(InclusiveScan, true, OP_PARAMS, scan_op, detail::scan::no_init{})
#undef STRATA_DETAIL_SCAN_GPU_TO_GPU

  // The by-key scans restart at every key that differs from its predecessor under equality_op
  // (cuda::std::equal_to<> without one); their single-phase forms take [equality_op] [, env] after num_items.
  // ExclusiveSumByKey: d_values_out[i] = T{} at a run's first item, else the sum of the run's earlier values.
  // InclusiveSumByKey: the sum of the run's values up to d_values_in[i].
#define STRATA_DETAIL_SCAN_SUM_BY_KEY(NAME, INCLUSIVE)                                                               \
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,              \
            typename EqualityOpT = cuda::std::equal_to<>, typename NumItemsT = int>                                  \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,            \
                          ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out, NumItemsT num_items, \
                          EqualityOpT equality_op = EqualityOpT(), cudaStream_t stream = 0)                          \
  {                                                                                                                  \
    STRATA_NVTX_RANGE("strata::DeviceScan::" #NAME);                                                                 \
    return detail::scan::run_by_key<INCLUSIVE>(                                                                      \
      d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out, cuda::std::plus<>{},                 \
      detail::scan::sum_init<INCLUSIVE, ValuesInputIteratorT, ValuesOutputIteratorT>(), num_items, equality_op,      \
      stream);                                                                                                       \
  }                                                                                                                  \
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,              \
            typename NumItemsT, typename EqualityOpT = cuda::std::equal_to<>, typename EnvT = detail::default_env,   \
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>                                                   \
  static cudaError_t NAME(KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,                            \
                          ValuesOutputIteratorT d_values_out, NumItemsT num_items,                                   \
                          const EqualityOpT& equality_op = {}, const EnvT& env = {})                                 \
  {                                                                                                                  \
    return detail::scan::call_by_key(STRATA_DETAIL_TWO_PHASE(NAME), equality_op, env, d_keys_in, d_values_in,        \
                                     d_values_out, num_items);                                                       \
  }

  STRATA_DETAIL_SCAN_SUM(ExclusiveSum, false)
  STRATA_DETAIL_SCAN_SUM(InclusiveSum, true)
  STRATA_DETAIL_SCAN_INIT(ExclusiveScan, false)
  STRATA_DETAIL_SCAN_INIT(InclusiveScanInit, true)
  STRATA_DETAIL_SCAN_SUM_BY_KEY(ExclusiveSumByKey, false)
  STRATA_DETAIL_SCAN_SUM_BY_KEY(InclusiveSumByKey, true)

  // gpu_to_gpu forms of the by-key scans (two-phase, num_items an integer): [equality_op,] gpu_to_gpu before the
  // stream. The same results, the same bits on every GPU and policy.
#define STRATA_DETAIL_SCAN_BY_KEY_GPU_TO_GPU(NAME, INCLUSIVE, INIT_PARAMS, OP, INIT)                                   \
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT,                                                \
            typename ValuesOutputIteratorT STRATA_DETAIL_SCAN_##INIT_PARAMS, typename NumItemsT, typename EqualityOpT> \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,              \
                          ValuesInputIteratorT d_values_in,                                                            \
                          ValuesOutputIteratorT d_values_out STRATA_DETAIL_SCAN_##INIT_PARAMS##_ARGS,                  \
                          NumItemsT num_items, EqualityOpT equality_op, gpu_to_gpu_t, cudaStream_t stream = 0)         \
  {                                                                                                                    \
    STRATA_NVTX_RANGE("strata::DeviceScan::" #NAME);                                                                   \
    return detail::scan::run_by_key_gpu_to_gpu<INCLUSIVE>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,  \
                                                          d_values_out, OP, INIT, num_items, equality_op, stream);     \
  }                                                                                                                    \
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT,                                                \
            typename ValuesOutputIteratorT STRATA_DETAIL_SCAN_##INIT_PARAMS, typename NumItemsT>                       \
  static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,              \
                          ValuesInputIteratorT d_values_in,                                                            \
                          ValuesOutputIteratorT d_values_out STRATA_DETAIL_SCAN_##INIT_PARAMS##_ARGS,                  \
                          NumItemsT num_items, gpu_to_gpu_t, cudaStream_t stream = 0)                                  \
  {                                                                                                                    \
    STRATA_NVTX_RANGE("strata::DeviceScan::" #NAME);                                                                   \
    return detail::scan::run_by_key_gpu_to_gpu<INCLUSIVE>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,  \
                                                          d_values_out, OP, INIT, num_items, cuda::std::equal_to<>{},  \
                                                          stream);                                                     \
  }
  STRATA_DETAIL_SCAN_BY_KEY_GPU_TO_GPU(ExclusiveSumByKey, false, SUM_PARAMS, cuda::std::plus<>{},
                                       (detail::scan::sum_init<false, ValuesInputIteratorT, ValuesOutputIteratorT>()))
  STRATA_DETAIL_SCAN_BY_KEY_GPU_TO_GPU(InclusiveSumByKey, true, SUM_PARAMS, cuda::std::plus<>{},
                                       detail::scan::no_init{})
  STRATA_DETAIL_SCAN_BY_KEY_GPU_TO_GPU(ExclusiveScanByKey, false, INIT_PARAMS, scan_op, init_value)
  STRATA_DETAIL_SCAN_BY_KEY_GPU_TO_GPU(InclusiveScanByKey, true, OP_PARAMS, scan_op, detail::scan::no_init{})
#undef STRATA_DETAIL_SCAN_BY_KEY_GPU_TO_GPU
#undef STRATA_DETAIL_SCAN_SUM_PARAMS
#undef STRATA_DETAIL_SCAN_SUM_PARAMS_ARGS
#undef STRATA_DETAIL_SCAN_OP_PARAMS
#undef STRATA_DETAIL_SCAN_OP_PARAMS_ARGS
#undef STRATA_DETAIL_SCAN_INIT_PARAMS
#undef STRATA_DETAIL_SCAN_INIT_PARAMS_ARGS

#undef STRATA_DETAIL_SCAN_SUM
#undef STRATA_DETAIL_SCAN_INIT
#undef STRATA_DETAIL_SCAN_SUM_BY_KEY

  // d_out[i] = d_in[0] op ... op d_in[i].
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename NumItemsT>
  static cudaError_t InclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                   OutputIteratorT d_out, ScanOpT scan_op, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceScan::InclusiveScan");
    return detail::scan::run<true>(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op, detail::scan::no_init{},
                                   num_items, stream);
  }
  template <typename IteratorT, typename ScanOpT, typename NumItemsT>
  static cudaError_t InclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, IteratorT d_data, ScanOpT scan_op,
                                   NumItemsT num_items, cudaStream_t stream = 0)
  {
    return InclusiveScan(d_temp_storage, temp_storage_bytes, d_data, d_data, scan_op, num_items, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename NumItemsT,
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t InclusiveScan(InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op, NumItemsT num_items,
                                   const EnvT& env = {})
  {
    return detail::call_single_phase(env, STRATA_DETAIL_TWO_PHASE(InclusiveScan), d_in, d_out, scan_op, num_items);
  }
  template <typename IteratorT, typename ScanOpT, typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t InclusiveScan(IteratorT d_data, ScanOpT scan_op, NumItemsT num_items, const EnvT& env = {})
  {
    return InclusiveScan(d_data, d_data, scan_op, num_items, env);
  }

  // Exclusive scan of each run of equal keys, every run starting from init_value.
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename ScanOpT, typename InitValueT, typename EqualityOpT = cuda::std::equal_to<>,
            typename NumItemsT = int>
  static cudaError_t ExclusiveScanByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                                        ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out,
                                        ScanOpT scan_op, InitValueT init_value, NumItemsT num_items,
                                        EqualityOpT equality_op = EqualityOpT(), cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceScan::ExclusiveScanByKey");
    return detail::scan::run_by_key<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                           scan_op, init_value, num_items, equality_op, stream);
  }
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename ScanOpT, typename InitValueT, typename NumItemsT, typename EqualityOpT = cuda::std::equal_to<>,
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t ExclusiveScanByKey(KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                        ValuesOutputIteratorT d_values_out, ScanOpT scan_op, InitValueT init_value,
                                        NumItemsT num_items, const EqualityOpT& equality_op = {}, const EnvT& env = {})
  {
    return detail::scan::call_by_key(STRATA_DETAIL_TWO_PHASE(ExclusiveScanByKey), equality_op, env, d_keys_in,
                                     d_values_in, d_values_out, scan_op, init_value, num_items);
  }

  // Inclusive scan of each run of equal keys.
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename ScanOpT, typename EqualityOpT = cuda::std::equal_to<>, typename NumItemsT = int>
  static cudaError_t InclusiveScanByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                                        ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out,
                                        ScanOpT scan_op, NumItemsT num_items, EqualityOpT equality_op = EqualityOpT(),
                                        cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceScan::InclusiveScanByKey");
    return detail::scan::run_by_key<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                          scan_op, detail::scan::no_init{}, num_items, equality_op, stream);
  }
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename ScanOpT, typename NumItemsT, typename EqualityOpT = cuda::std::equal_to<>,
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t InclusiveScanByKey(KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                        ValuesOutputIteratorT d_values_out, ScanOpT scan_op, NumItemsT num_items,
                                        const EqualityOpT& equality_op = {}, const EnvT& env = {})
  {
    return detail::scan::call_by_key(STRATA_DETAIL_TWO_PHASE(InclusiveScanByKey), equality_op, env, d_keys_in,
                                     d_values_in, d_values_out, scan_op, num_items);
  }
};

STRATA_NAMESPACE_END
