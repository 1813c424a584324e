// The backend's memory pool and the frontend's steady state: after a first round of calls, further rounds reserve no
// more memory (the pool's statistics) and ask a caching user allocator for nothing new (the same requests, all given
// back); release_cached_memory and reset_memory_pool_high_water_mark; the cache limit (its default, the cache never
// above it, memory beyond it back to the driver, evictions ordered after the work that last used a block); the
// statistics (cached bytes as the cache counts them, the reserved high-water mark, nothing counted for a captured
// graph); two host threads on two streams sharing an allocator; calls captured into a CUDA graph and replayed on
// fresh data.
#include "support.cuh"

#include <thrust/sort.h>

#include <cuda/std/functional>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

namespace
{
using exec_test::is_odd;
using exec_test::twice;

// One round of every allocating frontend algorithm (and a Thrust sort, whose temporary buffers come from the
// policy) over `d`, results discarded; `sums` and `scratch` receive outputs.
template <typename Policy>
void one_round(const Policy& policy, thrust::device_vector<int>& d, thrust::device_vector<int>& scratch,
               thrust::device_vector<long long>& sums)
{
  (void) strata::reduce(policy, d.begin(), d.end(), 0LL);
  strata::reduce_into(policy, d.begin(), d.end(), sums.begin(), 0LL);
  (void) strata::transform_reduce(policy, d.begin(), d.end(), 0, cuda::std::plus<>{}, twice{});
  (void) strata::count_if(policy, d.begin(), d.end(), is_odd{});
  (void) strata::equal(policy, d.begin(), d.end(), scratch.begin());
  (void) strata::min_element(policy, d.begin(), d.end());
  (void) strata::minmax_element(policy, d.begin(), d.end());
  strata::inclusive_scan(policy, d.begin(), d.end(), scratch.begin());
  strata::exclusive_scan(policy, d.begin(), d.end(), scratch.begin(), 1);
  strata::inclusive_scan_by_key(policy, d.begin(), d.end(), d.begin(), scratch.begin());
  strata::copy(policy, d.begin(), d.end(), scratch.begin());
  thrust::sort(policy, scratch.begin(), scratch.end());
}

// A stream-ordered caching allocator over exec_test::stream_allocator: blocks given back are kept, per size, and handed
// out again on the next request of that size. `upstream()` counts the allocations it had to make.
class caching_allocator
{
public:
  ~caching_allocator()
  {
    for (auto& [bytes, blocks] : free_)
    {
      for (void* p : blocks)
      {
        upstream_.deallocate(p, bytes, stream_);
      }
    }
  }
  void* allocate(std::size_t bytes, cudaStream_t stream)
  {
    stream_ = stream;
    ++requests_;
    ++live_;
    auto& blocks = free_[bytes];
    if (!blocks.empty())
    {
      void* p = blocks.back();
      blocks.pop_back();
      return p;
    }
    return upstream_.allocate(bytes, stream);
  }
  void deallocate(void* p, std::size_t bytes, cudaStream_t)
  {
    --live_;
    free_[bytes].push_back(p);
  }
  std::size_t upstream() const
  {
    return upstream_.log().allocations();
  }
  std::size_t requests() const
  {
    return requests_;
  }
  long long live() const
  {
    return live_;
  }

private:
  exec_test::stream_allocator upstream_;
  std::map<std::size_t, std::vector<void*>> free_;
  cudaStream_t stream_  = nullptr;
  std::size_t requests_ = 0;
  long long live_       = 0;
};
} // namespace

TEST_CASE("after a first round of calls the pool reserves no more memory", "[execution][pool][steady]")
{
  exec_test::gated_stream stream;
  const std::size_t n          = std::size_t(1) << 22;
  thrust::device_vector<int> d = exec_test::upload(strata_test::random_vector<int>(n, 1));
  thrust::device_vector<int> scratch(n);
  thrust::device_vector<long long> sums(1);
  exec_test::settle();
  const auto policy = strata::par.on(stream.get());

  one_round(policy, d, scratch, sums);
  stream.sync();
  const strata::memory_pool_statistics warm = strata::memory_pool_stats();
  CHECK(warm.bytes_reserved > 0);
  CHECK(warm.high_water_mark > 0);
  for (int round = 0; round < 20; ++round)
  {
    one_round(policy, d, scratch, sums);
  }
  stream.sync();
  const strata::memory_pool_statistics steady = strata::memory_pool_stats();
  CHECK(steady.bytes_reserved == warm.bytes_reserved);
  CHECK(steady.bytes_in_use == warm.bytes_in_use);
}

