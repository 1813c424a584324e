// The defaults of the tuning knobs that the single-pass (decoupled look-back) benchmarks in the tuning format share
// (benchmarks/bench/scan, benchmarks/bench/select): a knob a variant leaves out takes the library's value.
// TUNE_LOAD: 0 warp-striped reads transposed through shared memory, 1 vectorized reads.
#pragma once

#ifndef TUNE_BASE
#  define TUNE_BASE 1
#endif
#ifndef TUNE_LOAD
#  define TUNE_LOAD 0
#endif
#ifndef TUNE_DELAY_NS
#  define TUNE_DELAY_NS 32
#endif
#ifndef TUNE_MAX_DELAY_NS
#  define TUNE_MAX_DELAY_NS 256
#endif
#ifndef TUNE_PREFETCH_QUARTERS
#  define TUNE_PREFETCH_QUARTERS 4
#endif
#ifndef TUNE_MIN_BLOCKS
#  define TUNE_MIN_BLOCKS 1
#endif
#ifndef TUNE_PERSISTENT
#  define TUNE_PERSISTENT 1
#endif
