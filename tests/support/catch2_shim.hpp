// One include for Catch2 v2 (single header) and v3 (split headers): test files include this and nothing else
// from Catch2. STRATA_CATCH2_MAJOR is set by tests/CMakeLists.txt from the version CMake found.
#pragma once

#if STRATA_CATCH2_MAJOR >= 3
#  include <catch2/catch_version_macros.hpp>
#  include <catch2/catch_approx.hpp>
#  include <catch2/catch_template_test_macros.hpp>
#  include <catch2/catch_test_macros.hpp>
#  include <catch2/generators/catch_generators.hpp>
#  include <catch2/generators/catch_generators_adapters.hpp>
#  include <catch2/generators/catch_generators_range.hpp>
#  include <catch2/matchers/catch_matchers_floating_point.hpp>
#  include <catch2/matchers/catch_matchers_string.hpp>
// Catch2 v3 wraps every assertion's expression in `#pragma nv_diagnostic push/pop` under nvcc. With those pragmas
// inside function bodies, nvcc 13.0's front end (cudafe++) takes minutes per diagnostic it considers once a
// translation unit instantiates strata's frontend algorithms (extremes.cu: more than 5 minutes, against 55 s without
// them). Catch2 v2 puts none there; neither do these.
#  undef CATCH_INTERNAL_START_WARNINGS_SUPPRESSION
#  undef CATCH_INTERNAL_STOP_WARNINGS_SUPPRESSION
#  define CATCH_INTERNAL_START_WARNINGS_SUPPRESSION
#  define CATCH_INTERNAL_STOP_WARNINGS_SUPPRESSION
#else
#  include <catch2/catch.hpp>
#endif

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

// Catch2 3.3 and later have SKIP, and count skipped test cases.
#if STRATA_CATCH2_MAJOR >= 3 && (CATCH_VERSION_MAJOR > 3 || CATCH_VERSION_MINOR >= 3)
#  define STRATA_CATCH2_HAS_SKIP 1
#else
#  define STRATA_CATCH2_HAS_SKIP 0
#endif

namespace strata_test
{
// Whether the running test case has skipped (STRATA_TEST_SKIP). The test main (tests/support/test_main.cpp) clears
// it as each test case starts and counts the test cases that end with it set: a run in which every test case skipped
// and none failed exits with the CTest skip code, so that CTest reports the test as skipped, not passed.
inline bool& test_case_skipped()
{
  static bool skipped = false;
  return skipped;
}

// Ends the running test case as skipped, saying why (STRATA_TEST_SKIP).
[[noreturn]] inline void skip_test_case(const std::string& why)
{
  std::printf("SKIPPED: %s\n", why.c_str());
  std::fflush(stdout);
  test_case_skipped() = true;
#if STRATA_CATCH2_HAS_SKIP
  SKIP(why);
  std::abort(); // not reached: SKIP throws
#elif STRATA_CATCH2_MAJOR >= 3
  // Catch2 before 3.3 cannot end one test case as skipped: the whole executable is skipped instead.
  std::exit(STRATA_SKIP_RETURN_CODE);
#else
  // Catch2 v2 has no SKIP: the test case ends as a failed REQUIRE ends it, and, nothing having failed, Catch2 counts
  // it as passed; the test main counts it as skipped.
  throw Catch::TestFailureException{};
#endif
}
} // namespace strata_test

// Skips the running test case, visibly, where the machine cannot run it (a second GPU is missing, say); every other
// test case still runs. `message` is a stream expression: STRATA_TEST_SKIP("needs 2 GPUs, found " << n). A run
// whose test cases all skipped is reported to CTest as skipped (Catch2 v2 and v3 alike).
#define STRATA_TEST_SKIP(message)                           \
  do                                                        \
  {                                                         \
    std::ostringstream strata_test_skip_;                   \
    strata_test_skip_ << message;                           \
    ::strata_test::skip_test_case(strata_test_skip_.str()); \
  } while (false)

// Skips the whole test executable, visibly, where the machine cannot run any of its test cases (too little device
// memory, say): prints why and exits with the CTest skip code at once, so that CTest reports the test as skipped
// and no other test case runs. `message` is a stream expression: STRATA_TEST_SKIP_ALL("needs " << n << " MiB").
#define STRATA_TEST_SKIP_ALL(message)                              \
  do                                                               \
  {                                                                \
    std::ostringstream strata_test_skip_;                          \
    strata_test_skip_ << message;                                  \
    std::printf("SKIPPED: %s\n", strata_test_skip_.str().c_str()); \
    std::fflush(stdout);                                           \
    std::exit(STRATA_SKIP_RETURN_CODE);                            \
  } while (false)

namespace strata_test
{
#if STRATA_CATCH2_MAJOR >= 3
using Catch::Approx;
#else
using Catch::Detail::Approx;
#endif
} // namespace strata_test
