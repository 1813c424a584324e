// DeviceRunLengthEncode::Encode and NonTrivialRuns against runs counted on the host: items of 1, 4 and 8 bytes and a
// 16-byte user struct in runs of random length, one run of everything, runs of one; Encode's unique items the runs'
// first, bit for bit (zeros of both signs); every size class and partial last tile; lengths, offsets and counts
// written as int, unsigned int and size_t; stream and graph launches; a transform_iterator input and a
// discard_iterator for the unique items; the single-phase forms; bad input rejected before anything is written; no
// items write 0 runs.
#include <strata/device/device_run_length_encode.cuh>
#include <strata/execution/policy.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "device_launch.cuh"
#include "select_test.cuh"
#include "test_util.cuh"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace
{
using select_test::MAX_ITEMS;

// The tile of both forms, which run on DeviceReduce::ReduceByKey's kernel (items T, 32-bit lengths here).
template <typename T>
constexpr std::size_t runs_tile()
{
  return strata::detail::reduce_by_key::policy_hub<T, std::uint32_t>::MaxPolicy::ScanPolicy::TILE_ITEMS;
}

// n items in runs of 1 to `max_run` copies of one of `pool`'s items; neighbouring runs differ.
template <typename T>
std::vector<T> run_items(std::size_t n, std::size_t max_run, std::uint64_t salt)
{
  const std::vector<T> pool = strata_test::random_vector<T>(64, salt);
  std::mt19937_64 rng(salt + 1);
  std::uniform_int_distribution<std::size_t> length(1, max_run), pick(0, pool.size() - 1);
  std::vector<T> items;
  items.reserve(n);
  std::size_t previous = pool.size();
  while (items.size() < n)
  {
    std::size_t p = pick(rng);
    while (p == previous || (previous < pool.size() && pool[p] == pool[previous]))
    {
      p = (p + 1) % pool.size();
    }
    previous = p;
    for (std::size_t i = length(rng); i > 0 && items.size() < n; --i)
    {
      items.push_back(pool[p]);
    }
  }
  return items;
}

template <typename T, typename LengthT>
void reference(const std::vector<T>& in, std::vector<T>& unique, std::vector<LengthT>& lengths)
{
  unique.clear();
  lengths.clear();
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    if (i == 0 || !(in[i - 1] == in[i]))
    {
      unique.push_back(in[i]);
      lengths.push_back(0);
    }
    ++lengths.back();
  }
}

template <typename T, typename LengthT, typename NumT>
void check_encode(const std::vector<T>& in, strata_test::launch_mode mode)
{
  const std::size_t n = in.size();
  CAPTURE(n);
  std::vector<T> want_unique;
  std::vector<LengthT> want_lengths;
  reference(in, want_unique, want_lengths);
  const strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_unique(n + 32);
  strata_test::device_buffer<LengthT> d_lengths(n + 32);
  strata_test::device_buffer<NumT> d_num(1);
  strata_test::launch(
    [&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceRunLengthEncode::Encode(temp, bytes, d_in.data(), d_unique.data(), d_lengths.data(),
                                                   d_num.data(), n, s);
    },
    mode);
  CHECK(static_cast<std::size_t>(d_num.download()[0]) == want_unique.size());
  strata_test::require_written_prefix("unique items", d_unique, want_unique);
  strata_test::require_written_prefix("run lengths", d_lengths, want_lengths);
}

// The runs of more than one item: their starts and lengths.
template <typename T, typename OffsetT, typename LengthT>
void non_trivial_reference(const std::vector<T>& in, std::vector<OffsetT>& offsets, std::vector<LengthT>& lengths)
{
  offsets.clear();
  lengths.clear();
  for (std::size_t start = 0; start < in.size();)
  {
    std::size_t end = start + 1;
    while (end < in.size() && in[end] == in[start])
    {
      ++end;
    }
    if (end - start > 1)
    {
      offsets.push_back(static_cast<OffsetT>(start));
      lengths.push_back(static_cast<LengthT>(end - start));
    }
    start = end;
  }
}

template <typename T, typename OffsetT, typename LengthT, typename NumT>
void check_non_trivial(const std::vector<T>& in, strata_test::launch_mode mode)
{
  const std::size_t n = in.size();
  CAPTURE(n);
  std::vector<OffsetT> want_offsets;
  std::vector<LengthT> want_lengths;
  non_trivial_reference(in, want_offsets, want_lengths);
  const strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<OffsetT> d_offsets(n + 32);
  strata_test::device_buffer<LengthT> d_lengths(n + 32);
  strata_test::device_buffer<NumT> d_num(1);
  strata_test::launch(
    [&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceRunLengthEncode::NonTrivialRuns(temp, bytes, d_in.data(), d_offsets.data(), d_lengths.data(),
                                                           d_num.data(), n, s);
    },
    mode);
  CHECK(static_cast<std::size_t>(d_num.download()[0]) == want_offsets.size());
  strata_test::require_written_prefix("run offsets", d_offsets, want_offsets);
  strata_test::require_written_prefix("run lengths", d_lengths, want_lengths);
}

