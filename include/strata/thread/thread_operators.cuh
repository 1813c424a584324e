// Operators shared by every layer: KeyValuePair, the arg-min / arg-max reductions over it, and a trait that
// recognises the standard operators so that collectives can pick hardware instructions for them.
//
// Plain reductions use libcu++'s function objects: cuda::std::plus<>, cuda::minimum<>, cuda::maximum<>,
// cuda::std::bit_and<> and friends.
#pragma once

#include <strata/config.cuh>

#include <cuda/functional>
#include <cuda/std/functional>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// A (key, value) pair; arg-min / arg-max reductions carry the index of an element as the key.
template <typename Key, typename Value>
struct KeyValuePair
{
  using KeyT   = Key;
  using ValueT = Value;

  Key key;
  Value value;

  KeyValuePair() = default;
  STRATA_HOST_DEVICE KeyValuePair(const Key& k, const Value& v)
      : key(k)
      , value(v)
  {}

  STRATA_HOST_DEVICE friend bool operator==(const KeyValuePair& a, const KeyValuePair& b)
  {
    return a.key == b.key && a.value == b.value;
  }
  STRATA_HOST_DEVICE friend bool operator!=(const KeyValuePair& a, const KeyValuePair& b)
  {
    return !(a == b);
  }
};

// Reduces KeyValuePairs to the one with the smallest value; on ties, the smallest key (the first occurrence
// when keys are positions). Associative and commutative, so any reduction order gives the same pair.
struct ArgMin
{
  template <typename Key, typename Value>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE KeyValuePair<Key, Value> operator()(const KeyValuePair<Key, Value>& a,
                                                                            const KeyValuePair<Key, Value>& b) const
  {
    if (b.value < a.value || (!(a.value < b.value) && b.key < a.key))
    {
      return b;
    }
    return a;
  }
};

// Reduces KeyValuePairs to the one with the largest value; on ties, the smallest key.
struct ArgMax
{
  template <typename Key, typename Value>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE KeyValuePair<Key, Value> operator()(const KeyValuePair<Key, Value>& a,
                                                                            const KeyValuePair<Key, Value>& b) const
  {
    if (a.value < b.value || (!(b.value < a.value) && b.key < a.key))
    {
      return b;
    }
    return a;
  }
};

// Returns its argument unchanged: the transform of reductions and scans that transform nothing.
struct Identity
{
  template <typename T>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE T operator()(const T& x) const
  {
    return x;
  }
};

namespace detail
{
// What a binary operator computes, when it is one of the standard function objects. Collectives use this to
// choose hardware reductions (e.g. __reduce_add_sync) and tunings to specialize on the operator kind.
enum class op_kind
{
  plus,
  minimum,
  maximum,
  bit_and,
  bit_or,
  bit_xor,
  other
};

template <typename Op>
struct op_kind_of : cuda::std::integral_constant<op_kind, op_kind::other>
{};
template <typename T>
struct op_kind_of<cuda::std::plus<T>> : cuda::std::integral_constant<op_kind, op_kind::plus>
{};
template <typename T>
struct op_kind_of<cuda::minimum<T>> : cuda::std::integral_constant<op_kind, op_kind::minimum>
{};
template <typename T>
struct op_kind_of<cuda::maximum<T>> : cuda::std::integral_constant<op_kind, op_kind::maximum>
{};
template <typename T>
struct op_kind_of<cuda::std::bit_and<T>> : cuda::std::integral_constant<op_kind, op_kind::bit_and>
{};
template <typename T>
struct op_kind_of<cuda::std::bit_or<T>> : cuda::std::integral_constant<op_kind, op_kind::bit_or>
{};
template <typename T>
struct op_kind_of<cuda::std::bit_xor<T>> : cuda::std::integral_constant<op_kind, op_kind::bit_xor>
{};

template <typename Op>
constexpr op_kind op_kind_v = op_kind_of<cuda::std::remove_cv_t<Op>>::value;

// True when Op is known to be commutative (the standard operators are; user operators are not assumed to be).
template <typename Op>
constexpr bool is_commutative_v =
  op_kind_v<Op> != op_kind::other || cuda::std::is_same<cuda::std::remove_cv_t<Op>, ArgMin>::value
  || cuda::std::is_same<cuda::std::remove_cv_t<Op>, ArgMax>::value;
} // namespace detail

STRATA_NAMESPACE_END
