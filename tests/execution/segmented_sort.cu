// strata::segmented_sort, segmented_stable_sort, segmented_sort_by_key and segmented_stable_sort_by_key against
// std::stable_sort of each segment on the host under the same order, compared bit for bit: int32, float, double and
// uint64 keys with full entropy (the types' extremes planted among them: lowest, largest, infinities, subnormals) and
// with four distinct values (-0.0 and +0.0 among the floats': equal under the order, so only stability places them);
// the by-key forms' values are the items' input positions, so every key's place among equal keys is checked exactly.
// Ascending by default, by cuda::std::less<> and std::less<T>; descending by cuda::std::greater<> and std::greater<T>.
// Keys and values behind raw pointers, thrust::device_ptr and device_vector iterators; offsets as device_vector<int>
// iterators, raw int64 pointers and a transform iterator (segments of one length). Segment mixes: the lengths around
// each length class's largest segment (keys only and with values) and the large sort's tile, between empty segments;
// one segment of every item; segments of one item; tiny and small ones; a random mixture; only empty segments; a
// segment of 10^6 items among 2000 tiny ones. The offsets mostly start after item 0 and end before the last item:
// items in no segment keep their keys and values. Every call with items and segments takes one allocation from the
// policy's allocator (at most two copies of the items, and the segment lists) and gives it back on its stream, opens
// one range named after itself and runs no CUB; the calls return before their kernels run. Also: fewer than two
// offsets, or no items, sort and allocate nothing; captured calls replay from a CUDA graph on new keys and offsets;
// a reversed offsets range makes every entry point throw strata::cuda_error naming itself before anything is enqueued
// (a capture of the call holds no node), and so does a failing allocator, the keys and values untouched.
#include "support.cuh"
// after support.cuh
#include "merge_sort_test.cuh"
#include "segments.cuh"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
using exec_test::from_lengths;
using exec_test::layout;
using exec_test::lengths_up_to;
using merge_sort_test::entropy;
using merge_sort_test::greater_op; // the host's descending order: b < a
using merge_sort_test::less_op;    // the host's ascending order: a < b (-0.0 and +0.0 equal)

// The values of the by-key sorts: each item's input position.
using value_t = std::uint32_t;

template <typename K, typename V = strata::NullType>
using sort_policy = typename strata::detail::segmented_sort::policy_hub<K, V>::MaxPolicy::SegmentedSortPolicy;

// -- segment layouts ---------------------------------------------------------------------------------------------

// The lengths at which a segment of K keys sorted under policy P changes class (each class's largest, one less and
// one more), and lengths of two and three and a bit of the large sort's tiles.
template <typename P>
void add_class_edges(std::vector<std::size_t>& lengths)
{
  for (const int edge : {P::TINY_MAX, P::SMALL_MAX, P::MEDIUM_MAX})
  {
    const auto e = static_cast<std::size_t>(edge);
    lengths.insert(lengths.end(), {e - 1, e, e + 1});
  }
  const auto tile = static_cast<std::size_t>(P::BLOCK_THREADS * P::LARGE_ITEMS_PER_THREAD);
  lengths.insert(lengths.end(), {2 * tile, 3 * tile + 1});
}

// The class edges of K keys alone and with values (whose classes are shorter for wider items).
template <typename K>
std::vector<std::size_t> class_edges()
{
  std::vector<std::size_t> lengths{1, 2, 3};
  add_class_edges<sort_policy<K>>(lengths);
  add_class_edges<sort_policy<K, value_t>>(lengths);
  std::sort(lengths.begin(), lengths.end());
  lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
  return lengths;
}

// A layout, the items of its input (those its segments address and some more after them: items in no segment, as
// are those before the first offset where it is not 0) and the entropies of the keys it is sorted with.
struct sort_case
{
  layout segments;
  std::size_t items;
  std::vector<entropy> entropies;
};

