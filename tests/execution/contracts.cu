// What the frontend and the device layer promise beyond their results: a Thrust algorithm whose temporary buffer the
// policy's allocator cannot give throws strata::cuda_error (not Thrust's bad_alloc); a scan of an empty range asks the
// allocator for nothing; reduce_into of an empty range writes init in stream order; an argument error leaves
// cudaGetLastError() clean, through the device layer and through the frontend; a stream of another device than the
// current one fails before anything is launched (on a machine with two GPUs or more; skipped on one with one).
#include "support.cuh"

#include <thrust/set_operations.h>

#include <cuda/std/functional>
#include <cuda/stream_ref>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <string>
#include <vector>

namespace
{
using exec_test::add_one;
using exec_test::twice;

// out[i] = i.
struct write_index
{
  int* out;
  __host__ __device__ void operator()(int i) const
  {
    out[i] = i;
  }
};

// A device entry point's answer to bad arguments: cudaErrorInvalidValue, with the runtime's last error left clean.
void require_refused(const char* name, cudaError_t error)
{
  INFO(name);
  CHECK(error == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaSuccess);
}

// The frontend's: strata::cuda_error (cudaErrorInvalidValue) naming the algorithm, the last error left clean.
template <typename Call>
void require_refused(const char* name, Call&& call)
{
  INFO(name);
  exec_test::require_cuda_error(call, cudaErrorInvalidValue, name);
  CHECK(cudaGetLastError() == cudaSuccess);
}
} // namespace

TEST_CASE("a Thrust algorithm whose temporary buffer the allocator cannot give throws strata::cuda_error",
          "[execution][thrust][allocator][errors]")
{
  // thrust::set_union: an algorithm strata does not implement, whose CUDA backend takes a temporary buffer.
  exec_test::logged_stream stream;
  const std::size_t n = 100003;
  std::vector<int> a  = strata_test::random_vector<int>(n, 21);
  std::vector<int> b  = strata_test::random_vector<int>(n, 22);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::vector<int> merged;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(merged));
  const thrust::device_vector<int> d_a = exec_test::upload(a);
  const thrust::device_vector<int> d_b = exec_test::upload(b);
  thrust::device_vector<int> out(2 * n, -1);

  for (const exec_test::failure how : {exec_test::failure::throws, exec_test::failure::returns_null})
  {
    CAPTURE(how == exec_test::failure::throws ? "the allocator throws" : "the allocator returns null");
    stream.alloc.log().clear();
    stream.alloc.log().fail_at(1, how);
    // strata::cuda_error, as every call through strata's policy throws (not Thrust's bad_alloc).
    exec_test::require_cuda_error(
      [&] {
        (void) thrust::set_union(stream.policy, d_a.begin(), d_a.end(), d_b.begin(), d_b.end(), out.begin());
      },
      cudaErrorMemoryAllocation, "strata::execution_policy: a Thrust algorithm's temporary buffer");
    stream.sync();
    CHECK(stream.alloc.log().failed() == 1);
    stream.require_clean();
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), std::vector<int>(2 * n, -1)); // nothing ran
  }

  stream.alloc.log().fail_at(0, exec_test::failure::none);
  stream.alloc.log().clear();
  const auto end = thrust::set_union(stream.policy, d_a.begin(), d_a.end(), d_b.begin(), d_b.end(), out.begin());
  stream.sync();
  REQUIRE(end - out.begin() == static_cast<std::ptrdiff_t>(merged.size()));
  out.resize(merged.size());
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), merged);
  CHECK(stream.alloc.log().allocations() >= 1);
  stream.require_clean();
}

