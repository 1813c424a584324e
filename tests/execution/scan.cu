// strata::inclusive_scan and exclusive_scan against std:: on the host: every overload (std's argument orders and
// Thrust's), sums over value types whose code paths differ, non-commutative operators (2x2 matrix products, affine
// maps) that catch reordered operands, the size classes, inputs and outputs behind raw pointers, thrust::device_ptr and
// device_vector iterators (each output of the kind of its input), in place. Every call returns the output's end, gives
// back all the temporary storage it takes on the policy's stream, and returns before its kernels run (they wait behind
// a gate on that stream).
#include "support.cuh"

#include <cuda/std/functional>

#include <chrono>
#include <cstdint>
#include <numeric>
#include <vector>

namespace
{
using strata_test::affine32;
using strata_test::affine_then;
using strata_test::custom_t;
using strata_test::mat2x2;

using strata_test::mat_mul;

// The accumulator of a sum of T (narrow integers accumulate as int), whose tile the sizes are built around.
template <typename T>
using sum_accum_t = std::decay_t<decltype(std::declval<T>() + std::declval<T>())>;

} // namespace

TEMPLATE_TEST_CASE("strata::inclusive_scan and exclusive_scan sums match std:: for every size class",
                   "[execution][scan][sum]", EXEC_TEST_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  thrust::device_vector<T> out;
  for (const std::size_t n : exec_test::sizes(exec_test::scan_tile<sum_accum_t<T>>(), 401))
  {
    CAPTURE(n);
    const std::vector<T> h = strata_test::random_vector<T>(n, 29 * n + 1);
    const T init           = exec_test::random_init<T>(n + 5);
    std::vector<T> inclusive(n), inclusive_init(n), exclusive(n), exclusive_init(n);
    std::inclusive_scan(h.begin(), h.end(), inclusive.begin(), exec_test::host_sum{});
    std::inclusive_scan(h.begin(), h.end(), inclusive_init.begin(), exec_test::host_sum{}, init);
    std::exclusive_scan(h.begin(), h.end(), exclusive.begin(), T{}, exec_test::host_sum{});
    std::exclusive_scan(h.begin(), h.end(), exclusive_init.begin(), init, exec_test::host_sum{});
    thrust::device_vector<T> d = exec_test::upload(h);
    out.resize(n);

    exec_test::for_each_input_kind(d, [&](auto first, auto last) {
      {
        const auto d_first = exec_test::output_like(first, out);
        stream.alloc.log().clear();
        exec_test::poison(out);
        CHECK(strata::inclusive_scan(stream.policy, first, last, d_first) == d_first + n);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), inclusive);
        exec_test::poison(out);
        CHECK(strata::inclusive_scan(stream.policy, first, last, d_first, cuda::std::plus<>{}) == d_first + n);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), inclusive);
        exec_test::poison(out);
        CHECK(strata::inclusive_scan(stream.policy, first, last, d_first, cuda::std::plus<>{}, init) == d_first + n);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), inclusive_init);
        exec_test::poison(out);
        CHECK(strata::inclusive_scan(stream.policy, first, last, d_first, init, cuda::std::plus<>{}) == d_first + n);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), inclusive_init);
        exec_test::poison(out);
        CHECK(strata::exclusive_scan(stream.policy, first, last, d_first) == d_first + n);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), exclusive);
        exec_test::poison(out);
        CHECK(strata::exclusive_scan(stream.policy, first, last, d_first, init) == d_first + n);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), exclusive_init);
        exec_test::poison(out);
        CHECK(strata::exclusive_scan(stream.policy, first, last, d_first, init, cuda::std::plus<>{}) == d_first + n);
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), exclusive_init);
        stream.require_clean();
        if (n == 0)
        {
          CHECK(stream.alloc.log().allocations() == 0);
        }
      }
    });
  }
}

TEMPLATE_TEST_CASE("strata::inclusive_scan and exclusive_scan keep the order of non-commutative operands",
                   "[execution][scan][noncommutative]", mat2x2, affine32)
{
  using T  = TestType;
  using Op = std::conditional_t<std::is_same<T, mat2x2>::value, mat_mul, affine_then>;
  // The identity of the operator: exclusive scans start from it, or from a random init.
  const T identity = [] {
    if constexpr (std::is_same<T, mat2x2>::value)
    {
      return mat2x2{1, 0, 0, 1};
    }
    else
    {
      return affine32{1, 0};
    }
  }();
  exec_test::logged_stream stream;
  thrust::device_vector<T> out;
  for (const std::size_t n : exec_test::sizes(exec_test::scan_tile<T, Op>(), 403))
  {
    CAPTURE(n);
    const std::vector<T> h = strata_test::random_vector<T>(n, 31 * n + 2);
    const T init           = exec_test::random_init<T>(n + 7);
    std::vector<T> inclusive(n), inclusive_init(n), exclusive(n), exclusive_identity(n);
    std::inclusive_scan(h.begin(), h.end(), inclusive.begin(), Op{});
    std::inclusive_scan(h.begin(), h.end(), inclusive_init.begin(), Op{}, init);
    std::exclusive_scan(h.begin(), h.end(), exclusive.begin(), init, Op{});
    std::exclusive_scan(h.begin(), h.end(), exclusive_identity.begin(), identity, Op{});
    thrust::device_vector<T> d = exec_test::upload(h);
    out.resize(n);
    T* const d_out = thrust::raw_pointer_cast(out.data());

    stream.alloc.log().clear();
    exec_test::poison(out);
    CHECK(strata::inclusive_scan(stream.policy, d.begin(), d.end(), d_out, Op{}) == d_out + n);
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), inclusive);
    exec_test::poison(out);
    CHECK(strata::inclusive_scan(stream.policy, d.begin(), d.end(), d_out, Op{}, init) == d_out + n);
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), inclusive_init);
    exec_test::poison(out);
    CHECK(strata::inclusive_scan(stream.policy, d.begin(), d.end(), d_out, init, Op{}) == d_out + n);
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), inclusive_init);
    exec_test::poison(out);
    CHECK(strata::exclusive_scan(stream.policy, d.begin(), d.end(), d_out, init, Op{}) == d_out + n);
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), exclusive);
    exec_test::poison(out);
    CHECK(strata::exclusive_scan(stream.policy, d.begin(), d.end(), d_out, identity, Op{}) == d_out + n);
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), exclusive_identity);
    stream.require_clean();
  }
}

