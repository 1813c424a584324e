// Uninitialized<T>: raw, suitably aligned storage for a T that may not be trivially constructible.
//
// Collectives keep their shared-memory TempStorage in Uninitialized<> so that a union of several of them
// (or a __shared__ variable of one) needs no constructor; `Alias()` gives the T view.
#pragma once

#include <strata/config.cuh>

STRATA_NAMESPACE_BEGIN

template <typename T>
struct Uninitialized
{
  // Storage in words of the alignment of T, so the union keeps T's alignment and size.
  alignas(T) unsigned char storage[sizeof(T)];

  STRATA_HOST_DEVICE STRATA_FORCEINLINE T& Alias()
  {
    return *reinterpret_cast<T*>(storage);
  }
  STRATA_HOST_DEVICE STRATA_FORCEINLINE const T& Alias() const
  {
    return *reinterpret_cast<const T*>(storage);
  }
};

// The empty TempStorage of collectives that need no shared memory.
struct NullType
{};

// A T at the start of the kernel's dynamic shared memory, which its launches give at least sizeof(T) bytes: the
// storage of a kernel whose tile may pass the 48 KiB of static shared memory. T's alignment is at most 128 bytes (the
// bulk copies' tiles ask for 128).
template <typename T>
STRATA_DEVICE STRATA_FORCEINLINE T& DynamicSharedStorage()
{
  extern __shared__ __align__(128) unsigned char strata_dynamic_shared_memory[];
  static_assert(alignof(T) <= 128, "the storage fits the dynamic shared memory's alignment");
  return *reinterpret_cast<T*>(strata_dynamic_shared_memory);
}

STRATA_NAMESPACE_END
