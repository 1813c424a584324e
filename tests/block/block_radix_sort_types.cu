// BlockRadixSort, every key type (int8..int64, uint8..uint64, float with -0.0, +0.0 and infinities, double, bool),
// keys only, ascending and descending, blocked and striped, over the whole key and over bit subranges, at two block
// shapes, checked against std::stable_sort (whole keys) or a stable sort by the host-twiddled bits (subranges).
#include "block_radix_sort_harness.cuh"

#include <cstdint>

using namespace block_radix_sort_test;
using strata::NullType;

namespace
{
// Bit ranges relative to the key width W: the whole key, the top bit alone (sign), the top half, a range that
// starts and ends inside digits, the low 5 bits, and an empty range.
template <typename KeyT>
std::vector<std::pair<int, int>> bit_ranges()
{
  constexpr int W = static_cast<int>(sizeof(KeyT) * 8);
  return {{0, W}, {W - 1, W}, {W / 2, W}, {1, W - 2}, {0, 5}, {3, 3}};
}
} // namespace

TEMPLATE_TEST_CASE("BlockRadixSort key types, every method and bit range (128 threads x 4 items)",
                   "[block][radix_sort][types]", std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                   std::uint32_t, std::int64_t, std::uint64_t, float, double)
{
  using KeyT = TestType;
  for (entropy e : {entropy::full, entropy::sparse, entropy::few_values})
  {
    INFO("entropy " << entropy_name(e));
    const auto keys = tile_keys<KeyT, 128 * 4>(e, 100 + static_cast<int>(e) + sizeof(KeyT));
    for (const auto& r : bit_ranges<KeyT>())
    {
      check_all_methods<KeyT, NullType, 128, 1, 4>(keys, r.first, r.second);
    }
  }
}

TEMPLATE_TEST_CASE("BlockRadixSort key types, 100 threads (partial last warp) x 7 items", "[block][radix_sort][types]",
                   std::int8_t, std::uint16_t, std::int32_t, std::int64_t, std::uint64_t, float, double)
{
  using KeyT = TestType;
  for (entropy e : {entropy::full, entropy::sparse})
  {
    INFO("entropy " << entropy_name(e));
    const auto keys = tile_keys<KeyT, 100 * 7>(e, 200 + static_cast<int>(e) + sizeof(KeyT));
    constexpr int W = static_cast<int>(sizeof(KeyT) * 8);
    check_sort<KeyT, NullType, 100, 1, 7, sort_descending_blocked>(keys, 0, W);
    check_sort<KeyT, NullType, 100, 1, 7, sort_striped>(keys, 0, W);
    check_sort<KeyT, NullType, 100, 1, 7, sort_striped>(keys, W / 2 - 3, W - 1);
  }
}

TEST_CASE("BlockRadixSort float keys: zeros, infinities and subnormals in long runs", "[block][radix_sort][types]")
{
  // Every key one of a few special values: both zeros must keep their input order (they are equal keys) and
  // their sign bits.
  constexpr int TILE = 128 * 4;
  std::vector<float> keys(static_cast<std::size_t>(TILE) * NUM_TILES);
  const float specials[] = {-0.0f,
                            0.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::denorm_min(),
                            -std::numeric_limits<float>::denorm_min(),
                            1.0f,
                            -1.0f};
  std::mt19937_64 rng    = strata_test::make_rng(300);
  for (auto& k : keys)
  {
    k = specials[rng() % 8];
  }
  check_all_methods<float, NullType, 128, 1, 4>(keys, 0, 32);
  // Only the (twiddled) sign bit: negative keys first; -0.0 counts as +0.0, a positive key.
  check_all_methods<float, NullType, 128, 1, 4>(keys, 31, 32);
}

TEST_CASE("BlockRadixSort bool keys", "[block][radix_sort][types]")
{
  const auto keys = tile_keys<bool, 128 * 4>(entropy::full, 400);
  check_sort<bool, NullType, 128, 1, 4, sort_blocked>(keys, 0, 8);
  check_sort<bool, NullType, 128, 1, 4, sort_descending_striped>(keys, 0, 8);
}

// -- the key operations of radix_rank_sort_operations.cuh ------------------------------------------------------------

