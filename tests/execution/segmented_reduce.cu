// strata::segmented_reduce against per-segment reductions on the host: its three overloads (the sum, init with
// plus<T>, init with a user operator: cuda::maximum<> for numbers, a commutative field-by-field operator for custom_t)
// over items of 1, 4 and 8 bytes and a 16-byte struct, inputs behind raw pointers, thrust::device_ptr, device_vector
// iterators and Thrust's counting and transform iterators, offsets as device_vector<int> iterators and raw int64
// pointers, outputs as raw pointers, thrust::device_ptr and device_vector iterators. Segment mixes: none (offsets
// ranges of 0 and 1 entries: nothing written, nothing enqueued, no storage), one segment (2 entries) of every size
// class at several alignments, all empty, all of one item, tiny, around the tile, long (2^20) among tiny ones, a random
// mixture, offsets that do not start at 0 and that step back (empty and overlapping segments), over totals of 997,
// 100003 and 2^21 items. Every call returns out + the number of segments, writes nothing past it, and gives all the
// storage it takes from the policy's allocator back on the policy's stream (a libcu++ synchronous resource: once the
// stream is done); a call returns before its kernels run (they wait behind a gate); float results are the same bits
// run to run; a captured call replays from a CUDA graph on new items and offsets. Errors (a null output or input with
// segments, a failing allocator, a stream of another device) throw strata::cuda_error naming
// strata::segmented_reduce, leave the output untouched and cudaGetLastError() clean.
#include "support.cuh"
// after support.cuh
#include "segments.cuh"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda/functional>
#include <cuda/std/functional>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace
{
using strata_test::custom_t;

// A warp's sub-tile of items, and the length from which a run of one segment is read in vectors: the sizes around
// which the segment lengths are chosen.
using segmented_policy     = strata::detail::segmented_reduce::policy_hub<int, int>::MaxPolicy::SegmentedReducePolicy;
constexpr std::size_t TILE = segmented_policy::TILE_ITEMS;
constexpr std::size_t FAST_ITEMS = segmented_policy::FAST_ITEMS;

// The length of the long segments: 2^20 items (lowered under compute-sanitizer).
std::size_t long_length()
{
  return strata_test::capped(std::size_t(1) << 20);
}

// -- segment layouts ---------------------------------------------------------------------------------------------

using exec_test::from_lengths;
using exec_test::layout;
using exec_test::lengths_up_to;

// `segments` segments over at most `n` items from a random item near the start: lengths of a random mixture, one
// step in six back to an earlier item (an empty segment, then one that overlaps those before it).
std::vector<long long> random_offsets(std::size_t segments, std::size_t n, std::mt19937_64& rng)
{
  const auto n_ll = static_cast<long long>(n);
  std::vector<long long> offsets{std::uniform_int_distribution<long long>(0, std::min(9LL, n_ll))(rng)};
  for (std::size_t s = 0; s < segments; ++s)
  {
    const long long at = offsets.back();
    if (std::uniform_int_distribution<int>(0, 5)(rng) == 0)
    {
      offsets.push_back(std::uniform_int_distribution<long long>(0, at)(rng));
    }
    else
    {
      offsets.push_back(std::min(n_ll, at + static_cast<long long>(strata_test::mixed_segment_length(rng) % 2000)));
    }
  }
  return offsets;
}

// Every mix of segment lengths the main test runs, over a few totals.
std::vector<layout> layouts(std::uint64_t salt)
{
  std::mt19937_64 rng = strata_test::make_rng(salt);
  const auto uniform  = [&](std::size_t lo, std::size_t hi) {
    return std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
  };
  std::vector<layout> all;
  for (const std::size_t n : strata_test::sizes_within_cap({997, 100003, std::size_t(1) << 21}))
  {
    const std::string of = " (" + std::to_string(n) + " items)";
    all.push_back(from_lengths("one segment of every item" + of, 0, {n}));
    if (n <= 100003)
    {
      all.push_back(from_lengths("segments of one item" + of, 0, std::vector<std::size_t>(n, 1)));
    }
    all.push_back(from_lengths("lengths uniform in [0, 8]" + of, 0, lengths_up_to(n, [&] {
                                 return uniform(0, 8);
                               })));
    all.push_back(from_lengths("lengths uniform in [0, 3 tiles]" + of, 0, lengths_up_to(n, [&] {
                                 return uniform(0, 3 * TILE);
                               })));
    all.push_back(from_lengths("a random mixture of lengths" + of, 0, lengths_up_to(n, [&] {
                                 return strata_test::mixed_segment_length(rng);
                               })));
  }
  all.push_back(from_lengths("3001 empty segments at item 500", 500, std::vector<std::size_t>(3001, 0)));
  {
    std::vector<std::size_t> lengths;
    for (int i = 0; i < 2000; ++i)
    {
      lengths.push_back(uniform(0, 4));
    }
    lengths.insert(lengths.begin() + 1000, long_length() + 3);
    all.push_back(from_lengths("one long segment among 2000 tiny ones", 0, lengths));
  }
  {
    std::vector<std::size_t> lengths{long_length() - 1};
    for (int i = 0; i < 100; ++i)
    {
      lengths.push_back(uniform(0, 3));
    }
    lengths.push_back(long_length() + 1);
    all.push_back(from_lengths("long segments first and last, tiny ones between", 0, lengths));
  }
  {
    std::vector<std::size_t> lengths;
    for (const std::size_t length : {std::size_t(1), FAST_ITEMS - 1, FAST_ITEMS, FAST_ITEMS + 1, TILE - 1, TILE,
                                     TILE + 1, 2 * TILE + 1, 3 * TILE - 1, std::size_t(65537)})
    {
      lengths.push_back(0);
      lengths.push_back(length);
    }
    all.push_back(
      from_lengths("the lengths around the tile and the long-run threshold, between empty segments", 3, lengths));
  }
  all.push_back({"offsets from a random item near the start that sometimes step back (empty, overlapping segments)",
                 random_offsets(5000, 400000, rng)});
  return all;
}

// -- host references ---------------------------------------------------------------------------------------------

// out[s] = init op items[offsets[s]] op ... op items[offsets[s + 1] - 1] in order, init for an empty segment.
template <typename T, typename U, typename Op>
std::vector<T> reference(const std::vector<U>& items, const std::vector<long long>& offsets, T init, Op op)
{
  std::vector<T> out(offsets.size() - 1, init);
  for (std::size_t s = 0; s < out.size(); ++s)
  {
    for (long long i = offsets[s]; i < offsets[s + 1]; ++i)
    {
      out[s] = op(out[s], items[static_cast<std::size_t>(i)]);
    }
  }
  return out;
}

// Commutative and associative on custom_t, field by field: the xor of a, the larger b, the smaller c.
struct custom_mix
{
  __host__ __device__ custom_t operator()(const custom_t& x, const custom_t& y) const
  {
    return custom_t{x.a ^ y.a, x.b < y.b ? y.b : x.b, y.c < x.c ? y.c : x.c};
  }
};

// The user operator of the third overload for items of T, on the device and on the host.
template <typename T>
struct user_op
{
  using device = cuda::maximum<>;
  using host   = strata_test::host_max;
};
template <>
struct user_op<custom_t>
{
  using device = custom_mix;
  using host   = custom_mix;
};

// -- checks ------------------------------------------------------------------------------------------------------

template <typename O>
thrust::device_vector<O> upload_offsets(const std::vector<long long>& offsets)
{
  std::vector<O> v(offsets.size());
  std::transform(offsets.begin(), offsets.end(), v.begin(), [](long long o) {
    return static_cast<O>(o);
  });
  return exec_test::upload(v);
}

// Runs `call()`, a segmented_reduce that writes to `out` from `out_first`, over a poisoned `out`: it must return
// out_first + expected.size(), and `expected` must be there once the stream is done, with nothing written after it.
template <typename T, typename OutputIt, typename Call>
void check_segments(exec_test::gated_stream& stream, thrust::device_vector<T>& out, OutputIt out_first,
                    const std::vector<T>& expected, Call&& call)
{
  exec_test::poison(out);
  const OutputIt end = call();
  CHECK(end - out_first == static_cast<std::ptrdiff_t>(expected.size()));
  stream.sync();
  const std::vector<T> got = exec_test::download(out);
  REQUIRE(got.size() >= expected.size());
  const auto k = static_cast<std::ptrdiff_t>(expected.size());
  STRATA_REQUIRE_EQUAL_VECTORS(std::vector<T>(got.begin(), got.begin() + k), expected);
  CHECK(exec_test::all_poisoned(std::vector<T>(got.begin() + k, got.end())));
}

// i^3 mod 1000: the items of a transform_iterator.
struct cube_mod_1000
{
  __host__ __device__ long long operator()(long long i) const
  {
    return (i * i * i) % 1000;
  }
};
} // namespace

