// The inline namespace that names the compiled architectures, and the compile-time helpers of util/.
#include <strata/config.cuh>
#include <strata/util/type_traits.cuh>
#include <strata/util/uninitialized.cuh>

#include "catch2_shim.hpp"

#include <string>
#include <type_traits>

#define STRATA_TEST_STR_(x) #x
#define STRATA_TEST_STR(x) STRATA_TEST_STR_(x)

namespace
{
template <typename T>
std::string enclosing_namespace_of()
{
  return __PRETTY_FUNCTION__;
}
} // namespace

TEST_CASE("the inline namespace names the architecture list", "[config]")
{
  // This file is compiled by nvcc for CMAKE_CUDA_ARCHITECTURES (90 by default): __CUDA_ARCH_LIST__ is 900.
  const std::string name = STRATA_TEST_STR(STRATA_ARCH_NAMESPACE);
#if defined(__CUDA_ARCH_LIST__)
  std::string expected = "sm_";
  for (const char* p = STRATA_TEST_STR(__CUDA_ARCH_LIST__); *p; ++p)
  {
    if (*p != ' ')
    {
      expected += (*p == ',') ? '_' : *p;
    }
  }
  CHECK(name == expected);
#endif
  // strata's types carry it in their mangled names, and users still spell them strata::X.
  CHECK(enclosing_namespace_of<strata::NullType>().find("strata::" + name + "::NullType") != std::string::npos);
}

TEST_CASE("the preprocessor join handles lists of several architectures", "[config]")
{
  CHECK(std::string(STRATA_TEST_STR(STRATA_PP_CAT(sm, STRATA_PP_JOIN(700, 800, 900)))) == "sm_700_800_900");
  CHECK(std::string(STRATA_TEST_STR(STRATA_PP_CAT(sm, STRATA_PP_JOIN(900)))) == "sm_900");
}

TEST_CASE("log2_ceil, the one integer helper the toolkit lacks", "[util]")
{
  using namespace strata::detail;
  STATIC_REQUIRE(log2_ceil(0) == 0);
  STATIC_REQUIRE(log2_ceil(1) == 0);
  STATIC_REQUIRE(log2_ceil(2) == 1);
  STATIC_REQUIRE(log2_ceil(32) == 5);
  STATIC_REQUIRE(log2_ceil(33) == 6);
  STATIC_REQUIRE(log2_ceil(1ull << 40) == 40);
  STATIC_REQUIRE(log2_ceil((1ull << 40) + 1) == 41);
}

TEST_CASE("Uninitialized keeps the size and alignment of T", "[util]")
{
  struct alignas(16) wide
  {
    double a, b;
    wide(double x)
        : a(x)
        , b(x)
    {}
  };
  STATIC_REQUIRE(sizeof(strata::Uninitialized<wide>) == sizeof(wide));
  STATIC_REQUIRE(alignof(strata::Uninitialized<wide>) == alignof(wide));
  STATIC_REQUIRE(std::is_trivially_default_constructible<strata::Uninitialized<wide>>::value);
}
