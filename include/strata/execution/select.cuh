// Frontend compaction: std-like calls over DeviceSelect and DevicePartition's single pass, temporary storage from
// the policy's allocator.
//
//   auto end = strata::copy_if(strata::par.on(stream), first, last, out, is_odd{});      // the end of the output
//   auto new_end = strata::unique(strata::par.on(stream), v.begin(), v.end());             // in place
//   auto ends = strata::partition_copy(strata::par.on(stream), first, last, yes, no, pred); // a pair of ends
//   strata::copy_if_into(strata::par.on(stream), first, last, out, d_count, is_odd{});     // no synchronization
//   auto ends = strata::reduce_by_key(strata::par.on(stream), kf, kl, vf, keys_out, sums_out); // run keys and sums
//
// Each call returns what std:: and thrust:: return: the end of what it wrote, which needs the number of items it
// kept on the host. The device writes that number straight into the calling thread's page-locked result buffer and
// the call synchronizes the policy's stream, and only it (strata/execution/host_value.cuh): its only
// synchronization, which a stream being captured into a graph cannot do. The `*_into` forms write the number to
// device memory instead (`d_count`, any integer type), never synchronize, and may be captured. Empty ranges return
// at once without touching the device, except the `*_into` forms, which write 0 to *d_count in stream order.
//
// The answers are Thrust's, bit for bit, so that thrust:: calls given strata's policy return what thrust::cuda::par
// returns: copy_if, remove_if, remove_copy_if, unique, unique_copy, unique_by_key and stable_partition keep the
// order of the items they keep; partition (in place) leaves the selected items in order followed by the rejected
// ones in reverse order (Thrust's CUDA backend, and DevicePartition's layout); partition_copy and
// stable_partition_copy write both parts in order. unique's predicate is called as pred(previous, current) and an
// item is kept unless it returns true. A stencil's predicate is called on the stencil's items. reduce_by_key
// (DeviceReduce::ReduceByKey's single pass) accumulates in the values' type, with plus of the output's value type by
// default, as Thrust does; floating-point sums are the same bits run to run, though grouped otherwise than
// Thrust's.
//
// In place: remove_if, remove and unique write over their range in one pass (a tile writes only below its own end,
// once every item it overwrites has been read; unique's tile reads the item before it first, and the only tile
// that can write there writes the same item). unique_by_key's keys are compacted in place likewise; its values are
// read after the keys' look-back, so they are copied to temporary storage first (n values). partition and
// stable_partition copy the range to temporary storage and partition it back (as Thrust does); stable_partition then
// reverses the rejected items.
//
// Temporary storage: one allocation per call from the policy's allocator, given back in stream order. Errors throw
// strata::cuda_error naming the algorithm; bad arguments are found before anything is launched.
#pragma once

#include <strata/config.cuh>
#include <strata/device/device_for.cuh>
#include <strata/device/device_partition.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_select.cuh>
#include <strata/device/device_transform.cuh>
#include <strata/device/dispatch/dispatch_select.cuh>
#include <strata/device/dispatch/single_phase.cuh>
#include <strata/execution/host_value.cuh>
#include <strata/execution/iterators.cuh>
#include <strata/execution/policy.cuh>
#include <strata/execution/reduce.cuh>
#include <strata/execution/transform.cuh>
#include <strata/nvtx.cuh>
#include <strata/util/cuda_error.cuh>
#include <strata/util/temporary_storage.cuh>

#include <cuda/std/array>
#include <cuda/std/functional>
#include <cuda/std/iterator>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/detail/type_traits/iterator/is_output_iterator.h>
#include <thrust/pair.h>

#include <cstddef>
#include <type_traits>

