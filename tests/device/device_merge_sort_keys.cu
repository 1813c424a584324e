// DeviceMergeSort, keys only: every key type (a user struct under its own comparator included) at every size class,
// ascending in place and descending into another array (input untouched), random and low-entropy keys (keys-only
// stability shows in -0.0 beside +0.0 and in custom_t keys equal under the comparator), on a stream and under graph
// capture; every num_items type and 64-bit offsets; iterators that are not pointers; the single-phase forms; bad
// input at every entry point, pairs' included. Pairs: device_merge_sort_pairs.cu; more than 2^31 keys:
// device_merge_sort_large.cu.
#include "device_merge_sort_harness.cuh"

#include <thrust/device_ptr.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda/std/functional>

#include <cstdint>
#include <vector>

using namespace device_merge_sort_test;
using strata_test::custom_t;

TEMPLATE_TEST_CASE("DeviceMergeSort::SortKeys and SortKeysCopy match std::stable_sort at every size class",
                   "[device][merge_sort][keys]", STRATA_TEST_ALL_TYPES)
{
  using KeyT = TestType;
  for (std::size_t n : sort_sizes(tile_items<KeyT>(), MAX_ITEMS, 11))
  {
    CAPTURE(n);
    const entropy e = n % 2 == 0 ? entropy::full : entropy::few_values;
    INFO("entropy " << entropy_name(e));
    const std::vector<KeyT> h_keys = make_keys<KeyT>(n, e, 3 * n + 1);
    const auto mode                = mode_for(n);
    {
      INFO("SortKeys, ascending, in place");
      strata_test::device_buffer<KeyT> d_keys(h_keys);
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceMergeSort::SortKeys(temp, bytes, d_keys.data(), static_cast<int>(n), ascending_t<KeyT>{},
                                                   s);
        },
        mode);
      require_sorted_keys(d_keys.download(), h_keys, ascending_t<KeyT>{});
    }
    {
      INFO("SortKeysCopy, descending");
      strata_test::device_buffer<KeyT> d_in(h_keys);
      strata_test::device_buffer<KeyT> d_out(n);
      strata_test::launch(
        [&](void* temp, std::size_t& bytes, cudaStream_t s) {
          return strata::DeviceMergeSort::SortKeysCopy(temp, bytes, static_cast<const KeyT*>(d_in.data()), d_out.data(),
                                                       static_cast<int>(n), descending_t<KeyT>{}, s);
        },
        mode);
      require_sorted_keys(d_out.download(), h_keys, descending_t<KeyT>{});
      INFO("the input is left as it was");
      const std::vector<KeyT> after = d_in.download();
      for (std::size_t i = 0; i < n; ++i)
      {
        REQUIRE(same_key(after[i], h_keys[i]));
      }
    }
  }
}

TEST_CASE("DeviceMergeSort::StableSortKeys and StableSortKeysCopy keep equal keys in order",
          "[device][merge_sort][keys]")
{
  // float keys from a pool holding -0.0 and +0.0 (equal under <, told apart by their bits), and custom_t keys equal
  // under the comparator whenever (b, c) are.
  for (std::size_t n : short_sizes(tile_items<float>()))
  {
    CAPTURE(n);
    const std::vector<float> h_floats = make_keys<float>(n, entropy::few_values, 7 * n + 2);
    strata_test::device_buffer<float> d_floats(h_floats);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceMergeSort::StableSortKeys(temp, bytes, d_floats.data(), n, cuda::std::less<>{}, s);
    });
    require_sorted_keys(d_floats.download(), h_floats, less_op{});

    const std::vector<custom_t> h_custom = make_keys<custom_t>(n, entropy::few_values, 7 * n + 3);
    strata_test::device_buffer<custom_t> d_in(h_custom);
    strata_test::device_buffer<custom_t> d_out(n);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceMergeSort::StableSortKeysCopy(temp, bytes, d_in.data(), d_out.data(), n, custom_by_bc{}, s);
    });
    require_sorted_keys(d_out.download(), h_custom, custom_by_bc{});
  }
}

TEST_CASE("DeviceMergeSort with a comparator taking its arguments by value", "[device][merge_sort][keys]")
{
  for (std::size_t n : short_sizes(tile_items<std::int16_t>()))
  {
    CAPTURE(n);
    const std::vector<std::int16_t> h_keys = make_keys<std::int16_t>(n, entropy::full, 17 * n + 5);
    strata_test::device_buffer<std::int16_t> d_keys(h_keys);
    strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
      return strata::DeviceMergeSort::SortKeys(temp, bytes, d_keys.data(), n, less_by_value{}, s);
    });
    require_sorted_keys(d_keys.download(), h_keys, less_op{});
  }
}

