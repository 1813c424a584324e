// DeviceScan's gpu_to_gpu forms: every result is the fixed order's (agent/agent_scan_atoms.cuh), emulated on the host
// bit for bit (gpu_to_gpu_order.cuh), for every size class, under three policies of different tiles and grids, for
// aligned, misaligned, in-place and iterator inputs; and hashes of results recorded on one card are checked on any
// other, so that two GPUs that pass this test give the same bits.
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_scan.cuh>

#include <cuda/functional>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "device_launch.cuh"
#include "gpu_to_gpu_order.cuh"
#include "test_util.cuh"

#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <vector>

namespace
{
using strata_test::atoms_hub;
using strata_test::first_bit_mismatch;
using strata_test::full_mantissas;
using strata_test::hash_of;
using strata_test::same_bits;

using one_chunk_tiles  = atoms_hub<256, 1>;                             // a chunk a tile, one block an SM
using library_tiles    = strata::detail::scan_atoms::policy_hub<float>; // two chunks a tile
using whole_block_tile = atoms_hub<1024, 1>;                            // four chunks a tile

// The inclusive (no init) or exclusive (init) sum of d_in[0 .. n) into d_out under Hub, through the dispatch.
template <typename Hub, bool INCLUSIVE, typename T, typename InitT>
void scan_under(const T* d_in, T* d_out, std::size_t n, InitT init)
{
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DispatchScanGpuToGpu<const T*, T*, cuda::std::plus<>, InitT, std::uint32_t, T, INCLUSIVE,
                                        Hub>::Dispatch(temp, bytes, d_in, d_out, cuda::std::plus<>{}, init,
                                                       static_cast<std::uint32_t>(n), s);
  });
}

// The inputs of the recorded hashes: a fixed generator, whatever STRATA_TEST_SEED says.
template <typename T>
std::vector<T> recorded_inputs(std::size_t n)
{
  return full_mantissas<T>(n, std::mt19937_64(20261202));
}

// A float item of a counting sequence whose every partial sum is exact (multiples of 1/8 that sum to 0 over each 1000
// items), so that results past 2^31 items can be checked against the exact prefix sums.
struct zero_mean
{
  STRATA_HOST_DEVICE float operator()(long long i) const
  {
    return static_cast<float>((i * 37) % 1000) * 0.25f - 124.875f;
  }
};
} // namespace

TEMPLATE_TEST_CASE("DeviceScan::InclusiveSum and ExclusiveSum gpu_to_gpu follow the fixed order at every size",
                   "[device][scan][gpu_to_gpu]", float, double)
{
  using T                        = TestType;
  constexpr std::size_t A        = strata::detail::scan_atoms::atom_items_v<T>;
  constexpr std::size_t TILE     = A * (512 / 32); // the library policy's tile
  std::vector<std::size_t> sizes = strata_test::test_sizes(A, std::size_t(1) << 22, 41);
  for (std::size_t n : strata_test::sizes_within_cap({TILE - 1, TILE, TILE + 1, 32 * TILE + A / 2}))
  {
    sizes.push_back(n);
  }
  for (std::size_t n : sizes)
  {
    CAPTURE(n);
    const std::vector<T> in = full_mantissas<T>(n, strata_test::make_rng(n + 5));
    strata_test::device_buffer<T> d_in(in);
    strata_test::device_buffer<T> d_out(n);
    const auto item = [&](std::size_t i) {
      return in[i];
    };

    d_out.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::InclusiveSum(temp, bytes, d_in.data(), d_out.data(), static_cast<int>(n),
                                              strata::gpu_to_gpu, s);
    });
    const auto inclusive =
      strata_test::fixed_order_scan<T, T>(item, n, strata_test::host_plus{}, true, std::optional<T>());
    CHECK(first_bit_mismatch(d_out.download(), inclusive) == -1);

    d_out.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::ExclusiveSum(temp, bytes, d_in.data(), d_out.data(), static_cast<int>(n),
                                              strata::gpu_to_gpu, s);
    });
    const auto exclusive = strata_test::fixed_order_scan<T, T>(item, n, strata_test::host_plus{}, false, T{});
    CHECK(first_bit_mismatch(d_out.download(), exclusive) == -1);
  }
}

