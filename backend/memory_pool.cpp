// The backend's per-device memory pools, the cache of blocks above them, and the calling thread's host result buffer.
#include <strata/backend/memory_pool.hpp>

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace strata
{
namespace backend
{
namespace
{
// Blocks are handed out in power-of-two sizes from 512 bytes, so that a block freed by one call fits the next call
// of the same algorithm and size.
constexpr int MIN_CLASS_LOG2 = 9;
constexpr int CLASSES        = 64 - MIN_CLASS_LOG2;

int size_class(std::size_t bytes)
{
  int c = 0;
  while ((std::size_t(1) << (MIN_CLASS_LOG2 + c)) < bytes && c + 1 < CLASSES)
  {
    ++c;
  }
  return c;
}

std::size_t class_bytes(int c)
{
  return std::size_t(1) << (MIN_CLASS_LOG2 + c);
}

// A pool's cache keeps at most this share of its device's memory until told otherwise (pool_set_cache_limit):
// include/strata/execution/memory_pool.cuh says why.
constexpr std::size_t DEFAULT_CACHE_SHARE = 8;

bool capturing(cudaStream_t stream)
{
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  return cudaStreamIsCapturing(stream, &status) != cudaSuccess || status != cudaStreamCaptureStatusNone;
}

// Makes `device` current for a scope (events and frees belong to the pool's device), restoring the caller's.
class on_device
{
public:
  explicit on_device(int device)
  {
    if (cudaGetDevice(&previous_) == cudaSuccess && previous_ != device)
    {
      switched_ = cudaSetDevice(device) == cudaSuccess;
    }
  }
  ~on_device()
  {
    if (switched_)
    {
      cudaSetDevice(previous_);
    }
  }
  on_device(const on_device&)            = delete;
  on_device& operator=(const on_device&) = delete;

private:
  int previous_  = 0;
  bool switched_ = false;
};

// Relaxes the calling thread's stream-capture mode for a scope, restoring it after. Creating the pool or an event
// is not a stream operation, but under a global or thread-local capture the runtime refuses such calls
// (cudaErrorStreamCaptureUnsupported, and the capture is invalidated): the first allocation of a process may come
// from a stream being captured.
class relaxed_capture
{
public:
  relaxed_capture()
  {
    changed_ = cudaThreadExchangeStreamCaptureMode(&mode_) == cudaSuccess;
  }
  ~relaxed_capture()
  {
    if (changed_)
    {
      cudaThreadExchangeStreamCaptureMode(&mode_);
    }
  }
  relaxed_capture(const relaxed_capture&)            = delete;
  relaxed_capture& operator=(const relaxed_capture&) = delete;

private:
  cudaStreamCaptureMode mode_ = cudaStreamCaptureModeRelaxed;
  bool changed_               = false;
};

// A block given back, the event recorded on its stream when it was, and that stream's ID: work on another stream
// that reuses the block waits for the event; work on the same stream comes after the release already.
struct cached_block
{
  void* ptr;
  cudaEvent_t freed;
  bool on_known_stream; // stream_id holds the releasing stream's ID
  unsigned long long stream_id;
  unsigned long long age; // when it was cached (a count of blocks cached): the least recent goes first
};

// The stream's ID (unique in the process, never reused, unlike a destroyed stream's handle); false if it has none.
bool stream_id(cudaStream_t stream, unsigned long long& id)
{
  return cudaStreamGetId(stream, &id) == cudaSuccess;
}

// One device: strata's own stream-ordered pool (cudaMallocFromPoolAsync, its release threshold the cache limit), and
// above it free lists of blocks per size class, holding at most the cache limit (the least recently cached blocks go
// to the pool first). Allocating and freeing through the pool are ordered on the stream, and each costs the stream
// about 1.5 us of latency (H200: a one-block kernel and a synchronization took 9.2 us, 12.0 us with an allocation
// before and a free after it). A cached block costs the stream an event record where it is freed and an event wait
// where it is reused (9.3 us), and the wait is what makes the reuse safe on any stream: no host-side query, and a
// stream whose handle was destroyed and reused cannot start on a block before the old stream's work on it is done.
class device_pool
{
public:
  explicit device_pool(int device)
      : device_(device)
  {}

  // Creates the pool, with the default cache limit as its release threshold: the pool keeps what the cache may keep,
  // and memory given to it beyond that goes back to the driver at the next synchronization.
  cudaError_t init()
  {
    const on_device current(device_);
    const relaxed_capture relaxed;
    std::size_t free_bytes  = 0;
    std::size_t total_bytes = 0;
    if (const cudaError_t e = cudaMemGetInfo(&free_bytes, &total_bytes); e != cudaSuccess)
    {
      return e;
    }
    limit_.store(total_bytes / DEFAULT_CACHE_SHARE, std::memory_order_relaxed);
    cudaMemPoolProps props{};
    props.allocType     = cudaMemAllocationTypePinned;
    props.handleTypes   = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id   = device_;
    if (const cudaError_t e = cudaMemPoolCreate(&pool_, &props); e != cudaSuccess)
    {
      return e;
    }
    std::uint64_t threshold = limit_.load(std::memory_order_relaxed);
    return cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &threshold);
  }

  cudaError_t allocate(void** ptr, std::size_t bytes, cudaStream_t stream)
  {
    const int c = size_class(bytes);
    // A graph owns what is allocated while its stream is captured: such allocations go to the pool, which turns
    // them into allocation nodes.
    if (capturing(stream))
    {
      return cudaMallocFromPoolAsync(ptr, class_bytes(c), pool_, stream);
    }
    unsigned long long id = 0;
    const bool known      = stream_id(stream, id);
    cached_block block{nullptr, nullptr, false, 0, 0};
    {
      // The newest block released on this stream, else the newest of all.
      std::lock_guard<std::mutex> lock(mutex_);
      std::vector<cached_block>& list = free_[c];
      if (!list.empty())
      {
        auto it = list.end() - 1;
        for (auto same = list.rbegin(); known && same != list.rend(); ++same)
        {
          if (same->on_known_stream && same->stream_id == id)
          {
            it = same.base() - 1;
            break;
          }
        }
        block = *it;
        list.erase(it);
        cached_bytes_ -= class_bytes(c);
      }
    }
    if (block.ptr != nullptr)
    {
      // Released on this stream: stream order already puts the release first. Else the stream waits for it.
      const bool same_stream = known && block.on_known_stream && block.stream_id == id;
      if (!same_stream)
      {
        if (const cudaError_t e = cudaStreamWaitEvent(stream, block.freed, 0); e != cudaSuccess)
        {
          std::lock_guard<std::mutex> lock(mutex_);
          cache(block, c);
          return e;
        }
      }
      spare_event(block.freed); // no one needs the event's state any more: it may be recorded again
      *ptr = block.ptr;
    }
    else if (const cudaError_t e = cudaMallocFromPoolAsync(ptr, class_bytes(c), pool_, stream); e != cudaSuccess)
    {
      return e;
    }
    note_in_use(class_bytes(c));
    return cudaSuccess;
  }

  cudaError_t deallocate(void* ptr, std::size_t bytes, cudaStream_t stream)
  {
    const int c = size_class(bytes);
    if (capturing(stream))
    {
      return cudaFreeAsync(ptr, stream);
    }
    in_use_.fetch_sub(class_bytes(c), std::memory_order_relaxed);
    if (class_bytes(c) > limit_.load(std::memory_order_relaxed))
    {
      return cudaFreeAsync(ptr, stream); // larger than the cache may hold
    }
    cudaEvent_t freed = take_event();
    cudaError_t e     = freed == nullptr ? cudaErrorMemoryAllocation : cudaEventRecord(freed, stream);
    if (e != cudaSuccess)
    {
      // Without an event the block cannot be cached safely: give it back to the pool in stream order instead.
      if (freed != nullptr)
      {
        spare_event(freed);
      }
      return cudaFreeAsync(ptr, stream);
    }
    cached_block block{ptr, freed, false, 0, 0};
    block.on_known_stream = stream_id(stream, block.stream_id);
    std::vector<cached_block> evicted;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      cache(block, c);
      evict_to_limit(evicted);
    }
    return free_in_order(evicted, stream, block.on_known_stream, block.stream_id);
  }

  cudaError_t statistics(pool_statistics& s)
  {
    std::uint64_t reserved      = 0;
    std::uint64_t reserved_high = 0;
    if (const cudaError_t e = cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrReservedMemCurrent, &reserved);
        e != cudaSuccess)
    {
      return e;
    }
    if (const cudaError_t e = cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrReservedMemHigh, &reserved_high);
        e != cudaSuccess)
    {
      return e;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    s.bytes_in_use             = in_use_.load(std::memory_order_relaxed);
    s.bytes_reserved           = static_cast<std::size_t>(reserved);
    s.high_water_mark          = high_water_.load(std::memory_order_relaxed);
    s.reserved_high_water_mark = static_cast<std::size_t>(reserved_high);
    s.bytes_cached             = cached_bytes_;
    s.cache_limit              = limit_.load(std::memory_order_relaxed);
    return cudaSuccess;
  }

  // Gives every cached block back to the pool once the work that last used it is done, then the pool's unused
  // memory back to the driver.
  cudaError_t release_cached()
  {
    const on_device current(device_);
    std::vector<cached_block> blocks;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (auto& list : free_)
      {
        blocks.insert(blocks.end(), list.begin(), list.end());
        list.clear();
      }
      cached_bytes_ = 0;
    }
    const cudaError_t freed   = free_now(blocks);
    const cudaError_t trimmed = cudaMemPoolTrimTo(pool_, 0);
    return freed != cudaSuccess ? freed : trimmed;
  }

  // A new cache limit, which is also the pool's release threshold. The blocks cached beyond it, and the memory the
  // pool holds beyond it, go back to the driver now.
  cudaError_t set_cache_limit(std::size_t bytes)
  {
    const on_device current(device_);
    std::vector<cached_block> evicted;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      limit_.store(bytes, std::memory_order_relaxed);
      evict_to_limit(evicted);
    }
    std::uint64_t threshold   = bytes;
    const cudaError_t set     = cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &threshold);
    const cudaError_t freed   = free_now(evicted);
    const cudaError_t trimmed = cudaMemPoolTrimTo(pool_, bytes);
    return set != cudaSuccess ? set : (freed != cudaSuccess ? freed : trimmed);
  }

  cudaError_t reset_high_water_marks()
  {
    high_water_.store(in_use_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    std::uint64_t zero = 0; // the only value the attribute accepts: restart from the current use
    return cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReservedMemHigh, &zero);
  }