TEMPLATE_TEST_CASE("strata::segmented_reduce matches per-segment reductions on the host for every mix of lengths",
                   "[execution][segmented_reduce]", std::int8_t, std::int32_t, double, custom_t)
{
  using T       = TestType;
  using OpT     = typename user_op<T>::device;
  using HostOpT = typename user_op<T>::host;
  exec_test::logged_stream stream;
  std::uint64_t salt = 1;
  for (const layout& l : layouts(0x5e6))
  {
    INFO(l.name << ": " << l.segments() << " segments");
    ++salt;
    const std::vector<T> h                        = strata_test::random_vector<T>(l.items(), 17 * salt);
    const T init                                  = exec_test::random_init<T>(salt + 5);
    const std::vector<T> sums                     = reference(h, l.offsets, T{}, exec_test::host_sum{});
    const std::vector<T> sums_init                = reference(h, l.offsets, init, exec_test::host_sum{});
    const std::vector<T> reduced                  = reference(h, l.offsets, init, HostOpT{});
    thrust::device_vector<T> d                    = exec_test::upload(h);
    const thrust::device_vector<int> offsets32    = upload_offsets<int>(l.offsets);
    thrust::device_vector<std::int64_t> offsets64 = upload_offsets<std::int64_t>(l.offsets);
    std::int64_t* const o64                       = thrust::raw_pointer_cast(offsets64.data());
    std::int64_t* const o64_end                   = o64 + offsets64.size();
    thrust::device_vector<T> out(l.segments() + 2);

    exec_test::for_each_input_kind(d, [&](auto first, auto) {
      const auto out_first = exec_test::output_like(first, out);
      stream.alloc.log().clear();
      exec_test::entries().clear();
      {
        INFO("the sum; offsets: device_vector<int> iterators");
        check_segments(stream, out, out_first, sums, [&] {
          return strata::segmented_reduce(stream.policy, first, offsets32.begin(), offsets32.end(), out_first);
        });
      }
      {
        INFO("init and plus<T>; offsets: raw int64 pointers");
        check_segments(stream, out, out_first, sums_init, [&] {
          return strata::segmented_reduce(stream.policy, first, o64, o64_end, out_first, init);
        });
      }
      {
        INFO("init and a user operator; offsets: device_vector<int> iterators");
        check_segments(stream, out, out_first, reduced, [&] {
          return strata::segmented_reduce(stream.policy, first, offsets32.begin(), offsets32.end(), out_first, init,
                                          OpT{});
        });
      }
      {
        INFO("init and a user operator; offsets: raw int64 pointers");
        check_segments(stream, out, out_first, reduced, [&] {
          return strata::segmented_reduce(stream.policy, first, o64, o64_end, out_first, init, OpT{});
        });
      }
      // Each call is one NVTX range, named by the frontend.
      CHECK(exec_test::entries().strata == std::vector<std::string>(4, "strata::segmented_reduce"));
      CHECK(stream.alloc.log().allocations() >= 4);
      stream.require_clean();
    });
  }
}

