// BlockExchange shape sweep, blocks of up to 128 threads (one warp, whole warps, a partial last warp), at int32 and
// custom_t: every method, out of place and in place, with and without warp time slicing. Items per thread are
// spread over the shapes (1, 3, 4, 7, 16) rather than crossed with all of them, to bound compile time.
#include "block_exchange_harness.cuh"

using block_exchange_test::check_shape;

TEMPLATE_TEST_CASE("BlockExchange shapes, 32 threads", "[block][exchange][shapes]", std::int32_t, strata_test::custom_t)
{
  check_shape<TestType, 32, 1, 1, 1, 7, 16>(0x3200);
}

TEMPLATE_TEST_CASE("BlockExchange shapes, 64 threads", "[block][exchange][shapes]", std::int32_t, strata_test::custom_t)
{
  check_shape<TestType, 64, 1, 1, 3, 4>(0x6400);
}

TEMPLATE_TEST_CASE("BlockExchange shapes, 96 threads", "[block][exchange][shapes]", std::int32_t, strata_test::custom_t)
{
  check_shape<TestType, 96, 1, 1, 7, 16>(0x9600);
}

TEMPLATE_TEST_CASE("BlockExchange shapes, 100 threads (partial last warp)", "[block][exchange][shapes]", std::int32_t,
                   strata_test::custom_t)
{
  check_shape<TestType, 100, 1, 1, 1, 3, 4, 7>(0x10000);
}

TEMPLATE_TEST_CASE("BlockExchange shapes, 128 threads", "[block][exchange][shapes]", std::int32_t,
                   strata_test::custom_t)
{
  check_shape<TestType, 128, 1, 1, 4, 16>(0x12800);
}
