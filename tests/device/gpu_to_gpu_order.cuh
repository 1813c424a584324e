// The host's emulations of the gpu_to_gpu orders, bit for bit: DeviceReduce's (agent/agent_reduce_atoms.cuh) and
// DeviceScan's (agent/agent_scan_atoms.cuh).
#pragma once

#include <strata/agent/agent_reduce_atoms.cuh>
#include <strata/agent/agent_scan_atoms.cuh>
#include <strata/agent/agent_scan_by_key.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/device/dispatch/dispatch_scan_gpu_to_gpu.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <cstddef>
#include <optional>
#include <vector>

namespace strata_test
{
template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b)
{
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// The first index where the bits differ, or -1.
template <typename T>
long long first_bit_mismatch(const std::vector<T>& a, const std::vector<T>& b)
{
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
  {
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0)
    {
      return static_cast<long long>(i);
    }
  }
  return a.size() == b.size() ? -1 : static_cast<long long>(std::min(a.size(), b.size()));
}

template <int THREADS, int MIN_BLOCKS_PER_SM>
struct atoms_hub
{
  struct Policy : strata::ChainedPolicy<900, Policy, Policy>
  {
    using ScanAtomsPolicy     = strata::AgentScanAtomsPolicy<THREADS, MIN_BLOCKS_PER_SM>;
    using ScanAtomsBulkPolicy = strata::AgentScanAtomsPolicy<THREADS, 1>;
  };
  using MaxPolicy = Policy;
};

// FNV-1a over the bytes of `values`.
template <typename T>
std::uint64_t hash_of(const std::vector<T>& values)
{
  std::uint64_t h = 0xcbf29ce484222325ull;
  const auto* p   = reinterpret_cast<const unsigned char*>(values.data());
  for (std::size_t i = 0; i < values.size() * sizeof(T); ++i)
  {
    h = (h ^ p[i]) * 0x100000001b3ull;
  }
  return h;
}

// `n` values in [-128, 128) with full mantissas drawn from `rng` (through no standard distribution, whose results
// differ between standard libraries): every rounded sum of them depends on the order of the operations.
template <typename T>
std::vector<T> full_mantissas(std::size_t n, std::mt19937_64 rng)
{
  std::vector<T> v(n);
  for (auto& x : v)
  {
    x = static_cast<T>(static_cast<std::int64_t>(rng())) * static_cast<T>(0x1p-56);
  }
  return v;
}

// The host's emulation of the gpu_to_gpu order: passes of atoms (lane sums of rounds, folded over the vector's
// positions, then the butterfly), each over the sums of the one before, until one atom is left.
template <typename AccumT, typename InputT, typename ItemT, typename OpT>
AccumT fixed_order_pass_sum(const ItemT& item, std::size_t n, OpT op, std::vector<AccumT>& sums)
{
  constexpr int V         = strata::detail::reduce_atoms::vector_items_v<InputT>;
  constexpr int R         = strata::detail::reduce_atoms::ROUNDS;
  constexpr std::size_t A = strata::detail::reduce_atoms::atom_items_v<InputT>;
  struct maybe
  {
    AccumT value;
    bool valid;
  };
  const auto join = [&](const maybe& a, const maybe& b) {
    if (!b.valid)
    {
      return a;
    }
    if (!a.valid)
    {
      return b;
    }
    return maybe{static_cast<AccumT>(op(a.value, b.value)), true};
  };
  const std::size_t atoms = (n + A - 1) / A;
  sums.assign(atoms, AccumT{});
  for (std::size_t a = 0; a < atoms; ++a)
  {
    const std::size_t first = a * A;
    const std::size_t left  = n - first;
    maybe lanes[32];
    for (int l = 0; l < 32; ++l)
    {
      maybe partial[V];
      for (int w = 0; w < V; ++w)
      {
        partial[w] = maybe{AccumT{}, false};
      }
      for (int r = 0; r < R; ++r)
      {
        for (int w = 0; w < V; ++w)
        {
          const std::size_t at = static_cast<std::size_t>((r * 32 + l) * V + w);
          if (at < left)
          {
            partial[w] = join(partial[w], maybe{static_cast<AccumT>(item(first + at)), true});
          }
        }
      }
      lanes[l] = partial[0];
      for (int w = 1; w < V; ++w)
      {
        lanes[l] = join(lanes[l], partial[w]);
      }
    }
    for (int distance = 16; distance >= 1; distance /= 2)
    {
      maybe next[32];
      for (int l = 0; l < 32; ++l)
      {
        next[l] = join(lanes[l], lanes[l ^ distance]);
      }
      std::copy(next, next + 32, lanes);
    }
    sums[a] = lanes[0].value;
  }
  return atoms == 1 ? sums[0] : AccumT{};
}

