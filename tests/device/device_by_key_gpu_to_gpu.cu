// DeviceScan's by-key scans and DeviceReduce::ReduceByKey in gpu_to_gpu form: every result is the fixed order's
// (the gpu_to_gpu scan of (head, value) pairs), emulated on the host bit for bit (gpu_to_gpu_order.cuh), for every
// size class and run pattern, under three policies of different tiles and grids; a non-commutative operator keeps the
// sequence's order; hashes of results recorded on one card are checked on any other.
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_scan.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "device_launch.cuh"
#include "device_scan_harness.cuh"
#include "gpu_to_gpu_order.cuh"
#include "test_util.cuh"

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

namespace
{
using strata_test::first_bit_mismatch;
using strata_test::full_mantissas;
using strata_test::hash_of;

// The ReduceByKey gpu_to_gpu results of keys and values: run keys, aggregates and the run count, downloaded.
template <typename K, typename V, typename OpT>
void reduce_by_key_g2g(const strata_test::device_buffer<K>& d_keys, const strata_test::device_buffer<V>& d_values,
                       OpT op, std::vector<K>& run_keys, std::vector<V>& aggregates)
{
  const int n = static_cast<int>(d_keys.size());
  strata_test::device_buffer<K> d_unique(d_keys.size());
  strata_test::device_buffer<V> d_aggregates(d_keys.size());
  strata_test::device_buffer<int> d_count(1);
  d_unique.poison();
  d_aggregates.poison();
  d_count.poison();
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceReduce::ReduceByKey(temp, bytes, d_keys.data(), d_unique.data(), d_values.data(),
                                             d_aggregates.data(), d_count.data(), op, n, strata::gpu_to_gpu, s);
  });
  const int count = d_count.download()[0];
  REQUIRE(count >= 0);
  REQUIRE(count <= n);
  run_keys = d_unique.download();
  run_keys.resize(static_cast<std::size_t>(count));
  aggregates = d_aggregates.download();
  aggregates.resize(static_cast<std::size_t>(count));
}

// A float item of a counting sequence whose every partial sum is exact (multiples of 1/8 that sum to 0 over each 1000
// items), and keys in runs of 777: results past 2^31 items are the exact sums whatever the order.
struct exact_item
{
  STRATA_HOST_DEVICE float operator()(long long i) const
  {
    return static_cast<float>((i * 37) % 1000) * 0.25f - 124.875f;
  }
};
struct run_of_777
{
  STRATA_HOST_DEVICE long long operator()(long long i) const
  {
    return i / 777;
  }
};
} // namespace

TEMPLATE_TEST_CASE("DeviceScan by-key sums and DeviceReduce::ReduceByKey gpu_to_gpu follow the fixed order",
                   "[device][scan][reduce][by_key][gpu_to_gpu]", float, double)
{
  using T                        = TestType;
  using pair_t                   = strata::detail::scan::segmented_value<T>;
  constexpr std::size_t A        = strata::detail::scan_atoms::atom_items_v<pair_t>;
  constexpr std::size_t TILE     = A * (512 / 32); // the library policy's tile
  std::vector<std::size_t> sizes = strata_test::test_sizes(A, std::size_t(1) << 21, 43);
  for (std::size_t n : strata_test::sizes_within_cap({TILE - 1, TILE, TILE + 1, 9 * TILE + A / 2}))
  {
    sizes.push_back(n);
  }
  for (const auto& pattern : device_scan_test::key_patterns())
  {
    for (std::size_t n : sizes)
    {
      CAPTURE(pattern.name, n);
      const std::vector<int> keys = device_scan_test::run_keys<int>(n, pattern, n + 3);
      const std::vector<T> values = full_mantissas<T>(n, strata_test::make_rng(n + 9));
      strata_test::device_buffer<int> d_keys(keys);
      strata_test::device_buffer<T> d_values(values);
      strata_test::device_buffer<T> d_out(n);
      const int count = static_cast<int>(n);

      d_out.poison();
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveSumByKey(temp, bytes, d_keys.data(), d_values.data(), d_out.data(), count,
                                                     strata::gpu_to_gpu, s);
      });
      const std::vector<T> inclusive = strata_test::fixed_order_sum_by_key(keys, values, true);
      CHECK(first_bit_mismatch(d_out.download(), inclusive) == -1);

      d_out.poison();
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::ExclusiveSumByKey(temp, bytes, d_keys.data(), d_values.data(), d_out.data(), count,
                                                     strata::gpu_to_gpu, s);
      });
      CHECK(first_bit_mismatch(d_out.download(), strata_test::fixed_order_sum_by_key(keys, values, false)) == -1);

      std::vector<int> run_keys, expected_keys;
      std::vector<T> aggregates, expected;
      reduce_by_key_g2g(d_keys, d_values, cuda::std::plus<>{}, run_keys, aggregates);
      strata_test::runs_of_scan(keys, inclusive, expected_keys, expected);
      CHECK(run_keys == expected_keys);
      CHECK(first_bit_mismatch(aggregates, expected) == -1);
    }
  }
}

