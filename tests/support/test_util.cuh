// Shared test support: value types, seeded random inputs, the size generator, host references and
// device buffers that poison their contents.
//
// Inputs are random and never zero-filled. Values are drawn from ranges in which the host reference is exact
// and well defined: signed integers stay far from overflow, floating-point values are small multiples of a
// power of two so that sums of up to millions of them are exact in any order.
#pragma once

#include "catch2_shim.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace strata_test
{

// -- CUDA checks -----------------------------------------------------------------------------------------

#define STRATA_TEST_CUDA(expr)                                       \
  do                                                                 \
  {                                                                  \
    const cudaError_t strata_test_error_ = (expr);                   \
    INFO(#expr << " -> " << cudaGetErrorString(strata_test_error_)); \
    REQUIRE(strata_test_error_ == cudaSuccess);                      \
  } while (false)

// After a kernel launch: the launch error, then the execution error.
#define STRATA_TEST_SYNC()                     \
  do                                           \
  {                                            \
    STRATA_TEST_CUDA(cudaGetLastError());      \
    STRATA_TEST_CUDA(cudaDeviceSynchronize()); \
  } while (false)

// -- value types -------------------------------------------------------------------------------------------

// A user-defined value type: 16 bytes with padding, so shuffles and exchanges must move it as several words.
struct custom_t
{
  std::int64_t a;
  std::int32_t b;
  std::int16_t c;

  __host__ __device__ friend custom_t operator+(const custom_t& x, const custom_t& y)
  {
    // Wrapping arithmetic through unsigned types, so the sum is defined for any inputs.
    return custom_t{static_cast<std::int64_t>(static_cast<std::uint64_t>(x.a) + static_cast<std::uint64_t>(y.a)),
                    static_cast<std::int32_t>(static_cast<std::uint32_t>(x.b) + static_cast<std::uint32_t>(y.b)),
                    static_cast<std::int16_t>(x.c + y.c)};
  }
  __host__ __device__ friend bool operator==(const custom_t& x, const custom_t& y)
  {
    return x.a == y.a && x.b == y.b && x.c == y.c;
  }
  __host__ __device__ friend bool operator!=(const custom_t& x, const custom_t& y)
  {
    return !(x == y);
  }
  __host__ __device__ friend bool operator<(const custom_t& x, const custom_t& y)
  {
    return x.a != y.a ? x.a < y.a : (x.b != y.b ? x.b < y.b : x.c < y.c);
  }
  __host__ __device__ friend bool operator>(const custom_t& x, const custom_t& y)
  {
    return y < x;
  }
  friend std::ostream& operator<<(std::ostream& os, const custom_t& v)
  {
    return os << "{" << v.a << ", " << v.b << ", " << v.c << "}";
  }
};

// A 2x2 matrix of 32-bit unsigned integers (arithmetic modulo 2^32): its product is associative and not
// commutative, the operator that catches scans which reorder operands.
struct mat2x2
{
  std::uint32_t m00, m01, m10, m11;

  __host__ __device__ friend bool operator==(const mat2x2& x, const mat2x2& y)
  {
    return x.m00 == y.m00 && x.m01 == y.m01 && x.m10 == y.m10 && x.m11 == y.m11;
  }
  __host__ __device__ friend bool operator!=(const mat2x2& x, const mat2x2& y)
  {
    return !(x == y);
  }
  friend std::ostream& operator<<(std::ostream& os, const mat2x2& v)
  {
    return os << "[[" << v.m00 << ", " << v.m01 << "], [" << v.m10 << ", " << v.m11 << "]]";
  }
};

struct mat_mul
{
  __host__ __device__ mat2x2 operator()(const mat2x2& x, const mat2x2& y) const
  {
    return mat2x2{x.m00 * y.m00 + x.m01 * y.m10, x.m00 * y.m01 + x.m01 * y.m11, x.m10 * y.m00 + x.m11 * y.m10,
                  x.m10 * y.m01 + x.m11 * y.m11};
  }
};

// The affine map x -> a x + b of 32-bit unsigned integers (arithmetic modulo 2^32), 8 bytes: composing maps is
// associative and not commutative, the operator that catches reordered operands among 8-byte values.
struct affine32
{
  std::uint32_t a, b;

  __host__ __device__ friend bool operator==(const affine32& x, const affine32& y)
  {
    return x.a == y.a && x.b == y.b;
  }
  __host__ __device__ friend bool operator!=(const affine32& x, const affine32& y)
  {
    return !(x == y);
  }
  friend std::ostream& operator<<(std::ostream& os, const affine32& v)
  {
    return os << "(" << v.a << " x + " << v.b << ")";
  }
};

// x then y: the map x -> y.a (x.a v + x.b) + y.b.
struct affine_then
{
  __host__ __device__ affine32 operator()(const affine32& x, const affine32& y) const
  {
    return affine32{y.a * x.a, y.a * x.b + y.b};
  }
};

// The affine maps x -> a x + b modulo 2^32 with a in the high and b in the low half of a std::uint64_t, composed
// in order (the map of x, then the map of y): associative and not commutative, on an arithmetic type.
struct packed_affine_then
{
  __host__ __device__ std::uint64_t operator()(std::uint64_t x, std::uint64_t y) const
  {
    const auto xa = static_cast<std::uint32_t>(x >> 32);
    const auto xb = static_cast<std::uint32_t>(x);
    const auto ya = static_cast<std::uint32_t>(y >> 32);
    const auto yb = static_cast<std::uint32_t>(y);
    return (std::uint64_t(ya * xa) << 32) | std::uint32_t(ya * xb + yb);
  }
};

// Every value type a collective must support, for TEMPLATE_TEST_CASE.
#define STRATA_TEST_ALL_TYPES                                                                                       \
  std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, \
    float, double, strata_test::custom_t

// A smaller set with one type of each size class and kind, where the full set would explode compile time.
#define STRATA_TEST_CORE_TYPES std::int8_t, std::int32_t, std::uint64_t, double, strata_test::custom_t

// -- seeded random inputs ------------------------------------------------------------------------------------

// The seed of every generator: STRATA_TEST_SEED from the environment, or a fixed default.
inline std::uint64_t base_seed()
{
  static const std::uint64_t seed = [] {
    const char* env = std::getenv("STRATA_TEST_SEED");
    return env ? std::strtoull(env, nullptr, 10) : 0x5eed5eedULL;
  }();
  return seed;
}

// A generator for one test case: the base seed mixed with a per-case salt.
inline std::mt19937_64 make_rng(std::uint64_t salt)
{
  return std::mt19937_64(base_seed() ^ (salt * 0x9e3779b97f4a7c15ULL));
}

template <typename T, typename Enable = void>
struct random_traits;

// Narrow integers: the full range (sums wrap the same way on host and device).
template <typename T>
struct random_traits<T, std::enable_if_t<std::is_integral<T>::value && (sizeof(T) <= 2)>>
{
  static T draw(std::mt19937_64& rng)
  {
    std::uniform_int_distribution<int> d(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    return static_cast<T>(d(rng));
  }
};

// Wide unsigned integers: the full range (wrapping is defined).
template <typename T>
struct random_traits<T, std::enable_if_t<std::is_integral<T>::value && std::is_unsigned<T>::value && (sizeof(T) > 2)>>
{
  static T draw(std::mt19937_64& rng)
  {
    return static_cast<T>(rng());
  }
};

// Wide signed integers: a quarter of the magnitude bits, so that sums of millions never overflow.
template <typename T>
struct random_traits<T, std::enable_if_t<std::is_integral<T>::value && std::is_signed<T>::value && (sizeof(T) > 2)>>
{
  static T draw(std::mt19937_64& rng)
  {
    constexpr T bound = T(1) << (sizeof(T) * 8 / 2 + 4);
    std::uniform_int_distribution<T> d(-bound, bound);
    return d(rng);
  }
};

// Floating point: multiples of 1/8 in [-128, 128] (float), of 1/1024 in [-1024, 1024] (double): exact sums.
template <>
struct random_traits<float>
{
  static float draw(std::mt19937_64& rng)
  {
    std::uniform_int_distribution<int> d(-1024, 1024);
    return static_cast<float>(d(rng)) / 8.0f;
  }
};
template <>
struct random_traits<double>
{
  static double draw(std::mt19937_64& rng)
  {
    std::uniform_int_distribution<long long> d(-(1LL << 20), 1LL << 20);
    return static_cast<double>(d(rng)) / 1024.0;
  }
};
template <>
struct random_traits<custom_t>
{
  static custom_t draw(std::mt19937_64& rng)
  {
    return custom_t{static_cast<std::int64_t>(rng()), static_cast<std::int32_t>(rng() >> 40),
                    static_cast<std::int16_t>(rng() >> 50)};
  }
};
template <>
struct random_traits<mat2x2>
{
  // An odd determinant (odd diagonal, even m01) keeps the matrix invertible modulo 2^32: products of random
  // singular matrices collapse to zero after ~100 factors and would hide operand-order bugs in long scans.
  static mat2x2 draw(std::mt19937_64& rng)
  {
    return mat2x2{static_cast<std::uint32_t>(rng()) | 1u, static_cast<std::uint32_t>(rng()) & ~1u,
                  static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()) | 1u};
  }
};

template <>
struct random_traits<affine32>
{
  // Odd slopes keep the composed slope odd (random even slopes would make long compositions constant).
  static affine32 draw(std::mt19937_64& rng)
  {
    return affine32{static_cast<std::uint32_t>(rng()) | 1u, static_cast<std::uint32_t>(rng() >> 17)};
  }
};

// `n` floats uniform in [-1, 1) with full mantissas (random_vector's floats are multiples of 1/8, whose sums are
// exact): every rounded sum of them depends on the order of the additions. Salted like random_vector.
inline std::vector<float> full_mantissa_floats(std::size_t n, std::uint64_t salt)
{
  std::vector<float> v(n);
  std::mt19937_64 rng = make_rng(salt);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (auto& x : v)
  {
    x = d(rng);
  }
  return v;
}

template <typename T>
T random_value(std::mt19937_64& rng)
{
  return random_traits<T>::draw(rng);
}

// `n` random values of T from a generator salted with `salt`.
template <typename T>
std::vector<T> random_vector(std::size_t n, std::uint64_t salt)
{
  std::mt19937_64 rng = make_rng(salt);
  std::vector<T> v(n);
  for (auto& x : v)
  {
    x = random_value<T>(rng);
  }
  return v;
}

// -- sizes ---------------------------------------------------------------------------------------------------

// A segment length for segmented algorithms' tests, mostly short, sometimes medium, rarely long: empty 30%, 1..32 30%,
// 33..1024 25%, 1025..16384 14%, up to 2^18 1%.
inline std::size_t mixed_segment_length(std::mt19937_64& rng)
{
  const int r        = std::uniform_int_distribution<int>(0, 99)(rng);
  const auto between = [&](std::size_t lo, std::size_t hi) {
    return std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
  };
  return r < 30 ? 0
       : r < 60 ? between(1, 32)
       : r < 85 ? between(33, 1024)
       : r < 99 ? between(1025, 16384)
                : between(16385, 1 << 18);
}

// The size classes every tile-based algorithm is tested at: 0, 1, tile-1, tile, tile+1, primes, 2^k±1 and
// random sizes, all at most `max_size`, sorted and without duplicates. The environment variable
// STRATA_TEST_MAX_ITEMS lowers `max_size` (scripts/gpu_check.sh sets it under compute-sanitizer, whose tools run
// the larger sizes for many minutes).
inline std::vector<std::size_t> test_sizes(std::size_t tile, std::size_t max_size, std::uint64_t salt = 0)
{
  if (const char* cap = std::getenv("STRATA_TEST_MAX_ITEMS"); cap != nullptr && *cap != '\0')
  {
    max_size = std::min<std::size_t>(max_size, std::strtoull(cap, nullptr, 10));
  }
  std::vector<std::size_t> s = {0, 1, 2, 31, 32, 33, 97, 997, 7919, 65537, 1000003};
  if (tile > 1)
  {
    s.insert(s.end(), {tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile + 1, 3 * tile + tile / 2});
  }
  for (int k : {5, 10, 16, 20})
  {
    const std::size_t p = std::size_t(1) << k;
    s.insert(s.end(), {p - 1, p, p + 1});
  }
  std::mt19937_64 rng = make_rng(salt ^ 0x5112eULL);
  std::uniform_int_distribution<std::size_t> d(2, max_size > 2 ? max_size : 2);
  for (int i = 0; i < 3; ++i)
  {
    s.push_back(d(rng));
  }
  s.erase(std::remove_if(s.begin(), s.end(),
                         [&](std::size_t x) {
                           return x > max_size;
                         }),
          s.end());
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

// Whether STRATA_TEST_MAX_ITEMS is set: a compute-sanitizer run (scripts/gpu_check.sh), where every launch costs
// much more and the sweeps are cut down.
inline bool sanitizer_run()
{
  const char* cap = std::getenv("STRATA_TEST_MAX_ITEMS");
  return cap != nullptr && *cap != '\0';
}

// `max_size`, lowered to STRATA_TEST_MAX_ITEMS where that is set.
inline std::size_t capped(std::size_t max_size)
{
  if (sanitizer_run())
  {
    max_size = std::min<std::size_t>(max_size, std::strtoull(std::getenv("STRATA_TEST_MAX_ITEMS"), nullptr, 10));
  }
  return max_size;
}

// The sizes of `wanted` within STRATA_TEST_MAX_ITEMS, and at least the first one: for cases that run at a few fixed
// sizes.
inline std::vector<std::size_t> sizes_within_cap(std::initializer_list<std::size_t> wanted)
{
  std::vector<std::size_t> s;
  for (const std::size_t n : wanted)
  {
    if (n <= capped(n) || s.empty())
    {
      s.push_back(n);
    }
  }
  return s;
}

// Every n in [0, last], for the partial-tile remainder sweeps (one launch or more per n). Under
// STRATA_TEST_MAX_ITEMS (compute-sanitizer runs, where each launch costs milliseconds) a sample of it: every n up
// to 64, every n within 3 of a multiple of `tile`, and every 61st n in between.
inline std::vector<std::size_t> remainder_sweep(std::size_t last, std::size_t tile)
{
  const char* cap    = std::getenv("STRATA_TEST_MAX_ITEMS");
  const bool sampled = cap != nullptr && *cap != '\0';
  std::vector<std::size_t> s;
  for (std::size_t n = 0; n <= last; ++n)
  {
    const std::size_t r = tile > 0 ? n % tile : 0;
    if (!sampled || n <= 64 || r <= 3 || tile - r <= 3 || n % 61 == 0 || n == last)
    {
      s.push_back(n);
    }
  }
  return s;
}

// -- device buffers ------------------------------------------------------------------------------------------

// The byte written by poison(): a pattern no correct result is likely to hold in every byte.
constexpr unsigned char poison_byte = 0xA5;

// An owning device allocation of `size` elements of T. Never null, even for size 0 (one element is reserved),
// so kernels may be passed its pointer unconditionally.
template <typename T>
class device_buffer
{
public:
  explicit device_buffer(std::size_t size = 0)
      : size_(size)
  {
    STRATA_TEST_CUDA(cudaMalloc(&ptr_, sizeof(T) * (size ? size : 1)));
    poison();
  }
  explicit device_buffer(const std::vector<T>& host)
      : device_buffer(host.size())
  {
    upload(host);
  }
  device_buffer(const device_buffer&)            = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer()
  {
    cudaFree(ptr_);
  }

  T* data() const
  {
    return ptr_;
  }
  std::size_t size() const
  {
    return size_;
  }

  void upload(const std::vector<T>& host)
  {
    REQUIRE(host.size() == size_);
    STRATA_TEST_CUDA(cudaMemcpy(ptr_, host.data(), sizeof(T) * size_, cudaMemcpyHostToDevice));
    // A copy from pageable memory may return before its DMA to the device has finished, and work on a non-blocking
    // stream is not ordered after it: done when it returns, as poison() is.
    STRATA_TEST_CUDA(cudaStreamSynchronize(nullptr));
  }
  std::vector<T> download() const
  {
    std::vector<T> host(size_);
    STRATA_TEST_CUDA(cudaMemcpy(host.data(), ptr_, sizeof(T) * size_, cudaMemcpyDeviceToHost));
    return host;
  }
  // Fill every byte with poison_byte, so elements a kernel failed to write are caught. Done when it returns: a
  // memset of device memory does not wait for itself, and work on a non-blocking stream is not ordered after it.
  void poison()
  {
    STRATA_TEST_CUDA(cudaMemset(ptr_, poison_byte, sizeof(T) * (size_ ? size_ : 1)));
    STRATA_TEST_CUDA(cudaStreamSynchronize(nullptr));
  }

private:
  T* ptr_ = nullptr;
  std::size_t size_;
};

// Whether every byte of `v` still holds the poison pattern of device_buffer (nothing wrote to it).
template <typename T>
bool all_poisoned(const std::vector<T>& v)
{
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(v.data());
  return std::all_of(bytes, bytes + v.size() * sizeof(T), [](unsigned char b) {
    return b == poison_byte;
  });
}

// -- comparison ------------------------------------------------------------------------------------------

// Index of the first element where `a` and `b` differ, or -1 when they are equal (sizes included).
template <typename T>
long long first_mismatch(const std::vector<T>& a, const std::vector<T>& b)
{
  if (a.size() != b.size())
  {
    return static_cast<long long>(std::min(a.size(), b.size()));
  }
  for (std::size_t i = 0; i < a.size(); ++i)
  {
    if (!(a[i] == b[i]))
    {
      return static_cast<long long>(i);
    }
  }
  return -1;
}

// Checks `actual == expected` element by element and reports the first mismatch with its neighbourhood.
#define STRATA_REQUIRE_EQUAL_VECTORS(actual, expected)                                                         \
  do                                                                                                           \
  {                                                                                                            \
    const auto& strata_a_     = (actual);                                                                      \
    const auto& strata_e_     = (expected);                                                                    \
    const long long strata_i_ = ::strata_test::first_mismatch(strata_a_, strata_e_);                           \
    if (strata_i_ >= 0)                                                                                        \
    {                                                                                                          \
      INFO("sizes " << strata_a_.size() << " vs " << strata_e_.size() << "; first mismatch at " << strata_i_); \
      if (static_cast<std::size_t>(strata_i_) < strata_a_.size()                                               \
          && static_cast<std::size_t>(strata_i_) < strata_e_.size())                                           \
      {                                                                                                        \
        INFO("actual " << strata_a_[strata_i_] << " expected " << strata_e_[strata_i_]);                       \
        FAIL("vectors differ");                                                                                \
      }                                                                                                        \
      FAIL("vectors differ in size");                                                                          \
    }                                                                                                          \
    SUCCEED();                                                                                                 \
  } while (false)

// d_out starts with `expected`, and nothing after it was written (it still holds device_buffer's poison): for
// algorithms that write a prefix of their output whose length they count.
template <typename T>
void require_written_prefix(const char* name, const device_buffer<T>& d_out, const std::vector<T>& expected)
{
  INFO(name << ": " << expected.size() << " items");
  const std::vector<T> out = d_out.download();
  REQUIRE(out.size() >= expected.size());
  const auto k = static_cast<std::ptrdiff_t>(expected.size());
  STRATA_REQUIRE_EQUAL_VECTORS(std::vector<T>(out.begin(), out.begin() + k), expected);
  CHECK(all_poisoned(std::vector<T>(out.begin() + k, out.end())));
}

// -- host references (independent of the code under test: std:: algorithms and plain loops) --------------------

template <typename T, typename Op>
T reference_reduce(const T* first, const T* last, T init, Op op)
{
  for (; first != last; ++first)
  {
    init = op(init, *first);
  }
  return init;
}

template <typename T, typename Op>
std::vector<T> reference_inclusive_scan(const std::vector<T>& in, Op op)
{
  std::vector<T> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    out[i] = i == 0 ? in[0] : op(out[i - 1], in[i]);
  }
  return out;
}

template <typename T, typename Op>
std::vector<T> reference_exclusive_scan(const std::vector<T>& in, T init, Op op)
{
  std::vector<T> out(in.size());
  T running = init;
  for (std::size_t i = 0; i < in.size(); ++i)
  {
    out[i]  = running;
    running = op(running, in[i]);
  }
  return out;
}

// Host-side operators matching cuda::std::plus / minimum / maximum, so references never use the code under test.
struct host_plus
{
  template <typename T>
  T operator()(const T& a, const T& b) const
  {
    return static_cast<T>(a + b);
  }
};
struct host_min
{
  template <typename T>
  T operator()(const T& a, const T& b) const
  {
    return b < a ? b : a;
  }
};
struct host_max
{
  template <typename T>
  T operator()(const T& a, const T& b) const
  {
    return a < b ? b : a;
  }
};

// The first position at which `out`, a float segmented sum's inclusive outputs, strays from the exact running sum of
// `in` over segments [begin[s], end[s]) by more than 1e-5 of the sum of magnitudes so far; -1 where none does.
template <typename BeginT, typename EndT>
long long first_inexact_running_sum(const std::vector<float>& in, const std::vector<float>& out, const BeginT& begin,
                                    const EndT& end, std::size_t num_segments)
{
  for (std::size_t s = 0; s < num_segments; ++s)
  {
    double exact = 0;
    double size  = 0;
    for (long long i = static_cast<long long>(begin[s]); i < static_cast<long long>(end[s]); ++i)
    {
      exact += in[static_cast<std::size_t>(i)];
      size += std::abs(in[static_cast<std::size_t>(i)]);
      if (!(std::abs(out[static_cast<std::size_t>(i)] - exact) <= 1e-5 * size + 1e-30))
      {
        return i;
      }
    }
  }
  return -1;
}

// The first segment whose float sum in `out` strays from the exact sum of `in` over [begin[s], end[s]) by more than
// 1e-5 of the sum of its magnitudes; -1 where none does.
template <typename BeginT, typename EndT>
long long first_inexact_sum(const std::vector<float>& in, const std::vector<float>& out, const BeginT& begin,
                            const EndT& end, std::size_t num_segments)
{
  for (std::size_t s = 0; s < num_segments; ++s)
  {
    double exact     = 0;
    double magnitude = 0;
    for (long long i = static_cast<long long>(begin[s]); i < static_cast<long long>(end[s]); ++i)
    {
      exact += in[static_cast<std::size_t>(i)];
      magnitude += std::abs(in[static_cast<std::size_t>(i)]);
    }
    if (!(std::abs(static_cast<double>(out[s]) - exact) <= 1e-5 * magnitude))
    {
      return static_cast<long long>(s);
    }
  }
  return -1;
}

// a + b as the device adds: integers wrap (through their unsigned type), anything else adds. On the host it is the
// reference; on the device, an operator whose signed sums are defined to wrap.
struct wrapping_plus
{
  template <typename T>
  __host__ __device__ T operator()(T a, T b) const
  {
    if constexpr (std::is_integral<T>::value)
    {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    }
    else
    {
      return a + b;
    }
  }
};

// The host's scans of one segment [first, last) into out: from its first item, from init combined with its first
// item, and (exclusive) from init.
template <typename OpT>
struct segment_inclusive_scan
{
  OpT op;
  template <typename InT, typename OutT>
  void operator()(const InT* first, const InT* last, OutT* out) const
  {
    for (const InT* p = first; p != last; ++p, ++out)
    {
      *out = p == first ? static_cast<OutT>(*p) : op(out[-1], static_cast<OutT>(*p));
    }
  }
};
template <typename OpT, typename T>
struct segment_inclusive_scan_init
{
  OpT op;
  T init;
  template <typename InT, typename OutT>
  void operator()(const InT* first, const InT* last, OutT* out) const
  {
    OutT acc = static_cast<OutT>(init);
    for (const InT* p = first; p != last; ++p, ++out)
    {
      acc  = op(acc, static_cast<OutT>(*p));
      *out = acc;
    }
  }
};
template <typename OpT, typename T>
struct segment_exclusive_scan
{
  OpT op;
  T init;
  template <typename InT, typename OutT>
  void operator()(const InT* first, const InT* last, OutT* out) const
  {
    OutT acc = static_cast<OutT>(init);
    for (const InT* p = first; p != last; ++p, ++out)
    {
      *out = acc;
      acc  = op(acc, static_cast<OutT>(*p));
    }
  }
};

} // namespace strata_test
