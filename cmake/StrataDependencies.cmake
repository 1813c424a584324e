# Dependencies are found on the system, never vendored: the CUDA toolkit (with CCCL and NVTX3), and for the
# tests and benchmarks Catch2 (v2 or v3) and Google Benchmark.
find_package(CUDAToolkit REQUIRED)

# CCCL (Thrust, CUB, libcu++) ships inside the toolkit; nvcc finds it by itself, host compilers need the path,
# which strata's own targets carry (CMakeLists.txt): CUDA::cudart belongs to the CUDA package and is left alone.
foreach(dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
  if(EXISTS "${dir}/cccl/cuda/std/type_traits")
    set(STRATA_CCCL_INCLUDE_DIR "${dir}/cccl")
  endif()
endforeach()
