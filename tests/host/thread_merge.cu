// Host tests of the merge sort's thread-level steps, run on the CPU against std:: algorithms: MergePath's split
// at every diagonal, SerialMerge continuing from it (ties to the first range, outputs past the end left alone), a
// whole stable merge put together from per-thread pieces as the block and device sorts do, and StableOddEvenSort
// (and its prefix form) against std::stable_sort.
#include <strata/thread/thread_merge.cuh>
#include <strata/thread/thread_sort.cuh>

#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

namespace
{

// Items of a merge: a key, and where the item stood (0.. in A, then B), so stability can be checked.
struct item_t
{
  int key;
  int origin;
  friend bool operator==(const item_t& a, const item_t& b)
  {
    return a.key == b.key && a.origin == b.origin;
  }
};

struct by_key
{
  bool operator()(const item_t& a, const item_t& b) const
  {
    return a.key < b.key;
  }
};

struct by_key_descending
{
  bool operator()(const item_t& a, const item_t& b) const
  {
    return b.key < a.key;
  }
};

// A sorted run of n items with keys in [0, distinct), numbered from `origin`.
template <typename Compare>
std::vector<item_t> sorted_run(std::size_t n, int distinct, int origin, std::mt19937_64& rng, Compare compare)
{
  std::vector<item_t> v(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    v[i] = item_t{static_cast<int>(rng() % static_cast<std::uint64_t>(distinct)), origin + static_cast<int>(i)};
  }
  std::stable_sort(v.begin(), v.end(), compare);
  for (std::size_t i = 0; i < n; ++i)
  {
    v[i].origin = origin + static_cast<int>(i);
  }
  return v;
}

// The stable merge of A and B (A's items first among equals), as std::merge defines it.
template <typename Compare>
std::vector<item_t> reference_merge(const std::vector<item_t>& a, const std::vector<item_t>& b, Compare compare)
{
  std::vector<item_t> out(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), out.begin(), compare);
  return out;
}

template <int ITEMS, typename Compare>
void check_merge(std::size_t na, std::size_t nb, int distinct, std::uint64_t salt, Compare compare)
{
  CAPTURE(na, nb, distinct, ITEMS);
  std::mt19937_64 rng = strata_test::make_rng(salt);
  const std::vector<item_t> a = sorted_run(na, distinct, 0, rng, compare);
  const std::vector<item_t> b = sorted_run(nb, distinct, static_cast<int>(na), rng, compare);
  const std::vector<item_t> expected = reference_merge(a, b, compare);

  // MergePath at every diagonal: the split is the number of A's items among the first diag outputs.
  for (std::size_t diag = 0; diag <= na + nb; ++diag)
  {
    const std::size_t split = strata::MergePath(a.data(), b.data(), na, nb, diag, compare);
    const std::size_t from_a =
      static_cast<std::size_t>(std::count_if(expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(diag),
                                             [&](const item_t& x) { return x.origin < static_cast<int>(na); }));
    CAPTURE(diag);
    REQUIRE(split == from_a);
  }

  // The merge put together from "threads" of ITEMS outputs, each starting from its own MergePath split, with A and
  // B side by side in one array as in shared memory.
  std::vector<item_t> both(a);
  both.insert(both.end(), b.begin(), b.end());
  const int total = static_cast<int>(na + nb);
  std::vector<item_t> out(static_cast<std::size_t>(total), item_t{-1, -1});
  for (int first = 0; first < total; first += ITEMS)
  {
    const int split = strata::MergePath(both.data(), both.data() + na, static_cast<int>(na), static_cast<int>(nb),
                                        first, compare);
    item_t keys[ITEMS];
    int indices[ITEMS];
    for (int i = 0; i < ITEMS; ++i)
    {
      keys[i]    = item_t{-7, -7}; // outputs past the end must keep these
      indices[i] = -7;
    }
    strata::SerialMerge(both.data(),
                        split,
                        static_cast<int>(na) + first - split,
                        static_cast<int>(na) - split,
                        static_cast<int>(nb) - (first - split),
                        keys,
                        indices,
                        compare);
    for (int i = 0; i < ITEMS; ++i)
    {
      if (first + i < total)
      {
        CAPTURE(first, i);
        REQUIRE(keys[i] == both[static_cast<std::size_t>(indices[i])]);
        out[static_cast<std::size_t>(first + i)] = keys[i];
      }
      else
      {
        REQUIRE(keys[i] == item_t{-7, -7});
        REQUIRE(indices[i] == -7);
      }
    }
  }
  REQUIRE(out == expected);
}

} // namespace