TEST_CASE("DeviceMergeSort::SortKeys takes every num_items type, and 64-bit offsets", "[device][merge_sort][keys]")
{
  const std::size_t tile = tile_items<std::uint32_t>();
  for (std::size_t n : strata_test::sizes_within_cap({std::size_t(1), tile - 1, 3 * tile + 5, std::size_t(1000003)}))
  {
    CAPTURE(n);
    const std::vector<std::uint32_t> h_keys = make_keys<std::uint32_t>(n, entropy::few_values, 11 * n);
    strata_test::device_buffer<std::uint32_t> d_keys(n);
    auto run = [&](auto num_items) {
      d_keys.upload(h_keys);
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceMergeSort::SortKeys(temp, bytes, d_keys.data(), num_items, cuda::std::less<>{}, s);
      });
      require_sorted_keys(d_keys.download(), h_keys, less_op{});
    };
    {
      INFO("int");
      run(static_cast<int>(n));
    }
    {
      INFO("unsigned");
      run(static_cast<unsigned>(n));
    }
    {
      INFO("long long");
      run(static_cast<long long>(n));
    }
    {
      INFO("unsigned long long");
      run(static_cast<unsigned long long>(n));
    }
    {
      INFO("DispatchMergeSort with 64-bit offsets");
      d_keys.upload(h_keys);
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return sort_with_64_bit_offsets(temp, bytes, d_keys.data(), static_cast<strata::NullType*>(nullptr), n,
                                        cuda::std::greater<>{}, s);
      });
      require_sorted_keys(d_keys.download(), h_keys, greater_op{});
    }
  }
}

namespace
{
// The key of position i of the generated input: a hash, folded to few distinct values.
struct hashed_key
{
  __host__ __device__ std::int32_t operator()(std::uint64_t i) const
  {
    std::uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ULL;
    x ^= x >> 29;
    return static_cast<std::int32_t>(x % 1009) - 500;
  }
};
} // namespace

TEST_CASE("DeviceMergeSort with iterators that are not pointers", "[device][merge_sort][keys]")
{
  const std::size_t tile = tile_items<std::int32_t>();
  for (std::size_t n : {std::size_t(0), std::size_t(5), 2 * tile + 3, std::size_t(100003)})
  {
    CAPTURE(n);
    std::vector<std::int32_t> h_keys(n);
    for (std::size_t i = 0; i < n; ++i)
    {
      h_keys[i] = hashed_key{}(i);
    }
    {
      INFO("SortKeysCopy from a transform iterator into a thrust::device_ptr");
      strata_test::device_buffer<std::int32_t> d_out(n);
      auto in = thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), hashed_key{});
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceMergeSort::SortKeysCopy(temp, bytes, in, thrust::device_pointer_cast(d_out.data()), n,
                                                     cuda::std::greater<>{}, s);
      });
      require_sorted_keys(d_out.download(), h_keys, greater_op{});
    }
    {
      INFO("SortKeys in place through a thrust::device_ptr");
      strata_test::device_buffer<std::int32_t> d_keys(h_keys);
      strata_test::launch([&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceMergeSort::SortKeys(temp, bytes, thrust::device_pointer_cast(d_keys.data()), n,
                                                 cuda::std::less<>{}, s);
      });
      require_sorted_keys(d_keys.download(), h_keys, less_op{});
    }
  }
}

