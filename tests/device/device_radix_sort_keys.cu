// DeviceRadixSort::SortKeys and SortKeysDescending on integer keys (bool included): every size class (partial last
// tiles around several likely tile sizes), every key pattern (random, low entropy, all equal, sorted, reverse sorted,
// upper digits constant, only the top byte differing), every partial-tile remainder up to two tiles, every num_items
// type, and the calls that leave begin_bit, end_bit and the stream to their defaults.
#include "device_radix_sort_harness.cuh"

#include <algorithm>
#include <cstdint>
#include <vector>

#define DRS_TEST_INTEGER_KEYS \
  std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, bool

namespace
{
using drs_test::key_pattern;
using drs_test::pattern;

constexpr std::size_t MAX_ITEMS = (std::size_t(1) << 21) + 3;
} // namespace

TEMPLATE_TEST_CASE("DeviceRadixSort::SortKeys and SortKeysDescending match a stable host sort at every size class",
                   "[device][radix_sort][keys]", DRS_TEST_INTEGER_KEYS)
{
  using K                              = TestType;
  const std::vector<std::size_t> sizes = drs_test::sort_sizes<K>(MAX_ITEMS, sizeof(K) * 7 + 1);
  const key_pattern random{pattern::random, 0, "random"};
  const key_pattern low_entropy{pattern::low_entropy, 3, "low entropy (AND of 3 words)"};
  std::size_t i = 0;
  for (const std::size_t n : sizes)
  {
    // Random and low-entropy keys by turns; every eighth size also under graph capture.
    const key_pattern& p = i % 2 == 0 ? random : low_entropy;
    CAPTURE(n, p.name);
    const auto keys = drs_test::make_keys<K>(n, p, 11 * n + sizeof(K));
    for (const bool descending : drs_test::directions(i))
    {
      drs_test::sort_options o;
      o.descending = descending;
      o.mode       = i % 8 == 5 ? strata_test::launch_mode::graph : strata_test::launch_mode::stream;
      drs_test::check_sort<K>(keys, o);
    }
    ++i;
  }
}

TEMPLATE_TEST_CASE("DeviceRadixSort::SortKeys and SortKeysDescending sort every key pattern",
                   "[device][radix_sort][keys][patterns]", DRS_TEST_INTEGER_KEYS)
{
  using K = TestType;
  // One block's worth, a few tiles, many tiles.
  for (const std::size_t n : drs_test::sizes_within_cap({1000, 3 * 6144 + 17, 200003}))
  {
    for (const key_pattern& p : drs_test::all_patterns())
    {
      CAPTURE(n, p.name);
      const auto keys = drs_test::make_keys<K>(n, p, 13 * n + static_cast<std::size_t>(p.kind) * 101 + p.ands);
      for (const bool descending : {false, true})
      {
        drs_test::sort_options o;
        o.descending = descending;
        drs_test::check_sort<K>(keys, o);
      }
    }
  }
}

