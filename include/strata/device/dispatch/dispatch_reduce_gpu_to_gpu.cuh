// DispatchReduceGpuToGpu: DeviceReduce's gpu_to_gpu form (strata/determinism.cuh). Passes of atoms
// (agent/agent_reduce_atoms.cuh): the first reduces the input an atom a warp into one sum an atom, each later one
// the sums before it, until a pass of one atom writes init op its sum to the output. How many passes, and which items
// each atom takes, follow from the number of items and their types alone: the block size and the grid (one wave of
// the device, warps taking atoms in turn) decide only which warp reduces which atom, so every GPU and every policy
// gives the same bits.
#pragma once

#include <strata/agent/agent_reduce.cuh>
#include <strata/agent/agent_reduce_atoms.cuh>
#include <strata/config.cuh>
#include <strata/device/dispatch/chained_policy.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/util/device.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/temporary_storage.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

// The knobs of the gpu_to_gpu reduction: the threads of a block (whole warps, each reducing an atom at a time),
// registers bounded for MIN_BLOCKS_PER_SM blocks an SM (few blocks: registers for every round of an atom in flight),
// and at most MAX_BLOCKS_PER_SM blocks an SM in the grid (0: as many as are resident). None changes the result.
template <int BLOCK_THREADS_, int MIN_BLOCKS_PER_SM_ = 1, int MAX_BLOCKS_PER_SM_ = 0>
struct AgentReduceAtomsPolicy
{
  static constexpr int BLOCK_THREADS     = BLOCK_THREADS_;
  static constexpr int MIN_BLOCKS_PER_SM = MIN_BLOCKS_PER_SM_;
  static constexpr int MAX_BLOCKS_PER_SM = MAX_BLOCKS_PER_SM_;
  static_assert(BLOCK_THREADS % 32 == 0, "whole warps");
};

namespace detail
{
namespace reduce_atoms
{
struct policy_hub
{
  struct Policy600 : ChainedPolicy<600, Policy600, Policy600>
  {
    using ReduceAtomsPolicy = AgentReduceAtomsPolicy<256>;
  };
  using MaxPolicy = Policy600;
};

STRATA_KERNELS_BEGIN

// One pass: warps take the atoms of d_in's num_items items in turn; each atom's sum goes to d_sums[atom], or, where
// the pass has a single atom, init op the sum to *d_out (init's empty result where there are no items).
template <typename MaxPolicyT, typename InputIteratorT, typename OutputIteratorT, typename OffsetT, typename AccumT,
          typename ReductionOpT, typename InitT, typename TransformOpT>
STRATA_KERNEL_ATTRIBUTES __launch_bounds__(MaxPolicyT::ActivePolicy::ReduceAtomsPolicy::BLOCK_THREADS,
                                           MaxPolicyT::ActivePolicy::ReduceAtomsPolicy::MIN_BLOCKS_PER_SM) void
DeviceReduceAtomsKernel(InputIteratorT d_in, OffsetT num_items, AccumT* d_sums, OutputIteratorT d_out, ReductionOpT op,
                        InitT init, TransformOpT transform)
{
  using Policy        = typename MaxPolicyT::ActivePolicy::ReduceAtomsPolicy;
  using Agent         = AgentReduceAtoms<InputIteratorT, AccumT, OffsetT, ReductionOpT, TransformOpT>;
  constexpr int WARPS = Policy::BLOCK_THREADS / 32;

  // The next pass may be launched now; this one waits for the pass before it (or the caller's last kernel).
  GridLaunchDependents();
  GridDependencyWait();
  if (num_items == OffsetT(0))
  {
    if (blockIdx.x == 0 && threadIdx.x == 0)
    {
      *d_out = reduce::empty_result(init);
    }
    return;
  }
  bool vectorized = false;
  if constexpr (cuda::std::is_pointer<InputIteratorT>::value)
  {
    vectorized = reinterpret_cast<cuda::std::uintptr_t>(d_in) % 16 == 0;
  }
  const OffsetT atoms = (num_items + OffsetT(Agent::ATOM_ITEMS) - 1) / OffsetT(Agent::ATOM_ITEMS);
  const OffsetT warps = static_cast<OffsetT>(gridDim.x) * OffsetT(WARPS);
  Agent agent(d_in, num_items, op, transform);
  for (OffsetT atom = static_cast<OffsetT>(blockIdx.x) * OffsetT(WARPS) + OffsetT(threadIdx.x / 32); atom < atoms;
       atom += warps)
  {
    const AccumT sum = agent.ConsumeAtom(atom, vectorized);
    if (LaneId() == 0)
    {
      if (atoms == OffsetT(1))
      {
        *d_out = reduce::with_init<AccumT>(op, init, sum);
      }
      else
      {
        d_sums[atom] = sum;
      }
    }
  }
}

STRATA_KERNELS_END

// The atoms of a pass over `items` items of T.
template <typename T, typename OffsetT>
constexpr OffsetT atoms_of(OffsetT items)
{
  return (items + OffsetT(atom_items_v<T>) - 1) / OffsetT(atom_items_v<T>);
}

// The sums such a pass writes for the next: one an atom, none where a single atom writes the output.
template <typename T, typename OffsetT>
constexpr OffsetT sums_of(OffsetT items)
{
  return items > OffsetT(atom_items_v<T>) ? atoms_of<T>(items) : OffsetT(0);
}
} // namespace reduce_atoms
} // namespace detail

