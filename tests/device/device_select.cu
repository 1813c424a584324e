// DeviceSelect (If, Flagged, FlaggedIf, Unique; out of place and in place) and DevicePartition (If, Flagged) against
// std::stable_partition (the rejected part reversed) and std::unique on the host: value types of 1 to 8 bytes and a
// user struct, at every size class and every partial last tile, selection rates of 0, 1, 50, 99 and 100 %; flags of
// type char, bool and int holding assorted non-zero values; Unique over runs of chosen lengths; counts written as int,
// size_t and unsigned long long, int and int64 num_items; Thrust's fancy iterators as input and a discard_iterator as
// output; bad input rejected before anything is written; no items write a count of 0. More than 2^31 items:
// device_large.cu.
#include <strata/device/device_partition.cuh>
#include <strata/device/device_select.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <ostream>
#include <random>
#include <vector>

namespace
{
// A small user type: 8 bytes, 2 of them padding, compared member by member (never bytewise).
struct small_t
{
  int a;
  short b;

  __host__ __device__ friend bool operator==(const small_t& x, const small_t& y)
  {
    return x.a == y.a && x.b == y.b;
  }
  friend std::ostream& operator<<(std::ostream& os, const small_t& v)
  {
    return os << "{" << v.a << ", " << v.b << "}";
  }
};
} // namespace

namespace strata_test
{
template <>
struct random_traits<small_t>
{
  static small_t draw(std::mt19937_64& rng)
  {
    return small_t{static_cast<int>(rng()), static_cast<short>(rng() >> 48)};
  }
};
} // namespace strata_test

namespace
{
// The largest input of the size sweeps (2^22 items: 32 MiB of uint64).
constexpr std::size_t MAX_ITEMS = std::size_t(1) << 22;

// Percentages of items selected.
const std::vector<unsigned> RATES = {0, 1, 50, 99, 100};

// The tile of DeviceSelect's newest tuning for items of T (the tuning is chosen by the items' value type).
template <typename T>
constexpr std::size_t tile_items()
{
  return strata::detail::select::policy_hub<T>::MaxPolicy::SelectPolicy::TILE_ITEMS;
}

// Every size class of test_sizes around the tile for items of T.
template <typename T>
std::vector<std::size_t> select_sizes(std::uint64_t salt)
{
  return strata_test::test_sizes(tile_items<T>(), MAX_ITEMS, salt);
}

// k * tile + r for a few multiples k (one tile, two, three, many) and remainders r from an empty last tile (r = 0)
// through one item (r = 1) to one item short of a full tile (r = tile - 1), for the tile of items of T.
template <typename T>
std::vector<std::size_t> partial_tile_sizes()
{
  const std::size_t t   = tile_items<T>();
  const std::size_t cap = strata_test::capped(MAX_ITEMS);
  std::vector<std::size_t> s;
  for (const std::size_t k : {1, 2, 3, 8, 61})
  {
    for (const std::size_t r : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(31), std::size_t(33), t / 2,
                                t - 33, t - 2, t - 1})
    {
      if (t > 33 && k * t + r <= cap)
      {
        s.push_back(k * t + r);
      }
    }
  }
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

// Alternates stream and graph launches over the sizes and rates (an empty input still writes its count: it is
// captured too).
strata_test::launch_mode mode_for(std::size_t n, std::size_t salt)
{
  return (n + salt) % 3 == 0 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
}

// -- predicates (the same code on the host and the device) ----------------------------------------------------------

// Where a value falls in [0, 100), evenly enough over random values for the selection rates to be near their
// percentages (integers by their bits, floating-point values by the integer multiple of their step they are).
template <typename T>
__host__ __device__ unsigned bucket(T x)
{
  return static_cast<unsigned>(static_cast<unsigned long long>(x) % 100u);
}
__host__ __device__ inline unsigned bucket(float x)
{
  return bucket(static_cast<long long>(x * 8.0f));
}
__host__ __device__ inline unsigned bucket(double x)
{
  return bucket(static_cast<long long>(x * 1024.0));
}
__host__ __device__ inline unsigned bucket(const small_t& x)
{
  return bucket(x.a);
}

// Selects about `rate` % of random values: none at 0, all at 100.
struct below_rate
{
  unsigned rate;

  template <typename T>
  __host__ __device__ bool operator()(const T& x) const
  {
    return bucket(x) < rate;
  }
};

// x / divisor: runs of `divisor` equal values over a counting iterator.
struct divided_by
{
  long long divisor;

