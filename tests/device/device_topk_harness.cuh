// DeviceTopK's test support: the host references and the runs of the entry points in two phases.
//
// Two references, each from the contract (include/strata/device/device_topk.cuh), not from the code under test:
// - selected_positions: the selection and its sorted order, from std::nth_element (the k-th key) and std::stable_sort
//   of the selected items by key; among keys equal to the k-th, the first ones in input order are taken. Keys are
//   compared with operator< (-0.0 == +0.0), so the inputs it checks hold no NaN.
// - unsorted_positions: the documented unsorted order, a replay of the radix select's rounds over the keys' sort
//   images (DeviceRadixSort's key order) in digits of the policy hub's RADIX_BITS.
// Values are the items' positions, so every check of a pairs result pins each selected item, ties included.
#pragma once

#include <strata/device/device_topk.cuh>

#include "device_launch.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

namespace topk_test
{
using strata_test::device_buffer;

// The digit width that decides the unsorted order (the same for every policy of the hub).
template <typename KeyT>
constexpr int radix_bits()
{
  return strata::detail::topk::policy_hub<KeyT, std::uint32_t>::RADIX_BITS;
}

// The items of a tile of the pass kernel's policy (sm_90's) for keys of KeyT.
template <typename KeyT>
constexpr std::size_t tile_items()
{
  return strata::detail::topk::policy_hub<KeyT, std::uint32_t>::Policy900::TopKPolicy::TILE_ITEMS;
}

// Whether key a comes before key b in the wanted order (smallest first for Min, largest first for Max).
template <bool IS_MAX, typename KeyT>
bool before(const KeyT& a, const KeyT& b)
{
  return IS_MAX ? b < a : a < b;
}

// The positions of the k selected items in sorted order: by key, equal keys in input order.
template <bool IS_MAX, typename KeyT>
std::vector<std::uint32_t> selected_positions(const std::vector<KeyT>& keys, std::size_t k)
{
  if (k == 0)
  {
    return {};
  }
  std::vector<KeyT> copy = keys;
  std::nth_element(copy.begin(), copy.begin() + static_cast<std::ptrdiff_t>(k - 1), copy.end(),
                   [](const KeyT& a, const KeyT& b) {
                     return before<IS_MAX>(a, b);
                   });
  const KeyT kth    = copy[k - 1];
  std::size_t ahead = 0; // keys strictly before the k-th
  for (const KeyT& key : keys)
  {
    ahead += before<IS_MAX>(key, kth) ? 1 : 0;
  }
  std::size_t ties = k - ahead; // keys equal to the k-th, taken from the front
  std::vector<std::uint32_t> positions;
  positions.reserve(k);
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    if (before<IS_MAX>(keys[i], kth))
    {
      positions.push_back(static_cast<std::uint32_t>(i));
    }
    else if (!before<IS_MAX>(kth, keys[i]) && ties > 0)
    {
      positions.push_back(static_cast<std::uint32_t>(i));
      --ties;
    }
  }
  std::stable_sort(positions.begin(), positions.end(), [&](std::uint32_t a, std::uint32_t b) {
    return before<IS_MAX>(keys[a], keys[b]);
  });
  return positions;
}

// The positions of the k selected items in the documented unsorted order, replayed over the sort images.
template <bool IS_MAX, typename KeyT>
std::vector<std::uint32_t> unsorted_positions(const std::vector<KeyT>& keys, std::size_t k)
{
  using codec              = strata::detail::radix_sort::key_codec<KeyT, IS_MAX>;
  constexpr int BITS       = codec::BITS;
  constexpr int RADIX_BITS = radix_bits<KeyT>();
  std::vector<std::uint32_t> out;
  if (k == 0)
  {
    return out;
  }
  std::vector<std::uint64_t> image(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    image[i] = static_cast<std::uint64_t>(codec::image(keys[i]));
  }
  std::vector<std::uint32_t> candidates(keys.size());
  std::iota(candidates.begin(), candidates.end(), 0u);
  std::size_t wanted = k;
  for (int high = BITS;; high -= RADIX_BITS)
  {
    const int shift  = high > RADIX_BITS ? high - RADIX_BITS : 0;
    const int width  = high - shift;
    const auto digit = [&](std::uint32_t i) {
      return static_cast<std::size_t>((image[i] >> shift) & ((std::uint64_t(1) << width) - 1));
    };
    std::vector<std::size_t> counts(std::size_t(1) << width, 0);
    for (const std::uint32_t i : candidates)
    {
      ++counts[digit(i)];
    }
    std::size_t bucket = 0;
    std::size_t below  = 0;
    while (below + counts[bucket] < wanted)
    {
      below += counts[bucket++];
    }
    for (const std::uint32_t i : candidates)
    {
      if (digit(i) < bucket)
      {
        out.push_back(i);
      }
    }
    if (shift == 0 || below + counts[bucket] == wanted)
    {
      std::size_t take = wanted - below;
      for (const std::uint32_t i : candidates)
      {
        if (take > 0 && digit(i) == bucket)
        {
          out.push_back(i);
          --take;
        }
      }
      return out;
    }
    std::vector<std::uint32_t> next;
    for (const std::uint32_t i : candidates)
    {
      if (digit(i) == bucket)
      {
        next.push_back(i);
      }
    }
    candidates.swap(next);
    wanted -= below;
  }
}

// The bits of each key (floating-point keys compared bit for bit: the sign of a zero is part of the result).
template <typename KeyT>
std::vector<std::uint64_t> key_bits(const std::vector<KeyT>& keys)
{
  std::vector<std::uint64_t> bits(keys.size(), 0);
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    std::memcpy(&bits[i], &keys[i], sizeof(KeyT));
  }
  return bits;
}

