// BlockLoad / BlockStore over every value type: every algorithm and every form at 128 threads x 4 items (a thread's
// share of 4 to 64 bytes, so vector widths from 4 to 16 bytes and the per-type fallbacks are all exercised).
#include "block_load_store_harness.cuh"

TEMPLATE_TEST_CASE("BlockLoad/BlockStore every algorithm, 128 threads x 4 items", "[block][load][store][types]",
                   STRATA_TEST_ALL_TYPES)
{
  block_load_store_test::check_every_algorithm<TestType, 128, 1, 1, 4>(0x15a0);
}
