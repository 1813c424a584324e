// DeviceReduce::ReduceByKey against runs reduced on the host: keys of 1, 4 and 8 bytes; values of 4 and 8 bytes,
// floats and a 16-byte user struct; sums, maxima and a non-commutative product (2x2 matrices, whose aggregates must
// be left-to-right products); every size class and partial last tile with runs of 1 to 9 keys, runs of mean length
// 1000, one run over the whole input (many tiles: the look-back carries the run) and runs of one; the default
// equality and a coarser one (keys equal by their quarter: a run's last key is the one written, as CUB writes it); counts written as
// size_t, int and unsigned long long; stream and graph launches; float aggregates the same bits run to run and within
// a tolerance of the exact sums; a transform_iterator of keys into a discard_iterator of unique keys; the single-phase
// forms; bad input rejected before anything is written; no items write a count of 0.
#include <strata/device/device_reduce.cuh>
#include <strata/execution/policy.cuh>

#include <cuda/functional>
#include <cuda/std/functional>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "device_launch.cuh"
#include "select_test.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

namespace
{
using select_test::MAX_ITEMS;

// What reduction_op returns for two values: the aggregates' type.
template <typename V, typename Op>
using accum_t = std::decay_t<std::invoke_result_t<Op, V, V>>;

// The reduction's tile for keys K and values V under Op.
template <typename K, typename V, typename Op>
constexpr std::size_t tile_items()
{
  return strata::detail::reduce_by_key::policy_hub<K, accum_t<V, Op>>::MaxPolicy::ScanPolicy::TILE_ITEMS;
}

// n keys in runs of 1 to `max_run` items; run r's keys lie in the quarter 7 r mod 61 (4 (7 r mod 61) to that + 3), so
// neighbouring runs differ under both equalities. With `jitter`, a run's keys vary within its quarter (each item
// draws new last two bits with probability 1/4): the default equality splits the runs the coarser one keeps whole,
// whose last key then differs from the others.
template <typename K>
std::vector<K> run_keys(std::size_t n, std::size_t max_run, std::uint64_t salt, bool jitter = false)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::uniform_int_distribution<std::size_t> length(1, max_run);
  std::uniform_int_distribution<int> low(0, 3);
  std::vector<K> keys;
  keys.reserve(n);
  for (std::size_t run = 0; keys.size() < n; ++run)
  {
    const int quarter = static_cast<int>((run * 7) % 61);
    int bits          = jitter ? low(rng) : 0;
    for (std::size_t i = length(rng); i > 0 && keys.size() < n; --i)
    {
      if (jitter && low(rng) == 0)
      {
        bits = low(rng);
      }
      keys.push_back(static_cast<K>(4 * quarter + bits));
    }
  }
  return keys;
}

// Keys equal when their quarters are.
struct same_quarter
{
  template <typename K>
  __host__ __device__ bool operator()(const K& a, const K& b) const
  {
    return static_cast<long long>(a) / 4 == static_cast<long long>(b) / 4;
  }
};

// n random values; 32-bit integers a thousand times smaller than random_vector's, so that sums of millions of them
// stay far from overflow.
template <typename V>
std::vector<V> make_values(std::size_t n, std::uint64_t salt)
{
  std::vector<V> values = strata_test::random_vector<V>(n, salt);
  if constexpr (std::is_same<V, std::int32_t>::value)
  {
    for (auto& v : values)
    {
      v /= 1024;
    }
  }
  return values;
}

// The runs of the host: each run's last key and the left-to-right reduction of its values; for float aggregates
// (only ever sums) also each run's sum in double and the sum of its values' magnitudes, for the tolerance.
template <typename K, typename A>
struct host_runs
{
  std::vector<K> keys;
  std::vector<A> aggregates;
  std::vector<double> exact;
  std::vector<double> magnitude;
};

