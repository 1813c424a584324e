// The thread layer: sequential reductions and scans over per-thread arrays, cache-modified loads and stores,
// and the operators shared by every layer.
#pragma once

#include <strata/thread/thread_load.cuh>
#include <strata/thread/thread_operators.cuh>
#include <strata/thread/thread_reduce.cuh>
#include <strata/thread/thread_scan.cuh>
#include <strata/thread/thread_store.cuh>
