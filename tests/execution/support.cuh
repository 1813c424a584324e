// Shared by the tests of strata's frontend (tests/execution/*.cu), header-only. Include it first: it installs the
// NVTX hooks before any strata, Thrust or CUB header is seen.
//
// - entries(): the strata and CUB entry points that opened on this thread (which implementation ran).
// - allocation_log and the test allocators of every kind a policy accepts (stream-ordered, libcu++ asynchronous and
//   synchronous resources, Thrust-style): each records every allocation and deallocation with its bytes, stream and
//   thread, checks that what is given back was handed out, and can be told to fail (throw, or return null) at the
//   k-th allocation.
// - gated_stream: a non-blocking stream with a kernel on it that waits for the host (or a timeout). An asynchronous
//   call enqueued behind the gate must return with its output untouched (it neither waited nor ran elsewhere); an
//   input copied in behind the gate is seen only by kernels ordered after the gate on that stream.
// - host references (wrapping integer sums, as the device computes them) and helpers for device vectors.
#pragma once

#if defined(STRATA_DETAIL_BEFORE_NVTX_RANGE) || defined(CUB_DETAIL_BEFORE_NVTX_RANGE_SCOPE)
#  error "include tests/execution/support.cuh before any strata, Thrust or CUB header"
#endif

#include <nv/target>

#include <string>
#include <vector>

namespace exec_test
{
// The names of the entry points that opened on this thread, in order.
struct entry_log
{
  std::vector<std::string> strata;
  std::vector<std::string> cub;
  void clear()
  {
    strata.clear();
    cub.clear();
  }
};
inline entry_log& entries()
{
  thread_local entry_log log;
  return log;
}
inline void record_strata_entry(const char* name)
{
  entries().strata.emplace_back(name);
}
inline void record_cub_entry(const char* name)
{
  entries().cub.emplace_back(name);
}
} // namespace exec_test

// strata's hook runs in host code only; CUB's sits in functions that may also be compiled for the device.
#define STRATA_DETAIL_BEFORE_NVTX_RANGE(name) ::exec_test::record_strata_entry(name)
#define CUB_DETAIL_BEFORE_NVTX_RANGE_SCOPE(name) NV_IF_TARGET(NV_IS_HOST, (::exec_test::record_cub_entry(name);))

#include <strata/execution/execution.cuh>

#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>

#include <cuda/stream_ref>

#include "test_util.cuh"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <random>
#include <sstream>
#include <thread>
#include <type_traits>
#include <utility>

