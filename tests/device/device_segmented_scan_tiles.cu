// The segmented scan of back-to-back segments (detail::segmented_scan_tiles::run, DeviceSegmentedScan's path for one
// offsets array) against per-segment scans on the host: inclusive, inclusive from an initial value and
// exclusive; int32 sums (wrapping), a non-commutative operator (affine maps mod 2^32) and maximum from a floor; over
// segment lengths all 1, uniform small with empty ones, uniform around 4096, power-law, one giant among tiny ones,
// single segments of a tile's size and around it, 0 and 1 segments, offsets[0] > 0 (the items before it keep their
// poison); int64 offsets; in place; float sums the same bits run to run.
#define STRATA_SEGMENT_TEST_ITEMS (std::size_t(1) << 21)

#include <strata/device/dispatch/dispatch_segmented_scan_tiles.cuh>

#include <cuda/functional>

#include "device_launch.cuh"
#include "segment_layouts.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace
{
using segment_test::budget;
using strata_test::device_buffer;

using policy_t = strata::detail::segmented_scan_tiles::policy_hub<int, int>::MaxPolicy::SegmentedScanTilesPolicy;
constexpr std::size_t TILE = policy_t::TILE_ITEMS;

using segment_test::from_lengths;
using segment_test::lengths_up_to;
using segment_test::offsets_case;

const std::vector<offsets_case>& cases()
{
  static const std::vector<offsets_case> all = segment_test::back_to_back_cases(TILE, 0x7a1);
  return all;
}

// `out` as it was, with each segment's host scan written over its items.
template <typename OutT, typename InT, typename ScanT>
std::vector<OutT> expected(const offsets_case& c, const std::vector<InT>& in, std::vector<OutT> out, ScanT scan)
{
  for (std::size_t s = 0; s + 1 < c.offsets.size(); ++s)
  {
    if (c.offsets[s + 1] > c.offsets[s])
    {
      scan(in.data() + c.offsets[s], in.data() + c.offsets[s + 1], out.data() + c.offsets[s]);
    }
  }
  return out;
}

// Runs `call(temp, bytes, d_in, d_out, d_offsets, num_segments, stream)` over every case (every third under graph
// capture) with OffsetT offsets and checks it against `scan`, the outputs poisoned before.
template <typename OutT, typename OffsetT = int, typename InT, typename CallT, typename ScanT>
void check_cases(const std::vector<InT>& h_in, CallT call, ScanT scan)
{
  const device_buffer<InT> d_in(h_in);
  int i = 0;
  for (const offsets_case& c : cases())
  {
    CAPTURE(c.name);
    REQUIRE(static_cast<std::size_t>(c.offsets.back()) <= h_in.size());
    const device_buffer<OffsetT> d_offsets(std::vector<OffsetT>(c.offsets.begin(), c.offsets.end()));
    device_buffer<OutT> d_out(h_in.size());
    const std::vector<OutT> before = d_out.download();
    const auto mode = (i++ % 3 == 2) ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
    const auto num  = static_cast<OffsetT>(c.offsets.size() - 1);
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return call(temp, bytes, d_in.data(), d_out.data(), d_offsets.data(), num, s);
      },
      mode);
    const std::vector<OutT> got  = d_out.download();
    const std::vector<OutT> want = expected(c, h_in, before, scan);
    const long long wrong        = strata_test::first_mismatch(got, want);
    INFO("output " << wrong << " is wrong");
    CHECK(wrong < 0);
  }
}

template <bool EXCLUSIVE, typename OpT, typename InitT>
auto tiles_call(OpT op, InitT init)
{
  return [=](void* temp, std::size_t& bytes, auto d_in, auto d_out, auto d_offsets, auto num, cudaStream_t s) {
    return strata::detail::segmented_scan_tiles::run<EXCLUSIVE>(temp, bytes, d_in, d_out, d_offsets, num, op, init, s);
  };
}
template <typename T>
strata::detail::reduce::empty_value<T> no_init()
{
  return {T{}};
}

// Random values never zero; sums wrap.
std::vector<int> int_input(std::uint64_t salt)
{
  std::vector<int> v = strata_test::random_vector<int>(budget(), salt);
  for (auto& x : v)
  {
    x = x == 0 ? 1 : x;
  }
  return v;
}

using strata_test::wrapping_plus;
template <typename OpT>
using inclusive = strata_test::segment_inclusive_scan<OpT>;
template <typename OpT, typename T>
using inclusive_init = strata_test::segment_inclusive_scan_init<OpT, T>;
template <typename OpT, typename T>
using exclusive = strata_test::segment_exclusive_scan<OpT, T>;

} // namespace

TEST_CASE("segmented_scan_tiles: int32 sums match the host", "[device][segmented_scan_tiles]")
{
  const std::vector<int> h_in = int_input(0x7a2);
  SECTION("inclusive")
  {
    check_cases<int>(h_in, tiles_call<false>(wrapping_plus{}, no_init<int>()), inclusive<wrapping_plus>{});
  }
  SECTION("exclusive from 0")
  {
    check_cases<int>(h_in, tiles_call<true>(wrapping_plus{}, 0), exclusive<wrapping_plus, int>{wrapping_plus{}, 0});
  }
  SECTION("inclusive from 17, int64 offsets")
  {
    check_cases<int, long long>(h_in, tiles_call<false>(wrapping_plus{}, 17),
                                inclusive_init<wrapping_plus, int>{wrapping_plus{}, 17});
  }
}

