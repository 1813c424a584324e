// DeviceReduce rejects bad input (too small temp_storage_bytes, a null input pointer with items to reduce, a null
// output pointer, a negative num_items) with cudaErrorInvalidValue before writing anything, at every entry point,
// on one tile and on several; a reduction of no items asks for one byte and writes the empty result CUB defines,
// also from a null input pointer (nothing is read through it).
#include <strata/device/device_reduce.cuh>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <cstdint>
#include <limits>
#include <vector>

namespace
{
constexpr int ONE_TILE = 100;    // the single-tile path: no temporary storage beyond the one byte
constexpr int N        = 100000; // several tiles: the two-pass path, with per-block partials in temporary storage

using pair_t = strata::KeyValuePair<int, int>;

struct negate
{
  __host__ __device__ int operator()(int x) const
  {
    return -x;
  }
};

// `call(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items)` runs one entry point on ints, writing an OutT.
template <typename OutT, typename Call>
void check_rejects_bad_input(Call call)
{
  for (int n : {ONE_TILE, N})
  {
    CAPTURE(n);
    const std::vector<int> h_in = strata_test::random_vector<int>(n, 1);
    strata_test::device_buffer<int> d_in(h_in);
    strata_test::device_buffer<OutT> d_out(1);
    int* const null_in   = nullptr;
    OutT* const null_out = nullptr;
    std::size_t bytes    = 0;
    REQUIRE(call(nullptr, bytes, d_in.data(), d_out.data(), n) == cudaSuccess);
    REQUIRE(bytes > 0);
    void* d_temp = nullptr;
    STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));

    std::size_t too_small = bytes - 1;
    CHECK(call(d_temp, too_small, d_in.data(), d_out.data(), n) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, null_in, d_out.data(), n) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, d_in.data(), null_out, n) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, d_in.data(), null_out, 0) == cudaErrorInvalidValue); // the empty result is written
    CHECK(call(d_temp, bytes, d_in.data(), d_out.data(), -5) == cudaErrorInvalidValue);
    std::size_t query = 0;
    CHECK(call(nullptr, query, d_in.data(), d_out.data(), -1) == cudaErrorInvalidValue);

    STRATA_TEST_SYNC();
    CHECK(strata_test::all_poisoned(d_out.download()));
    STRATA_REQUIRE_EQUAL_VECTORS(d_in.download(), h_in);
    STRATA_TEST_CUDA(cudaFree(d_temp));
  }
}

// `call(d_temp_storage, temp_storage_bytes, d_in, d_value_out, d_index_out, num_items)` runs one of the ArgMin /
// ArgMax entry points with separate value and index outputs.
template <typename Call>
void check_rejects_bad_input_split(Call call)
{
  for (int n : {ONE_TILE, N})
  {
    CAPTURE(n);
    const std::vector<int> h_in = strata_test::random_vector<int>(n, 2);
    strata_test::device_buffer<int> d_in(h_in);
    strata_test::device_buffer<int> d_value(1);
    strata_test::device_buffer<std::int64_t> d_index(1);
    int* const null_int            = nullptr;
    std::int64_t* const null_index = nullptr;
    std::size_t bytes              = 0;
    REQUIRE(call(nullptr, bytes, d_in.data(), d_value.data(), d_index.data(), n) == cudaSuccess);
    REQUIRE(bytes > 0);
    void* d_temp = nullptr;
    STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));

    std::size_t too_small = bytes - 1;
    CHECK(call(d_temp, too_small, d_in.data(), d_value.data(), d_index.data(), n) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, null_int, d_value.data(), d_index.data(), n) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, d_in.data(), null_int, d_index.data(), n) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, d_in.data(), d_value.data(), null_index, n) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, d_in.data(), null_int, d_index.data(), 0) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, d_in.data(), d_value.data(), null_index, 0) == cudaErrorInvalidValue);
    CHECK(call(d_temp, bytes, d_in.data(), d_value.data(), d_index.data(), -5) == cudaErrorInvalidValue);
    std::size_t query = 0;
    CHECK(call(nullptr, query, d_in.data(), d_value.data(), d_index.data(), -1) == cudaErrorInvalidValue);

    STRATA_TEST_SYNC();
    CHECK(strata_test::all_poisoned(d_value.download()));
    CHECK(strata_test::all_poisoned(d_index.download()));
    STRATA_REQUIRE_EQUAL_VECTORS(d_in.download(), h_in);
    STRATA_TEST_CUDA(cudaFree(d_temp));
  }
}

