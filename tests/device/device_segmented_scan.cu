// DeviceSegmentedScan against per-segment scans on the host: InclusiveSegmentedSum and ExclusiveSegmentedSum (int32
// with wrapping sums, uint64, float on integer values, so the sums are exact), InclusiveSegmentedScan and
// ExclusiveSegmentedScan with a non-commutative operator (affine maps mod 2^32, a non-identity initial value),
// InclusiveSegmentedScanInit (maximum from a floor). Every one runs over the segment layouts of segment_layouts.cuh in
// the two-offset form (the outputs at the items' positions; layouts whose segments share items only in the
// three-offset form) and the three-offset form (outputs packed with gaps between segments); items in no segment
// keep the output's poison. Also: in place; float sums the same bits run to run; num_segments from device memory
// (one graph capture replayed over several counts and offset arrays); 64-bit offsets; the single-phase forms; bad
// input rejected before anything is written.
// Each layout's outputs are checked item by item on the host (at -O0): 2^21 items a layout, not 2^23.
#define STRATA_SEGMENT_TEST_ITEMS (std::size_t(1) << 21)

#include <strata/device/device_segmented_scan.cuh>
#include <strata/execution/policy.cuh>

#include <cuda/functional>
#include <cuda/std/functional>

#include "device_launch.cuh"
#include "segment_layouts.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace
{
using segment_test::budget;
using segment_test::contiguous;
using segment_test::device_offsets;
using segment_test::layout;
using segment_test::scattered;
using segment_test::uniform_lengths;
using strata_test::device_buffer;

// The layouts' sizes are built around a warp's sub-tile of items and its most segment ends per sub-tile.
using policy_t             = strata::detail::segmented_scan::policy_hub<int, int>::MaxPolicy::SegmentedScanPolicy;
constexpr std::size_t TILE = policy_t::TILE_ITEMS;
constexpr std::size_t SEGMENTS_PER_TILE = policy_t::SEGMENTS_PER_TILE;

const std::vector<layout>& layouts()
{
  static const std::vector<layout> all = segment_test::make_layouts(TILE, SEGMENTS_PER_TILE, 4 * TILE);
  return all;
}

// -- host references and checks ----------------------------------------------------------------------------------

// Where each segment's outputs begin in the three-offset form: packed in segment order, 3 poisoned items between
// segments.
std::vector<long long> packed_outputs(const layout& l)
{
  std::vector<long long> out(l.num_segments());
  long long at = 0;
  for (std::size_t s = 0; s < out.size(); ++s)
  {
    out[s] = at;
    at += static_cast<long long>(l.length(s)) + 3;
  }
  return out;
}
std::size_t output_size(const layout& l, const std::vector<long long>& out_begin)
{
  std::size_t n = l.items();
  for (std::size_t s = 0; s < out_begin.size(); ++s)
  {
    n = std::max(n, static_cast<std::size_t>(out_begin[s]) + l.length(s));
  }
  return n + 8;
}

using strata_test::host_max;
using strata_test::wrapping_plus;
template <typename OpT>
using inclusive = strata_test::segment_inclusive_scan<OpT>;
template <typename OpT, typename T>
using inclusive_init = strata_test::segment_inclusive_scan_init<OpT, T>;
template <typename OpT, typename T>
using exclusive = strata_test::segment_exclusive_scan<OpT, T>;

// `out` (the output buffer as it was) with every segment's scan written from out_begin[s] (null: its own begin).
template <typename OutT, typename InT, typename ScanT>
std::vector<OutT> expected(const layout& l, const std::vector<InT>& in, std::vector<OutT> out,
                           const std::vector<long long>* out_begin, ScanT scan)
{
  for (std::size_t s = 0; s < l.num_segments(); ++s)
  {
    const long long to = out_begin ? (*out_begin)[s] : l.begin[s];
    const InT* first   = in.data() + l.begin[s];
    scan(first, first + l.length(s), out.data() + to);
  }
  return out;
}

template <typename T>
void require_equal(const layout& l, const std::vector<T>& out, const std::vector<T>& want)
{
  REQUIRE(out.size() == want.size());
  const long long wrong = strata_test::first_mismatch(out, want);
  if (wrong >= 0)
  {
    INFO("layout " << l.name << ": output " << wrong << " is wrong");
    FAIL("segments scanned wrong");
  }
}

// For every layout: `call(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin, d_end,
// d_out_begin, stream)` in the three-offset form (d_out_begin non-null) and, where the segments share no items, in
// the two-offset form (d_out_begin null), through both phases, every third under graph capture, against `scan`.
template <typename OutT, typename OffsetT = int, typename InT, typename CallT, typename ScanT>
void check_layouts(const std::vector<InT>& h_in, CallT call, ScanT scan)
{
  const device_buffer<InT> d_in(h_in);
  int i = 0;
  for (const layout& l : layouts())
  {
    CAPTURE(l.name);
    REQUIRE(l.items() <= h_in.size());
    const device_offsets<OffsetT> offsets(l);
    const std::vector<long long> packed = packed_outputs(l);
    for (const bool three : {false, true})
    {
      if (!three && l.overlapping)
      {
        continue;
      }
      CAPTURE(three);
      const std::vector<OffsetT> h_out_begin(packed.begin(), packed.end());
      const device_buffer<OffsetT> d_out_begin(h_out_begin);
      device_buffer<OutT> d_out(three ? output_size(l, packed) : h_in.size() + 8);
      const std::vector<OutT> before = d_out.download();
      const auto mode = (i++ % 3 == 2) ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return call(temp, bytes, d_in.data(), d_out.data(), static_cast<int>(l.num_segments()), offsets.begin(),
                      offsets.end(), three ? d_out_begin.data() : nullptr, s);
        },
        mode);
      require_equal(l, d_out.download(), expected(l, h_in, before, three ? &packed : nullptr, scan));
    }
  }
}