TEST_CASE("after a first round of calls a caching user allocator is asked for nothing new", "[execution][pool][steady]")
{
  exec_test::gated_stream stream;
  const std::size_t n          = std::size_t(1) << 22;
  thrust::device_vector<int> d = exec_test::upload(strata_test::random_vector<int>(n, 2));
  thrust::device_vector<int> scratch(n);
  thrust::device_vector<long long> sums(1);
  exec_test::settle();
  caching_allocator alloc;
  const auto policy = strata::par(alloc).on(stream.get());

  one_round(policy, d, scratch, sums);
  stream.sync();
  const std::size_t warm_upstream = alloc.upstream();
  const std::size_t per_round     = alloc.requests();
  CHECK(warm_upstream > 0);
  CHECK(alloc.live() == 0);
  for (int round = 0; round < 20; ++round)
  {
    one_round(policy, d, scratch, sums);
    CHECK(alloc.live() == 0);
  }
  stream.sync();
  CHECK(alloc.upstream() == warm_upstream);
  CHECK(alloc.requests() == 21 * per_round);
}

TEST_CASE("release_cached_memory gives cached memory back; the high-water mark restarts when reset",
          "[execution][pool]")
{
  exec_test::gated_stream stream;
  const auto policy            = strata::par.on(stream.get());
  const std::size_t big        = std::size_t(1) << 24;
  thrust::device_vector<int> d = exec_test::upload(strata_test::random_vector<int>(big, 3));
  thrust::device_vector<int> out(big);
  exec_test::settle();

  strata::inclusive_scan(policy, d.begin(), d.end(), out.begin());
  stream.sync();
  strata::memory_pool_statistics s = strata::memory_pool_stats();
  CHECK(s.bytes_cached > 0);
  const std::size_t big_mark = s.high_water_mark;
  CHECK(big_mark > 0);

  strata::release_cached_memory();
  s = strata::memory_pool_stats();
  CHECK(s.bytes_cached == 0);
  CHECK(s.bytes_reserved == s.bytes_in_use);

  strata::reset_memory_pool_high_water_mark();
  s = strata::memory_pool_stats();
  CHECK(s.high_water_mark == s.bytes_in_use);

  // A scan of 2^16 items needs far less than one of 2^24: the mark now follows it.
  strata::inclusive_scan(policy, d.begin(), d.begin() + (1 << 16), out.begin());
  stream.sync();
  s = strata::memory_pool_stats();
  CHECK(s.high_water_mark > 0);
  CHECK(s.high_water_mark < big_mark);
  CHECK(s.bytes_reserved > 0);

  // The pool still serves the big scan, correctly.
  strata::inclusive_scan(policy, d.begin(), d.end(), out.begin());
  CHECK(strata::reduce(policy, d.begin(), d.end(), 0LL) == [&] {
    const std::vector<int> h = exec_test::download(d);
    return std::accumulate(h.begin(), h.end(), 0LL);
  }());
}

namespace
{
// The current device's cache limit for a test that changes it, restored when the test ends however it ends. Makes
// sure the pool exists and starts the test with nothing cached.
class cache_limit_scope
{
public:
  cache_limit_scope()
  {
    STRATA_TEST_CUDA(cudaGetDevice(&device_));
    void* p = strata::pool_allocator{}.allocate(512, cudaStreamLegacy);
    strata::pool_allocator{}.deallocate(p, 512, cudaStreamLegacy);
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    strata::release_cached_memory();
    saved_ = strata::memory_pool_stats().cache_limit;
  }
  cache_limit_scope(const cache_limit_scope&)            = delete;
  cache_limit_scope& operator=(const cache_limit_scope&) = delete;
  ~cache_limit_scope()
  {
    CHECK(strata::backend::pool_set_cache_limit(device_, saved_) == cudaSuccess);
  }
  std::size_t saved() const
  {
    return saved_;
  }

private:
  int device_        = 0;
  std::size_t saved_ = 0;
};

constexpr std::size_t MiB = std::size_t(1) << 20;
} // namespace

