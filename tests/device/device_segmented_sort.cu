// DeviceSegmentedSort and DeviceSegmentedRadixSort against a host reference: std::stable_sort of each segment by its
// keys' radix images restricted to [begin_bit, end_bit) (unsigned integers as they are, signed ones with the sign bit
// flipped, floating point with every bit flipped when negative and the sign bit set otherwise, -0.0 as +0.0; inverted
// for the descending sorts). Keys are compared bit for bit, so -0.0 and +0.0, and NaNs, must come out in input order
// with their own bits; values are the items' input positions, so a sort that is not stable, or that moves a value away
// from its key, fails on them. Items in no segment keep the output's poison. Covered:
// - SortKeys and SortKeysDescending of uint32, int32, float, double, int8 and uint64 keys, and SortPairs and
//   SortPairsDescending of uint32, float, double, int8 and uint64 keys with int values, over segments of every length
//   class and its edges (0, 1, 2, the tiny, small and medium classes' largest lengths of 4-, 8- and 12-byte items, one
//   less and one more, the large sort's tiles, about 10^5 items), contiguous and scattered (disjoint, in random order,
//   with gaps and empty segments whose end is not past their begin), each over keys of two kinds: half random bit
//   patterns (floats: NaNs, infinities and denormals among them) and half the types' special keys (both zeros, NaNs with
//   payloads, infinities, denormals, the extremes), and keys of 8 values (ties everywhere; the float zeros of either
//   sign);
// - uint32 SortKeys and SortPairsDescending over every disjoint layout of segment_layouts.cuh (one segment of every
//   size up to all 2^20 items, a million segments of one item, lengths uniform in [0, 8] ... [0, 8192], long segments
//   among short ones, power-law lengths, one giant segment among tiny ones, gaps);
// - the Stable* entry points (the same results); the DoubleBuffer forms with every pair of starting selectors for keys
//   and values, where the selectors must name the buffers holding the result and items in no segment keep their
//   contents in both buffers (uint32 keys sort in an even number of passes, uint64 in an odd one);
// - DeviceSegmentedRadixSort over bit ranges: [0, 32), [3, 20), [8, 32), [31, 32), [0, 1), [13, 14), and [0, 0),
//   [16, 16) and [32, 32), which leave every segment as it is, for uint32 keys and pairs in both orders and both forms,
//   and partial ranges of int8, uint64, float and double keys;
// - 64-bit offsets and offsets from Thrust iterators; num_segments 0, num_items 0 and all segments empty (nothing
//   written; one byte of temporary storage asked, and null pointers accepted, where there are no items or no
//   segments); bad input rejected with cudaErrorInvalidValue before anything is written; the single-phase forms
//   (no environment, a stream, strata::par.on(stream)); num_segments and num_items in device memory
//   (strata::device_count), one captured graph replayed over several counts.
// Each layout's outputs are checked item by item on the host (at -O0): 2^20 items a layout.
#define STRATA_SEGMENT_TEST_ITEMS (std::size_t(1) << 20)

#include <strata/device/device_segmented_radix_sort.cuh>
#include <strata/device/device_segmented_sort.cuh>
#include <strata/execution/policy.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "device_launch.cuh"
#include "segment_layouts.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iomanip>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
using segment_test::budget;
using segment_test::contiguous;
using segment_test::device_offsets;
using segment_test::layout;
using strata_test::device_buffer;
using strata_test::launch_mode;

// Poisoned items after the last segment's: nothing may be written there.
constexpr std::size_t TAIL = 8;

// -- keys and their images ---------------------------------------------------------------------------------------

template <typename KeyT>
using bits_t =
  std::conditional_t<sizeof(KeyT) == 1, std::uint8_t,
                     std::conditional_t<sizeof(KeyT) == 2, std::uint16_t,
                                        std::conditional_t<sizeof(KeyT) == 4, std::uint32_t, std::uint64_t>>>;

template <typename KeyT>
constexpr int KEY_BITS = static_cast<int>(sizeof(KeyT) * 8);

template <typename KeyT>
bits_t<KeyT> bits_of(const KeyT& key)
{
  bits_t<KeyT> bits;
  std::memcpy(&bits, &key, sizeof(KeyT));
  return bits;
}
template <typename KeyT>
KeyT from_bits(bits_t<KeyT> bits)
{
  KeyT key;
  std::memcpy(&key, &bits, sizeof(KeyT));
  return key;
}

// What a sort orders by: bits [begin_bit, end_bit) of the keys' images, ascending or descending.
struct sort_order
{
  bool descending;
  int begin_bit;
  int end_bit;
};

template <typename KeyT>
sort_order all_bits(bool descending)
{
  return {descending, 0, KEY_BITS<KeyT>};
}

// Bits [begin_bit, end_bit) of the key's radix image, shifted down: the image is an unsigned number in the key's
// order (unsigned integers as they are, signed ones with the sign bit flipped, floating point with every bit flipped
// when negative and the sign bit set otherwise, -0.0 read as +0.0), every bit inverted for a descending sort.
template <typename KeyT>
std::uint64_t image(const KeyT& key, sort_order o)
{
  using B      = bits_t<KeyT>;
  const B high = static_cast<B>(B(1) << (KEY_BITS<KeyT> - 1));
  B bits       = bits_of(key);
  if constexpr (std::is_floating_point<KeyT>::value)
  {
    bits = bits == high ? B(0) : bits;
    bits = (bits & high) ? static_cast<B>(~bits) : static_cast<B>(bits | high);
  }
  else if constexpr (std::is_signed<KeyT>::value)
  {
    bits = static_cast<B>(bits ^ high);
  }
  if (o.descending)
  {
    bits = static_cast<B>(~bits);
  }
  const int width = o.end_bit - o.begin_bit;
  if (width <= 0)
  {
    return 0;
  }
  const std::uint64_t shifted = static_cast<std::uint64_t>(bits) >> o.begin_bit;
  return width >= 64 ? shifted : shifted & ((std::uint64_t(1) << width) - 1);
}

// The keys at the ends and edges of each type's order, and keys that are equal with other bits: both zeros, NaNs of
// both signs (one with a payload), infinities, the smallest and the largest denormals, the smallest normals, the
// extremes, 1 and -1; for integers 0, 1, 2, the extremes and their neighbours and the middle.
template <typename KeyT>
std::vector<KeyT> special_keys()
{
  using L = std::numeric_limits<KeyT>;
  if constexpr (std::is_floating_point<KeyT>::value)
  {
    using B            = bits_t<KeyT>;
    const B sign       = static_cast<B>(B(1) << (KEY_BITS<KeyT> - 1));
    const B nan        = bits_of(L::quiet_NaN());
    const B denorm_max = static_cast<B>(bits_of(L::min()) - 1);
    const B special[]  = {B(0),
                          nan,
                          static_cast<B>(nan | 0x2345u),
                          bits_of(L::infinity()),
                          bits_of(L::denorm_min()),
                          denorm_max,
                          bits_of(L::min()),
                          bits_of(L::max()),
                          bits_of(KeyT(1))};
    std::vector<KeyT> v;
    for (const B bits : special)
    {
      v.push_back(from_bits<KeyT>(bits));
      v.push_back(from_bits<KeyT>(static_cast<B>(bits | sign)));
    }
    return v;
  }
  else
  {
    return {KeyT(0),
            KeyT(1),
            KeyT(2),
            L::min(),
            L::max(),
            static_cast<KeyT>(L::min() + 1),
            static_cast<KeyT>(L::max() - 1),
            static_cast<KeyT>(L::max() / 2),
            static_cast<KeyT>(L::max() / 2 + 1)};
  }
}