TEMPLATE_TEST_CASE("strata::inclusive_scan and exclusive_scan in place", "[execution][scan][in-place]", std::int32_t,
                   double, mat2x2)
{
  using T      = TestType;
  using Op     = std::conditional_t<std::is_same<T, mat2x2>::value, mat_mul, cuda::std::plus<>>;
  using HostOp = std::conditional_t<std::is_same<T, mat2x2>::value, mat_mul, exec_test::host_sum>;
  exec_test::logged_stream stream;
  for (const std::size_t n : exec_test::sizes(exec_test::scan_tile<T, Op>(), 405))
  {
    CAPTURE(n);
    const std::vector<T> h = strata_test::random_vector<T>(n, 37 * n + 3);
    const T init           = exec_test::random_init<T>(n + 11);
    std::vector<T> inclusive(n), exclusive(n);
    std::inclusive_scan(h.begin(), h.end(), inclusive.begin(), HostOp{});
    std::exclusive_scan(h.begin(), h.end(), exclusive.begin(), init, HostOp{});
    thrust::device_vector<T> d = exec_test::upload(h);
    stream.alloc.log().clear();
    CHECK(strata::inclusive_scan(stream.policy, d.begin(), d.end(), d.begin(), Op{}) == d.end());
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), inclusive);
    d = exec_test::upload(h);
    CHECK(strata::exclusive_scan(stream.policy, d.begin(), d.end(), d.begin(), init, Op{}) == d.end());
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), exclusive);
    stream.require_clean();
  }
}

TEMPLATE_TEST_CASE("strata::inclusive_scan and exclusive_scan return before their kernels run, which run on the "
                   "policy's stream",
                   "[execution][scan][stream]", std::int8_t, float, custom_t, mat2x2)
{
  using T      = TestType;
  using Op     = std::conditional_t<std::is_same<T, mat2x2>::value, mat_mul, cuda::std::plus<>>;
  using HostOp = std::conditional_t<std::is_same<T, mat2x2>::value, mat_mul, exec_test::host_sum>;
  exec_test::logged_stream stream;
  for (const std::size_t n : {std::size_t(1), exec_test::scan_tile<T, Op>() + 1, std::size_t(1000003)})
  {
    CAPTURE(n);
    const std::vector<T> h = strata_test::random_vector<T>(n, 41 * n + 4);
    const T init           = exec_test::random_init<T>(n + 13);
    std::vector<T> inclusive(n), exclusive(n);
    std::inclusive_scan(h.begin(), h.end(), inclusive.begin(), HostOp{});
    std::exclusive_scan(h.begin(), h.end(), exclusive.begin(), init, HostOp{});
    stream.alloc.log().clear();
    {
      INFO("inclusive_scan");
      exec_test::check_behind_gate(stream, h, inclusive, [&](auto first, auto last, auto out) {
        strata::inclusive_scan(stream.policy, first, last, out, Op{});
      });
    }
    {
      INFO("exclusive_scan");
      exec_test::check_behind_gate(stream, h, exclusive, [&](auto first, auto last, auto out) {
        strata::exclusive_scan(stream.policy, first, last, out, init, Op{});
      });
    }
    stream.require_clean();
  }
}

TEST_CASE("strata::inclusive_scan and exclusive_scan of an empty range return d_first and write nothing",
          "[execution][scan][empty]")
{
  exec_test::logged_stream stream;
  int* const null = nullptr;
  CHECK(strata::inclusive_scan(stream.policy, null, null, null) == null);
  CHECK(strata::inclusive_scan(stream.policy, null, null, null, cuda::std::plus<>{}, 3) == null);
  CHECK(strata::exclusive_scan(stream.policy, null, null, null, 3) == null);
  thrust::device_vector<int> in(4, 1), out(4);
  exec_test::poison(out);
  CHECK(strata::inclusive_scan(stream.policy, in.begin() + 2, in.begin() + 2, out.begin() + 1) == out.begin() + 1);
  CHECK(strata::exclusive_scan(stream.policy, in.begin() + 2, in.begin() + 2, out.begin() + 1, 5) == out.begin() + 1);
  stream.sync();
  CHECK(exec_test::all_poisoned(exec_test::download(out)));
  CHECK(stream.alloc.log().allocations() == 0);
  stream.require_clean();
}
