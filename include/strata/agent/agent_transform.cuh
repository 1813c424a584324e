// AgentTransform: the block-wide body of DeviceTransform's kernel, output[i] = op(inputs[i]...), and of
// DeviceFor's copying forms (no output: op(inputs[i]...) for its effect).
//
// A block owns one tile of BLOCK_THREADS * VECTORS_PER_THREAD * CHUNK_ITEMS consecutive items. Arrays behind
// pointers to trivially copyable values of 1, 2, 4, 8 or 16 bytes (the vectorizable arrays) move in chunks of
// CHUNK_ITEMS items, one load or store instruction of up to 16 bytes each, where CHUNK_ITEMS makes the widest of
// them a 16-byte vector; every other input (a counting, constant, transform or permutation iterator) is read item
// by item within the chunk. A thread issues all the loads of its VECTORS_PER_THREAD chunks before it applies the
// operator, so that each thread keeps that many vectors per array in flight: the kernel is bandwidth-bound, and
// bytes in flight are what it needs. Chunks are striped across the block (chunk j of thread t is the tile's chunk
// j * BLOCK_THREADS + t), so every load instruction of a warp covers 512 contiguous bytes.
// The last, partial tile, and every tile when an array does not start on its chunk size, go item by item (still
// striped and coalesced).
#pragma once

#include <strata/config.cuh>
#include <strata/thread/thread_load.cuh>
#include <strata/thread/thread_store.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

STRATA_NAMESPACE_BEGIN

// The tunable knobs of AgentTransform: BLOCK_THREADS threads, each moving VECTORS_PER_THREAD chunks (a 16-byte
// vector of the widest array) per tile; how chunks are loaded and stored (cache modifiers); how far ahead, in
// quarters of a wave of resident blocks, a block asks L2 for the input tile another block will start about when it
// finishes (0: no prefetch); and the kernel's __launch_bounds__ minimum of blocks per SM.
template <int BLOCK_THREADS_, int VECTORS_PER_THREAD_, CacheLoadModifier LOAD_MODIFIER_ = LOAD_PLAIN,
          CacheStoreModifier STORE_MODIFIER_ = STORE_DEFAULT, int PREFETCH_QUARTER_WAVES_ = 0,
          int MIN_BLOCKS_PER_SM_ = 1>
struct AgentTransformPolicy
{
  static constexpr int BLOCK_THREADS                 = BLOCK_THREADS_;
  static constexpr int VECTORS_PER_THREAD            = VECTORS_PER_THREAD_;
  static constexpr CacheLoadModifier LOAD_MODIFIER   = LOAD_MODIFIER_;
  static constexpr CacheStoreModifier STORE_MODIFIER = STORE_MODIFIER_;
  static constexpr int PREFETCH_QUARTER_WAVES        = PREFETCH_QUARTER_WAVES_;
  static constexpr int MIN_BLOCKS_PER_SM             = MIN_BLOCKS_PER_SM_;
};

