// strata::transform (unary, binary), fill, fill_n, copy, copy_n, sequence, tabulate, generate, gather, scatter,
// for_each and for_each_n against std:: (or a plain loop where std:: has no such algorithm) on the host: value types of
// every vector width (1, 4, 8 and 16 bytes), conversions between types, the size classes around the transform tile,
// inputs and outputs behind raw pointers, thrust::device_ptr, device_vector iterators and Thrust's fancy iterators,
// in place. None of them may take temporary storage or wait: each returns before its kernel runs behind a gate on the
// policy's stream.
#include "support.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
using exec_test::add_pair;
using exec_test::returns;
using exec_test::twice;

using strata_test::custom_t;

// Adds `step` to the item in place (for_each).
template <typename T>
struct add_in_place
{
  T step;
  __host__ __device__ void operator()(T& x) const
  {
    x = x + step;
  }
};

// i * i mod 1009, as T (tabulate).
template <typename T>
struct square_mod_1009
{
  template <typename IndexT>
  __host__ __device__ T operator()(IndexT i) const
  {
    return static_cast<T>((static_cast<long long>(i) * static_cast<long long>(i)) % 1009);
  }
};

// The integer part of x plus y, as int8.
struct truncated_sum
{
  __host__ __device__ std::int8_t operator()(double x, std::int8_t y) const
  {
    return static_cast<std::int8_t>(static_cast<int>(x) + y);
  }
};

// A random permutation of [0, n).
std::vector<int> permutation(std::size_t n, std::uint64_t salt)
{
  std::vector<int> p(n);
  std::iota(p.begin(), p.end(), 0);
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::shuffle(p.begin(), p.end(), rng);
  return p;
}

template <typename T>
std::size_t tile_of()
{
  return exec_test::transform_tile<T*, T*>();
}
} // namespace

TEMPLATE_TEST_CASE("strata::transform, unary and binary, matches std::transform for every size class",
                   "[execution][transform]", EXEC_TEST_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  thrust::device_vector<T> out;
  for (const std::size_t n : exec_test::sizes(tile_of<T>(), 701))
  {
    CAPTURE(n);
    const std::vector<T> a = strata_test::random_vector<T>(n, 61 * n + 1);
    const std::vector<T> b = strata_test::random_vector<T>(n, 67 * n + 2);
    std::vector<T> doubled(n), sums(n);
    std::transform(a.begin(), a.end(), doubled.begin(), [](const T& x) {
      return exec_test::host_sum{}(x, x);
    });
    std::transform(a.begin(), a.end(), b.begin(), sums.begin(), exec_test::host_sum{});
    thrust::device_vector<T> d_a = exec_test::upload(a);
    thrust::device_vector<T> d_b = exec_test::upload(b);
    out.resize(n);
    exec_test::for_each_input_kind(d_a, [&](auto first, auto last) {
      const auto d_first = exec_test::output_like(first, out);
      exec_test::poison(out);
      CHECK(strata::transform(stream.policy, first, last, d_first, twice{}) == d_first + n);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), doubled);
      exec_test::poison(out);
      CHECK(strata::transform(stream.policy, first, last, exec_test::output_like(first, d_b), d_first, add_pair{})
            == d_first + n);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), sums);
    });
    {
      INFO("in place");
      CHECK(strata::transform(stream.policy, d_a.begin(), d_a.end(), d_b.begin(), d_a.begin(), add_pair{})
            == d_a.end());
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d_a), sums);
    }
    CHECK(stream.alloc.log().allocations() == 0);
  }
}

