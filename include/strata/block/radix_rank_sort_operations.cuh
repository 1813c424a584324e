// Radix sorting operations on keys: the bit twiddling that maps a key to unsigned bits whose unsigned order is
// the key's order, and the digit extractors that read one digit (a bit field) of those bits.
//
// Twiddled ("bit-ordered") keys:
//   unsigned integers (and bool):  the bits themselves;
//   signed integers:               the sign bit flipped, so negative values come first;
//   floating point:                positive values get the sign bit set, negative values are complemented, so the
//                                  order is -inf < ... < -0.0 < +0.0 < ... < +inf (NaNs by their bits: negative
//                                  ones before -inf, positive ones after +inf).
// -0.0 and +0.0 twiddle to adjacent bit patterns (0x7fffffff and 0x80000000 for float). The digit extractors read
// -0.0 as +0.0, so a radix sort treats the two zeros as equal keys: a stable sort keeps them in input order, as a
// comparison sort with operator< does, and the output keeps each zero's sign bit. A descending sort that complements
// the twiddled keys maps the zeros to the two patterns swapped; reading either one as the other is equally right.
#pragma once

#include <strata/config.cuh>
#include <strata/util/ptx.cuh>

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

STRATA_NAMESPACE_BEGIN
namespace detail
{

// The unsigned type of `BYTES` bytes.
template <int BYTES>
struct unsigned_bits;
template <>
struct unsigned_bits<1>
{
  using type = cuda::std::uint8_t;
};
template <>
struct unsigned_bits<2>
{
  using type = cuda::std::uint16_t;
};
template <>
struct unsigned_bits<4>
{
  using type = cuda::std::uint32_t;
};
template <>
struct unsigned_bits<8>
{
  using type = cuda::std::uint64_t;
};

enum class radix_key_kind
{
  unsigned_integer,
  signed_integer,
  floating_point
};

// Floating-point key types: the standard ones and CUDA's 16-bit __half and __nv_bfloat16.
template <typename KeyT>
constexpr bool is_radix_float_v = cuda::std::is_floating_point<KeyT>::value || cuda::std::is_same<KeyT, __half>::value
                               || cuda::std::is_same<KeyT, __nv_bfloat16>::value;

template <typename KeyT>
constexpr radix_key_kind radix_kind_of()
{
  return is_radix_float_v<KeyT>
         ? radix_key_kind::floating_point
         : (cuda::std::is_signed<KeyT>::value ? radix_key_kind::signed_integer : radix_key_kind::unsigned_integer);
}

// How a key type maps to and from its bit-ordered unsigned bits. Supported: the integral types of 1, 2, 4 and 8 bytes
// (bool included), float, double, __half and __nv_bfloat16.
template <typename KeyT>
struct radix_traits
{
  static_assert(cuda::std::is_integral<KeyT>::value || is_radix_float_v<KeyT>,
                "radix sorting supports integral keys, float, double, __half and __nv_bfloat16");

  using bit_ordered_type = typename unsigned_bits<static_cast<int>(sizeof(KeyT))>::type;

  static constexpr radix_key_kind KIND = radix_kind_of<KeyT>();
  static constexpr bit_ordered_type HIGH_BIT =
    static_cast<bit_ordered_type>(bit_ordered_type(1) << (sizeof(KeyT) * 8 - 1));
  static constexpr bit_ordered_type ALL_BITS = static_cast<bit_ordered_type>(~bit_ordered_type(0));

  // Raw key bits -> bit-ordered bits.
  static STRATA_HOST_DEVICE STRATA_FORCEINLINE bit_ordered_type to_bit_ordered(bit_ordered_type bits)
  {
    if constexpr (KIND == radix_key_kind::signed_integer)
    {
      return static_cast<bit_ordered_type>(bits ^ HIGH_BIT);
    }
    else if constexpr (KIND == radix_key_kind::floating_point)
    {
      const bit_ordered_type flip = (bits & HIGH_BIT) ? ALL_BITS : HIGH_BIT;
      return static_cast<bit_ordered_type>(bits ^ flip);
    }
    else
    {
      return bits;
    }
  }

  // Bit-ordered bits -> raw key bits.
  static STRATA_HOST_DEVICE STRATA_FORCEINLINE bit_ordered_type from_bit_ordered(bit_ordered_type bits)
  {
    if constexpr (KIND == radix_key_kind::signed_integer)
    {
      return static_cast<bit_ordered_type>(bits ^ HIGH_BIT);
    }
    else if constexpr (KIND == radix_key_kind::floating_point)
    {
      const bit_ordered_type flip = (bits & HIGH_BIT) ? HIGH_BIT : ALL_BITS;
      return static_cast<bit_ordered_type>(bits ^ flip);
    }
    else
    {
      return bits;
    }
  }