STRATA_NAMESPACE_BEGIN
namespace detail
{
namespace frontend
{
// -- operators ------------------------------------------------------------------------------------------------

// Never selects (the second part of a three-way partition that is a two-way one).
struct select_none
{
  template <typename T>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE bool operator()(const T&) const
  {
    return false;
  }
};

// Swaps items i and m - 1 - i of [first, first + m) (a reversal, run for i < m / 2).
template <typename IteratorT, typename T>
struct swap_ends
{
  IteratorT first;
  long long m;
  STRATA_HOST_DEVICE STRATA_FORCEINLINE void operator()(long long i) const
  {
    const T a        = first[i];
    const T b        = first[m - 1 - i];
    first[i]         = b;
    first[m - 1 - i] = a;
  }
};

// 1 where item i starts a run (i == 0, or pred(item i - 1, item i) is false), else 0: unique_count's summands.
template <typename CountT, typename InputIteratorT, typename BinaryPredicate>
struct run_head
{
  InputIteratorT first;
  mutable BinaryPredicate pred;
  template <typename IndexT>
  STRATA_HOST_DEVICE STRATA_FORCEINLINE CountT operator()(IndexT i) const
  {
    return (i == 0 || !static_cast<bool>(pred(first[i - 1], first[i]))) ? CountT(1) : CountT(0);
  }
};

// -- the device calls -----------------------------------------------------------------------------------------

// The number of items a selection keeps, as the host sees it: the input's difference type.
template <typename IteratorT>
using select_count_t = iter_difference_t<IteratorT>;

// A selection of MODE (DispatchSelect's) from [d_in, d_in + n) to d_out, its count to d_count; with values for
// unique_by_key. Runs in `policy` (one allocation).
template <select::mode MODE, typename PolicyT, typename InputIt, typename FlagsIt, typename OutputIt, typename CountIt,
          typename SelectOp, typename EqualityOp, typename NumItemsT, typename ValuesT = select::no_values>
cudaError_t run_select(const PolicyT& policy, InputIt d_in, FlagsIt d_flags, OutputIt d_out, CountIt d_count,
                       SelectOp select_op, EqualityOp equality_op, NumItemsT n, ValuesT values = {})
{
  return run_single_phase(policy, [&](void* d_temp, std::size_t& bytes, cudaStream_t stream) {
    return select::run<MODE, false>(d_temp, bytes, d_in, d_flags, d_out, d_count, select_op, equality_op, n, stream,
                                    values);
  });
}

// d_out[0, n) = T(d_in[i]) in stream order: a byte copy where both are T's in memory.
template <typename T, typename InputIt>
cudaError_t copy_to(T* d_out, InputIt d_in, long long n, cudaStream_t stream)
{
  if (n == 0)
  {
    return cudaSuccess;
  }
  if constexpr (std::is_pointer<InputIt>::value
                && std::is_same<std::remove_cv_t<std::remove_pointer_t<InputIt>>, T>::value)
  {
    return cudaMemcpyAsync(d_out, d_in, static_cast<std::size_t>(n) * sizeof(T), cudaMemcpyDeviceToDevice, stream);
  }
  else
  {
    return DeviceTransform::Transform(d_in, d_out, n, identity_as<T>{}, stream);
  }
}

// Runs `call(d_temp, bytes, copy, stream)`, a two-phase device call, on a copy of [src, src + n) as items of T in
// temporary storage (`copy` is null while the call is asked its size): one allocation holds both.
template <typename T, typename PolicyT, typename SourceIt, typename CallT>
cudaError_t run_on_copy(const PolicyT& policy, SourceIt src, long long n, CallT&& call)
{
  return run_single_phase(policy, [&](void* d_temp, std::size_t& bytes, cudaStream_t stream) -> cudaError_t {
    std::size_t call_bytes = 0;
    STRATA_RETURN_IF_ERROR(call(nullptr, call_bytes, static_cast<const T*>(nullptr), stream));
    temporary_storage::layout<2> layout;
    auto call_storage = layout.get_slot(0)->create_alias<char>(call_bytes);
    auto copied       = layout.get_slot(1)->create_alias<T>(static_cast<std::size_t>(n));
    bool mapped       = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp, bytes, mapped));
    if (!mapped)
    {
      return cudaSuccess;
    }
    STRATA_RETURN_IF_ERROR(copy_to(copied.get(), src, n, stream));
    return call(call_storage.get(), call_bytes, static_cast<const T*>(copied.get()), stream);
  });
}

// [first, first + n) partitioned in place, DevicePartition's layout: the items pred selects, in order, then the
// others in reverse order, partitioned back from a copy; the count to d_count.
template <typename PolicyT, typename Iterator, typename CountT, typename Predicate>
cudaError_t partition_in_place(const PolicyT& policy, Iterator first, long long n, CountT* d_count, Predicate pred)
{
  using T = iter_value_t<Iterator>;
  return run_on_copy<T>(policy, first, n, [&](void* d_temp, std::size_t& bytes, const T* items, cudaStream_t stream) {
    return DevicePartition::If(d_temp, bytes, items, first, d_count, n, pred, stream);
  });
}

// unique_by_key in place: the keys compacted in place, the values from a copy.
template <typename PolicyT, typename KeyIt, typename ValueIt, typename CountIt, typename BinaryPredicate>
cudaError_t unique_by_key_in_place(const PolicyT& policy, KeyIt keys, ValueIt values, long long n, CountIt d_count,
                                   BinaryPredicate pred)
{
  using V = iter_value_t<ValueIt>;
  return run_on_copy<V>(policy, values, n, [&](void* d_temp, std::size_t& bytes, const V* copied, cudaStream_t stream) {
    return select::run<select::mode::unique, false>(d_temp, bytes, keys, select::no_flags{}, keys, d_count,
                                                    select::no_select_op{}, pred, n, stream,
                                                    select::by_key_values<const V*, ValueIt>{copied, values});
  });
}