template <typename T>
void check_sizes(std::uint64_t salt)
{
  std::size_t round = 0;
  for (const std::size_t n : strata_test::test_sizes(runs_tile<T>(), MAX_ITEMS, salt))
  {
    const auto mode = (n + round++) % 4 == 0 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
    check_encode<T, int, std::size_t>(run_items<T>(n, 1 + n % 13, salt + n), mode);
  }
}

template <typename T>
void check_non_trivial_sizes(std::uint64_t salt)
{
  std::size_t round = 0;
  for (const std::size_t n : strata_test::test_sizes(runs_tile<T>(), MAX_ITEMS, salt))
  {
    const auto mode = (n + round++) % 4 == 0 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
    // Runs of 1 to 1 + n % 5 items: many runs of one between longer ones.
    check_non_trivial<T, int, int, std::size_t>(run_items<T>(n, 1 + n % 5, salt + n), mode);
  }
}
} // namespace

TEST_CASE("DeviceRunLengthEncode::Encode counts every run at every size class", "[device][run_length_encode]")
{
  check_sizes<std::int32_t>(0x7e1);
  check_sizes<std::uint8_t>(0x7e2);
  check_sizes<std::int64_t>(0x7e3);
  check_sizes<strata_test::custom_t>(0x7e4);
}

TEST_CASE("DeviceRunLengthEncode::Encode of one run, of runs of one, and at every partial last tile",
          "[device][run_length_encode]")
{
  using T             = std::int32_t;
  const std::size_t t = runs_tile<T>();
  for (const std::size_t n : {std::size_t(1), t - 1, t, 3 * t + 5, strata_test::capped(MAX_ITEMS)})
  {
    check_encode<T, unsigned int, int>(std::vector<T>(n, 42), strata_test::launch_mode::stream);
    std::vector<T> distinct(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      distinct[i] = static_cast<T>(i);
    }
    check_encode<T, std::size_t, unsigned int>(distinct, strata_test::launch_mode::stream);
  }
  for (const std::size_t k : {1, 2, 9})
  {
    for (const std::size_t r : {std::size_t(0), std::size_t(1), t / 2, t - 1})
    {
      const std::size_t n = k * t + r;
      if (n <= strata_test::capped(MAX_ITEMS))
      {
        check_encode<T, int, int>(run_items<T>(n, 7, 0x7e5 + n), strata_test::launch_mode::stream);
      }
    }
  }
}

TEST_CASE("DeviceRunLengthEncode::Encode writes each run's first item, bit for bit", "[device][run_length_encode]")
{
  // Runs of zeros of both signs (equal under ==, different bits) between runs of other values: a run's unique item is
  // its first, as CUB documents, whether the run starts in an earlier tile than it ends and whether its tile holds
  // more runs than threads (shared-memory stores) or fewer (direct stores).
  const std::size_t t = runs_tile<float>();
  for (const std::size_t max_run : {std::size_t(3), t / 3 + 1, 2 * t})
  {
    CAPTURE(max_run);
    std::mt19937_64 rng(0x7e9 + max_run);
    std::uniform_int_distribution<std::size_t> length(1, max_run);
    const std::size_t n = 5 * t + 17;
    std::vector<float> in;
    bool zeros  = true;
    float other = 1.0f;
    while (in.size() < n)
    {
      for (std::size_t i = length(rng); i > 0 && in.size() < n; --i)
      {
        in.push_back(zeros ? ((rng() & 1u) != 0 ? -0.0f : 0.0f) : other);
      }
      other += zeros ? 0.0f : 1.0f;
      zeros = !zeros;
    }
    std::vector<float> want_unique;
    std::vector<int> want_lengths;
    reference(in, want_unique, want_lengths);
    const strata_test::device_buffer<float> d_in(in);
    strata_test::device_buffer<float> d_unique(n);
    strata_test::device_buffer<int> d_lengths(n), d_num(1);
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceRunLengthEncode::Encode(temp, bytes, d_in.data(), d_unique.data(), d_lengths.data(),
                                                     d_num.data(), n, s);
      },
      strata_test::launch_mode::stream);
    REQUIRE(static_cast<std::size_t>(d_num.download()[0]) == want_unique.size());
    const std::vector<float> unique = d_unique.download();
    std::vector<std::uint32_t> got_bits(want_unique.size()), want_bits(want_unique.size());
    std::memcpy(got_bits.data(), unique.data(), want_unique.size() * sizeof(float));
    std::memcpy(want_bits.data(), want_unique.data(), want_unique.size() * sizeof(float));
    STRATA_REQUIRE_EQUAL_VECTORS(got_bits, want_bits);
    strata_test::require_written_prefix("run lengths", d_lengths, want_lengths);
  }
}

