// AgentSelectBulk (the tiles in shared memory, loaded by bulk copies, the look-back in a warp of its own) through
// DispatchSelect with hubs that take it at any size: blocks of 64 threads, the look-back warp and one worker with 3
// items a lane (tiles of 96 items: many tiles, and last tiles of every remainder, at small sizes), and of 256 threads
// with 32 and 16 items, for If (out of place and in place), Unique and Partition::If against std::copy_if,
// std::unique_copy and std::stable_partition (the rejected part reversed) on the host: int32, int64, uint8 and a user
// struct, every remainder of a few tiles, larger sizes, selection rates 0, 1, 50, 99 and 100 %, runs of mean length 1,
// 2 and 1000. The output buffers are poisoned: nothing past the selected items (If, Unique) may be written. No
// library hub takes this agent yet; DeviceSelect's own tests cover the register agent.
#include <strata/device/device_select.cuh>

#include <cuda/std/functional>

#include "test_util.cuh"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <ostream>
#include <random>
#include <vector>

namespace
{
// A user type of 8 bytes, compared member by member.
struct pair32
{
  int a;
  int b;

  __host__ __device__ friend bool operator==(const pair32& x, const pair32& y)
  {
    return x.a == y.a && x.b == y.b;
  }
  friend std::ostream& operator<<(std::ostream& os, const pair32& v)
  {
    return os << "{" << v.a << ", " << v.b << "}";
  }
};
} // namespace

namespace strata_test
{
template <>
struct random_traits<pair32>
{
  static pair32 draw(std::mt19937_64& rng)
  {
    return pair32{static_cast<int>(rng()), static_cast<int>(rng() >> 40)};
  }
};
} // namespace strata_test

namespace
{
// A hub whose sm_90 policy takes AgentSelectBulk at any size, in tiles of THREADS x ITEMS.
template <int THREADS, int ITEMS>
struct bulk_hub
{
  struct Policy : strata::ChainedPolicy<300, Policy, Policy>
  {
    using SelectPolicy     = strata::AgentSelectPolicy<128, 4, strata::BLOCK_LOAD_WARP_TRANSPOSE, strata::LOAD_PLAIN,
                                                   strata::BLOCK_SCAN_WARP_SCANS>;
    using BulkSelectPolicy = strata::AgentSelectBulkPolicy<THREADS, ITEMS, 32, 256, 4, 1, 0>;
  };
  using MaxPolicy = Policy;
};

// Where a value falls in [0, 100) (by its bits).
__host__ __device__ inline unsigned bucket(long long x)
{
  return static_cast<unsigned>(static_cast<unsigned long long>(x) % 100u);
}
__host__ __device__ inline unsigned bucket(const pair32& x)
{
  return bucket(static_cast<long long>(x.a));
}

// Selects about `rate` % of random values.
struct below_rate
{
  unsigned rate;
  template <typename T>
  __host__ __device__ bool operator()(const T& x) const
  {
    return bucket(x) < rate;
  }
};

// n values in runs of random lengths from [1, max_run].
template <typename T>
std::vector<T> runs_of(std::size_t n, std::size_t max_run, std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  std::vector<T> v(n);
  std::size_t i = 0;
  while (i < n)
  {
    const T value         = strata_test::random_value<T>(rng);
    const std::size_t end = std::min(n, i + 1 + static_cast<std::size_t>(rng() % max_run));
    std::fill(v.begin() + static_cast<std::ptrdiff_t>(i), v.begin() + static_cast<std::ptrdiff_t>(end), value);
    i = end;
  }
  return v;
}

// The sizes for a tile of `tile` items: every remainder of the first three tiles (of small tiles; of larger ones a
// few: none, 1, 2, 31, 33, half a tile, a tile less 2 and less 1), and larger sizes.
std::vector<std::size_t> bulk_sizes(std::size_t tile)
{
  std::vector<std::size_t> s;
  if (tile <= 256)
  {
    s = strata_test::remainder_sweep(3 * tile + 1, tile);
  }
  else
  {
    for (std::size_t k = 0; k < 4; ++k)
    {
      for (const std::size_t r : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(31), std::size_t(33),
                                  tile / 2, tile - 2, tile - 1})
      {
        s.push_back(k * tile + r);
      }
    }
  }
  for (const std::size_t n : {std::size_t(65537), std::size_t(1000003), (std::size_t(1) << 20) + 1})
  {
    if (n <= strata_test::capped(n))
    {
      s.push_back(n);
    }
  }
  return s;
}

