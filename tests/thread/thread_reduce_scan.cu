// ThreadReduce, ThreadScanInclusive and ThreadScanExclusive on the device: every form (array and pointer, with
// and without a prefix, apply_prefix true and false, in place) for LENGTH 1, 2, 3, 4, 7 and 16, over every value
// type with plus, the standard minimum / maximum / bit_xor, and a non-commutative matrix product.
#include <strata/thread/thread_reduce.cuh>
#include <strata/thread/thread_scan.cuh>

#include "test_util.cuh"

#include <cstdint>
#include <vector>

namespace thread_reduce_scan_test
{

constexpr int BLOCK_THREADS = 64;
constexpr int BLOCKS        = 3;
constexpr int THREADS       = BLOCK_THREADS * BLOCKS;

// Outputs per thread: four reductions, and eight scans of LENGTH items with their aggregates.
constexpr int REDUCTIONS = 4;
constexpr int SCANS      = 8;

// apply_prefix is a run-time value in the kernel, as in a block scan where only thread 0 skips the prefix.
__host__ __device__ bool applies_prefix(int thread)
{
  return thread % 3 != 0;
}

template <int LENGTH, typename T, typename Op>
__global__ void reduce_scan_kernel(const T* d_in, const T* d_prefix, T* d_reductions, T* d_scans, T* d_aggregates,
                                   Op op)
{
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const T* in      = d_in + thread * LENGTH;
  const T prefix   = d_prefix[thread];
  const bool apply = applies_prefix(thread);
  T* reductions    = d_reductions + thread * REDUCTIONS;
  T* scans         = d_scans + thread * SCANS * LENGTH;
  T* aggregates    = d_aggregates + thread * SCANS;

  T items[LENGTH];
  for (int i = 0; i < LENGTH; ++i)
  {
    items[i] = in[i];
  }

  reductions[0] = strata::ThreadReduce(items, op);
  reductions[1] = strata::ThreadReduce(items, op, prefix);
  reductions[2] = strata::ThreadReduce<LENGTH>(in, op);
  reductions[3] = strata::ThreadReduce<LENGTH>(in, op, prefix);

  T out[LENGTH];
  const auto emit = [&](int scan, const T& aggregate) {
    aggregates[scan] = aggregate;
    for (int i = 0; i < LENGTH; ++i)
    {
      scans[scan * LENGTH + i] = out[i];
    }
  };
  const auto reload = [&] {
    for (int i = 0; i < LENGTH; ++i)
    {
      out[i] = items[i];
    }
  };

  emit(0, strata::ThreadScanInclusive(items, out, op));
  emit(1, strata::ThreadScanInclusive(items, out, op, prefix));
  emit(2, strata::ThreadScanInclusive(items, out, op, prefix, apply));
  emit(3, strata::ThreadScanExclusive(items, out, op, prefix));
  emit(4, strata::ThreadScanExclusive(items, out, op, prefix, apply));
  // In place, through the pointer forms.
  reload();
  emit(5, strata::ThreadScanInclusive<LENGTH>(out, out, op));
  reload();
  emit(6, strata::ThreadScanInclusive<LENGTH>(out, out, op, prefix, apply));
  reload();
  emit(7, strata::ThreadScanExclusive<LENGTH>(out, out, op, prefix, apply));
}

// Host references for one thread, from plain loops in test_util.
template <typename T, typename HostOp>
struct thread_reference
{
  T reductions[REDUCTIONS];
  std::vector<T> scans[SCANS];
  T aggregates[SCANS];

