// Shared by the tests/warp/warp_scan_*.cu files: one kernel that runs every WarpScan method on the same
// inputs, and the host check that compares each method's outputs with independent host references.
//
// The block holds several hardware warps. A power-of-two logical warp of W lanes tiles every hardware warp
// (32 / W logical warps each); any other W runs in the first W lanes of each hardware warp and the other lanes
// sit out. Each logical warp gets its own random initial value and random broadcast source lane.
#pragma once

#include <strata/warp/warp_scan.cuh>

#include "test_util.cuh"

#include <cuda/functional>
#include <cuda/std/functional>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace warp_scan_test
{

constexpr int BLOCK_THREADS = 128; // four hardware warps
constexpr int GRID_BLOCKS   = 3;
constexpr int NUM_THREADS   = BLOCK_THREADS * GRID_BLOCKS;

// Lanes between the starts of consecutive logical warps: W when they tile the hardware warp, else 32.
__host__ __device__ constexpr bool is_power_of_two(int logical_warp_threads)
{
  return (logical_warp_threads & (logical_warp_threads - 1)) == 0;
}
__host__ __device__ constexpr int span_of(int logical_warp_threads)
{
  return is_power_of_two(logical_warp_threads) ? logical_warp_threads : 32;
}

// One output slot per (method, output); the order is the order of the calls in the kernel.
enum slot : int
{
  inclusive_scan,
  inclusive_scan_aggregate_output,
  inclusive_scan_aggregate,
  inclusive_scan_init,
  inclusive_scan_init_aggregate_output,
  inclusive_scan_init_aggregate,
  exclusive_scan,
  exclusive_scan_init,
  exclusive_scan_aggregate_output,
  exclusive_scan_aggregate,
  exclusive_scan_init_aggregate_output,
  exclusive_scan_init_aggregate,
  scan_inclusive,
  scan_exclusive,
  scan_init_inclusive,
  scan_init_exclusive,
  broadcast,
  inclusive_sum,
  inclusive_sum_aggregate_output,
  inclusive_sum_aggregate,
  exclusive_sum,
  exclusive_sum_aggregate_output,
  exclusive_sum_aggregate,
  num_slots
};

inline const char* slot_name(int s)
{
  static const char* const names[num_slots] = {
    "InclusiveScan(input, output, op)",
    "InclusiveScan(input, output, op, warp_aggregate): output",
    "InclusiveScan(input, output, op, warp_aggregate): warp_aggregate",
    "InclusiveScan(input, output, initial_value, op)",
    "InclusiveScan(input, output, initial_value, op, warp_aggregate): output",
    "InclusiveScan(input, output, initial_value, op, warp_aggregate): warp_aggregate",
    "ExclusiveScan(input, output, op) (lane 0 not checked)",
    "ExclusiveScan(input, output, initial_value, op)",
    "ExclusiveScan(input, output, op, warp_aggregate): output (lane 0 not checked)",
    "ExclusiveScan(input, output, op, warp_aggregate): warp_aggregate",
    "ExclusiveScan(input, output, initial_value, op, warp_aggregate): output",
    "ExclusiveScan(input, output, initial_value, op, warp_aggregate): warp_aggregate",
    "Scan(input, inclusive, exclusive, op): inclusive",
    "Scan(input, inclusive, exclusive, op): exclusive (lane 0 not checked)",
    "Scan(input, inclusive, exclusive, initial_value, op): inclusive",
    "Scan(input, inclusive, exclusive, initial_value, op): exclusive",
    "Broadcast(input, src_lane)",
    "InclusiveSum(value, value) in place",
    "InclusiveSum(input, output, warp_aggregate): output",
    "InclusiveSum(input, output, warp_aggregate): warp_aggregate",
    "ExclusiveSum(input, output)",
    "ExclusiveSum(input, output, warp_aggregate): output",
    "ExclusiveSum(input, output, warp_aggregate): warp_aggregate",
  };
  return names[s];
}

inline bool lane0_undefined(int s)
{
  return s == exclusive_scan || s == exclusive_scan_aggregate_output || s == scan_exclusive;
}

// Runs every method once per logical warp; out[s * NUM_THREADS + thread] holds slot s. The logical warp
// synchronizes between calls because they reuse one TempStorage, as the WarpScan contract requires.
template <typename T, int W, bool SUMS, typename ScanOp>
__global__ void warp_scan_kernel(const T* d_in, const T* d_init, const unsigned int* d_src_lane, T* d_out, ScanOp op)
{
  using warp_scan_t           = strata::WarpScan<T, W>;
  constexpr int SPAN          = span_of(W);
  constexpr unsigned int MASK = is_power_of_two(W) ? 0xffffffffu : (0xffffffffu >> (32 - W));
  __shared__ typename warp_scan_t::TempStorage temp_storage[BLOCK_THREADS / SPAN];

  if (static_cast<int>(threadIdx.x) % SPAN >= W)
  {
    return;
  }
  const int thread            = static_cast<int>(blockIdx.x * BLOCK_THREADS + threadIdx.x);
  const int warp              = thread / SPAN;
  auto& storage               = temp_storage[threadIdx.x / SPAN];
  const T input               = d_in[thread];
  const T init                = d_init[warp];
  const unsigned int src_lane = d_src_lane[warp];
  T* out                      = d_out + thread;

  T a;
  T b;
  warp_scan_t(storage).InclusiveScan(input, a, op);
  out[inclusive_scan * NUM_THREADS] = a;
  __syncwarp(MASK);
  warp_scan_t(storage).InclusiveScan(input, a, op, b);
  out[inclusive_scan_aggregate_output * NUM_THREADS] = a;
  out[inclusive_scan_aggregate * NUM_THREADS]        = b;
  __syncwarp(MASK);
  warp_scan_t(storage).InclusiveScan(input, a, init, op);
  out[inclusive_scan_init * NUM_THREADS] = a;
  __syncwarp(MASK);
  warp_scan_t(storage).InclusiveScan(input, a, init, op, b);
  out[inclusive_scan_init_aggregate_output * NUM_THREADS] = a;
  out[inclusive_scan_init_aggregate * NUM_THREADS]        = b;
  __syncwarp(MASK);
  warp_scan_t(storage).ExclusiveScan(input, a, op);
  out[exclusive_scan * NUM_THREADS] = a;
  __syncwarp(MASK);
  warp_scan_t(storage).ExclusiveScan(input, a, init, op);
  out[exclusive_scan_init * NUM_THREADS] = a;
  __syncwarp(MASK);
  warp_scan_t(storage).ExclusiveScan(input, a, op, b);
  out[exclusive_scan_aggregate_output * NUM_THREADS] = a;
  out[exclusive_scan_aggregate * NUM_THREADS]        = b;
  __syncwarp(MASK);
  warp_scan_t(storage).ExclusiveScan(input, a, init, op, b);
  out[exclusive_scan_init_aggregate_output * NUM_THREADS] = a;
  out[exclusive_scan_init_aggregate * NUM_THREADS]        = b;
  __syncwarp(MASK);
  warp_scan_t(storage).Scan(input, a, b, op);
  out[scan_inclusive * NUM_THREADS] = a;
  out[scan_exclusive * NUM_THREADS] = b;
  __syncwarp(MASK);
  warp_scan_t(storage).Scan(input, a, b, init, op);
  out[scan_init_inclusive * NUM_THREADS] = a;
  out[scan_init_exclusive * NUM_THREADS] = b;
  __syncwarp(MASK);
  out[broadcast * NUM_THREADS] = warp_scan_t(storage).Broadcast(input, src_lane);
  if constexpr (SUMS)
  {
    __syncwarp(MASK);
    a = input;
    warp_scan_t(storage).InclusiveSum(a, a);
    out[inclusive_sum * NUM_THREADS] = a;
    __syncwarp(MASK);
    warp_scan_t(storage).InclusiveSum(input, a, b);
    out[inclusive_sum_aggregate_output * NUM_THREADS] = a;
    out[inclusive_sum_aggregate * NUM_THREADS]        = b;
    __syncwarp(MASK);
    warp_scan_t(storage).ExclusiveSum(input, a);
    out[exclusive_sum * NUM_THREADS] = a;
    __syncwarp(MASK);
    warp_scan_t(storage).ExclusiveSum(input, a, b);
    out[exclusive_sum_aggregate_output * NUM_THREADS] = a;
    out[exclusive_sum_aggregate * NUM_THREADS]        = b;
  }
}

// Runs the kernel for logical warps of W lanes and checks every slot against host references computed
// logical warp by logical warp with the plain loops of test_util.cuh.
template <typename T, int W, bool SUMS, typename ScanOp, typename HostOp>
void check_warp_scan(ScanOp op, HostOp host_op, std::uint64_t salt)
{
  constexpr int SPAN      = span_of(W);
  constexpr int NUM_WARPS = NUM_THREADS / SPAN;
  CAPTURE(W);

  const std::vector<T> in   = strata_test::random_vector<T>(NUM_THREADS, salt);
  const std::vector<T> init = strata_test::random_vector<T>(NUM_WARPS, salt + 1);
  std::vector<unsigned int> src_lane(NUM_WARPS);
  {
    std::mt19937_64 rng = strata_test::make_rng(salt + 2);
    std::uniform_int_distribution<unsigned int> lane(0, W - 1);
    for (auto& s : src_lane)
    {
      s = lane(rng);
    }
  }

  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_init(init);
  strata_test::device_buffer<unsigned int> d_src_lane(src_lane);
  strata_test::device_buffer<T> d_out(static_cast<std::size_t>(num_slots) * NUM_THREADS);
  warp_scan_kernel<T, W, SUMS>
    <<<GRID_BLOCKS, BLOCK_THREADS>>>(d_in.data(), d_init.data(), d_src_lane.data(), d_out.data(), op);
  STRATA_TEST_SYNC();
  const std::vector<T> out = d_out.download();

  const int checked_slots = SUMS ? num_slots : static_cast<int>(inclusive_sum);
  std::vector<std::vector<T>> actual(num_slots);
  std::vector<std::vector<T>> expected(num_slots);
  for (int warp = 0; warp < NUM_WARPS; ++warp)
  {
    const int first = warp * SPAN;
    const std::vector<T> x(in.begin() + first, in.begin() + first + W);
    std::vector<T> seeded_input{init[warp]};
    seeded_input.insert(seeded_input.end(), x.begin(), x.end());

    const std::vector<T> inclusive   = strata_test::reference_inclusive_scan(x, host_op);
    const std::vector<T> seeded_incl = strata_test::reference_inclusive_scan(seeded_input, host_op);
    const std::vector<T> seeded_excl = strata_test::reference_exclusive_scan(x, init[warp], host_op);
    const T aggregate                = strata_test::reference_reduce(x.data() + 1, x.data() + W, x[0], host_op);

    for (int lane = 0; lane < W; ++lane)
    {
      const T unseeded_excl                      = lane > 0 ? inclusive[lane - 1] : T{};
      T want[num_slots]                          = {};
      want[inclusive_scan]                       = inclusive[lane];
      want[inclusive_scan_aggregate_output]      = inclusive[lane];
      want[inclusive_scan_aggregate]             = aggregate;
      want[inclusive_scan_init]                  = seeded_incl[lane + 1];
      want[inclusive_scan_init_aggregate_output] = seeded_incl[lane + 1];
      want[inclusive_scan_init_aggregate]        = aggregate;
      want[exclusive_scan]                       = unseeded_excl;
      want[exclusive_scan_init]                  = seeded_excl[lane];
      want[exclusive_scan_aggregate_output]      = unseeded_excl;
      want[exclusive_scan_aggregate]             = aggregate;
      want[exclusive_scan_init_aggregate_output] = seeded_excl[lane];
      want[exclusive_scan_init_aggregate]        = aggregate;
      want[scan_inclusive]                       = inclusive[lane];
      want[scan_exclusive]                       = unseeded_excl;
      want[scan_init_inclusive]                  = seeded_incl[lane + 1];
      want[scan_init_exclusive]                  = seeded_excl[lane];
      want[broadcast]                            = x[src_lane[warp]];
      if constexpr (SUMS)
      {
        const strata_test::host_plus plus{};
        const std::vector<T> sum_incl        = strata_test::reference_inclusive_scan(x, plus);
        const std::vector<T> sum_excl        = strata_test::reference_exclusive_scan(x, T{}, plus);
        const T sum_aggregate                = strata_test::reference_reduce(x.data() + 1, x.data() + W, x[0], plus);
        want[inclusive_sum]                  = sum_incl[lane];
        want[inclusive_sum_aggregate_output] = sum_incl[lane];
        want[inclusive_sum_aggregate]        = sum_aggregate;
        want[exclusive_sum]                  = sum_excl[lane];
        want[exclusive_sum_aggregate_output] = sum_excl[lane];
        want[exclusive_sum_aggregate]        = sum_aggregate;
      }
      for (int s = 0; s < checked_slots; ++s)
      {
        if (lane == 0 && lane0_undefined(s))
        {
          continue;
        }
        actual[s].push_back(out[static_cast<std::size_t>(s) * NUM_THREADS + first + lane]);
        expected[s].push_back(want[s]);
      }
    }
  }

  for (int s = 0; s < checked_slots; ++s)
  {
    INFO(slot_name(s) << ", logical warp of " << W << " lanes (entries in logical-warp, lane order)");
    STRATA_REQUIRE_EQUAL_VECTORS(actual[s], expected[s]);
  }
}

// check_warp_scan for every width in Ws, each in its own section so that one failing width does not hide
// the others.
template <typename T, bool SUMS, typename ScanOp, typename HostOp, int... Ws>
void check_widths(ScanOp op, HostOp host_op, std::uint64_t salt, std::integer_sequence<int, Ws...>)
{
  (
    [&] {
      SECTION("logical warp of " + std::to_string(Ws) + " lanes")
      {
        check_warp_scan<T, Ws, SUMS>(op, host_op, salt + static_cast<std::uint64_t>(Ws) * 7);
      }
    }(),
    ...);
}

// 1, 2, ..., N
template <int... Is>
constexpr std::integer_sequence<int, (Is + 1)...> one_based(std::integer_sequence<int, Is...>)
{
  return {};
}
template <int N>
using widths_1_to = decltype(one_based(std::make_integer_sequence<int, N>{}));

} // namespace warp_scan_test
