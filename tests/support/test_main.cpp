// The Catch2 runner of every strata test executable, built once; its main() is test_main_stub.cpp's.
//
// GPU tests (needs_gpu) exit with STRATA_SKIP_RETURN_CODE when no CUDA device is usable, so CTest
// reports them as skipped on a machine without a GPU; host tests always run. A run in which test cases ran, every one
// of them skipped (STRATA_TEST_SKIP, or Catch2 v3's SKIP) and nothing failed also exits with that code: CTest then
// reports the test as skipped, where Catch2 would report it passed (v2, which has no skipped test cases) or return 4
// (v3, a code that would also mean four failed assertions).
#if STRATA_CATCH2_MAJOR >= 3
#  include <catch2/catch_session.hpp>
#  include <catch2/reporters/catch_reporter_event_listener.hpp>
#  include <catch2/reporters/catch_reporter_registrars.hpp>
#else
#  define CATCH_CONFIG_RUNNER
#endif
#include "catch2_shim.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

namespace
{
// What the run's test cases came to.
struct run_tally
{
  std::size_t test_cases = 0;
  std::size_t skipped    = 0;
  std::size_t failed     = 0; // failed assertions
};
run_tally& tally()
{
  static run_tally t;
  return t;
}

#if STRATA_CATCH2_MAJOR >= 3
using listener_base = Catch::EventListenerBase;
#else
using listener_base = Catch::TestEventListenerBase;
#endif

// Counts the test cases that ran and those that skipped.
class skip_listener : public listener_base
{
public:
  using listener_base::listener_base;

  void testCaseStarting(const Catch::TestCaseInfo& info) override
  {
    listener_base::testCaseStarting(info);
    strata_test::test_case_skipped() = false;
  }

  void testCaseEnded(const Catch::TestCaseStats& stats) override
  {
    listener_base::testCaseEnded(stats);
    bool skipped = strata_test::test_case_skipped();
#if STRATA_CATCH2_HAS_SKIP
    skipped = skipped || stats.totals.testCases.skipped > 0;
#endif
    ++tally().test_cases;
    tally().skipped += skipped ? 1 : 0;
    tally().failed += stats.totals.assertions.failed;
  }
};
} // namespace

CATCH_REGISTER_LISTENER(skip_listener)

int strata_test_run(int argc, char* argv[], bool needs_gpu)
{
  if (needs_gpu)
  {
    // Every kernel loaded before the first test: the tests that hold a stream behind a spinning gate kernel enqueue
    // algorithms behind it, and with CUDA's lazy loading the first launch of a kernel loads its module, which waits
    // for the gate kernel to finish. The caller's setting, if any, stands.
    setenv("CUDA_MODULE_LOADING", "EAGER", 0);
    int devices             = 0;
    const cudaError_t error = cudaGetDeviceCount(&devices);
    if (error != cudaSuccess || devices == 0)
    {
      std::printf("SKIPPED: no CUDA device (%s)\n", error != cudaSuccess ? cudaGetErrorString(error) : "0 devices");
      return STRATA_SKIP_RETURN_CODE;
    }
  }
  const int result   = Catch::Session().run(argc, argv);
  const run_tally& t = tally();
  if (t.test_cases > 0 && t.skipped == t.test_cases && t.failed == 0)
  {
    std::printf("SKIPPED: every test case that ran (%zu) skipped\n", t.test_cases);
    return STRATA_SKIP_RETURN_CODE;
  }
  return result;
}