namespace
{
template <typename KeyT>
using bits_t = typename strata::RadixSortTwiddle<false, KeyT>::bit_ordered_type;

// Per key: RadixSortTwiddle<false>::In, RadixSortTwiddle<true>::In, both Outs of those, and the digits that
// BFEDigitExtractor and ShiftDigitExtractor read from the ascending twiddled bits at bit_start, num_bits.
template <typename KeyT>
__global__ void key_operations_kernel(const KeyT* d_keys, int n, unsigned int bit_start, unsigned int num_bits,
                                      bits_t<KeyT>* d_twiddled, KeyT* d_round_trips, unsigned int* d_digits,
                                      bits_t<KeyT>* d_default_keys)
{
  using ascending  = strata::RadixSortTwiddle<false, KeyT>;
  using descending = strata::RadixSortTwiddle<true, KeyT>;
  const int i      = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
  {
    const bits_t<KeyT> raw   = cuda::std::bit_cast<bits_t<KeyT>>(d_keys[i]);
    const bits_t<KeyT> up    = ascending::In(raw);
    const bits_t<KeyT> dn    = descending::In(raw);
    d_twiddled[2 * i]        = up;
    d_twiddled[2 * i + 1]    = dn;
    d_round_trips[2 * i]     = cuda::std::bit_cast<KeyT>(ascending::Out(up));
    d_round_trips[2 * i + 1] = cuda::std::bit_cast<KeyT>(descending::Out(dn));
    d_digits[2 * i]          = strata::BFEDigitExtractor<KeyT>(bit_start, num_bits).Digit(up);
    // The shift extractor requires bit_start inside the key and fewer than 32 bits.
    d_digits[2 * i + 1] = (bit_start < sizeof(KeyT) * 8 && num_bits < 32)
                          ? strata::ShiftDigitExtractor<KeyT>(bit_start, num_bits).Digit(up)
                          : d_digits[2 * i];
  }
  if (i == 0)
  {
    d_default_keys[0] = ascending::In(ascending::DefaultKey());
    d_default_keys[1] = descending::In(descending::DefaultKey());
  }
}
} // namespace

TEMPLATE_TEST_CASE("Radix key operations: RadixSortTwiddle and the digit extractors", "[block][radix_sort][types]",
                   std::int8_t, std::uint16_t, std::int32_t, std::uint64_t, std::int64_t, float, double)
{
  using KeyT      = TestType;
  using U         = bits_t<KeyT>;
  constexpr int W = static_cast<int>(sizeof(KeyT) * 8);
  const auto keys = make_keys<KeyT>(4096, entropy::full, 600 + sizeof(KeyT));
  const int n     = static_cast<int>(keys.size());
  strata_test::device_buffer<KeyT> d_keys(keys);
  strata_test::device_buffer<U> d_twiddled(2 * keys.size());
  strata_test::device_buffer<KeyT> d_round_trips(2 * keys.size());
  strata_test::device_buffer<unsigned int> d_digits(2 * keys.size());
  strata_test::device_buffer<U> d_default_keys(2);

  const int fields[][2] = {{0, 4}, {3, 5}, {W - 4, 4}, {W - 3, 8}, {W, 4}, {W + 7, 3}, {1, 0}, {0, W < 32 ? W : 31}};
  for (const auto& f : fields)
  {
    const unsigned int bit_start = static_cast<unsigned int>(f[0]);
    const unsigned int num_bits  = static_cast<unsigned int>(f[1]);
    INFO("digit at bit " << bit_start << ", " << num_bits << " bits");
    key_operations_kernel<KeyT><<<(n + 255) / 256, 256>>>(d_keys.data(), n, bit_start, num_bits, d_twiddled.data(),
                                                          d_round_trips.data(), d_digits.data(), d_default_keys.data());
    STRATA_TEST_SYNC();
    const std::vector<U> twiddled          = d_twiddled.download();
    const std::vector<KeyT> round_trips    = d_round_trips.download();
    const std::vector<unsigned int> digits = d_digits.download();
    const std::vector<U> default_keys      = d_default_keys.download();

    // The key that sorts last twiddles to all ones in both directions.
    REQUIRE(default_keys[0] == static_cast<U>(~U(0)));
    REQUIRE(default_keys[1] == static_cast<U>(~U(0)));
    for (int i = 0; i < n; ++i)
    {
      INFO("key " << key_text(keys[i]));
      // Out undoes In, bit for bit; descending bits are the complement of ascending ones.
      REQUIRE(std::memcmp(&round_trips[2 * i], &keys[i], sizeof(KeyT)) == 0);
      REQUIRE(std::memcmp(&round_trips[2 * i + 1], &keys[i], sizeof(KeyT)) == 0);
      REQUIRE(twiddled[2 * i + 1] == static_cast<U>(~twiddled[2 * i]));
      // Both extractors read -0.0 as +0.0, as the host reference does.
      const std::uint64_t expected =
        num_bits == 0 ? 0 : host_sort_digits(keys[i], f[0], f[0] + f[1] < 64 ? f[0] + f[1] : 64);
      REQUIRE(digits[2 * i] == expected);
      REQUIRE(digits[2 * i + 1] == expected);
    }
    // Ascending twiddled bits keep the order of the keys (strictly, except the two zeros, which are adjacent).
    std::vector<int> order(keys.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      return keys[a] < keys[b];
    });
    for (std::size_t k = 1; k < order.size(); ++k)
    {
      const KeyT a = keys[order[k - 1]];
      const KeyT b = keys[order[k]];
      INFO("keys " << key_text(a) << " < " << key_text(b));
      if (a < b)
      {
        REQUIRE(twiddled[2 * order[k - 1]] < twiddled[2 * order[k]]);
      }
    }
  }
}
