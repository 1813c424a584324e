// Shared by the tests/block/block_load_store*.cu files: one kernel that runs every form of BlockLoad<ALGORITHM> and
// BlockStore<ALGORITHM> (the two enums pair up one to one) on one tile per block, and the host check.
//
// Loads write each thread's register array back thread-major (thread t's item i to t * I + i of its plane); the
// host maps (t, i) to the tile index the algorithm promises (blocked t * I + i; striped i * THREADS + t for
// BLOCK_LOAD_STRIPED). Stores receive items read plainly from the input in the arrangement the algorithm expects
// and must reproduce the input in memory.
//
// Partial tiles: tile b has its own valid_items (0, 1, I - 1, I + 1, a random value, the full tile, and the last tile
// tile - 1). The guarded forms read from and write to buffers that end exactly at the last tile's valid_items, so
// compute-sanitizer's memcheck catches any access past it; the guarded stores must leave everything past
// valid_items poisoned and the guarded loads must give oob_default there.
// Pointers: every algorithm runs on aligned pointers; BLOCK_*_VECTORIZE and BLOCK_*_DIRECT (which move full tiles
// of pointers as vectors where aligned), BLOCK_*_TRANSPOSE and BLOCK_*_WARP_TRANSPOSE (whose loads put the tile's
// L2 lines back to normal priority, line by line) also on pointers 1, 2 and 3 items past the allocation's
// alignment, and every algorithm through a plain iterator type (no pointer: no vector accesses).
// Shared memory: TempStorage larger than static shared memory allows (48 KiB) is given to the kernel as dynamic
// shared memory (shared_storage.cuh), so every case of a sweep runs.
#pragma once

#include <strata/block/block_load.cuh>
#include <strata/block/block_store.cuh>

#include "shared_storage.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <vector>

namespace block_load_store_test
{

// A random-access iterator that is not a pointer: BlockLoad and BlockStore must take their element-wise paths.
template <typename T>
struct wrapped_iterator
{
  using value_type        = T;
  using difference_type   = std::ptrdiff_t;
  using pointer           = T*;
  using reference         = T&;
  using iterator_category = std::random_access_iterator_tag;

  T* ptr;

