// ThreadScanInclusive / ThreadScanExclusive: one thread scans its own statically sized array of items.
//
// Block scans reduce each thread's items, scan the partials across the block, then come back here to spread the
// thread's prefix over its items. A scan is sequential by nature, LENGTH - 1 dependent operations, which is also
// the least work; operands are combined left to right, so the operator need only be associative. The output may
// be the input array itself (each item is read before its output is written). Every form returns the aggregate:
// the reduction of all items, with the prefix as its left-most operand where a prefix is applied. No temporary
// storage.
//
// Example: the exclusive prefix sums of a thread's items, given the sum of all items of earlier threads.
//   int items[4] = {...};
//   int total    = strata::ThreadScanExclusive(items, items, cuda::std::plus<>{}, thread_prefix);
//   // items[i] = thread_prefix + (items before i); total = thread_prefix + (all four items)
#pragma once

#include <strata/config.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

// Continues an inclusive scan over input[0, LENGTH) from the running value `inclusive`.
template <int LENGTH, typename T, typename ScanOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T thread_scan_inclusive(const T* input, T* output, ScanOp scan_op, T inclusive)
{
  STRATA_UNROLL
  for (int i = 0; i < LENGTH; ++i)
  {
    inclusive = scan_op(inclusive, input[i]);
    output[i] = inclusive;
  }
  return inclusive;
}

// Continues an exclusive scan over input[0, LENGTH) from the running value `exclusive`; returns the inclusive
// running value after the last item.
template <int LENGTH, typename T, typename ScanOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T thread_scan_exclusive(const T* input, T* output, ScanOp scan_op, T exclusive)
{
  STRATA_UNROLL
  for (int i = 0; i < LENGTH; ++i)
  {
    const T item = input[i];
    output[i]    = exclusive;
    exclusive    = scan_op(exclusive, item);
  }
  return exclusive;
}

} // namespace detail

// output[i] = input[0] op ... op input[i]. Returns the aggregate, output[LENGTH - 1].
template <int LENGTH, typename T, typename ScanOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadScanInclusive(const T* input, T* output, ScanOp scan_op)
{
  static_assert(LENGTH > 0, "a thread scan needs at least one item");
  const T first = input[0];
  output[0]     = first;
  return detail::thread_scan_inclusive<LENGTH - 1>(input + 1, output + 1, scan_op, first);
}

// output[i] = prefix op input[0] op ... op input[i]; without the prefix when `apply_prefix` is false (the first
// thread of a block has no prefix to apply). Returns the aggregate, output[LENGTH - 1].
template <int LENGTH, typename T, typename ScanOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadScanInclusive(const T* input, T* output, ScanOp scan_op,
                                                            cuda::std::type_identity_t<T> prefix,
                                                            bool apply_prefix = true)
{
  static_assert(LENGTH > 0, "a thread scan needs at least one item");
  T inclusive = input[0];
  if (apply_prefix)
  {
    inclusive = scan_op(prefix, inclusive);
  }
  output[0] = inclusive;
  return detail::thread_scan_inclusive<LENGTH - 1>(input + 1, output + 1, scan_op, inclusive);
}

// output[0] = prefix, output[i] = prefix op input[0] op ... op input[i - 1]. When `apply_prefix` is false the
// prefix stays out of every other output and of the aggregate (output[i] = input[0] op ... op input[i - 1]), and
// output[0] still receives `prefix`, a value the caller ignores. Returns the aggregate: the inclusive value after
// the last item.
template <int LENGTH, typename T, typename ScanOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadScanExclusive(const T* input, T* output, ScanOp scan_op,
                                                            cuda::std::type_identity_t<T> prefix,
                                                            bool apply_prefix = true)
{
  static_assert(LENGTH > 0, "a thread scan needs at least one item");
  T inclusive = input[0];
  if (apply_prefix)
  {
    inclusive = scan_op(prefix, inclusive);
  }
  output[0] = prefix;
  return detail::thread_scan_exclusive<LENGTH - 1>(input + 1, output + 1, scan_op, inclusive);
}

// Array forms of the above: LENGTH is the array's extent.
template <int LENGTH, typename T, typename ScanOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadScanInclusive(const T (&input)[LENGTH], T (&output)[LENGTH],
                                                            ScanOp scan_op)
{
  return ThreadScanInclusive<LENGTH>(static_cast<const T*>(input), static_cast<T*>(output), scan_op);
}

template <int LENGTH, typename T, typename ScanOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadScanInclusive(const T (&input)[LENGTH], T (&output)[LENGTH],
                                                            ScanOp scan_op, cuda::std::type_identity_t<T> prefix,
                                                            bool apply_prefix = true)
{
  return ThreadScanInclusive<LENGTH>(static_cast<const T*>(input), static_cast<T*>(output), scan_op, prefix,
                                     apply_prefix);
}

template <int LENGTH, typename T, typename ScanOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadScanExclusive(const T (&input)[LENGTH], T (&output)[LENGTH],
                                                            ScanOp scan_op, cuda::std::type_identity_t<T> prefix,
                                                            bool apply_prefix = true)
{
  return ThreadScanExclusive<LENGTH>(static_cast<const T*>(input), static_cast<T*>(output), scan_op, prefix,
                                     apply_prefix);
}

STRATA_NAMESPACE_END
