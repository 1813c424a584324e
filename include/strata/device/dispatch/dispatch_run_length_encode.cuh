// The dispatch of DeviceRunLengthEncode::Encode: two launches over the input's runs.
//
// 1. DeviceSelect's Unique with the selected items' indices (select::item_indices): the first item of each run goes
//    to d_unique_out and its index, the run's start, to an array of run starts in the temporary storage; the number
//    of runs to a count there.
// 2. DeviceRunLengthsKernel: each run's length, the next run's start (or num_items) minus its own, and the number of
//    runs to d_num_runs_out. The number of runs stays on the device: the grid is sized by num_items, and its
//    blocks stride over the runs the count says there are.
//
// DeviceRunLengthEncode::NonTrivialRuns is one launch (after the tile-state init): DeviceReduce::ReduceByKey's
// kernel in its NON_TRIVIAL_RUNS form over 1s (made in registers: no values input), which writes the start and the
// length of every run of more than one item.
#pragma once

#include <strata/config.cuh>
#include <strata/device/dispatch/dispatch_arguments.cuh>
#include <strata/device/dispatch/dispatch_reduce_by_key.cuh>
#include <strata/device/dispatch/dispatch_select.cuh>
#include <strata/util/device.cuh>
#include <strata/util/error.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/functional>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace run_length_encode
{
STRATA_KERNELS_BEGIN

// The length of run j is run_starts[j + 1] (num_items for the last run) minus run_starts[j]; *num_runs runs.
template <typename OffsetT, typename LengthsOutputIteratorT, typename NumRunsOutputIteratorT, typename ItemCountT>
STRATA_KERNEL_ATTRIBUTES void
DeviceRunLengthsKernel(const OffsetT* run_starts, const OffsetT* num_runs, OffsetT num_items, ItemCountT count,
                       LengthsOutputIteratorT d_lengths_out, NumRunsOutputIteratorT d_num_runs_out)
{
  using LengthT    = non_void_value_t<LengthsOutputIteratorT, OffsetT>;
  num_items        = count.resolve(num_items);
  const OffsetT k  = *num_runs;
  const OffsetT dj = static_cast<OffsetT>(gridDim.x) * blockDim.x;
  for (OffsetT j = static_cast<OffsetT>(blockIdx.x) * blockDim.x + threadIdx.x; j < k; j += dj)
  {
    const OffsetT end = j + 1 < k ? run_starts[j + 1] : num_items;
    d_lengths_out[j]  = static_cast<LengthT>(end - run_starts[j]);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
  {
    using NumRunsT  = non_void_value_t<NumRunsOutputIteratorT, OffsetT>;
    *d_num_runs_out = static_cast<NumRunsT>(k);
  }
}

STRATA_KERNELS_END

// Blocks of the lengths kernel: enough to cover num_items items with one thread each, at most LENGTHS_MAX_GRID
// (they stride).
constexpr int LENGTHS_THREADS  = 256;
constexpr int LENGTHS_MAX_GRID = 4096;

template <typename InputIteratorT, typename UniqueOutputIteratorT, typename LengthsOutputIteratorT,
          typename NumRunsOutputIteratorT, typename OffsetT, typename CountT>
cudaError_t encode(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                   UniqueOutputIteratorT d_unique_out, LengthsOutputIteratorT d_lengths_out,
                   NumRunsOutputIteratorT d_num_runs_out, OffsetT num_items, CountT count, cudaStream_t stream)
{
  using StartsT     = select::item_indices<OffsetT*>;
  using UniqueT     = DispatchSelect<InputIteratorT, select::no_flags, UniqueOutputIteratorT, OffsetT*,
                                 select::no_select_op, cuda::std::equal_to<>, OffsetT, select::mode::unique, false,
                                 StartsT, select::default_policy_hub_t<InputIteratorT, false, StartsT>, CountT>;
  const auto unique = [&](void* temp, size_t& bytes, OffsetT* run_starts, OffsetT* num_runs) {
    return UniqueT::Dispatch(temp, bytes, d_in, select::no_flags{}, d_unique_out, num_runs, select::no_select_op{},
                             cuda::std::equal_to<>{}, num_items, stream, StartsT{run_starts}, count);
  };
  size_t unique_bytes = 0;
  STRATA_RETURN_IF_ERROR(unique(nullptr, unique_bytes, nullptr, nullptr));

  temporary_storage::layout<3> layout;
  auto unique_temp = layout.get_slot(0)->create_alias<char>(unique_bytes);
  auto run_starts  = layout.get_slot(1)->create_alias<OffsetT>(static_cast<size_t>(num_items));
  auto num_runs    = layout.get_slot(2)->create_alias<OffsetT>(1);
  bool mapped      = false;
  STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
  if (!mapped)
  {
    return cudaSuccess;
  }
  STRATA_RETURN_IF_ERROR(unique(unique_temp.get(), unique_bytes, run_starts.get(), num_runs.get()));
  const size_t blocks = (static_cast<size_t>(num_items) + LENGTHS_THREADS - 1) / LENGTHS_THREADS;
  const unsigned int grid =
    static_cast<unsigned int>(blocks == 0 ? 1 : (blocks < LENGTHS_MAX_GRID ? blocks : LENGTHS_MAX_GRID));
  return check_launch(Launch(dim3(grid), dim3(LENGTHS_THREADS), stream,
                             DeviceRunLengthsKernel<OffsetT, LengthsOutputIteratorT, NumRunsOutputIteratorT, CountT>,
                             static_cast<const OffsetT*>(run_starts.get()), static_cast<const OffsetT*>(num_runs.get()),
                             num_items, count, d_lengths_out, d_num_runs_out),
                      stream);
}

// DeviceRunLengthEncode::Encode's body: checks the arguments (the count is written even for no items) and encodes on
// the narrowest offsets that hold num_items.
template <typename InputIteratorT, typename UniqueOutputIteratorT, typename LengthsOutputIteratorT,
          typename NumRunsOutputIteratorT, typename NumItemsT>
cudaError_t run_encode(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                       UniqueOutputIteratorT d_unique_out, LengthsOutputIteratorT d_lengths_out,
                       NumRunsOutputIteratorT d_num_runs_out, NumItemsT num_items, cudaStream_t stream)
{
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_unique_out, false));
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_lengths_out, false));
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_num_runs_out, true));
  return dispatch_offset(num_items, [&](auto offset) {
    return encode(d_temp_storage, temp_storage_bytes, d_in, d_unique_out, d_lengths_out, d_num_runs_out, offset,
                  item_count_of(num_items), stream);
  });
}
// DeviceRunLengthEncode::NonTrivialRuns's body: checks the arguments (the count is written even for no items) and
// encodes on the narrowest offsets that hold num_items.
template <typename InputIteratorT, typename OffsetsOutputIteratorT, typename LengthsOutputIteratorT,
          typename NumRunsOutputIteratorT, typename NumItemsT>
