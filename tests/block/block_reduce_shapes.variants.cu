// BlockReduce shape sweep: 1-D blocks of one to 32 warps (including a partial last warp), blocks smaller than a
// warp, and 2-D and 3-D blocks; every algorithm; items per thread 1, 3, 4, 7 and 16; num_valid.
//
// Built once per value type (tests/CMakeLists.txt), each build a test of its own:
//   STRATA_TEST_VALUE_TYPE    the value type, e.g. std::int32_t, or strata_test::custom_t (16 bytes, which moves
//                             as several words through shuffles and shared memory)
//   STRATA_TEST_VARIANT_NAME  its name in the test cases' names, e.g. "int32"
#include "block_reduce_harness.cuh"

#if !defined(STRATA_TEST_VALUE_TYPE) || !defined(STRATA_TEST_VARIANT_NAME)
#  error "a STRATA_TEST_* definition of the #if is missing: build this file through strata_add_test_variants"
#endif

using namespace block_reduce_test;
using T = STRATA_TEST_VALUE_TYPE;

// check_shape_all_algorithms<T, X, Y, Z, items per thread for Sum, items per thread for Reduce>
TEST_CASE("BlockReduce " STRATA_TEST_VARIANT_NAME " shapes: 1-D blocks of whole warps", "[block][block_reduce]")
{
  check_shape_all_algorithms<T, 32, 1, 1, 1, 4>();
  check_shape_all_algorithms<T, 64, 1, 1, 3, 7>();
  check_shape_all_algorithms<T, 96, 1, 1, 4, 16>();
  check_shape_all_algorithms<T, 128, 1, 1, 16, 3>();
  check_shape_all_algorithms<T, 256, 1, 1, 1, 4>();
  check_shape_all_algorithms<T, 1024, 1, 1, 3, 7>();
}

TEST_CASE("BlockReduce " STRATA_TEST_VARIANT_NAME " shapes: partial warps (100, 52 and 20 threads)",
          "[block][block_reduce]")
{
  check_shape_all_algorithms<T, 100, 1, 1, 7, 1>();
  check_shape_all_algorithms<T, 52, 1, 1, 4, 3>();
  check_shape_all_algorithms<T, 20, 1, 1, 16, 7>();
}

TEST_CASE("BlockReduce " STRATA_TEST_VARIANT_NAME " shapes: 2-D 16x8 and 3-D 8x4x4 blocks", "[block][block_reduce]")
{
  check_shape_all_algorithms<T, 16, 8, 1, 4, 16>();
  check_shape_all_algorithms<T, 8, 4, 4, 7, 1>();
}

TEST_CASE("BlockReduce " STRATA_TEST_VARIANT_NAME ": default constructor with private shared storage",
          "[block][block_reduce]")
{
  using strata_test::host_max;
  using strata_test::host_plus;
  check<T, 100, 1, 1, strata::BLOCK_REDUCE_WARP_REDUCTIONS, 3, api::sum, true>(cuda::std::plus<>{}, host_plus{});
  check<T, 100, 1, 1, strata::BLOCK_REDUCE_RAKING, 3, api::sum, true>(cuda::std::plus<>{}, host_plus{});
  check<T, 256, 1, 1, strata::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, 3, api::sum, true>(cuda::std::plus<>{},
                                                                                       host_plus{});
  check<T, 8, 4, 4, strata::BLOCK_REDUCE_WARP_REDUCTIONS, 1, api::reduce_valid, true>(cuda::maximum<>{}, host_max{});
  check<T, 8, 4, 4, strata::BLOCK_REDUCE_RAKING, 1, api::reduce_valid, true>(cuda::maximum<>{}, host_max{});
  check<T, 8, 4, 4, strata::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, 1, api::reduce_valid, true>(cuda::maximum<>{},
                                                                                              host_max{});
}