namespace exec_test
{
// -- sizes and values ----------------------------------------------------------------------------------------

// The largest input of the size sweeps: 2^21 items (32 MiB of custom_t), past 2^20 + 1 and 1000003.
constexpr std::size_t MAX_ITEMS = std::size_t(1) << 21;

// The tile of DeviceReduce's newest tuning for a sum of T (the frontend's reductions run on it).
template <typename T>
constexpr std::size_t reduce_tile()
{
  return strata::detail::reduce::policy_hub<T, T, cuda::std::plus<>>::MaxPolicy::ReducePolicy::TILE_ITEMS;
}

// The tile of DeviceScan's newest tuning for a scan with accumulator AccumT.
template <typename AccumT, typename ScanOpT = cuda::std::plus<>>
constexpr std::size_t scan_tile()
{
  return strata::detail::scan::policy_hub<AccumT, ScanOpT>::MaxPolicy::ScanPolicy::TILE_ITEMS;
}

// An operator of any arity, for naming agent types whose tile does not depend on the operator.
struct any_arity_op
{
  template <typename... Args>
  __host__ __device__ int operator()(const Args&...) const
  {
    return 0;
  }
};

// The tile of DeviceTransform's newest tuning for an output OutputIteratorT and inputs InputIteratorsT (items of
// the widest array per 16-byte vector, times the vectors of a block).
template <typename OutputIteratorT, typename... InputIteratorsT>
constexpr std::size_t transform_tile()
{
  using Policy = strata::detail::transform::policy_hub::MaxPolicy::TransformPolicy;
  return strata::AgentTransform<Policy, std::uint32_t, any_arity_op, OutputIteratorT, InputIteratorsT...>::TILE_ITEMS;
}

// The size classes of STYLE.md around `tile`: 0, 1, tile-1, tile, tile+1, primes, 2^k±1 and random sizes.
inline std::vector<std::size_t> sizes(std::size_t tile, std::uint64_t salt)
{
  return strata_test::test_sizes(tile, MAX_ITEMS, salt);
}

// a + b, integers wrapping modulo 2^bits (the device's sums of narrow or large integers wrap the same way): the sum
// of the 64-bit images, cut back to T. Every other type with its own +.
struct host_sum
{
  template <typename T>
  T operator()(const T& a, const T& b) const
  {
    if constexpr (std::is_integral<T>::value)
    {
      return static_cast<T>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
    }
    else
    {
      return a + b;
    }
  }
};

// -- operators shared by the tests (functors: the library's device code takes no lambdas) ---------------------

// x + x (an int for narrow integers, as x + x is in C++).
struct twice
{
  template <typename T>
  __host__ __device__ auto operator()(const T& x) const -> decltype(x + x)
  {
    return x + x;
  }
};

// a + b.
struct add_pair
{
  template <typename T>
  __host__ __device__ auto operator()(const T& a, const T& b) const -> decltype(a + b)
  {
    return a + b;
  }
};

struct is_odd
{
  template <typename T>
  __host__ __device__ bool operator()(const T& x) const
  {
    return (x & 1) != 0;
  }
};

// Adds one to the item, in place.
struct add_one
{
  template <typename T>
  __host__ __device__ void operator()(T& x) const
  {
    x = static_cast<T>(x + 1);
  }
};

// A generator: `value` for every call.
template <typename T>
struct returns
{
  T value;
  __host__ __device__ T operator()() const
  {
    return value;
  }
};

// The value types whose code paths differ in the frontend: 1-, 4- and 8-byte integers, float, double and a 16-byte
// struct; and a shorter list for algorithms whose code path depends less on the type.
#define EXEC_TEST_TYPES std::int8_t, std::int32_t, std::int64_t, float, double, strata_test::custom_t
#define EXEC_TEST_FEW_TYPES std::int8_t, std::int32_t, double, strata_test::custom_t

// A random value of T from a generator salted with `salt`.
template <typename T>
T random_init(std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  return strata_test::random_value<T>(rng);
}

// -- device vectors ------------------------------------------------------------------------------------------

// Waits for everything enqueued so far on any stream (uploads and memsets run on the legacy stream, which the
// non-blocking streams of these tests do not wait for).
inline void settle()
{
  STRATA_TEST_CUDA(cudaGetLastError());
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
}

template <typename T>
thrust::device_vector<T> upload(const std::vector<T>& host)
{
  thrust::device_vector<T> d(host.begin(), host.end());
  settle();
  return d;
}

// Overwrites the items of `d` (same size) with `host`, keeping its storage (iterators into it stay valid).
template <typename T>
void upload_into(thrust::device_vector<T>& d, const std::vector<T>& host)
{
  REQUIRE(d.size() == host.size());
  if (!host.empty())
  {
    STRATA_TEST_CUDA(
      cudaMemcpy(thrust::raw_pointer_cast(d.data()), host.data(), sizeof(T) * host.size(), cudaMemcpyHostToDevice));
  }
  settle();
}

template <typename T>
std::vector<T> download(const thrust::device_vector<T>& d)
{
  settle();
  std::vector<T> host(d.size());
  if (!host.empty())
  {
    STRATA_TEST_CUDA(
      cudaMemcpy(host.data(), thrust::raw_pointer_cast(d.data()), sizeof(T) * d.size(), cudaMemcpyDeviceToHost));
  }
  return host;
}

// Every byte of `d` set to strata_test::poison_byte (elements an algorithm failed to write are caught).
template <typename T>
void poison(thrust::device_vector<T>& d)
{
  if (!d.empty())
  {
    STRATA_TEST_CUDA(cudaMemset(thrust::raw_pointer_cast(d.data()), strata_test::poison_byte, sizeof(T) * d.size()));
  }
  settle();
}

// A value of T whose every byte is the poison byte.
template <typename T>
T poisoned_value()
{
  T v;
  std::memset(static_cast<void*>(&v), strata_test::poison_byte, sizeof(T));
  return v;
}

using strata_test::all_poisoned;

// `f(first, last)` over the items of `d` three ways: raw pointers, thrust::device_ptr and device_vector iterators
// (the frontend unwraps the last two to pointers, so all three run the same kernels). Under compute-sanitizer
// (strata_test::sanitizer_run()), raw pointers only: the other two would run the same kernels twice more, and
// the unwrapping they test is host code, which the ordinary test run covers.
template <typename T, typename F>
void for_each_input_kind(thrust::device_vector<T>& d, F&& f)
{
  T* const raw = thrust::raw_pointer_cast(d.data());
  {
    INFO("input: raw pointers");
    f(raw, raw + d.size());
  }
  if (strata_test::sanitizer_run())
  {
    return;
  }
  {
    INFO("input: thrust::device_ptr");
    f(thrust::device_ptr<T>(raw), thrust::device_ptr<T>(raw) + d.size());
  }
  {
    INFO("input: thrust::device_vector iterators");
    f(d.begin(), d.end());
  }
}

template <typename It>
struct is_device_ptr : std::false_type
{};
template <typename U>
struct is_device_ptr<thrust::device_ptr<U>> : std::true_type
{};

// An output iterator to `out` of the same kind as the input iterator `first` (a raw pointer, a thrust::device_ptr
// or a device_vector iterator), to pair with for_each_input_kind.
template <typename It, typename T>
auto output_like(It, thrust::device_vector<T>& out)
{
  T* const raw = thrust::raw_pointer_cast(out.data());
  if constexpr (std::is_pointer<It>::value)
  {
    return raw;
  }
  else if constexpr (is_device_ptr<It>::value)
  {
    return thrust::device_ptr<T>(raw);
  }
  else
  {
    return out.begin();
  }
}

// One of T: the step by which a decoy differs from the real data.
template <typename T>
T one()
{
  if constexpr (std::is_same<T, strata_test::custom_t>::value)
  {
    return strata_test::custom_t{1, 1, 1};
  }
  else
  {
    return T(1);
  }
}

// `real` with its first item changed: the data a kernel sees if it runs before a copy of `real` enqueued on the
// policy's stream. Arithmetic items and custom_t get one added (every sum and prefix of the decoy differs from the
// real one); other types get the lowest bit of their first byte flipped.
template <typename T>
std::vector<T> decoy_of(std::vector<T> real)
{
  if (!real.empty())
  {
    if constexpr (std::is_arithmetic<T>::value || std::is_same<T, strata_test::custom_t>::value)
    {
      real[0] = real[0] + one<T>();
    }
    else
    {
      unsigned char first_byte = 0;
      std::memcpy(&first_byte, &real[0], 1);
      first_byte ^= 1u;
      std::memcpy(static_cast<void*>(&real[0]), &first_byte, 1);
    }
  }
  return real;
}

// -- test allocators -------------------------------------------------------------------------------------------

enum class failure
{
  none,
  throws,      // allocate throws std::bad_alloc
  returns_null // allocate returns a null pointer
};

// One call a test allocator saw.
struct allocation_record
{
  bool is_allocation; // false: a deallocation
  void* ptr;
  std::size_t bytes;
  cudaStream_t stream; // nullptr for allocators that are given no stream
  std::thread::id thread;
};

// What a test allocator saw, shared by its copies (a policy may hold a copy); thread-safe.
class allocation_log
{
public:
  // The k-th allocation from now (1-based) fails as `how`; k == 0: none fails.
  void fail_at(std::size_t k, failure how)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    attempts_ = 0;
    fail_at_  = k;
    how_      = how;
  }

