// BlockReduce with a non-commutative operator (2x2 matrix product modulo 2^32): RAKING and WARP_REDUCTIONS
// must combine the items in thread order, then array order, at every shape and with num_valid.
#include "block_reduce_harness.cuh"

using namespace block_reduce_test;

namespace
{
// Reduce with ITEMS items per thread, and Reduce(num_valid), for both order-preserving algorithms.
template <int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z, int ITEMS>
void check_mat_mul()
{
  check<mat2x2, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, strata::BLOCK_REDUCE_WARP_REDUCTIONS, ITEMS, api::reduce>(
    mat_mul{}, mat_mul{});
  check<mat2x2, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, strata::BLOCK_REDUCE_RAKING, ITEMS, api::reduce>(mat_mul{},
                                                                                                        mat_mul{});
  check<mat2x2, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, strata::BLOCK_REDUCE_WARP_REDUCTIONS, 1, api::reduce_valid>(
    mat_mul{}, mat_mul{});
  check<mat2x2, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, strata::BLOCK_REDUCE_RAKING, 1, api::reduce_valid>(mat_mul{},
                                                                                                          mat_mul{});
}
} // namespace

TEST_CASE("BlockReduce mat_mul (non-commutative): 1-D blocks of whole warps", "[block][block_reduce]")
{
  check_mat_mul<32, 1, 1, 3>();
  check_mat_mul<64, 1, 1, 1>();
  check_mat_mul<96, 1, 1, 7>();
  check_mat_mul<128, 1, 1, 4>();
  check_mat_mul<256, 1, 1, 16>();
  check_mat_mul<1024, 1, 1, 3>();
}

TEST_CASE("BlockReduce mat_mul (non-commutative): partial warps (100, 52 and 20 threads)", "[block][block_reduce]")
{
  check_mat_mul<100, 1, 1, 4>();
  check_mat_mul<52, 1, 1, 7>();
  check_mat_mul<20, 1, 1, 3>();
}

TEST_CASE("BlockReduce mat_mul (non-commutative): 2-D 16x8 and 3-D 8x4x4 blocks", "[block][block_reduce]")
{
  check_mat_mul<16, 8, 1, 16>();
  check_mat_mul<8, 4, 4, 4>();
}