enum class key_kind
{
  mixed, // half random bit patterns, half special_keys()
  few    // 8 values: 0 to 7 (floats: 0 of either sign)
};

const char* name_of(key_kind kind)
{
  return kind == key_kind::mixed ? "random and special keys" : "keys of 8 values";
}

template <typename KeyT>
std::vector<KeyT> make_keys(std::size_t n, key_kind kind, std::uint64_t salt)
{
  std::mt19937_64 rng             = strata_test::make_rng(salt);
  const std::vector<KeyT> special = special_keys<KeyT>();
  std::uniform_int_distribution<int> pick(0, static_cast<int>(special.size()) - 1);
  std::vector<KeyT> keys(n);
  for (auto& key : keys)
  {
    const std::uint64_t word = rng();
    if (kind == key_kind::few)
    {
      key = static_cast<KeyT>(word % 8);
      if constexpr (std::is_floating_point<KeyT>::value)
      {
        key = key == KeyT(0) && (word & 8) ? -KeyT(0) : key;
      }
    }
    else
    {
      key = (word & 1) ? special[pick(rng)] : from_bits<KeyT>(static_cast<bits_t<KeyT>>(rng()));
    }
  }
  return keys;
}

// -- segment layouts -------------------------------------------------------------------------------------------------

// The length classes of keys of KeyT with values of ValueT (NullType: none).
template <typename KeyT, typename ValueT>
using policy_t = typename strata::detail::segmented_sort::policy_hub<KeyT, ValueT>::MaxPolicy::SegmentedSortPolicy;

// Segment lengths at every class edge, twice each: 0, 1, 2; the tiny, small, medium and large classes' largest
// lengths for keys of KeyT with values of ValueT and for 4-, 8- and 12-byte items, one less and one more; the large
// sort's tile, two and three tiles, and the huge sort's tile and two tiles, one less and one more; and the lengths in
// `big`, once each.
template <typename KeyT, typename ValueT>
std::vector<std::size_t> edge_lengths(std::initializer_list<std::size_t> big)
{
  using own   = policy_t<KeyT, ValueT>;
  using four  = policy_t<std::uint32_t, strata::NullType>;
  using eight = policy_t<std::uint32_t, int>;
  using wide  = policy_t<std::uint64_t, int>;
  std::vector<std::size_t> maxima;
  for (const int m : {own::TINY_MAX, own::SMALL_MAX, own::MEDIUM_MAX, own::LARGE_MAX, four::TINY_MAX, four::SMALL_MAX,
                      four::MEDIUM_MAX, four::LARGE_MAX, eight::SMALL_MAX, eight::MEDIUM_MAX, wide::SMALL_MAX,
                      wide::MEDIUM_MAX, wide::LARGE_MAX})
  {
    maxima.push_back(static_cast<std::size_t>(m));
  }
  const std::size_t tile      = static_cast<std::size_t>(own::BLOCK_THREADS) * own::LARGE_ITEMS_PER_THREAD;
  const std::size_t huge_tile = static_cast<std::size_t>(own::BLOCK_THREADS) * own::HUGE_ITEMS_PER_THREAD;
  for (const std::size_t t : {tile, 2 * tile, 3 * tile, huge_tile, 2 * huge_tile})
  {
    maxima.push_back(t);
  }
  std::vector<std::size_t> lengths = {0, 1, 2};
  for (const std::size_t m : maxima)
  {
    lengths.insert(lengths.end(), {m - 1, m, m + 1});
  }
  std::sort(lengths.begin(), lengths.end());
  lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
  lengths.insert(lengths.end(), lengths.begin(), lengths.end());
  lengths.insert(lengths.end(), big.begin(), big.end());
  return lengths;
}

// Segments of `lengths` that share no item, in random order (segment s's items need not come after segment s - 1's),
// with gaps of 0 to 7 items between them, and among them one empty segment in five placed anywhere, whose end is at or
// before its begin. Begin and end offsets in two arrays.
layout disjoint(const std::string& what, std::vector<std::size_t> lengths, std::mt19937_64& rng)
{
  std::shuffle(lengths.begin(), lengths.end(), rng);
  std::vector<std::pair<long long, long long>> segments;
  long long at = 0;
  for (const std::size_t length : lengths)
  {
    at += std::uniform_int_distribution<long long>(0, 7)(rng);
    if (static_cast<std::size_t>(at) + length > budget())
    {
      break;
    }
    segments.emplace_back(at, at + static_cast<long long>(length));
    at += static_cast<long long>(length);
  }
  const std::size_t empties = segments.size() / 4;
  for (std::size_t k = 0; k < empties; ++k)
  {
    const long long begin = std::uniform_int_distribution<long long>(0, at)(rng);
    segments.emplace_back(begin, std::uniform_int_distribution<long long>(0, begin)(rng));
  }
  std::shuffle(segments.begin(), segments.end(), rng);
  layout l;
  l.csr = false;
  for (const auto& segment : segments)
  {
    l.begin.push_back(segment.first);
    l.end.push_back(segment.second);
  }
  l.name = segment_test::described(what, l);
  return l;
}

// The class edges: contiguous (CSR) in random order, and disjoint with gaps and empty segments.
template <typename KeyT, typename ValueT>
std::vector<layout> edge_layouts(std::initializer_list<std::size_t> big, std::uint64_t salt)
{
  std::mt19937_64 rng              = strata_test::make_rng(salt);
  std::vector<std::size_t> lengths = edge_lengths<KeyT, ValueT>(big);
  std::vector<layout> v;
  v.push_back(disjoint("class edges, scattered with gaps", lengths, rng));
  std::shuffle(lengths.begin(), lengths.end(), rng);
  v.push_back(contiguous("class edges, contiguous", lengths));
  return v;
}

// Every layout of segment_layouts.cuh whose segments share no item, its sizes built around the classes' largest
// lengths (medium: the one-segment sizes; tiny: the counts of lengths in [0, 8]; small: the runs), and long segments
// scattered with gaps.
const std::vector<layout>& every_layout()
{
  static const std::vector<layout> all = [] {
    using P = policy_t<std::uint32_t, int>;
    std::vector<layout> v;
    for (layout& l : segment_test::make_layouts(P::MEDIUM_MAX, P::TINY_MAX, P::SMALL_MAX))
    {
      if (!l.overlapping)
      {
        v.push_back(std::move(l));
      }
    }
    std::mt19937_64 rng = strata_test::make_rng(0x5057);
    v.push_back(disjoint("long segments, scattered with gaps",
                         {(std::size_t(1) << 19) + 3, 300007, 100003, 4097, 257, 17, 1, 0}, rng));
    return v;
  }();
  return all;
}

// -- host reference and checks ---------------------------------------------------------------------------------------

// For each of the first n output items, the input item it holds after the sort: each segment's positions stably
// sorted by their keys' images; -1 for items in no segment.
template <typename KeyT>
std::vector<long long> reference_sources(const layout& l, const std::vector<KeyT>& keys, sort_order o, std::size_t n)
{
  std::vector<long long> sources(n, -1);
  std::vector<std::pair<std::uint64_t, long long>> items;
  for (std::size_t s = 0; s < l.num_segments(); ++s)
  {
    const long long begin = l.begin[s];
    const auto length     = static_cast<long long>(l.length(s));
    items.resize(static_cast<std::size_t>(length));
    for (long long i = 0; i < length; ++i)
    {
      items[i] = {image(keys[begin + i], o), begin + i};
    }
    std::stable_sort(items.begin(), items.end(), [](const auto& a, const auto& b) {
      return a.first < b.first;
    });
    for (long long i = 0; i < length; ++i)
    {
      sources[begin + i] = items[i].second;
    }
  }
  return sources;
}