TEST_CASE("MergePath and SerialMerge merge stably at every diagonal", "[thread][merge]")
{
  const std::size_t sizes[] = {0, 1, 2, 3, 7, 16, 31, 64, 100};
  std::uint64_t salt        = 1;
  for (std::size_t na : sizes)
  {
    for (std::size_t nb : sizes)
    {
      for (int distinct : {1, 3, 1000})
      {
        check_merge<1>(na, nb, distinct, ++salt, by_key{});
        check_merge<4>(na, nb, distinct, ++salt, by_key{});
        check_merge<7>(na, nb, distinct, ++salt, by_key_descending{});
      }
    }
  }
}

TEST_CASE("MergePath takes 64-bit offsets", "[thread][merge]")
{
  // Two runs read through a function of the index: A[i] = 2i, B[j] = 2j + 1 over 2^33 positions each; the first
  // diag outputs alternate, so the split at an even diagonal d is d / 2.
  struct evens
  {
    long long operator[](std::uint64_t i) const
    {
      return 2 * static_cast<long long>(i);
    }
  };
  struct odds
  {
    long long operator[](std::uint64_t i) const
    {
      return 2 * static_cast<long long>(i) + 1;
    }
  };
  const std::uint64_t n = std::uint64_t(1) << 33;
  for (std::uint64_t diag : {std::uint64_t(0), std::uint64_t(2), n, n + 6, 2 * n - 2, 2 * n})
  {
    CAPTURE(diag);
    CHECK(strata::MergePath(evens{}, odds{}, n, n, diag, std::less<long long>{}) == diag / 2);
  }
}

namespace
{
template <int ITEMS>
void check_odd_even_sort(int distinct, std::uint64_t salt)
{
  CAPTURE(ITEMS, distinct);
  std::mt19937_64 rng = strata_test::make_rng(salt);
  for (int trial = 0; trial < 200; ++trial)
  {
    int keys[ITEMS];
    int values[ITEMS];
    std::vector<std::pair<int, int>> expected;
    for (int i = 0; i < ITEMS; ++i)
    {
      keys[i]   = static_cast<int>(rng() % static_cast<std::uint64_t>(distinct));
      values[i] = i;
      expected.emplace_back(keys[i], i);
    }
    // The prefix form sorts the first `count` items and leaves the rest alone.
    const int count = trial % 2 == 0 ? ITEMS : static_cast<int>(rng() % (ITEMS + 1));
    std::stable_sort(expected.begin(), expected.begin() + count, [](const auto& a, const auto& b) {
      return a.first < b.first;
    });
    if (count == ITEMS)
    {
      strata::StableOddEvenSort(keys, values, std::less<int>{});
    }
    else
    {
      strata::detail::stable_odd_even_sort_prefix(keys, values, count, std::less<int>{});
    }
    CAPTURE(trial, count);
    for (int i = 0; i < ITEMS; ++i)
    {
      CAPTURE(i);
      REQUIRE(keys[i] == expected[static_cast<std::size_t>(i)].first);
      REQUIRE(values[i] == expected[static_cast<std::size_t>(i)].second);
    }
  }
}
} // namespace

TEST_CASE("StableOddEvenSort sorts a thread's items stably", "[thread][sort]")
{
  for (int distinct : {2, 5, 1 << 20})
  {
    check_odd_even_sort<1>(distinct, 11);
    check_odd_even_sort<2>(distinct, 12);
    check_odd_even_sort<3>(distinct, 13);
    check_odd_even_sort<8>(distinct, 14);
    check_odd_even_sort<17>(distinct, 15);
  }
  // Keys only: NullType values.
  int keys[5] = {4, 1, 3, 1, 0};
  strata::NullType none[5];
  strata::StableOddEvenSort(keys, none, std::greater<int>{});
  CHECK(std::vector<int>(keys, keys + 5) == std::vector<int>{4, 3, 1, 1, 0});
}
