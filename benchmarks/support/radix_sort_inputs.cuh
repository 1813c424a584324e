// Inputs of the radix sort benchmarks (compare/sort.cu, bench/radix_sort/*.cu): keys with a chosen bit entropy,
// values, both rotated through more memory than the L2 holds, and a device-side bitwise comparison of two outputs.
//
// Bit entropy as in the radix sort literature: a key is the bitwise AND of `and_words` independent random words,
// so each bit is set with probability 2^-and_words. One word gives random keys (1.000 bits of entropy per bit),
// two 0.811, three 0.544, four 0.337, five 0.201. Fewer distinct digits make more keys of a tile share a bucket,
// the case where ranking and scattering contend most.
#pragma once

#include "bench_util.cuh"

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace strata_bench
{

// The short name of a key or value type in sort benchmark names: u8 ... u64, i8 ... i64, f32, f64.
template <typename T>
std::string sort_type_name()
{
  if (std::is_floating_point<T>::value)
  {
    return sizeof(T) == 4 ? "f32" : "f64";
  }
  return (std::is_signed<T>::value ? "i" : "u") + std::to_string(8 * sizeof(T));
}

// What the keys of a case look like.
struct key_spec
{
  int and_words = 1; // each key the AND of this many random words (1: random)
  int low_bits  = 0; // where > 0, only the lowest low_bits bits may be set (the rest of the key is 0)
};

// The bit entropy per key bit of `and_words` ANDed words, in thousandths (1000, 811, 544, 337, 201), and back.
inline int entropy_milli(int and_words)
{
  constexpr int table[] = {0, 1000, 811, 544, 337, 201};
  return and_words >= 1 && and_words <= 5 ? table[and_words] : 0;
}
inline int and_words_for_entropy(int milli)
{
  for (int words = 1; words <= 5; ++words)
  {
    if (entropy_milli(words) == milli)
    {
      return words;
    }
  }
  return -1;
}

// The unsigned integer of T's size: the keys are made as bits and stored as T.
template <typename T>
using bits_t = std::conditional_t<
  sizeof(T) == 1, std::uint8_t,
  std::conditional_t<sizeof(T) == 2, std::uint16_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

// Floating-point keys get their exponent's top bit cleared, so every key is finite (|key| < 2): NaNs and infinities
// sort by their bits in both libraries, but they are not what a benchmark of ordinary data should time.
template <typename T>
__global__ void fill_keys_kernel(T* keys, std::size_t n, std::uint64_t seed, key_spec spec)
{
  using B = bits_t<T>;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    std::uint64_t word = ~std::uint64_t(0);
    for (int w = 0; w < spec.and_words; ++w)
    {
      word &= mix64(mix64(i * 0x9e3779b97f4a7c15ULL + seed) + std::uint64_t(w) * 0xd1b54a32d192ed03ULL);
    }
    if (spec.low_bits > 0 && spec.low_bits < 64)
    {
      word &= (std::uint64_t(1) << spec.low_bits) - 1;
    }
    B bits = static_cast<B>(word);
    if constexpr (std::is_floating_point<T>::value)
    {
      bits &= ~(B(1) << (sizeof(T) == 4 ? 30 : 62));
    }
    T key;
    memcpy(&key, &bits, sizeof(T));
    keys[i] = key;
  }
}

template <typename T>
void fill_keys(T* keys, std::size_t n, std::uint64_t seed, key_spec spec)
{
  if (n == 0)
  {
    return;
  }
  fill_keys_kernel<<<1024, 256>>>(keys, n, seed, spec);
  STRATA_BENCH_CHECK(cudaGetLastError());
}

// The value type of a keys-only sort.
struct no_values
{};

// The outputs of one sort: keys, and values unless ValueT is no_values.
template <typename KeyT, typename ValueT>
struct sort_outputs
{
  static constexpr bool HAS_VALUES = !std::is_same<ValueT, no_values>::value;

  explicit sort_outputs(std::size_t n)
      : n_(n)
      , keys(n)
      , values(HAS_VALUES ? n : 0)
  {}

  void poison(int byte)
  {
    STRATA_BENCH_CHECK(cudaMemset(keys.get(), byte, n_ * sizeof(KeyT)));
    if constexpr (HAS_VALUES)
    {
      STRATA_BENCH_CHECK(cudaMemset(values.get(), byte, n_ * sizeof(ValueT)));
    }
  }