TEST_CASE("the cache limit starts at an eighth of the device's memory", "[execution][pool][limit]")
{
  const cache_limit_scope scope;
  std::size_t free_bytes = 0, total_bytes = 0;
  STRATA_TEST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  CHECK(scope.saved() == total_bytes / 8);
  CHECK(strata::memory_pool_stats().bytes_cached == 0);
}

TEST_CASE("the pool caches at most its limit and gives memory beyond it back to the driver", "[execution][pool][limit]")
{
  const cache_limit_scope scope;
  exec_test::gated_stream stream;
  const cudaStream_t s = stream.get();
  const strata::pool_allocator pool;
  // Blocks of 64 MiB (a size class of their own); the cache holds two of them, not three.
  const std::size_t block = 64 * MiB;
  const std::size_t limit = 2 * block + block / 2;
  strata::set_memory_pool_cache_limit(limit);
  strata::memory_pool_statistics st = strata::memory_pool_stats();
  REQUIRE(st.cache_limit == limit);
  REQUIRE(st.bytes_cached == 0);
  const std::size_t in_use = st.bytes_in_use;

  std::vector<void*> blocks;
  for (int i = 0; i < 6; ++i)
  {
    blocks.push_back(pool.allocate(block, s));
    STRATA_TEST_CUDA(cudaMemsetAsync(blocks.back(), i, block, s));
  }
  st = strata::memory_pool_stats();
  CHECK(st.bytes_in_use == in_use + 6 * block);
  CHECK(st.bytes_reserved >= in_use + 6 * block);
  CHECK(st.reserved_high_water_mark >= st.bytes_reserved);

  for (void* p : blocks)
  {
    pool.deallocate(p, block, s);
    st = strata::memory_pool_stats();
    CHECK(st.bytes_cached <= limit);
  }
  CHECK(st.bytes_in_use == in_use);
  CHECK(st.bytes_cached == 2 * block); // the two given back last
  // The other four went to the pool, which holds more than its release threshold (the limit): the next
  // synchronization gives them back to the driver.
  const std::size_t reserved_before_sync = st.bytes_reserved;
  stream.sync();
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  st = strata::memory_pool_stats();
  INFO("reserved before the synchronization " << (reserved_before_sync / MiB) << " MiB, after "
                                              << (st.bytes_reserved / MiB) << " MiB");
  // The pool keeps at least its threshold where it can (whole blocks here): the cache, and at most one block more.
  CHECK(st.bytes_reserved + 3 * block <= reserved_before_sync);
  CHECK(st.bytes_reserved <= in_use + limit + block);

  // The two cached blocks serve the next requests of their size.
  void* again = pool.allocate(block, s);
  CHECK((again == blocks[4] || again == blocks[5]));
  CHECK(strata::memory_pool_stats().bytes_cached == block);
  pool.deallocate(again, block, s);

  // A block larger than the limit is never cached.
  strata::set_memory_pool_cache_limit(block / 2);
  st = strata::memory_pool_stats();
  CHECK(st.bytes_cached == 0); // lowering the limit evicted both blocks at once
  CHECK(st.bytes_reserved <= in_use + block);
  void* big = pool.allocate(block, s);
  pool.deallocate(big, block, s);
  CHECK(strata::memory_pool_stats().bytes_cached == 0);

  // Limit 0: nothing is cached, and memory given back goes back to the driver at the next synchronization.
  strata::set_memory_pool_cache_limit(0);
  void* last = pool.allocate(block, s);
  CHECK(strata::memory_pool_stats().bytes_reserved >= in_use + block);
  pool.deallocate(last, block, s);
  stream.sync();
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  st = strata::memory_pool_stats();
  CHECK(st.bytes_cached == 0);
  CHECK(st.bytes_reserved < in_use + block);
}

