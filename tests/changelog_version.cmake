# Fails unless the newest version heading of CHANGELOG.md ("## [x.y.z] - date") is VERSION, the project's version
# (include/strata/config.cuh): cmake -DCHANGELOG=<file> -DVERSION=<x.y.z> -P changelog_version.cmake
file(STRINGS "${CHANGELOG}" headings REGEX "^## \\[[0-9]+\\.[0-9]+\\.[0-9]+\\]")
list(LENGTH headings count)
if(count EQUAL 0)
  message(FATAL_ERROR "${CHANGELOG} has no version heading")
endif()
list(GET headings 0 newest)
string(REGEX MATCH "\\[([0-9]+\\.[0-9]+\\.[0-9]+)\\]" _ "${newest}")
if(NOT CMAKE_MATCH_1 STREQUAL VERSION)
  message(FATAL_ERROR "CHANGELOG.md's newest version is ${CMAKE_MATCH_1}, the project's is ${VERSION}: "
                      "add a heading for ${VERSION}, or move the version in include/strata/config.cuh")
endif()
message(STATUS "CHANGELOG.md's newest version is the project's, ${VERSION}")