// `before` with every item in a segment replaced by the input item the sort puts there.
template <typename T>
std::vector<T> expected(const std::vector<long long>& sources, const std::vector<T>& input, std::vector<T> before)
{
  for (std::size_t i = 0; i < before.size(); ++i)
  {
    if (sources[i] >= 0)
    {
      before[i] = input[sources[i]];
    }
  }
  return before;
}

template <typename T>
std::string show(const T& v)
{
  std::ostringstream os;
  os << std::setprecision(17) << +v << " (bits 0x" << std::hex << +bits_of(v) << ")";
  return os.str();
}

// " (segment s, items [begin, end))" for the segment holding item i, or " (in no segment)".
std::string where(const layout& l, std::size_t i)
{
  for (std::size_t s = 0; s < l.num_segments(); ++s)
  {
    if (static_cast<long long>(i) >= l.begin[s] && static_cast<long long>(i) < l.end[s])
    {
      return " (segment " + std::to_string(s) + ", items [" + std::to_string(l.begin[s]) + ", "
           + std::to_string(l.end[s]) + "))";
    }
  }
  return " (in no segment)";
}

// `out` equals `want` bit for bit.
template <typename T>
void require_items(const char* what, const layout& l, const std::vector<T>& out, const std::vector<T>& want)
{
  REQUIRE(out.size() == want.size());
  std::size_t wrong = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < out.size(); ++i)
  {
    if (std::memcmp(&out[i], &want[i], sizeof(T)) != 0 && wrong++ == 0)
    {
      first = i;
    }
  }
  if (wrong != 0)
  {
    INFO(what << ": " << wrong << " of " << out.size() << " items wrong; the first is item " << first << where(l, first)
              << ": " << show(out[first]) << " where " << show(want[first]) << " was expected");
    FAIL("segments sorted wrong");
  }
}

// The items in no segment of `out` are those of `before`, bit for bit (the others are not looked at).
template <typename T>
void require_unsegmented(const char* what, const layout& l, const std::vector<long long>& sources,
                         const std::vector<T>& out, const std::vector<T>& before)
{
  std::vector<T> want = out;
  for (std::size_t i = 0; i < want.size(); ++i)
  {
    if (sources[i] < 0)
    {
      want[i] = before[i];
    }
  }
  require_items(what, l, out, want);
}

// The keys of a test and their positions as values (budget() + TAIL of each), on the host and the device.
template <typename KeyT>
struct sort_input
{
  sort_input(key_kind kind_, std::uint64_t salt)
      : kind(kind_)
      , keys(make_keys<KeyT>(budget() + TAIL, kind_, salt))
      , values(positions(keys.size()))
      , d_keys(keys)
      , d_values(values)
  {}

  static std::vector<int> positions(std::size_t n)
  {
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), 0);
    return v;
  }

  key_kind kind;
  std::vector<KeyT> keys;
  std::vector<int> values;
  device_buffer<KeyT> d_keys;
  device_buffer<int> d_values;
};

std::string describe(const layout& l, key_kind kind, sort_order o)
{
  return l.name + "; " + name_of(kind) + "; " + (o.descending ? "descending" : "ascending") + " by bits ["
       + std::to_string(o.begin_bit) + ", " + std::to_string(o.end_bit) + ")";
}

// The launch mode of the i-th run of a test: every third one under graph capture.
launch_mode mode_of(int i)
{
  return i % 3 == 2 ? launch_mode::graph : launch_mode::stream;
}

// num_items of the i-th run over `l`: up to its last item, or every item of the buffers (TAIL more, in no segment),
// about half the runs each, mixed so that no entry point of a test's repeating pattern of calls gets only one.
long long num_items_of(const layout& l, int i)
{
  return static_cast<long long>(l.items() + ((i + i / 4) % 2 ? TAIL : 0));
}

// Sorts `l`'s segments of `in` with the in/out form `call(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
// d_values_in, d_values_out, num_items, num_segments, d_begin_offsets, d_end_offsets, stream)` through both phases
// into poisoned outputs, and requires every segment's stable sort by `o` (keys, and values where PAIRS) and the poison
// everywhere else.
template <bool PAIRS, typename OffsetT = int, typename KeyT, typename CallT>
void check_in_out(const layout& l, const sort_input<KeyT>& in, sort_order o, CallT call, int run)
{
  INFO(describe(l, in.kind, o));
  const std::size_t n = l.items() + TAIL;
  REQUIRE(n <= in.keys.size());
  const device_offsets<OffsetT> offsets(l);
  device_buffer<KeyT> keys_out(n);
  device_buffer<int> values_out(PAIRS ? n : 0);
  const std::vector<KeyT> keys_before  = keys_out.download();
  const std::vector<int> values_before = PAIRS ? values_out.download() : std::vector<int>{};
  const long long num_items            = num_items_of(l, run);
  strata_test::launch(
    [&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return call(temp, bytes, in.d_keys.data(), keys_out.data(), in.d_values.data(), values_out.data(), num_items,
                  static_cast<long long>(l.num_segments()), offsets.begin(), offsets.end(), s);
    },
    mode_of(run));
  const std::vector<long long> sources = reference_sources(l, in.keys, o, n);
  require_items("keys", l, keys_out.download(), expected(sources, in.keys, keys_before));
  if constexpr (PAIRS)
  {
    require_items("values", l, values_out.download(), expected(sources, in.values, values_before));
  }
}

// The same with a DoubleBuffer form, `call(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items,
// num_segments, d_begin_offsets, d_end_offsets, stream)`: the input in the buffers that key_selector and
// value_selector name, poison in the others. Requires each segment's sort in the buffers the selectors name after the
// call, and every item in no segment as it was in all four buffers.
template <bool PAIRS, typename KeyT, typename CallT>
void check_double_buffer(const layout& l, const sort_input<KeyT>& in, sort_order o, CallT call, int key_selector,
                         int value_selector, int run)
{
  INFO(describe(l, in.kind, o) << "; selectors " << key_selector << " (keys), " << value_selector << " (values)");
  const std::size_t n = l.items() + TAIL;
  REQUIRE(n <= in.keys.size());
  const device_offsets<int> offsets(l);
  device_buffer<KeyT> keys0(n), keys1(n);
  device_buffer<int> values0(PAIRS ? n : 0), values1(PAIRS ? n : 0);
  device_buffer<KeyT>* const key_buffers[2]  = {&keys0, &keys1};
  device_buffer<int>* const value_buffers[2] = {&values0, &values1};
  key_buffers[key_selector]->upload(std::vector<KeyT>(in.keys.begin(), in.keys.begin() + n));
  if constexpr (PAIRS)
  {
    value_buffers[value_selector]->upload(std::vector<int>(in.values.begin(), in.values.begin() + n));
  }
  const std::vector<KeyT> keys_before[2]  = {keys0.download(), keys1.download()};
  const std::vector<int> values_before[2] = {PAIRS ? values0.download() : std::vector<int>{},
                                             PAIRS ? values1.download() : std::vector<int>{}};
  strata::DoubleBuffer<KeyT> d_keys(keys0.data(), keys1.data());
  strata::DoubleBuffer<int> d_values(values0.data(), values1.data());
  d_keys.selector           = key_selector;
  d_values.selector         = value_selector;
  const long long num_items = num_items_of(l, run);
  strata_test::launch(
    [&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return call(temp, bytes, d_keys, d_values, num_items, static_cast<long long>(l.num_segments()), offsets.begin(),
                  offsets.end(), s);
    },
    mode_of(run));
  REQUIRE((d_keys.d_buffers[0] == keys0.data() && d_keys.d_buffers[1] == keys1.data()));
  REQUIRE((d_keys.selector == 0 || d_keys.selector == 1));
  const std::vector<long long> sources = reference_sources(l, in.keys, o, n);
  const int ks                         = d_keys.selector;
  require_items("keys in the buffer the selector names", l, key_buffers[ks]->download(),
                expected(sources, in.keys, keys_before[ks]));
  require_unsegmented("keys in the other buffer", l, sources, key_buffers[ks ^ 1]->download(), keys_before[ks ^ 1]);
  if constexpr (PAIRS)
  {
    REQUIRE((d_values.d_buffers[0] == values0.data() && d_values.d_buffers[1] == values1.data()));
    REQUIRE((d_values.selector == 0 || d_values.selector == 1));
    const int vs = d_values.selector;
    require_items("values in the buffer the selector names", l, value_buffers[vs]->download(),
                  expected(sources, in.values, values_before[vs]));
    require_unsegmented("values in the other buffer", l, sources, value_buffers[vs ^ 1]->download(),
                        values_before[vs ^ 1]);
  }
}

