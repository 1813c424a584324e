// BlockRunLengthDecode: random runs (with runs of length 0 at the start, in the middle, at the end, or none), decoded
// window by window (aligned windows and windows that start inside a run), checked against a host expansion.
#include <strata/block/block_run_length_decode.cuh>

#include "test_util.cuh"

#include <cstdint>
#include <random>
#include <vector>

namespace
{
using strata_test::custom_t;

// How the decoder is built.
enum class construction
{
  lengths,         // (temp_storage, values, lengths, total)
  offsets,         // (temp_storage, values, offsets)
  private_lengths, // (values, lengths, total)
  private_offsets  // (values, offsets)
};

// Windows decoded per block; their starts come from the host.
constexpr int WINDOWS = 8;

template <typename ItemT, int BX, int BY, int BZ, int RUNS, int DECODED, typename DecodedOffsetT, typename RunLengthT,
          typename TotalT, construction CONSTRUCTION>
__global__ void __launch_bounds__(BX * BY * BZ)
  run_length_decode_kernel(const ItemT* d_values, const RunLengthT* d_lengths, const DecodedOffsetT* d_offsets,
                           const DecodedOffsetT* d_window_starts, TotalT* d_totals, ItemT* d_items,
                           DecodedOffsetT* d_relative_offsets, ItemT* d_items_only)
{
  using BlockRunLengthDecodeT = strata::BlockRunLengthDecode<ItemT, BX, RUNS, DECODED, DecodedOffsetT, BY, BZ>;
  constexpr int BLOCK_THREADS = BX * BY * BZ;
  constexpr int BLOCK_RUNS    = BLOCK_THREADS * RUNS;
  constexpr int WINDOW        = BLOCK_THREADS * DECODED;
  __shared__ typename BlockRunLengthDecodeT::TempStorage temp_storage;

  const int rank = threadIdx.x + BX * (threadIdx.y + BY * threadIdx.z);
  ItemT values[RUNS];
  RunLengthT lengths[RUNS];
  DecodedOffsetT offsets[RUNS];
  STRATA_UNROLL
  for (int i = 0; i < RUNS; ++i)
  {
    const int r = blockIdx.x * BLOCK_RUNS + rank * RUNS + i;
    values[i]   = d_values[r];
    lengths[i]  = d_lengths[r];
    offsets[i]  = d_offsets[r];
  }

  auto make = [&](TotalT& total) {
    if constexpr (CONSTRUCTION == construction::lengths)
    {
      return BlockRunLengthDecodeT(temp_storage, values, lengths, total);
    }
    else if constexpr (CONSTRUCTION == construction::offsets)
    {
      return BlockRunLengthDecodeT(temp_storage, values, offsets);
    }
    else if constexpr (CONSTRUCTION == construction::private_lengths)
    {
      return BlockRunLengthDecodeT(values, lengths, total);
    }
    else
    {
      return BlockRunLengthDecodeT(values, offsets);
    }
  };
  // Poison the total, so that a constructor that fails to write it is caught.
  TotalT total                                = static_cast<TotalT>(0x5a5a5a5a);
  BlockRunLengthDecodeT decoder               = make(total);
  d_totals[blockIdx.x * BLOCK_THREADS + rank] = total;

  // No barrier between windows: RunLengthDecode only reads the temporary storage.
  for (int w = 0; w < WINDOWS; ++w)
  {
    const DecodedOffsetT start = d_window_starts[blockIdx.x * WINDOWS + w];
    ItemT items[DECODED];
    DecodedOffsetT relative[DECODED];
    ItemT items_only[DECODED];
    if (w == 0)
    {
      // The default from_decoded_offset is 0 (the host makes the first window start at 0).
      decoder.RunLengthDecode(items, relative);
      decoder.RunLengthDecode(items_only);
    }
    else
    {
      decoder.RunLengthDecode(items, relative, start);
      decoder.RunLengthDecode(items_only, start);
    }
    STRATA_UNROLL
    for (int i = 0; i < DECODED; ++i)
    {
      const int o           = (blockIdx.x * WINDOWS + w) * WINDOW + rank * DECODED + i;
      d_items[o]            = items[i];
      d_relative_offsets[o] = relative[i];
      d_items_only[o]       = items_only[i];
    }
  }
}

// Run lengths of block b follow pattern b, each stressing one aspect of the decoder.
int draw_length(int pattern, int run, int block_runs, int decoded_per_thread, std::mt19937_64& rng)
{
  std::uniform_int_distribution<int> percent(0, 99);
  switch (pattern)
  {
    case 0: // short runs, a third of them empty
      return percent(rng) < 33 ? 0 : std::uniform_int_distribution<int>(1, 4)(rng);
    case 1: // long runs that span threads and windows, some empty
      return percent(rng) < 20 ? 0 : std::uniform_int_distribution<int>(1, 3 * decoded_per_thread + 5)(rng);
    case 2: // empty runs at the start and at the end, mixed lengths between
      if (run < block_runs / 4 || run >= block_runs - block_runs / 4)
      {
        return 0;
      }
      return percent(rng) < 25 ? 0 : std::uniform_int_distribution<int>(1, 9)(rng);
    case 3: // one run
      return run == block_runs / 2 ? 2 * decoded_per_thread + 3 : 0;
    case 4: // nothing to decode
      return 0;
    case 5: // no empty runs
      return std::uniform_int_distribution<int>(1, 5)(rng);
    default: // empty runs only at the end
      return run < block_runs / 2 ? std::uniform_int_distribution<int>(1, 2 * decoded_per_thread)(rng) : 0;
  }
}
constexpr int PATTERNS = 7;

template <typename ItemT, int BX, int BY, int BZ, int RUNS, int DECODED,
          construction CONSTRUCTION = construction::lengths, typename DecodedOffsetT = std::uint32_t,
          typename RunLengthT = std::uint32_t, typename TotalT = std::uint32_t>
void check_run_length_decode(std::uint64_t salt)
{
  constexpr int BLOCK_THREADS = BX * BY * BZ;
  constexpr int BLOCK_RUNS    = BLOCK_THREADS * RUNS;
  constexpr int WINDOW        = BLOCK_THREADS * DECODED;
  constexpr int BLOCKS        = PATTERNS;
  CAPTURE(BX, BY, BZ, RUNS, DECODED, static_cast<int>(CONSTRUCTION));

  const std::vector<ItemT> values = strata_test::random_vector<ItemT>(BLOCKS * BLOCK_RUNS, salt);
  std::mt19937_64 rng             = strata_test::make_rng(salt + 1);
  std::vector<RunLengthT> lengths(BLOCKS * BLOCK_RUNS);
  std::vector<DecodedOffsetT> offsets(BLOCKS * BLOCK_RUNS);
  std::vector<TotalT> expected_totals;
  std::vector<DecodedOffsetT> window_starts;
  // The host expansion of every block.
  std::vector<std::vector<ItemT>> expanded(BLOCKS);
  std::vector<std::vector<DecodedOffsetT>> expanded_relative(BLOCKS);

  for (int b = 0; b < BLOCKS; ++b)
  {
    DecodedOffsetT total = 0;
    for (int r = 0; r < BLOCK_RUNS; ++r)
    {
      const int k = b * BLOCK_RUNS + r;
      lengths[k]  = static_cast<RunLengthT>(draw_length(b, r, BLOCK_RUNS, DECODED, rng));
      offsets[k]  = total;
      total += static_cast<DecodedOffsetT>(lengths[k]);
      for (DecodedOffsetT j = 0; j < static_cast<DecodedOffsetT>(lengths[k]); ++j)
      {
        expanded[b].push_back(values[k]);
        expanded_relative[b].push_back(j);
      }
    }
    expected_totals.insert(expected_totals.end(), BLOCK_THREADS, static_cast<TotalT>(total));

    // Window starts: 0, the aligned windows that follow, then starts inside runs, all below the decoded size.
    std::vector<DecodedOffsetT> starts = {0};
    for (DecodedOffsetT s = WINDOW; s < total && starts.size() < WINDOWS / 2; s += WINDOW)
    {
      starts.push_back(s);
    }
    while (starts.size() < WINDOWS)
    {
      starts.push_back(total > 0 ? static_cast<DecodedOffsetT>(
                         std::uniform_int_distribution<std::uint64_t>(0, static_cast<std::uint64_t>(total) - 1)(rng))
                                 : 0);
    }
    if (total > 0)
    {
      starts.back() = total - 1;
    }
    window_starts.insert(window_starts.end(), starts.begin(), starts.end());
  }

  strata_test::device_buffer<ItemT> d_values(values);
  strata_test::device_buffer<RunLengthT> d_lengths(lengths);
  strata_test::device_buffer<DecodedOffsetT> d_offsets(offsets);
  strata_test::device_buffer<DecodedOffsetT> d_window_starts(window_starts);
  strata_test::device_buffer<TotalT> d_totals(BLOCKS * BLOCK_THREADS);
  strata_test::device_buffer<ItemT> d_items(BLOCKS * WINDOWS * WINDOW);
  strata_test::device_buffer<DecodedOffsetT> d_relative(BLOCKS * WINDOWS * WINDOW);
  strata_test::device_buffer<ItemT> d_items_only(BLOCKS * WINDOWS * WINDOW);

  run_length_decode_kernel<ItemT, BX, BY, BZ, RUNS, DECODED, DecodedOffsetT, RunLengthT, TotalT, CONSTRUCTION>
    <<<BLOCKS, dim3(BX, BY, BZ)>>>(d_values.data(), d_lengths.data(), d_offsets.data(), d_window_starts.data(),
                                   d_totals.data(), d_items.data(), d_relative.data(), d_items_only.data());
  STRATA_TEST_SYNC();

  if (CONSTRUCTION == construction::lengths || CONSTRUCTION == construction::private_lengths)
  {
    INFO("total_decoded_size in every thread");
    STRATA_REQUIRE_EQUAL_VECTORS(d_totals.download(), expected_totals);
  }

  // Only the items below the decoded size are specified; compare those.
  const std::vector<ItemT> items             = d_items.download();
  const std::vector<DecodedOffsetT> relative = d_relative.download();
  const std::vector<ItemT> items_only        = d_items_only.download();
  for (int b = 0; b < BLOCKS; ++b)
  {
    for (int w = 0; w < WINDOWS; ++w)
    {
      const std::size_t start = static_cast<std::size_t>(window_starts[b * WINDOWS + w]);
      const std::size_t count =
        std::min<std::size_t>(WINDOW, expanded[b].size() > start ? expanded[b].size() - start : 0);
      CAPTURE(b, w, start, count, expanded[b].size());
      const std::size_t o = static_cast<std::size_t>(b * WINDOWS + w) * WINDOW;
      const std::vector<ItemT> expected_items(expanded[b].begin() + start, expanded[b].begin() + start + count);
      const std::vector<DecodedOffsetT> expected_relative(expanded_relative[b].begin() + start,
                                                          expanded_relative[b].begin() + start + count);
      STRATA_REQUIRE_EQUAL_VECTORS(std::vector<ItemT>(items.begin() + o, items.begin() + o + count), expected_items);
      STRATA_REQUIRE_EQUAL_VECTORS(std::vector<DecodedOffsetT>(relative.begin() + o, relative.begin() + o + count),
                                   expected_relative);
      STRATA_REQUIRE_EQUAL_VECTORS(std::vector<ItemT>(items_only.begin() + o, items_only.begin() + o + count),
                                   expected_items);
    }
  }
}
} // namespace

