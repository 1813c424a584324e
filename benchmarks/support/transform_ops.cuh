// The operators the transform benchmarks apply, the same for every library: x * 2 (unary) and a + b (binary); and
// a - b, which the adjacent-difference benchmarks apply. Integers wrap as unsigned arithmetic does, so random inputs
// never overflow a signed type (which C++ leaves undefined); floating-point values are used as they are.
#pragma once

#include <cuda/std/type_traits>

namespace strata_bench
{
template <typename T>
using wrap_t = typename cuda::std::conditional_t<cuda::std::is_integral<T>::value, cuda::std::make_unsigned<T>,
                                                 cuda::std::type_identity<T>>::type;

template <typename T>
struct twice
{
  __host__ __device__ T operator()(T x) const
  {
    return static_cast<T>(static_cast<wrap_t<T>>(x) * wrap_t<T>(2));
  }
};

template <typename T>
struct wrapping_plus
{
  __host__ __device__ T operator()(T a, T b) const
  {
    return static_cast<T>(static_cast<wrap_t<T>>(a) + static_cast<wrap_t<T>>(b));
  }
};

// a - b.
template <typename T>
struct wrapping_minus
{
  __host__ __device__ T operator()(T a, T b) const
  {
    return static_cast<T>(static_cast<wrap_t<T>>(a) - static_cast<wrap_t<T>>(b));
  }
};
} // namespace strata_bench
