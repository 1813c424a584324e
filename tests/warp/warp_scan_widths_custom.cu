// WarpScan<custom_t, W> (16 bytes with padding: four-word shuffles) with plus, for every logical warp size 1..32.
#include "warp_scan_harness.cuh"

TEST_CASE("WarpScan custom_t sums, logical warps of 1..32 lanes", "[warp][warp_scan]")
{
  warp_scan_test::check_widths<strata_test::custom_t, true>(
    cuda::std::plus<>{}, strata_test::host_plus{}, 0x2001, warp_scan_test::widths_1_to<32>{});
}
