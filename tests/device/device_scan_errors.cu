// DeviceScan rejects bad input (too small temp_storage_bytes, a null pointer with items to scan, a negative
// num_items) with cudaErrorInvalidValue before writing anything, at every entry point; a scan of no items asks
// for one byte and writes nothing.
#include "device_scan_harness.cuh"

#include <vector>

namespace
{
constexpr int N = 100000; // several tiles, so the run would need tile state

using device_scan_test::all_poisoned;

// `call(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items)` runs one out-of-place entry point on ints.
template <typename Call>
void check_rejects_bad_input(Call call)
{
  const std::vector<int> h_in = strata_test::random_vector<int>(N, 1);
  strata_test::device_buffer<int> d_in(h_in);
  strata_test::device_buffer<int> d_out(N);
  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, d_in.data(), d_out.data(), N) == cudaSuccess);
  REQUIRE(bytes > 0);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));

  std::size_t too_small = bytes - 1;
  CHECK(call(d_temp, too_small, d_in.data(), d_out.data(), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, bytes, static_cast<int*>(nullptr), d_out.data(), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, bytes, d_in.data(), static_cast<int*>(nullptr), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, bytes, d_in.data(), d_out.data(), -5) == cudaErrorInvalidValue);
  std::size_t query = 0;
  CHECK(call(nullptr, query, d_in.data(), d_out.data(), -1) == cudaErrorInvalidValue);

  STRATA_TEST_SYNC();
  CHECK(all_poisoned(d_out.download()));
  STRATA_REQUIRE_EQUAL_VECTORS(d_in.download(), h_in);
  STRATA_TEST_CUDA(cudaFree(d_temp));
}

// `call(d_temp_storage, temp_storage_bytes, d_data, num_items)` runs one in-place entry point on ints.
template <typename Call>
void check_rejects_bad_input_in_place(Call call)
{
  const std::vector<int> h_data = strata_test::random_vector<int>(N, 2);
  strata_test::device_buffer<int> d_data(h_data);
  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, d_data.data(), N) == cudaSuccess);
  REQUIRE(bytes > 0);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));

  std::size_t too_small = bytes - 1;
  CHECK(call(d_temp, too_small, d_data.data(), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, bytes, static_cast<int*>(nullptr), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, bytes, d_data.data(), -5) == cudaErrorInvalidValue);
  std::size_t query = 0;
  CHECK(call(nullptr, query, d_data.data(), -1) == cudaErrorInvalidValue);

  STRATA_TEST_SYNC();
  STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(), h_data);
  STRATA_TEST_CUDA(cudaFree(d_temp));
}

// `call(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out, num_items)` runs one by-key
// entry point on int keys and values.
template <typename Call>
void check_rejects_bad_input_by_key(Call call)
{
  const std::vector<int> h_keys =
    device_scan_test::run_keys<int>(N, device_scan_test::key_pattern{"runs (1..3)", 1, 3}, 3);
  const std::vector<int> h_values = strata_test::random_vector<int>(N, 4);
  strata_test::device_buffer<int> d_keys(h_keys);
  strata_test::device_buffer<int> d_values(h_values);
  strata_test::device_buffer<int> d_out(N);
  int* const null   = nullptr;
  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, d_keys.data(), d_values.data(), d_out.data(), N) == cudaSuccess);
  REQUIRE(bytes > 0);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));

  std::size_t too_small = bytes - 1;
  CHECK(call(d_temp, too_small, d_keys.data(), d_values.data(), d_out.data(), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, bytes, null, d_values.data(), d_out.data(), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, bytes, d_keys.data(), null, d_out.data(), N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, bytes, d_keys.data(), d_values.data(), null, N) == cudaErrorInvalidValue);
  CHECK(call(d_temp, bytes, d_keys.data(), d_values.data(), d_out.data(), -5) == cudaErrorInvalidValue);
  std::size_t query = 0;
  CHECK(call(nullptr, query, d_keys.data(), d_values.data(), d_out.data(), -1) == cudaErrorInvalidValue);

  STRATA_TEST_SYNC();
  CHECK(all_poisoned(d_out.download()));
  STRATA_REQUIRE_EQUAL_VECTORS(d_keys.download(), h_keys);
  STRATA_REQUIRE_EQUAL_VECTORS(d_values.download(), h_values);
  STRATA_TEST_CUDA(cudaFree(d_temp));
}