  thread_reference(const std::vector<T>& in, const T& prefix, bool apply, HostOp op)
  {
    const T total        = strata_test::reference_reduce(in.data() + 1, in.data() + in.size(), in[0], op);
    const T prefix_total = strata_test::reference_reduce(in.data(), in.data() + in.size(), prefix, op);
    reductions[0]        = total;
    reductions[1]        = prefix_total;
    reductions[2]        = total;
    reductions[3]        = prefix_total;

    const std::vector<T> inclusive = strata_test::reference_inclusive_scan(in, op);
    std::vector<T> inclusive_prefixed(in.size());
    for (std::size_t i = 0; i < in.size(); ++i)
    {
      inclusive_prefixed[i] = op(i == 0 ? prefix : inclusive_prefixed[i - 1], in[i]);
    }
    const std::vector<T> exclusive_prefixed = strata_test::reference_exclusive_scan(in, prefix, op);
    // Without the prefix, output[0] receives the prefix and the rest are the items' own exclusive prefixes.
    std::vector<T> exclusive_unprefixed(in.size());
    exclusive_unprefixed[0] = prefix;
    for (std::size_t i = 1; i < in.size(); ++i)
    {
      exclusive_unprefixed[i] = inclusive[i - 1];
    }

    scans[0] = inclusive;
    scans[1] = inclusive_prefixed;
    scans[2] = apply ? inclusive_prefixed : inclusive;
    scans[3] = exclusive_prefixed;
    scans[4] = apply ? exclusive_prefixed : exclusive_unprefixed;
    scans[5] = inclusive;
    scans[6] = scans[2];
    scans[7] = scans[4];

    aggregates[0] = total;
    aggregates[1] = prefix_total;
    aggregates[2] = apply ? prefix_total : total;
    aggregates[3] = prefix_total;
    aggregates[4] = apply ? prefix_total : total;
    aggregates[5] = total;
    aggregates[6] = aggregates[2];
    aggregates[7] = aggregates[4];
  }
};

template <int LENGTH, typename T, typename Op, typename HostOp>
void check_reduce_scan(Op op, HostOp host_op, std::uint64_t salt)
{
  CAPTURE(LENGTH);
  const std::vector<T> in     = strata_test::random_vector<T>(THREADS * LENGTH, salt * 131 + LENGTH);
  const std::vector<T> prefix = strata_test::random_vector<T>(THREADS, salt * 137 + LENGTH);
  strata_test::device_buffer<T> d_in(in);
  strata_test::device_buffer<T> d_prefix(prefix);
  strata_test::device_buffer<T> d_reductions(THREADS * REDUCTIONS);
  strata_test::device_buffer<T> d_scans(THREADS * SCANS * LENGTH);
  strata_test::device_buffer<T> d_aggregates(THREADS * SCANS);

  reduce_scan_kernel<LENGTH><<<BLOCKS, BLOCK_THREADS>>>(d_in.data(), d_prefix.data(), d_reductions.data(),
                                                        d_scans.data(), d_aggregates.data(), op);
  STRATA_TEST_SYNC();

  const std::vector<T> reductions = d_reductions.download();
  const std::vector<T> scans      = d_scans.download();
  const std::vector<T> aggregates = d_aggregates.download();

  std::vector<T> expected_reductions, expected_scans, expected_aggregates;
  for (int thread = 0; thread < THREADS; ++thread)
  {
    const std::vector<T> items(in.begin() + thread * LENGTH, in.begin() + (thread + 1) * LENGTH);
    const thread_reference<T, HostOp> ref(items, prefix[thread], applies_prefix(thread), host_op);
    expected_reductions.insert(expected_reductions.end(), ref.reductions, ref.reductions + REDUCTIONS);
    for (int s = 0; s < SCANS; ++s)
    {
      expected_scans.insert(expected_scans.end(), ref.scans[s].begin(), ref.scans[s].end());
    }
    expected_aggregates.insert(expected_aggregates.end(), ref.aggregates, ref.aggregates + SCANS);
  }

  // Index i of the reductions is thread i / 4, form i % 4 (array, array + prefix, pointer, pointer + prefix);
  // index i of the scans is thread i / (8 * LENGTH), scan (i / LENGTH) % 8 in the kernel's emit order.
  {
    INFO("reductions");
    STRATA_REQUIRE_EQUAL_VECTORS(reductions, expected_reductions);
  }
  {
    INFO("scan outputs");
    STRATA_REQUIRE_EQUAL_VECTORS(scans, expected_scans);
  }
  {
    INFO("scan aggregates");
    STRATA_REQUIRE_EQUAL_VECTORS(aggregates, expected_aggregates);
  }
}

template <typename T, typename Op, typename HostOp>
void check_all_lengths(Op op, HostOp host_op, std::uint64_t salt)
{
  check_reduce_scan<1, T>(op, host_op, salt);
  check_reduce_scan<2, T>(op, host_op, salt);
  check_reduce_scan<3, T>(op, host_op, salt);
  check_reduce_scan<4, T>(op, host_op, salt);
  check_reduce_scan<7, T>(op, host_op, salt);
  check_reduce_scan<16, T>(op, host_op, salt);
}

TEMPLATE_TEST_CASE("ThreadReduce and ThreadScan with plus on the device", "[thread][reduce][scan]",
                   STRATA_TEST_ALL_TYPES)
{
  check_all_lengths<TestType>(cuda::std::plus<>{}, strata_test::host_plus{}, 1);
}

TEST_CASE("ThreadReduce and ThreadScan with a non-commutative operator (mat_mul) on the device",
          "[thread][reduce][scan]")
{
  check_all_lengths<strata_test::mat2x2>(strata_test::mat_mul{}, strata_test::mat_mul{}, 2);
}

TEMPLATE_TEST_CASE("ThreadReduce and ThreadScan with minimum and maximum on the device", "[thread][reduce][scan]",
                   std::int8_t, std::uint32_t, float, double)
{
  SECTION("minimum")
  {
    check_reduce_scan<7, TestType>(cuda::minimum<>{}, strata_test::host_min{}, 3);
    check_reduce_scan<16, TestType>(cuda::minimum<>{}, strata_test::host_min{}, 3);
  }
  SECTION("maximum")
  {
    check_reduce_scan<7, TestType>(cuda::maximum<>{}, strata_test::host_max{}, 4);
    check_reduce_scan<16, TestType>(cuda::maximum<>{}, strata_test::host_max{}, 4);
  }
}

struct host_xor
{
  template <typename T>
  T operator()(const T& a, const T& b) const
  {
    return static_cast<T>(a ^ b);
  }
};

TEMPLATE_TEST_CASE("ThreadReduce and ThreadScan with bit_xor on the device", "[thread][reduce][scan]", std::uint16_t,
                   std::int64_t)
{
  check_reduce_scan<3, TestType>(cuda::std::bit_xor<>{}, host_xor{}, 5);
  check_reduce_scan<16, TestType>(cuda::std::bit_xor<>{}, host_xor{}, 5);
}

} // namespace thread_reduce_scan_test
