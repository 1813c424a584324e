#!/usr/bin/env bash
# Builds everything (library, tests, benchmarks, examples) for sm_90 and runs the whole test suite; last, a line
# that counts the tests that ran, passed, failed and were skipped, and says why tests were skipped.
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
log="$build/ctest.log"
set +e
ctest --test-dir "$build" --output-on-failure -j "$STRATA_JOBS" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e

# The summary ctest does not print: how many tests ran, and why the others were skipped ("100% tests passed"
# counts a skipped test as passed).
total=$(sed -n 's/.* tests failed out of \([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(sed -n 's/.*, \([0-9][0-9]*\) tests failed out of.*/\1/p' "$log" | tail -n 1)
skipped=$(grep -c '(Skipped)$' "$log" || true)
if [ -n "$total" ] && [ -n "$failed" ]; then
  ran=$((total - skipped))
  echo "tests: $total in all; $ran ran: $((ran - failed)) passed, $failed failed; $skipped skipped"
  if [ "$skipped" -gt 0 ]; then
    if nvidia-smi -L > /dev/null 2>&1; then
      echo "tests: the skipped ones need what this GPU machine lacks (a second GPU, more memory): see $log"
    else
      echo "tests: the skipped ones need a CUDA GPU, and this machine has none (or no NVIDIA driver): run them on a" \
           "GPU machine (README, 'On a GPU machine')"
    fi
  fi
fi
exit "$rc"
