// Host tests of the thread layer's __host__ __device__ parts: KeyValuePair, ArgMin / ArgMax, the operator-kind
// trait, and ThreadReduce / ThreadScanInclusive / ThreadScanExclusive run on the CPU against independent loops.
#include <strata/thread/thread_operators.cuh>
#include <strata/thread/thread_reduce.cuh>
#include <strata/thread/thread_scan.cuh>

#include "test_util.cuh"

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

using strata_test::mat2x2;
using strata_test::mat_mul;

namespace
{

// -- KeyValuePair, ArgMin, ArgMax ------------------------------------------------------------------------------

using kvp_t = strata::KeyValuePair<int, float>;

TEST_CASE("KeyValuePair holds a key and a value and compares both", "[thread][operators]")
{
  STATIC_REQUIRE(std::is_same<kvp_t::KeyT, int>::value);
  STATIC_REQUIRE(std::is_same<kvp_t::ValueT, float>::value);
  STATIC_REQUIRE(std::is_trivially_copyable<kvp_t>::value);
  STATIC_REQUIRE(std::is_trivially_default_constructible<kvp_t>::value);

  const kvp_t a(3, 1.5f);
  CHECK(a.key == 3);
  CHECK(a.value == 1.5f);
  CHECK(a == kvp_t(3, 1.5f));
  CHECK(a != kvp_t(4, 1.5f));
  CHECK(a != kvp_t(3, 2.5f));
  CHECK_FALSE(a != kvp_t(3, 1.5f));
}

TEST_CASE("ArgMin and ArgMax pick the extreme value and, on ties, the smallest key", "[thread][operators]")
{
  const strata::ArgMin arg_min;
  const strata::ArgMax arg_max;

  SECTION("distinct values, either operand order")
  {
    const kvp_t lo(7, -2.0f), hi(1, 5.0f);
    CHECK(arg_min(lo, hi) == lo);
    CHECK(arg_min(hi, lo) == lo);
    CHECK(arg_max(lo, hi) == hi);
    CHECK(arg_max(hi, lo) == hi);
  }
  SECTION("tied values: the smaller key wins in either operand order")
  {
    const kvp_t first(2, 4.0f), later(9, 4.0f);
    CHECK(arg_min(first, later) == first);
    CHECK(arg_min(later, first) == first);
    CHECK(arg_max(first, later) == first);
    CHECK(arg_max(later, first) == first);
  }
  SECTION("reduction over positions: the first occurrence of the extreme wins")
  {
    //                          0     1     2     3     4     5     6     7
    const float values[8] = {3.0f, -1.0f, 7.0f, -1.0f, 7.0f, 0.5f, -1.0f, 7.0f};
    kvp_t items[8];
    for (int i = 0; i < 8; ++i)
    {
      items[i] = kvp_t(i, values[i]);
    }
    CHECK(strata::ThreadReduce(items, arg_min) == kvp_t(1, -1.0f));
    CHECK(strata::ThreadReduce(items, arg_max) == kvp_t(2, 7.0f));
    // A prefix carrying a later position does not displace an earlier tie, nor does a prefix with a smaller key
    // lose to it.
    CHECK(strata::ThreadReduce(items, arg_min, kvp_t(100, -1.0f)) == kvp_t(1, -1.0f));
    CHECK(strata::ThreadReduce(items, arg_max, kvp_t(-5, 7.0f)) == kvp_t(-5, 7.0f));
    CHECK(strata::ThreadReduce(items, arg_min, kvp_t(100, -3.0f)) == kvp_t(100, -3.0f));
  }
  SECTION("keys in descending order: ties still resolve to the smallest key, not the left operand")
  {
    kvp_t items[5] = {kvp_t(40, 2.0f), kvp_t(30, 1.0f), kvp_t(20, 9.0f), kvp_t(10, 1.0f), kvp_t(0, 9.0f)};
    CHECK(strata::ThreadReduce(items, arg_min) == kvp_t(10, 1.0f));
    CHECK(strata::ThreadReduce(items, arg_max) == kvp_t(0, 9.0f));
  }
}

// -- the operator-kind trait -------------------------------------------------------------------------------

TEST_CASE("op_kind_of recognises the standard operators and nothing else", "[thread][operators]")
{
  using strata::detail::op_kind;
  using strata::detail::op_kind_v;
  STATIC_REQUIRE(op_kind_v<cuda::std::plus<>> == op_kind::plus);
  STATIC_REQUIRE(op_kind_v<cuda::std::plus<int>> == op_kind::plus);
  STATIC_REQUIRE(op_kind_v<const cuda::std::plus<float>> == op_kind::plus);
  STATIC_REQUIRE(op_kind_v<cuda::minimum<>> == op_kind::minimum);
  STATIC_REQUIRE(op_kind_v<cuda::minimum<double>> == op_kind::minimum);
  STATIC_REQUIRE(op_kind_v<cuda::maximum<>> == op_kind::maximum);
  STATIC_REQUIRE(op_kind_v<cuda::maximum<std::int8_t>> == op_kind::maximum);
  STATIC_REQUIRE(op_kind_v<cuda::std::bit_and<>> == op_kind::bit_and);
  STATIC_REQUIRE(op_kind_v<cuda::std::bit_or<unsigned>> == op_kind::bit_or);
  STATIC_REQUIRE(op_kind_v<cuda::std::bit_xor<>> == op_kind::bit_xor);
  STATIC_REQUIRE(op_kind_v<cuda::std::minus<>> == op_kind::other);
  STATIC_REQUIRE(op_kind_v<cuda::std::multiplies<>> == op_kind::other);
  STATIC_REQUIRE(op_kind_v<mat_mul> == op_kind::other);
  STATIC_REQUIRE(op_kind_v<strata::ArgMin> == op_kind::other);

  STATIC_REQUIRE(strata::detail::is_commutative_v<cuda::std::plus<>>);
  STATIC_REQUIRE(strata::detail::is_commutative_v<strata::ArgMin>);
  STATIC_REQUIRE(strata::detail::is_commutative_v<const strata::ArgMax>);
  STATIC_REQUIRE(!strata::detail::is_commutative_v<mat_mul>);
  STATIC_REQUIRE(!strata::detail::is_commutative_v<cuda::std::minus<>>);
}

// -- ThreadReduce and ThreadScan on the host ----------------------------------------------------------------

// [lo, hi] of consecutive positions. Combining two is only valid when the right one starts where the left one
// ends, so any reordering or skipping of operands gives the broken() interval.
struct interval
{
  int lo;
  int hi;
  __host__ __device__ friend bool operator==(const interval& a, const interval& b)
  {
    return a.lo == b.lo && a.hi == b.hi;
  }
  friend std::ostream& operator<<(std::ostream& os, const interval& v)
  {
    return os << "[" << v.lo << ", " << v.hi << "]";
  }
};
__host__ __device__ constexpr interval broken()
{
  return interval{-1000, -1000};
}
struct concatenate
{
  __host__ __device__ interval operator()(const interval& a, const interval& b) const
  {
    return (a.hi + 1 == b.lo && !(a == broken()) && !(b == broken())) ? interval{a.lo, b.hi} : broken();
  }
};

// What one form of the API gave and what the plain loops give.
template <typename T>
struct outcome
{
  const char* form;
  std::vector<T> actual;
  std::vector<T> expected;
};

// The assertions, instantiated once per item type (not per length: that keeps the test's compile time down).
template <typename T>
void check_outcomes(int length, const std::vector<outcome<T>>& outcomes)
{
  CAPTURE(length);
  for (const outcome<T>& o : outcomes)
  {
    CAPTURE(o.form);
    STRATA_REQUIRE_EQUAL_VECTORS(o.actual, o.expected);
  }
}

// Reduces and scans LENGTH random items with every form of the API and compares with plain loops.
template <int LENGTH, typename T, typename Op, typename HostOp>
void check_reduce_and_scan(Op op, HostOp host_op, std::uint64_t salt)
{
  const std::vector<T> data = strata_test::random_vector<T>(LENGTH + 1, salt + LENGTH);
  T items[LENGTH];
  for (int i = 0; i < LENGTH; ++i)
  {
    items[i] = data[i];
  }
  const T prefix = data[LENGTH];
  const std::vector<T> in(data.begin(), data.begin() + LENGTH);

  const T total                  = strata_test::reference_reduce(in.data() + 1, in.data() + LENGTH, in[0], host_op);
  const T prefix_total           = strata_test::reference_reduce(in.data(), in.data() + LENGTH, prefix, host_op);
  const std::vector<T> inclusive = strata_test::reference_inclusive_scan(in, host_op);
  std::vector<T> inclusive_prefixed(in.size());
  for (int i = 0; i < LENGTH; ++i)
  {
    inclusive_prefixed[i] = host_op(i == 0 ? prefix : inclusive_prefixed[i - 1], in[i]);
  }
  const std::vector<T> exclusive_prefixed = strata_test::reference_exclusive_scan(in, prefix, host_op);
  // Without the prefix, an exclusive scan's output[0] is the (ignored) prefix and the rest are the items' own
  // exclusive prefixes.
  std::vector<T> exclusive_unprefixed(1, prefix);
  exclusive_unprefixed.insert(exclusive_unprefixed.end(), inclusive.begin(), inclusive.end() - 1);

  std::vector<outcome<T>> outcomes;
  outcomes.push_back({"ThreadReduce(items, op)", {strata::ThreadReduce(items, op)}, {total}});
  outcomes.push_back({"ThreadReduce(items, op, prefix)", {strata::ThreadReduce(items, op, prefix)}, {prefix_total}});
  outcomes.push_back({"ThreadReduce<LENGTH>(pointer, op)", {strata::ThreadReduce<LENGTH>(in.data(), op)}, {total}});
  outcomes.push_back({"ThreadReduce<LENGTH>(pointer, op, prefix)",
                      {strata::ThreadReduce<LENGTH>(in.data(), op, prefix)},
                      {prefix_total}});

  T out[LENGTH];
  // The scan's return value, then its output.
  const auto scanned = [&out](T returned) {
    std::vector<T> v(1, returned);
    v.insert(v.end(), out, out + LENGTH);
    return v;
  };
  const auto with = [](T first, const std::vector<T>& rest) {
    std::vector<T> v(1, first);
    v.insert(v.end(), rest.begin(), rest.end());
    return v;
  };
  outcomes.push_back({"ThreadScanInclusive(items, out, op)", scanned(strata::ThreadScanInclusive(items, out, op)),
                      with(total, inclusive)});
  outcomes.push_back({"ThreadScanInclusive(items, out, op, prefix)",
                      scanned(strata::ThreadScanInclusive(items, out, op, prefix)),
                      with(prefix_total, inclusive_prefixed)});
  outcomes.push_back({"ThreadScanInclusive(items, out, op, prefix, false)",
                      scanned(strata::ThreadScanInclusive(items, out, op, prefix, false)), with(total, inclusive)});
  outcomes.push_back({"ThreadScanExclusive(items, out, op, prefix)",
                      scanned(strata::ThreadScanExclusive(items, out, op, prefix)),
                      with(prefix_total, exclusive_prefixed)});
  outcomes.push_back({"ThreadScanExclusive(items, out, op, prefix, false)",
                      scanned(strata::ThreadScanExclusive(items, out, op, prefix, false)),
                      with(total, exclusive_unprefixed)});

  // In place, through the pointer forms.
  std::copy(in.begin(), in.end(), out);
  outcomes.push_back({"ThreadScanInclusive<LENGTH>(in place, op, prefix)",
                      scanned(strata::ThreadScanInclusive<LENGTH>(out, out, op, prefix)),
                      with(prefix_total, inclusive_prefixed)});
  std::copy(in.begin(), in.end(), out);
  outcomes.push_back({"ThreadScanExclusive<LENGTH>(in place, op, prefix)",
                      scanned(strata::ThreadScanExclusive<LENGTH>(out, out, op, prefix)),
                      with(prefix_total, exclusive_prefixed)});
  std::copy(in.begin(), in.end(), out);
  outcomes.push_back({"ThreadScanInclusive<LENGTH>(in place, op)",
                      scanned(strata::ThreadScanInclusive<LENGTH>(out, out, op)), with(total, inclusive)});
  check_outcomes(LENGTH, outcomes);
}

template <typename T, typename Op, typename HostOp, int... LENGTHS>
void check_lengths(Op op, HostOp host_op, std::integer_sequence<int, LENGTHS...>)
{
  (check_reduce_and_scan<LENGTHS + 1, T>(op, host_op, 0x7ead0000u), ...);
}

using lengths_1_to_17 = std::make_integer_sequence<int, 17>;

TEMPLATE_TEST_CASE("ThreadReduce and ThreadScan with plus on the host, lengths 1..17", "[thread][reduce][scan]",
                   std::int8_t, std::uint16_t, std::int32_t, std::uint64_t, float, double, strata_test::custom_t)
{
  check_lengths<TestType>(cuda::std::plus<>{}, strata_test::host_plus{}, lengths_1_to_17{});
}

TEMPLATE_TEST_CASE("ThreadReduce and ThreadScan with minimum and maximum on the host", "[thread][reduce][scan]",
                   std::int16_t, std::uint32_t, double)
{
  check_lengths<TestType>(cuda::minimum<>{}, strata_test::host_min{}, lengths_1_to_17{});
  check_lengths<TestType>(cuda::maximum<>{}, strata_test::host_max{}, lengths_1_to_17{});
}

TEST_CASE("ThreadReduce and ThreadScan keep operand order for a non-commutative operator (mat_mul)",
          "[thread][reduce][scan]")
{
  check_lengths<mat2x2>(mat_mul{}, mat_mul{}, lengths_1_to_17{});
}

template <int LENGTH>
void check_tree_order()
{
  CAPTURE(LENGTH);
  interval items[LENGTH];
  for (int i = 0; i < LENGTH; ++i)
  {
    items[i] = interval{i, i};
  }
  CHECK(strata::detail::thread_reduce_tree<LENGTH>(items, concatenate{}) == interval{0, LENGTH - 1});
  CHECK(strata::ThreadReduce(items, concatenate{}) == interval{0, LENGTH - 1});
  CHECK(strata::ThreadReduce(items, concatenate{}, interval{-1, -1}) == interval{-1, LENGTH - 1});
}

template <int... LENGTHS>
void check_tree_orders(std::integer_sequence<int, LENGTHS...>)
{
  (check_tree_order<LENGTHS + 1>(), ...);
}

TEST_CASE("the reduction tree combines only adjacent ranges, left before right", "[thread][reduce]")
{
  check_tree_orders(std::make_integer_sequence<int, 33>{});
}

TEST_CASE("ThreadReduce picks the tree for standard operators on arithmetic types only", "[thread][reduce]")
{
  using strata::detail::thread_reduce_as_tree_v;
  STATIC_REQUIRE(thread_reduce_as_tree_v<float, cuda::std::plus<>>);
  STATIC_REQUIRE(thread_reduce_as_tree_v<std::int8_t, cuda::maximum<>>);
  STATIC_REQUIRE(thread_reduce_as_tree_v<unsigned, cuda::std::bit_xor<unsigned>>);
  STATIC_REQUIRE(!thread_reduce_as_tree_v<strata_test::custom_t, cuda::std::plus<>>);
  STATIC_REQUIRE(!thread_reduce_as_tree_v<mat2x2, mat_mul>);
  STATIC_REQUIRE(!thread_reduce_as_tree_v<int, cuda::std::minus<>>);
}

TEST_CASE("ThreadReduce and ThreadScan return T and accept a prefix of another type", "[thread][reduce][scan]")
{
  std::int8_t items[3] = {100, 100, 100};
  STATIC_REQUIRE(std::is_same<decltype(strata::ThreadReduce(items, cuda::std::plus<>{})), std::int8_t>::value);
  STATIC_REQUIRE(std::is_same<decltype(strata::ThreadReduce(items, cuda::std::plus<>{}, 1)), std::int8_t>::value);
  // 300 and 301 wrap modulo 256, as a loop of int8_t additions does.
  CHECK(strata::ThreadReduce(items, cuda::std::plus<>{}) == static_cast<std::int8_t>(44));
  CHECK(strata::ThreadReduce(items, cuda::std::plus<>{}, 1) == static_cast<std::int8_t>(45));
  // LENGTH 0 with a prefix is the prefix.
  CHECK(strata::ThreadReduce<0>(static_cast<const std::int8_t*>(nullptr), cuda::std::plus<>{}, 7) == 7);

  float floats[4] = {0.5f, 1.5f, 2.0f, 4.0f};
  float out[4];
  CHECK(strata::ThreadScanExclusive(floats, out, cuda::std::plus<>{}, 1) == 9.0f);
  CHECK(out[3] == 5.0f);
  CHECK(strata::ThreadScanInclusive<2>(floats, out, cuda::std::plus<>{}, 0) == 2.0f);
  // An explicit LENGTH shorter than the array takes the pointer form: the first LENGTH items.
  CHECK(strata::ThreadReduce<2>(floats, cuda::std::plus<>{}) == 2.0f);
  CHECK(strata::ThreadReduce<3>(floats, cuda::std::plus<>{}, 1) == 5.0f);
}

} // namespace