TEST_CASE("DeviceRunLengthEncode::NonTrivialRuns finds every run of more than one item at every size class",
          "[device][run_length_encode][non_trivial]")
{
  check_non_trivial_sizes<std::int32_t>(0x7f1);
  check_non_trivial_sizes<std::uint8_t>(0x7f2);
  check_non_trivial_sizes<std::int64_t>(0x7f3);
  check_non_trivial_sizes<strata_test::custom_t>(0x7f4);
}

TEST_CASE("DeviceRunLengthEncode::NonTrivialRuns of one run, of runs of one, of runs of two, and at every partial last "
          "tile",
          "[device][run_length_encode][non_trivial]")
{
  using T             = std::int32_t;
  const std::size_t t = runs_tile<T>();
  for (const std::size_t n :
       {std::size_t(1), std::size_t(2), t - 1, t, t + 1, 3 * t + 5, strata_test::capped(MAX_ITEMS)})
  {
    check_non_trivial<T, unsigned int, std::size_t, int>(std::vector<T>(n, 42), strata_test::launch_mode::stream);
    std::vector<T> distinct(n), pairs(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      distinct[i] = static_cast<T>(i);
      pairs[i]    = static_cast<T>(i / 2);
    }
    check_non_trivial<T, std::size_t, unsigned int, unsigned int>(distinct, strata_test::launch_mode::stream);
    check_non_trivial<T, int, int, int>(pairs, strata_test::launch_mode::graph);
  }
  for (const std::size_t k : {1, 2, 9})
  {
    for (const std::size_t r : {std::size_t(0), std::size_t(1), t / 2, t - 1})
    {
      const std::size_t n = k * t + r;
      if (n <= strata_test::capped(MAX_ITEMS))
      {
        check_non_trivial<T, int, int, int>(run_items<T>(n, 3, 0x7f5 + n), strata_test::launch_mode::stream);
      }
    }
  }
}

TEST_CASE("DeviceRunLengthEncode::NonTrivialRuns single-phase, and bad input rejected before anything is written",
          "[device][run_length_encode][non_trivial][errors]")
{
  constexpr int N             = 100000;
  const std::vector<int> h_in = run_items<int>(N, 4, 0x7f6);
  std::vector<int> want_offsets, want_lengths;
  non_trivial_reference(h_in, want_offsets, want_lengths);
  const strata_test::device_buffer<int> d_in(h_in);
  {
    strata_test::device_buffer<int> d_offsets(N), d_lengths(N), d_num(1);
    REQUIRE(strata::DeviceRunLengthEncode::NonTrivialRuns(d_in.data(), d_offsets.data(), d_lengths.data(), d_num.data(),
                                                          N, strata::par.on(cudaStream_t{0}))
            == cudaSuccess);
    STRATA_TEST_SYNC();
    CHECK(static_cast<std::size_t>(d_num.download()[0]) == want_offsets.size());
    strata_test::require_written_prefix("run offsets", d_offsets, want_offsets);
    strata_test::require_written_prefix("run lengths", d_lengths, want_lengths);
  }
  strata_test::device_buffer<int> d_offsets(N), d_lengths(N), d_num(1);
  int* const null = nullptr;
  const auto call = [&](void* temp, std::size_t& bytes, const int* in, int* offsets, int* lengths, int* num,
                        long long n) {
    return strata::DeviceRunLengthEncode::NonTrivialRuns(temp, bytes, in, offsets, lengths, num, n, cudaStream_t{0});
  };
  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, d_in.data(), d_offsets.data(), d_lengths.data(), d_num.data(), N) == cudaSuccess);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
  std::size_t b = bytes - 1;
  CHECK(call(d_temp, b, d_in.data(), d_offsets.data(), d_lengths.data(), d_num.data(), N) == cudaErrorInvalidValue);
  b = bytes;
  CHECK(call(d_temp, b, d_in.data(), d_offsets.data(), d_lengths.data(), d_num.data(), -1) == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, null, d_offsets.data(), d_lengths.data(), d_num.data(), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, d_in.data(), null, d_lengths.data(), d_num.data(), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, d_in.data(), d_offsets.data(), null, d_num.data(), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, d_in.data(), d_offsets.data(), d_lengths.data(), null, N) == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_offsets.download()));
  CHECK(strata_test::all_poisoned(d_lengths.download()));
  CHECK(strata_test::all_poisoned(d_num.download()));

  std::size_t empty_bytes = 0;
  REQUIRE(call(nullptr, empty_bytes, null, null, null, d_num.data(), 0) == cudaSuccess);
  REQUIRE(call(d_temp, empty_bytes, null, null, null, d_num.data(), 0) == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(d_num.download()[0] == 0);
  STRATA_TEST_CUDA(cudaFree(d_temp));
}

