// DeviceScan::InclusiveScan, ExclusiveScan (with an initial value) and InclusiveScanInit, with cuda::maximum<>,
// with cuda::std::plus<> and a non-zero initial value, and with the non-commutative mat_mul (16 bytes) and
// affine_then (8 bytes) (the exact left-to-right result is required), at every size class, in place and out of
// place.
#include "device_scan_harness.cuh"

#include <cstdint>
#include <vector>

namespace
{
using device_scan_test::MAX_ITEMS;
using strata_test::affine32;
using strata_test::mat2x2;

// The tiles of the scans tested here.
constexpr std::size_t INT_MAX_TILE   = device_scan_test::tile_items<int, cuda::maximum<>>();
constexpr std::size_t MAT_TILE       = device_scan_test::tile_items<mat2x2, strata_test::mat_mul>();
constexpr std::size_t INT64_SUM_TILE = device_scan_test::tile_items<std::int64_t, cuda::std::plus<>>();
constexpr std::size_t AFFINE_TILE    = device_scan_test::tile_items<affine32, strata_test::affine_then>();

// Runs the three scans of `h_in` out of place and compares them with the host references.
template <typename T, typename DeviceOp, typename HostOp>
void check_scans(const std::vector<T>& h_in, DeviceOp device_op, HostOp host_op, T init, strata_test::launch_mode mode)
{
  const std::size_t n = h_in.size();
  strata_test::device_buffer<T> d_in(h_in);
  strata_test::device_buffer<T> d_out(n);
  {
    INFO("InclusiveScan");
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveScan(temp, bytes, d_in.data(), d_out.data(), device_op, static_cast<int>(n),
                                                 s);
      },
      mode);
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), strata_test::reference_inclusive_scan(h_in, host_op));
  }
  d_out.poison();
  {
    INFO("ExclusiveScan with init");
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::ExclusiveScan(temp, bytes, d_in.data(), d_out.data(), device_op, init,
                                                 static_cast<int>(n), s);
      },
      mode);
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(), strata_test::reference_exclusive_scan(h_in, init, host_op));
  }
  d_out.poison();
  {
    INFO("InclusiveScanInit");
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveScanInit(temp, bytes, d_in.data(), d_out.data(), device_op, init,
                                                     static_cast<int>(n), s);
      },
      mode);
    STRATA_REQUIRE_EQUAL_VECTORS(d_out.download(),
                                 device_scan_test::reference_inclusive_scan_init(h_in, init, host_op));
  }
  INFO("the input is left as it was");
  STRATA_REQUIRE_EQUAL_VECTORS(d_in.download(), h_in);
}

// The same three scans with the output on the input: the in-place overloads of InclusiveScan and ExclusiveScan,
// and d_in == d_out for all three.
template <typename T, typename DeviceOp, typename HostOp>
void check_scans_in_place(const std::vector<T>& h_in, DeviceOp device_op, HostOp host_op, T init,
                          strata_test::launch_mode mode)
{
  const std::size_t n = h_in.size();
  const int num_items = static_cast<int>(n);
  strata_test::device_buffer<T> d_data(h_in);
  T* data                             = d_data.data();
  const std::vector<T> inclusive      = strata_test::reference_inclusive_scan(h_in, host_op);
  const std::vector<T> exclusive      = strata_test::reference_exclusive_scan(h_in, init, host_op);
  const std::vector<T> inclusive_init = device_scan_test::reference_inclusive_scan_init(h_in, init, host_op);
  {
    INFO("InclusiveScan(d_data)");
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveScan(temp, bytes, data, device_op, num_items, s);
      },
      mode);
    STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(), inclusive);
  }
  d_data.upload(h_in);
  {
    INFO("ExclusiveScan(d_data) with init");
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::ExclusiveScan(temp, bytes, data, device_op, init, num_items, s);
      },
      mode);
    STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(), exclusive);
  }
  d_data.upload(h_in);
  {
    INFO("InclusiveScan(d_in, d_out) with d_in == d_out");
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveScan(temp, bytes, data, data, device_op, num_items, s);
      },
      mode);
    STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(), inclusive);
  }
  d_data.upload(h_in);
  {
    INFO("ExclusiveScan(d_in, d_out) with d_in == d_out");
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::ExclusiveScan(temp, bytes, data, data, device_op, init, num_items, s);
      },
      mode);
    STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(), exclusive);
  }
  d_data.upload(h_in);
  {
    INFO("InclusiveScanInit(d_in, d_out) with d_in == d_out");
    strata_test::launch(
      [&](void* temp, std::size_t& bytes, cudaStream_t s) {
        return strata::DeviceScan::InclusiveScanInit(temp, bytes, data, data, device_op, init, num_items, s);
      },
      mode);
    STRATA_REQUIRE_EQUAL_VECTORS(d_data.download(), inclusive_init);
  }
}

