// ctest: expect skipped
// The test main's skip reporting: this executable's only test case skips, so the run must end with the CTest skip
// code and CTest must show test.host.skip_reporting as skipped, not passed. The line above makes
// cmake/StrataTesting.cmake add test.host.skip_reporting.exit_code, which fails unless the exit code is the skip code.
#include "catch2_shim.hpp"

TEST_CASE("a test case that skips, the only one of its executable", "[host][skip]")
{
  STRATA_TEST_SKIP("skips on purpose, to show that a run whose test cases all skip is reported as skipped");
  FAIL("STRATA_TEST_SKIP returned");
}
