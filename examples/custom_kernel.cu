// A custom kernel built from strata's block primitives, with CUB's names and contracts: each block loads a tile of
// 512 integers (BlockLoad), finds the tile's smallest value (BlockReduce), and stores the tile with that minimum
// subtracted from every item (BlockStore); the last tile is partial. The program checks the results on the host.
#include <strata/block/block_load.cuh>
#include <strata/block/block_reduce.cuh>
#include <strata/block/block_store.cuh>

#include <cuda/functional>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "example_util.cuh"

constexpr int BLOCK_THREADS    = 128;
constexpr int ITEMS_PER_THREAD = 4;
constexpr int TILE_ITEMS       = BLOCK_THREADS * ITEMS_PER_THREAD;

__global__ void subtract_tile_minimum(const int* in, int* out, int* tile_minimum, int n)
{
  using BlockLoad   = strata::BlockLoad<int, BLOCK_THREADS, ITEMS_PER_THREAD, strata::BLOCK_LOAD_WARP_TRANSPOSE>;
  using BlockReduce = strata::BlockReduce<int, BLOCK_THREADS>;
  using BlockStore  = strata::BlockStore<int, BLOCK_THREADS, ITEMS_PER_THREAD, strata::BLOCK_STORE_WARP_TRANSPOSE>;
  // The three collectives are never live at once: they share shared memory, a barrier between each.
  __shared__ union
  {
    typename BlockLoad::TempStorage load;
    typename BlockReduce::TempStorage reduce;
    typename BlockStore::TempStorage store;
  } storage;
  __shared__ int minimum;

  const int offset = blockIdx.x * TILE_ITEMS;
  const int valid  = min(TILE_ITEMS, n - offset);
  int items[ITEMS_PER_THREAD];
  BlockLoad(storage.load).Load(in + offset, items, valid, INT_MAX); // past the end: INT_MAX, which no minimum is
  __syncthreads();
  const int block_minimum = BlockReduce(storage.reduce).Reduce(items, cuda::minimum<>{}); // valid in thread 0
  if (threadIdx.x == 0)
  {
    minimum                  = block_minimum;
    tile_minimum[blockIdx.x] = block_minimum;
  }
  __syncthreads();
  for (int& item : items)
  {
    item -= minimum;
  }
  BlockStore(storage.store).Store(out + offset, items, valid);
}

int main()
{
  example::require_gpu("custom_kernel");
  const int n     = (1 << 20) + 123;
  const int tiles = (n + TILE_ITEMS - 1) / TILE_ITEMS;
  std::vector<int> h_in(n);
  std::srand(7);
  for (int& v : h_in)
  {
    v = std::rand() % 20001 - 10000;
  }

  int *d_in = nullptr, *d_out = nullptr, *d_minimum = nullptr;
  example::check(cudaMalloc(&d_in, n * sizeof(int)), "cudaMalloc");
  example::check(cudaMalloc(&d_out, n * sizeof(int)), "cudaMalloc");
  example::check(cudaMalloc(&d_minimum, tiles * sizeof(int)), "cudaMalloc");
  example::check(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice), "cudaMemcpy");
  subtract_tile_minimum<<<tiles, BLOCK_THREADS>>>(d_in, d_out, d_minimum, n);
  example::check(cudaGetLastError(), "subtract_tile_minimum");
  std::vector<int> h_out(n), h_minimum(tiles);
  example::check(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy");
  example::check(cudaMemcpy(h_minimum.data(), d_minimum, tiles * sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy");
  example::check(cudaFree(d_in), "cudaFree");
  example::check(cudaFree(d_out), "cudaFree");
  example::check(cudaFree(d_minimum), "cudaFree");

  bool ok = true;
  for (int t = 0; t < tiles; ++t)
  {
    const int begin = t * TILE_ITEMS, end = std::min(n, begin + TILE_ITEMS);
    const int m = *std::min_element(h_in.begin() + begin, h_in.begin() + end);
    ok          = ok && h_minimum[t] == m;
    for (int i = begin; i < end; ++i)
    {
      ok = ok && h_out[i] == h_in[i] - m;
    }
  }
  std::printf("custom_kernel: %d tiles of %d items (the last of %d); tile 0: minimum %d, items %d %d %d ... become %d "
              "%d "
              "%d ...\n",
              tiles, TILE_ITEMS, n - (tiles - 1) * TILE_ITEMS, h_minimum[0], h_in[0], h_in[1], h_in[2], h_out[0],
              h_out[1], h_out[2]);
  return example::report("custom_kernel", ok);
}
