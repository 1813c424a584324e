// WarpReduce at every logical warp width 1..32: power-of-two widths partition each hardware warp into
// 32 / W logical warps (shuffles), the others use the first W lanes (shared memory). int32 takes redux.sync
// on sm_80+, custom_t (16 bytes) the multi-word shuffle tree or the shared-memory tree, and the 2x2 matrix
// product, which is not commutative, checks that operands are combined in lane order.
#include "warp_reduce_harness.cuh"

using warp_reduce_test::all_widths;
using warp_reduce_test::check_widths;
using warp_reduce_test::method;
using warp_reduce_test::use_sum;

TEMPLATE_TEST_CASE("WarpReduce::Sum at every width", "[warp][warp_reduce]", std::int32_t, strata_test::custom_t)
{
  using T = TestType;
  SECTION("full logical warps")
  {
    check_widths<T, method::reduce>(all_widths{}, use_sum{}, strata_test::host_plus{}, 100);
  }
  SECTION("partial logical warps, valid_items 1..W")
  {
    check_widths<T, method::reduce_partial>(all_widths{}, use_sum{}, strata_test::host_plus{}, 200);
  }
}

TEST_CASE("WarpReduce::Reduce with cuda::maximum at every width, int32", "[warp][warp_reduce]")
{
  check_widths<std::int32_t, method::reduce_partial>(all_widths{}, cuda::maximum<>{}, strata_test::host_max{}, 300);
}

TEST_CASE("WarpReduce::Reduce keeps lane order (mat_mul)", "[warp][warp_reduce]")
{
  using widths = std::integer_sequence<int, 32, 16, 8, 2, 31, 13, 7, 3, 1>;
  SECTION("full logical warps")
  {
    check_widths<strata_test::mat2x2, method::reduce>(widths{}, strata_test::mat_mul{}, strata_test::mat_mul{}, 400);
  }
  SECTION("partial logical warps, valid_items 1..W")
  {
    check_widths<strata_test::mat2x2, method::reduce_partial>(widths{}, strata_test::mat_mul{}, strata_test::mat_mul{},
                                                              500);
  }
}