// init op (the fixed order's reduction of item(0 .. n - 1)), or init for n == 0.
template <typename AccumT, typename InputT, typename ItemT, typename OpT>
AccumT fixed_order_reduce(const ItemT& item, std::size_t n, OpT op, AccumT init)
{
  if (n == 0)
  {
    return init;
  }
  std::vector<AccumT> sums;
  AccumT total = fixed_order_pass_sum<AccumT, InputT>(item, n, op, sums);
  while (sums.size() > 1)
  {
    const std::vector<AccumT> in = sums;
    total                        = fixed_order_pass_sum<AccumT, AccumT>(
      [&](std::size_t i) {
        return in[i];
      },
      in.size(), op, sums);
  }
  return static_cast<AccumT>(op(init, total));
}

// The gpu_to_gpu scan (atoms of rounds, each lane's items folded left to right, the lanes' totals scanned by the
// Kogge-Stone network, atoms' prefixes the left fold of the aggregates before them, an atom's carry starting at init
// op its prefix) of item(0 .. n - 1) by `op` in AccumT: inclusive or exclusive, from `init` where it has a value (an
// exclusive scan without one gives its first item AccumT{}). InputT decides the atom's shape, as the input's value
// type does on the device.
template <typename AccumT, typename InputT, typename ItemT, typename OpT>
std::vector<AccumT> fixed_order_scan(const ItemT& item, std::size_t n, OpT op, bool inclusive,
                                     std::optional<AccumT> init)
{
  constexpr int V         = strata::detail::reduce_atoms::vector_items_v<InputT>;
  constexpr int R         = strata::detail::scan_atoms::ROUNDS;
  constexpr std::size_t A = strata::detail::scan_atoms::atom_items_v<InputT>;
  using maybe             = std::optional<AccumT>;
  const auto join         = [&](const maybe& a, const maybe& b) -> maybe {
    if (!b)
    {
      return a;
    }
    if (!a)
    {
      return b;
    }
    return static_cast<AccumT>(op(*a, *b));
  };
  constexpr int C = strata::detail::scan_atoms::CHUNK_ATOMS;
  std::vector<AccumT> out(n);
  maybe chunk_prefix; // the chunk's: the left fold of the chunks' aggregates before it
  maybe exclusive;    // the atom's: the chunk's prefix, then its atoms' aggregates before it, left to right
  maybe chunk;        // the chunk's aggregate so far
  for (std::size_t base = 0; base < n; base += A)
  {
    if ((base / A) % C == 0)
    {
      chunk_prefix = join(chunk_prefix, chunk);
      exclusive    = chunk_prefix;
      chunk.reset();
    }
    const std::size_t left = n - base;
    maybe carry            = join(init, exclusive);
    maybe aggregate;
    for (int r = 0; r < R; ++r)
    {
      AccumT s[32][V];
      int present[32];
      maybe scanned[32];
      for (int l = 0; l < 32; ++l)
      {
        const std::size_t at = static_cast<std::size_t>((r * 32 + l) * V);
        present[l]           = at >= left ? 0 : static_cast<int>(std::min<std::size_t>(V, left - at));
        for (int w = 0; w < present[l]; ++w)
        {
          const AccumT x = static_cast<AccumT>(item(base + at + w));
          s[l][w]        = w == 0 ? x : static_cast<AccumT>(op(s[l][w - 1], x));
        }
        scanned[l] = present[l] > 0 ? maybe(s[l][present[l] - 1]) : maybe();
      }
      for (int distance = 1; distance < 32; distance *= 2)
      {
        maybe next[32];
        for (int l = 0; l < 32; ++l)
        {
          next[l] = l >= distance ? join(scanned[l - distance], scanned[l]) : scanned[l];
        }
        std::copy(next, next + 32, scanned);
      }
      int last_lane = -1;
      for (int l = 0; l < 32; ++l)
      {
        last_lane = present[l] > 0 ? l : last_lane;
      }
      for (int l = 0; l < 32; ++l)
      {
        const maybe prefix   = join(carry, l > 0 ? scanned[l - 1] : maybe());
        const std::size_t at = base + static_cast<std::size_t>((r * 32 + l) * V);
        for (int w = 0; w < present[l]; ++w)
        {
          out[at + w] = inclusive ? *join(prefix, maybe(s[l][w]))
                      : w == 0    ? prefix.value_or(AccumT{})
                                  : *join(prefix, maybe(s[l][w - 1]));
        }
      }
      const maybe total = last_lane >= 0 ? scanned[last_lane] : maybe();
      carry             = join(carry, total);
      aggregate         = join(aggregate, total);
    }
    exclusive = join(exclusive, aggregate);
    chunk     = join(chunk, aggregate);
  }
  return out;
}
// The fixed order's scan by key of values[0 .. n) under keys (== starts no run): the gpu_to_gpu scan of (head, value)
// pairs under the segmented sum, inclusive (each pair's value) or exclusive (init at a run's first item, init plus the
// exclusive pair's value elsewhere). The plus is the host's, written here.
template <typename V, typename K>
std::vector<V> fixed_order_sum_by_key(const std::vector<K>& keys, const std::vector<V>& values, bool inclusive,
                                      V init = V{})
{
  using pair_t         = strata::detail::scan::segmented_value<V>;
  const std::size_t n  = values.size();
  const auto segmented = [](const pair_t& a, const pair_t& b) {
    return b.head ? b : pair_t{a.head, static_cast<V>(a.value + b.value)};
  };
  const auto head = [&](std::size_t i) {
    return i == 0 || !(keys[i - 1] == keys[i]);
  };
  const auto item = [&](std::size_t i) {
    return pair_t{head(i), values[i]};
  };
  const std::vector<pair_t> pairs =
    fixed_order_scan<pair_t, pair_t>(item, n, segmented, inclusive, std::optional<pair_t>());
  std::vector<V> out(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    out[i] = inclusive ? pairs[i].value : head(i) ? init : static_cast<V>(init + pairs[i].value);
  }
  return out;
}

// ReduceByKey's results from an inclusive scan by key: each run's last key and last scanned value, in run order.
template <typename K, typename V>
void runs_of_scan(const std::vector<K>& keys, const std::vector<V>& scanned, std::vector<K>& run_keys,
                  std::vector<V>& run_values)
{
  run_keys.clear();
  run_values.clear();
  for (std::size_t i = 0; i < keys.size(); ++i)
  {
    if (i + 1 == keys.size() || !(keys[i] == keys[i + 1]))
    {
      run_keys.push_back(keys[i]);
      run_values.push_back(scanned[i]);
    }
  }
}

// Keys in runs of 1 to 64 from a fixed generator (no standard distribution, whose results differ between standard
// libraries): the inputs of recorded hashes.
inline std::vector<int> recorded_run_keys(std::size_t n, std::mt19937_64 rng)
{
  std::vector<int> keys(n);
  int key = 0;
  for (std::size_t i = 0; i < n;)
  {
    const std::size_t run = 1 + static_cast<std::size_t>(rng() % 64);
    for (std::size_t j = 0; j < run && i < n; ++j, ++i)
    {
      keys[i] = key;
    }
    ++key;
  }
  return keys;
}
} // namespace strata_test
