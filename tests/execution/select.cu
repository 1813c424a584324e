// strata::copy_if, remove_copy_if, remove_copy, remove_if, remove, unique, unique_copy, unique_count, unique_by_key,
// unique_by_key_copy, partition, stable_partition, partition_copy, stable_partition_copy and their *_into forms
// against std:: on the host: items of 1 and 8 bytes and a 16-byte struct (int32 in the *_into, graph and error
// cases), the size classes around the selection's tile, selection rates 0, 1, 50, 99 and 100 percent, runs all
// equal, all different and of mean lengths 2 and 1000, in-place forms, stencils, raw pointers, thrust::device_ptr and
// device_vector iterators. Every call returns the end of its output, takes at most one allocation from the policy's
// allocator (none for an empty range) and gives it back on the policy's stream. The *_into forms return before their
// kernels run and replay from a CUDA graph on fresh data; a failing allocator makes every algorithm throw
// strata::cuda_error naming it, with its data untouched.
#include "support.cuh"

#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <numeric>
#include <vector>

namespace
{
// Whether an item is selected: a hash of its value below `percent` of 100 (the same on the host and the device; for
// custom_t, of its members, not its padding).
struct hash_below
{
  unsigned percent;

  __host__ __device__ static std::uint32_t mix(std::uint32_t h, std::uint64_t bits, int bytes)
  {
    for (int i = 0; i < bytes; ++i)
    {
      h = (h ^ static_cast<std::uint32_t>((bits >> (8 * i)) & 0xff)) * 16777619u;
    }
    return h;
  }
  template <typename T>
  __host__ __device__ static std::uint32_t hash(const T& x)
  {
    static_assert(sizeof(T) <= sizeof(std::uint64_t), "items of at most 8 bytes, or custom_t");
    std::uint64_t bits = 0;
    memcpy(&bits, &x, sizeof(T));
    return mix(2166136261u, bits, static_cast<int>(sizeof(T)));
  }
  __host__ __device__ static std::uint32_t hash(const strata_test::custom_t& x)
  {
    return mix(mix(mix(2166136261u, static_cast<std::uint64_t>(x.a), 8), static_cast<std::uint32_t>(x.b), 4),
               static_cast<std::uint16_t>(x.c), 2);
  }
  template <typename T>
  __host__ __device__ bool operator()(const T& x) const
  {
    return hash(x) % 100u < percent;
  }
};

// Equal under the hash's lowest bit of the first member: an equivalence whose runs hold different items.
struct same_parity
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return (hash_below::hash(a) & 1u) == (hash_below::hash(b) & 1u);
  }
};

// The selection's tile for items of T: the size classes gather around it.
template <typename T>
constexpr std::size_t select_tile()
{
  return strata::detail::select::policy_hub<T>::MaxPolicy::SelectPolicy::TILE_ITEMS;
}

// std::unique_copy's result under an adjacent-items predicate (as Thrust and strata call it: item i is kept unless
// pred(item i - 1, item i)).
template <typename T, typename Pred>
std::vector<T> host_unique(const std::vector<T>& h, Pred pred)
{
  std::vector<T> out;
  for (std::size_t i = 0; i < h.size(); ++i)
  {
    if (i == 0 || !pred(h[i - 1], h[i]))
    {
      out.push_back(h[i]);
    }
  }
  return out;
}

// Checks one call: its end offset, the output's first `expected.size()` items, one allocation at most (none for n
// == 0), everything given back on the policy's stream.
template <typename T>
void check_output(exec_test::logged_stream& stream, std::size_t n, std::ptrdiff_t end_offset,
                  const thrust::device_vector<T>& out, const std::vector<T>& expected)
{
  REQUIRE(end_offset == static_cast<std::ptrdiff_t>(expected.size()));
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(out, expected.size()), expected);
  CHECK(stream.alloc.log().allocations() <= (n == 0 ? 0u : 1u)); // none for a single tile of a selection
  stream.require_clean();
  stream.alloc.log().clear();
}