  __host__ __device__ long long operator()(long long x) const
  {
    return x / divisor;
  }
};

// x times an odd constant modulo a prime: the items of a transform iterator out of order.
struct scrambled
{
  __host__ __device__ long long operator()(long long x) const
  {
    return x * 40503 % 1000003;
  }
};

// -- inputs ---------------------------------------------------------------------------------------------------------

// n flag values, each non-zero with probability rate %. The non-zero ones are spread over -64..-1 and 1..64, all of
// which read as true whether the flags are char, bool or int.
std::vector<int> random_flag_values(std::size_t n, unsigned rate, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::vector<int> flags(n);
  for (int& f : flags)
  {
    const std::uint64_t r = rng();
    const int magnitude   = static_cast<int>(1 + (r & 63));
    f                     = (r >> 32) % 100 < rate ? ((r & 64) ? -magnitude : magnitude) : 0;
  }
  return flags;
}

// d_flags[i] = FlagT(values[i]). std::vector<bool> holds no array of bool, so the host copy is a plain array.
template <typename FlagT>
void upload_flags(strata_test::device_buffer<FlagT>& d_flags, const std::vector<int>& values)
{
  REQUIRE(d_flags.size() == values.size());
  std::unique_ptr<FlagT[]> host(new FlagT[values.size() + 1]);
  for (std::size_t i = 0; i < values.size(); ++i)
  {
    host[i] = static_cast<FlagT>(values[i]);
  }
  STRATA_TEST_CUDA(cudaMemcpy(d_flags.data(), host.get(), sizeof(FlagT) * values.size(), cudaMemcpyHostToDevice));
  // A copy from pageable memory may return before its DMA has finished (device_buffer::upload).
  STRATA_TEST_CUDA(cudaStreamSynchronize(nullptr));
}

// How the inputs of a Unique test are laid out: run lengths drawn uniformly from [min_run, max_run].
struct run_pattern
{
  const char* name;
  std::size_t min_run;
  std::size_t max_run;
};

constexpr std::size_t WHOLE_INPUT = std::numeric_limits<std::size_t>::max() / 2;

const std::vector<run_pattern> RUN_PATTERNS = {{"all items equal", WHOLE_INPUT, WHOLE_INPUT},
                                               {"no two neighbours equal", 1, 1},
                                               {"mean run length 2", 1, 3},
                                               {"mean run length 1000", 1, 1999}};

// n values in runs of lengths from `pattern`, each run a random value other than the run before it's (runs further
// apart may be equal: Unique removes only consecutive duplicates).
template <typename T>
std::vector<T> runs_of(std::size_t n, const run_pattern& pattern, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::uniform_int_distribution<std::size_t> run_length(pattern.min_run, pattern.max_run);
  std::vector<T> v(n);
  std::size_t i = 0;
  while (i < n)
  {
    T value = strata_test::random_value<T>(rng);
    while (i > 0 && value == v[i - 1])
    {
      value = strata_test::random_value<T>(rng);
    }
    const std::size_t end = std::min(n, i + run_length(rng));
    std::fill(v.begin() + static_cast<std::ptrdiff_t>(i), v.begin() + static_cast<std::ptrdiff_t>(end), value);
    i = end;
  }
  return v;
}

// -- host references ------------------------------------------------------------------------------------------------

// selection[i] = pred(in[i]).
template <typename T, typename Pred>
std::vector<char> selection_of(const std::vector<T>& in, Pred pred)
{
  std::vector<char> selection(in.size());
  std::transform(in.begin(), in.end(), selection.begin(), [&](const T& x) {
    return static_cast<char>(pred(x) ? 1 : 0);
  });
  return selection;
}

std::vector<char> selection_of_flags(const std::vector<int>& flag_values)
{
  return selection_of(flag_values, [](int f) {
    return f != 0;
  });
}

// What DevicePartition writes: the selected items in order, then the rejected ones in reverse order
// (std::stable_partition, then std::reverse of the rejected part). DeviceSelect writes the selected ones only.
template <typename T>
struct expected_layout
{
  std::vector<T> partitioned;
  std::size_t num_selected = 0;

