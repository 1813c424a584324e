// One include for Catch2 v2 (single header) and v3 (split headers): test files include this and nothing else
// from Catch2. STRATA_CATCH2_MAJOR is set by tests/CMakeLists.txt from the version CMake found.
#pragma once

#if STRATA_CATCH2_MAJOR >= 3
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

// Skips the whole test executable, visibly, where the machine cannot run any of its test cases (too little device
// memory, say): prints why and exits with the CTest skip code, so that CTest reports the test as skipped under
// Catch2 v2 and v3 alike (a Catch2 v3 SKIP would end one test case, and a run whose cases all skip is no pass).
// `message` is a stream expression: STRATA_TEST_SKIP_ALL("needs " << n << " MiB").
#define STRATA_TEST_SKIP_ALL(message)                          \
  do                                                           \
  {                                                            \
    std::ostringstream strata_test_skip_;                      \
    strata_test_skip_ << message;                              \
    std::printf("SKIPPED: %s\n", strata_test_skip_.str().c_str()); \
    std::fflush(stdout);                                       \
    std::exit(STRATA_SKIP_RETURN_CODE);                        \
  } while (false)

namespace strata_test
{
#if STRATA_CATCH2_MAJOR >= 3
using Catch::Approx;
#else
using Catch::Detail::Approx;
#endif
} // namespace strata_test
