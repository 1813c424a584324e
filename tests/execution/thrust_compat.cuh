// The Thrust compatibility tests (tests/execution/thrust_compat_*.cu): every thrust:: call is made twice on the same
// inputs, once with Thrust's own policy (thrust::cuda::par.on(s)) and once with strata's (strata::par.on(s)), and the
// two results must be the same bits: return values, end iterators, every output item. The axes are the value types
// Thrust accepts (built-ins, structs, a type whose default constructor is user-provided, one that is not trivially
// copyable, thrust::complex, mixed element / init / output types), the iterator kinds (raw pointers, device_ptr,
// device_vector, universal_vector, managed memory, reverse, transform, counting, constant, permutation, zip,
// discard) and the operators (non-commutative, stateful, lambdas, a non-const operator()).
//
// Results in host-accessible memory (universal_vector, managed memory) are read on the host right after the call,
// without synchronizing, as a Thrust user's code does after a thrust::cuda::par call; device memory is read after
// the stream is synchronized. Each executable prints, at exit, which implementation ran each algorithm: "strata"
// (strata's entry point opened) or "thrust" (Thrust's own CUDA backend, with strata's stream and allocator).
#pragma once

#include "support.cuh"

#include <thrust/complex.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>
#include <thrust/universal_vector.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace compat
{
// -- value types ---------------------------------------------------------------------------------------------------

// A plain struct of two ints (trivially copyable, no padding).
struct pod
{
  int a;
  int b;
  __host__ __device__ friend pod operator+(const pod& x, const pod& y)
  {
    return pod{x.a + y.a, x.b + y.b};
  }
  __host__ __device__ friend bool operator==(const pod& x, const pod& y)
  {
    return x.a == y.a && x.b == y.b;
  }
  __host__ __device__ friend bool operator<(const pod& x, const pod& y)
  {
    return x.a != y.a ? x.a < y.a : x.b < y.b;
  }
  __host__ __device__ friend bool operator>(const pod& x, const pod& y)
  {
    return y < x;
  }
};

// Three ints with a user-provided default constructor (not trivially default constructible, as Thrust's tests'
// FixedVector): a union member of this type has a deleted default constructor.
struct vec3
{
  int v[3];
  __host__ __device__ vec3() {}
  __host__ __device__ explicit vec3(int s)
      : v{s, -s, s / 2}
  {}
  __host__ __device__ friend vec3 operator+(const vec3& x, const vec3& y)
  {
    vec3 r;
    for (int i = 0; i < 3; ++i)
    {
      r.v[i] = x.v[i] + y.v[i];
    }
    return r;
  }
  __host__ __device__ friend bool operator==(const vec3& x, const vec3& y)
  {
    return x.v[0] == y.v[0] && x.v[1] == y.v[1] && x.v[2] == y.v[2];
  }
  __host__ __device__ friend bool operator<(const vec3& x, const vec3& y)
  {
    return x.v[0] != y.v[0] ? x.v[0] < y.v[0] : (x.v[1] != y.v[1] ? x.v[1] < y.v[1] : x.v[2] < y.v[2]);
  }
  __host__ __device__ friend bool operator>(const vec3& x, const vec3& y)
  {
    return y < x;
  }
};

// A number with user-defined copy operations (not trivially copyable, as Thrust's tests' custom_numeric), built from
// any int.
class counted
{
public:
  __host__ __device__ counted()
      : value_{0, 0}
  {}
  __host__ __device__ counted(int v)
      : value_{v, v}
  {}
  __host__ __device__ counted(const counted& other)
      : value_{other.value_[0], other.value_[0]}
  {}
  __host__ __device__ counted& operator=(const counted& other)
  {
    value_[0] = value_[1] = other.value_[0];
    return *this;
  }
  __host__ __device__ int value() const
  {
    return value_[0];
  }
  __host__ __device__ friend counted operator+(const counted& x, const counted& y)
  {
    return counted(x.value() + y.value());
  }
  __host__ __device__ friend counted operator*(const counted& x, const counted& y)
  {
    return counted(x.value() * y.value());
  }
  __host__ __device__ friend bool operator==(const counted& x, const counted& y)
  {
    return x.value() == y.value();
  }
  __host__ __device__ friend bool operator<(const counted& x, const counted& y)
  {
    return x.value() < y.value();
  }
  __host__ __device__ friend bool operator>(const counted& x, const counted& y)
  {
    return y < x;
  }

private:
  int value_[2];
};

using cfloat = thrust::complex<float>;

static_assert(!std::is_trivially_default_constructible<vec3>::value, "vec3 stands for user-provided constructors");
static_assert(!std::is_trivially_copyable<counted>::value, "counted stands for types that are not trivially copyable");

// The value types with an order, for the sortedness tests.
#define COMPAT_ORDERED_TYPES std::int8_t, int, long, float, double, compat::pod, compat::vec3, compat::counted

// The value of T that the seed s stands for: floating-point values are multiples of 1/4, so that sums of a million of
// them are exact in any order (the two libraries add in different orders).
template <typename T>
T make(int s)
{
  if constexpr (std::is_same<T, pod>::value)
  {
    return pod{s, 2 * s + 1};
  }
  else if constexpr (std::is_same<T, vec3>::value || std::is_same<T, counted>::value)
  {
    return T(s);
  }
  else if constexpr (std::is_same<T, cfloat>::value)
  {
    return cfloat(0.5f * static_cast<float>(s), -0.25f * static_cast<float>(s));
  }
  else if constexpr (std::is_floating_point<T>::value)
  {
    return static_cast<T>(s) / T(4);
  }
  else
  {
    return static_cast<T>(s);
  }
}

// n seeds in [lo, hi] from a generator salted with `salt`.
inline std::vector<int> seeds(std::size_t n, std::uint64_t salt, int lo = -60, int hi = 60)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int> s(n);
  for (int& x : s)
  {
    x = d(rng);
  }
  return s;
}