// A reduction of no items: the query asks for exactly one byte, and the run writes `expected`, also when the
// input pointer is null. `call(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, stream)`.
template <typename OutT, typename Call>
void check_empty(Call call, OutT expected)
{
  strata_test::device_buffer<int> d_in(strata_test::random_vector<int>(1, 3));
  strata_test::device_buffer<OutT> d_out(1);
  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, d_in.data(), d_out.data(), 0, cudaStream_t{0}) == cudaSuccess);
  CHECK(bytes == 1);
  strata_test::launch([&](void* temp, std::size_t& b, cudaStream_t s) {
    return call(temp, b, d_in.data(), d_out.data(), 0, s);
  });
  CHECK(d_out.download()[0] == expected);

  d_out.poison();
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, 1));
  std::size_t one = 1;
  CHECK(call(d_temp, one, static_cast<int*>(nullptr), d_out.data(), 0, cudaStream_t{0}) == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(d_out.download()[0] == expected);
  STRATA_TEST_CUDA(cudaFree(d_temp));
}

// check_empty for the ArgMin / ArgMax entry points with separate outputs: the value `expected_value` and the
// index 1. `call(d_temp_storage, temp_storage_bytes, d_in, d_value_out, d_index_out, num_items, stream)`.
template <typename Call>
void check_empty_split(Call call, int expected_value)
{
  strata_test::device_buffer<int> d_in(strata_test::random_vector<int>(1, 4));
  strata_test::device_buffer<int> d_value(1);
  strata_test::device_buffer<std::int64_t> d_index(1);
  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, d_in.data(), d_value.data(), d_index.data(), 0, cudaStream_t{0}) == cudaSuccess);
  CHECK(bytes == 1);
  strata_test::launch([&](void* temp, std::size_t& b, cudaStream_t s) {
    return call(temp, b, d_in.data(), d_value.data(), d_index.data(), 0, s);
  });
  CHECK(d_value.download()[0] == expected_value);
  CHECK(d_index.download()[0] == 1);

  d_value.poison();
  d_index.poison();
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, 1));
  std::size_t one = 1;
  CHECK(call(d_temp, one, static_cast<int*>(nullptr), d_value.data(), d_index.data(), 0, cudaStream_t{0})
        == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(d_value.download()[0] == expected_value);
  CHECK(d_index.download()[0] == 1);
  STRATA_TEST_CUDA(cudaFree(d_temp));
}
} // namespace