template <typename A, typename K, typename V, typename Eq, typename HostOp>
host_runs<K, A> reference(const std::vector<K>& keys, const std::vector<V>& values, Eq eq, HostOp op)
{
  host_runs<K, A> runs;
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    const bool head = i == 0 || !eq(keys[i - 1], keys[i]);
    if (head)
    {
      runs.keys.push_back(keys[i]);
      runs.aggregates.push_back(static_cast<A>(values[i]));
    }
    else
    {
      runs.keys.back()       = keys[i]; // a run's last key is the one written
      runs.aggregates.back() = op(runs.aggregates.back(), static_cast<A>(values[i]));
    }
    if constexpr (std::is_same<A, float>::value)
    {
      const double v = static_cast<double>(values[i]);
      if (head)
      {
        runs.exact.push_back(0.0);
        runs.magnitude.push_back(0.0);
      }
      runs.exact.back() += v;
      runs.magnitude.back() += std::fabs(v);
    }
  }
  return runs;
}

// d_aggregates starts with the runs' aggregates and nothing after them was written. Floats are summed by the device
// in another grouping than the host's: each is within 1e-5 times the sum of its run's magnitudes of the exact sum
// (and equal to it for random_vector's floats, whose sums are exact in any grouping).
template <typename K, typename A>
void require_aggregates(const strata_test::device_buffer<A>& d_aggregates, const host_runs<K, A>& want)
{
  if constexpr (std::is_same<A, float>::value)
  {
    INFO("aggregates: " << want.exact.size() << " runs");
    const std::vector<float> out = d_aggregates.download();
    REQUIRE(out.size() >= want.exact.size());
    for (std::size_t r = 0; r < want.exact.size(); ++r)
    {
      const double tolerance = 1e-5 * want.magnitude[r];
      if (!(std::fabs(static_cast<double>(out[r]) - want.exact[r]) <= tolerance))
      {
        INFO("run " << r << ": " << out[r] << " vs exact " << want.exact[r] << ", tolerance " << tolerance);
        FAIL("float aggregate out of tolerance");
      }
    }
    CHECK(strata_test::all_poisoned(
      std::vector<float>(out.begin() + static_cast<std::ptrdiff_t>(want.exact.size()), out.end())));
  }
  else
  {
    strata_test::require_written_prefix("aggregates", d_aggregates, want.aggregates);
  }
}

// Reduces keys and values by key with the two-phase form (the one without an equality operator for
// cuda::std::equal_to<>) and checks the runs, their count (as a NumT) and that nothing past them was written.
template <typename NumT, typename K, typename V, typename Op, typename HostOp, typename Eq>
void check_reduce_by_key(const std::vector<K>& keys, const std::vector<V>& values, Op op, HostOp host_op, Eq eq,
                         strata_test::launch_mode mode)
{
  using A             = accum_t<V, Op>;
  const std::size_t n = keys.size();
  CAPTURE(n);
  const host_runs<K, A> want = reference<A>(keys, values, eq, host_op);
  const strata_test::device_buffer<K> d_keys(keys);
  const strata_test::device_buffer<V> d_values(values);
  strata_test::device_buffer<K> d_unique(n + 32);
  strata_test::device_buffer<A> d_aggregates(n + 32);
  strata_test::device_buffer<NumT> d_num(1);
  strata_test::launch(
    [&](void* temp, std::size_t& bytes, cudaStream_t s) {
      if constexpr (std::is_same<Eq, cuda::std::equal_to<>>::value)
      {
        return strata::DeviceReduce::ReduceByKey(temp, bytes, d_keys.data(), d_unique.data(), d_values.data(),
                                                 d_aggregates.data(), d_num.data(), op, static_cast<long long>(n), s);
      }
      else
      {
        return strata::DeviceReduce::ReduceByKey(temp, bytes, d_keys.data(), d_unique.data(), d_values.data(),
                                                 d_aggregates.data(), d_num.data(), op, static_cast<long long>(n), eq,
                                                 s);
      }
    },
    mode);
  CHECK(static_cast<std::size_t>(d_num.download()[0]) == want.keys.size());
  strata_test::require_written_prefix("unique keys", d_unique, want.keys);
  require_aggregates(d_aggregates, want);
}

