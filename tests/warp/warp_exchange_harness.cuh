// Shared by the tests/warp/warp_exchange*.cu files: one kernel that runs one WarpExchange method per launch on
// every logical warp of the grid, and the host check that derives the expected arrangement from the definitions
// of "blocked" and "striped" (not from the code under test).
//
// Every thread reads ITEMS_PER_THREAD consecutive inputs (thread t reads in[t * I .. t * I + I)) as its register
// array, runs the method, and writes its register array back the same way. So for the logical warp w of W lanes,
// the raw input of lane l, item i is in[(w * W + l) * I + i]; read as blocked it is tile item l * I + i, read as
// striped it is tile item i * W + l. Several logical warps share each block, each with its own TempStorage.
#pragma once

#include <strata/warp/warp_exchange.cuh>

#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace warp_exchange_test
{

constexpr int BLOCK_THREADS = 64;
constexpr int GRID_BLOCKS   = 2;
constexpr int NUM_THREADS   = BLOCK_THREADS * GRID_BLOCKS;

enum class op : int
{
  blocked_to_striped,
  striped_to_blocked,
  blocked_to_striped_in_place,
  striped_to_blocked_in_place,
  // BlockedToStriped, __syncwarp, StripedToBlocked on the same TempStorage: the identity.
  round_trip,
  scatter_to_striped,
  scatter_to_striped_in_place,
  // ScatterToStriped with 64-bit ranks.
  scatter_to_striped_wide_ranks,
};

inline const char* op_name(op o)
{
  switch (o)
  {
    case op::blocked_to_striped:
      return "BlockedToStriped(in, out)";
    case op::striped_to_blocked:
      return "StripedToBlocked(in, out)";
    case op::blocked_to_striped_in_place:
      return "BlockedToStriped(items, items)";
    case op::striped_to_blocked_in_place:
      return "StripedToBlocked(items, items)";
    case op::round_trip:
      return "BlockedToStriped then StripedToBlocked, one TempStorage";
    case op::scatter_to_striped:
      return "ScatterToStriped(in, out, ranks)";
    case op::scatter_to_striped_in_place:
      return "ScatterToStriped(items, ranks)";
    case op::scatter_to_striped_wide_ranks:
      return "ScatterToStriped(in, out, int64 ranks)";
  }
  return "?";
}

template <typename T, int I>
__device__ void copy_items(const T (&from)[I], T (&to)[I])
{
  for (int i = 0; i < I; ++i)
  {
    to[i] = from[i];
  }
}

template <typename T, int I, int W, strata::WarpExchangeAlgorithm ALGORITHM>
__global__ void exchange_kernel(const T* d_in, T* d_out, const int* d_ranks, op method)
{
  using exchange_t    = strata::WarpExchange<T, I, W, ALGORITHM>;
  constexpr int WARPS = BLOCK_THREADS / W;
  __shared__ typename exchange_t::TempStorage temp_storage[WARPS];

  const int thread = static_cast<int>(blockIdx.x * BLOCK_THREADS + threadIdx.x);
  exchange_t exchange(temp_storage[threadIdx.x / W]);

  T in[I];
  T out[I];
  for (int i = 0; i < I; ++i)
  {
    in[i] = d_in[thread * I + i];
  }
  switch (method)
  {
    case op::blocked_to_striped:
      exchange.BlockedToStriped(in, out);
      break;
    case op::striped_to_blocked:
      exchange.StripedToBlocked(in, out);
      break;
    case op::blocked_to_striped_in_place:
      exchange.BlockedToStriped(in, in);
      copy_items(in, out);
      break;
    case op::striped_to_blocked_in_place:
      exchange.StripedToBlocked(in, in);
      copy_items(in, out);
      break;
    case op::round_trip:
      exchange.BlockedToStriped(in, out);
      __syncwarp();
      exchange.StripedToBlocked(out, out);
      break;
    default:
      if constexpr (ALGORITHM == strata::WARP_EXCHANGE_SMEM)
      {
        int ranks[I];
        long long wide_ranks[I];
        for (int i = 0; i < I; ++i)
        {
          ranks[i]      = d_ranks[thread * I + i];
          wide_ranks[i] = ranks[i];
        }
        if (method == op::scatter_to_striped)
        {
          exchange.ScatterToStriped(in, out, ranks);
        }
        else if (method == op::scatter_to_striped_in_place)
        {
          exchange.ScatterToStriped(in, ranks);
          copy_items(in, out);
        }
        else
        {
          exchange.ScatterToStriped(in, out, wide_ranks);
        }
      }
      break;
  }
  for (int i = 0; i < I; ++i)
  {
    d_out[thread * I + i] = out[i];
  }
}

// The raw output the method must produce, from the definitions of the arrangements.
template <typename T>
std::vector<T> expected_output(const std::vector<T>& in, const std::vector<int>& ranks, int I, int W, op method)
{
  const int tile = I * W;
  std::vector<T> out(in.size());
  for (int w = 0; w < NUM_THREADS / W; ++w)
  {
    const int base = w * tile;
    // For the scatter: which raw input position holds each rank.
    std::vector<int> holder(tile);
    for (int q = 0; q < tile; ++q)
    {
      holder[ranks[base + q]] = q;
    }
    for (int l = 0; l < W; ++l)
    {
      for (int i = 0; i < I; ++i)
      {
        const int striped_item = i * W + l; // the tile item lane l, item i holds when striped
        const int blocked_item = l * I + i; // ... when blocked
        int source             = 0;         // raw input position (within the tile) that must land here
        switch (method)
        {
          case op::blocked_to_striped:
          case op::blocked_to_striped_in_place:
            source = striped_item; // tile item p sits at raw position p when the input is blocked
            break;
          case op::striped_to_blocked:
          case op::striped_to_blocked_in_place:
            source = (blocked_item % W) * I + blocked_item / W; // tile item p: lane p % W, item p / W
            break;
          case op::round_trip:
            source = blocked_item;
            break;
          default:
            source = holder[striped_item];
            break;
        }
        out[base + blocked_item] = in[base + source];
      }
    }
  }
  return out;
}

template <typename T, int I, int W, strata::WarpExchangeAlgorithm ALGORITHM>
void check_exchange(std::uint64_t salt)
{
  INFO(
    "ITEMS_PER_THREAD " << I << ", LOGICAL_WARP_THREADS " << W << ", "
                        << (ALGORITHM == strata::WARP_EXCHANGE_SMEM ? "WARP_EXCHANGE_SMEM" : "WARP_EXCHANGE_SHUFFLE"));
  const int n    = NUM_THREADS * I;
  const int tile = I * W;

  const std::vector<T> in = strata_test::random_vector<T>(n, salt);
  // Each logical warp scatters by its own random permutation of its tile.
  std::vector<int> ranks(n);
  std::mt19937_64 rng = strata_test::make_rng(salt + 1);
  for (int base = 0; base < n; base += tile)
  {
    std::iota(ranks.begin() + base, ranks.begin() + base + tile, 0);
    std::shuffle(ranks.begin() + base, ranks.begin() + base + tile, rng);
  }

  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<int> d_ranks(ranks);
  strata_test::device_buffer<T> d_out(n);

  std::vector<op> methods = {op::blocked_to_striped, op::striped_to_blocked, op::blocked_to_striped_in_place,
                             op::striped_to_blocked_in_place, op::round_trip};
  if (ALGORITHM == strata::WARP_EXCHANGE_SMEM)
  {
    methods.insert(methods.end(),
                   {op::scatter_to_striped, op::scatter_to_striped_in_place, op::scatter_to_striped_wide_ranks});
  }
  for (op method : methods)
  {
    INFO(op_name(method));
    d_out.poison();
    exchange_kernel<T, I, W, ALGORITHM>
      <<<GRID_BLOCKS, BLOCK_THREADS>>>(d_in.data(), d_out.data(), d_ranks.data(), method);
    STRATA_TEST_SYNC();
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected_output(in, ranks, I, W, method));
  }
}

// check_exchange for every I of ITEMS and every W of WIDTHS (SMEM).
template <typename T, int... ITEMS>
struct smem_shapes
{
  template <int... WIDTHS>
  static void run(std::uint64_t salt)
  {
    (run_items<ITEMS, WIDTHS...>(salt + ITEMS), ...);
  }
  template <int I, int... WIDTHS>
  static void run_items(std::uint64_t salt)
  {
    (check_exchange<T, I, WIDTHS, strata::WARP_EXCHANGE_SMEM>(salt * 64 + WIDTHS), ...);
  }
};

} // namespace warp_exchange_test
