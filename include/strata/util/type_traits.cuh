// Small compile-time helpers shared by every layer.
#pragma once

#include <strata/config.cuh>

#include <cuda/cmath>
#include <cuda/std/bit>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

// ceil(log2(v)) for v >= 1 (0 for v <= 1); the toolkit has the floor (cuda::ilog2) only.
STRATA_HOST_DEVICE constexpr int log2_ceil(unsigned long long v)
{
  return v <= 1 ? 0 : ::cuda::ilog2(v - 1) + 1;
}

// The value type an iterator dereferences to (value_type of the iterator, with cv removed).
template <typename IteratorT>
using it_value_t = typename cuda::std::iterator_traits<IteratorT>::value_type;

// The value type of an output iterator; falls back to `FallbackT` for iterators whose value_type is void
// (discard iterators, output-only iterators).
template <typename IteratorT, typename FallbackT>
using non_void_value_t =
  cuda::std::conditional_t<cuda::std::is_void<it_value_t<IteratorT>>::value, FallbackT, it_value_t<IteratorT>>;

// The accumulator type of a reduction/scan with `op` over inputs of type `InputT` and initial value `InitT`:
// the decayed type of op(init, input), as std::reduce and CUB define it.
template <typename OpT, typename InputT, typename InitT = InputT>
using accumulator_t = cuda::std::decay_t<cuda::std::invoke_result_t<OpT, const InitT&, const InputT&>>;

// True when T is an arithmetic type that the hardware shuffles and reduces natively.
template <typename T>
constexpr bool is_primitive_v = cuda::std::is_arithmetic<T>::value;

} // namespace detail
STRATA_NAMESPACE_END
