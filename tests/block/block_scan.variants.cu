// BlockScan<..., ALGORITHM>: every method at every shape of the sweep, with int32 (operator+ for sums and scans)
// and with mat2x2 products (not commutative: any operand out of order changes the result). Blocks of 100, 20 and
// 70 threads are not whole warps: there BLOCK_SCAN_WARP_SCANS must fall back to raking.
//
// Built once per algorithm (tests/CMakeLists.txt), each build a test of its own:
//   STRATA_TEST_SCAN_ALGORITHM  the BlockScanAlgorithm under test, e.g. strata::BLOCK_SCAN_RAKING
//   STRATA_TEST_VARIANT_NAME    its name in the test case's name, e.g. "RAKING"
#include "block_scan_harness.cuh"

#if !defined(STRATA_TEST_SCAN_ALGORITHM) || !defined(STRATA_TEST_VARIANT_NAME)
#  error "a STRATA_TEST_* definition of the #if is missing: build this file through strata_add_test_variants"
#endif

namespace
{
constexpr strata::BlockScanAlgorithm ALGORITHM = STRATA_TEST_SCAN_ALGORITHM;
using i32 = block_scan_test::shape_sweep<std::int32_t, cuda::std::plus<>, ALGORITHM>;
using mat = block_scan_test::shape_sweep<strata_test::mat2x2, strata_test::mat_mul, ALGORITHM>;
} // namespace

TEMPLATE_TEST_CASE("BlockScan " STRATA_TEST_VARIANT_NAME " shape sweep", "[block][block_scan]", i32::b32_item1_scalar,
                   i32::b64_items3, i32::b96_items7, i32::b100_items4, i32::b128_items16, i32::b256_items1_array,
                   i32::b1024_items3, i32::b16x8_items4_private_storage, i32::b8x4x4_items7, i32::b20_items3,
                   i32::b70_item1_scalar, mat::b32_item1_scalar, mat::b64_items3, mat::b96_items7, mat::b100_items4,
                   mat::b128_items16, mat::b256_items1_array, mat::b1024_items3, mat::b16x8_items4_private_storage,
                   mat::b8x4x4_items7, mat::b20_items3, mat::b70_item1_scalar)
{
  block_scan_test::check_config<TestType>(0x5ca0);
}