TEMPLATE_TEST_CASE("strata::segmented_reduce of two offsets reduces one segment of every size class at several "
                   "alignments",
                   "[execution][segmented_reduce]", std::int8_t, double)
{
  using T = TestType;
  exec_test::logged_stream stream;
  thrust::device_vector<T> out(3);
  const std::vector<std::size_t> lengths{0,          1,    2,        31,           33,    FAST_ITEMS - 1,
                                         FAST_ITEMS, TILE, TILE + 1, 2 * TILE + 1, 65537, 1000003};
  for (const std::size_t length : lengths)
  {
    // The input starts `shift` items into its buffer, the segment `start` items into the input.
    for (const std::size_t shift : {std::size_t(0), std::size_t(1)})
    {
      for (const long long start : {0LL, 3LL, 17LL})
      {
        CAPTURE(length, shift, start);
        const std::size_t items = shift + static_cast<std::size_t>(start) + length + 5;
        const std::vector<T> h  = strata_test::random_vector<T>(items, length * 7 + shift * 3 + start);
        const std::vector<T> in(h.begin() + static_cast<std::ptrdiff_t>(shift), h.end());
        const std::vector<long long> pair{start, start + static_cast<long long>(length)};
        const T init                            = exec_test::random_init<T>(length + 11);
        thrust::device_vector<T> d              = exec_test::upload(h);
        const thrust::device_vector<int> o32    = upload_offsets<int>(pair);
        thrust::device_vector<std::int64_t> o64 = upload_offsets<std::int64_t>(pair);
        std::int64_t* const o64_first           = thrust::raw_pointer_cast(o64.data());
        T* const first                          = thrust::raw_pointer_cast(d.data()) + shift;
        T* const raw_out                        = thrust::raw_pointer_cast(out.data());
        stream.alloc.log().clear();
        check_segments(stream, out, raw_out, reference(in, pair, T{}, exec_test::host_sum{}), [&] {
          return strata::segmented_reduce(stream.policy, first, o32.begin(), o32.end(), raw_out);
        });
        check_segments(stream, out, out.begin(), reference(in, pair, init, strata_test::host_max{}), [&] {
          return strata::segmented_reduce(stream.policy, d.begin() + static_cast<std::ptrdiff_t>(shift), o64_first,
                                          o64_first + 2, out.begin(), init, cuda::maximum<>{});
        });
        stream.require_clean();
      }
    }
  }
  // Offsets that step back: one empty segment, which gets init.
  thrust::device_vector<T> d           = exec_test::upload(strata_test::random_vector<T>(20, 5));
  const thrust::device_vector<int> o32 = exec_test::upload(std::vector<int>{9, 4});
  const T init                         = exec_test::random_init<T>(7);
  check_segments(stream, out, out.begin(), std::vector<T>{init}, [&] {
    return strata::segmented_reduce(stream.policy, d.begin(), o32.begin(), o32.end(), out.begin(), init);
  });
  stream.require_clean();
}

