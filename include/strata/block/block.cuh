// The block layer: cooperative primitives for every thread of a (1-, 2- or 3-D) thread block.
#pragma once

#include <strata/block/block_adjacent_difference.cuh>
#include <strata/block/block_discontinuity.cuh>
#include <strata/block/block_exchange.cuh>
#include <strata/block/block_histogram.cuh>
#include <strata/block/block_load.cuh>
#include <strata/block/block_radix_rank.cuh>
#include <strata/block/block_radix_sort.cuh>
#include <strata/block/block_reduce.cuh>
#include <strata/block/block_run_length_decode.cuh>
#include <strata/block/block_scan.cuh>
#include <strata/block/block_shuffle.cuh>
#include <strata/block/block_store.cuh>
