// Counts in device memory (strata::device_count): every device family given its number of items as a pointer and a
// bound returns what the same call given that number on the host returns, byte for byte over the whole output
// buffers (poisoned first, so nothing past the count may be written), for counts from 0 to the bound, a count above
// the bound (taken as the bound) and a negative one (taken as 0), in count types of 2 to 8 bytes, under bounds of
// one tile and of many; floating-point sums and by-key reductions included. Scans are compared on integers (a float
// scan may take another kernel by its bound than by its count) and their float form is checked to repeat its bits.
// Bad arguments: a null count pointer and a negative bound are refused before anything runs. Last, the chain the
// type exists for: DeviceSelect -> DeviceRadixSort -> DeviceReduce captured once into a CUDA graph, the selection's
// count feeding the other two, replayed over three inputs that select three different counts.
#include <strata/device/device_for.cuh>
#include <strata/device/device_merge_sort.cuh>
#include <strata/device/device_partition.cuh>
#include <strata/device/device_radix_sort.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_run_length_encode.cuh>
#include <strata/device/device_scan.cuh>
#include <strata/device/device_select.cuh>
#include <strata/device/device_transform.cuh>

#include <cuda/functional>
#include <cuda/std/functional>

#include "device_count_harness.cuh"
#include "test_util.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{
using count_test::bounds;
using count_test::bytes_of;
using count_test::bytes_t;
using count_test::counts_under;
using count_test::random_items;
using count_test::require_same_as_host_count;
using count_test::two_phase;
using strata_test::device_buffer;

template <typename T>
std::vector<T> runs_of_items(std::size_t n, std::uint64_t salt)
{
  std::vector<T> v    = strata_test::random_vector<T>(n, salt);
  std::mt19937_64 rng = strata_test::make_rng(salt ^ 0x7e57ULL);
  for (std::size_t i = 1; i < n; ++i)
  {
    if (rng() % 4 != 0)
    {
      v[i] = v[i - 1];
    }
  }
  return v;
}

struct is_odd
{
  template <typename T>
  __host__ __device__ bool operator()(const T& x) const
  {
    return (x & 1) != 0;
  }
};
struct below_third
{
  __host__ __device__ bool operator()(std::uint32_t x) const
  {
    return x < 0x55555555u;
  }
};
struct above_two_thirds
{
  __host__ __device__ bool operator()(std::uint32_t x) const
  {
    return x > 0xaaaaaaaau;
  }
};
// Non-commutative: scans must keep order.
struct affine_mix
{
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const
  {
    return a * 31u + b;
  }
};
struct greater_u64
{
  __host__ __device__ bool operator()(std::uint64_t a, std::uint64_t b) const
  {
    return a > b;
  }
};
struct times_three_plus_one
{
  __host__ __device__ std::uint32_t operator()(std::uint32_t x) const
  {
    return 3u * x + 1u;
  }
};
// Writes 2i + 1 to out[i]: DeviceFor's op.
struct write_index
{
  std::uint32_t* out;
  __host__ __device__ void operator()(std::uint32_t i) const
  {
    out[i] = 2u * i + 1u;
  }
};
} // namespace