// Every size class with runs of 1 to 9 keys: the default equality (counts as size_t, a quarter of the launches by
// graph) and, with COARSE, keys varying within runs of the same quarter under that equality (counts as int).
template <typename K, typename V, bool COARSE, typename Op, typename HostOp>
void check_sizes(Op op, HostOp host_op, std::uint64_t salt)
{
  std::size_t round = 0;
  for (const std::size_t n : strata_test::test_sizes(tile_items<K, V, Op>(), MAX_ITEMS, salt))
  {
    const std::vector<V> values = make_values<V>(n, salt + 2 * n + 1);
    const auto mode = (n + round++) % 4 == 0 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
    check_reduce_by_key<std::size_t>(run_keys<K>(n, 9, salt + n), values, op, host_op, cuda::std::equal_to<>{}, mode);
    if constexpr (COARSE)
    {
      check_reduce_by_key<int>(run_keys<K>(n, 9, salt + 3 * n, true), values, op, host_op, same_quarter{},
                               strata_test::launch_mode::stream);
    }
  }
}

// Runs of mean length 1000, one run of the whole input and runs of one, on inputs of many tiles.
template <typename K, typename V, typename Op, typename HostOp>
void check_run_shapes(Op op, HostOp host_op, std::uint64_t salt)
{
  for (const std::size_t n : strata_test::sizes_within_cap({65537, 1000003, MAX_ITEMS}))
  {
    const std::vector<V> values = make_values<V>(n, salt + n);
    {
      INFO("runs of mean length 1000");
      check_reduce_by_key<std::size_t>(run_keys<K>(n, 1999, salt + 2 * n), values, op, host_op, cuda::std::equal_to<>{},
                                       strata_test::launch_mode::stream);
    }
    {
      INFO("one run");
      check_reduce_by_key<std::size_t>(std::vector<K>(n, K(42)), values, op, host_op, cuda::std::equal_to<>{},
                                       n % 2 == 0 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream);
    }
    {
      INFO("runs of one");
      check_reduce_by_key<std::size_t>(run_keys<K>(n, 1, salt + 3 * n), values, op, host_op, cuda::std::equal_to<>{},
                                       strata_test::launch_mode::stream);
    }
  }
}
} // namespace

TEST_CASE("DeviceReduce::ReduceByKey reduces every run at every size class", "[device][reduce][reduce_by_key]")
{
  SECTION("int32 keys, int32 sums")
  {
    check_sizes<std::int32_t, std::int32_t, true>(cuda::std::plus<>{}, strata_test::host_plus{}, 0x4b1);
  }
  SECTION("uint8 keys, double sums")
  {
    check_sizes<std::uint8_t, double, true>(cuda::std::plus<>{}, strata_test::host_plus{}, 0x4b2);
  }
  SECTION("int64 keys, custom_t sums")
  {
    check_sizes<std::int64_t, strata_test::custom_t, true>(cuda::std::plus<>{}, strata_test::host_plus{}, 0x4b3);
  }
  SECTION("int32 keys, int64 maxima")
  {
    check_sizes<std::int32_t, std::int64_t, false>(cuda::maximum<>{}, strata_test::host_max{}, 0x4b4);
  }
  SECTION("int64 keys, float sums")
  {
    check_sizes<std::int64_t, float, false>(cuda::std::plus<>{}, strata_test::host_plus{}, 0x4b5);
  }
  SECTION("int32 keys, 2x2 matrix products (not commutative: left to right)")
  {
    check_sizes<std::int32_t, strata_test::mat2x2, true>(strata_test::mat_mul{}, strata_test::mat_mul{}, 0x4b6);
  }
}