  std::vector<T> selected() const
  {
    return std::vector<T>(partitioned.begin(), partitioned.begin() + static_cast<std::ptrdiff_t>(num_selected));
  }
};

template <typename T>
expected_layout<T> reference_layout(const std::vector<T>& in, const std::vector<char>& selection)
{
  std::vector<std::size_t> order(in.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  const auto rejected = std::stable_partition(order.begin(), order.end(), [&](std::size_t i) {
    return selection[i] != 0;
  });
  std::reverse(rejected, order.end());
  expected_layout<T> e;
  e.num_selected = static_cast<std::size_t>(rejected - order.begin());
  e.partitioned.reserve(in.size());
  for (const std::size_t i : order)
  {
    e.partitioned.push_back(in[i]);
  }
  return e;
}

// -- checks ---------------------------------------------------------------------------------------------------------

// *d_num is the number of expected items, d_out starts with them, and (where `tail_untouched`: not in place) nothing
// after them was written.
template <typename T, typename NumT>
void check_selected(const strata_test::device_buffer<T>& d_out, const strata_test::device_buffer<NumT>& d_num,
                    const std::vector<T>& expected, bool tail_untouched = true)
{
  const NumT num_selected = d_num.download()[0];
  INFO("num_selected " << num_selected << ", expected " << expected.size());
  REQUIRE(static_cast<std::size_t>(num_selected) == expected.size());
  const std::vector<T> out = d_out.download();
  REQUIRE(out.size() >= expected.size());
  const auto k = static_cast<std::ptrdiff_t>(expected.size());
  STRATA_REQUIRE_EQUAL_VECTORS(std::vector<T>(out.begin(), out.begin() + k), expected);
  if (tail_untouched)
  {
    INFO("nothing is written after the selected items");
    CHECK(strata_test::all_poisoned(std::vector<T>(out.begin() + k, out.end())));
  }
}

template <typename T, typename NumT>
void check_partitioned(const strata_test::device_buffer<T>& d_out, const strata_test::device_buffer<NumT>& d_num,
                       const expected_layout<T>& expected)
{
  const NumT num_selected = d_num.download()[0];
  INFO("num_selected " << num_selected << ", expected " << expected.num_selected);
  REQUIRE(static_cast<std::size_t>(num_selected) == expected.num_selected);
  STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected.partitioned);
}

// -- the runs of one size -------------------------------------------------------------------------------------------

// DeviceSelect::If and DevicePartition::If of n random T at each rate.
template <typename T>
void check_if(std::size_t n, const std::vector<unsigned>& rates)
{
  CAPTURE(n);
  const std::vector<T> h_in = strata_test::random_vector<T>(n, 11 * n + sizeof(T));
  strata_test::device_buffer<T> d_in(h_in);
  strata_test::device_buffer<T> d_out(n);
  strata_test::device_buffer<int> d_num(1);
  for (const unsigned rate : rates)
  {
    CAPTURE(rate);
    const below_rate select_op{rate};
    const expected_layout<T> expected = reference_layout(h_in, selection_of(h_in, select_op));
    const auto mode                   = mode_for(n, rate);
    {
      INFO("DeviceSelect::If");
      d_out.poison();
      d_num.poison();
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceSelect::If(temp, bytes, d_in.data(), d_out.data(), d_num.data(), static_cast<int>(n),
                                          select_op, s);
        },
        mode);
      check_selected(d_out, d_num, expected.selected());
    }
    {
      INFO("DevicePartition::If");
      d_out.poison();
      d_num.poison();
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DevicePartition::If(temp, bytes, d_in.data(), d_out.data(), d_num.data(), static_cast<int>(n),
                                             select_op, s);
        },
        mode);
      check_partitioned(d_out, d_num, expected);
    }
  }
  INFO("the input is left as it was");
  STRATA_REQUIRE_EQUAL_VECTORS(d_in.download(), h_in);
}

// DeviceSelect::Flagged and DevicePartition::Flagged of n random V with FlagT flags, at each rate.
template <typename V, typename FlagT>
void check_flagged(std::size_t n, const std::vector<unsigned>& rates)
{
  CAPTURE(n);
  const std::vector<V> h_in = strata_test::random_vector<V>(n, 13 * n + sizeof(V));
  strata_test::device_buffer<V> d_in(h_in);
  strata_test::device_buffer<FlagT> d_flags(n);
  strata_test::device_buffer<V> d_out(n);
  strata_test::device_buffer<int> d_num(1);
  for (const unsigned rate : rates)
  {
    CAPTURE(rate);
    const std::vector<int> flag_values = random_flag_values(n, rate, 17 * n + rate);
    upload_flags(d_flags, flag_values);
    const expected_layout<V> expected = reference_layout(h_in, selection_of_flags(flag_values));
    const auto mode                   = mode_for(n, rate + 1);
    {
      INFO("DeviceSelect::Flagged");
      d_out.poison();
      d_num.poison();
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceSelect::Flagged(temp, bytes, d_in.data(), d_flags.data(), d_out.data(), d_num.data(),
                                               static_cast<int>(n), s);
        },
        mode);
      check_selected(d_out, d_num, expected.selected());
    }
    {
      INFO("DevicePartition::Flagged");
      d_out.poison();
      d_num.poison();
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DevicePartition::Flagged(temp, bytes, d_in.data(), d_flags.data(), d_out.data(), d_num.data(),
                                                  static_cast<int>(n), s);
        },
        mode);
      check_partitioned(d_out, d_num, expected);
    }
  }
  INFO("the input is left as it was");
  STRATA_REQUIRE_EQUAL_VECTORS(d_in.download(), h_in);
}