template <typename T>
std::vector<T> values(const std::vector<int>& s)
{
  std::vector<T> v;
  v.reserve(s.size());
  for (const int x : s)
  {
    v.push_back(make<T>(x));
  }
  return v;
}

template <typename T>
std::vector<T> random_values(std::size_t n, std::uint64_t salt, int lo = -60, int hi = 60)
{
  return values<T>(seeds(n, salt, lo, hi));
}

// Keys for the sorts: many ties; for floating-point keys also -0.0, +0.0, infinities and NaNs of both signs (where
// `specials`: the radix sorts of both libraries put those by their bits).
template <typename T>
std::vector<T> sort_keys(std::size_t n, std::uint64_t salt, bool specials)
{
  std::vector<T> k = random_values<T>(n, salt, -40, 40);
  if constexpr (std::is_floating_point<T>::value)
  {
    if (specials)
    {
      const T special[] = {T(-0.0),
                           T(0.0),
                           std::numeric_limits<T>::infinity(),
                           -std::numeric_limits<T>::infinity(),
                           std::numeric_limits<T>::quiet_NaN(),
                           -std::numeric_limits<T>::quiet_NaN()};
      for (std::size_t i = 0; i < n; i += 7)
      {
        k[i] = special[(i / 7) % 6];
      }
    }
  }
  (void) specials;
  return k;
}

// -- operators ------------------------------------------------------------------------------------------------------

// The composition of affine maps x -> a x + b, on pods (wrapping): associative and not commutative.
struct compose
{
  __host__ __device__ pod operator()(const pod& f, const pod& g) const
  {
    const unsigned a = static_cast<unsigned>(f.a) * static_cast<unsigned>(g.a);
    const unsigned b = static_cast<unsigned>(f.b) * static_cast<unsigned>(g.a) + static_cast<unsigned>(g.b);
    return pod{static_cast<int>(a), static_cast<int>(b)};
  }
};

// max(a, b), but at most `limit`: a stateful operator, associative and commutative.
struct clamped_max
{
  int limit;
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const
  {
    const T m = a < b ? b : a;
    return T(limit) < m ? T(limit) : m;
  }
};

// a + b, through a non-const operator() (Thrust accepts such functors).
struct mutable_plus
{
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b)
  {
    return a + b;
  }
};

// a < b, through a non-const operator().
struct mutable_less
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b)
  {
    return a < b;
  }
};

// b < a, through a non-const operator().
struct mutable_greater
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b)
  {
    return b < a;
  }
};

// a - b: the left operand's order matters.
struct first_minus
{
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const
  {
    return a - b;
  }
};

// A predicate whose result is an int, not a bool.
struct mod3
{
  template <typename T>
  __host__ __device__ int operator()(const T& x) const
  {
    return static_cast<int>(x) % 3;
  }
};

struct is_positive
{
  template <typename T>
  __host__ __device__ bool operator()(const T& x) const
  {
    return T(0) < x;
  }
};

// -- what a run produced ------------------------------------------------------------------------------------------------

// The results of one run, as labelled parts of bytes (the object representations of values and output items).
class record
{
public:
  explicit record(cudaStream_t stream)
      : stream_(stream)
  {}

