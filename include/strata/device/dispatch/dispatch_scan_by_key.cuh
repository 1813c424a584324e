// DispatchScanByKey: by-key scans as single-pass scans of (head flag, value) pairs under a segmented operator.
//
// Item i of the pair sequence is (i == 0 || !equality_op(keys[i - 1], keys[i]), values[i]) (AgentScan reads the
// keys and values of a tile and flags the heads with BlockDiscontinuity); the segmented operator
// (f1, v1) . (f2, v2) = (f1 | f2, f2 ? v2 : v1 op v2) restarts the running value at every head and is associative
// whenever op is. An exclusive by-key scan scans the pairs exclusively without an initial value and writes
// `head ? init : init op scanned`.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_scan.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace scan
{
// The segmented form of `op`: a head restarts the running value. Associative whenever op is.
template <typename ScanOpT>
struct segmented_op
{
  ScanOpT op;
  template <typename V>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE segmented_value<V> operator()(const segmented_value<V>& a,
                                                                     const segmented_value<V>& b) const
  {
    return b.head ? b : segmented_value<V>{a.head, static_cast<V>(op(a.value, b.value))};
  }
};

} // namespace scan

// The segmented form of an exact operator is exact: the look-back may reduce its windows with a tree.
template <typename V, typename ScanOpT>
struct scan_op_is_exact<scan::segmented_value<V>, scan::segmented_op<ScanOpT>> : scan_op_is_exact<V, ScanOpT>
{};

namespace scan
{
// Output of an inclusive by-key scan: the running value.
struct segmented_inclusive_output
{
  template <typename V>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE V operator()(const segmented_value<V>& scanned, const segmented_value<V>&) const
  {
    return scanned.value;
  }
};

// Output of an exclusive by-key scan from the exclusive pair scan: init at a head, init op the running value
// of the run's earlier items otherwise.
template <typename V, typename ScanOpT>
struct segmented_exclusive_output
{
  ScanOpT op;
  V init;
  STRATA_HOST_DEVICE STRATA_FORCEINLINE V operator()(const segmented_value<V>& scanned,
                                                     const segmented_value<V>& input) const
  {
    return input.head ? init : static_cast<V>(op(init, scanned.value));
  }
};
} // namespace scan
} // namespace detail

// The dispatch of a by-key scan: V is the value accumulator; PolicyHub tunes the pair scan.
template <typename KeysInputIteratorT,
          typename ValuesInputIteratorT,
          typename ValuesOutputIteratorT,
          typename EqualityOpT,
          typename ScanOpT,
          typename InitValueT,
          typename OffsetT,
          typename V,
          bool INCLUSIVE,
          typename PolicyHub = detail::scan::policy_hub<detail::scan::segmented_value<V>, detail::scan::segmented_op<ScanOpT>>>
struct DispatchScanByKey
{
  using PairT     = detail::scan::segmented_value<V>;
  using PairOpT   = detail::scan::segmented_op<ScanOpT>;
  using InputIt   = detail::scan::by_key_input<KeysInputIteratorT, ValuesInputIteratorT, EqualityOpT, V>;
  using OutputOpT = cuda::std::conditional_t<INCLUSIVE,
                                             detail::scan::segmented_inclusive_output,
                                             detail::scan::segmented_exclusive_output<V, ScanOpT>>;
  // The pairs are scanned without an initial value; an exclusive scan's init enters in the output.
  using PairDispatch =
    DispatchScan<InputIt, ValuesOutputIteratorT, PairOpT, detail::scan::no_init, OffsetT, PairT, PolicyHub, INCLUSIVE, OutputOpT>;

  static cudaError_t Dispatch(void* d_temp_storage,
                              size_t& temp_storage_bytes,
                              KeysInputIteratorT d_keys_in,
                              ValuesInputIteratorT d_values_in,
                              ValuesOutputIteratorT d_values_out,
                              EqualityOpT equality_op,
                              ScanOpT op,
                              InitValueT init,
                              OffsetT num_items,
                              cudaStream_t stream)
  {
    OutputOpT out_op{};
    if constexpr (!INCLUSIVE)
    {
      out_op = OutputOpT{op, static_cast<V>(init)};
    }
    return PairDispatch::Dispatch(d_temp_storage,
                                  temp_storage_bytes,
                                  InputIt{d_keys_in, d_values_in, equality_op},
                                  d_values_out,
                                  PairOpT{op},
                                  detail::scan::no_init{},
                                  num_items,
                                  stream,
                                  out_op);
  }
};

STRATA_NAMESPACE_END
