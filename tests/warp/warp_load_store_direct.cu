// The direct load/store free functions of util/load_store_direct.cuh at block scope (BlockLoad and BlockStore build
// on them): blocked, blocked vectorized, striped and warp-striped, full and guarded, with and without an
// out-of-bounds default, on aligned and misaligned pointers.
#include <strata/util/load_store_direct.cuh>

#include "test_util.cuh"

#include <cstdint>
#include <cstring>
#include <vector>

namespace
{

constexpr int BLOCK_THREADS = 64; // two warps, so warp-striped differs from striped
constexpr int GRID_BLOCKS   = 2;

enum class arrangement : int
{
  blocked,
  blocked_vectorized,
  striped,
  warp_striped
};
enum class guard : int
{
  none,
  valid_items,
  valid_items_default
};

const char* arrangement_name(arrangement a)
{
  return a == arrangement::blocked            ? "LoadDirectBlocked/StoreDirectBlocked"
       : a == arrangement::blocked_vectorized ? "LoadDirectBlockedVectorized/StoreDirectBlockedVectorized"
       : a == arrangement::striped            ? "LoadDirectStriped/StoreDirectStriped"
                                              : "LoadDirectWarpStriped/StoreDirectWarpStriped";
}

// Segment position of item i of thread t.
int position(arrangement a, int t, int i, int items)
{
  switch (a)
  {
    case arrangement::striped:
      return t + i * BLOCK_THREADS;
    case arrangement::warp_striped:
      return (t / 32) * 32 * items + t % 32 + 32 * i;
    default:
      return t * items + i;
  }
}

// Loads the block's segment into registers (starting from `sentinel`), dumps them, then stores them back.
template <typename T, int I>
__global__ void direct_kernel(const T* d_in, T* d_loaded, T* d_out, arrangement a, guard g, int load_valid,
                              int store_valid, T sentinel, T oob)
{
  const int tid    = static_cast<int>(threadIdx.x);
  const int offset = static_cast<int>(blockIdx.x) * BLOCK_THREADS * I;
  const T* in      = d_in + offset;
  T* out           = d_out + offset;
  T items[I];
  for (int i = 0; i < I; ++i)
  {
    items[i] = sentinel;
  }
  switch (a)
  {
    case arrangement::blocked:
    case arrangement::blocked_vectorized:
      if (g == guard::none)
      {
        if (a == arrangement::blocked)
        {
          strata::LoadDirectBlocked(tid, in, items);
        }
        else
        {
          strata::LoadDirectBlockedVectorized(tid, in, items);
        }
      }
      else if (g == guard::valid_items)
      {
        strata::LoadDirectBlocked(tid, in, items, load_valid);
      }
      else
      {
        strata::LoadDirectBlocked(tid, in, items, load_valid, oob);
      }
      break;
    case arrangement::striped:
      if (g == guard::none)
      {
        strata::LoadDirectStriped<BLOCK_THREADS>(tid, in, items);
      }
      else if (g == guard::valid_items)
      {
        strata::LoadDirectStriped<BLOCK_THREADS>(tid, in, items, load_valid);
      }
      else
      {
        strata::LoadDirectStriped<BLOCK_THREADS>(tid, in, items, load_valid, oob);
      }
      break;
    case arrangement::warp_striped:
      if (g == guard::none)
      {
        strata::LoadDirectWarpStriped(tid, in, items);
      }
      else if (g == guard::valid_items)
      {
        strata::LoadDirectWarpStriped(tid, in, items, load_valid);
      }
      else
      {
        strata::LoadDirectWarpStriped(tid, in, items, load_valid, oob);
      }
      break;
  }
  for (int i = 0; i < I; ++i)
  {
    d_loaded[(blockIdx.x * BLOCK_THREADS + tid) * I + i] = items[i];
  }
  switch (a)
  {
    case arrangement::blocked:
      if (g == guard::none)
      {
        strata::StoreDirectBlocked(tid, out, items);
      }
      else
      {
        strata::StoreDirectBlocked(tid, out, items, store_valid);
      }
      break;
    case arrangement::blocked_vectorized:
      strata::StoreDirectBlockedVectorized(tid, out, items);
      break;
    case arrangement::striped:
      if (g == guard::none)
      {
        strata::StoreDirectStriped<BLOCK_THREADS>(tid, out, items);
      }
      else
      {
        strata::StoreDirectStriped<BLOCK_THREADS>(tid, out, items, store_valid);
      }
      break;
    case arrangement::warp_striped:
      if (g == guard::none)
      {
        strata::StoreDirectWarpStriped(tid, out, items);
      }
      else
      {
        strata::StoreDirectWarpStriped(tid, out, items, store_valid);
      }
      break;
  }
}

template <typename T>
T poison_value()
{
  T v;
  std::memset(static_cast<void*>(&v), strata_test::poison_byte, sizeof(T));
  return v;
}

template <typename T, int I>
void run_direct(arrangement a, guard g, int offset, int load_valid, int store_valid, std::uint64_t salt)
{
  constexpr int TILE = BLOCK_THREADS * I;
  constexpr int N    = GRID_BLOCKS * TILE;
  INFO(arrangement_name(a) << ", ITEMS_PER_THREAD " << I << ", guard " << static_cast<int>(g) << ", pointer offset "
                           << offset << ", load valid_items " << load_valid << ", store valid_items " << store_valid);
  const std::vector<T> in_alloc = strata_test::random_vector<T>(N + 1, salt);
  std::vector<T> sd             = strata_test::random_vector<T>(2, salt + 1);
  for (std::uint64_t s = salt + 2; sd[0] == sd[1]; ++s)
  {
    sd = strata_test::random_vector<T>(2, s);
  }
  // The vectorized store has no guarded form: it stores everything.
  const bool guarded_store = g != guard::none && a != arrangement::blocked_vectorized;

  std::vector<T> expected_loaded(N);
  std::vector<T> expected_out(N + 1, poison_value<T>());
  for (int b = 0; b < GRID_BLOCKS; ++b)
  {
    for (int t = 0; t < BLOCK_THREADS; ++t)
    {
      for (int i = 0; i < I; ++i)
      {
        const int p = position(a, t, i, I);
        T value     = in_alloc[offset + b * TILE + p];
        if (g != guard::none && p >= load_valid)
        {
          value = g == guard::valid_items_default ? sd[1] : sd[0];
        }
        expected_loaded[(b * BLOCK_THREADS + t) * I + i] = value;
        if (!guarded_store || p < store_valid)
        {
          expected_out[offset + b * TILE + p] = value;
        }
      }
    }
  }

  strata_test::device_buffer<T> d_in(in_alloc);
  strata_test::device_buffer<T> d_loaded(N);
  strata_test::device_buffer<T> d_out(N + 1);
  direct_kernel<T, I><<<GRID_BLOCKS, BLOCK_THREADS>>>(d_in.data() + offset, d_loaded.data(), d_out.data() + offset, a,
                                                      g, load_valid, store_valid, sd[0], sd[1]);
  STRATA_TEST_SYNC();
  {
    INFO("registers after the load");
    STRATA_REQUIRE_EQUAL_VECTORS(d_loaded.download(), expected_loaded);
  }
  {
    INFO("memory after the store");
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected_out);
  }
}

