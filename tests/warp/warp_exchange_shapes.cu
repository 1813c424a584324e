// WarpExchange over shapes: items per lane {1, 3, 4, 7, 16} x logical warps of {1, 2, 8, 16, 32} lanes (shared
// memory) and every square shuffle tile, for int32 and a 16-byte struct; and the padded shared-memory layouts
// (items per lane 2, 8, 12, 32) for types of every size class.
#include "warp_exchange_harness.cuh"

using warp_exchange_test::check_exchange;

TEMPLATE_TEST_CASE("WarpExchange SMEM, items {1,3,4,7,16} x lanes {1,2,8,16,32}", "[warp][warp_exchange]", std::int32_t,
                   strata_test::custom_t)
{
  warp_exchange_test::smem_shapes<TestType, 1, 3, 4, 7, 16>::template run<1, 2, 8, 16, 32>(0x3e10);
}

TEMPLATE_TEST_CASE("WarpExchange SHUFFLE, N x N tiles for N = 1, 2, 4, 8, 16, 32", "[warp][warp_exchange]",
                   std::int32_t, strata_test::custom_t)
{
  check_exchange<TestType, 1, 1, strata::WARP_EXCHANGE_SHUFFLE>(0x3e20);
  check_exchange<TestType, 2, 2, strata::WARP_EXCHANGE_SHUFFLE>(0x3e21);
  check_exchange<TestType, 4, 4, strata::WARP_EXCHANGE_SHUFFLE>(0x3e22);
  check_exchange<TestType, 8, 8, strata::WARP_EXCHANGE_SHUFFLE>(0x3e23);
  check_exchange<TestType, 16, 16, strata::WARP_EXCHANGE_SHUFFLE>(0x3e24);
  check_exchange<TestType, 32, 32, strata::WARP_EXCHANGE_SHUFFLE>(0x3e25);
}

TEMPLATE_TEST_CASE("WarpExchange SMEM, padded layouts: items {2, 8, 12, 32} on 32 lanes, 16 on 8 lanes",
                   "[warp][warp_exchange]", std::int8_t, std::int16_t, std::int32_t, double, strata_test::custom_t)
{
  warp_exchange_test::smem_shapes<TestType, 2, 8, 12, 32>::template run<32>(0x3e30);
  check_exchange<TestType, 16, 8, strata::WARP_EXCHANGE_SMEM>(0x3e31);
}
