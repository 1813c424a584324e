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
// Errors (cudaErrorInvalidValue, before anything is launched or written): negative num_items, too small
// temp_storage_bytes, a null input or output pointer with num_items > 0. No items: nothing is written.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_scan.cuh>
#include <strata/device/dispatch/dispatch_scan_by_key.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/error.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/functional>
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
    return DispatchScan<InputIteratorT, OutputIteratorT, ScanOpT, InitValueT, OffsetT, A, Hub, INCLUSIVE>::Dispatch(
      d_temp_storage, temp_storage_bytes, d_in, d_out, op, init, offset, stream);
  });
}

template <bool INCLUSIVE, typename AccumT = void, typename KeysInputIteratorT, typename ValuesInputIteratorT,
          typename ValuesOutputIteratorT, typename ScanOpT, typename InitValueT, typename NumItemsT,
          typename EqualityOpT>
cudaError_t run_by_key(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                       ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out, ScanOpT op,
                       InitValueT init, NumItemsT num_items, EqualityOpT equality_op, cudaStream_t stream)
{
  using A = typename accumulator<AccumT, ScanOpT, it_value_t<ValuesInputIteratorT>, InitValueT>::type;
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_keys_in, d_values_out, false));
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_values_in, d_values_out, false));
  return dispatch_offset(num_items, [&](auto offset) {
    using OffsetT = decltype(offset);
    return DispatchScanByKey<KeysInputIteratorT, ValuesInputIteratorT, ValuesOutputIteratorT, EqualityOpT, ScanOpT,
                             InitValueT, OffsetT, A, INCLUSIVE>::Dispatch(d_temp_storage, temp_storage_bytes, d_keys_in,
                                                                          d_values_in, d_values_out, equality_op, op,
                                                                          init, offset, stream);
  });
}
} // namespace scan
} // namespace detail