  // Called by an allocator before it allocates: how this attempt must fail, if it must.
  failure next_attempt()
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++attempts_;
    if (fail_at_ != 0 && attempts_ == fail_at_)
    {
      ++failed_;
      return how_;
    }
    return failure::none;
  }

  void allocated(void* ptr, std::size_t bytes, cudaStream_t stream)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    records_.push_back({true, ptr, bytes, stream, std::this_thread::get_id()});
    live_[ptr] = {bytes, stream};
    outstanding_ += bytes;
    peak_ = std::max(peak_, outstanding_);
  }

  void deallocated(void* ptr, std::size_t bytes, cudaStream_t stream)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    records_.push_back({false, ptr, bytes, stream, std::this_thread::get_id()});
    const auto it = live_.find(ptr);
    std::ostringstream problem;
    if (it == live_.end())
    {
      problem << "deallocate(" << ptr << ", " << bytes << ") of memory this allocator did not hand out; ";
    }
    else
    {
      if (it->second.first != bytes)
      {
        problem << "deallocate(" << ptr << ") of " << bytes << " bytes, allocated as " << it->second.first << "; ";
      }
      if (it->second.second != stream)
      {
        problem << "deallocate(" << ptr << ") on stream " << static_cast<void*>(stream) << ", allocated on "
                << static_cast<void*>(it->second.second) << "; ";
      }
      outstanding_ -= it->second.first;
      live_.erase(it);
    }
    errors_ += problem.str();
  }

  // Records a problem an allocator found (such as memory given back before the work using it was done).
  void problem(const std::string& what)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    errors_ += what + "; ";
  }

  void clear()
  {
    std::lock_guard<std::mutex> lock(mutex_);
    records_.clear();
    live_.clear();
    errors_.clear();
    outstanding_ = 0;
    peak_        = 0;
    failed_      = 0;
  }

  std::vector<allocation_record> records() const
  {
    std::lock_guard<std::mutex> lock(mutex_);
    return records_;
  }
  std::size_t allocations() const
  {
    return count(true);
  }
  std::size_t deallocations() const
  {
    return count(false);
  }
  std::size_t failed() const
  {
    std::lock_guard<std::mutex> lock(mutex_);
    return failed_;
  }
  std::size_t bytes_outstanding() const
  {
    std::lock_guard<std::mutex> lock(mutex_);
    return outstanding_;
  }
  std::size_t peak_bytes() const
  {
    std::lock_guard<std::mutex> lock(mutex_);
    return peak_;
  }

  // Everything wrong with what was seen, or "" when nothing is: a deallocation that does not match an allocation,
  // memory not given back, a call on another stream than `stream` (unless check_stream is false).
  std::string problems(cudaStream_t stream, bool check_stream = true) const
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::ostringstream out;
    out << errors_;
    if (!live_.empty())
    {
      out << live_.size() << " allocation(s) never given back (" << outstanding_ << " bytes); ";
    }
    if (check_stream)
    {
      for (const allocation_record& r : records_)
      {
        if (r.stream != stream)
        {
          out << (r.is_allocation ? "allocate" : "deallocate") << "(" << r.bytes << " bytes) on stream "
              << static_cast<void*>(r.stream) << " instead of " << static_cast<void*>(stream) << "; ";
        }
      }
    }
    return out.str();
  }