// A two-way partition into two outputs, both in order: the three-way partition with an empty second part. d_counts
// gets the number selected, then 0.
template <typename PolicyT, typename InputIt, typename TrueIt, typename FalseIt, typename CountIt, typename Predicate>
cudaError_t partition_copy_to(const PolicyT& policy, InputIt first, long long n, TrueIt out_true, FalseIt out_false,
                              CountIt d_counts, Predicate pred)
{
  return DevicePartition::If(first, out_true, thrust::make_discard_iterator(), out_false, d_counts, n, pred,
                             select_none{}, policy);
}

// A selection of MODE from [first, last) (flags: unwrapped, or no_flags) to d_first (which may be first: in
// place), returning the end of the output; nothing runs for an empty range.
template <select::mode MODE, typename PolicyT, typename InputIt, typename FlagsIt, typename OutputIt, typename SelectOp,
          typename EqualityOp>
OutputIt select_to_end(const PolicyT& policy, const char* name, InputIt first, InputIt last, FlagsIt flags,
                       OutputIt d_first, SelectOp select_op, EqualityOp equality_op)
{
  using CountT = select_count_t<InputIt>;
  const auto n = cuda::std::distance(first, last);
  if (n == 0)
  {
    return d_first;
  }
  const CountT count = host_value<CountT>(policy, name, [&](CountT* d_count) {
    return run_select<MODE>(policy, unwrap(first), flags, unwrap(d_first), d_count, select_op, equality_op, n);
  });
  return d_first + count;
}

// The same, the count to d_count in device memory, without synchronizing (an empty range writes 0).
template <select::mode MODE, typename PolicyT, typename InputIt, typename FlagsIt, typename OutputIt, typename CountIt,
          typename SelectOp, typename EqualityOp>
void select_into(const PolicyT& policy, const char* name, InputIt first, InputIt last, FlagsIt flags, OutputIt d_first,
                 CountIt d_count, SelectOp select_op, EqualityOp equality_op)
{
  throw_on_error(run_select<MODE>(policy, unwrap(first), flags, unwrap(d_first), unwrap(d_count), select_op,
                                  equality_op, cuda::std::distance(first, last)),
                 name);
}
// Thrust's reduce_by_key types: the values accumulate in their own type, and the default operator is plus of the
// output's value type (of the input's, where the output is an output-only iterator).
template <typename ValueIt, typename ValueOutputIt>
using reduce_by_key_plus = cuda::std::plus<std::conditional_t<thrust::detail::is_output_iterator<ValueOutputIt>,
                                                              iter_value_t<ValueIt>, iter_value_t<ValueOutputIt>>>;

// reduce_by_key of [keys, keys + n) and the values beside them, the number of runs to d_count; runs in `policy`.
template <typename PolicyT, typename KeyIt, typename ValueIt, typename KeyOutputIt, typename ValueOutputIt,
          typename CountIt, typename BinaryPredicate, typename BinaryOp>
cudaError_t run_reduce_by_key(const PolicyT& policy, KeyIt keys, ValueIt values, KeyOutputIt keys_out,
                              ValueOutputIt values_out, CountIt d_count, BinaryPredicate pred, BinaryOp op, long long n)
{
  return run_single_phase(policy, [&](void* d_temp, std::size_t& bytes, cudaStream_t stream) {
    if constexpr (is_gpu_to_gpu_v<PolicyT>)
    {
      return reduce_by_key::run_gpu_to_gpu<iter_value_t<ValueIt>>(d_temp, bytes, unwrap(keys), unwrap(keys_out),
                                                                  unwrap(values), unwrap(values_out), d_count,
                                                                  as_bool<BinaryPredicate, false>{pred}, op, n, stream);
    }
    else
    {
      return reduce_by_key::run<iter_value_t<ValueIt>>(d_temp, bytes, unwrap(keys), unwrap(keys_out), unwrap(values),
                                                       unwrap(values_out), d_count,
                                                       as_bool<BinaryPredicate, false>{pred}, op, n, stream);
    }
  });
}
} // namespace frontend
} // namespace detail

// -- copy_if, remove_copy_if, remove_copy ---------------------------------------------------------------------

