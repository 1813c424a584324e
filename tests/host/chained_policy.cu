// ChainedPolicy: the host picks the newest policy whose PTX version is <= the device's, for simulated devices.
#include <strata/device/dispatch/chained_policy.cuh>

#include "catch2_shim.hpp"

namespace
{
struct hub
{
  struct Policy600 : strata::ChainedPolicy<600, Policy600, Policy600>
  {
    static constexpr int BLOCK_THREADS = 600;
  };
  struct Policy700 : strata::ChainedPolicy<700, Policy700, Policy600>
  {
    static constexpr int BLOCK_THREADS = 700;
  };
  struct Policy800 : strata::ChainedPolicy<800, Policy800, Policy700>
  {
    static constexpr int BLOCK_THREADS = 800;
  };
  struct Policy900 : strata::ChainedPolicy<900, Policy900, Policy800>
  {
    static constexpr int BLOCK_THREADS = 900;
  };
  using MaxPolicy = Policy900;
};

struct record_closure
{
  int picked = 0;
  template <typename ActivePolicyT>
  cudaError_t Invoke()
  {
    picked = ActivePolicyT::BLOCK_THREADS;
    return cudaSuccess;
  }
};
} // namespace

TEST_CASE("the host selects the policy for the device's PTX version", "[dispatch]")
{
  const auto [ptx, expected] = GENERATE(table<int, int>({{350, 600}, // older than the oldest: the oldest
                                                         {600, 600},
                                                         {610, 600},
                                                         {700, 700},
                                                         {750, 700},
                                                         {800, 800},
                                                         {860, 800},
                                                         {890, 800},
                                                         {900, 900},
                                                         {1000, 900},
                                                         {1200, 900}}));
  CAPTURE(ptx);
  record_closure closure;
  REQUIRE(hub::MaxPolicy::Invoke(ptx, closure) == cudaSuccess);
  CHECK(closure.picked == expected);
}

TEST_CASE("on the host pass ActivePolicy is the oldest policy", "[dispatch]")
{
  // A run-time check: a static_assert in host code is also evaluated by the device passes.
  const int host_pass = hub::MaxPolicy::ActivePolicy::BLOCK_THREADS;
  CHECK(host_pass == 600);
}

namespace
{
// Device passes see the policy of their own architecture: this kernel records it.
template <typename MaxPolicy>
__global__ void active_block_threads(int* out)
{
  *out = MaxPolicy::ActivePolicy::BLOCK_THREADS;
}
} // namespace

TEST_CASE("each device pass reads the policy of its architecture", "[dispatch]")
{
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
  {
    SUCCEED("no GPU: the device-pass check runs on a GPU machine");
    return;
  }
  int* d_out = nullptr;
  REQUIRE(cudaMalloc(&d_out, sizeof(int)) == cudaSuccess);
  active_block_threads<hub::MaxPolicy><<<1, 1>>>(d_out);
  int h_out = 0;
  REQUIRE(cudaMemcpy(&h_out, d_out, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  cudaFree(d_out);
  // Compiled for sm_90 only (the default): the device pass is 900, and so is the host's pick on an H100/H200.
  CHECK(h_out == 900);
}