#define SELECT_TEST_TYPES std::int8_t, std::int64_t, strata_test::custom_t
} // namespace

TEMPLATE_TEST_CASE("strata::copy_if, remove_copy_if, remove_copy, remove_if and remove match std:: for every size "
                   "class and selection rate",
                   "[execution][select]", SELECT_TEST_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  const auto& p = stream.policy;
  for (const std::size_t n : exec_test::sizes(select_tile<T>(), 601))
  {
    CAPTURE(n);
    const std::vector<T> h                   = strata_test::random_vector<T>(n, 31 * n + 1);
    const std::vector<T> stencil             = strata_test::random_vector<T>(n, 37 * n + 2);
    thrust::device_vector<T> d               = exec_test::upload(h);
    const thrust::device_vector<T> d_stencil = exec_test::upload(stencil);
    thrust::device_vector<T> out(n);
    for (const unsigned percent : {0u, 1u, 50u, 99u, 100u})
    {
      CAPTURE(percent);
      const hash_below pred{percent};
      std::vector<T> kept, removed, kept_by_stencil, removed_by_stencil;
      for (std::size_t i = 0; i < n; ++i)
      {
        (pred(h[i]) ? kept : removed).push_back(h[i]);
        (pred(stencil[i]) ? kept_by_stencil : removed_by_stencil).push_back(h[i]);
      }
      stream.alloc.log().clear();
      exec_test::for_each_input_kind(d, [&](auto first, auto last) {
        const auto o = exec_test::output_like(first, out);
        exec_test::poison(out);
        check_output(stream, n, strata::copy_if(p, first, last, o, pred) - o, out, kept);
        exec_test::poison(out);
        check_output(stream, n, strata::remove_copy_if(p, first, last, o, pred) - o, out, removed);
      });
      const T* s = thrust::raw_pointer_cast(d_stencil.data());
      exec_test::poison(out);
      check_output(stream, n, strata::copy_if(p, d.begin(), d.end(), s, out.begin(), pred) - out.begin(), out,
                   kept_by_stencil);
      exec_test::poison(out);
      check_output(stream, n, strata::remove_copy_if(p, d.begin(), d.end(), s, out.begin(), pred) - out.begin(), out,
                   removed_by_stencil);

      // In place.
      check_output(stream, n, strata::remove_if(p, d.begin(), d.end(), pred) - d.begin(), d, removed);
      exec_test::upload_into(d, h);
      check_output(stream, n, strata::remove_if(p, d.begin(), d.end(), s, pred) - d.begin(), d, removed_by_stencil);
      exec_test::upload_into(d, h);
    }
    if (n > 0)
    {
      const T value = h[n / 2];
      std::vector<T> without;
      std::copy_if(h.begin(), h.end(), std::back_inserter(without), [&](const T& x) {
        return !(x == value);
      });
      exec_test::poison(out);
      check_output(stream, n, strata::remove_copy(p, d.begin(), d.end(), out.begin(), value) - out.begin(), out,
                   without);
      check_output(stream, n, strata::remove(p, d.begin(), d.end(), value) - d.begin(), d, without);
      exec_test::upload_into(d, h);
    }
  }
}