TEST_CASE("DeviceReduce::ReduceByKey over long runs, one run of everything and runs of one",
          "[device][reduce][reduce_by_key]")
{
  SECTION("int32 keys, int32 sums")
  {
    check_run_shapes<std::int32_t, std::int32_t>(cuda::std::plus<>{}, strata_test::host_plus{}, 0x4c1);
  }
  SECTION("uint8 keys, double sums")
  {
    check_run_shapes<std::uint8_t, double>(cuda::std::plus<>{}, strata_test::host_plus{}, 0x4c2);
  }
  SECTION("int32 keys, int64 maxima")
  {
    check_run_shapes<std::int32_t, std::int64_t>(cuda::maximum<>{}, strata_test::host_max{}, 0x4c3);
  }
  SECTION("int64 keys, float sums")
  {
    check_run_shapes<std::int64_t, float>(cuda::std::plus<>{}, strata_test::host_plus{}, 0x4c4);
  }
  SECTION("int32 keys, 2x2 matrix products")
  {
    check_run_shapes<std::int32_t, strata_test::mat2x2>(strata_test::mat_mul{}, strata_test::mat_mul{}, 0x4c5);
  }
  SECTION("int32 keys, int32 sums, runs of mean length 1000 under the coarser equality")
  {
    for (const std::size_t n : strata_test::sizes_within_cap({65537, MAX_ITEMS}))
    {
      check_reduce_by_key<int>(run_keys<std::int32_t>(n, 1999, 0x4c6 + n, true),
                               make_values<std::int32_t>(n, 0x4c7 + n), cuda::std::plus<>{}, strata_test::host_plus{},
                               same_quarter{}, strata_test::launch_mode::stream);
    }
  }
}

TEST_CASE("DeviceReduce::ReduceByKey at every partial last tile", "[device][reduce][reduce_by_key]")
{
  using K             = std::int32_t;
  using V             = std::int32_t;
  const std::size_t t = tile_items<K, V, cuda::std::plus<>>();
  for (const std::size_t k : {1, 2, 3, 9})
  {
    for (const std::size_t r : {std::size_t(0), std::size_t(1), std::size_t(33), t / 2, t - 1})
    {
      const std::size_t n = k * t + r;
      if (n > strata_test::capped(MAX_ITEMS))
      {
        continue;
      }
      check_reduce_by_key<unsigned long long>(run_keys<K>(n, 5, 0x4d1 + n), make_values<V>(n, 0x4d2 + n),
                                              cuda::std::plus<>{}, strata_test::host_plus{}, cuda::std::equal_to<>{},
                                              strata_test::launch_mode::stream);
    }
  }
}

TEST_CASE("DeviceReduce::ReduceByKey float aggregates are the same bits run to run",
          "[device][reduce][reduce_by_key][determinism]")
{
  using K             = std::int64_t;
  const std::size_t t = tile_items<K, float, cuda::std::plus<>>();
  const std::size_t n = strata_test::capped(MAX_ITEMS);
  // Runs of up to 8 tiles, and one of 40 (longer than a look-back window of 32 tiles: the look-back finds no head in
  // it), of floats with full mantissas: every grouping of their additions rounds differently.
  std::vector<K> keys = run_keys<K>(n, 8 * t, 0x4e1);
  std::fill(keys.begin() + static_cast<std::ptrdiff_t>(n / 4),
            keys.begin() + static_cast<std::ptrdiff_t>(std::min(n, n / 4 + 40 * t)), keys[n / 4]);
  const std::vector<float> values = strata_test::full_mantissa_floats(n, 0x4e2);
  const host_runs<K, float> want  = reference<float>(keys, values, cuda::std::equal_to<>{}, strata_test::host_plus{});
  const strata_test::device_buffer<K> d_keys(keys);
  const strata_test::device_buffer<float> d_values(values);
  std::vector<float> first;
  for (const auto mode :
       {strata_test::launch_mode::stream, strata_test::launch_mode::stream, strata_test::launch_mode::graph})
  {
    strata_test::device_buffer<K> d_unique(n + 32);
    strata_test::device_buffer<float> d_aggregates(n + 32);
    strata_test::device_buffer<std::size_t> d_num(1);
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceReduce::ReduceByKey(temp, bytes, d_keys.data(), d_unique.data(), d_values.data(),
                                                 d_aggregates.data(), d_num.data(), cuda::std::plus<>{},
                                                 static_cast<long long>(n), s);
      },
      mode);
    CHECK(d_num.download()[0] == want.keys.size());
    strata_test::require_written_prefix("unique keys", d_unique, want.keys);
    require_aggregates(d_aggregates, want);
    const std::vector<float> out = d_aggregates.download();
    if (first.empty())
    {
      first = out;
    }
    else
    {
      REQUIRE(out.size() == first.size());
      CHECK(std::memcmp(out.data(), first.data(), sizeof(float) * out.size()) == 0);
    }
  }
}

