// DeviceReduce's gpu_to_gpu forms: the result is the fixed order's (agent/agent_reduce_atoms.cuh), emulated on the
// host bit for bit, for every size class, under three policies of different blocks and grids, for aligned,
// misaligned and iterator inputs; so two GPUs that pass this test give the same bits.
#include <strata/device/device_reduce.cuh>

#include <cuda/functional>

#include <thrust/iterator/counting_iterator.h>

#include "device_launch.cuh"
#include "gpu_to_gpu_order.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace
{
template <typename T>
bool same_bits(const T& a, const T& b)
{
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <int THREADS, int MIN_BLOCKS_PER_SM, int MAX_BLOCKS_PER_SM>
struct atoms_hub
{
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using ReduceAtomsPolicy = strata::AgentReduceAtomsPolicy<THREADS, MIN_BLOCKS_PER_SM, MAX_BLOCKS_PER_SM>;
  };
  using MaxPolicy = Policy;
};

// The sum of d_in[0 .. n) under hub Hub.
template <typename Hub, typename T>
T sum_under(const T* d_in, std::size_t n)
{
  strata_test::device_buffer<T> d_out(1);
  d_out.poison();
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DispatchReduceGpuToGpu<const T*, T*, std::uint32_t, cuda::std::plus<>, T, T, strata::Identity,
                                          Hub>::Dispatch(temp, bytes, d_in, d_out.data(), static_cast<std::uint32_t>(n),
                                                         cuda::std::plus<>{}, T{}, strata::Identity{}, s);
  });
  return d_out.download()[0];
}

// An item of a counting sequence as a float, exactly on the host and the device.
struct spread
{
  STRATA_HOST_DEVICE float operator()(long long i) const
  {
    return static_cast<float>((i * 37) % 1000) * 0.25f - 100.0f;
  }
};

// TransformReduce of spread over 0 .. n - 1, against the fixed order's sum on the host.
void check_spread_sum(std::size_t n)
{
  strata_test::device_buffer<float> d_out(1);
  d_out.poison();
  const thrust::counting_iterator<long long> first(0);
  strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return strata::DeviceReduce::TransformReduce(temp, bytes, first, d_out.data(), n, cuda::std::plus<>{}, spread{},
                                                 0.0f, strata::gpu_to_gpu, s);
  });
  const float expected = strata_test::fixed_order_reduce<float, long long>(
    [](std::size_t i) {
      return spread{}(i);
    },
    n, strata_test::host_plus{}, 0.0f);
  CHECK(same_bits(d_out.download()[0], expected));
}
} // namespace

TEMPLATE_TEST_CASE("DeviceReduce::Sum gpu_to_gpu is the fixed order's sum for every size class",
                   "[device][reduce][gpu_to_gpu]", float, double, int)
{
  using T                        = TestType;
  constexpr std::size_t A        = strata::detail::reduce_atoms::atom_items_v<T>;
  std::vector<std::size_t> sizes = strata_test::test_sizes(A, std::size_t(1) << 22, 31);
  for (std::size_t n : strata_test::sizes_within_cap({A * A - 1, A * A + 1, A * A * 2 + A / 2}))
  {
    sizes.push_back(n); // three passes
  }
  for (std::size_t n : sizes)
  {
    CAPTURE(n);
    const std::vector<T> h_in = strata_test::random_vector<T>(n, n + 3);
    strata_test::device_buffer<T> d_in(h_in);
    strata_test::device_buffer<T> d_out(1);
    d_out.poison();
    const auto mode = (n % 3 == 0) ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceReduce::Sum(temp, bytes, d_in.data(), d_out.data(), static_cast<int>(n),
                                         strata::gpu_to_gpu, s);
      },
      mode);
    const T expected = strata_test::fixed_order_reduce<T, T>(
      [&](std::size_t i) {
        return h_in[i];
      },
      n, strata_test::host_plus{}, T{});
    const T got = d_out.download()[0];
    CHECK(same_bits(got, expected));
  }
}

