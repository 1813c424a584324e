// What the frontend does with the iterators it is given before it calls the device layer.
#pragma once

#include <strata/config.cuh>

#include <cuda/std/iterator>
#include <cuda/std/type_traits>

#include <thrust/iterator/iterator_traits.h>
#include <thrust/type_traits/unwrap_contiguous_iterator.h>

#include <type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
// A raw pointer for iterators over contiguous memory (thrust::device_ptr, device_vector iterators), so that the
// device layer reads and writes them as vectors; any other iterator unchanged.
template <typename IteratorT>
auto unwrap(IteratorT it)
{
  return thrust::try_unwrap_contiguous_iterator(it);
}

template <typename IteratorT>
using unwrapped_t = decltype(unwrap(std::declval<IteratorT>()));

template <typename IteratorT>
using iter_value_t = typename thrust::iterator_traits<IteratorT>::value_type;

template <typename IteratorT>
using iter_reference_t = typename thrust::iterator_traits<IteratorT>::reference;

template <typename IteratorT>
using iter_difference_t = typename thrust::iterator_traits<IteratorT>::difference_type;

// T(0) (Thrust's zero of a value type), or T{} for a type that cannot be made from an int (an aggregate).
template <typename T>
T zero_of()
{
  if constexpr (std::is_constructible<T, int>::value)
  {
    return T(0);
  }
  else
  {
    return T{};
  }
}

// Whether F can be called with one value of IteratorT (the unary operators that tell the Thrust-order overloads
// from the std-order ones), or with two values of type V (the binary ones).
template <typename F, typename IteratorT>
constexpr bool is_unary_for_v = std::is_invocable<F&, const iter_value_t<IteratorT>&>::value;
template <typename F, typename V>
constexpr bool is_binary_for_v = std::is_invocable<F&, const V&, const V&>::value;
} // namespace detail
STRATA_NAMESPACE_END
