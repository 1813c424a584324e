// BlockAdjacentDifference: SubtractLeft / SubtractRight with and without tile neighbours, their PartialTile forms at
// every kind of valid_items, in place and out of place, with non-commutative difference operators.
#include <strata/block/block_adjacent_difference.cuh>

#include "test_util.cuh"

#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

namespace
{
using strata_test::custom_t;

// The calls under test, in the order of their output planes.
enum variant : int
{
  left,                   // SubtractLeft(input, output, op)
  left_pred,              // SubtractLeft(input, output, op, tile_predecessor)
  left_partial,           // SubtractLeftPartialTile(input, output, op, valid_items)
  left_partial_pred,      // SubtractLeftPartialTile(input, output, op, valid_items, tile_predecessor)
  right,                  // SubtractRight(input, output, op)
  right_succ,             // SubtractRight(input, output, op, tile_successor)
  right_partial,          // SubtractRightPartialTile(input, output, op, valid_items)
  left_in_place,          // SubtractLeft(items, items, op, tile_predecessor)
  right_in_place,         // SubtractRight(items, items, op)
  right_partial_in_place, // SubtractRightPartialTile(items, items, op, valid_items)
  num_variants
};

// a - b, wrapping for integers: not commutative.
struct minus_op
{
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const
  {
    if constexpr (std::is_integral<T>::value)
    {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
    }
    else
    {
      return a - b;
    }
  }
};

// A non-commutative difference of user structs (wrapping arithmetic, so it is defined for any input).
struct custom_difference_op
{
  __host__ __device__ custom_t operator()(const custom_t& a, const custom_t& b) const
  {
    return custom_t{static_cast<std::int64_t>(3 * static_cast<std::uint64_t>(a.a) - static_cast<std::uint64_t>(b.a)),
                    static_cast<std::int32_t>(static_cast<std::uint32_t>(a.b) - 5 * static_cast<std::uint32_t>(b.b)),
                    static_cast<std::int16_t>(a.c ^ (b.c << 1))};
  }
};

// Widens while it subtracts: the output type differs from the input type.
struct widening_minus_op
{
  template <typename T>
  __host__ __device__ long long operator()(const T& a, const T& b) const
  {
    return static_cast<long long>(a) * 2 - static_cast<long long>(b);
  }
};

template <typename T>
using default_op_t = std::conditional_t<std::is_same<T, custom_t>::value, custom_difference_op, minus_op>;

template <typename T, typename OutputT, int BX, int BY, int BZ, int IPT, typename OpT, bool PRIVATE_STORAGE>
__global__ void __launch_bounds__(BX * BY * BZ)
  adjacent_difference_kernel(const T* d_in, const T* d_tile_predecessors, const T* d_tile_successors,
                             const int* d_valid_items, OutputT* d_out)
{
  using BlockAdjacentDifferenceT = strata::BlockAdjacentDifference<T, BX, BY, BZ>;
  constexpr int TILE             = BX * BY * BZ * IPT;
  __shared__ typename BlockAdjacentDifferenceT::TempStorage temp_storage;

  const int rank       = threadIdx.x + BX * (threadIdx.y + BY * threadIdx.z);
  const int tile_begin = blockIdx.x * TILE;
  T input[IPT];
  STRATA_UNROLL
  for (int i = 0; i < IPT; ++i)
  {
    input[i] = d_in[tile_begin + rank * IPT + i];
  }
  const T tile_predecessor = d_tile_predecessors[blockIdx.x];
  const T tile_successor   = d_tile_successors[blockIdx.x];
  const int valid_items    = d_valid_items[blockIdx.x];

  auto make = [&]() {
    if constexpr (PRIVATE_STORAGE)
    {
      return BlockAdjacentDifferenceT();
    }
    else
    {
      return BlockAdjacentDifferenceT(temp_storage);
    }
  };
  auto store = [&](int v, const auto(&output)[IPT]) {
    STRATA_UNROLL
    for (int i = 0; i < IPT; ++i)
    {
      d_out[v * gridDim.x * TILE + tile_begin + rank * IPT + i] = static_cast<OutputT>(output[i]);
    }
  };

  const OpT op;
  OutputT output[IPT];

  make().SubtractLeft(input, output, op);
  store(left, output);
  __syncthreads();
  make().SubtractLeft(input, output, op, tile_predecessor);
  store(left_pred, output);
  __syncthreads();
  make().SubtractLeftPartialTile(input, output, op, valid_items);
  store(left_partial, output);
  __syncthreads();
  make().SubtractLeftPartialTile(input, output, op, valid_items, tile_predecessor);
  store(left_partial_pred, output);
  __syncthreads();
  make().SubtractRight(input, output, op);
  store(right, output);
  __syncthreads();
  make().SubtractRight(input, output, op, tile_successor);
  store(right_succ, output);
  __syncthreads();
  make().SubtractRightPartialTile(input, output, op, valid_items);
  store(right_partial, output);

  if constexpr (std::is_same<T, OutputT>::value)
  {
    T items[IPT];
    STRATA_UNROLL
    for (int i = 0; i < IPT; ++i)
    {
      items[i] = input[i];
    }
    __syncthreads();
    make().SubtractLeft(items, items, op, tile_predecessor);
    store(left_in_place, items);

    STRATA_UNROLL
    for (int i = 0; i < IPT; ++i)
    {
      items[i] = input[i];
    }
    __syncthreads();
    make().SubtractRight(items, items, op);
    store(right_in_place, items);

    STRATA_UNROLL
    for (int i = 0; i < IPT; ++i)
    {
      items[i] = input[i];
    }
    __syncthreads();
    make().SubtractRightPartialTile(items, items, op, valid_items);
    store(right_partial_in_place, items);
  }
}

// valid_items of every tile: the edges (0, 1, 2, a thread's items +-1, tile-1, tile) and random values between.
std::vector<int> valid_items_per_tile(int tile, int ipt, std::uint64_t salt)
{
  std::vector<int> v  = {0, 1, 2, ipt - 1, ipt, ipt + 1, tile / 2, tile - ipt, tile - 1, tile};
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::uniform_int_distribution<int> d(0, tile);
  for (int i = 0; i < 6; ++i)
  {
    v.push_back(d(rng));
  }
  for (int& x : v)
  {
    x = std::min(std::max(x, 0), tile);
  }
  return v;
}

template <typename T, typename OutputT, int BX, int BY = 1, int BZ = 1, int IPT = 1, typename OpT = default_op_t<T>,
          bool PRIVATE_STORAGE = false>
void check_adjacent_difference(std::uint64_t salt)
{
  constexpr int TILE = BX * BY * BZ * IPT;
  CAPTURE(BX, BY, BZ, IPT, PRIVATE_STORAGE);

  const std::vector<int> valid_items = valid_items_per_tile(TILE, IPT, salt);
  const int tiles                    = static_cast<int>(valid_items.size());
  const std::size_t n                = static_cast<std::size_t>(tiles) * TILE;
  const std::vector<T> in            = strata_test::random_vector<T>(n, salt);
  const std::vector<T> predecessors  = strata_test::random_vector<T>(tiles, salt + 1);
  const std::vector<T> successors    = strata_test::random_vector<T>(tiles, salt + 2);

  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_predecessors(predecessors);
  strata_test::device_buffer<T> d_successors(successors);
  strata_test::device_buffer<int> d_valid_items(valid_items);
  strata_test::device_buffer<OutputT> d_out(num_variants * n);
  const std::vector<OutputT> poisoned = d_out.download();

  adjacent_difference_kernel<T, OutputT, BX, BY, BZ, IPT, OpT, PRIVATE_STORAGE>
    <<<tiles, dim3(BX, BY, BZ)>>>(d_in.data(), d_predecessors.data(), d_successors.data(), d_valid_items.data(),
                                  d_out.data());
  STRATA_TEST_SYNC();
  const std::vector<OutputT> out = d_out.download();

  const OpT op;
  constexpr bool in_place = std::is_same<T, OutputT>::value;
  for (int v = 0; v < num_variants; ++v)
  {
    CAPTURE(v);
    std::vector<OutputT> expected(n);
    for (int b = 0; b < tiles; ++b)
    {
      const T* x  = in.data() + static_cast<std::size_t>(b) * TILE;
      const int m = valid_items[b];
      for (int i = 0; i < TILE; ++i)
      {
        OutputT e{};
        switch (v)
        {
          case left:
            e = i == 0 ? static_cast<OutputT>(x[0]) : op(x[i], x[i - 1]);
            break;
          case left_pred:
          case left_in_place:
            e = op(x[i], i == 0 ? predecessors[b] : x[i - 1]);
            break;
          case left_partial:
            e = (i == 0 || i >= m) ? static_cast<OutputT>(x[i]) : op(x[i], x[i - 1]);
            break;
          case left_partial_pred:
            e = i >= m ? static_cast<OutputT>(x[i]) : op(x[i], i == 0 ? predecessors[b] : x[i - 1]);
            break;
          case right:
          case right_in_place:
            e = i == TILE - 1 ? static_cast<OutputT>(x[i]) : op(x[i], x[i + 1]);
            break;
          case right_succ:
            e = op(x[i], i == TILE - 1 ? successors[b] : x[i + 1]);
            break;
          default: // right_partial, right_partial_in_place
            e = i + 1 >= m ? static_cast<OutputT>(x[i]) : op(x[i], x[i + 1]);
            break;
        }
        expected[static_cast<std::size_t>(b) * TILE + i] = e;
      }
    }
    const auto first = out.begin() + static_cast<std::ptrdiff_t>(v * n);
    const std::vector<OutputT> actual(first, first + static_cast<std::ptrdiff_t>(n));
    if (!in_place && v >= left_in_place)
    {
      // In-place calls are made only when the output type is the input type; the plane stays poisoned.
      const auto p = poisoned.begin() + static_cast<std::ptrdiff_t>(v * n);
      expected.assign(p, p + static_cast<std::ptrdiff_t>(n));
    }
    STRATA_REQUIRE_EQUAL_VECTORS(actual, expected);
  }
}
} // namespace