TEST_CASE("device_count: DeviceSelect and DevicePartition take their count from device memory", "[device_count]")
{
  require_same_as_host_count<int>("Select::If", [](auto num_items, std::size_t bound) {
    const device_buffer<std::uint32_t> d_in(random_items<std::uint32_t>(bound, 1));
    device_buffer<std::uint32_t> d_out(bound);
    device_buffer<int> d_num(1);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceSelect::If(temp, bytes, d_in.data(), d_out.data(), d_num.data(), num_items, is_odd{});
    });
    return bytes_of(d_out, d_num);
  });
  require_same_as_host_count<unsigned short>("Select::Flagged", [](auto num_items, std::size_t bound) {
    const device_buffer<std::uint64_t> d_in(random_items<std::uint64_t>(bound, 2));
    const device_buffer<char> d_flags(random_items<char>(bound, 3));
    device_buffer<std::uint64_t> d_out(bound);
    device_buffer<std::size_t> d_num(1);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceSelect::Flagged(temp, bytes, d_in.data(), d_flags.data(), d_out.data(), d_num.data(),
                                           num_items);
    });
    return bytes_of(d_out, d_num);
  });
  require_same_as_host_count<std::int64_t>("Select::Unique", [](auto num_items, std::size_t bound) {
    const device_buffer<std::int32_t> d_in(runs_of_items<std::int32_t>(bound, 4));
    device_buffer<std::int32_t> d_out(bound);
    device_buffer<unsigned> d_num(1);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceSelect::Unique(temp, bytes, d_in.data(), d_out.data(), d_num.data(), num_items);
    });
    return bytes_of(d_out, d_num);
  });
  require_same_as_host_count<unsigned>("Select::UniqueByKey", [](auto num_items, std::size_t bound) {
    const device_buffer<std::int64_t> d_keys(runs_of_items<std::int64_t>(bound, 5));
    const device_buffer<float> d_values(random_items<float>(bound, 6));
    device_buffer<std::int64_t> d_keys_out(bound);
    device_buffer<float> d_values_out(bound);
    device_buffer<int> d_num(1);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceSelect::UniqueByKey(temp, bytes, d_keys.data(), d_values.data(), d_keys_out.data(),
                                               d_values_out.data(), d_num.data(), num_items);
    });
    return bytes_of(d_keys_out, d_values_out, d_num);
  });
  require_same_as_host_count<int>("Partition::If", [](auto num_items, std::size_t bound) {
    const device_buffer<std::uint32_t> d_in(random_items<std::uint32_t>(bound, 7));
    device_buffer<std::uint32_t> d_out(bound);
    device_buffer<int> d_num(1);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DevicePartition::If(temp, bytes, d_in.data(), d_out.data(), d_num.data(), num_items, is_odd{});
    });
    return bytes_of(d_out, d_num);
  });
  require_same_as_host_count<std::size_t>("Partition::If three-way", [](auto num_items, std::size_t bound) {
    const device_buffer<std::uint32_t> d_in(random_items<std::uint32_t>(bound, 8));
    device_buffer<std::uint32_t> d_first(bound);
    device_buffer<std::uint32_t> d_second(bound);
    device_buffer<std::uint32_t> d_rest(bound);
    device_buffer<long long> d_num(2);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DevicePartition::If(temp, bytes, d_in.data(), d_first.data(), d_second.data(), d_rest.data(),
                                         d_num.data(), num_items, below_third{}, above_two_thirds{});
    });
    return bytes_of(d_first, d_second, d_rest, d_num);
  });
}

TEST_CASE("device_count: DeviceRunLengthEncode and ReduceByKey take their count from device memory", "[device_count]")
{
  require_same_as_host_count<int>("RunLengthEncode::Encode", [](auto num_items, std::size_t bound) {
    const device_buffer<std::uint16_t> d_in(runs_of_items<std::uint16_t>(bound, 9));
    device_buffer<std::uint16_t> d_unique(bound);
    device_buffer<int> d_lengths(bound);
    device_buffer<int> d_num(1);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceRunLengthEncode::Encode(temp, bytes, d_in.data(), d_unique.data(), d_lengths.data(),
                                                   d_num.data(), num_items);
    });
    return bytes_of(d_unique, d_lengths, d_num);
  });
  require_same_as_host_count<std::uint64_t>("RunLengthEncode::NonTrivialRuns", [](auto num_items, std::size_t bound) {
    const device_buffer<std::int32_t> d_in(runs_of_items<std::int32_t>(bound, 10));
    device_buffer<std::uint32_t> d_offsets(bound);
    device_buffer<std::uint32_t> d_lengths(bound);
    device_buffer<std::uint32_t> d_num(1);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceRunLengthEncode::NonTrivialRuns(temp, bytes, d_in.data(), d_offsets.data(), d_lengths.data(),
                                                           d_num.data(), num_items);
    });
    return bytes_of(d_offsets, d_lengths, d_num);
  });
  require_same_as_host_count<int>("ReduceByKey float sums", [](auto num_items, std::size_t bound) {
    const device_buffer<std::int32_t> d_keys(runs_of_items<std::int32_t>(bound, 11));
    const device_buffer<float> d_values(random_items<float>(bound, 12));
    device_buffer<std::int32_t> d_unique(bound);
    device_buffer<float> d_sums(bound);
    device_buffer<int> d_num(1);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceReduce::ReduceByKey(temp, bytes, d_keys.data(), d_unique.data(), d_values.data(),
                                               d_sums.data(), d_num.data(), cuda::std::plus<>{}, num_items);
    });
    return bytes_of(d_unique, d_sums, d_num);
  });
}