TEST_CASE("DeviceMergeSort single-phase forms take an execution policy", "[device][merge_sort][keys]")
{
  const std::size_t tile = tile_items<std::int64_t>();
  cudaStream_t stream{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (std::size_t n : {std::size_t(0), std::size_t(3), tile + 1, 9 * tile - 1})
  {
    CAPTURE(n);
    const std::vector<std::int64_t> h_keys = make_keys<std::int64_t>(n, entropy::few_values, 13 * n);
    const std::vector<int> h_values        = position_values<int>(n);
    const auto policy                      = strata::par.on(stream);
    strata_test::device_buffer<std::int64_t> d_keys(h_keys);
    strata_test::device_buffer<int> d_values(h_values);
    strata_test::device_buffer<std::int64_t> d_keys_out(n);
    strata_test::device_buffer<int> d_values_out(n);
    auto finish = [&](cudaError_t e) {
      STRATA_TEST_CUDA(e);
      STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
    };
    auto reset = [&] {
      d_keys.upload(h_keys);
      d_values.upload(h_values);
      d_keys_out.poison();
      d_values_out.poison();
    };
    {
      INFO("SortKeys");
      finish(strata::DeviceMergeSort::SortKeys(d_keys.data(), n, cuda::std::less<>{}, policy));
      require_sorted_keys(d_keys.download(), h_keys, less_op{});
    }
    reset();
    {
      INFO("StableSortKeys");
      finish(strata::DeviceMergeSort::StableSortKeys(d_keys.data(), n, cuda::std::greater<>{}, policy));
      require_sorted_keys(d_keys.download(), h_keys, greater_op{});
    }
    reset();
    {
      INFO("SortKeysCopy");
      finish(strata::DeviceMergeSort::SortKeysCopy(d_keys.data(), d_keys_out.data(), n, cuda::std::less<>{}, policy));
      require_sorted_keys(d_keys_out.download(), h_keys, less_op{});
    }
    reset();
    {
      INFO("StableSortKeysCopy");
      finish(strata::DeviceMergeSort::StableSortKeysCopy(d_keys.data(), d_keys_out.data(), n, cuda::std::greater<>{},
                                                         policy));
      require_sorted_keys(d_keys_out.download(), h_keys, greater_op{});
    }
    reset();
    {
      INFO("SortPairs");
      finish(strata::DeviceMergeSort::SortPairs(d_keys.data(), d_values.data(), n, cuda::std::less<>{}, policy));
      require_sorted_pairs(d_keys.download(), d_values.download(), h_keys, less_op{});
    }
    reset();
    {
      INFO("StableSortPairs");
      finish(
        strata::DeviceMergeSort::StableSortPairs(d_keys.data(), d_values.data(), n, cuda::std::greater<>{}, policy));
      require_sorted_pairs(d_keys.download(), d_values.download(), h_keys, greater_op{});
    }
    reset();
    {
      INFO("SortPairsCopy");
      finish(strata::DeviceMergeSort::SortPairsCopy(d_keys.data(), d_values.data(), d_keys_out.data(),
                                                    d_values_out.data(), n, cuda::std::less<>{}, policy));
      require_sorted_pairs(d_keys_out.download(), d_values_out.download(), h_keys, less_op{});
    }
  }
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}

namespace
{
constexpr int N_BAD = 100000; // several tiles: the run would need temporary storage

// `call(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_keys_out, d_values_out, num_items)` runs one
// entry point on int keys and values (the in-place and keys-only ones ignore what they do not take). Checks that bad
// input is rejected with cudaErrorInvalidValue and nothing is written, and that no items ask for one byte and write
// nothing, null pointers included.
template <bool PAIRS, bool COPY, typename Call>
void check_rejects_bad_input(Call call)
{
  const std::vector<int> h_keys   = strata_test::random_vector<int>(N_BAD, 21);
  const std::vector<int> h_values = strata_test::random_vector<int>(N_BAD, 22);
  strata_test::device_buffer<int> d_keys(h_keys);
  strata_test::device_buffer<int> d_values(h_values);
  strata_test::device_buffer<int> d_keys_out(N_BAD);
  strata_test::device_buffer<int> d_values_out(N_BAD);
  int* const null = nullptr;
  auto run = [&](void* temp, std::size_t& bytes, int* keys_in, int* values_in, int* keys_out, int* values_out, int n) {
    return call(temp, bytes, keys_in, values_in, keys_out, values_out, n);
  };

  std::size_t bytes = 0;
  REQUIRE(run(nullptr, bytes, d_keys.data(), d_values.data(), d_keys_out.data(), d_values_out.data(), N_BAD)
          == cudaSuccess);
  REQUIRE(bytes > 1);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));

  std::size_t too_small = bytes - 1;
  CHECK(run(d_temp, too_small, d_keys.data(), d_values.data(), d_keys_out.data(), d_values_out.data(), N_BAD)
        == cudaErrorInvalidValue);
  CHECK(run(d_temp, bytes, null, d_values.data(), d_keys_out.data(), d_values_out.data(), N_BAD)
        == cudaErrorInvalidValue);
  if (COPY)
  {
    CHECK(run(d_temp, bytes, d_keys.data(), d_values.data(), null, d_values_out.data(), N_BAD)
          == cudaErrorInvalidValue);
  }
  if (PAIRS)
  {
    CHECK(run(d_temp, bytes, d_keys.data(), null, d_keys_out.data(), d_values_out.data(), N_BAD)
          == cudaErrorInvalidValue);
    if (COPY)
    {
      CHECK(run(d_temp, bytes, d_keys.data(), d_values.data(), d_keys_out.data(), null, N_BAD)
            == cudaErrorInvalidValue);
    }
  }
  CHECK(run(d_temp, bytes, d_keys.data(), d_values.data(), d_keys_out.data(), d_values_out.data(), -5)
        == cudaErrorInvalidValue);
  std::size_t query = 0;
  CHECK(run(nullptr, query, d_keys.data(), d_values.data(), d_keys_out.data(), d_values_out.data(), -1)
        == cudaErrorInvalidValue);

  STRATA_TEST_SYNC();
  STRATA_REQUIRE_EQUAL_VECTORS(d_keys.download(), h_keys);
  STRATA_REQUIRE_EQUAL_VECTORS(d_values.download(), h_values);
  CHECK(strata_test::all_poisoned(d_keys_out.download()));
  CHECK(strata_test::all_poisoned(d_values_out.download()));
  STRATA_TEST_CUDA(cudaFree(d_temp));

  // No items: one byte, nothing launched or written, null pointers accepted.
  std::size_t empty_bytes = 0;
  REQUIRE(run(nullptr, empty_bytes, d_keys.data(), d_values.data(), d_keys_out.data(), d_values_out.data(), 0)
          == cudaSuccess);
  CHECK(empty_bytes == 1);
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, 1));
  std::size_t one = 1;
  CHECK(run(d_temp, one, d_keys.data(), d_values.data(), d_keys_out.data(), d_values_out.data(), 0) == cudaSuccess);
  CHECK(run(d_temp, one, null, null, null, null, 0) == cudaSuccess);
  STRATA_TEST_SYNC();
  CHECK(strata_test::all_poisoned(d_keys_out.download()));
  STRATA_REQUIRE_EQUAL_VECTORS(d_keys.download(), h_keys);
  STRATA_TEST_CUDA(cudaFree(d_temp));
}
} // namespace

