// DeviceSegmentedReduce against per-segment reductions on the host: Sum (int32, uint64, float, double), Min and Max
// (int8, uint16, int32, float), ArgMin and ArgMax with ties (int32, float), Reduce with a commutative operator
// under which the initial value counts once (odd products mod 2^32) and with a user operator on a user type. Every one runs over
// segment layouts of every shape: none; one segment of every size class; all empty; all of one item; lengths uniform
// in [0, 8] (as many segments as every size class), [0, 128] and [0, 8192]; a few of 2^20 items among short ones;
// power-law lengths; one giant segment among tiny ones; a random mixture; and begin/end offsets that are not
// contiguous (overlaps, gaps, end == begin and end < begin), besides the CSR form (d_offsets, d_offsets + 1). Also:
// the fixed-size forms; 32- and 64-bit offsets; num_segments as int, int64_t and strata::device_count (one graph
// capture replayed over several counts); float sums within a tolerance of the exact sums and the same bits run to
// run; the single-phase forms; bad input rejected before anything is written. Over more than 2^31 items:
// device_segmented_reduce_large.cu.
#include <strata/device/device_segmented_reduce.cuh>
#include <strata/execution/policy.cuh>

#include <cuda/functional>
#include <cuda/std/functional>

#include "device_launch.cuh"
#include "segment_layouts.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
using strata_test::device_buffer;

// -- segment layouts ---------------------------------------------------------------------------------------------

using segment_test::budget;
using segment_test::contiguous;
using segment_test::device_offsets;
using segment_test::layout;
using segment_test::long_length;
using segment_test::scattered;
using segment_test::uniform_lengths;

// The size lists are built around a warp's sub-tile of items, its most segment ends per sub-tile and the length from
// which a run of one segment is read in vectors.
using policy_t             = strata::detail::segmented_reduce::policy_hub<int, int>::MaxPolicy::SegmentedReducePolicy;
constexpr std::size_t TILE = policy_t::TILE_ITEMS;
constexpr std::size_t SEGMENTS_PER_TILE = policy_t::SEGMENTS_PER_TILE;
constexpr std::size_t FAST_ITEMS        = policy_t::FAST_ITEMS;

const std::vector<layout>& layouts()
{
  static const std::vector<layout> all = segment_test::make_layouts(TILE, SEGMENTS_PER_TILE, FAST_ITEMS);
  return all;
}

// -- host references and checks ----------------------------------------------------------------------------------

// Poisoned outputs after the last segment's: nothing may be written there.
constexpr std::size_t TAIL = 8;

template <typename T>
std::string show(const T& v)
{
  std::ostringstream os;
  if constexpr (std::is_arithmetic<T>::value)
  {
    os << std::setprecision(9) << +v;
  }
  else
  {
    os << v;
  }
  return os.str();
}
template <typename K, typename V>
std::string show(const strata::KeyValuePair<K, V>& p)
{
  return "{" + show(p.key) + ", " + show(p.value) + "}";
}

// ref(first, last) for every segment of `l` over `in`.
template <typename OutT, typename InT, typename RefT>
std::vector<OutT> per_segment(const layout& l, const std::vector<InT>& in, RefT ref)
{
  std::vector<OutT> want(l.num_segments());
  for (std::size_t s = 0; s < want.size(); ++s)
  {
    const InT* first = in.data() + l.begin[s];
    want[s]          = ref(first, first + l.length(s));
  }
  return want;
}

// d_out starts with `want`, and everything after it still holds device_buffer's poison.
template <typename T>
void require_outputs(const layout& l, const device_buffer<T>& d_out, const std::vector<T>& want)
{
  const std::vector<T> out = d_out.download();
  REQUIRE(out.size() >= want.size());
  std::size_t wrong = 0;
  std::size_t first = 0;
  for (std::size_t s = 0; s < want.size(); ++s)
  {
    if (!(out[s] == want[s]) && wrong++ == 0)
    {
      first = s;
    }
  }
  if (wrong != 0)
  {
    INFO(wrong << " of " << want.size() << " segments wrong; the first is segment " << first << ", items ["
               << l.begin[first] << ", " << l.end[first] << "): " << show(out[first]) << " where " << show(want[first])
               << " was expected");
    FAIL("segments reduced wrong");
  }
  CHECK(strata_test::all_poisoned(std::vector<T>(out.begin() + static_cast<std::ptrdiff_t>(want.size()), out.end())));
}

// For every layout: runs `call(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets,
// d_end_offsets, stream)` (num_segments an int, offsets OffsetT) through both phases, every third one under graph
// capture, and requires ref(first, last) for every segment.
template <typename OutT, typename OffsetT = int, typename InT, typename CallT, typename RefT>
void check_layouts(const std::vector<InT>& h_in, CallT call, RefT ref)
{
  const device_buffer<InT> d_in(h_in);
  int i = 0;
  for (const layout& l : layouts())
  {
    CAPTURE(l.name);
    REQUIRE(l.items() <= h_in.size());
    const device_offsets<OffsetT> offsets(l);
    device_buffer<OutT> d_out(l.num_segments() + TAIL);
    const auto mode = (i++ % 3 == 2) ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return call(temp, bytes, d_in.data(), d_out.data(), static_cast<int>(l.num_segments()), offsets.begin(),
                    offsets.end(), s);
      },
      mode);
    require_outputs(l, d_out, per_segment<OutT>(l, h_in, ref));
  }
}

