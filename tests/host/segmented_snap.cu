// Host tests of the segmented algorithms' edge snapping (detail::segmented::snap_edge, which DeviceSegmentedReduce
// applies to every edge between warps' shares), run on the CPU over every merged position of random segment layouts:
// the snapped edge keeps the merge-path convention (its segment is the smallest s with P(s + 1) + s >= its position),
// moves by at most the threshold, leaves no segment cut into a part shorter than the threshold, and edges in order
// stay in order (so neighbouring shares, which snap their common edge alike, stay contiguous and disjoint).
#include <strata/agent/agent_segmented_walk.cuh>

#include "test_util.cuh"

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

namespace
{
using position_t = strata::detail::segmented::position_t;

// P over host memory: P(s) = the items of the segments before s.
struct host_prefix
{
  const position_t* p;
  STRATA_HOST_DEVICE position_t operator()(position_t s) const
  {
    return p[s];
  }
};

// The segment of merged position d: the smallest s in [0, n] with P(s + 1) + s >= d (n where none is).
position_t segment_of(const std::vector<position_t>& p, position_t d)
{
  const position_t n = static_cast<position_t>(p.size()) - 1;
  position_t lo = 0, hi = n;
  while (lo < hi)
  {
    const position_t mid = (lo + hi) / 2;
    if (p[static_cast<std::size_t>(mid + 1)] + mid < d)
    {
      lo = mid + 1;
    }
    else
    {
      hi = mid;
    }
  }
  return lo;
}

std::vector<position_t> prefix_of(const std::vector<position_t>& lengths)
{
  std::vector<position_t> p(lengths.size() + 1, 0);
  for (std::size_t s = 0; s < lengths.size(); ++s)
  {
    p[s + 1] = p[s] + lengths[s];
  }
  return p;
}

void check_layout(const std::vector<position_t>& lengths, position_t items)
{
  const std::vector<position_t> p = prefix_of(lengths);
  const position_t n              = static_cast<position_t>(lengths.size());
  const position_t total          = p.back() + n;
  const host_prefix prefix{p.data()};
  position_t last = -1;
  for (position_t d = 0; d <= total; ++d)
  {
    position_t diagonal = d;
    position_t segment  = segment_of(p, d);
    strata::detail::segmented::snap_edge(prefix, n, diagonal, segment, items);
    INFO("layout of " << n << " segments, threshold " << items << ", edge at " << d << " -> " << diagonal);
    REQUIRE(segment == segment_of(p, diagonal));
    REQUIRE(diagonal >= last);
    REQUIRE(std::max(diagonal - d, d - diagonal) <= std::max<position_t>(items, 0));
    last = diagonal;
    if (segment < n && items > 0)
    {
      const position_t item   = diagonal - segment;
      const position_t before = item - p[static_cast<std::size_t>(segment)];
      const position_t after  = p[static_cast<std::size_t>(segment + 1)] - item;
      REQUIRE((before == 0 || (before >= items && after >= items)));
    }
    if (items <= 0)
    {
      REQUIRE(diagonal == d);
    }
  }
}

} // namespace

TEST_CASE("snap_edge keeps the convention and the order, and leaves no short part of a segment at an edge",
          "[host][segmented]")
{
  std::mt19937_64 rng = strata_test::make_rng(0x5a9);
  for (const position_t items : {position_t(0), position_t(1), position_t(7), position_t(64)})
  {
    // Empty and one-item segments, lengths around the threshold, and long ones, in random order.
    std::vector<position_t> lengths;
    for (int i = 0; i < 300; ++i)
    {
      switch (std::uniform_int_distribution<int>(0, 5)(rng))
      {
        case 0:
          lengths.push_back(0);
          break;
        case 1:
          lengths.push_back(1);
          break;
        case 2:
          lengths.push_back(std::max<position_t>(0, items - 1));
          break;
        case 3:
          lengths.push_back(items + std::uniform_int_distribution<position_t>(0, 2)(rng));
          break;
        case 4:
          lengths.push_back(2 * items + std::uniform_int_distribution<position_t>(-1, 1)(rng) + 1);
          break;
        default:
          lengths.push_back(std::uniform_int_distribution<position_t>(0, 5 * items + 10)(rng));
          break;
      }
    }
    check_layout(lengths, items);
    check_layout({}, items);
    check_layout({0, 0, 0}, items);
    check_layout({5 * items + 3}, items);
  }
}
