// BlockReduce over every value type at two shapes: a full-warp block with several items per thread, and a
// block whose last warp is partial, with num_valid.
#include "block_reduce_harness.cuh"

using namespace block_reduce_test;

TEMPLATE_TEST_CASE("BlockReduce value types: 128 threads x 4 items, Sum and Reduce(maximum), all algorithms",
                   "[block][block_reduce]", STRATA_TEST_ALL_TYPES)
{
  using T = TestType;
  check<T, 128, 1, 1, strata::BLOCK_REDUCE_WARP_REDUCTIONS, 4, api::sum>(cuda::std::plus<>{}, strata_test::host_plus{});
  check<T, 128, 1, 1, strata::BLOCK_REDUCE_RAKING, 4, api::sum>(cuda::std::plus<>{}, strata_test::host_plus{});
  check<T, 128, 1, 1, strata::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, 4, api::sum>(cuda::std::plus<>{},
                                                                                 strata_test::host_plus{});
  check<T, 128, 1, 1, strata::BLOCK_REDUCE_WARP_REDUCTIONS, 4, api::reduce>(cuda::maximum<>{}, strata_test::host_max{});
  check<T, 128, 1, 1, strata::BLOCK_REDUCE_RAKING, 4, api::reduce>(cuda::maximum<>{}, strata_test::host_max{});
  check<T, 128, 1, 1, strata::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, 4, api::reduce>(cuda::maximum<>{},
                                                                                    strata_test::host_max{});
}

TEMPLATE_TEST_CASE("BlockReduce value types: 100 threads (partial last warp), Sum(num_valid), all algorithms",
                   "[block][block_reduce]", STRATA_TEST_ALL_TYPES)
{
  using T = TestType;
  check<T, 100, 1, 1, strata::BLOCK_REDUCE_WARP_REDUCTIONS, 1, api::sum_valid>(cuda::std::plus<>{},
                                                                               strata_test::host_plus{});
  check<T, 100, 1, 1, strata::BLOCK_REDUCE_RAKING, 1, api::sum_valid>(cuda::std::plus<>{}, strata_test::host_plus{});
  check<T, 100, 1, 1, strata::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, 1, api::sum_valid>(cuda::std::plus<>{},
                                                                                       strata_test::host_plus{});
}
