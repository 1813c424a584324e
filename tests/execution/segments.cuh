// Segment layouts of the frontend's segmented algorithms' tests (segmented_reduce.cu, segmented_scan.cu): n + 1
// offsets made on the host.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace exec_test
{
// n + 1 offsets of n segments: segment s is items [offsets[s], offsets[s + 1]) of the input, empty where the second
// is not past the first.
struct layout
{
  std::string name;
  std::vector<long long> offsets;

  std::size_t segments() const
  {
    return offsets.size() - 1;
  }
  // The items the segments address, and at least one (an input of none would be a null pointer).
  std::size_t items() const
  {
    return static_cast<std::size_t>(std::max(1LL, *std::max_element(offsets.begin(), offsets.end())));
  }
};

// Segments of `lengths` one after the other from item `start`.
inline layout from_lengths(const std::string& what, long long start, const std::vector<std::size_t>& lengths)
{
  layout l{what, {start}};
  for (const std::size_t length : lengths)
  {
    l.offsets.push_back(l.offsets.back() + static_cast<long long>(length));
  }
  return l;
}

// Lengths from `draw()` until they cover `total` items (the last one cut to fit).
template <typename Draw>
std::vector<std::size_t> lengths_up_to(std::size_t total, Draw&& draw)
{
  std::vector<std::size_t> lengths;
  std::size_t covered = 0;
  while (covered < total)
  {
    const std::size_t length = std::min<std::size_t>(draw(), total - covered);
    lengths.push_back(length);
    covered += length;
  }
  return lengths;
}

} // namespace exec_test