// DeviceSelect::Unique of n T in runs from `pattern`.
template <typename T>
void check_unique(std::size_t n, const run_pattern& pattern)
{
  CAPTURE(n);
  const std::vector<T> h_in = runs_of<T>(n, pattern, 23 * n + pattern.min_run + sizeof(T));
  std::vector<T> expected   = h_in;
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  strata_test::device_buffer<T> d_in(h_in);
  strata_test::device_buffer<T> d_out(n);
  strata_test::device_buffer<int> d_num(1);
  strata_test::launch(
    [&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceSelect::Unique(temp, bytes, d_in.data(), d_out.data(), d_num.data(), static_cast<int>(n), s);
    },
    mode_for(n, pattern.min_run));
  check_selected(d_out, d_num, expected);
  INFO("the input is left as it was");
  STRATA_REQUIRE_EQUAL_VECTORS(d_in.download(), h_in);
}

// DeviceSelect::If in place on n random T at each rate: the selected items move to the front of d_data (what is left
// after them is unspecified).
template <typename T>
void check_if_in_place(std::size_t n)
{
  CAPTURE(n);
  const std::vector<T> h_in = strata_test::random_vector<T>(n, 29 * n + sizeof(T));
  strata_test::device_buffer<T> d_data(n);
  strata_test::device_buffer<int> d_num(1);
  for (const unsigned rate : RATES)
  {
    CAPTURE(rate);
    const below_rate select_op{rate};
    const expected_layout<T> expected = reference_layout(h_in, selection_of(h_in, select_op));
    d_data.upload(h_in);
    d_num.poison();
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceSelect::If(temp, bytes, d_data.data(), d_num.data(), static_cast<int>(n), select_op, s);
      },
      mode_for(n, rate));
    check_selected(d_data, d_num, expected.selected(), false);
  }
}
} // namespace

// -- DeviceSelect::If and DevicePartition::If -----------------------------------------------------------------------

TEMPLATE_TEST_CASE("DeviceSelect::If and DevicePartition::If match the host at every size class and rate",
                   "[device][select][partition]", std::int8_t, std::int32_t, std::uint64_t, float, double, small_t)
{
  for (const std::size_t n : select_sizes<TestType>(31 + sizeof(TestType)))
  {
    check_if<TestType>(n, RATES);
  }
}

TEMPLATE_TEST_CASE("DeviceSelect::If and DevicePartition::If with every partial last tile",
                   "[device][select][partition][tiles]", std::int8_t, std::int32_t, std::uint64_t, float, double,
                   small_t)
{
  for (const std::size_t n : partial_tile_sizes<TestType>())
  {
    check_if<TestType>(n, {50});
  }
}

// -- DeviceSelect::Flagged and DevicePartition::Flagged -------------------------------------------------------------

namespace
{
// Items of V flagged by FlagT.
template <typename V, typename FlagT>
struct flagged_case
{
  using value_type = V;
  using flag_type  = FlagT;
};

using int32_by_char  = flagged_case<std::int32_t, char>;
using uint64_by_bool = flagged_case<std::uint64_t, bool>;
using double_by_int  = flagged_case<double, int>;
using small_by_char  = flagged_case<small_t, char>;
} // namespace

TEMPLATE_TEST_CASE("DeviceSelect::Flagged and DevicePartition::Flagged select the items whose flags are non-zero",
                   "[device][select][partition][flagged]", int32_by_char, uint64_by_bool, double_by_int, small_by_char)
{
  using V     = typename TestType::value_type;
  using FlagT = typename TestType::flag_type;
  for (const std::size_t n : select_sizes<V>(37 + sizeof(V) + sizeof(FlagT)))
  {
    check_flagged<V, FlagT>(n, RATES);
  }
  for (const std::size_t n : partial_tile_sizes<V>())
  {
    check_flagged<V, FlagT>(n, {50});
  }
}