// The fixed-size shapes (segment_size, num_segments): every segment size with 0, 1, 3, 1025 and 65537 segments, and
// as many as fit, within budget() items.
std::vector<std::pair<int, int>> fixed_shapes()
{
  std::vector<std::pair<int, int>> shapes;
  for (const std::size_t size : {0, 1, 7, 256, 4096, 100000})
  {
    std::vector<std::size_t> nums = {0, 1, 3, 1025, 65537};
    if (size > 0)
    {
      nums.push_back(std::min(budget() / size, std::size_t(1) << 20));
    }
    for (const std::size_t num : nums)
    {
      if (num * size <= budget())
      {
        shapes.emplace_back(static_cast<int>(size), static_cast<int>(num));
      }
    }
  }
  std::sort(shapes.begin(), shapes.end());
  shapes.erase(std::unique(shapes.begin(), shapes.end()), shapes.end());
  return shapes;
}

// For every fixed-size shape: runs `call(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, segment_size,
// stream)` through both phases and requires ref(first, last) for every segment.
template <typename OutT, typename InT, typename CallT, typename RefT>
void check_fixed(const std::vector<InT>& h_in, CallT call, RefT ref)
{
  const device_buffer<InT> d_in(h_in);
  for (const auto& shape : fixed_shapes())
  {
    const int size = shape.first;
    const int num  = shape.second;
    const layout l = contiguous("fixed-size segments", std::vector<std::size_t>(num, size));
    CAPTURE(size, num);
    REQUIRE(l.num_segments() == static_cast<std::size_t>(num));
    device_buffer<OutT> d_out(l.num_segments() + TAIL);
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return call(temp, bytes, d_in.data(), d_out.data(), num, size, s);
      },
      num % 2 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream);
    require_outputs(l, d_out, per_segment<OutT>(l, h_in, ref));
  }
}

using strata_test::wrapping_plus;

template <typename T>
struct sum_of
{
  T operator()(const T* first, const T* last) const
  {
    return strata_test::reference_reduce(first, last, T{}, wrapping_plus{});
  }
};
template <typename T>
struct min_of
{
  T operator()(const T* first, const T* last) const
  {
    return strata_test::reference_reduce(first, last, std::numeric_limits<T>::max(), strata_test::host_min{});
  }
};
template <typename T>
struct max_of
{
  T operator()(const T* first, const T* last) const
  {
    return strata_test::reference_reduce(first, last, std::numeric_limits<T>::lowest(), strata_test::host_max{});
  }
};
// The first smallest (largest) item and its position in the segment; {1, max()} ({1, lowest()}) for no items.
template <typename T>
struct argmin_of
{
  strata::KeyValuePair<int, T> operator()(const T* first, const T* last) const
  {
    if (first == last)
    {
      return {1, std::numeric_limits<T>::max()};
    }
    const T* m = std::min_element(first, last);
    return {static_cast<int>(m - first), *m};
  }
};
template <typename T>
struct argmax_of
{
  strata::KeyValuePair<int, T> operator()(const T* first, const T* last) const
  {
    if (first == last)
    {
      return {1, std::numeric_limits<T>::lowest()};
    }
    const T* m = std::max_element(first, last);
    return {static_cast<int>(m - first), *m};
  }
};
// init op x0 op x1 ..., in order.
template <typename T, typename OpT>
struct reduce_of
{
  T init;
  OpT op;
  T operator()(const T* first, const T* last) const
  {
    return strata_test::reference_reduce(first, last, init, op);
  }
};

// A commutative, associative operator under which the initial value counts exactly once: the product of odd numbers
// modulo 2^32 (no product of odd numbers is 0, so nothing is absorbed).
struct odd_product
{
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const
  {
    return a * b;
  }
};

// Random odd numbers.
std::vector<std::uint32_t> odd_input(std::uint64_t salt)
{
  std::vector<std::uint32_t> v = strata_test::random_vector<std::uint32_t>(budget(), salt);
  for (auto& x : v)
  {
    x |= 1u;
  }
  return v;
}

// A commutative, associative user operator on a user type: the component-wise maximum.
struct custom_max
{
  __host__ __device__ strata_test::custom_t operator()(const strata_test::custom_t& a,
                                                       const strata_test::custom_t& b) const
  {
    return strata_test::custom_t{a.a > b.a ? a.a : b.a, a.b > b.b ? a.b : b.b, a.c > b.c ? a.c : b.c};
  }
};

// The input of the Sum tests: random_vector's, with floats made integers in [-16, 16], whose sums are exact while
// below 2^24 in magnitude, far above what random sums of these lengths reach.
template <typename T>
std::vector<T> sum_input(std::uint64_t salt)
{
  std::vector<T> v = strata_test::random_vector<T>(budget(), salt);
  if constexpr (std::is_same<T, float>::value)
  {
    for (auto& x : v)
    {
      x = std::trunc(x / 8.0f) + 0.0f; // + 0.0f: no -0.0f
    }
  }
  return v;
}