// Every mix of segment lengths the main test sorts, for K keys.
template <typename K>
std::vector<sort_case> cases(std::uint64_t salt)
{
  using P             = sort_policy<K>;
  std::mt19937_64 rng = strata_test::make_rng(salt);
  const auto uniform  = [&](std::size_t lo, std::size_t hi) {
    return std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
  };
  std::vector<sort_case> all;
  const auto add = [&](layout l, std::size_t tail,
                       std::vector<entropy> entropies = {entropy::full, entropy::few_values}) {
    const std::size_t items = l.items() + tail;
    all.push_back({std::move(l), items, std::move(entropies)});
  };
  const std::size_t n = strata_test::capped(100003);
  {
    std::vector<std::size_t> lengths;
    for (const std::size_t length : class_edges<K>())
    {
      lengths.push_back(0);
      lengths.push_back(length);
    }
    add(from_lengths("the lengths around each class's largest and the large sort's tile, between empty segments", 5,
                     lengths),
        3);
  }
  add(from_lengths("one segment of every item", 0, {n}), 0);
  add(from_lengths("segments of one item", 1, std::vector<std::size_t>(997, 1)), 1);
  add(from_lengths("lengths uniform in [0, tiny + 2]", 3,
                   lengths_up_to(n,
                                 [&] {
                                   return uniform(0, P::TINY_MAX + 2);
                                 })),
      4);
  add(from_lengths("lengths uniform in [0, 2 small]", 3,
                   lengths_up_to(n,
                                 [&] {
                                   return uniform(0, 2 * P::SMALL_MAX);
                                 })),
      4);
  add(from_lengths("a random mixture of lengths", 2,
                   lengths_up_to(2 * n,
                                 [&] {
                                   return strata_test::mixed_segment_length(rng);
                                 })),
      2);
  add(from_lengths("3001 empty segments at item 500", 500, std::vector<std::size_t>(3001, 0)), 7);
  {
    std::vector<std::size_t> lengths;
    for (int i = 0; i < 2000; ++i)
    {
      lengths.push_back(uniform(0, 4));
    }
    lengths.insert(lengths.begin() + 1000, strata_test::capped(1000003));
    // Full entropy only: its planted extremes repeat thousands of times (stability shows), and the host's reference
    // sorts of 10^6 keys are the costliest part of the test at -O0.
    add(from_lengths("one long segment among 2000 tiny ones", 2, lengths), 2, {entropy::full});
  }
  return all;
}

template <typename O>
thrust::device_vector<O> upload_offsets(const std::vector<long long>& offsets)
{
  return exec_test::upload(std::vector<O>(offsets.begin(), offsets.end()));
}

// -- keys and host references ------------------------------------------------------------------------------------

// merge_sort_test's keys of entropy `e` (floats: both zeros among them); full-entropy keys also get the type's extremes
// in about one place in 32 (lowest and largest; floats: infinities, the smallest normals and subnormals, both zeros),
// the top and bottom bits of the keys' radix images that random keys do not reach.
template <typename K>
std::vector<K> test_keys(std::size_t n, entropy e, std::uint64_t salt)
{
  std::vector<K> keys = merge_sort_test::make_keys<K>(n, e, salt);
  if (e == entropy::full)
  {
    using limits = std::numeric_limits<K>;
    std::vector<K> extremes{limits::lowest(), limits::max(), K(0), K(1)};
    if constexpr (std::is_floating_point<K>::value)
    {
      extremes.insert(extremes.end(), {-limits::infinity(), limits::infinity(), limits::min(), -limits::min(),
                                       limits::denorm_min(), -limits::denorm_min(), K(-0.0)});
    }
    else if constexpr (std::is_signed<K>::value)
    {
      extremes.push_back(K(-1));
    }
    std::mt19937_64 rng = strata_test::make_rng(salt ^ 0xe87ULL);
    for (K& k : keys)
    {
      if (rng() % 32 == 0)
      {
        k = extremes[rng() % extremes.size()];
      }
    }
  }
  return keys;
}

std::vector<value_t> positions(std::size_t n)
{
  std::vector<value_t> p(n);
  std::iota(p.begin(), p.end(), value_t(0));
  return p;
}