TEST_CASE("a scan of an empty range asks the allocator for nothing and writes nothing", "[execution][scan][allocator]")
{
  exec_test::logged_stream stream;
  thrust::device_vector<int> in = exec_test::upload(std::vector<int>{3, 1, 4});
  thrust::device_vector<int> out(3);
  exec_test::poison(out);
  stream.close(std::chrono::seconds(10));
  strata::inclusive_scan(stream.policy, in.begin(), in.begin(), out.begin());
  strata::exclusive_scan(stream.policy, in.begin(), in.begin(), out.begin(), 5);
  strata::inclusive_scan_by_key(stream.policy, in.begin(), in.begin(), in.begin(), out.begin());
  CHECK(strata::DeviceScan::InclusiveSum(thrust::raw_pointer_cast(in.data()), thrust::raw_pointer_cast(out.data()), 0,
                                         stream.policy)
        == cudaSuccess);
  CHECK(stream.alloc.log().allocations() == 0);
  stream.open();
  stream.sync();
  CHECK_FALSE(stream.timed_out());
  CHECK(exec_test::all_poisoned(exec_test::download(out)));
  CHECK(stream.alloc.log().allocations() == 0);
  stream.require_clean();
}

TEST_CASE("reduce_into of an empty range writes init with a kernel on the policy's stream",
          "[execution][reduce][allocator]")
{
  exec_test::logged_stream stream;
  thrust::device_vector<int> in = exec_test::upload(std::vector<int>{3, 1, 4});
  thrust::device_vector<long long> sum(1);
  exec_test::poison(sum);
  stream.close(std::chrono::seconds(10));
  strata::reduce_into(stream.policy, in.begin(), in.begin(), sum.begin(), 42LL);
  // Enqueued behind the gate, not written from the host.
  CHECK(exec_test::all_poisoned(stream.peek(sum)));
  stream.open();
  stream.sync();
  CHECK_FALSE(stream.timed_out());
  CHECK(exec_test::download(sum)[0] == 42);
  CHECK(stream.alloc.log().allocations() == 0); // no temporary storage
  stream.require_clean();
}

TEST_CASE("an argument error of a device entry point leaves cudaGetLastError() clean", "[execution][errors][device]")
{
  exec_test::gated_stream stream;
  const cudaStream_t s            = stream.get();
  const int n                     = 1 << 20; // many tiles: the reduction needs temporary storage
  thrust::device_vector<int> data = exec_test::upload(strata_test::random_vector<int>(n, 31));
  thrust::device_vector<int> out(n);
  int* const in         = thrust::raw_pointer_cast(data.data());
  int* const d_out      = thrust::raw_pointer_cast(out.data());
  const int* const null = nullptr;
  STRATA_TEST_CUDA(cudaGetLastError()); // a clean start

  require_refused("DeviceReduce::Sum, null input", strata::DeviceReduce::Sum(null, d_out, n, s));
  require_refused("DeviceScan::InclusiveSum, negative count", strata::DeviceScan::InclusiveSum(in, d_out, -1, s));
  require_refused("DeviceRadixSort::SortKeys, end_bit past the key",
                  strata::DeviceRadixSort::SortKeys(in, d_out, n, 0, 33, s));
  require_refused("DeviceTransform::Transform, null output",
                  strata::DeviceTransform::Transform(in, static_cast<int*>(nullptr), n, twice{}, s));
  require_refused("DeviceFor::Bulk, negative shape", strata::DeviceFor::Bulk(-5, write_index{d_out}, s));
  std::size_t bytes = 0;
  REQUIRE(strata::DeviceReduce::Sum(nullptr, bytes, in, d_out, n, s) == cudaSuccess);
  REQUIRE(bytes > 1);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
  std::size_t too_few = bytes - 1;
  require_refused("DeviceReduce::Sum, too little temporary storage",
                  strata::DeviceReduce::Sum(d_temp, too_few, in, d_out, n, s));
  STRATA_TEST_CUDA(cudaFree(d_temp));
  stream.sync();
}