TEST_CASE("strata::segmented_reduce of fewer than two offsets writes nothing, enqueues nothing and takes no storage",
          "[execution][segmented_reduce][empty]")
{
  exec_test::logged_stream stream;
  thrust::device_vector<int> items          = exec_test::upload(strata_test::random_vector<int>(100, 61));
  const thrust::device_vector<int> one      = exec_test::upload(std::vector<int>{3});
  thrust::device_vector<std::int64_t> one64 = exec_test::upload(std::vector<std::int64_t>{5});
  std::int64_t* const o64                   = thrust::raw_pointer_cast(one64.data());
  std::int64_t* const no_offsets            = nullptr;
  int* const null                           = nullptr;
  thrust::device_vector<int> out(4);
  int* const raw_out = thrust::raw_pointer_cast(out.data());
  exec_test::poison(out);

  // Every overload with offsets ranges of 0 and 1 entries; each must return its output iterator unchanged.
  const auto calls = [&] {
    CHECK(strata::segmented_reduce(stream.policy, null, no_offsets, no_offsets, null) == null);
    CHECK(strata::segmented_reduce(stream.policy, null, o64, o64 + 1, null, 42) == null);
    CHECK(strata::segmented_reduce(stream.policy, items.begin(), one.begin(), one.begin(), out.begin()) == out.begin());
    CHECK(strata::segmented_reduce(stream.policy, items.begin(), one.begin(), one.end(), out.begin(), 42)
          == out.begin());
    CHECK(strata::segmented_reduce(stream.policy, items.begin(), one.begin(), one.end(), raw_out, 42, cuda::maximum<>{})
          == raw_out);
  };
  calls();
  exec_test::settle(); // a launch with the null pointers would fault here
  // Captured into a graph: a call that enqueued anything (a launch, a memset, an allocation) would add a node.
  cudaGraph_t graph = nullptr;
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
  calls();
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream.get(), &graph));
  std::size_t nodes = 0;
  STRATA_TEST_CUDA(cudaGraphGetNodes(graph, nullptr, &nodes));
  CHECK(nodes == 0);
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  CHECK(exec_test::all_poisoned(exec_test::download(out)));
  CHECK(stream.alloc.log().allocations() == 0);
  stream.require_clean();
}

