#!/usr/bin/env bash
# Builds everything (library, tests, benchmarks, examples) for sm_90 and runs the whole test suite.
# Without a GPU, GPU tests report "skipped" and host tests run for real.
# First, the sources the commits under test change are checked against .clang-format (scripts/check_format.sh;
# skipped without clang-format); STRATA_SKIP_FORMAT_CHECK=1 leaves the check out.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${STRATA_SKIP_FORMAT_CHECK:-0}" != 1 ]; then
  "$root/scripts/check_format.sh"
fi
"$root/scripts/install_deps.sh"
source "$root/scripts/env.sh"
build=${STRATA_BUILD_DIR:-$root/build}

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSTRATA_BUILD_TESTS=ON -DSTRATA_BUILD_BENCHMARKS=ON -DSTRATA_BUILD_EXAMPLES=ON
cmake --build "$build" -j "$STRATA_JOBS"
ctest --test-dir "$build" --output-on-failure -j "$STRATA_JOBS"