  std::size_t n_;
  device_array<KeyT> keys;
  device_array<ValueT> values;
};

template <typename T>
__global__ void fill_indices_kernel(T* data, std::size_t n)
{
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    data[i] = static_cast<T>(i);
  }
}

// How sort_inputs fills the values: random, or each value its item's index (which check_sort needs).
enum class value_fill
{
  random,
  index
};

// Keys (and values, unless ValueT is no_values) for several input sets of `n` items whose total exceeds twice the
// L2 size, so that no timed run finds its input in the cache (one set where a set alone is already that large).
template <typename KeyT, typename ValueT = no_values>
class sort_inputs
{
public:
  static constexpr bool HAS_VALUES = !std::is_same<ValueT, no_values>::value;

  sort_inputs(std::size_t n, key_spec spec, value_fill fill = value_fill::random, std::uint64_t seed = 42)
      : n_(n)
  {
    const std::size_t set_bytes = std::max<std::size_t>(1, n * (sizeof(KeyT) + (HAS_VALUES ? sizeof(ValueT) : 0)));
    const std::size_t sets =
      std::min<std::size_t>(512, std::max<std::size_t>(1, (2 * l2_bytes() + set_bytes - 1) / set_bytes));
    keys_.resize(sets);
    values_.resize(HAS_VALUES ? sets : 0);
    for (std::size_t s = 0; s < sets; ++s)
    {
      STRATA_BENCH_CHECK(cudaMalloc(&keys_[s], std::max<std::size_t>(1, n) * sizeof(KeyT)));
      fill_keys(keys_[s], n, seed + 7919 * s, spec);
      if constexpr (HAS_VALUES)
      {
        STRATA_BENCH_CHECK(cudaMalloc(&values_[s], std::max<std::size_t>(1, n) * sizeof(ValueT)));
        if (fill == value_fill::index)
        {
          if (n > 0)
          {
            fill_indices_kernel<<<1024, 256>>>(values_[s], n);
            STRATA_BENCH_CHECK(cudaGetLastError());
          }
        }
        else
        {
          fill_random(values_[s], n, seed + 104729 * (s + 1));
        }
      }
    }
    STRATA_BENCH_CHECK(cudaDeviceSynchronize());
  }
  ~sort_inputs()
  {
    for (KeyT* p : keys_)
    {
      cudaFree(p);
    }
    for (ValueT* p : values_)
    {
      cudaFree(p);
    }
  }
  sort_inputs(const sort_inputs&)            = delete;
  sort_inputs& operator=(const sort_inputs&) = delete;

  const KeyT* keys(std::size_t set) const
  {
    return keys_[set % keys_.size()];
  }
  // nullptr for a keys-only sort.
  const ValueT* values(std::size_t set) const
  {
    return HAS_VALUES ? values_[set % values_.size()] : nullptr;
  }
  std::size_t sets() const
  {
    return keys_.size();
  }
  std::size_t size() const
  {
    return n_;
  }

private:
  std::size_t n_;
  std::vector<KeyT*> keys_;
  std::vector<ValueT*> values_;
};

// Counts the positions where a and b differ in any bit, and the first of them.
template <typename T>
__global__ void count_differences_kernel(const T* a, const T* b, std::size_t n, unsigned long long* result)
{
  using B = bits_t<T>;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    B x, y;
    memcpy(&x, a + i, sizeof(T));
    memcpy(&y, b + i, sizeof(T));
    if (x != y)
    {
      atomicAdd(result, 1ULL);
      atomicMin(result + 1, static_cast<unsigned long long>(i));
    }
  }
}

struct differences
{
  std::uint64_t count = 0;
  std::uint64_t first = 0; // valid where count > 0
};

