// Shared harness of the BlockReduce tests (split over several files to keep each one quick to compile).
//
// One kernel template covers every entry point: each block loads BLOCK_THREADS * ITEMS_PER_THREAD random
// items (thread t owns items t * ITEMS_PER_THREAD ...), reduces them with the chosen API, and thread 0 writes
// the block's result. The host reference folds each block's items left to right with an independent host
// operator, so order-sensitive operators (mat_mul) catch any reordering.
#pragma once

#include "test_util.cuh"

#include <strata/block/block_reduce.cuh>

#include <cuda/functional>
#include <cuda/std/functional>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace block_reduce_test
{

using strata_test::custom_t;
using strata_test::mat2x2;
using strata_test::mat_mul;

// The entry point a test exercises.
enum class api
{
  sum,          // Sum(input) or Sum(inputs)
  reduce,       // Reduce(input, op) or Reduce(inputs, op)
  sum_valid,    // Sum(input, num_valid)
  reduce_valid, // Reduce(input, op, num_valid)
};

inline const char* api_name(api a)
{
  switch (a)
  {
    case api::sum:
      return "Sum";
    case api::reduce:
      return "Reduce";
    case api::sum_valid:
      return "Sum(num_valid)";
    default:
      return "Reduce(num_valid)";
  }
}

inline const char* algorithm_name(strata::BlockReduceAlgorithm a)
{
  switch (a)
  {
    case strata::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY:
      return "RAKING_COMMUTATIVE_ONLY";
    case strata::BLOCK_REDUCE_RAKING:
      return "RAKING";
    default:
      return "WARP_REDUCTIONS";
  }
}

template <typename T>
const char* type_name()
{
  if (std::is_same<T, std::int8_t>::value) return "int8";
  if (std::is_same<T, std::uint8_t>::value) return "uint8";
  if (std::is_same<T, std::int16_t>::value) return "int16";
  if (std::is_same<T, std::uint16_t>::value) return "uint16";
  if (std::is_same<T, std::int32_t>::value) return "int32";
  if (std::is_same<T, std::uint32_t>::value) return "uint32";
  if (std::is_same<T, std::int64_t>::value) return "int64";
  if (std::is_same<T, std::uint64_t>::value) return "uint64";
  if (std::is_same<T, float>::value) return "float";
  if (std::is_same<T, double>::value) return "double";
  if (std::is_same<T, custom_t>::value) return "custom_t";
  if (std::is_same<T, mat2x2>::value) return "mat2x2";
  return "?";
}

// Random inputs. Matrices get odd diagonals and an even lower-left entry: an odd determinant keeps them
// invertible modulo 2^32, so long products never collapse to zero (which would hide reordering).
template <typename T>
std::vector<T> make_input(std::size_t n, std::uint64_t salt)
{
  std::vector<T> v = strata_test::random_vector<T>(n, salt);
  if constexpr (std::is_same<T, mat2x2>::value)
  {
    for (mat2x2& m : v)
    {
      m.m00 |= 1u;
      m.m11 |= 1u;
      m.m10 &= ~1u;
    }
  }
  return v;
}

template <api API, typename BlockReduceT, typename T, int ITEMS_PER_THREAD, typename ReductionOp>
__device__ T invoke(BlockReduceT block_reduce, T (&items)[ITEMS_PER_THREAD], ReductionOp reduction_op, int num_valid)
{
  if constexpr (API == api::sum)
  {
    if constexpr (ITEMS_PER_THREAD == 1)
    {
      return block_reduce.Sum(items[0]);
    }
    else
    {
      return block_reduce.Sum(items);
    }
  }
  else if constexpr (API == api::reduce)
  {
    if constexpr (ITEMS_PER_THREAD == 1)
    {
      return block_reduce.Reduce(items[0], reduction_op);
    }
    else
    {
      return block_reduce.Reduce(items, reduction_op);
    }
  }
  else if constexpr (API == api::sum_valid)
  {
    static_assert(ITEMS_PER_THREAD == 1, "num_valid counts threads of one item");
    return block_reduce.Sum(items[0], num_valid);
  }
  else
  {
    static_assert(ITEMS_PER_THREAD == 1, "num_valid counts threads of one item");
    return block_reduce.Reduce(items[0], reduction_op, num_valid);
  }
}

// PRIVATE_STORAGE: use the default constructor (private __shared__ storage) instead of a TempStorage.
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z, strata::BlockReduceAlgorithm ALGORITHM,
          int ITEMS_PER_THREAD, api API, bool PRIVATE_STORAGE, typename ReductionOp>
__global__ void __launch_bounds__(BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z)
  block_reduce_kernel(const T* d_in, const int* d_num_valid, T* d_out, ReductionOp reduction_op)
{
  using BlockReduceT          = strata::BlockReduce<T, BLOCK_DIM_X, ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  // Row-major linear thread id, computed here independently of the library.
  const int tid = (static_cast<int>(threadIdx.z) * BLOCK_DIM_Y + static_cast<int>(threadIdx.y)) * BLOCK_DIM_X
                + static_cast<int>(threadIdx.x);

  const T* block_in = d_in + static_cast<std::size_t>(blockIdx.x) * BLOCK_THREADS * ITEMS_PER_THREAD;
  T items[ITEMS_PER_THREAD];
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    items[i] = block_in[tid * ITEMS_PER_THREAD + i];
  }
  const int num_valid = d_num_valid[blockIdx.x];

  T result;
  if constexpr (PRIVATE_STORAGE)
  {
    result = invoke<API>(BlockReduceT(), items, reduction_op, num_valid);
  }
  else
  {
    __shared__ typename BlockReduceT::TempStorage temp_storage;
    result = invoke<API>(BlockReduceT(temp_storage), items, reduction_op, num_valid);
  }
  if (tid == 0)
  {
    d_out[blockIdx.x] = result;
  }
}

