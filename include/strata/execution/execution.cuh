// The frontend in one include: execution policies, the memory pool's view, and the std-like algorithms.
#pragma once

#include <strata/execution/adjacent_difference.cuh>
#include <strata/execution/find.cuh>
#include <strata/execution/histogram.cuh>
#include <strata/execution/memory_pool.cuh>
#include <strata/execution/merge.cuh>
#include <strata/execution/policy.cuh>
#include <strata/execution/reduce.cuh>
#include <strata/execution/scan.cuh>
#include <strata/execution/segmented.cuh>
#include <strata/execution/segmented_sort.cuh>
#include <strata/execution/select.cuh>
#include <strata/execution/sort.cuh>
#include <strata/execution/transform.cuh>
