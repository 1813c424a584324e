// What a call may ask for beyond strata's default determinism (the same bits run to run for the same input, size and
// device).
//
// run_to_run: the default. gpu_to_gpu: the same bits on every GPU strata runs on, whatever its number of SMs, its
// architecture's tuning or a policy's, for the same input and size. DeviceReduce's and DeviceScan's gpu_to_gpu forms
// combine items in an order that depends on the number of items and their types alone
// (dispatch/dispatch_reduce_gpu_to_gpu.cuh, dispatch/dispatch_scan_gpu_to_gpu.cuh); the scans by key scan
// (head flag, value) pairs in that order, and ReduceByKey takes each run's last result of that scan. The reduction's
// operator must be associative and commutative (its order is not the sequence's); the scans' and ReduceByKey's need
// only be associative (their operands stay in sequence order). A transform or operator that the compiler may contract
// differently from one architecture to another (a multiply and an add into one FMA) is outside the promise.
//
// The frontend asks through its policy: strata::par.with(strata::gpu_to_gpu) (strata/execution/policy.cuh).
#pragma once

#include <strata/config.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// strata's default: the same bits run to run on one device (what a policy gives unless told otherwise).
struct run_to_run_t
{
  explicit run_to_run_t() = default;
};
inline constexpr run_to_run_t run_to_run{};

struct gpu_to_gpu_t
{
  explicit gpu_to_gpu_t() = default;
};
inline constexpr gpu_to_gpu_t gpu_to_gpu{};

template <typename T>
struct is_determinism : cuda::std::false_type
{};
template <>
struct is_determinism<run_to_run_t> : cuda::std::true_type
{};
template <>
struct is_determinism<gpu_to_gpu_t> : cuda::std::true_type
{};

STRATA_NAMESPACE_END
