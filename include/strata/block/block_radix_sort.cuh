// BlockRadixSort: a stable radix sort of the keys (and values) of a tile held by a thread block.
#pragma once

#include <strata/block/block_exchange.cuh>
#include <strata/block/block_radix_rank.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/radix_rank_sort_operations.cuh>
#include <strata/config.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/uninitialized.cuh>

#include <cuda/std/type_traits>

STRATA_NAMESPACE_BEGIN

//! BlockRadixSort<KeyT, BLOCK_DIM_X, ITEMS_PER_THREAD, ValueT, RADIX_BITS, MEMOIZE_OUTER_SCAN, INNER_SCAN_ALGORITHM,
//! SMEM_CONFIG, BLOCK_DIM_Y, BLOCK_DIM_Z> sorts the BLOCK_THREADS * ITEMS_PER_THREAD keys of a tile, with a value
//! per key unless ValueT is NullType.
//!
//! - Input in a blocked arrangement (thread t holds tile items t * ITEMS_PER_THREAD + i, threads ranked by
//!   RowMajorTid). Sort and SortDescending leave the sorted tile blocked; SortBlockedToStriped and
//!   SortDescendingBlockedToStriped leave it striped (thread t holds sorted items i * BLOCK_THREADS + t), which is
//!   ready for coalesced stores.
//! - Stable: keys that compare equal keep their input order, in ascending and descending sorts alike.
//! - Keys: integral types (bool included), float and double. Floats sort -inf < ... < -0.0 == +0.0 < ... < +inf
//!   (the two zeros are equal keys; each keeps its sign bit); NaNs go by their bits, negative ones before -inf,
//!   positive ones after +inf.
//! - [begin_bit, end_bit): only these bits of the twiddled keys (radix_rank_sort_operations.cuh) are compared; keys
//!   equal in them keep their input order. An empty range leaves the keys in input order (rearranged to striped by
//!   the *ToStriped forms).
//! - Temporary storage: TempStorage, or the default constructor's private __shared__ allocation. Every thread of
//!   the block must call the same sort; pass a __syncthreads() before reusing the TempStorage. The storage is a union
//!   of the ranking and the exchange storage: (2^RADIX_BITS / 2 + 1) 32-bit counters per thread and a BlockScan's
//!   storage, or one tile of keys or values.
//! - Tiles of at most 65535 items. Cost per RADIX_BITS bits: one BlockRadixRank, and a BlockExchange scatter of the
//!   keys and of the values; six barriers (eight with values) with the default BLOCK_SCAN_WARP_SCANS.
//!
//! Example (128 threads, 4 keys and values each):
//!   using BlockRadixSortT = strata::BlockRadixSort<int, 128, 4, float>;
//!   __shared__ typename BlockRadixSortT::TempStorage temp_storage;
//!   int keys[4];     // ... a blocked arrangement
//!   float values[4];
//!   BlockRadixSortT(temp_storage).Sort(keys, values);  // thread t holds sorted items 4t .. 4t + 3
template <typename KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, typename ValueT = NullType, int RADIX_BITS = 4,
          bool MEMOIZE_OUTER_SCAN = true, BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig SMEM_CONFIG = cudaSharedMemBankSizeFourByte, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockRadixSort
{
  using traits           = detail::radix_traits<KeyT>;
  using bit_ordered_type = typename traits::bit_ordered_type;

  using AscendingBlockRadixRank  = BlockRadixRank<BLOCK_DIM_X, RADIX_BITS, false, MEMOIZE_OUTER_SCAN,
                                                 INNER_SCAN_ALGORITHM, SMEM_CONFIG, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  using DescendingBlockRadixRank = BlockRadixRank<BLOCK_DIM_X, RADIX_BITS, true, MEMOIZE_OUTER_SCAN,
                                                  INNER_SCAN_ALGORITHM, SMEM_CONFIG, BLOCK_DIM_Y, BLOCK_DIM_Z>;

  // Keys travel between passes as their twiddled bits.
  using BlockExchangeKeys =
    BlockExchange<bit_ordered_type, BLOCK_DIM_X, ITEMS_PER_THREAD, false, BLOCK_DIM_Y, BLOCK_DIM_Z>;

  template <typename V, bool = cuda::std::is_same<V, NullType>::value>
  struct value_exchange
  {
    using type    = BlockExchange<V, BLOCK_DIM_X, ITEMS_PER_THREAD, false, BLOCK_DIM_Y, BLOCK_DIM_Z>;
    using storage = typename type::TempStorage;
  };
  template <typename V>
  struct value_exchange<V, true>
  {
    using type    = void;
    using storage = NullType;
  };
  using BlockExchangeValues = typename value_exchange<ValueT>::type;

  // Ranking and exchanging never overlap: every pass separates them with a barrier.
  union _TempStorage
  {
    typename AscendingBlockRadixRank::TempStorage ascending_ranking_storage;
    typename DescendingBlockRadixRank::TempStorage descending_ranking_storage;
    typename BlockExchangeKeys::TempStorage exchange_keys;
    typename value_exchange<ValueT>::storage exchange_values;
  };

  _TempStorage& temp_storage;

  static STRATA_DEVICE STRATA_FORCEINLINE _TempStorage& PrivateStorage()
  {
    __shared__ _TempStorage private_storage;
    return private_storage;
  }

  template <bool DESCENDING>
  STRATA_DEVICE STRATA_FORCEINLINE void RankKeys(const bit_ordered_type (&keys)[ITEMS_PER_THREAD],
                                                 int (&ranks)[ITEMS_PER_THREAD],
                                                 BFEDigitExtractor<KeyT> digit_extractor)
  {
    if constexpr (DESCENDING)
    {
      DescendingBlockRadixRank(temp_storage.descending_ranking_storage).RankKeys(keys, ranks, digit_extractor);
    }
    else
    {
      AscendingBlockRadixRank(temp_storage.ascending_ranking_storage).RankKeys(keys, ranks, digit_extractor);
    }
  }

  // Moves every key (and value) to the tile position of its rank: blocked, or striped after the last pass. ValuesT
  // is ValueT, or NullType for a keys-only sort.
  template <bool TO_STRIPED, typename ValuesT>
  STRATA_DEVICE STRATA_FORCEINLINE void Scatter(bit_ordered_type (&keys)[ITEMS_PER_THREAD],
                                                ValuesT (&values)[ITEMS_PER_THREAD],
                                                const int (&ranks)[ITEMS_PER_THREAD])
  {
    if constexpr (TO_STRIPED)
    {
      BlockExchangeKeys(temp_storage.exchange_keys).ScatterToStriped(keys, ranks);
    }
    else
    {
      BlockExchangeKeys(temp_storage.exchange_keys).ScatterToBlocked(keys, ranks);
    }
    if constexpr (!cuda::std::is_same<ValuesT, NullType>::value)
    {
      // The values reuse the storage the keys were just read from.
      __syncthreads();
      if constexpr (TO_STRIPED)
      {
        BlockExchangeValues(temp_storage.exchange_values).ScatterToStriped(values, ranks);
      }
      else
      {
        BlockExchangeValues(temp_storage.exchange_values).ScatterToBlocked(values, ranks);
      }
    }
  }

  // One pass per RADIX_BITS bits from begin_bit up, each a stable rank by that digit and a scatter; the order of
  // equal digits that each pass preserves is the order the previous passes established.
  template <bool DESCENDING, bool TO_STRIPED, typename ValuesT>
  STRATA_DEVICE STRATA_FORCEINLINE void SortTile(KeyT (&keys)[ITEMS_PER_THREAD], ValuesT (&values)[ITEMS_PER_THREAD],
                                                 int begin_bit, int end_bit)
  {
    bit_ordered_type bits[ITEMS_PER_THREAD];
    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      bits[i] = traits::to_bit_ordered(traits::to_bits(keys[i]));
    }

    while (true)
    {
      const int pass_bits = end_bit - begin_bit < RADIX_BITS ? end_bit - begin_bit : RADIX_BITS;
      int ranks[ITEMS_PER_THREAD];
      RankKeys<DESCENDING>(bits, ranks,
                           BFEDigitExtractor<KeyT>(static_cast<unsigned int>(begin_bit),
                                                   pass_bits > 0 ? static_cast<unsigned int>(pass_bits) : 0u));
      begin_bit += RADIX_BITS;

      // The exchange storage overlays the counters the ranks were just read from.
      __syncthreads();
      const bool last_pass = begin_bit >= end_bit;
      // One scatter in the loop body unless the last pass differs: two copies of it cost registers.
      if (TO_STRIPED && last_pass)
      {
        Scatter<true>(bits, values, ranks);
        break;
      }
      Scatter<false>(bits, values, ranks);
      if (last_pass)
      {
        break;
      }
      // The next pass's counters overlay the exchange storage just read from.
      __syncthreads();
    }

    STRATA_UNROLL
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      keys[i] = traits::from_bits(traits::from_bit_ordered(bits[i]));
    }
  }