private:
  std::size_t count(bool allocations) const
  {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<std::size_t>(std::count_if(records_.begin(), records_.end(), [&](const allocation_record& r) {
      return r.is_allocation == allocations;
    }));
  }

  mutable std::mutex mutex_;
  std::vector<allocation_record> records_;
  std::map<void*, std::pair<std::size_t, cudaStream_t>> live_;
  std::string errors_;
  std::size_t outstanding_ = 0;
  std::size_t peak_        = 0;
  std::size_t attempts_    = 0;
  std::size_t fail_at_     = 0;
  std::size_t failed_      = 0;
  failure how_             = failure::none;
};

// Checks that the log saw no problem on `stream` (see allocation_log::problems).
#define EXEC_TEST_REQUIRE_CLEAN(log, stream)                        \
  do                                                                \
  {                                                                 \
    const std::string exec_test_problems_ = (log).problems(stream); \
    INFO("allocator: " << exec_test_problems_);                     \
    REQUIRE(exec_test_problems_.empty());                           \
  } while (false)

// The part every test allocator shares: the log, and the failure it was told to give.
class logging_allocator_base
{
public:
  logging_allocator_base()
      : log_(std::make_shared<allocation_log>())
  {}
  allocation_log& log() const
  {
    return *log_;
  }

protected:
  // false: the caller must return null; throws for failure::throws.
  bool may_allocate() const
  {
    switch (log_->next_attempt())
    {
      case failure::throws:
        throw std::bad_alloc();
      case failure::returns_null:
        return false;
      case failure::none:
        break;
    }
    return true;
  }