TEST_CASE("DeviceRadixSort::SortKeys and SortKeysDescending at every partial-tile remainder up to two tiles",
          "[device][radix_sort][keys][remainders]")
{
  // uint32 keys, n = every size in [0, 2 * tile + 1] for the onesweep tile (sampled under the sanitizer), ascending and
  // descending (by turns under the sanitizer), all enqueued on one stream into disjoint windows of an output arena
  // with poisoned guards between them; the arena is read back and checked whenever it is full.
  using K                              = std::uint32_t;
  const std::size_t tile               = drs_test::policy_tiles<K>()[0];
  const std::size_t last               = drs_test::capped(2 * tile + 1);
  constexpr std::size_t GUARD          = 8;
  constexpr std::size_t ARENA          = std::size_t(1) << 23;
  const std::vector<std::size_t> sweep = strata_test::remainder_sweep(last, tile);
  const std::vector<K> h_in = drs_test::make_keys<K>(last, key_pattern{pattern::random, 0, "random"}, 0x5eeb);
  strata_test::device_buffer<K> d_in(h_in);
  strata_test::device_buffer<K> d_out(ARENA);

  // One temporary allocation, as large as the largest query (a larger temp_storage_bytes than asked for is fine).
  std::size_t temp_bytes = 0;
  for (const std::size_t n : sweep)
  {
    for (const bool descending : {false, true})
    {
      std::size_t bytes   = 0;
      const cudaError_t e = descending
                            ? strata::DeviceRadixSort::SortKeysDescending(nullptr, bytes, d_in.data(), d_out.data(),
                                                                          static_cast<int>(n), 0, 32, cudaStream_t{0})
                            : strata::DeviceRadixSort::SortKeys(nullptr, bytes, d_in.data(), d_out.data(),
                                                                static_cast<int>(n), 0, 32, cudaStream_t{0});
      REQUIRE(e == cudaSuccess);
      temp_bytes = std::max(temp_bytes, bytes);
    }
  }
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, temp_bytes));
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  cudaStream_t s{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  struct run
  {
    std::size_t n;
    bool descending;
    std::size_t offset;
  };
  std::vector<run> batch;
  std::size_t used = 0;
  std::vector<K> sorted; // the first `have` input keys in ascending order
  std::size_t have   = 0;
  std::size_t checks = 0;
  auto check_batch   = [&] {
    STRATA_TEST_CUDA(cudaStreamSynchronize(s));
    std::vector<K> out(used);
    STRATA_TEST_CUDA(cudaMemcpy(out.data(), d_out.data(), used * sizeof(K), cudaMemcpyDeviceToHost));
    for (const run& r : batch)
    {
      for (; have < r.n; ++have)
      {
        sorted.insert(std::upper_bound(sorted.begin(), sorted.end(), h_in[have]), h_in[have]);
      }
      for (std::size_t j = 0; j < r.n; ++j)
      {
        const K expected = r.descending ? sorted[r.n - 1 - j] : sorted[j];
        if (out[r.offset + j] != expected)
        {
          INFO("n " << r.n << (r.descending ? " descending" : " ascending") << ": position " << j << " holds "
                      << out[r.offset + j] << ", expected " << expected);
          FAIL("wrong sorted keys");
        }
      }
      const std::vector<K> guard(out.begin() + r.offset + r.n, out.begin() + r.offset + r.n + GUARD);
      INFO("n " << r.n << (r.descending ? " descending" : " ascending") << ": the items after the output");
      REQUIRE(strata_test::all_poisoned(guard));
      ++checks;
    }
    batch.clear();
    used = 0;
    STRATA_TEST_CUDA(cudaMemsetAsync(d_out.data(), strata_test::poison_byte, ARENA * sizeof(K), s));
  };

  std::size_t runs = 0;
  for (std::size_t i = 0; i < sweep.size(); ++i)
  {
    const std::size_t n = sweep[i];
    for (const bool descending : drs_test::directions(i))
    {
      if (used + n + GUARD > ARENA)
      {
        check_batch();
      }
      std::size_t bytes = temp_bytes;
      K* const out      = d_out.data() + used;
      const cudaError_t e =
        descending
          ? strata::DeviceRadixSort::SortKeysDescending(d_temp, bytes, d_in.data(), out, static_cast<int>(n), 0, 32, s)
          : strata::DeviceRadixSort::SortKeys(d_temp, bytes, d_in.data(), out, static_cast<int>(n), 0, 32, s);
      if (e != cudaSuccess)
      {
        CAPTURE(n, descending);
        REQUIRE(e == cudaSuccess);
      }
      batch.push_back(run{n, descending, used});
      used += n + GUARD;
      ++runs;
    }
  }
  check_batch();
  STRATA_TEST_CUDA(cudaStreamSynchronize(s));
  STRATA_TEST_CUDA(cudaGetLastError());
  STRATA_TEST_CUDA(cudaStreamDestroy(s));
  STRATA_TEST_CUDA(cudaFree(d_temp));
  CHECK(checks == runs);
  INFO("the input is left as it was");
  STRATA_REQUIRE_EQUAL_VECTORS(d_in.download(), h_in);
}