TEMPLATE_TEST_CASE("strata::segmented_reduce returns before its kernels run, and only works on the policy's stream",
                   "[execution][segmented_reduce][stream]", std::int32_t, custom_t)
{
  using T = TestType;
  exec_test::logged_stream stream;
  for (const std::size_t n : {std::size_t(1000), std::size_t(1000003)})
  {
    CAPTURE(n);
    std::mt19937_64 rng = strata_test::make_rng(n + 71);
    // The first segment starts at item 0 and holds it: the decoy's changed first item changes its result.
    const auto mixed = [&] {
      return strata_test::mixed_segment_length(rng);
    };
    std::vector<std::size_t> lengths              = lengths_up_to(n, mixed);
    lengths[0]                                    = std::max<std::size_t>(lengths[0], 1);
    const layout l                                = from_lengths("a random mixture", 0, lengths);
    const std::vector<T> h                        = strata_test::random_vector<T>(l.items(), n + 73);
    const T init                                  = exec_test::random_init<T>(n + 79);
    const thrust::device_vector<int> offsets32    = upload_offsets<int>(l.offsets);
    thrust::device_vector<std::int64_t> offsets64 = upload_offsets<std::int64_t>(l.offsets);
    std::int64_t* const o64                       = thrust::raw_pointer_cast(offsets64.data());
    stream.alloc.log().clear();
    // The real items reach the input behind the gate: a kernel on any other stream sees the decoy.
    exec_test::check_behind_gate(stream, h, reference(h, l.offsets, T{}, exec_test::host_sum{}),
                                 [&](auto first, auto, auto out) {
                                   strata::segmented_reduce(stream.policy, first, offsets32.begin(), offsets32.end(),
                                                            out);
                                 });
    exec_test::check_behind_gate(stream, h, reference(h, l.offsets, init, exec_test::host_sum{}),
                                 [&](auto first, auto, auto out) {
                                   T* const raw_out = thrust::raw_pointer_cast(&*out);
                                   strata::segmented_reduce(stream.policy, thrust::raw_pointer_cast(&*first), o64,
                                                            o64 + offsets64.size(), raw_out, init);
                                 });
    // The storage was given back on the stream, while the kernels using it had yet to run.
    CHECK(stream.alloc.log().allocations() >= 2);
    stream.require_clean();
  }
}