TEST_CASE("device_count: DeviceReduce takes its count from device memory, the same bits as with a host count",
          "[device_count]")
{
  require_same_as_host_count<int>("Reduce::Sum float", [](auto num_items, std::size_t bound) {
    const device_buffer<float> d_in(random_items<float>(bound, 13));
    device_buffer<float> d_out(1);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceReduce::Sum(temp, bytes, d_in.data(), d_out.data(), num_items);
    });
    return bytes_of(d_out);
  });
  require_same_as_host_count<std::int64_t>("Reduce::Sum double", [](auto num_items, std::size_t bound) {
    const device_buffer<double> d_in(random_items<double>(bound, 14));
    device_buffer<double> d_out(1);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceReduce::Sum(temp, bytes, d_in.data(), d_out.data(), num_items);
    });
    return bytes_of(d_out);
  });
  require_same_as_host_count<unsigned>("Reduce::ArgMin", [](auto num_items, std::size_t bound) {
    const device_buffer<std::int16_t> d_in(random_items<std::int16_t>(bound, 15));
    device_buffer<strata::KeyValuePair<int, std::int16_t>> d_out(1);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceReduce::ArgMin(temp, bytes, d_in.data(), d_out.data(), num_items);
    });
    return bytes_of(d_out);
  });
  require_same_as_host_count<std::int64_t>("Reduce::ArgMax, value and index apart", [](auto num_items,
                                                                                       std::size_t bound) {
    const device_buffer<float> d_in(random_items<float>(bound, 32));
    device_buffer<float> d_value(1);
    device_buffer<std::int64_t> d_index(1);
    two_phase([&](void* temp, std::size_t& bytes) {
      if constexpr (std::is_integral<decltype(num_items)>::value)
      {
        return strata::DeviceReduce::ArgMax(temp, bytes, d_in.data(), d_value.data(), d_index.data(),
                                            static_cast<std::int64_t>(num_items));
      }
      else
      {
        return strata::DeviceReduce::ArgMax(temp, bytes, d_in.data(), d_value.data(), d_index.data(), num_items);
      }
    });
    return bytes_of(d_value, d_index);
  });
  require_same_as_host_count<short>("Reduce::Reduce max with init", [](auto num_items, std::size_t bound) {
    const device_buffer<std::int32_t> d_in(random_items<std::int32_t>(bound, 16));
    device_buffer<std::int32_t> d_out(1);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceReduce::Reduce(temp, bytes, d_in.data(), d_out.data(), num_items, cuda::maximum<>{},
                                          std::int32_t(-7));
    });
    return bytes_of(d_out);
  });
}

