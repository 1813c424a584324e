// WarpScan<T, W> at many logical warp sizes W, with one operator: int32 sums (the fused shuffle-add path for
// powers of two, shared memory otherwise), int32 maximum (the generic operator path on a primitive type),
// custom_t sums (16 bytes with padding: four-word shuffles), and mat2x2 products (associative, not commutative:
// any scan step that combines operands out of lane order gives a different matrix). Where the operator is the
// sum, the Sum methods are checked too.
//
// Built once per type and operator (tests/CMakeLists.txt), each build a test of its own:
//   STRATA_TEST_VALUE_TYPE    the value type, e.g. std::int32_t
//   STRATA_TEST_SCAN_OP       the scan operator, e.g. cuda::std::plus<>
//   STRATA_TEST_HOST_OP       the host reference's operator, e.g. strata_test::host_plus
//   STRATA_TEST_WIDTHS        the logical warp sizes, e.g. warp_scan_test::widths_1_to<32>
//   STRATA_TEST_SALT          the random inputs' salt
//   STRATA_TEST_VARIANT_NAME  the test case's name after "WarpScan ", e.g. "int32 sums, logical warps of 1..32 lanes"
#include "warp_scan_harness.cuh"

#include <type_traits>

#if !defined(STRATA_TEST_VALUE_TYPE) || !defined(STRATA_TEST_SCAN_OP) || !defined(STRATA_TEST_HOST_OP) \
  || !defined(STRATA_TEST_WIDTHS) || !defined(STRATA_TEST_SALT) || !defined(STRATA_TEST_VARIANT_NAME)
#  error "a STRATA_TEST_* definition of the #if is missing: build this file through strata_add_test_variants"
#endif

TEST_CASE("WarpScan " STRATA_TEST_VARIANT_NAME, "[warp][warp_scan]")
{
  using ScanOp        = STRATA_TEST_SCAN_OP;
  constexpr bool SUMS = std::is_same<ScanOp, cuda::std::plus<>>::value;
  warp_scan_test::check_widths<STRATA_TEST_VALUE_TYPE, SUMS>(ScanOp{}, STRATA_TEST_HOST_OP{}, STRATA_TEST_SALT,
                                                             STRATA_TEST_WIDTHS{});
}
