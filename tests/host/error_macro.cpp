// STRATA_RETURN_IF_ERROR is one statement: as the body of an unbraced if, an `else` after it belongs to that if.
#include <strata/util/error.cuh>

#include "catch2_shim.hpp"

namespace
{
int else_branch_runs = 0;

cudaError_t guarded(bool check, cudaError_t result)
{
  if (check)
    STRATA_RETURN_IF_ERROR(result);
  else
    ++else_branch_runs;
  return cudaSuccess;
}
} // namespace

TEST_CASE("STRATA_RETURN_IF_ERROR in an unbraced if/else", "[host][error]")
{
  else_branch_runs = 0;
  CHECK(guarded(true, cudaErrorInvalidValue) == cudaErrorInvalidValue);
  CHECK(else_branch_runs == 0);
  CHECK(guarded(true, cudaSuccess) == cudaSuccess);
  CHECK(else_branch_runs == 0);
  CHECK(guarded(false, cudaErrorInvalidValue) == cudaSuccess);
  CHECK(else_branch_runs == 1);
}