TEST_CASE("a block the cache gives up is freed after the work that last used it, on any stream",
          "[execution][pool][limit]")
{
  const cache_limit_scope scope;
  exec_test::gated_stream first;
  exec_test::gated_stream second;
  const strata::pool_allocator pool;
  const std::size_t block = 4 * MiB;
  strata::set_memory_pool_cache_limit(2 * block);

  // A block used behind a closed gate on the first stream, then given back there: cached, its event behind the gate.
  void* held = pool.allocate(block, first.get());
  first.close(std::chrono::seconds(10));
  STRATA_TEST_CUDA(cudaMemsetAsync(held, 1, block, first.get()));
  pool.deallocate(held, block, first.get());
  CHECK(strata::memory_pool_stats().bytes_cached == block);

  // A block twice as large given back on the idle second stream takes the cache past its limit: `held`, the least
  // recent, goes to the pool on the second stream, after a wait for the first stream's work.
  void* other = pool.allocate(2 * block, second.get());
  second.sync();
  pool.deallocate(other, 2 * block, second.get());
  CHECK(strata::memory_pool_stats().bytes_cached == 2 * block);
  CHECK(cudaStreamQuery(second.get()) == cudaErrorNotReady); // waiting for the gate
  CHECK(cudaStreamQuery(first.get()) == cudaErrorNotReady);
  first.open();
  first.sync();
  second.sync();
  CHECK_FALSE(first.timed_out());
}

TEST_CASE("memory that a captured graph uses counts neither as in use nor as cached", "[execution][pool][graph]")
{
  exec_test::gated_stream stream;
  const auto policy            = strata::par.on(stream.get());
  const std::size_t n          = std::size_t(1) << 22;
  thrust::device_vector<int> d = exec_test::upload(strata_test::random_vector<int>(n, 11));
  thrust::device_vector<int> out(n);
  exec_test::settle();
  // A first scan outside capture caches its storage.
  strata::inclusive_scan(policy, d.begin(), d.end(), out.begin());
  stream.sync();
  const strata::memory_pool_statistics before = strata::memory_pool_stats();
  CHECK(before.bytes_cached > 0);

  cudaGraph_t graph{};
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
  strata::inclusive_scan(policy, d.begin(), d.end(), out.begin());
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream.get(), &graph));
  strata::memory_pool_statistics now = strata::memory_pool_stats();
  CHECK(now.bytes_in_use == before.bytes_in_use);
  CHECK(now.bytes_cached == before.bytes_cached);

  cudaGraphExec_t exec{};
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream.get()));
  stream.sync();
  now = strata::memory_pool_stats();
  CHECK(now.bytes_in_use == before.bytes_in_use);
  CHECK(now.bytes_cached == before.bytes_cached);
  CHECK(now.bytes_cached <= now.cache_limit);
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  now = strata::memory_pool_stats();
  CHECK(now.bytes_in_use == before.bytes_in_use);
  CHECK(now.bytes_cached == before.bytes_cached);
}

TEST_CASE("the reserved high-water mark follows the memory held from the driver", "[execution][pool]")
{
  const cache_limit_scope scope;
  const strata::pool_allocator pool;
  const cudaStream_t s = cudaStreamLegacy;
  strata::reset_memory_pool_high_water_mark();
  strata::memory_pool_statistics st = strata::memory_pool_stats();
  const std::size_t low             = st.reserved_high_water_mark;
  CHECK(low >= st.bytes_reserved);

  // Nothing is cached (the scope emptied the cache), so 256 MiB come from the driver.
  const std::size_t block = 256 * MiB;
  void* p                 = pool.allocate(block, s);
  st                      = strata::memory_pool_stats();
  CHECK(st.reserved_high_water_mark >= low + block);
  CHECK(st.reserved_high_water_mark >= st.bytes_reserved);
  pool.deallocate(p, block, s);
  strata::release_cached_memory();
  st = strata::memory_pool_stats();
  CHECK(st.bytes_reserved < block);
  CHECK(st.reserved_high_water_mark >= low + block); // the mark stays until it is reset
  strata::reset_memory_pool_high_water_mark();
  CHECK(strata::memory_pool_stats().reserved_high_water_mark < block);
}

TEST_CASE("the pool's functions throw strata::cuda_error for a device that does not exist", "[execution][pool][errors]")
{
  exec_test::require_cuda_error(
    [] {
      (void) strata::memory_pool_stats(999);
    },
    cudaErrorInvalidDevice, "strata::memory_pool_stats");
  exec_test::require_cuda_error(
    [] {
      strata::release_cached_memory(-1);
    },
    cudaErrorInvalidDevice, "strata::release_cached_memory");
  exec_test::require_cuda_error(
    [] {
      strata::reset_memory_pool_high_water_mark(999);
    },
    cudaErrorInvalidDevice, "strata::reset_memory_pool_high_water_mark");
  exec_test::require_cuda_error(
    [] {
      strata::set_memory_pool_cache_limit(std::size_t(1) << 20, 999);
    },
    cudaErrorInvalidDevice, "strata::set_memory_pool_cache_limit");
}