TEST_CASE("an argument error through the frontend leaves cudaGetLastError() clean", "[execution][errors]")
{
  exec_test::logged_stream stream;
  thrust::device_vector<int> data = exec_test::upload(strata_test::random_vector<int>(1000, 32));
  thrust::device_vector<int> out(1000);
  thrust::device_vector<long long> sum(1);
  exec_test::poison(out);
  STRATA_TEST_CUDA(cudaGetLastError()); // a clean start
  // Ranges whose last comes before their first: a negative count.
  const auto first = data.begin() + 10;
  const auto last  = data.begin();
  require_refused("strata::reduce", [&] {
    (void) strata::reduce(stream.policy, first, last, 0LL);
  });
  require_refused("strata::reduce_into", [&] {
    strata::reduce_into(stream.policy, first, last, sum.begin(), 0LL);
  });
  require_refused("strata::inclusive_scan", [&] {
    strata::inclusive_scan(stream.policy, first, last, out.begin());
  });
  require_refused("strata::transform", [&] {
    strata::transform(stream.policy, first, last, out.begin(), twice{});
  });
  require_refused("strata::for_each", [&] {
    strata::for_each(stream.policy, first, last, add_one{});
  });
  require_refused("strata::adjacent_difference", [&] {
    strata::adjacent_difference(stream.policy, first, last, out.begin());
  });
  require_refused("strata::find_if", [&] {
    (void) strata::find_if(stream.policy, first, last, exec_test::is_odd{});
  });
  require_refused("strata::mismatch", [&] {
    (void) strata::mismatch(stream.policy, first, last, data.begin());
  });
  require_refused("strata::adjacent_find", [&] {
    (void) strata::adjacent_find(stream.policy, first, last);
  });
  require_refused("strata::lower_bound", [&] {
    strata::lower_bound(stream.policy, data.begin(), data.end(), first, last, out.begin());
  });
  stream.sync();
  CHECK(exec_test::all_poisoned(exec_test::download(out)));
  stream.require_clean();
}

// -- streams of another device -----------------------------------------------------------------------------------

namespace
{
// Makes `device` current for a scope.
class device_scope
{
public:
  explicit device_scope(int device)
  {
    STRATA_TEST_CUDA(cudaGetDevice(&previous_));
    STRATA_TEST_CUDA(cudaSetDevice(device));
  }
  device_scope(const device_scope&)            = delete;
  device_scope& operator=(const device_scope&) = delete;
  ~device_scope()
  {
    cudaSetDevice(previous_);
  }

private:
  int previous_ = 0;
};

// Inputs on the current device, outputs poisoned.
struct home_data
{
  static constexpr int n         = 1 << 20;
  std::vector<int> h             = strata_test::random_vector<int>(n, 41);
  thrust::device_vector<int> in  = exec_test::upload(h);
  thrust::device_vector<int> out = [] {
    thrust::device_vector<int> v(n);
    exec_test::poison(v);
    return v;
  }();
  thrust::device_vector<long long> sum = [] {
    thrust::device_vector<long long> v(1);
    exec_test::poison(v);
    return v;
  }();
  int* d_in()
  {
    return thrust::raw_pointer_cast(in.data());
  }
  int* d_out()
  {
    return thrust::raw_pointer_cast(out.data());
  }
  long long* d_sum()
  {
    return thrust::raw_pointer_cast(sum.data());
  }
  // Nothing was written, and the input is intact.
  void require_untouched()
  {
    exec_test::settle();
    CHECK(exec_test::all_poisoned(exec_test::download(out)));
    CHECK(exec_test::all_poisoned(exec_test::download(sum)));
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(in), h);
  }
};
} // namespace

TEST_CASE("a single-phase device call on a stream of another device fails before anything is launched",
          "[execution][errors][device][multi_gpu]")
{
  const exec_test::other_device_stream other;
  const cudaStream_t s = other.get();
  home_data data;
  exec_test::stream_allocator alloc;
  STRATA_TEST_CUDA(cudaGetLastError());
  require_refused("DeviceReduce::Sum, a cudaStream_t",
                  strata::DeviceReduce::Sum(data.d_in(), data.d_sum(), home_data::n, s));
  require_refused("DeviceReduce::Sum, a cuda::stream_ref",
                  strata::DeviceReduce::Sum(data.d_in(), data.d_sum(), home_data::n, cuda::stream_ref{s}));
  require_refused("DeviceScan::InclusiveSum, a policy with an allocator",
                  strata::DeviceScan::InclusiveSum(data.d_in(), data.d_out(), home_data::n, strata::par(alloc).on(s)));
  require_refused("DeviceRadixSort::SortKeys",
                  strata::DeviceRadixSort::SortKeys(data.d_in(), data.d_out(), home_data::n, s));
  CHECK(alloc.log().allocations() == 0);
  data.require_untouched();
}