TEST_CASE("DeviceSelect::FlaggedIf selects the items whose flags satisfy the predicate", "[device][select][flagged]")
{
  for (const std::size_t n : select_sizes<int>(41))
  {
    CAPTURE(n);
    // Random flags: below_rate of a flag is not below_rate of its item, and most flags are non-zero whether
    // selected or not.
    const std::vector<int> h_in    = strata_test::random_vector<int>(n, 43 * n);
    const std::vector<int> h_flags = strata_test::random_vector<int>(n, 43 * n + 1);
    strata_test::device_buffer<int> d_in(h_in);
    strata_test::device_buffer<int> d_flags(h_flags);
    strata_test::device_buffer<int> d_out(n);
    strata_test::device_buffer<int> d_num(1);
    for (const unsigned rate : RATES)
    {
      CAPTURE(rate);
      const below_rate select_op{rate};
      const expected_layout<int> expected = reference_layout(h_in, selection_of(h_flags, select_op));
      d_out.poison();
      d_num.poison();
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceSelect::FlaggedIf(temp, bytes, d_in.data(), d_flags.data(), d_out.data(), d_num.data(),
                                                 static_cast<int>(n), select_op, s);
        },
        mode_for(n, rate));
      check_selected(d_out, d_num, expected.selected());
    }
    INFO("the items and flags are left as they were");
    STRATA_REQUIRE_EQUAL_VECTORS(d_in.download(), h_in);
    STRATA_REQUIRE_EQUAL_VECTORS(d_flags.download(), h_flags);
  }
}

// -- in place -------------------------------------------------------------------------------------------------------

TEST_CASE("DeviceSelect::If and Flagged in place move the selected items to the front", "[device][select][in-place]")
{
  SECTION("If, int32")
  {
    for (const std::size_t n : select_sizes<std::int32_t>(47))
    {
      check_if_in_place<std::int32_t>(n);
    }
  }
  SECTION("If, user struct")
  {
    for (const std::size_t n : select_sizes<small_t>(53))
    {
      check_if_in_place<small_t>(n);
    }
  }
  SECTION("Flagged, int32 with char flags")
  {
    for (const std::size_t n : select_sizes<int>(59))
    {
      CAPTURE(n);
      const std::vector<int> h_in = strata_test::random_vector<int>(n, 61 * n);
      strata_test::device_buffer<int> d_data(n);
      strata_test::device_buffer<char> d_flags(n);
      strata_test::device_buffer<int> d_num(1);
      for (const unsigned rate : RATES)
      {
        CAPTURE(rate);
        const std::vector<int> flag_values = random_flag_values(n, rate, 67 * n + rate);
        upload_flags(d_flags, flag_values);
        const expected_layout<int> expected = reference_layout(h_in, selection_of_flags(flag_values));
        d_data.upload(h_in);
        d_num.poison();
        strata_test::launch(
          [&](void* temp, std::size_t& bytes, cudaStream_t s) {
            return strata::DeviceSelect::Flagged(temp, bytes, d_data.data(), d_flags.data(), d_num.data(),
                                                 static_cast<int>(n), s);
          },
          mode_for(n, rate));
        check_selected(d_data, d_num, expected.selected(), false);
      }
    }
  }
}

// -- Unique ---------------------------------------------------------------------------------------------------------

TEMPLATE_TEST_CASE("DeviceSelect::Unique matches std::unique for runs of every length", "[device][select][unique]",
                   std::int8_t, std::int32_t, std::uint64_t, double, small_t)
{
  for (const run_pattern& pattern : RUN_PATTERNS)
  {
    CAPTURE(pattern.name);
    for (const std::size_t n : select_sizes<TestType>(71 + sizeof(TestType)))
    {
      check_unique<TestType>(n, pattern);
    }
  }
  const run_pattern& short_runs = RUN_PATTERNS[2];
  CAPTURE(short_runs.name);
  for (const std::size_t n : partial_tile_sizes<TestType>())
  {
    check_unique<TestType>(n, short_runs);
  }
}

// -- count and size types -------------------------------------------------------------------------------------------