// The items of [first, last) that pred selects, in order, to d_first; returns the end of the output.
template <typename A, typename D, typename InputIt, typename OutputIt, typename Predicate>
OutputIt copy_if(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first, Predicate pred)
{
  STRATA_NVTX_RANGE("strata::copy_if");
  return detail::frontend::select_to_end<detail::select::mode::predicate>(
    policy, "strata::copy_if", first, last, detail::select::no_flags{}, d_first,
    detail::frontend::as_bool<Predicate, false>{pred}, cuda::std::equal_to<>{});
}

// The items whose stencil item pred selects.
template <typename A, typename D, typename InputIt, typename StencilIt, typename OutputIt, typename Predicate>
OutputIt copy_if(const execution_policy<A, D>& policy, InputIt first, InputIt last, StencilIt stencil, OutputIt d_first,
                 Predicate pred)
{
  STRATA_NVTX_RANGE("strata::copy_if");
  return detail::frontend::select_to_end<detail::select::mode::flagged_if>(
    policy, "strata::copy_if", first, last, detail::unwrap(stencil), d_first,
    detail::frontend::as_bool<Predicate, false>{pred}, cuda::std::equal_to<>{});
}

// The items pred does not select.
template <typename A, typename D, typename InputIt, typename OutputIt, typename Predicate>
OutputIt remove_copy_if(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first,
                        Predicate pred)
{
  STRATA_NVTX_RANGE("strata::remove_copy_if");
  return detail::frontend::select_to_end<detail::select::mode::predicate>(
    policy, "strata::remove_copy_if", first, last, detail::select::no_flags{}, d_first,
    detail::frontend::as_bool<Predicate, true>{pred}, cuda::std::equal_to<>{});
}

// The items whose stencil item pred does not select.
template <typename A, typename D, typename InputIt, typename StencilIt, typename OutputIt, typename Predicate>
OutputIt remove_copy_if(const execution_policy<A, D>& policy, InputIt first, InputIt last, StencilIt stencil,
                        OutputIt d_first, Predicate pred)
{
  STRATA_NVTX_RANGE("strata::remove_copy_if");
  return detail::frontend::select_to_end<detail::select::mode::flagged_if>(
    policy, "strata::remove_copy_if", first, last, detail::unwrap(stencil), d_first,
    detail::frontend::as_bool<Predicate, true>{pred}, cuda::std::equal_to<>{});
}

// The items that do not equal value.
template <typename A, typename D, typename InputIt, typename OutputIt, typename T>
OutputIt remove_copy(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first,
                     const T& value)
{
  return remove_copy_if(policy, first, last, d_first, detail::frontend::equals_value<T>{value});
}

// -- remove_if, remove (in place) -----------------------------------------------------------------------------

// Keeps, in order at the front of [first, last), the items pred does not select; returns the new end.
template <typename A, typename D, typename ForwardIt, typename Predicate>
ForwardIt remove_if(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, Predicate pred)
{
  STRATA_NVTX_RANGE("strata::remove_if");
  return detail::frontend::select_to_end<detail::select::mode::predicate>(
    policy, "strata::remove_if", first, last, detail::select::no_flags{}, first,
    detail::frontend::as_bool<Predicate, true>{pred}, cuda::std::equal_to<>{});
}

// Keeps the items whose stencil item pred does not select (the stencil must not overlap the range).
template <typename A, typename D, typename ForwardIt, typename StencilIt, typename Predicate>
ForwardIt remove_if(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, StencilIt stencil,
                    Predicate pred)
{
  STRATA_NVTX_RANGE("strata::remove_if");
  return detail::frontend::select_to_end<detail::select::mode::flagged_if>(
    policy, "strata::remove_if", first, last, detail::unwrap(stencil), first,
    detail::frontend::as_bool<Predicate, true>{pred}, cuda::std::equal_to<>{});
}

// Keeps the items that do not equal value.
template <typename A, typename D, typename ForwardIt, typename T>
ForwardIt remove(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, const T& value)
{
  return remove_if(policy, first, last, detail::frontend::equals_value<T>{value});
}

// -- unique, unique_copy, unique_count ------------------------------------------------------------------------

// The first item of each run of items equal under pred (pred(previous, current)), in order at the front; returns
// the new end.
template <typename A, typename D, typename ForwardIt, typename BinaryPredicate>
ForwardIt unique(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, BinaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::unique");
  return detail::frontend::select_to_end<detail::select::mode::unique>(
    policy, "strata::unique", first, last, detail::select::no_flags{}, first, detail::select::no_select_op{},
    detail::frontend::as_bool<BinaryPredicate, false>{pred});
}

template <typename A, typename D, typename ForwardIt>
ForwardIt unique(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last)
{
  return unique(policy, first, last, cuda::std::equal_to<>{});
}