// Few distinct values (-4 to 4), so that every extreme occurs many times and ties decide the positions.
template <typename T>
std::vector<T> tied_input(std::uint64_t salt)
{
  std::vector<T> v = strata_test::random_vector<T>(budget(), salt);
  for (auto& x : v)
  {
    x = static_cast<T>(static_cast<long long>(x) % 5);
  }
  return v;
}
} // namespace

// -- the reductions over every layout -------------------------------------------------------------------------------

TEMPLATE_TEST_CASE("DeviceSegmentedReduce::Sum matches the host over every segment layout",
                   "[device][segmented_reduce]", std::int32_t, std::uint64_t, float, double)
{
  using T = TestType;
  check_layouts<T>(
    sum_input<T>(0x100 + sizeof(T)),
    [](void* t, std::size_t& b, auto in, auto out, int num, auto begin, auto end, cudaStream_t s) {
      return strata::DeviceSegmentedReduce::Sum(t, b, in, out, num, begin, end, s);
    },
    sum_of<T>{});
}

TEST_CASE("DeviceSegmentedReduce::Sum of floats is within a tolerance of the exact sums and the same bits run to run",
          "[device][segmented_reduce]")
{
  // Full mantissas: every rounded sum depends on the order of the additions.
  const std::vector<float> h_in = strata_test::full_mantissa_floats(budget(), 0x200);
  const device_buffer<float> d_in(h_in);
  for (const layout& l : layouts())
  {
    CAPTURE(l.name);
    const device_offsets<int> offsets(l);
    std::vector<std::vector<float>> runs;
    for (const auto mode : {strata_test::launch_mode::stream, strata_test::launch_mode::graph})
    {
      device_buffer<float> d_out(l.num_segments() + TAIL);
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceSegmentedReduce::Sum(temp, bytes, d_in.data(), d_out.data(),
                                                    static_cast<int>(l.num_segments()), offsets.begin(), offsets.end(),
                                                    s);
        },
        mode);
      runs.push_back(d_out.download());
    }
    REQUIRE(std::memcmp(runs[0].data(), runs[1].data(), runs[0].size() * sizeof(float)) == 0);
    CHECK(strata_test::all_poisoned(std::vector<float>(runs[0].end() - TAIL, runs[0].end())));
    const long long wrong = strata_test::first_inexact_sum(h_in, runs[0], l.begin, l.end, l.num_segments());
    if (wrong >= 0)
    {
      const std::size_t s = static_cast<std::size_t>(wrong);
      INFO("segment " << s << ", items [" << l.begin[s] << ", " << l.end[s] << "): " << show(runs[0][s]));
      CHECK(wrong < 0);
    }
  }
}

TEMPLATE_TEST_CASE("DeviceSegmentedReduce::Min and Max match the host over every segment layout",
                   "[device][segmented_reduce]", std::int8_t, std::uint16_t, std::int32_t, float)
{
  using T                   = TestType;
  const std::vector<T> h_in = strata_test::random_vector<T>(budget(), 0x300 + sizeof(T));
  {
    INFO("Min");
    check_layouts<T>(
      h_in,
      [](void* t, std::size_t& b, auto in, auto out, int num, auto begin, auto end, cudaStream_t s) {
        return strata::DeviceSegmentedReduce::Min(t, b, in, out, num, begin, end, s);
      },
      min_of<T>{});
  }
  {
    INFO("Max");
    check_layouts<T>(
      h_in,
      [](void* t, std::size_t& b, auto in, auto out, int num, auto begin, auto end, cudaStream_t s) {
        return strata::DeviceSegmentedReduce::Max(t, b, in, out, num, begin, end, s);
      },
      max_of<T>{});
  }
}

TEMPLATE_TEST_CASE("DeviceSegmentedReduce::ArgMin and ArgMax find the first extreme position in every segment",
                   "[device][segmented_reduce]", std::int32_t, float)
{
  using T                   = TestType;
  using Pair                = strata::KeyValuePair<int, T>;
  const std::vector<T> h_in = tied_input<T>(0x400 + sizeof(T));
  {
    INFO("ArgMin");
    check_layouts<Pair>(
      h_in,
      [](void* t, std::size_t& b, auto in, auto out, int num, auto begin, auto end, cudaStream_t s) {
        return strata::DeviceSegmentedReduce::ArgMin(t, b, in, out, num, begin, end, s);
      },
      argmin_of<T>{});
  }
  {
    INFO("ArgMax");
    check_layouts<Pair>(
      h_in,
      [](void* t, std::size_t& b, auto in, auto out, int num, auto begin, auto end, cudaStream_t s) {
        return strata::DeviceSegmentedReduce::ArgMax(t, b, in, out, num, begin, end, s);
      },
      argmax_of<T>{});
  }
}

