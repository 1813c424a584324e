// The device algorithms' call forms, one family after another: the two-phase form on a stream, and the single-phase
// form whose last argument is an environment (none: strata's pool on the default stream; a cudaStream_t; a
// cuda::stream_ref; a policy, strata::par.on(s) or one holding its own allocator). The forms that compiled before the
// environment became a defaulted trailing argument (a policy last; a stream or a literal 0 last for DeviceFor and
// DeviceTransform) are among them, so this file also shows that those calls still compile. Each form's result is
// checked against a host reference; a single-phase call shows as one NVTX range, named after its entry point; a
// failing allocator fails the call with cudaErrorMemoryAllocation and nothing written.
#include "../execution/support.cuh"

#include <strata/device/device_for.cuh>
#include <strata/device/device_merge_sort.cuh>
#include <strata/device/device_radix_sort.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_scan.cuh>
#include <strata/device/device_transform.cuh>

#include <cuda/std/functional>
#include <cuda/std/tuple>
#include <cuda/stream_ref>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

namespace
{
using strata_test::device_buffer;

// The environments of the single-phase form, by index (a template-free loop over them).
constexpr int ENVIRONMENTS = 6;
const char* environment_name(int e)
{
  static const char* names[ENVIRONMENTS] = {"none",      "cudaStream_t",     "cuda::stream_ref",
                                            "par.on(s)", "par(alloc).on(s)", "two-phase"};
  return names[e];
}

// Runs `single(env)` with the environment number `e` (or `two_phase(stream)` for the last), on `stream`, and waits.
template <typename SingleT, typename TwoPhaseT>
void run_form(int e, cudaStream_t stream, exec_test::stream_allocator& alloc, SingleT&& single, TwoPhaseT&& two_phase)
{
  cudaError_t status = cudaSuccess;
  switch (e)
  {
    case 0:
      status = single(strata::detail::default_env{});
      break;
    case 1:
      status = single(stream);
      break;
    case 2:
      status = single(cuda::stream_ref{stream});
      break;
    case 3:
      status = single(strata::par.on(stream));
      break;
    case 4:
      status = single(strata::par(alloc).on(stream));
      break;
    default:
      status = two_phase(stream);
      break;
  }
  REQUIRE(status == cudaSuccess);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
}

// Two-phase: size query, storage, run, free.
template <typename CallT>
cudaError_t two_phase_call(cudaStream_t stream, CallT&& call)
{
  std::size_t bytes = 0;
  STRATA_RETURN_IF_ERROR(call(nullptr, bytes, stream));
  void* d_temp = nullptr;
  STRATA_RETURN_IF_ERROR(cudaMalloc(&d_temp, bytes));
  const cudaError_t status = call(d_temp, bytes, stream);
  cudaFree(d_temp);
  return status;
}

struct negate_op
{
  __host__ __device__ int operator()(int x) const
  {
    return -x;
  }
};
struct add_one
{
  __device__ void operator()(int& x) const
  {
    x += 1;
  }
};

// Integer addition as the device does it: wrapping.
struct wrap_plus
{
  int operator()(int a, int b) const
  {
    return static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b));
  }
};
int wrap_sum(const std::vector<int>& v)
{
  return std::accumulate(v.begin(), v.end(), 0, wrap_plus{});
}

const std::vector<std::size_t> SIZES = {0, 1, 1000, 100003};
} // namespace

