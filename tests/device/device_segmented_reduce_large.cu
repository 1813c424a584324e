// DeviceSegmentedReduce over more than 2^31 items, on int8 values made on the device from a hash of their position
// (with a few planted maxima): segments given by 64-bit offsets, two of 2^30 items (one across item 2^31) among
// millions of small ones, in the CSR form; scattered begin/end offsets with a segment of more than 2^31 items, one
// across 2^31, overlaps and end < begin; fixed-size segments past item 2^31; and more than 2^31 segments (64-bit
// num_segments, fixed size 1). Sums of int8 items into int64 outputs, maxima and arg-maxima, each checked against the
// host. Apart from device_segmented_reduce.cu because its [large] cases need an optimized host build and both offset
// types (tests/CMakeLists.txt). Each test case says skipped where the device lacks the memory it needs.
#include <strata/device/device_segmented_reduce.cuh>

#include "device_launch.cuh"
#include "large_segments.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace
{
using u64  = unsigned long long;
using Pair = strata::KeyValuePair<int, std::int8_t>;

using large_test::add_small;
using large_test::N;
using large_test::require_device_memory;
using large_test::segments;
using large_test::TWO31;
using large_test::value_of;

// Planted maxima (127, above every hashed value), two of them in one segment: the first is the one ArgMax finds.
constexpr std::size_t PEAKS[] = {3, TWO31 + 1000, TWO31 + 5000, N - 7};

// The input on the device (hashed values and the planted peaks) and a host copy of it.
struct input
{
  strata_test::device_buffer<std::int8_t> device{N};
  std::vector<std::int8_t> host;

  input()
  {
    large_test::fill_values<<<4096, 256>>>(device.data(), N);
    STRATA_TEST_SYNC();
    for (const std::size_t p : PEAKS)
    {
      STRATA_TEST_CUDA(cudaMemset(device.data() + p, 127, 1));
    }
    host = device.download();
  }
};

// Per segment: the sum of its items (int64), its largest item (lowest() when empty) and the first position of it
// ({1, lowest()} when empty).
struct references
{
  std::vector<long long> sums;
  std::vector<std::int8_t> maxima;
  std::vector<Pair> arg_maxima;
};
references reference(const std::vector<std::int8_t>& in, const segments& s)
{
  references r;
  r.sums.resize(s.size());
  r.maxima.resize(s.size());
  r.arg_maxima.resize(s.size());
  for (std::size_t k = 0; k < s.size(); ++k)
  {
    const std::int8_t* first = in.data() + s.begin[k];
    const std::int8_t* last  = s.end[k] > s.begin[k] ? in.data() + s.end[k] : first;
    long long sum            = 0;
    for (const std::int8_t* x = first; x != last; ++x)
    {
      sum += *x;
    }
    r.sums[k] = sum;
    if (first == last)
    {
      r.maxima[k]     = std::numeric_limits<std::int8_t>::lowest();
      r.arg_maxima[k] = Pair(1, std::numeric_limits<std::int8_t>::lowest());
    }
    else
    {
      const std::int8_t* m = std::max_element(first, last);
      r.maxima[k]          = *m;
      r.arg_maxima[k]      = Pair(static_cast<int>(m - first), *m);
    }
  }
  return r;
}

// d_out holds `want` for every segment; the first wrong one is reported with its items.
template <typename T>
void require_segments(const char* what, const strata_test::device_buffer<T>& d_out, const std::vector<T>& want,
                      const segments& s)
{
  INFO(what);
  const std::vector<T> out = d_out.download();
  REQUIRE(out.size() == want.size());
  std::size_t wrong = 0;
  std::size_t first = 0;
  for (std::size_t k = 0; k < want.size(); ++k)
  {
    if (!(out[k] == want[k]) && wrong++ == 0)
    {
      first = k;
    }
  }
  INFO(wrong << " of " << want.size() << " segments wrong; the first is segment " << first << ", items ["
             << (want.empty() ? 0 : s.begin[first]) << ", " << (want.empty() ? 0 : s.end[first]) << ")");
  CHECK(wrong == 0);
}
} // namespace

