// WarpScan sums of the value types of at most 32 bits (STRATA_TEST_ALL_TYPES, first part) at logical warps
// of 32, 16, 7 and 1 lanes. Narrow integers run the 32-bit fused shuffle-add path and must wrap exactly.
#include "warp_scan_harness.cuh"

TEMPLATE_TEST_CASE("WarpScan sums of narrow value types, logical warps of 32, 16, 7, 1 lanes", "[warp][warp_scan]",
                   std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, float)
{
  warp_scan_test::check_widths<TestType, true>(
    cuda::std::plus<>{}, strata_test::host_plus{}, 0x4000 + sizeof(TestType), std::integer_sequence<int, 32, 16, 7, 1>{});
}
