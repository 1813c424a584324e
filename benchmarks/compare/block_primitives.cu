// Block primitives side by side with CUB's: the same kernel body, BlockLoad -> BlockReduce (or BlockScan) ->
// BlockStore, instantiated once with strata's classes and once with CUB's, same block size, items per thread
// and algorithms, on the same buffers in the same process. Inputs are 2^26 items (well over the L2 size). Each
// case also times ".../copy": a device-to-device cudaMemcpyAsync of the same buffers, which reads and writes the
// bytes the kernels read and write (the ceiling of a kernel that only streams its tile through). The cases
// ".../l2_reuse_after/<library>" time something else: a re-read, after the kernel, of a buffer of 60% of the L2 that
// was read once just before, which must find it in L2 as well after strata's kernel as after CUB's (strata's
// transposing loads favour a tile in L2 only while it is in flight).
//
// DIRECT is not the same thing in the two libraries: strata's BLOCK_LOAD_DIRECT and BLOCK_STORE_DIRECT move full
// tiles of arithmetic types as 16-byte vectors (docs/architecture.md, "Departures from CUB"), CUB's item by item.
// The DIRECT cases are therefore named ".../direct(vector)/..." and also time ".../cub_vectorize" (at its own
// occupancy), CUB's BLOCK_LOAD_VECTORIZE and BLOCK_STORE_VECTORIZE, which move the tile as strata's DIRECT does.
// Each of these runs says in its label how its tile moves.
#include <strata/block/block_load.cuh>
#include <strata/block/block_reduce.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/block_store.cuh>

#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

#include "bench_util.cuh"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <type_traits>
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
  static constexpr const char* name      = "strata";
  static constexpr const char* direct_io = "DIRECT: 16-byte vectors";
  static constexpr strata::BlockLoadAlgorithm load(io a)
  {
    return a == io::direct    ? strata::BLOCK_LOAD_DIRECT
         : a == io::vectorize ? strata::BLOCK_LOAD_VECTORIZE
                              : strata::BLOCK_LOAD_WARP_TRANSPOSE;
  }
  static constexpr strata::BlockStoreAlgorithm store(io a)
  {
    return a == io::direct    ? strata::BLOCK_STORE_DIRECT
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
  static constexpr const char* name      = "cub";
  static constexpr const char* direct_io = "DIRECT: item by item";
  // For the DIRECT cases' 8 items of 8 bytes per thread (PTX of CCCL 3.0): VECTORIZE loads 16-byte vectors after a
  // run-time check that the tile is aligned for them, which these tiles pass (item by item otherwise), and stores
  // 16-byte vectors. An odd item count would make it item by item in both directions.
  static constexpr const char* vectorize_io = "VECTORIZE: 16-byte vectors";
  static constexpr cub::BlockLoadAlgorithm load(io a)
  {
    return a == io::direct    ? cub::BLOCK_LOAD_DIRECT
         : a == io::vectorize ? cub::BLOCK_LOAD_VECTORIZE
                              : cub::BLOCK_LOAD_WARP_TRANSPOSE;
  }
  static constexpr cub::BlockStoreAlgorithm store(io a)
  {
    return a == io::direct    ? cub::BLOCK_STORE_DIRECT
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

// One set of buffers per value type for the whole process: every case and repetition of both libraries reads
// and writes the same physical pages, so that where an allocation lands in DRAM is not part of the comparison.
template <typename T>
struct buffers
{
  strata_bench::rotating_inputs<T> inputs{num_items};
  strata_bench::device_array<T> out{num_items};
  strata_bench::device_array<T> expected{num_items};
};

template <typename T>
buffers<T>& shared_buffers()
{
  static buffers<T> b;
  return b;
}

// Resident blocks per SM of `kernel` with BLOCK threads and `smem` bytes of dynamic shared memory.
template <typename Kernel>
int blocks_per_sm(Kernel kernel, int block, std::size_t smem)
{
  int blocks = 0;
  STRATA_BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, smem));
  return blocks;
}

// Shared memory per block that `kernel` declares statically.
template <typename Kernel>
long long static_shared_bytes(Kernel kernel)
{
  cudaFuncAttributes attributes{};
  STRATA_BENCH_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  return static_cast<long long>(attributes.sharedSizeBytes);
}

