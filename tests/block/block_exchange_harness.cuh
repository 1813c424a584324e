// Shared by the tests/block/block_exchange*.cu files: one kernel that runs every BlockExchange method, out of place
// and in place, on each block of the grid (one tile per block), and the host check that derives the expected
// register contents from the definitions of the arrangements (not from the code under test).
//
// Thread t (row-major rank) reads in[tile * TILE + t * I + i] as its item i and writes each method's result back
// the same way to its own output plane. The host knows which tile position thread t's item i stands for in each
// arrangement (blocked_pos, striped_pos, warp_striped_pos below), so a method from arrangement A to arrangement B
// must leave in (t, i) the input item that stood for position B(t, i) under A.
// TempStorage larger than static shared memory allows (48 KiB) is given to the kernel as dynamic shared memory
// (shared_storage.cuh).
#pragma once

#include <strata/block/block_exchange.cuh>

#include "shared_storage.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace block_exchange_test
{

enum op : int
{
  striped_to_blocked,
  blocked_to_striped,
  warp_striped_to_blocked,
  blocked_to_warp_striped,
  scatter_to_blocked,
  scatter_to_striped,
  scatter_to_striped_guarded,
  scatter_to_striped_flagged,
  num_ops
};

inline const char* op_name(int o)
{
  switch (o)
  {
    case striped_to_blocked:
      return "StripedToBlocked";
    case blocked_to_striped:
      return "BlockedToStriped";
    case warp_striped_to_blocked:
      return "WarpStripedToBlocked";
    case blocked_to_warp_striped:
      return "BlockedToWarpStriped";
    case scatter_to_blocked:
      return "ScatterToBlocked";
    case scatter_to_striped:
      return "ScatterToStriped";
    case scatter_to_striped_guarded:
      return "ScatterToStripedGuarded";
    case scatter_to_striped_flagged:
      return "ScatterToStripedFlagged";
  }
  return "?";
}

// Output plane of a method: out of place (in, out) and in place (items).
__host__ __device__ constexpr int plane_of(int o, bool in_place)
{
  return 2 * o + (in_place ? 1 : 0);
}
constexpr int num_planes = 2 * num_ops;

// Tile positions of thread t's item i, for a block of `threads` threads and `ipt` items per thread.
inline int blocked_pos(int t, int i, int /*threads*/, int ipt)
{
  return t * ipt + i;
}
inline int striped_pos(int t, int i, int threads, int /*ipt*/)
{
  return i * threads + t;
}
// Warp w owns [w * 32 * ipt, ...), striped over its n lanes (n = 32, or fewer in a last, partial warp).
inline int warp_striped_pos(int t, int i, int threads, int ipt)
{
  const int w = t / 32;
  const int l = t % 32;
  const int n = std::min(32, threads - 32 * w);
  return w * 32 * ipt + i * n + l;
}

// Shared memory is declared only when the test uses it, so the private-storage runs measure that allocation alone.
struct no_storage
{};

template <typename T, int BX, int BY, int BZ, int I, bool TIME_SLICING, bool PRIVATE_STORAGE>
using storage_t = std::conditional_t<PRIVATE_STORAGE, no_storage,
                                     typename strata::BlockExchange<T, BX, I, TIME_SLICING, BY, BZ>::TempStorage>;

template <typename T, int BX, int BY, int BZ, int I, bool TIME_SLICING, bool PRIVATE_STORAGE>
__global__ void __launch_bounds__(BX * BY * BZ)
  exchange_kernel(const T* d_in, const int* d_ranks, const int* d_guarded_ranks, const unsigned char* d_flags, T* d_out)
{
  using BlockExchangeT = strata::BlockExchange<T, BX, I, TIME_SLICING, BY, BZ>;
  constexpr int TILE   = BX * BY * BZ * I;
  using StorageT       = storage_t<T, BX, BY, BZ, I, TIME_SLICING, PRIVATE_STORAGE>;
  auto& temp_storage   = strata_test::block_shared_storage<StorageT>();

  const int t                = static_cast<int>(threadIdx.x + BX * (threadIdx.y + BY * threadIdx.z));
  const std::size_t tile     = blockIdx.x;
  const std::size_t own_base = tile * TILE + static_cast<std::size_t>(t) * I;

  T items[I];
  int ranks[I];
  int guarded_ranks[I];
  bool flags[I];
  for (int i = 0; i < I; ++i)
  {
    items[i]         = d_in[own_base + i];
    ranks[i]         = d_ranks[own_base + i];
    guarded_ranks[i] = d_guarded_ranks[own_base + i];
    flags[i]         = d_flags[own_base + i] != 0;
  }

  auto make = [&]() {
    if constexpr (PRIVATE_STORAGE)
    {
      return BlockExchangeT();
    }
    else
    {
      return BlockExchangeT(temp_storage);
    }
  };
  auto dump = [&](int plane, const T(&result)[I]) {
    for (int i = 0; i < I; ++i)
    {
      d_out[(static_cast<std::size_t>(plane) * gridDim.x) * TILE + own_base + i] = result[i];
    }
  };
  // Runs `method(exchange, in, out)` out of place, then on a copy of the items in place.
  auto run = [&](int o, auto method, auto method_in_place) {
    T out[I];
    method(make(), out);
    dump(plane_of(o, false), out);
    __syncthreads();
    T same[I];
    for (int i = 0; i < I; ++i)
    {
      same[i] = items[i];
    }
    method_in_place(make(), same);
    dump(plane_of(o, true), same);
    __syncthreads();
  };

  run(
    striped_to_blocked,
    [&](BlockExchangeT e, T(&out)[I]) {
      e.StripedToBlocked(items, out);
    },
    [&](BlockExchangeT e, T(&same)[I]) {
      e.StripedToBlocked(same);
    });
  run(
    blocked_to_striped,
    [&](BlockExchangeT e, T(&out)[I]) {
      e.BlockedToStriped(items, out);
    },
    [&](BlockExchangeT e, T(&same)[I]) {
      e.BlockedToStriped(same);
    });
  run(
    warp_striped_to_blocked,
    [&](BlockExchangeT e, T(&out)[I]) {
      e.WarpStripedToBlocked(items, out);
    },
    [&](BlockExchangeT e, T(&same)[I]) {
      e.WarpStripedToBlocked(same);
    });
  run(
    blocked_to_warp_striped,
    [&](BlockExchangeT e, T(&out)[I]) {
      e.BlockedToWarpStriped(items, out);
    },
    [&](BlockExchangeT e, T(&same)[I]) {
      e.BlockedToWarpStriped(same);
    });
  run(
    scatter_to_blocked,
    [&](BlockExchangeT e, T(&out)[I]) {
      e.ScatterToBlocked(items, out, ranks);
    },
    [&](BlockExchangeT e, T(&same)[I]) {
      e.ScatterToBlocked(same, ranks);
    });
  run(
    scatter_to_striped,
    [&](BlockExchangeT e, T(&out)[I]) {
      e.ScatterToStriped(items, out, ranks);
    },
    [&](BlockExchangeT e, T(&same)[I]) {
      e.ScatterToStriped(same, ranks);
    });
  run(
    scatter_to_striped_guarded,
    [&](BlockExchangeT e, T(&out)[I]) {
      e.ScatterToStripedGuarded(items, out, guarded_ranks);
    },
    [&](BlockExchangeT e, T(&same)[I]) {
      e.ScatterToStripedGuarded(same, guarded_ranks);
    });
  run(
    scatter_to_striped_flagged,
    [&](BlockExchangeT e, T(&out)[I]) {
      e.ScatterToStripedFlagged(items, out, ranks, flags);
    },
    [&](BlockExchangeT e, T(&same)[I]) {
      e.ScatterToStripedFlagged(same, ranks, flags);
    });
}

// Runs every method on `tiles` tiles of random items with random ranks and flags, and checks every output plane.
// The private-storage constructor has only static shared memory; otherwise storage beyond it is dynamic.
template <typename T, int BX, int BY = 1, int BZ = 1, int I = 1, bool TIME_SLICING = false,
          bool PRIVATE_STORAGE = false>
void check_exchange(std::uint64_t salt, int tiles = 3)
{
  using BlockExchangeT  = strata::BlockExchange<T, BX, I, TIME_SLICING, BY, BZ>;
  constexpr int THREADS = BX * BY * BZ;
  constexpr int TILE    = THREADS * I;
  static_assert(!PRIVATE_STORAGE || !strata_test::needs_dynamic_shared_v<typename BlockExchangeT::TempStorage>,
                "the private-storage constructor's TempStorage must fit static shared memory");
  CAPTURE(BX, BY, BZ, I, TIME_SLICING, PRIVATE_STORAGE, sizeof(T));
  const std::size_t n     = static_cast<std::size_t>(tiles) * TILE;
  const std::vector<T> in = strata_test::random_vector<T>(n, salt);

  // Per tile: a random permutation of its positions; the guarded ranks drop about a quarter of the items
  // (rank -1), the flags another random quarter.
  std::vector<int> ranks(n);
  std::vector<int> guarded_ranks(n);
  std::vector<unsigned char> flags(n);
  std::mt19937_64 rng = strata_test::make_rng(salt ^ 0xe8c4a11ULL);
  for (int tile = 0; tile < tiles; ++tile)
  {
    const auto first = ranks.begin() + static_cast<std::ptrdiff_t>(tile) * TILE;
    std::iota(first, first + TILE, 0);
    std::shuffle(first, first + TILE, rng);
  }
  for (std::size_t k = 0; k < n; ++k)
  {
    guarded_ranks[k] = (rng() % 4 == 0) ? -1 : ranks[k];
    flags[k]         = (rng() % 4 == 0) ? 0 : 1;
  }

  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<int> d_ranks(ranks);
  strata_test::device_buffer<int> d_guarded_ranks(guarded_ranks);
  strata_test::device_buffer<unsigned char> d_flags(flags);
  strata_test::device_buffer<T> d_out(static_cast<std::size_t>(num_planes) * n);

  strata_test::launch_with_shared_storage<storage_t<T, BX, BY, BZ, I, TIME_SLICING, PRIVATE_STORAGE>>(
    exchange_kernel<T, BX, BY, BZ, I, TIME_SLICING, PRIVATE_STORAGE>, tiles, dim3(BX, BY, BZ), d_in.data(),
    d_ranks.data(), d_guarded_ranks.data(), d_flags.data(), d_out.data());
  STRATA_TEST_SYNC();
  const std::vector<T> out = d_out.download();

  for (int o = 0; o < num_ops; ++o)
  {
    for (int tile = 0; tile < tiles; ++tile)
    {
      const std::size_t base = static_cast<std::size_t>(tile) * TILE;
      // The tile as the input arrangement defines it; unwritten positions stay unset.
      std::vector<T> positions(TILE);
      std::vector<bool> is_set(TILE, false);
      auto place = [&](int pos, const T& v) {
        positions[pos] = v;
        is_set[pos]    = true;
      };
      for (int t = 0; t < THREADS; ++t)
      {
        for (int i = 0; i < I; ++i)
        {
          const std::size_t k = base + static_cast<std::size_t>(t) * I + i;
          switch (o)
          {
            case striped_to_blocked:
              place(striped_pos(t, i, THREADS, I), in[k]);
              break;
            case blocked_to_striped:
              place(blocked_pos(t, i, THREADS, I), in[k]);
              break;
            case warp_striped_to_blocked:
              place(warp_striped_pos(t, i, THREADS, I), in[k]);
              break;
            case blocked_to_warp_striped:
              place(blocked_pos(t, i, THREADS, I), in[k]);
              break;
            case scatter_to_blocked:
            case scatter_to_striped:
              place(ranks[k], in[k]);
              break;
            case scatter_to_striped_guarded:
              if (guarded_ranks[k] >= 0)
              {
                place(guarded_ranks[k], in[k]);
              }
              break;
            case scatter_to_striped_flagged:
              if (flags[k])
              {
                place(ranks[k], in[k]);
              }
              break;
          }
        }
      }
      // Read back in the output arrangement; positions nobody wrote are unspecified and not compared.
      for (bool in_place : {false, true})
      {
        const std::size_t plane_base = static_cast<std::size_t>(plane_of(o, in_place)) * n + base;
        std::vector<T> expected;
        std::vector<T> actual;
        for (int t = 0; t < THREADS; ++t)
        {
          for (int i = 0; i < I; ++i)
          {
            int pos = 0;
            switch (o)
            {
              case striped_to_blocked:
              case warp_striped_to_blocked:
              case scatter_to_blocked:
                pos = blocked_pos(t, i, THREADS, I);
                break;
              case blocked_to_warp_striped:
                pos = warp_striped_pos(t, i, THREADS, I);
                break;
              default:
                pos = striped_pos(t, i, THREADS, I);
                break;
            }
            if (is_set[pos])
            {
              expected.push_back(positions[pos]);
              actual.push_back(out[plane_base + static_cast<std::size_t>(t) * I + i]);
            }
          }
        }
        INFO(op_name(o) << (in_place ? " in place" : " out of place") << ", tile " << tile);
        STRATA_REQUIRE_EQUAL_VECTORS(actual, expected);
      }
    }
  }
}

} // namespace block_exchange_test

namespace block_exchange_test
{
// Every method for each listed items-per-thread count, without and with warp time slicing.
template <typename T, int BX, int BY, int BZ, int... ITEMS>
void check_shape(std::uint64_t salt)
{
  (check_exchange<T, BX, BY, BZ, ITEMS, false>(salt + ITEMS), ...);
  (check_exchange<T, BX, BY, BZ, ITEMS, true>(salt + 64 + ITEMS), ...);
}
} // namespace block_exchange_test