TEST_CASE("DeviceFor and DeviceTransform on a stream of another device fail before anything is launched",
          "[execution][errors][device][multi_gpu]")
{
  const exec_test::other_device_stream other;
  const cudaStream_t s = other.get();
  home_data data;
  STRATA_TEST_CUDA(cudaGetLastError());
  require_refused("DeviceFor::Bulk", strata::DeviceFor::Bulk(home_data::n, write_index{data.d_out()}, s));
  require_refused("DeviceFor::ForEachN", strata::DeviceFor::ForEachN(data.d_out(), home_data::n, add_one{}, s));
  require_refused("DeviceTransform::Transform",
                  strata::DeviceTransform::Transform(data.d_in(), data.d_out(), home_data::n, twice{},
                                                     strata::par.on(s)));
  data.require_untouched();
}

TEST_CASE("the frontend on a stream of another device throws strata::cuda_error naming the algorithm",
          "[execution][errors][multi_gpu]")
{
  const exec_test::other_device_stream other;
  home_data data;
  exec_test::stream_allocator alloc;
  const auto policy = strata::par(alloc).on(other.get());
  require_refused("strata::reduce", [&] {
    (void) strata::reduce(policy, data.in.begin(), data.in.end(), 0LL);
  });
  require_refused("strata::reduce_into", [&] {
    strata::reduce_into(policy, data.in.begin(), data.in.end(), data.sum.begin(), 0LL);
  });
  require_refused("strata::inclusive_scan", [&] {
    strata::inclusive_scan(policy, data.in.begin(), data.in.end(), data.out.begin());
  });
  require_refused("strata::sort", [&] {
    strata::sort(policy, data.out.begin(), data.out.end());
  });
  require_refused("strata::transform", [&] {
    strata::transform(policy, data.in.begin(), data.in.end(), data.out.begin(), twice{});
  });
  require_refused("strata::for_each", [&] {
    strata::for_each(policy, data.out.begin(), data.out.end(), add_one{});
  });
  require_refused("strata::fill", [&] {
    strata::fill(policy, data.out.begin(), data.out.end(), 7);
  });
  require_refused("strata::adjacent_difference", [&] {
    strata::adjacent_difference(policy, data.out.begin(), data.out.end(), data.out.begin());
  });
  require_refused("strata::find", [&] {
    (void) strata::find(policy, data.in.begin(), data.in.end(), 7);
  });
  require_refused("strata::mismatch", [&] {
    (void) strata::mismatch(policy, data.in.begin(), data.in.end(), data.in.begin());
  });
  CHECK(alloc.log().allocations() == 0);
  data.require_untouched();
}

TEST_CASE("a stream of another device serves once its device is current", "[execution][multi_gpu]")
{
  const exec_test::other_device_stream other;
  const std::vector<int> h = strata_test::random_vector<int>(1 << 20, 43);
  const long long expected = std::accumulate(h.begin(), h.end(), 0LL);
  const device_scope there(other.device());
  {
    thrust::device_vector<int> in = exec_test::upload(h);
    thrust::device_vector<long long> sum(1);
    CHECK(strata::DeviceReduce::Sum(thrust::raw_pointer_cast(in.data()), thrust::raw_pointer_cast(sum.data()),
                                    static_cast<int>(h.size()), other.get())
          == cudaSuccess);
    STRATA_TEST_CUDA(cudaStreamSynchronize(other.get()));
    CHECK(exec_test::download(sum)[0] == expected);
    CHECK(strata::reduce(strata::par.on(other.get()), in.begin(), in.end(), 0LL) == expected);
    strata::for_each(strata::par.on(other.get()), in.begin(), in.end(), add_one{});
    STRATA_TEST_CUDA(cudaStreamSynchronize(other.get()));
    CHECK(strata::reduce(strata::par.on(other.get()), in.begin(), in.end(), 0LL)
          == expected + static_cast<long long>(h.size()));
  }
}
