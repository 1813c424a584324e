// Shared by the tests/device/device_merge_sort_*.cu files: the sizes DeviceMergeSort is run at (every size class of
// test_sizes, and tile counts around powers of two, where the merge passes change number and where a run is left
// without a partner), the checks of keys and of pairs against std::stable_sort, and DispatchMergeSort with 64-bit
// offsets at sizes that fit in 32 bits.
#pragma once

#include <strata/device/device_merge_sort.cuh>
#include <strata/execution/policy.cuh>

#include "device_launch.cuh"
#include "merge_sort_test.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace device_merge_sort_test
{
using namespace merge_sort_test;

// The tile of DeviceMergeSort's newest tuning for keys KeyT and values ValueT (NullType: keys only).
template <typename KeyT, typename ValueT = strata::NullType>
constexpr std::size_t tile_items()
{
  return strata::detail::merge_sort::policy_hub<KeyT, ValueT>::MaxPolicy::MergeSortPolicy::TILE_ITEMS;
}

// The largest input of the size sweeps.
constexpr std::size_t MAX_ITEMS = std::size_t(1) << 21;

// test_sizes(tile, max_size), and tiles * tile + r for tile counts 2^k - 1, 2^k and 2^k + 1 (k = 1..5: one merge
// pass more at each power of two; one run without a partner just past it) and r in {-1, 0, 1, tile / 2}, all within
// STRATA_TEST_MAX_ITEMS.
inline std::vector<std::size_t> sort_sizes(std::size_t tile, std::size_t max_size, std::uint64_t salt)
{
  std::vector<std::size_t> s = strata_test::test_sizes(tile, max_size, salt);
  for (std::size_t k = 1; k <= 5; ++k)
  {
    for (std::size_t tiles : {(std::size_t(1) << k) - 1, std::size_t(1) << k, (std::size_t(1) << k) + 1})
    {
      for (std::size_t n : {tiles * tile - 1, tiles * tile, tiles * tile + 1, tiles * tile + tile / 2})
      {
        if (n <= strata_test::capped(max_size))
        {
          s.push_back(n);
        }
      }
    }
  }
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

// A few sizes for the tests that run many variants: the edge classes and a few tile counts (within
// STRATA_TEST_MAX_ITEMS).
inline std::vector<std::size_t> short_sizes(std::size_t tile)
{
  return strata_test::sizes_within_cap(
    {0, 1, 2, 33, tile - 1, tile, tile + 1, 2 * tile + 7, 5 * tile - 1, 16 * tile + 1, 65537, 1000003});
}

// Alternates stream and graph launches over the sizes (an empty sort always on a stream: it launches nothing).
inline strata_test::launch_mode mode_for(std::size_t n)
{
  return (n != 0 && n % 3 == 0) ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
}

// Checks that `actual` is `input` stably sorted by compare_op: keys bit for bit (see same_key).
template <typename KeyT, typename CompareOp>
void require_sorted_keys(const std::vector<KeyT>& actual, const std::vector<KeyT>& input, CompareOp compare_op)
{
  REQUIRE(actual.size() == input.size());
  const std::vector<std::size_t> order = stable_order(input.data(), input.size(), compare_op);
  for (std::size_t i = 0; i < actual.size(); ++i)
  {
    if (!same_key(actual[i], input[order[i]]))
    {
      INFO("position " << i << ": key " << key_text(actual[i]) << ", expected " << key_text(input[order[i]])
                       << " from input position " << order[i]);
      FAIL("keys differ");
    }
  }
  SUCCEED();
}

// Checks keys and values, where the input's value i is value_of<ValueT>(i): each value must come from the input
// position stable sorting puts at its place.
template <typename KeyT, typename ValueT, typename CompareOp>
void require_sorted_pairs(const std::vector<KeyT>& actual_keys, const std::vector<ValueT>& actual_values,
                          const std::vector<KeyT>& input, CompareOp compare_op)
{
  REQUIRE(actual_keys.size() == input.size());
  REQUIRE(actual_values.size() == input.size());
  const std::vector<std::size_t> order = stable_order(input.data(), input.size(), compare_op);
  for (std::size_t i = 0; i < actual_keys.size(); ++i)
  {
    if (!same_key(actual_keys[i], input[order[i]]))
    {
      INFO("position " << i << ": key " << key_text(actual_keys[i]) << ", expected " << key_text(input[order[i]])
                       << " from input position " << order[i]);
      FAIL("keys differ");
    }
    if (!(actual_values[i] == value_of<ValueT>(order[i])))
    {
      INFO("position " << i << ": value " << actual_values[i] << ", expected the value of input position " << order[i]
                       << " (key " << key_text(input[order[i]]) << ")");
      FAIL("values differ (unstable sort, or a value parted from its key)");
    }
  }
  SUCCEED();
}

// DispatchMergeSort with 64-bit offsets (what num_items > 2^31 - 1 takes), at any size. ValueT = NullType: keys only.
template <typename KeyT, typename ValueT, typename CompareOp>
cudaError_t sort_with_64_bit_offsets(void* d_temp, std::size_t& bytes, KeyT* d_keys, ValueT* d_values, std::size_t n,
                                     CompareOp compare_op, cudaStream_t stream)
{
  return strata::DispatchMergeSort<KeyT*, ValueT*, KeyT*, ValueT*, std::uint64_t, CompareOp>::Dispatch(
    d_temp, bytes, d_keys, d_values, d_keys, d_values, static_cast<std::uint64_t>(n), compare_op, stream);
}

} // namespace device_merge_sort_test
