// BlockDiscontinuity: every FlagHeads / FlagTails / FlagHeadsAndTails overload, with flag operators of both
// signatures, against a host reference over keys with short runs (so both flag values are frequent).
#include <strata/block/block_discontinuity.cuh>

#include "test_util.cuh"

#include <cstdint>
#include <random>
#include <vector>

namespace
{
using strata_test::custom_t;

// The overloads under test, in the order of their outputs.
enum variant : int
{
  heads,                       // FlagHeads(flags, input, op)
  heads_pred,                  // FlagHeads(flags, input, op, tile_predecessor)
  heads_preds,                 // FlagHeads(flags, input, preds, op)
  heads_preds_pred,            // FlagHeads(flags, input, preds, op, tile_predecessor)
  tails,                       // FlagTails(flags, input, op)
  tails_succ,                  // FlagTails(flags, input, op, tile_successor)
  heads_tails,                 // FlagHeadsAndTails(heads, tails, input, op)
  heads_tails_succ,            // FlagHeadsAndTails(heads, tails, tile_successor, input, op)
  heads_pred_tails,            // FlagHeadsAndTails(heads, tile_predecessor, tails, input, op)
  heads_pred_tails_succ,       // FlagHeadsAndTails(heads, tile_predecessor, tails, tile_successor, input, op)
  plain_heads,                 // FlagHeads(flags, input, op) with a two-argument op
  plain_tails,                 // FlagTails(flags, input, op) with a two-argument op
  plain_heads_pred_tails_succ, // FlagHeadsAndTails(heads, pred, tails, succ, input, op), two-argument op
  num_variants
};

// Head and tail flags are written as separate planes per variant: plane = 2 * variant + (0 heads, 1 tails).
constexpr int num_planes = 2 * num_variants;

// Flags "a differs from b".
struct not_equal_op
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return !(a == b);
  }
};

// Flags "a differs from b", inverted at every third tile index of b: a wrong b_index shows in the flags.
struct indexed_not_equal_op
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b, int b_index) const
  {
    return !(a == b) != (b_index % 3 == 0);
  }
};

template <typename T, int BX, int BY, int BZ, int IPT, typename FlagT, bool PRIVATE_STORAGE>
__global__ void __launch_bounds__(BX * BY * BZ)
  discontinuity_kernel(const T* d_keys, const T* d_tile_predecessors, const T* d_tile_successors, int* d_flags,
                       T* d_preds)
{
  using BlockDiscontinuityT   = strata::BlockDiscontinuity<T, BX, BY, BZ>;
  constexpr int BLOCK_THREADS = BX * BY * BZ;
  constexpr int TILE          = BLOCK_THREADS * IPT;
  __shared__ typename BlockDiscontinuityT::TempStorage temp_storage;

  const int rank       = threadIdx.x + BX * (threadIdx.y + BY * threadIdx.z);
  const int tile_begin = blockIdx.x * TILE;
  T keys[IPT];
  STRATA_UNROLL
  for (int i = 0; i < IPT; ++i)
  {
    keys[i] = d_keys[tile_begin + rank * IPT + i];
  }
  const T tile_predecessor = d_tile_predecessors[blockIdx.x];
  const T tile_successor   = d_tile_successors[blockIdx.x];

  auto make = [&]() {
    if constexpr (PRIVATE_STORAGE)
    {
      return BlockDiscontinuityT();
    }
    else
    {
      return BlockDiscontinuityT(temp_storage);
    }
  };
  auto store = [&](int v, int which, const FlagT(&flags)[IPT]) {
    STRATA_UNROLL
    for (int i = 0; i < IPT; ++i)
    {
      d_flags[(2 * v + which) * gridDim.x * TILE + tile_begin + rank * IPT + i] = static_cast<int>(flags[i]);
    }
  };
  auto store_preds = [&](int plane, const T(&preds)[IPT]) {
    STRATA_UNROLL
    for (int i = 0; i < IPT; ++i)
    {
      d_preds[plane * gridDim.x * TILE + tile_begin + rank * IPT + i] = preds[i];
    }
  };

  const indexed_not_equal_op op;
  FlagT h[IPT];
  FlagT t[IPT];
  T preds[IPT];

  make().FlagHeads(h, keys, op);
  store(heads, 0, h);
  __syncthreads();
  make().FlagHeads(h, keys, op, tile_predecessor);
  store(heads_pred, 0, h);
  __syncthreads();

  // preds[0] of thread 0 must be left alone when there is no tile predecessor: seed it with a known value.
  STRATA_UNROLL
  for (int i = 0; i < IPT; ++i)
  {
    preds[i] = tile_successor;
  }
  make().FlagHeads(h, keys, preds, op);
  store(heads_preds, 0, h);
  store_preds(0, preds);
  __syncthreads();
  make().FlagHeads(h, keys, preds, op, tile_predecessor);
  store(heads_preds_pred, 0, h);
  store_preds(1, preds);
  __syncthreads();

  make().FlagTails(t, keys, op);
  store(tails, 1, t);
  __syncthreads();
  make().FlagTails(t, keys, op, tile_successor);
  store(tails_succ, 1, t);
  __syncthreads();

  make().FlagHeadsAndTails(h, t, keys, op);
  store(heads_tails, 0, h);
  store(heads_tails, 1, t);
  __syncthreads();
  make().FlagHeadsAndTails(h, t, tile_successor, keys, op);
  store(heads_tails_succ, 0, h);
  store(heads_tails_succ, 1, t);
  __syncthreads();
  make().FlagHeadsAndTails(h, tile_predecessor, t, keys, op);
  store(heads_pred_tails, 0, h);
  store(heads_pred_tails, 1, t);
  __syncthreads();
  make().FlagHeadsAndTails(h, tile_predecessor, t, tile_successor, keys, op);
  store(heads_pred_tails_succ, 0, h);
  store(heads_pred_tails_succ, 1, t);
  __syncthreads();

  const not_equal_op plain;
  make().FlagHeads(h, keys, plain);
  store(plain_heads, 0, h);
  __syncthreads();
  make().FlagTails(t, keys, plain);
  store(plain_tails, 1, t);
  __syncthreads();
  make().FlagHeadsAndTails(h, tile_predecessor, t, tile_successor, keys, plain);
  store(plain_heads_pred_tails_succ, 0, h);
  store(plain_heads_pred_tails_succ, 1, t);
}