// check_scans (or, with IN_PLACE, check_scans_in_place) at every size of `sizes`, on random inputs salted
// salt_scale * n + salt_offset, on a stream or under graph capture as mode_for(n) says.
template <bool IN_PLACE, typename T, typename DeviceOp, typename HostOp>
void check_at_sizes(const std::vector<std::size_t>& sizes, std::size_t salt_scale, std::size_t salt_offset,
                    DeviceOp device_op, HostOp host_op, T init)
{
  for (std::size_t n : sizes)
  {
    CAPTURE(n);
    const std::vector<T> h_in = strata_test::random_vector<T>(n, salt_scale * n + salt_offset);
    if constexpr (IN_PLACE)
    {
      check_scans_in_place(h_in, device_op, host_op, init, device_scan_test::mode_for(n));
    }
    else
    {
      check_scans(h_in, device_op, host_op, init, device_scan_test::mode_for(n));
    }
  }
}
} // namespace

TEST_CASE("DeviceScan with cuda::maximum<> matches the host for every size class", "[device][scan][max]")
{
  // An initial value inside the range of the inputs, so it decides a prefix of the outputs and not all of them.
  const int init = 1000;
  check_at_sizes<false>(device_scan_test::scan_sizes(INT_MAX_TILE, MAX_ITEMS, 41), 11, 1, cuda::maximum<>{},
                        strata_test::host_max{}, init);
}

TEST_CASE("DeviceScan with the non-commutative mat_mul keeps the order of the operands", "[device][scan][mat]")
{
  const mat2x2 init = strata_test::random_vector<mat2x2>(1, 4242)[0];
  check_at_sizes<false>(device_scan_test::scan_sizes(MAT_TILE, MAX_ITEMS, 43), 13, 2, strata_test::mat_mul{},
                        strata_test::mat_mul{}, init);
}

TEST_CASE("DeviceScan with the non-commutative 8-byte affine_then keeps the order of the operands",
          "[device][scan][affine]")
{
  const affine32 init = strata_test::random_vector<affine32>(1, 4747)[0];
  check_at_sizes<false>(device_scan_test::scan_sizes(AFFINE_TILE, MAX_ITEMS, 47), 29, 6, strata_test::affine_then{},
                        strata_test::affine_then{}, init);
}

TEST_CASE("DeviceScan with cuda::std::plus<> and a non-zero initial value", "[device][scan][plus]")
{
  const std::int64_t init = -123456789012LL;
  check_at_sizes<false>(device_scan_test::short_sizes(INT64_SUM_TILE), 17, 3, cuda::std::plus<>{},
                        device_scan_test::wrapping_plus{}, init);
}

TEST_CASE("DeviceScan InclusiveScan, ExclusiveScan and InclusiveScanInit in place", "[device][scan][in-place]")
{
  SECTION("cuda::maximum<> on int")
  {
    check_at_sizes<true>(device_scan_test::short_sizes(INT_MAX_TILE), 19, 4, cuda::maximum<>{}, strata_test::host_max{},
                         -7);
  }
  SECTION("affine_then on affine32")
  {
    const affine32 init = strata_test::random_vector<affine32>(1, 4848)[0];
    check_at_sizes<true>(device_scan_test::short_sizes(AFFINE_TILE), 31, 7, strata_test::affine_then{},
                         strata_test::affine_then{}, init);
  }
  SECTION("mat_mul on mat2x2")
  {
    const mat2x2 init = strata_test::random_vector<mat2x2>(1, 4343)[0];
    check_at_sizes<true>(device_scan_test::short_sizes(MAT_TILE), 23, 5, strata_test::mat_mul{}, strata_test::mat_mul{},
                         init);
  }
}