TEST_CASE("DeviceScan by-key gpu_to_gpu gives the same bits under every policy, alignment and in place",
          "[device][scan][by_key][gpu_to_gpu]")
{
  using pair_t                    = strata::detail::scan::segmented_value<float>;
  const std::size_t n             = strata_test::sizes_within_cap({(std::size_t(1) << 22) + 29})[0];
  const std::vector<int> keys     = device_scan_test::run_keys<int>(n, {"runs of 1..200", 1, 200}, 5);
  const std::vector<float> values = full_mantissas<float>(n, strata_test::make_rng(6));
  strata_test::device_buffer<int> d_keys(keys);
  strata_test::device_buffer<float> d_values(values);
  strata_test::device_buffer<float> d_out(n);
  const std::vector<float> inclusive = strata_test::fixed_order_sum_by_key(keys, values, true);
  const std::vector<float> exclusive = strata_test::fixed_order_sum_by_key(keys, values, false, -1.5f);

  using namespace strata::detail::scan_atoms;
  using InputT        = by_key_pairs<const int*, const float*, cuda::std::equal_to<>, float>;
  using InclusiveOutT = pair_output<float*, inclusive_values>;
  using ExclusiveOutT =
    pair_output<float*, exclusive_values<const int*, cuda::std::equal_to<>, cuda::std::plus<>, float>>;
  using OpT = strata::detail::scan::segmented_op<cuda::std::plus<>>;
  const InputT pairs{d_keys.data(), d_values.data(), {}};
  const auto scan_under = [&](auto hub, auto out, auto inclusive_tag) {
    using Hub = decltype(hub);
    d_out.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DispatchScanGpuToGpu<InputT, decltype(out), OpT, strata::detail::scan::no_init, std::uint32_t,
                                          pair_t, decltype(inclusive_tag)::value,
                                          Hub>::Dispatch(temp, bytes, pairs, out, OpT{},
                                                         strata::detail::scan::no_init{}, static_cast<std::uint32_t>(n),
                                                         s);
    });
  };
  const auto check_under = [&](auto hub) {
    scan_under(hub, InclusiveOutT{d_out.data(), {}}, std::true_type{});
    CHECK(first_bit_mismatch(d_out.download(), inclusive) == -1);
    scan_under(hub, ExclusiveOutT{d_out.data(), {d_keys.data(), {}, {{}, -1.5f}}}, std::false_type{});
    CHECK(first_bit_mismatch(d_out.download(), exclusive) == -1);
  };
  check_under(strata_test::atoms_hub<256, 1>{});                 // a chunk a tile
  check_under(strata::detail::scan_atoms::policy_hub<pair_t>{}); // the library's: two chunks a tile
  check_under(strata_test::atoms_hub<1024, 1>{});                // four chunks a tile

  // In place (the values' input is the output): no tile reads a value another tile writes.
  {
    strata_test::device_buffer<float> d_data(values);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::InclusiveSumByKey(temp, bytes, d_keys.data(), d_data.data(), d_data.data(),
                                                   static_cast<int>(n), strata::gpu_to_gpu, s);
    });
    CHECK(first_bit_mismatch(d_data.download(), inclusive) == -1);
    d_data.upload(values);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::ExclusiveScanByKey(temp, bytes, d_keys.data(), d_data.data(), d_data.data(),
                                                    cuda::std::plus<>{}, -1.5f, static_cast<int>(n), strata::gpu_to_gpu,
                                                    s);
    });
    CHECK(first_bit_mismatch(d_data.download(), exclusive) == -1);
  }

  // Misaligned keys, values and output: the register agent, in the same order.
  {
    strata_test::device_buffer<int> d_keys1(n + 1);
    strata_test::device_buffer<float> d_values1(n + 1);
    strata_test::device_buffer<float> d_out1(n + 1);
    std::vector<int> keys1(keys);
    keys1.insert(keys1.begin(), 0);
    std::vector<float> values1(values);
    values1.insert(values1.begin(), 0.0f);
    d_keys1.upload(keys1);
    d_values1.upload(values1);
    const auto shifted = [&]() {
      std::vector<float> out = d_out1.download();
      return std::vector<float>(out.begin() + 1, out.end());
    };
    d_out1.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::InclusiveSumByKey(temp, bytes, d_keys1.data() + 1, d_values1.data() + 1,
                                                   d_out1.data() + 1, static_cast<int>(n), strata::gpu_to_gpu, s);
    });
    CHECK(first_bit_mismatch(shifted(), inclusive) == -1);
    d_out1.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::ExclusiveScanByKey(temp, bytes, d_keys1.data() + 1, d_values1.data() + 1,
                                                    d_out1.data() + 1, cuda::std::plus<>{}, -1.5f, static_cast<int>(n),
                                                    strata::gpu_to_gpu, s);
    });
    CHECK(first_bit_mismatch(shifted(), exclusive) == -1);
  }
}

