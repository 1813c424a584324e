// The harness shared by the WarpReduce tests: one kernel for every method, host references computed with
// plain loops, and a driver that runs one (type, width, method, operator) case and compares the lanes whose
// result the contract defines.
//
// Each block holds four hardware warps. For a power-of-two width W every hardware warp is split into 32 / W
// logical warps; otherwise only its first W lanes form a logical warp and the others stay out. Every logical
// warp has its own TempStorage. There are more logical warps than W, so logical warp g can use
// valid_items = 1 + g % (W + 1) and one launch covers every partial size, and W + 1, which counts as W.
#pragma once

#include "test_util.cuh"

#include <strata/warp/warp_reduce.cuh>

#include <cuda/functional>
#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace warp_reduce_test
{

enum class method
{
  reduce,         // Sum(x) / Reduce(x, op)
  reduce_partial, // Sum(x, valid_items) / Reduce(x, op, valid_items)
  head_segmented, // HeadSegmentedSum / HeadSegmentedReduce
  tail_segmented  // TailSegmentedSum / TailSegmentedReduce
};

inline const char* method_name(method m)
{
  switch (m)
  {
    case method::reduce:
      return "reduce";
    case method::reduce_partial:
      return "reduce_partial";
    case method::head_segmented:
      return "head_segmented";
    default:
      return "tail_segmented";
  }
}

// Device "operator" that selects the Sum entry points (Sum, HeadSegmentedSum, ...) instead of Reduce(op).
struct use_sum
{};

constexpr int warps_per_block = 4;

template <int W>
constexpr int logical_warps_per_hw_warp = (W & (W - 1)) == 0 ? 32 / W : 1;

template <typename T, int W, method M, typename Op>
__device__ T call_warp_reduce(strata::WarpReduce<T, W>& reducer, T x, int flag, int valid_items, Op op)
{
  constexpr bool sum = std::is_same<Op, use_sum>::value;
  if constexpr (M == method::reduce)
  {
    if constexpr (sum)
    {
      return reducer.Sum(x);
    }
    else
    {
      return reducer.Reduce(x, op);
    }
  }
  else if constexpr (M == method::reduce_partial)
  {
    if constexpr (sum)
    {
      return reducer.Sum(x, valid_items);
    }
    else
    {
      return reducer.Reduce(x, op, valid_items);
    }
  }
  else if constexpr (M == method::head_segmented)
  {
    if constexpr (sum)
    {
      return reducer.HeadSegmentedSum(x, flag);
    }
    else
    {
      return reducer.HeadSegmentedReduce(x, flag, op);
    }
  }
  else
  {
    if constexpr (sum)
    {
      return reducer.TailSegmentedSum(x, flag);
    }
    else
    {
      return reducer.TailSegmentedReduce(x, flag, op);
    }
  }
}

// Every participating lane writes its result (defined or not); the host compares only the defined lanes.
template <typename T, int W, method M, typename Op>
__global__ void warp_reduce_kernel(const T* d_in, const int* d_flags, const int* d_valid, T* d_out, Op op)
{
  using warp_reduce_t       = strata::WarpReduce<T, W>;
  constexpr int per_hw_warp = logical_warps_per_hw_warp<W>;
  constexpr int per_block   = warps_per_block * per_hw_warp;
  __shared__ typename warp_reduce_t::TempStorage temp_storage[per_block];

  const int lane = static_cast<int>(threadIdx.x % 32);
  if (lane >= per_hw_warp * W)
  {
    return;
  }
  const int warp_in_block = static_cast<int>(threadIdx.x / 32) * per_hw_warp + lane / W;
  const int logical_warp  = static_cast<int>(blockIdx.x) * per_block + warp_in_block;
  const int i             = logical_warp * W + lane % W;

  warp_reduce_t reducer(temp_storage[warp_in_block]);
  d_out[i] = call_warp_reduce<T, W, M>(reducer, d_in[i], d_flags[i], d_valid[logical_warp], op);
}

// -- inputs ------------------------------------------------------------------------------------------------

// Values at the ends of T's order: what a lane without a valid item holds in the minimum (maximum) tests, so
// reading it into the result would change the result.
template <typename T>
T lowest_value()
{
  return std::numeric_limits<T>::lowest();
}
template <>
inline strata_test::custom_t lowest_value<strata_test::custom_t>()
{
  return strata_test::custom_t{std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int32_t>::min(),
                               std::numeric_limits<std::int16_t>::min()};
}
template <typename T>
T highest_value()
{
  return std::numeric_limits<T>::max();
}
template <>
inline strata_test::custom_t highest_value<strata_test::custom_t>()
{
  return strata_test::custom_t{std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int32_t>::max(),
                               std::numeric_limits<std::int16_t>::max()};
}

// The input of a lane past valid_items.
template <typename T, typename HostOp>
T ignored_input(std::mt19937_64& rng)
{
  if constexpr (std::is_same<HostOp, strata_test::host_min>::value)
  {
    return lowest_value<T>();
  }
  else if constexpr (std::is_same<HostOp, strata_test::host_max>::value)
  {
    return highest_value<T>();
  }
  else
  {
    return strata_test::random_value<T>(rng);
  }
}

// -- the host reference ------------------------------------------------------------------------------------

// Whether each lane of a logical warp starts a segment (the lanes whose result the contract defines).
inline std::vector<bool> segment_starts(method m, const int* flags, int width)
{
  std::vector<bool> starts(width, false);
  starts[0] = true;
  for (int j = 1; j < width; ++j)
  {
    if (m == method::head_segmented)
    {
      starts[j] = flags[j] != 0;
    }
    else if (m == method::tail_segmented)
    {
      starts[j] = flags[j - 1] != 0;
    }
  }
  return starts;
}

template <typename T, typename HostOp>
T host_fold(const T* first, int count, HostOp op)
{
  T acc = first[0];
  for (int j = 1; j < count; ++j)
  {
    acc = op(acc, first[j]);
  }
  return acc;
}

// Integers print as numbers (int8_t would print as a character).
template <typename T>
auto printable(const T& x)
{
  if constexpr (std::is_arithmetic<T>::value)
  {
    return +x;
  }
  else
  {
    return x;
  }
}

// -- the driver --------------------------------------------------------------------------------------------

// Runs WarpReduce<T, W> method M with `device_op` (or use_sum) on random inputs and flags, and checks every
// defined lane against the reduction computed on the host with `host_op`.
template <typename T, int W, method M, typename DeviceOp, typename HostOp>
void check_warp_reduce(DeviceOp device_op, HostOp host_op, std::uint64_t salt)
{
  constexpr int per_block = warps_per_block * logical_warps_per_hw_warp<W>;
  const int blocks        = std::max(2, (W + 1 + per_block - 1) / per_block);
  const int warps         = blocks * per_block;
  const std::size_t n     = static_cast<std::size_t>(warps) * W;

  std::vector<T> in = strata_test::random_vector<T>(n, salt);
  std::vector<int> flags(n, 0);
  std::vector<int> valid(warps);
  std::mt19937_64 rng = strata_test::make_rng(salt ^ 0xf1a95ULL);
  for (int g = 0; g < warps; ++g)
  {
    valid[g] = 1 + g % (W + 1);
    int* f   = flags.data() + static_cast<std::size_t>(g) * W;
    for (int j = 0; j < W; ++j)
    {
      // Mostly random flags (any nonzero value sets one); some warps with none (one segment) or all set.
      switch (g % 6)
      {
        case 4:
          f[j] = 0;
          break;
        case 5:
          f[j] = 1;
          break;
        default:
          f[j] = (rng() % 3 == 0) ? static_cast<int>(1 + rng() % 4) : 0;
      }
    }
    if constexpr (M == method::head_segmented)
    {
      if (g % 2 == 0)
      {
        // Lane 0 starts a segment whatever its flag; half of the warps flag it explicitly.
        f[0] = 1;
      }
    }
    if constexpr (M == method::reduce_partial)
    {
      for (int j = valid[g]; j < W; ++j)
      {
        in[static_cast<std::size_t>(g) * W + j] = ignored_input<T, HostOp>(rng);
      }
    }
  }

  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<int> d_flags(flags);
  strata_test::device_buffer<int> d_valid(valid);
  strata_test::device_buffer<T> d_out(n);
  warp_reduce_kernel<T, W, M>
    <<<blocks, warps_per_block * 32>>>(d_in.data(), d_flags.data(), d_valid.data(), d_out.data(), device_op);
  STRATA_TEST_SYNC();
  const std::vector<T> out = d_out.download();

  for (int g = 0; g < warps; ++g)
  {
    const std::size_t base        = static_cast<std::size_t>(g) * W;
    const std::vector<bool> start = segment_starts(M, flags.data() + base, W);
    for (int j = 0; j < W; ++j)
    {
      if (!start[j])
      {
        continue;
      }
      int count = 0;
      if constexpr (M == method::reduce)
      {
        count = W;
      }
      else if constexpr (M == method::reduce_partial)
      {
        count = std::min(valid[g], W);
      }
      else
      {
        count = 1;
        while (j + count < W && !start[j + count])
        {
          ++count;
        }
      }
      const T expected = host_fold(in.data() + base + j, count, host_op);
      if (!(out[base + j] == expected))
      {
        INFO("W = " << W << ", method " << method_name(M) << ", logical warp " << g << ", lane " << j
                    << ", items reduced " << count);
        INFO("actual " << printable(out[base + j]) << ", expected " << printable(expected));
        FAIL("wrong warp reduction");
      }
    }
  }
}

// Runs check_warp_reduce at every width in Ws.
template <typename T, method M, typename DeviceOp, typename HostOp, int... Ws>
void check_widths(std::integer_sequence<int, Ws...>, DeviceOp device_op, HostOp host_op, std::uint64_t salt)
{
  (check_warp_reduce<T, Ws, M>(device_op, host_op, salt + Ws), ...);
}

// 1, 2, ..., 32.
template <int... Is>
constexpr std::integer_sequence<int, (Is + 1)...> one_based(std::integer_sequence<int, Is...>)
{
  return {};
}
using all_widths = decltype(one_based(std::make_integer_sequence<int, 32>{}));

} // namespace warp_reduce_test