// What a stable sort of each segment of `keys` under comp gives, as std::stable_sort gives it: the keys, and the input
// position of each (the by-key sorts' values); items in no segment where they were.
template <typename K>
struct sorted_segments
{
  std::vector<K> keys;
  std::vector<value_t> positions;
};

template <typename K, typename CompareT>
sorted_segments<K> reference(const std::vector<K>& keys, const std::vector<long long>& offsets, CompareT comp)
{
  sorted_segments<K> out{std::vector<K>(keys.size()), positions(keys.size())};
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
  {
    if (offsets[s + 1] > offsets[s])
    {
      std::stable_sort(out.positions.begin() + offsets[s], out.positions.begin() + offsets[s + 1],
                       [&](value_t a, value_t b) {
                         return comp(keys[a], keys[b]);
                       });
    }
  }
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    out.keys[i] = keys[out.positions[i]];
  }
  return out;
}

// " (segment s: items [begin, end))" for the segment item i lies in, or " (in no segment)".
std::string segment_of(std::size_t i, const std::vector<long long>& offsets)
{
  const auto at = static_cast<long long>(i);
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
  {
    if (offsets[s] <= at && at < offsets[s + 1])
    {
      return " (segment " + std::to_string(s) + ": items [" + std::to_string(offsets[s]) + ", "
           + std::to_string(offsets[s + 1]) + "))";
    }
  }
  return " (in no segment)";
}

// Requires `actual` to hold `expected` bit for bit (-0.0 is not +0.0), reporting the first difference and its
// segment. A memcmp first: the test's host code is built at -O0, and most calls compare millions of items.
template <typename T>
void require_same_bits(const char* what, const std::vector<T>& actual, const std::vector<T>& expected,
                       const std::vector<long long>& offsets)
{
  REQUIRE(actual.size() == expected.size());
  if (actual.empty() || std::memcmp(actual.data(), expected.data(), actual.size() * sizeof(T)) == 0)
  {
    return;
  }
  std::size_t i = 0;
  while (std::memcmp(&actual[i], &expected[i], sizeof(T)) == 0)
  {
    ++i;
  }
  INFO(what << ": first difference at item " << i << " of " << actual.size() << segment_of(i, offsets) << ": "
            << merge_sort_test::key_text(actual[i]) << " where the host has "
            << merge_sort_test::key_text(expected[i]));
  FAIL("the segmented sort's result differs from std::stable_sort's");
}

// -- one call, checked -------------------------------------------------------------------------------------------

// Loads `h` into `dk` and its input positions (`identity`) into `dv`, runs `call` (one segmented sort named `name`
// through stream.policy over `offsets`), and requires `expected`: its keys, and for a by-key sort its positions in
// `dv` (the input positions, untouched, otherwise). The call opens one range, its own, and runs no CUB; with items and
// segments it takes one allocation from the policy's allocator, of at most two copies of the items and 16 bytes a
// segment (the class lists) besides alignment, and gives it back on the stream.
template <typename K, typename Call>
void check_call(exec_test::logged_stream& stream, const char* name, bool by_key, thrust::device_vector<K>& dk,
                thrust::device_vector<value_t>& dv, const std::vector<K>& h, const std::vector<value_t>& identity,
                const std::vector<long long>& offsets, const sorted_segments<K>& expected, Call&& call)
{
  INFO(name << (by_key ? " (keys and values)" : " (keys)"));
  const std::size_t n        = h.size();
  const std::size_t segments = offsets.size() - 1;
  exec_test::upload_into(dk, h);
  exec_test::upload_into(dv, identity);
  stream.alloc.log().clear();
  exec_test::entries().clear();
  call();
  stream.sync();
  stream.require_clean();
  CHECK(exec_test::entries().strata == std::vector<std::string>{name});
  CHECK(exec_test::entries().cub.empty());
  CHECK(stream.alloc.log().allocations() == (n > 0 && segments > 0 ? 1u : 0u));
  const std::size_t item_bytes = sizeof(K) + (by_key ? sizeof(value_t) : 0);
  CHECK(stream.alloc.log().peak_bytes() <= 2 * n * item_bytes + 16 * std::min(n, segments) + 4096);
  require_same_bits("keys", exec_test::download(dk), expected.keys, offsets);
  require_same_bits("values", exec_test::download(dv), by_key ? expected.positions : identity, offsets);
}

