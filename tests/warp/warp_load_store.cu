// WarpLoad / WarpStore for every value type at 4 items per lane on 32- and 16-lane logical warps (every
// algorithm; aligned and misaligned pointers; guarded at a few valid_items), every valid_items of one shape,
// iterators that are not pointers, and the default constructors.
#include "warp_load_store_harness.cuh"

using namespace warp_load_store_test;

TEMPLATE_TEST_CASE("WarpLoad/WarpStore, every type and algorithm, 4 items on 32- and 16-lane warps",
                   "[warp][warp_load][warp_store]", STRATA_TEST_ALL_TYPES)
{
  check_all_algorithms<TestType, 4, 32>(0x4c01);
  check_all_algorithms<TestType, 4, 16>(0x4c02);
}

// Every valid_items from 0 to the segment size, for loads with and without a default and for stores; the
// store's count differs from the load's and from warp to warp.
template <typename T, int I, int W, strata::WarpLoadAlgorithm LOAD>
void check_every_valid_items(std::uint64_t salt)
{
  constexpr int TILE      = I * W;
  constexpr int NUM_WARPS = NUM_THREADS / W;
  for (int valid = 0; valid <= TILE; ++valid)
  {
    for (load_mode lmode : {load_mode::guarded, load_mode::guarded_default})
    {
      run_config cfg;
      cfg.lmode       = lmode;
      cfg.smode       = store_mode::guarded;
      cfg.offset      = valid % 2;
      cfg.load_valid  = staggered_valid(NUM_WARPS, TILE, valid, 1);
      cfg.store_valid = staggered_valid(NUM_WARPS, TILE, valid, 7);
      run_load_store<T, I, W, LOAD>(cfg, salt + valid);
    }
  }
}

TEST_CASE("WarpLoad/WarpStore, every valid_items of int32 x 4 on 16-lane warps", "[warp][warp_load][warp_store]")
{
  check_every_valid_items<std::int32_t, 4, 16, strata::WARP_LOAD_DIRECT>(0x4c10);
  check_every_valid_items<std::int32_t, 4, 16, strata::WARP_LOAD_STRIPED>(0x4c11);
  check_every_valid_items<std::int32_t, 4, 16, strata::WARP_LOAD_VECTORIZE>(0x4c12);
  check_every_valid_items<std::int32_t, 4, 16, strata::WARP_LOAD_TRANSPOSE>(0x4c13);
}

TEST_CASE("WarpLoad/WarpStore, every valid_items of custom_t x 3 on 8-lane warps", "[warp][warp_load][warp_store]")
{
  check_every_valid_items<strata_test::custom_t, 3, 8, strata::WARP_LOAD_DIRECT>(0x4c14);
  check_every_valid_items<strata_test::custom_t, 3, 8, strata::WARP_LOAD_STRIPED>(0x4c15);
  check_every_valid_items<strata_test::custom_t, 3, 8, strata::WARP_LOAD_VECTORIZE>(0x4c16);
  check_every_valid_items<strata_test::custom_t, 3, 8, strata::WARP_LOAD_TRANSPOSE>(0x4c17);
}

template <strata::WarpLoadAlgorithm LOAD>
void check_wrapped_iterators(std::uint64_t salt)
{
  for (int offset : {0, 1})
  {
    run_config cfg;
    cfg.wrapped_iterators = true;
    cfg.offset            = offset;
    run_load_store<std::int32_t, 4, 32, LOAD>(cfg, salt + offset);
    cfg.lmode       = load_mode::guarded_default;
    cfg.smode       = store_mode::guarded;
    cfg.load_valid  = staggered_valid(NUM_THREADS / 32, 128, 77, 5);
    cfg.store_valid = staggered_valid(NUM_THREADS / 32, 128, 50, 9);
    run_load_store<std::int32_t, 4, 32, LOAD>(cfg, salt + 2 + offset);
  }
}

TEST_CASE("WarpLoad/WarpStore through iterators that are not pointers", "[warp][warp_load][warp_store]")
{
  check_wrapped_iterators<strata::WARP_LOAD_DIRECT>(0x4c20);
  check_wrapped_iterators<strata::WARP_LOAD_STRIPED>(0x4c21);
  check_wrapped_iterators<strata::WARP_LOAD_VECTORIZE>(0x4c22);
  check_wrapped_iterators<strata::WARP_LOAD_TRANSPOSE>(0x4c23);
}

// The default constructors' private storage is shared by the block, so TRANSPOSE runs one logical warp per block.
template <typename T, int I, int W, strata::WarpLoadAlgorithm LOAD>
__global__ void default_constructed_kernel(const T* d_in, T* d_out)
{
  const int warp   = static_cast<int>(blockIdx.x * (blockDim.x / W) + threadIdx.x / W);
  const int offset = warp * I * W;
  T items[I];
  strata::WarpLoad<T, I, LOAD, W>().Load(d_in + offset, items);
  strata::WarpStore<T, I, matching_store<LOAD>, W>().Store(d_out + offset, items);
}

template <strata::WarpLoadAlgorithm LOAD, int I, int W>
void check_default_constructed(int block_threads, std::uint64_t salt)
{
  INFO(algorithm_name(LOAD) << ", ITEMS_PER_THREAD " << I << ", LOGICAL_WARP_THREADS " << W << ", block of "
                            << block_threads);
  constexpr int GRID                 = 3;
  const int n                        = GRID * block_threads * I;
  const std::vector<std::int32_t> in = strata_test::random_vector<std::int32_t>(n, salt);
  strata_test::device_buffer<std::int32_t> d_in(in);
  strata_test::device_buffer<std::int32_t> d_out(n);
  default_constructed_kernel<std::int32_t, I, W, LOAD><<<GRID, block_threads>>>(d_in.data(), d_out.data());
  STRATA_TEST_SYNC();
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), in);
}

TEST_CASE("WarpLoad/WarpStore default constructors", "[warp][warp_load][warp_store]")
{
  check_default_constructed<strata::WARP_LOAD_DIRECT, 4, 16>(64, 0x4c30);
  check_default_constructed<strata::WARP_LOAD_STRIPED, 4, 16>(64, 0x4c31);
  check_default_constructed<strata::WARP_LOAD_VECTORIZE, 4, 16>(64, 0x4c32);
  check_default_constructed<strata::WARP_LOAD_TRANSPOSE, 4, 32>(32, 0x4c33);
  check_default_constructed<strata::WARP_LOAD_TRANSPOSE, 5, 8>(8, 0x4c34);
}