// Keys in runs of mostly 1..3 equal values drawn from a small random pool; every tile's predecessor and successor
// equal the tile's first / last key half of the time.
template <typename T>
struct discontinuity_input
{
  std::vector<T> keys;
  std::vector<T> tile_predecessors;
  std::vector<T> tile_successors;
};

template <typename T>
discontinuity_input<T> make_input(int tiles, int tile, std::uint64_t salt)
{
  const std::vector<T> pool = strata_test::random_vector<T>(64, salt);
  std::mt19937_64 rng       = strata_test::make_rng(salt + 1);
  std::uniform_int_distribution<int> pick(0, static_cast<int>(pool.size()) - 1);
  std::uniform_int_distribution<int> coin(0, 1);

  discontinuity_input<T> in;
  in.keys.resize(static_cast<std::size_t>(tiles) * tile);
  for (std::size_t i = 0; i < in.keys.size(); ++i)
  {
    in.keys[i] = (i > 0 && coin(rng)) ? in.keys[i - 1] : pool[pick(rng)];
  }
  for (int b = 0; b < tiles; ++b)
  {
    const std::size_t first = static_cast<std::size_t>(b) * tile;
    in.tile_predecessors.push_back(coin(rng) ? in.keys[first] : pool[pick(rng)]);
    in.tile_successors.push_back(coin(rng) ? in.keys[first + tile - 1] : pool[pick(rng)]);
  }
  return in;
}

// The host reference: the flags and predecessors every variant must produce.
template <typename T>
void reference(const discontinuity_input<T>& in, int tiles, int tile, std::vector<int>& flags, std::vector<T>& preds)
{
  const std::size_t n = in.keys.size();
  flags.assign(num_planes * n, 0);
  preds.assign(2 * n, T{});
  const indexed_not_equal_op indexed;
  const not_equal_op plain;
  for (int b = 0; b < tiles; ++b)
  {
    const std::size_t base = static_cast<std::size_t>(b) * tile;
    const T* k             = in.keys.data() + base;
    const T pred           = in.tile_predecessors[b];
    const T succ           = in.tile_successors[b];
    for (int i = 0; i < tile; ++i)
    {
      auto plane = [&](int v, int which) -> int& {
        return flags[(2 * v + which) * n + base + i];
      };
      const bool first = i == 0;
      const bool last  = i == tile - 1;

      const int head_flagged   = first ? 1 : indexed(k[i - 1], k[i], i);
      const int head_with_pred = first ? indexed(pred, k[i], i) : head_flagged;
      const int tail_flagged   = last ? 1 : indexed(k[i], k[i + 1], i + 1);
      const int tail_with_succ = last ? indexed(k[i], succ, i + 1) : tail_flagged;

      for (int v : {heads, heads_preds, heads_tails, heads_tails_succ})
      {
        plane(v, 0) = head_flagged;
      }
      for (int v : {heads_pred, heads_preds_pred, heads_pred_tails, heads_pred_tails_succ})
      {
        plane(v, 0) = head_with_pred;
      }
      for (int v : {tails, heads_tails, heads_pred_tails})
      {
        plane(v, 1) = tail_flagged;
      }
      for (int v : {tails_succ, heads_tails_succ, heads_pred_tails_succ})
      {
        plane(v, 1) = tail_with_succ;
      }
      plane(plain_heads, 0)                 = first ? 1 : plain(k[i - 1], k[i]);
      plane(plain_tails, 1)                 = last ? 1 : plain(k[i], k[i + 1]);
      plane(plain_heads_pred_tails_succ, 0) = first ? plain(pred, k[i]) : plain(k[i - 1], k[i]);
      plane(plain_heads_pred_tails_succ, 1) = last ? plain(k[i], succ) : plain(k[i], k[i + 1]);

      // Without a tile predecessor, thread 0's preds[0] keeps the value the kernel seeded it with.
      preds[base + i]     = first ? succ : k[i - 1];
      preds[n + base + i] = first ? pred : k[i - 1];
    }
  }
}

