// What every example does besides its subject: make sure there is a GPU, and stop with a message on a CUDA error.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>

namespace example
{
// Exits with a message when this machine has no CUDA GPU, with status 77 (what CTest reads as "skipped": the
// examples are also tests of the project's build).
inline void require_gpu(const char* name)
{
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
  {
    std::fprintf(stderr, "%s: no CUDA GPU on this machine; strata's examples need one to run.\n", name);
    std::exit(77);
  }
}

// Exits with a message naming `what` when `e` is an error.
inline void check(cudaError_t e, const char* what)
{
  if (e != cudaSuccess)
  {
    std::fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// Whether running[i] == in[0] + ... + in[i] for every i (sums in long long: the check cannot overflow).
template <typename InT, typename RunningT>
bool is_running_sum(const InT& in, const RunningT& running)
{
  long long sum = 0;
  bool ok       = in.size() == running.size();
  for (std::size_t i = 0; ok && i < in.size(); ++i)
  {
    sum += in[i];
    ok = running[i] == sum;
  }
  return ok;
}

// Prints whether the results matched and gives the exit status: 0 when they did.
inline int report(const char* name, bool ok)
{
  std::printf("%s: %s\n", name, ok ? "all results match the host" : "MISMATCH");
  return ok ? 0 : 1;
}
} // namespace example
