// Frontend scans: std-like calls over DeviceScan's single pass, temporary storage from the policy's allocator.
// They return the end of the output and never synchronize the host, except for an output in host-accessible memory
// (strata/execution/host_value.cuh); they may be captured into a CUDA graph.
//
//   strata::inclusive_scan(strata::par.on(stream), first, last, out);                       // sums
//   strata::exclusive_scan(strata::par.on(stream), first, last, out, 0, cuda::maximum<>{});
//   strata::inclusive_scan_by_key(strata::par.on(stream), keys, keys + n, values, out);    // per run of equal keys
//
// The operator must be associative; it need not be commutative (results are the sequential ones, floats the same bits
// run to run). Argument orders are std::'s; the orders Thrust's algorithms use where they differ from std::
// (thrust::inclusive_scan with init before op, thrust::transform_*_scan with the unary operator first) are accepted
// too, told apart by which argument can be called on an item. Errors throw strata::cuda_error naming the algorithm; bad
// arguments (a policy whose stream belongs to another device than the current one among them: cudaErrorInvalidValue)
// are found before anything is launched, and leave cudaGetLastError() clean. The output may be the input (in place);
// by-key outputs must not overlap the keys.
//
// Temporary storage: at most one allocation per call from the policy's allocator (the tiles' look-back state), given
// back in stream order. A scan of an empty range asks the allocator for nothing and launches nothing: its size query
// answers temporary_storage::EMPTY_SIZE, for which no storage is taken.
//
// The running value has the type Thrust gives it (as std:: does), so that thrust:: calls given strata's policy write
// what thrust::cuda::par writes: an inclusive scan without init accumulates in the input's value type (int8 items
// wrap as int8, whatever the output), one with init in the type of op(item, init); an exclusive scan accumulates in
// init's type; transform_exclusive_scan converts each transformed item to init's type first. Exclusive scans without
// init start from value_type{}.
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_scan.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/execution/host_value.cuh>
#include <strata/execution/iterators.cuh>
#include <strata/execution/policy.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/cuda_error.cuh>

#include <cuda/std/functional>
#include <cuda/std/iterator>

#include <thrust/iterator/transform_iterator.h>

#include <type_traits>

STRATA_NAMESPACE_BEGIN

// -- inclusive_scan -------------------------------------------------------------------------------------------