// The keys at `positions`.
template <typename KeyT>
std::vector<KeyT> gather(const std::vector<KeyT>& keys, const std::vector<std::uint32_t>& positions)
{
  std::vector<KeyT> out(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i)
  {
    out[i] = keys[positions[i]];
  }
  return out;
}

// The expected output of a selection: positions (the pairs' values) in the order of `order`.
template <bool IS_MAX, typename KeyT>
std::vector<std::uint32_t> expected_positions(const std::vector<KeyT>& keys, std::size_t k, strata::topk_order order)
{
  return order == strata::topk_order::sorted ? selected_positions<IS_MAX>(keys, k)
                                             : unsorted_positions<IS_MAX>(keys, k);
}

// MinPairs or MaxPairs of `keys` with values = positions, in two phases (on a stream or in a graph); returns the
// output keys and values (k of each, from buffers of k + 1 whose last item must stay poisoned).
template <bool IS_MAX, typename KeyT>
void run_pairs(const device_buffer<KeyT>& d_keys, const device_buffer<std::uint32_t>& d_positions, std::size_t k,
               strata::topk_order order, strata_test::launch_mode mode, std::vector<KeyT>& out_keys,
               std::vector<std::uint32_t>& out_values)
{
  device_buffer<KeyT> d_out(k + 1);
  device_buffer<std::uint32_t> d_values(k + 1);
  // int counts: the tests' sizes fit them, and they build the 32-bit offset kernels only.
  const int n = static_cast<int>(d_keys.size());
  const int m = static_cast<int>(k);
  strata_test::launch(
    [&](void* temp, std::size_t& bytes, cudaStream_t s) {
      const KeyT* keys_in            = d_keys.data();
      const std::uint32_t* values_in = d_positions.data();
      if constexpr (IS_MAX)
      {
        return strata::DeviceTopK::MaxPairs(temp, bytes, keys_in, d_out.data(), values_in, d_values.data(), n, m, order,
                                            s);
      }
      else
      {
        return strata::DeviceTopK::MinPairs(temp, bytes, keys_in, d_out.data(), values_in, d_values.data(), n, m, order,
                                            s);
      }
    },
    mode);
  out_keys   = d_out.download();
  out_values = d_values.download();
  CHECK(strata_test::all_poisoned(std::vector<KeyT>(out_keys.end() - 1, out_keys.end())));
  CHECK(strata_test::all_poisoned(std::vector<std::uint32_t>(out_values.end() - 1, out_values.end())));
  out_keys.pop_back();
  out_values.pop_back();
}

// MinKeys or MaxKeys of `keys` in two phases; returns the k output keys (the buffer's item past them must stay
// poisoned).
template <bool IS_MAX, typename KeyT>
std::vector<KeyT> run_keys(const device_buffer<KeyT>& d_keys, std::size_t k, strata::topk_order order,
                           strata_test::launch_mode mode)
{
  device_buffer<KeyT> d_out(k + 1);
  const int n = static_cast<int>(d_keys.size());
  const int m = static_cast<int>(k);
  strata_test::launch(
    [&](void* temp, std::size_t& bytes, cudaStream_t s) {
      const KeyT* keys_in = d_keys.data();
      if constexpr (IS_MAX)
      {
        return strata::DeviceTopK::MaxKeys(temp, bytes, keys_in, d_out.data(), n, m, order, s);
      }
      else
      {
        return strata::DeviceTopK::MinKeys(temp, bytes, keys_in, d_out.data(), n, m, order, s);
      }
    },
    mode);
  std::vector<KeyT> out = d_out.download();
  CHECK(strata_test::all_poisoned(std::vector<KeyT>(out.end() - 1, out.end())));
  out.pop_back();
  return out;
}

// The k values every sweep tries: 1, 100, n - 1, n and 2^16, those within [1, n]; under the sanitizer (where every
// launch costs much more) 1, n / 2 + 1 and n.
inline std::vector<std::size_t> k_values(std::size_t n)
{
  const std::vector<std::size_t> all = strata_test::sanitizer_run()
                                       ? std::vector<std::size_t>{1, n / 2 + 1, n}
                                       : std::vector<std::size_t>{1, 100, n - 1, n, std::size_t(1) << 16};
  std::vector<std::size_t> ks;
  for (const std::size_t k : all)
  {
    if (n > 0 && k >= 1 && k <= n && std::find(ks.begin(), ks.end(), k) == ks.end())
    {
      ks.push_back(k);
    }
  }
  return ks;
}

// The orders to try for the `turn`-th k of a sweep: both, or under the sanitizer one, by turns, so that a sweep still
// covers both.
inline std::vector<strata::topk_order> orders(std::size_t turn)
{
  if (strata_test::sanitizer_run())
  {
    return {turn % 2 ? strata::topk_order::sorted : strata::topk_order::unsorted};
  }
  return {strata::topk_order::unsorted, strata::topk_order::sorted};
}

// Whether the `turn`-th input of a test selects the smallest (IS_MAX false) or the largest keys: both, or under the
// sanitizer one, by turns.
inline bool selects(bool is_max, std::size_t turn)
{
  return !strata_test::sanitizer_run() || (turn % 2 == 1) == is_max;
}

// `keys` folded onto `distinct` values: each key replaced by one of the first `distinct` keys (a hash of it), so that
// most keys tie with many others.
template <typename KeyT>
std::vector<KeyT> folded(const std::vector<KeyT>& keys, std::size_t distinct)
{
  std::vector<KeyT> out(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    out[i] = keys[(i * 0x9e3779b97f4a7c15ULL >> 40) % distinct];
  }
  return out;
}
} // namespace topk_test