TEST_CASE("strata::transform converts between value types of different widths", "[execution][transform][convert]")
{
  exec_test::gated_stream stream;
  const auto policy = strata::par.on(stream.get());
  for (const std::size_t n : exec_test::sizes(exec_test::transform_tile<double*, std::int8_t*>(), 703))
  {
    CAPTURE(n);
    const std::vector<std::int8_t> narrow       = strata_test::random_vector<std::int8_t>(n, n + 1);
    const std::vector<double> wide              = strata_test::random_vector<double>(n, n + 2);
    thrust::device_vector<std::int8_t> d_narrow = exec_test::upload(narrow);
    thrust::device_vector<double> d_wide        = exec_test::upload(wide);
    {
      INFO("int8 -> double (1-byte input, 8-byte output)");
      std::vector<double> expected(n);
      std::transform(narrow.begin(), narrow.end(), expected.begin(), [](std::int8_t x) {
        return double(x + x);
      });
      thrust::device_vector<double> out(n);
      exec_test::poison(out);
      strata::transform(policy, d_narrow.begin(), d_narrow.end(), out.begin(), twice{});
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);
    }
    {
      INFO("double, int8 -> int8 (an 8-byte and a 1-byte input, 1-byte output)");
      std::vector<std::int8_t> expected(n);
      std::transform(wide.begin(), wide.end(), narrow.begin(), expected.begin(), truncated_sum{});
      thrust::device_vector<std::int8_t> out(n);
      exec_test::poison(out);
      strata::transform(policy, d_wide.begin(), d_wide.end(), d_narrow.begin(), out.begin(), truncated_sum{});
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);
    }
  }
}

TEMPLATE_TEST_CASE("strata::fill, fill_n, copy, copy_n, sequence, tabulate and generate match std::",
                   "[execution][transform][fill]", EXEC_TEST_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  thrust::device_vector<T> out;
  for (const std::size_t n : exec_test::sizes(tile_of<T>(), 705))
  {
    CAPTURE(n);
    const std::vector<T> h     = strata_test::random_vector<T>(n, 71 * n + 3);
    const T value              = exec_test::random_init<T>(n + 3);
    thrust::device_vector<T> d = exec_test::upload(h);
    out.resize(n);
    std::vector<T> expected(n);

    exec_test::for_each_input_kind(out, [&](auto first, auto last) {
      exec_test::poison(out);
      strata::fill(stream.policy, first, last, value);
      std::fill(expected.begin(), expected.end(), value);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);

      exec_test::poison(out);
      CHECK(strata::fill_n(stream.policy, first, n, value) == last);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);

      exec_test::poison(out);
      CHECK(strata::copy(stream.policy, exec_test::output_like(first, d), exec_test::output_like(first, d) + n, first)
            == last);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), h);

      exec_test::poison(out);
      CHECK(strata::copy_n(stream.policy, d.begin(), n, first) == last);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), h);

      exec_test::poison(out);
      strata::generate(stream.policy, first, last, returns<T>{value});
      std::generate(expected.begin(), expected.end(), [&] {
        return value;
      });
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);

      if constexpr (std::is_arithmetic<T>::value)
      {
        // std::iota's values (init, init + 1, ...) and init + i * step, in T (integers wrap; the floating-point
        // values are exact).
        const T init = static_cast<T>(3.25);
        const T step = static_cast<T>(std::is_integral<T>::value ? 7 : 0.5);
        exec_test::poison(out);
        strata::sequence(stream.policy, first, last);
        for (std::size_t i = 0; i < n; ++i)
        {
          expected[i] = static_cast<T>(static_cast<long long>(i));
        }
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);

        exec_test::poison(out);
        strata::sequence(stream.policy, first, last, init);
        for (std::size_t i = 0; i < n; ++i)
        {
          expected[i] = static_cast<T>(init + static_cast<T>(static_cast<long long>(i)));
        }
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);

        exec_test::poison(out);
        strata::sequence(stream.policy, first, last, init, step);
        for (std::size_t i = 0; i < n; ++i)
        {
          if constexpr (std::is_integral<T>::value)
          {
            expected[i] = static_cast<T>(static_cast<long long>(init) + 7 * static_cast<long long>(i));
          }
          else
          {
            expected[i] = init + static_cast<T>(i) * step;
          }
        }
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);

        exec_test::poison(out);
        strata::tabulate(stream.policy, first, last, square_mod_1009<T>{});
        for (std::size_t i = 0; i < n; ++i)
        {
          expected[i] = square_mod_1009<T>{}(i);
        }
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);
      }
    });
    CHECK(stream.alloc.log().allocations() == 0);
  }
}

