// The backend's per-device memory pools, the cache of blocks above them, and the calling thread's host result buffer.
#include <strata/backend/memory_pool.hpp>

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <mutex>
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
};

// The stream's ID (unique in the process, never reused, unlike a destroyed stream's handle); false if it has none.
bool stream_id(cudaStream_t stream, unsigned long long& id)
{
  return cudaStreamGetId(stream, &id) == cudaSuccess;
}

// One device: strata's own stream-ordered pool (cudaMallocFromPoolAsync, a release threshold that keeps all of its
// memory), and above it free lists of blocks per size class. Allocating and freeing through the pool are ordered
// on the stream, and each costs the stream about 1.5 us of latency (H200: a one-block kernel and a
// synchronization took 9.2 us, 12.0 us with an allocation before and a free after it). A cached block costs the
// stream an event record where it is freed and an event wait where it is reused (9.3 us), and the wait is what
// makes the reuse safe on any stream: no host-side query, and a stream whose handle was destroyed and reused
// cannot start on a block before the old stream's work on it is done.
class device_pool
{
public:
  explicit device_pool(int device)
      : device_(device)
  {}

  cudaError_t init()
  {
    cudaMemPoolProps props{};
    props.allocType     = cudaMemAllocationTypePinned;
    props.handleTypes   = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id   = device_;
    const relaxed_capture relaxed;
    if (const cudaError_t e = cudaMemPoolCreate(&pool_, &props); e != cudaSuccess)
    {
      return e;
    }
    std::uint64_t threshold = ~std::uint64_t(0);
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
    cached_block block{nullptr, nullptr, false, 0};
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
          give_back(block, c);
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
    cached_block block{ptr, freed, false, 0};
    block.on_known_stream = stream_id(stream, block.stream_id);
    give_back(block, c);
    return cudaSuccess;
  }

  cudaError_t statistics(pool_statistics& s)
  {
    std::uint64_t reserved = 0;
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
    cudaError_t error = cudaSuccess;
    for (const cached_block& b : blocks)
    {
      const cudaError_t waited = cudaEventSynchronize(b.freed);
      const cudaError_t freed  = cudaFreeAsync(b.ptr, cudaStreamLegacy);
      cudaEventDestroy(b.freed);
      error = error != cudaSuccess ? error : (waited != cudaSuccess ? waited : freed);
    }
    if (const cudaError_t e = cudaStreamSynchronize(cudaStreamLegacy); e != cudaSuccess)
    {
      return error != cudaSuccess ? error : e;
    }
    const cudaError_t trimmed = cudaMemPoolTrimTo(pool_, 0);
    return error != cudaSuccess ? error : trimmed;
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
    {
    }
  }

  void give_back(const cached_block& block, int c)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    free_[c].push_back(block);
    cached_bytes_ += class_bytes(c);
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
  std::size_t cached_bytes_ = 0;
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

  cudaError_t current(device_pool*& pool)
  {
    int device = 0;
    if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
    {
      return e;
    }
    return get(device, pool, true);
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
  device_pool* pool = nullptr;
  if (const cudaError_t e = the_pools().current(pool); e != cudaSuccess)
  {
    return e;
  }
  return pool->allocate(ptr, bytes, stream);
}

cudaError_t pool_deallocate(void* ptr, std::size_t bytes, cudaStream_t stream)
{
  device_pool* pool = nullptr;
  if (const cudaError_t e = the_pools().current(pool); e != cudaSuccess)
  {
    return e;
  }
  return pool->deallocate(ptr, bytes, stream);
}

cudaError_t pool_get_statistics(int device, pool_statistics& statistics)
{
  statistics       = pool_statistics{};
  device_pool* pool = nullptr;
  if (const cudaError_t e = the_pools().get(device, pool, false); e != cudaSuccess || pool == nullptr)
  {
    return e;
  }
  return pool->statistics(statistics);
}

cudaError_t pool_release_cached(int device)
{
  device_pool* pool = nullptr;
  if (const cudaError_t e = the_pools().get(device, pool, false); e != cudaSuccess || pool == nullptr)
  {
    return e;
  }
  return pool->release_cached();
}

cudaError_t pool_reset_high_water_marks(int device)
{
  device_pool* pool = nullptr;
  if (const cudaError_t e = the_pools().get(device, pool, false); e != cudaSuccess || pool == nullptr)
  {
    return e;
  }
  return pool->reset_high_water_marks();
}

cudaError_t thread_result_buffer(void** ptr, std::size_t bytes)
{
  thread_local result_buffer buffer;
  return buffer.get(ptr, bytes);
}

} // namespace backend
} // namespace strata
