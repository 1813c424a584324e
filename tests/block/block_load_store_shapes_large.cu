// BlockLoad / BlockStore shape sweep, 256- and 1024-thread blocks and 2-D (16x8) and 3-D (8x4x4) blocks, at int32
// and custom_t: every algorithm and every form; the private-storage constructors; cache modifiers.
#include "block_load_store_harness.cuh"

using block_load_store_test::check_shape;

TEMPLATE_TEST_CASE("BlockLoad/BlockStore shapes, 256 threads", "[block][load][store][shapes]", std::int32_t,
                   strata_test::custom_t)
{
  check_shape<TestType, 256, 1, 1, 3, 7>(0x25600);
}

// 1024 threads x 16 items fits static shared memory only through the time-sliced transposes (and the algorithms
// without shared memory); the others are skipped at compile time.
TEMPLATE_TEST_CASE("BlockLoad/BlockStore shapes, 1024 threads", "[block][load][store][shapes]", std::int32_t,
                   strata_test::custom_t)
{
  check_shape<TestType, 1024, 1, 1, 1, 3, 16>(0x102400);
}

TEMPLATE_TEST_CASE("BlockLoad/BlockStore shapes, 2-D block 16x8", "[block][load][store][shapes]", std::int32_t,
                   strata_test::custom_t)
{
  check_shape<TestType, 16, 8, 1, 3, 16>(0x1680);
}

TEMPLATE_TEST_CASE("BlockLoad/BlockStore shapes, 3-D block 8x4x4", "[block][load][store][shapes]", std::int32_t,
                   strata_test::custom_t)
{
  check_shape<TestType, 8, 4, 4, 1, 7>(0x8440);
}

TEMPLATE_TEST_CASE("BlockLoad/BlockStore private __shared__ storage (default constructors)",
                   "[block][load][store][storage]", std::int32_t, strata_test::custom_t)
{
  block_load_store_test::check_every_algorithm<TestType, 96, 1, 1, 7, true>(0xde01);
}

// Load<MODIFIER> reaches the memory instruction in every algorithm (ld.global.nc / .cs through ThreadLoad); the
// vectorized path reads 16-byte vectors with it.
TEST_CASE("BlockLoad cache modifiers in every algorithm", "[block][load][modifier]")
{
  block_load_store_test::check_every_algorithm<std::int32_t, 128, 1, 1, 4, false, strata::LOAD_LDG>(0x1d60);
  block_load_store_test::check_every_algorithm<double, 64, 1, 1, 6, false, strata::LOAD_CS>(0xc500);
}
