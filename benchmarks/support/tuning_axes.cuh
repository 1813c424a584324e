// The axes of the benchmarks in the tuning format (benchmarks/bench/<algorithm>/<flavor>.cu), named as
// scripts/tuning_core.py reads them: after the benchmark's name, one "/<Axis>{ct}:<TOKEN>" per compile-time axis,
// then the runtime axes as Google Benchmark's named arguments, "Elements{io}[pow2]:<k>" (2^k items; {io}: later
// values weigh more in a score) and untagged ones ("Entropy:<thousandths>"):
//   radix_sort_keys/KeyT{ct}:U32/Elements{io}[pow2]:24/Entropy:544
//
// Types are named by tokens (I8 .. I64, U8 .. U64, F32, F64: strata_bench::types::<TOKEN>). A benchmark registers the
// values of a compile-time axis from one of the lists below, or only the one that -DTUNE_<Axis>=<TOKEN> names: a
// variant build for one workload instantiates one type, and compiles in a fraction of the time.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

namespace strata_bench
{
namespace types
{
using I8  = std::int8_t;
using I16 = std::int16_t;
using I32 = std::int32_t;
using I64 = std::int64_t;
using U8  = std::uint8_t;
using U16 = std::uint16_t;
using U32 = std::uint32_t;
using U64 = std::uint64_t;
using F32 = float;
using F64 = double;
} // namespace types

// "<name>/<Axis>{ct}:<token>" for each (axis, token) pair.
inline std::string tuning_name(std::string name, const char* axis, const char* token)
{
  return name + "/" + axis + "{ct}:" + token;
}
} // namespace strata_bench

// The type a token names, and the token as a string; both expand macros first (STRATA_TUNE_STRING(TUNE_T) is "I32"
// for -DTUNE_T=I32).
#define STRATA_TUNE_TYPE(token) ::strata_bench::types::token
#define STRATA_TUNE_STRING_(token) #token
#define STRATA_TUNE_STRING(token) STRATA_TUNE_STRING_(token)

// Type lists: F(TOKEN) for each type of the list.
#define STRATA_SIGNED_TYPES(F) F(I8) F(I16) F(I32) F(I64)
#define STRATA_UNSIGNED_TYPES(F) F(U8) F(U16) F(U32) F(U64)
#define STRATA_INTEGRAL_TYPES(F) STRATA_SIGNED_TYPES(F) STRATA_UNSIGNED_TYPES(F)
#define STRATA_FLOATING_TYPES(F) F(F32) F(F64)
#define STRATA_FUNDAMENTAL_TYPES(F) STRATA_INTEGRAL_TYPES(F) STRATA_FLOATING_TYPES(F)
// The signed integers and floating-point types: the value types the reduce, scan and transform benchmarks time.
#define STRATA_ARITHMETIC_TYPES(F) STRATA_SIGNED_TYPES(F) STRATA_FLOATING_TYPES(F)
// Offset types (num_items).
#define STRATA_OFFSET_TYPES(F) F(U32) F(U64)

// Registers FUNCTION<type of TOKEN> as "<NAME>/<AXIS>{ct}:<TOKEN>/Elements{io}[pow2]:<k>" for k = 16, 20, 24, 28,
// timed by the benchmark itself (manual time).
#define STRATA_TUNING_BENCH(FUNCTION, NAME, AXIS, TOKEN)                     \
  BENCHMARK(FUNCTION<STRATA_TUNE_TYPE(TOKEN)>)                               \
    ->Name(strata_bench::tuning_name(NAME, AXIS, STRATA_TUNE_STRING(TOKEN))) \
    ->ArgName("Elements{io}[pow2]")                                          \
    ->DenseRange(16, 28, 4)                                                  \
    ->UseManualTime()                                                        \
    ->Unit(benchmark::kMicrosecond);

// The same for FUNCTION<key type, value type>: "<NAME>/KeyT{ct}:<KEY>/ValueT{ct}:<VALUE>/Elements{io}[pow2]:<k>".
#define STRATA_TUNING_BENCH_PAIRS(FUNCTION, NAME, KEY, VALUE)                                                    \
  BENCHMARK(FUNCTION<STRATA_TUNE_TYPE(KEY), STRATA_TUNE_TYPE(VALUE)>)                                            \
    ->Name(strata_bench::tuning_name(strata_bench::tuning_name(NAME, "KeyT", STRATA_TUNE_STRING(KEY)), "ValueT", \
                                     STRATA_TUNE_STRING(VALUE)))                                                 \
    ->ArgName("Elements{io}[pow2]")                                                                              \
    ->DenseRange(16, 28, 4)                                                                                      \
    ->UseManualTime()                                                                                            \
    ->Unit(benchmark::kMicrosecond);