TEST_CASE("DeviceScan gpu_to_gpu gives the same bits under every policy, alignment and in place",
          "[device][scan][gpu_to_gpu]")
{
  const std::size_t n           = strata_test::sizes_within_cap({(std::size_t(1) << 24) + 29})[0];
  const std::vector<float> h_in = full_mantissas<float>(n, strata_test::make_rng(77));
  strata_test::device_buffer<float> d_in(h_in);
  strata_test::device_buffer<float> d_out(n);
  const auto item = [&](std::size_t i) {
    return h_in[i];
  };
  const auto inclusive =
    strata_test::fixed_order_scan<float, float>(item, n, strata_test::host_plus{}, true, std::optional<float>());
  const auto exclusive = strata_test::fixed_order_scan<float, float>(item, n, strata_test::host_plus{}, false, -2.5f);

  const auto check_inclusive = [&](auto hub) {
    d_out.poison();
    scan_under<decltype(hub), true>(d_in.data(), d_out.data(), n, strata::detail::scan::no_init{});
    CHECK(first_bit_mismatch(d_out.download(), inclusive) == -1);
  };
  const auto check_exclusive = [&](auto hub) {
    d_out.poison();
    scan_under<decltype(hub), false>(d_in.data(), d_out.data(), n, -2.5f);
    CHECK(first_bit_mismatch(d_out.download(), exclusive) == -1);
  };
  check_inclusive(one_chunk_tiles{});
  check_inclusive(library_tiles{});
  check_inclusive(whole_block_tile{});
  check_exclusive(one_chunk_tiles{});
  check_exclusive(library_tiles{});
  check_exclusive(whole_block_tile{});

  // Run to run.
  for (int run = 0; run < 3; ++run)
  {
    check_inclusive(library_tiles{});
  }

  // Misaligned input and output: every atom read and written item by item, in the same order.
  {
    strata_test::device_buffer<float> d_shifted(n + 1);
    d_shifted.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::InclusiveSum(temp, bytes, d_in.data() + 1, d_shifted.data() + 1,
                                              static_cast<int>(n - 1), strata::gpu_to_gpu, s);
    });
    const auto expected = strata_test::fixed_order_scan<float, float>(
      [&](std::size_t i) {
        return h_in[i + 1];
      },
      n - 1, strata_test::host_plus{}, true, std::optional<float>());
    std::vector<float> got = d_shifted.download();
    got.erase(got.begin());
    got.resize(n - 1);
    CHECK(first_bit_mismatch(got, expected) == -1);
  }

  // In place.
  {
    strata_test::device_buffer<float> d_data(h_in);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::ExclusiveScan(temp, bytes, d_data.data(), d_data.data(), cuda::std::plus<>{}, -2.5f,
                                               static_cast<int>(n), strata::gpu_to_gpu, s);
    });
    CHECK(first_bit_mismatch(d_data.download(), exclusive) == -1);
  }

  // A prefix of the input scans to a prefix of the results: an item's result depends on the items up to it alone.
  {
    const std::size_t m = n / 3 + 7;
    d_out.poison();
    scan_under<library_tiles, true>(d_in.data(), d_out.data(), m, strata::detail::scan::no_init{});
    std::vector<float> got = d_out.download();
    got.resize(m);
    CHECK(same_bits(got, std::vector<float>(inclusive.begin(), inclusive.begin() + m)));
  }
}

TEST_CASE("DeviceScan gpu_to_gpu takes init, any operator and iterators", "[device][scan][gpu_to_gpu]")
{
  for (std::size_t n : strata_test::sizes_within_cap({1, 1023, 1025, 65537, 1000003, (std::size_t(1) << 23) + 3}))
  {
    CAPTURE(n);
    const std::vector<double> h_in = full_mantissas<double>(n, strata_test::make_rng(n + 11));
    strata_test::device_buffer<double> d_in(h_in);
    strata_test::device_buffer<double> d_out(n);
    const auto item = [&](std::size_t i) {
      return h_in[i];
    };

    // InclusiveScanInit: every result starts from init.
    d_out.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::InclusiveScanInit(temp, bytes, d_in.data(), d_out.data(), cuda::std::plus<>{}, 0.1,
                                                   static_cast<int>(n), strata::gpu_to_gpu, s);
    });
    CHECK(
      first_bit_mismatch(d_out.download(),
                         strata_test::fixed_order_scan<double, double>(item, n, strata_test::host_plus{}, true, 0.1))
      == -1);

    // A running maximum (any association gives it; this checks the operator is the one applied).
    d_out.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::InclusiveScan(temp, bytes, d_in.data(), d_out.data(), cuda::maximum<>{},
                                               static_cast<int>(n), strata::gpu_to_gpu, s);
    });
    CHECK(first_bit_mismatch(d_out.download(), strata_test::reference_inclusive_scan(h_in, strata_test::host_max{}))
          == -1);

    // Floats read through a transform of a counting iterator (the item-by-item path of every atom), into doubles.
    const thrust::counting_iterator<long long> first(0);
    const auto spread = thrust::make_transform_iterator(first, zero_mean{});
    d_out.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::ExclusiveScan(temp, bytes, spread, d_out.data(), cuda::std::plus<>{}, 0.5,
                                               static_cast<int>(n), strata::gpu_to_gpu, s);
    });
    CHECK(first_bit_mismatch(d_out.download(), strata_test::fixed_order_scan<double, float>(
                                                 [](std::size_t i) {
                                                   return zero_mean{}(static_cast<long long>(i));
                                                 },
                                                 n, strata_test::host_plus{}, false, 0.5))
          == -1);
  }
}