  // The raw bits of the key that twiddles to all zeros (sorts first) and to all ones (sorts last).
  static STRATA_HOST_DEVICE STRATA_FORCEINLINE bit_ordered_type min_raw_binary_key()
  {
    return from_bit_ordered(bit_ordered_type(0));
  }
  static STRATA_HOST_DEVICE STRATA_FORCEINLINE bit_ordered_type max_raw_binary_key()
  {
    return from_bit_ordered(ALL_BITS);
  }

  static STRATA_HOST_DEVICE STRATA_FORCEINLINE bit_ordered_type to_bits(KeyT key)
  {
    return cuda::std::bit_cast<bit_ordered_type>(key);
  }
  static STRATA_HOST_DEVICE STRATA_FORCEINLINE KeyT from_bits(bit_ordered_type bits)
  {
    return cuda::std::bit_cast<KeyT>(bits);
  }
};

} // namespace detail

//! BaseDigitExtractor<KeyT>::ProcessFloatMinusZero(bits): for floating-point keys, the twiddled bits of -0.0 become
//! those of +0.0 (so both zeros fall into the same digit in every pass); other keys and types pass unchanged.
template <typename KeyT, bool IS_FP = detail::is_radix_float_v<KeyT>>
struct BaseDigitExtractor
{
  using UnsignedBits = typename detail::radix_traits<KeyT>::bit_ordered_type;

  static STRATA_HOST_DEVICE STRATA_FORCEINLINE UnsignedBits ProcessFloatMinusZero(UnsignedBits key)
  {
    return key;
  }
};

template <typename KeyT>
struct BaseDigitExtractor<KeyT, true>
{
  using UnsignedBits = typename detail::radix_traits<KeyT>::bit_ordered_type;

  static STRATA_HOST_DEVICE STRATA_FORCEINLINE UnsignedBits ProcessFloatMinusZero(UnsignedBits key)
  {
    using traits                               = detail::radix_traits<KeyT>;
    constexpr UnsignedBits TWIDDLED_MINUS_ZERO = static_cast<UnsignedBits>(~traits::HIGH_BIT);
    constexpr UnsignedBits TWIDDLED_PLUS_ZERO  = traits::HIGH_BIT;
    return key == TWIDDLED_MINUS_ZERO ? TWIDDLED_PLUS_ZERO : key;
  }
};

//! BFEDigitExtractor<KeyT>(bit_start, num_bits).Digit(bits): bits [bit_start, bit_start + num_bits) of the twiddled
//! key bits, right-aligned (num_bits <= 32). Any bit_start is allowed: bits past the top of the key read as 0, so
//! num_bits == 0 or bit_start >= the key's width gives digit 0.
template <typename KeyT>
struct BFEDigitExtractor : BaseDigitExtractor<KeyT>
{
  using typename BaseDigitExtractor<KeyT>::UnsignedBits;

  cuda::std::uint32_t bit_start;
  cuda::std::uint32_t num_bits;

  explicit STRATA_DEVICE STRATA_FORCEINLINE BFEDigitExtractor(cuda::std::uint32_t first_bit = 0,
                                                              cuda::std::uint32_t bit_count = 0)
      : bit_start(first_bit)
      , num_bits(bit_count)
  {}

  STRATA_DEVICE STRATA_FORCEINLINE cuda::std::uint32_t Digit(UnsignedBits key) const
  {
    using wide_t = cuda::std::conditional_t<sizeof(UnsignedBits) == 8, unsigned long long, unsigned int>;
    return BFE(static_cast<wide_t>(this->ProcessFloatMinusZero(key)), bit_start, num_bits);
  }
};

//! ShiftDigitExtractor<KeyT>(bit_start, num_bits).Digit(bits): the same digit as BFEDigitExtractor by a shift and a
//! precomputed mask. requires: bit_start < the key's width in bits, num_bits < 32.
template <typename KeyT>
struct ShiftDigitExtractor : BaseDigitExtractor<KeyT>
{
  using typename BaseDigitExtractor<KeyT>::UnsignedBits;

  cuda::std::uint32_t bit_start;
  cuda::std::uint32_t mask;

  explicit STRATA_DEVICE STRATA_FORCEINLINE ShiftDigitExtractor(cuda::std::uint32_t first_bit = 0,
                                                                cuda::std::uint32_t bit_count = 0)
      : bit_start(first_bit)
      , mask((1u << bit_count) - 1u)
  {}

  STRATA_DEVICE STRATA_FORCEINLINE cuda::std::uint32_t Digit(UnsignedBits key) const
  {
    return static_cast<cuda::std::uint32_t>(this->ProcessFloatMinusZero(key) >> bit_start) & mask;
  }
};

