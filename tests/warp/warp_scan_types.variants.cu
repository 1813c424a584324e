// WarpScan sums of every value type (STRATA_TEST_ALL_TYPES) at logical warps of 32, 16, 7 and 1 lanes. Narrow
// integers run the 32-bit fused shuffle-add path and must wrap exactly.
//
// Built once per part of the type list (tests/CMakeLists.txt), each build a test of its own:
//   STRATA_TEST_VALUE_TYPES   the value types, e.g. std::int64_t, std::uint64_t, double, strata_test::custom_t
//   STRATA_TEST_SALT          the random inputs' salt (plus sizeof(T))
//   STRATA_TEST_VARIANT_NAME  the part's name in the test case's name, e.g. "wide"
#include "warp_scan_harness.cuh"

#if !defined(STRATA_TEST_VALUE_TYPES) || !defined(STRATA_TEST_SALT) || !defined(STRATA_TEST_VARIANT_NAME)
#  error "a STRATA_TEST_* definition of the #if is missing: build this file through strata_add_test_variants"
#endif

TEMPLATE_TEST_CASE("WarpScan sums of " STRATA_TEST_VARIANT_NAME " value types, logical warps of 32, 16, 7, 1 lanes",
                   "[warp][warp_scan]", STRATA_TEST_VALUE_TYPES)
{
  warp_scan_test::check_widths<TestType, true>(cuda::std::plus<>{}, strata_test::host_plus{},
                                               STRATA_TEST_SALT + sizeof(TestType),
                                               std::integer_sequence<int, 32, 16, 7, 1>{});
}
