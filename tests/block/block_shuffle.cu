// BlockShuffle: Offset and Rotate over many distances (negative, zero, past the block), Up and Down with and
// without the block suffix / prefix, in place and out of place; outputs that must stay unchanged are checked too.
#include <strata/block/block_shuffle.cuh>

#include "test_util.cuh"

#include <cstdint>
#include <vector>

namespace
{
using strata_test::custom_t;

// Item-array results, one plane of BLOCK_THREADS * IPT items each.
enum array_variant : int
{
  up,            // Up(input, prev)
  up_suffix,     // Up(input, prev, block_suffix)
  down,          // Down(input, next)
  down_prefix,   // Down(input, next, block_prefix)
  up_in_place,   // Up(items, items)
  down_in_place, // Down(items, items, block_prefix)
  num_array_variants
};

// Distances for Offset (any sign) and Rotate (unsigned), relative to the block size where it matters.
std::vector<int> offset_distances(int block_threads)
{
  return {0,
          1,
          -1,
          2,
          -3,
          31,
          -32,
          33,
          block_threads - 1,
          -(block_threads - 1),
          block_threads,
          -block_threads,
          block_threads + 5};
}
std::vector<int> rotate_distances(int block_threads)
{
  return {0, 1, 2, 31, 33, block_threads - 1, block_threads, block_threads + 1, 3 * block_threads + 7};
}

template <typename T, int BX, int BY, int BZ, int IPT, bool PRIVATE_STORAGE>
__global__ void __launch_bounds__(BX * BY * BZ)
  shuffle_kernel(const T* d_in, const T* d_initial, const int* d_offset_distances, int num_offset_distances,
                 const int* d_rotate_distances, int num_rotate_distances, T* d_offset_out, T* d_rotate_out,
                 T* d_array_out, T* d_ends_out)
{
  using BlockShuffleT         = strata::BlockShuffle<T, BX, BY, BZ>;
  constexpr int BLOCK_THREADS = BX * BY * BZ;
  constexpr int TILE          = BLOCK_THREADS * IPT;
  __shared__ typename BlockShuffleT::TempStorage temp_storage;

  auto make = [&]() {
    if constexpr (PRIVATE_STORAGE)
    {
      return BlockShuffleT();
    }
    else
    {
      return BlockShuffleT(temp_storage);
    }
  };

  const int rank = threadIdx.x + BX * (threadIdx.y + BY * threadIdx.z);
  T input[IPT];
  STRATA_UNROLL
  for (int i = 0; i < IPT; ++i)
  {
    input[i] = d_in[rank * IPT + i];
  }
  // Outputs that a call may leave unchanged start as this thread's `initial` value.
  const T initial = d_initial[rank];

  for (int d = 0; d < num_offset_distances; ++d)
  {
    T output = initial;
    make().Offset(input[0], output, d_offset_distances[d]);
    d_offset_out[d * BLOCK_THREADS + rank] = output;
    __syncthreads();
  }
  for (int d = 0; d < num_rotate_distances; ++d)
  {
    T output = initial;
    make().Rotate(input[0], output, static_cast<unsigned int>(d_rotate_distances[d]));
    d_rotate_out[d * BLOCK_THREADS + rank] = output;
    __syncthreads();
  }
  {
    T output = initial;
    make().Offset(input[0], output);
    d_offset_out[num_offset_distances * BLOCK_THREADS + rank] = output;
    __syncthreads();
    output = initial;
    make().Rotate(input[0], output);
    d_rotate_out[num_rotate_distances * BLOCK_THREADS + rank] = output;
    __syncthreads();
  }

  auto store = [&](int v, const T(&items)[IPT]) {
    STRATA_UNROLL
    for (int i = 0; i < IPT; ++i)
    {
      d_array_out[v * TILE + rank * IPT + i] = items[i];
    }
  };
  T items[IPT];
  auto reset = [&]() {
    STRATA_UNROLL
    for (int i = 0; i < IPT; ++i)
    {
      items[i] = initial;
    }
  };

  reset();
  make().Up(input, items);
  store(up, items);
  __syncthreads();

  reset();
  T suffix = initial;
  make().Up(input, items, suffix);
  store(up_suffix, items);
  d_ends_out[0 * BLOCK_THREADS + rank] = suffix;
  __syncthreads();

  reset();
  make().Down(input, items);
  store(down, items);
  __syncthreads();

  reset();
  T prefix = initial;
  make().Down(input, items, prefix);
  store(down_prefix, items);
  d_ends_out[1 * BLOCK_THREADS + rank] = prefix;
  __syncthreads();

  STRATA_UNROLL
  for (int i = 0; i < IPT; ++i)
  {
    items[i] = input[i];
  }
  make().Up(items, items);
  store(up_in_place, items);
  __syncthreads();

  STRATA_UNROLL
  for (int i = 0; i < IPT; ++i)
  {
    items[i] = input[i];
  }
  prefix = initial;
  make().Down(items, items, prefix);
  store(down_in_place, items);
  d_ends_out[2 * BLOCK_THREADS + rank] = prefix;
}

template <typename T, int BX, int BY = 1, int BZ = 1, int IPT = 1, bool PRIVATE_STORAGE = false>
void check_shuffle(std::uint64_t salt)
{
  constexpr int BLOCK_THREADS = BX * BY * BZ;
  constexpr int TILE          = BLOCK_THREADS * IPT;
  CAPTURE(BX, BY, BZ, IPT, PRIVATE_STORAGE);

  const std::vector<T> in        = strata_test::random_vector<T>(TILE, salt);
  const std::vector<T> initial   = strata_test::random_vector<T>(BLOCK_THREADS, salt + 1);
  const std::vector<int> offsets = offset_distances(BLOCK_THREADS);
  const std::vector<int> rotates = rotate_distances(BLOCK_THREADS);
  const int num_offsets          = static_cast<int>(offsets.size());
  const int num_rotates          = static_cast<int>(rotates.size());

  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_initial(initial);
  strata_test::device_buffer<int> d_offsets(offsets);
  strata_test::device_buffer<int> d_rotates(rotates);
  // One extra plane each for the default distance of 1.
  strata_test::device_buffer<T> d_offset_out((num_offsets + 1) * BLOCK_THREADS);
  strata_test::device_buffer<T> d_rotate_out((num_rotates + 1) * BLOCK_THREADS);
  strata_test::device_buffer<T> d_array_out(num_array_variants * TILE);
  strata_test::device_buffer<T> d_ends_out(3 * BLOCK_THREADS);

  shuffle_kernel<T, BX, BY, BZ, IPT, PRIVATE_STORAGE>
    <<<1, dim3(BX, BY, BZ)>>>(d_in.data(), d_initial.data(), d_offsets.data(), num_offsets, d_rotates.data(),
                              num_rotates, d_offset_out.data(), d_rotate_out.data(), d_array_out.data(),
                              d_ends_out.data());
  STRATA_TEST_SYNC();

  // Thread t's single item is in[t * IPT] (its first item).
  std::vector<T> expected_offset;
  for (int d : offsets)
  {
    for (int t = 0; t < BLOCK_THREADS; ++t)
    {
      const int source = t + d;
      expected_offset.push_back(source >= 0 && source < BLOCK_THREADS ? in[source * IPT] : initial[t]);
    }
  }
  for (int t = 0; t < BLOCK_THREADS; ++t)
  {
    expected_offset.push_back(t + 1 < BLOCK_THREADS ? in[(t + 1) * IPT] : initial[t]);
  }
  {
    INFO("Offset");
    STRATA_REQUIRE_EQUAL_VECTORS(d_offset_out.download(), expected_offset);
  }

  std::vector<T> expected_rotate;
  for (int d : rotates)
  {
    for (int t = 0; t < BLOCK_THREADS; ++t)
    {
      expected_rotate.push_back(in[((t + d) % BLOCK_THREADS) * IPT]);
    }
  }
  for (int t = 0; t < BLOCK_THREADS; ++t)
  {
    expected_rotate.push_back(in[((t + 1) % BLOCK_THREADS) * IPT]);
  }
  {
    INFO("Rotate");
    STRATA_REQUIRE_EQUAL_VECTORS(d_rotate_out.download(), expected_rotate);
  }

  // Up: item j of the tile receives item j - 1; Down: item j receives item j + 1. An item without a source keeps the
  // value it held before the call: `initial` of its thread, or its own input for the in-place calls.
  std::vector<T> expected_array(num_array_variants * TILE);
  for (int j = 0; j < TILE; ++j)
  {
    const T& kept                            = initial[j / IPT];
    expected_array[up * TILE + j]            = j > 0 ? in[j - 1] : kept;
    expected_array[up_suffix * TILE + j]     = j > 0 ? in[j - 1] : kept;
    expected_array[down * TILE + j]          = j + 1 < TILE ? in[j + 1] : kept;
    expected_array[down_prefix * TILE + j]   = j + 1 < TILE ? in[j + 1] : kept;
    expected_array[up_in_place * TILE + j]   = j > 0 ? in[j - 1] : in[j];
    expected_array[down_in_place * TILE + j] = j + 1 < TILE ? in[j + 1] : in[j];
  }
  {
    INFO("Up and Down");
    STRATA_REQUIRE_EQUAL_VECTORS(d_array_out.download(), expected_array);
  }

  std::vector<T> expected_ends;
  for (int plane = 0; plane < 3; ++plane)
  {
    for (int t = 0; t < BLOCK_THREADS; ++t)
    {
      expected_ends.push_back(plane == 0 ? in[TILE - 1] : in[0]);
    }
  }
  {
    INFO("block_suffix and block_prefix");
    STRATA_REQUIRE_EQUAL_VECTORS(d_ends_out.download(), expected_ends);
  }
}
} // namespace

