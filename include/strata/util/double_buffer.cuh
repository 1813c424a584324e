// DoubleBuffer<T>: a pair of device buffers and a selector naming the one that holds the current data (CUB's
// contract). Algorithms that take one may use both buffers as scratch and leave their result in either; they set
// the selector to say which.
#pragma once

#include <strata/config.cuh>

STRATA_NAMESPACE_BEGIN

template <typename T>
struct DoubleBuffer
{
  T* d_buffers[2] = {nullptr, nullptr};
  int selector    = 0;

  DoubleBuffer() = default;
  STRATA_HOST_DEVICE DoubleBuffer(T* d_current, T* d_alternate)
      : d_buffers{d_current, d_alternate}
      , selector(0)
  {}

  STRATA_HOST_DEVICE T* Current() const
  {
    return d_buffers[selector];
  }
  STRATA_HOST_DEVICE T* Alternate() const
  {
    return d_buffers[selector ^ 1];
  }
};

STRATA_NAMESPACE_END