TEST_CASE("DeviceScan gpu_to_gpu keeps the sequence's order for a non-commutative operator",
          "[device][scan][gpu_to_gpu]")
{
  // Composition of affine maps modulo 2^32 is exact in any association: the results are the sequential scan's.
  for (std::size_t n : strata_test::sizes_within_cap({1, 255, 257, 100003, (std::size_t(1) << 21) + 1}))
  {
    CAPTURE(n);
    const auto h_in = strata_test::random_vector<strata_test::affine32>(n, n + 13);
    strata_test::device_buffer<strata_test::affine32> d_in(h_in);
    strata_test::device_buffer<strata_test::affine32> d_out(n);
    d_out.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::InclusiveScan(temp, bytes, d_in.data(), d_out.data(), strata_test::affine_then{},
                                               static_cast<int>(n), strata::gpu_to_gpu, s);
    });
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(),
                                 strata_test::reference_inclusive_scan(h_in, strata_test::affine_then{}));
    const strata_test::affine32 init{3u, 7u};
    d_out.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceScan::ExclusiveScan(temp, bytes, d_in.data(), d_out.data(), strata_test::affine_then{}, init,
                                               static_cast<int>(n), strata::gpu_to_gpu, s);
    });
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(),
                                 strata_test::reference_exclusive_scan(h_in, init, strata_test::affine_then{}));
  }
}

TEST_CASE("DeviceScan and DeviceReduce gpu_to_gpu give the recorded bits", "[device][scan][reduce][gpu_to_gpu]")
{
  // Hashes of results recorded on an H200; every GPU must give them. The host emulation gives them too, so a change
  // of the order shows here as a change of the recording, not only as a mismatch with the emulation.
  constexpr std::size_t n          = 3000017;
  const std::vector<float> f_in    = recorded_inputs<float>(n);
  const std::vector<double> d_in_h = recorded_inputs<double>(n);
  strata_test::device_buffer<float> d_f(f_in);
  strata_test::device_buffer<double> d_d(d_in_h);
  strata_test::device_buffer<float> d_fout(n);
  strata_test::device_buffer<double> d_dout(n);

  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceScan::InclusiveSum(temp, bytes, d_f.data(), d_fout.data(), static_cast<int>(n),
                                            strata::gpu_to_gpu, s);
  });
  const std::uint64_t inclusive_f32 = hash_of(d_fout.download());
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceScan::ExclusiveSum(temp, bytes, d_d.data(), d_dout.data(), static_cast<int>(n),
                                            strata::gpu_to_gpu, s);
  });
  const std::uint64_t exclusive_f64 = hash_of(d_dout.download());
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceReduce::Sum(temp, bytes, d_f.data(), d_fout.data(), static_cast<int>(n), strata::gpu_to_gpu,
                                     s);
  });
  const std::uint64_t sum_f32 = hash_of(std::vector<float>{d_fout.download()[0]});
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceReduce::Sum(temp, bytes, d_d.data(), d_dout.data(), static_cast<int>(n), strata::gpu_to_gpu,
                                     s);
  });
  const std::uint64_t sum_f64 = hash_of(std::vector<double>{d_dout.download()[0]});

  constexpr std::uint64_t recorded_inclusive_f32 = 0xc57352bda344d30full;
  constexpr std::uint64_t recorded_exclusive_f64 = 0x6c76f741461cc512ull;
  constexpr std::uint64_t recorded_sum_f32       = 0x14625e61055fe427ull;
  constexpr std::uint64_t recorded_sum_f64       = 0x552fc85893b08169ull;
  CHECK(inclusive_f32 == recorded_inclusive_f32);
  CHECK(exclusive_f64 == recorded_exclusive_f64);
  CHECK(sum_f32 == recorded_sum_f32);
  CHECK(sum_f64 == recorded_sum_f64);

  const auto f_item = [&](std::size_t i) {
    return f_in[i];
  };
  const auto d_item = [&](std::size_t i) {
    return d_in_h[i];
  };
  CHECK(hash_of(strata_test::fixed_order_scan<float, float>(f_item, n, strata_test::host_plus{}, true,
                                                            std::optional<float>()))
        == recorded_inclusive_f32);
  CHECK(hash_of(strata_test::fixed_order_scan<double, double>(d_item, n, strata_test::host_plus{}, false, 0.0))
        == recorded_exclusive_f64);
  CHECK(hash_of(
          std::vector<float>{strata_test::fixed_order_reduce<float, float>(f_item, n, strata_test::host_plus{}, 0.0f)})
        == recorded_sum_f32);
  CHECK(hash_of(std::vector<double>{
          strata_test::fixed_order_reduce<double, double>(d_item, n, strata_test::host_plus{}, 0.0)})
        == recorded_sum_f64);
}