// The first item of each run to d_first; returns the end of the output.
template <typename A, typename D, typename InputIt, typename OutputIt, typename BinaryPredicate>
OutputIt unique_copy(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first,
                     BinaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::unique_copy");
  return detail::frontend::select_to_end<detail::select::mode::unique>(
    policy, "strata::unique_copy", first, last, detail::select::no_flags{}, d_first, detail::select::no_select_op{},
    detail::frontend::as_bool<BinaryPredicate, false>{pred});
}

template <typename A, typename D, typename InputIt, typename OutputIt>
OutputIt unique_copy(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first)
{
  return unique_copy(policy, first, last, d_first, cuda::std::equal_to<>{});
}

// The number of runs of items equal under pred: one pass that only reads (a reduction of the runs' heads).
template <typename A, typename D, typename ForwardIt, typename BinaryPredicate>
detail::iter_difference_t<ForwardIt> unique_count(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last,
                                                  BinaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::unique_count");
  using CountT = detail::iter_difference_t<ForwardIt>;
  const auto n = cuda::std::distance(first, last);
  if (n == 0)
  {
    return CountT(0);
  }
  using HeadT = detail::frontend::run_head<CountT, detail::unwrapped_t<ForwardIt>,
                                           detail::frontend::as_bool<BinaryPredicate, false>>;
  return detail::frontend::transform_reduce_to_host<CountT>(policy, "strata::unique_count",
                                                            thrust::counting_iterator<CountT>(0), n,
                                                            cuda::std::plus<>{}, HeadT{detail::unwrap(first), {pred}},
                                                            CountT(0));
}

template <typename A, typename D, typename ForwardIt>
detail::iter_difference_t<ForwardIt> unique_count(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last)
{
  return unique_count(policy, first, last, cuda::std::equal_to<>{});
}

// -- unique_by_key, unique_by_key_copy ------------------------------------------------------------------------

// The first key of each run of keys equal under pred, with its value, in order at the fronts of both ranges;
// returns their new ends.
template <typename A, typename D, typename KeyIt, typename ValueIt, typename BinaryPredicate>
thrust::pair<KeyIt, ValueIt> unique_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last,
                                           ValueIt values_first, BinaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::unique_by_key");
  using CountT = detail::frontend::select_count_t<KeyIt>;
  const auto n = cuda::std::distance(keys_first, keys_last);
  if (n == 0)
  {
    return thrust::pair<KeyIt, ValueIt>(keys_first, values_first);
  }
  const CountT count = detail::host_value<CountT>(policy, "strata::unique_by_key", [&](CountT* d_count) {
    return detail::frontend::unique_by_key_in_place(policy, detail::unwrap(keys_first), detail::unwrap(values_first), n,
                                                    d_count, detail::frontend::as_bool<BinaryPredicate, false>{pred});
  });
  return thrust::pair<KeyIt, ValueIt>(keys_first + count, values_first + count);
}

template <typename A, typename D, typename KeyIt, typename ValueIt>
thrust::pair<KeyIt, ValueIt> unique_by_key(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last,
                                           ValueIt values_first)
{
  return unique_by_key(policy, keys_first, keys_last, values_first, cuda::std::equal_to<>{});
}

// The first key of each run and its value to keys_out and values_out; returns the ends of both outputs.
template <typename A, typename D, typename KeyIt, typename ValueIt, typename KeyOutputIt, typename ValueOutputIt,
          typename BinaryPredicate>
thrust::pair<KeyOutputIt, ValueOutputIt> unique_by_key_copy(const execution_policy<A, D>& policy, KeyIt keys_first,
                                                            KeyIt keys_last, ValueIt values_first, KeyOutputIt keys_out,
                                                            ValueOutputIt values_out, BinaryPredicate pred)
{
  STRATA_NVTX_RANGE("strata::unique_by_key_copy");
  using CountT = detail::frontend::select_count_t<KeyIt>;
  const auto n = cuda::std::distance(keys_first, keys_last);
  if (n == 0)
  {
    return thrust::pair<KeyOutputIt, ValueOutputIt>(keys_out, values_out);
  }
  using ValuesT      = detail::select::by_key_values<detail::unwrapped_t<ValueIt>, detail::unwrapped_t<ValueOutputIt>>;
  const CountT count = detail::host_value<CountT>(policy, "strata::unique_by_key_copy", [&](CountT* d_count) {
    return detail::frontend::run_select<detail::select::mode::unique>(
      policy, detail::unwrap(keys_first), detail::select::no_flags{}, detail::unwrap(keys_out), d_count,
      detail::select::no_select_op{}, detail::frontend::as_bool<BinaryPredicate, false>{pred}, n,
      ValuesT{detail::unwrap(values_first), detail::unwrap(values_out)});
  });
  return thrust::pair<KeyOutputIt, ValueOutputIt>(keys_out + count, values_out + count);
}

