// DeviceRadixSort's single-phase forms, which take strata::par.on(stream) in place of the temporary storage and the
// stream (in/out and DoubleBuffer, with and without a bit range, keys only and pairs, on a non-blocking stream), and
// sorts captured into a CUDA graph: captured once (two-phase and single-phase), replayed on fresh inputs whose digit
// passes can be skipped differently from the captured one's, the results where the selectors set at capture say.
#include "device_radix_sort_harness.cuh"

#include <cstdint>
#include <vector>

namespace
{
using drs_test::key_pattern;
using drs_test::pattern;
} // namespace

TEMPLATE_TEST_CASE("DeviceRadixSort's single-phase forms sort on the policy's stream", "[device][radix_sort][policy]",
                   std::uint32_t, double)
{
  using K            = TestType;
  constexpr int BITS = static_cast<int>(sizeof(K) * 8);
  for (const std::size_t n : drs_test::sizes_within_cap({0, 1, 1000, 100003}))
  {
    const auto keys = drs_test::make_keys<K>(n, key_pattern{pattern::low_entropy, 2, "low entropy"}, 47 * n + BITS);
    for (const drs_test::form api : {drs_test::form::policy_in_out, drs_test::form::policy_double_buffer})
    {
      for (const bool default_bits : {true, false})
      {
        for (const bool descending : {false, true})
        {
          CAPTURE(n);
          drs_test::sort_options o;
          o.api          = api;
          o.descending   = descending;
          o.default_bits = default_bits;
          o.begin_bit    = default_bits ? 0 : 3;
          o.end_bit      = default_bits ? -1 : BITS - 2;
          drs_test::check_sort<K>(keys, o);
          drs_test::check_sort<K, std::uint32_t>(keys, o);
          o.initial_selector = 1;
          drs_test::check_sort<K, std::uint32_t>(keys, o);
        }
      }
    }
  }
}

TEST_CASE("DeviceRadixSort's forms run under CUDA graph capture", "[device][radix_sort][graph]")
{
  using K             = std::uint32_t;
  const std::size_t n = drs_test::capped(70001);
  const auto keys     = drs_test::make_keys<K>(n, key_pattern{pattern::random, 0, "random"}, 0x9a9);
  for (const drs_test::form api : {drs_test::form::in_out, drs_test::form::double_buffer, drs_test::form::policy_in_out,
                                   drs_test::form::policy_double_buffer})
  {
    for (const bool descending : {false, true})
    {
      drs_test::sort_options o;
      o.api        = api;
      o.descending = descending;
      o.mode       = strata_test::launch_mode::graph;
      o.begin_bit  = 0;
      o.end_bit    = 24;
      drs_test::check_sort<K>(keys, o);
      drs_test::check_sort<K, std::uint32_t>(keys, o);
    }
  }
}

namespace
{
// Captures one SortPairs (or SortPairsDescending) of n uint32 keys and values in the DoubleBuffer form into a graph,
// two-phase or with a policy, then replays it on inputs of every pattern written into the same buffers (the one that
// was current at capture), checking the results in the buffers the selectors set at capture name.
void check_replays(bool with_policy, bool descending)
{
  using K             = std::uint32_t;
  using V             = std::uint32_t;
  using Model         = drs_test::key_model<K>;
  const std::size_t n = drs_test::capped(100003);
  const int num_items = static_cast<int>(n);
  const int begin_bit = 0;
  const int end_bit   = 32;
  strata_test::device_buffer<K> keys0(n), keys1(n);
  strata_test::device_buffer<V> values0(n), values1(n);
  strata::DoubleBuffer<K> keys(keys0.data(), keys1.data());
  strata::DoubleBuffer<V> values(values0.data(), values1.data());
  cudaStream_t s{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  void* d_temp      = nullptr;
  std::size_t bytes = 0;
  if (!with_policy)
  {
    STRATA_TEST_CUDA(
      descending
        ? strata::DeviceRadixSort::SortPairsDescending(nullptr, bytes, keys, values, num_items, begin_bit, end_bit, s)
        : strata::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, num_items, begin_bit, end_bit, s));
    STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
  }
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  cudaGraph_t graph{};
  cudaGraphExec_t exec{};
  STRATA_TEST_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  cudaError_t captured = cudaSuccess;
  if (with_policy)
  {
    captured = descending ? strata::DeviceRadixSort::SortPairsDescending(keys, values, num_items, strata::par.on(s))
                          : strata::DeviceRadixSort::SortPairs(keys, values, num_items, strata::par.on(s));
  }
  else
  {
    captured =
      descending
        ? strata::DeviceRadixSort::SortPairsDescending(d_temp, bytes, keys, values, num_items, begin_bit, end_bit, s)
        : strata::DeviceRadixSort::SortPairs(d_temp, bytes, keys, values, num_items, begin_bit, end_bit, s);
  }
  STRATA_TEST_CUDA(cudaStreamEndCapture(s, &graph));
  STRATA_TEST_CUDA(captured);
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  REQUIRE((keys.selector == 0 || keys.selector == 1));
  REQUIRE((values.selector == 0 || values.selector == 1));
  strata_test::device_buffer<K>& key_result   = keys.selector == 0 ? keys0 : keys1;
  strata_test::device_buffer<V>& value_result = values.selector == 0 ? values0 : values1;

  std::vector<V> h_values(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    h_values[i] = drs_test::value_of<V>(i);
  }
  for (const key_pattern& p : drs_test::all_patterns())
  {
    CAPTURE(p.name);
    const std::vector<K> h_keys = drs_test::make_keys<K>(n, p, 0x3e9 + static_cast<std::uint64_t>(p.kind) + p.ands);
    keys0.upload(h_keys);
    values0.upload(h_values);
    keys1.poison();
    values1.poison();
    STRATA_TEST_CUDA(cudaDeviceSynchronize());
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, s));
    STRATA_TEST_CUDA(cudaStreamSynchronize(s));
    STRATA_TEST_CUDA(cudaGetLastError());

    const std::vector<K> out_keys        = key_result.download();
    const std::vector<V> out_values      = value_result.download();
    const std::vector<std::size_t> order = drs_test::reference_order<Model>(h_keys, descending, begin_bit, end_bit);
    const long long wrong                = drs_test::first_wrong(h_keys, h_values, order, out_keys, &out_values);
    if (wrong >= 0)
    {
      const std::size_t i = static_cast<std::size_t>(wrong);
      INFO("selectors " << keys.selector << " (keys), " << values.selector << " (values); sorted position " << i
                        << ": key " << out_keys[i] << " value " << out_values[i] << ", expected key "
                        << h_keys[order[i]] << " value " << h_values[order[i]]);
      FAIL("a replay of the captured sort differs from a stable sort");
    }
  }
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  STRATA_TEST_CUDA(cudaStreamDestroy(s));
  if (d_temp != nullptr)
  {
    STRATA_TEST_CUDA(cudaFree(d_temp));
  }
}
} // namespace

TEST_CASE("DeviceRadixSort captured into a CUDA graph replays on inputs of every pattern",
          "[device][radix_sort][graph]")
{
  for (const bool with_policy : {false, true})
  {
    for (const bool descending : {false, true})
    {
      INFO((with_policy ? "with strata::par.on(stream)" : "two-phase")
           << (descending ? ", SortPairsDescending" : ", SortPairs"));
      check_replays(with_policy, descending);
    }
  }
}