TEST_CASE("DeviceMergeSort rejects bad input before writing anything", "[device][merge_sort][errors]")
{
  using cuda::std::less;
  SECTION("SortKeys")
  {
    check_rejects_bad_input<false, false>([](void* t, std::size_t& b, int* k, int*, int*, int*, int n) {
      return strata::DeviceMergeSort::SortKeys(t, b, k, n, less<>{});
    });
  }
  SECTION("StableSortKeys")
  {
    check_rejects_bad_input<false, false>([](void* t, std::size_t& b, int* k, int*, int*, int*, int n) {
      return strata::DeviceMergeSort::StableSortKeys(t, b, k, n, less<>{});
    });
  }
  SECTION("SortKeysCopy")
  {
    check_rejects_bad_input<false, true>([](void* t, std::size_t& b, int* k, int*, int* ko, int*, int n) {
      return strata::DeviceMergeSort::SortKeysCopy(t, b, k, ko, n, less<>{});
    });
  }
  SECTION("StableSortKeysCopy")
  {
    check_rejects_bad_input<false, true>([](void* t, std::size_t& b, int* k, int*, int* ko, int*, int n) {
      return strata::DeviceMergeSort::StableSortKeysCopy(t, b, k, ko, n, less<>{});
    });
  }
  SECTION("SortPairs")
  {
    check_rejects_bad_input<true, false>([](void* t, std::size_t& b, int* k, int* v, int*, int*, int n) {
      return strata::DeviceMergeSort::SortPairs(t, b, k, v, n, less<>{});
    });
  }
  SECTION("StableSortPairs")
  {
    check_rejects_bad_input<true, false>([](void* t, std::size_t& b, int* k, int* v, int*, int*, int n) {
      return strata::DeviceMergeSort::StableSortPairs(t, b, k, v, n, less<>{});
    });
  }
  SECTION("SortPairsCopy")
  {
    check_rejects_bad_input<true, true>([](void* t, std::size_t& b, int* k, int* v, int* ko, int* vo, int n) {
      return strata::DeviceMergeSort::SortPairsCopy(t, b, k, v, ko, vo, n, less<>{});
    });
  }
}