TEMPLATE_TEST_CASE("BlockAdjacentDifference every call, every value type (128 threads x 4 items)",
                   "[block][adjacent_difference]", STRATA_TEST_ALL_TYPES)
{
  check_adjacent_difference<TestType, TestType, 128, 1, 1, 4>(31);
}

TEMPLATE_TEST_CASE("BlockAdjacentDifference block shapes and items per thread", "[block][adjacent_difference]",
                   std::int32_t, custom_t)
{
  SECTION("32 threads x 1 item")
  {
    check_adjacent_difference<TestType, TestType, 32, 1, 1, 1>(41);
  }
  SECTION("64 threads x 3 items, private storage")
  {
    check_adjacent_difference<TestType, TestType, 64, 1, 1, 3, default_op_t<TestType>, true>(42);
  }
  SECTION("96 threads x 16 items")
  {
    check_adjacent_difference<TestType, TestType, 96, 1, 1, 16>(43);
  }
  SECTION("100 threads x 7 items")
  {
    check_adjacent_difference<TestType, TestType, 100, 1, 1, 7>(44);
  }
  SECTION("256 threads x 1 item")
  {
    check_adjacent_difference<TestType, TestType, 256, 1, 1, 1>(45);
  }
  SECTION("1024 threads x 3 items")
  {
    check_adjacent_difference<TestType, TestType, 1024, 1, 1, 3>(46);
  }
  SECTION("16x8 threads x 7 items")
  {
    check_adjacent_difference<TestType, TestType, 16, 8, 1, 7>(47);
  }
  SECTION("8x4x4 threads x 4 items, private storage")
  {
    check_adjacent_difference<TestType, TestType, 8, 4, 4, 4, default_op_t<TestType>, true>(48);
  }
}

TEST_CASE("BlockAdjacentDifference with an output type wider than the input", "[block][adjacent_difference]")
{
  check_adjacent_difference<std::int16_t, long long, 100, 1, 1, 3, widening_minus_op>(51);
  check_adjacent_difference<std::int32_t, long long, 16, 8, 1, 16, widening_minus_op>(52);
}