TEST_CASE("DeviceReduce rejects bad input before writing anything", "[device][reduce][errors]")
{
  SECTION("Sum")
  {
    check_rejects_bad_input<int>([](void* t, std::size_t& b, int* in, int* out, int n) {
      return strata::DeviceReduce::Sum(t, b, in, out, n);
    });
  }
  SECTION("Min")
  {
    check_rejects_bad_input<int>([](void* t, std::size_t& b, int* in, int* out, int n) {
      return strata::DeviceReduce::Min(t, b, in, out, n);
    });
  }
  SECTION("Max")
  {
    check_rejects_bad_input<int>([](void* t, std::size_t& b, int* in, int* out, int n) {
      return strata::DeviceReduce::Max(t, b, in, out, n);
    });
  }
  SECTION("ArgMin")
  {
    check_rejects_bad_input<pair_t>([](void* t, std::size_t& b, int* in, pair_t* out, int n) {
      return strata::DeviceReduce::ArgMin(t, b, in, out, n);
    });
  }
  SECTION("ArgMax")
  {
    check_rejects_bad_input<pair_t>([](void* t, std::size_t& b, int* in, pair_t* out, int n) {
      return strata::DeviceReduce::ArgMax(t, b, in, out, n);
    });
  }
  SECTION("ArgMin with separate value and index outputs")
  {
    check_rejects_bad_input_split([](void* t, std::size_t& b, int* in, int* value, std::int64_t* index, int n) {
      return strata::DeviceReduce::ArgMin(t, b, in, value, index, n);
    });
  }
  SECTION("ArgMax with separate value and index outputs")
  {
    check_rejects_bad_input_split([](void* t, std::size_t& b, int* in, int* value, std::int64_t* index, int n) {
      return strata::DeviceReduce::ArgMax(t, b, in, value, index, n);
    });
  }
  SECTION("Reduce")
  {
    check_rejects_bad_input<int>([](void* t, std::size_t& b, int* in, int* out, int n) {
      return strata::DeviceReduce::Reduce(t, b, in, out, n, cuda::maximum<>{}, 0);
    });
  }
  SECTION("TransformReduce")
  {
    check_rejects_bad_input<int>([](void* t, std::size_t& b, int* in, int* out, int n) {
      return strata::DeviceReduce::TransformReduce(t, b, in, out, n, cuda::std::plus<>{}, negate{}, 0);
    });
  }
}

TEST_CASE("DeviceReduce of no items asks for one byte and writes the empty result", "[device][reduce][errors]")
{
  constexpr int lowest  = std::numeric_limits<int>::lowest();
  constexpr int highest = std::numeric_limits<int>::max();
  SECTION("Sum")
  {
    check_empty(
      [](void* t, std::size_t& b, int* in, int* out, int n, cudaStream_t s) {
        return strata::DeviceReduce::Sum(t, b, in, out, n, s);
      },
      0);
  }
  SECTION("Min")
  {
    check_empty(
      [](void* t, std::size_t& b, int* in, int* out, int n, cudaStream_t s) {
        return strata::DeviceReduce::Min(t, b, in, out, n, s);
      },
      highest);
  }
  SECTION("Max")
  {
    check_empty(
      [](void* t, std::size_t& b, int* in, int* out, int n, cudaStream_t s) {
        return strata::DeviceReduce::Max(t, b, in, out, n, s);
      },
      lowest);
  }
  SECTION("ArgMin")
  {
    check_empty(
      [](void* t, std::size_t& b, int* in, pair_t* out, int n, cudaStream_t s) {
        return strata::DeviceReduce::ArgMin(t, b, in, out, n, s);
      },
      pair_t{1, highest});
  }
  SECTION("ArgMax")
  {
    check_empty(
      [](void* t, std::size_t& b, int* in, pair_t* out, int n, cudaStream_t s) {
        return strata::DeviceReduce::ArgMax(t, b, in, out, n, s);
      },
      pair_t{1, lowest});
  }
  SECTION("ArgMin with separate value and index outputs")
  {
    check_empty_split(
      [](void* t, std::size_t& b, int* in, int* value, std::int64_t* index, int n, cudaStream_t s) {
        return strata::DeviceReduce::ArgMin(t, b, in, value, index, n, s);
      },
      highest);
  }
  SECTION("ArgMax with separate value and index outputs")
  {
    check_empty_split(
      [](void* t, std::size_t& b, int* in, int* value, std::int64_t* index, int n, cudaStream_t s) {
        return strata::DeviceReduce::ArgMax(t, b, in, value, index, n, s);
      },
      lowest);
  }
  SECTION("Reduce")
  {
    check_empty(
      [](void* t, std::size_t& b, int* in, int* out, int n, cudaStream_t s) {
        return strata::DeviceReduce::Reduce(t, b, in, out, n, cuda::std::plus<>{}, 77, s);
      },
      77);
  }
  SECTION("TransformReduce")
  {
    check_empty(
      [](void* t, std::size_t& b, int* in, int* out, int n, cudaStream_t s) {
        return strata::DeviceReduce::TransformReduce(t, b, in, out, n, cuda::std::plus<>{}, negate{}, 77, s);
      },
      77);
  }
}
