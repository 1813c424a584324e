// The host references and checks of the frontend sort tests (sort.cu, sort_by_key.cu), instantiated once for the
// types sort_support.cuh lists, built with optimization while the test files' host code is built at -O0.
#define SORT_TEST_REFERENCE_DEFINITIONS
#include "sort_support.cuh"
