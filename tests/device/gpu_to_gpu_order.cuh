// The host's emulations of the gpu_to_gpu orders, bit for bit: DeviceReduce's (agent/agent_reduce_atoms.cuh) and
// DeviceScan's (agent/agent_scan_atoms.cuh).
#pragma once

#include <strata/agent/agent_reduce_atoms.cuh>
#include <strata/agent/agent_scan_atoms.cuh>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

namespace strata_test
{
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
// op its prefix) of item(0 .. n - 1) by `op` in AccumT: inclusive or exclusive, from `init` where it has a value
// (an exclusive scan always does). InputT decides the atom's shape, as the input's value type does on the device.
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
                      : w == 0    ? *prefix
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
} // namespace strata_test
