// strata::min_element, max_element and minmax_element against std:: on the host: the first smallest, the first
// largest, and (minmax, as Thrust picks) the first smallest with the first largest, with the default order and a
// comparator, over the
// size classes, value types with many ties (int8) and few, inputs behind raw pointers, thrust::device_ptr,
// device_vector iterators and Thrust's fancy iterators; every call gives back the temporary storage it takes, on the
// policy's stream, and sees data copied in on that stream just before it.
#include "support.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda/std/functional>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

namespace
{
using strata_test::custom_t;

// Positions of the answers std:: gives, for comparison with the iterators strata returns; minmax_element's largest is
// Thrust's (the first largest, std::max_element's), not std::minmax_element's (the last).
struct extremes
{
  std::ptrdiff_t min, max, minmax_min, minmax_max;
};

template <typename T, typename Compare>
extremes reference_extremes(const std::vector<T>& h, Compare comp)
{
  const std::ptrdiff_t min = std::min_element(h.begin(), h.end(), comp) - h.begin();
  const std::ptrdiff_t max = std::max_element(h.begin(), h.end(), comp) - h.begin();
  return {min, max, min, max};
}

// Checks the three algorithms with `comp` (cuda::std::less<> or greater<>, which work on the host too) on random
// items of size n with ties planted on both extremes.
template <typename T, typename Compare>
void check_extremes(exec_test::gated_stream& stream, std::size_t n, std::uint64_t salt, Compare comp)
{
  exec_test::stream_allocator alloc;
  const auto policy = strata::par(alloc).on(stream.get());
  std::vector<T> h  = strata_test::random_vector<T>(n, salt);
  // Ties on both extremes for every type: copies of the smallest and the largest item spread over the input.
  if (n > 2)
  {
    const T lo = *std::min_element(h.begin(), h.end(), comp);
    const T hi = *std::max_element(h.begin(), h.end(), comp);
    for (std::size_t i = n / 5; i < n; i += n / 4 + 1)
    {
      h[i]         = lo;
      h[n - 1 - i] = hi;
    }
  }
  const extremes want        = reference_extremes(h, comp);
  thrust::device_vector<T> d = exec_test::upload(h);
  exec_test::for_each_input_kind(d, [&](auto first, auto last) {
    alloc.log().clear();
    CHECK(strata::min_element(policy, first, last, comp) - first == want.min);
    CHECK(strata::max_element(policy, first, last, comp) - first == want.max);
    const auto mm = strata::minmax_element(policy, first, last, comp);
    static_assert(std::is_same<decltype(mm), const thrust::pair<decltype(first), decltype(first)>>::value,
                  "minmax_element returns a thrust::pair of iterators");
    CHECK(mm.first - first == want.minmax_min);
    CHECK(mm.second - first == want.minmax_max);
    EXEC_TEST_REQUIRE_CLEAN(alloc.log(), stream.get());
  });
}
} // namespace

TEMPLATE_TEST_CASE("strata::min_element, max_element and minmax_element pick the items Thrust picks",
                   "[execution][extremes]", EXEC_TEST_FEW_TYPES)
{
  using T = TestType;
  exec_test::gated_stream stream;
  for (const std::size_t n : exec_test::sizes(exec_test::reduce_tile<T>(), 301))
  {
    CAPTURE(n);
    {
      INFO("default order (operator<)");
      exec_test::stream_allocator alloc;
      const auto policy          = strata::par(alloc).on(stream.get());
      const std::vector<T> h     = strata_test::random_vector<T>(n, 17 * n + 1);
      thrust::device_vector<T> d = exec_test::upload(h);
      const auto want            = reference_extremes(h, std::less<>{});
      exec_test::for_each_input_kind(d, [&](auto first, auto last) {
        CHECK(strata::min_element(policy, first, last) - first == want.min);
        CHECK(strata::max_element(policy, first, last) - first == want.max);
        const auto mm = strata::minmax_element(policy, first, last);
        CHECK(mm.first - first == want.minmax_min);
        CHECK(mm.second - first == want.minmax_max);
      });
      EXEC_TEST_REQUIRE_CLEAN(alloc.log(), stream.get());
    }
    {
      INFO("cuda::std::less<> with planted ties");
      check_extremes<T>(stream, n, 19 * n + 2, cuda::std::less<>{});
    }
    {
      INFO("cuda::std::greater<> with planted ties (min_element finds the first largest)");
      check_extremes<T>(stream, n, 23 * n + 3, cuda::std::greater<>{});
    }
  }
}