namespace detail
{
namespace transform
{
// The value an iterator's items are read as.
template <typename It>
using value_t = cuda::std::remove_cv_t<it_value_t<It>>;

// The size of a value that vector accesses could move (1, 2, 4, 8 or 16 bytes, trivially copyable), else 0 (void
// included: the value type of output-only iterators).
template <typename T, typename = void>
struct vector_size : cuda::std::integral_constant<int, 0>
{};
template <typename T>
struct vector_size<T,
                   cuda::std::enable_if_t<!cuda::std::is_void<T>::value && cuda::std::is_trivially_copyable<T>::value>>
    : cuda::std::integral_constant<int, (sizeof(T) <= 16 && 16 % sizeof(T) == 0) ? static_cast<int>(sizeof(T)) : 0>
{};

// Whether `It` is an array that moves in chunks: a pointer to a value vector accesses can move.
template <typename It>
constexpr bool is_vectorizable_v = cuda::std::is_pointer<It>::value&& vector_size<value_t<It>>::value > 0;

template <typename It>
constexpr int vector_bytes_v = is_vectorizable_v<It> ? vector_size<value_t<It>>::value : 1;

constexpr int max_of()
{
  return 1;
}
template <typename... Ints>
constexpr int max_of(int first, Ints... rest)
{
  return first > max_of(rest...) ? first : max_of(rest...);
}

// Items per chunk: a 16-byte vector of the widest vectorizable array (16 single items when there is none; the
// arrays are then read item by item, CHUNK_ITEMS at a time).
template <typename... Its>
constexpr int chunk_items_v = 16 / max_of(vector_bytes_v<Its>...);

// CHUNK_ITEMS consecutive values of T; VECTOR: aligned as one load or store instruction (T then takes 1 to 16 bytes
// and the chunk at most 16).
template <typename T, int CHUNK_ITEMS, bool VECTOR>
struct alignas(VECTOR ? sizeof(T) * CHUNK_ITEMS : alignof(T)) chunk
{
  T items[CHUNK_ITEMS];
};

// The chunk `It`'s items are read into.
template <typename It, int CHUNK_ITEMS>
using chunk_of = chunk<value_t<It>, CHUNK_ITEMS, is_vectorizable_v<It>>;

// Whether `it` starts on a multiple of its chunk's size (always true for arrays read item by item).
template <int CHUNK_ITEMS, typename It>
STRATA_HOST_DEVICE bool chunk_aligned(It it)
{
  if constexpr (is_vectorizable_v<It>)
  {
    return reinterpret_cast<cuda::std::uintptr_t>(it) % (sizeof(value_t<It>) * CHUNK_ITEMS) == 0;
  }
  else
  {
    (void) it;
    return true;
  }
}

// Reads the CHUNK_ITEMS items at `offset` of `it`: one instruction (with the cache modifier) for a vectorizable array.
template <int CHUNK_ITEMS, CacheLoadModifier MODIFIER, typename It, typename OffsetT>
STRATA_DEVICE STRATA_FORCEINLINE chunk_of<It, CHUNK_ITEMS> load_chunk(It it, OffsetT offset)
{
  if constexpr (is_vectorizable_v<It>)
  {
    return ThreadLoad<MODIFIER>(reinterpret_cast<const chunk_of<It, CHUNK_ITEMS>*>(it + offset));
  }
  else
  {
    chunk_of<It, CHUNK_ITEMS> c;
    STRATA_UNROLL
    for (int k = 0; k < CHUNK_ITEMS; ++k)
    {
      c.items[k] = it[offset + OffsetT(k)];
    }
    return c;
  }
}

// Writes CHUNK_ITEMS items at `offset` of `it`: one instruction (with the cache modifier) for a vectorizable array.
template <int CHUNK_ITEMS, CacheStoreModifier MODIFIER, typename It, typename OffsetT, typename T, bool VECTOR>
STRATA_DEVICE STRATA_FORCEINLINE void store_chunk(It it, OffsetT offset, const chunk<T, CHUNK_ITEMS, VECTOR>& c)
{
  if constexpr (VECTOR)
  {
    ThreadStore<MODIFIER>(reinterpret_cast<chunk<T, CHUNK_ITEMS, true>*>(it + offset), c);
  }
  else
  {
    STRATA_UNROLL
    for (int k = 0; k < CHUNK_ITEMS; ++k)
    {
      it[offset + OffsetT(k)] = c.items[k];
    }
  }
}

// Asks L2 for `bytes` bytes of `it` from `offset` (vectorizable arrays that start on 16 bytes; nothing otherwise).
template <typename It, typename OffsetT>
STRATA_DEVICE STRATA_FORCEINLINE void prefetch_tile(It it, OffsetT offset, unsigned int bytes)
{
  if constexpr (is_vectorizable_v<It>)
  {
    if (reinterpret_cast<cuda::std::uintptr_t>(it) % 16 == 0)
    {
      PrefetchL2Bulk(it + offset, bytes);
    }
  }
  else
  {
    (void) it;
    (void) offset;
    (void) bytes;
  }
}

// A transform's output when there is none (DeviceFor's copying forms): the operator is called for its effect.
struct no_output
{};
} // namespace transform
} // namespace detail

