// Shared by the tests/block/block_scan_*.cu files: one kernel that runs any BlockScan method over several
// consecutive tiles per block, and the host check that compares its outputs, block aggregates and prefix-callback
// calls with independent host references.
//
// Each of GRID_BLOCKS blocks scans TILES_PER_BLOCK consecutive tiles of BLOCK_THREADS * ITEMS inputs with the
// same TempStorage (a __syncthreads() between tiles, as the reuse contract asks). Methods with a block-prefix
// callback carry a running prefix from tile to tile, as a single-pass device scan does, so each block's outputs
// must equal one host scan over all of that block's tiles, seeded with the callback's initial value.
#pragma once

#include <strata/block/block_scan.cuh>

#include "test_util.cuh"

#include <cuda/functional>
#include <cuda/std/functional>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace block_scan_test
{

constexpr int GRID_BLOCKS     = 3;
constexpr int TILES_PER_BLOCK = 3;
constexpr int NUM_TILES       = GRID_BLOCKS * TILES_PER_BLOCK;

// Every BlockScan method, by what it computes. The *_init methods of InclusiveScan exist for arrays only.
enum method : int
{
  exclusive_sum,
  exclusive_sum_aggregate,
  exclusive_sum_callback,
  inclusive_sum,
  inclusive_sum_aggregate,
  inclusive_sum_callback,
  exclusive_scan_init,
  exclusive_scan_init_aggregate,
  exclusive_scan_callback,
  exclusive_scan,
  exclusive_scan_aggregate,
  inclusive_scan,
  inclusive_scan_aggregate,
  inclusive_scan_callback,
  inclusive_scan_init,
  inclusive_scan_init_aggregate,
  num_methods
};

inline const char* method_name(int m)
{
  static const char* const names[num_methods] = {
    "ExclusiveSum(in, out)",
    "ExclusiveSum(in, out, block_aggregate)",
    "ExclusiveSum(in, out, block_prefix_callback_op)",
    "InclusiveSum(in, out)",
    "InclusiveSum(in, out, block_aggregate)",
    "InclusiveSum(in, out, block_prefix_callback_op)",
    "ExclusiveScan(in, out, initial_value, op)",
    "ExclusiveScan(in, out, initial_value, op, block_aggregate)",
    "ExclusiveScan(in, out, op, block_prefix_callback_op)",
    "ExclusiveScan(in, out, op) (first output not checked)",
    "ExclusiveScan(in, out, op, block_aggregate) (first output not checked)",
    "InclusiveScan(in, out, op)",
    "InclusiveScan(in, out, op, block_aggregate)",
    "InclusiveScan(in, out, op, block_prefix_callback_op)",
    "InclusiveScan(in, out, initial_value, op)",
    "InclusiveScan(in, out, initial_value, op, block_aggregate)",
  };
  return names[m];
}

inline bool is_sum(int m)
{
  return m <= inclusive_sum_callback;
}
inline bool is_inclusive(int m)
{
  return (m >= inclusive_sum && m <= inclusive_sum_callback) || m >= inclusive_scan;
}
inline bool has_aggregate(int m)
{
  return m == exclusive_sum_aggregate || m == inclusive_sum_aggregate || m == exclusive_scan_init_aggregate
      || m == exclusive_scan_aggregate || m == inclusive_scan_aggregate || m == inclusive_scan_init_aggregate;
}
inline bool has_callback(int m)
{
  return m == exclusive_sum_callback || m == inclusive_sum_callback || m == exclusive_scan_callback
      || m == inclusive_scan_callback;
}
inline bool has_initial_value(int m)
{
  return m == exclusive_scan_init || m == exclusive_scan_init_aggregate || m == inclusive_scan_init
      || m == inclusive_scan_init_aggregate;
}
inline bool first_output_undefined(int m)
{
  return m == exclusive_scan || m == exclusive_scan_aggregate;
}

// One tested instantiation: BlockScan<T, BX, ALGORITHM, BY, BZ> with ITEMS items per thread. SCALAR uses the
// one-item overloads (ITEMS must be 1), otherwise the array overloads. PRIVATE_STORAGE uses the default
// constructor. Sum methods run unless T has no operator+ (mat2x2).
template <typename ValueT, typename ScanOpT, strata::BlockScanAlgorithm ALGO, int BX, int BY, int BZ,
          int ITEMS_PER_THREAD, bool SCALAR_OVERLOADS = false, bool PRIVATE = false>
struct config
{
  using T      = ValueT;
  using ScanOp = ScanOpT;

  static constexpr strata::BlockScanAlgorithm ALGORITHM = ALGO;
  static constexpr int BLOCK_DIM_X                      = BX;
  static constexpr int BLOCK_DIM_Y                      = BY;
  static constexpr int BLOCK_DIM_Z                      = BZ;
  static constexpr int BLOCK_THREADS                    = BX * BY * BZ;
  static constexpr int ITEMS                            = ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS                       = BLOCK_THREADS * ITEMS;
  static constexpr bool SCALAR                          = SCALAR_OVERLOADS;
  static constexpr bool PRIVATE_STORAGE                 = PRIVATE;
  static constexpr bool SUMS                            = !std::is_same<T, strata_test::mat2x2>::value;

  static_assert(!SCALAR || ITEMS == 1, "the one-item overloads take one item per thread");

  static bool runs(int m)
  {
    if (is_sum(m) && !SUMS)
    {
      return false;
    }
    return !(SCALAR && (m == inclusive_scan_init || m == inclusive_scan_init_aggregate));
  }

  static std::string name()
  {
    const char* algorithm = ALGO == strata::BLOCK_SCAN_RAKING         ? "RAKING"
                          : ALGO == strata::BLOCK_SCAN_RAKING_MEMOIZE ? "RAKING_MEMOIZE"
                                                                      : "WARP_SCANS";
    return std::string(algorithm) + ", block " + std::to_string(BX) + "x" + std::to_string(BY) + "x"
         + std::to_string(BZ) + ", " + std::to_string(ITEMS) + (SCALAR ? " item (one-item overloads)" : " items")
         + (PRIVATE ? ", private storage" : "");
  }
};

// The shapes every algorithm is tested at, each with its own items per thread, so that every algorithm meets
// every block size and every ITEMS_PER_THREAD without the full cross product. Covered: one-item overloads and
// one-item arrays; block sizes that are a multiple of 32 or not (100, 70: a short last raking segment, 20: less
// than a warp, whose warp scan is not a power of two); 2-D and 3-D blocks; the default-constructed private
// storage.
template <typename T, typename ScanOp, strata::BlockScanAlgorithm ALGO>
struct shape_sweep
{
  using b32_item1_scalar             = config<T, ScanOp, ALGO, 32, 1, 1, 1, true>;
  using b64_items3                   = config<T, ScanOp, ALGO, 64, 1, 1, 3>;
  using b96_items7                   = config<T, ScanOp, ALGO, 96, 1, 1, 7>;
  using b100_items4                  = config<T, ScanOp, ALGO, 100, 1, 1, 4>;
  using b128_items16                 = config<T, ScanOp, ALGO, 128, 1, 1, 16>;
  using b256_items1_array            = config<T, ScanOp, ALGO, 256, 1, 1, 1>;
  using b1024_items3                 = config<T, ScanOp, ALGO, 1024, 1, 1, 3>;
  using b16x8_items4_private_storage = config<T, ScanOp, ALGO, 16, 8, 1, 4, false, true>;
  using b8x4x4_items7                = config<T, ScanOp, ALGO, 8, 4, 4, 7>;
  using b20_items3                   = config<T, ScanOp, ALGO, 20, 1, 1, 3>;
  using b70_item1_scalar             = config<T, ScanOp, ALGO, 70, 1, 1, 1, true>;
};

// The host operator that matches a device operator, written independently of the code under test.
template <typename ScanOp>
struct host_op_of;
template <>
struct host_op_of<cuda::std::plus<>>
{
  using type = strata_test::host_plus;
};
template <>
struct host_op_of<cuda::maximum<>>
{
  using type = strata_test::host_max;
};
template <>
struct host_op_of<strata_test::mat_mul>
{
  using type = strata_test::mat_mul;
};

// Products of random 2x2 matrices modulo 2^32 gain a factor of 2 every few steps and reach the zero matrix
// after about a hundred: past that, every scan result is zero and operands out of order go unnoticed. An odd
// determinant (odd diagonal, even m01) keeps every product invertible, so long scans stay order-sensitive.
template <typename T>
void make_order_sensitive(std::vector<T>&)
{}
inline void make_order_sensitive(std::vector<strata_test::mat2x2>& values)
{
  for (auto& m : values)
  {
    m.m00 |= 1u;
    m.m11 |= 1u;
    m.m01 &= ~1u;
  }
}

// What the callback saw, per tile: how many threads called it, which of linear ids 0..31 did, and the argument
// each of those received.
struct callback_log
{
  unsigned int* calls;
  unsigned int* lanes;
};

// A stateful block-prefix callback: returns the running prefix and folds the tile's aggregate into it. Only
// thread 0's return value may seed the block, so every other thread returns something else (the aggregate).
template <typename T, typename ScanOp>
struct running_prefix_op
{
  T running;
  ScanOp op;
  callback_log log;
  T* args;
  int tile;
  unsigned int linear_tid;

  __device__ T operator()(T block_aggregate)
  {
    atomicAdd(log.calls + tile, 1u);
    if (linear_tid < 32)
    {
      atomicOr(log.lanes + tile, 1u << linear_tid);
      args[tile * 32 + linear_tid] = block_aggregate;
    }
    const T prefix = running;
    running        = static_cast<T>(op(running, block_aggregate));
    return linear_tid == 0 ? prefix : block_aggregate;
  }
};

// The thread's item array, or its only item for the one-item overloads.
template <bool SCALAR, typename T, int N>
__device__ decltype(auto) operand(T (&items)[N])
{
  if constexpr (SCALAR)
  {
    return (items[0]);
  }
  else
  {
    return (items);
  }
}

template <typename Config, typename BlockScanT>
__device__ BlockScanT make_block_scan(typename BlockScanT::TempStorage& temp_storage)
{
  if constexpr (Config::PRIVATE_STORAGE)
  {
    return BlockScanT();
  }
  else
  {
    return BlockScanT(temp_storage);
  }
}

// Runs `method` on every tile of the block. Odd methods scan in place (output aliasing input), even ones into
// a separate array. The launch bound keeps 1024-thread blocks within the register file.
template <typename Config>
__global__ void __launch_bounds__(Config::BLOCK_THREADS)
  block_scan_kernel(int method, const typename Config::T* d_in, typename Config::T* d_out,
                    typename Config::T* d_aggregates, typename Config::T initial_value,
                    typename Config::T callback_seed, callback_log log, typename Config::T* d_callback_args)
{
  using T             = typename Config::T;
  using ScanOp        = typename Config::ScanOp;
  constexpr int ITEMS = Config::ITEMS;
  constexpr bool S    = Config::SCALAR;
  using block_scan_t =
    strata::BlockScan<T, Config::BLOCK_DIM_X, Config::ALGORITHM, Config::BLOCK_DIM_Y, Config::BLOCK_DIM_Z>;
  __shared__ typename block_scan_t::TempStorage temp_storage;

  const unsigned int linear_tid = threadIdx.x + Config::BLOCK_DIM_X * (threadIdx.y + Config::BLOCK_DIM_Y * threadIdx.z);
  const ScanOp op{};
  running_prefix_op<T, ScanOp> scan_callback{callback_seed, op, log, d_callback_args, 0, linear_tid};
  running_prefix_op<T, cuda::std::plus<>> sum_callback{callback_seed, {}, log, d_callback_args, 0, linear_tid};

  for (int t = 0; t < TILES_PER_BLOCK; ++t)
  {
    const int tile          = static_cast<int>(blockIdx.x) * TILES_PER_BLOCK + t;
    const std::size_t first = (static_cast<std::size_t>(tile) * Config::BLOCK_THREADS + linear_tid) * ITEMS;
    scan_callback.tile      = tile;
    sum_callback.tile       = tile;

    T in[ITEMS];
    T out[ITEMS];
    for (int i = 0; i < ITEMS; ++i)
    {
      in[i]  = d_in[first + i];
      out[i] = in[i];
    }
    T aggregate = in[0];

    block_scan_t scan = make_block_scan<Config, block_scan_t>(temp_storage);
    auto&& x          = (method % 2 == 1) ? operand<S>(out) : operand<S>(in);
    auto&& y          = operand<S>(out);
    switch (method)
    {
      case exclusive_sum:
      case exclusive_sum_aggregate:
      case exclusive_sum_callback:
      case inclusive_sum:
      case inclusive_sum_aggregate:
      case inclusive_sum_callback:
        if constexpr (Config::SUMS)
        {
          if (method == exclusive_sum)
          {
            scan.ExclusiveSum(x, y);
          }
          else if (method == exclusive_sum_aggregate)
          {
            scan.ExclusiveSum(x, y, aggregate);
          }
          else if (method == exclusive_sum_callback)
          {
            scan.ExclusiveSum(x, y, sum_callback);
          }
          else if (method == inclusive_sum)
          {
            scan.InclusiveSum(x, y);
          }
          else if (method == inclusive_sum_aggregate)
          {
            scan.InclusiveSum(x, y, aggregate);
          }
          else
          {
            scan.InclusiveSum(x, y, sum_callback);
          }
        }
        break;
      case exclusive_scan_init:
        scan.ExclusiveScan(x, y, initial_value, op);
        break;
      case exclusive_scan_init_aggregate:
        scan.ExclusiveScan(x, y, initial_value, op, aggregate);
        break;
      case exclusive_scan_callback:
        scan.ExclusiveScan(x, y, op, scan_callback);
        break;
      case exclusive_scan:
        scan.ExclusiveScan(x, y, op);
        break;
      case exclusive_scan_aggregate:
        scan.ExclusiveScan(x, y, op, aggregate);
        break;
      case inclusive_scan:
        scan.InclusiveScan(x, y, op);
        break;
      case inclusive_scan_aggregate:
        scan.InclusiveScan(x, y, op, aggregate);
        break;
      case inclusive_scan_callback:
        scan.InclusiveScan(x, y, op, scan_callback);
        break;
      default:
        if constexpr (!S)
        {
          if (method == inclusive_scan_init)
          {
            scan.InclusiveScan(x, y, initial_value, op);
          }
          else
          {
            scan.InclusiveScan(x, y, initial_value, op, aggregate);
          }
        }
        break;
    }

    for (int i = 0; i < ITEMS; ++i)
    {
      d_out[first + i] = out[i];
    }
    d_aggregates[static_cast<std::size_t>(tile) * Config::BLOCK_THREADS + linear_tid] = aggregate;
    __syncthreads();
  }
}

// Host references, by plain loops over one tile (or one block's tiles, for the callback methods).
template <typename T, typename HostOp>
void reference_scan(const T* in, T* out, std::size_t n, bool inclusive, bool seeded, T seed, HostOp op)
{
  T running = seed;
  for (std::size_t i = 0; i < n; ++i)
  {
    if (!inclusive)
    {
      out[i] = running;
    }
    running = (i == 0 && !seeded) ? in[0] : op(running, in[i]);
    if (inclusive)
    {
      out[i] = running;
    }
  }
}

// "where" of a flat output index, for failure messages.
template <typename Config>
std::string position_of(long long i)
{
  const long long tile   = i / Config::TILE_ITEMS;
  const long long thread = (i % Config::TILE_ITEMS) / Config::ITEMS;
  const long long item   = i % Config::ITEMS;
  return "tile " + std::to_string(tile) + " (block " + std::to_string(tile / TILES_PER_BLOCK) + "), thread "
       + std::to_string(thread) + ", item " + std::to_string(item);
}

// Compares element by element; `positions` names a mismatch by tile, thread and item.
template <typename Config, typename T>
void check_same(const std::vector<T>& actual, const std::vector<T>& expected, const char* what, bool positions)
{
  const long long i = strata_test::first_mismatch(actual, expected);
  if (i >= 0)
  {
    INFO(what << ": first mismatch at index " << i << (positions ? " = " + position_of<Config>(i) : std::string()));
    INFO("actual " << actual[i] << ", expected " << expected[i]);
    CHECK(i < 0);
  }
}

// Runs one method of one configuration and checks outputs, aggregates and callback calls.
template <typename Config>
void check_method(int m, std::uint64_t salt)
{
  using T                 = typename Config::T;
  using HostOp            = typename host_op_of<typename Config::ScanOp>::type;
  constexpr int TILE      = Config::TILE_ITEMS;
  constexpr int THREADS   = Config::BLOCK_THREADS;
  const std::size_t n     = static_cast<std::size_t>(NUM_TILES) * TILE;
  std::vector<T> h_in     = strata_test::random_vector<T>(n, salt);
  std::vector<T> h_values = strata_test::random_vector<T>(2, salt + 1);
  make_order_sensitive(h_in);
  make_order_sensitive(h_values);
  const T initial_value = h_values[0];
  const T callback_seed = h_values[1];

  strata_test::device_buffer<T> d_in(h_in);
  strata_test::device_buffer<T> d_out(n);
  strata_test::device_buffer<T> d_aggregates(static_cast<std::size_t>(NUM_TILES) * THREADS);
  strata_test::device_buffer<T> d_callback_args(static_cast<std::size_t>(NUM_TILES) * 32);
  strata_test::device_buffer<unsigned int> d_calls(NUM_TILES);
  strata_test::device_buffer<unsigned int> d_lanes(NUM_TILES);
  STRATA_TEST_CUDA(cudaMemset(d_calls.data(), 0, NUM_TILES * sizeof(unsigned int)));
  STRATA_TEST_CUDA(cudaMemset(d_lanes.data(), 0, NUM_TILES * sizeof(unsigned int)));

  block_scan_kernel<Config><<<GRID_BLOCKS, dim3(Config::BLOCK_DIM_X, Config::BLOCK_DIM_Y, Config::BLOCK_DIM_Z)>>>(
    m, d_in.data(), d_out.data(), d_aggregates.data(), initial_value, callback_seed,
    callback_log{d_calls.data(), d_lanes.data()}, d_callback_args.data());
  STRATA_TEST_SYNC();

  // Expected outputs and per-tile aggregates, with operator+ for the sum methods and the host twin of the
  // scan operator for the others.
  const bool sum       = is_sum(m);
  const bool inclusive = is_inclusive(m);
  std::vector<T> expected(n);
  std::vector<T> tile_aggregates(NUM_TILES);
  const auto reference = [&](auto host_op) {
    for (int tile = 0; tile < NUM_TILES; ++tile)
    {
      const T* x            = h_in.data() + static_cast<std::size_t>(tile) * TILE;
      tile_aggregates[tile] = strata_test::reference_reduce(x + 1, x + TILE, x[0], host_op);
    }
    if (has_callback(m))
    {
      // One scan over each block's tiles, seeded with the callback's initial running prefix.
      constexpr std::size_t BLOCK_ITEMS = static_cast<std::size_t>(TILES_PER_BLOCK) * TILE;
      for (int block = 0; block < GRID_BLOCKS; ++block)
      {
        const std::size_t first = block * BLOCK_ITEMS;
        reference_scan(h_in.data() + first, expected.data() + first, BLOCK_ITEMS, inclusive, true, callback_seed,
                       host_op);
      }
    }
    else
    {
      // Exclusive sums are seeded with zero, the *_init methods with the initial value.
      const bool seeded = sum ? !inclusive : has_initial_value(m);
      const T seed      = sum ? T{} : initial_value;
      for (int tile = 0; tile < NUM_TILES; ++tile)
      {
        const std::size_t first = static_cast<std::size_t>(tile) * TILE;
        reference_scan(h_in.data() + first, expected.data() + first, TILE, inclusive, seeded, seed, host_op);
      }
    }
  };
  if constexpr (Config::SUMS)
  {
    if (sum)
    {
      reference(strata_test::host_plus{});
    }
    else
    {
      reference(HostOp{});
    }
  }
  else
  {
    reference(HostOp{});
  }

  std::vector<T> actual = d_out.download();
  if (first_output_undefined(m))
  {
    for (int tile = 0; tile < NUM_TILES; ++tile)
    {
      actual[static_cast<std::size_t>(tile) * TILE] = expected[static_cast<std::size_t>(tile) * TILE];
    }
  }
  check_same<Config>(actual, expected, "outputs", true);

  if (has_aggregate(m))
  {
    // Every thread's block_aggregate.
    const std::vector<T> aggregates = d_aggregates.download();
    std::vector<T> expected_aggregates(aggregates.size());
    for (std::size_t i = 0; i < aggregates.size(); ++i)
    {
      expected_aggregates[i] = tile_aggregates[i / THREADS];
    }
    const long long i = strata_test::first_mismatch(aggregates, expected_aggregates);
    INFO("block_aggregate: first mismatch in tile " << (i / THREADS) << ", thread " << (i % THREADS));
    CHECK(i < 0);
  }

  if (has_callback(m))
  {
    // Called once per tile by each thread of the first warp, each with the tile's aggregate.
    constexpr unsigned int CALLERS        = THREADS < 32 ? THREADS : 32;
    constexpr unsigned int LANES_MASK     = CALLERS == 32 ? 0xffffffffu : ((1u << CALLERS) - 1u);
    const std::vector<unsigned int> calls = d_calls.download();
    const std::vector<unsigned int> lanes = d_lanes.download();
    const std::vector<T> args             = d_callback_args.download();
    for (int tile = 0; tile < NUM_TILES; ++tile)
    {
      CAPTURE(tile);
      CHECK(calls[tile] == CALLERS);
      CHECK(lanes[tile] == LANES_MASK);
      std::vector<T> seen(args.begin() + tile * 32, args.begin() + tile * 32 + CALLERS);
      const std::vector<T> want(CALLERS, tile_aggregates[tile]);
      check_same<Config>(seen, want, "callback argument (index = calling lane)", false);
    }
  }
}

// Every method of one configuration, each in its own section so that one failing method does not hide others.
template <typename Config>
void check_config(std::uint64_t salt)
{
  INFO("BlockScan<" << Config::name() << ">");
  for (int m = 0; m < num_methods; ++m)
  {
    if (Config::runs(m))
    {
      SECTION(method_name(m))
      {
        check_method<Config>(m, salt + static_cast<std::uint64_t>(m) * 131);
      }
    }
  }
}

} // namespace block_scan_test