// Compares two device arrays bit for bit (T of 1, 2, 4 or 8 bytes).
template <typename T>
differences compare_bits(const T* a, const T* b, std::size_t n)
{
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "compared as one word");
  device_array<unsigned long long> result(2);
  const unsigned long long init[2] = {0, ~0ULL};
  STRATA_BENCH_CHECK(cudaMemcpy(result.get(), init, sizeof(init), cudaMemcpyHostToDevice));
  if (n > 0)
  {
    count_differences_kernel<<<1024, 256>>>(a, b, n, result.get());
    STRATA_BENCH_CHECK(cudaGetLastError());
  }
  unsigned long long host[2] = {};
  STRATA_BENCH_CHECK(cudaMemcpy(host, result.get(), sizeof(host), cudaMemcpyDeviceToHost));
  return {host[0], host[1]};
}

// Checks of a sort's output on the device, without a reference sort: counts[0] the positions whose key is smaller
// than the one before (by <: arithmetic keys of the bench generator are finite, and -0.0 == +0.0 as in the sorts);
// counts[1] (pairs, values the input indices) the positions whose value is not an input index, whose key is not
// that input item's key bit for bit, or whose value does not exceed the one before in a run of equal keys (stable,
// and no item twice); hashes[0] and hashes[1] the sums of a hash of every key's bits, of the input and of the
// output (equal for a permutation; keys only).
template <typename KeyT, typename ValueT>
__global__ void check_sort_kernel(const KeyT* in_keys, const KeyT* keys, const ValueT* values, std::size_t n,
                                  unsigned long long* counts, unsigned long long* hashes)
{
  using B                     = bits_t<KeyT>;
  constexpr bool HAS_VALUES   = !std::is_same<ValueT, no_values>::value;
  unsigned long long unsorted = 0;
  unsigned long long unpaired = 0;
  unsigned long long in_hash  = 0;
  unsigned long long out_hash = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
  {
    const KeyT key               = keys[i];
    const bool equal_to_previous = i > 0 && !(keys[i - 1] < key) && !(key < keys[i - 1]);
    if (i > 0 && key < keys[i - 1])
    {
      ++unsorted;
    }
    if constexpr (HAS_VALUES)
    {
      const unsigned long long v = static_cast<unsigned long long>(values[i]);
      B a, b;
      memcpy(&a, &key, sizeof(KeyT));
      if (v >= n)
      {
        ++unpaired;
        continue;
      }
      memcpy(&b, in_keys + v, sizeof(KeyT));
      if (a != b || (equal_to_previous && !(static_cast<unsigned long long>(values[i - 1]) < v)))
      {
        ++unpaired;
      }
    }
    else
    {
      B a, b;
      memcpy(&a, &key, sizeof(KeyT));
      memcpy(&b, in_keys + i, sizeof(KeyT));
      out_hash += mix64(static_cast<std::uint64_t>(a) + 0x632be59bd9b4e019ULL);
      in_hash += mix64(static_cast<std::uint64_t>(b) + 0x632be59bd9b4e019ULL);
    }
  }
  atomicAdd(counts, unsorted);
  atomicAdd(counts + 1, unpaired);
  atomicAdd(hashes, in_hash);
  atomicAdd(hashes + 1, out_hash);
}

// "" where keys (and values) are the stable sort of in_keys (values: the input indices, value_fill::index), else
// what is wrong.
template <typename KeyT, typename ValueT>
std::string check_sort(const KeyT* in_keys, const KeyT* keys, const ValueT* values, std::size_t n)
{
  static_assert(std::is_same<ValueT, no_values>::value || (std::is_integral<ValueT>::value && sizeof(ValueT) >= 4),
                "values hold the input indices");
  device_array<unsigned long long> result(4);
  STRATA_BENCH_CHECK(cudaMemset(result.get(), 0, 4 * sizeof(unsigned long long)));
  if (n > 0)
  {
    check_sort_kernel<<<1024, 256>>>(in_keys, keys, values, n, result.get(), result.get() + 2);
    STRATA_BENCH_CHECK(cudaGetLastError());
  }
  unsigned long long host[4] = {};
  STRATA_BENCH_CHECK(cudaMemcpy(host, result.get(), sizeof(host), cudaMemcpyDeviceToHost));
  if (host[0] > 0)
  {
    return "not sorted: " + std::to_string(host[0]) + " keys smaller than the key before";
  }
  if (host[1] > 0)
  {
    return "values do not follow their keys stably: " + std::to_string(host[1]) + " positions";
  }
  if (host[2] != host[3])
  {
    return "the output keys are not a permutation of the input keys";
  }
  return "";
}

} // namespace strata_bench