TEST_CASE("strata::segmented_reduce takes its storage from the policy's allocator, of any kind, and gives it all back",
          "[execution][segmented_reduce][allocator]")
{
  exec_test::gated_stream stream;
  const cudaStream_t s = stream.get();
  std::mt19937_64 rng  = strata_test::make_rng(83);
  const auto mixed     = [&] {
    return strata_test::mixed_segment_length(rng);
  };
  const layout l                             = from_lengths("a random mixture", 0, lengths_up_to(100003, mixed));
  const std::vector<int> h                   = strata_test::random_vector<int>(l.items(), 89);
  const std::vector<int> expected            = reference(h, l.offsets, 0, exec_test::host_sum{});
  thrust::device_vector<int> d               = exec_test::upload(h);
  const thrust::device_vector<int> offsets32 = upload_offsets<int>(l.offsets);
  thrust::device_vector<int> out(l.segments() + 2);
  const auto run = [&](const auto& policy) {
    check_segments(stream, out, out.begin(), expected, [&] {
      return strata::segmented_reduce(policy, d.begin(), offsets32.begin(), offsets32.end(), out.begin());
    });
  };
  SECTION("a stream-ordered allocator")
  {
    exec_test::stream_allocator alloc;
    run(strata::par(alloc).on(s));
    CHECK(alloc.log().allocations() >= 1);
    EXEC_TEST_REQUIRE_CLEAN(alloc.log(), s);
  }
  SECTION("a libcu++ asynchronous resource")
  {
    exec_test::async_resource resource;
    run(strata::par(resource).on(s));
    CHECK(resource.log().allocations() >= 1);
    EXEC_TEST_REQUIRE_CLEAN(resource.log(), s);
  }
  SECTION("a libcu++ synchronous resource: memory comes back once the stream is done with it")
  {
    exec_test::sync_resource resource;
    resource.watched = s;
    run(strata::par(resource).on(s));
    CHECK(resource.log().allocations() >= 1);
    const std::string problems = resource.log().problems(nullptr);
    INFO(problems);
    CHECK(problems.empty());
  }
  SECTION("the pool, by default")
  {
    run(strata::par.on(s));
  }
}

TEST_CASE("strata::segmented_reduce is captured into a CUDA graph that replays on new items and offsets",
          "[execution][segmented_reduce][graph]")
{
  exec_test::logged_stream stream;
  const std::size_t n        = 100003;
  const std::size_t segments = 3000;
  const int init             = 7;
  thrust::device_vector<int> d_items(n), d_offsets(segments + 1), out(segments + 2);
  std::mt19937_64 rng = strata_test::make_rng(97);
  exec_test::upload_into(d_items, strata_test::random_vector<int>(n, 98));
  exec_test::upload_into(d_offsets, std::vector<int>(segments + 1, 0));
  exec_test::poison(out);

  cudaGraph_t graph = nullptr;
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
  const auto end = strata::segmented_reduce(stream.policy, d_items.begin(), std::as_const(d_offsets).begin(),
                                            std::as_const(d_offsets).end(), out.begin(), init);
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream.get(), &graph));
  CHECK(end - out.begin() == static_cast<std::ptrdiff_t>(segments));
  CHECK(exec_test::all_poisoned(exec_test::download(out))); // captured, not run
  cudaGraphExec_t exec = nullptr;
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (const std::uint64_t salt : {101u, 102u, 103u})
  {
    CAPTURE(salt);
    const std::vector<int> items         = strata_test::random_vector<int>(n, salt);
    const std::vector<long long> offsets = random_offsets(segments, n, rng);
    std::vector<int> expected            = reference(items, offsets, init, exec_test::host_sum{});
    expected.resize(segments + 2, exec_test::poisoned_value<int>());
    exec_test::upload_into(d_items, items);
    exec_test::upload_into(d_offsets, std::vector<int>(offsets.begin(), offsets.end()));
    exec_test::poison(out);
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream.get()));
    stream.sync();
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);
  }
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  stream.require_clean();
}

