// The decoupled look-back on its own (TilePrefixCallbackOp over ScanTileState): one-warp blocks claim tiles in order
// from a counter, publish each tile's aggregate, look back for its exclusive prefix and publish the inclusive one,
// with some tiles held back before they publish (so that windows hold INVALID and PARTIAL predecessors), and the
// prefixes must equal the sequential fold of the aggregates on the host. Exact operators reduce each window of 32
// predecessors with a tree; the operators are uint32 sums (a word of 64 bits per tile), and two associative,
// non-commutative maps modulo 2^32 declared exact, so that a window combined out of order fails:
// affine maps (8 bytes, a word of 128 bits) and 2x2 matrix products (16 bytes, status and values in arrays of their
// own). Tile counts from 1 to past several windows, each side of a window's edge.
#include <strata/agent/single_pass_scan_operators.cuh>
#include <strata/config.cuh>

#include <cuda/std/functional>

#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

STRATA_NAMESPACE_BEGIN
namespace detail
{
// Arithmetic modulo 2^32 is exact in any association: the look-back may combine these with a tree.
template <>
struct scan_op_is_exact<strata_test::affine32, strata_test::affine_then> : cuda::std::true_type
{};
template <>
struct scan_op_is_exact<strata_test::mat2x2, strata_test::mat_mul> : cuda::std::true_type
{};
} // namespace detail
STRATA_NAMESPACE_END

namespace
{
using strata_test::device_buffer;

__host__ __device__ inline std::uint32_t mix(std::uint32_t x)
{
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

// Each block (one warp) claims tiles from `counter` until none is left; tile t's exclusive prefix goes to
// exclusive[t] (t >= 1). One tile in four sleeps up to 4 us before it publishes anything.
template <typename T, typename OpT>
__global__ void look_back_kernel(const T* aggregates, T* exclusive, strata::ScanTileState<T> tile_state,
                                 unsigned int* counter, unsigned int num_tiles, OpT op)
{
  using PrefixOpT = strata::TilePrefixCallbackOp<T, OpT, strata::ScanTileState<T>>;
  __shared__ typename PrefixOpT::TempStorage storage;
  __shared__ unsigned int claimed;
  while (true)
  {
    if (threadIdx.x == 0)
    {
      claimed = atomicAdd(counter, 1u);
    }
    __syncwarp();
    const unsigned int tile = claimed;
    __syncwarp();
    if (tile >= num_tiles)
    {
      return;
    }
    const std::uint32_t h = mix(tile);
    if (h % 4 == 0)
    {
      __nanosleep(h % 4096);
    }
    const T aggregate = aggregates[tile];
    if (tile == 0)
    {
      if (threadIdx.x == 0)
      {
        tile_state.SetInclusive(0, aggregate);
      }
    }
    else
    {
      PrefixOpT prefix_op(tile_state, storage, op, tile);
      const T prefix = prefix_op(aggregate);
      if (threadIdx.x == 0)
      {
        exclusive[tile] = prefix;
      }
    }
    __syncwarp();
  }
}

template <typename T>
__global__ void init_kernel(strata::ScanTileState<T> tile_state, unsigned int num_tiles, unsigned int* counter)
{
  const unsigned int tile = blockIdx.x * blockDim.x + threadIdx.x;
  if (tile < num_tiles)
  {
    tile_state.InitializeStatus(tile);
  }
  if (tile == 0)
  {
    *counter = 0;
  }
}

template <typename T, typename OpT>
void check_look_back(OpT op, std::uint64_t salt)
{
  int device   = 0;
  int sm_count = 0;
  STRATA_TEST_CUDA(cudaGetDevice(&device));
  STRATA_TEST_CUDA(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  constexpr unsigned int window = 32u;
  for (const unsigned int num_tiles :
       {1u, 2u, window - 1, window, window + 1, window + 2, 3 * window + 5, 1000u, 4099u, 50021u})
  {
    if (num_tiles > 4099u && strata_test::sanitizer_run())
    {
      continue; // every launch costs milliseconds under compute-sanitizer
    }
    INFO(num_tiles << " tiles");
    const std::vector<T> aggregates = strata_test::random_vector<T>(num_tiles, salt + num_tiles);
    std::vector<T> expected(num_tiles);
    for (unsigned int t = 1; t < num_tiles; ++t)
    {
      expected[t] = t == 1 ? aggregates[0] : op(expected[t - 1], aggregates[t - 1]);
    }
    const device_buffer<T> d_aggregates(aggregates);
    device_buffer<T> d_exclusive(num_tiles);
    device_buffer<char> d_state(strata::ScanTileState<T>::AllocationSize(num_tiles));
    device_buffer<unsigned int> d_counter(1);
    const strata::ScanTileState<T> tile_state(d_state.data(), num_tiles);
    init_kernel<T><<<(num_tiles + 255) / 256, 256>>>(tile_state, num_tiles, d_counter.data());
    STRATA_TEST_SYNC();
    const unsigned int blocks = std::min<unsigned int>(num_tiles, static_cast<unsigned int>(sm_count) * 16);
    look_back_kernel<<<blocks, 32>>>(d_aggregates.data(), d_exclusive.data(), tile_state, d_counter.data(), num_tiles,
                                     op);
    STRATA_TEST_SYNC();
    std::vector<T> exclusive = d_exclusive.download();
    exclusive[0]             = expected[0]; // tile 0 has no exclusive prefix
    STRATA_REQUIRE_EQUAL_VECTORS(exclusive, expected);
  }
}

} // namespace

TEST_CASE("Look-back: uint32 sums", "[look_back]")
{
  check_look_back<std::uint32_t>(cuda::std::plus<>{}, 11);
}

TEST_CASE("Look-back: affine maps (non-commutative, 8 bytes)", "[look_back]")
{
  check_look_back<strata_test::affine32>(strata_test::affine_then{}, 23);
}

TEST_CASE("Look-back: 2x2 matrix products (non-commutative, 16 bytes)", "[look_back]")
{
  check_look_back<strata_test::mat2x2>(strata_test::mat_mul{}, 37);
}