TEMPLATE_TEST_CASE("strata::gather and scatter match a host loop", "[execution][transform][gather]",
                   EXEC_TEST_FEW_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  for (const std::size_t n : exec_test::sizes(tile_of<T>(), 707))
  {
    CAPTURE(n);
    // Gather from a source of n + 7 items through a map with repeats; scatter n items to a target of n + 7 through
    // a permutation of part of it (the items it does not name stay as they were).
    const std::vector<T> source = strata_test::random_vector<T>(n + 7, 73 * n + 4);
    std::vector<int> map(n);
    std::mt19937_64 rng = strata_test::make_rng(n + 5);
    std::uniform_int_distribution<int> pick(0, static_cast<int>(n + 6));
    std::generate(map.begin(), map.end(), [&] {
      return pick(rng);
    });
    std::vector<int> spots = permutation(n + 7, n + 7);
    spots.resize(n);
    std::vector<T> gathered(n);
    std::vector<T> scattered(n + 7, exec_test::poisoned_value<T>());
    for (std::size_t i = 0; i < n; ++i)
    {
      gathered[i]                                   = source[static_cast<std::size_t>(map[i])];
      scattered[static_cast<std::size_t>(spots[i])] = source[i];
    }
    thrust::device_vector<T> d_source  = exec_test::upload(source);
    thrust::device_vector<int> d_map   = exec_test::upload(map);
    thrust::device_vector<int> d_spots = exec_test::upload(spots);
    thrust::device_vector<T> out(n), target(n + 7);
    exec_test::for_each_input_kind(d_map, [&](auto map_first, auto map_last) {
      exec_test::poison(out);
      const auto result = exec_test::output_like(map_first, out);
      CHECK(strata::gather(stream.policy, map_first, map_last, exec_test::output_like(map_first, d_source), result)
            == result + n);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), gathered);

      exec_test::poison(target);
      const auto spots_first = exec_test::output_like(map_first, d_spots);
      const auto items       = exec_test::output_like(map_first, d_source);
      strata::scatter(stream.policy, items, items + n, spots_first, exec_test::output_like(map_first, target));
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(target), scattered);
    });
    CHECK(stream.alloc.log().allocations() == 0);
  }
}

TEMPLATE_TEST_CASE("strata::for_each and for_each_n change every item once", "[execution][transform][for_each]",
                   EXEC_TEST_FEW_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  const T step = exec_test::one<T>() + exec_test::one<T>();
  for (const std::size_t n : exec_test::sizes(tile_of<T>(), 709))
  {
    CAPTURE(n);
    const std::vector<T> h = strata_test::random_vector<T>(n, 79 * n + 5);
    std::vector<T> once = h, twice_over = h;
    std::for_each(once.begin(), once.end(), [&](T& x) {
      x = static_cast<T>(x + step);
    });
    std::for_each(twice_over.begin(), twice_over.end(), [&](T& x) {
      x = static_cast<T>(x + step + step);
    });
    thrust::device_vector<T> d = exec_test::upload(h);
    exec_test::for_each_input_kind(d, [&](auto first, auto last) {
      exec_test::upload_into(d, h);
      CHECK(strata::for_each(stream.policy, first, last, add_in_place<T>{step}) == last);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), once);
      CHECK(strata::for_each_n(stream.policy, first, n, add_in_place<T>{step}) == last);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), twice_over);
    });
    CHECK(stream.alloc.log().allocations() == 0);
  }
}

