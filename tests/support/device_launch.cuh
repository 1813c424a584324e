// Runs a device algorithm through both phases of the temporary-storage protocol, the way a user would, and
// optionally under CUDA graph capture (the algorithm must be capturable: no synchronization, no allocation).
#pragma once

#include "test_util.cuh"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace strata_test
{

// What `call(stream)` enqueues on `stream`, captured into a CUDA graph and instantiated; launch() replays it. The
// call's own error is checked after the capture has ended, so a failing call leaves the stream usable.
class captured_graph
{
public:
  template <typename Call>
  captured_graph(cudaStream_t stream, Call&& call)
  {
    STRATA_TEST_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    const cudaError_t captured = call(stream);
    STRATA_TEST_CUDA(cudaStreamEndCapture(stream, &graph_));
    STRATA_TEST_CUDA(captured);
    STRATA_TEST_CUDA(cudaGraphInstantiate(&exec_, graph_, 0));
  }
  captured_graph(const captured_graph&)            = delete;
  captured_graph& operator=(const captured_graph&) = delete;
  ~captured_graph()
  {
    if (exec_ != nullptr)
    {
      cudaGraphExecDestroy(exec_);
    }
    if (graph_ != nullptr)
    {
      cudaGraphDestroy(graph_);
    }
  }

  void launch(cudaStream_t stream) const
  {
    STRATA_TEST_CUDA(cudaGraphLaunch(exec_, stream));
  }

private:
  cudaGraph_t graph_    = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

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
    captured_graph(stream, [&](cudaStream_t s) {
      return algorithm(d_temp, bytes, s);
    }).launch(stream);
  }
  STRATA_TEST_CUDA(cudaStreamSynchronize(stream));
  STRATA_TEST_CUDA(cudaGetLastError());
  STRATA_TEST_CUDA(cudaStreamDestroy(stream));
  STRATA_TEST_CUDA(cudaFree(d_temp));
  return bytes;
}

} // namespace strata_test