template <typename A, typename D, typename KeyIt, typename ValueIt, typename KeyOutputIt, typename ValueOutputIt>
thrust::pair<KeyOutputIt, ValueOutputIt> unique_by_key_copy(const execution_policy<A, D>& policy, KeyIt keys_first,
                                                            KeyIt keys_last, ValueIt values_first, KeyOutputIt keys_out,
                                                            ValueOutputIt values_out)
{
  return unique_by_key_copy(policy, keys_first, keys_last, values_first, keys_out, values_out, cuda::std::equal_to<>{});
}

// -- partition, stable_partition, partition_copy, stable_partition_copy ---------------------------------------

// The items pred selects, in order, then the others in reverse order (Thrust's layout); returns the end of the
// selected ones.
template <typename A, typename D, typename ForwardIt, typename Predicate>
ForwardIt partition(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, Predicate pred)
{
  STRATA_NVTX_RANGE("strata::partition");
  using CountT = detail::frontend::select_count_t<ForwardIt>;
  const auto n = cuda::std::distance(first, last);
  if (n == 0)
  {
    return first;
  }
  const CountT count = detail::host_value<CountT>(policy, "strata::partition", [&](CountT* d_count) {
    return detail::frontend::partition_in_place(policy, detail::unwrap(first), n, d_count,
                                                detail::frontend::as_bool<Predicate, false>{pred});
  });
  return first + count;
}

// The items pred selects, then the others, both in order; returns the end of the selected ones.
template <typename A, typename D, typename ForwardIt, typename Predicate>
ForwardIt stable_partition(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, Predicate pred)
{
  STRATA_NVTX_RANGE("strata::stable_partition");
  using CountT = detail::frontend::select_count_t<ForwardIt>;
  const auto n = cuda::std::distance(first, last);
  if (n == 0)
  {
    return first;
  }
  const auto data    = detail::unwrap(first);
  const CountT count = detail::host_value<CountT>(policy, "strata::stable_partition", [&](CountT* d_count) {
    return detail::frontend::partition_in_place(policy, data, n, d_count,
                                                detail::frontend::as_bool<Predicate, false>{pred});
  });
  // The rejected items, written in reverse order, are turned around (in stream order; the call does not wait).
  const long long rejected = static_cast<long long>(n - count);
  if (rejected > 1)
  {
    using SwapT = detail::frontend::swap_ends<decltype(data + count), detail::iter_value_t<ForwardIt>>;
    detail::throw_on_error(DeviceFor::Bulk(rejected / 2, SwapT{data + count, rejected}, policy.stream()),
                           "strata::stable_partition");
    detail::finish_for_host(policy, "strata::stable_partition", first);
  }
  return first + count;
}

// The items pred selects to out_true and the others to out_false, both in order; returns the ends of both.
template <typename A, typename D, typename InputIt, typename TrueIt, typename FalseIt, typename Predicate>
thrust::pair<TrueIt, FalseIt> partition_copy(const execution_policy<A, D>& policy, InputIt first, InputIt last,
                                             TrueIt out_true, FalseIt out_false, Predicate pred)
{
  STRATA_NVTX_RANGE("strata::partition_copy");
  using CountT = detail::frontend::select_count_t<InputIt>;
  const auto n = cuda::std::distance(first, last);
  if (n == 0)
  {
    return thrust::pair<TrueIt, FalseIt>(out_true, out_false);
  }
  using CountsT        = cuda::std::array<CountT, 2>;
  const CountsT counts = detail::host_value<CountsT>(policy, "strata::partition_copy", [&](CountsT* d_counts) {
    return detail::frontend::partition_copy_to(policy, detail::unwrap(first), n, detail::unwrap(out_true),
                                               detail::unwrap(out_false), d_counts->data(),
                                               detail::frontend::as_bool<Predicate, false>{pred});
  });
  return thrust::pair<TrueIt, FalseIt>(out_true + counts[0], out_false + (n - counts[0]));
}

// partition_copy, whose outputs keep the input's order already.
template <typename A, typename D, typename InputIt, typename TrueIt, typename FalseIt, typename Predicate>
thrust::pair<TrueIt, FalseIt> stable_partition_copy(const execution_policy<A, D>& policy, InputIt first, InputIt last,
                                                    TrueIt out_true, FalseIt out_false, Predicate pred)
{
  return partition_copy(policy, first, last, out_true, out_false, pred);
}

// -- reduce_by_key -------------------------------------------------------------------------------------------

