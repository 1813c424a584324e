// WarpScan sums of the 64-bit and user value types (STRATA_TEST_ALL_TYPES, second part) at logical warps of
// 32, 16, 7 and 1 lanes.
#include "warp_scan_harness.cuh"

TEMPLATE_TEST_CASE("WarpScan sums of wide value types, logical warps of 32, 16, 7, 1 lanes", "[warp][warp_scan]",
                   std::int64_t, std::uint64_t, double, strata_test::custom_t)
{
  warp_scan_test::check_widths<TestType, true>(
    cuda::std::plus<>{}, strata_test::host_plus{}, 0x5000 + sizeof(TestType), std::integer_sequence<int, 32, 16, 7, 1>{});
}