// A scan of no items: the query asks for exactly one byte, the run succeeds and writes nothing, also with null
// pointers (nothing is read or written through them). `call(d_temp_storage, temp_storage_bytes, d_in, d_out,
// num_items, stream)`.
template <typename Call>
void check_empty(Call call)
{
  strata_test::device_buffer<int> d_in(strata_test::random_vector<int>(1, 5));
  strata_test::device_buffer<int> d_out(1);
  std::size_t bytes = 0;
  REQUIRE(call(nullptr, bytes, d_in.data(), d_out.data(), 0, cudaStream_t{0}) == cudaSuccess);
  CHECK(bytes == 1);
  strata_test::launch([&](void* temp, std::size_t& b, cudaStream_t s) {
    return call(temp, b, d_in.data(), d_out.data(), 0, s);
  });
  CHECK(all_poisoned(d_out.download()));

  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, 1));
  std::size_t one = 1;
  CHECK(call(d_temp, one, static_cast<int*>(nullptr), static_cast<int*>(nullptr), 0, cudaStream_t{0}) == cudaSuccess);
  STRATA_TEST_SYNC();
  STRATA_TEST_CUDA(cudaFree(d_temp));
}
} // namespace

TEST_CASE("DeviceScan rejects bad input before writing anything", "[device][scan][errors]")
{
  SECTION("ExclusiveSum")
  {
    check_rejects_bad_input([](void* t, std::size_t& b, int* in, int* out, int n) {
      return strata::DeviceScan::ExclusiveSum(t, b, in, out, n);
    });
  }
  SECTION("InclusiveSum")
  {
    check_rejects_bad_input([](void* t, std::size_t& b, int* in, int* out, int n) {
      return strata::DeviceScan::InclusiveSum(t, b, in, out, n);
    });
  }
  SECTION("ExclusiveScan")
  {
    check_rejects_bad_input([](void* t, std::size_t& b, int* in, int* out, int n) {
      return strata::DeviceScan::ExclusiveScan(t, b, in, out, cuda::maximum<>{}, 0, n);
    });
  }
  SECTION("InclusiveScan")
  {
    check_rejects_bad_input([](void* t, std::size_t& b, int* in, int* out, int n) {
      return strata::DeviceScan::InclusiveScan(t, b, in, out, cuda::maximum<>{}, n);
    });
  }
  SECTION("InclusiveScanInit")
  {
    check_rejects_bad_input([](void* t, std::size_t& b, int* in, int* out, int n) {
      return strata::DeviceScan::InclusiveScanInit(t, b, in, out, cuda::maximum<>{}, 0, n);
    });
  }
  SECTION("ExclusiveSum in place")
  {
    check_rejects_bad_input_in_place([](void* t, std::size_t& b, int* data, int n) {
      return strata::DeviceScan::ExclusiveSum(t, b, data, n);
    });
  }
  SECTION("InclusiveSum in place")
  {
    check_rejects_bad_input_in_place([](void* t, std::size_t& b, int* data, int n) {
      return strata::DeviceScan::InclusiveSum(t, b, data, n);
    });
  }
  SECTION("ExclusiveScan in place")
  {
    check_rejects_bad_input_in_place([](void* t, std::size_t& b, int* data, int n) {
      return strata::DeviceScan::ExclusiveScan(t, b, data, cuda::maximum<>{}, 0, n);
    });
  }
  SECTION("InclusiveScan in place")
  {
    check_rejects_bad_input_in_place([](void* t, std::size_t& b, int* data, int n) {
      return strata::DeviceScan::InclusiveScan(t, b, data, cuda::maximum<>{}, n);
    });
  }
  SECTION("ExclusiveSumByKey")
  {
    check_rejects_bad_input_by_key([](void* t, std::size_t& b, int* keys, int* values, int* out, int n) {
      return strata::DeviceScan::ExclusiveSumByKey(t, b, keys, values, out, n);
    });
  }
  SECTION("InclusiveSumByKey")
  {
    check_rejects_bad_input_by_key([](void* t, std::size_t& b, int* keys, int* values, int* out, int n) {
      return strata::DeviceScan::InclusiveSumByKey(t, b, keys, values, out, n);
    });
  }
  SECTION("ExclusiveScanByKey")
  {
    check_rejects_bad_input_by_key([](void* t, std::size_t& b, int* keys, int* values, int* out, int n) {
      return strata::DeviceScan::ExclusiveScanByKey(t, b, keys, values, out, cuda::maximum<>{}, 0, n);
    });
  }
  SECTION("InclusiveScanByKey")
  {
    check_rejects_bad_input_by_key([](void* t, std::size_t& b, int* keys, int* values, int* out, int n) {
      return strata::DeviceScan::InclusiveScanByKey(t, b, keys, values, out, cuda::maximum<>{}, n);
    });
  }
}