template <typename T, int I>
void check_direct(std::uint64_t salt)
{
  constexpr int TILE = BLOCK_THREADS * I;
  for (arrangement a :
       {arrangement::blocked, arrangement::blocked_vectorized, arrangement::striped, arrangement::warp_striped})
  {
    for (int offset : {0, 1})
    {
      run_direct<T, I>(a, guard::none, offset, TILE, TILE, salt++);
    }
    if (a == arrangement::blocked_vectorized)
    {
      continue;
    }
    const int counts[] = {0, 1, 31, 33, TILE / 2 + 3, TILE - 1, TILE, TILE + 9};
    for (int k = 0; k < 8; ++k)
    {
      const int store_valid = counts[(k + 3) % 8] > TILE ? TILE : counts[(k + 3) % 8];
      run_direct<T, I>(a, k % 2 ? guard::valid_items : guard::valid_items_default, k % 2, counts[k], store_valid,
                       salt++);
    }
  }
}

} // namespace

TEMPLATE_TEST_CASE("Direct block-scope loads and stores, 4 and 3 items per thread", "[util][load_store_direct]",
                   std::int8_t, std::int16_t, std::int32_t, double, strata_test::custom_t)
{
  check_direct<TestType, 4>(0x5d00);
  check_direct<TestType, 3>(0x5d40);
}

TEST_CASE("Direct vectorized loads and stores: widths from 2 to 16 bytes per vector", "[util][load_store_direct]")
{
  check_direct<std::int8_t, 2>(0x5d80);   // 2-byte vectors
  check_direct<std::int16_t, 2>(0x5d90);  // 4-byte vectors
  check_direct<std::int32_t, 6>(0x5da0);  // 8-byte vectors
  check_direct<std::uint8_t, 16>(0x5db0); // 16-byte vectors
  check_direct<std::uint64_t, 2>(0x5dc0); // 16-byte vectors of two 8-byte items
  check_direct<float, 1>(0x5dd0);         // one item: element accesses
}