// The dispatch closure of the gpu_to_gpu reduction. PolicyHub defaults to the library's; a test or benchmark may pass
// its own (the result does not change).
template <typename InputIteratorT, typename OutputIteratorT, typename OffsetT, typename ReductionOpT, typename InitT,
          typename AccumT, typename TransformOpT = Identity, typename PolicyHub = detail::reduce_atoms::policy_hub>
struct DispatchReduceGpuToGpu
{
  void* d_temp_storage;
  size_t& temp_storage_bytes;
  InputIteratorT d_in;
  OutputIteratorT d_out;
  OffsetT num_items;
  ReductionOpT op;
  InitT init;
  TransformOpT transform;
  cudaStream_t stream;
  int device;
  int ptx_version;

  using MaxPolicy = typename PolicyHub::MaxPolicy;
  using InputT    = detail::it_value_t<InputIteratorT>;

  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    using Policy = typename ActivePolicyT::ReduceAtomsPolicy;
    // The passes: over the input, then over AccumT sums, each pass's sums in the other of two buffers.
    const OffsetT first_sums  = detail::reduce_atoms::sums_of<InputT>(num_items);
    const OffsetT second_sums = detail::reduce_atoms::sums_of<AccumT>(first_sums);
    detail::temporary_storage::layout<2> layout;
    auto even   = layout.get_slot(0)->create_alias<AccumT>(static_cast<size_t>(first_sums));
    auto odd    = layout.get_slot(1)->create_alias<AccumT>(static_cast<size_t>(second_sums));
    bool mapped = false;
    STRATA_RETURN_IF_ERROR(layout.query_or_map(d_temp_storage, temp_storage_bytes, mapped));
    if (!mapped)
    {
      return cudaSuccess;
    }

    const auto first_kernel =
      detail::reduce_atoms::DeviceReduceAtomsKernel<MaxPolicy, InputIteratorT, OutputIteratorT, OffsetT, AccumT,
                                                    ReductionOpT, InitT, TransformOpT>;
    const auto later_kernel =
      detail::reduce_atoms::DeviceReduceAtomsKernel<MaxPolicy, const AccumT*, OutputIteratorT, OffsetT, AccumT,
                                                    ReductionOpT, InitT, Identity>;
    const bool programmatic = ptx_version >= 900;
    constexpr int WARPS     = Policy::BLOCK_THREADS / 32;
    size_t wave             = 0;
    STRATA_RETURN_IF_ERROR(WaveBlocks(wave, first_kernel, Policy::BLOCK_THREADS, device, 0, Policy::MAX_BLOCKS_PER_SM));
    // A pass's grid: one wave, or fewer blocks where it has fewer atoms (at least one block).
    const auto grid_of = [&](OffsetT atoms) {
      const OffsetT blocks = (atoms + OffsetT(WARPS) - 1) / OffsetT(WARPS);
      return dim3(static_cast<unsigned int>(blocks < OffsetT(1)                  ? size_t(1)
                                            : static_cast<size_t>(blocks) < wave ? static_cast<size_t>(blocks)
                                                                                 : wave));
    };

    STRATA_RETURN_IF_ERROR(detail::check_launch(
      LaunchAfter(programmatic, grid_of(detail::reduce_atoms::atoms_of<InputT>(num_items)), dim3(Policy::BLOCK_THREADS),
                  stream, first_kernel, d_in, num_items, even.get(), d_out, op, init, transform),
      stream));
    OffsetT items = first_sums;
    AccumT* from  = even.get();
    AccumT* to    = odd.get();
    while (items > OffsetT(0))
    {
      const OffsetT atoms = detail::reduce_atoms::atoms_of<AccumT>(items);
      STRATA_RETURN_IF_ERROR(detail::check_launch(LaunchAfter(programmatic, grid_of(atoms), dim3(Policy::BLOCK_THREADS),
                                                              stream, later_kernel, static_cast<const AccumT*>(from),
                                                              items, to, d_out, op, init, Identity{}),
                                                  stream));
      items              = detail::reduce_atoms::sums_of<AccumT>(items);
      AccumT* const swap = from;
      from               = to;
      to                 = swap;
    }
    return cudaSuccess;
  }

  static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, OffsetT num_items, ReductionOpT op, InitT init,
                              TransformOpT transform, cudaStream_t stream)
  {
    int device      = 0;
    int ptx_version = 0;
    STRATA_RETURN_IF_ERROR(CurrentDeviceAndPtxVersion(device, ptx_version));
    DispatchReduceGpuToGpu closure{d_temp_storage, temp_storage_bytes, d_in,   d_out,  num_items,  op,
                                   init,           transform,          stream, device, ptx_version};
    return MaxPolicy::Invoke(ptx_version, closure);
  }
};

STRATA_NAMESPACE_END