// The least dynamic shared memory (unused by the kernel) that brings `kernel` down to at most `target` resident
// blocks per SM: the same occupancy for two kernels whose register counts differ. -1 if none does.
template <typename Kernel>
long long padding_for_occupancy(Kernel kernel, int block, int target)
{
  int device = 0;
  int optin  = 0;
  STRATA_BENCH_CHECK(cudaGetDevice(&device));
  STRATA_BENCH_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const int most = optin - static_cast<int>(static_shared_bytes(kernel));
  STRATA_BENCH_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
  if (blocks_per_sm(kernel, block, 0) <= target)
  {
    return 0;
  }
  std::size_t lo = 0; // too little
  std::size_t hi = static_cast<std::size_t>(most);
  if (blocks_per_sm(kernel, block, hi) > target)
  {
    return -1;
  }
  while (hi - lo > 128)
  {
    const std::size_t mid                                   = (lo + hi) / 2;
    (blocks_per_sm(kernel, block, mid) <= target ? hi : lo) = mid;
  }
  return static_cast<long long>(hi);
}

// Times `kernel` over rotated inputs, then checks its output against the CUB kernel's on the same input. With
// `equal_occupancy`, the kernel is held (by unused dynamic shared memory) to the smaller of the occupancies of
// the strata and CUB kernels, so that a difference in registers does not decide how many blocks stream at once;
// both kernels then take the same shared memory per block (static plus unused dynamic), so that the split of
// each SM's storage between L1 and shared memory, which holds the loads in flight, is the same for both too.
template <typename T, int BLOCK, int IPT, typename Kernel>
void run(benchmark::State& state, Kernel kernel, Kernel reference, Kernel strata_kernel, bool equal_occupancy)
{
  constexpr int TILE = BLOCK * IPT;
  static_assert(num_items % TILE == 0, "whole tiles only");
  const unsigned grid = static_cast<unsigned>(num_items / TILE);
  long long smem      = 0;
  if (equal_occupancy)
  {
    const int target           = std::min(blocks_per_sm(strata_kernel, BLOCK, 0), blocks_per_sm(reference, BLOCK, 0));
    const long long pad_strata = padding_for_occupancy(strata_kernel, BLOCK, target);
    const long long pad_cub    = padding_for_occupancy(reference, BLOCK, target);
    if (pad_strata < 0 || pad_cub < 0)
    {
      state.SkipWithError("cannot lower the occupancy to the other kernel's");
      return;
    }
    const long long per_block =
      std::max(static_shared_bytes(strata_kernel) + pad_strata, static_shared_bytes(reference) + pad_cub);
    smem = per_block - static_shared_bytes(kernel);
    if (blocks_per_sm(kernel, BLOCK, static_cast<std::size_t>(smem)) != target)
    {
      state.SkipWithError("the same shared memory per block does not give both kernels the same occupancy");
      return;
    }
  }
  state.counters["blocks_per_sm"] = blocks_per_sm(kernel, BLOCK, static_cast<std::size_t>(smem));
  buffers<T>& buf                 = shared_buffers<T>();
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    kernel<<<grid, BLOCK, static_cast<std::size_t>(smem), s>>>(buf.inputs.next(), buf.out.get());
  });
  strata_bench::set_counters(state, num_items, 2 * num_items * sizeof(T));

  // Validate each kernel once (Google Benchmark calls this function again for every repetition).
  static std::set<const void*> validated;
  if (!validated.insert(reinterpret_cast<const void*>(kernel)).second)
  {
    return;
  }
  kernel<<<grid, BLOCK>>>(buf.inputs.at(0), buf.out.get());
  reference<<<grid, BLOCK>>>(buf.inputs.at(0), buf.expected.get());
  STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  std::vector<T> h_out(num_items), h_expected(num_items);
  STRATA_BENCH_CHECK(cudaMemcpy(h_out.data(), buf.out.get(), num_items * sizeof(T), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(h_expected.data(), buf.expected.get(), num_items * sizeof(T), cudaMemcpyDeviceToHost));
  if (!close_enough(h_out, h_expected))
  {
    state.SkipWithError("output differs from CUB's");
  }
}

// "direct(vector)": the name says that strata's side of a DIRECT case moves vectors, CUB's does not.
const char* io_name(io a)
{
  return a == io::direct ? "direct(vector)" : a == io::vectorize ? "vectorize" : "warp_transpose";
}

