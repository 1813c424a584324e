// Runs a device algorithm through both phases of the temporary-storage protocol, the way a user would, and
// optionally under CUDA graph capture (the algorithm must be capturable: no synchronization, no allocation).
#pragma once

#include "test_util.cuh"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace strata_test
{

enum class launch_mode
{
  stream, // query, allocate exactly the queried size, run on a stream
  graph   // the same, with the run captured into a CUDA graph and replayed
};

// `algorithm(d_temp_storage, temp_storage_bytes, stream)` -> cudaError_t, called once with nullptr storage
// (the size query) and once with storage. Returns the queried size.
template <typename Algorithm>
std::size_t launch(Algorithm&& algorithm, launch_mode mode = launch_mode::stream)
{
  std::size_t bytes = 0;
  STRATA_TEST_CUDA(algorithm(nullptr, bytes, cudaStream_t{0}));
  REQUIRE(bytes > 0);
  void* d_temp = nullptr;
  STRATA_TEST_CUDA(cudaMalloc(&d_temp, bytes));
  // The inputs were written on the legacy default stream (cudaMemcpy, cudaMemset), which a non-blocking
  // stream does not wait for.
  STRATA_TEST_CUDA(cudaDeviceSynchronize());
  cudaStream_t stream{};
  STRATA_TEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  if (mode == launch_mode::stream)
  {
    STRATA_TEST_CUDA(algorithm(d_temp, bytes, stream));
  }
  else
  {
    cudaGraph_t graph{};
    cudaGraphExec_t exec{};
    STRATA_TEST_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    const cudaError_t captured = algorithm(d_temp, bytes, stream);
    STRATA_TEST_CUDA(cudaStreamEndCapture(stream, &graph));
    STRATA_TEST_CUDA(captured);
    STRATA_TEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    STRATA_TEST_CUDA(cudaGraphLaunch(exec, stream));
    STRATA_TEST_CUDA(cudaGraphExecDestroy(exec));
    STRATA_TEST_CUDA(cudaGraphDestroy(graph));
  }
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_TEST_CUDA(cudaGetLastError());
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
  STRATA_TEST_CUDA(cudaFree(d_temp));
  return bytes;
}

} // namespace strata_test
