// WarpReduce over every value type at widths 32 and 16 (shuffles), 7 (shared memory) and 1: Sum, and Reduce
// with standard operators (including the bitwise ones and typed ones that redux.sync handles on sm_80+),
// over full logical warps and over every partial valid_items.
#include "warp_reduce_harness.cuh"

#include <functional>

using warp_reduce_test::check_widths;
using warp_reduce_test::method;
using warp_reduce_test::use_sum;

namespace
{
using type_widths = std::integer_sequence<int, 32, 16, 7, 1>;
} // namespace

TEMPLATE_TEST_CASE("WarpReduce::Sum, every type", "[warp][warp_reduce]", STRATA_TEST_ALL_TYPES)
{
  using T = TestType;
  SECTION("full logical warps")
  {
    check_widths<T, method::reduce>(type_widths{}, use_sum{}, strata_test::host_plus{}, 1);
  }
  SECTION("partial logical warps, valid_items 1..W")
  {
    check_widths<T, method::reduce_partial>(type_widths{}, use_sum{}, strata_test::host_plus{}, 2);
  }
}

TEMPLATE_TEST_CASE("WarpReduce::Reduce with cuda::minimum and cuda::maximum, every type", "[warp][warp_reduce]",
                   STRATA_TEST_ALL_TYPES)
{
  using T = TestType;
  SECTION("minimum, full logical warps")
  {
    check_widths<T, method::reduce>(type_widths{}, cuda::minimum<>{}, strata_test::host_min{}, 3);
  }
  SECTION("maximum, full logical warps")
  {
    check_widths<T, method::reduce>(type_widths{}, cuda::maximum<>{}, strata_test::host_max{}, 4);
  }
  // Lanes past valid_items hold T's lowest (highest) value, which would win if it were read.
  SECTION("minimum, partial logical warps")
  {
    check_widths<T, method::reduce_partial>(type_widths{}, cuda::minimum<>{}, strata_test::host_min{}, 5);
  }
  SECTION("maximum, partial logical warps")
  {
    check_widths<T, method::reduce_partial>(type_widths{}, cuda::maximum<>{}, strata_test::host_max{}, 6);
  }
}

// Bitwise reductions and operators typed with T take redux.sync for integers of up to 32 bits; 64-bit
// integers take the shuffle tree. Both must agree with the host.
TEMPLATE_TEST_CASE("WarpReduce::Reduce with bitwise and typed operators", "[warp][warp_reduce]", std::uint8_t,
                   std::int16_t, std::int32_t, std::uint32_t, std::uint64_t)
{
  using T      = TestType;
  using widths = std::integer_sequence<int, 32, 16, 7>;
  SECTION("bit_and")
  {
    check_widths<T, method::reduce>(widths{}, cuda::std::bit_and<>{}, std::bit_and<T>{}, 7);
    check_widths<T, method::reduce_partial>(widths{}, cuda::std::bit_and<>{}, std::bit_and<T>{}, 8);
  }
  SECTION("bit_or")
  {
    check_widths<T, method::reduce>(widths{}, cuda::std::bit_or<>{}, std::bit_or<T>{}, 9);
    check_widths<T, method::reduce_partial>(widths{}, cuda::std::bit_or<>{}, std::bit_or<T>{}, 10);
  }
  SECTION("bit_xor")
  {
    check_widths<T, method::reduce>(widths{}, cuda::std::bit_xor<>{}, std::bit_xor<T>{}, 11);
    check_widths<T, method::reduce_partial>(widths{}, cuda::std::bit_xor<>{}, std::bit_xor<T>{}, 12);
  }
  SECTION("cuda::std::plus<T>, cuda::minimum<T>, cuda::maximum<T>")
  {
    check_widths<T, method::reduce_partial>(widths{}, cuda::std::plus<T>{}, strata_test::host_plus{}, 13);
    check_widths<T, method::reduce_partial>(widths{}, cuda::minimum<T>{}, strata_test::host_min{}, 14);
    check_widths<T, method::reduce_partial>(widths{}, cuda::maximum<T>{}, strata_test::host_max{}, 15);
  }
}