// STRUCT::NAME as a callable of check_in_out's shape, keys only (the values ignored) or with values; the arguments
// after the offsets (a bit range) follow.
#define STRATA_TEST_KEYS_IN_OUT(STRUCT, NAME, ...)                                                           \
  [=](void* t, std::size_t& b, auto* ki, auto* ko, auto*, auto*, long long n, long long m, auto bo, auto eo, \
      cudaStream_t s) {                                                                                      \
    return strata::STRUCT::NAME(t, b, ki, ko, n, m, bo, eo, ##__VA_ARGS__, s);                               \
  }
#define STRATA_TEST_PAIRS_IN_OUT(STRUCT, NAME, ...)                                                                \
  [=](void* t, std::size_t& b, auto* ki, auto* ko, auto* vi, auto* vo, long long n, long long m, auto bo, auto eo, \
      cudaStream_t s) {                                                                                            \
    return strata::STRUCT::NAME(t, b, ki, ko, vi, vo, n, m, bo, eo, ##__VA_ARGS__, s);                             \
  }
// The same for check_double_buffer's shape.
#define STRATA_TEST_KEYS_DOUBLE_BUFFER(STRUCT, NAME, ...)                                                       \
  [=](void* t, std::size_t& b, auto& keys, auto&, long long n, long long m, auto bo, auto eo, cudaStream_t s) { \
    return strata::STRUCT::NAME(t, b, keys, n, m, bo, eo, ##__VA_ARGS__, s);                                    \
  }
#define STRATA_TEST_PAIRS_DOUBLE_BUFFER(STRUCT, NAME, ...)                                                             \
  [=](void* t, std::size_t& b, auto& keys, auto& values, long long n, long long m, auto bo, auto eo, cudaStream_t s) { \
    return strata::STRUCT::NAME(t, b, keys, values, n, m, bo, eo, ##__VA_ARGS__, s);                                   \
  }
} // namespace

// -- every key type over the class edges ------------------------------------------------------------------------------

TEMPLATE_TEST_CASE("DeviceSegmentedSort::SortKeys and SortKeysDescending sort every segment stably by its keys' "
                   "images, at every length class's edges",
                   "[device][segmented_sort]", std::uint32_t, std::int32_t, float, double, std::int8_t, std::uint64_t)
{
  using KeyT = TestType;
  int run    = 0;
  for (const key_kind kind : {key_kind::mixed, key_kind::few})
  {
    const sort_input<KeyT> in(kind, 0x5500 + sizeof(KeyT));
    for (const layout& l : edge_layouts<KeyT, strata::NullType>({100003, 65537}, 0x5510 + sizeof(KeyT)))
    {
      check_in_out<false>(l, in, all_bits<KeyT>(false), STRATA_TEST_KEYS_IN_OUT(DeviceSegmentedSort, SortKeys), run++);
      check_in_out<false>(l, in, all_bits<KeyT>(true), STRATA_TEST_KEYS_IN_OUT(DeviceSegmentedSort, SortKeysDescending),
                          run++);
    }
  }
}

TEMPLATE_TEST_CASE("DeviceSegmentedSort::SortPairs and SortPairsDescending keep each key's value and equal keys in "
                   "input order, at every length class's edges",
                   "[device][segmented_sort]", std::uint32_t, float, double, std::int8_t, std::uint64_t)
{
  using KeyT = TestType;
  int run    = 0;
  for (const key_kind kind : {key_kind::few, key_kind::mixed})
  {
    const sort_input<KeyT> in(kind, 0x5520 + sizeof(KeyT));
    for (const layout& l : edge_layouts<KeyT, int>({100003, 65537}, 0x5530 + sizeof(KeyT)))
    {
      check_in_out<true>(l, in, all_bits<KeyT>(false), STRATA_TEST_PAIRS_IN_OUT(DeviceSegmentedSort, SortPairs), run++);
      check_in_out<true>(l, in, all_bits<KeyT>(true),
                         STRATA_TEST_PAIRS_IN_OUT(DeviceSegmentedSort, SortPairsDescending), run++);
    }
  }
}

// -- every layout -------------------------------------------------------------------------------------------------------

TEST_CASE("DeviceSegmentedSort over every segment layout: SortKeys of random and special uint32 keys, "
          "SortPairsDescending of keys of 8 values",
          "[device][segmented_sort]")
{
  using KeyT = std::uint32_t;
  int run    = 0;
  SECTION("SortKeys")
  {
    const sort_input<KeyT> in(key_kind::mixed, 0x5540);
    for (const layout& l : every_layout())
    {
      check_in_out<false>(l, in, all_bits<KeyT>(false), STRATA_TEST_KEYS_IN_OUT(DeviceSegmentedSort, SortKeys), run++);
    }
  }
  SECTION("SortPairsDescending")
  {
    const sort_input<KeyT> in(key_kind::few, 0x5541);
    for (const layout& l : every_layout())
    {
      check_in_out<true>(l, in, all_bits<KeyT>(true),
                         STRATA_TEST_PAIRS_IN_OUT(DeviceSegmentedSort, SortPairsDescending), run++);
    }
  }
}

// -- the other entry points and forms -----------------------------------------------------------------------------------

TEST_CASE("DeviceSegmentedSort's Stable* entry points sort as the others do", "[device][segmented_sort]")
{
  using KeyT = std::uint32_t;
  const sort_input<KeyT> in(key_kind::few, 0x5550);
  std::mt19937_64 rng = strata_test::make_rng(0x5551);
  std::vector<std::size_t> lengths(3001);
  for (auto& length : lengths)
  {
    length = strata_test::mixed_segment_length(rng) / 4;
  }
  const layout l        = disjoint("mixed lengths, scattered with gaps", lengths, rng);
  const sort_order up   = all_bits<KeyT>(false);
  const sort_order down = all_bits<KeyT>(true);
  int run               = 0;
  check_in_out<false>(l, in, up, STRATA_TEST_KEYS_IN_OUT(DeviceSegmentedSort, StableSortKeys), run++);
  check_in_out<false>(l, in, down, STRATA_TEST_KEYS_IN_OUT(DeviceSegmentedSort, StableSortKeysDescending), run++);
  check_in_out<true>(l, in, up, STRATA_TEST_PAIRS_IN_OUT(DeviceSegmentedSort, StableSortPairs), run++);
  check_in_out<true>(l, in, down, STRATA_TEST_PAIRS_IN_OUT(DeviceSegmentedSort, StableSortPairsDescending), run++);
  check_double_buffer<false>(l, in, up, STRATA_TEST_KEYS_DOUBLE_BUFFER(DeviceSegmentedSort, StableSortKeys), 0, 0,
                             run++);
  check_double_buffer<false>(l, in, down, STRATA_TEST_KEYS_DOUBLE_BUFFER(DeviceSegmentedSort, StableSortKeysDescending),
                             1, 0, run++);
  check_double_buffer<true>(l, in, up, STRATA_TEST_PAIRS_DOUBLE_BUFFER(DeviceSegmentedSort, StableSortPairs), 0, 1,
                            run++);
  check_double_buffer<true>(l, in, down,
                            STRATA_TEST_PAIRS_DOUBLE_BUFFER(DeviceSegmentedSort, StableSortPairsDescending), 1, 1,
                            run++);
}

TEMPLATE_TEST_CASE("DeviceSegmentedSort's DoubleBuffer forms leave the result where the selectors say and items in no "
                   "segment as they were",
                   "[device][segmented_sort][double_buffer]", std::uint32_t, std::uint64_t)
{
  using KeyT = TestType;
  const sort_input<KeyT> mixed(key_kind::mixed, 0x5560 + sizeof(KeyT));
  const sort_input<KeyT> few(key_kind::few, 0x5561 + sizeof(KeyT));
  int run = 0;
  for (const layout& l : edge_layouts<KeyT, int>({20011}, 0x5562))
  {
    for (const int selectors : {0, 1, 2, 3})
    {
      const int ks               = selectors & 1;
      const int vs               = selectors >> 1;
      const sort_input<KeyT>& in = (run / 4 + run / 16) % 2 ? few : mixed;
      check_double_buffer<false>(l, in, all_bits<KeyT>(false),
                                 STRATA_TEST_KEYS_DOUBLE_BUFFER(DeviceSegmentedSort, SortKeys), ks, vs, run++);
      check_double_buffer<false>(l, in, all_bits<KeyT>(true),
                                 STRATA_TEST_KEYS_DOUBLE_BUFFER(DeviceSegmentedSort, SortKeysDescending), ks, vs,
                                 run++);
      check_double_buffer<true>(l, in, all_bits<KeyT>(false),
                                STRATA_TEST_PAIRS_DOUBLE_BUFFER(DeviceSegmentedSort, SortPairs), ks, vs, run++);
      check_double_buffer<true>(l, in, all_bits<KeyT>(true),
                                STRATA_TEST_PAIRS_DOUBLE_BUFFER(DeviceSegmentedSort, SortPairsDescending), ks, vs,
                                run++);
    }
  }
}

// -- bit ranges ---------------------------------------------------------------------------------------------------------

TEST_CASE("DeviceSegmentedRadixSort sorts uint32 keys and pairs by bits [begin_bit, end_bit), in/out and DoubleBuffer",
          "[device][segmented_sort][bits]")
{
  using KeyT                        = std::uint32_t;
  const std::vector<layout> layouts = edge_layouts<KeyT, int>({20011}, 0x5570);
  const sort_input<KeyT> mixed(key_kind::mixed, 0x5571);
  const sort_input<KeyT> few(key_kind::few, 0x5572);
  const std::pair<int, int> ranges[] = {{0, 32},  {3, 20}, {8, 32},  {31, 32}, {0, 1},
                                        {13, 14}, {0, 0},  {16, 16}, {32, 32}};
  int run                            = 0;
  int k                              = 0;
  for (const auto& [begin_bit, end_bit] : ranges)
  {
    for (const bool descending : {false, true})
    {
      const sort_order o{descending, begin_bit, end_bit};
      const int bb               = begin_bit;
      const int eb               = end_bit;
      const layout& l            = layouts[k % 2];
      const sort_input<KeyT>& in = (k / 2) % 2 ? few : mixed;
      const int ks               = k % 2;
      const int vs               = (k / 2) % 2;
      ++k;
      if (descending)
      {
        check_in_out<false>(l, in, o, STRATA_TEST_KEYS_IN_OUT(DeviceSegmentedRadixSort, SortKeysDescending, bb, eb),
                            run++);
        check_in_out<true>(l, in, o, STRATA_TEST_PAIRS_IN_OUT(DeviceSegmentedRadixSort, SortPairsDescending, bb, eb),
                           run++);
        check_double_buffer<false>(l, in, o,
                                   STRATA_TEST_KEYS_DOUBLE_BUFFER(DeviceSegmentedRadixSort, SortKeysDescending, bb, eb),
                                   ks, vs, run++);
        check_double_buffer<true>(l, in, o,
                                  STRATA_TEST_PAIRS_DOUBLE_BUFFER(DeviceSegmentedRadixSort, SortPairsDescending, bb,
                                                                  eb),
                                  ks, vs, run++);
      }
      else
      {
        check_in_out<false>(l, in, o, STRATA_TEST_KEYS_IN_OUT(DeviceSegmentedRadixSort, SortKeys, bb, eb), run++);
        check_in_out<true>(l, in, o, STRATA_TEST_PAIRS_IN_OUT(DeviceSegmentedRadixSort, SortPairs, bb, eb), run++);
        check_double_buffer<false>(l, in, o, STRATA_TEST_KEYS_DOUBLE_BUFFER(DeviceSegmentedRadixSort, SortKeys, bb, eb),
                                   ks, vs, run++);
        check_double_buffer<true>(l, in, o,
                                  STRATA_TEST_PAIRS_DOUBLE_BUFFER(DeviceSegmentedRadixSort, SortPairs, bb, eb), ks, vs,
                                  run++);
      }
    }
  }
}

TEMPLATE_TEST_CASE("DeviceSegmentedRadixSort sorts int8, uint64, float and double keys by partial bit ranges",
                   "[device][segmented_sort][bits]", std::int8_t, std::uint64_t, float, double)
{
  using KeyT                        = TestType;
  constexpr int BITS                = KEY_BITS<KeyT>;
  const std::vector<layout> layouts = edge_layouts<KeyT, int>({20011}, 0x5580 + sizeof(KeyT));
  const sort_input<KeyT> mixed(key_kind::mixed, 0x5581 + sizeof(KeyT));
  const sort_input<KeyT> few(key_kind::few, 0x5582 + sizeof(KeyT));
  // The high half (floats: the sign, the exponent and the mantissa's top), the low half, a window across the middle,
  // the sign bit alone, and none.
  const std::pair<int, int> ranges[] = {
    {BITS / 2, BITS}, {0, BITS / 2}, {3, BITS / 2 + 3}, {BITS - 1, BITS}, {BITS / 2, BITS / 2}};
  int run = 0;
  int k   = 0;
  for (const auto& [begin_bit, end_bit] : ranges)
  {
    for (const sort_input<KeyT>* in : {&mixed, &few})
    {
      const int bb    = begin_bit;
      const int eb    = end_bit;
      const layout& l = layouts[k++ % 2];
      check_in_out<false>(l, *in, sort_order{false, bb, eb},
                          STRATA_TEST_KEYS_IN_OUT(DeviceSegmentedRadixSort, SortKeys, bb, eb), run++);
      check_in_out<true>(l, *in, sort_order{true, bb, eb},
                         STRATA_TEST_PAIRS_IN_OUT(DeviceSegmentedRadixSort, SortPairsDescending, bb, eb), run++);
      if (in == &mixed)
      {
        check_in_out<false>(l, *in, sort_order{true, bb, eb},
                            STRATA_TEST_KEYS_IN_OUT(DeviceSegmentedRadixSort, SortKeysDescending, bb, eb), run++);
      }
      else
      {
        check_in_out<true>(l, *in, sort_order{false, bb, eb},
                           STRATA_TEST_PAIRS_IN_OUT(DeviceSegmentedRadixSort, SortPairs, bb, eb), run++);
      }
    }
  }
}

// -- offsets ----------------------------------------------------------------------------------------------------------

namespace
{
// Segment s of fixed-size segments with gaps: [s * stride, s * stride + length).
struct segment_at
{
  int stride;
  int offset;
  __host__ __device__ int operator()(int s) const
  {
    return s * stride + offset;
  }
};
} // namespace

TEST_CASE("DeviceSegmentedSort::SortPairs takes 64-bit offsets and offsets from Thrust iterators",
          "[device][segmented_sort]")
{
  using KeyT = std::uint32_t;
  const sort_input<KeyT> in(key_kind::few, 0x5590);
  const sort_order up = all_bits<KeyT>(false);
  int run             = 0;
  {
    INFO("long long offsets");
    for (const layout& l : edge_layouts<KeyT, int>({100003}, 0x5591))
    {
      check_in_out<true, long long>(l, in, up, STRATA_TEST_PAIRS_IN_OUT(DeviceSegmentedSort, SortPairs), run++);
    }
  }
  {
    INFO("transform_iterator over counting_iterator: segments of 300 items, 7 apart");
    const int stride = 307;
    const int length = 300;
    const int num    = static_cast<int>(budget() / stride);
    const auto begin = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), segment_at{stride, 0});
    const auto end   = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), segment_at{stride, length});
    layout l;
    l.csr = false;
    for (int s = 0; s < num; ++s)
    {
      l.begin.push_back(static_cast<long long>(s) * stride);
      l.end.push_back(static_cast<long long>(s) * stride + length);
    }
    l.name              = segment_test::described("fixed-size segments with gaps", l);
    const std::size_t n = l.items() + TAIL;
    device_buffer<KeyT> keys_out(n);
    device_buffer<int> values_out(n);
    const std::vector<KeyT> keys_before  = keys_out.download();
    const std::vector<int> values_before = values_out.download();
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceSegmentedSort::SortPairs(temp, bytes, static_cast<const KeyT*>(in.d_keys.data()),
                                                    keys_out.data(), static_cast<const int*>(in.d_values.data()),
                                                    values_out.data(), static_cast<long long>(n), num, begin, end, s);
    });
    const std::vector<long long> sources = reference_sources(l, in.keys, up, n);
    require_items("keys", l, keys_out.download(), expected(sources, in.keys, keys_before));
    require_items("values", l, values_out.download(), expected(sources, in.values, values_before));
  }
}