namespace
{
// Counts the visits of every index (for_each over a counting iterator).
struct count_visit
{
  unsigned int* visits;
  __device__ void operator()(long long i) const
  {
    atomicAdd(visits + i, 1u);
  }
};

struct pair_product
{
  __host__ __device__ long long operator()(const thrust::tuple<long long, int>& t) const
  {
    return thrust::get<0>(t) * thrust::get<1>(t);
  }
};
} // namespace

TEST_CASE("strata's element-wise algorithms read Thrust's fancy iterators and write a discard_iterator",
          "[execution][transform][iterators]")
{
  exec_test::gated_stream stream;
  const auto policy = strata::par.on(stream.get());
  for (const std::size_t n : exec_test::sizes(exec_test::transform_tile<long long*, long long*>(), 711))
  {
    CAPTURE(n);
    const long long count = static_cast<long long>(n);
    thrust::device_vector<long long> out(n);
    std::vector<long long> expected(n);

    const thrust::counting_iterator<long long> up(-5);
    exec_test::poison(out);
    CHECK(strata::transform(policy, up, up + count, out.begin(), twice{}) == out.end());
    for (std::size_t i = 0; i < n; ++i)
    {
      expected[i] = 2 * (static_cast<long long>(i) - 5);
    }
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);

    exec_test::poison(out);
    CHECK(
      strata::copy(policy, thrust::constant_iterator<int>(9), thrust::constant_iterator<int>(9) + count, out.begin())
      == out.end());
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), std::vector<long long>(n, 9));

    const std::vector<long long> a = strata_test::random_vector<long long>(n, n + 1);
    const std::vector<int> b       = strata_test::random_vector<int>(n, n + 2);
    const std::vector<int> reverse = [&] {
      std::vector<int> r(n);
      std::iota(r.rbegin(), r.rend(), 0);
      return r;
    }();
    thrust::device_vector<long long> d_a = exec_test::upload(a);
    thrust::device_vector<int> d_b       = exec_test::upload(b);
    thrust::device_vector<int> d_reverse = exec_test::upload(reverse);
    const auto backwards                 = thrust::make_permutation_iterator(d_a.begin(), d_reverse.begin());
    const auto pairs                     = thrust::make_zip_iterator(backwards, d_b.begin());
    exec_test::poison(out);
    CHECK(strata::transform(policy, pairs, pairs + count, out.begin(), pair_product{}) == out.end());
    for (std::size_t i = 0; i < n; ++i)
    {
      expected[i] = a[n - 1 - i] * b[i];
    }
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);

    const auto evens = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), twice{});
    exec_test::poison(out);
    CHECK(strata::transform(policy, evens, evens + count, backwards, out.begin(), add_pair{}) == out.end());
    for (std::size_t i = 0; i < n; ++i)
    {
      expected[i] = 2 * static_cast<long long>(i) + a[n - 1 - i];
    }
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);

    // Every index visited once, through for_each over a counting iterator.
    thrust::device_vector<unsigned int> visits(n, 0u);
    exec_test::settle();
    CHECK(strata::for_each(policy, thrust::counting_iterator<long long>(0), thrust::counting_iterator<long long>(count),
                           count_visit{thrust::raw_pointer_cast(visits.data())})
          == thrust::counting_iterator<long long>(count));
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(visits), std::vector<unsigned int>(n, 1u));

    // A discard_iterator output: the returned end is n past the start.
    const auto nowhere = thrust::make_discard_iterator();
    CHECK(strata::transform(policy, up, up + count, nowhere, twice{}) - nowhere == count);
    CHECK(strata::copy(policy, up, up + count, nowhere) - nowhere == count);
    stream.sync();
  }
}

