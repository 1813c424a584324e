// Small compile-time helpers shared by every layer.
#pragma once

#include <strata/config.cuh>

#include <cuda/std/iterator>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{

// log2 of a power of two (or floor(log2) of any positive value), at compile time.
STRATA_HOST_DEVICE constexpr int log2_floor(unsigned long long v)
{
  return v <= 1 ? 0 : 1 + log2_floor(v >> 1);
}
STRATA_HOST_DEVICE constexpr int log2_ceil(unsigned long long v)
{
  return v <= 1 ? 0 : 1 + log2_floor(v - 1);
}
STRATA_HOST_DEVICE constexpr bool is_power_of_two(unsigned long long v)
{
  return v != 0 && (v & (v - 1)) == 0;
}
template <typename T>
STRATA_HOST_DEVICE constexpr T ceil_div(T a, T b)
{
  return (a + b - 1) / b;
}
template <typename T>
STRATA_HOST_DEVICE constexpr T round_up(T a, T b)
{
  return ceil_div(a, b) * b;
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
