// WarpReduce's head- and tail-segmented reductions over every value type at widths 32 and 16 (shuffles),
// 7 (shared memory) and 1, with random flags (any nonzero value sets one; some warps with no flag or every
// flag). The result is checked in the first lane of every segment: lane 0 and each head (head flags), lane 0
// and each lane after a tail (tail flags).
#include "warp_reduce_harness.cuh"

using warp_reduce_test::check_widths;
using warp_reduce_test::method;
using warp_reduce_test::use_sum;

namespace
{
using type_widths = std::integer_sequence<int, 32, 16, 7, 1>;
} // namespace

TEMPLATE_TEST_CASE("WarpReduce::HeadSegmentedSum and TailSegmentedSum, every type", "[warp][warp_reduce]",
                   STRATA_TEST_ALL_TYPES)
{
  using T = TestType;
  SECTION("head flags")
  {
    check_widths<T, method::head_segmented>(type_widths{}, use_sum{}, strata_test::host_plus{}, 600);
  }
  SECTION("tail flags")
  {
    check_widths<T, method::tail_segmented>(type_widths{}, use_sum{}, strata_test::host_plus{}, 700);
  }
}

TEMPLATE_TEST_CASE("WarpReduce::HeadSegmentedReduce and TailSegmentedReduce with minimum and maximum",
                   "[warp][warp_reduce]", STRATA_TEST_CORE_TYPES)
{
  using T      = TestType;
  using widths = std::integer_sequence<int, 32, 8, 7>;
  SECTION("head flags, minimum")
  {
    check_widths<T, method::head_segmented>(widths{}, cuda::minimum<>{}, strata_test::host_min{}, 800);
  }
  SECTION("tail flags, maximum")
  {
    check_widths<T, method::tail_segmented>(widths{}, cuda::maximum<>{}, strata_test::host_max{}, 900);
  }
}