  cudaStream_t stream() const
  {
    return stream_;
  }

  // A value: a return value, an end iterator's offset.
  template <typename T>
  void value(const std::string& label, const T& v)
  {
    items(label, &v, 1);
  }

  // n items on the host.
  template <typename T>
  void items(const std::string& label, const T* p, std::size_t n)
  {
    part pt{label, sizeof(T), std::vector<unsigned char>(sizeof(T) * n)};
    if (n != 0)
    {
      std::memcpy(pt.bytes.data(), static_cast<const void*>(p), sizeof(T) * n);
    }
    parts_.push_back(std::move(pt));
  }

  // Device memory: read once the stream has finished.
  template <typename T>
  void device(const std::string& label, const T* d, std::size_t n)
  {
    STRATA_TEST_CUDA(cudaStreamSynchronize(stream_));
    std::vector<unsigned char> host(sizeof(T) * n);
    if (n != 0)
    {
      STRATA_TEST_CUDA(cudaMemcpy(host.data(), d, sizeof(T) * n, cudaMemcpyDeviceToHost));
    }
    parts_.push_back(part{label, sizeof(T), std::move(host)});
  }
  template <typename T>
  void device(const std::string& label, const thrust::device_vector<T>& v)
  {
    device(label, thrust::raw_pointer_cast(v.data()), v.size());
  }

  // Host-accessible memory (universal_vector, managed memory): read at once, as the caller's host code would.
  template <typename T>
  void host(const std::string& label, const T* p, std::size_t n)
  {
    items(label, p, n);
  }

  // Compares with the reference run: the same parts, the same bytes.
  void require_same_as(const record& expected) const
  {
    REQUIRE(parts_.size() == expected.parts_.size());
    for (std::size_t i = 0; i < parts_.size(); ++i)
    {
      const part& a = expected.parts_[i];
      const part& b = parts_[i];
      INFO("result part '" << a.label << "' (" << a.bytes.size() / a.item_bytes << " items of " << a.item_bytes
                           << " bytes)");
      REQUIRE(a.label == b.label);
      REQUIRE(a.bytes.size() == b.bytes.size());
      std::size_t first = a.bytes.size();
      for (std::size_t k = 0; k < a.bytes.size(); ++k)
      {
        if (a.bytes[k] != b.bytes[k])
        {
          first = k;
          break;
        }
      }
      INFO("first difference in item " << first / a.item_bytes << ": Thrust " << hex(a, first) << ", strata "
                                       << hex(b, first));
      CHECK(first == a.bytes.size());
    }
  }

private:
  struct part
  {
    std::string label;
    std::size_t item_bytes;
    std::vector<unsigned char> bytes;
  };

  static std::string hex(const part& p, std::size_t byte)
  {
    if (byte >= p.bytes.size())
    {
      return "-";
    }
    const std::size_t start = byte / p.item_bytes * p.item_bytes;
    std::string s           = "0x";
    for (std::size_t k = start + p.item_bytes; k-- > start;)
    {
      char buf[3];
      std::snprintf(buf, sizeof(buf), "%02x", p.bytes[k]);
      s += buf;
    }
    return s;
  }

  cudaStream_t stream_;
  std::vector<part> parts_;
};

// Which implementation ran each thrust:: algorithm given strata's policy, printed when the executable exits.
class implementation_report
{
public:
  void note(const std::string& algorithm, const std::string& implementation)
  {
    seen_[algorithm].insert(implementation);
  }
  ~implementation_report()
  {
    if (seen_.empty())
    {
      return;
    }
    std::printf("\nthrust:: algorithm given strata::par -> implementation that ran\n");
    for (const auto& [algorithm, implementations] : seen_)
    {
      std::string list;
      for (const std::string& s : implementations)
      {
        list += (list.empty() ? "" : ", ") + s;
      }
      std::printf("  %-34s %s\n", algorithm.c_str(), list.c_str());
    }
    std::fflush(stdout);
  }

private:
  std::map<std::string, std::set<std::string>> seen_;
};

inline implementation_report& report()
{
  static implementation_report r;
  return r;
}

// A non-blocking stream for one comparison.
class stream
{
public:
  stream()
  {
    STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking));
  }
  stream(const stream&)            = delete;
  stream& operator=(const stream&) = delete;
  ~stream()
  {
    cudaStreamSynchronize(s_);
    cudaStreamDestroy(s_);
  }
  cudaStream_t get() const
  {
    return s_;
  }

private:
  cudaStream_t s_ = nullptr;
};