// The offsets of segments of one length: s * length.
struct times_length
{
  int length;
  __host__ __device__ int operator()(int s) const
  {
    return s * length;
  }
};
} // namespace

TEMPLATE_TEST_CASE("strata::segmented_sort, segmented_stable_sort and their by-key forms match std::stable_sort of "
                   "each segment for every mix of lengths",
                   "[execution][segmented_sort]", std::int32_t, float, double, std::uint64_t)
{
  using K = TestType;
  exec_test::logged_stream stream;
  const auto& p      = stream.policy;
  std::uint64_t salt = 1;
  for (const sort_case& c : cases<K>(0x5a0))
  {
    const std::vector<long long>& offs       = c.segments.offsets;
    const thrust::device_vector<int> offsets = upload_offsets<int>(offs);
    const auto o_first                       = offsets.begin();
    const auto o_last                        = offsets.end();
    thrust::device_vector<K> dk(c.items);
    thrust::device_vector<value_t> dv(c.items);
    const std::vector<value_t> identity = positions(c.items);
    for (const entropy e : c.entropies)
    {
      INFO(c.segments.name << ": " << c.segments.segments() << " segments, " << c.items
                           << " items; keys: " << merge_sort_test::entropy_name(e));
      ++salt;
      const std::vector<K> h              = test_keys<K>(c.items, e, 31 * salt);
      const sorted_segments<K> ascending  = reference(h, offs, less_op{});
      const sorted_segments<K> descending = reference(h, offs, greater_op{});

      exec_test::for_each_input_kind(dk, [&](auto first, auto last) {
        const auto values = exec_test::output_like(first, dv);
        auto keys_only    = [&](const char* name, const sorted_segments<K>& expected, auto call) {
          check_call(stream, name, false, dk, dv, h, identity, offs, expected, call);
        };
        auto by_key = [&](const char* name, const sorted_segments<K>& expected, auto call) {
          check_call(stream, name, true, dk, dv, h, identity, offs, expected, call);
        };
        keys_only("strata::segmented_sort", ascending, [&] {
          strata::segmented_sort(p, first, last, o_first, o_last);
        });
        keys_only("strata::segmented_sort", ascending, [&] {
          strata::segmented_sort(p, first, last, o_first, o_last, cuda::std::less<>{});
        });
        keys_only("strata::segmented_stable_sort", ascending, [&] {
          strata::segmented_stable_sort(p, first, last, o_first, o_last);
        });
        keys_only("strata::segmented_stable_sort", ascending, [&] {
          strata::segmented_stable_sort(p, first, last, o_first, o_last, std::less<K>{});
        });
        keys_only("strata::segmented_sort", descending, [&] {
          strata::segmented_sort(p, first, last, o_first, o_last, cuda::std::greater<>{});
        });
        keys_only("strata::segmented_stable_sort", descending, [&] {
          strata::segmented_stable_sort(p, first, last, o_first, o_last, std::greater<K>{});
        });
        by_key("strata::segmented_sort_by_key", ascending, [&] {
          strata::segmented_sort_by_key(p, first, last, values, o_first, o_last);
        });
        by_key("strata::segmented_stable_sort_by_key", ascending, [&] {
          strata::segmented_stable_sort_by_key(p, first, last, values, o_first, o_last);
        });
        by_key("strata::segmented_stable_sort_by_key", ascending, [&] {
          strata::segmented_stable_sort_by_key(p, first, last, values, o_first, o_last, cuda::std::less<K>{});
        });
        by_key("strata::segmented_sort_by_key", descending, [&] {
          strata::segmented_sort_by_key(p, first, last, values, o_first, o_last, cuda::std::greater<>{});
        });
        by_key("strata::segmented_stable_sort_by_key", descending, [&] {
          strata::segmented_stable_sort_by_key(p, first, last, values, o_first, o_last, std::greater<K>{});
        });
      });
    }
  }
}