// For each run of consecutive keys pred finds equal, its last key (as Thrust's CUDA backend writes) to keys_out and
// the reduction of its values under op to values_out, in run order; returns the ends of both outputs.
template <typename A, typename D, typename KeyIt, typename ValueIt, typename KeyOutputIt, typename ValueOutputIt,
          typename BinaryPredicate, typename BinaryOp>
thrust::pair<KeyOutputIt, ValueOutputIt> reduce_by_key(const execution_policy<A, D>& policy, KeyIt keys_first,
                                                       KeyIt keys_last, ValueIt values_first, KeyOutputIt keys_out,
                                                       ValueOutputIt values_out, BinaryPredicate pred, BinaryOp op)
{
  STRATA_NVTX_RANGE("strata::reduce_by_key");
  using CountT = detail::frontend::select_count_t<KeyIt>;
  const auto n = cuda::std::distance(keys_first, keys_last);
  if (n == 0)
  {
    return thrust::pair<KeyOutputIt, ValueOutputIt>(keys_out, values_out);
  }
  const CountT count = detail::host_value<CountT>(policy, "strata::reduce_by_key", [&](CountT* d_count) {
    return detail::frontend::run_reduce_by_key(policy, keys_first, values_first, keys_out, values_out, d_count, pred,
                                               op, n);
  });
  return thrust::pair<KeyOutputIt, ValueOutputIt>(keys_out + count, values_out + count);
}

template <typename A, typename D, typename KeyIt, typename ValueIt, typename KeyOutputIt, typename ValueOutputIt,
          typename BinaryPredicate>
thrust::pair<KeyOutputIt, ValueOutputIt> reduce_by_key(const execution_policy<A, D>& policy, KeyIt keys_first,
                                                       KeyIt keys_last, ValueIt values_first, KeyOutputIt keys_out,
                                                       ValueOutputIt values_out, BinaryPredicate pred)
{
  return reduce_by_key(policy, keys_first, keys_last, values_first, keys_out, values_out, pred,
                       detail::frontend::reduce_by_key_plus<ValueIt, ValueOutputIt>{});
}

template <typename A, typename D, typename KeyIt, typename ValueIt, typename KeyOutputIt, typename ValueOutputIt>
thrust::pair<KeyOutputIt, ValueOutputIt> reduce_by_key(const execution_policy<A, D>& policy, KeyIt keys_first,
                                                       KeyIt keys_last, ValueIt values_first, KeyOutputIt keys_out,
                                                       ValueOutputIt values_out)
{
  return reduce_by_key(policy, keys_first, keys_last, values_first, keys_out, values_out,
                       cuda::std::equal_to<detail::iter_value_t<KeyIt>>{});
}

// -- the forms that leave the count in device memory ----------------------------------------------------------

// copy_if, the number copied to *d_count; never synchronizes.
template <typename A, typename D, typename InputIt, typename OutputIt, typename CountIt, typename Predicate>
void copy_if_into(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first, CountIt d_count,
                  Predicate pred)
{
  STRATA_NVTX_RANGE("strata::copy_if_into");
  detail::frontend::select_into<detail::select::mode::predicate>(policy, "strata::copy_if_into", first, last,
                                                                 detail::select::no_flags{}, d_first, d_count,
                                                                 detail::frontend::as_bool<Predicate, false>{pred},
                                                                 cuda::std::equal_to<>{});
}

// copy_if with a stencil, the number copied to *d_count.
template <typename A, typename D, typename InputIt, typename StencilIt, typename OutputIt, typename CountIt,
          typename Predicate>
void copy_if_into(const execution_policy<A, D>& policy, InputIt first, InputIt last, StencilIt stencil,
                  OutputIt d_first, CountIt d_count, Predicate pred)
{
  STRATA_NVTX_RANGE("strata::copy_if_into");
  detail::frontend::select_into<detail::select::mode::flagged_if>(policy, "strata::copy_if_into", first, last,
                                                                  detail::unwrap(stencil), d_first, d_count,
                                                                  detail::frontend::as_bool<Predicate, false>{pred},
                                                                  cuda::std::equal_to<>{});
}

// remove_if in place, the number kept to *d_count.
template <typename A, typename D, typename ForwardIt, typename CountIt, typename Predicate>
void remove_if_into(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, CountIt d_count,
                    Predicate pred)
{
  STRATA_NVTX_RANGE("strata::remove_if_into");
  detail::frontend::select_into<detail::select::mode::predicate>(policy, "strata::remove_if_into", first, last,
                                                                 detail::select::no_flags{}, first, d_count,
                                                                 detail::frontend::as_bool<Predicate, true>{pred},
                                                                 cuda::std::equal_to<>{});
}

