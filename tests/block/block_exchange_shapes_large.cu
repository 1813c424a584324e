// BlockExchange shape sweep, 256- and 1024-thread blocks and 2-D (16x8) and 3-D (8x4x4) blocks, at int32 and
// custom_t: every method, out of place and in place, with and without warp time slicing.
#include "block_exchange_harness.cuh"

using block_exchange_test::check_shape;

TEMPLATE_TEST_CASE("BlockExchange shapes, 256 threads", "[block][exchange][shapes]", std::int32_t,
                   strata_test::custom_t)
{
  check_shape<TestType, 256, 1, 1, 3, 7>(0x25600);
}

TEMPLATE_TEST_CASE("BlockExchange shapes, 1024 threads", "[block][exchange][shapes]", std::int32_t,
                   strata_test::custom_t)
{
  check_shape<TestType, 1024, 1, 1, 1, 3>(0x102400);
}

// 16 items of 4 bytes over 1024 threads: without time slicing the TempStorage (66 KiB) exceeds static shared
// memory and runs in dynamic shared memory; with it, it fits static shared memory.
TEST_CASE("BlockExchange shapes, 1024 threads x 16 items", "[block][exchange][shapes]")
{
  block_exchange_test::check_exchange<std::int32_t, 1024, 1, 1, 16, false>(0x102415);
  block_exchange_test::check_exchange<std::int32_t, 1024, 1, 1, 16, true>(0x102416);
}

TEMPLATE_TEST_CASE("BlockExchange shapes, 2-D block 16x8", "[block][exchange][shapes]", std::int32_t,
                   strata_test::custom_t)
{
  check_shape<TestType, 16, 8, 1, 3, 16>(0x1680);
}

TEMPLATE_TEST_CASE("BlockExchange shapes, 3-D block 8x4x4", "[block][exchange][shapes]", std::int32_t,
                   strata_test::custom_t)
{
  check_shape<TestType, 8, 4, 4, 1, 7>(0x8440);
}

// 3-D blocks whose warps cut across rows and planes, and a partial last warp: 12x5x3 = 180 threads.
TEMPLATE_TEST_CASE("BlockExchange shapes, 3-D block 12x5x3", "[block][exchange][shapes]", std::int32_t,
                   strata_test::custom_t)
{
  check_shape<TestType, 12, 5, 3, 4>(0x12530);
}

TEMPLATE_TEST_CASE("BlockExchange private __shared__ storage (default constructor)", "[block][exchange][storage]",
                   std::int32_t, strata_test::custom_t)
{
  block_exchange_test::check_exchange<TestType, 96, 1, 1, 7, false, true>(0xde01);
  block_exchange_test::check_exchange<TestType, 16, 8, 1, 3, true, true>(0xde02);
}
