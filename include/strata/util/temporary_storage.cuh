// temporary_storage::layout: how a device algorithm describes its scratch memory, so that the size query and
// the run share one code path and cannot disagree.
//
//   detail::temporary_storage::layout<2> layout;
//   auto partials = layout.get_slot(0)->create_alias<T>(num_blocks);   // slot 0: one array
//   auto flags    = layout.get_slot(1)->create_alias<int>();           // slot 1: sized later
//   flags.grow(num_tiles);
//   bool mapped = false;                                               // false: a size query
//   STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
//   if (!mapped) { return cudaSuccess; }
//   T* d_partials = partials.get();
//
// Slots are separate allocations inside the buffer, each aligned to ALIGN_BYTES. Aliases of one slot share
// its memory (they are never live at the same time); the slot is as large as its largest alias.
#pragma once

#include <strata/config.cuh>

#include <cuda/cmath>

#include <cstddef>
#include <cstdint>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace temporary_storage
{

// Alignment of every slot: enough for any vector access and for cache-line-aligned tile state.
constexpr std::size_t ALIGN_BYTES = 256;

// The size a layout without slots asks for: any non-null buffer will do, and none of it is touched.
constexpr std::size_t EMPTY_SIZE = 1;

class slot;

// A typed view of a slot: `count` elements of T once the layout is mapped to a buffer.
template <typename T>
class alias
{
public:
  // Make room for at least `count` elements (the slot grows with it; it never shrinks).
  void grow(std::size_t count);

  // The mapped pointer; nullptr before map_to_buffer or when the slot is empty.
  T* get() const;

  std::size_t size() const
  {
    return count_;
  }

private:
  friend class slot;
  alias(slot* s, std::size_t count)
      : slot_(s)
      , count_(0)
  {
    grow(count);
  }

  slot* slot_;
  std::size_t count_;
};

class slot
{
public:
  // An alias of `count` elements of T over this slot's memory.
  template <typename T>
  alias<T> create_alias(std::size_t count = 0)
  {
    return alias<T>(this, count);
  }

  std::size_t bytes() const
  {
    return bytes_;
  }
  void* pointer() const
  {
    return pointer_;
  }

private:
  template <typename T>
  friend class alias;
  template <int N>
  friend class layout;

  void require(std::size_t bytes)
  {
    bytes_ = bytes > bytes_ ? bytes : bytes_;
  }

  std::size_t bytes_ = 0;
  void* pointer_     = nullptr;
};

template <typename T>
void alias<T>::grow(std::size_t count)
{
  count_ = count > count_ ? count : count_;
  slot_->require(count_ * sizeof(T));
}

template <typename T>
T* alias<T>::get() const
{
  return count_ == 0 ? nullptr : static_cast<T*>(slot_->pointer());
}

template <int N>
class layout
{
  static_assert(N >= 1, "a layout has at least one slot");

public:
  layout()                         = default;
  layout(const layout&)            = delete;
  layout& operator=(const layout&) = delete;

  slot* get_slot(int index)
  {
    return &slots_[index];
  }

  // Bytes the buffer needs: every non-empty slot rounded up to ALIGN_BYTES, plus room to align the base;
  // at least 1, so that an algorithm with nothing to store still gets a non-null buffer to accept.
  std::size_t get_size() const
  {
    std::size_t total = 0;
    for (const slot& s : slots_)
    {
      total += round_up(s.bytes_);
    }
    return total == 0 ? EMPTY_SIZE : total + ALIGN_BYTES - 1;
  }

  // Points every slot into `buffer`. cudaErrorInvalidValue when the buffer is null or smaller than get_size().
  cudaError_t map_to_buffer(void* buffer, std::size_t bytes)
  {
    if (buffer == nullptr || bytes < get_size())
    {
      return cudaErrorInvalidValue;
    }
    const auto base       = reinterpret_cast<std::uintptr_t>(buffer);
    std::uintptr_t cursor = (base + ALIGN_BYTES - 1) & ~static_cast<std::uintptr_t>(ALIGN_BYTES - 1);
    for (slot& s : slots_)
    {
      s.pointer_ = s.bytes_ == 0 ? nullptr : reinterpret_cast<void*>(cursor);
      cursor += round_up(s.bytes_);
    }
    return cudaSuccess;
  }

  // The size query or the mapping: with a null d_temp_storage, sets temp_storage_bytes to get_size() and `mapped`
  // to false; else map_to_buffer(d_temp_storage, temp_storage_bytes), `mapped` true.
  cudaError_t query_or_map(void* d_temp_storage, std::size_t& temp_storage_bytes, bool& mapped)
  {
    mapped = d_temp_storage != nullptr;
    if (!mapped)
    {
      temp_storage_bytes = get_size();
      return cudaSuccess;
    }
    return map_to_buffer(d_temp_storage, temp_storage_bytes);
  }

private:
  static constexpr std::size_t round_up(std::size_t bytes)
  {
    return ::cuda::round_up(bytes, ALIGN_BYTES);
  }

  slot slots_[N];
};

} // namespace temporary_storage
} // namespace detail
STRATA_NAMESPACE_END
