// DeviceRadixSort::SortKeys (in/out form, all key bits) in the tuning format. The search space is declared below;
// the tuning driver compiles this file once per point with -DTUNE_BASE=0 and the TUNE_* values, and once with
// TUNE_BASE=1 (the tuned defaults of tuning_radix_sort.cuh) to compare against. The knobs are the onesweep
// kernel's (the digit passes, nearly all of the time): block size, items per thread and the minimum blocks per SM of
// its launch bounds; the histogram and single-tile kernels keep the library's policies, and digits stay 8 bits wide
// (TUNE_RADIX_BITS=7 builds a variant with 7-bit digits, which cost a pass more on every 8-byte key and are left out
// of the space) (support/radix_sort_tuning.cuh). A point whose tile does not fit in a block's shared memory
// (227 KiB on sm_90), or whose block has fewer threads than digits, reports its cases as skipped.
//
// Key types (the KeyT{ct} axis): U8, U16, U32, U64, F32 and F64, or the one that -DTUNE_KeyT=<token> names (e.g.
// -DTUNE_KeyT=F32; tuning_axes.cuh); runtime axes: 2^16 ... 2^28 keys, random (Entropy:1000) and each the AND of 3
// random words (Entropy:544).
//
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 256:512:128
// %RANGE% TUNE_ITEMS_PER_THREAD ipt 8:40:2
// %RANGE% TUNE_MIN_BLOCKS mb 1:4:1
#include "radix_sort_tuning.cuh"

#include <cstdint>

int main(int argc, char** argv)
{
#ifdef TUNE_KeyT
  radix_sort_bench::register_sort<STRATA_TUNE_TYPE(TUNE_KeyT)>("radix_sort_keys", STRATA_TUNE_STRING(TUNE_KeyT));
#else
#  define STRATA_REGISTER_KEYS(TOKEN) \
    radix_sort_bench::register_sort<STRATA_TUNE_TYPE(TOKEN)>("radix_sort_keys", STRATA_TUNE_STRING(TOKEN));
  STRATA_UNSIGNED_TYPES(STRATA_REGISTER_KEYS)
  STRATA_FLOATING_TYPES(STRATA_REGISTER_KEYS)
#  undef STRATA_REGISTER_KEYS
#endif
  return strata_bench::run_benchmarks(argc, argv);
}
