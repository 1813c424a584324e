// PtxVersion and SmCount through the backend's cache: with a GPU, the PTX version is one this translation
// unit was compiled for and the driver is asked once; without one, the calls fail cleanly.
#include <strata/util/device.cuh>

#include "catch2_shim.hpp"

TEST_CASE("PtxVersion is read once per device and matches the compiled architecture", "[backend]")
{
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
  {
    int ptx = 0;
    CHECK(strata::PtxVersion(ptx) != cudaSuccess);
    return;
  }
  int ptx = 0;
  REQUIRE(strata::PtxVersion(ptx) == cudaSuccess);
#if defined(__CUDA_ARCH_LIST__)
  // Built for one architecture (sm_90 by default): the driver runs exactly that version.
  CHECK(ptx == __CUDA_ARCH_LIST__);
#endif
  const unsigned long long queries = strata::backend::driver_query_count();
  for (int i = 0; i < 100; ++i)
  {
    int again = 0;
    REQUIRE(strata::PtxVersion(again, 0) == cudaSuccess);
    CHECK(again == ptx);
    int sms = 0;
    REQUIRE(strata::SmCount(sms, 0) == cudaSuccess);
    CHECK(sms > 0);
  }
  // At most the attribute read of the first SmCount call; PtxVersion itself is never asked again.
  CHECK(strata::backend::driver_query_count() <= queries + 1);
}
