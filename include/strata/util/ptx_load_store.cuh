// Instruction wrappers: loads and stores of one native word (1, 2, 4, 8 or 16 bytes) with a PTX cache operator,
// and volatile loads and stores of one native word.
//
// ThreadLoad / ThreadStore (thread/) split a value of any type into these words and call them.
#pragma once

#include <strata/config.cuh>

STRATA_NAMESPACE_BEGIN
namespace detail
{

// The register type of one native access of BYTES bytes.
template <int BYTES>
struct access_word;
template <>
struct access_word<1>
{
  using type = unsigned char;
};
template <>
struct access_word<2>
{
  using type = unsigned short;
};
template <>
struct access_word<4>
{
  using type = unsigned int;
};
template <>
struct access_word<8>
{
  using type = unsigned long long;
};
template <>
struct access_word<16>
{
  using type = uint4;
};
template <int BYTES>
using access_word_t = typename access_word<BYTES>::type;

// The widest native access that can move a T: its alignment, capped at the 16 bytes of a vector access. The size
// of a type is a multiple of its alignment, so a T is always a whole number of these words.
template <typename T>
constexpr int access_bytes_v = alignof(T) < 16 ? static_cast<int>(alignof(T)) : 16;

// Cache operators of ld.global: ca (all levels), cg (L2 only), cs (streaming), cv (fetch again, never reuse a
// cached line), nc (the read-only non-coherent path; the data must not change while the kernel runs).
enum class ld_global_op
{
  ca,
  cg,
  cs,
  cv,
  nc
};

// Cache operators of st.global: wb (write back), cg (L2 only), cs (streaming), wt (write through to system memory).
enum class st_global_op
{
  wb,
  cg,
  cs,
  wt
};

// One word of each width, loaded or stored with one instruction. Global forms take a generic pointer into global
// memory and convert it to the global window; volatile forms use generic addressing, so they reach any memory
// space. The asm statements are volatile so the compiler neither drops nor merges them, like a volatile access.
template <ld_global_op OP>
struct ptx_ld_global;
template <st_global_op OP>
struct ptx_st_global;

// 8-bit values travel in 32-bit registers: PTX lets ld/st name a register wider than the access, and there is
// no 8-bit register constraint.
#define STRATA_PTX_LD_WORDS(INSTR, ADDRESS)                                                    \
  static STRATA_DEVICE STRATA_FORCEINLINE uint4 load(const uint4* p)                           \
  {                                                                                            \
    uint4 r;                                                                                   \
    asm volatile(INSTR ".v4.u32 {%0, %1, %2, %3}, [%4];"                                       \
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)                                  \
                 : "l"(ADDRESS(p)));                                                           \
    return r;                                                                                  \
  }                                                                                            \
  static STRATA_DEVICE STRATA_FORCEINLINE unsigned long long load(const unsigned long long* p) \
  {                                                                                            \
    unsigned long long r;                                                                      \
    asm volatile(INSTR ".u64 %0, [%1];" : "=l"(r) : "l"(ADDRESS(p)));                          \
    return r;                                                                                  \
  }                                                                                            \
  static STRATA_DEVICE STRATA_FORCEINLINE unsigned int load(const unsigned int* p)             \
  {                                                                                            \
    unsigned int r;                                                                            \
    asm volatile(INSTR ".u32 %0, [%1];" : "=r"(r) : "l"(ADDRESS(p)));                          \
    return r;                                                                                  \
  }                                                                                            \
  static STRATA_DEVICE STRATA_FORCEINLINE unsigned short load(const unsigned short* p)         \
  {                                                                                            \
    unsigned short r;                                                                          \
    asm volatile(INSTR ".u16 %0, [%1];" : "=h"(r) : "l"(ADDRESS(p)));                          \
    return r;                                                                                  \
  }                                                                                            \
  static STRATA_DEVICE STRATA_FORCEINLINE unsigned char load(const unsigned char* p)           \
  {                                                                                            \
    unsigned int r;                                                                            \
    asm volatile(INSTR ".u8 %0, [%1];" : "=r"(r) : "l"(ADDRESS(p)));                           \
    return static_cast<unsigned char>(r);                                                      \
  }

