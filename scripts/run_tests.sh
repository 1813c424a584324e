#!/usr/bin/env bash
# Builds everything (library, tests, benchmarks, examples) for sm_90 and runs the whole test suite.
# Without a GPU, GPU tests report "skipped" and host tests run for real.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install_deps.sh"
source "$root/scripts/env.sh"
build=${STRATA_BUILD_DIR:-$root/build}

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSTRATA_BUILD_TESTS=ON -DSTRATA_BUILD_BENCHMARKS=ON -DSTRATA_BUILD_EXAMPLES=ON
cmake --build "$build" -j "$STRATA_JOBS"
ctest --test-dir "$build" --output-on-failure -j "$STRATA_JOBS"
