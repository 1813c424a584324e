// BlockExchange over every value type: each method, out of place and in place, at one shape without time slicing
// and one with it (a block with a partial last warp).
#include "block_exchange_harness.cuh"

TEMPLATE_TEST_CASE("BlockExchange every method, 128 threads x 4 items", "[block][exchange][types]",
                   STRATA_TEST_ALL_TYPES)
{
  block_exchange_test::check_exchange<TestType, 128, 1, 1, 4>(0x7e01);
}

TEMPLATE_TEST_CASE("BlockExchange every method, time-sliced, 100 threads x 7 items", "[block][exchange][types]",
                   STRATA_TEST_ALL_TYPES)
{
  block_exchange_test::check_exchange<TestType, 100, 1, 1, 7, true>(0x7e02);
}