namespace
{
// i / 5: runs of five over a counting iterator.
struct fifth
{
  __host__ __device__ long long operator()(long long i) const
  {
    return i / 5;
  }
};
} // namespace

TEST_CASE("DeviceRunLengthEncode::Encode over a transform_iterator into a discard_iterator of unique items",
          "[device][run_length_encode][iterators]")
{
  const long long n      = static_cast<long long>(strata_test::capped(1000003));
  const auto in          = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), fifth{});
  const std::size_t runs = static_cast<std::size_t>((n + 4) / 5);
  strata_test::device_buffer<int> d_lengths(runs + 32);
  strata_test::device_buffer<long long> d_num(1);
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceRunLengthEncode::Encode(temp, bytes, in, thrust::make_discard_iterator(), d_lengths.data(),
                                                 d_num.data(), n, s);
  });
  std::vector<int> want(runs, 5);
  want.back() = static_cast<int>(n - 5 * static_cast<long long>(runs - 1));
  CHECK(d_num.download()[0] == static_cast<long long>(runs));
  strata_test::require_written_prefix("run lengths", d_lengths, want);
}

TEST_CASE("DeviceRunLengthEncode::Encode single-phase on a stream and on a policy",
          "[device][run_length_encode][single_phase]")
{
  using T                 = std::int64_t;
  const std::size_t n     = strata_test::capped(300007);
  const std::vector<T> in = run_items<T>(n, 9, 0x7e6);
  std::vector<T> want_unique;
  std::vector<int> want_lengths;
  reference(in, want_unique, want_lengths);
  const strata_test::device_buffer<T> d_in(in);
  cudaStream_t s{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (const bool policy : {false, true})
  {
    strata_test::device_buffer<T> d_unique(n + 32);
    strata_test::device_buffer<int> d_lengths(n + 32), d_num(1);
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    const cudaError_t e = policy ? strata::DeviceRunLengthEncode::Encode(d_in.data(), d_unique.data(), d_lengths.data(),
                                                                         d_num.data(), n, strata::par.on(s))
                                 : strata::DeviceRunLengthEncode::Encode(d_in.data(), d_unique.data(), d_lengths.data(),
                                                                         d_num.data(), n, s);
    REQUIRE(e == cudaSuccess);
    STRATA_TEST_CUDA(cudaStreamSynchronize(s));
    CHECK(static_cast<std::size_t>(d_num.download()[0]) == want_unique.size());
    strata_test::require_written_prefix("unique items", d_unique, want_unique);
    strata_test::require_written_prefix("run lengths", d_lengths, want_lengths);
  }
  STRATA_TEST_CUDA(cudaStreamDestroy(s));
}

TEST_CASE("DeviceRunLengthEncode::Encode rejects bad input and writes 0 runs for no items",
          "[device][run_length_encode][errors]")
{
  constexpr int N             = 100000;
  const std::vector<int> h_in = run_items<int>(N, 4, 0x7e7);
  const strata_test::device_buffer<int> d_in(h_in);
  strata_test::device_buffer<int> d_unique(N), d_lengths(N), d_num(1);
  int* const null = nullptr;
  const auto call = [&](void* temp, std::size_t& bytes, const int* in, int* unique, int* lengths, int* num,
                        long long n) {
    return strata::DeviceRunLengthEncode::Encode(temp, bytes, in, unique, lengths, num, n, cudaStream_t{0});
  };
  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, d_in.data(), d_unique.data(), d_lengths.data(), d_num.data(), N) == cudaSuccess);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
  std::size_t b = bytes;
  CHECK(call(d_temp, b, d_in.data(), d_unique.data(), d_lengths.data(), d_num.data(), -1) == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, null, d_unique.data(), d_lengths.data(), d_num.data(), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, d_in.data(), null, d_lengths.data(), d_num.data(), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, d_in.data(), d_unique.data(), null, d_num.data(), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, b, d_in.data(), d_unique.data(), d_lengths.data(), null, N) == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_unique.download()));
  CHECK(strata_test::all_poisoned(d_lengths.download()));
  CHECK(strata_test::all_poisoned(d_num.download()));

  std::size_t empty_bytes = 0;
  REQUIRE(call(nullptr, empty_bytes, null, null, null, d_num.data(), 0) == cudaSuccess);
  REQUIRE(call(d_temp, empty_bytes, null, null, null, d_num.data(), 0) == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(d_num.download()[0] == 0);
  STRATA_TEST_CUDA(cudaFree(d_temp));
}