struct DeviceScan
{
  // d_out[i] = T{} + d_in[0] + ... + d_in[i - 1].
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t ExclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                  OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceScan::ExclusiveSum");
    using InitT = detail::non_void_value_t<OutputIteratorT, detail::it_value_t<InputIteratorT>>;
    return detail::scan::run<false>(d_temp_storage, temp_storage_bytes, d_in, d_out, cuda::std::plus<>{}, InitT{},
                                    num_items, stream);
  }

  template <typename IteratorT, typename NumItemsT>
  static cudaError_t ExclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, IteratorT d_data,
                                  NumItemsT num_items, cudaStream_t stream = 0)
  {
    return ExclusiveSum(d_temp_storage, temp_storage_bytes, d_data, d_data, num_items, stream);
  }

  // d_out[i] = init op d_in[0] op ... op d_in[i - 1].
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
            typename NumItemsT>
  static cudaError_t ExclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                   OutputIteratorT d_out, ScanOpT scan_op, InitValueT init_value, NumItemsT num_items,
                                   cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceScan::ExclusiveScan");
    return detail::scan::run<false>(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op, init_value, num_items,
                                    stream);
  }

  template <typename IteratorT, typename ScanOpT, typename InitValueT, typename NumItemsT>
  static cudaError_t ExclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, IteratorT d_data, ScanOpT scan_op,
                                   InitValueT init_value, NumItemsT num_items, cudaStream_t stream = 0)
  {
    return ExclusiveScan(d_temp_storage, temp_storage_bytes, d_data, d_data, scan_op, init_value, num_items, stream);
  }

  // d_out[i] = d_in[0] + ... + d_in[i].
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t InclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                  OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceScan::InclusiveSum");
    return detail::scan::run<true>(d_temp_storage, temp_storage_bytes, d_in, d_out, cuda::std::plus<>{},
                                   detail::scan::no_init{}, num_items, stream);
  }

  template <typename IteratorT, typename NumItemsT>
  static cudaError_t InclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, IteratorT d_data,
                                  NumItemsT num_items, cudaStream_t stream = 0)
  {
    return InclusiveSum(d_temp_storage, temp_storage_bytes, d_data, d_data, num_items, stream);
  }

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

  // d_out[i] = init op d_in[0] op ... op d_in[i].
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
            typename NumItemsT>
  static cudaError_t InclusiveScanInit(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                       OutputIteratorT d_out, ScanOpT scan_op, InitValueT init_value,
                                       NumItemsT num_items, cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceScan::InclusiveScanInit");
    return detail::scan::run<true>(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op, init_value, num_items,
                                   stream);
  }

  // Exclusive sum of each run of equal keys: d_values_out[i] = 0 at a run's first item, else the sum of the
  // run's earlier values.
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename EqualityOpT = cuda::std::equal_to<>, typename NumItemsT = int>
  static cudaError_t ExclusiveSumByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                                       ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out,
                                       NumItemsT num_items, EqualityOpT equality_op = EqualityOpT(),
                                       cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceScan::ExclusiveSumByKey");
    using InitT = detail::non_void_value_t<ValuesOutputIteratorT, detail::it_value_t<ValuesInputIteratorT>>;
    return detail::scan::run_by_key<false>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                           cuda::std::plus<>{}, InitT{}, num_items, equality_op, stream);
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

  // Inclusive sum of each run of equal keys.
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename EqualityOpT = cuda::std::equal_to<>, typename NumItemsT = int>
  static cudaError_t InclusiveSumByKey(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                                       ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out,
                                       NumItemsT num_items, EqualityOpT equality_op = EqualityOpT(),
                                       cudaStream_t stream = 0)
  {
    STRATA_NVTX_RANGE("strata::DeviceScan::InclusiveSumByKey");
    return detail::scan::run_by_key<true>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                          cuda::std::plus<>{}, detail::scan::no_init{}, num_items, equality_op, stream);
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

  // -- Single-phase forms: each call above with its temporary storage and stream taken from `env`, a stream or a
  //    policy (strata/device/dispatch/single_phase.cuh); without one, strata's pool on the default stream.

  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t ExclusiveSum(InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items, const EnvT& env = {})
  {
    return detail::run_single_phase(env, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return ExclusiveSum(d_temp, bytes, d_in, d_out, num_items, stream);
    });
  }
  template <typename IteratorT, typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t ExclusiveSum(IteratorT d_data, NumItemsT num_items, const EnvT& env = {})
  {
    return detail::run_single_phase(env, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return ExclusiveSum(d_temp, bytes, d_data, num_items, stream);
    });
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
            typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t ExclusiveScan(InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op, InitValueT init_value,
                                   NumItemsT num_items, const EnvT& env = {})
  {
    return detail::run_single_phase(env, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return ExclusiveScan(d_temp, bytes, d_in, d_out, scan_op, init_value, num_items, stream);
    });
  }
  template <typename IteratorT, typename ScanOpT, typename InitValueT, typename NumItemsT,
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t ExclusiveScan(IteratorT d_data, ScanOpT scan_op, InitValueT init_value, NumItemsT num_items,
                                   const EnvT& env = {})
  {
    return detail::run_single_phase(env, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return ExclusiveScan(d_temp, bytes, d_data, scan_op, init_value, num_items, stream);
    });
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t InclusiveSum(InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items, const EnvT& env = {})
  {
    return detail::run_single_phase(env, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return InclusiveSum(d_temp, bytes, d_in, d_out, num_items, stream);
    });
  }
  template <typename IteratorT, typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t InclusiveSum(IteratorT d_data, NumItemsT num_items, const EnvT& env = {})
  {
    return detail::run_single_phase(env, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return InclusiveSum(d_temp, bytes, d_data, num_items, stream);
    });
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename NumItemsT,
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t InclusiveScan(InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op, NumItemsT num_items,
                                   const EnvT& env = {})
  {
    return detail::run_single_phase(env, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return InclusiveScan(d_temp, bytes, d_in, d_out, scan_op, num_items, stream);
    });
  }
  template <typename IteratorT, typename ScanOpT, typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t InclusiveScan(IteratorT d_data, ScanOpT scan_op, NumItemsT num_items, const EnvT& env = {})
  {
    return detail::run_single_phase(env, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return InclusiveScan(d_temp, bytes, d_data, scan_op, num_items, stream);
    });
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
            typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t InclusiveScanInit(InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op,
                                       InitValueT init_value, NumItemsT num_items, const EnvT& env = {})
  {
    return detail::run_single_phase(env, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return InclusiveScanInit(d_temp, bytes, d_in, d_out, scan_op, init_value, num_items, stream);
    });
  }
  // The by-key scans, with an equality operator before the environment, or without one (cuda::std::equal_to<>).
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename NumItemsT, typename EqualityOpT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT>           = 0,
            cuda::std::enable_if_t<!detail::is_env_v<EqualityOpT>, int> = 0>
  static cudaError_t ExclusiveSumByKey(KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                       ValuesOutputIteratorT d_values_out, NumItemsT num_items, EqualityOpT equality_op,
                                       const EnvT& env = {})
  {
    return detail::run_single_phase(env, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return ExclusiveSumByKey(d_temp, bytes, d_keys_in, d_values_in, d_values_out, num_items, equality_op, stream);
    });
  }
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t ExclusiveSumByKey(KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                       ValuesOutputIteratorT d_values_out, NumItemsT num_items, const EnvT& env = {})
  {
    return ExclusiveSumByKey(d_keys_in, d_values_in, d_values_out, num_items, cuda::std::equal_to<>{}, env);
  }
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename ScanOpT, typename InitValueT, typename NumItemsT, typename EqualityOpT,
            typename EnvT = detail::default_env, detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0,
            cuda::std::enable_if_t<!detail::is_env_v<EqualityOpT>, int> = 0>
  static cudaError_t ExclusiveScanByKey(KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                        ValuesOutputIteratorT d_values_out, ScanOpT scan_op, InitValueT init_value,
                                        NumItemsT num_items, EqualityOpT equality_op, const EnvT& env = {})
  {
    return detail::run_single_phase(env, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return ExclusiveScanByKey(d_temp, bytes, d_keys_in, d_values_in, d_values_out, scan_op, init_value, num_items,
                                equality_op, stream);
    });
  }
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename ScanOpT, typename InitValueT, typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t ExclusiveScanByKey(KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                        ValuesOutputIteratorT d_values_out, ScanOpT scan_op, InitValueT init_value,
                                        NumItemsT num_items, const EnvT& env = {})
  {
    return ExclusiveScanByKey(d_keys_in, d_values_in, d_values_out, scan_op, init_value, num_items,
                              cuda::std::equal_to<>{}, env);
  }
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename NumItemsT, typename EqualityOpT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT>           = 0,
            cuda::std::enable_if_t<!detail::is_env_v<EqualityOpT>, int> = 0>
  static cudaError_t InclusiveSumByKey(KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                       ValuesOutputIteratorT d_values_out, NumItemsT num_items, EqualityOpT equality_op,
                                       const EnvT& env = {})
  {
    return detail::run_single_phase(env, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return InclusiveSumByKey(d_temp, bytes, d_keys_in, d_values_in, d_values_out, num_items, equality_op, stream);
    });
  }
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t InclusiveSumByKey(KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                       ValuesOutputIteratorT d_values_out, NumItemsT num_items, const EnvT& env = {})
  {
    return InclusiveSumByKey(d_keys_in, d_values_in, d_values_out, num_items, cuda::std::equal_to<>{}, env);
  }
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename ScanOpT, typename NumItemsT, typename EqualityOpT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT>           = 0,
            cuda::std::enable_if_t<!detail::is_env_v<EqualityOpT>, int> = 0>
  static cudaError_t InclusiveScanByKey(KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                        ValuesOutputIteratorT d_values_out, ScanOpT scan_op, NumItemsT num_items,
                                        EqualityOpT equality_op, const EnvT& env = {})
  {
    return detail::run_single_phase(env, [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
      return InclusiveScanByKey(d_temp, bytes, d_keys_in, d_values_in, d_values_out, scan_op, num_items, equality_op,
                                stream);
    });
  }
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename ScanOpT, typename NumItemsT, typename EnvT = detail::default_env,
            detail::enable_if_single_phase_t<NumItemsT, EnvT> = 0>
  static cudaError_t InclusiveScanByKey(KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                        ValuesOutputIteratorT d_values_out, ScanOpT scan_op, NumItemsT num_items,
                                        const EnvT& env = {})
  {
    return InclusiveScanByKey(d_keys_in, d_values_in, d_values_out, scan_op, num_items, cuda::std::equal_to<>{}, env);
  }
};

STRATA_NAMESPACE_END