// unique in place, the number kept to *d_count.
template <typename A, typename D, typename ForwardIt, typename CountIt,
          typename BinaryPredicate = cuda::std::equal_to<>>
void unique_into(const execution_policy<A, D>& policy, ForwardIt first, ForwardIt last, CountIt d_count,
                 BinaryPredicate pred = {})
{
  STRATA_NVTX_RANGE("strata::unique_into");
  detail::frontend::select_into<detail::select::mode::unique>(policy, "strata::unique_into", first, last,
                                                              detail::select::no_flags{}, first, d_count,
                                                              detail::select::no_select_op{},
                                                              detail::frontend::as_bool<BinaryPredicate, false>{pred});
}

// unique_copy, the number copied to *d_count.
template <typename A, typename D, typename InputIt, typename OutputIt, typename CountIt,
          typename BinaryPredicate = cuda::std::equal_to<>>
void unique_copy_into(const execution_policy<A, D>& policy, InputIt first, InputIt last, OutputIt d_first,
                      CountIt d_count, BinaryPredicate pred = {})
{
  STRATA_NVTX_RANGE("strata::unique_copy_into");
  detail::frontend::select_into<detail::select::mode::unique>(policy, "strata::unique_copy_into", first, last,
                                                              detail::select::no_flags{}, d_first, d_count,
                                                              detail::select::no_select_op{},
                                                              detail::frontend::as_bool<BinaryPredicate, false>{pred});
}

// unique_by_key_copy, the number of runs to *d_count.
template <typename A, typename D, typename KeyIt, typename ValueIt, typename KeyOutputIt, typename ValueOutputIt,
          typename CountIt, typename BinaryPredicate = cuda::std::equal_to<>>
void unique_by_key_copy_into(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last,
                             ValueIt values_first, KeyOutputIt keys_out, ValueOutputIt values_out, CountIt d_count,
                             BinaryPredicate pred = {})
{
  STRATA_NVTX_RANGE("strata::unique_by_key_copy_into");
  using ValuesT = detail::select::by_key_values<detail::unwrapped_t<ValueIt>, detail::unwrapped_t<ValueOutputIt>>;
  detail::throw_on_error(detail::frontend::run_select<detail::select::mode::unique>(
                           policy, detail::unwrap(keys_first), detail::select::no_flags{}, detail::unwrap(keys_out),
                           detail::unwrap(d_count), detail::select::no_select_op{},
                           detail::frontend::as_bool<BinaryPredicate, false>{pred},
                           cuda::std::distance(keys_first, keys_last),
                           ValuesT{detail::unwrap(values_first), detail::unwrap(values_out)}),
                         "strata::unique_by_key_copy_into");
}

// reduce_by_key, the number of runs to *d_count.
template <typename A, typename D, typename KeyIt, typename ValueIt, typename KeyOutputIt, typename ValueOutputIt,
          typename CountIt, typename BinaryPredicate = cuda::std::equal_to<detail::iter_value_t<KeyIt>>,
          typename BinaryOp = detail::frontend::reduce_by_key_plus<ValueIt, ValueOutputIt>>
void reduce_by_key_into(const execution_policy<A, D>& policy, KeyIt keys_first, KeyIt keys_last, ValueIt values_first,
                        KeyOutputIt keys_out, ValueOutputIt values_out, CountIt d_count, BinaryPredicate pred = {},
                        BinaryOp op = {})
{
  STRATA_NVTX_RANGE("strata::reduce_by_key_into");
  detail::throw_on_error(detail::frontend::run_reduce_by_key(policy, keys_first, values_first, keys_out, values_out,
                                                             detail::unwrap(d_count), pred, op,
                                                             cuda::std::distance(keys_first, keys_last)),
                         "strata::reduce_by_key_into");
}

// partition_copy, the number selected to d_counts[0] (and 0 to d_counts[1]: d_counts holds two counts).
template <typename A, typename D, typename InputIt, typename TrueIt, typename FalseIt, typename CountIt,
          typename Predicate>
void partition_copy_into(const execution_policy<A, D>& policy, InputIt first, InputIt last, TrueIt out_true,
                         FalseIt out_false, CountIt d_counts, Predicate pred)
{
  STRATA_NVTX_RANGE("strata::partition_copy_into");
  detail::throw_on_error(detail::frontend::partition_copy_to(policy, detail::unwrap(first),
                                                             static_cast<long long>(cuda::std::distance(first, last)),
                                                             detail::unwrap(out_true), detail::unwrap(out_false),
                                                             detail::unwrap(d_counts),
                                                             detail::frontend::as_bool<Predicate, false>{pred}),
                         "strata::partition_copy_into");
}

STRATA_NAMESPACE_END
