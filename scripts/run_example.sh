#!/usr/bin/env bash
# Builds and runs every example (examples/*.cu), the frontend quick start first: each checks its results and exits
# non-zero on a mismatch. They need a CUDA GPU to run; without one each says so, and the script fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install_deps.sh"
source "$root/scripts/env.sh"
build=${STRATA_BUILD_DIR:-$root/build-example}

examples=(quick_start $(cd "$root/examples" && ls -- *.cu | sed 's/\.cu$//' | grep -vx quick_start))
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSTRATA_BUILD_TESTS=OFF -DSTRATA_BUILD_BENCHMARKS=OFF -DSTRATA_BUILD_EXAMPLES=ON
cmake --build "$build" -j "$STRATA_JOBS" --target "${examples[@]/#/example.}"

failed=()
for example in "${examples[@]}"; do
  echo "== example.$example"
  "$build/examples/example.$example" || failed+=("$example")
done
if ((${#failed[@]})); then
  echo "${#failed[@]} of ${#examples[@]} examples failed: ${failed[*]}" >&2
  exit 1
fi
echo "all ${#examples[@]} examples passed"
