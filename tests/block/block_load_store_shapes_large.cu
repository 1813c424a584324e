// BlockLoad / BlockStore shape sweep, 256- and 1024-thread blocks and 2-D (16x8) and 3-D (8x4x4) blocks, at int32
// and custom_t: every algorithm and every form; the private-storage constructors; cache modifiers; transposing
// loads from shared memory.
#include "block_load_store_harness.cuh"

using block_load_store_test::check_shape;

TEMPLATE_TEST_CASE("BlockLoad/BlockStore shapes, 256 threads", "[block][load][store][shapes]", std::int32_t,
                   strata_test::custom_t)
{
  check_shape<TestType, 256, 1, 1, 3, 7>(0x25600);
}

TEMPLATE_TEST_CASE("BlockLoad/BlockStore shapes, 1024 threads", "[block][load][store][shapes]", std::int32_t,
                   strata_test::custom_t)
{
  check_shape<TestType, 1024, 1, 1, 1, 3>(0x102400);
}

// 1024 threads x 16 items: the transposes' TempStorage (66 KiB of int32) exceeds static shared memory and runs in
// dynamic shared memory. Of custom_t it would be 272 KiB, more than a block of any GPU has: custom_t runs the
// algorithms that fit (the time-sliced transpose holds one warp's items at a time).
TEST_CASE("BlockLoad/BlockStore shapes, 1024 threads x 16 items", "[block][load][store][shapes]")
{
  using block_load_store_test::check_load_store;
  using strata_test::custom_t;
  constexpr std::uint64_t salt = 0x102400 + 16 * 16;
  block_load_store_test::check_every_algorithm<std::int32_t, 1024, 1, 1, 16>(salt);
  check_load_store<custom_t, 1024, 1, 1, 16, strata::BLOCK_LOAD_DIRECT>(salt);
  check_load_store<custom_t, 1024, 1, 1, 16, strata::BLOCK_LOAD_STRIPED>(salt + 1);
  check_load_store<custom_t, 1024, 1, 1, 16, strata::BLOCK_LOAD_VECTORIZE>(salt + 2);
  check_load_store<custom_t, 1024, 1, 1, 16, strata::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED>(salt + 5);
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

// LOAD_PLAIN, the plain load in every algorithm (LOAD_DEFAULT favours TRANSPOSE and WARP_TRANSPOSE tiles in L2).
TEST_CASE("BlockLoad LOAD_PLAIN in every algorithm", "[block][load][modifier]")
{
  block_load_store_test::check_every_algorithm<std::int32_t, 256, 1, 1, 5, false, strata::LOAD_PLAIN>(0x91a1);
}

namespace
{
// The transposing loads from a pointer into shared memory: LOAD_DEFAULT must see that the address is not global
// and read plainly (the L2 priority instructions are for global memory only). Full and guarded tiles.
template <typename T, int THREADS, int I, strata::BlockLoadAlgorithm ALGORITHM>
__global__ void load_from_shared_kernel(const T* in, const int* valid_items, T oob_default, T* out)
{
  constexpr int TILE = THREADS * I;
  using BlockLoadT   = strata::BlockLoad<T, THREADS, I, ALGORITHM>;
  __shared__ typename BlockLoadT::TempStorage temp_storage;
  __shared__ T tile[TILE];
  for (int k = threadIdx.x; k < TILE; k += THREADS)
  {
    tile[k] = in[blockIdx.x * TILE + k];
  }
  __syncthreads();
  T items[I];
  BlockLoadT(temp_storage).Load(tile, items);
  for (int i = 0; i < I; ++i)
  {
    out[(2 * blockIdx.x) * TILE + threadIdx.x * I + i] = items[i];
  }
  __syncthreads();
  BlockLoadT(temp_storage).Load(tile, items, valid_items[blockIdx.x], oob_default);
  for (int i = 0; i < I; ++i)
  {
    out[(2 * blockIdx.x + 1) * TILE + threadIdx.x * I + i] = items[i];
  }
}

template <typename T, int THREADS, int I, strata::BlockLoadAlgorithm ALGORITHM>
void check_load_from_shared(std::uint64_t salt)
{
  constexpr int TILE           = THREADS * I;
  const std::vector<int> valid = block_load_store_test::valid_items_per_tile(TILE, I, salt);
  const int tiles              = static_cast<int>(valid.size());
  const std::vector<T> in      = strata_test::random_vector<T>(static_cast<std::size_t>(tiles) * TILE, salt);
  const T oob_default          = strata_test::random_vector<T>(1, salt + 1)[0];
  const strata_test::device_buffer<T> d_in(in);
  const strata_test::device_buffer<int> d_valid(valid);
  strata_test::device_buffer<T> d_out(static_cast<std::size_t>(2 * tiles) * TILE);
  load_from_shared_kernel<T, THREADS, I, ALGORITHM>
    <<<tiles, THREADS>>>(d_in.data(), d_valid.data(), oob_default, d_out.data());
  STRATA_TEST_SYNC();
  std::vector<T> expected(static_cast<std::size_t>(2 * tiles) * TILE);
  for (int b = 0; b < tiles; ++b)
  {
    for (int k = 0; k < TILE; ++k)
    {
      expected[(2 * b) * TILE + k]     = in[b * TILE + k];
      expected[(2 * b + 1) * TILE + k] = k < valid[b] ? in[b * TILE + k] : oob_default;
    }
  }
  CAPTURE(THREADS, I, static_cast<int>(ALGORITHM), sizeof(T));
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
}
} // namespace

TEST_CASE("BlockLoad TRANSPOSE and WARP_TRANSPOSE from shared memory", "[block][load]")
{
  check_load_from_shared<std::int32_t, 128, 7, strata::BLOCK_LOAD_TRANSPOSE>(0x5a01);
  check_load_from_shared<std::int32_t, 128, 7, strata::BLOCK_LOAD_WARP_TRANSPOSE>(0x5a02);
  check_load_from_shared<double, 64, 4, strata::BLOCK_LOAD_TRANSPOSE>(0x5a03);
  check_load_from_shared<double, 64, 4, strata::BLOCK_LOAD_WARP_TRANSPOSE>(0x5a04);
}
