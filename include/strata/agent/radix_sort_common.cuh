// What the radix sort agents share: the bits a sort orders by and their digit passes, which the histogram agent,
// the onesweep agent and the host all compute the same way.
#pragma once

#include <strata/config.cuh>

#include <cuda/std/cstdint>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace radix_sort
{
// The bits [begin_bit, end_bit) a sort orders by (what the kernels are given; host and device agree on it whatever
// the digit width of the policy each compiles with).
struct bit_range
{
  int begin_bit;
  int end_bit;
};

// The digit passes of a sort of bits [begin_bit, end_bit) with digits of RADIX_BITS bits: pass q reads bits
// [begin_bit + q * RADIX_BITS, min(that + RADIX_BITS, end_bit)).
template <int RADIX_BITS>
struct pass_bits : bit_range
{
  STRATA_HOST_DEVICE explicit pass_bits(bit_range range)
      : bit_range(range)
  {}

  STRATA_HOST_DEVICE int passes() const
  {
    return (end_bit - begin_bit + RADIX_BITS - 1) / RADIX_BITS;
  }
  STRATA_HOST_DEVICE cuda::std::uint32_t start(int pass) const
  {
    return static_cast<cuda::std::uint32_t>(begin_bit + pass * RADIX_BITS);
  }
  STRATA_HOST_DEVICE cuda::std::uint32_t width(int pass) const
  {
    const int rest = end_bit - begin_bit - pass * RADIX_BITS;
    return static_cast<cuda::std::uint32_t>(rest < RADIX_BITS ? rest : RADIX_BITS);
  }
};
} // namespace radix_sort
} // namespace detail
STRATA_NAMESPACE_END
