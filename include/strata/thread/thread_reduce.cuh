// ThreadReduce: one thread reduces its own statically sized array of items.
//
// Every warp and block reduction starts here, folding each thread's ITEMS_PER_THREAD items into one partial.
// The operator need only be associative: operands are always combined in their left-to-right order, so
// non-commutative operators (matrix products, segment-carrying pairs) reduce correctly. Every form returns the
// item type T (for plus<> over int8_t, the sum wraps as a loop of int8_t additions would). No temporary storage.
//
// Example:
//   int items[4] = {...};
//   int sum      = strata::ThreadReduce(items, cuda::std::plus<>{});
//   int total    = strata::ThreadReduce(items, cuda::std::plus<>{}, running_prefix); // running_prefix + sum
//   int head     = strata::ThreadReduce<2>(items, cuda::std::plus<>{});              // items[0] + items[1]
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

// The standard operators on arithmetic types reduce as a balanced tree: neighbours first (a0 op a1, a2 op a3, ...),
// then neighbouring pairs, and so on. The left operand of every application still covers the lower indices, so
// order is kept, and the dependency chain shrinks from LENGTH - 1 operations to ceil(log2(LENGTH)), which matters
// for floating point, whose additions the compiler may not reassociate. Other operators fold left to right: a
// user's operator may be expensive or only nearly associative, and a fold is what a reader expects from them.
template <typename T, typename ReductionOp>
constexpr bool thread_reduce_as_tree_v = op_kind_v<ReductionOp> != op_kind::other&& cuda::std::is_arithmetic<T>::value;

// The tree over input[0, LENGTH). Partials are held in the operator's own result type (int for plus<> over
// 8- and 16-bit integers), so narrow types are converted once, at the end, rather than after every step.
template <int LENGTH, typename T, typename ReductionOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE accumulator_t<ReductionOp, T> thread_reduce_tree(const T* input,
                                                                                       ReductionOp reduction_op)
{
  using AccumT = accumulator_t<ReductionOp, T>;
  AccumT partial[LENGTH];
  STRATA_UNROLL
  for (int i = 0; i < LENGTH; ++i)
  {
    partial[i] = input[i];
  }
  STRATA_UNROLL
  for (int stride = 1; stride < LENGTH; stride *= 2)
  {
    STRATA_UNROLL
    for (int i = 0; i + stride < LENGTH; i += 2 * stride)
    {
      partial[i] = reduction_op(partial[i], partial[i + stride]);
    }
  }
  return partial[0];
}

// The left fold ((init op input[0]) op input[1]) op ... over input[0, LENGTH).
template <int LENGTH, typename T, typename ReductionOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T thread_reduce_fold(const T* input, ReductionOp reduction_op, T init)
{
  STRATA_UNROLL
  for (int i = 0; i < LENGTH; ++i)
  {
    init = reduction_op(init, input[i]);
  }
  return init;
}

} // namespace detail

// The reduction input[0] op input[1] op ... op input[LENGTH - 1], combined in that order.
template <int LENGTH, typename T, typename ReductionOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadReduce(const T* input, ReductionOp reduction_op)
{
  static_assert(LENGTH > 0, "ThreadReduce without a prefix needs at least one item");
  if constexpr (detail::thread_reduce_as_tree_v<T, ReductionOp>)
  {
    return static_cast<T>(detail::thread_reduce_tree<LENGTH>(input, reduction_op));
  }
  else
  {
    return detail::thread_reduce_fold<LENGTH - 1>(input + 1, reduction_op, T(input[0]));
  }
}

// The reduction prefix op input[0] op ... op input[LENGTH - 1]: the prefix is the left-most operand. LENGTH may
// be 0 (the result is the prefix). The prefix is not deduced, so a literal of another type converts to T.
template <int LENGTH, typename T, typename ReductionOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadReduce(const T* input, ReductionOp reduction_op,
                                                     cuda::std::type_identity_t<T> prefix)
{
  static_assert(LENGTH >= 0, "ThreadReduce needs a non-negative length");
  if constexpr (LENGTH > 0 && detail::thread_reduce_as_tree_v<T, ReductionOp>)
  {
    // The items' tree does not wait for the prefix, which often arrives last (from a warp or block scan).
    return static_cast<T>(reduction_op(prefix, detail::thread_reduce_tree<LENGTH>(input, reduction_op)));
  }
  else
  {
    return detail::thread_reduce_fold<LENGTH>(input, reduction_op, prefix);
  }
}

// The reduction of a whole statically sized array.
template <int LENGTH, typename T, typename ReductionOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadReduce(const T (&input)[LENGTH], ReductionOp reduction_op)
{
  return ThreadReduce<LENGTH>(static_cast<const T*>(input), reduction_op);
}

// prefix op (the reduction of a whole statically sized array).
template <int LENGTH, typename T, typename ReductionOp>
STRATA_HOST_DEVICE STRATA_FORCEINLINE T ThreadReduce(const T (&input)[LENGTH], ReductionOp reduction_op,
                                                     cuda::std::type_identity_t<T> prefix)
{
  return ThreadReduce<LENGTH>(static_cast<const T*>(input), reduction_op, prefix);
}

STRATA_NAMESPACE_END