//! RadixSortTwiddle<IS_DESCENDING, KeyT>: In(raw bits) gives the bits a radix sort orders ascending (the twiddled
//! bits, complemented for a descending sort), Out(bits) undoes In, and DefaultKey() is the raw key that sorts last in
//! that order (a filler for the unused slots of a partial tile).
template <bool IS_DESCENDING, typename KeyT>
struct RadixSortTwiddle
{
private:
  using traits = detail::radix_traits<KeyT>;

public:
  using bit_ordered_type = typename traits::bit_ordered_type;

  static STRATA_HOST_DEVICE STRATA_FORCEINLINE bit_ordered_type In(bit_ordered_type key)
  {
    key = traits::to_bit_ordered(key);
    return IS_DESCENDING ? static_cast<bit_ordered_type>(~key) : key;
  }

  static STRATA_HOST_DEVICE STRATA_FORCEINLINE bit_ordered_type Out(bit_ordered_type key)
  {
    key = IS_DESCENDING ? static_cast<bit_ordered_type>(~key) : key;
    return traits::from_bit_ordered(key);
  }

  static STRATA_HOST_DEVICE STRATA_FORCEINLINE bit_ordered_type DefaultKey()
  {
    return IS_DESCENDING ? traits::min_raw_binary_key() : traits::max_raw_binary_key();
  }
};

namespace detail
{
namespace radix_sort
{
// The decomposer of keys that are arithmetic types themselves.
struct no_decomposer
{};

// A wide enough unsigned type for BFE.
template <typename BitsT>
using bfe_word_t = cuda::std::conditional_t<sizeof(BitsT) == 8, unsigned long long, unsigned int>;

// key_codec<KeyT, IS_DESCENDING, DecomposerT>: the digits a radix sort orders keys by. digit(key, bit_start, num_bits)
// is bits [bit_start, bit_start + num_bits) (num_bits <= 32) of the key's sort image: its bit-ordered bits with -0.0
// read as +0.0, complemented for a descending sort, so that ascending digit order is the sort's order either way.
// BITS is the width of the image. Keys stay in their own type everywhere else: nothing is converted back.
// Where one key yields several digits (the histogram counts every pass's), image_of(key) once and
// digit_of(image, bit_start, num_bits) per digit avoid making the image again for each (image_t: the image, or for
// keys through a decomposer the key itself).
template <typename KeyT, bool IS_DESCENDING, typename DecomposerT = no_decomposer>
struct key_codec;

// Arithmetic keys.
template <typename KeyT, bool IS_DESCENDING>
struct key_codec<KeyT, IS_DESCENDING, no_decomposer>
{
  using traits = radix_traits<KeyT>;
  using bits_t = typename traits::bit_ordered_type;

  static constexpr int BITS = static_cast<int>(sizeof(KeyT)) * 8;

  STRATA_HOST_DEVICE explicit key_codec(no_decomposer = {}) {}

  static STRATA_HOST_DEVICE STRATA_FORCEINLINE bits_t image(const KeyT& key)
  {
    bits_t bits = traits::to_bit_ordered(traits::to_bits(key));
    if constexpr (traits::KIND == radix_key_kind::floating_point)
    {
      bits = bits == static_cast<bits_t>(~traits::HIGH_BIT) ? traits::HIGH_BIT : bits;
    }
    return IS_DESCENDING ? static_cast<bits_t>(~bits) : bits;
  }

  using image_t = bits_t;

  STRATA_DEVICE STRATA_FORCEINLINE image_t image_of(const KeyT& key) const
  {
    return image(key);
  }

  STRATA_DEVICE STRATA_FORCEINLINE cuda::std::uint32_t digit_of(image_t bits, cuda::std::uint32_t bit_start,
                                                                cuda::std::uint32_t num_bits) const
  {
    return BFE(static_cast<bfe_word_t<bits_t>>(bits), bit_start, num_bits);
  }

  STRATA_DEVICE STRATA_FORCEINLINE cuda::std::uint32_t digit(const KeyT& key, cuda::std::uint32_t bit_start,
                                                             cuda::std::uint32_t num_bits) const
  {
    return digit_of(image(key), bit_start, num_bits);
  }

  // A key whose image has every bit that any key's image can have (all ones; for bool, whose images are 0 and 1,
  // the larger one): its digit is the largest of any key's in every pass, so it ranks after every key it is
  // ranked with.
  STRATA_HOST_DEVICE STRATA_FORCEINLINE KeyT last_key() const
  {
    if constexpr (cuda::std::is_same<KeyT, bool>::value)
    {
      return !IS_DESCENDING;
    }
    else
    {
      return traits::from_bits(IS_DESCENDING ? traits::min_raw_binary_key() : traits::max_raw_binary_key());
    }
  }
};

// Keys that a decomposer maps to a tuple of references to arithmetic members, the most significant first: the image
// is the concatenation of the members' images, the last member in the lowest bits.
template <typename KeyT, bool IS_DESCENDING, typename DecomposerT>
struct key_codec
{
  using tuple_t = cuda::std::remove_cv_t<
    cuda::std::remove_reference_t<decltype(cuda::std::declval<DecomposerT&>()(cuda::std::declval<KeyT&>()))>>;
  static constexpr int MEMBERS = static_cast<int>(cuda::std::tuple_size<tuple_t>::value);