TEST_CASE("DeviceRadixSort::SortKeys accepts every num_items type", "[device][radix_sort][keys]")
{
  using K = std::uint32_t;
  for (const std::size_t n : drs_test::sizes_within_cap({1, 4095, 6145, 1000003}))
  {
    CAPTURE(n);
    const std::vector<K> h_in =
      drs_test::make_keys<K>(n, key_pattern{pattern::low_entropy, 2, "low entropy"}, 17 * n + 1);
    std::vector<K> expected = h_in;
    std::sort(expected.begin(), expected.end());
    strata_test::device_buffer<K> d_in(h_in);
    strata_test::device_buffer<K> d_out(n);
    auto run = [&](auto num_items) {
      d_out.poison();
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceRadixSort::SortKeys(temp, bytes, d_in.data(), d_out.data(), num_items, 0, 32, s);
      });
      STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), expected);
    };
    {
      INFO("int");
      run(static_cast<int>(n));
    }
    {
      INFO("unsigned");
      run(static_cast<unsigned>(n));
    }
    {
      INFO("long long");
      run(static_cast<long long>(n));
    }
    {
      INFO("unsigned long long");
      run(static_cast<unsigned long long>(n));
    }
  }
}

TEST_CASE("DeviceRadixSort::SortKeys with begin_bit, end_bit and the stream left to their defaults",
          "[device][radix_sort][keys]")
{
  // The defaults: every bit of the key, the legacy default stream.
  using K                   = std::int64_t;
  const std::size_t n       = drs_test::capped(100003);
  const std::vector<K> h_in = drs_test::make_keys<K>(n, key_pattern{pattern::random, 0, "random"}, 0xdef);
  std::vector<K> ascending  = h_in;
  std::sort(ascending.begin(), ascending.end());
  const std::vector<K> descending(ascending.rbegin(), ascending.rend());
  strata_test::device_buffer<K> d_in(h_in);
  strata_test::device_buffer<K> d_out(n);
  strata_test::device_buffer<K> d_alt(n);
  const int num_items = static_cast<int>(n);

  auto two_phase = [](auto call) {
    std::size_t bytes = 0;
    STRATA_TEST_CUDA(call(nullptr, bytes));
    REQUIRE(bytes > 0);
    void* d_temp = nullptr;
    STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
    STRATA_TEST_CUDA(call(d_temp, bytes));
    STRATA_TEST_SYNC();
    STRATA_TEST_CUDA(cudaFree(d_temp));
  };
  SECTION("in/out")
  {
    two_phase([&](void* t, std::size_t& b) {
      return strata::DeviceRadixSort::SortKeys(t, b, d_in.data(), d_out.data(), num_items);
    });
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), ascending);
    d_out.poison();
    two_phase([&](void* t, std::size_t& b) {
      return strata::DeviceRadixSort::SortKeysDescending(t, b, d_in.data(), d_out.data(), num_items);
    });
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), descending);
    STRATA_REQUIRE_EQUAL_VECTORS(d_in.download(), h_in);
  }
  SECTION("DoubleBuffer")
  {
    strata::DoubleBuffer<K> keys(d_in.data(), d_alt.data());
    two_phase([&](void* t, std::size_t& b) {
      return strata::DeviceRadixSort::SortKeys(t, b, keys, num_items);
    });
    REQUIRE((keys.selector == 0 || keys.selector == 1));
    STRATA_REQUIRE_EQUAL_VECTORS((keys.selector == 0 ? d_in : d_alt).download(), ascending);

    d_in.upload(h_in);
    d_alt.poison();
    strata::DoubleBuffer<K> again(d_in.data(), d_alt.data());
    two_phase([&](void* t, std::size_t& b) {
      return strata::DeviceRadixSort::SortKeysDescending(t, b, again, num_items);
    });
    REQUIRE((again.selector == 0 || again.selector == 1));
    STRATA_REQUIRE_EQUAL_VECTORS((again.selector == 0 ? d_in : d_alt).download(), descending);
  }
}