TEST_CASE("DeviceScan by-key and ReduceByKey gpu_to_gpu keep the sequence's order for a non-commutative operator",
          "[device][scan][reduce][by_key][gpu_to_gpu]")
{
  // Composition of affine maps modulo 2^32 is exact in any association: the results are the sequential ones. Keys equal
  // by decade (a custom equality).
  for (std::size_t n : strata_test::sizes_within_cap({1, 255, 257, 100003, (std::size_t(1) << 20) + 1}))
  {
    CAPTURE(n);
    const std::vector<int> keys = device_scan_test::decade_keys(n, {"runs of 1..40", 1, 40}, n + 1);
    const auto values           = strata_test::random_vector<strata_test::affine32>(n, n + 13);
    strata_test::device_buffer<int> d_keys(keys);
    strata_test::device_buffer<strata_test::affine32> d_values(values);
    strata_test::device_buffer<strata_test::affine32> d_out(n);
    const int count = static_cast<int>(n);
    const device_scan_test::same_decade decade;

    d_out.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::InclusiveScanByKey(temp, bytes, d_keys.data(), d_values.data(), d_out.data(),
                                                    strata_test::affine_then{}, count, decade, strata::gpu_to_gpu, s);
    });
    const auto inclusive =
      device_scan_test::reference_inclusive_scan_by_key(keys, values, strata_test::affine_then{}, decade);
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), inclusive);

    const strata_test::affine32 init{3u, 7u};
    d_out.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::ExclusiveScanByKey(temp, bytes, d_keys.data(), d_values.data(), d_out.data(),
                                                    strata_test::affine_then{}, init, count, decade, strata::gpu_to_gpu,
                                                    s);
    });
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(),
                                 device_scan_test::reference_exclusive_scan_by_key(keys, values, init,
                                                                                   strata_test::affine_then{}, decade));

    // ReduceByKey: each run's fold, in order; with == on keys that differ within a decade, the runs are the keys'.
    std::vector<int> run_keys, expected_keys;
    std::vector<strata_test::affine32> aggregates, expected;
    reduce_by_key_g2g(d_keys, d_values, strata_test::affine_then{}, run_keys, aggregates);
    strata_test::runs_of_scan(keys,
                              device_scan_test::reference_inclusive_scan_by_key(keys, values,
                                                                                strata_test::affine_then{},
                                                                                device_scan_test::host_equal{}),
                              expected_keys, expected);
    CHECK(run_keys == expected_keys);
    STRATA_REQUIRE_EQUAL_VECTORS(aggregates, expected);
  }
}