// The input of the sum tests: random values, with floats made integers in [-16, 16], whose sums are exact.
template <typename T>
std::vector<T> sum_input(std::uint64_t salt)
{
  std::vector<T> v = strata_test::random_vector<T>(budget(), salt);
  if constexpr (std::is_floating_point<T>::value)
  {
    for (auto& x : v)
    {
      x = std::round(x / 8);
    }
  }
  return v;
}

// Calls NAME in the two- or three-offset form (d_out_begin null or not), with the arguments after the offsets.
#define STRATA_TEST_SEGMENTED_SCAN_CALL(NAME, ...)                                                                 \
  [=](void* temp, std::size_t& bytes, auto* in, auto* out, int num, auto* begin, auto* end, auto* out_begin,       \
      cudaStream_t s) {                                                                                            \
    return out_begin                                                                                               \
           ? strata::DeviceSegmentedScan::NAME(temp, bytes, in, out, num, begin, end, out_begin, ##__VA_ARGS__, s) \
           : strata::DeviceSegmentedScan::NAME(temp, bytes, in, out, begin, end, num, ##__VA_ARGS__, s);           \
  }

// -- the scans over every layout ----------------------------------------------------------------------------------

TEMPLATE_TEST_CASE("DeviceSegmentedScan::InclusiveSegmentedSum and ExclusiveSegmentedSum match the host over every "
                   "segment layout",
                   "[device][segmented_scan]", std::int32_t, std::uint64_t, float)
{
  using T                   = TestType;
  const std::vector<T> h_in = sum_input<T>(0x5c0);
  SECTION("inclusive")
  {
    check_layouts<T>(h_in, STRATA_TEST_SEGMENTED_SCAN_CALL(InclusiveSegmentedSum), inclusive<wrapping_plus>{});
  }
  SECTION("exclusive")
  {
    check_layouts<T>(h_in, STRATA_TEST_SEGMENTED_SCAN_CALL(ExclusiveSegmentedSum),
                     exclusive<wrapping_plus, T>{wrapping_plus{}, T(0)});
  }
}

TEST_CASE("DeviceSegmentedScan with a non-commutative operator (affine maps mod 2^32) keeps every segment's order",
          "[device][segmented_scan]")
{
  using strata_test::affine32;
  using strata_test::affine_then;
  const std::vector<affine32> h_in = strata_test::random_vector<affine32>(budget(), 0x5c1);
  const affine32 init{3, 7};
  SECTION("InclusiveSegmentedScan")
  {
    check_layouts<affine32>(h_in, STRATA_TEST_SEGMENTED_SCAN_CALL(InclusiveSegmentedScan, affine_then{}),
                            inclusive<affine_then>{});
  }
  SECTION("ExclusiveSegmentedScan")
  {
    check_layouts<affine32>(h_in, STRATA_TEST_SEGMENTED_SCAN_CALL(ExclusiveSegmentedScan, affine_then{}, init),
                            exclusive<affine_then, affine32>{affine_then{}, init});
  }
  SECTION("InclusiveSegmentedScanInit")
  {
    check_layouts<affine32>(h_in, STRATA_TEST_SEGMENTED_SCAN_CALL(InclusiveSegmentedScanInit, affine_then{}, init),
                            inclusive_init<affine_then, affine32>{affine_then{}, init});
  }
}

TEST_CASE("DeviceSegmentedScan::InclusiveSegmentedScanInit with maximum from a floor, 64-bit offsets",
          "[device][segmented_scan]")
{
  const std::vector<int> h_in = strata_test::random_vector<int>(budget(), 0x5c2);
  const int floor             = 1 << 29;
  check_layouts<int, long long>(h_in,
                                STRATA_TEST_SEGMENTED_SCAN_CALL(InclusiveSegmentedScanInit, cuda::maximum<>{}, floor),
                                inclusive_init<host_max, int>{host_max{}, floor});
}

TEST_CASE("DeviceSegmentedScan in place (d_in == d_out)", "[device][segmented_scan]")
{
  const std::vector<int> h_in = sum_input<int>(0x5c3);
  for (const layout& l : layouts())
  {
    if (l.overlapping)
    {
      continue;
    }
    CAPTURE(l.name);
    const device_offsets<int> offsets(l);
    device_buffer<int> d_data(h_in);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceSegmentedScan::ExclusiveSegmentedSum(temp, bytes, d_data.data(), d_data.data(),
                                                                offsets.begin(), offsets.end(),
                                                                static_cast<int>(l.num_segments()), s);
    });
    require_equal(l, d_data.download(),
                  expected(l, h_in, h_in, nullptr, exclusive<wrapping_plus, int>{wrapping_plus{}, 0}));
  }
}