namespace
{
// Values with long runs of ties: (i * 7919) mod 1000.
struct scatter_mod_1000
{
  __host__ __device__ long long operator()(long long i) const
  {
    return (i * 7919) % 1000;
  }
};
} // namespace

TEST_CASE("strata::min_element, max_element and minmax_element read Thrust's fancy iterators",
          "[execution][extremes][iterators]")
{
  exec_test::logged_stream stream;
  for (const std::size_t n : exec_test::sizes(exec_test::reduce_tile<long long>(), 303))
  {
    CAPTURE(n);
    const long long count = static_cast<long long>(n);
    stream.alloc.log().clear();
    // All items tie: the first is the smallest and the largest, minmax's too (Thrust's choice).
    const thrust::constant_iterator<long long> same(5);
    CHECK(strata::min_element(stream.policy, same, same + count) - same == 0);
    CHECK(strata::max_element(stream.policy, same, same + count) - same == 0);
    const auto mm_same = strata::minmax_element(stream.policy, same, same + count);
    CHECK(mm_same.first - same == 0);
    CHECK(mm_same.second - same == 0);

    const thrust::counting_iterator<long long> up(-3);
    CHECK(strata::min_element(stream.policy, up, up + count) - up == 0);
    CHECK(strata::max_element(stream.policy, up, up + count) - up == (count == 0 ? 0 : count - 1));

    std::vector<long long> h(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      h[i] = scatter_mod_1000{}(static_cast<long long>(i));
    }
    const auto want      = reference_extremes(h, std::less<>{});
    const auto scattered = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), scatter_mod_1000{});
    CHECK(strata::min_element(stream.policy, scattered, scattered + count) - scattered == want.min);
    CHECK(strata::max_element(stream.policy, scattered, scattered + count) - scattered == want.max);
    const auto mm = strata::minmax_element(stream.policy, scattered, scattered + count);
    CHECK(mm.first - scattered == want.minmax_min);
    CHECK(mm.second - scattered == want.minmax_max);
    stream.require_clean();
  }
}

TEST_CASE("strata::min_element, max_element and minmax_element: an empty range gives last",
          "[execution][extremes][empty]")
{
  exec_test::logged_stream stream;
  thrust::device_vector<double> d(4);
  const auto at = d.begin() + 2;
  stream.close(std::chrono::seconds(2));
  CHECK(strata::min_element(stream.policy, at, at) == at);
  CHECK(strata::max_element(stream.policy, at, at, cuda::std::greater<>{}) == at);
  const auto mm = strata::minmax_element(stream.policy, at, at);
  CHECK(mm.first == at);
  CHECK(mm.second == at);
  double* const null = nullptr;
  CHECK(strata::min_element(stream.policy, null, null) == null);
  stream.open();
  stream.sync();
  CHECK_FALSE(stream.timed_out());
  CHECK(stream.alloc.log().allocations() == 0);
}

TEST_CASE("strata::min_element, max_element and minmax_element see their stream's earlier work",
          "[execution][extremes][stream]")
{
  // The real items have their one smallest item at n/3 and one largest at 2n/3; the decoy (what a kernel on another
  // stream would read before the copy behind the gate) has neither.
  exec_test::logged_stream stream;
  const std::size_t n              = 1000003;
  std::vector<int> h               = strata_test::random_vector<int>(n, 31);
  std::vector<int> decoy           = h;
  h[n / 3]                         = -(1 << 25);
  h[2 * n / 3]                     = 1 << 25;
  thrust::device_vector<int> real  = exec_test::upload(h);
  thrust::device_vector<int> input = exec_test::upload(decoy);
  auto fresh                       = [&] {
    input = exec_test::upload(decoy);
    stream.delay(std::chrono::milliseconds(20));
    stream.copy(input, real);
    stream.alloc.log().clear();
  };
  fresh();
  CHECK(strata::min_element(stream.policy, input.begin(), input.end()) - input.begin()
        == static_cast<std::ptrdiff_t>(n / 3));
  fresh();
  CHECK(strata::max_element(stream.policy, input.begin(), input.end()) - input.begin()
        == static_cast<std::ptrdiff_t>(2 * n / 3));
  fresh();
  const auto mm = strata::minmax_element(stream.policy, input.begin(), input.end());
  CHECK(mm.first - input.begin() == static_cast<std::ptrdiff_t>(n / 3));
  CHECK(mm.second - input.begin() == static_cast<std::ptrdiff_t>(2 * n / 3));
  stream.require_clean();
}
