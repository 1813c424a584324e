// BlockScan with every value type: sums (operator+, zero) and maximum scans, at two shapes: a 1-D raking block
// with four items per thread, and a 2-D warp-scans block with the one-item overloads. And a raking block of one
// thread (a shape outside block_scan.variants.cu's sweep, tested for RAKING only).
#include "block_scan_harness.cuh"

TEMPLATE_TEST_CASE("BlockScan value types", "[block][block_scan]", STRATA_TEST_ALL_TYPES)
{
  using namespace block_scan_test;
  SECTION("RAKING, 128 threads, 4 items")
  {
    check_config<config<TestType, cuda::maximum<>, strata::BLOCK_SCAN_RAKING, 128, 1, 1, 4>>(0x7e5);
  }
  SECTION("WARP_SCANS, 32x4 threads, one-item overloads")
  {
    check_config<config<TestType, cuda::maximum<>, strata::BLOCK_SCAN_WARP_SCANS, 32, 4, 1, 1, true>>(0x7e6);
  }
}

TEST_CASE("BlockScan RAKING single-thread block", "[block][block_scan]")
{
  using single_thread = block_scan_test::config<std::int32_t, cuda::std::plus<>, strata::BLOCK_SCAN_RAKING, 1, 1, 1, 4>;
  block_scan_test::check_config<single_thread>(0x5ca1);
}