TEST_CASE("DeviceSegmentedScan::InclusiveSegmentedSum of floats is within a tolerance of the exact sums and the same "
          "bits run to run",
          "[device][segmented_scan]")
{
  const std::vector<float> h_in = strata_test::full_mantissa_floats(budget(), 0x5c4);
  const device_buffer<float> d_in(h_in);
  std::mt19937_64 rng = strata_test::make_rng(0x5c5);
  for (const layout& l : {contiguous("one segment", {budget()}), contiguous("mixed", uniform_lengths(5003, 4000, rng))})
  {
    CAPTURE(l.name);
    const device_offsets<int> offsets(l);
    device_buffer<float> first(h_in.size());
    device_buffer<float> second(h_in.size());
    for (device_buffer<float>* out : {&first, &second})
    {
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceSegmentedScan::InclusiveSegmentedSum(temp, bytes, d_in.data(), out->data(),
                                                                  offsets.begin(), offsets.end(),
                                                                  static_cast<int>(l.num_segments()), s);
      });
    }
    const std::vector<float> a = first.download();
    const std::vector<float> b = second.download();
    CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
    const long long first_off = strata_test::first_inexact_running_sum(h_in, a, l.begin, l.end, l.num_segments());
    INFO("the first output off the exact running sum: " << first_off);
    CHECK(first_off < 0);
  }
}

// -- counts in device memory, graphs, single-phase forms ------------------------------------------------------------