  __host__ __device__ T& operator[](difference_type n) const
  {
    return ptr[n];
  }
  __host__ __device__ T& operator*() const
  {
    return *ptr;
  }
  __host__ __device__ wrapped_iterator operator+(difference_type n) const
  {
    return wrapped_iterator{ptr + n};
  }
};

// Output planes of the loads.
enum load_plane : int
{
  load_full,                     // Load<MODIFIER>(ptr, items)
  load_guarded_default,          // Load(ptr, items, valid_items, oob_default)
  load_guarded,                  // Load(ptr, items, valid_items)
  load_iterator,                 // Load(wrapped_iterator, items)
  load_iterator_guarded_default, // Load(wrapped_iterator, items, valid_items, oob_default)
  num_load_planes
};

inline const char* load_plane_name(int p)
{
  switch (p)
  {
    case load_full:
      return "Load(ptr, items)";
    case load_guarded_default:
      return "Load(ptr, items, valid_items, oob_default)";
    case load_guarded:
      return "Load(ptr, items, valid_items)";
    case load_iterator:
      return "Load(iterator, items)";
    case load_iterator_guarded_default:
      return "Load(iterator, items, valid_items, oob_default)";
  }
  return "?";
}

__host__ __device__ constexpr bool is_striped(strata::BlockLoadAlgorithm a)
{
  return a == strata::BLOCK_LOAD_STRIPED;
}
__host__ __device__ constexpr bool needs_whole_warps(strata::BlockLoadAlgorithm a)
{
  return a == strata::BLOCK_LOAD_WARP_TRANSPOSE || a == strata::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED;
}

// Store algorithm paired with a load algorithm: the enums list the same algorithms in the same order.
template <strata::BlockLoadAlgorithm A>
constexpr strata::BlockStoreAlgorithm store_algorithm_v = static_cast<strata::BlockStoreAlgorithm>(static_cast<int>(A));

struct no_storage
{};

struct kernel_args_base
{
  const int* valid_items;
  int dump_items; // tiles * TILE, the size of one load plane
};

template <typename T>
struct kernel_args : kernel_args_base
{
  const T* in_full;    // every tile complete
  const T* in_partial; // ends at the last tile's valid_items
  T oob_default;
  T* loaded;                  // num_load_planes register dumps
  T* stored_full;             // Store(ptr, items)
  T* stored_partial;          // Store(ptr, items, valid_items); ends at the last tile's valid_items
  T* stored_iterator;         // Store(wrapped_iterator, items)
  T* stored_iterator_partial; // Store(wrapped_iterator, items, valid_items); full size
};

// The kernel's shared memory: the TempStorage of both collectives (never live at the same time), or none where the
// collectives use their private storage.
template <typename T, int BX, int BY, int BZ, int I, strata::BlockLoadAlgorithm ALGORITHM>
union load_store_storage
{
  typename strata::BlockLoad<T, BX, I, ALGORITHM, BY, BZ>::TempStorage load;
  typename strata::BlockStore<T, BX, I, store_algorithm_v<ALGORITHM>, BY, BZ>::TempStorage store;
};
template <typename T, int BX, int BY, int BZ, int I, strata::BlockLoadAlgorithm ALGORITHM, bool PRIVATE_STORAGE>
using storage_t = std::conditional_t<PRIVATE_STORAGE, no_storage, load_store_storage<T, BX, BY, BZ, I, ALGORITHM>>;

template <typename T, int BX, int BY, int BZ, int I, strata::BlockLoadAlgorithm ALGORITHM, bool PRIVATE_STORAGE,
          strata::CacheLoadModifier MODIFIER>
__global__ void __launch_bounds__(BX * BY * BZ) load_store_kernel(kernel_args<T> args)
{
  constexpr int THREADS = BX * BY * BZ;
  constexpr int TILE    = THREADS * I;
  using BlockLoadT      = strata::BlockLoad<T, BX, I, ALGORITHM, BY, BZ>;
  using BlockStoreT     = strata::BlockStore<T, BX, I, store_algorithm_v<ALGORITHM>, BY, BZ>;
  using StorageT        = storage_t<T, BX, BY, BZ, I, ALGORITHM, PRIVATE_STORAGE>;
  auto& temp_storage    = strata_test::block_shared_storage<StorageT>();

  auto make_load = [&]() {
    if constexpr (PRIVATE_STORAGE)
    {
      return BlockLoadT();
    }
    else
    {
      return BlockLoadT(temp_storage.load);
    }
  };
  auto make_store = [&]() {
    if constexpr (PRIVATE_STORAGE)
    {
      return BlockStoreT();
    }
    else
    {
      return BlockStoreT(temp_storage.store);
    }
  };

  const int t           = static_cast<int>(threadIdx.x + BX * (threadIdx.y + BY * threadIdx.z));
  const int tile_offset = static_cast<int>(blockIdx.x) * TILE;
  const int valid_items = args.valid_items[blockIdx.x];
  auto dump             = [&](int plane, const T(&items)[I]) {
    for (int i = 0; i < I; ++i)
    {
      args.loaded[plane * args.dump_items + tile_offset + t * I + i] = items[i];
    }
  };

  {
    T items[I];
    make_load().template Load<MODIFIER>(args.in_full + tile_offset, items);
    dump(load_full, items);
    __syncthreads();
    make_load().Load(args.in_partial + tile_offset, items, valid_items, args.oob_default);
    dump(load_guarded_default, items);
    __syncthreads();
    make_load().Load(args.in_partial + tile_offset, items, valid_items);
    dump(load_guarded, items);
    __syncthreads();
    const wrapped_iterator<T> it{const_cast<T*>(args.in_full) + tile_offset};
    make_load().Load(it, items);
    dump(load_iterator, items);
    __syncthreads();
    make_load().Load(it, items, valid_items, args.oob_default);
    dump(load_iterator_guarded_default, items);
    __syncthreads();
  }
  {
    // The arrangement the store algorithm takes, read plainly.
    T items[I];
    for (int i = 0; i < I; ++i)
    {
      items[i] = args.in_full[tile_offset + (is_striped(ALGORITHM) ? i * THREADS + t : t * I + i)];
    }
    make_store().Store(args.stored_full + tile_offset, items);
    __syncthreads();
    make_store().Store(args.stored_partial + tile_offset, items, valid_items);
    __syncthreads();
    make_store().Store(wrapped_iterator<T>{args.stored_iterator + tile_offset}, items);
    __syncthreads();
    make_store().Store(wrapped_iterator<T>{args.stored_iterator_partial + tile_offset}, items, valid_items);
  }
}

template <typename T>
T poison_value()
{
  T v;
  std::memset(static_cast<void*>(&v), strata_test::poison_byte, sizeof(T));
  return v;
}

// valid_items of each tile; the last one is a partial tile whose end is the end of the guarded buffers.
inline std::vector<int> valid_items_per_tile(int tile, int items_per_thread, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt ^ 0x7a11dULL);
  std::uniform_int_distribution<int> d(0, tile);
  std::vector<int> v = {0, 1, items_per_thread - 1, items_per_thread + 1, d(rng), tile, tile - 1};
  for (int& x : v)
  {
    x = std::min(std::max(x, 0), tile);
  }
  return v;
}

