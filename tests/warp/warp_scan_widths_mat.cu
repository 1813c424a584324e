// WarpScan<mat2x2, W> with the matrix product, an associative operator that is not commutative: any scan step
// that combines operands out of lane order gives a different matrix. Every logical warp size 1..32.
#include "warp_scan_harness.cuh"

TEST_CASE("WarpScan mat2x2 products (non-commutative), logical warps of 1..32 lanes", "[warp][warp_scan]")
{
  warp_scan_test::check_widths<strata_test::mat2x2, false>(
    strata_test::mat_mul{}, strata_test::mat_mul{}, 0x3001, warp_scan_test::widths_1_to<32>{});
}