TEST_CASE("strata's element-wise algorithms return before their kernels run, which run on the policy's stream",
          "[execution][transform][stream]")
{
  exec_test::logged_stream stream;
  const std::size_t n      = 1000003;
  const std::vector<int> h = strata_test::random_vector<int>(n, 83);
  std::vector<int> doubled(n), ramp(n), squares(n);
  std::transform(h.begin(), h.end(), doubled.begin(), [](int x) {
    return 2 * x;
  });
  std::iota(ramp.begin(), ramp.end(), 0);
  std::transform(ramp.begin(), ramp.end(), squares.begin(), square_mod_1009<int>{});
  const std::vector<int> reverse(ramp.rbegin(), ramp.rend());
  std::vector<int> reversed(h.rbegin(), h.rend());
  thrust::device_vector<int> d_reverse = exec_test::upload(reverse);
  const int* const map                 = thrust::raw_pointer_cast(d_reverse.data());

  auto behind_gate = [&](const char* name, const std::vector<int>& expected, auto call) {
    INFO(name);
    exec_test::check_behind_gate(stream, h, expected, call);
  };
  behind_gate("transform", doubled, [&](auto first, auto last, auto out) {
    strata::transform(stream.policy, first, last, out, twice{});
  });
  behind_gate("copy", h, [&](auto first, auto last, auto out) {
    strata::copy(stream.policy, first, last, out);
  });
  behind_gate("gather", reversed, [&](auto first, auto, auto out) {
    strata::gather(stream.policy, map, map + n, first, out);
  });
  behind_gate("scatter", reversed, [&](auto first, auto last, auto out) {
    strata::scatter(stream.policy, first, last, map, out);
  });
  behind_gate("fill", std::vector<int>(n, 5), [&](auto, auto, auto out) {
    strata::fill_n(stream.policy, out, n, 5);
  });
  behind_gate("sequence", ramp, [&](auto, auto, auto out) {
    strata::sequence(stream.policy, out, out + n);
  });
  behind_gate("tabulate", squares, [&](auto, auto, auto out) {
    strata::tabulate(stream.policy, out, out + n, square_mod_1009<int>{});
  });
  {
    INFO("for_each: the items change in place, behind the gate");
    thrust::device_vector<int> d = exec_test::upload(h);
    stream.close();
    CHECK(strata::for_each(stream.policy, d.begin(), d.end(), add_in_place<int>{3}) == d.end());
    STRATA_REQUIRE_EQUAL_VECTORS(stream.peek(d), h);
    stream.open();
    stream.sync();
    CHECK_FALSE(stream.timed_out());
    std::vector<int> plus3 = h;
    for (int& x : plus3)
    {
      x += 3;
    }
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), plus3);
  }
  CHECK(stream.alloc.log().allocations() == 0);
}

TEST_CASE("strata's element-wise algorithms on an empty range write nothing and return what std:: returns",
          "[execution][transform][empty]")
{
  exec_test::gated_stream stream;
  const auto policy = strata::par.on(stream.get());
  thrust::device_vector<int> in(3, 1), out(3);
  exec_test::poison(out);
  int* const null = nullptr;
  const auto at   = in.begin() + 1;
  CHECK(strata::transform(policy, at, at, out.begin(), twice{}) == out.begin());
  CHECK(strata::transform(policy, null, null, null, null, add_pair{}) == null);
  CHECK(strata::fill_n(policy, out.begin(), 0, 1) == out.begin());
  strata::fill(policy, out.begin(), out.begin(), 1);
  CHECK(strata::copy(policy, at, at, out.begin()) == out.begin());
  CHECK(strata::copy_n(policy, null, 0, null) == null);
  strata::sequence(policy, out.begin(), out.begin());
  strata::tabulate(policy, null, null, square_mod_1009<int>{});
  strata::generate(policy, out.begin(), out.begin(), returns<int>{2});
  CHECK(strata::gather(policy, null, null, null, out.begin()) == out.begin());
  strata::scatter(policy, null, null, null, out.begin());
  CHECK(strata::for_each(policy, at, at, add_in_place<int>{1}) == at);
  CHECK(strata::for_each_n(policy, null, 0, add_in_place<int>{1}) == null);
  stream.sync();
  CHECK(exec_test::all_poisoned(exec_test::download(out)));
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(in), std::vector<int>(3, 1));
}