namespace detail
{
namespace frontend
{
// The type Thrust accumulates a scan of items of ValueT in: ValueT for an inclusive scan without init (InitT
// no_init), the type of op(item, init) for one with init, init's type for an exclusive scan.
template <bool INCLUSIVE, typename BinaryOp, typename ValueT, typename InitT>
struct scan_accum
{
  using type = InitT;
};
template <typename BinaryOp, typename ValueT>
struct scan_accum<true, BinaryOp, ValueT, scan::no_init>
{
  using type = ValueT;
};
template <typename BinaryOp, typename ValueT, typename InitT>
struct scan_accum<true, BinaryOp, ValueT, InitT>
{
  using type = accumulator_t<BinaryOp, /* op(item, init): the item first */ InitT, ValueT>;
};
template <bool INCLUSIVE, typename BinaryOp, typename ValueT, typename InitT>
using scan_accum_t = typename scan_accum<INCLUSIVE, BinaryOp, ValueT, InitT>::type;

// The scans, throwing strata::cuda_error naming `name`; InitT no_init for an inclusive scan without init.
template <bool INCLUSIVE, typename PolicyT, typename InputIt, typename OutputIt, typename BinaryOp, typename InitT>
OutputIt scan(const PolicyT& policy, const char* name, InputIt first, InputIt last, OutputIt d_first, BinaryOp op,
              InitT init)
{
  using AccumT = scan_accum_t<INCLUSIVE, BinaryOp, iter_value_t<InputIt>, InitT>;
  const auto n = cuda::std::distance(first, last);
  throw_on_error(run_single_phase(policy,
                                  [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
                                    if constexpr (is_gpu_to_gpu_v<PolicyT>)
                                    {
                                      return scan::run_gpu_to_gpu<INCLUSIVE, AccumT>(d_temp, bytes, unwrap(first),
                                                                                     unwrap(d_first), op, init, n,
                                                                                     stream);
                                    }
                                    else
                                    {
                                      return scan::run<INCLUSIVE, AccumT>(d_temp, bytes, unwrap(first), unwrap(d_first),
                                                                          op, init, n, stream);
                                    }
                                  }),
                 name);
  finish_for_host(policy, name, d_first);
  return d_first + n;
}

// The scans by key, with Thrust's accumulators: the values' value type (inclusive), init's type (exclusive).
template <bool INCLUSIVE, typename PolicyT, typename KeyIt, typename ValueIt, typename OutputIt,
          typename BinaryPredicate, typename BinaryOp, typename InitT>
OutputIt scan_by_key(const PolicyT& policy, const char* name, KeyIt keys_first, KeyIt keys_last, ValueIt values_first,
                     OutputIt d_first, BinaryPredicate binary_pred, BinaryOp op, InitT init)
{
  using AccumT = cuda::std::conditional_t<INCLUSIVE, iter_value_t<ValueIt>, InitT>;
  const auto n = cuda::std::distance(keys_first, keys_last);
  throw_on_error(run_single_phase(policy,
                                  [&](void* d_temp, size_t& bytes, cudaStream_t stream) {
                                    if constexpr (is_gpu_to_gpu_v<PolicyT>)
                                    {
                                      return scan::run_by_key_gpu_to_gpu<INCLUSIVE, AccumT>(d_temp, bytes,
                                                                                            unwrap(keys_first),
                                                                                            unwrap(values_first),
                                                                                            unwrap(d_first), op, init,
                                                                                            n, binary_pred, stream);
                                    }
                                    else
                                    {
                                      return scan::run_by_key<INCLUSIVE, AccumT>(d_temp, bytes, unwrap(keys_first),
                                                                                 unwrap(values_first), unwrap(d_first),
                                                                                 op, init, n, binary_pred, stream);
                                    }
                                  }),
                 name);
  finish_for_host(policy, name, d_first);
  return d_first + n;
}
} // namespace frontend
} // namespace detail

template <typename A, typename D, typename InputIt, typename OutputIt, typename BinaryOp>
OutputIt inclusive_scan(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first,
                        BinaryOp op)
{
  STRATA_NVTX_RANGE("strata::inclusive_scan");
  return detail::frontend::scan<true>(policy, "strata::inclusive_scan", first, last, d_first, op,
                                      detail::scan::no_init{});
}

template <typename A, typename D, typename InputIt, typename OutputIt>
OutputIt inclusive_scan(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first)
{
  return inclusive_scan(policy, first, last, d_first, cuda::std::plus<>{});
}

// init op items..., std's order (op, init).
template <typename A, typename D, typename InputIt, typename OutputIt, typename BinaryOp, typename T,
          std::enable_if_t<detail::is_binary_for_v<BinaryOp, T>, int> = 0>
OutputIt inclusive_scan(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first,
                        BinaryOp op, T init)
{
  STRATA_NVTX_RANGE("strata::inclusive_scan");
  return detail::frontend::scan<true>(policy, "strata::inclusive_scan", first, last, d_first, op, init);
}

// Thrust's order (init, op), as thrust::inclusive_scan calls it.
template <typename A, typename D, typename InputIt, typename OutputIt, typename T, typename BinaryOp,
          std::enable_if_t<detail::is_binary_for_v<BinaryOp, T>, int> = 0>
OutputIt inclusive_scan(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first, T init,
                        BinaryOp op)
{
  return inclusive_scan(policy, first, last, d_first, op, init);
}

// -- exclusive_scan -------------------------------------------------------------------------------------------

template <typename A, typename D, typename InputIt, typename OutputIt, typename T, typename BinaryOp>
OutputIt exclusive_scan(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first, T init,
                        BinaryOp op)
{
  STRATA_NVTX_RANGE("strata::exclusive_scan");
  return detail::frontend::scan<false>(policy, "strata::exclusive_scan", first, last, d_first, op, init);
}

template <typename A, typename D, typename InputIt, typename OutputIt, typename T>
OutputIt exclusive_scan(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first, T init)
{
  return exclusive_scan(policy, first, last, d_first, init, cuda::std::plus<>{});
}