// -- nothing to sort ----------------------------------------------------------------------------------------------------

TEST_CASE("DeviceSegmentedSort with nothing to sort writes nothing; without items or segments it asks for one byte",
          "[device][segmented_sort][errors]")
{
  using KeyT                     = std::uint32_t;
  using S                        = strata::DeviceSegmentedSort;
  using R                        = strata::DeviceSegmentedRadixSort;
  const std::size_t n            = 100;
  const std::vector<KeyT> h_keys = make_keys<KeyT>(n, key_kind::mixed, 0x55a0);
  const device_buffer<KeyT> keys_in(h_keys);
  const device_buffer<int> values_in(sort_input<KeyT>::positions(n));
  device_buffer<KeyT> keys_out(n);
  device_buffer<int> values_out(n);
  // All empty: end == begin, end < begin.
  const device_buffer<int> d_begin(std::vector<int>{0, 5, 50, 100, 99});
  const device_buffer<int> d_end(std::vector<int>{0, 5, 20, 100, 0});
  const device_buffer<int> d_zeros(std::vector<int>{0, 0, 0, 0});
  const KeyT* const ki           = keys_in.data();
  const int* const vi            = values_in.data();
  KeyT* const ko                 = keys_out.data();
  int* const vo                  = values_out.data();
  const KeyT* const null_keys_in = nullptr;
  KeyT* const null_keys_out      = nullptr;
  const int* const null_int_in   = nullptr;
  int* const null_int_out        = nullptr;
  device_buffer<char> one(1);

  SECTION("num_segments 0")
  {
    std::size_t bytes = 0;
    REQUIRE(S::SortPairs(nullptr, bytes, ki, ko, vi, vo, n, 0, d_zeros.data(), d_zeros.data() + 1) == cudaSuccess);
    CHECK(bytes == 1);
    CHECK(S::SortPairs(one.data(), bytes, ki, ko, vi, vo, n, 0, d_zeros.data(), d_zeros.data() + 1) == cudaSuccess);
    CHECK(S::SortPairs(one.data(), bytes, null_keys_in, null_keys_out, null_int_in, null_int_out, n, 0, null_int_in,
                       null_int_in)
          == cudaSuccess);
    bytes = 0;
    REQUIRE(S::SortKeys(nullptr, bytes, ki, ko, n, 0, d_zeros.data(), d_zeros.data() + 1) == cudaSuccess);
    CHECK(bytes == 1);
    CHECK(S::SortKeys(one.data(), bytes, null_keys_in, null_keys_out, n, 0, null_int_in, null_int_in) == cudaSuccess);
  }
  SECTION("num_items 0")
  {
    std::size_t bytes = 0;
    REQUIRE(S::SortPairs(nullptr, bytes, ki, ko, vi, vo, 0, 3, d_zeros.data(), d_zeros.data() + 1) == cudaSuccess);
    CHECK(bytes == 1);
    CHECK(S::SortPairs(one.data(), bytes, ki, ko, vi, vo, 0, 3, d_zeros.data(), d_zeros.data() + 1) == cudaSuccess);
    CHECK(S::SortPairs(one.data(), bytes, null_keys_in, null_keys_out, null_int_in, null_int_out, 0, 3, null_int_in,
                       null_int_in)
          == cudaSuccess);
    bytes = 0;
    REQUIRE(R::SortKeysDescending(nullptr, bytes, ki, ko, 0, 3, d_zeros.data(), d_zeros.data() + 1, 3, 20)
            == cudaSuccess);
    CHECK(bytes == 1);
    CHECK(R::SortKeysDescending(one.data(), bytes, ki, ko, 0, 3, d_zeros.data(), d_zeros.data() + 1, 3, 20)
          == cudaSuccess);
  }
  SECTION("every segment empty")
  {
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return S::SortPairs(temp, bytes, ki, ko, vi, vo, n, 5, d_begin.data(), d_end.data(), s);
    });
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return S::SortKeysDescending(temp, bytes, ki, ko, n, 5, d_begin.data(), d_end.data(), s);
      },
      launch_mode::graph);
    device_buffer<KeyT> alternate(n);
    device_buffer<KeyT> current(h_keys);
    strata::DoubleBuffer<KeyT> keys(current.data(), alternate.data());
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return R::SortKeys(temp, bytes, keys, n, 5, d_begin.data(), d_end.data(), 0, 32, s);
    });
    CHECK(strata_test::all_poisoned(alternate.download()));
    STRATA_REQUIRE_EQUAL_VECTORS(current.download(), h_keys);
  }
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(keys_out.download()));
  CHECK(strata_test::all_poisoned(values_out.download()));
}