TEST_CASE("strata::segmented_reduce reads Thrust's fancy iterators and sums in init's type",
          "[execution][segmented_reduce][iterators]")
{
  exec_test::logged_stream stream;
  std::mt19937_64 rng = strata_test::make_rng(107);
  for (const std::size_t n : strata_test::sizes_within_cap({1000, std::size_t(1) << 21}))
  {
    CAPTURE(n);
    std::vector<std::size_t> lengths = lengths_up_to(n, [&] {
      return strata_test::mixed_segment_length(rng);
    });
    lengths.push_back(long_length());
    const layout l                                = from_lengths("a random mixture and a long segment", 0, lengths);
    const thrust::device_vector<int> offsets32    = upload_offsets<int>(l.offsets);
    thrust::device_vector<std::int64_t> offsets64 = upload_offsets<std::int64_t>(l.offsets);
    std::int64_t* const o64                       = thrust::raw_pointer_cast(offsets64.data());
    thrust::device_vector<long long> out(l.segments() + 2);
    stream.alloc.log().clear();
    {
      INFO("counting_iterator, the sum");
      std::vector<long long> values(l.items());
      for (std::size_t i = 0; i < values.size(); ++i)
      {
        values[i] = static_cast<long long>(i) - 17;
      }
      const thrust::counting_iterator<long long> first(-17);
      check_segments(stream, out, out.begin(), reference(values, l.offsets, 0LL, exec_test::host_sum{}), [&] {
        return strata::segmented_reduce(stream.policy, first, offsets32.begin(), offsets32.end(), out.begin());
      });
    }
    {
      INFO("transform_iterator, init and cuda::maximum<>");
      std::vector<long long> values(l.items());
      for (std::size_t i = 0; i < values.size(); ++i)
      {
        values[i] = cube_mod_1000{}(static_cast<long long>(i));
      }
      const auto first = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), cube_mod_1000{});
      check_segments(stream, out, out.begin(), reference(values, l.offsets, -1LL, strata_test::host_max{}), [&] {
        return strata::segmented_reduce(stream.policy, first, o64, o64 + offsets64.size(), out.begin(), -1LL,
                                        cuda::maximum<>{});
      });
    }
    {
      // Each item converted to init's type: int8 items sum into long long without wrapping.
      INFO("int8 items, a long long init");
      const std::vector<std::int8_t> items = strata_test::random_vector<std::int8_t>(l.items(), n + 109);
      thrust::device_vector<std::int8_t> d = exec_test::upload(items);
      const auto wide_sum                  = [](long long acc, std::int8_t x) {
        return acc + x;
      };
      check_segments(stream, out, out.begin(), reference(items, l.offsets, 5LL, wide_sum), [&] {
        return strata::segmented_reduce(stream.policy, d.begin(), offsets32.begin(), offsets32.end(), out.begin(), 5LL);
      });
    }
    stream.require_clean();
  }
}