TEMPLATE_TEST_CASE("BlockRunLengthDecode every item type (128 threads, 2 runs, 4 decoded items)",
                   "[block][run_length_decode]", STRATA_TEST_ALL_TYPES)
{
  check_run_length_decode<TestType, 128, 1, 1, 2, 4>(81);
}

TEST_CASE("BlockRunLengthDecode constructors", "[block][run_length_decode]")
{
  SECTION("run offsets")
  {
    check_run_length_decode<std::int32_t, 96, 1, 1, 3, 7, construction::offsets>(91);
  }
  SECTION("run lengths, private storage")
  {
    check_run_length_decode<std::int32_t, 100, 1, 1, 2, 3, construction::private_lengths>(92);
  }
  SECTION("run offsets, private storage")
  {
    check_run_length_decode<std::int32_t, 64, 1, 1, 4, 16, construction::private_offsets>(93);
  }
  SECTION("16-bit run lengths, 64-bit decoded offsets and total")
  {
    check_run_length_decode<std::int32_t, 128, 1, 1, 3, 4, construction::lengths, std::uint64_t, std::uint16_t,
                            long long>(94);
  }
}

TEMPLATE_TEST_CASE("BlockRunLengthDecode block shapes, runs and decoded items per thread", "[block][run_length_decode]",
                   std::uint8_t, double)
{
  SECTION("32 threads, 1 run, 1 item")
  {
    check_run_length_decode<TestType, 32, 1, 1, 1, 1>(101);
  }
  SECTION("64 threads, 2 runs, 3 items")
  {
    check_run_length_decode<TestType, 64, 1, 1, 2, 3>(102);
  }
  SECTION("96 threads, 1 run, 7 items")
  {
    check_run_length_decode<TestType, 96, 1, 1, 1, 7>(103);
  }
  SECTION("100 threads, 3 runs, 16 items")
  {
    check_run_length_decode<TestType, 100, 1, 1, 3, 16>(104);
  }
  SECTION("256 threads, 4 runs, 4 items")
  {
    check_run_length_decode<TestType, 256, 1, 1, 4, 4>(105);
  }
  SECTION("1024 threads, 2 runs, 3 items")
  {
    check_run_length_decode<TestType, 1024, 1, 1, 2, 3>(106);
  }
  SECTION("16x8 threads, 2 runs, 7 items")
  {
    check_run_length_decode<TestType, 16, 8, 1, 2, 7>(107);
  }
  SECTION("8x4x4 threads, 3 runs, 1 item, private storage")
  {
    check_run_length_decode<TestType, 8, 4, 4, 3, 1, construction::private_lengths>(108);
  }
}