TEST_CASE("DeviceSegmentedReduce::Reduce combines init once with the items (odd products mod 2^32)",
          "[device][segmented_reduce]")
{
  using T                   = std::uint32_t;
  const std::vector<T> h_in = odd_input(0x500);
  const T init              = 0x9e3779b9u;
  check_layouts<T>(
    h_in,
    [&](void* t, std::size_t& b, auto in, auto out, int num, auto begin, auto end, cudaStream_t s) {
      return strata::DeviceSegmentedReduce::Reduce(t, b, in, out, num, begin, end, odd_product{}, init, s);
    },
    reduce_of<T, odd_product>{init, {}});
}

TEST_CASE("DeviceSegmentedReduce::Reduce with a user operator on a user type", "[device][segmented_reduce]")
{
  using T                   = strata_test::custom_t;
  const std::vector<T> h_in = strata_test::random_vector<T>(budget(), 0x600);
  const T init{std::numeric_limits<std::int64_t>::min(), 7, -3};
  check_layouts<T>(
    h_in,
    [&](void* t, std::size_t& b, auto in, auto out, int num, auto begin, auto end, cudaStream_t s) {
      return strata::DeviceSegmentedReduce::Reduce(t, b, in, out, num, begin, end, custom_max{}, init, s);
    },
    reduce_of<T, custom_max>{init, {}});
}

// -- the fixed-size forms ---------------------------------------------------------------------------------------------

TEST_CASE("DeviceSegmentedReduce fixed-size forms: Sum, Min, ArgMax and Reduce", "[device][segmented_reduce]")
{
  using Pair = strata::KeyValuePair<int, int>;
  {
    INFO("Sum");
    check_fixed<int>(
      sum_input<int>(0x700),
      [](void* t, std::size_t& b, auto in, auto out, int num, int size, cudaStream_t s) {
        return strata::DeviceSegmentedReduce::Sum(t, b, in, out, num, size, s);
      },
      sum_of<int>{});
  }
  {
    INFO("Min");
    check_fixed<int>(
      strata_test::random_vector<int>(budget(), 0x701),
      [](void* t, std::size_t& b, auto in, auto out, int num, int size, cudaStream_t s) {
        return strata::DeviceSegmentedReduce::Min(t, b, in, out, num, size, s);
      },
      min_of<int>{});
  }
  {
    INFO("ArgMax");
    check_fixed<Pair>(
      tied_input<int>(0x702),
      [](void* t, std::size_t& b, auto in, auto out, int num, int size, cudaStream_t s) {
        return strata::DeviceSegmentedReduce::ArgMax(t, b, in, out, num, size, s);
      },
      argmax_of<int>{});
  }
  {
    INFO("Reduce of odd products");
    using T      = std::uint32_t;
    const T init = 0x2545f491u;
    check_fixed<T>(
      odd_input(0x704),
      [&](void* t, std::size_t& b, auto in, auto out, int num, int size, cudaStream_t s) {
        return strata::DeviceSegmentedReduce::Reduce(t, b, in, out, num, size, odd_product{}, init, s);
      },
      reduce_of<T, odd_product>{init, {}});
  }
}

// -- offset and count types ---------------------------------------------------------------------------------------------

TEST_CASE("DeviceSegmentedReduce::Sum takes 64-bit offsets and an int64_t num_segments", "[device][segmented_reduce]")
{
  const std::vector<int> h_in = sum_input<int>(0x800);
  {
    INFO("int64 offsets");
    check_layouts<int, std::int64_t>(
      h_in,
      [](void* t, std::size_t& b, auto in, auto out, int num, auto begin, auto end, cudaStream_t s) {
        return strata::DeviceSegmentedReduce::Sum(t, b, in, out, num, begin, end, s);
      },
      sum_of<int>{});
  }
  {
    INFO("int64 num_segments");
    check_layouts<int>(
      h_in,
      [](void* t, std::size_t& b, auto in, auto out, int num, auto begin, auto end, cudaStream_t s) {
        return strata::DeviceSegmentedReduce::Sum(t, b, in, out, static_cast<std::int64_t>(num), begin, end, s);
      },
      sum_of<int>{});
  }
}