TEMPLATE_TEST_CASE("strata::unique, unique_copy, unique_count, unique_by_key and unique_by_key_copy match std:: for "
                   "every size class and run length",
                   "[execution][select][unique]", SELECT_TEST_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  const auto& p = stream.policy;
  for (const std::size_t n : exec_test::sizes(select_tile<T>(), 603))
  {
    CAPTURE(n);
    const std::vector<std::int64_t> values             = strata_test::random_vector<std::int64_t>(n, 41 * n + 3);
    const thrust::device_vector<std::int64_t> d_values = exec_test::upload(values);
    for (const std::size_t mean : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(1000)})
    {
      CAPTURE(mean);
      const std::vector<T> h = exec_test::with_runs(strata_test::random_vector<T>(n, 43 * n + 4), mean, 47 * n + mean);
      thrust::device_vector<T> d = exec_test::upload(h);
      thrust::device_vector<T> out(n);
      const std::vector<T> distinct  = host_unique(h, cuda::std::equal_to<>{});
      const std::vector<T> by_parity = host_unique(h, same_parity{});
      stream.alloc.log().clear();

      exec_test::for_each_input_kind(d, [&](auto first, auto last) {
        const auto o = exec_test::output_like(first, out);
        exec_test::poison(out);
        check_output(stream, n, strata::unique_copy(p, first, last, o) - o, out, distinct);
        exec_test::poison(out);
        check_output(stream, n, strata::unique_copy(p, first, last, o, same_parity{}) - o, out, by_parity);
        CHECK(strata::unique_count(p, first, last) == static_cast<std::ptrdiff_t>(distinct.size()));
        CHECK(strata::unique_count(p, first, last, same_parity{}) == static_cast<std::ptrdiff_t>(by_parity.size()));
        stream.alloc.log().clear();
      });
      check_output(stream, n, strata::unique(p, d.begin(), d.end()) - d.begin(), d, distinct);
      exec_test::upload_into(d, h);
      check_output(stream, n, strata::unique(p, d.begin(), d.end(), same_parity{}) - d.begin(), d, by_parity);
      exec_test::upload_into(d, h);

      // By key: each kept key's value is the value at its run's first key.
      std::vector<std::int64_t> kept_values, parity_values;
      for (std::size_t i = 0; i < n; ++i)
      {
        if (i == 0 || !(h[i - 1] == h[i]))
        {
          kept_values.push_back(values[i]);
        }
        if (i == 0 || !same_parity{}(h[i - 1], h[i]))
        {
          parity_values.push_back(values[i]);
        }
      }
      thrust::device_vector<std::int64_t> value_out(n);
      exec_test::poison(out);
      exec_test::poison(value_out);
      const auto copied =
        strata::unique_by_key_copy(p, d.begin(), d.end(), d_values.begin(), out.begin(), value_out.begin());
      CHECK(copied.second - value_out.begin() == copied.first - out.begin());
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(value_out, kept_values.size()), kept_values);
      check_output(stream, n, copied.first - out.begin(), out, distinct);

      thrust::device_vector<std::int64_t> values_in_place = d_values;
      const auto in_place = strata::unique_by_key(p, d.begin(), d.end(), values_in_place.begin(), same_parity{});
      CHECK(in_place.second - values_in_place.begin() == in_place.first - d.begin());
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(values_in_place, parity_values.size()), parity_values);
      check_output(stream, n, in_place.first - d.begin(), d, by_parity);
    }
  }
}

TEMPLATE_TEST_CASE("strata::partition, stable_partition, partition_copy and stable_partition_copy match std:: for "
                   "every size class and selection rate",
                   "[execution][select][partition]", SELECT_TEST_TYPES)
{
  using T = TestType;
  exec_test::logged_stream stream;
  const auto& p = stream.policy;
  for (const std::size_t n : exec_test::sizes(select_tile<T>(), 605))
  {
    CAPTURE(n);
    const std::vector<T> h     = strata_test::random_vector<T>(n, 53 * n + 5);
    thrust::device_vector<T> d = exec_test::upload(h);
    thrust::device_vector<T> yes(n), no(n);
    for (const unsigned percent : {0u, 1u, 50u, 99u, 100u})
    {
      CAPTURE(percent);
      const hash_below pred{percent};
      std::vector<T> selected, rejected;
      for (const T& x : h)
      {
        (pred(x) ? selected : rejected).push_back(x);
      }
      std::vector<T> stable = selected;
      stable.insert(stable.end(), rejected.begin(), rejected.end());
      std::vector<T> thrust_layout = selected; // the rejected ones in reverse order
      thrust_layout.insert(thrust_layout.end(), rejected.rbegin(), rejected.rend());
      stream.alloc.log().clear();

      exec_test::for_each_input_kind(d, [&](auto first, auto last) {
        const auto y = exec_test::output_like(first, yes);
        const auto o = exec_test::output_like(first, no);
        exec_test::poison(yes);
        exec_test::poison(no);
        const auto ends = strata::partition_copy(p, first, last, y, o, pred);
        CHECK(ends.second - o == static_cast<std::ptrdiff_t>(rejected.size()));
        STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(no, rejected.size()), rejected);
        check_output(stream, n, ends.first - y, yes, selected);
        const auto stable_ends = strata::stable_partition_copy(p, first, last, y, o, pred);
        CHECK(stable_ends.second - o == static_cast<std::ptrdiff_t>(rejected.size()));
        check_output(stream, n, stable_ends.first - y, yes, selected);
      });

      check_output(stream, n, strata::partition(p, d.begin(), d.end(), pred) - d.begin(), d, selected);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), thrust_layout);
      exec_test::upload_into(d, h);
      const auto middle = strata::stable_partition(p, d.begin(), d.end(), pred);
      stream.sync();
      check_output(stream, n, middle - d.begin(), d, selected);
      STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), stable);
      exec_test::upload_into(d, h);
    }
  }
}