TEST_CASE("DeviceSegmentedScan takes num_segments from device memory; one graph replayed over counts and offsets",
          "[device][segmented_scan][device_count]")
{
  const std::vector<int> h_in = sum_input<int>(0x5c6);
  const device_buffer<int> d_in(h_in);
  std::mt19937_64 rng   = strata_test::make_rng(0x5c7);
  const layout shapes[] = {contiguous("lengths uniform in [0, 128]", uniform_lengths(3001, 128, rng)),
                           contiguous("lengths uniform in [0, 8]", uniform_lengths(3001, 8, rng)),
                           contiguous("lengths uniform in [0, 4000]", uniform_lengths(3001, 4000, rng))};
  // One offsets array that every replay reads, refilled with each shape's offsets.
  device_buffer<int> d_offsets(3002);
  device_buffer<int> d_num(1);
  const int bound = 3001;
  const strata::device_count<int> num_segments(d_num.data(), bound);
  device_buffer<int> d_out(h_in.size() + 8);
  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceSegmentedScan::InclusiveSegmentedSum(nullptr, bytes, d_in.data(), d_out.data(),
                                                                      d_offsets.data(), d_offsets.data() + 1,
                                                                      num_segments, stream));
  device_buffer<char> temp(bytes);
  const strata_test::captured_graph graph(stream, [&](cudaStream_t s) {
    return strata::DeviceSegmentedScan::InclusiveSegmentedSum(temp.data(), bytes, d_in.data(), d_out.data(),
                                                              d_offsets.data(), d_offsets.data() + 1, num_segments, s);
  });
  for (const layout& l : shapes)
  {
    CAPTURE(l.name);
    // The layout's segments (as many as the items allow: none where a sanitizer caps the items below the first
    // segment), then empty ones up to the bound.
    std::vector<int> h_offsets(l.begin.begin(), l.begin.end());
    h_offsets.resize(static_cast<std::size_t>(bound) + 1, l.end.empty() ? 0 : static_cast<int>(l.end.back()));
    d_offsets.upload(h_offsets);
    for (const int count : {0, 1, bound / 3 + 1, bound, bound + 5, -3})
    {
      CAPTURE(count);
      d_num.upload({count});
      d_out.poison();
      const std::vector<int> before = d_out.download();
      graph.launch(stream);
      STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
      layout first = l;
      const auto k = std::min(static_cast<std::size_t>(std::clamp(count, 0, bound)), l.num_segments());
      first.begin.resize(k);
      first.end.resize(k);
      require_equal(first, d_out.download(), expected(first, h_in, before, nullptr, inclusive<wrapping_plus>{}));
    }
  }
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceSegmentedScan over one offsets array with a host count (the tiled path): one graph replayed over "
          "three offset arrays",
          "[device][segmented_scan]")
{
  const std::vector<int> h_in = sum_input<int>(0x5c8);
  const device_buffer<int> d_in(h_in);
  std::mt19937_64 rng   = strata_test::make_rng(0x5c9);
  const int num         = 2999;
  const layout shapes[] = {contiguous("lengths uniform in [0, 8]", uniform_lengths(num, 8, rng)),
                           contiguous("lengths uniform in [0, 4000]", uniform_lengths(num, 4000, rng)),
                           contiguous("lengths uniform in [0, 128]", uniform_lengths(num, 128, rng))};
  device_buffer<int> d_offsets(static_cast<std::size_t>(num) + 1);
  device_buffer<int> d_out(h_in.size() + 8);
  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceSegmentedScan::ExclusiveSegmentedSum(nullptr, bytes, d_in.data(), d_out.data(),
                                                                      d_offsets.data(), d_offsets.data() + 1, num,
                                                                      stream));
  device_buffer<char> temp(bytes);
  const strata_test::captured_graph graph(stream, [&](cudaStream_t s) {
    return strata::DeviceSegmentedScan::ExclusiveSegmentedSum(temp.data(), bytes, d_in.data(), d_out.data(),
                                                              d_offsets.data(), d_offsets.data() + 1, num, s);
  });
  for (const layout& l : shapes)
  {
    CAPTURE(l.name);
    // As many of the layout's segments as the items allow, then empty ones at its end.
    std::vector<int> h_offsets(l.begin.begin(), l.begin.end());
    h_offsets.resize(static_cast<std::size_t>(num) + 1, l.end.empty() ? 0 : static_cast<int>(l.end.back()));
    d_offsets.upload(h_offsets);
    d_out.poison();
    const std::vector<int> before = d_out.download();
    graph.launch(stream);
    STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
    require_equal(l, d_out.download(),
                  expected(l, h_in, before, nullptr, exclusive<wrapping_plus, int>{wrapping_plus{}, 0}));
  }
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceSegmentedScan single-phase forms: no environment, a stream, strata::par.on(stream)",
          "[device][segmented_scan][single_phase]")
{
  std::mt19937_64 rng         = strata_test::make_rng(0x5c8);
  const layout l              = contiguous("lengths uniform in [0, 300]", uniform_lengths(20011, 300, rng));
  const int num               = static_cast<int>(l.num_segments());
  const std::vector<int> h_in = sum_input<int>(0x5c9);
  const device_buffer<int> d_in(h_in);
  const device_offsets<int> offsets(l);
  const std::vector<long long> packed = packed_outputs(l);
  const std::vector<int> h_out_begin(packed.begin(), packed.end());
  const device_buffer<int> d_out_begin(h_out_begin);
  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  SECTION("InclusiveSegmentedSum, no environment")
  {
    device_buffer<int> d_out(h_in.size() + 8);
    const std::vector<int> before = d_out.download();
    STRATA_TEST_CUDA(strata::DeviceSegmentedScan::InclusiveSegmentedSum(d_in.data(), d_out.data(), offsets.begin(),
                                                                        offsets.end(), num));
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    require_equal(l, d_out.download(), expected(l, h_in, before, nullptr, inclusive<wrapping_plus>{}));
  }
  SECTION("ExclusiveSegmentedScan, three offsets, a stream")
  {
    device_buffer<int> d_out(output_size(l, packed));
    const std::vector<int> before = d_out.download();
    STRATA_TEST_CUDA(strata::DeviceSegmentedScan::ExclusiveSegmentedScan(d_in.data(), d_out.data(), num,
                                                                         offsets.begin(), offsets.end(),
                                                                         d_out_begin.data(), cuda::maximum<>{}, -5,
                                                                         stream));
    STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
    require_equal(l, d_out.download(), expected(l, h_in, before, &packed, exclusive<host_max, int>{host_max{}, -5}));
  }
  SECTION("InclusiveSegmentedScan, strata::par.on(stream)")
  {
    device_buffer<int> d_out(h_in.size() + 8);
    const std::vector<int> before = d_out.download();
    STRATA_TEST_CUDA(strata::DeviceSegmentedScan::InclusiveSegmentedScan(d_in.data(), d_out.data(), offsets.begin(),
                                                                         offsets.end(), num, cuda::maximum<>{},
                                                                         strata::par.on(stream)));
    STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
    require_equal(l, d_out.download(), expected(l, h_in, before, nullptr, inclusive<host_max>{}));
  }
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

// -- bad input ------------------------------------------------------------------------------------------------------

TEST_CASE("DeviceSegmentedScan rejects bad input before writing anything", "[device][segmented_scan][errors]")
{
  const std::vector<int> h_in(100, 1);
  const device_buffer<int> d_in(h_in);
  device_buffer<int> d_out(100);
  const std::vector<int> h_offsets{0, 10, 50, 100};
  const device_buffer<int> d_offsets(h_offsets);
  const int* begin  = d_offsets.data();
  const int* end    = d_offsets.data() + 1;
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(
    strata::DeviceSegmentedScan::InclusiveSegmentedSum(nullptr, bytes, d_in.data(), d_out.data(), begin, end, 3));
  device_buffer<char> temp(bytes);
  using strata::DeviceSegmentedScan;
  CHECK(DeviceSegmentedScan::InclusiveSegmentedSum(temp.data(), bytes, d_in.data(), d_out.data(), begin, end, -1)
        == cudaErrorInvalidValue);
  CHECK(DeviceSegmentedScan::InclusiveSegmentedSum(temp.data(), bytes, static_cast<const int*>(nullptr), d_out.data(),
                                                   begin, end, 3)
        == cudaErrorInvalidValue);
  CHECK(DeviceSegmentedScan::InclusiveSegmentedSum(temp.data(), bytes, d_in.data(), static_cast<int*>(nullptr), begin,
                                                   end, 3)
        == cudaErrorInvalidValue);
  CHECK(DeviceSegmentedScan::InclusiveSegmentedSum(temp.data(), bytes, d_in.data(), d_out.data(),
                                                   static_cast<const int*>(nullptr), end, 3)
        == cudaErrorInvalidValue);
  CHECK(DeviceSegmentedScan::ExclusiveSegmentedSum(temp.data(), bytes, d_in.data(), d_out.data(), 3, begin, end,
                                                   static_cast<const int*>(nullptr))
        == cudaErrorInvalidValue);
  std::size_t small = bytes - 1;
  CHECK(DeviceSegmentedScan::InclusiveSegmentedSum(temp.data(), small, d_in.data(), d_out.data(), begin, end, 3)
        == cudaErrorInvalidValue);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(strata_test::all_poisoned(d_out.download()));

  // No segments: a one-byte query, nothing launched or written.
  std::size_t none = 0;
  STRATA_TEST_CUDA(DeviceSegmentedScan::InclusiveSegmentedSum(nullptr, none, d_in.data(), d_out.data(), begin, end, 0));
  CHECK(none == 1);
  STRATA_TEST_CUDA(
    DeviceSegmentedScan::InclusiveSegmentedSum(temp.data(), none, d_in.data(), d_out.data(), begin, end, 0));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(strata_test::all_poisoned(d_out.download()));
}
} // namespace
