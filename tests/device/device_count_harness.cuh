// Shared by the device_count tests: the bounds and counts they try, and the check that a call given its count in
// device memory writes the same bytes as the call given that count on the host.
#pragma once

#include <strata/util/device_count.cuh>

#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace count_test
{
using strata_test::device_buffer;

// The bounds the counts range under: within one tile of every family, and over many tiles (past the single-block
// paths of the sorts and of DeviceReduce), lowered under compute-sanitizer.
inline std::vector<std::size_t> bounds()
{
  return strata_test::sizes_within_cap({std::size_t(3001), (std::size_t(1) << 18) + 77});
}

// The counts tried under `bound`: 0, 1, a few inside, bound - 1 and bound.
inline std::vector<long long> counts_under(std::size_t bound)
{
  const long long b        = static_cast<long long>(bound);
  std::vector<long long> c = {0, 1, 2, 997, b / 3 + 1, b - 1, b};
  c.erase(std::remove_if(c.begin(), c.end(),
                         [&](long long x) {
                           return x < 0 || x > b;
                         }),
          c.end());
  std::sort(c.begin(), c.end());
  c.erase(std::unique(c.begin(), c.end()), c.end());
  return c;
}

// The bytes of the buffers a call wrote.
using bytes_t = std::vector<unsigned char>;
template <typename T>
void append(bytes_t& out, const device_buffer<T>& d)
{
  const std::vector<T> h = d.download();
  const auto* p          = reinterpret_cast<const unsigned char*>(h.data());
  out.insert(out.end(), p, p + h.size() * sizeof(T));
}
template <typename... Ts>
bytes_t bytes_of(const device_buffer<Ts>&... d)
{
  bytes_t out;
  (append(out, d), ...);
  return out;
}

// A two-phase call: sizes its temporary storage, allocates it, runs and waits.
template <typename CallT>
void two_phase(CallT&& call)
{
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(call(nullptr, bytes));
  device_buffer<char> temp(bytes);
  STRATA_TEST_CUDA(call(temp.data(), bytes));
  STRATA_TEST_SYNC();
}

// Runs `call(num_items)` (which allocates its outputs poisoned, runs and returns their bytes) with the count on the
// host and with the count in device memory as a CountT, for every count under every bound, a count above the bound
// and, for a signed CountT, a negative one, and requires the same bytes.
template <typename CountT, typename CallT>
void require_same_as_host_count(const char* name, CallT&& call)
{
  for (const std::size_t bound : bounds())
  {
    if (bound > static_cast<std::size_t>(std::numeric_limits<CountT>::max()) - 5)
    {
      continue; // the bound and a count above it must be CountTs
    }
    std::vector<std::pair<long long, long long>> cases; // (count in device memory, the host count it stands for)
    for (const long long n : counts_under(bound))
    {
      cases.emplace_back(n, n);
    }
    cases.emplace_back(static_cast<long long>(bound) + 5, static_cast<long long>(bound));
    if (std::is_signed<CountT>::value)
    {
      cases.emplace_back(-3, 0);
    }
    device_buffer<CountT> d_count(1);
    for (const auto& [stored, n] : cases)
    {
      INFO(name << ": bound " << bound << ", count " << stored);
      d_count.upload({static_cast<CountT>(stored)});
      const bytes_t host   = call(static_cast<long long>(n), bound);
      const bytes_t device = call(strata::device_count<CountT>(d_count.data(), static_cast<CountT>(bound)), bound);
      REQUIRE(host.size() == device.size());
      REQUIRE(std::memcmp(host.data(), device.data(), host.size()) == 0);
    }
  }
}

// Inputs of the whole bound: random values, or runs of random lengths (mean about 4) for the run-based families.
template <typename T>
std::vector<T> random_items(std::size_t n, std::uint64_t salt)
{
  return strata_test::random_vector<T>(n, salt);
}
} // namespace count_test
