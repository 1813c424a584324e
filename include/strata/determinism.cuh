// What a call may ask for beyond strata's default determinism (the same bits run to run for the same input, size and
// device).
//
// gpu_to_gpu: the same bits on every GPU strata runs on, whatever its number of SMs, its architecture's tuning or a
// policy's, for the same input and size. DeviceReduce's and DeviceScan's gpu_to_gpu forms combine items in an order
// that depends on the number of items and their types alone (dispatch/dispatch_reduce_gpu_to_gpu.cuh,
// dispatch/dispatch_scan_gpu_to_gpu.cuh). The reduction's operator must be associative and commutative (its order is
// not the sequence's); the scan's need only be associative (its operands stay in sequence order). A transform or
// operator that the compiler may contract differently from one architecture to another (a multiply and an add into
// one FMA) is outside the promise.
#pragma once

#include <strata/config.cuh>

STRATA_NAMESPACE_BEGIN

struct gpu_to_gpu_t
{
  explicit gpu_to_gpu_t() = default;
};
inline constexpr gpu_to_gpu_t gpu_to_gpu{};

STRATA_NAMESPACE_END
