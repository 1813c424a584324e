// DeviceMemcpy::Batched: strata against cub::DeviceMemcpy::Batched on the same buffers in one process. The buffers lie
// back to back in a source arena of random bytes and at the same offsets in a destination arena, so that each source
// agrees with its destination modulo 16 and every byte of the destination arena is written; their sizes are uniform
// random bytes in a class: 8-4096 (2^16 and 2^20 buffers: 134 MB and 2.1 GB each way) and 64K-1M (2^12 and 2^14
// buffers: 2.3 GB and 9.2 GB each way; 2^16 would need 110 GB for the arena and the two outputs). Each case is
// registered as ".../strata", ".../cub" and ".../copy": one device-to-device cudaMemcpyAsync of the same total bytes
// as one contiguous buffer, the bandwidth the batch cannot beat. Names: batch_memcpy/<size class>/2^k/<library>, 2^k
// buffers; scripts/compare_report.py prints the ratios. After timing, strata's destination arena is compared with
// CUB's, byte for byte, on the device.
#include <strata/device/device_memcpy.cuh>

#include <cub/device/device_memcpy.cuh>

#include "bench_util.cuh"

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace
{
enum class library
{
  strata,
  cub,
  copy
};

const char* name_of(library lib)
{
  return lib == library::strata ? "strata" : lib == library::cub ? "cub" : "copy";
}

struct size_class
{
  const char* name;
  std::uint32_t lo;
  std::uint32_t hi;
};

// One batch: its arenas and the device arrays of pointers and sizes.
struct batch
{
  std::size_t count      = 0;
  std::size_t bytes      = 0;
  std::uint8_t* src      = nullptr;
  std::uint8_t* dst      = nullptr;
  void** d_srcs          = nullptr;
  void** d_dsts          = nullptr;
  std::uint32_t* d_sizes = nullptr;

  batch(const size_class& sizes_class, int log2_count)
      : count(std::size_t(1) << log2_count)
  {
    std::mt19937_64 rng(0xba7c4 + static_cast<std::uint64_t>(log2_count) * 977 + sizes_class.hi);
    std::uniform_int_distribution<std::uint32_t> draw(sizes_class.lo, sizes_class.hi);
    std::vector<std::uint32_t> sizes(count);
    std::vector<std::size_t> offsets(count);
    for (std::size_t i = 0; i < count; ++i)
    {
      sizes[i]   = draw(rng);
      offsets[i] = bytes;
      bytes += sizes[i];
    }
    STRATA_BENCH_CHECK(cudaMalloc(&src, bytes));
    STRATA_BENCH_CHECK(cudaMalloc(&dst, bytes));
    strata_bench::fill_random(src, bytes, 7);
    std::vector<void*> srcs(count), dsts(count);
    for (std::size_t i = 0; i < count; ++i)
    {
      srcs[i] = src + offsets[i];
      dsts[i] = dst + offsets[i];
    }
    STRATA_BENCH_CHECK(cudaMalloc(&d_srcs, count * sizeof(void*)));
    STRATA_BENCH_CHECK(cudaMalloc(&d_dsts, count * sizeof(void*)));
    STRATA_BENCH_CHECK(cudaMalloc(&d_sizes, count * sizeof(std::uint32_t)));
    STRATA_BENCH_CHECK(cudaMemcpy(d_srcs, srcs.data(), count * sizeof(void*), cudaMemcpyHostToDevice));
    STRATA_BENCH_CHECK(cudaMemcpy(d_dsts, dsts.data(), count * sizeof(void*), cudaMemcpyHostToDevice));
    STRATA_BENCH_CHECK(cudaMemcpy(d_sizes, sizes.data(), count * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  }
  ~batch()
  {
    cudaFree(src);
    cudaFree(dst);
    cudaFree(d_srcs);
    cudaFree(d_dsts);
    cudaFree(d_sizes);
  }
  batch(const batch&)            = delete;
  batch& operator=(const batch&) = delete;
};

// One library's call, from the batch's sources to the destinations `dsts`.
cudaError_t run(library lib, void* d_temp, std::size_t& temp_bytes, const batch& b, void** dsts, cudaStream_t s)
{
  if (lib == library::strata)
  {
    return strata::DeviceMemcpy::Batched(d_temp, temp_bytes, b.d_srcs, dsts, b.d_sizes,
                                         static_cast<std::int64_t>(b.count), s);
  }
  return cub::DeviceMemcpy::Batched(d_temp, temp_bytes, b.d_srcs, dsts, b.d_sizes, static_cast<std::int64_t>(b.count),
                                    s);
}

// Adds to *wrong the 16-byte words in which a and b differ (n words).
__global__ void count_different(const uint4* a, const uint4* b, std::size_t n, unsigned long long* wrong)
{
  unsigned long long different = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    const uint4 x = a[i];
    const uint4 y = b[i];
    different += (x.x != y.x) | (x.y != y.y) | (x.z != y.z) | (x.w != y.w);
  }
  if (different != 0)
  {
    atomicAdd(wrong, different);
  }
}

// Whether strata's destination arena equals CUB's, over the same batch (both arenas poisoned differently first, so
// that a byte left unwritten differs).
bool same_as_cub(const batch& b)
{
  const std::size_t padded = (b.bytes + 15) / 16 * 16;
  strata_bench::device_array<std::uint8_t> theirs(padded);
  STRATA_BENCH_CHECK(cudaMemset(b.dst, 0xa5, b.bytes));
  STRATA_BENCH_CHECK(cudaMemset(theirs.get(), 0x5a, padded));
  std::vector<void*> dsts(b.count);
  STRATA_BENCH_CHECK(cudaMemcpy(dsts.data(), b.d_dsts, b.count * sizeof(void*), cudaMemcpyDeviceToHost));
  const std::ptrdiff_t shift = reinterpret_cast<std::uint8_t*>(theirs.get()) - b.dst;
  for (auto& p : dsts)
  {
    p = static_cast<std::uint8_t*>(p) + shift;
  }
  strata_bench::device_array<void*> d_theirs(b.count);
  STRATA_BENCH_CHECK(cudaMemcpy(d_theirs.get(), dsts.data(), b.count * sizeof(void*), cudaMemcpyHostToDevice));
  for (library lib : {library::strata, library::cub})
  {
    std::size_t bytes = 0;
    void** out        = lib == library::strata ? b.d_dsts : d_theirs.get();
    STRATA_BENCH_CHECK(run(lib, nullptr, bytes, b, out, 0));
    strata_bench::device_array<char> temp(bytes);
    STRATA_BENCH_CHECK(run(lib, temp.get(), bytes, b, out, 0));
  }
  strata_bench::device_array<unsigned long long> wrong(1);
  STRATA_BENCH_CHECK(cudaMemset(wrong.get(), 0, sizeof(unsigned long long)));
  const std::size_t words = b.bytes / 16;
  count_different<<<1024, 256>>>(reinterpret_cast<const uint4*>(b.dst), reinterpret_cast<const uint4*>(theirs.get()),
                                 words, wrong.get());
  unsigned long long different = 0;
  STRATA_BENCH_CHECK(cudaMemcpy(&different, wrong.get(), sizeof(different), cudaMemcpyDeviceToHost));
  std::vector<std::uint8_t> tail_a(b.bytes - words * 16), tail_b(b.bytes - words * 16);
  STRATA_BENCH_CHECK(cudaMemcpy(tail_a.data(), b.dst + words * 16, tail_a.size(), cudaMemcpyDeviceToHost));
  STRATA_BENCH_CHECK(cudaMemcpy(tail_b.data(), theirs.get() + words * 16, tail_b.size(), cudaMemcpyDeviceToHost));
  return different == 0 && tail_a == tail_b;
}

void bench(benchmark::State& state, const size_class& sizes, int log2_count, library lib)
{
  // One batch per case, shared by its three libraries' runs (made on first use, kept until the process ends).
  static std::map<std::string, std::unique_ptr<batch>> batches;
  const std::string key = std::string(sizes.name) + "/" + std::to_string(log2_count);
  auto& slot            = batches[key];
  if (!slot)
  {
    batches.clear(); // the cases run in order: the batch before is not needed again
    batches[key] = std::make_unique<batch>(sizes, log2_count);
  }
  const batch& b = *batches[key];
  strata_bench::set_counters(state, b.count, 2 * b.bytes);
  if (lib == library::copy)
  {
    strata_bench::time_loop(state, [&](cudaStream_t s) {
      STRATA_BENCH_CHECK(cudaMemcpyAsync(b.dst, b.src, b.bytes, cudaMemcpyDeviceToDevice, s));
    });
    return;
  }
  std::size_t bytes = 0;
  STRATA_BENCH_CHECK(run(lib, nullptr, bytes, b, b.d_dsts, 0));
  strata_bench::device_array<char> temp(bytes);
  strata_bench::time_loop(state, [&](cudaStream_t s) {
    STRATA_BENCH_CHECK(run(lib, temp.get(), bytes, b, b.d_dsts, s));
  });

  // Validate against CUB, in strata's run only and once per case.
  static std::set<std::string> validated;
  if (lib == library::strata && validated.insert(key).second && !same_as_cub(b))
  {
    state.SkipWithError("strata and cub disagree");
  }
}

// batch_memcpy/<size class>/2^k buffers/<library> for every size class, count and library.
void register_cases()
{
  static const size_class small{"8-4096", 8, 4096};
  static const size_class large{"64K-1M", 64 << 10, 1 << 20};
  for (const auto& [sizes, counts] :
       {std::pair<const size_class*, std::vector<int>>{&small, {16, 20}}, {&large, {12, 14}}})
  {
    for (const int log2_count : counts)
    {
      for (library lib : {library::strata, library::cub, library::copy})
      {
        const std::string name =
          std::string("batch_memcpy/") + sizes->name + "/2^" + std::to_string(log2_count) + "/" + name_of(lib);
        const size_class* const cls = sizes;
        benchmark::RegisterBenchmark(name.c_str(),
                                     [cls, log2_count, lib](benchmark::State& st) {
                                       bench(st, *cls, log2_count, lib);
                                     })
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
      }
    }
  }
}
} // namespace

int main(int argc, char** argv)
{
  register_cases();
  return strata_bench::run_benchmarks(argc, argv);
}
