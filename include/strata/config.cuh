// strata configuration: namespaces, kernel attributes and target macros.
//
// Every strata header opens its code with STRATA_NAMESPACE_BEGIN and closes it with STRATA_NAMESPACE_END.
// The inline namespace between `strata` and the code names the architectures this translation unit is
// compiled for (nvcc's __CUDA_ARCH_LIST__), so two shared libraries built with different architecture lists
// never resolve each other's kernels or device functions: their mangled names differ.
// Users spell everything as `strata::X`; the inline namespace is invisible to them.
//
// The compiled backend (libstrata_backend) declares its functions outside the inline namespace, in
// `strata::backend`, because it is built once and linked against code compiled for any architecture list.
#pragma once

#include <cuda_runtime.h>
#include <nv/target>

#include <cstddef>
#include <cstdint>

#define STRATA_VERSION_MAJOR 0
#define STRATA_VERSION_MINOR 2
#define STRATA_VERSION_PATCH 0

// -- preprocessor helpers ------------------------------------------------------------------------------
#define STRATA_PP_CAT_(a, b) a##b
#define STRATA_PP_CAT(a, b) STRATA_PP_CAT_(a, b)
#define STRATA_PP_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, N, ...) N
#define STRATA_PP_NARGS(...) STRATA_PP_NARGS_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define STRATA_PP_JOIN_1(a) _##a
#define STRATA_PP_JOIN_2(a, ...) STRATA_PP_CAT(_##a, STRATA_PP_JOIN_1(__VA_ARGS__))
#define STRATA_PP_JOIN_3(a, ...) STRATA_PP_CAT(_##a, STRATA_PP_JOIN_2(__VA_ARGS__))
#define STRATA_PP_JOIN_4(a, ...) STRATA_PP_CAT(_##a, STRATA_PP_JOIN_3(__VA_ARGS__))
#define STRATA_PP_JOIN_5(a, ...) STRATA_PP_CAT(_##a, STRATA_PP_JOIN_4(__VA_ARGS__))
#define STRATA_PP_JOIN_6(a, ...) STRATA_PP_CAT(_##a, STRATA_PP_JOIN_5(__VA_ARGS__))
#define STRATA_PP_JOIN_7(a, ...) STRATA_PP_CAT(_##a, STRATA_PP_JOIN_6(__VA_ARGS__))
#define STRATA_PP_JOIN_8(a, ...) STRATA_PP_CAT(_##a, STRATA_PP_JOIN_7(__VA_ARGS__))
#define STRATA_PP_JOIN_9(a, ...) STRATA_PP_CAT(_##a, STRATA_PP_JOIN_8(__VA_ARGS__))
#define STRATA_PP_JOIN_10(a, ...) STRATA_PP_CAT(_##a, STRATA_PP_JOIN_9(__VA_ARGS__))
#define STRATA_PP_JOIN_11(a, ...) STRATA_PP_CAT(_##a, STRATA_PP_JOIN_10(__VA_ARGS__))
#define STRATA_PP_JOIN_12(a, ...) STRATA_PP_CAT(_##a, STRATA_PP_JOIN_11(__VA_ARGS__))
#define STRATA_PP_JOIN(...) STRATA_PP_CAT(STRATA_PP_JOIN_, STRATA_PP_NARGS(__VA_ARGS__))(__VA_ARGS__)

// -- the architecture-named inline namespace ------------------------------------------------------------
#if defined(__CUDA_ARCH_LIST__)
#  define STRATA_ARCH_NAMESPACE STRATA_PP_CAT(sm, STRATA_PP_JOIN(__CUDA_ARCH_LIST__))
#else
#  define STRATA_ARCH_NAMESPACE sm_host
#endif

#define STRATA_NAMESPACE_BEGIN           \
  namespace strata                       \
  {                                      \
  inline namespace STRATA_ARCH_NAMESPACE \
  {
#define STRATA_NAMESPACE_END \
  }                          \
  }

// -- function and kernel attributes ---------------------------------------------------------------------
#if defined(__CUDACC__)
#  define STRATA_HOST_DEVICE __host__ __device__
#  define STRATA_DEVICE __device__
#  define STRATA_HOST __host__
#  define STRATA_FORCEINLINE __forceinline__
#else
#  define STRATA_HOST_DEVICE
#  define STRATA_DEVICE
#  define STRATA_HOST
#  define STRATA_FORCEINLINE inline
#endif

// Kernels are hidden: they are implementation details of the library that uses strata and must not be
// exported from, or interposed between, shared objects.
#define STRATA_KERNEL_ATTRIBUTES __global__ __attribute__((visibility("hidden")))

// A hidden kernel instantiated with a type of internal linkage (a functor in an anonymous namespace) cannot
// be hidden; nvcc then warns (#1407) at the kernel's definition. Kernel definitions sit between these two
// macros, which silence that warning and nothing else.
#if defined(__NVCC__)
#  define STRATA_KERNELS_BEGIN _Pragma("nv_diagnostic push") _Pragma("nv_diag_suppress 1407")
#  define STRATA_KERNELS_END _Pragma("nv_diagnostic pop")
#else
#  define STRATA_KERNELS_BEGIN
#  define STRATA_KERNELS_END
#endif

// The PTX architecture of the current device compilation pass (e.g. 900), 0 on the host pass.
#if defined(__CUDA_ARCH__)
#  define STRATA_PTX_ARCH __CUDA_ARCH__
#else
#  define STRATA_PTX_ARCH 0
#endif

// Loop unrolling, spelled once; only the device passes see it (host compilers would warn about the pragma).
#if defined(__CUDA_ARCH__)
#  define STRATA_UNROLL _Pragma("unroll")
#  define STRATA_NO_UNROLL _Pragma("unroll 1")
#else
#  define STRATA_UNROLL
#  define STRATA_NO_UNROLL
#endif

STRATA_NAMESPACE_BEGIN
// Threads in a hardware warp.
constexpr int WARP_THREADS = 32;
// log2 of WARP_THREADS.
constexpr int LOG_WARP_THREADS = 5;
STRATA_NAMESPACE_END
