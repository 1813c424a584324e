// strata::segmented_inclusive_scan and strata::segmented_exclusive_scan against per-segment scans on the host: every
// overload (the sums, an operator, an initial value, both) over int32 and double items (small integers, so the sums
// are exact) and a non-commutative operator (affine maps mod 2^32), inputs and outputs behind raw pointers,
// thrust::device_ptr and device_vector iterators, offsets as device_vector<int> iterators and raw int64 pointers. The
// segments start past item 0 and lie back to back: one segment of every item, segments of one item, tiny ones,
// lengths up to three sub-tiles, a random mixture, empty ones, a long one among tiny ones, over totals of 997, 100003
// and 2^21 items; items in no segment keep the output's poison. Also: fewer than two offsets enqueue nothing; a
// captured call replays from a CUDA graph on new items and offsets; errors (a null output or input with segments, a
// reversed offsets range, a failing allocator) throw strata::cuda_error naming the algorithm, the output untouched.
#include "support.cuh"
// after support.cuh
#include "segments.cuh"

#include <cuda/functional>
#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace
{
using exec_test::from_lengths;
using exec_test::layout;
using exec_test::lengths_up_to;

// A warp's sub-tile of items: the size around which the segment lengths are chosen.
using scan_policy          = strata::detail::segmented_scan::policy_hub<int, int>::MaxPolicy::SegmentedScanPolicy;
constexpr std::size_t TILE = scan_policy::TILE_ITEMS;

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
    all.push_back(from_lengths("one segment of every item" + of, 3, {n}));
    if (n <= 100003)
    {
      all.push_back(from_lengths("segments of one item" + of, 3, std::vector<std::size_t>(n, 1)));
    }
    all.push_back(from_lengths("lengths uniform in [0, 8]" + of, 3, lengths_up_to(n, [&] {
                                 return uniform(0, 8);
                               })));
    all.push_back(from_lengths("lengths uniform in [0, 3 tiles]" + of, 3, lengths_up_to(n, [&] {
                                 return uniform(0, 3 * TILE);
                               })));
    all.push_back(from_lengths("a random mixture of lengths" + of, 3, lengths_up_to(n, [&] {
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
    lengths.insert(lengths.begin() + 1000, strata_test::capped(std::size_t(1) << 20) + 3);
    all.push_back(from_lengths("one long segment among 2000 tiny ones", 0, lengths));
  }
  return all;
}

// The output of a scan: `out` as it was (poisoned), with each segment's scan at its items' positions. scan(first,
// last, dest).
template <typename T, typename U, typename ScanT>
std::vector<T> reference(const std::vector<U>& items, const std::vector<long long>& offsets, std::vector<T> out,
                         ScanT scan)
{
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
  {
    if (offsets[s + 1] > offsets[s])
    {
      scan(items.data() + offsets[s], items.data() + offsets[s + 1], out.data() + offsets[s]);
    }
  }
  return out;
}
template <typename OpT>
using host_inclusive = strata_test::segment_inclusive_scan<OpT>;
template <typename OpT, typename T>
using host_exclusive = strata_test::segment_exclusive_scan<OpT, T>;

template <typename O>
thrust::device_vector<O> upload_offsets(const std::vector<long long>& offsets)
{
  return exec_test::upload(std::vector<O>(offsets.begin(), offsets.end()));
}

// Small integers of T (exact sums in double).
template <typename T>
std::vector<T> small_items(std::size_t n, std::uint64_t salt)
{
  const std::vector<int> v = strata_test::random_vector<int>(n, salt);
  std::vector<T> items(n);
  std::transform(v.begin(), v.end(), items.begin(), [](int x) {
    return static_cast<T>(x % 100);
  });
  return items;
}

// Runs `call()` (a scan writing through out) over a poisoned `out`, and requires `expected` once the stream is done.
template <typename T, typename Call>
void check_scan(exec_test::logged_stream& stream, thrust::device_vector<T>& out, const std::vector<T>& expected,
                Call&& call)
{
  exec_test::poison(out);
  call();
  stream.sync();
  STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out), expected);
}
} // namespace

