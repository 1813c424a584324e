// Host tests of the merge sort's thread-level steps, run on the CPU against std:: algorithms: MergePath's split
// at every diagonal, SerialMerge continuing from it (ties to the first range, outputs past the end left alone), a
// whole stable merge put together from per-thread pieces as the block and device sorts do, the padded merge step
// of full tiles (reads at most one slot past each range, never compares it), the search by rounds of 32 probes
// (a warp's ballots played lane by lane) against MergePath, and StableOddEvenSort (and its prefix form) against
// std::stable_sort.
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
  std::mt19937_64 rng                = strata_test::make_rng(salt);
  const std::vector<item_t> a        = sorted_run(na, distinct, 0, rng, compare);
  const std::vector<item_t> b        = sorted_run(nb, distinct, static_cast<int>(na), rng, compare);
  const std::vector<item_t> expected = reference_merge(a, b, compare);

  // MergePath at every diagonal: the split is the number of A's items among the first diag outputs.
  for (std::size_t diag = 0; diag <= na + nb; ++diag)
  {
    const std::size_t split  = strata::MergePath(a.data(), b.data(), na, nb, diag, compare);
    const std::size_t from_a = static_cast<std::size_t>(
      std::count_if(expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(diag), [&](const item_t& x) {
        return x.origin < static_cast<int>(na);
      }));
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
    const int split =
      strata::MergePath(both.data(), both.data() + na, static_cast<int>(na), static_cast<int>(nb), first, compare);
    item_t keys[ITEMS];
    int indices[ITEMS];
    for (int i = 0; i < ITEMS; ++i)
    {
      keys[i]    = item_t{-7, -7}; // outputs past the end must keep these
      indices[i] = -7;
    }
    strata::SerialMerge(both.data(), split, static_cast<int>(na) + first - split, static_cast<int>(na) - split,
                        static_cast<int>(nb) - (first - split), keys, indices, compare);
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
constexpr int POISON = -99;

// A buffer of keys read through operator[], which fails the test on a read outside the slots it allows: [beg, last]
// of each range, where last is one past the range's end.
struct checked_keys
{
  const std::vector<item_t>* items;
  int range1_beg, range1_last, range2_beg, range2_last;

  item_t operator[](int i) const
  {
    const bool allowed = (i >= range1_beg && i <= range1_last) || (i >= range2_beg && i <= range2_last);
    CAPTURE(i, range1_beg, range1_last, range2_beg, range2_last);
    REQUIRE(allowed);
    return (*items)[static_cast<std::size_t>(i)];
  }
};

// `Compare`, failing the test when it is handed a key that is not one of the ranges' (a poisoned padding slot).
template <typename Compare>
struct never_poison
{
  Compare compare;
  bool operator()(const item_t& a, const item_t& b) const
  {
    REQUIRE(a.key != POISON);
    REQUIRE(b.key != POISON);
    return compare(a, b);
  }
};

// detail::serial_merge_padded over A and B laid out as a full tile's shared memory lays them out, for every thread
// whose ITEMS outputs all lie in the merge (the padded step's contract): side by side with one slot after B
// (`apart` = false), or each followed by a poisoned slot (`apart` = true), so that one past either range is a slot
// no comparison may see.
template <int ITEMS, typename Compare>
void check_padded_merge(std::size_t na, std::size_t nb, int distinct, bool apart, std::uint64_t salt, Compare compare)
{
  CAPTURE(na, nb, distinct, ITEMS, apart);
  std::mt19937_64 rng                = strata_test::make_rng(salt);
  const std::vector<item_t> a        = sorted_run(na, distinct, 0, rng, compare);
  const std::vector<item_t> b        = sorted_run(nb, distinct, static_cast<int>(na), rng, compare);
  const std::vector<item_t> expected = reference_merge(a, b, compare);

  std::vector<item_t> buffer(a);
  if (apart)
  {
    buffer.push_back(item_t{POISON, POISON});
  }
  const int b_at = static_cast<int>(buffer.size());
  buffer.insert(buffer.end(), b.begin(), b.end());
  buffer.push_back(item_t{POISON, POISON}); // the slot after the tile
  const int total = static_cast<int>(na + nb);

  for (int first = 0; first + ITEMS <= total; ++first)
  {
    CAPTURE(first);
    const int split = strata::MergePath(a.data(), b.data(), static_cast<int>(na), static_cast<int>(nb), first, compare);
    const int keys1_beg = split;
    const int keys2_beg = b_at + first - split;
    const int keys1_end = static_cast<int>(na);
    const int keys2_end = b_at + static_cast<int>(nb);
    const checked_keys keys{&buffer, keys1_beg, keys1_end, keys2_beg, keys2_end};
    item_t out[ITEMS];
    int indices[ITEMS];
    strata::detail::serial_merge_padded(keys, keys1_beg, keys2_beg, keys1_end - keys1_beg, keys2_end - keys2_beg, out,
                                        indices, never_poison<Compare>{compare});
    for (int i = 0; i < ITEMS; ++i)
    {
      CAPTURE(i);
      REQUIRE(out[i] == expected[static_cast<std::size_t>(first + i)]);
      REQUIRE(buffer[static_cast<std::size_t>(indices[i])] == out[i]);
    }
  }
}

// The split MergePath finds, by detail::merge_path_by_rounds with a warp's ballot played lane by lane; also checks
// that every probe reads inside the runs and that the rounds are as few as the design says (n candidates become at
// most n / 33; a round over 32 or fewer ends it).
template <typename OffsetT, typename Keys1, typename Keys2, typename Compare>
OffsetT split_by_rounds(Keys1 keys1, Keys2 keys2, OffsetT n1, OffsetT n2, OffsetT diag, Compare compare)
{
  const OffsetT lo0 = diag > n2 ? OffsetT(diag - n2) : OffsetT(0);
  const OffsetT hi0 = diag < n1 ? diag : n1;
  int most_rounds   = 0;
  for (OffsetT n = hi0 - lo0; n > 0; n = n > OffsetT(32) ? n / OffsetT(33) : OffsetT(0))
  {
    ++most_rounds;
  }
  int rounds        = 0;
  const OffsetT got = strata::detail::merge_path_by_rounds(n1, n2, diag, [&](OffsetT lo, OffsetT hi) {
    ++rounds;
    unsigned int ballot = 0;
    bool in_order       = true; // probes in [lo, hi], increasing, and only the last ones at hi
    bool in_runs        = true; // the keys a probe reads lie in the runs
    OffsetT previous    = lo;
    for (unsigned int lane = 0; lane < 32; ++lane)
    {
      const OffsetT probe = strata::detail::merge_path_probe(lo, hi, lane);
      in_order            = in_order && probe >= lo && probe <= hi && (lane == 0 || probe > previous || probe == hi);
      previous            = probe;
      bool holds          = true;
      if (probe < hi)
      {
        in_runs = in_runs && probe < n1 && diag - OffsetT(1) - probe < n2;
        holds   = compare(keys2[diag - OffsetT(1) - probe], keys1[probe]);
      }
      ballot |= holds ? (1u << lane) : 0u;
    }
    CAPTURE(lo, hi);
    REQUIRE(in_order);
    REQUIRE(in_runs);
    return ballot;
  });
  REQUIRE(rounds <= most_rounds);
  return got;
}
} // namespace