TEST_CASE("device_count: DeviceScan takes its count from device memory", "[device_count]")
{
  require_same_as_host_count<int>("Scan::InclusiveSum", [](auto num_items, std::size_t bound) {
    const device_buffer<std::uint32_t> d_in(random_items<std::uint32_t>(bound, 17));
    device_buffer<std::uint32_t> d_out(bound);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceScan::InclusiveSum(temp, bytes, d_in.data(), d_out.data(), num_items);
    });
    return bytes_of(d_out);
  });
  require_same_as_host_count<std::uint64_t>("Scan::ExclusiveScan non-commutative", [](auto num_items,
                                                                                      std::size_t bound) {
    const device_buffer<std::uint32_t> d_in(random_items<std::uint32_t>(bound, 18));
    device_buffer<std::uint32_t> d_out(bound);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceScan::ExclusiveScan(temp, bytes, d_in.data(), d_out.data(), affine_mix{}, 5u, num_items);
    });
    return bytes_of(d_out);
  });
  require_same_as_host_count<int>("Scan::InclusiveSumByKey", [](auto num_items, std::size_t bound) {
    const device_buffer<std::int32_t> d_keys(runs_of_items<std::int32_t>(bound, 19));
    const device_buffer<std::int64_t> d_in(random_items<std::int64_t>(bound, 20));
    device_buffer<std::int64_t> d_out(bound);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceScan::InclusiveSumByKey(temp, bytes, d_keys.data(), d_in.data(), d_out.data(), num_items);
    });
    return bytes_of(d_out);
  });

  // A float scan with its count in device memory repeats its bits and stays within rounding of the host's sums.
  for (const std::size_t bound : bounds())
  {
    const std::vector<float> in = random_items<float>(bound, 21);
    const device_buffer<float> d_in(in);
    device_buffer<int> d_count(1);
    for (const long long n : counts_under(bound))
    {
      INFO("bound " << bound << ", count " << n);
      d_count.upload({static_cast<int>(n)});
      bytes_t runs[2];
      for (bytes_t& run : runs)
      {
        device_buffer<float> d_out(bound);
        two_phase([&](void* temp, std::size_t& bytes) {
          return strata::DeviceScan::InclusiveSum(temp, bytes, d_in.data(), d_out.data(),
                                                  strata::device_count<int>(d_count.data(), static_cast<int>(bound)));
        });
        const std::vector<float> out = d_out.download();
        double sum                   = 0;
        for (long long i = 0; i < n; ++i)
        {
          sum += in[i];
          REQUIRE(std::abs(out[i] - sum) <= 1e-3 * (1.0 + std::abs(sum)) + 1e-4 * static_cast<double>(i + 1));
        }
        REQUIRE(strata_test::all_poisoned(std::vector<float>(out.begin() + n, out.end())));
        run = bytes_of(d_out);
      }
      REQUIRE(runs[0] == runs[1]);
    }
  }
}

TEST_CASE("device_count: DeviceRadixSort and DeviceMergeSort take their count from device memory", "[device_count]")
{
  require_same_as_host_count<int>("RadixSort::SortKeys", [](auto num_items, std::size_t bound) {
    const device_buffer<std::uint32_t> d_in(random_items<std::uint32_t>(bound, 22));
    device_buffer<std::uint32_t> d_out(bound);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceRadixSort::SortKeys(temp, bytes, d_in.data(), d_out.data(), num_items);
    });
    return bytes_of(d_out);
  });
  require_same_as_host_count<std::size_t>("RadixSort::SortPairsDescending", [](auto num_items, std::size_t bound) {
    const device_buffer<std::uint64_t> d_keys(random_items<std::uint64_t>(bound, 23));
    const device_buffer<std::uint32_t> d_values(random_items<std::uint32_t>(bound, 24));
    device_buffer<std::uint64_t> d_keys_out(bound);
    device_buffer<std::uint32_t> d_values_out(bound);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceRadixSort::SortPairsDescending(temp, bytes, d_keys.data(), d_keys_out.data(),
                                                          d_values.data(), d_values_out.data(), num_items);
    });
    return bytes_of(d_keys_out, d_values_out);
  });
  require_same_as_host_count<unsigned>("RadixSort::SortPairs, 12 of the key bits, DoubleBuffer", [](auto num_items,
                                                                                                    std::size_t bound) {
    device_buffer<std::int32_t> d_keys(random_items<std::int32_t>(bound, 25));
    device_buffer<std::int32_t> d_keys_alt(bound);
    device_buffer<float> d_values(random_items<float>(bound, 26));
    device_buffer<float> d_values_alt(bound);
    strata::DoubleBuffer<std::int32_t> keys(d_keys.data(), d_keys_alt.data());
    strata::DoubleBuffer<float> values(d_values.data(), d_values_alt.data());
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceRadixSort::SortPairs(temp, bytes, keys, values, num_items, 4, 16);
    });
    // The results (the other buffers are scratch).
    bytes_t out     = keys.selector == 0 ? bytes_of(d_keys) : bytes_of(d_keys_alt);
    const bytes_t v = values.selector == 0 ? bytes_of(d_values) : bytes_of(d_values_alt);
    out.insert(out.end(), v.begin(), v.end());
    out.push_back(static_cast<unsigned char>(keys.selector));
    return out;
  });
  require_same_as_host_count<int>("RadixSort::SortKeys, no key bits", [](auto num_items, std::size_t bound) {
    const device_buffer<std::uint32_t> d_in(random_items<std::uint32_t>(bound, 27));
    device_buffer<std::uint32_t> d_out(bound);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceRadixSort::SortKeys(temp, bytes, d_in.data(), d_out.data(), num_items, 7, 7);
    });
    return bytes_of(d_out);
  });
  require_same_as_host_count<std::int64_t>("MergeSort::SortPairsCopy", [](auto num_items, std::size_t bound) {
    const device_buffer<std::uint64_t> d_keys(runs_of_items<std::uint64_t>(bound, 28));
    const device_buffer<std::uint32_t> d_values(random_items<std::uint32_t>(bound, 29));
    device_buffer<std::uint64_t> d_keys_out(bound);
    device_buffer<std::uint32_t> d_values_out(bound);
    two_phase([&](void* temp, std::size_t& bytes) {
      return strata::DeviceMergeSort::SortPairsCopy(temp, bytes, d_keys.data(), d_values.data(), d_keys_out.data(),
                                                    d_values_out.data(), num_items, greater_u64{});
    });
    return bytes_of(d_keys_out, d_values_out);
  });
}