TEST_CASE("DeviceScan gpu_to_gpu rejects bad arguments without writing", "[device][scan][gpu_to_gpu]")
{
  strata_test::device_buffer<float> d_in(std::vector<float>(1000, 1.0f));
  strata_test::device_buffer<float> d_out(1000);
  d_out.poison();
  const std::vector<float> before = d_out.download();
  std::size_t bytes               = 0;
  CHECK(strata::DeviceScan::InclusiveSum(nullptr, bytes, d_in.data(), d_out.data(), -1, strata::gpu_to_gpu)
        == cudaErrorInvalidValue);
  REQUIRE(strata::DeviceScan::InclusiveSum(nullptr, bytes, d_in.data(), d_out.data(), 1 << 20, strata::gpu_to_gpu)
          == cudaSuccess);
  REQUIRE(bytes > 0);
  strata_test::device_buffer<char> temp(bytes);
  std::size_t too_few = bytes - 1;
  CHECK(strata::DeviceScan::InclusiveSum(temp.data(), too_few, d_in.data(), d_out.data(), 1 << 20, strata::gpu_to_gpu)
        == cudaErrorInvalidValue);
  std::size_t enough = bytes;
  CHECK(strata::DeviceScan::ExclusiveSum(temp.data(), enough, static_cast<const float*>(nullptr), d_out.data(), 1000,
                                         strata::gpu_to_gpu)
        == cudaErrorInvalidValue);
  CHECK(strata::DeviceScan::InclusiveSum(temp.data(), enough, d_in.data(), static_cast<float*>(nullptr), 1000,
                                         strata::gpu_to_gpu)
        == cudaErrorInvalidValue);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  CHECK(same_bits(d_out.download(), before));
}

TEST_CASE("DeviceScan::InclusiveSum gpu_to_gpu past 2^31 items", "[device][scan][gpu_to_gpu][large]")
{
  const std::size_t n = (std::size_t(1) << 31) + 4099;
  const thrust::counting_iterator<long long> first(0);
  const auto items = thrust::make_transform_iterator(first, zero_mean{});
  strata_test::device_buffer<float> d_out(n);
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceScan::InclusiveSum(temp, bytes, items, d_out.data(), n, strata::gpu_to_gpu, s);
  });
  // Every partial sum is exact, so each result is the exact prefix sum whatever the order: this checks the offsets.
  const auto exact_prefix = [](std::size_t i) {
    long long eighths = 0;
    for (std::size_t j = (i + 1) / 1000 * 1000; j <= i; ++j)
    {
      eighths += 2 * static_cast<long long>((j * 37) % 1000) - 999;
    }
    return static_cast<float>(eighths) / 8.0f;
  };
  for (const std::size_t from : {std::size_t(0), (std::size_t(1) << 31) - 5000, n - 5000})
  {
    std::vector<float> got(5000);
    STRATA_TEST_CUDA(cudaMemcpy(got.data(), d_out.data() + from, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (std::size_t k = 0; k < got.size(); ++k)
    {
      if (got[k] != exact_prefix(from + k))
      {
        FAIL_CHECK("result " << from + k << " is " << got[k] << ", not " << exact_prefix(from + k));
        break;
      }
    }
  }
}