// -- bad input ----------------------------------------------------------------------------------------------------------

TEST_CASE("DeviceSegmentedSort and DeviceSegmentedRadixSort reject bad input before writing anything",
          "[device][segmented_sort][errors]")
{
  using KeyT                      = std::uint32_t;
  using S                         = strata::DeviceSegmentedSort;
  using R                         = strata::DeviceSegmentedRadixSort;
  constexpr cudaError_t INVALID   = cudaErrorInvalidValue;
  const long long n               = 100;
  const std::vector<KeyT> h_keys  = make_keys<KeyT>(n, key_kind::mixed, 0x55b0);
  const std::vector<int> h_values = sort_input<KeyT>::positions(n);
  const device_buffer<KeyT> keys_in(h_keys);
  const device_buffer<int> values_in(h_values);
  device_buffer<KeyT> keys_out(n);
  device_buffer<int> values_out(n);
  device_buffer<KeyT> keys_current(h_keys);
  device_buffer<KeyT> keys_alternate(n);
  device_buffer<int> values_current(h_values);
  device_buffer<int> values_alternate(n);
  const device_buffer<int> d_offsets(std::vector<int>{0, 10, 50, 100});
  const int* const bo            = d_offsets.data();
  const int* const eo            = d_offsets.data() + 1;
  const KeyT* const ki           = keys_in.data();
  const int* const vi            = values_in.data();
  KeyT* const ko                 = keys_out.data();
  int* const vo                  = values_out.data();
  const KeyT* const null_keys_in = nullptr;
  KeyT* const null_keys_out      = nullptr;
  const int* const null_int_in   = nullptr;
  int* const null_int_out        = nullptr;
  strata::DoubleBuffer<KeyT> keys(keys_current.data(), keys_alternate.data());
  strata::DoubleBuffer<int> values(values_current.data(), values_alternate.data());

  // Storage enough for every call below.
  std::size_t bytes = 0;
  for (const int begin_bit : {0, 3})
  {
    std::size_t b = 0;
    REQUIRE(R::SortPairs(nullptr, b, ki, ko, vi, vo, n, 3, bo, eo, begin_bit, 32) == cudaSuccess);
    bytes = std::max(bytes, b);
    REQUIRE(R::SortKeys(nullptr, b, ki, ko, n, 3, bo, eo, begin_bit, 32) == cudaSuccess);
    bytes = std::max(bytes, b);
  }
  device_buffer<char> temp(bytes);

  SECTION("counts and bit ranges, in the size query and in the run")
  {
    for (void* const t : {static_cast<void*>(nullptr), static_cast<void*>(temp.data())})
    {
      INFO((t == nullptr ? "the size query" : "the run"));
      std::size_t b = bytes;
      CHECK(S::SortPairs(t, b, ki, ko, vi, vo, -1, 3, bo, eo) == INVALID);
      CHECK(S::SortPairs(t, b, ki, ko, vi, vo, n, -1, bo, eo) == INVALID);
      CHECK(S::SortKeys(t, b, ki, ko, -n, 3, bo, eo) == INVALID);
      CHECK(S::SortKeysDescending(t, b, ki, ko, n, -3, bo, eo) == INVALID);
      CHECK(S::SortKeys(t, b, ki, ko, n, 1LL << 32, bo, eo) == INVALID);
      CHECK(S::SortPairs(t, b, keys, values, -1, 3, bo, eo) == INVALID);
      CHECK(S::SortKeys(t, b, keys, n, -1, bo, eo) == INVALID);
      CHECK(R::SortKeys(t, b, ki, ko, n, 3, bo, eo, -1, 32) == INVALID);
      CHECK(R::SortKeys(t, b, ki, ko, n, 3, bo, eo, 0, 33) == INVALID);
      CHECK(R::SortKeys(t, b, ki, ko, n, 3, bo, eo, 10, 9) == INVALID);
      CHECK(R::SortKeys(t, b, ki, ko, n, 3, bo, eo, 33, 33) == INVALID);
      CHECK(R::SortKeysDescending(t, b, ki, ko, n, 3, bo, eo, 20, 4) == INVALID);
      CHECK(R::SortPairs(t, b, ki, ko, vi, vo, n, 3, bo, eo, -8, 8) == INVALID);
      CHECK(R::SortPairsDescending(t, b, ki, ko, vi, vo, n, 3, bo, eo, 0, 40) == INVALID);
      CHECK(R::SortKeys(t, b, keys, n, 3, bo, eo, 0, 33) == INVALID);
      CHECK(R::SortPairsDescending(t, b, keys, values, n, 3, bo, eo, 5, 2) == INVALID);
      CHECK(R::SortPairs(t, b, keys, values, n, 3, bo, eo, -1, 0) == INVALID);
    }
  }
  SECTION("null pointers with items to sort")
  {
    CHECK(S::SortKeys(temp.data(), bytes, null_keys_in, ko, n, 3, bo, eo) == INVALID);
    CHECK(S::SortKeys(temp.data(), bytes, ki, null_keys_out, n, 3, bo, eo) == INVALID);
    CHECK(S::SortKeys(temp.data(), bytes, ki, ko, n, 3, null_int_in, eo) == INVALID);
    CHECK(S::SortKeys(temp.data(), bytes, ki, ko, n, 3, bo, null_int_in) == INVALID);
    CHECK(S::SortPairs(temp.data(), bytes, null_keys_in, ko, vi, vo, n, 3, bo, eo) == INVALID);
    CHECK(S::SortPairs(temp.data(), bytes, ki, null_keys_out, vi, vo, n, 3, bo, eo) == INVALID);
    CHECK(S::SortPairs(temp.data(), bytes, ki, ko, null_int_in, vo, n, 3, bo, eo) == INVALID);
    CHECK(S::SortPairs(temp.data(), bytes, ki, ko, vi, null_int_out, n, 3, bo, eo) == INVALID);
    CHECK(S::SortPairs(temp.data(), bytes, ki, ko, vi, vo, n, 3, null_int_in, eo) == INVALID);
    CHECK(S::SortPairsDescending(temp.data(), bytes, ki, ko, vi, vo, n, 3, bo, null_int_in) == INVALID);
    CHECK(R::SortPairs(temp.data(), bytes, ki, ko, null_int_in, vo, n, 3, bo, eo, 3, 32) == INVALID);
    CHECK(R::SortKeysDescending(temp.data(), bytes, ki, null_keys_out, n, 3, bo, eo, 3, 32) == INVALID);
    strata::DoubleBuffer<KeyT> keys_one_null(keys_current.data(), nullptr);
    strata::DoubleBuffer<KeyT> keys_other_null(nullptr, keys_alternate.data());
    keys_other_null.selector = 1;
    strata::DoubleBuffer<int> values_one_null(nullptr, values_alternate.data());
    CHECK(S::SortKeys(temp.data(), bytes, keys_one_null, n, 3, bo, eo) == INVALID);
    CHECK(S::SortKeys(temp.data(), bytes, keys_other_null, n, 3, bo, eo) == INVALID);
    CHECK(S::SortPairs(temp.data(), bytes, keys, values_one_null, n, 3, bo, eo) == INVALID);
    CHECK(R::SortPairs(temp.data(), bytes, keys, values, n, 3, null_int_in, eo, 3, 32) == INVALID);
    CHECK(keys_other_null.selector == 1);
  }
  SECTION("too small temporary storage")
  {
    std::size_t b = 0;
    REQUIRE(S::SortPairs(nullptr, b, ki, ko, vi, vo, n, 3, bo, eo) == cudaSuccess);
    REQUIRE(b > 1);
    std::size_t small = b - 1;
    CHECK(S::SortPairs(temp.data(), small, ki, ko, vi, vo, n, 3, bo, eo) == INVALID);
    REQUIRE(S::SortKeysDescending(nullptr, b, ki, ko, n, 3, bo, eo) == cudaSuccess);
    small = b - 1;
    CHECK(S::SortKeysDescending(temp.data(), small, ki, ko, n, 3, bo, eo) == INVALID);
    REQUIRE(R::SortPairs(nullptr, b, keys, values, n, 3, bo, eo, 3, 20) == cudaSuccess);
    small = b - 1;
    CHECK(R::SortPairs(temp.data(), small, keys, values, n, 3, bo, eo, 3, 20) == INVALID);
    std::size_t none = 0;
    CHECK(S::SortKeys(temp.data(), none, ki, ko, n, 3, bo, eo) == INVALID);
  }
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(keys_out.download()));
  CHECK(strata_test::all_poisoned(values_out.download()));
  CHECK(strata_test::all_poisoned(keys_alternate.download()));
  CHECK(strata_test::all_poisoned(values_alternate.download()));
  STRATA_REQUIRE_EQUAL_VECTORS(keys_in.download(), h_keys);
  STRATA_REQUIRE_EQUAL_VECTORS(values_in.download(), h_values);
  STRATA_REQUIRE_EQUAL_VECTORS(keys_current.download(), h_keys);
  STRATA_REQUIRE_EQUAL_VECTORS(values_current.download(), h_values);
  CHECK(keys.selector == 0);
  CHECK(values.selector == 0);
}

