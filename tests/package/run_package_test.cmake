# Installs strata from its build tree into a temporary prefix, then configures, builds and runs a small
# consumer twice: against the installed package (find_package) and as a subdirectory (add_subdirectory), each with
# -Wall -Wextra -Wshadow -Werror (consumer/CMakeLists.txt, which also checks strata_VERSION and CUDA::cudart).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()

run_step(${CMAKE_COMMAND} --install ${STRATA_BINARY_DIR} --prefix ${WORK_DIR}/prefix)

foreach(mode package subdirectory)
  set(build ${WORK_DIR}/build-${mode})
  if(mode STREQUAL package)
    set(how -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
  else()
    set(how -DSTRATA_SOURCE_DIR=${STRATA_SOURCE_DIR})
  endif()
  run_step(${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/consumer -B ${build} -G ${GENERATOR}
           -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS} -DSTRATA_EXPECTED_VERSION=${VERSION} ${how})
  run_step(${CMAKE_COMMAND} --build ${build})
  run_step(${build}/consumer)
endforeach()