#define STRATA_PTX_ST_WORDS(INSTR, ADDRESS)                                                                            \
  static STRATA_DEVICE STRATA_FORCEINLINE void store(uint4* p, uint4 v)                                                \
  {                                                                                                                    \
    asm volatile(INSTR ".v4.u32 [%0], {%1, %2, %3, %4};" : : "l"(ADDRESS(p)), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)); \
  }                                                                                                                    \
  static STRATA_DEVICE STRATA_FORCEINLINE void store(unsigned long long* p, unsigned long long v)                      \
  {                                                                                                                    \
    asm volatile(INSTR ".u64 [%0], %1;" : : "l"(ADDRESS(p)), "l"(v));                                                  \
  }                                                                                                                    \
  static STRATA_DEVICE STRATA_FORCEINLINE void store(unsigned int* p, unsigned int v)                                  \
  {                                                                                                                    \
    asm volatile(INSTR ".u32 [%0], %1;" : : "l"(ADDRESS(p)), "r"(v));                                                  \
  }                                                                                                                    \
  static STRATA_DEVICE STRATA_FORCEINLINE void store(unsigned short* p, unsigned short v)                              \
  {                                                                                                                    \
    asm volatile(INSTR ".u16 [%0], %1;" : : "l"(ADDRESS(p)), "h"(v));                                                  \
  }                                                                                                                    \
  static STRATA_DEVICE STRATA_FORCEINLINE void store(unsigned char* p, unsigned char v)                                \
  {                                                                                                                    \
    asm volatile(INSTR ".u8 [%0], %1;" : : "l"(ADDRESS(p)), "r"(static_cast<unsigned int>(v)));                        \
  }

#define STRATA_PTX_GLOBAL_ADDRESS(p) __cvta_generic_to_global(p)
#define STRATA_PTX_GENERIC_ADDRESS(p) p

#define STRATA_PTX_LD_GLOBAL(OP, INSTR)                   \
  template <>                                             \
  struct ptx_ld_global<ld_global_op::OP>                  \
  {                                                       \
    STRATA_PTX_LD_WORDS(INSTR, STRATA_PTX_GLOBAL_ADDRESS) \
  };
#define STRATA_PTX_ST_GLOBAL(OP, INSTR)                   \
  template <>                                             \
  struct ptx_st_global<st_global_op::OP>                  \
  {                                                       \
    STRATA_PTX_ST_WORDS(INSTR, STRATA_PTX_GLOBAL_ADDRESS) \
  };

STRATA_PTX_LD_GLOBAL(ca, "ld.global.ca")
STRATA_PTX_LD_GLOBAL(cg, "ld.global.cg")
STRATA_PTX_LD_GLOBAL(cs, "ld.global.cs")
STRATA_PTX_LD_GLOBAL(cv, "ld.global.cv")
STRATA_PTX_LD_GLOBAL(nc, "ld.global.nc")

STRATA_PTX_ST_GLOBAL(wb, "st.global.wb")
STRATA_PTX_ST_GLOBAL(cg, "st.global.cg")
STRATA_PTX_ST_GLOBAL(cs, "st.global.cs")
STRATA_PTX_ST_GLOBAL(wt, "st.global.wt")

struct ptx_ld_volatile
{
  STRATA_PTX_LD_WORDS("ld.volatile", STRATA_PTX_GENERIC_ADDRESS)
};
struct ptx_st_volatile
{
  STRATA_PTX_ST_WORDS("st.volatile", STRATA_PTX_GENERIC_ADDRESS)
};

#undef STRATA_PTX_ST_GLOBAL
#undef STRATA_PTX_LD_GLOBAL
#undef STRATA_PTX_GENERIC_ADDRESS
#undef STRATA_PTX_GLOBAL_ADDRESS
#undef STRATA_PTX_ST_WORDS
#undef STRATA_PTX_LD_WORDS

} // namespace detail
STRATA_NAMESPACE_END