cudaError_t run_non_trivial_runs(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                 OffsetsOutputIteratorT d_offsets_out, LengthsOutputIteratorT d_lengths_out,
                                 NumRunsOutputIteratorT d_num_runs_out, NumItemsT num_items, cudaStream_t stream)
{
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_offsets_out, false));
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_lengths_out, false));
  STRATA_RETURN_IF_ERROR(check_arguments(d_temp_storage, num_items, d_in, d_num_runs_out, true));
  return dispatch_offset(num_items, [&](auto offset) {
    using OffsetT = decltype(offset);
    // The values argument, never read: the kernel's values are 1s.
    using OnesT    = const OffsetT*;
    using Dispatch = DispatchReduceByKey<InputIteratorT, OffsetsOutputIteratorT, OnesT, LengthsOutputIteratorT,
                                         NumRunsOutputIteratorT, cuda::std::equal_to<>, cuda::std::plus<>, OffsetT,
                                         OffsetT, reduce_by_key::policy_hub<it_value_t<InputIteratorT>, OffsetT>, true,
                                         item_count_t<NumItemsT>>;
    return Dispatch::Dispatch(d_temp_storage, temp_storage_bytes, d_in, d_offsets_out, OnesT(nullptr), d_lengths_out,
                              d_num_runs_out, cuda::std::equal_to<>{}, cuda::std::plus<>{}, offset, stream,
                              item_count_of(num_items));
  });
}
} // namespace run_length_encode
} // namespace detail
STRATA_NAMESPACE_END