TEST_CASE("strata::segmented_sort and segmented_sort_by_key take offsets as raw int64 pointers and as a transform "
          "iterator",
          "[execution][segmented_sort][offsets]")
{
  exec_test::logged_stream stream;
  const auto& p       = stream.policy;
  std::mt19937_64 rng = strata_test::make_rng(0x5a1);
  {
    INFO("offsets: raw int64 pointers, from item 4 to the item before the last");
    const layout l           = from_lengths("a random mixture", 4, lengths_up_to(strata_test::capped(300007), [&] {
                                    return strata_test::mixed_segment_length(rng);
                                  }));
    const std::vector<int> h = test_keys<int>(l.items() + 1, entropy::few_values, 0x5a2);
    thrust::device_vector<std::int64_t> offsets = upload_offsets<std::int64_t>(l.offsets);
    std::int64_t* const o_first                 = thrust::raw_pointer_cast(offsets.data());
    std::int64_t* const o_last                  = o_first + offsets.size();
    thrust::device_vector<int> dk(h.size());
    thrust::device_vector<value_t> dv(h.size());
    check_call(stream, "strata::segmented_sort", false, dk, dv, h, positions(h.size()), l.offsets,
               reference(h, l.offsets, less_op{}), [&] {
                 strata::segmented_sort(p, dk.begin(), dk.end(), o_first, o_last);
               });
    check_call(stream, "strata::segmented_stable_sort_by_key", true, dk, dv, h, positions(h.size()), l.offsets,
               reference(h, l.offsets, greater_op{}), [&] {
                 strata::segmented_stable_sort_by_key(p, thrust::raw_pointer_cast(dk.data()),
                                                      thrust::raw_pointer_cast(dk.data()) + dk.size(),
                                                      thrust::raw_pointer_cast(dv.data()), o_first, o_last,
                                                      cuda::std::greater<>{});
               });
  }
  {
    INFO("offsets: a transform iterator, 3001 segments of 37 items");
    const int length         = 37;
    const int segments       = 3001;
    const auto o_first       = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), times_length{length});
    const auto o_last        = o_first + (segments + 1);
    const layout l           = from_lengths("37 items each", 0, std::vector<std::size_t>(segments, length));
    const std::vector<int> h = test_keys<int>(l.items() + 5, entropy::full, 0x5a3);
    thrust::device_vector<int> dk(h.size());
    thrust::device_vector<value_t> dv(h.size());
    check_call(stream, "strata::segmented_sort", false, dk, dv, h, positions(h.size()), l.offsets,
               reference(h, l.offsets, greater_op{}), [&] {
                 strata::segmented_sort(p, dk.begin(), dk.end(), o_first, o_last, std::greater<int>{});
               });
  }
}

TEST_CASE("the segmented sorts of fewer than two offsets, or of no items, sort nothing and take no storage",
          "[execution][segmented_sort][empty]")
{
  exec_test::logged_stream stream;
  const auto& p                        = stream.policy;
  const std::vector<int> h             = {9, 4, 7, 1, 8};
  thrust::device_vector<int> dk        = exec_test::upload(h);
  thrust::device_vector<value_t> dv    = exec_test::upload(positions(h.size()));
  const thrust::device_vector<int> one = exec_test::upload(std::vector<int>{0});
  const thrust::device_vector<int> two = exec_test::upload(std::vector<int>{0, 5});
  int* const null_keys                 = nullptr;
  value_t* const null_values           = nullptr;
  const int* const null_offsets        = nullptr;
  exec_test::entries().clear();
  // One offset, and none.
  strata::segmented_sort(p, dk.begin(), dk.end(), one.begin(), one.end());
  strata::segmented_stable_sort(p, dk.begin(), dk.end(), one.begin(), one.begin(), cuda::std::greater<>{});
  strata::segmented_sort_by_key(p, dk.begin(), dk.end(), dv.begin(), one.begin(), one.end(), std::greater<int>{});
  strata::segmented_stable_sort_by_key(p, dk.begin(), dk.end(), dv.begin(), one.end(), one.end());
  // A segment, but no items.
  strata::segmented_sort(p, dk.begin(), dk.begin(), two.begin(), two.end());
  strata::segmented_sort_by_key(p, dk.begin() + 2, dk.begin() + 2, dv.begin(), two.begin(), two.end());
  // Nothing at all, behind null pointers.
  strata::segmented_sort(p, null_keys, null_keys, null_offsets, null_offsets);
  strata::segmented_stable_sort_by_key(p, null_keys, null_keys, null_values, null_offsets, null_offsets);
  stream.sync();
  CHECK(exec_test::entries().strata
        == std::vector<std::string>{"strata::segmented_sort", "strata::segmented_stable_sort",
                                    "strata::segmented_sort_by_key", "strata::segmented_stable_sort_by_key",
                                    "strata::segmented_sort", "strata::segmented_sort_by_key", "strata::segmented_sort",
                                    "strata::segmented_stable_sort_by_key"});
  CHECK(stream.alloc.log().allocations() == 0);
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(dk), h);
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(dv), positions(h.size()));
  stream.require_clean();
}