private:
  void note_in_use(std::size_t bytes)
  {
    const std::size_t now = in_use_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    std::size_t high      = high_water_.load(std::memory_order_relaxed);
    while (now > high && !high_water_.compare_exchange_weak(high, now, std::memory_order_relaxed))
    {}
  }

  // Puts `block` (of class c) at the most recent end of the cache. Requires mutex_.
  void cache(cached_block block, int c)
  {
    block.age = next_age_++;
    free_[c].push_back(block);
    cached_bytes_ += class_bytes(c);
  }

  // Takes the least recently cached blocks out of the cache until it holds at most the limit. Requires mutex_.
  // Each class's list is in the order its blocks were cached, so the least recent block is one of the fronts.
  void evict_to_limit(std::vector<cached_block>& evicted)
  {
    while (cached_bytes_ > limit_.load(std::memory_order_relaxed))
    {
      int oldest = -1;
      for (int c = 0; c < CLASSES; ++c)
      {
        if (!free_[c].empty() && (oldest < 0 || free_[c].front().age < free_[oldest].front().age))
        {
          oldest = c;
        }
      }
      evicted.push_back(free_[oldest].front());
      free_[oldest].erase(free_[oldest].begin());
      cached_bytes_ -= class_bytes(oldest);
    }
  }

  // Gives `blocks` to the pool in stream order on `stream` (which has the ID `id` where `known`): each after the
  // work that last used it, through a GPU-side wait for its event unless it was given back on this very stream (or,
  // should the wait fail, a host-side one).
  cudaError_t free_in_order(const std::vector<cached_block>& blocks, cudaStream_t stream, bool known,
                            unsigned long long id)
  {
    cudaError_t error = cudaSuccess;
    for (const cached_block& b : blocks)
    {
      const bool same_stream = known && b.on_known_stream && b.stream_id == id;
      cudaError_t e          = same_stream ? cudaSuccess : cudaStreamWaitEvent(stream, b.freed, 0);
      if (e != cudaSuccess)
      {
        e = cudaEventSynchronize(b.freed);
      }
      if (e == cudaSuccess)
      {
        e = cudaFreeAsync(b.ptr, stream);
      }
      spare_event(b.freed);
      error = error != cudaSuccess ? error : e;
    }
    return error;
  }

  // Gives `blocks` to the pool now: waits for the work that last used each, frees it on the legacy default stream
  // and waits for the frees. Requires the pool's device current.
  cudaError_t free_now(const std::vector<cached_block>& blocks)
  {
    if (blocks.empty())
    {
      return cudaSuccess;
    }
    cudaError_t error = cudaSuccess;
    for (const cached_block& b : blocks)
    {
      const cudaError_t waited = cudaEventSynchronize(b.freed);
      const cudaError_t freed  = cudaFreeAsync(b.ptr, cudaStreamLegacy);
      cudaEventDestroy(b.freed);
      error = error != cudaSuccess ? error : (waited != cudaSuccess ? waited : freed);
    }
    const cudaError_t synced = cudaStreamSynchronize(cudaStreamLegacy);
    return error != cudaSuccess ? error : synced;
  }

  // An event for a block being cached: a spare one, or a new one (null if none can be made).
  cudaEvent_t take_event()
  {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!spare_events_.empty())
      {
        cudaEvent_t e = spare_events_.back();
        spare_events_.pop_back();
        return e;
      }
    }
    const on_device current(device_);
    const relaxed_capture relaxed;
    cudaEvent_t e = nullptr;
    return cudaEventCreateWithFlags(&e, cudaEventDisableTiming) == cudaSuccess ? e : nullptr;
  }

  void spare_event(cudaEvent_t e)
  {
    if (e != nullptr)
    {
      std::lock_guard<std::mutex> lock(mutex_);
      spare_events_.push_back(e);
    }
  }

  int device_;
  cudaMemPool_t pool_ = nullptr;
  std::mutex mutex_;
  std::vector<cached_block> free_[CLASSES];
  std::vector<cudaEvent_t> spare_events_;
  std::size_t cached_bytes_    = 0; // bytes of the blocks in free_
  unsigned long long next_age_ = 0;
  std::atomic<std::size_t> limit_{0}; // written under mutex_; read without it where a stale value does no harm
  std::atomic<std::size_t> in_use_{0};
  std::atomic<std::size_t> high_water_{0};
};