// Thrust's form without init: init is the input's value type's zero.
template <typename A, typename D, typename InputIt, typename OutputIt>
OutputIt exclusive_scan(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first)
{
  return exclusive_scan(policy, first, last, d_first, detail::iter_value_t<InputIt>{}, cuda::std::plus<>{});
}

// -- transform scans ------------------------------------------------------------------------------------------

// binary_op over unary_op(items), std's order (binary_op, unary_op).
template <
  typename A, typename D, typename InputIt, typename OutputIt, typename BinaryOp, typename UnaryOp,
  std::enable_if_t<detail::is_unary_for_v<UnaryOp, InputIt> && !detail::is_unary_for_v<BinaryOp, InputIt>, int> = 0>
OutputIt transform_inclusive_scan(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first,
                                  BinaryOp binary_op, UnaryOp unary_op)
{
  STRATA_NVTX_RANGE("strata::transform_inclusive_scan");
  return detail::frontend::scan<true>(policy, "strata::transform_inclusive_scan",
                                      thrust::make_transform_iterator(detail::unwrap(first), unary_op),
                                      thrust::make_transform_iterator(detail::unwrap(last), unary_op), d_first,
                                      binary_op, detail::scan::no_init{});
}

// Thrust's order (unary_op, binary_op).
template <
  typename A, typename D, typename InputIt, typename OutputIt, typename UnaryOp, typename BinaryOp,
  std::enable_if_t<detail::is_unary_for_v<UnaryOp, InputIt> && !detail::is_unary_for_v<BinaryOp, InputIt>, int> = 0>
OutputIt transform_inclusive_scan(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first,
                                  UnaryOp unary_op, BinaryOp binary_op)
{
  return transform_inclusive_scan(policy, first, last, d_first, binary_op, unary_op);
}

// init op binary_op over unary_op(items), std's order (binary_op, unary_op, init).
template <
  typename A, typename D, typename InputIt, typename OutputIt, typename BinaryOp, typename UnaryOp, typename T,
  std::enable_if_t<detail::is_unary_for_v<UnaryOp, InputIt> && !detail::is_unary_for_v<BinaryOp, InputIt>, int> = 0>
OutputIt transform_inclusive_scan(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first,
                                  BinaryOp binary_op, UnaryOp unary_op, T init)
{
  STRATA_NVTX_RANGE("strata::transform_inclusive_scan");
  return detail::frontend::scan<true>(policy, "strata::transform_inclusive_scan",
                                      thrust::make_transform_iterator(detail::unwrap(first), unary_op),
                                      thrust::make_transform_iterator(detail::unwrap(last), unary_op), d_first,
                                      binary_op, init);
}

// Thrust's order (unary_op, init, binary_op).
template <
  typename A, typename D, typename InputIt, typename OutputIt, typename UnaryOp, typename T, typename BinaryOp,
  std::enable_if_t<detail::is_unary_for_v<UnaryOp, InputIt> && !detail::is_unary_for_v<BinaryOp, InputIt>, int> = 0>
OutputIt transform_inclusive_scan(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first,
                                  UnaryOp unary_op, T init, BinaryOp binary_op)
{
  return transform_inclusive_scan(policy, first, last, d_first, binary_op, unary_op, init);
}

// init op binary_op over unary_op(items before i), std's order (init, binary_op, unary_op).
template <typename A, typename D, typename InputIt, typename OutputIt, typename T, typename BinaryOp, typename UnaryOp,
          std::enable_if_t<detail::is_unary_for_v<UnaryOp, InputIt> && !detail::is_unary_for_v<T, InputIt>, int> = 0>
OutputIt transform_exclusive_scan(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first,
                                  T init, BinaryOp binary_op, UnaryOp unary_op)
{
  STRATA_NVTX_RANGE("strata::transform_exclusive_scan");
  // Each transformed item is converted to init's type, as thrust::transform_exclusive_scan converts it.
  using TransformedIt = thrust::transform_iterator<UnaryOp, detail::unwrapped_t<InputIt>, T, T>;
  return detail::frontend::scan<false>(policy, "strata::transform_exclusive_scan",
                                       TransformedIt(detail::unwrap(first), unary_op),
                                       TransformedIt(detail::unwrap(last), unary_op), d_first, binary_op, init);
}

