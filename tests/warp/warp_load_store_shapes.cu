// WarpLoad / WarpStore over shapes: items per lane {1, 3, 4, 7, 16} x logical warps of {1, 2, 8, 16, 32} lanes,
// every algorithm, for int32 and a 16-byte struct.
#include "warp_load_store_harness.cuh"

TEMPLATE_TEST_CASE("WarpLoad/WarpStore, items {1,3,4,7,16} x lanes {1,2,8,16,32}, every algorithm",
                   "[warp][warp_load][warp_store]", std::int32_t, strata_test::custom_t)
{
  warp_load_store_test::shapes<TestType, 1, 3, 4, 7, 16>::template run<1, 2, 8, 16, 32>(0x4d00);
}