// OutputIteratorT: where op's results go, or detail::transform::no_output. InputIteratorsT: the inputs (any number,
// none included: op() then makes each item).
template <typename PolicyT, typename OffsetT, typename OpT, typename OutputIteratorT, typename... InputIteratorsT>
class AgentTransform
{
  static constexpr bool HAS_OUTPUT = !cuda::std::is_same<OutputIteratorT, detail::transform::no_output>::value;
  using OutputAccessT              = cuda::std::conditional_t<HAS_OUTPUT, OutputIteratorT, char*>;
  // What is written: the output's value type, or op's result where the output has none (a discard or a
  // tabulate output iterator).
  using ResultT = detail::non_void_value_t<
    OutputAccessT,
    cuda::std::decay_t<cuda::std::invoke_result_t<OpT&, detail::transform::value_t<InputIteratorsT>&...>>>;

public:
  static constexpr int BLOCK_THREADS      = PolicyT::BLOCK_THREADS;
  static constexpr int VECTORS_PER_THREAD = PolicyT::VECTORS_PER_THREAD;
  static constexpr int CHUNK_ITEMS        = detail::transform::chunk_items_v<InputIteratorsT..., OutputAccessT>;
  static constexpr int TILE_ITEMS         = BLOCK_THREADS * VECTORS_PER_THREAD * CHUNK_ITEMS;

  // Whether every array of the call starts on its chunk size (checked once, on the host): if not, tiles go item by
  // item.
  static STRATA_HOST_DEVICE bool Aligned(const cuda::std::tuple<InputIteratorsT...>& inputs, OutputIteratorT output)
  {
    bool aligned = true;
    if constexpr (HAS_OUTPUT)
    {
      aligned = detail::transform::chunk_aligned<CHUNK_ITEMS>(output);
    }
    cuda::std::apply(
      [&](const InputIteratorsT&... in) {
        ((aligned = aligned && detail::transform::chunk_aligned<CHUNK_ITEMS>(in)), ...);
      },
      inputs);
    return aligned;
  }

  STRATA_DEVICE STRATA_FORCEINLINE AgentTransform(const cuda::std::tuple<InputIteratorsT...>& inputs,
                                                  OutputIteratorT output, OpT op)
      : inputs_(inputs)
      , output_(output)
      , op_(op)
  {}

  // Transforms tile `tile_idx` of a range of `num_items` items. `chunked`: every array is chunk-aligned. With a
  // prefetch distance, thread 0 first asks L2 for the input tile `prefetch_distance` tiles ahead (whole tiles only).
  STRATA_DEVICE STRATA_FORCEINLINE void ConsumeTile(OffsetT tile_idx, OffsetT num_items, bool chunked,
                                                    unsigned int prefetch_distance)
  {
    const OffsetT tile_offset = tile_idx * OffsetT(TILE_ITEMS);
    const OffsetT remaining   = num_items - tile_offset;
    if constexpr (PolicyT::PREFETCH_QUARTER_WAVES > 0)
    {
      const OffsetT ahead = tile_offset + OffsetT(prefetch_distance) * OffsetT(TILE_ITEMS);
      if (threadIdx.x == 0 && prefetch_distance > 0 && ahead < num_items && num_items - ahead >= OffsetT(TILE_ITEMS))
      {
        cuda::std::apply(
          [&](const InputIteratorsT&... in) {
            (detail::transform::prefetch_tile(
               in, ahead, static_cast<unsigned int>(TILE_ITEMS * sizeof(detail::transform::value_t<InputIteratorsT>))),
             ...);
          },
          inputs_);
      }
    }
    if (chunked && remaining >= OffsetT(TILE_ITEMS))
    {
      consume_chunks(tile_offset, cuda::std::index_sequence_for<InputIteratorsT...>{});
    }
    else
    {
      consume_items(tile_offset, remaining < OffsetT(TILE_ITEMS) ? remaining : OffsetT(TILE_ITEMS),
                    cuda::std::index_sequence_for<InputIteratorsT...>{});
    }
  }

private:
  template <typename... Values>
  STRATA_DEVICE STRATA_FORCEINLINE void apply_one(OffsetT index, const Values&... values)
  {
    if constexpr (HAS_OUTPUT)
    {
      output_[index] = op_(values...);
    }
    else
    {
      op_(values...);
    }
  }

