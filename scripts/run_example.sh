#!/usr/bin/env bash
# Builds and runs strata's quick-start example. It needs a CUDA GPU to run; without one it says so and fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install_deps.sh"
source "$root/scripts/env.sh"
build=${STRATA_BUILD_DIR:-$root/build-example}

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSTRATA_BUILD_TESTS=OFF -DSTRATA_BUILD_BENCHMARKS=OFF -DSTRATA_BUILD_EXAMPLES=ON
cmake --build "$build" -j "$STRATA_JOBS" --target example.quick_start
"$build/examples/example.quick_start"
