// DeviceRadixSort::SortPairs (in/out form, all key bits) in the tuning format. The search space is declared below;
// the tuning driver compiles this file once per point with -DTUNE_BASE=0 and the TUNE_* values, and once with
// TUNE_BASE=1 (the tuned defaults of tuning_radix_sort.cuh) to compare against. The knobs are the onesweep
// kernel's (the digit passes, nearly all of the time): block size, items per thread, the minimum blocks per SM of its
// launch bounds, whether values go to shared memory with their keys as they are ranked, and whether values that
// follow the keys are loaded after the look-back (by the threads that look back); the histogram and
// single-tile kernels keep the library's policies, and digits stay 8 bits wide (TUNE_RADIX_BITS=7 builds a variant
// with 7-bit digits, which cost a pass more on every 8-byte key and are left out of the space)
// (support/radix_sort_tuning.cuh). A point whose tile does not fit in a block's shared memory (227 KiB on sm_90), or
// whose block has fewer threads than digits, reports its cases as skipped.
//
// Key and value types (the KeyT{ct} and ValueT{ct} axes): U32/U32 and U64/U64, or the pair that -DTUNE_KeyT=<token>
// and -DTUNE_ValueT=<token> name (tuning_axes.cuh; the value type defaults to the key type; values are integers of 4
// or 8 bytes, each item's input index, which the validation needs); runtime axes: 2^16 ... 2^28 pairs, random keys
// (Entropy:1000) and keys each the AND of 3 random words (Entropy:544).
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 256:512:128
// %RANGE% TUNE_ITEMS_PER_THREAD ipt 8:32:2
// %RANGE% TUNE_MIN_BLOCKS mb 1:4:1
// %RANGE% TUNE_VALUES_WITH_KEYS vwk 0:1:1
// %RANGE% TUNE_VALUES_AFTER_LOOKBACK val 0:1:1
#include "radix_sort_tuning.cuh"

#include <cstdint>

#if defined(TUNE_KeyT) && !defined(TUNE_ValueT)
#  define TUNE_ValueT TUNE_KeyT
#endif

int main(int argc, char** argv)
{
#ifdef TUNE_KeyT
  radix_sort_bench::register_sort<STRATA_TUNE_TYPE(TUNE_KeyT), STRATA_TUNE_TYPE(TUNE_ValueT)>(
    "radix_sort_pairs", STRATA_TUNE_STRING(TUNE_KeyT), STRATA_TUNE_STRING(TUNE_ValueT));
#else
  radix_sort_bench::register_sort<std::uint32_t, std::uint32_t>("radix_sort_pairs", "U32", "U32");
  radix_sort_bench::register_sort<std::uint64_t, std::uint64_t>("radix_sort_pairs", "U64", "U64");
#endif
  return strata_bench::run_benchmarks(argc, argv);
}