TEST_CASE("DeviceSelect and DevicePartition write counts of other types and take int64 num_items",
          "[device][select][partition]")
{
  for (const std::size_t n : strata_test::sizes_within_cap({0, 1, 4097, 1000003}))
  {
    CAPTURE(n);
    const long long n64 = static_cast<long long>(n);
    const below_rate select_op{50};
    const std::vector<int> h_in         = strata_test::random_vector<int>(n, 73 * n);
    const std::vector<int> flag_values  = random_flag_values(n, 50, 73 * n + 1);
    const expected_layout<int> by_value = reference_layout(h_in, selection_of(h_in, select_op));
    const expected_layout<int> by_flag  = reference_layout(h_in, selection_of_flags(flag_values));
    const std::vector<int> h_runs       = runs_of<int>(n, RUN_PATTERNS[2], 73 * n + 2);
    std::vector<int> unique_runs        = h_runs;
    unique_runs.erase(std::unique(unique_runs.begin(), unique_runs.end()), unique_runs.end());
    strata_test::device_buffer<int> d_in(h_in);
    strata_test::device_buffer<char> d_flags(n);
    upload_flags(d_flags, flag_values);
    strata_test::device_buffer<int> d_runs(h_runs);
    strata_test::device_buffer<int> d_out(n);
    strata_test::device_buffer<std::size_t> d_num_size(1);
    strata_test::device_buffer<unsigned long long> d_num_ull(1);
    {
      INFO("DeviceSelect::If, size_t count, long long num_items");
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceSelect::If(temp, bytes, d_in.data(), d_out.data(), d_num_size.data(), n64, select_op, s);
      });
      check_selected(d_out, d_num_size, by_value.selected());
    }
    d_out.poison();
    {
      INFO("DeviceSelect::If, unsigned long long count, int num_items");
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceSelect::If(temp, bytes, d_in.data(), d_out.data(), d_num_ull.data(), static_cast<int>(n),
                                        select_op, s);
      });
      check_selected(d_out, d_num_ull, by_value.selected());
    }
    d_out.poison();
    d_num_size.poison();
    {
      INFO("DeviceSelect::Flagged, size_t count, long long num_items");
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceSelect::Flagged(temp, bytes, d_in.data(), d_flags.data(), d_out.data(), d_num_size.data(),
                                             n64, s);
      });
      check_selected(d_out, d_num_size, by_flag.selected());
    }
    d_out.poison();
    d_num_size.poison();
    {
      INFO("DevicePartition::If, size_t count, long long num_items");
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DevicePartition::If(temp, bytes, d_in.data(), d_out.data(), d_num_size.data(), n64, select_op,
                                           s);
      });
      check_partitioned(d_out, d_num_size, by_value);
    }
    d_out.poison();
    d_num_size.poison();
    {
      INFO("DeviceSelect::Unique, size_t count, long long num_items");
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceSelect::Unique(temp, bytes, d_runs.data(), d_out.data(), d_num_size.data(), n64, s);
      });
      check_selected(d_out, d_num_size, unique_runs);
    }
  }
}

// -- iterators ------------------------------------------------------------------------------------------------------

TEST_CASE("DeviceSelect and DevicePartition read Thrust's fancy iterators", "[device][select][partition][iterators]")
{
  for (const std::size_t n : strata_test::sizes_within_cap({1, 4097, 65537, 1000003}))
  {
    CAPTURE(n);
    const long long first = -5000;
    std::vector<long long> h_counting(n);
    std::iota(h_counting.begin(), h_counting.end(), first);
    strata_test::device_buffer<long long> d_out(n);
    strata_test::device_buffer<int> d_num(1);
    strata_test::device_buffer<std::size_t> d_num_size(1);
    {
      INFO("DeviceSelect::If over a counting_iterator");
      const below_rate select_op{30};
      const expected_layout<long long> expected = reference_layout(h_counting, selection_of(h_counting, select_op));
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceSelect::If(temp, bytes, thrust::counting_iterator<long long>(first), d_out.data(),
                                        d_num.data(), static_cast<int>(n), select_op, s);
      });
      check_selected(d_out, d_num, expected.selected());
    }
    d_out.poison();
    d_num.poison();
    {
      INFO("DevicePartition::If over a transform_iterator");
      std::vector<long long> h_scrambled(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        h_scrambled[i] = scrambled{}(static_cast<long long>(i));
      }
      const below_rate select_op{50};
      const expected_layout<long long> expected = reference_layout(h_scrambled, selection_of(h_scrambled, select_op));
      const auto in = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), scrambled{});
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DevicePartition::If(temp, bytes, in, d_out.data(), d_num.data(), static_cast<int>(n), select_op,
                                           s);
      });
      check_partitioned(d_out, d_num, expected);
    }
    d_out.poison();
    {
      INFO("DeviceSelect::Unique over a transform_iterator (runs of 7)");
      std::vector<long long> expected((n + 6) / 7);
      std::iota(expected.begin(), expected.end(), 0LL);
      const auto in = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), divided_by{7});
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceSelect::Unique(temp, bytes, in, d_out.data(), d_num_size.data(), static_cast<long long>(n),
                                            s);
      });
      check_selected(d_out, d_num_size, expected);
    }
  }
}

// -- bad input and no items -----------------------------------------------------------------------------------------