public:
  //! Shared memory for one sort.
  struct TempStorage : Uninitialized<_TempStorage>
  {};

  //! Uses a private __shared__ allocation as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockRadixSort()
      : temp_storage(PrivateStorage())
  {}

  //! Uses `storage` as temporary storage.
  STRATA_DEVICE STRATA_FORCEINLINE BlockRadixSort(TempStorage& storage)
      : temp_storage(storage.Alias())
  {}

  // -- blocked arrangement in, blocked arrangement out -------------------------------------------------------

  //! Sorts the keys ascending by bits [begin_bit, end_bit).
  STRATA_DEVICE STRATA_FORCEINLINE void Sort(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                             int end_bit = sizeof(KeyT) * 8)
  {
    NullType values[ITEMS_PER_THREAD];
    SortTile<false, false>(keys, values, begin_bit, end_bit);
  }

  //! Sorts the keys ascending by bits [begin_bit, end_bit), each value moving with its key.
  STRATA_DEVICE STRATA_FORCEINLINE void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD],
                                             int begin_bit = 0, int end_bit = sizeof(KeyT) * 8)
  {
    SortTile<false, false>(keys, values, begin_bit, end_bit);
  }

  //! Sorts the keys descending by bits [begin_bit, end_bit).
  STRATA_DEVICE STRATA_FORCEINLINE void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                                       int end_bit = sizeof(KeyT) * 8)
  {
    NullType values[ITEMS_PER_THREAD];
    SortTile<true, false>(keys, values, begin_bit, end_bit);
  }

  //! Sorts the keys descending by bits [begin_bit, end_bit), each value moving with its key.
  STRATA_DEVICE STRATA_FORCEINLINE void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD],
                                                       ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                                                       int end_bit = sizeof(KeyT) * 8)
  {
    SortTile<true, false>(keys, values, begin_bit, end_bit);
  }

  // -- blocked arrangement in, striped arrangement out -------------------------------------------------------

  //! Sorts the keys ascending by bits [begin_bit, end_bit); the result is striped.
  STRATA_DEVICE STRATA_FORCEINLINE void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                                             int end_bit = sizeof(KeyT) * 8)
  {
    NullType values[ITEMS_PER_THREAD];
    SortTile<false, true>(keys, values, begin_bit, end_bit);
  }

  //! Sorts the keys ascending by bits [begin_bit, end_bit), each value moving with its key; the result is striped.
  STRATA_DEVICE STRATA_FORCEINLINE void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD],
                                                             ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                                                             int end_bit = sizeof(KeyT) * 8)
  {
    SortTile<false, true>(keys, values, begin_bit, end_bit);
  }

  //! Sorts the keys descending by bits [begin_bit, end_bit); the result is striped.
  STRATA_DEVICE STRATA_FORCEINLINE void
  SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8)
  {
    NullType values[ITEMS_PER_THREAD];
    SortTile<true, true>(keys, values, begin_bit, end_bit);
  }

  //! Sorts the keys descending by bits [begin_bit, end_bit), each value moving with its key; the result is striped.
  STRATA_DEVICE STRATA_FORCEINLINE void SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD],
                                                                       ValueT (&values)[ITEMS_PER_THREAD],
                                                                       int begin_bit = 0,
                                                                       int end_bit   = sizeof(KeyT) * 8)
  {
    SortTile<true, true>(keys, values, begin_bit, end_bit);
  }
};

STRATA_NAMESPACE_END