// Runs the kernel with the input `offset` items past an aligned allocation and checks every output.
template <typename T, int BX, int BY, int BZ, int I, strata::BlockLoadAlgorithm ALGORITHM, bool PRIVATE_STORAGE,
          strata::CacheLoadModifier MODIFIER>
void run_and_check(std::uint64_t salt, int offset)
{
  constexpr int THREADS = BX * BY * BZ;
  constexpr int TILE    = THREADS * I;
  CAPTURE(offset);

  const std::vector<int> valid = valid_items_per_tile(TILE, I, salt);
  const int tiles              = static_cast<int>(valid.size());
  const int n                  = tiles * TILE;
  const int partial_n          = (tiles - 1) * TILE + valid.back();
  const std::vector<T> in      = strata_test::random_vector<T>(n, salt);
  const T oob_default          = strata_test::random_vector<T>(1, salt + 1)[0];

  // Buffers with room for `offset` leading items; the data starts at `offset`.
  auto padded = [&](int size) {
    std::vector<T> v(offset + size, poison_value<T>());
    std::copy(in.begin(), in.begin() + size, v.begin() + offset);
    return v;
  };
  strata_test::device_buffer<T> d_in_full(padded(n));
  strata_test::device_buffer<T> d_in_partial(padded(partial_n));
  strata_test::device_buffer<int> d_valid(valid);
  strata_test::device_buffer<T> d_loaded(static_cast<std::size_t>(num_load_planes) * n);
  strata_test::device_buffer<T> d_stored_full(offset + n);
  strata_test::device_buffer<T> d_stored_partial(offset + partial_n);
  strata_test::device_buffer<T> d_stored_iterator(offset + n);
  strata_test::device_buffer<T> d_stored_iterator_partial(offset + n);

  kernel_args<T> args;
  args.valid_items             = d_valid.data();
  args.dump_items              = n;
  args.in_full                 = d_in_full.data() + offset;
  args.in_partial              = d_in_partial.data() + offset;
  args.oob_default             = oob_default;
  args.loaded                  = d_loaded.data();
  args.stored_full             = d_stored_full.data() + offset;
  args.stored_partial          = d_stored_partial.data() + offset;
  args.stored_iterator         = d_stored_iterator.data() + offset;
  args.stored_iterator_partial = d_stored_iterator_partial.data() + offset;
  strata_test::launch_with_shared_storage<storage_t<T, BX, BY, BZ, I, ALGORITHM, PRIVATE_STORAGE>>(
    load_store_kernel<T, BX, BY, BZ, I, ALGORITHM, PRIVATE_STORAGE, MODIFIER>, tiles, dim3(BX, BY, BZ), args);
  STRATA_TEST_SYNC();

  const T poison = poison_value<T>();

  // Loads: the tile index each (thread, item) stands for.
  const std::vector<T> loaded = d_loaded.download();
  for (int plane = 0; plane < num_load_planes; ++plane)
  {
    for (int tile = 0; tile < tiles; ++tile)
    {
      const bool full    = plane == load_full || plane == load_iterator;
      const int in_range = full ? TILE : valid[tile];
      std::vector<T> expected;
      std::vector<T> actual;
      for (int t = 0; t < THREADS; ++t)
      {
        for (int i = 0; i < I; ++i)
        {
          const int idx = is_striped(ALGORITHM) ? i * THREADS + t : t * I + i;
          const T got   = loaded[static_cast<std::size_t>(plane) * n + tile * TILE + t * I + i];
          if (idx < in_range)
          {
            expected.push_back(in[tile * TILE + idx]);
            actual.push_back(got);
          }
          else if (plane != load_guarded)
          {
            expected.push_back(oob_default);
            actual.push_back(got);
          }
        }
      }
      INFO(load_plane_name(plane) << ", tile " << tile << ", valid_items " << valid[tile]);
      STRATA_REQUIRE_EQUAL_VECTORS(actual, expected);
    }
  }

  // Stores: the input where written, poison everywhere else (the leading `offset` items included).
  auto check_store = [&](const strata_test::device_buffer<T>& buffer, bool guarded, const char* what) {
    const std::vector<T> got = buffer.download();
    std::vector<T> expected(got.size(), poison);
    for (int tile = 0; tile < tiles; ++tile)
    {
      const int written = guarded ? valid[tile] : TILE;
      for (int k = 0; k < written; ++k)
      {
        expected[offset + tile * TILE + k] = in[tile * TILE + k];
      }
    }
    INFO(what);
    STRATA_REQUIRE_EQUAL_VECTORS(got, expected);
  };
  check_store(d_stored_full, false, "Store(ptr, items)");
  check_store(d_stored_partial, true, "Store(ptr, items, valid_items)");
  check_store(d_stored_iterator, false, "Store(iterator, items)");
  check_store(d_stored_iterator_partial, true, "Store(iterator, items, valid_items)");
}