TEST_CASE("DeviceSegmentedReduce over more than 2^31 items with 64-bit offsets", "[device][segmented_reduce][large]")
{
  require_device_memory(std::size_t(4) << 30);
  const input in;
  std::mt19937_64 rng = strata_test::make_rng(0x1a5e);

  {
    INFO("two segments of 2^30 items, one across item 2^31, among millions of small ones (CSR)");
    segments s;
    long long at = add_small(s, 0, 200000, rng);
    s.add(at, at + (1LL << 30) + 77);
    at = add_small(s, s.end.back(), 200000, rng);
    s.add(at, at + (1LL << 30) - 5);
    REQUIRE(static_cast<std::size_t>(s.begin.back()) < TWO31);
    REQUIRE(static_cast<std::size_t>(s.end.back()) > TWO31);
    at = s.end.back();
    while (static_cast<std::size_t>(at) + 200 <= N)
    {
      at = add_small(s, at, 1, rng);
    }
    std::vector<long long> offsets = s.begin;
    offsets.push_back(s.end.back());
    const strata_test::device_buffer<long long> d_offsets(offsets);
    const int num = static_cast<int>(s.size());
    CAPTURE(num, offsets.back());
    const references want = reference(in.host, s);

    strata_test::device_buffer<long long> d_sums(s.size());
    strata_test::launch([&](void* t, std::size_t& b, cudaStream_t st) {
      return strata::DeviceSegmentedReduce::Sum(t, b, in.device.data(), d_sums.data(), num, d_offsets.data(),
                                                d_offsets.data() + 1, st);
    });
    require_segments("Sum into int64", d_sums, want.sums, s);

    strata_test::device_buffer<std::int8_t> d_maxima(s.size());
    strata_test::launch([&](void* t, std::size_t& b, cudaStream_t st) {
      return strata::DeviceSegmentedReduce::Max(t, b, in.device.data(), d_maxima.data(), num, d_offsets.data(),
                                                d_offsets.data() + 1, st);
    });
    require_segments("Max", d_maxima, want.maxima, s);

    strata_test::device_buffer<Pair> d_arg_maxima(s.size());
    strata_test::launch(
      [&](void* t, std::size_t& b, cudaStream_t st) {
        return strata::DeviceSegmentedReduce::ArgMax(t, b, in.device.data(), d_arg_maxima.data(), num, d_offsets.data(),
                                                     d_offsets.data() + 1, st);
      },
      strata_test::launch_mode::graph);
    require_segments("ArgMax", d_arg_maxima, want.arg_maxima, s);
  }

  {
    INFO("scattered begin/end offsets: a segment of more than 2^31 items, one across 2^31, overlaps, end < begin");
    const auto two31 = static_cast<long long>(TWO31);
    const auto n     = static_cast<long long>(N);
    segments s;
    s.add(5, 17);
    s.add(100, 100 + two31 + 4099); // more than 2^31 items
    s.add(n - 10, n);
    s.add(two31 + 3, two31 - 3); // end < begin: empty
    s.add(two31 - 3, two31 + 3);
    s.add(n - (1LL << 20), n);
    s.add(two31 - (1LL << 20), two31 + (1LL << 20)); // inside the long one
    s.add(two31, two31);
    std::uniform_int_distribution<long long> begin(0, n - 300), length(0, 300);
    for (int k = 0; k < 100000; ++k)
    {
      const long long b = begin(rng);
      s.add(b, b + length(rng));
    }
    const strata_test::device_buffer<long long> d_begin(s.begin);
    const strata_test::device_buffer<long long> d_end(s.end);
    const int num         = static_cast<int>(s.size());
    const references want = reference(in.host, s);

    strata_test::device_buffer<long long> d_sums(s.size());
    strata_test::launch([&](void* t, std::size_t& b, cudaStream_t st) {
      return strata::DeviceSegmentedReduce::Sum(t, b, in.device.data(), d_sums.data(), num, d_begin.data(),
                                                d_end.data(), st);
    });
    require_segments("Sum into int64", d_sums, want.sums, s);

    strata_test::device_buffer<std::int8_t> d_maxima(s.size());
    strata_test::launch([&](void* t, std::size_t& b, cudaStream_t st) {
      return strata::DeviceSegmentedReduce::Max(t, b, in.device.data(), d_maxima.data(), num, d_begin.data(),
                                                d_end.data(), st);
    });
    require_segments("Max", d_maxima, want.maxima, s);
  }

  {
    INFO("fixed-size segments of 100000 items, past item 2^31");
    const int size = 100000;
    const int num  = static_cast<int>(N / size);
    REQUIRE(static_cast<std::size_t>(num) * size > TWO31);
    segments s;
    for (int k = 0; k < num; ++k)
    {
      s.add(static_cast<long long>(k) * size, static_cast<long long>(k + 1) * size);
    }
    const references want = reference(in.host, s);

    strata_test::device_buffer<long long> d_sums(s.size());
    strata_test::launch([&](void* t, std::size_t& b, cudaStream_t st) {
      return strata::DeviceSegmentedReduce::Sum(t, b, in.device.data(), d_sums.data(), num, size, st);
    });
    require_segments("Sum into int64", d_sums, want.sums, s);

    strata_test::device_buffer<Pair> d_arg_maxima(s.size());
    strata_test::launch([&](void* t, std::size_t& b, cudaStream_t st) {
      return strata::DeviceSegmentedReduce::ArgMax(t, b, in.device.data(), d_arg_maxima.data(), num, size, st);
    });
    require_segments("ArgMax", d_arg_maxima, want.arg_maxima, s);
  }
}

namespace
{
// Counts the positions i < n where out[i] != in[i].
__global__ void count_different(const std::int8_t* out, const std::int8_t* in, std::size_t n, u64* wrong)
{
  u64 mine = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    mine += out[i] != in[i] ? 1 : 0;
  }
  if (mine != 0)
  {
    atomicAdd(wrong, mine);
  }
}
} // namespace

TEST_CASE("DeviceSegmentedReduce of more than 2^31 segments", "[device][segmented_reduce][large]")
{
  // The input and output (2.25 and 2 GiB) and the temporary storage (8 bytes a segment and the scan's).
  require_device_memory(std::size_t(28) << 30);
  const std::int64_t num = static_cast<std::int64_t>(TWO31) + 4099;
  strata_test::device_buffer<std::int8_t> d_in(N);
  large_test::fill_values<<<4096, 256>>>(d_in.data(), N);
  STRATA_TEST_SYNC();
  strata_test::device_buffer<std::int8_t> d_out(static_cast<std::size_t>(num));
  // Segments of one item: each sum is its item.
  strata_test::launch([&](void* t, std::size_t& b, cudaStream_t st) {
    return strata::DeviceSegmentedReduce::Sum(t, b, d_in.data(), d_out.data(), num, 1, st);
  });
  strata_test::device_buffer<u64> wrong(1);
  STRATA_TEST_CUDA(cudaMemset(wrong.data(), 0, sizeof(u64)));
  count_different<<<4096, 256>>>(d_out.data(), d_in.data(), static_cast<std::size_t>(num), wrong.data());
  STRATA_TEST_SYNC();
  CHECK(wrong.download()[0] == 0);
}
