// device_count: a number of items that lies in device memory, for the device algorithms' num_items.
//
//   // d_n: an int in device memory, at most n_max (written by a previous kernel, e.g. DeviceSelect's count)
//   strata::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, strata::device_count<int>(d_n, n_max));
//
// The host never reads the count: `bound` (known on the host) sizes the temporary storage and the grids, and the
// kernels read the count when they run, so a call may follow the kernel that writes it on the same stream, and a
// chain of calls can be captured into one CUDA graph whose replays each see another count. Every buffer must hold
// `bound` items, but nothing past the count is read or written. A count above `bound` is taken as `bound` (a kernel
// cannot report it), a negative one as 0. Results are those of the same call given the count on the host, bit for
// bit, floating-point reductions included; a floating-point scan repeats its bits run to run, but its bits may differ
// from the host call's (the bound, not the count, picks its kernel).
#pragma once

#include <strata/config.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

STRATA_NAMESPACE_BEGIN

template <typename T>
struct device_count
{
  static_assert(::cuda::std::is_integral<T>::value && !::cuda::std::is_same<T, bool>::value,
                "device_count counts in an integer type");
  using value_type = T;

  const T* count; // device memory, read by the kernels when they run
  T bound;        // host-known upper bound of *count

  constexpr device_count(const T* count_, T bound_)
      : count(count_)
      , bound(bound_)
  {}
};

namespace detail
{
template <typename T>
struct is_device_count : ::cuda::std::false_type
{};
template <typename T>
struct is_device_count<device_count<T>> : ::cuda::std::true_type
{};

// An algorithm's num_items: an integer, or a device_count.
template <typename NumItemsT>
constexpr bool is_item_count_v = (::cuda::std::is_integral<NumItemsT>::value
                                  && !::cuda::std::is_same<NumItemsT, bool>::value)
                              || is_device_count<NumItemsT>::value;

// The integer type of num_items: its own, or a device_count's.
template <typename NumItemsT>
struct count_value
{
  using type = NumItemsT;
};
template <typename T>
struct count_value<device_count<T>>
{
  using type = T;
};
template <typename NumItemsT>
using count_value_t = typename count_value<NumItemsT>::type;

// The host-known number of items of num_items: the integer, or a device_count's bound.
template <typename NumItemsT>
constexpr count_value_t<NumItemsT> count_bound(const NumItemsT& num_items)
{
  if constexpr (is_device_count<NumItemsT>::value)
  {
    return num_items.bound;
  }
  else
  {
    return num_items;
  }
}

// What a kernel gets of its count beside the bound it gets as its num_items: host_count where the host gave the count
// (the bound is the count), item_count where it is a device_count. The kernels are templates on it, so that those of
// host counts are the code they would be without device counts (a count that may change in a kernel holds registers
// through all of it); one item_count kernel serves every count type.
struct host_count
{
  static constexpr bool IN_DEVICE_MEMORY = false;

  template <typename OffsetT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE OffsetT resolve(OffsetT bound) const
  {
    return bound;
  }
};

// A device_count's pointer and its type's width and signedness.
struct item_count
{
  static constexpr bool IN_DEVICE_MEMORY = true;

  const void* ptr     = nullptr;
  unsigned char bytes = 0;
  bool is_signed      = false;

  // The count, at most `bound` (after the grid dependency wait of a kernel that may run beside the one writing it).
  template <typename OffsetT>
  STRATA_DEVICE STRATA_FORCEINLINE OffsetT resolve(OffsetT bound) const
  {
    long long value = 0;
    switch (bytes)
    {
      case 1:
        value = is_signed ? static_cast<long long>(*static_cast<const signed char*>(ptr))
                          : static_cast<long long>(*static_cast<const unsigned char*>(ptr));
        break;
      case 2:
        value = is_signed ? static_cast<long long>(*static_cast<const short*>(ptr))
                          : static_cast<long long>(*static_cast<const unsigned short*>(ptr));
        break;
      case 4:
        value = is_signed ? static_cast<long long>(*static_cast<const int*>(ptr))
                          : static_cast<long long>(*static_cast<const unsigned int*>(ptr));
        break;
      default:
      {
        if (is_signed)
        {
          value = *static_cast<const long long*>(ptr);
        }
        else
        {
          const unsigned long long u = *static_cast<const unsigned long long*>(ptr);
          return u < static_cast<unsigned long long>(bound) ? static_cast<OffsetT>(u) : bound;
        }
      }
    }
    if (value <= 0)
    {
      return OffsetT(0);
    }
    return static_cast<unsigned long long>(value) < static_cast<unsigned long long>(bound) ? static_cast<OffsetT>(value)
                                                                                           : bound;
  }
};

// In a kernel whose num_items and num_tiles (tiles of tile_items) came from the bound of a count in device memory:
// the count's items and tiles. False when that count is 0. Nothing for a host count.
template <typename CountT, typename OffsetT>
STRATA_DEVICE STRATA_FORCEINLINE bool resolve_tiles(const CountT& count, OffsetT& num_items, unsigned int& num_tiles,
                                                    int tile_items)
{
  if constexpr (CountT::IN_DEVICE_MEMORY)
  {
    num_items = count.resolve(num_items);
    num_tiles = static_cast<unsigned int>((num_items + OffsetT(tile_items - 1)) / OffsetT(tile_items));
    return num_items != OffsetT(0);
  }
  else
  {
    (void) count;
    (void) num_items;
    (void) num_tiles;
    (void) tile_items;
    return true;
  }
}

// What the kernels get of num_items besides its bound: host_count for an integer, item_count for a device_count.
template <typename NumItemsT>
auto item_count_of(const NumItemsT& num_items)
{
  if constexpr (is_device_count<NumItemsT>::value)
  {
    using T = typename NumItemsT::value_type;
    return item_count{num_items.count, static_cast<unsigned char>(sizeof(T)), ::cuda::std::is_signed<T>::value};
  }
  else
  {
    (void) num_items;
    return host_count{};
  }
}
template <typename NumItemsT>
using item_count_t = decltype(item_count_of(::cuda::std::declval<const NumItemsT&>()));

// Whether num_items is a device_count whose count pointer is null (a bad argument on the run).
template <typename NumItemsT>
bool is_null_count(const NumItemsT& num_items)
{
  if constexpr (is_device_count<NumItemsT>::value)
  {
    return num_items.count == nullptr;
  }
  else
  {
    (void) num_items;
    return false;
  }
}
} // namespace detail

STRATA_NAMESPACE_END