TEST_CASE("device_count: DeviceFor and DeviceTransform take their count from device memory", "[device_count]")
{
  require_same_as_host_count<int>("For::Bulk", [](auto num_items, std::size_t bound) {
    device_buffer<std::uint32_t> d_out(bound);
    STRATA_TEST_CUDA(strata::DeviceFor::Bulk(num_items, write_index{d_out.data()}));
    STRATA_TEST_SYNC();
    return bytes_of(d_out);
  });
  require_same_as_host_count<unsigned>("Transform::Transform", [](auto num_items, std::size_t bound) {
    const device_buffer<std::uint32_t> d_in(random_items<std::uint32_t>(bound, 30));
    device_buffer<std::uint32_t> d_out(bound);
    STRATA_TEST_CUDA(strata::DeviceTransform::Transform(d_in.data(), d_out.data(), num_items, times_three_plus_one{}));
    STRATA_TEST_SYNC();
    return bytes_of(d_out);
  });
}

TEST_CASE("device_count: bad arguments are refused before anything runs", "[device_count]")
{
  device_buffer<std::uint32_t> d_in(16);
  device_buffer<std::uint32_t> d_out(16);
  device_buffer<int> d_num(1);
  const strata::device_count<int> null_count(nullptr, 16);
  const strata::device_count<int> negative_bound(d_num.data(), -1);
  std::size_t bytes = 0;
  // A size query needs no count.
  REQUIRE(strata::DeviceSelect::If(nullptr, bytes, d_in.data(), d_out.data(), d_num.data(), null_count, is_odd{})
          == cudaSuccess);
  device_buffer<char> temp(bytes + 1024);
  std::size_t temp_bytes = bytes + 1024;
  REQUIRE(
    strata::DeviceSelect::If(temp.data(), temp_bytes, d_in.data(), d_out.data(), d_num.data(), null_count, is_odd{})
    == cudaErrorInvalidValue);
  REQUIRE(strata::DeviceSelect::If(nullptr, bytes, d_in.data(), d_out.data(), d_num.data(), negative_bound, is_odd{})
          == cudaErrorInvalidValue);
  REQUIRE(strata::DeviceReduce::Sum(temp.data(), temp_bytes, d_in.data(), d_out.data(), null_count)
          == cudaErrorInvalidValue);
  REQUIRE(strata::DeviceScan::InclusiveSum(temp.data(), temp_bytes, d_in.data(), d_out.data(), negative_bound)
          == cudaErrorInvalidValue);
  REQUIRE(strata::DeviceRadixSort::SortKeys(temp.data(), temp_bytes, d_in.data(), d_out.data(), null_count)
          == cudaErrorInvalidValue);
  REQUIRE(strata::DeviceMergeSort::SortKeysCopy(temp.data(), temp_bytes, d_in.data(), d_out.data(), null_count,
                                                cuda::std::less<>{})
          == cudaErrorInvalidValue);
  REQUIRE(strata::DeviceFor::Bulk(null_count, write_index{d_out.data()}) == cudaErrorInvalidValue);
  REQUIRE(strata::DeviceTransform::Transform(d_in.data(), d_out.data(), negative_bound, times_three_plus_one{})
          == cudaErrorInvalidValue);
  STRATA_TEST_SYNC();
  REQUIRE(strata_test::all_poisoned(d_out.download()));
  REQUIRE(strata_test::all_poisoned(d_num.download()));
}