template <typename T, int BX, int BY = 1, int BZ = 1, int IPT = 1, typename FlagT = int, bool PRIVATE_STORAGE = false>
void check_discontinuity(std::uint64_t salt)
{
  constexpr int TILE  = BX * BY * BZ * IPT;
  constexpr int TILES = 3;
  CAPTURE(BX, BY, BZ, IPT, PRIVATE_STORAGE);

  const discontinuity_input<T> in = make_input<T>(TILES, TILE, salt);
  strata_test::device_buffer<T> d_keys(in.keys);
  strata_test::device_buffer<T> d_tile_predecessors(in.tile_predecessors);
  strata_test::device_buffer<T> d_tile_successors(in.tile_successors);
  strata_test::device_buffer<int> d_flags(num_planes * in.keys.size());
  strata_test::device_buffer<T> d_preds(2 * in.keys.size());

  std::vector<int> expected_flags;
  std::vector<T> expected_preds;
  reference(in, TILES, TILE, expected_flags, expected_preds);
  // The planes that no call writes (tails of the FlagHeads calls, heads of the FlagTails calls) stay poisoned.
  std::vector<int> flags = d_flags.download();
  auto keep_poisoned     = [&](int plane) {
    const std::size_t first = plane * in.keys.size();
    std::copy_n(flags.begin() + first, in.keys.size(), expected_flags.begin() + first);
  };
  for (int v : {heads, heads_pred, heads_preds, heads_preds_pred, plain_heads})
  {
    keep_poisoned(2 * v + 1);
  }
  for (int v : {tails, tails_succ, plain_tails})
  {
    keep_poisoned(2 * v);
  }

  discontinuity_kernel<T, BX, BY, BZ, IPT, FlagT, PRIVATE_STORAGE>
    <<<TILES, dim3(BX, BY, BZ)>>>(d_keys.data(), d_tile_predecessors.data(), d_tile_successors.data(), d_flags.data(),
                                  d_preds.data());
  STRATA_TEST_SYNC();

  flags = d_flags.download();
  for (int v = 0; v < num_variants; ++v)
  {
    for (int which = 0; which < 2; ++which)
    {
      CAPTURE(v, which);
      const auto first = static_cast<std::ptrdiff_t>((2 * v + which) * in.keys.size());
      const std::vector<int> actual(flags.begin() + first, flags.begin() + first + in.keys.size());
      const std::vector<int> expected(expected_flags.begin() + first, expected_flags.begin() + first + in.keys.size());
      STRATA_REQUIRE_EQUAL_VECTORS(actual, expected);
    }
  }
  STRATA_REQUIRE_EQUAL_VECTORS(d_preds.download(), expected_preds);
}
} // namespace

TEMPLATE_TEST_CASE("BlockDiscontinuity every overload, every value type (128 threads x 4 items)",
                   "[block][discontinuity]", STRATA_TEST_ALL_TYPES)
{
  check_discontinuity<TestType, 128, 1, 1, 4>(11);
}

TEMPLATE_TEST_CASE("BlockDiscontinuity block shapes and items per thread", "[block][discontinuity]", std::int32_t,
                   std::uint8_t)
{
  SECTION("32 threads x 1 item")
  {
    check_discontinuity<TestType, 32, 1, 1, 1>(21);
  }
  SECTION("64 threads x 3 items, bool flags")
  {
    check_discontinuity<TestType, 64, 1, 1, 3, bool>(22);
  }
  SECTION("96 threads x 7 items")
  {
    check_discontinuity<TestType, 96, 1, 1, 7>(23);
  }
  SECTION("100 threads x 16 items")
  {
    check_discontinuity<TestType, 100, 1, 1, 16>(24);
  }
  SECTION("256 threads x 3 items, private storage")
  {
    check_discontinuity<TestType, 256, 1, 1, 3, int, true>(25);
  }
  SECTION("1024 threads x 7 items")
  {
    check_discontinuity<TestType, 1024, 1, 1, 7>(26);
  }
  SECTION("16x8 threads x 4 items")
  {
    check_discontinuity<TestType, 16, 8, 1, 4>(27);
  }
  SECTION("8x4x4 threads x 16 items, private storage")
  {
    check_discontinuity<TestType, 8, 4, 4, 16, unsigned char, true>(28);
  }
}