TEST_CASE("DeviceSegmentedReduce::Sum takes num_segments from device memory (strata::device_count)",
          "[device][segmented_reduce][device_count]")
{
  const std::vector<int> h_in = sum_input<int>(0x900);
  const device_buffer<int> d_in(h_in);
  std::mt19937_64 rng   = strata_test::make_rng(0x901);
  const layout shapes[] = {contiguous("lengths uniform in [0, 128]", uniform_lengths(3001, 128, rng)),
                           scattered(1000, budget() / 2, rng)};
  cudaStream_t stream   = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (const layout& l : shapes)
  {
    CAPTURE(l.name);
    const int bound = static_cast<int>(l.num_segments());
    const device_offsets<int> offsets(l);
    device_buffer<int> d_num(1);
    device_buffer<int> d_out(l.num_segments() + TAIL);
    const strata::device_count<int> num_segments(d_num.data(), bound);
    const std::vector<int> want = per_segment<int>(l, h_in, sum_of<int>{});

    // Sized by the bound, captured once, replayed with each count: the count is read when the kernels run.
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(strata::DeviceSegmentedReduce::Sum(nullptr, bytes, d_in.data(), d_out.data(), num_segments,
                                                        offsets.begin(), offsets.end(), stream));
    device_buffer<char> temp(bytes);
    const strata_test::captured_graph graph(stream, [&](cudaStream_t s) {
      return strata::DeviceSegmentedReduce::Sum(temp.data(), bytes, d_in.data(), d_out.data(), num_segments,
                                                offsets.begin(), offsets.end(), s);
    });
    // Counts within the bound, one above it (taken as the bound) and a negative one (taken as 0).
    for (const int count : {0, 1, bound / 3 + 1, bound - 1, bound, bound + 5, -3})
    {
      CAPTURE(count);
      d_num.upload({count});
      d_out.poison();
      graph.launch(stream);
      STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
      const auto k = static_cast<std::ptrdiff_t>(std::clamp(count, 0, bound));
      require_outputs(l, d_out, std::vector<int>(want.begin(), want.begin() + k));
    }
  }
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

// One offsets array of up to 8192 segments is checked for order by the kernel on every run: a graph captured once
// gives the right sums for offsets in order, then stepping back, then in order again, in the same buffer.
TEST_CASE("DeviceSegmentedReduce::Sum decides on the device whether one offsets array is in order",
          "[device][segmented_reduce][graph]")
{
  const std::vector<int> h_in = sum_input<int>(0x910);
  const device_buffer<int> d_in(h_in);
  std::mt19937_64 rng   = strata_test::make_rng(0x911);
  const std::size_t num = std::min<std::size_t>(1001, budget() / 128); // every layout within the budget
  // Segment num / 2 ends 20 items before it begins (empty), and the next one starts there.
  layout back;
  back.name        = "CSR offsets that step back once";
  back.overlapping = true;
  long long at     = 40;
  for (const std::size_t length : uniform_lengths(num, 64, rng))
  {
    const long long end = back.begin.size() == num / 2 ? at - 20 : at + static_cast<long long>(length);
    back.begin.push_back(at);
    back.end.push_back(end);
    at = end;
  }
  const layout shapes[] = {contiguous("lengths uniform in [0, 128]", uniform_lengths(num, 128, rng)), back,
                           contiguous("lengths uniform in [0, 8]", uniform_lengths(num, 8, rng))};
  device_buffer<int> d_offsets(num + 1);
  device_buffer<int> d_out(num + TAIL);
  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceSegmentedReduce::Sum(nullptr, bytes, d_in.data(), d_out.data(), static_cast<int>(num),
                                                      d_offsets.data(), d_offsets.data() + 1, stream));
  device_buffer<char> temp(bytes);
  const strata_test::captured_graph graph(stream, [&](cudaStream_t s) {
    return strata::DeviceSegmentedReduce::Sum(temp.data(), bytes, d_in.data(), d_out.data(), static_cast<int>(num),
                                              d_offsets.data(), d_offsets.data() + 1, s);
  });
  for (const layout& l : shapes)
  {
    CAPTURE(l.name);
    REQUIRE(l.csr);
    REQUIRE(l.num_segments() == num);
    REQUIRE(l.items() <= h_in.size());
    std::vector<int> offsets(l.begin.begin(), l.begin.end());
    offsets.push_back(static_cast<int>(l.end.back()));
    d_offsets.upload(offsets);
    d_out.poison();
    graph.launch(stream);
    STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
    require_outputs(l, d_out, per_segment<int>(l, h_in, sum_of<int>{}));
  }
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

// -- single-phase forms ---------------------------------------------------------------------------------------------

TEST_CASE("DeviceSegmentedReduce single-phase forms: no environment, a stream, strata::par.on(stream)",
          "[device][segmented_reduce][single_phase]")
{
  using Pair                  = strata::KeyValuePair<int, int>;
  std::mt19937_64 rng         = strata_test::make_rng(0xa00);
  const layout l              = scattered(20011, budget() / 2, rng);
  const int num               = static_cast<int>(l.num_segments());
  const std::vector<int> h_in = tied_input<int>(0xa01);
  const device_buffer<int> d_in(h_in);
  const device_offsets<int> offsets(l);
  const int* d_begin = offsets.begin();
  const int* d_end   = offsets.end();
  // Fixed-size segments over the same input.
  const int size      = 1000;
  const int fixed_num = static_cast<int>(std::min<std::size_t>(budget() / size, 997));
  const layout fixed  = contiguous("fixed-size segments", std::vector<std::size_t>(fixed_num, size));
  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  // Runs `call(env)` with each environment and requires `want` in d_out.
  const auto each_environment = [&](const char* what, const layout& shape, auto& d_out, const auto& want, auto call) {
    for (int e = 0; e < 3; ++e)
    {
      CAPTURE(what, e);
      d_out.poison();
      const cudaError_t status = e == 0 ? call(strata::detail::default_env{})
                               : e == 1 ? call(stream)
                                        : call(strata::par.on(stream));
      REQUIRE(status == cudaSuccess);
      STRATA_TEST_CUDA(cudaDeviceSynchronize());
      require_outputs(shape, d_out, want);
    }
  };

  device_buffer<int> d_out(l.num_segments() + TAIL);
  device_buffer<Pair> d_pairs(l.num_segments() + TAIL);
  each_environment("Sum", l, d_out, per_segment<int>(l, h_in, sum_of<int>{}), [&](const auto& env) {
    return strata::DeviceSegmentedReduce::Sum(d_in.data(), d_out.data(), num, d_begin, d_end, env);
  });
  each_environment("Min", l, d_out, per_segment<int>(l, h_in, min_of<int>{}), [&](const auto& env) {
    return strata::DeviceSegmentedReduce::Min(d_in.data(), d_out.data(), num, d_begin, d_end, env);
  });
  each_environment("Max", l, d_out, per_segment<int>(l, h_in, max_of<int>{}), [&](const auto& env) {
    return strata::DeviceSegmentedReduce::Max(d_in.data(), d_out.data(), num, d_begin, d_end, env);
  });
  each_environment("ArgMin", l, d_pairs, per_segment<Pair>(l, h_in, argmin_of<int>{}), [&](const auto& env) {
    return strata::DeviceSegmentedReduce::ArgMin(d_in.data(), d_pairs.data(), num, d_begin, d_end, env);
  });
  each_environment("ArgMax", l, d_pairs, per_segment<Pair>(l, h_in, argmax_of<int>{}), [&](const auto& env) {
    return strata::DeviceSegmentedReduce::ArgMax(d_in.data(), d_pairs.data(), num, d_begin, d_end, env);
  });
  const reduce_of<int, strata_test::host_max> max_from_init{-2, {}};
  each_environment("Reduce", l, d_out, per_segment<int>(l, h_in, max_from_init), [&](const auto& env) {
    return strata::DeviceSegmentedReduce::Reduce(d_in.data(), d_out.data(), num, d_begin, d_end, cuda::maximum<>{}, -2,
                                                 env);
  });

  device_buffer<int> d_fixed(fixed.num_segments() + TAIL);
  device_buffer<Pair> d_fixed_pairs(fixed.num_segments() + TAIL);
  each_environment("fixed-size Sum", fixed, d_fixed, per_segment<int>(fixed, h_in, sum_of<int>{}),
                   [&](const auto& env) {
                     return strata::DeviceSegmentedReduce::Sum(d_in.data(), d_fixed.data(), fixed_num, size, env);
                   });
  each_environment("fixed-size Min", fixed, d_fixed, per_segment<int>(fixed, h_in, min_of<int>{}),
                   [&](const auto& env) {
                     return strata::DeviceSegmentedReduce::Min(d_in.data(), d_fixed.data(), fixed_num, size, env);
                   });
  each_environment("fixed-size ArgMax", fixed, d_fixed_pairs, per_segment<Pair>(fixed, h_in, argmax_of<int>{}),
                   [&](const auto& env) {
                     return strata::DeviceSegmentedReduce::ArgMax(d_in.data(), d_fixed_pairs.data(), fixed_num, size,
                                                                  env);
                   });
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

// -- bad input ------------------------------------------------------------------------------------------------------

namespace
{
// `call(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets, d_end_offsets)` runs one
// entry point on ints, writing an OutT. On one segment and on many: too small temporary storage, a null input, output
// or offsets pointer and a negative num_segments are refused with cudaErrorInvalidValue, and nothing is written.
template <typename OutT, typename CallT>
void check_rejects_bad_input(CallT call)
{
  std::mt19937_64 rng = strata_test::make_rng(0xb00);
  for (const layout& l : {contiguous("one segment", {100}), contiguous("many", uniform_lengths(100003, 16, rng))})
  {
    CAPTURE(l.name);
    const int num               = static_cast<int>(l.num_segments());
    const std::vector<int> h_in = strata_test::random_vector<int>(l.items(), 0xb01);
    const device_buffer<int> d_in(h_in);
    const device_offsets<int> offsets(l);
    device_buffer<OutT> d_out(l.num_segments() + TAIL);
    int* const null_in            = nullptr;
    OutT* const null_out          = nullptr;
    const int* const null_offsets = nullptr;
    std::size_t bytes             = 0;
    REQUIRE(call(nullptr, bytes, d_in.data(), d_out.data(), num, offsets.begin(), offsets.end()) == cudaSuccess);
    REQUIRE(bytes > 0);
    device_buffer<char> temp(bytes);

    std::size_t too_small = bytes - 1;
    CHECK(call(temp.data(), too_small, d_in.data(), d_out.data(), num, offsets.begin(), offsets.end())
          == cudaErrorInvalidValue);
    CHECK(call(temp.data(), bytes, null_in, d_out.data(), num, offsets.begin(), offsets.end())
          == cudaErrorInvalidValue);
    CHECK(call(temp.data(), bytes, d_in.data(), null_out, num, offsets.begin(), offsets.end())
          == cudaErrorInvalidValue);
    CHECK(call(temp.data(), bytes, d_in.data(), d_out.data(), num, null_offsets, offsets.end())
          == cudaErrorInvalidValue);
    CHECK(call(temp.data(), bytes, d_in.data(), d_out.data(), num, offsets.begin(), null_offsets)
          == cudaErrorInvalidValue);
    CHECK(call(temp.data(), bytes, d_in.data(), d_out.data(), -1, offsets.begin(), offsets.end())
          == cudaErrorInvalidValue);
    CHECK(call(temp.data(), bytes, d_in.data(), d_out.data(), -num, offsets.begin(), offsets.end())
          == cudaErrorInvalidValue);
    std::size_t query = 0;
    CHECK(call(nullptr, query, d_in.data(), d_out.data(), -1, offsets.begin(), offsets.end()) == cudaErrorInvalidValue);

    STRATA_TEST_SYNC();
    CHECK(strata_test::all_poisoned(d_out.download()));
    STRATA_REQUIRE_EQUAL_VECTORS(d_in.download(), h_in);
  }
}

// The same for a fixed-size entry point, `call(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
// segment_size)`, and a negative segment_size.
template <typename OutT, typename CallT>
void check_rejects_bad_input_fixed(CallT call)
{
  for (const auto& [size, num] : {std::pair<int, int>(100, 1), std::pair<int, int>(16, 100003)})
  {
    CAPTURE(size, num);
    const std::vector<int> h_in = strata_test::random_vector<int>(static_cast<std::size_t>(size) * num, 0xb02);
    const device_buffer<int> d_in(h_in);
    device_buffer<OutT> d_out(static_cast<std::size_t>(num) + TAIL);
    int* const null_in   = nullptr;
    OutT* const null_out = nullptr;
    std::size_t bytes    = 0;
    REQUIRE(call(nullptr, bytes, d_in.data(), d_out.data(), num, size) == cudaSuccess);
    REQUIRE(bytes > 0);
    device_buffer<char> temp(bytes);

    std::size_t too_small = bytes - 1;
    CHECK(call(temp.data(), too_small, d_in.data(), d_out.data(), num, size) == cudaErrorInvalidValue);
    CHECK(call(temp.data(), bytes, null_in, d_out.data(), num, size) == cudaErrorInvalidValue);
    CHECK(call(temp.data(), bytes, d_in.data(), null_out, num, size) == cudaErrorInvalidValue);
    CHECK(call(temp.data(), bytes, d_in.data(), d_out.data(), -1, size) == cudaErrorInvalidValue);
    CHECK(call(temp.data(), bytes, d_in.data(), d_out.data(), num, -1) == cudaErrorInvalidValue);
    CHECK(call(temp.data(), bytes, d_in.data(), d_out.data(), num, -size) == cudaErrorInvalidValue);
    std::size_t query = 0;
    CHECK(call(nullptr, query, d_in.data(), d_out.data(), -1, size) == cudaErrorInvalidValue);
    CHECK(call(nullptr, query, d_in.data(), d_out.data(), num, -1) == cudaErrorInvalidValue);

    STRATA_TEST_SYNC();
    CHECK(strata_test::all_poisoned(d_out.download()));
    STRATA_REQUIRE_EQUAL_VECTORS(d_in.download(), h_in);
  }
}

// No segments: the query asks for one byte, and the run launches nothing and writes nothing, also from null
// pointers (nothing is read or written through them).
template <typename OutT, typename CallT>
void check_no_segments(CallT call)
{
  const device_buffer<int> d_in(strata_test::random_vector<int>(16, 0xb03));
  const device_buffer<int> d_offsets(std::vector<int>{0, 5});
  device_buffer<OutT> d_out(TAIL);
  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, d_in.data(), d_out.data(), 0, d_offsets.data(), d_offsets.data() + 1) == cudaSuccess);
  CHECK(bytes == 1);
  device_buffer<char> temp(1);
  std::size_t one = 1;
  CHECK(call(temp.data(), one, d_in.data(), d_out.data(), 0, d_offsets.data(), d_offsets.data() + 1) == cudaSuccess);
  CHECK(call(temp.data(), one, static_cast<int*>(nullptr), static_cast<OutT*>(nullptr), 0,
             static_cast<const int*>(nullptr), static_cast<const int*>(nullptr))
        == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_out.download()));
}
} // namespace

