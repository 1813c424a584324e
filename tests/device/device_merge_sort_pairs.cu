// DeviceMergeSort with values: every key type under int values at every size class (values are the input positions,
// so stability and the pairing of values with keys are both checked against std::stable_sort), ascending in place
// and descending into other arrays (inputs untouched), random and low-entropy keys, on a stream and under graph
// capture; value types from 1 to 16 bytes; all-equal, sorted and reverse-sorted keys; 64-bit offsets.
#include "device_merge_sort_harness.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace device_merge_sort_test;
using strata_test::custom_t;

TEMPLATE_TEST_CASE("DeviceMergeSort::SortPairs and SortPairsCopy match std::stable_sort at every size class",
                   "[device][merge_sort][pairs]", STRATA_TEST_ALL_TYPES)
{
  using KeyT = TestType;
  for (std::size_t n : sort_sizes(tile_items<KeyT, int>(), MAX_ITEMS, 12))
  {
    CAPTURE(n);
    const entropy e = n % 2 == 1 ? entropy::full : entropy::few_values;
    INFO("entropy " << entropy_name(e));
    const std::vector<KeyT> h_keys  = make_keys<KeyT>(n, e, 5 * n + 1);
    const std::vector<int> h_values = position_values<int>(n);
    const auto mode                 = mode_for(n);
    {
      INFO("SortPairs, ascending, in place");
      strata_test::device_buffer<KeyT> d_keys(h_keys);
      strata_test::device_buffer<int> d_values(h_values);
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceMergeSort::SortPairs(temp, bytes, d_keys.data(), d_values.data(), static_cast<int>(n),
                                                    ascending_t<KeyT>{}, s);
        },
        mode);
      require_sorted_pairs(d_keys.download(), d_values.download(), h_keys, ascending_t<KeyT>{});
    }
    {
      INFO("SortPairsCopy, descending");
      strata_test::device_buffer<KeyT> d_keys_in(h_keys);
      strata_test::device_buffer<int> d_values_in(h_values);
      strata_test::device_buffer<KeyT> d_keys_out(n);
      strata_test::device_buffer<int> d_values_out(n);
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceMergeSort::SortPairsCopy(temp, bytes, static_cast<const KeyT*>(d_keys_in.data()),
                                                        static_cast<const int*>(d_values_in.data()), d_keys_out.data(),
                                                        d_values_out.data(), static_cast<int>(n), descending_t<KeyT>{},
                                                        s);
        },
        mode);
      require_sorted_pairs(d_keys_out.download(), d_values_out.download(), h_keys, descending_t<KeyT>{});
      INFO("the inputs are left as they were");
      const std::vector<KeyT> keys_after = d_keys_in.download();
      for (std::size_t i = 0; i < n; ++i)
      {
        REQUIRE(same_key(keys_after[i], h_keys[i]));
      }
      STRATA_REQUIRE_EQUAL_VECTORS(d_values_in.download(), h_values);
    }
  }
}

namespace
{
// StableSortPairs of uint32 keys (few distinct) with ValueT values carrying their positions, at a few sizes.
template <typename ValueT>
void check_value_type(std::uint64_t salt)
{
  for (std::size_t n : short_sizes(tile_items<std::uint32_t, ValueT>()))
  {
    CAPTURE(n);
    const std::vector<std::uint32_t> h_keys = make_keys<std::uint32_t>(n, entropy::few_values, salt + n);
    const std::vector<ValueT> h_values      = position_values<ValueT>(n);
    strata_test::device_buffer<std::uint32_t> d_keys(h_keys);
    strata_test::device_buffer<ValueT> d_values(h_values);
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceMergeSort::StableSortPairs(temp, bytes, d_keys.data(), d_values.data(), n,
                                                        cuda::std::greater<>{}, s);
      },
      mode_for(n));
    // uint8 positions wrap at 256: the check is weaker there, still exact for the keys.
    require_sorted_pairs(d_keys.download(), d_values.download(), h_keys, greater_op{});
  }
}
} // namespace

TEST_CASE("DeviceMergeSort::StableSortPairs with values of every size", "[device][merge_sort][pairs]")
{
  SECTION("uint8 values")
  {
    check_value_type<std::uint8_t>(101);
  }
  SECTION("uint64 values")
  {
    check_value_type<std::uint64_t>(102);
  }
  SECTION("double values")
  {
    check_value_type<double>(103);
  }
  SECTION("custom_t values (16 bytes, larger than the keys)")
  {
    check_value_type<custom_t>(104);
  }
}

TEST_CASE("DeviceMergeSort::SortPairs of all-equal, sorted and reverse-sorted keys", "[device][merge_sort][pairs]")
{
  const std::size_t tile = tile_items<std::int32_t, int>();
  for (std::size_t n : {tile + 1, 8 * tile, 37 * tile + 11})
  {
    CAPTURE(n);
    std::vector<std::int32_t> equal(n, 42);
    std::vector<std::int32_t> sorted = make_keys<std::int32_t>(n, entropy::full, 31 * n);
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::int32_t> reversed(sorted.rbegin(), sorted.rend());
    for (const std::vector<std::int32_t>* h_keys : {&equal, &sorted, &reversed})
    {
      INFO((h_keys == &equal ? "all equal" : h_keys == &sorted ? "sorted" : "reverse sorted"));
      const std::vector<int> h_values = position_values<int>(n);
      strata_test::device_buffer<std::int32_t> d_keys(*h_keys);
      strata_test::device_buffer<int> d_values(h_values);
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceMergeSort::SortPairs(temp, bytes, d_keys.data(), d_values.data(), n, cuda::std::less<>{},
                                                  s);
      });
      require_sorted_pairs(d_keys.download(), d_values.download(), *h_keys, less_op{});
    }
  }
}

TEST_CASE("DeviceMergeSort pairs with 64-bit offsets", "[device][merge_sort][pairs]")
{
  // DispatchMergeSort with the offsets a sort of more than 2^31 items takes, at sizes that can be checked whole.
  const std::size_t tile = tile_items<std::int64_t, int>();
  for (std::size_t n : strata_test::sizes_within_cap({std::size_t(1), tile, 4 * tile + 1, std::size_t(1000003)}))
  {
    CAPTURE(n);
    const std::vector<std::int64_t> h_keys = make_keys<std::int64_t>(n, entropy::few_values, 41 * n);
    const std::vector<int> h_values        = position_values<int>(n);
    strata_test::device_buffer<std::int64_t> d_keys(h_keys);
    strata_test::device_buffer<int> d_values(h_values);
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return sort_with_64_bit_offsets(temp, bytes, d_keys.data(), d_values.data(), n, cuda::std::less<>{}, s);
      },
      mode_for(n));
    require_sorted_pairs(d_keys.download(), d_values.download(), h_keys, less_op{});
  }
}
