# Test and benchmark helpers.
#
# strata_add_test(<name> GPU|HOST SOURCES <files...>)
#   One executable per test file. GPU tests exit with STRATA_SKIP_RETURN_CODE when the machine has no GPU,
#   and CTest reports them as skipped; HOST tests always run. Any test exits with that code when every test case
#   that ran skipped (tests/support/test_main.cpp). A source whose first lines hold the line
#   "// ctest: expect skipped" (a test of that reporting itself) also gets <name>.exit_code, which fails unless the
#   executable exits with STRATA_SKIP_RETURN_CODE: a skip reported as a pass would otherwise go unnoticed.
#
# strata_add_test_variants(<layer> <source> VARIANT <variant> <NAME=VALUE>... [VARIANT <variant> <NAME=VALUE>...]...)
#   One GPU test executable per variant, all built from one <source> named <stem>.variants.cu, for tests split
#   only because one executable with every variant would take too long to compile: test.<layer>.<stem>_<variant>,
#   compiled with that variant's preprocessor definitions. The source reads its parameters from them and stops
#   with #error when one is missing. The per-layer glob in tests/CMakeLists.txt leaves *.variants.cu files out.

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

# Runs EXECUTABLE and fails unless it exits with EXPECTED (cmake -DEXECUTABLE=... -DEXPECTED=... -P <script>).
set(STRATA_EXPECT_EXIT_CODE_SCRIPT ${CMAKE_CURRENT_BINARY_DIR}/strata_expect_exit_code.cmake)
file(CONFIGURE OUTPUT ${STRATA_EXPECT_EXIT_CODE_SCRIPT} @ONLY CONTENT [=[
execute_process(COMMAND "${EXECUTABLE}" RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
if(NOT code STREQUAL "${EXPECTED}")
  message(FATAL_ERROR "${EXECUTABLE} exited with ${code}, not ${EXPECTED}")
endif()
]=])

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
  # A test file without [large] cases never runs a 64-bit offset kernel (strata and Thrust pick 32-bit offsets up to
  # 2^31 - 1 items): it builds the 32-bit ones only, which halves the kernels of most of them. Its host code only
  # makes inputs and checks outputs of up to tens of millions of items: it is built with -O0 (gcc's optimizer is the
  # costliest phase of these files at -O3). Files with [large] cases get -O3, their checks walk billions of items;
  # heavier host references go into a *.part.cu library built at -O3 (tests/CMakeLists.txt), which also takes -O out
  # of the build type's flags.
  set(large_cases "")
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(src ${src} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    file(STRINGS ${src} found REGEX "\\[large\\]|STRATA_FORCE_64_BIT_OFFSETS" LIMIT_COUNT 1)
    list(APPEND large_cases ${found})
  endforeach()
  if(large_cases)
    target_compile_options(${name} PRIVATE $<$<NOT:$<CONFIG:Debug>>:-O3>)
  else()
    target_compile_options(${name} PRIVATE -O0)
  endif()
  if(ARG_GPU AND NOT large_cases)
    target_compile_definitions(${name} PRIVATE STRATA_FORCE_32_BIT_OFFSETS THRUST_FORCE_32_BIT_OFFSET_TYPE)
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE ${STRATA_SKIP_RETURN_CODE})
  if(ARG_GPU)
    set(label gpu)
  else()
    set(label host)
  endif()
  set_tests_properties(${name} PROPERTIES LABELS ${label})
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(src ${src} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    file(STRINGS ${src} expects_skip REGEX "^// ctest: expect skipped$" LIMIT_INPUT 4096 LIMIT_COUNT 1)
    if(expects_skip)
      add_test(NAME ${name}.exit_code
               COMMAND ${CMAKE_COMMAND} -DEXECUTABLE=$<TARGET_FILE:${name}> -DEXPECTED=${STRATA_SKIP_RETURN_CODE}
                       -P ${STRATA_EXPECT_EXIT_CODE_SCRIPT})
      set_tests_properties(${name}.exit_code PROPERTIES LABELS ${label})
    endif()
  endforeach()
endfunction()

function(strata_add_test_variants layer source)
  get_filename_component(file ${source} NAME)
  if(NOT file MATCHES "^([A-Za-z0-9_]+)\\.variants\\.cu$")
    message(FATAL_ERROR "strata_add_test_variants: ${source} is not named <stem>.variants.cu")
  endif()
  set(stem ${CMAKE_MATCH_1})
  get_filename_component(source ${source} ABSOLUTE)
  set_property(GLOBAL APPEND PROPERTY STRATA_TEST_VARIANT_SOURCES ${source})
  # VARIANT <variant> <definition>... : each VARIANT starts a new executable.
  set(name "")
  set(expect_variant_name OFF)
  foreach(arg IN LISTS ARGN ITEMS VARIANT)
    if(arg STREQUAL "VARIANT")
      if(expect_variant_name)
        message(FATAL_ERROR "strata_add_test_variants(${source}): VARIANT without a name")
      endif()
      if(name)
        strata_add_test(${name} GPU SOURCES ${source})
        target_compile_definitions(${name} PRIVATE ${definitions})
      endif()
      set(expect_variant_name ON)
    elseif(expect_variant_name)
      set(name test.${layer}.${stem}_${arg})
      set(definitions "")
      set(expect_variant_name OFF)
    elseif(name)
      if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")
        # nvcc splits a -D value at commas (a list of macros) unless they are escaped.
        string(REPLACE "," "\\," arg "${arg}")
      endif()
      list(APPEND definitions "${arg}")
    else()
      message(FATAL_ERROR "strata_add_test_variants(${source}): '${arg}' before the first VARIANT")
    endif()
  endforeach()
  if(NOT name)
    message(FATAL_ERROR "strata_add_test_variants(${source}): no VARIANT")
  endif()
endfunction()
