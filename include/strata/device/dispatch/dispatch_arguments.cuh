// Argument checks and offset-type selection shared by the device algorithms' entry points.
#pragma once

#include <strata/config.cuh>
#include <strata/util/device_count.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#if defined(STRATA_FORCE_32_BIT_OFFSETS) && defined(STRATA_FORCE_64_BIT_OFFSETS)
#  error "define at most one of STRATA_FORCE_32_BIT_OFFSETS and STRATA_FORCE_64_BIT_OFFSETS"
#endif

STRATA_NAMESPACE_BEGIN
namespace detail
{
// Checks the arguments every device algorithm shares: a non-negative count (a device_count's bound), and non-null
// pointers where something will be read or written (a device_count's pointer among them). Pointers are checked on the
// run only (a size query may pass nulls).
template <typename CountT, typename InputIteratorT, typename OutputIteratorT>
cudaError_t check_arguments(const void* d_temp_storage, const CountT& count, InputIteratorT d_in, OutputIteratorT d_out,
                            bool output_written_when_empty)
{
  static_assert(is_item_count_v<CountT>, "num_items must be an integer or a strata::device_count");
  using NumItemsT           = count_value_t<CountT>;
  const NumItemsT num_items = count_bound(count);
  if (d_temp_storage != nullptr && is_null_count(count))
  {
    return cudaErrorInvalidValue;
  }
  if constexpr (cuda::std::is_signed<NumItemsT>::value)
  {
    if (num_items < 0)
    {
      return cudaErrorInvalidValue;
    }
  }
  if (d_temp_storage == nullptr)
  {
    return cudaSuccess;
  }
  if constexpr (cuda::std::is_pointer<InputIteratorT>::value)
  {
    if (num_items > 0 && d_in == nullptr)
    {
      return cudaErrorInvalidValue;
    }
  }
  if constexpr (cuda::std::is_pointer<OutputIteratorT>::value)
  {
    if ((num_items > 0 || output_written_when_empty) && d_out == nullptr)
    {
      return cudaErrorInvalidValue;
    }
  }
  return cudaSuccess;
}

// Whether `it` is a null pointer (iterators that are not pointers never are).
template <typename IteratorT>
constexpr bool is_null_pointer(const IteratorT& it)
{
  if constexpr (cuda::std::is_pointer<IteratorT>::value)
  {
    return it == nullptr;
  }
  else
  {
    (void) it;
    return false;
  }
}

// Calls f(offset) with num_items (a device_count's bound) as the narrowest offset type that holds it with room for
// rounding up to whole tiles: 32-bit up to 2^31 - 1 items, 64-bit beyond. Each algorithm so builds two sets of kernels. A
// translation unit that defines STRATA_FORCE_32_BIT_OFFSETS builds the 32-bit set only (a call with more than
// 2^31 - 1 items fails with cudaErrorInvalidValue, before anything is touched), one that defines
// STRATA_FORCE_64_BIT_OFFSETS the 64-bit set only: Thrust's THRUST_FORCE_32/64_BIT_OFFSET_TYPE, for compile time.
template <typename CountT, typename F>
cudaError_t dispatch_offset(const CountT& count, F&& f)
{
  using NumItemsT           = count_value_t<CountT>;
  const NumItemsT num_items = count_bound(count);
#if defined(STRATA_FORCE_64_BIT_OFFSETS)
  return f(static_cast<cuda::std::uint64_t>(num_items));
#else
  if constexpr (sizeof(NumItemsT) <= 4 && cuda::std::is_signed<NumItemsT>::value)
  {
    return f(static_cast<cuda::std::uint32_t>(num_items));
  }
  else
  {
    if (static_cast<unsigned long long>(num_items) <= 0x7fffffffULL)
    {
      return f(static_cast<cuda::std::uint32_t>(num_items));
    }
#  if defined(STRATA_FORCE_32_BIT_OFFSETS)
    return cudaErrorInvalidValue;
#  else
    return f(static_cast<cuda::std::uint64_t>(num_items));
#  endif
  }
#endif
}
} // namespace detail
STRATA_NAMESPACE_END