TEST_CASE("DeviceScan by-key and ReduceByKey gpu_to_gpu give the recorded bits", "[device][scan][reduce][gpu_to_gpu]")
{
  // Recorded from the host's emulation, which the device matches bit for bit (above): any GPU must give these.
  constexpr std::uint64_t recorded_sum_by_key_f32    = 0x926ea4ceb1160c96ull;
  constexpr std::uint64_t recorded_reduce_by_key_f64 = 0x3dc48362f20af0aeull;
  const std::size_t n                                = 3000017;
  const std::vector<int> keys                        = strata_test::recorded_run_keys(n, std::mt19937_64(20261203));
  const auto f_values                                = full_mantissas<float>(n, std::mt19937_64(20261204));
  const auto d_values                                = full_mantissas<double>(n, std::mt19937_64(20261205));
  strata_test::device_buffer<int> d_keys(keys);
  strata_test::device_buffer<float> d_f(f_values);
  strata_test::device_buffer<float> d_fout(n);
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceScan::InclusiveSumByKey(temp, bytes, d_keys.data(), d_f.data(), d_fout.data(),
                                                 static_cast<int>(n), strata::gpu_to_gpu, s);
  });
  CHECK(hash_of(d_fout.download()) == recorded_sum_by_key_f32);
  CHECK(hash_of(strata_test::fixed_order_sum_by_key(keys, f_values, true)) == recorded_sum_by_key_f32);

  strata_test::device_buffer<double> d_d(d_values);
  std::vector<int> run_keys, expected_keys;
  std::vector<double> aggregates, expected;
  reduce_by_key_g2g(d_keys, d_d, cuda::std::plus<>{}, run_keys, aggregates);
  CHECK(hash_of(aggregates) == recorded_reduce_by_key_f64);
  strata_test::runs_of_scan(keys, strata_test::fixed_order_sum_by_key(keys, d_values, true), expected_keys, expected);
  CHECK(hash_of(expected) == recorded_reduce_by_key_f64);
}