TEST_CASE("device_count: select, sort and sum captured once into a CUDA graph, replayed over three counts",
          "[device_count]")
{
  const std::size_t n = strata_test::capped(std::size_t(1) << 20);
  device_buffer<std::uint32_t> d_in(n);
  device_buffer<std::uint32_t> d_selected(n);
  device_buffer<std::uint32_t> d_sorted(n);
  device_buffer<int> d_num(1);
  device_buffer<std::uint64_t> d_sum(1);
  const strata::device_count<int> selected(d_num.data(), static_cast<int>(n));

  cudaStream_t stream = nullptr;
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  // The temporary storage of each call, sized by the bound before the capture.
  std::size_t select_bytes = 0;
  std::size_t sort_bytes   = 0;
  std::size_t sum_bytes    = 0;
  STRATA_TEST_CUDA(strata::DeviceSelect::If(nullptr, select_bytes, d_in.data(), d_selected.data(), d_num.data(),
                                            static_cast<int>(n), is_odd{}, stream));
  STRATA_TEST_CUDA(strata::DeviceRadixSort::SortKeys(nullptr, sort_bytes, d_selected.data(), d_sorted.data(), selected,
                                                     0, 32, stream));
  STRATA_TEST_CUDA(strata::DeviceReduce::Sum(nullptr, sum_bytes, d_sorted.data(), d_sum.data(), selected, stream));
  device_buffer<char> select_temp(select_bytes);
  device_buffer<char> sort_temp(sort_bytes);
  device_buffer<char> sum_temp(sum_bytes);

  cudaGraph_t graph = nullptr;
  STRATA_TEST_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  STRATA_TEST_CUDA(strata::DeviceSelect::If(select_temp.data(), select_bytes, d_in.data(), d_selected.data(),
                                            d_num.data(), static_cast<int>(n), is_odd{}, stream));
  STRATA_TEST_CUDA(strata::DeviceRadixSort::SortKeys(sort_temp.data(), sort_bytes, d_selected.data(), d_sorted.data(),
                                                     selected, 0, 32, stream));
  STRATA_TEST_CUDA(
    strata::DeviceReduce::Sum(sum_temp.data(), sum_bytes, d_sorted.data(), d_sum.data(), selected, stream));
  STRATA_TEST_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));

  // Three inputs: every item even (nothing selected), about 1 in 100 odd, about half odd.
  for (const unsigned odd_per_mille : {0u, 10u, 500u})
  {
    INFO("odd items per mille: " << odd_per_mille);
    std::vector<std::uint32_t> in = random_items<std::uint32_t>(n, 31 + odd_per_mille);
    for (std::uint32_t& x : in)
    {
      x = (x % 1000u < odd_per_mille) ? (x | 1u) : (x & ~1u);
    }
    d_in.upload(in);
    d_sorted.poison();
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream));
    STRATA_TEST_CUDA(cudaStreamSynchronize(stream));

    std::vector<std::uint32_t> expected;
    std::copy_if(in.begin(), in.end(), std::back_inserter(expected), is_odd{});
    std::sort(expected.begin(), expected.end());
    const std::uint64_t expected_sum = std::accumulate(expected.begin(), expected.end(), std::uint64_t(0));
    REQUIRE(d_num.download()[0] == static_cast<int>(expected.size()));
    const std::vector<std::uint32_t> sorted = d_sorted.download();
    REQUIRE(std::equal(expected.begin(), expected.end(), sorted.begin()));
    REQUIRE(strata_test::all_poisoned(std::vector<std::uint32_t>(sorted.begin() + expected.size(), sorted.end())));
    REQUIRE(d_sum.download()[0] == expected_sum);
  }
  STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
  STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
}