// Runs `run(policy, record&)` with Thrust's policy and with strata's, on the same stream, and requires the same
// results. `run` makes its own inputs, so in-place algorithms start from the same data.
template <typename Run>
void compare(const std::string& algorithm, const std::string& variant, std::size_t n, Run&& run)
{
  INFO("thrust::" << algorithm << " [" << variant << "], " << n << " items");
  exec_test::settle();
  stream s;
  record expected(s.get());
  record actual(s.get());
  exec_test::entries().clear();
  run(thrust::cuda::par.on(s.get()), expected);
  STRATA_TEST_CUDA(cudaStreamSynchronize(s.get()));
  STRATA_TEST_CUDA(cudaGetLastError());
  CHECK(exec_test::entries().strata.empty());
  exec_test::entries().clear();
  run(strata::par.on(s.get()), actual);
  const bool strata_ran = !exec_test::entries().strata.empty();
  STRATA_TEST_CUDA(cudaStreamSynchronize(s.get()));
  STRATA_TEST_CUDA(cudaGetLastError());
  report().note(algorithm, strata_ran ? "strata" : "thrust");
  actual.require_same_as(expected);
}

// The sizes each comparison runs at: empty, one item, a few, more than one tile, and (outside compute-sanitizer runs)
// more than a million.
inline std::vector<std::size_t> sizes()
{
  return strata_test::sizes_within_cap({0, 1, 2, 1000, 100003, (std::size_t(1) << 20) + 3});
}

inline std::vector<std::size_t> small_sizes()
{
  return {0, 1, 1000, 70001};
}

// The sizes of the sorts: sizes() and the edges of the single-block radix sorts' largest tiles.
inline std::vector<std::size_t> sort_sizes()
{
  std::vector<std::size_t> s = sizes();
  for (const std::size_t n : {std::size_t(8191), std::size_t(8193), std::size_t(12289), std::size_t(16385)})
  {
    if (n <= strata_test::capped(n))
    {
      s.push_back(n);
    }
  }
  return s;
}

// -- storage of every kind ------------------------------------------------------------------------------------------

// n items of T in managed memory (cudaMallocManaged), constructed on the host.
template <typename T>
class managed_array
{
public:
  explicit managed_array(const std::vector<T>& items)
      : n_(items.size())
  {
    STRATA_TEST_CUDA(cudaMallocManaged(&p_, sizeof(T) * (n_ ? n_ : 1)));
    for (std::size_t i = 0; i < n_; ++i)
    {
      new (p_ + i) T(items[i]);
    }
  }
  managed_array(const managed_array&)            = delete;
  managed_array& operator=(const managed_array&) = delete;
  ~managed_array()
  {
    cudaDeviceSynchronize();
    cudaFree(p_);
  }
  T* begin() const
  {
    return p_;
  }
  T* end() const
  {
    return p_ + n_;
  }

private:
  T* p_ = nullptr;
  std::size_t n_;
};

enum class kind
{
  raw,         // T* into a device_vector
  device_ptr,  // thrust::device_ptr<T>
  vector,      // device_vector<T>::iterator
  universal,   // universal_vector<T>::iterator (managed memory)
  managed,     // T* from cudaMallocManaged
  reverse,     // reverse iterators over a device_vector
  permutation, // a permutation_iterator over a device_vector (a reversal by index)
  transform,   // a transform_iterator (identity through a functor) over a device_vector: read-only
  counting,    // counting_iterator<T> from the first item: read-only, arithmetic T only
  constant,    // constant_iterator<T> of the first item: read-only
  discard      // discard_iterator: output only
};

inline const char* name_of(kind k)
{
  switch (k)
  {
    case kind::raw:
      return "raw pointer";
    case kind::device_ptr:
      return "device_ptr";
    case kind::vector:
      return "device_vector";
    case kind::universal:
      return "universal_vector";
    case kind::managed:
      return "managed memory";
    case kind::reverse:
      return "reverse_iterator";
    case kind::permutation:
      return "permutation_iterator";
    case kind::transform:
      return "transform_iterator";
    case kind::counting:
      return "counting_iterator";
    case kind::constant:
      return "constant_iterator";
    case kind::discard:
      return "discard_iterator";
  }
  return "?";
}

// A list of kinds, known at compile time (each kind instantiates the algorithm for its own iterator type).
template <kind... K>
struct kinds
{};

// The kinds a range that is written (in place, or an output) can be.
using writable_kinds =
  kinds<kind::raw, kind::device_ptr, kind::vector, kind::universal, kind::managed, kind::reverse, kind::permutation>;