  std::shared_ptr<allocation_log> log_;
};

// A stream-ordered allocator: allocate(bytes, stream) / deallocate(ptr, bytes, stream) over cudaMallocAsync.
class stream_allocator : public logging_allocator_base
{
public:
  void* allocate(std::size_t bytes, cudaStream_t stream)
  {
    if (!may_allocate())
    {
      return nullptr;
    }
    void* ptr = nullptr;
    if (cudaMallocAsync(&ptr, bytes, stream) != cudaSuccess)
    {
      return nullptr;
    }
    log_->allocated(ptr, bytes, stream);
    return ptr;
  }
  void deallocate(void* ptr, std::size_t bytes, cudaStream_t stream)
  {
    log_->deallocated(ptr, bytes, stream);
    cudaFreeAsync(ptr, stream);
  }
};

// A libcu++ asynchronous memory resource: allocate_async / deallocate_async on a cuda::stream_ref (and the
// synchronous pair, which cuda::mr::async_resource also asks for). `alignments` records the alignment asked.
class async_resource : public logging_allocator_base
{
public:
  void* allocate_async(std::size_t bytes, std::size_t alignment, cuda::stream_ref stream)
  {
    if (!may_allocate())
    {
      return nullptr;
    }
    void* ptr = nullptr;
    if (cudaMallocAsync(&ptr, bytes, stream.get()) != cudaSuccess)
    {
      return nullptr;
    }
    note_alignment(ptr, alignment);
    log_->allocated(ptr, bytes, stream.get());
    return ptr;
  }
  void deallocate_async(void* ptr, std::size_t bytes, std::size_t, cuda::stream_ref stream)
  {
    log_->deallocated(ptr, bytes, stream.get());
    cudaFreeAsync(ptr, stream.get());
  }
  void* allocate(std::size_t, std::size_t)
  {
    log_->problem("the synchronous allocate of an asynchronous resource was called");
    return nullptr;
  }
  void deallocate(void*, std::size_t, std::size_t)
  {
    log_->problem("the synchronous deallocate of an asynchronous resource was called");
  }
  friend bool operator==(const async_resource& a, const async_resource& b)
  {
    return a.log_ == b.log_;
  }
  friend bool operator!=(const async_resource& a, const async_resource& b)
  {
    return !(a == b);
  }

private:
  void note_alignment(void* ptr, std::size_t alignment)
  {
    if (alignment < 16 || (alignment & (alignment - 1)) != 0
        || reinterpret_cast<std::uintptr_t>(ptr) % std::min<std::size_t>(alignment, 256) != 0)
    {
      log_->problem("allocate_async asked for alignment " + std::to_string(alignment));
    }
  }
};

// A libcu++ synchronous memory resource: allocate(bytes, alignment) / deallocate(ptr, bytes, alignment) over
// cudaMalloc. It knows no stream, so memory must come back only once the work using it is done: deallocate checks
// that `watched` (the policy's stream, set by the test) has nothing left to run.
class sync_resource : public logging_allocator_base
{
public:
  cudaStream_t watched = nullptr;

  void* allocate(std::size_t bytes, std::size_t)
  {
    if (!may_allocate())
    {
      return nullptr;
    }
    void* ptr = nullptr;
    if (cudaMalloc(&ptr, bytes) != cudaSuccess)
    {
      return nullptr;
    }
    log_->allocated(ptr, bytes, nullptr);
    return ptr;
  }
  void deallocate(void* ptr, std::size_t bytes, std::size_t)
  {
    if (watched != nullptr && cudaStreamQuery(watched) != cudaSuccess)
    {
      log_->problem("a synchronous resource got memory back while the stream still had work");
    }
    log_->deallocated(ptr, bytes, nullptr);
    cudaFree(ptr);
  }
  friend bool operator==(const sync_resource& a, const sync_resource& b)
  {
    return a.log_ == b.log_;
  }
  friend bool operator!=(const sync_resource& a, const sync_resource& b)
  {
    return !(a == b);
  }
};