  template <int I>
  using member_t = cuda::std::remove_cv_t<cuda::std::remove_reference_t<cuda::std::tuple_element_t<I, tuple_t>>>;

private:
  template <size_t... I>
  static STRATA_HOST_DEVICE constexpr int bits_of(cuda::std::index_sequence<I...>)
  {
    return (0 + ... + static_cast<int>(sizeof(member_t<static_cast<int>(I)>) * 8));
  }

  // Bits of the members after member I (below it in the image).
  template <int I>
  static STRATA_HOST_DEVICE constexpr int offset_of()
  {
    if constexpr (I + 1 >= MEMBERS)
    {
      return 0;
    }
    else
    {
      return static_cast<int>(sizeof(member_t<I + 1>) * 8) + offset_of<I + 1>();
    }
  }

public:
  static constexpr int BITS = bits_of(cuda::std::make_index_sequence<MEMBERS>{});
  static_assert(BITS <= 256, "keys of at most 256 bits");

  DecomposerT decomposer;

  STRATA_HOST_DEVICE explicit key_codec(DecomposerT members = {})
      : decomposer(members)
  {}

  using image_t = KeyT;

  STRATA_DEVICE STRATA_FORCEINLINE const KeyT& image_of(const KeyT& key) const
  {
    return key;
  }

  STRATA_DEVICE STRATA_FORCEINLINE cuda::std::uint32_t digit_of(const KeyT& key, cuda::std::uint32_t bit_start,
                                                                cuda::std::uint32_t num_bits) const
  {
    return digit(key, bit_start, num_bits);
  }

  // A key whose image has every bit any key's can have: each member is its own codec's last_key().
  STRATA_DEVICE STRATA_FORCEINLINE KeyT last_key() const
  {
    KeyT key{};
    set_last(decomposer(key), cuda::std::make_index_sequence<MEMBERS>{});
    return key;
  }

  STRATA_DEVICE STRATA_FORCEINLINE cuda::std::uint32_t digit(const KeyT& key, cuda::std::uint32_t bit_start,
                                                             cuda::std::uint32_t num_bits) const
  {
    KeyT copy               = key;
    auto members            = decomposer(copy);
    unsigned long long bits = 0;
    gather(members, bit_start, num_bits, bits, cuda::std::make_index_sequence<MEMBERS>{});
    return static_cast<cuda::std::uint32_t>(bits) & (num_bits >= 32 ? 0xffffffffu : ((1u << num_bits) - 1u));
  }

private:
  template <typename TupleT, size_t... I>
  static STRATA_DEVICE STRATA_FORCEINLINE void set_last(TupleT members, cuda::std::index_sequence<I...>)
  {
    ((cuda::std::get<I>(members) = key_codec<member_t<static_cast<int>(I)>, IS_DESCENDING>{}.last_key()), ...);
  }

  // ORs into `bits` the part of member I's image that falls into [bit_start, bit_start + num_bits), right-aligned.
  template <typename TupleT, size_t... I>
  static STRATA_DEVICE STRATA_FORCEINLINE void gather(const TupleT& members, cuda::std::uint32_t bit_start,
                                                      cuda::std::uint32_t num_bits, unsigned long long& bits,
                                                      cuda::std::index_sequence<I...>)
  {
    (gather_one<static_cast<int>(I)>(cuda::std::get<I>(members), bit_start, num_bits, bits), ...);
  }

  template <int I>
  static STRATA_DEVICE STRATA_FORCEINLINE void gather_one(const member_t<I>& member, cuda::std::uint32_t bit_start,
                                                          cuda::std::uint32_t num_bits, unsigned long long& bits)
  {
    constexpr cuda::std::uint32_t OFFSET = static_cast<cuda::std::uint32_t>(offset_of<I>());
    constexpr cuda::std::uint32_t WIDTH  = static_cast<cuda::std::uint32_t>(sizeof(member_t<I>) * 8);
    if (bit_start < OFFSET + WIDTH && bit_start + num_bits > OFFSET)
    {
      const unsigned long long image = key_codec<member_t<I>, IS_DESCENDING>::image(member);
      if constexpr (OFFSET == 0)
      {
        bits |= image >> bit_start;
      }
      else
      {
        bits |= bit_start >= OFFSET ? (image >> (bit_start - OFFSET)) : (image << (OFFSET - bit_start));
      }
    }
  }
};
} // namespace radix_sort
} // namespace detail

STRATA_NAMESPACE_END
