// The segmented reduce of back-to-back segments (detail::segmented_reduce_tiles::run, not yet behind
// DeviceSegmentedReduce) against per-segment folds on the host: int32 sums (wrapping) from 0 and from 17, a
// non-commutative operator (affine maps mod 2^32) from an initial value, maximum without one (an empty segment gets
// the empty value's value); over the back-to-back layouts of segment_layouts.cuh (no segments, one empty, single
// segments around a tile, all of one item, uniform with empty ones, power-law, one giant among tiny ones, runs of
// empty segments, offsets[0] > 0); int64 offsets; every third case in a CUDA graph; the output's slot past the last
// segment stays poisoned; float sums within a tolerance of the exact sums and the same bits run to run.
#define STRATA_SEGMENT_TEST_ITEMS (std::size_t(1) << 21)

#include <strata/device/dispatch/dispatch_segmented_reduce_tiles.cuh>

#include <cuda/functional>
#include <cuda/std/functional>

#include "device_launch.cuh"
#include "segment_layouts.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace
{
using segment_test::budget;
using segment_test::offsets_case;
using strata_test::device_buffer;

using policy_t = strata::detail::segmented_reduce_tiles::policy_hub<int, int>::MaxPolicy::SegmentedReduceTilesPolicy;

const std::vector<offsets_case>& cases()
{
  static const std::vector<offsets_case> all = segment_test::back_to_back_cases(policy_t::TILE_ITEMS, 0x7b1);
  return all;
}

// Each segment's fold from `init` under `op` (init for an empty one).
template <typename OutT, typename InT, typename OpT, typename InitT>
std::vector<OutT> expected(const offsets_case& c, const std::vector<InT>& in, OpT op, InitT init)
{
  std::vector<OutT> out;
  for (std::size_t s = 0; s + 1 < c.offsets.size(); ++s)
  {
    OutT acc = static_cast<OutT>(init);
    for (long long i = c.offsets[s]; i < c.offsets[s + 1]; ++i)
    {
      acc = static_cast<OutT>(op(acc, in[static_cast<std::size_t>(i)]));
    }
    out.push_back(acc);
  }
  return out;
}

// Runs the reduce of every case (every third in a graph) with OffsetT offsets from `init` (an empty_value: the items
// alone) and checks it against `want(c)`; the output holds one slot more, which must stay poisoned.
template <typename OutT, typename OffsetT = int, typename InT, typename OpT, typename InitT, typename WantT>
void check_cases(const std::vector<InT>& h_in, OpT op, InitT init, WantT want)
{
  const device_buffer<InT> d_in(h_in);
  int i = 0;
  for (const offsets_case& c : cases())
  {
    CAPTURE(c.name);
    REQUIRE(static_cast<std::size_t>(c.offsets.back()) <= h_in.size());
    const device_buffer<OffsetT> d_offsets(std::vector<OffsetT>(c.offsets.begin(), c.offsets.end()));
    const auto num = static_cast<OffsetT>(c.offsets.size() - 1);
    device_buffer<OutT> d_out(c.offsets.size());
    const auto mode = (i++ % 3 == 2) ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::detail::segmented_reduce_tiles::run(temp, bytes, d_in.data(), d_out.data(), d_offsets.data(),
                                                           num, op, init, s);
      },
      mode);
    std::vector<OutT> got = d_out.download();
    CHECK(strata_test::all_poisoned(std::vector<OutT>(got.end() - 1, got.end())));
    got.pop_back();
    const std::vector<OutT> w = want(c);
    const long long wrong     = strata_test::first_mismatch(got, w);
    INFO("segment " << wrong << " of " << w.size() << " is wrong");
    CHECK(wrong < 0);
  }
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
} // namespace

TEST_CASE("segmented_reduce_tiles: int32 sums match the host", "[device][segmented_reduce_tiles]")
{
  using strata_test::wrapping_plus;
  const std::vector<int> h_in = int_input(0x7b2);
  SECTION("from 0")
  {
    check_cases<int>(h_in, wrapping_plus{}, 0, [&](const offsets_case& c) {
      return expected<int>(c, h_in, wrapping_plus{}, 0);
    });
  }
  SECTION("from 17, int64 offsets")
  {
    check_cases<int, long long>(h_in, wrapping_plus{}, 17, [&](const offsets_case& c) {
      return expected<int>(c, h_in, wrapping_plus{}, 17);
    });
  }
}

TEST_CASE("segmented_reduce_tiles: a non-commutative operator (affine maps mod 2^32) keeps every segment's order",
          "[device][segmented_reduce_tiles]")
{
  using strata_test::affine32;
  using strata_test::affine_then;
  const std::vector<affine32> h_in = strata_test::random_vector<affine32>(budget(), 0x7b3);
  const affine32 init{3, 7};
  check_cases<affine32>(h_in, affine_then{}, init, [&](const offsets_case& c) {
    return expected<affine32>(c, h_in, affine_then{}, init);
  });
}

TEST_CASE("segmented_reduce_tiles: maximum without an initial value (empty segments get the empty value)",
          "[device][segmented_reduce_tiles]")
{
  const std::vector<int> h_in = int_input(0x7b4);
  const int empty             = -12345;
  check_cases<int>(h_in, cuda::maximum<>{}, strata::detail::reduce::empty_value<int>{empty},
                   [&](const offsets_case& c) {
                     std::vector<int> out;
                     for (std::size_t s = 0; s + 1 < c.offsets.size(); ++s)
                     {
                       const auto first = h_in.begin() + c.offsets[s];
                       const auto last  = h_in.begin() + c.offsets[s + 1];
                       out.push_back(first == last ? empty : *std::max_element(first, last));
                     }
                     return out;
                   });
}

TEST_CASE("segmented_reduce_tiles: float sums are within a tolerance of the exact sums and the same bits run to run",
          "[device][segmented_reduce_tiles]")
{
  const std::vector<float> h_in = strata_test::full_mantissa_floats(budget(), 0x7b5);
  const device_buffer<float> d_in(h_in);
  for (const offsets_case& c : cases())
  {
    CAPTURE(c.name);
    const int num = static_cast<int>(c.offsets.size() - 1);
    const device_buffer<int> d_offsets(std::vector<int>(c.offsets.begin(), c.offsets.end()));
    device_buffer<float> first(c.offsets.size());
    device_buffer<float> second(c.offsets.size());
    for (device_buffer<float>* out : {&first, &second})
    {
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::detail::segmented_reduce_tiles::run(temp, bytes, d_in.data(), out->data(), d_offsets.data(), num,
                                                           cuda::std::plus<>{}, 0.0f, s);
      });
    }
    const std::vector<float> a = first.download();
    const std::vector<float> b = second.download();
    REQUIRE(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
    const long long off =
      strata_test::first_inexact_sum(h_in, a, c.offsets, c.offsets.data() + 1, static_cast<std::size_t>(num));
    INFO("the first sum off the exact sum: segment " << off);
    CHECK(off < 0);
  }
}
