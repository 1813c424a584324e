// DeviceSegmentedScan over more than 2^31 items, on int8 values made on the device from a hash of their position:
// segments given by 64-bit CSR offsets, 101005 small ones around a segment of 2^30 + 77 items and one of
// 2^30 + 2^27 + 999 items across item 2^31, and scattered begin/end offsets written to packed outputs (the three-offset
// form) with a segment across item 2^31; inclusive sums (int32, wrapping) and exclusive maxima, checked against the
// host in chunks. Apart from device_segmented_scan.cu because its [large] cases need an optimized host build and both
// offset types (tests/CMakeLists.txt). Each test case says skipped where the device lacks the memory it needs.
#include <strata/device/device_segmented_scan.cuh>

#include <cuda/functional>
#include <cuda/std/functional>

#include "device_launch.cuh"
#include "large_segments.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace
{
using large_test::add_small;
using large_test::N;
using large_test::require_device_memory;
using large_test::segments;
using large_test::TWO31;
using large_test::value_of;

// d_out (`size` items) against the host's scan: each segment k's outputs from out_begin[k] (its begin where
// out_begin is empty), scan(acc, x) giving the output of an item and the next acc from acc and the item; positions
// in no segment still poisoned. Read back in chunks of 2^28 items.
template <typename T, typename ScanT>
void require_scans(const strata_test::device_buffer<T>& d_out, const segments& s,
                   const std::vector<long long>& out_begin, T init, ScanT scan)
{
  // The segments in the order of their outputs, which never overlap.
  std::vector<std::size_t> order(s.size());
  for (std::size_t k = 0; k < order.size(); ++k)
  {
    order[k] = k;
  }
  const auto out_of = [&](std::size_t k) {
    return out_begin.empty() ? s.begin[k] : out_begin[k];
  };
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return out_of(a) < out_of(b);
  });
  constexpr std::size_t CHUNK = std::size_t(1) << 28;
  std::vector<T> chunk;
  std::size_t chunk_first = 0;
  const auto at           = [&](std::size_t i) -> T {
    if (chunk.empty() || i < chunk_first || i >= chunk_first + chunk.size())
    {
      chunk_first = i;
      chunk.resize(std::min(CHUNK, d_out.size() - i));
      STRATA_TEST_CUDA(cudaMemcpy(chunk.data(), d_out.data() + i, chunk.size() * sizeof(T), cudaMemcpyDeviceToHost));
    }
    return chunk[i - chunk_first];
  };
  std::size_t wrong = 0;
  std::size_t next  = 0; // the first output not yet checked
  for (const std::size_t k : order)
  {
    const auto first       = static_cast<std::size_t>(out_of(k));
    const long long length = std::max(0LL, s.end[k] - s.begin[k]);
    for (; next < first && wrong == 0; ++next)
    {
      if (!strata_test::all_poisoned(std::vector<T>{at(next)}))
      {
        ++wrong;
        INFO("output " << next << ", in no segment, was written");
        CHECK(false);
      }
    }
    T acc = init;
    for (long long j = 0; j < length && wrong == 0; ++j)
    {
      const T want = scan(acc, value_of(static_cast<std::size_t>(s.begin[k] + j)));
      if (at(first + static_cast<std::size_t>(j)) != want)
      {
        ++wrong;
        INFO("segment " << k << " [" << s.begin[k] << ", " << s.end[k] << "), item " << j << ": " << +at(first + j)
                        << " where " << +want << " was expected");
        CHECK(false);
      }
    }
    next = std::max(next, first + static_cast<std::size_t>(length));
  }
  CHECK(wrong == 0);
}
} // namespace

TEST_CASE("DeviceSegmentedScan over more than 2^31 items with 64-bit offsets", "[device][segmented_scan][large]")
{
  require_device_memory(N + 4 * (N + 64) + (std::size_t(256) << 20));
  strata_test::device_buffer<std::int8_t> d_in(N);
  large_test::fill_values<<<4096, 256>>>(d_in.data(), N);
  STRATA_TEST_SYNC();
  std::mt19937_64 rng = strata_test::make_rng(0x1a5f);

  SECTION("CSR: segments of 2^30 + 77 and 2^30 + 2^27 + 999 items (the second across item 2^31) among small ones; "
          "inclusive sums (int32)")
  {
    segments s;
    long long at = add_small(s, 0, 100000, rng);
    s.add(at, at + (1LL << 30) + 77);
    at = add_small(s, s.end.back(), 1000, rng);
    s.add(at, at + (1LL << 30) + (1LL << 27) + 999);
    REQUIRE(at < static_cast<long long>(TWO31));
    REQUIRE(static_cast<std::size_t>(s.end.back()) > TWO31);
    REQUIRE(static_cast<std::size_t>(s.end.back()) < N - 1000);
    add_small(s, s.end.back(), 5, rng);
    std::vector<long long> offsets = s.begin;
    offsets.push_back(s.end.back());
    const strata_test::device_buffer<long long> d_offsets(offsets);
    strata_test::device_buffer<int> d_out(N);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t stream) {
      return strata::DeviceSegmentedScan::InclusiveSegmentedScan(temp, bytes, d_in.data(), d_out.data(),
                                                                 d_offsets.data(), d_offsets.data() + 1,
                                                                 static_cast<long long>(s.size()),
                                                                 cuda::std::plus<int>{}, stream);
    });
    require_scans(d_out, s, {}, 0, [](int& acc, std::int8_t x) {
      acc = static_cast<int>(static_cast<unsigned>(acc) + static_cast<unsigned>(x));
      return acc;
    });
  }
  SECTION("scattered begin/end offsets (one across item 2^31), packed outputs; exclusive maxima from -1000")
  {
    segments s;
    std::uniform_int_distribution<long long> place(0, static_cast<long long>(N) - 5000), length(0, 4000);
    for (int k = 0; k < 200000; ++k)
    {
      const long long b = place(rng);
      s.add(b, k % 9 == 0 ? b - 3 : b + length(rng));
    }
    s.add(static_cast<long long>(TWO31) - 100000, static_cast<long long>(TWO31) + 300000);
    std::vector<long long> out_begin(s.size());
    long long packed = 0;
    for (std::size_t k = 0; k < s.size(); ++k)
    {
      out_begin[k] = packed;
      packed += std::max(0LL, s.end[k] - s.begin[k]) + 1;
    }
    const strata_test::device_buffer<long long> d_begin(s.begin);
    const strata_test::device_buffer<long long> d_end(s.end);
    const strata_test::device_buffer<long long> d_out_begin(out_begin);
    strata_test::device_buffer<int> d_out(static_cast<std::size_t>(packed) + 8);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t stream) {
      return strata::DeviceSegmentedScan::ExclusiveSegmentedScan(temp, bytes, d_in.data(), d_out.data(),
                                                                 static_cast<long long>(s.size()), d_begin.data(),
                                                                 d_end.data(), d_out_begin.data(), cuda::maximum<>{},
                                                                 -1000, stream);
    });
    require_scans(d_out, s, out_begin, -1000, [](int& acc, std::int8_t x) {
      const int out = acc;
      acc           = std::max(acc, static_cast<int>(x));
      return out;
    });
  }
}