TEST_CASE("segmented_scan_tiles: a non-commutative operator (affine maps mod 2^32) keeps every segment's order",
          "[device][segmented_scan_tiles]")
{
  using strata_test::affine32;
  using strata_test::affine_then;
  const std::vector<affine32> h_in = strata_test::random_vector<affine32>(budget(), 0x7a3);
  const affine32 init{3, 7};
  SECTION("inclusive")
  {
    check_cases<affine32>(h_in, tiles_call<false>(affine_then{}, no_init<affine32>()), inclusive<affine_then>{});
  }
  SECTION("inclusive from an initial value")
  {
    check_cases<affine32>(h_in, tiles_call<false>(affine_then{}, init),
                          inclusive_init<affine_then, affine32>{affine_then{}, init});
  }
  SECTION("exclusive, int64 offsets")
  {
    check_cases<affine32, long long>(h_in, tiles_call<true>(affine_then{}, init),
                                     exclusive<affine_then, affine32>{affine_then{}, init});
  }
}

TEST_CASE("segmented_scan_tiles: maximum from a floor", "[device][segmented_scan_tiles]")
{
  const std::vector<int> h_in = int_input(0x7a4);
  const int floor             = 1 << 29;
  check_cases<int>(h_in, tiles_call<false>(cuda::maximum<>{}, floor),
                   inclusive_init<strata_test::host_max, int>{strata_test::host_max{}, floor});
}

TEST_CASE("segmented_scan_tiles in place (d_in == d_out)", "[device][segmented_scan_tiles]")
{
  const std::vector<int> h_in = int_input(0x7a5);
  for (const offsets_case& c : cases())
  {
    CAPTURE(c.name);
    const device_buffer<int> d_offsets(std::vector<int>(c.offsets.begin(), c.offsets.end()));
    device_buffer<int> d_data(h_in);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::detail::segmented_scan_tiles::run<true>(temp, bytes, d_data.data(), d_data.data(),
                                                             d_offsets.data(), static_cast<int>(c.offsets.size() - 1),
                                                             wrapping_plus{}, 0, s);
    });
    const std::vector<int> want = expected(c, h_in, h_in, exclusive<wrapping_plus, int>{wrapping_plus{}, 0});
    CHECK(strata_test::first_mismatch(d_data.download(), want) < 0);
  }
}

TEST_CASE("segmented_scan_tiles: float sums are within a tolerance of the exact sums and the same bits run to run",
          "[device][segmented_scan_tiles]")
{
  const std::vector<float> h_in = strata_test::full_mantissa_floats(budget(), 0x7a6);
  const device_buffer<float> d_in(h_in);
  std::mt19937_64 rng = strata_test::make_rng(0x7a7);
  for (const offsets_case& c :
       {from_lengths("one segment", 0, {budget()}), from_lengths("mixed", 0, lengths_up_to(budget(), 1, 9000, rng))})
  {
    CAPTURE(c.name);
    const device_buffer<int> d_offsets(std::vector<int>(c.offsets.begin(), c.offsets.end()));
    device_buffer<float> first(h_in.size());
    device_buffer<float> second(h_in.size());
    for (device_buffer<float>* out : {&first, &second})
    {
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::detail::segmented_scan_tiles::run<false>(temp, bytes, d_in.data(), out->data(), d_offsets.data(),
                                                                static_cast<int>(c.offsets.size() - 1),
                                                                cuda::std::plus<>{}, no_init<float>(), s);
      });
    }
    const std::vector<float> a = first.download();
    const std::vector<float> b = second.download();
    CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
    const long long first_off =
      strata_test::first_inexact_running_sum(h_in, a, c.offsets, c.offsets.data() + 1, c.offsets.size() - 1);
    INFO("the first output off the exact running sum: " << first_off);
    CHECK(first_off < 0);
  }
}

TEST_CASE("segmented_scan_tiles: 0 segments need no storage and launch nothing; bad input is rejected",
          "[device][segmented_scan_tiles][errors]")
{
  const device_buffer<int> d_in(std::vector<int>(100, 1));
  device_buffer<int> d_out(100);
  const device_buffer<int> d_offsets(std::vector<int>{0, 10, 50, 100});
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::detail::segmented_scan_tiles::run<false>(nullptr, bytes, d_in.data(), d_out.data(),
                                                                    d_offsets.data(), 0, wrapping_plus{},
                                                                    no_init<int>(), 0));
  CHECK(bytes == strata::detail::temporary_storage::EMPTY_SIZE);
  STRATA_TEST_CUDA(strata::detail::segmented_scan_tiles::run<false>(nullptr, bytes, d_in.data(), d_out.data(),
                                                                    d_offsets.data(), 3, wrapping_plus{},
                                                                    no_init<int>(), 0));
  device_buffer<char> temp(bytes);
  CHECK(strata::detail::segmented_scan_tiles::run<false>(temp.data(), bytes, d_in.data(), d_out.data(),
                                                         static_cast<const int*>(nullptr), 3, wrapping_plus{},
                                                         no_init<int>(), 0)
        == cudaErrorInvalidValue);
  CHECK(strata::detail::segmented_scan_tiles::run<false>(temp.data(), bytes, d_in.data(), d_out.data(),
                                                         d_offsets.data(), -1, wrapping_plus{}, no_init<int>(), 0)
        == cudaErrorInvalidValue);
  std::size_t small = bytes - 1;
  CHECK(strata::detail::segmented_scan_tiles::run<false>(temp.data(), small, d_in.data(), d_out.data(),
                                                         d_offsets.data(), 3, wrapping_plus{}, no_init<int>(), 0)
        == cudaErrorInvalidValue);
}