TEST_CASE("strata::segmented_sort and segmented_sort_by_key return before their kernels run, which run on the "
          "policy's stream",
          "[execution][segmented_sort][stream]")
{
  exec_test::logged_stream stream;
  const auto& p                = stream.policy;
  std::mt19937_64 rng          = strata_test::make_rng(0x5a4);
  const layout l               = from_lengths("a random mixture", 0, lengths_up_to(strata_test::capped(300007), [&] {
                                  return strata_test::mixed_segment_length(rng);
                                }));
  const std::vector<int> h     = test_keys<int>(l.items(), entropy::few_values, 0x5a5);
  const std::vector<int> decoy = exec_test::decoy_of(h);
  const std::vector<value_t> decoy_values          = exec_test::decoy_of(positions(h.size()));
  const thrust::device_vector<int> offsets         = upload_offsets<int>(l.offsets);
  const thrust::device_vector<int> real            = exec_test::upload(h);
  const thrust::device_vector<value_t> real_values = exec_test::upload(positions(h.size()));
  thrust::device_vector<int> dk                    = exec_test::upload(decoy);
  thrust::device_vector<value_t> dv                = exec_test::upload(decoy_values);
  const sorted_segments<int> expected              = reference(h, l.offsets, greater_op{});
  {
    INFO("keys");
    stream.alloc.log().clear();
    stream.close();
    stream.copy(dk, real);
    strata::segmented_sort(p, dk.begin(), dk.end(), offsets.begin(), offsets.end(), cuda::std::greater<>{});
    require_same_bits("keys while the gate is closed", stream.peek(dk), decoy, l.offsets);
    stream.open();
    stream.sync();
    CHECK_FALSE(stream.timed_out());
    require_same_bits("keys", exec_test::download(dk), expected.keys, l.offsets);
    stream.require_clean();
  }
  {
    INFO("keys and values");
    exec_test::upload_into(dk, decoy);
    stream.alloc.log().clear();
    stream.close();
    stream.copy(dk, real);
    stream.copy(dv, real_values);
    strata::segmented_stable_sort_by_key(p, dk.begin(), dk.end(), dv.begin(), offsets.begin(), offsets.end(),
                                         std::greater<>{});
    require_same_bits("keys while the gate is closed", stream.peek(dk), decoy, l.offsets);
    require_same_bits("values while the gate is closed", stream.peek(dv), decoy_values, l.offsets);
    stream.open();
    stream.sync();
    CHECK_FALSE(stream.timed_out());
    require_same_bits("keys", exec_test::download(dk), expected.keys, l.offsets);
    require_same_bits("values", exec_test::download(dv), expected.positions, l.offsets);
    stream.require_clean();
  }
}