// Checks BlockLoad<ALGORITHM> and the matching BlockStore on one block shape. Storage larger than static shared
// memory is given to the kernel as dynamic shared memory; the private-storage constructors have only static.
template <typename T, int BX, int BY, int BZ, int I, strata::BlockLoadAlgorithm ALGORITHM, bool PRIVATE_STORAGE = false,
          strata::CacheLoadModifier MODIFIER = strata::LOAD_DEFAULT>
void check_load_store(std::uint64_t salt)
{
  static_assert(!needs_whole_warps(ALGORITHM) || (BX * BY * BZ) % 32 == 0, "the warp transposes need whole warps");
  static_assert(!PRIVATE_STORAGE
                  || !strata_test::needs_dynamic_shared_v<load_store_storage<T, BX, BY, BZ, I, ALGORITHM>>,
                "the private-storage constructors' TempStorage must fit static shared memory");
  CAPTURE(BX, BY, BZ, I, static_cast<int>(ALGORITHM), PRIVATE_STORAGE, static_cast<int>(MODIFIER), sizeof(T));
  run_and_check<T, BX, BY, BZ, I, ALGORITHM, PRIVATE_STORAGE, MODIFIER>(salt, 0);
  if constexpr (ALGORITHM == strata::BLOCK_LOAD_VECTORIZE || ALGORITHM == strata::BLOCK_LOAD_DIRECT
                || ALGORITHM == strata::BLOCK_LOAD_TRANSPOSE || ALGORITHM == strata::BLOCK_LOAD_WARP_TRANSPOSE)
  {
    for (int offset : {1, 2, 3})
    {
      run_and_check<T, BX, BY, BZ, I, ALGORITHM, PRIVATE_STORAGE, MODIFIER>(salt, offset);
    }
  }
}

// Every algorithm on one shape; the warp transposes only on blocks of whole warps (they support no others).
template <typename T, int BX, int BY, int BZ, int I, bool PRIVATE_STORAGE = false,
          strata::CacheLoadModifier MODIFIER = strata::LOAD_DEFAULT>
void check_every_algorithm(std::uint64_t salt)
{
  check_load_store<T, BX, BY, BZ, I, strata::BLOCK_LOAD_DIRECT, PRIVATE_STORAGE, MODIFIER>(salt);
  check_load_store<T, BX, BY, BZ, I, strata::BLOCK_LOAD_STRIPED, PRIVATE_STORAGE, MODIFIER>(salt + 1);
  check_load_store<T, BX, BY, BZ, I, strata::BLOCK_LOAD_VECTORIZE, PRIVATE_STORAGE, MODIFIER>(salt + 2);
  check_load_store<T, BX, BY, BZ, I, strata::BLOCK_LOAD_TRANSPOSE, PRIVATE_STORAGE, MODIFIER>(salt + 3);
  if constexpr ((BX * BY * BZ) % 32 == 0)
  {
    check_load_store<T, BX, BY, BZ, I, strata::BLOCK_LOAD_WARP_TRANSPOSE, PRIVATE_STORAGE, MODIFIER>(salt + 4);
    check_load_store<T, BX, BY, BZ, I, strata::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED, PRIVATE_STORAGE, MODIFIER>(salt
                                                                                                                + 5);
  }
}

} // namespace block_load_store_test

namespace block_load_store_test
{
// Every algorithm for each listed items-per-thread count.
template <typename T, int BX, int BY, int BZ, int... ITEMS>
void check_shape(std::uint64_t salt)
{
  (check_every_algorithm<T, BX, BY, BZ, ITEMS>(salt + 16 * ITEMS), ...);
}
} // namespace block_load_store_test