// A Thrust-style allocator of 4-byte elements (so that byte counts are rounded up to whole elements): value_type,
// pointer, allocate(n) and deallocate(p, n). Bytes in the log are n * 4.
class thrust_style_allocator : public logging_allocator_base
{
public:
  using value_type = std::uint32_t;
  using pointer    = thrust::device_ptr<value_type>;

  pointer allocate(std::size_t n)
  {
    if (!may_allocate())
    {
      return pointer(static_cast<value_type*>(nullptr));
    }
    void* ptr = nullptr;
    if (cudaMalloc(&ptr, n * sizeof(value_type)) != cudaSuccess)
    {
      return pointer(static_cast<value_type*>(nullptr));
    }
    log_->allocated(ptr, n * sizeof(value_type), nullptr);
    return pointer(static_cast<value_type*>(ptr));
  }
  void deallocate(pointer p, std::size_t n)
  {
    log_->deallocated(thrust::raw_pointer_cast(p), n * sizeof(value_type), nullptr);
    cudaFree(thrust::raw_pointer_cast(p));
  }
};

// -- gated streams ---------------------------------------------------------------------------------------------

namespace
{
__device__ inline unsigned long long global_time_ns()
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Waits until flags[0] is set by the host, or `timeout_ns` have passed (then sets flags[1]).
__global__ void gate_kernel(volatile int* flags, unsigned long long timeout_ns)
{
  const unsigned long long start = global_time_ns();
  while (flags[0] == 0)
  {
    if (global_time_ns() - start > timeout_ns)
    {
      flags[1] = 1;
      return;
    }
  }
}
} // namespace

// A stream whose work can be held back behind a gate kernel: non-blocking by default; a blocking one
// (cudaStreamDefault) also holds back the legacy default stream, which waits for blocking streams.
class gated_stream
{
public:
  explicit gated_stream(unsigned int flags = cudaStreamNonBlocking)
  {
    STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream_, flags));
    STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&observer_, cudaStreamNonBlocking));
    void* mapped = nullptr;
    STRATA_TEST_CUDA(cudaHostAlloc(&mapped, 2 * sizeof(int), cudaHostAllocMapped));
    flags_    = static_cast<volatile int*>(mapped);
    flags_[0] = 1;
    flags_[1] = 0;
  }
  gated_stream(const gated_stream&)            = delete;
  gated_stream& operator=(const gated_stream&) = delete;
  ~gated_stream()
  {
    flags_[0] = 1;
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
    cudaStreamDestroy(observer_);
    cudaFreeHost(const_cast<int*>(flags_));
  }

  cudaStream_t get() const
  {
    return stream_;
  }

  // Holds back what is enqueued on the stream from now on until open() (or `timeout`, a safety net that keeps a
  // call which wrongly waits for its stream from hanging the test: the gate then reports timed_out()).
  void close(std::chrono::milliseconds timeout = std::chrono::seconds(20))
  {
    settle();
    flags_[0] = 0;
    flags_[1] = 0;
    gate_kernel<<<1, 1, 0, stream_>>>(flags_, static_cast<unsigned long long>(timeout.count()) * 1000000ULL);
    STRATA_TEST_CUDA(cudaGetLastError());
  }

  // Holds back the stream's later work for `delay`, with nobody to open the gate (for calls that wait for their
  // stream: they must see only what was enqueued before them on it).
  void delay(std::chrono::milliseconds delay)
  {
    close(delay);
  }

  void open()
  {
    flags_[0] = 1;
  }

  bool timed_out() const
  {
    return flags_[1] != 0;
  }

  void sync()
  {
    STRATA_TEST_CUDA(cudaStreamSynchronize(stream_));
    STRATA_TEST_CUDA(cudaGetLastError());
  }

  // `n` items at `d` as they are now, read on a stream of their own (not behind the gate).
  template <typename T>
  std::vector<T> peek(const T* d, std::size_t n)
  {
    std::vector<T> host(n);
    if (n != 0)
    {
      STRATA_TEST_CUDA(cudaMemcpyAsync(host.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost, observer_));
      STRATA_TEST_CUDA(cudaStreamSynchronize(observer_));
    }
    return host;
  }
  template <typename T>
  std::vector<T> peek(const thrust::device_vector<T>& d)
  {
    return peek(thrust::raw_pointer_cast(d.data()), d.size());
  }

  // Copies `src` over `dst` on the stream (behind the gate when it is closed).
  template <typename T>
  void copy(thrust::device_vector<T>& dst, const thrust::device_vector<T>& src)
  {
    REQUIRE(dst.size() == src.size());
    if (!src.empty())
    {
      STRATA_TEST_CUDA(cudaMemcpyAsync(thrust::raw_pointer_cast(dst.data()), thrust::raw_pointer_cast(src.data()),
                                       src.size() * sizeof(T), cudaMemcpyDeviceToDevice, stream_));
    }
  }

