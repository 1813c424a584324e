// Block primitives side by side with CUB's: the same kernel body, BlockLoad -> BlockReduce (or BlockScan) ->
// BlockStore, instantiated once with strata's classes and once with CUB's, same block size, items per thread
// and algorithms, on the same buffers in the same process. Inputs are 2^26 items (well over the L2 size).
#include <strata/block/block_load.cuh>
#include <strata/block/block_reduce.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/block_store.cuh>

#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

#include "bench_util.cuh"

#include <cmath>
#include <string>
#include <vector>

namespace
{
// Library-neutral names of the algorithms, mapped to each library's enums below.
enum class io
{
  direct,
  vectorize,
  warp_transpose
};
enum class reduce_alg
{
  raking,
  warp_reductions
};
enum class scan_alg
{
  raking,
  warp_scans
};

struct strata_lib
{
  static constexpr const char* name = "strata";
  static constexpr strata::BlockLoadAlgorithm load(io a)
  {
    return a == io::direct ? strata::BLOCK_LOAD_DIRECT
         : a == io::vectorize ? strata::BLOCK_LOAD_VECTORIZE
                              : strata::BLOCK_LOAD_WARP_TRANSPOSE;
  }
  static constexpr strata::BlockStoreAlgorithm store(io a)
  {
    return a == io::direct ? strata::BLOCK_STORE_DIRECT
         : a == io::vectorize ? strata::BLOCK_STORE_VECTORIZE
                              : strata::BLOCK_STORE_WARP_TRANSPOSE;
  }
  static constexpr strata::BlockReduceAlgorithm reduce(reduce_alg a)
  {
    return a == reduce_alg::raking ? strata::BLOCK_REDUCE_RAKING : strata::BLOCK_REDUCE_WARP_REDUCTIONS;
  }
  static constexpr strata::BlockScanAlgorithm scan(scan_alg a)
  {
    return a == scan_alg::raking ? strata::BLOCK_SCAN_RAKING : strata::BLOCK_SCAN_WARP_SCANS;
  }
  template <typename T, int B, int I, io A>
  using Load = strata::BlockLoad<T, B, I, load(A)>;
  template <typename T, int B, int I, io A>
  using Store = strata::BlockStore<T, B, I, store(A)>;
  template <typename T, int B, reduce_alg A>
  using Reduce = strata::BlockReduce<T, B, reduce(A)>;
  template <typename T, int B, scan_alg A>
  using Scan = strata::BlockScan<T, B, scan(A)>;
};

struct cub_lib
{
  static constexpr const char* name = "cub";
  static constexpr cub::BlockLoadAlgorithm load(io a)
  {
    return a == io::direct ? cub::BLOCK_LOAD_DIRECT
         : a == io::vectorize ? cub::BLOCK_LOAD_VECTORIZE
                              : cub::BLOCK_LOAD_WARP_TRANSPOSE;
  }
  static constexpr cub::BlockStoreAlgorithm store(io a)
  {
    return a == io::direct ? cub::BLOCK_STORE_DIRECT
         : a == io::vectorize ? cub::BLOCK_STORE_VECTORIZE
                              : cub::BLOCK_STORE_WARP_TRANSPOSE;
  }
  static constexpr cub::BlockReduceAlgorithm reduce(reduce_alg a)
  {
    return a == reduce_alg::raking ? cub::BLOCK_REDUCE_RAKING : cub::BLOCK_REDUCE_WARP_REDUCTIONS;
  }
  static constexpr cub::BlockScanAlgorithm scan(scan_alg a)
  {
    return a == scan_alg::raking ? cub::BLOCK_SCAN_RAKING : cub::BLOCK_SCAN_WARP_SCANS;
  }
  template <typename T, int B, int I, io A>
  using Load = cub::BlockLoad<T, B, I, load(A)>;
  template <typename T, int B, int I, io A>
  using Store = cub::BlockStore<T, B, I, store(A)>;
  template <typename T, int B, reduce_alg A>
  using Reduce = cub::BlockReduce<T, B, reduce(A)>;
  template <typename T, int B, scan_alg A>
  using Scan = cub::BlockScan<T, B, scan(A)>;
};

// Each block loads a tile, reduces it, adds the block's sum to every item and stores the tile: the reduction
// is on the critical path between the load and the store.
template <typename Lib, typename T, int BLOCK, int IPT, io IO, reduce_alg ALG>
__global__ void __launch_bounds__(BLOCK) load_reduce_store(const T* in, T* out)
{
  using Load   = typename Lib::template Load<T, BLOCK, IPT, IO>;
  using Reduce = typename Lib::template Reduce<T, BLOCK, ALG>;
  using Store  = typename Lib::template Store<T, BLOCK, IPT, IO>;
  __shared__ union
  {
    typename Load::TempStorage load;
    typename Reduce::TempStorage reduce;
    typename Store::TempStorage store;
  } temp;
  __shared__ T block_sum;

  const std::size_t offset = std::size_t(blockIdx.x) * (BLOCK * IPT);
  T items[IPT];
  Load(temp.load).Load(in + offset, items);
  __syncthreads();
  const T sum = Reduce(temp.reduce).Sum(items);
  if (threadIdx.x == 0)
  {
    block_sum = sum;
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < IPT; ++i)
  {
    items[i] += block_sum;
  }
  Store(temp.store).Store(out + offset, items);
}

// Each block loads a tile, scans it (inclusive sum) and stores it.
template <typename Lib, typename T, int BLOCK, int IPT, io IO, scan_alg ALG>
__global__ void __launch_bounds__(BLOCK) load_scan_store(const T* in, T* out)
{
  using Load  = typename Lib::template Load<T, BLOCK, IPT, IO>;
  using Scan  = typename Lib::template Scan<T, BLOCK, ALG>;
  using Store = typename Lib::template Store<T, BLOCK, IPT, IO>;
  __shared__ union
  {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
    typename Store::TempStorage store;
  } temp;

  const std::size_t offset = std::size_t(blockIdx.x) * (BLOCK * IPT);
  T items[IPT];
  Load(temp.load).Load(in + offset, items);
  __syncthreads();
  Scan(temp.scan).InclusiveSum(items, items);
  __syncthreads();
  Store(temp.store).Store(out + offset, items);
}

constexpr std::size_t num_items = std::size_t(1) << 26;

template <typename T>
bool close_enough(const std::vector<T>& a, const std::vector<T>& b)
{
  for (std::size_t i = 0; i < a.size(); ++i)
  {
    if constexpr (std::is_floating_point<T>::value)
    {
      // The libraries may add in different orders: allow a few ulps of the block-wide sums involved.
      const double tolerance = sizeof(T) == 4 ? 1e-4 : 1e-9;
      if (std::abs(double(a[i]) - double(b[i])) > tolerance * (1.0 + std::abs(double(b[i]))))
      {
        return false;
      }
    }
    else if (a[i] != b[i])
    {
      return false;
    }
  }
  return true;
}

// Times `kernel` over rotated inputs, then checks its output against the CUB kernel's on the same input.
template <typename T, int BLOCK, int IPT, typename Kernel, typename Reference>
void run(benchmark::State& state, Kernel kernel, Reference reference)
{
  constexpr int TILE = BLOCK * IPT;
  static_assert(num_items % TILE == 0, "whole tiles only");
  const unsigned grid = static_cast<unsigned>(num_items / TILE);
  strata_bench::rotating_inputs<T> inputs(num_items);
  strata_bench::device_array<T> out(num_items);
  strata_bench::time_loop(state, [&](cudaStream_t s) { kernel<<<grid, BLOCK, 0, s>>>(inputs.next(), out.get()); });
  strata_bench::set_counters(state, num_items, 2 * num_items * sizeof(T));

  strata_bench::device_array<T> expected(num_items);
  kernel<<<grid, BLOCK>>>(inputs.at(0), out.get());
  reference<<<grid, BLOCK>>>(inputs.at(0), expected.get());
  STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  std::vector<T> h_out(num_items), h_expected(num_items);
  STRATA_BENCH_CHECK(cudaMemcpy(h_out.data(), out.get(), num_items * sizeof(T), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(h_expected.data(), expected.get(), num_items * sizeof(T), cudaMemcpyDeviceToHost));
  if (!close_enough(h_out, h_expected))
  {
    state.SkipWithError("output differs from CUB's");
  }
}

const char* io_name(io a)
{
  return a == io::direct ? "direct" : a == io::vectorize ? "vectorize" : "warp_transpose";
}

template <typename Lib, typename T, int BLOCK, int IPT, io IO, reduce_alg ALG>
void register_reduce()
{
  const std::string name = std::string("block_reduce/") + strata_bench::type_name<T>() + "/" + std::to_string(BLOCK)
                         + "x" + std::to_string(IPT) + "/" + io_name(IO) + "/"
                         + (ALG == reduce_alg::raking ? "raking" : "warp_reductions") + "/" + Lib::name;
  benchmark::RegisterBenchmark(name.c_str(), [](benchmark::State& state) {
    run<T, BLOCK, IPT>(state, load_reduce_store<Lib, T, BLOCK, IPT, IO, ALG>,
                       load_reduce_store<cub_lib, T, BLOCK, IPT, IO, ALG>);
  })->UseManualTime()->Unit(benchmark::kMicrosecond);
}

template <typename Lib, typename T, int BLOCK, int IPT, io IO, scan_alg ALG>
void register_scan()
{
  const std::string name = std::string("block_scan/") + strata_bench::type_name<T>() + "/" + std::to_string(BLOCK)
                         + "x" + std::to_string(IPT) + "/" + io_name(IO) + "/"
                         + (ALG == scan_alg::raking ? "raking" : "warp_scans") + "/" + Lib::name;
  benchmark::RegisterBenchmark(name.c_str(), [](benchmark::State& state) {
    run<T, BLOCK, IPT>(state, load_scan_store<Lib, T, BLOCK, IPT, IO, ALG>,
                       load_scan_store<cub_lib, T, BLOCK, IPT, IO, ALG>);
  })->UseManualTime()->Unit(benchmark::kMicrosecond);
}

template <typename Lib>
void register_all()
{
  register_reduce<Lib, int, 256, 16, io::warp_transpose, reduce_alg::warp_reductions>();
  register_reduce<Lib, int, 128, 8, io::vectorize, reduce_alg::raking>();
  register_reduce<Lib, double, 256, 8, io::direct, reduce_alg::warp_reductions>();
  register_reduce<Lib, float, 512, 4, io::vectorize, reduce_alg::warp_reductions>();
  register_scan<Lib, int, 128, 16, io::warp_transpose, scan_alg::raking>();
  register_scan<Lib, int, 256, 16, io::warp_transpose, scan_alg::warp_scans>();
  register_scan<Lib, double, 128, 8, io::warp_transpose, scan_alg::warp_scans>();
  register_scan<Lib, long long, 256, 8, io::direct, scan_alg::raking>();
  register_scan<Lib, float, 256, 16, io::warp_transpose, scan_alg::warp_scans>();
}
} // namespace

int main(int argc, char** argv)
{
  register_all<strata_lib>();
  register_all<cub_lib>();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