namespace
{
// Captures a keys-only sort (float, ascending) and a by-key sort (uint64, descending) through `policy` on `stream`
// into a graph, then replays it on new keys and new offsets (as many, some segments empty) in the same buffers:
// a mixture of lengths, small segments, one long segment; checking both results after each replay.
template <typename PolicyT>
void check_graph_replays(const PolicyT& policy, exec_test::gated_stream& stream)
{
  const std::size_t n        = strata_test::capped(300007);
  const std::size_t segments = 4000;
  thrust::device_vector<float> keys(n);
  thrust::device_vector<std::uint64_t> keys2(n);
  thrust::device_vector<value_t> values(n);
  thrust::device_vector<int> offsets(segments + 1);
  const std::vector<float> before = test_keys<float>(n, entropy::full, 0x5b0);
  exec_test::upload_into(keys, before);
  exec_test::upload_into(offsets, std::vector<int>(segments + 1, 0));

  cudaGraph_t graph{};
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
  strata::segmented_sort(policy, keys.begin(), keys.end(), std::as_const(offsets).begin(),
                         std::as_const(offsets).end());
  strata::segmented_sort_by_key(policy, keys2.begin(), keys2.end(), values.begin(), std::as_const(offsets).begin(),
                                std::as_const(offsets).end(), cuda::std::greater<>{});
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream.get(), &graph));
  require_same_bits("keys after the capture (captured, not run)", exec_test::download(keys), before, {});
  cudaGraphExec_t exec{};
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));

  std::mt19937_64 rng = strata_test::make_rng(0x5b1);
  for (int replay = 0; replay < 3; ++replay)
  {
    CAPTURE(replay);
    const auto length = [&]() -> std::size_t {
      switch (replay)
      {
        case 0:
          return strata_test::mixed_segment_length(rng);
        case 1:
          return std::uniform_int_distribution<std::size_t>(0, 300)(rng);
        default:
          return n;
      }
    };
    const layout l = from_lengths("replay", static_cast<long long>(replay), lengths_up_to(n - 8, length));
    REQUIRE(l.offsets.size() <= segments + 1);
    std::vector<long long> offs = l.offsets;
    offs.resize(segments + 1, offs.back());
    const std::uint64_t salt             = 0x5b2 + static_cast<std::uint64_t>(replay);
    const entropy e                      = replay == 1 ? entropy::few_values : entropy::full;
    const std::vector<float> hk          = test_keys<float>(n, e, salt);
    const std::vector<std::uint64_t> hk2 = test_keys<std::uint64_t>(n, e, salt + 10);
    exec_test::upload_into(keys, hk);
    exec_test::upload_into(keys2, hk2);
    exec_test::upload_into(values, positions(n));
    exec_test::upload_into(offsets, std::vector<int>(offs.begin(), offs.end()));
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream.get()));
    stream.sync();
    require_same_bits("keys", exec_test::download(keys), reference(hk, offs, less_op{}).keys, offs);
    const sorted_segments<std::uint64_t> expected = reference(hk2, offs, greater_op{});
    require_same_bits("keys by key", exec_test::download(keys2), expected.keys, offs);
    require_same_bits("values", exec_test::download(values), expected.positions, offs);
  }
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
}
} // namespace

TEST_CASE("strata::segmented_sort and segmented_sort_by_key captured into a CUDA graph replay on new keys and offsets",
          "[execution][segmented_sort][graph]")
{
  exec_test::gated_stream stream;
  SECTION("temporary storage from the pool")
  {
    check_graph_replays(strata::par.on(stream.get()), stream);
  }
  SECTION("temporary storage from a stream-ordered allocator")
  {
    exec_test::stream_allocator alloc;
    check_graph_replays(strata::par(alloc).on(stream.get()), stream);
    CHECK(alloc.log().allocations() == 2); // captured once: one per sort
    EXEC_TEST_REQUIRE_CLEAN(alloc.log(), stream.get());
  }
}