// "<kind>/<type>/<BLOCK>x<IPT>/<io>/<algorithm>": the name of a case, to which its runs add their suffixes.
template <typename T, int BLOCK, int IPT>
std::string case_name(const char* kind, io io_algorithm, const char* algorithm)
{
  return std::string(kind) + "/" + strata_bench::type_name<T>() + "/" + std::to_string(BLOCK) + "x"
       + std::to_string(IPT) + "/" + io_name(io_algorithm) + "/" + algorithm;
}

// Registers one case, "<kind>/<type>/<BLOCK>x<IPT>/<io>/<algorithm>[/equal_occupancy]/<library>": `kernel` timed
// at its own occupancy, or with `equal_occupancy` held to the lower of the strata and CUB kernels'. A non-empty
// `label` goes into the run's label (the JSON's "label").
template <typename T, int BLOCK, int IPT, typename Kernel>
void register_case(const char* kind, io io_algorithm, const char* algorithm, const char* library, const char* label,
                   Kernel kernel, Kernel reference, Kernel strata_kernel, bool equal_occupancy)
{
  const std::string name =
    case_name<T, BLOCK, IPT>(kind, io_algorithm, algorithm) + (equal_occupancy ? "/equal_occupancy/" : "/") + library;
  benchmark::RegisterBenchmark(name.c_str(),
                               [=](benchmark::State& state) {
                                 run<T, BLOCK, IPT>(state, kernel, reference, strata_kernel, equal_occupancy);
                                 if (*label != '\0')
                                 {
                                   state.SetLabel(label);
                                 }
                               })
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
}

// Registers "<kind>/<type>/<BLOCK>x<IPT>/<io>/<algorithm>/copy": the input buffers copied to the output buffer.
template <typename T, int BLOCK, int IPT>
void register_copy(const char* kind, io io_algorithm, const char* algorithm)
{
  const std::string name = case_name<T, BLOCK, IPT>(kind, io_algorithm, algorithm) + "/copy";
  benchmark::RegisterBenchmark(name.c_str(),
                               [](benchmark::State& state) {
                                 buffers<T>& buf = shared_buffers<T>();
                                 strata_bench::time_copy(state, buf.inputs, buf.out.get(), num_items * sizeof(T));
                                 strata_bench::set_counters(state, num_items, 2 * num_items * sizeof(T));
                               })
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
}

// Reads n items at p (one pass, grid-stride), keeping the sum only so that the loads stay.
template <typename T>
__global__ void read_through(const T* p, std::size_t n, T* sink)
{
  T sum{};
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride)
  {
    sum += p[i];
  }
  if (sum == T(-1.25))
  {
    *sink = sum;
  }
}

