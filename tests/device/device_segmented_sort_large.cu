// DeviceSegmentedSort over more than 2^31 items, on int8 keys made on the device from a hash of their position:
// 64-bit CSR offsets, 101005 small segments (every class up to 200 keys) around a segment of 2^30 + 77 keys and one
// of 2^30 + 2^27 + 999 keys across item 2^31 (both sorted by every block: the huge class), ascending and descending.
// Each segment of the output must be ordered and hold the same keys as the input's (their histogram), and the items
// after the last segment keep the output's poison; read back in chunks. Apart from device_segmented_sort.cu because
// its [large] case needs an optimized host build and 64-bit offsets (tests/CMakeLists.txt). Skipped where the device
// lacks the memory it needs.
#include <strata/device/device_segmented_sort.cuh>

#include "device_launch.cuh"
#include "large_segments.cuh"
#include "test_util.cuh"

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace
{
using large_test::add_small;
using large_test::N;
using large_test::require_device_memory;
using large_test::segments;
using large_test::TWO31;
using large_test::value_of;

// d_out against the input's segments: each one ordered (descending where asked) with the input's histogram of keys;
// the items after the last segment still poisoned. Read back in chunks of 2^28 items.
void require_sorted(const strata_test::device_buffer<std::int8_t>& d_out, const segments& s, bool descending)
{
  constexpr std::size_t CHUNK = std::size_t(1) << 28;
  std::vector<std::int8_t> chunk;
  std::size_t chunk_first = 0;
  const auto at           = [&](std::size_t i) -> std::int8_t {
    if (chunk.empty() || i < chunk_first || i >= chunk_first + chunk.size())
    {
      chunk_first = i;
      chunk.resize(std::min(CHUNK, d_out.size() - i));
      STRATA_TEST_CUDA(cudaMemcpy(chunk.data(), d_out.data() + i, chunk.size(), cudaMemcpyDeviceToHost));
    }
    return chunk[i - chunk_first];
  };
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < s.size() && wrong == 0; ++k)
  {
    std::array<long long, 256> histogram{};
    for (long long i = s.begin[k]; i < s.end[k]; ++i)
    {
      ++histogram[static_cast<std::uint8_t>(value_of(static_cast<std::size_t>(i)))];
    }
    for (long long i = s.begin[k]; i < s.end[k]; ++i)
    {
      const std::int8_t key = at(static_cast<std::size_t>(i));
      --histogram[static_cast<std::uint8_t>(key)];
      if (i > s.begin[k])
      {
        const std::int8_t before = at(static_cast<std::size_t>(i - 1));
        if (descending ? before < key : key < before)
        {
          ++wrong;
          INFO("segment " << k << " [" << s.begin[k] << ", " << s.end[k] << "), item " << i << ": " << +key << " after "
                          << +before);
          CHECK(false);
          break;
        }
      }
    }
    for (int v = 0; v < 256 && wrong == 0; ++v)
    {
      if (histogram[v] != 0)
      {
        ++wrong;
        INFO("segment " << k << ": key " << v - (v >= 128 ? 256 : 0) << " appears " << histogram[v]
                        << " times more in the input than in the output");
        CHECK(false);
      }
    }
  }
  for (std::size_t i = static_cast<std::size_t>(s.end.back()); i < d_out.size() && wrong == 0; ++i)
  {
    if (!strata_test::all_poisoned(std::vector<std::int8_t>{at(i)}))
    {
      ++wrong;
      INFO("item " << i << ", in no segment, was written");
      CHECK(false);
    }
  }
  CHECK(wrong == 0);
}
} // namespace

TEST_CASE("DeviceSegmentedSort over more than 2^31 keys with 64-bit offsets", "[device][segmented_sort][large]")
{
  // The keys, the output, the third buffer, the look-back words and the lists.
  require_device_memory(3 * N + N / 2 + (std::size_t(512) << 20));
  strata_test::device_buffer<std::int8_t> d_in(N);
  large_test::fill_values<<<4096, 256>>>(d_in.data(), N);
  STRATA_TEST_SYNC();
  std::mt19937_64 rng = strata_test::make_rng(0x1a60);

  segments s;
  long long at = add_small(s, 0, 100000, rng);
  s.add(at, at + (1LL << 30) + 77);
  at = add_small(s, s.end.back(), 1000, rng);
  REQUIRE(at < static_cast<long long>(TWO31));
  s.add(at, at + (1LL << 30) + (1LL << 27) + 999);
  REQUIRE(static_cast<std::size_t>(s.end.back()) > TWO31);
  add_small(s, s.end.back(), 5, rng);
  REQUIRE(static_cast<std::size_t>(s.end.back()) < N - 1000);
  std::vector<long long> offsets = s.begin;
  offsets.push_back(s.end.back());
  const strata_test::device_buffer<long long> d_offsets(offsets);
  strata_test::device_buffer<std::int8_t> d_out(N);

  for (const bool descending : {false, true})
  {
    CAPTURE(descending);
    d_out.poison();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t stream) {
      const auto num_items    = static_cast<long long>(N);
      const auto num_segments = static_cast<long long>(s.size());
      return descending
             ? strata::DeviceSegmentedSort::SortKeysDescending(temp, bytes, d_in.data(), d_out.data(), num_items,
                                                               num_segments, d_offsets.data(), d_offsets.data() + 1,
                                                               stream)
             : strata::DeviceSegmentedSort::SortKeys(temp, bytes, d_in.data(), d_out.data(), num_items, num_segments,
                                                     d_offsets.data(), d_offsets.data() + 1, stream);
    });
    require_sorted(d_out, s, descending);
  }
}
