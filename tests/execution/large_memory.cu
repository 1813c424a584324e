// The frontend over arrays of more than 2^31 items in device memory: reductions and extremes over 2 GiB of int8,
// scans and scans by key into an 8 GiB array of uint32, element-wise algorithms over 2 GiB; every output item is
// checked on the device. It needs about 11 GiB of free device memory; with less, every test case here is skipped and
// says so (tests/execution/large.cu covers the offsets without memory).
#include "support.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda/std/functional>

#include <cstdint>
#include <vector>

namespace
{
using exec_test::twice;

using u64 = unsigned long long;

// Just over 2^31 items.
constexpr std::size_t N = (std::size_t(1) << 31) + 4099;

// What the largest test case holds at once (2 GiB of int8, 8 GiB of uint32, temporary storage), with a margin.
constexpr std::size_t NEEDED_BYTES = std::size_t(11) << 30;

// Skips the test case (visibly) when the device lacks the memory. Every test case asks for the largest need, so that
// with Catch2 v2 (which skips by ending the executable) either all of them run or none does.
void require_device_memory()
{
  std::size_t free_bytes = 0, total_bytes = 0;
  STRATA_TEST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < NEEDED_BYTES)
  {
    STRATA_TEST_SKIP_ALL("tests/execution/large_memory.cu needs "
                         << (NEEDED_BYTES >> 20) << " MiB of free device memory; the device has " << (free_bytes >> 20)
                         << " MiB free of " << (total_bytes >> 20) << " MiB");
  }
}

// A device array of n items, uninitialized (filled by the kernels below).
template <typename T>
class big_array
{
public:
  explicit big_array(std::size_t n)
      : n_(n)
  {
    STRATA_TEST_CUDA(cudaMalloc(&ptr_, n * sizeof(T)));
  }
  big_array(const big_array&)            = delete;
  big_array& operator=(const big_array&) = delete;
  ~big_array()
  {
    cudaFree(ptr_);
  }
  T* get() const
  {
    return ptr_;
  }
  std::size_t size() const
  {
    return n_;
  }

private:
  T* ptr_ = nullptr;
  std::size_t n_;
};

// The int8 pattern the inputs hold: i mod 101 - 50 (never all zeros), so sums and extremes are known in closed form.
__host__ __device__ inline std::int8_t pattern(std::size_t i)
{
  return static_cast<std::int8_t>(static_cast<int>(i % 101) - 50);
}

__global__ void fill_pattern(std::int8_t* data, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    data[i] = pattern(i);
  }
}

// Counts the positions where data[i] != expected(i).
template <typename T, typename Expected>
__global__ void count_wrong(const T* data, std::size_t n, Expected expected, u64* wrong)
{
  u64 mine = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    mine += data[i] == expected(i) ? 0 : 1;
  }
  if (mine != 0)
  {
    atomicAdd(wrong, mine);
  }
}

template <typename T, typename Expected>
u64 wrong_items(const T* data, std::size_t n, Expected expected)
{
  thrust::device_vector<u64> wrong(1, 0ULL);
  exec_test::settle();
  count_wrong<<<4096, 256>>>(data, n, expected, thrust::raw_pointer_cast(wrong.data()));
  return exec_test::download(wrong)[0];
}

struct pattern_at
{
  __host__ __device__ std::int8_t operator()(std::size_t i) const
  {
    return pattern(i);
  }
};
struct doubled_pattern_at
{
  __host__ __device__ std::int8_t operator()(std::size_t i) const
  {
    return static_cast<std::int8_t>(2 * pattern(i));
  }
};
struct constant_at
{
  std::int8_t value;
  __host__ __device__ std::int8_t operator()(std::size_t) const
  {
    return value;
  }
};
struct low_byte_at
{
  __host__ __device__ std::int8_t operator()(std::size_t i) const
  {
    return static_cast<std::int8_t>(i);
  }
};
// An item as a uint32.
struct to_u32
{
  __host__ __device__ std::uint32_t operator()(std::int8_t x) const
  {
    return static_cast<std::uint32_t>(x);
  }
};