namespace
{
// What one worker thread found wrong (Catch2's assertions are not for other threads).
struct worker_report
{
  std::string failures;
  cudaStream_t stream = nullptr;
  std::thread::id thread;
};

template <typename T>
std::vector<T> read_back(const T* d, std::size_t n, cudaStream_t s)
{
  std::vector<T> h(n);
  cudaMemcpyAsync(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  return h;
}

// Selects odd items: the compaction of the worker threads.
struct odd_int
{
  __host__ __device__ bool operator()(int x) const
  {
    return (x & 1) != 0;
  }
};

// 40 rounds of reduce, reduce_into, inclusive_scan, transform, copy_if and copy_if_into (its count left in device
// memory) on the thread's own stream and data, alternately with the shared allocator and with the pool, each result
// checked against the host.
void worker(int id, exec_test::stream_allocator& shared, worker_report& report)
{
  report.thread = std::this_thread::get_id();
  try
  {
    if (cudaStreamCreateWithFlags(&report.stream, cudaStreamNonBlocking) != cudaSuccess)
    {
      report.failures += "cudaStreamCreateWithFlags failed; ";
      return;
    }
    const cudaStream_t s     = report.stream;
    const std::size_t n      = 1000003 + 4099 * static_cast<std::size_t>(id);
    const std::vector<int> h = strata_test::random_vector<int>(n, 100 + static_cast<std::uint64_t>(id));
    const long long sum      = std::accumulate(h.begin(), h.end(), 0LL);
    std::vector<int> prefix(n), doubled(n);
    std::inclusive_scan(h.begin(), h.end(), prefix.begin());
    std::transform(h.begin(), h.end(), doubled.begin(), twice{});
    std::vector<int> odd;
    std::copy_if(h.begin(), h.end(), std::back_inserter(odd), odd_int{});
    int* d_in        = nullptr;
    int* d_out       = nullptr;
    long long* d_sum = nullptr;
    int* d_count     = nullptr;
    cudaMallocAsync(&d_in, n * sizeof(int), s);
    cudaMallocAsync(&d_count, sizeof(int), s);
    cudaMallocAsync(&d_out, n * sizeof(int), s);
    cudaMallocAsync(&d_sum, sizeof(long long), s);
    cudaMemcpyAsync(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice, s);
    for (int round = 0; round < 40; ++round)
    {
      auto run = [&](const auto& policy) {
        if (strata::reduce(policy, d_in, d_in + n, 0LL) != sum)
        {
          report.failures += "reduce; ";
        }
        strata::reduce_into(policy, d_in, d_in + n, d_sum, 0LL);
        if (read_back(d_sum, 1, s)[0] != sum)
        {
          report.failures += "reduce_into; ";
        }
        cudaMemsetAsync(d_out, 0xA5, n * sizeof(int), s);
        strata::inclusive_scan(policy, d_in, d_in + n, d_out);
        if (read_back(d_out, n, s) != prefix)
        {
          report.failures += "inclusive_scan; ";
        }
        strata::transform(policy, d_in, d_in + n, d_out, twice{});
        if (read_back(d_out, n, s) != doubled)
        {
          report.failures += "transform; ";
        }
        const int* end = strata::copy_if(policy, d_in, d_in + n, d_out, odd_int{});
        if (end - d_out != static_cast<std::ptrdiff_t>(odd.size()) || read_back(d_out, odd.size(), s) != odd)
        {
          report.failures += "copy_if; ";
        }
        cudaMemsetAsync(d_out, 0xA5, n * sizeof(int), s);
        strata::copy_if_into(policy, d_in, d_in + n, d_out, d_count, odd_int{});
        if (read_back(d_count, 1, s)[0] != static_cast<int>(odd.size()) || read_back(d_out, odd.size(), s) != odd)
        {
          report.failures += "copy_if_into; ";
        }
      };
      if (round % 2 == 0)
      {
        run(strata::par(shared).on(s));
      }
      else
      {
        run(strata::par.on(s));
      }
    }
    cudaFreeAsync(d_in, s);
    cudaFreeAsync(d_out, s);
    cudaFreeAsync(d_sum, s);
    cudaFreeAsync(d_count, s);
    if (const cudaError_t e = cudaStreamSynchronize(s); e != cudaSuccess)
    {
      report.failures += std::string(cudaGetErrorString(e)) + "; ";
    }
  }
  catch (const std::exception& e)
  {
    report.failures += std::string("exception: ") + e.what() + "; ";
  }
}
} // namespace

TEST_CASE("two host threads on two streams share an allocator and the pool", "[execution][pool][threads]")
{
  exec_test::stream_allocator shared;
  worker_report reports[2];
  {
    std::thread a(worker, 0, std::ref(shared), std::ref(reports[0]));
    std::thread b(worker, 1, std::ref(shared), std::ref(reports[1]));
    a.join();
    b.join();
  }
  for (const worker_report& r : reports)
  {
    INFO("worker failures: " << r.failures);
    CHECK(r.failures.empty());
  }
  // Every allocation and deallocation ran on the stream of the thread that made the call.
  const std::vector<exec_test::allocation_record> records = shared.log().records();
  CHECK(records.size() >= 2 * 20 * 3 * 2);
  std::size_t misplaced = 0;
  for (const exec_test::allocation_record& r : records)
  {
    const worker_report& owner = r.thread == reports[0].thread ? reports[0] : reports[1];
    misplaced += (r.thread != owner.thread || r.stream != owner.stream) ? 1 : 0;
  }
  CHECK(misplaced == 0);
  const std::string problems = shared.log().problems(nullptr, false);
  INFO("allocator: " << problems);
  CHECK(problems.empty());
  for (const worker_report& r : reports)
  {
    if (r.stream != nullptr)
    {
      STRATA_TEST_CUDA(cudaStreamDestroy(r.stream));
    }
  }
}

namespace
{
// Captures inclusive_scan, transform and reduce_into through `policy` on `stream` into a graph, then replays it twice
// on fresh input (written to the same buffers), checking every output after each replay.
template <typename Policy>
void check_graph_replays(const Policy& policy, exec_test::gated_stream& stream)
{
  const std::size_t n = 1000003;
  thrust::device_vector<int> in(n), scanned(n), doubled(n);
  thrust::device_vector<long long> sum(1);
  exec_test::settle();
  int* const d_in = thrust::raw_pointer_cast(in.data());

  cudaGraph_t graph{};
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
  strata::inclusive_scan(policy, d_in, d_in + n, scanned.begin());
  strata::transform(policy, d_in, d_in + n, doubled.begin(), twice{});
  strata::reduce_into(policy, d_in, d_in + n, sum.begin(), 5LL);
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream.get(), &graph));
  cudaGraphExec_t exec{};
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));

  for (int replay = 0; replay < 2; ++replay)
  {
    CAPTURE(replay);
    const std::vector<int> h = strata_test::random_vector<int>(n, 200 + static_cast<std::uint64_t>(replay));
    exec_test::upload_into(in, h);
    exec_test::poison(scanned);
    exec_test::poison(doubled);
    exec_test::poison(sum);
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream.get()));
    stream.sync();
    std::vector<int> prefix(n), twice_h(n);
    std::inclusive_scan(h.begin(), h.end(), prefix.begin());
    std::transform(h.begin(), h.end(), twice_h.begin(), twice{});
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(scanned), prefix);
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(doubled), twice_h);
    CHECK(exec_test::download(sum)[0] == std::accumulate(h.begin(), h.end(), 5LL));
  }
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
}
} // namespace

TEST_CASE("inclusive_scan, transform and reduce_into captured into a CUDA graph replay on fresh data",
          "[execution][pool][graph]")
{
  exec_test::gated_stream stream;
  SECTION("temporary storage from the pool")
  {
    check_graph_replays(strata::par.on(stream.get()), stream);
  }
  SECTION("temporary storage from a stream-ordered allocator")
  {
    exec_test::stream_allocator alloc;
    check_graph_replays(strata::par(alloc).on(stream.get()), stream);
    CHECK(alloc.log().allocations() == 2); // captured once: the scan's and the reduction's storage
    EXEC_TEST_REQUIRE_CLEAN(alloc.log(), stream.get());
  }
}
