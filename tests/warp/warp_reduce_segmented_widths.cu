// WarpReduce's segmented reductions at every logical warp width 1..32 (int32 and custom_t), and with the
// 2x2 matrix product, which is not commutative, to check that each segment is reduced in lane order.
#include "warp_reduce_harness.cuh"

using warp_reduce_test::all_widths;
using warp_reduce_test::check_widths;
using warp_reduce_test::method;
using warp_reduce_test::use_sum;

TEMPLATE_TEST_CASE("WarpReduce segmented sums at every width", "[warp][warp_reduce]", std::int32_t,
                   strata_test::custom_t)
{
  using T = TestType;
  SECTION("head flags")
  {
    check_widths<T, method::head_segmented>(all_widths{}, use_sum{}, strata_test::host_plus{}, 1000);
  }
  SECTION("tail flags")
  {
    check_widths<T, method::tail_segmented>(all_widths{}, use_sum{}, strata_test::host_plus{}, 1100);
  }
}

TEST_CASE("WarpReduce segmented reductions keep lane order (mat_mul)", "[warp][warp_reduce]")
{
  using widths = std::integer_sequence<int, 32, 16, 4, 2, 31, 11, 5, 3, 1>;
  SECTION("head flags")
  {
    check_widths<strata_test::mat2x2, method::head_segmented>(widths{}, strata_test::mat_mul{}, strata_test::mat_mul{},
                                                              1200);
  }
  SECTION("tail flags")
  {
    check_widths<strata_test::mat2x2, method::tail_segmented>(widths{}, strata_test::mat_mul{}, strata_test::mat_mul{},
                                                              1300);
  }
}