// Runs one selection of MODE (PARTITION: DevicePartition's layout) through DispatchSelect with HubT.
template <typename HubT, strata::detail::select::mode MODE, bool PARTITION, typename T, typename OpT>
void run_select(const T* d_in, T* d_out, int* d_num, std::size_t n, OpT op)
{
  using DispatchT =
    strata::DispatchSelect<const T*, strata::detail::select::no_flags, T*, int*, OpT, cuda::std::equal_to<>,
                           std::uint32_t, MODE, PARTITION, strata::detail::select::no_values, HubT>;
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(DispatchT::Dispatch(nullptr, bytes, d_in, strata::detail::select::no_flags{}, d_out, d_num, op,
                                       cuda::std::equal_to<>{}, static_cast<std::uint32_t>(n), nullptr));
  strata_test::device_buffer<char> temp(bytes);
  STRATA_TEST_CUDA(DispatchT::Dispatch(temp.data(), bytes, d_in, strata::detail::select::no_flags{}, d_out, d_num, op,
                                       cuda::std::equal_to<>{}, static_cast<std::uint32_t>(n), nullptr));
  STRATA_TEST_SYNC();
}

template <typename HubT, typename T>
void check_bulk_selections(std::uint64_t salt)
{
  using strata_test::device_buffer;
  using mode                 = strata::detail::select::mode;
  constexpr std::size_t TILE = HubT::MaxPolicy::BulkSelectPolicy::TILE_ITEMS;
  for (const std::size_t n : bulk_sizes(TILE))
  {
    const std::vector<T> in = strata_test::random_vector<T>(n, salt + n);
    const device_buffer<T> d_in(in);
    for (const unsigned rate : {0u, 1u, 50u, 99u, 100u})
    {
      INFO("n " << n << ", rate " << rate << " %");
      const below_rate op{rate};
      std::vector<T> selected;
      std::copy_if(in.begin(), in.end(), std::back_inserter(selected), op);

      // If: the selected items, nothing after them written.
      device_buffer<T> d_out(n);
      device_buffer<int> d_num(1);
      run_select<HubT, mode::predicate, false>(d_in.data(), d_out.data(), d_num.data(), n, op);
      REQUIRE(d_num.download()[0] == static_cast<int>(selected.size()));
      const std::vector<T> out = d_out.download();
      REQUIRE(std::equal(selected.begin(), selected.end(), out.begin()));
      REQUIRE(strata_test::all_poisoned(
        std::vector<T>(out.begin() + static_cast<std::ptrdiff_t>(selected.size()), out.end())));

      // If in place.
      device_buffer<T> d_data(in);
      run_select<HubT, mode::predicate, false>(d_data.data(), d_data.data(), d_num.data(), n, op);
      REQUIRE(d_num.download()[0] == static_cast<int>(selected.size()));
      const std::vector<T> data = d_data.download();
      REQUIRE(std::equal(selected.begin(), selected.end(), data.begin()));

      // Partition::If: the selected items, then the rejected ones in reverse order.
      std::vector<T> expected = selected;
      std::vector<T> rejected;
      std::copy_if(in.begin(), in.end(), std::back_inserter(rejected), [&](const T& x) {
        return !op(x);
      });
      expected.insert(expected.end(), rejected.rbegin(), rejected.rend());
      device_buffer<T> d_parts(n);
      run_select<HubT, mode::predicate, true>(d_in.data(), d_parts.data(), d_num.data(), n, op);
      REQUIRE(d_num.download()[0] == static_cast<int>(selected.size()));
      REQUIRE(d_parts.download() == expected);
    }
    for (const std::size_t max_run : {std::size_t(1), std::size_t(3), std::size_t(1999)})
    {
      INFO("n " << n << ", runs of at most " << max_run);
      const std::vector<T> runs = runs_of<T>(n, max_run, salt + 7 * n + max_run);
      std::vector<T> firsts;
      std::unique_copy(runs.begin(), runs.end(), std::back_inserter(firsts));
      const device_buffer<T> d_runs(runs);
      device_buffer<T> d_out(n);
      device_buffer<int> d_num(1);
      run_select<HubT, mode::unique, false>(d_runs.data(), d_out.data(), d_num.data(), n,
                                            strata::detail::select::no_select_op{});
      REQUIRE(d_num.download()[0] == static_cast<int>(firsts.size()));
      const std::vector<T> out = d_out.download();
      REQUIRE(std::equal(firsts.begin(), firsts.end(), out.begin()));
      REQUIRE(
        strata_test::all_poisoned(std::vector<T>(out.begin() + static_cast<std::ptrdiff_t>(firsts.size()), out.end())));
    }
  }
}
} // namespace

TEST_CASE("AgentSelectBulk: small tiles, every remainder", "[select][bulk]")
{
  check_bulk_selections<bulk_hub<64, 3>, std::int32_t>(1);
  check_bulk_selections<bulk_hub<64, 3>, std::int64_t>(2);
  check_bulk_selections<bulk_hub<64, 3>, std::uint8_t>(3);
  check_bulk_selections<bulk_hub<64, 3>, pair32>(4);
}

TEST_CASE("AgentSelectBulk: the library's tile shape", "[select][bulk]")
{
  check_bulk_selections<bulk_hub<256, 32>, std::int32_t>(5);
  check_bulk_selections<bulk_hub<256, 16>, std::int64_t>(6);
}