// One device_pool per device ordinal, created on first use and never destroyed (the pools must outlive every
// stream-ordered free, including those of static objects at exit). Lookups of an existing pool take no lock.
class pools
{
public:
  static constexpr int MAX_DEVICES = 64;

  cudaError_t get(int device, device_pool*& pool, bool create)
  {
    if (device < 0 || device >= MAX_DEVICES)
    {
      return cudaErrorInvalidDevice;
    }
    pool = pools_[device].load(std::memory_order_acquire);
    if (pool != nullptr || !create)
    {
      return cudaSuccess;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    pool = pools_[device].load(std::memory_order_relaxed);
    if (pool != nullptr)
    {
      return cudaSuccess;
    }
    auto* fresh = new device_pool(device);
    if (const cudaError_t e = fresh->init(); e != cudaSuccess)
    {
      delete fresh;
      return e;
    }
    pool = fresh;
    pools_[device].store(pool, std::memory_order_release);
    return cudaSuccess;
  }

private:
  std::mutex mutex_;
  std::atomic<device_pool*> pools_[MAX_DEVICES] = {};
};

pools& the_pools()
{
  static pools* p = new pools; // never destroyed: see class pools
  return *p;
}

// f(pool) on `device`'s pool, made on first use where `create`; cudaSuccess without calling f where the pool does
// not exist and is not to be made.
template <typename F>
cudaError_t with_pool(int device, bool create, F&& f)
{
  device_pool* pool = nullptr;
  if (const cudaError_t e = the_pools().get(device, pool, create); e != cudaSuccess || pool == nullptr)
  {
    return e;
  }
  return f(*pool);
}

// f(pool) on the current device's pool, made on first use.
template <typename F>
cudaError_t with_current_pool(F&& f)
{
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
  {
    return e;
  }
  return with_pool(device, true, std::forward<F>(f));
}

// The calling thread's pinned, mapped result block.
class result_buffer
{
public:
  ~result_buffer()
  {
    if (ptr_ != nullptr)
    {
      cudaFreeHost(ptr_); // at process exit the runtime may already be gone; nothing to report then
    }
  }
  cudaError_t get(void** ptr, std::size_t bytes)
  {
    if (bytes > bytes_)
    {
      const std::size_t grown = bytes < 256 ? 256 : bytes;
      void* fresh             = nullptr;
      if (const cudaError_t e = cudaHostAlloc(&fresh, grown, cudaHostAllocPortable | cudaHostAllocMapped);
          e != cudaSuccess)
      {
        return e;
      }
      if (ptr_ != nullptr)
      {
        cudaFreeHost(ptr_);
      }
      ptr_   = fresh;
      bytes_ = grown;
    }
    *ptr = ptr_;
    return cudaSuccess;
  }

private:
  void* ptr_         = nullptr;
  std::size_t bytes_ = 0;
};
} // namespace

