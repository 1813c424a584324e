// Segment layouts for the segmented algorithms' tests (DeviceSegmentedReduce, DeviceSegmentedScan): begin/end
// offsets of every shape, made on the host, and their offsets in device memory.
#pragma once

#include "test_util.cuh"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace segment_test
{
using strata_test::device_buffer;

// The most items one layout holds (lowered under compute-sanitizer), and the length of its long segments. A test
// whose checks walk every item on the host (the scans) may define STRATA_SEGMENT_TEST_ITEMS lower before including.
#ifndef STRATA_SEGMENT_TEST_ITEMS
#  define STRATA_SEGMENT_TEST_ITEMS (std::size_t(1) << 23)
#endif
inline std::size_t budget()
{
  return strata_test::capped(STRATA_SEGMENT_TEST_ITEMS);
}
inline std::size_t long_length()
{
  return std::min(std::size_t(1) << 20, budget() / 8);
}

// Segment s is items [begin[s], end[s]) of the input; end[s] <= begin[s] is an empty segment. A CSR layout has
// end[s] == begin[s + 1] and is passed as (d_offsets, d_offsets + 1); the others as two arrays.
struct layout
{
  std::string name;
  bool csr = true;
  // Whether two segments share an item (only the layouts with end < begin or overlaps can).
  bool overlapping = false;
  std::vector<long long> begin;
  std::vector<long long> end;

  std::size_t num_segments() const
  {
    return begin.size();
  }
  std::size_t length(std::size_t s) const
  {
    return end[s] > begin[s] ? static_cast<std::size_t>(end[s] - begin[s]) : 0;
  }
  // The input items it addresses: up to its largest end or begin.
  std::size_t items() const
  {
    long long n = 0;
    for (std::size_t s = 0; s < begin.size(); ++s)
    {
      n = std::max({n, begin[s], end[s]});
    }
    return static_cast<std::size_t>(n);
  }
};

inline std::string described(const std::string& what, const layout& l)
{
  std::size_t total = 0;
  for (std::size_t s = 0; s < l.num_segments(); ++s)
  {
    total += l.length(s);
  }
  return what + ": " + std::to_string(l.num_segments()) + " segments, " + std::to_string(total) + " items";
}

// The CSR layout of `lengths`, one segment after another from item 0, cut where budget() items are reached.
inline layout contiguous(const std::string& what, const std::vector<std::size_t>& lengths)
{
  layout l;
  long long at = 0;
  for (const std::size_t length : lengths)
  {
    if (static_cast<std::size_t>(at) + length > budget())
    {
      break;
    }
    l.begin.push_back(at);
    at += static_cast<long long>(length);
    l.end.push_back(at);
  }
  l.name = described(what, l);
  return l;
}

inline std::vector<std::size_t> uniform_lengths(std::size_t num, std::size_t max_length, std::mt19937_64& rng)
{
  std::uniform_int_distribution<std::size_t> length(0, max_length);
  std::vector<std::size_t> v(num);
  for (auto& x : v)
  {
    x = length(rng);
  }
  return v;
}

// Zipf-like lengths: floor(u^-1.5) - 1 for u uniform in (0, 1], at most long_length(). Half of the segments have
// fewer than 2 items, one in 10^4 reaches long_length(); one segment of long_length() is placed at random.
inline std::vector<std::size_t> power_law_lengths(std::size_t num, std::mt19937_64& rng)
{
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::size_t> v(num);
  for (auto& x : v)
  {
    const double length = std::floor(std::pow(1.0 - u(rng), -1.5)) - 1.0;
    x = length >= static_cast<double>(long_length()) ? long_length() : static_cast<std::size_t>(length);
  }
  v[std::uniform_int_distribution<std::size_t>(0, num - 1)(rng)] = long_length();
  return v;
}

// `num` segments at random places of the first `n` items: most cover [begin, begin + length) with mixed lengths (so
// they overlap one another, with gaps between them); one in ten has end == begin, one in seven end < begin. The
// segments after budget() items in all are left out.
inline layout scattered(std::size_t num, std::size_t n, std::mt19937_64& rng)
{
  layout l;
  l.csr             = false;
  std::size_t total = 0;
  for (std::size_t s = 0; s < num; ++s)
  {
    const auto begin = static_cast<long long>(std::uniform_int_distribution<std::size_t>(0, n)(rng));
    const int kind   = std::uniform_int_distribution<int>(0, 99)(rng);
    long long end    = begin;
    if (kind >= 10 && kind < 24 && begin > 0)
    {
      end = std::uniform_int_distribution<long long>(0, begin - 1)(rng);
    }
    else if (kind >= 24)
    {
      end = std::min(static_cast<long long>(n), begin + static_cast<long long>(strata_test::mixed_segment_length(rng)));
    }
    const std::size_t length = end > begin ? static_cast<std::size_t>(end - begin) : 0;
    if (total + length > budget())
    {
      break;
    }
    total += length;
    l.begin.push_back(begin);
    l.end.push_back(end);
  }
  l.overlapping = true;
  l.name        = described("scattered begin/end offsets (overlaps, gaps, end <= begin)", l);
  return l;
}

// A CSR layout of `num` segments of 0 to 100 items whose offsets step back by 1 to 50 items before one segment in
// forty (that segment ends before it begins: it is empty, and the next one begins where it ends).
inline layout stepping_back(std::size_t num, std::mt19937_64& rng)
{
  layout l;
  std::uniform_int_distribution<long long> length(0, 100), back(1, 50);
  std::uniform_int_distribution<int> odds(0, 39);
  long long at = 60;
  for (std::size_t s = 0; s < num; ++s)
  {
    const long long end = odds(rng) == 0 ? std::max(0LL, at - back(rng)) : at + length(rng);
    if (static_cast<std::size_t>(end) > budget())
    {
      break;
    }
    l.begin.push_back(at);
    l.end.push_back(end);
    at = end;
  }
  l.overlapping = true;
  l.name        = described("CSR offsets that step back now and then", l);
  return l;
}

// `num` segments in order with gaps of 0 to 16 items between them, of 0 to 100 items each.
inline layout gapped(std::size_t num, std::mt19937_64& rng)
{
  layout l;
  l.csr = false;
  std::uniform_int_distribution<long long> gap(0, 16), length(0, 100);
  long long at = 0;
  for (std::size_t s = 0; s < num; ++s)
  {
    const long long begin = at + gap(rng);
    const long long end   = begin + length(rng);
    if (static_cast<std::size_t>(end) > budget())
    {
      break;
    }
    l.begin.push_back(begin);
    l.end.push_back(end);
    at = end;
  }
  l.name = described("segments in order with gaps between them", l);
  return l;
}

// Every layout, its sizes built around a warp's sub-tile of `tile` items, its most segment ends per sub-tile, and the
// length from which a run of one segment is read in vectors (DeviceSegmentedReduce's policy). Each covers at most
// budget() items of an input of budget() items.
inline std::vector<layout> make_layouts(std::size_t tile, std::size_t segments_per_tile, std::size_t run_items)
{
  const std::size_t TILE              = tile;
  const std::size_t SEGMENTS_PER_TILE = segments_per_tile;
  const std::size_t FAST_ITEMS        = run_items;
  std::vector<layout> v;
  std::mt19937_64 rng = strata_test::make_rng(0x5e9);
  v.push_back(contiguous("no segments", {}));
  for (const std::size_t n : strata_test::test_sizes(TILE, budget(), 0x5ea))
  {
    v.push_back(contiguous("one segment", {n}));
  }
  for (const std::size_t num : {std::size_t(1), std::size_t(1000), std::size_t(65537)})
  {
    v.push_back(contiguous("all empty", std::vector<std::size_t>(num, 0)));
  }
  for (const std::size_t num : {1, 2, 97, 65537, 1000003})
  {
    v.push_back(contiguous("all of one item", std::vector<std::size_t>(num, 1)));
  }
  for (const std::size_t num : strata_test::test_sizes(SEGMENTS_PER_TILE, std::size_t(1) << 20, 0x5eb))
  {
    v.push_back(contiguous("lengths uniform in [0, 8]", uniform_lengths(num, 8, rng)));
  }
  for (const std::size_t num : {1, 31, 1025, 65537})
  {
    v.push_back(contiguous("lengths uniform in [0, 128]", uniform_lengths(num, 128, rng)));
  }
  for (const std::size_t num : {1, 7, 257, 1025})
  {
    v.push_back(contiguous("lengths uniform in [0, 8192]", uniform_lengths(num, 8192, rng)));
  }
  {
    // Long segments of a tile's multiple, one item less and one more, among up to 2000 of 0 to 64 items.
    std::vector<std::size_t> lengths = uniform_lengths(std::min<std::size_t>(2000, budget() / 128), 64, rng);
    const std::size_t big            = long_length();
    for (const std::size_t length : {big - 1, big, big + 1, big / 2 + 3, 3 * big / 4 - 1})
    {
      lengths.insert(lengths.begin() + std::uniform_int_distribution<std::size_t>(0, lengths.size())(rng), length);
    }
    v.push_back(contiguous("a few long segments among short ones", lengths));
  }
  {
    // Runs read in vectors and sub-tiles around them: lengths of FAST_ITEMS and a sub-tile, one less and one more,
    // in random order (so the vectors start at every alignment).
    std::vector<std::size_t> lengths;
    for (int copy = 0; copy < 40; ++copy)
    {
      for (const std::size_t length :
           {FAST_ITEMS - 1, FAST_ITEMS, FAST_ITEMS + 1, 2 * FAST_ITEMS + 3, TILE - 1, TILE, TILE + 1, std::size_t(3)})
      {
        lengths.push_back(length);
      }
    }
    std::shuffle(lengths.begin(), lengths.end(), rng);
    v.push_back(contiguous("lengths around a vector run and a sub-tile", lengths));
  }
  for (const std::size_t num : {997, 20011})
  {
    v.push_back(contiguous("power-law lengths", power_law_lengths(num, rng)));
  }
  {
    std::vector<std::size_t> lengths = uniform_lengths(200003, 3, rng);
    lengths.insert(lengths.begin() + 1234, budget() / 2);
    v.push_back(contiguous("one giant segment among tiny ones", lengths));
  }
  for (const std::size_t num : {101, 2003})
  {
    std::vector<std::size_t> lengths(num);
    for (auto& x : lengths)
    {
      x = strata_test::mixed_segment_length(rng);
    }
    v.push_back(contiguous("mixed lengths", lengths));
  }
  for (const std::size_t num : {1, 2, 1000, 20011})
  {
    v.push_back(scattered(num, budget() / 2, rng));
  }
  v.push_back(gapped(5003, rng));
  for (const std::size_t num : {3, 5003})
  {
    v.push_back(stepping_back(num, rng));
  }
  return v;
}

// A layout's offsets in device memory as OffsetT: one array for the CSR form, two otherwise.
template <typename OffsetT>
class device_offsets
{
public:
  explicit device_offsets(const layout& l)
      : first_(l.csr ? csr_offsets(l) : converted(l.begin))
      , second_(l.csr ? std::vector<OffsetT>{} : converted(l.end))
      , csr_(l.csr)
  {}
  const OffsetT* begin() const
  {
    return first_.data();
  }
  const OffsetT* end() const
  {
    return csr_ ? first_.data() + 1 : second_.data();
  }

private:
  static std::vector<OffsetT> converted(const std::vector<long long>& v)
  {
    return std::vector<OffsetT>(v.begin(), v.end());
  }
  static std::vector<OffsetT> csr_offsets(const layout& l)
  {
    std::vector<OffsetT> offsets = converted(l.begin);
    offsets.push_back(static_cast<OffsetT>(l.end.empty() ? 0 : l.end.back()));
    return offsets;
  }

  device_buffer<OffsetT> first_;
  device_buffer<OffsetT> second_;
  bool csr_;
};

// A case: its name and its num_segments + 1 offsets (non-decreasing).
struct offsets_case
{
  std::string name;
  std::vector<long long> offsets;
};

inline offsets_case from_lengths(const std::string& name, long long first, const std::vector<std::size_t>& lengths)
{
  offsets_case c{name, {first}};
  for (const std::size_t length : lengths)
  {
    c.offsets.push_back(c.offsets.back() + static_cast<long long>(length));
  }
  return c;
}

// Lengths uniform in [lo, hi] up to about `items` items.
inline std::vector<std::size_t> lengths_up_to(std::size_t items, std::size_t lo, std::size_t hi, std::mt19937_64& rng)
{
  std::uniform_int_distribution<std::size_t> length(lo, hi);
  std::vector<std::size_t> v;
  std::size_t total = 0;
  while (total < items)
  {
    v.push_back(std::min(length(rng), items - total));
    total += v.back();
  }
  return v;
}

// Back-to-back layouts for the tiled segmented scan, around its tile of `tile` items: no segments, one empty,
// single segments of a tile's size and around it, all of one item, uniform lengths (with empty ones), power-law
// lengths, one giant among tiny ones, runs of empty segments, and offsets[0] > 0; within budget() items.
inline std::vector<offsets_case> back_to_back_cases(std::size_t tile, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  const std::size_t n = budget() - 4096; // room for offsets[0] > 0
  std::vector<offsets_case> v;
  v.push_back(from_lengths("no segments", 0, {}));
  v.push_back(from_lengths("one empty segment", 5, {0}));
  for (const std::size_t length : {std::size_t(1), tile - 1, tile, tile + 1, 2 * tile + 7, 5 * tile - 1, n})
  {
    if (length > n) // the budget of a sanitizer run
    {
      continue;
    }
    v.push_back(from_lengths("one segment of " + std::to_string(length), 0, {length}));
  }
  v.push_back(from_lengths("all of one item", 0, std::vector<std::size_t>(n, 1)));
  v.push_back(from_lengths("all of one item, a tile and a few", 0, std::vector<std::size_t>(tile + 3, 1)));
  v.push_back(from_lengths("lengths uniform in [1, 8]", 0, lengths_up_to(n, 1, 8, rng)));
  v.push_back(from_lengths("lengths uniform in [0, 8] (empty ones)", 0, lengths_up_to(n, 0, 8, rng)));
  v.push_back(from_lengths("lengths uniform in [1, 127]", 0, lengths_up_to(n, 1, 127, rng)));
  v.push_back(from_lengths("lengths uniform in [1, 8191]", 0, lengths_up_to(n, 1, 8191, rng)));
  {
    std::vector<std::size_t> lengths = power_law_lengths(20011, rng);
    std::size_t total                = 0;
    std::vector<std::size_t> kept;
    for (const std::size_t length : lengths)
    {
      if (total + length > n)
      {
        break;
      }
      kept.push_back(length);
      total += length;
    }
    v.push_back(from_lengths("power-law lengths", 0, kept));
  }
  {
    std::vector<std::size_t> lengths = lengths_up_to(n / 4, 1, 8, rng);
    lengths.push_back(n / 2);
    const std::vector<std::size_t> after = lengths_up_to(n / 4, 1, 8, rng);
    lengths.insert(lengths.end(), after.begin(), after.end());
    v.push_back(from_lengths("one giant segment among tiny ones", 0, lengths));
  }
  {
    // Runs of empty segments (many heads on one item), and empty segments at both ends.
    std::vector<std::size_t> lengths(100, 0);
    const std::vector<std::size_t> middle = lengths_up_to(n / 2, 0, 300, rng);
    for (const std::size_t length : middle)
    {
      lengths.push_back(length);
      if (length % 5 == 0)
      {
        lengths.insert(lengths.end(), 37, 0);
      }
    }
    lengths.insert(lengths.end(), 100, 0);
    v.push_back(from_lengths("empty segments sprinkled", 0, lengths));
  }
  v.push_back(from_lengths("offsets[0] > 0, lengths in [1, 64]", 3001, lengths_up_to(n / 2, 1, 64, rng)));
  v.push_back(from_lengths("offsets[0] > 0, one segment", 1234, {n / 3}));
  return v;
}

} // namespace segment_test