// 32-bit unsigned addition.
struct plus_u32
{
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const
  {
    return a + b;
  }
};

// add + mul (i mod run), as uint32: what the scans below write at position i.
struct expected_u32
{
  std::size_t run;
  std::uint32_t add, mul;
  __host__ __device__ std::uint32_t operator()(std::size_t i) const
  {
    return add + mul * static_cast<std::uint32_t>(i % run);
  }
};
constexpr std::size_t NO_RUNS = ~std::size_t(0);

// The run of position i when runs are `length` long.
struct run_of
{
  long long length;
  __host__ __device__ long long operator()(long long i) const
  {
    return i / length;
  }
};

// The sum of pattern(0) .. pattern(n - 1): every full cycle of -50 .. 50 sums to 0.
long long pattern_sum(std::size_t n)
{
  long long sum = 0;
  for (std::size_t i = 0; i < n % 101; ++i)
  {
    sum += pattern(i);
  }
  return sum;
}

struct equals_50
{
  __host__ __device__ bool operator()(std::int8_t x) const
  {
    return x == 50;
  }
};

// 2 pattern(i + 1): the expected output of a transform shifted by one item.
struct doubled_pattern_after
{
  __host__ __device__ std::int8_t operator()(std::size_t i) const
  {
    return static_cast<std::int8_t>(2 * pattern(i + 1));
  }
};

} // namespace

TEST_CASE("strata's reductions and extremes over 2^31 + k int8 in memory", "[execution][large][memory][reduce]")
{
  require_device_memory();
  exec_test::logged_stream stream;
  big_array<std::int8_t> in(N);
  fill_pattern<<<4096, 256>>>(in.get(), N);
  // One planted extreme each, past 2^31.
  const std::size_t low_at = (std::size_t(1) << 31) + 3, high_at = N - 2;
  const std::int8_t low = -100, high = 100;
  STRATA_TEST_CUDA(cudaMemcpy(in.get() + low_at, &low, 1, cudaMemcpyHostToDevice));
  STRATA_TEST_CUDA(cudaMemcpy(in.get() + high_at, &high, 1, cudaMemcpyHostToDevice));
  exec_test::settle();
  std::int8_t* const first = in.get();
  std::int8_t* const last  = first + N;
  const long long sum      = pattern_sum(N) - pattern(low_at) - pattern(high_at) + low + high;

  CHECK(strata::reduce(stream.policy, first, last, 0LL) == sum);
  CHECK(strata::transform_reduce(stream.policy, first, last, 0LL, cuda::std::plus<>{}, twice{}) == 2 * sum);
  CHECK(strata::count(stream.policy, first, last, std::int8_t(-100)) == 1);
  // pattern(i) == 50 where i mod 101 == 100: N / 101 positions, less the planted ones that were.
  CHECK(strata::count_if(stream.policy, first, last, equals_50{})
        == static_cast<std::ptrdiff_t>(N / 101) - (pattern(high_at) == 50 ? 1 : 0) - (pattern(low_at) == 50 ? 1 : 0));
  CHECK(strata::min_element(stream.policy, first, last) - first == static_cast<std::ptrdiff_t>(low_at));
  CHECK(strata::max_element(stream.policy, first, last) - first == static_cast<std::ptrdiff_t>(high_at));
  const auto mm = strata::minmax_element(stream.policy, first, last);
  CHECK(mm.first - first == static_cast<std::ptrdiff_t>(low_at));
  CHECK(mm.second - first == static_cast<std::ptrdiff_t>(high_at));
  CHECK(strata::equal(stream.policy, first, last, first));
  stream.require_clean();
}

