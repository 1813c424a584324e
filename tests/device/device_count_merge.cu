// Counts in device memory (strata::device_count) for DeviceMerge: the first range's count, the second's, or both, for
// MergeKeys and MergePairs (keys with many ties, so the merge's stability shows in the values): the same bytes over the
// whole output buffers (poisoned first) as the call given the counts on the host, for counts from 0 to the bound, one
// above it (taken as the bound) and a negative one (taken as 0), under bounds of one tile and of many
// (device_count_harness.cuh). The single-phase form, and a null count pointer refused before anything runs.
#include <strata/device/device_merge.cuh>

#include "device_count_harness.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace
{
using count_test::bytes_of;
using count_test::random_items;
using count_test::require_same_as_host_count;
using count_test::two_phase;
using strata_test::device_buffer;

// n sorted keys in [0, 1000): many ties.
std::vector<std::uint32_t> sorted_keys(std::size_t n, std::uint64_t salt)
{
  std::vector<std::uint32_t> v = random_items<std::uint32_t>(n, salt);
  for (auto& x : v)
  {
    x %= 1000u;
  }
  std::sort(v.begin(), v.end());
  return v;
}

// The values: each item's position, tagged with its range.
std::vector<std::uint32_t> positions(std::size_t n, std::uint32_t tag)
{
  std::vector<std::uint32_t> v(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    v[i] = tag | static_cast<std::uint32_t>(i);
  }
  return v;
}

constexpr std::size_t OTHER = 5003; // the other range's items
} // namespace

TEST_CASE("DeviceMerge::MergeKeys takes either count, or both, from device memory", "[device][device_count][merge]")
{
  // The first range's count varies (the second's on the host), then the second's (the first's on the host).
  for (const bool first : {true, false})
  {
    require_same_as_host_count<int>(first ? "MergeKeys, count 1" : "MergeKeys, count 2", [first](auto num,
                                                                                                 std::size_t bound) {
      const device_buffer<std::uint32_t> d_a(sorted_keys(bound, 71));
      const device_buffer<std::uint32_t> d_b(sorted_keys(OTHER, 72));
      device_buffer<std::uint32_t> d_out(bound + OTHER);
      two_phase([&](void* temp, std::size_t& bytes) {
        return first ? strata::DeviceMerge::MergeKeys(temp, bytes, d_a.data(), num, d_b.data(), OTHER, d_out.data())
                     : strata::DeviceMerge::MergeKeys(temp, bytes, d_b.data(), OTHER, d_a.data(), num, d_out.data());
      });
      return bytes_of(d_out);
    });
  }
}

TEST_CASE("DeviceMerge::MergePairs takes both counts from device memory", "[device][device_count][merge]")
{
  // Both counts in device memory: the first is the one the harness varies, the second the same count read from
  // another device word (OTHER, or fewer where a count above OTHER comes along).
  require_same_as_host_count<long long>("MergePairs, both counts", [](auto num, std::size_t bound) {
    const device_buffer<std::uint32_t> d_ka(sorted_keys(bound, 73));
    const device_buffer<std::uint32_t> d_va(positions(bound, 0u));
    const device_buffer<std::uint32_t> d_kb(sorted_keys(OTHER, 74));
    const device_buffer<std::uint32_t> d_vb(positions(OTHER, 1u << 31));
    device_buffer<std::uint32_t> d_keys(bound + OTHER);
    device_buffer<std::uint32_t> d_values(bound + OTHER);
    const device_buffer<long long> d_other(std::vector<long long>{static_cast<long long>(OTHER) - 2});
    two_phase([&](void* temp, std::size_t& bytes) {
      if constexpr (strata::detail::is_device_count<decltype(num)>::value)
      {
        return strata::DeviceMerge::MergePairs(temp, bytes, d_ka.data(), d_va.data(), num, d_kb.data(), d_vb.data(),
                                               strata::device_count<long long>(d_other.data(), OTHER), d_keys.data(),
                                               d_values.data());
      }
      else
      {
        return strata::DeviceMerge::MergePairs(temp, bytes, d_ka.data(), d_va.data(), num, d_kb.data(), d_vb.data(),
                                               static_cast<long long>(OTHER) - 2, d_keys.data(), d_values.data());
      }
    });
    return bytes_of(d_keys, d_values);
  });
}

TEST_CASE("DeviceMerge with a device count: the single-phase form; a null count pointer is refused",
          "[device][device_count][merge]")
{
  const std::vector<std::uint32_t> a = sorted_keys(40000, 75);
  const std::vector<std::uint32_t> b = sorted_keys(30000, 76);
  const device_buffer<std::uint32_t> d_a(a);
  const device_buffer<std::uint32_t> d_b(b);
  device_buffer<std::uint32_t> d_out(a.size() + b.size());
  const device_buffer<int> d_count(std::vector<int>{25000});
  STRATA_TEST_CUDA(strata::DeviceMerge::MergeKeys(d_a.data(), strata::device_count<int>(d_count.data(), 40000),
                                                  d_b.data(), b.size(), d_out.data()));
  STRATA_TEST_SYNC();
  std::vector<std::uint32_t> want(a.begin(), a.begin() + 25000);
  want.insert(want.end(), b.begin(), b.end());
  std::stable_sort(want.begin(), want.end());
  std::vector<std::uint32_t> got = d_out.download();
  got.resize(want.size());
  REQUIRE(got == want);

  d_out.poison();
  const std::vector<std::uint32_t> before = d_out.download();
  const strata::device_count<int> null_count(nullptr, 40000);
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(
    strata::DeviceMerge::MergeKeys(nullptr, bytes, d_a.data(), null_count, d_b.data(), b.size(), d_out.data()));
  device_buffer<char> temp(bytes);
  CHECK(strata::DeviceMerge::MergeKeys(temp.data(), bytes, d_a.data(), null_count, d_b.data(), b.size(), d_out.data())
        == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  CHECK(d_out.download() == before);
}