namespace
{
constexpr int N = 100000; // several tiles, so a run would need tile state

// `call(d_temp_storage, temp_storage_bytes, d_in, d_flags, d_out, d_num_selected_out, num_items, stream)` runs one
// out-of-place entry point on int items (d_flags ignored where it takes none: `uses_flags` false). Each bad call
// returns cudaErrorInvalidValue, and none of them writes anything.
template <typename FlagT, typename Call>
void check_rejects_bad_input(Call call, bool uses_flags)
{
  const std::vector<int> h_in = strata_test::random_vector<int>(N, 1);
  strata_test::device_buffer<int> d_in(h_in);
  strata_test::device_buffer<FlagT> d_flags(N);
  upload_flags(d_flags, random_flag_values(N, 50, 2));
  strata_test::device_buffer<int> d_out(N);
  strata_test::device_buffer<int> d_num(1);
  int* const in           = d_in.data();
  FlagT* const flags      = d_flags.data();
  int* const out          = d_out.data();
  int* const num          = d_num.data();
  int* const null         = nullptr;
  FlagT* const null_flags = nullptr;
  const cudaStream_t s    = 0;

  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, in, flags, out, num, N, s) == cudaSuccess);
  REQUIRE(bytes > 0);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));

  std::size_t too_small = bytes - 1;
  CHECK(call(d_temp, too_small, in, flags, out, num, N, s) == cudaErrorInvalidValue);
  CHECK(call(d_temp, bytes, null, flags, out, num, N, s) == cudaErrorInvalidValue);
  if (uses_flags)
  {
    CHECK(call(d_temp, bytes, in, null_flags, out, num, N, s) == cudaErrorInvalidValue);
  }
  CHECK(call(d_temp, bytes, in, flags, null, num, N, s) == cudaErrorInvalidValue);
  CHECK(call(d_temp, bytes, in, flags, out, null, N, s) == cudaErrorInvalidValue);
  CHECK(call(d_temp, bytes, in, flags, out, num, -5, s) == cudaErrorInvalidValue);
  std::size_t query = 0;
  CHECK(call(nullptr, query, in, flags, out, num, -1, s) == cudaErrorInvalidValue);

  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_out.download()));
  CHECK(strata_test::all_poisoned(d_num.download()));
  STRATA_REQUIRE_EQUAL_VECTORS(d_in.download(), h_in);
  STRATA_TEST_CUDA(cudaFree(d_temp));
}

// As check_rejects_bad_input for an in-place entry point: `call(d_temp_storage, temp_storage_bytes, d_data, d_flags,
// d_num_selected_out, num_items, stream)`.
template <typename FlagT, typename Call>
void check_rejects_bad_input_in_place(Call call, bool uses_flags)
{
  const std::vector<int> h_data = strata_test::random_vector<int>(N, 3);
  strata_test::device_buffer<int> d_data(h_data);
  strata_test::device_buffer<FlagT> d_flags(N);
  upload_flags(d_flags, random_flag_values(N, 50, 4));
  strata_test::device_buffer<int> d_num(1);
  int* const data         = d_data.data();
  FlagT* const flags      = d_flags.data();
  int* const num          = d_num.data();
  int* const null         = nullptr;
  FlagT* const null_flags = nullptr;
  const cudaStream_t s    = 0;

  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, data, flags, num, N, s) == cudaSuccess);
  REQUIRE(bytes > 0);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));

  std::size_t too_small = bytes - 1;
  CHECK(call(d_temp, too_small, data, flags, num, N, s) == cudaErrorInvalidValue);
  CHECK(call(d_temp, bytes, null, flags, num, N, s) == cudaErrorInvalidValue);
  if (uses_flags)
  {
    CHECK(call(d_temp, bytes, data, null_flags, num, N, s) == cudaErrorInvalidValue);
  }
  CHECK(call(d_temp, bytes, data, flags, null, N, s) == cudaErrorInvalidValue);
  CHECK(call(d_temp, bytes, data, flags, num, -5, s) == cudaErrorInvalidValue);
  std::size_t query = 0;
  CHECK(call(nullptr, query, data, flags, num, -1, s) == cudaErrorInvalidValue);

  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_num.download()));
  STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(), h_data);
  STRATA_TEST_CUDA(cudaFree(d_temp));
}