TEMPLATE_TEST_CASE("strata::segmented_inclusive_scan and segmented_exclusive_scan match per-segment scans on the "
                   "host for every mix of lengths",
                   "[execution][segmented_scan]", std::int32_t, double)
{
  using T = TestType;
  exec_test::logged_stream stream;
  std::uint64_t salt = 1;
  for (const layout& l : layouts(0x5f0))
  {
    INFO(l.name << ": " << l.segments() << " segments");
    ++salt;
    const std::vector<T> h                        = small_items<T>(l.items(), 19 * salt);
    const T init                                  = static_cast<T>(37);
    thrust::device_vector<T> d                    = exec_test::upload(h);
    const thrust::device_vector<int> offsets32    = upload_offsets<int>(l.offsets);
    thrust::device_vector<std::int64_t> offsets64 = upload_offsets<std::int64_t>(l.offsets);
    std::int64_t* const o64                       = thrust::raw_pointer_cast(offsets64.data());
    std::int64_t* const o64_end                   = o64 + offsets64.size();
    thrust::device_vector<T> out(l.items() + 2);
    const std::vector<T> poisoned(l.items() + 2, exec_test::poisoned_value<T>());
    const auto sums     = reference(h, l.offsets, poisoned, host_inclusive<exec_test::host_sum>{});
    const auto maxima   = reference(h, l.offsets, poisoned, host_inclusive<strata_test::host_max>{});
    const auto before   = reference(h, l.offsets, poisoned, host_exclusive<exec_test::host_sum, T>{{}, T(0)});
    const auto from     = reference(h, l.offsets, poisoned, host_exclusive<exec_test::host_sum, T>{{}, init});
    const auto max_from = reference(h, l.offsets, poisoned, host_exclusive<strata_test::host_max, T>{{}, init});

    exec_test::for_each_input_kind(d, [&](auto first, auto) {
      const auto out_first = exec_test::output_like(first, out);
      exec_test::entries().clear();
      {
        INFO("inclusive sums; offsets: device_vector<int> iterators");
        check_scan(stream, out, sums, [&] {
          strata::segmented_inclusive_scan(stream.policy, first, offsets32.begin(), offsets32.end(), out_first);
        });
      }
      {
        INFO("inclusive maxima; offsets: raw int64 pointers");
        check_scan(stream, out, maxima, [&] {
          strata::segmented_inclusive_scan(stream.policy, first, o64, o64_end, out_first, cuda::maximum<>{});
        });
      }
      {
        INFO("exclusive sums from 0");
        check_scan(stream, out, before, [&] {
          strata::segmented_exclusive_scan(stream.policy, first, offsets32.begin(), offsets32.end(), out_first);
        });
      }
      {
        INFO("exclusive sums from init; offsets: raw int64 pointers");
        check_scan(stream, out, from, [&] {
          strata::segmented_exclusive_scan(stream.policy, first, o64, o64_end, out_first, init);
        });
      }
      {
        INFO("exclusive maxima from init");
        check_scan(stream, out, max_from, [&] {
          strata::segmented_exclusive_scan(stream.policy, first, offsets32.begin(), offsets32.end(), out_first, init,
                                           cuda::maximum<>{});
        });
      }
      CHECK(exec_test::entries().strata
            == std::vector<std::string>{"strata::segmented_inclusive_scan", "strata::segmented_inclusive_scan",
                                        "strata::segmented_exclusive_scan", "strata::segmented_exclusive_scan",
                                        "strata::segmented_exclusive_scan"});
      stream.require_clean();
    });
  }
}

TEST_CASE("strata::segmented_inclusive_scan and segmented_exclusive_scan keep a non-commutative operator's order",
          "[execution][segmented_scan]")
{
  using strata_test::affine32;
  using strata_test::affine_then;
  exec_test::logged_stream stream;
  for (const layout& l : layouts(0x5f1))
  {
    INFO(l.name);
    const std::vector<affine32> h = strata_test::random_vector<affine32>(l.items(), 0x5f2);
    const affine32 init{5, 11};
    thrust::device_vector<affine32> d        = exec_test::upload(h);
    const thrust::device_vector<int> offsets = upload_offsets<int>(l.offsets);
    thrust::device_vector<affine32> out(l.items() + 2);
    const std::vector<affine32> poisoned(l.items() + 2, exec_test::poisoned_value<affine32>());
    check_scan(stream, out, reference(h, l.offsets, poisoned, host_inclusive<affine_then>{}), [&] {
      strata::segmented_inclusive_scan(stream.policy, d.begin(), offsets.begin(), offsets.end(), out.begin(),
                                       affine_then{});
    });
    check_scan(stream, out, reference(h, l.offsets, poisoned, host_exclusive<affine_then, affine32>{{}, init}), [&] {
      strata::segmented_exclusive_scan(stream.policy, d.begin(), offsets.begin(), offsets.end(), out.begin(), init,
                                       affine_then{});
    });
  }
}

TEST_CASE("strata::segmented_inclusive_scan of fewer than two offsets writes and enqueues nothing",
          "[execution][segmented_scan]")
{
  exec_test::logged_stream stream;
  thrust::device_vector<int> d(10, 1), out(10);
  const thrust::device_vector<int> offsets(1, 0);
  exec_test::poison(out);
  exec_test::entries().clear();
  strata::segmented_inclusive_scan(stream.policy, d.begin(), offsets.begin(), offsets.end(), out.begin());
  strata::segmented_exclusive_scan(stream.policy, d.begin(), offsets.begin(), offsets.begin(), out.begin(), 3);
  stream.sync();
  CHECK(exec_test::all_poisoned(exec_test::download(out)));
  CHECK(stream.alloc.log().allocations() == 0);
  stream.require_clean();
}