TEST_CASE("strata's scans over 2^31 + k items into memory", "[execution][large][memory][scan]")
{
  require_device_memory();
  exec_test::logged_stream stream;
  big_array<std::int8_t> ones(N);
  STRATA_TEST_CUDA(cudaMemset(ones.get(), 1, N));
  big_array<std::uint32_t> out(N);
  exec_test::settle();

  // An inclusive scan accumulates in its input's value type (without init) or in op(item, init)'s type: the int8 ones
  // reach uint32 sums through a uint32 init, or through an iterator that reads them as uint32.
  SECTION("inclusive_scan of int8 ones in memory, accumulated in uint32 from init")
  {
    CHECK(strata::inclusive_scan(stream.policy, ones.get(), ones.get() + N, out.get(), plus_u32{}, std::uint32_t{0})
          == out.get() + N);
    stream.sync();
    CHECK(wrong_items(out.get(), N, expected_u32{NO_RUNS, 1, 1}) == 0);
  }
  SECTION("exclusive_scan of int8 ones in memory from 7")
  {
    strata::exclusive_scan(stream.policy, ones.get(), ones.get() + N, out.get(), std::uint32_t{7}, plus_u32{});
    stream.sync();
    CHECK(wrong_items(out.get(), N, expected_u32{NO_RUNS, 7, 1}) == 0);
  }
  SECTION("inclusive_scan in place over uint32 ones")
  {
    strata::fill(stream.policy, out.get(), out.get() + N, 1u);
    strata::inclusive_scan(stream.policy, out.get(), out.get() + N, out.get());
    stream.sync();
    CHECK(wrong_items(out.get(), N, expected_u32{NO_RUNS, 1, 1}) == 0);
  }
  SECTION("inclusive_scan_by_key and exclusive_scan_by_key under runs of 1000003 keys")
  {
    const std::size_t run = 1000003;
    const long long count = static_cast<long long>(N);
    const run_of runs{static_cast<long long>(run)};
    const auto keys     = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), runs);
    const auto ones_u32 = thrust::make_transform_iterator(ones.get(), to_u32{});
    strata::inclusive_scan_by_key(stream.policy, keys, keys + count, ones_u32, out.get(), cuda::std::equal_to<>{},
                                  plus_u32{});
    stream.sync();
    CHECK(wrong_items(out.get(), N, expected_u32{run, 1, 1}) == 0);
    const thrust::constant_iterator<std::uint32_t> twos(2);
    strata::exclusive_scan_by_key(stream.policy, keys, keys + count, twos, out.get(), std::uint32_t{1});
    stream.sync();
    CHECK(wrong_items(out.get(), N, expected_u32{run, 1, 2}) == 0);
  }
  stream.require_clean();
}

TEST_CASE("strata's element-wise algorithms over 2^31 + k int8 in memory", "[execution][large][memory][transform]")
{
  require_device_memory();
  exec_test::gated_stream stream;
  const auto policy = strata::par.on(stream.get());
  big_array<std::int8_t> in(N), out(N);
  fill_pattern<<<4096, 256>>>(in.get(), N);
  STRATA_TEST_CUDA(cudaMemset(out.get(), strata_test::poison_byte, N));
  exec_test::settle();
  std::int8_t* const first = in.get();
  std::int8_t* const last  = first + N;

  CHECK(strata::transform(policy, first, last, out.get(), twice{}) == out.get() + N);
  stream.sync();
  CHECK(wrong_items(out.get(), N, doubled_pattern_at{}) == 0);

  STRATA_TEST_CUDA(cudaMemset(out.get(), strata_test::poison_byte, N));
  exec_test::settle();
  CHECK(strata::copy(policy, first, last, out.get()) == out.get() + N);
  stream.sync();
  CHECK(wrong_items(out.get(), N, pattern_at{}) == 0);

  CHECK(strata::fill_n(policy, out.get(), N, std::int8_t(-7)) == out.get() + N);
  stream.sync();
  CHECK(wrong_items(out.get(), N, constant_at{-7}) == 0);

  strata::sequence(policy, out.get(), out.get() + N);
  stream.sync();
  CHECK(wrong_items(out.get(), N, low_byte_at{}) == 0);

  // Unaligned by one item: the item-by-item path, past 2^31.
  STRATA_TEST_CUDA(cudaMemset(out.get(), strata_test::poison_byte, N));
  exec_test::settle();
  strata::transform(policy, first + 1, last, out.get() + 1, twice{});
  stream.sync();
  CHECK(wrong_items(out.get() + 1, N - 1, doubled_pattern_after{}) == 0);
}