// Registers "<case>/l2_reuse_after/<library>": per repetition, `kernel` streams the 2^26 items, then read_through
// reads a buffer of 60% of the L2 twice; the second read is timed. Lines that the kernel left favoured in L2 would
// crowd the buffer out and show as a slower second read.
template <typename T, int BLOCK, int IPT, typename Kernel>
void register_l2_reuse(const std::string& name, const char* library, Kernel kernel)
{
  benchmark::RegisterBenchmark((name + "/l2_reuse_after/" + library).c_str(),
                               [=](benchmark::State& state) {
                                 buffers<T>& buf     = shared_buffers<T>();
                                 const std::size_t n = strata_bench::l2_bytes() * 6 / 10 / sizeof(T);
                                 static strata_bench::device_array<T> reused{n};
                                 strata_bench::fill_random(reused.get(), n, 0x1e2);
                                 int device = 0;
                                 int sms    = 0;
                                 STRATA_BENCH_CHECK(cudaGetDevice(&device));
                                 STRATA_BENCH_CHECK(
                                   cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
                                 const unsigned grid = static_cast<unsigned>(num_items / (BLOCK * IPT));
                                 strata_bench::cuda_timer timer;
                                 for (auto _ : state)
                                 {
                                   kernel<<<grid, BLOCK>>>(buf.inputs.next(), buf.out.get());
                                   read_through<<<8 * sms, 256>>>(reused.get(), n, buf.expected.get());
                                   timer.start();
                                   read_through<<<8 * sms, 256>>>(reused.get(), n, buf.expected.get());
                                   state.SetIterationTime(timer.stop());
                                 }
                                 STRATA_BENCH_CHECK(cudaGetLastError());
                               })
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
}

template <typename Lib, typename T, int BLOCK, int IPT, io IO, reduce_alg ALG>
void register_reduce(bool equal_occupancy)
{
  const char* algorithm = ALG == reduce_alg::raking ? "raking" : "warp_reductions";
  const auto reference  = load_reduce_store<cub_lib, T, BLOCK, IPT, IO, ALG>;
  const auto strata     = load_reduce_store<strata_lib, T, BLOCK, IPT, IO, ALG>;
  register_case<T, BLOCK, IPT>("block_reduce", IO, algorithm, Lib::name, IO == io::direct ? Lib::direct_io : "",
                               load_reduce_store<Lib, T, BLOCK, IPT, IO, ALG>, reference, strata, equal_occupancy);
  if (std::is_same<Lib, cub_lib>::value && !equal_occupancy)
  {
    register_copy<T, BLOCK, IPT>("block_reduce", IO, algorithm);
    if constexpr (IO == io::direct) // constexpr: no VECTORIZE kernel is instantiated for the other cases
    {
      register_case<T, BLOCK, IPT>("block_reduce", IO, algorithm, "cub_vectorize", cub_lib::vectorize_io,
                                   load_reduce_store<cub_lib, T, BLOCK, IPT, io::vectorize, ALG>, reference, strata,
                                   false);
    }
  }
}

template <typename Lib, typename T, int BLOCK, int IPT, io IO, scan_alg ALG>
void register_scan(bool equal_occupancy)
{
  const char* algorithm = ALG == scan_alg::raking ? "raking" : "warp_scans";
  const auto reference  = load_scan_store<cub_lib, T, BLOCK, IPT, IO, ALG>;
  const auto strata     = load_scan_store<strata_lib, T, BLOCK, IPT, IO, ALG>;
  register_case<T, BLOCK, IPT>("block_scan", IO, algorithm, Lib::name, IO == io::direct ? Lib::direct_io : "",
                               load_scan_store<Lib, T, BLOCK, IPT, IO, ALG>, reference, strata, equal_occupancy);
  if (std::is_same<Lib, cub_lib>::value && !equal_occupancy)
  {
    register_copy<T, BLOCK, IPT>("block_scan", IO, algorithm);
    if constexpr (IO == io::direct) // constexpr: no VECTORIZE kernel is instantiated for the other cases
    {
      register_case<T, BLOCK, IPT>("block_scan", IO, algorithm, "cub_vectorize", cub_lib::vectorize_io,
                                   load_scan_store<cub_lib, T, BLOCK, IPT, io::vectorize, ALG>, reference, strata,
                                   false);
    }
  }
  if (IO == io::warp_transpose && !equal_occupancy)
  {
    register_l2_reuse<T, BLOCK, IPT>(case_name<T, BLOCK, IPT>("block_scan", IO, algorithm), Lib::name,
                                     load_scan_store<Lib, T, BLOCK, IPT, IO, ALG>);
  }
}

template <typename Lib>
void register_all(bool equal_occupancy)
{
  register_reduce<Lib, int, 256, 16, io::warp_transpose, reduce_alg::warp_reductions>(equal_occupancy);
  register_reduce<Lib, int, 128, 8, io::vectorize, reduce_alg::raking>(equal_occupancy);
  register_reduce<Lib, double, 256, 8, io::direct, reduce_alg::warp_reductions>(equal_occupancy);
  register_reduce<Lib, float, 512, 4, io::vectorize, reduce_alg::warp_reductions>(equal_occupancy);
  register_scan<Lib, int, 128, 16, io::warp_transpose, scan_alg::raking>(equal_occupancy);
  register_scan<Lib, int, 256, 16, io::warp_transpose, scan_alg::warp_scans>(equal_occupancy);
  register_scan<Lib, double, 128, 8, io::warp_transpose, scan_alg::warp_scans>(equal_occupancy);
  register_scan<Lib, long long, 256, 8, io::direct, scan_alg::raking>(equal_occupancy);
  register_scan<Lib, float, 256, 16, io::warp_transpose, scan_alg::warp_scans>(equal_occupancy);
}
} // namespace

int main(int argc, char** argv)
{
  for (const bool equal_occupancy : {false, true})
  {
    register_all<strata_lib>(equal_occupancy);
    register_all<cub_lib>(equal_occupancy);
  }
  return strata_bench::run_benchmarks(argc, argv);
}
