// strata: everything public, in one include.
#pragma once

#include <strata/config.cuh>
#include <strata/util/device.cuh>
#include <strata/util/error.cuh>
#include <strata/util/ptx.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include <strata/thread/thread.cuh>
#include <strata/thread/thread_merge.cuh>
#include <strata/thread/thread_sort.cuh>
#include <strata/warp/warp.cuh>
#include <strata/warp/warp_merge_sort.cuh>

#include <strata/block/block.cuh>
#include <strata/block/block_merge_sort.cuh>

#include <strata/device/device_adjacent_difference.cuh>
#include <strata/device/device_copy.cuh>
#include <strata/device/device_find.cuh>
#include <strata/device/device_for.cuh>
#include <strata/device/device_histogram.cuh>
#include <strata/device/device_memcpy.cuh>
#include <strata/device/device_merge.cuh>
#include <strata/device/device_merge_sort.cuh>
#include <strata/device/device_partition.cuh>
#include <strata/device/device_reduce.cuh>
#include <strata/device/device_run_length_encode.cuh>
#include <strata/device/device_scan.cuh>
#include <strata/device/device_segmented_radix_sort.cuh>
#include <strata/device/device_segmented_reduce.cuh>
#include <strata/device/device_segmented_scan.cuh>
#include <strata/device/device_segmented_sort.cuh>
#include <strata/device/device_select.cuh>
#include <strata/device/device_topk.cuh>
#include <strata/device/device_transform.cuh>

#include <strata/execution/execution.cuh>