private:
  cudaStream_t stream_   = nullptr;
  cudaStream_t observer_ = nullptr;
  volatile int* flags_   = nullptr;
};

// Runs `call(first, last, out)`, an asynchronous frontend call over device_vector iterators, behind a closed gate on
// `stream` with the real items copied in behind the gate too: the call must return with the output untouched (it
// neither waited for its stream nor ran anywhere else). Once the gate opens, the output must be `expected`.
template <typename T, typename U, typename Call>
void check_behind_gate(gated_stream& stream, const std::vector<T>& items, const std::vector<U>& expected, Call&& call)
{
  thrust::device_vector<T> real  = upload(items);
  thrust::device_vector<T> input = upload(decoy_of(items));
  thrust::device_vector<U> out(expected.size());
  poison(out);
  stream.close();
  stream.copy(input, real);
  call(input.begin(), input.end(), out.begin());
  CHECK(all_poisoned(stream.peek(out)));
  stream.open();
  stream.sync();
  CHECK_FALSE(stream.timed_out());
  STRATA_REQUIRE_EQUAL_VECTORS(download(out), expected);
}

// What most tests run on: a gated stream, a logging stream-ordered allocator, and the policy that takes both.
class logged_stream : public gated_stream
{
public:
  stream_allocator alloc;
  const strata::execution_policy<stream_allocator&> policy = strata::par(alloc).on(get());

  // Checks that the allocator saw nothing wrong, all on this stream.
  void require_clean() const
  {
    EXEC_TEST_REQUIRE_CLEAN(alloc.log(), get());
  }
};

// -- errors ------------------------------------------------------------------------------------------------------

// Runs `call`, which must throw strata::cuda_error with `error`, whose what() names `algorithm` and the error.
template <typename Call>
void require_cuda_error(Call&& call, cudaError_t error, const std::string& algorithm)
{
  bool thrown = false;
  try
  {
    call();
  }
  catch (const strata::cuda_error& e)
  {
    thrown                 = true;
    const std::string what = e.what();
    INFO("what(): " << what);
    CHECK(e.error() == error);
    CHECK(what.find(algorithm + ":") != std::string::npos);
    CHECK(what.find(cudaGetErrorName(error)) != std::string::npos);
    CHECK(dynamic_cast<const std::system_error*>(&e) != nullptr);
  }
  INFO("expected strata::cuda_error (" << cudaGetErrorName(error) << ") from " << algorithm);
  CHECK(thrown);
  // A failure that was reported leaves no sticky error behind.
  STRATA_TEST_CUDA(cudaGetLastError());
}