TEST_CASE("DeviceScan by-key and ReduceByKey gpu_to_gpu reject bad arguments without writing",
          "[device][scan][reduce][gpu_to_gpu]")
{
  const std::size_t n = 1000;
  strata_test::device_buffer<int> d_keys(device_scan_test::run_keys<int>(n, {"runs", 1, 9}, 1));
  strata_test::device_buffer<float> d_values(full_mantissas<float>(n, strata_test::make_rng(2)));
  strata_test::device_buffer<float> d_out(n);
  strata_test::device_buffer<int> d_count(1);
  d_out.poison();
  d_count.poison();
  const std::vector<float> before     = d_out.download();
  const std::vector<int> count_before = d_count.download();
  std::size_t bytes                   = 0;
  CHECK(strata::DeviceScan::InclusiveSumByKey(nullptr, bytes, d_keys.data(), d_values.data(), d_out.data(), -1,
                                              strata::gpu_to_gpu)
        == cudaErrorInvalidValue);
  REQUIRE(strata::DeviceScan::InclusiveSumByKey(nullptr, bytes, d_keys.data(), d_values.data(), d_out.data(),
                                                static_cast<int>(n), strata::gpu_to_gpu)
          == cudaSuccess);
  strata_test::device_buffer<char> temp(bytes);
  std::size_t too_few = bytes - 1;
  CHECK(strata::DeviceScan::InclusiveSumByKey(temp.data(), too_few, d_keys.data(), d_values.data(), d_out.data(),
                                              static_cast<int>(n), strata::gpu_to_gpu)
        == cudaErrorInvalidValue);
  std::size_t enough = bytes;
  CHECK(strata::DeviceScan::ExclusiveSumByKey(temp.data(), enough, static_cast<const int*>(nullptr), d_values.data(),
                                              d_out.data(), static_cast<int>(n), strata::gpu_to_gpu)
        == cudaErrorInvalidValue);

  std::size_t rbk_bytes = 0;
  REQUIRE(strata::DeviceReduce::ReduceByKey(nullptr, rbk_bytes, d_keys.data(), static_cast<int*>(nullptr),
                                            d_values.data(), d_out.data(), d_count.data(), cuda::std::plus<>{},
                                            static_cast<int>(n), strata::gpu_to_gpu)
          == cudaSuccess);
  strata_test::device_buffer<char> rbk_temp(rbk_bytes);
  CHECK(strata::DeviceReduce::ReduceByKey(rbk_temp.data(), rbk_bytes, d_keys.data(), static_cast<int*>(nullptr),
                                          d_values.data(), d_out.data(), d_count.data(), cuda::std::plus<>{},
                                          static_cast<int>(n), strata::gpu_to_gpu)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceReduce::ReduceByKey(rbk_temp.data(), rbk_bytes, d_keys.data(), d_keys.data(), d_values.data(),
                                          d_out.data(), static_cast<int*>(nullptr), cuda::std::plus<>{},
                                          static_cast<int>(n), strata::gpu_to_gpu)
        == cudaErrorInvalidValue);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(d_out.download() == before);
  CHECK(d_count.download() == count_before);

  // No items: the count is 0, nothing else is written.
  strata_test::launch([&](void* t, std::size_t& b, cudaStream_t s) {
    return strata::DeviceReduce::ReduceByKey(t, b, d_keys.data(), d_keys.data(), d_values.data(), d_out.data(),
                                             d_count.data(), cuda::std::plus<>{}, 0, strata::gpu_to_gpu, s);
  });
  CHECK(d_count.download()[0] == 0);
  CHECK(d_out.download() == before);
}

TEST_CASE("DeviceScan::InclusiveSumByKey gpu_to_gpu past 2^31 items", "[device][scan][by_key][gpu_to_gpu][large]")
{
  const std::size_t n = (std::size_t(1) << 31) + 4099;
  const thrust::counting_iterator<long long> first(0);
  const auto keys  = thrust::make_transform_iterator(first, run_of_777{});
  const auto items = thrust::make_transform_iterator(first, exact_item{});
  strata_test::device_buffer<float> d_out(n);
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceScan::InclusiveSumByKey(temp, bytes, keys, items, d_out.data(), n, strata::gpu_to_gpu, s);
  });
  // Every partial sum is exact, so each result is the exact sum of its run so far: this checks the offsets.
  const std::vector<std::size_t> probes = {
    0, 776, 777, 778, (std::size_t(1) << 31) - 1, std::size_t(1) << 31, (std::size_t(1) << 31) + 1, n - 1};
  for (std::size_t i : probes)
  {
    CAPTURE(i);
    double expected = 0;
    for (std::size_t j = i - i % 777; j <= i; ++j)
    {
      expected += exact_item{}(static_cast<long long>(j));
    }
    float got = 0;
    STRATA_TEST_CUDA(cudaMemcpy(&got, d_out.data() + i, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(got == static_cast<float>(expected));
  }
}