TEST_CASE("DeviceSegmentedSort's and DeviceSegmentedRadixSort's single-phase forms: no environment, a stream, "
          "strata::par.on(stream)",
          "[device][segmented_sort][single_phase]")
{
  const sort_input<std::uint32_t> in(key_kind::mixed, 0x55f0);
  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const auto policy = strata::par.on(stream);
  int run           = 0;
  for (const layout& l : edge_layouts<std::uint32_t, int>({20011}, 0x55f1))
  {
    const auto num_segments = static_cast<long long>(l.num_segments());
    const auto num_items    = static_cast<long long>(l.items());
    const device_offsets<int> offsets(l);
    const std::size_t n = l.items() + TAIL;
    INFO(describe(l, in.kind, all_bits<std::uint32_t>(false)));
    const std::vector<long long> up   = reference_sources(l, in.keys, all_bits<std::uint32_t>(false), n);
    const std::vector<long long> down = reference_sources(l, in.keys, all_bits<std::uint32_t>(true), n);

    device_buffer<std::uint32_t> keys_out(n);
    device_buffer<int> values_out(n);
    const std::vector<std::uint32_t> keys_before = keys_out.download();
    const std::vector<int> values_before         = values_out.download();
    switch (run++ % 4)
    {
      case 3:
      {
        const sort_order low{false, 0, 16};
        STRATA_TEST_CUDA(strata::DeviceSegmentedRadixSort::SortKeys(in.d_keys.data(), keys_out.data(), num_items,
                                                                    num_segments, offsets.begin(), offsets.end(),
                                                                    low.begin_bit, low.end_bit, policy));
        STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
        require_items("keys", l, keys_out.download(),
                      expected(reference_sources(l, in.keys, low, n), in.keys, keys_before));
        break;
      }
      case 0:
        STRATA_TEST_CUDA(strata::DeviceSegmentedSort::SortKeys(in.d_keys.data(), keys_out.data(), num_items,
                                                               num_segments, offsets.begin(), offsets.end()));
        STRATA_TEST_CUDA(cudaDeviceSynchronize());
        require_items("keys", l, keys_out.download(), expected(up, in.keys, keys_before));
        break;
      case 1:
        STRATA_TEST_CUDA(
          strata::DeviceSegmentedSort::StableSortPairsDescending(in.d_keys.data(), keys_out.data(), in.d_values.data(),
                                                                 values_out.data(), num_items, num_segments,
                                                                 offsets.begin(), offsets.end(), stream));
        STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
        require_items("keys", l, keys_out.download(), expected(down, in.keys, keys_before));
        require_items("values", l, values_out.download(), expected(down, in.values, values_before));
        break;
      default:
      {
        // The DoubleBuffer form: the input copied into one buffer, the other poisoned.
        device_buffer<std::uint32_t> keys_current(in.keys);
        device_buffer<int> values_current(in.values);
        strata::DoubleBuffer<std::uint32_t> keys(keys_current.data(), keys_out.data());
        strata::DoubleBuffer<int> values(values_current.data(), values_out.data());
        STRATA_TEST_CUDA(strata::DeviceSegmentedSort::SortPairs(keys, values, num_items, num_segments, offsets.begin(),
                                                                offsets.end(), policy));
        STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
        const auto result_keys   = keys.selector == 0 ? keys_current.download() : keys_out.download();
        const auto result_values = values.selector == 0 ? values_current.download() : values_out.download();
        for (long long s = 0; s < num_segments; ++s)
        {
          for (long long i = l.begin[s]; i < l.begin[s] + static_cast<long long>(l.length(s)); ++i)
          {
            if (result_keys[i] != in.keys[up[i]] || result_values[i] != in.values[up[i]])
            {
              FAIL_CHECK("item " << i << where(l, static_cast<std::size_t>(i)) << ": wrong key or value");
              s = num_segments;
              break;
            }
          }
        }
        break;
      }
    }
  }
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("DeviceSegmentedSort takes num_segments and num_items from device memory; one graph replayed over counts",
          "[device][segmented_sort][device_count]")
{
  const sort_input<std::uint32_t> in(key_kind::mixed, 0x55f8);
  std::mt19937_64 rng = strata_test::make_rng(0x55f9);
  // Lengths of every class (tiny to huge), in random order.
  std::vector<std::size_t> lengths = edge_lengths<std::uint32_t, int>({20011});
  std::shuffle(lengths.begin(), lengths.end(), rng);
  const layout l        = contiguous("class edges, shuffled", lengths);
  const int bound       = static_cast<int>(l.num_segments());
  const long long items = static_cast<long long>(l.items());
  const device_offsets<int> offsets(l);
  device_buffer<int> d_num(1);
  device_buffer<long long> d_items(1);
  d_items.upload({items});
  const strata::device_count<int> num_segments(d_num.data(), bound);
  const strata::device_count<long long> num_items(d_items.data(), items + static_cast<long long>(TAIL));
  device_buffer<std::uint32_t> keys_out(l.items() + TAIL);
  device_buffer<int> values_out(l.items() + TAIL);

  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(strata::DeviceSegmentedSort::SortPairs(nullptr, bytes, in.d_keys.data(), keys_out.data(),
                                                          in.d_values.data(), values_out.data(), num_items,
                                                          num_segments, offsets.begin(), offsets.end(), stream));
  device_buffer<char> temp(bytes);
  const strata_test::captured_graph graph(stream, [&](cudaStream_t s) {
    return strata::DeviceSegmentedSort::SortPairs(temp.data(), bytes, in.d_keys.data(), keys_out.data(),
                                                  in.d_values.data(), values_out.data(), num_items, num_segments,
                                                  offsets.begin(), offsets.end(), s);
  });
  // Counts within the bound, one above it (taken as the bound) and a negative one (taken as 0).
  for (const int count : {0, 1, bound / 3 + 1, bound - 1, bound, bound + 5, -3})
  {
    CAPTURE(count);
    d_num.upload({count});
    keys_out.poison();
    values_out.poison();
    const std::vector<std::uint32_t> keys_before = keys_out.download();
    const std::vector<int> values_before         = values_out.download();
    graph.launch(stream);
    STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
    layout first = l;
    const auto k = static_cast<std::size_t>(std::clamp(count, 0, bound));
    first.begin.resize(k);
    first.end.resize(k);
    const std::vector<long long> sources =
      reference_sources(first, in.keys, all_bits<std::uint32_t>(false), l.items() + TAIL);
    require_items("keys", first, keys_out.download(), expected(sources, in.keys, keys_before));
    require_items("values", first, values_out.download(), expected(sources, in.values, values_before));
  }
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}
