// Shared by the tests/warp/warp_load_store*.cu files: one kernel in which every logical warp loads its segment
// with WarpLoad (full, guarded, or guarded with a default), writes the registers it got to a dump, then stores
// them with WarpStore (full or guarded) to its segment of the output. Expected values come from the definitions
// of the blocked and striped arrangements.
//
// Logical warp w (of the whole grid) owns segment [w * I * W, (w + 1) * I * W) of both input and output, and its
// own valid_items for the load and for the store. The load and store algorithms of one launch agree on the
// arrangement (STRIPED with STRIPED, the others with the blocked ones), so the output segment must equal what
// was loaded: loaded values at positions < store valid_items, untouched (poisoned) memory elsewhere. The input
// and output pointers may be offset by one element from the allocation, which misaligns vector accesses.
#pragma once

#include <strata/warp/warp_load.cuh>
#include <strata/warp/warp_store.cuh>

#include "test_util.cuh"

#include <cstdint>
#include <cstring>
#include <vector>

namespace warp_load_store_test
{

constexpr int BLOCK_THREADS = 64;
constexpr int GRID_BLOCKS   = 2;
constexpr int NUM_THREADS   = BLOCK_THREADS * GRID_BLOCKS;

enum class load_mode : int
{
  full,
  guarded,
  guarded_default
};
enum class store_mode : int
{
  full,
  guarded
};

inline const char* mode_name(load_mode m)
{
  return m == load_mode::full    ? "Load(itr, items)"
       : m == load_mode::guarded ? "Load(itr, items, valid_items)"
                                 : "Load(itr, items, valid_items, oob_default)";
}
inline const char* mode_name(store_mode m)
{
  return m == store_mode::full ? "Store(itr, items)" : "Store(itr, items, valid_items)";
}
inline const char* algorithm_name(strata::WarpLoadAlgorithm a)
{
  return a == strata::WARP_LOAD_DIRECT    ? "WARP_LOAD_DIRECT"
       : a == strata::WARP_LOAD_STRIPED   ? "WARP_LOAD_STRIPED"
       : a == strata::WARP_LOAD_VECTORIZE ? "WARP_LOAD_VECTORIZE"
                                          : "WARP_LOAD_TRANSPOSE";
}

// The store algorithm that takes the arrangement a load algorithm produces, under the same name.
template <strata::WarpLoadAlgorithm A>
constexpr strata::WarpStoreAlgorithm matching_store = A == strata::WARP_LOAD_DIRECT    ? strata::WARP_STORE_DIRECT
                                                    : A == strata::WARP_LOAD_STRIPED   ? strata::WARP_STORE_STRIPED
                                                    : A == strata::WARP_LOAD_VECTORIZE ? strata::WARP_STORE_VECTORIZE
                                                                                       : strata::WARP_STORE_TRANSPOSE;

// An iterator that is not a raw pointer (so WARP_*_VECTORIZE must fall back to element accesses).
template <typename T>
struct index_iterator
{
  T* ptr;
  __host__ __device__ T& operator[](int i) const
  {
    return ptr[i];
  }
  __host__ __device__ index_iterator operator+(int n) const
  {
    return index_iterator{ptr + n};
  }
};

template <typename T, int I, int W, strata::WarpLoadAlgorithm LOAD, typename InputIt, typename OutputIt>
__global__ void load_store_kernel(InputIt d_in, T* d_loaded, OutputIt d_out, const int* d_load_valid,
                                  const int* d_store_valid, load_mode lmode, store_mode smode, T sentinel,
                                  T oob_default)
{
  using load_t        = strata::WarpLoad<T, I, LOAD, W>;
  using store_t       = strata::WarpStore<T, I, matching_store<LOAD>, W>;
  constexpr int WARPS = BLOCK_THREADS / W;
  __shared__ typename load_t::TempStorage load_storage[WARPS];
  __shared__ typename store_t::TempStorage store_storage[WARPS];

  const int thread = static_cast<int>(blockIdx.x * BLOCK_THREADS + threadIdx.x);
  const int warp   = thread / W;
  const int offset = warp * I * W;

  T items[I];
  for (int i = 0; i < I; ++i)
  {
    items[i] = sentinel;
  }
  load_t load(load_storage[threadIdx.x / W]);
  switch (lmode)
  {
    case load_mode::full:
      load.Load(d_in + offset, items);
      break;
    case load_mode::guarded:
      load.Load(d_in + offset, items, d_load_valid[warp]);
      break;
    case load_mode::guarded_default:
      load.Load(d_in + offset, items, d_load_valid[warp], oob_default);
      break;
  }
  for (int i = 0; i < I; ++i)
  {
    d_loaded[thread * I + i] = items[i];
  }
  store_t store(store_storage[threadIdx.x / W]);
  if (smode == store_mode::full)
  {
    store.Store(d_out + offset, items);
  }
  else
  {
    store.Store(d_out + offset, items, d_store_valid[warp]);
  }
}

// The value of T whose every byte is the poison byte: what untouched device memory holds.
template <typename T>
T poison_value()
{
  T v;
  std::memset(static_cast<void*>(&v), strata_test::poison_byte, sizeof(T));
  return v;
}

// Two distinct random values: the sentinel that register items start with, and the out-of-bounds default.
template <typename T>
std::vector<T> sentinel_and_default(std::uint64_t salt)
{
  for (;; ++salt)
  {
    std::vector<T> v = strata_test::random_vector<T>(2, salt);
    if (!(v[0] == v[1]))
    {
      return v;
    }
  }
}

// One configuration: the iterators' kind, the pointers' offset from their allocations, and the guards.
struct run_config
{
  load_mode lmode        = load_mode::full;
  store_mode smode       = store_mode::full;
  int offset             = 0;     // elements between the allocation and the pointer passed to the kernel
  bool wrapped_iterators = false; // pass index_iterator instead of raw pointers
  std::vector<int> load_valid;    // per logical warp; empty for full
  std::vector<int> store_valid;   // per logical warp; empty for full
};

template <typename T, int I, int W, strata::WarpLoadAlgorithm LOAD>
void run_load_store(const run_config& cfg, std::uint64_t salt)
{
  constexpr int TILE      = I * W;
  constexpr int NUM_WARPS = NUM_THREADS / W;
  constexpr int N         = NUM_THREADS * I;
  constexpr bool STRIPED  = LOAD == strata::WARP_LOAD_STRIPED;
  INFO(algorithm_name(LOAD) << ", ITEMS_PER_THREAD " << I << ", LOGICAL_WARP_THREADS " << W << ", "
                            << mode_name(cfg.lmode) << ", " << mode_name(cfg.smode) << ", pointer offset " << cfg.offset
                            << (cfg.wrapped_iterators ? ", non-pointer iterators" : ""));

  const std::vector<T> in_alloc = strata_test::random_vector<T>(N + 1, salt);
  const std::vector<T> sd       = sentinel_and_default<T>(salt + 1);
  const T sentinel              = sd[0];
  const T oob_default           = sd[1];
  std::vector<int> load_valid   = cfg.load_valid.empty() ? std::vector<int>(NUM_WARPS, TILE) : cfg.load_valid;
  std::vector<int> store_valid  = cfg.store_valid.empty() ? std::vector<int>(NUM_WARPS, TILE) : cfg.store_valid;
  REQUIRE(static_cast<int>(load_valid.size()) == NUM_WARPS);
  REQUIRE(static_cast<int>(store_valid.size()) == NUM_WARPS);

  // Expected registers and output, from the arrangement definitions.
  std::vector<T> expected_loaded(N);
  std::vector<T> expected_out(N + 1, poison_value<T>());
  for (int w = 0; w < NUM_WARPS; ++w)
  {
    for (int l = 0; l < W; ++l)
    {
      for (int i = 0; i < I; ++i)
      {
        const int p = STRIPED ? i * W + l : l * I + i; // the segment position lane l, item i holds
        T value     = in_alloc[cfg.offset + w * TILE + p];
        if (cfg.lmode != load_mode::full && p >= load_valid[w])
        {
          value = cfg.lmode == load_mode::guarded_default ? oob_default : sentinel;
        }
        expected_loaded[(w * W + l) * I + i] = value;
        if (cfg.smode == store_mode::full || p < store_valid[w])
        {
          expected_out[cfg.offset + w * TILE + p] = value;
        }
      }
    }
  }

  strata_test::device_buffer<T> d_in(in_alloc);
  strata_test::device_buffer<T> d_loaded(N);
  strata_test::device_buffer<T> d_out(N + 1);
  strata_test::device_buffer<int> d_load_valid(load_valid);
  strata_test::device_buffer<int> d_store_valid(store_valid);
  const T* in_ptr = d_in.data() + cfg.offset;
  T* out_ptr      = d_out.data() + cfg.offset;

  if (cfg.wrapped_iterators)
  {
    load_store_kernel<T, I, W, LOAD><<<GRID_BLOCKS, BLOCK_THREADS>>>(index_iterator<const T>{in_ptr}, d_loaded.data(),
                                                                     index_iterator<T>{out_ptr}, d_load_valid.data(),
                                                                     d_store_valid.data(), cfg.lmode, cfg.smode,
                                                                     sentinel, oob_default);
  }
  else
  {
    load_store_kernel<T, I, W, LOAD><<<GRID_BLOCKS, BLOCK_THREADS>>>(in_ptr, d_loaded.data(), out_ptr,
                                                                     d_load_valid.data(), d_store_valid.data(),
                                                                     cfg.lmode, cfg.smode, sentinel, oob_default);
  }
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

// Per-warp valid_items for guarded runs: `base` shifted by the warp index so that neighbouring logical warps use
// different counts, wrapping within [0, TILE].
inline std::vector<int> staggered_valid(int num_warps, int tile, int base, int step)
{
  std::vector<int> v(num_warps);
  for (int w = 0; w < num_warps; ++w)
  {
    v[w] = (base + w * step) % (tile + 1);
  }
  return v;
}

// Full loads and stores with aligned and misaligned pointers, then guarded ones at a few valid_items per warp
// (0, 1, half, all but one, all, and more than the segment holds).
template <typename T, int I, int W, strata::WarpLoadAlgorithm LOAD>
void check_load_store(std::uint64_t salt)
{
  constexpr int TILE      = I * W;
  constexpr int NUM_WARPS = NUM_THREADS / W;
  for (int offset : {0, 1})
  {
    run_config cfg;
    cfg.offset = offset;
    run_load_store<T, I, W, LOAD>(cfg, salt + offset);
  }
  const std::vector<int> counts = {0, 1, TILE / 2 + 1, TILE - 1, TILE, TILE + 5};
  for (int k = 0; k < static_cast<int>(counts.size()); ++k)
  {
    run_config cfg;
    cfg.offset      = k % 2;
    cfg.lmode       = k % 3 == 0 ? load_mode::guarded : load_mode::guarded_default;
    cfg.smode       = store_mode::guarded;
    cfg.load_valid  = std::vector<int>(NUM_WARPS, counts[k]);
    cfg.store_valid = staggered_valid(NUM_WARPS, TILE, counts[k], 1);
    run_load_store<T, I, W, LOAD>(cfg, salt + 10 + k);
  }
}

// check_load_store for every load algorithm (each with its matching store algorithm).
template <typename T, int I, int W>
void check_all_algorithms(std::uint64_t salt)
{
  check_load_store<T, I, W, strata::WARP_LOAD_DIRECT>(salt);
  check_load_store<T, I, W, strata::WARP_LOAD_STRIPED>(salt + 100);
  check_load_store<T, I, W, strata::WARP_LOAD_VECTORIZE>(salt + 200);
  check_load_store<T, I, W, strata::WARP_LOAD_TRANSPOSE>(salt + 300);
}

// check_all_algorithms for every I of ITEMS and every W of WIDTHS.
template <typename T, int... ITEMS>
struct shapes
{
  template <int... WIDTHS>
  static void run(std::uint64_t salt)
  {
    (run_items<ITEMS, WIDTHS...>(salt + 1000 * ITEMS), ...);
  }
  template <int I, int... WIDTHS>
  static void run_items(std::uint64_t salt)
  {
    (check_all_algorithms<T, I, WIDTHS>(salt + 10000 * WIDTHS), ...);
  }
};

} // namespace warp_load_store_test