// Runs `call` with the first allocation from the stream's allocator throwing: it must throw strata::cuda_error
// (cudaErrorMemoryAllocation) naming `algorithm`; then `untouched()` checks what must not have been written, and every
// allocation must have been given back on the stream.
template <typename Call, typename Untouched>
void require_allocation_failure(logged_stream& stream, const std::string& algorithm, Call&& call, Untouched&& untouched)
{
  INFO(algorithm);
  stream.alloc.log().clear();
  stream.alloc.log().fail_at(1, failure::throws);
  require_cuda_error(call, cudaErrorMemoryAllocation, algorithm);
  stream.alloc.log().fail_at(0, failure::none);
  untouched();
  stream.require_clean();
}

// Runs `call`, an algorithm that returns a host value, while `stream` is being captured: it must throw
// strata::cuda_error (cudaErrorStreamCaptureUnsupported) before enqueueing anything.
template <typename Call>
void require_capture_refused(cudaStream_t stream, Call&& call)
{
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  bool thrown = false;
  try
  {
    call();
  }
  catch (const strata::cuda_error& e)
  {
    thrown = e.error() == cudaErrorStreamCaptureUnsupported;
  }
  cudaGraph_t graph = nullptr;
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream, &graph));
  CHECK(thrown);
  if (graph != nullptr)
  {
    STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  }
}

// Runs `call` while `stream` is being captured (`mode`): it must throw strata::cuda_error with `error` naming
// `algorithm` before enqueueing anything or taking storage: the capture ends with a graph of no node, and the
// stream's allocator was not called.
template <typename Call>
void require_thrown_while_capturing(logged_stream& stream, cudaStreamCaptureMode mode, cudaError_t error,
                                    const std::string& algorithm, Call&& call)
{
  INFO(algorithm);
  stream.alloc.log().clear();
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream.get(), mode));
  require_cuda_error(call, error, algorithm);
  cudaGraph_t graph{};
  const cudaError_t ended = cudaStreamEndCapture(stream.get(), &graph);
  CHECK(ended == cudaSuccess);
  if (ended == cudaSuccess)
  {
    std::size_t nodes = 1;
    STRATA_TEST_CUDA(cudaGraphGetNodes(graph, nullptr, &nodes));
    CHECK(nodes == 0); // nothing was enqueued
    STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  }
  CHECK(stream.alloc.log().allocations() == 0);
  STRATA_TEST_CUDA(cudaGetLastError());
}

// -- runs and prefixes (the compaction tests) ---------------------------------------------------------------------

// `h` with runs of mean length `mean` (1: as random as `h`; 0: all equal): each item starts a new run with
// probability 1 / mean, else repeats the one before.
template <typename T>
std::vector<T> with_runs(std::vector<T> h, std::size_t mean, std::uint64_t salt)
{
  std::mt19937_64 rng(salt);
  for (std::size_t i = 1; i < h.size(); ++i)
  {
    if (mean == 0 || (mean > 1 && rng() % mean != 0))
    {
      h[i] = h[i - 1];
    }
  }
  return h;
}

// The first `count` items of `d`.
template <typename T>
std::vector<T> prefix(const thrust::device_vector<T>& d, std::size_t count)
{
  std::vector<T> all = download(d);
  all.resize(count);
  return all;
}
// A non-blocking stream of another device than the current one (which stays current); skips the test case on a
// machine with fewer than two GPUs.
class other_device_stream
{
public:
  other_device_stream()
  {
    int devices = 0;
    STRATA_TEST_CUDA(cudaGetDeviceCount(&devices));
    if (devices < 2)
    {
      STRATA_TEST_SKIP("a stream of another device needs two GPUs; this machine has " << devices);
    }
    STRATA_TEST_CUDA(cudaGetDevice(&home_));
    other_ = home_ == 0 ? 1 : 0;
    STRATA_TEST_CUDA(cudaSetDevice(other_));
    STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    STRATA_TEST_CUDA(cudaSetDevice(home_));
  }
  other_device_stream(const other_device_stream&)            = delete;
  other_device_stream& operator=(const other_device_stream&) = delete;
  ~other_device_stream()
  {
    cudaStreamDestroy(stream_);
  }
  cudaStream_t get() const
  {
    return stream_;
  }
  int device() const
  {
    return other_;
  }

private:
  int home_            = 0;
  int other_           = 0;
  cudaStream_t stream_ = nullptr;
};

} // namespace exec_test