// Thrust's order (unary_op, init, binary_op).
template <
  typename A, typename D, typename InputIt, typename OutputIt, typename UnaryOp, typename T, typename BinaryOp,
  std::enable_if_t<detail::is_unary_for_v<UnaryOp, InputIt> && !detail::is_unary_for_v<BinaryOp, InputIt>, int> = 0>
OutputIt transform_exclusive_scan(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first,
                                  UnaryOp unary_op, T init, BinaryOp binary_op)
{
  return transform_exclusive_scan(policy, first, last, d_first, init, binary_op, unary_op);
}

// -- scans by key ---------------------------------------------------------------------------------------------

// Inclusive scan of each run of keys equal under binary_pred, as thrust::inclusive_scan_by_key.
template <typename A, typename D, typename KeyIt, typename ValueIt, typename OutputIt, typename BinaryPredicate,
          typename BinaryOp>
OutputIt inclusive_scan_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last,
                               ValueIt values_first, OutputIt d_first, BinaryPredicate binary_pred, BinaryOp op)
{
  STRATA_NVTX_RANGE("strata::inclusive_scan_by_key");
  return detail::frontend::scan_by_key<true>(policy, "strata::inclusive_scan_by_key", keys_first, keys_last,
                                             values_first, d_first, binary_pred, op, detail::scan::no_init{});
}

template <typename A, typename D, typename KeyIt, typename ValueIt, typename OutputIt, typename BinaryPredicate>
OutputIt inclusive_scan_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last,
                               ValueIt values_first, OutputIt d_first, BinaryPredicate binary_pred)
{
  return inclusive_scan_by_key(policy, keys_first, keys_last, values_first, d_first, binary_pred, cuda::std::plus<>{});
}

template <typename A, typename D, typename KeyIt, typename ValueIt, typename OutputIt>
OutputIt inclusive_scan_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last,
                               ValueIt values_first, OutputIt d_first)
{
  return inclusive_scan_by_key(policy, keys_first, keys_last, values_first, d_first, cuda::std::equal_to<>{},
                               cuda::std::plus<>{});
}

// Exclusive scan of each run of equal keys, every run starting from init, as thrust::exclusive_scan_by_key.
template <typename A, typename D, typename KeyIt, typename ValueIt, typename OutputIt, typename T,
          typename BinaryPredicate, typename BinaryOp>
OutputIt exclusive_scan_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last,
                               ValueIt values_first, OutputIt d_first, T init, BinaryPredicate binary_pred, BinaryOp op)
{
  STRATA_NVTX_RANGE("strata::exclusive_scan_by_key");
  return detail::frontend::scan_by_key<false>(policy, "strata::exclusive_scan_by_key", keys_first, keys_last,
                                              values_first, d_first, binary_pred, op, init);
}

template <typename A, typename D, typename KeyIt, typename ValueIt, typename OutputIt, typename T,
          typename BinaryPredicate>
OutputIt exclusive_scan_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last,
                               ValueIt values_first, OutputIt d_first, T init, BinaryPredicate binary_pred)
{
  return exclusive_scan_by_key(policy, keys_first, keys_last, values_first, d_first, init, binary_pred,
                               cuda::std::plus<>{});
}

template <typename A, typename D, typename KeyIt, typename ValueIt, typename OutputIt, typename T>
OutputIt exclusive_scan_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last,
                               ValueIt values_first, OutputIt d_first, T init)
{
  return exclusive_scan_by_key(policy, keys_first, keys_last, values_first, d_first, init, cuda::std::equal_to<>{},
                               cuda::std::plus<>{});
}

template <typename A, typename D, typename KeyIt, typename ValueIt, typename OutputIt>
OutputIt exclusive_scan_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last,
                               ValueIt values_first, OutputIt d_first)
{
  return exclusive_scan_by_key(policy, keys_first, keys_last, values_first, d_first, detail::iter_value_t<ValueIt>{},
                               cuda::std::equal_to<>{}, cuda::std::plus<>{});
}

STRATA_NAMESPACE_END