namespace
{
// i / 3: runs of three over a counting iterator.
struct third
{
  __host__ __device__ int operator()(int i) const
  {
    return i / 3;
  }
};
} // namespace

TEST_CASE("DeviceReduce::ReduceByKey over a transform_iterator of keys into a discard_iterator of unique keys",
          "[device][reduce][reduce_by_key][iterators]")
{
  const int n                     = static_cast<int>(strata_test::capped(1000003));
  const auto keys                 = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), third{});
  const std::vector<int> h_values = make_values<int>(static_cast<std::size_t>(n), 0x4f1);
  const strata_test::device_buffer<int> d_values(h_values);
  strata_test::device_buffer<int> d_aggregates(static_cast<std::size_t>(n) + 32);
  strata_test::device_buffer<int> d_num(1);
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceReduce::ReduceByKey(temp, bytes, keys, thrust::make_discard_iterator(), d_values.data(),
                                             d_aggregates.data(), d_num.data(), cuda::std::plus<>{}, n, s);
  });
  std::vector<int> want((static_cast<std::size_t>(n) + 2) / 3, 0);
  for (std::size_t i = 0; i < h_values.size(); ++i)
  {
    want[i / 3] += h_values[i];
  }
  CHECK(d_num.download()[0] == static_cast<int>(want.size()));
  strata_test::require_written_prefix("aggregates", d_aggregates, want);
}