TEST_CASE("DeviceSegmentedReduce rejects bad input before writing anything", "[device][segmented_reduce][errors]")
{
  using Pair = strata::KeyValuePair<int, int>;
  SECTION("Sum")
  {
    check_rejects_bad_input<int>([](void* t, std::size_t& b, int* in, int* out, int n, const int* bo, const int* eo) {
      return strata::DeviceSegmentedReduce::Sum(t, b, in, out, n, bo, eo);
    });
  }
  SECTION("Min")
  {
    check_rejects_bad_input<int>([](void* t, std::size_t& b, int* in, int* out, int n, const int* bo, const int* eo) {
      return strata::DeviceSegmentedReduce::Min(t, b, in, out, n, bo, eo);
    });
  }
  SECTION("Max")
  {
    check_rejects_bad_input<int>([](void* t, std::size_t& b, int* in, int* out, int n, const int* bo, const int* eo) {
      return strata::DeviceSegmentedReduce::Max(t, b, in, out, n, bo, eo);
    });
  }
  SECTION("ArgMin")
  {
    check_rejects_bad_input<Pair>([](void* t, std::size_t& b, int* in, Pair* out, int n, const int* bo, const int* eo) {
      return strata::DeviceSegmentedReduce::ArgMin(t, b, in, out, n, bo, eo);
    });
  }
  SECTION("ArgMax")
  {
    check_rejects_bad_input<Pair>([](void* t, std::size_t& b, int* in, Pair* out, int n, const int* bo, const int* eo) {
      return strata::DeviceSegmentedReduce::ArgMax(t, b, in, out, n, bo, eo);
    });
  }
  SECTION("Reduce")
  {
    check_rejects_bad_input<int>([](void* t, std::size_t& b, int* in, int* out, int n, const int* bo, const int* eo) {
      return strata::DeviceSegmentedReduce::Reduce(t, b, in, out, n, bo, eo, cuda::maximum<>{}, -2);
    });
  }
  SECTION("fixed-size Sum")
  {
    check_rejects_bad_input_fixed<int>([](void* t, std::size_t& b, int* in, int* out, int n, int size) {
      return strata::DeviceSegmentedReduce::Sum(t, b, in, out, n, size);
    });
  }
  SECTION("fixed-size Min")
  {
    check_rejects_bad_input_fixed<int>([](void* t, std::size_t& b, int* in, int* out, int n, int size) {
      return strata::DeviceSegmentedReduce::Min(t, b, in, out, n, size);
    });
  }
  SECTION("fixed-size ArgMax")
  {
    check_rejects_bad_input_fixed<Pair>([](void* t, std::size_t& b, int* in, Pair* out, int n, int size) {
      return strata::DeviceSegmentedReduce::ArgMax(t, b, in, out, n, size);
    });
  }
  SECTION("num_segments in device memory")
  {
    const device_buffer<int> d_in(strata_test::random_vector<int>(16, 0xb04));
    const device_buffer<int> d_offsets(std::vector<int>{0, 5, 9});
    device_buffer<int> d_out(2 + TAIL);
    device_buffer<int> d_num(1);
    const strata::device_count<int> null_count(nullptr, 2);
    const strata::device_count<int> negative_bound(d_num.data(), -1);
    // A size query needs no count.
    std::size_t bytes = 0;
    REQUIRE(strata::DeviceSegmentedReduce::Sum(nullptr, bytes, d_in.data(), d_out.data(), null_count, d_offsets.data(),
                                               d_offsets.data() + 1)
            == cudaSuccess);
    device_buffer<char> temp(bytes);
    CHECK(strata::DeviceSegmentedReduce::Sum(temp.data(), bytes, d_in.data(), d_out.data(), null_count,
                                             d_offsets.data(), d_offsets.data() + 1)
          == cudaErrorInvalidValue);
    std::size_t query = 0;
    CHECK(strata::DeviceSegmentedReduce::Sum(nullptr, query, d_in.data(), d_out.data(), negative_bound,
                                             d_offsets.data(), d_offsets.data() + 1)
          == cudaErrorInvalidValue);
    STRATA_TEST_SYNC();
    CHECK(strata_test::all_poisoned(d_out.download()));
    CHECK(strata_test::all_poisoned(d_num.download()));
  }
}

