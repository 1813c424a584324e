# Test and benchmark helpers.
#
# strata_add_test(<name> GPU|HOST SOURCES <files...>)
#   One executable per test file. GPU tests exit with STRATA_SKIP_RETURN_CODE when the machine has no GPU,
#   and CTest reports them as skipped; HOST tests always run.

# Catch2 v3 (most systems) or v2 (Debian 12 ships 2.13); tests/support/catch2_shim.hpp hides the difference.
find_package(Catch2 3 QUIET CONFIG)
if(Catch2_FOUND)
  set(STRATA_CATCH2_MAJOR 3)
else()
  find_package(Catch2 2 REQUIRED CONFIG)
  set(STRATA_CATCH2_MAJOR 2)
endif()
message(STATUS "strata: Catch2 ${Catch2_VERSION} (v${STRATA_CATCH2_MAJOR})")

set(STRATA_SKIP_RETURN_CODE 77)

include(StrataFlags)

function(strata_add_test name)
  cmake_parse_arguments(ARG "GPU;HOST" "" "SOURCES" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  strata_target_flags(${name})
  if(ARG_GPU)
    target_link_libraries(${name} PRIVATE strata::strata strata_test_support strata_test_main_gpu)
  else()
    target_link_libraries(${name} PRIVATE strata::strata strata_test_support strata_test_main_host)
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE ${STRATA_SKIP_RETURN_CODE})
  if(ARG_GPU)
    set_tests_properties(${name} PROPERTIES LABELS gpu)
  else()
    set_tests_properties(${name} PROPERTIES LABELS host)
  endif()
endfunction()