TEST_CASE("the segmented sorts throw strata::cuda_error naming themselves for a reversed offsets range, before "
          "anything is enqueued, and when the allocator fails, the keys and values untouched",
          "[execution][segmented_sort][errors]")
{
  exec_test::logged_stream stream;
  const auto& p                            = stream.policy;
  std::mt19937_64 rng                      = strata_test::make_rng(0x5a6);
  const layout l                           = from_lengths("random", 0, lengths_up_to(strata_test::capped(100003), [&] {
                                  return std::uniform_int_distribution<std::size_t>(0, 50)(rng);
                                }));
  const std::vector<int> h                 = test_keys<int>(l.items(), entropy::full, 0x5a7);
  thrust::device_vector<int> dk            = exec_test::upload(h);
  thrust::device_vector<value_t> dv        = exec_test::upload(positions(h.size()));
  const thrust::device_vector<int> offsets = upload_offsets<int>(l.offsets);
  const auto untouched                     = [&] {
    stream.sync();
    require_same_bits("keys", exec_test::download(dk), h, l.offsets);
    require_same_bits("values", exec_test::download(dv), positions(h.size()), l.offsets);
  };
  STRATA_TEST_CUDA(cudaGetLastError());

  SECTION("an offsets range whose last is before its first")
  {
    // Thrown while the stream is being captured: the capture must hold no node, and no storage was taken.
    const auto reversed = [&](const char* name, auto call) {
      exec_test::require_thrown_while_capturing(stream, cudaStreamCaptureModeThreadLocal, cudaErrorInvalidValue, name,
                                                call);
      untouched();
    };
    reversed("strata::segmented_sort", [&] {
      strata::segmented_sort(p, dk.begin(), dk.end(), offsets.end(), offsets.begin());
    });
    reversed("strata::segmented_sort", [&] {
      strata::segmented_sort(p, dk.begin(), dk.end(), offsets.begin() + 1, offsets.begin(), cuda::std::greater<>{});
    });
    reversed("strata::segmented_stable_sort", [&] {
      strata::segmented_stable_sort(p, dk.begin(), dk.end(), offsets.end(), offsets.begin(), std::less<int>{});
    });
    reversed("strata::segmented_sort_by_key", [&] {
      strata::segmented_sort_by_key(p, dk.begin(), dk.end(), dv.begin(), offsets.end(), offsets.begin());
    });
    reversed("strata::segmented_stable_sort_by_key", [&] {
      strata::segmented_stable_sort_by_key(p, dk.begin(), dk.end(), dv.begin(), offsets.end(), offsets.begin(),
                                           std::greater<int>{});
    });
    // The offsets are checked before the keys: an empty key range does not hide them.
    reversed("strata::segmented_sort", [&] {
      strata::segmented_sort(p, dk.begin(), dk.begin(), offsets.end(), offsets.begin());
    });
  }
  SECTION("the allocator throws or returns null")
  {
    for (const exec_test::failure how : {exec_test::failure::throws, exec_test::failure::returns_null})
    {
      CAPTURE(how == exec_test::failure::throws ? "throws" : "returns null");
      const auto failing = [&](const char* name, auto call) {
        INFO(name);
        stream.alloc.log().clear();
        stream.alloc.log().fail_at(1, how);
        exec_test::require_cuda_error(call, cudaErrorMemoryAllocation, name);
        CHECK(stream.alloc.log().failed() == 1);
        CHECK(stream.alloc.log().allocations() == 0);
        stream.alloc.log().fail_at(0, exec_test::failure::none);
        untouched();
        stream.require_clean();
      };
      failing("strata::segmented_sort", [&] {
        strata::segmented_sort(p, dk.begin(), dk.end(), offsets.begin(), offsets.end());
      });
      failing("strata::segmented_stable_sort", [&] {
        strata::segmented_stable_sort(p, dk.begin(), dk.end(), offsets.begin(), offsets.end(), cuda::std::greater<>{});
      });
      failing("strata::segmented_sort_by_key", [&] {
        strata::segmented_sort_by_key(p, dk.begin(), dk.end(), dv.begin(), offsets.begin(), offsets.end());
      });
      failing("strata::segmented_stable_sort_by_key", [&] {
        strata::segmented_stable_sort_by_key(p, dk.begin(), dk.end(), dv.begin(), offsets.begin(), offsets.end(),
                                             std::greater<int>{});
      });
    }
  }
  stream.require_clean();
  CHECK(cudaGetLastError() == cudaSuccess);
}