TEST_CASE("strata's *_into compaction forms leave the count in device memory and never wait", "[execution][select]")
{
  exec_test::logged_stream stream;
  const auto& p            = stream.policy;
  const std::size_t n      = 1000003;
  const std::vector<int> h = exec_test::with_runs(strata_test::random_vector<int>(n, 61), 2, 62);
  const hash_below pred{50};
  std::vector<int> kept, removed;
  for (const int x : h)
  {
    (pred(x) ? kept : removed).push_back(x);
  }
  const std::vector<int> distinct = host_unique(h, cuda::std::equal_to<>{});
  thrust::device_vector<long long> count(2, -1);
  thrust::device_vector<int> out(n), other(n);

  // Behind a closed gate: the call returns, then the work runs once the gate opens.
  exec_test::check_behind_gate(stream, h, kept, [&](auto first, auto last, auto o) {
    strata::copy_if_into(p, first, last, o, count.begin(), pred);
  });
  CHECK(count[0] == static_cast<long long>(kept.size()));
  exec_test::check_behind_gate(stream, h, distinct, [&](auto first, auto last, auto o) {
    strata::unique_copy_into(p, first, last, o, count.begin());
  });
  CHECK(count[0] == static_cast<long long>(distinct.size()));

  thrust::device_vector<int> d = exec_test::upload(h);
  strata::remove_if_into(p, d.begin(), d.end(), count.begin(), pred);
  stream.sync();
  CHECK(count[0] == static_cast<long long>(removed.size()));
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(d, removed.size()), removed);

  exec_test::upload_into(d, h);
  strata::unique_into(p, d.begin(), d.end(), thrust::raw_pointer_cast(count.data()));
  stream.sync();
  CHECK(count[0] == static_cast<long long>(distinct.size()));
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(d, distinct.size()), distinct);

  exec_test::upload_into(d, h);
  strata::partition_copy_into(p, d.begin(), d.end(), out.begin(), other.begin(), count.begin(), pred);
  stream.sync();
  CHECK(count[0] == static_cast<long long>(kept.size()));
  CHECK(count[1] == 0);
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(out, kept.size()), kept);
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(other, removed.size()), removed);

  const thrust::device_vector<int> stencil = exec_test::upload(h);
  thrust::device_vector<int> values        = exec_test::upload(h);
  strata::copy_if_into(p, d.begin(), d.end(), stencil.begin(), out.begin(), count.begin(), pred);
  strata::unique_by_key_copy_into(p, d.begin(), d.end(), values.begin(), out.begin(), other.begin(), count.begin() + 1);
  stream.sync();
  CHECK(count[0] == static_cast<long long>(kept.size()));
  CHECK(count[1] == static_cast<long long>(distinct.size()));
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(out, distinct.size()), distinct);
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(other, distinct.size()), distinct);

  // An empty range writes 0 in stream order.
  strata::copy_if_into(p, d.begin(), d.begin(), out.begin(), count.begin(), pred);
  stream.sync();
  CHECK(count[0] == 0);
  stream.require_clean();
}