  // A full tile in chunks: every load first, then the operator and the stores.
  template <size_t... I>
  STRATA_DEVICE STRATA_FORCEINLINE void consume_chunks(OffsetT tile_offset, cuda::std::index_sequence<I...>)
  {
    cuda::std::tuple<detail::transform::chunk_of<InputIteratorsT, CHUNK_ITEMS>...> loaded[VECTORS_PER_THREAD];
    STRATA_UNROLL
    for (int v = 0; v < VECTORS_PER_THREAD; ++v)
    {
      const OffsetT offset = tile_offset + OffsetT((v * BLOCK_THREADS + static_cast<int>(threadIdx.x)) * CHUNK_ITEMS);
      loaded[v]            = cuda::std::make_tuple(
                   detail::transform::load_chunk<CHUNK_ITEMS, PolicyT::LOAD_MODIFIER>(cuda::std::get<I>(inputs_), offset)...);
    }
    STRATA_UNROLL
    for (int v = 0; v < VECTORS_PER_THREAD; ++v)
    {
      const OffsetT offset = tile_offset + OffsetT((v * BLOCK_THREADS + static_cast<int>(threadIdx.x)) * CHUNK_ITEMS);
      if constexpr (HAS_OUTPUT)
      {
        // A vector store where the output is an array of the result type.
        constexpr bool VECTOR_OUT =
          detail::transform::is_vectorizable_v<
            OutputIteratorT> && cuda::std::is_same<detail::transform::value_t<OutputIteratorT>, ResultT>::value;
        detail::transform::chunk<ResultT, CHUNK_ITEMS, VECTOR_OUT> out;
        STRATA_UNROLL
        for (int k = 0; k < CHUNK_ITEMS; ++k)
        {
          out.items[k] = static_cast<ResultT>(op_(cuda::std::get<I>(loaded[v]).items[k]...));
        }
        detail::transform::store_chunk<CHUNK_ITEMS, PolicyT::STORE_MODIFIER>(output_, offset, out);
      }
      else
      {
        STRATA_UNROLL
        for (int k = 0; k < CHUNK_ITEMS; ++k)
        {
          op_(cuda::std::get<I>(loaded[v]).items[k]...);
        }
      }
    }
  }

  // `valid_items` items from `tile_offset`, one at a time, striped across the block.
  template <size_t... I>
  STRATA_DEVICE STRATA_FORCEINLINE void consume_items(OffsetT tile_offset, OffsetT valid_items,
                                                      cuda::std::index_sequence<I...>)
  {
    for (OffsetT i = OffsetT(threadIdx.x); i < valid_items; i += OffsetT(BLOCK_THREADS))
    {
      const OffsetT index = tile_offset + i;
      apply_one(index, detail::transform::value_t<InputIteratorsT>(cuda::std::get<I>(inputs_)[index])...);
    }
  }

  cuda::std::tuple<InputIteratorsT...> inputs_;
  OutputIteratorT output_;
  OpT op_;
};

STRATA_NAMESPACE_END