TEST_CASE("DeviceScan of no items asks for one byte and writes nothing", "[device][scan][errors]")
{
  // In-place calls scan d_out; by-key calls read d_in as both keys and values.
  SECTION("ExclusiveSum")
  {
    check_empty([](void* t, std::size_t& b, int* in, int* out, int n, cudaStream_t s) {
      return strata::DeviceScan::ExclusiveSum(t, b, in, out, n, s);
    });
  }
  SECTION("InclusiveSum")
  {
    check_empty([](void* t, std::size_t& b, int* in, int* out, int n, cudaStream_t s) {
      return strata::DeviceScan::InclusiveSum(t, b, in, out, n, s);
    });
  }
  SECTION("ExclusiveScan")
  {
    check_empty([](void* t, std::size_t& b, int* in, int* out, int n, cudaStream_t s) {
      return strata::DeviceScan::ExclusiveScan(t, b, in, out, cuda::maximum<>{}, 7, n, s);
    });
  }
  SECTION("InclusiveScan")
  {
    check_empty([](void* t, std::size_t& b, int* in, int* out, int n, cudaStream_t s) {
      return strata::DeviceScan::InclusiveScan(t, b, in, out, cuda::maximum<>{}, n, s);
    });
  }
  SECTION("InclusiveScanInit")
  {
    check_empty([](void* t, std::size_t& b, int* in, int* out, int n, cudaStream_t s) {
      return strata::DeviceScan::InclusiveScanInit(t, b, in, out, cuda::maximum<>{}, 7, n, s);
    });
  }
  SECTION("ExclusiveSum in place")
  {
    check_empty([](void* t, std::size_t& b, int*, int* out, int n, cudaStream_t s) {
      return strata::DeviceScan::ExclusiveSum(t, b, out, n, s);
    });
  }
  SECTION("InclusiveSum in place")
  {
    check_empty([](void* t, std::size_t& b, int*, int* out, int n, cudaStream_t s) {
      return strata::DeviceScan::InclusiveSum(t, b, out, n, s);
    });
  }
  SECTION("ExclusiveScan in place")
  {
    check_empty([](void* t, std::size_t& b, int*, int* out, int n, cudaStream_t s) {
      return strata::DeviceScan::ExclusiveScan(t, b, out, cuda::maximum<>{}, 7, n, s);
    });
  }
  SECTION("InclusiveScan in place")
  {
    check_empty([](void* t, std::size_t& b, int*, int* out, int n, cudaStream_t s) {
      return strata::DeviceScan::InclusiveScan(t, b, out, cuda::maximum<>{}, n, s);
    });
  }
  SECTION("ExclusiveSumByKey")
  {
    check_empty([](void* t, std::size_t& b, int* in, int* out, int n, cudaStream_t s) {
      return strata::DeviceScan::ExclusiveSumByKey(t, b, in, in, out, n, cuda::std::equal_to<>{}, s);
    });
  }
  SECTION("InclusiveSumByKey")
  {
    check_empty([](void* t, std::size_t& b, int* in, int* out, int n, cudaStream_t s) {
      return strata::DeviceScan::InclusiveSumByKey(t, b, in, in, out, n, cuda::std::equal_to<>{}, s);
    });
  }
  SECTION("ExclusiveScanByKey")
  {
    check_empty([](void* t, std::size_t& b, int* in, int* out, int n, cudaStream_t s) {
      return strata::DeviceScan::ExclusiveScanByKey(t, b, in, in, out, cuda::maximum<>{}, 7, n, cuda::std::equal_to<>{},
                                                    s);
    });
  }
  SECTION("InclusiveScanByKey")
  {
    check_empty([](void* t, std::size_t& b, int* in, int* out, int n, cudaStream_t s) {
      return strata::DeviceScan::InclusiveScanByKey(t, b, in, in, out, cuda::maximum<>{}, n, cuda::std::equal_to<>{},
                                                    s);
    });
  }
}
