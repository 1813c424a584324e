# Sourced by the scripts: finds nvcc and picks the build's parallelism.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
export CUDACXX=${CUDACXX:-$(command -v nvcc)}
STRATA_JOBS=${STRATA_JOBS:-$(nproc)}
