// The warp layer: cooperative primitives for 1..32 consecutive lanes.
#pragma once

#include <strata/warp/warp_exchange.cuh>
#include <strata/warp/warp_load.cuh>
#include <strata/warp/warp_reduce.cuh>
#include <strata/warp/warp_scan.cuh>
#include <strata/warp/warp_store.cuh>