cudaError_t pool_allocate(void** ptr, std::size_t bytes, cudaStream_t stream)
{
  return with_current_pool([&](device_pool& pool) {
    return pool.allocate(ptr, bytes, stream);
  });
}

cudaError_t pool_deallocate(void* ptr, std::size_t bytes, cudaStream_t stream)
{
  return with_current_pool([&](device_pool& pool) {
    return pool.deallocate(ptr, bytes, stream);
  });
}

cudaError_t pool_get_statistics(int device, pool_statistics& statistics)
{
  statistics = pool_statistics{};
  return with_pool(device, false, [&](device_pool& pool) {
    return pool.statistics(statistics);
  });
}

cudaError_t pool_release_cached(int device)
{
  return with_pool(device, false, [](device_pool& pool) {
    return pool.release_cached();
  });
}

cudaError_t pool_reset_high_water_marks(int device)
{
  return with_pool(device, false, [](device_pool& pool) {
    return pool.reset_high_water_marks();
  });
}

cudaError_t pool_set_cache_limit(int device, std::size_t bytes)
{
  return with_pool(device, true, [&](device_pool& pool) {
    return pool.set_cache_limit(bytes);
  });
}

cudaError_t thread_result_buffer(void** ptr, std::size_t bytes)
{
  thread_local result_buffer buffer;
  return buffer.get(ptr, bytes);
}

} // namespace backend
} // namespace strata