TEMPLATE_TEST_CASE("BlockShuffle every call, every value type (128 threads x 4 items)", "[block][shuffle]",
                   STRATA_TEST_ALL_TYPES)
{
  check_shuffle<TestType, 128, 1, 1, 4>(61);
}

TEMPLATE_TEST_CASE("BlockShuffle block shapes and items per thread", "[block][shuffle]", std::int64_t, std::uint8_t)
{
  SECTION("32 threads x 1 item")
  {
    check_shuffle<TestType, 32, 1, 1, 1>(71);
  }
  SECTION("64 threads x 16 items")
  {
    check_shuffle<TestType, 64, 1, 1, 16>(72);
  }
  SECTION("96 threads x 3 items, private storage")
  {
    check_shuffle<TestType, 96, 1, 1, 3, true>(73);
  }
  SECTION("100 threads x 7 items")
  {
    check_shuffle<TestType, 100, 1, 1, 7>(74);
  }
  SECTION("256 threads x 4 items")
  {
    check_shuffle<TestType, 256, 1, 1, 4>(75);
  }
  SECTION("1024 threads x 1 item")
  {
    check_shuffle<TestType, 1024, 1, 1, 1>(76);
  }
  SECTION("1024 threads x 16 items, private storage")
  {
    check_shuffle<TestType, 1024, 1, 1, 16, true>(77);
  }
  SECTION("16x8 threads x 3 items")
  {
    check_shuffle<TestType, 16, 8, 1, 3>(78);
  }
  SECTION("8x4x4 threads x 7 items")
  {
    check_shuffle<TestType, 8, 4, 4, 7>(79);
  }
}
