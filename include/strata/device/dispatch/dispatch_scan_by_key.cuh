// DispatchScanByKey: by-key scans as single-pass scans of (head flag, value) pairs under a segmented operator
// (agent/agent_scan_by_key.cuh), through DispatchScan.
#pragma once

#include <strata/agent/agent_scan_by_key.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_scan.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The dispatch of a by-key scan: V is the value accumulator; PolicyHub tunes the pair scan.
template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
          typename EqualityOpT, typename ScanOpT, typename InitValueT, typename OffsetT, typename V, bool INCLUSIVE,
          typename PolicyHub =
            detail::scan::policy_hub<detail::scan::segmented_value<V>, detail::scan::segmented_op<ScanOpT>>,
          typename CountT = detail::host_count>
struct DispatchScanByKey
{
  using PairT     = detail::scan::segmented_value<V>;
  using PairOpT   = detail::scan::segmented_op<ScanOpT>;
  using InputIt   = detail::scan::by_key_input<KeysInputIteratorT, ValuesInputIteratorT, EqualityOpT, V>;
  using OutputOpT = cuda::std::conditional_t<INCLUSIVE, detail::scan::segmented_inclusive_output,
                                             detail::scan::segmented_exclusive_output<V, ScanOpT>>;
  // The pairs are scanned without an initial value; an exclusive scan's init enters in the output.
  using PairDispatch = DispatchScan<InputIt, ValuesOutputIteratorT, PairOpT, detail::scan::no_init, OffsetT, PairT,
                                    PolicyHub, INCLUSIVE, OutputOpT, CountT>;

  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                              ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out,
                              EqualityOpT equality_op, ScanOpT op, InitValueT init, OffsetT num_items,
                              cudaStream_t stream, CountT count = {})
  {
    OutputOpT out_op{};
    if constexpr (!INCLUSIVE)
    {
      out_op = OutputOpT{op, static_cast<V>(init)};
    }
    return PairDispatch::Dispatch(d_temp_storage, temp_storage_bytes, InputIt{d_keys_in, d_values_in, equality_op},
                                  d_values_out, PairOpT{op}, detail::scan::no_init{}, num_items, stream, out_op, count);
  }
};

STRATA_NAMESPACE_END
