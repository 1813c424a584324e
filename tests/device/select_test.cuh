// What the tests of the select family (DeviceSelect, DevicePartition, DeviceRunLengthEncode) share.
#pragma once

#include <strata/device/dispatch/tuning/tuning_select.cuh>

#include <cstddef>

namespace select_test
{
// The largest input of the size sweeps of the newer select-family tests.
constexpr std::size_t MAX_ITEMS = std::size_t(1) << 21;

// The tile of DeviceSelect's newest tuning for items of T (the tuning is chosen by the items' value type).
template <typename T>
constexpr std::size_t tile_items()
{
  return strata::detail::select::policy_hub<T>::MaxPolicy::SelectPolicy::TILE_ITEMS;
}
} // namespace select_test