TEST_CASE("DeviceReduce and DeviceScan in every call form", "[device][single_phase]")
{
  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  exec_test::stream_allocator alloc;
  for (const std::size_t n : SIZES)
  {
    const auto in = strata_test::random_vector<int>(n, 11 * n + 1);
    device_buffer<int> d_in(in);
    for (int e = 0; e < ENVIRONMENTS; ++e)
    {
      CAPTURE(n, environment_name(e));
      const int num = static_cast<int>(n);

      device_buffer<int> d_sum(1);
      run_form(
        e, stream, alloc,
        [&](const auto& env) {
          return strata::DeviceReduce::Sum(d_in.data(), d_sum.data(), num, env);
        },
        [&](cudaStream_t s) {
          return two_phase_call(s, [&](void* t, std::size_t& b, cudaStream_t st) {
            return strata::DeviceReduce::Sum(t, b, d_in.data(), d_sum.data(), num, st);
          });
        });
      REQUIRE(d_sum.download()[0] == wrap_sum(in));

      device_buffer<int> d_max(1);
      run_form(
        e, stream, alloc,
        [&](const auto& env) {
          return strata::DeviceReduce::Reduce(d_in.data(), d_max.data(), num, cuda::maximum<>{}, -7, env);
        },
        [&](cudaStream_t s) {
          return two_phase_call(s, [&](void* t, std::size_t& b, cudaStream_t st) {
            return strata::DeviceReduce::Reduce(t, b, d_in.data(), d_max.data(), num, cuda::maximum<>{}, -7, st);
          });
        });
      REQUIRE(d_max.download()[0] == std::max(-7, n ? *std::max_element(in.begin(), in.end()) : -7));

      // In place: the single-phase in-place form (d_data, num_items, env) next to (d_in, d_out, num_items, env).
      device_buffer<int> d_scan(in);
      run_form(
        e, stream, alloc,
        [&](const auto& env) {
          return strata::DeviceScan::InclusiveSum(d_scan.data(), num, env);
        },
        [&](cudaStream_t s) {
          return two_phase_call(s, [&](void* t, std::size_t& b, cudaStream_t st) {
            return strata::DeviceScan::InclusiveSum(t, b, d_scan.data(), num, st);
          });
        });
      REQUIRE(d_scan.download() == strata_test::reference_inclusive_scan(in, wrap_plus{}));

      device_buffer<int> d_excl(n);
      run_form(
        e, stream, alloc,
        [&](const auto& env) {
          return strata::DeviceScan::ExclusiveScan(d_in.data(), d_excl.data(), cuda::std::plus<>{}, 5, num, env);
        },
        [&](cudaStream_t s) {
          return two_phase_call(s, [&](void* t, std::size_t& b, cudaStream_t st) {
            return strata::DeviceScan::ExclusiveScan(t, b, d_in.data(), d_excl.data(), cuda::std::plus<>{}, 5, num, st);
          });
        });
      REQUIRE(d_excl.download() == strata_test::reference_exclusive_scan(in, 5, wrap_plus{}));

      // By key, with and without the equality operator before the environment.
      std::vector<int> keys(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        keys[i] = static_cast<int>(i / 7);
      }
      device_buffer<int> d_keys(keys);
      std::vector<int> expected(n);
      for (std::size_t i = 0; i < n; ++i)
      {
        expected[i] = (i % 7 == 0) ? 0 : static_cast<int>(static_cast<unsigned>(expected[i - 1]) + in[i - 1]);
      }
      for (const bool with_equality : {false, true})
      {
        device_buffer<int> d_by_key(n);
        run_form(
          e, stream, alloc,
          [&](const auto& env) {
            return with_equality
                   ? strata::DeviceScan::ExclusiveSumByKey(d_keys.data(), d_in.data(), d_by_key.data(), num,
                                                           cuda::std::equal_to<>{}, env)
                   : strata::DeviceScan::ExclusiveSumByKey(d_keys.data(), d_in.data(), d_by_key.data(), num, env);
          },
          [&](cudaStream_t s) {
            return two_phase_call(s, [&](void* t, std::size_t& b, cudaStream_t st) {
              return strata::DeviceScan::ExclusiveSumByKey(t, b, d_keys.data(), d_in.data(), d_by_key.data(), num,
                                                           cuda::std::equal_to<>{}, st);
            });
          });
        REQUIRE(d_by_key.download() == expected);
      }
    }
  }
  EXEC_TEST_REQUIRE_CLEAN(alloc.log(), stream);
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceRadixSort and DeviceMergeSort in every call form", "[device][single_phase]")
{
  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  exec_test::stream_allocator alloc;
  using R = strata::DeviceRadixSort;
  for (const std::size_t n : SIZES)
  {
    const auto keys = strata_test::random_vector<std::uint32_t>(n, 13 * n + 2);
    auto sorted     = keys;
    std::stable_sort(sorted.begin(), sorted.end());
    // The low 20 bits only, stable: the order of (key & 0xfffff).
    auto low = keys;
    std::stable_sort(low.begin(), low.end(), [](std::uint32_t a, std::uint32_t b) {
      return (a & 0xfffffu) < (b & 0xfffffu);
    });
    device_buffer<std::uint32_t> d_keys(keys);
    for (int e = 0; e < ENVIRONMENTS; ++e)
    {
      CAPTURE(n, environment_name(e));
      const int num = static_cast<int>(n);

      // In/out, the key's bits: (keys_in, keys_out, n[, env]).
      device_buffer<std::uint32_t> d_out(n);
      run_form(
        e, stream, alloc,
        [&](const auto& env) {
          return R::SortKeys(d_keys.data(), d_out.data(), num, env);
        },
        [&](cudaStream_t s) {
          return two_phase_call(s, [&](void* t, std::size_t& b, cudaStream_t st) {
            return R::SortKeys(t, b, d_keys.data(), d_out.data(), num, 0, 32, st);
          });
        });
      REQUIRE(d_out.download() == sorted);

      // DoubleBuffer, a bit range: (keys, n, begin_bit, end_bit[, env]).
      device_buffer<std::uint32_t> d_a(keys);
      device_buffer<std::uint32_t> d_b(n);
      strata::DoubleBuffer<std::uint32_t> buffers(d_a.data(), d_b.data());
      run_form(
        e, stream, alloc,
        [&](const auto& env) {
          return R::SortKeys(buffers, num, 0, 20, env);
        },
        [&](cudaStream_t s) {
          return two_phase_call(s, [&](void* t, std::size_t& b, cudaStream_t st) {
            return R::SortKeys(t, b, buffers, num, 0, 20, st);
          });
        });
      REQUIRE((buffers.Current() == d_a.data() ? d_a : d_b).download() == low);

      // Merge sort, descending: (keys, n, compare[, env]).
      device_buffer<std::uint32_t> d_merge(keys);
      run_form(
        e, stream, alloc,
        [&](const auto& env) {
          return strata::DeviceMergeSort::SortKeys(d_merge.data(), num, cuda::std::greater<>{}, env);
        },
        [&](cudaStream_t s) {
          return two_phase_call(s, [&](void* t, std::size_t& b, cudaStream_t st) {
            return strata::DeviceMergeSort::SortKeys(t, b, d_merge.data(), num, cuda::std::greater<>{}, st);
          });
        });
      REQUIRE(d_merge.download() == std::vector<std::uint32_t>(sorted.rbegin(), sorted.rend()));
    }
    // With no environment at all: the single-phase forms' defaulted last argument.
    device_buffer<std::uint32_t> d_out(n);
    REQUIRE(R::SortKeys(d_keys.data(), d_out.data(), static_cast<int>(n)) == cudaSuccess);
    REQUIRE(R::SortKeysDescending(d_keys.data(), d_out.data(), static_cast<int>(n), 0, 32) == cudaSuccess);
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    REQUIRE(d_out.download() == std::vector<std::uint32_t>(sorted.rbegin(), sorted.rend()));
  }
  EXEC_TEST_REQUIRE_CLEAN(alloc.log(), stream);
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceFor and DeviceTransform take a stream, a literal 0, a cuda::stream_ref or a policy",
          "[device][single_phase]")
{
  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const std::size_t n = 100003;
  const auto in       = strata_test::random_vector<int>(n, 17);
  const int num       = static_cast<int>(n);
  device_buffer<int> d_data(in);
  REQUIRE(strata::DeviceFor::ForEachN(d_data.data(), num, add_one{}) == cudaSuccess);
  REQUIRE(strata::DeviceFor::ForEachN(d_data.data(), num, add_one{}, 0) == cudaSuccess);
  // `stream` does not wait for the default stream (it is non-blocking): the next calls read what these two wrote.
  STRATA_TEST_CUDA(cudaStreamSynchronize(nullptr));
  REQUIRE(strata::DeviceFor::ForEachN(d_data.data(), num, add_one{}, stream) == cudaSuccess);
  REQUIRE(strata::DeviceFor::ForEachN(d_data.data(), num, add_one{}, cuda::stream_ref{stream}) == cudaSuccess);
  REQUIRE(strata::DeviceFor::ForEach(d_data.data(), d_data.data() + n, add_one{}, strata::par.on(stream))
          == cudaSuccess);
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  auto expected = in;
  for (int& x : expected)
  {
    x = static_cast<int>(static_cast<unsigned>(x) + 5u);
  }
  REQUIRE(d_data.download() == expected);

  device_buffer<int> d_out(n);
  for (int form = 0; form < 4; ++form)
  {
    CAPTURE(form);
    d_out.poison();
    cudaError_t status = cudaSuccess;
    switch (form)
    {
      case 0:
        status = strata::DeviceTransform::Transform(d_data.data(), d_out.data(), num, negate_op{});
        break;
      case 1:
        status = strata::DeviceTransform::Transform(d_data.data(), d_out.data(), num, negate_op{}, 0);
        break;
      case 2:
        status = strata::DeviceTransform::Transform(cuda::std::make_tuple(d_data.data()), d_out.data(), num,
                                                    negate_op{}, cuda::stream_ref{stream});
        break;
      default:
        status =
          strata::DeviceTransform::Transform(d_data.data(), d_out.data(), num, negate_op{}, strata::par.on(stream));
        break;
    }
    REQUIRE(status == cudaSuccess);
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    auto negated = expected;
    for (int& x : negated)
    {
      x = static_cast<int>(0u - static_cast<unsigned>(x));
    }
    REQUIRE(d_out.download() == negated);
  }
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("A single-phase device call shows as one NVTX range named after its entry point", "[device][single_phase]")
{
  const auto in = strata_test::random_vector<int>(5000, 19);
  device_buffer<int> d_in(in);
  device_buffer<int> d_out(1);
  exec_test::entries().clear();
  REQUIRE(strata::DeviceReduce::Sum(d_in.data(), d_out.data(), 5000) == cudaSuccess);
  REQUIRE(exec_test::entries().strata == std::vector<std::string>{"strata::DeviceReduce::Sum"});
  exec_test::entries().clear();
  REQUIRE(strata::DeviceRadixSort::SortKeysDescending(d_in.data(), d_out.data(), 1, strata::par) == cudaSuccess);
  REQUIRE(exec_test::entries().strata == std::vector<std::string>{"strata::DeviceRadixSort::SortKeysDescending"});
  exec_test::entries().clear();
  // Two calls in a row: two ranges.
  REQUIRE(strata::DeviceScan::ExclusiveSum(d_in.data(), 5000) == cudaSuccess);
  REQUIRE(strata::DeviceScan::ExclusiveSum(d_in.data(), 5000) == cudaSuccess);
  REQUIRE(exec_test::entries().strata
          == std::vector<std::string>{"strata::DeviceScan::ExclusiveSum", "strata::DeviceScan::ExclusiveSum"});
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
}

TEST_CASE("A single-phase device call whose allocator fails returns cudaErrorMemoryAllocation and writes nothing",
          "[device][single_phase]")
{
  const std::size_t n = 100003;
  const auto in       = strata_test::random_vector<int>(n, 23);
  device_buffer<int> d_in(in);
  device_buffer<int> d_out(n);
  for (const exec_test::failure how : {exec_test::failure::throws, exec_test::failure::returns_null})
  {
    exec_test::stream_allocator alloc;
    d_out.poison();
    // The next allocation fails (fail_at counts attempts from the call that sets it).
    alloc.log().fail_at(1, how);
    REQUIRE(strata::DeviceScan::InclusiveSum(d_in.data(), d_out.data(), static_cast<int>(n), strata::par(alloc))
            == cudaErrorMemoryAllocation);
    alloc.log().fail_at(1, how);
    REQUIRE(strata::DeviceRadixSort::SortKeys(d_in.data(), d_out.data(), static_cast<int>(n), strata::par(alloc))
            == cudaErrorMemoryAllocation);
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    REQUIRE(strata_test::all_poisoned(d_out.download()));
    REQUIRE(cudaGetLastError() == cudaSuccess);
  }
}