TEST_CASE("DeviceReduce::ReduceByKey single-phase on a stream and on a policy",
          "[device][reduce][reduce_by_key][single_phase]")
{
  using K                               = std::int64_t;
  const std::size_t n                   = strata_test::capped(300007);
  const std::vector<K> keys             = run_keys<K>(n, 6, 0x501, true);
  const std::vector<float> values       = strata_test::random_vector<float>(n, 0x502);
  const host_runs<K, float> coarse_want = reference<float>(keys, values, same_quarter{}, strata_test::host_plus{});
  const strata_test::device_buffer<K> d_keys(keys);
  const strata_test::device_buffer<float> d_values(values);
  cudaStream_t s{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (const bool policy : {false, true})
  {
    CAPTURE(policy);
    strata_test::device_buffer<K> d_unique(n + 32);
    strata_test::device_buffer<float> d_aggregates(n + 32);
    strata_test::device_buffer<std::size_t> d_num(1);
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    const cudaError_t e =
      policy
        ? strata::DeviceReduce::ReduceByKey(d_keys.data(), d_unique.data(), d_values.data(), d_aggregates.data(),
                                            d_num.data(), cuda::std::plus<>{}, n, same_quarter{}, strata::par.on(s))
        : strata::DeviceReduce::ReduceByKey(d_keys.data(), d_unique.data(), d_values.data(), d_aggregates.data(),
                                            d_num.data(), cuda::std::plus<>{}, n, same_quarter{}, s);
    REQUIRE(e == cudaSuccess);
    STRATA_TEST_CUDA(cudaStreamSynchronize(s));
    CHECK(d_num.download()[0] == coarse_want.keys.size());
    strata_test::require_written_prefix("unique keys", d_unique, coarse_want.keys);
    require_aggregates(d_aggregates, coarse_want);
  }
  {
    INFO("single-phase, default equality, on the default stream");
    strata_test::device_buffer<K> d_unique(n + 32);
    strata_test::device_buffer<float> d_aggregates(n + 32);
    strata_test::device_buffer<std::size_t> d_num(1);
    REQUIRE(strata::DeviceReduce::ReduceByKey(d_keys.data(), d_unique.data(), d_values.data(), d_aggregates.data(),
                                              d_num.data(), cuda::std::plus<>{}, n)
            == cudaSuccess);
    STRATA_TEST_SYNC();
    const host_runs<K, float> want = reference<float>(keys, values, cuda::std::equal_to<>{}, strata_test::host_plus{});
    CHECK(d_num.download()[0] == want.keys.size());
    strata_test::require_written_prefix("unique keys", d_unique, want.keys);
    require_aggregates(d_aggregates, want);
  }
  STRATA_TEST_CUDA(cudaStreamDestroy(s));
}

TEST_CASE("DeviceReduce::ReduceByKey rejects bad input and writes 0 runs for no items",
          "[device][reduce][reduce_by_key][errors]")
{
  const auto call = [](void* temp, std::size_t& bytes, int* keys, int* unique, int* values, int* aggregates,
                       std::size_t* num, long long n) {
    return strata::DeviceReduce::ReduceByKey(temp, bytes, keys, unique, values, aggregates, num, cuda::std::plus<>{}, n,
                                             cudaStream_t{0});
  };
  int* const null             = nullptr;
  std::size_t* const null_num = nullptr;
  for (const int n : {100, 100000}) // one tile (no tile state: 1 byte of storage), and several
  {
    CAPTURE(n);
    const std::vector<int> h_keys   = run_keys<int>(static_cast<std::size_t>(n), 4, 0x511);
    const std::vector<int> h_values = make_values<int>(static_cast<std::size_t>(n), 0x512);
    const strata_test::device_buffer<int> d_keys(h_keys), d_values(h_values);
    strata_test::device_buffer<int> d_unique(static_cast<std::size_t>(n)), d_aggregates(static_cast<std::size_t>(n));
    strata_test::device_buffer<std::size_t> d_num(1);
    int* const keys        = d_keys.data();
    int* const values      = d_values.data();
    int* const unique      = d_unique.data();
    int* const aggregates  = d_aggregates.data();
    std::size_t* const num = d_num.data();

    std::size_t bytes = 0;
    REQUIRE(call(nullptr, bytes, keys, unique, values, aggregates, num, n) == cudaSuccess);
    REQUIRE(bytes > 0);
    void* d_temp = nullptr;
    STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));

    std::size_t too_small = bytes - 1;
    CHECK(call(d_temp, too_small, keys, unique, values, aggregates, num, n) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, keys, unique, values, aggregates, num, -1) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, null, unique, values, aggregates, num, n) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, keys, unique, null, aggregates, num, n) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, keys, null, values, aggregates, num, n) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, keys, unique, values, null, num, n) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, keys, unique, values, aggregates, null_num, n) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, keys, unique, values, aggregates, null_num, 0) == cudaErrorInvalidValue);
    std::size_t query = 0;
    CHECK(call(nullptr, query, keys, unique, values, aggregates, num, -1) == cudaErrorInvalidValue);
    CHECK(strata::DeviceReduce::ReduceByKey(keys, unique, values, aggregates, num, cuda::std::plus<>{}, -1LL)
          == cudaErrorInvalidValue);

    STRATA_TEST_SYNC();
    CHECK(strata_test::all_poisoned(d_unique.download()));
    CHECK(strata_test::all_poisoned(d_aggregates.download()));
    CHECK(strata_test::all_poisoned(d_num.download()));
    STRATA_REQUIRE_EQUAL_VECTORS(d_keys.download(), h_keys);
    STRATA_REQUIRE_EQUAL_VECTORS(d_values.download(), h_values);
    STRATA_TEST_CUDA(cudaFree(d_temp));
  }

  INFO("no items");
  strata_test::device_buffer<int> d_unique(1), d_aggregates(1);
  strata_test::device_buffer<std::size_t> d_num(1);
  std::size_t empty_bytes = 0;
  REQUIRE(call(nullptr, empty_bytes, null, null, null, null, d_num.data(), 0) == cudaSuccess);
  CHECK(empty_bytes == 1);
  for (const auto mode : {strata_test::launch_mode::stream, strata_test::launch_mode::graph})
  {
    d_num.poison();
    strata_test::launch(
      [&](void* temp, std::size_t& b, cudaStream_t s) {
        return strata::DeviceReduce::ReduceByKey(temp, b, null, null, null, null, d_num.data(), cuda::std::plus<>{},
                                                 0LL, s);
      },
      mode);
    CHECK(d_num.download()[0] == 0);
  }
  d_num.poison();
  REQUIRE(strata::DeviceReduce::ReduceByKey(null, d_unique.data(), null, d_aggregates.data(), d_num.data(),
                                            cuda::std::plus<>{}, 0)
          == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(d_num.download()[0] == 0);
  CHECK(strata_test::all_poisoned(d_unique.download()));
  CHECK(strata_test::all_poisoned(d_aggregates.download()));
}
