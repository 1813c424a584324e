// WarpExchange for every value type: shared memory at 4 items per lane on 32- and 16-lane logical warps, and
// shuffles on 16x16 and 32x32 tiles. Every method, several logical warps per block.
#include "warp_exchange_harness.cuh"

using warp_exchange_test::check_exchange;

TEMPLATE_TEST_CASE("WarpExchange SMEM, every type, 4 items on 32- and 16-lane warps", "[warp][warp_exchange]",
                   STRATA_TEST_ALL_TYPES)
{
  check_exchange<TestType, 4, 32, strata::WARP_EXCHANGE_SMEM>(0x3e01);
  check_exchange<TestType, 4, 16, strata::WARP_EXCHANGE_SMEM>(0x3e02);
}

TEMPLATE_TEST_CASE("WarpExchange SHUFFLE, every type, 16x16 and 32x32 tiles", "[warp][warp_exchange]",
                   STRATA_TEST_ALL_TYPES)
{
  check_exchange<TestType, 16, 16, strata::WARP_EXCHANGE_SHUFFLE>(0x3e03);
  check_exchange<TestType, 32, 32, strata::WARP_EXCHANGE_SHUFFLE>(0x3e04);
}