TEST_CASE("strata::copy_if_into and unique_copy_into captured into a CUDA graph replay on fresh data",
          "[execution][select][graph]")
{
  exec_test::logged_stream stream;
  const auto& p       = stream.policy;
  const std::size_t n = 100003;
  thrust::device_vector<int> d(n), out(n), unique_out(n);
  thrust::device_vector<long long> counts(2, -1);
  const hash_below pred{30};

  cudaGraph_t graph = nullptr;
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
  strata::copy_if_into(p, d.begin(), d.end(), out.begin(), counts.begin(), pred);
  strata::unique_copy_into(p, out.begin(), out.end(), unique_out.begin(), counts.begin() + 1);
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream.get(), &graph));
  cudaGraphExec_t exec = nullptr;
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (const std::uint64_t salt : {71u, 72u, 73u})
  {
    CAPTURE(salt);
    const std::vector<int> h = exec_test::with_runs(strata_test::random_vector<int>(n, salt), 3, salt);
    exec_test::upload_into(d, h);
    std::vector<int> kept;
    std::copy_if(h.begin(), h.end(), std::back_inserter(kept), pred);
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream.get()));
    stream.sync();
    CHECK(counts[0] == static_cast<long long>(kept.size()));
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::prefix(out, kept.size()), kept);
    const std::vector<int> all_out = exec_test::download(out);
    // unique_copy_into read the whole of `out`: this replay's kept items, then what earlier replays left.
    CHECK(counts[1] == static_cast<long long>(host_unique(all_out, cuda::std::equal_to<>{}).size()));
  }
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  stream.require_clean();
}

TEST_CASE("strata's compaction algorithms throw strata::cuda_error naming themselves when the allocator fails, "
          "and refuse to synchronize a captured stream",
          "[execution][select][errors]")
{
  exec_test::logged_stream stream;
  const auto& p                = stream.policy;
  const std::size_t n          = 100003;
  const std::vector<int> h     = exec_test::with_runs(strata_test::random_vector<int>(n, 81), 2, 82);
  thrust::device_vector<int> d = exec_test::upload(h);
  thrust::device_vector<int> out(n, 7), other(n, 7);
  const hash_below pred{50};
  const auto untouched = [&] {
    stream.sync();
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), h);
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), std::vector<int>(n, 7));
  };
  const auto fails = [&](const char* name, auto call) {
    exec_test::require_allocation_failure(stream, name, call, untouched);
  };
  fails("strata::copy_if", [&] {
    (void) strata::copy_if(p, d.begin(), d.end(), out.begin(), pred);
  });
  fails("strata::remove_if", [&] {
    (void) strata::remove_if(p, d.begin(), d.end(), pred);
  });
  fails("strata::unique", [&] {
    (void) strata::unique(p, d.begin(), d.end());
  });
  fails("strata::unique_by_key", [&] {
    (void) strata::unique_by_key(p, d.begin(), d.end(), out.begin());
  });
  fails("strata::partition", [&] {
    (void) strata::partition(p, d.begin(), d.end(), pred);
  });
  fails("strata::stable_partition", [&] {
    (void) strata::stable_partition(p, d.begin(), d.end(), pred);
  });
  fails("strata::partition_copy", [&] {
    (void) strata::partition_copy(p, d.begin(), d.end(), out.begin(), other.begin(), pred);
  });
  fails("strata::copy_if_into", [&] {
    strata::copy_if_into(p, d.begin(), d.end(), out.begin(), other.begin(), pred);
  });

  // A call that returns a count on the host cannot be captured: it throws before enqueueing anything.
  exec_test::require_capture_refused(stream.get(), [&] {
    (void) strata::copy_if(p, d.begin(), d.end(), out.begin(), pred);
  });
  untouched();
}