TEST_CASE("DeviceSegmentedReduce of no segments asks for one byte and writes nothing",
          "[device][segmented_reduce][errors]")
{
  using Pair = strata::KeyValuePair<int, int>;
  SECTION("Sum")
  {
    check_no_segments<int>([](void* t, std::size_t& b, int* in, int* out, int n, const int* bo, const int* eo) {
      return strata::DeviceSegmentedReduce::Sum(t, b, in, out, n, bo, eo);
    });
  }
  SECTION("ArgMin")
  {
    check_no_segments<Pair>([](void* t, std::size_t& b, int* in, Pair* out, int n, const int* bo, const int* eo) {
      return strata::DeviceSegmentedReduce::ArgMin(t, b, in, out, n, bo, eo);
    });
  }
  SECTION("Reduce")
  {
    check_no_segments<int>([](void* t, std::size_t& b, int* in, int* out, int n, const int* bo, const int* eo) {
      return strata::DeviceSegmentedReduce::Reduce(t, b, in, out, n, bo, eo, cuda::maximum<>{}, -2);
    });
  }
  SECTION("fixed-size Sum")
  {
    const device_buffer<int> d_in(strata_test::random_vector<int>(16, 0xb05));
    device_buffer<int> d_out(TAIL);
    std::size_t bytes = 0;
    REQUIRE(strata::DeviceSegmentedReduce::Sum(nullptr, bytes, d_in.data(), d_out.data(), 0, 4) == cudaSuccess);
    CHECK(bytes == 1);
    device_buffer<char> temp(1);
    CHECK(strata::DeviceSegmentedReduce::Sum(temp.data(), bytes, d_in.data(), d_out.data(), 0, 4) == cudaSuccess);
    CHECK(strata::DeviceSegmentedReduce::Sum(temp.data(), bytes, static_cast<int*>(nullptr), static_cast<int*>(nullptr),
                                             0, 4)
          == cudaSuccess);
    STRATA_TEST_SYNC();
    CHECK(strata_test::all_poisoned(d_out.download()));
  }
}