// num_valid for each block of a partial-tile test: the edges (1, 2, block - 1, block), two random counts, and
// one past the block size (which must reduce the whole block).
inline std::vector<int> valid_counts(int block_threads, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt ^ 0x7a11dULL);
  std::uniform_int_distribution<int> d(1, block_threads);
  return {1, 2, block_threads - 1, block_threads, d(rng), d(rng), block_threads + 7};
}

// Runs BlockReduce<T, BLOCK_DIM_X, ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z> through entry point API on several
// blocks and compares every block's result with the host reference (`host_op` must compute what
// `device_op` does; Sum uses device_op only for the reference, through host_op).
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z, strata::BlockReduceAlgorithm ALGORITHM,
          int ITEMS_PER_THREAD, api API, bool PRIVATE_STORAGE = false, typename DeviceOp, typename HostOp>
void check(DeviceOp device_op, HostOp host_op)
{
  constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  constexpr bool VALID_API    = API == api::sum_valid || API == api::reduce_valid;
  constexpr int TILE          = BLOCK_THREADS * ITEMS_PER_THREAD;

  std::ostringstream what;
  what << "BlockReduce<" << type_name<T>() << ", " << BLOCK_DIM_X << "x" << BLOCK_DIM_Y << "x" << BLOCK_DIM_Z << ", "
       << algorithm_name(ALGORITHM) << "> " << api_name(API) << ", " << ITEMS_PER_THREAD << " items per thread"
       << (PRIVATE_STORAGE ? ", private storage" : "");
  INFO(what.str());

  const std::uint64_t salt = std::hash<std::string>{}(what.str());
  const std::vector<int> num_valid =
    VALID_API ? valid_counts(BLOCK_THREADS, salt) : std::vector<int>{BLOCK_THREADS, BLOCK_THREADS, BLOCK_THREADS};
  const int blocks = static_cast<int>(num_valid.size());

  const std::vector<T> input = make_input<T>(static_cast<std::size_t>(blocks) * TILE, salt);
  std::vector<T> expected(blocks);
  for (int b = 0; b < blocks; ++b)
  {
    const int count = VALID_API ? (num_valid[b] < BLOCK_THREADS ? num_valid[b] : BLOCK_THREADS) : TILE;
    const T* first  = input.data() + static_cast<std::size_t>(b) * TILE;
    expected[b]     = strata_test::reference_reduce(first + 1, first + count, first[0], host_op);
  }

  strata_test::device_buffer<T> d_in(input);
  strata_test::device_buffer<int> d_num_valid(num_valid);
  strata_test::device_buffer<T> d_out(blocks);
  const dim3 block(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z);
  block_reduce_kernel<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, ALGORITHM, ITEMS_PER_THREAD, API, PRIVATE_STORAGE>
    <<<blocks, block>>>(d_in.data(), d_num_valid.data(), d_out.data(), device_op);
  STRATA_TEST_SYNC();

  CAPTURE(num_valid);
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
}

// The four entry points of one BlockReduce shape and algorithm: Sum and Reduce(maximum) over
// SUM_ITEMS / REDUCE_ITEMS items per thread, and both with num_valid.
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z, strata::BlockReduceAlgorithm ALGORITHM,
          int SUM_ITEMS, int REDUCE_ITEMS>
void check_shape()
{
  using strata_test::host_max;
  using strata_test::host_plus;
  check<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, ALGORITHM, SUM_ITEMS, api::sum>(cuda::std::plus<>{}, host_plus{});
  check<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, ALGORITHM, REDUCE_ITEMS, api::reduce>(cuda::maximum<>{}, host_max{});
  check<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, ALGORITHM, 1, api::sum_valid>(cuda::std::plus<>{}, host_plus{});
  check<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, ALGORITHM, 1, api::reduce_valid>(cuda::maximum<>{}, host_max{});
}

// check_shape for all three algorithms.
template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y, int BLOCK_DIM_Z, int SUM_ITEMS, int REDUCE_ITEMS>
void check_shape_all_algorithms()
{
  check_shape<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, strata::BLOCK_REDUCE_WARP_REDUCTIONS, SUM_ITEMS,
              REDUCE_ITEMS>();
  check_shape<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, strata::BLOCK_REDUCE_RAKING, SUM_ITEMS, REDUCE_ITEMS>();
  check_shape<T, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, strata::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, SUM_ITEMS,
              REDUCE_ITEMS>();
}

} // namespace block_reduce_test