TEST_CASE("strata::segmented_inclusive_scan is captured into a CUDA graph that replays on new items and offsets",
          "[execution][segmented_scan][graph]")
{
  exec_test::logged_stream stream;
  const std::size_t n        = 100003;
  const std::size_t segments = 3000;
  thrust::device_vector<int> d_items(n), d_offsets(segments + 1), out(n);
  std::mt19937_64 rng = strata_test::make_rng(0x5f3);
  exec_test::upload_into(d_offsets, std::vector<int>(segments + 1, 0));
  exec_test::poison(out);
  cudaGraph_t graph = nullptr;
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
  strata::segmented_inclusive_scan(stream.policy, d_items.begin(), std::as_const(d_offsets).begin(),
                                   std::as_const(d_offsets).end(), out.begin());
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream.get(), &graph));
  CHECK(exec_test::all_poisoned(exec_test::download(out))); // captured, not run
  cudaGraphExec_t exec = nullptr;
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (const std::uint64_t salt : {0x5f4u, 0x5f5u, 0x5f6u})
  {
    CAPTURE(salt);
    const std::vector<int> items = strata_test::random_vector<int>(n, salt);
    const layout l               = from_lengths("random", 0, lengths_up_to(n, [&] {
                                    return std::uniform_int_distribution<std::size_t>(0, 80)(rng);
                                  }));
    std::vector<long long> offsets(l.offsets.begin(), l.offsets.end());
    offsets.resize(segments + 1, offsets.back());
    exec_test::upload_into(d_items, items);
    exec_test::upload_into(d_offsets, std::vector<int>(offsets.begin(), offsets.end()));
    exec_test::poison(out);
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream.get()));
    stream.sync();
    const std::vector<int> poisoned(n, exec_test::poisoned_value<int>());
    STRATA_REQUIRE_EQUAL_VECTORS(exec_test::download(out),
                                 reference(items, offsets, poisoned, host_inclusive<exec_test::host_sum>{}));
  }
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  stream.require_clean();
}

TEST_CASE("strata::segmented_inclusive_scan and segmented_exclusive_scan throw strata::cuda_error naming themselves, "
          "their output untouched",
          "[execution][segmented_scan][errors]")
{
  exec_test::logged_stream stream;
  std::mt19937_64 rng                      = strata_test::make_rng(0x5f7);
  const layout l                           = from_lengths("random", 0, lengths_up_to(100003, [&] {
                                  return std::uniform_int_distribution<std::size_t>(0, 50)(rng);
                                }));
  thrust::device_vector<int> d             = exec_test::upload(strata_test::random_vector<int>(l.items(), 0x5f8));
  const thrust::device_vector<int> offsets = upload_offsets<int>(l.offsets);
  thrust::device_vector<int> out(l.items());
  int* const in       = thrust::raw_pointer_cast(d.data());
  int* const null_in  = nullptr;
  int* const null_out = nullptr;
  exec_test::poison(out);
  const auto untouched = [&] {
    stream.sync();
    CHECK(exec_test::all_poisoned(exec_test::download(out)));
  };
  STRATA_TEST_CUDA(cudaGetLastError());
  SECTION("a null output")
  {
    exec_test::require_cuda_error(
      [&] {
        strata::segmented_inclusive_scan(stream.policy, in, offsets.begin(), offsets.end(), null_out);
      },
      cudaErrorInvalidValue, "strata::segmented_inclusive_scan");
    untouched();
  }
  SECTION("a null input")
  {
    exec_test::require_cuda_error(
      [&] {
        strata::segmented_exclusive_scan(stream.policy, null_in, offsets.begin(), offsets.end(), out.begin(), 1);
      },
      cudaErrorInvalidValue, "strata::segmented_exclusive_scan");
    untouched();
  }
  SECTION("an offsets range whose last is before its first")
  {
    exec_test::require_cuda_error(
      [&] {
        strata::segmented_inclusive_scan(stream.policy, in, offsets.end(), offsets.begin(), out.begin());
      },
      cudaErrorInvalidValue, "strata::segmented_inclusive_scan");
    untouched();
  }
  SECTION("the allocator fails")
  {
    exec_test::require_allocation_failure(
      stream, "strata::segmented_exclusive_scan",
      [&] {
        strata::segmented_exclusive_scan(stream.policy, d.begin(), offsets.begin(), offsets.end(), out.begin());
      },
      untouched);
  }
  stream.require_clean();
  CHECK(cudaGetLastError() == cudaSuccess);
}
