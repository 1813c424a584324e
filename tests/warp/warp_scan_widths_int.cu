// WarpScan<int32_t, W> for every logical warp size 1..32: sums (the fused shuffle-add path for powers of two,
// shared memory otherwise) and a maximum scan (the generic operator path on a primitive type).
#include "warp_scan_harness.cuh"

TEST_CASE("WarpScan int32 sums, logical warps of 1..32 lanes", "[warp][warp_scan]")
{
  warp_scan_test::check_widths<std::int32_t, true>(
    cuda::std::plus<>{}, strata_test::host_plus{}, 0x1001, warp_scan_test::widths_1_to<32>{});
}

TEST_CASE("WarpScan int32 maximum, logical warps of 32, 8, 13 and 2 lanes", "[warp][warp_scan]")
{
  warp_scan_test::check_widths<std::int32_t, false>(
    cuda::maximum<>{}, strata_test::host_max{}, 0x1002, std::integer_sequence<int, 32, 8, 13, 2>{});
}