TEST_CASE("serial_merge_padded merges full outputs stably, reading one slot past a range at most", "[thread][merge]")
{
  const std::size_t sizes[] = {0, 1, 2, 5, 7, 16, 33, 100};
  std::uint64_t salt        = 300;
  for (std::size_t na : sizes)
  {
    for (std::size_t nb : sizes)
    {
      for (int distinct : {1, 3, 1000})
      {
        for (bool apart : {false, true})
        {
          check_padded_merge<1>(na, nb, distinct, apart, ++salt, by_key{});
          check_padded_merge<4>(na, nb, distinct, apart, ++salt, by_key{});
          check_padded_merge<7>(na, nb, distinct, apart, ++salt, by_key_descending{});
        }
      }
    }
  }
}

TEST_CASE("merge_path_by_rounds finds MergePath's split", "[thread][merge]")
{
  SECTION("every diagonal of small runs, with ties")
  {
    const std::size_t sizes[] = {0, 1, 2, 31, 32, 33, 34, 65, 1089, 1090, 3000};
    std::uint64_t salt        = 700;
    for (std::size_t na : sizes)
    {
      for (std::size_t nb : sizes)
      {
        for (int distinct : {1, 3, 1 << 20})
        {
          CAPTURE(na, nb, distinct);
          std::mt19937_64 rng         = strata_test::make_rng(++salt);
          const std::vector<item_t> a = sorted_run(na, distinct, 0, rng, by_key{});
          const std::vector<item_t> b = sorted_run(nb, distinct, static_cast<int>(na), rng, by_key{});
          // Every diagonal near either end, every step-th between.
          const std::size_t total = na + nb;
          const std::size_t step  = total / 100 + 1;
          for (std::size_t diag = 0; diag <= total; ++diag)
          {
            if (diag > 40 && diag + 40 < total && diag % step != 0)
            {
              continue;
            }
            CAPTURE(diag);
            REQUIRE(split_by_rounds(a.data(), b.data(), na, nb, diag, by_key{})
                    == strata::MergePath(a.data(), b.data(), na, nb, diag, by_key{}));
          }
        }
      }
    }
  }

  SECTION("runs of 2^23 items, in at most 5 rounds")
  {
    // Equal keys everywhere: the split at a diagonal inside both runs is the diagonal itself (ties to A).
    struct zeros
    {
      int operator[](std::uint32_t) const
      {
        return 0;
      }
    };
    const std::uint32_t n = std::uint32_t(1) << 23;
    for (std::uint32_t diag : {std::uint32_t(0), std::uint32_t(1), n / 2 + 17, n - 1, n, n + 5, 2 * n})
    {
      CAPTURE(diag);
      CHECK(split_by_rounds(zeros{}, zeros{}, n, n, diag, std::less<int>{}) == (diag < n ? diag : n));
    }
  }

  SECTION("64-bit offsets, near their end too")
  {
    // A[i] = 2i, B[j] = 2j + 1 (as in the MergePath test): the first d outputs take ceil(d / 2) from A. The runs'
    // lengths come close to 2^62, where (lane + 1) * n would overflow.
    struct evens
    {
      unsigned long long operator[](std::uint64_t i) const
      {
        return 2 * static_cast<unsigned long long>(i);
      }
    };
    struct odds
    {
      unsigned long long operator[](std::uint64_t i) const
      {
        return 2 * static_cast<unsigned long long>(i) + 1;
      }
    };
    for (std::uint64_t n : {std::uint64_t(1) << 33, (std::uint64_t(1) << 62) + 12345})
    {
      for (std::uint64_t diag : {std::uint64_t(0), std::uint64_t(2), n, n + 6, 2 * n - 2, 2 * n})
      {
        CAPTURE(n, diag);
        CHECK(split_by_rounds(evens{}, odds{}, n, n, diag, std::less<unsigned long long>{}) == diag / 2 + diag % 2);
      }
    }
    // 32-bit offsets with runs near 2^32 in all.
    const std::uint32_t m = 0x7fffffffu;
    for (std::uint32_t diag : {std::uint32_t(0), std::uint32_t(3), m - 1, m, m + 1, 2 * m})
    {
      CAPTURE(diag);
      CHECK(split_by_rounds(evens{}, odds{}, m, m, diag, std::less<unsigned long long>{}) == diag / 2 + diag % 2);
    }
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