TEST_CASE("strata::segmented_reduce of floats gives the same bits run to run, within rounding of the exact sums",
          "[execution][segmented_reduce][float]")
{
  exec_test::logged_stream stream;
  std::mt19937_64 rng              = strata_test::make_rng(113);
  std::vector<std::size_t> lengths = lengths_up_to(strata_test::capped(std::size_t(1) << 21), [&] {
    return strata_test::mixed_segment_length(rng);
  });
  lengths.insert(lengths.begin() + static_cast<std::ptrdiff_t>(lengths.size() / 2), long_length());
  const layout l                             = from_lengths("a random mixture and a long segment", 0, lengths);
  const std::vector<float> h                 = strata_test::full_mantissa_floats(l.items(), 127);
  thrust::device_vector<float> d             = exec_test::upload(h);
  const thrust::device_vector<int> offsets32 = upload_offsets<int>(l.offsets);
  thrust::device_vector<float> once(l.segments()), again(l.segments());
  strata::segmented_reduce(stream.policy, d.begin(), offsets32.begin(), offsets32.end(), once.begin());
  const std::vector<float> a = exec_test::download(once);
  for (int round = 0; round < 3; ++round)
  {
    strata::segmented_reduce(stream.policy, d.begin(), offsets32.begin(), offsets32.end(), again.begin());
    stream.sync();
    const std::vector<float> b = exec_test::download(again);
    REQUIRE(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
  }
  // Within rounding of the exact sums (accumulated in double on the host), relative to the sum of the magnitudes.
  const std::vector<double> wide(h.begin(), h.end());
  std::vector<double> magnitudes(h.size());
  std::transform(h.begin(), h.end(), magnitudes.begin(), [](float x) {
    return std::fabs(static_cast<double>(x));
  });
  const std::vector<double> exact = reference(wide, l.offsets, 0.0, exec_test::host_sum{});
  const std::vector<double> bound = reference(magnitudes, l.offsets, 0.0, exec_test::host_sum{});
  for (std::size_t s = 0; s < a.size(); ++s)
  {
    INFO("segment " << s << " of " << l.offsets[s + 1] - l.offsets[s] << " items");
    CHECK(std::fabs(a[s] - exact[s]) <= 1e-5 * (bound[s] + 1.0));
  }
  stream.require_clean();
}

TEST_CASE("strata::segmented_reduce throws strata::cuda_error naming itself, its output untouched",
          "[execution][segmented_reduce][errors]")
{
  exec_test::logged_stream stream;
  std::mt19937_64 rng                        = strata_test::make_rng(131);
  const layout l                             = {"random offsets", random_offsets(1000, 100003, rng)};
  thrust::device_vector<int> d               = exec_test::upload(strata_test::random_vector<int>(l.items(), 137));
  const thrust::device_vector<int> offsets32 = upload_offsets<int>(l.offsets);
  thrust::device_vector<int> out(l.segments());
  int* const in       = thrust::raw_pointer_cast(d.data());
  int* const null_in  = nullptr;
  int* const null_out = nullptr;
  exec_test::poison(out);
  const auto untouched = [&] {
    stream.sync();
    CHECK(exec_test::all_poisoned(exec_test::download(out)));
  };
  STRATA_TEST_CUDA(cudaGetLastError()); // a clean start

  SECTION("a null output with segments to reduce")
  {
    exec_test::require_cuda_error(
      [&] {
        (void) strata::segmented_reduce(stream.policy, in, offsets32.begin(), offsets32.end(), null_out);
      },
      cudaErrorInvalidValue, "strata::segmented_reduce");
    untouched();
    stream.require_clean();
  }
  SECTION("a null input with segments to reduce")
  {
    exec_test::require_cuda_error(
      [&] {
        (void) strata::segmented_reduce(stream.policy, null_in, offsets32.begin(), offsets32.end(), out.begin(), 1,
                                        cuda::maximum<>{});
      },
      cudaErrorInvalidValue, "strata::segmented_reduce");
    untouched();
    stream.require_clean();
  }
  SECTION("an offsets range whose last is before its first")
  {
    exec_test::require_cuda_error(
      [&] {
        (void) strata::segmented_reduce(stream.policy, in, offsets32.end(), offsets32.begin(), out.begin());
      },
      cudaErrorInvalidValue, "strata::segmented_reduce");
    untouched();
    stream.require_clean();
  }
  SECTION("the allocator fails")
  {
    exec_test::require_allocation_failure(
      stream, "strata::segmented_reduce",
      [&] {
        (void) strata::segmented_reduce(stream.policy, d.begin(), offsets32.begin(), offsets32.end(), out.begin());
      },
      untouched);
  }
  CHECK(cudaGetLastError() == cudaSuccess);
}


TEST_CASE("strata::segmented_reduce on a stream of another device throws before anything is launched",
          "[execution][segmented_reduce][errors][multi_gpu]")
{
  const exec_test::other_device_stream other;
  std::mt19937_64 rng                        = strata_test::make_rng(139);
  const layout l                             = {"random offsets", random_offsets(1000, 100003, rng)};
  const std::vector<int> h                   = strata_test::random_vector<int>(l.items(), 149);
  thrust::device_vector<int> d               = exec_test::upload(h);
  const thrust::device_vector<int> offsets32 = upload_offsets<int>(l.offsets);
  thrust::device_vector<int> out(l.segments());
  exec_test::poison(out);
  exec_test::stream_allocator alloc;
  const auto policy = strata::par(alloc).on(other.get());
  STRATA_TEST_CUDA(cudaGetLastError());
  exec_test::require_cuda_error(
    [&] {
      (void) strata::segmented_reduce(policy, d.begin(), offsets32.begin(), offsets32.end(), out.begin());
    },
    cudaErrorInvalidValue, "strata::segmented_reduce");
  CHECK(alloc.log().allocations() == 0);
  exec_test::settle();
  CHECK(exec_test::all_poisoned(exec_test::download(out)));
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(d), h);
}