TEST_CASE("DeviceReduce::Sum gpu_to_gpu gives the same bits under every policy and alignment",
          "[device][reduce][gpu_to_gpu]")
{
  // Full mantissas: any other order of the additions would show in the bits.
  const std::size_t n           = strata_test::sizes_within_cap({(std::size_t(1) << 24) + 17})[0];
  const std::vector<float> h_in = strata_test::full_mantissa_floats(n, 123);
  strata_test::device_buffer<float> d_in(h_in);
  const float expected = strata_test::fixed_order_reduce<float, float>(
    [&](std::size_t i) {
      return h_in[i];
    },
    n, strata_test::host_plus{}, 0.0f);
  const float small_blocks = sum_under<atoms_hub<64, 8, 1>>(d_in.data(), n);
  const float library      = sum_under<strata::detail::reduce_atoms::policy_hub>(d_in.data(), n);
  const float large_blocks = sum_under<atoms_hub<1024, 1, 2>>(d_in.data(), n);
  CHECK(same_bits(small_blocks, expected));
  CHECK(same_bits(library, expected));
  CHECK(same_bits(large_blocks, expected));

  // One item in: the pointer is no longer 16-byte aligned, so every atom is read item by item, in the same order.
  const float misaligned          = sum_under<strata::detail::reduce_atoms::policy_hub>(d_in.data() + 1, n - 1);
  const float expected_misaligned = strata_test::fixed_order_reduce<float, float>(
    [&](std::size_t i) {
      return h_in[i + 1];
    },
    n - 1, strata_test::host_plus{}, 0.0f);
  CHECK(same_bits(misaligned, expected_misaligned));

  // And run to run, as the default form is.
  for (int run = 0; run < 3; ++run)
  {
    CHECK(same_bits(sum_under<strata::detail::reduce_atoms::policy_hub>(d_in.data(), n), expected));
  }
}

TEST_CASE("DeviceReduce::Reduce and TransformReduce gpu_to_gpu take init, any operator and iterators",
          "[device][reduce][gpu_to_gpu]")
{
  for (std::size_t n : strata_test::sizes_within_cap({0, 1, 2047, 2049, 1000003, (std::size_t(1) << 23) + 5}))
  {
    CAPTURE(n);
    const std::vector<double> h_in = strata_test::random_vector<double>(n, n + 7);
    strata_test::device_buffer<double> d_in(h_in);
    strata_test::device_buffer<double> d_out(1);

    // Sums with an initial value.
    d_out.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceReduce::Reduce(temp, bytes, d_in.data(), d_out.data(), n, cuda::std::plus<>{}, 1.5,
                                          strata::gpu_to_gpu, s);
    });
    CHECK(same_bits(d_out.download()[0], strata_test::fixed_order_reduce<double, double>(
                                           [&](std::size_t i) {
                                             return h_in[i];
                                           },
                                           n, strata_test::host_plus{}, 1.5)));

    // The largest item (commutative and associative: any order gives it, and this one does).
    d_out.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceReduce::Reduce(temp, bytes, d_in.data(), d_out.data(), n, cuda::maximum<>{}, -1e300,
                                          strata::gpu_to_gpu, s);
    });
    double largest = -1e300;
    for (double x : h_in)
    {
      largest = std::max(largest, x);
    }
    CHECK(d_out.download()[0] == largest);

    // A transform over a counting iterator, into floats.
    check_spread_sum(n);
  }
}

TEST_CASE("DeviceReduce::Sum gpu_to_gpu rejects bad arguments without writing", "[device][reduce][gpu_to_gpu]")
{
  strata_test::device_buffer<float> d_in(std::vector<float>(1000, 1.0f));
  strata_test::device_buffer<float> d_out(1);
  d_out.poison();
  const std::vector<float> before = d_out.download();
  std::size_t bytes               = 0;
  CHECK(strata::DeviceReduce::Sum(nullptr, bytes, d_in.data(), d_out.data(), -1, strata::gpu_to_gpu)
        == cudaErrorInvalidValue);
  REQUIRE(strata::DeviceReduce::Sum(nullptr, bytes, d_in.data(), d_out.data(), 1 << 20, strata::gpu_to_gpu)
          == cudaSuccess);
  strata_test::device_buffer<char> temp(bytes);
  std::size_t too_few = bytes - 1;
  CHECK(strata::DeviceReduce::Sum(temp.data(), too_few, d_in.data(), d_out.data(), 1 << 20, strata::gpu_to_gpu)
        == cudaErrorInvalidValue);
  std::size_t enough = bytes;
  CHECK(strata::DeviceReduce::Sum(temp.data(), enough, static_cast<const float*>(nullptr), d_out.data(), 1000,
                                  strata::gpu_to_gpu)
        == cudaErrorInvalidValue);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  const std::vector<float> after = d_out.download();
  CHECK(std::memcmp(before.data(), after.data(), sizeof(float)) == 0);
}

TEST_CASE("DeviceReduce::TransformReduce gpu_to_gpu past 2^31 items", "[device][reduce][gpu_to_gpu][large]")
{
  check_spread_sum((std::size_t(1) << 31) + 2049);
}