template <typename A, typename B>
struct concat;
template <kind... A, kind... B>
struct concat<kinds<A...>, kinds<B...>>
{
  using type = kinds<A..., B...>;
};

// The kinds an input range can be (counting_iterator only for arithmetic T).
using input_kinds = typename concat<writable_kinds, kinds<kind::transform, kind::constant, kind::counting>>::type;

// The kinds an output range can be.
using output_kinds = typename concat<writable_kinds, kinds<kind::discard>>::type;

template <kind K>
using kind_constant = std::integral_constant<kind, K>;

// f(kind_constant<K>{}) for each kind K of the list.
template <kind... K, typename F>
void for_each_kind(kinds<K...>, F&& f)
{
  (f(kind_constant<K>{}), ...);
}

struct identity
{
  template <typename T>
  __host__ __device__ T operator()(const T& x) const
  {
    return x;
  }
};

// The reversal permutation of [0, n).
inline thrust::device_vector<int> reversal(std::size_t n)
{
  std::vector<int> idx(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    idx[i] = static_cast<int>(n - 1 - i);
  }
  return thrust::device_vector<int>(idx.begin(), idx.end());
}

// Calls f(first, last) with `items` in storage of kind K; then records what the storage holds (for the kinds that
// can be written), reading host-accessible storage without synchronizing.
template <kind K, typename T, typename F>
void with_range(record& r, const std::string& label, const std::vector<T>& items, F&& f)
{
  const std::size_t n = items.size();
  if constexpr (K == kind::raw || K == kind::device_ptr || K == kind::vector || K == kind::reverse
                || K == kind::permutation || K == kind::transform)
  {
    thrust::device_vector<T> d(items.begin(), items.end());
    thrust::device_vector<int> idx = reversal(K == kind::permutation ? n : 0);
    exec_test::settle();
    T* raw = thrust::raw_pointer_cast(d.data());
    if constexpr (K == kind::raw)
    {
      f(raw, raw + n);
    }
    else if constexpr (K == kind::device_ptr)
    {
      f(thrust::device_ptr<T>(raw), thrust::device_ptr<T>(raw) + n);
    }
    else if constexpr (K == kind::vector)
    {
      f(d.begin(), d.end());
    }
    else if constexpr (K == kind::reverse)
    {
      f(d.rbegin(), d.rend());
    }
    else if constexpr (K == kind::permutation)
    {
      f(thrust::make_permutation_iterator(d.begin(), idx.begin()),
        thrust::make_permutation_iterator(d.begin(), idx.end()));
    }
    else
    {
      f(thrust::make_transform_iterator(d.begin(), identity{}), thrust::make_transform_iterator(d.end(), identity{}));
    }
    r.device(label, d);
  }
  else if constexpr (K == kind::universal)
  {
    thrust::universal_vector<T> u(items.begin(), items.end());
    exec_test::settle();
    f(u.begin(), u.end());
    r.host(label, thrust::raw_pointer_cast(u.data()), n);
    STRATA_TEST_CUDA(cudaStreamSynchronize(r.stream()));
  }
  else if constexpr (K == kind::managed)
  {
    managed_array<T> m(items);
    f(m.begin(), m.end());
    r.host(label, m.begin(), n);
    STRATA_TEST_CUDA(cudaStreamSynchronize(r.stream()));
  }
  else if constexpr (K == kind::counting)
  {
    if constexpr (std::is_arithmetic<T>::value)
    {
      const T first = n ? items[0] : T(0);
      f(thrust::counting_iterator<T>(first), thrust::counting_iterator<T>(first) + n);
    }
  }
  else if constexpr (K == kind::constant)
  {
    const T value = n ? items[0] : T();
    f(thrust::constant_iterator<T>(value), thrust::constant_iterator<T>(value) + n);
  }
  else
  {
    static_assert(K == kind::discard, "a kind without storage");
  }
}

// Calls `f(out)` with an output of n items of kind K, each first set to `fill`, and records the offset of the returned
// end iterator (where f returns one) and the items written.
template <kind K, typename T, typename F>
void with_output(record& r, const std::string& label, std::size_t n, const T& fill, F&& f)
{
  auto call = [&](auto out) {
    if constexpr (std::is_void<decltype(f(out))>::value)
    {
      f(out);
    }
    else
    {
      const auto end = f(out);
      r.value(label + " end offset", static_cast<long long>(end - out));
    }
  };
  if constexpr (K == kind::discard)
  {
    call(thrust::make_discard_iterator());
  }
  else
  {
    with_range<K>(r, label, std::vector<T>(n, fill), [&](auto first, auto) {
      call(first);
    });
  }
}
} // namespace compat