// No items: the query asks for one byte; the run writes 0 to *d_num_selected_out and nothing else, also with null
// items, flags and output (nothing is read or written through them). `call` as for check_rejects_bad_input.
template <typename FlagT, typename Call>
void check_empty(Call call)
{
  strata_test::device_buffer<int> d_in(strata_test::random_vector<int>(1, 5));
  strata_test::device_buffer<FlagT> d_flags(1);
  strata_test::device_buffer<int> d_out(1);
  strata_test::device_buffer<int> d_num(1);
  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, d_in.data(), d_flags.data(), d_out.data(), d_num.data(), 0, cudaStream_t{0})
          == cudaSuccess);
  CHECK(bytes == 1);
  strata_test::launch([&](void* temp, std::size_t& b, cudaStream_t s) {
    return call(temp, b, d_in.data(), d_flags.data(), d_out.data(), d_num.data(), 0, s);
  });
  CHECK(d_num.download()[0] == 0);
  CHECK(strata_test::all_poisoned(d_out.download()));

  d_num.poison();
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, 1));
  std::size_t one = 1;
  CHECK(call(d_temp, one, static_cast<int*>(nullptr), static_cast<FlagT*>(nullptr), static_cast<int*>(nullptr),
             d_num.data(), 0, cudaStream_t{0})
        == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(d_num.download()[0] == 0);
  STRATA_TEST_CUDA(cudaFree(d_temp));
}

// An in-place call as an out-of-place one that selects within d_out (d_in unused), for check_empty.
template <typename FlagT, typename Call>
auto within_d_out(Call call)
{
  return [call](void* t, std::size_t& b, int*, FlagT* flags, int* out, int* num, int n, cudaStream_t s) {
    return call(t, b, out, flags, num, n, s);
  };
}
} // namespace

TEST_CASE("DeviceSelect and DevicePartition reject bad input before writing anything", "[device][select][errors]")
{
  const below_rate select_op{50};
  SECTION("DeviceSelect::If")
  {
    const auto call = [=](void* t, std::size_t& b, int* in, char*, int* out, int* num, int n, cudaStream_t s) {
      return strata::DeviceSelect::If(t, b, in, out, num, n, select_op, s);
    };
    check_rejects_bad_input<char>(call, false);
    check_empty<char>(call);
  }
  SECTION("DeviceSelect::If in place")
  {
    const auto call = [=](void* t, std::size_t& b, int* data, char*, int* num, int n, cudaStream_t s) {
      return strata::DeviceSelect::If(t, b, data, num, n, select_op, s);
    };
    check_rejects_bad_input_in_place<char>(call, false);
    check_empty<char>(within_d_out<char>(call));
  }
  SECTION("DeviceSelect::Flagged")
  {
    const auto call = [](void* t, std::size_t& b, int* in, char* flags, int* out, int* num, int n, cudaStream_t s) {
      return strata::DeviceSelect::Flagged(t, b, in, flags, out, num, n, s);
    };
    check_rejects_bad_input<char>(call, true);
    check_empty<char>(call);
  }
  SECTION("DeviceSelect::Flagged in place")
  {
    const auto call = [](void* t, std::size_t& b, int* data, char* flags, int* num, int n, cudaStream_t s) {
      return strata::DeviceSelect::Flagged(t, b, data, flags, num, n, s);
    };
    check_rejects_bad_input_in_place<char>(call, true);
    check_empty<char>(within_d_out<char>(call));
  }
  SECTION("DeviceSelect::FlaggedIf")
  {
    const auto call = [=](void* t, std::size_t& b, int* in, int* flags, int* out, int* num, int n, cudaStream_t s) {
      return strata::DeviceSelect::FlaggedIf(t, b, in, flags, out, num, n, select_op, s);
    };
    check_rejects_bad_input<int>(call, true);
    check_empty<int>(call);
  }
  SECTION("DeviceSelect::Unique")
  {
    const auto call = [](void* t, std::size_t& b, int* in, char*, int* out, int* num, int n, cudaStream_t s) {
      return strata::DeviceSelect::Unique(t, b, in, out, num, n, s);
    };
    check_rejects_bad_input<char>(call, false);
    check_empty<char>(call);
  }
  SECTION("DevicePartition::If")
  {
    const auto call = [=](void* t, std::size_t& b, int* in, char*, int* out, int* num, int n, cudaStream_t s) {
      return strata::DevicePartition::If(t, b, in, out, num, n, select_op, s);
    };
    check_rejects_bad_input<char>(call, false);
    check_empty<char>(call);
  }
  SECTION("DevicePartition::Flagged")
  {
    const auto call = [](void* t, std::size_t& b, int* in, char* flags, int* out, int* num, int n, cudaStream_t s) {
      return strata::DevicePartition::Flagged(t, b, in, flags, out, num, n, s);
    };
    check_rejects_bad_input<char>(call, true);
    check_empty<char>(call);
  }
}
