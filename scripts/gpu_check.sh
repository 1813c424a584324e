#!/usr/bin/env bash
# The whole check on a GPU machine, in one call:
#   scripts/gpu_check.sh OUT_DIR [TEST ...]
# configures and builds with every core, runs every test, runs compute-sanitizer (memcheck, racecheck,
# synccheck) over the GPU tests (all, or the TESTs named, e.g. test.block.block_scan), runs the benchmarks,
# writes logs and JSON into OUT_DIR and prints a short summary table last. With matplotlib, the bench step also
# leaves OUT_DIR/report.tar.gz: docs/performance.md regenerated with this run (scripts/perf_report.py).
#
# Environment: STRATA_STEPS (default "build,test,sanitize,bench"), STRATA_BENCH (regex of benchmark executables to
# run, default all), STRATA_BENCH_ARGS (extra Google Benchmark flags), STRATA_SANITIZE_TIMEOUT (seconds per sanitizer
# run, default 300), STRATA_SANITIZE_REGEX (sanitize only the GPU tests whose names match, when no TEST is named),
# STRATA_SANITIZE_ARGS (arguments for the sanitized test executables, e.g. the Catch2 test spec '~[large]' to leave
# out the cases over 2^31 items), STRATA_SANITIZE_MAX_ITEMS (the largest size of the size-class sweeps under the
# sanitizer, default 131072; tests/support/test_util.cuh), STRATA_RACECHECK_MAX_ITEMS (the same under racecheck,
# default 8192: its hazards are within a block, which a few tiles cover), STRATA_SANITIZE_JOBS (sanitizer runs at
# once, default 6), STRATA_SANITIZE_SHARDS (each sanitized executable run as that many Catch2 shards, each a sanitizer
# run of its own under the timeout: Catch2 v3's --shard-count and --shard-index; default 1, no sharding),
# STRATA_RACECHECK_SHARDS (the shards of racecheck runs, the slowest tool; default STRATA_SANITIZE_SHARDS),
# STRATA_BUILD_DIR, STRATA_BUILD_TARGETS (ninja targets to build instead of all), STRATA_TEST_REGEX (ctest -R filter),
# STRATA_TEST_TIMEOUT (seconds per test, default 600), STRATA_BENCH_TIMEOUT (seconds per benchmark executable,
# default 600), STRATA_COMMIT (the commit to record in benchmarks.json where the tree has no .git; default: git's,
# "-dirty" if changed).
#
# Two more steps, for finding out why a kernel is slow (not in the default STRATA_STEPS):
#   profile  Nsight Compute over benchmark cases: STRATA_PROFILE is a ';'-separated list of EXE:FILTER (a benchmark
#            executable and a --benchmark_filter regex), each timed for one iteration under ncu (launch, occupancy,
#            speed-of-light, scheduler and warp-state sections, DRAM bytes). OUT_DIR/profile.txt: a table per case of every
#            strata and CUB kernel (scripts/ncu_summary.py); OUT_DIR/profile.tar.gz: the CSV files. With
#            STRATA_PROFILE_SOURCE, a ';'-separated list of EXE:FILTER:KERNEL (KERNEL: a regex on the mangled kernel
#            name, e.g. '^_ZN6strata.*ReduceByKey' or '^_ZN3cub.*ReduceByKey'; FILTER may hold ':', KERNEL not),
#            the first launch of each KERNEL is profiled instruction by instruction: OUT_DIR/profile_source.txt
#            (scripts/ncu_source.py over all of them: stalls, barriers, hot instructions, side by side), the CSV
#            files in profile.tar.gz.
#   sass     OUT_DIR/sass.tar.gz: cuobjdump -sass and -res-usage of the benchmark executables in STRATA_SASS.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: gpu_check.sh OUT_DIR [TEST ...]}
shift
mkdir -p "$out"
out=$(cd "$out" && pwd)
source "$root/scripts/env.sh"
source "$root/scripts/bench_flags.sh"
build=${STRATA_BUILD_DIR:-$root/build-gpu}
steps=${STRATA_STEPS:-build,test,sanitize,bench}
summary=()
status=0
note() { summary+=("$(printf '%-12s %-8s %s' "$1" "$2" "$3")"); [ "$2" = FAIL ] && status=1; }
has_step() { [[ ",$steps," == *",$1,"* ]]; }
t0=$SECONDS

{
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv
  nvcc --version | tail -n 2
  cmake --version | head -n 1
} > "$out/env.txt" 2>&1
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)

if has_step build; then
  t=$SECONDS
  if cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
       -DSTRATA_BUILD_TESTS=ON -DSTRATA_BUILD_BENCHMARKS=ON -DSTRATA_BUILD_EXAMPLES=ON > "$out/build.log" 2>&1 \
     && cmake --build "$build" -j "$STRATA_JOBS" ${STRATA_BUILD_TARGETS:+--target $STRATA_BUILD_TARGETS} -- -k 0 >> "$out/build.log" 2>&1; then
    note build ok "$((SECONDS - t)) s"
  else
    note build FAIL "$(grep -c 'FAILED:' "$out/build.log") targets failed; see build.log"
  fi
fi

if has_step test; then
  t=$SECONDS
  ctest --test-dir "$build" -j 8 --output-on-failure --timeout "${STRATA_TEST_TIMEOUT:-600}" ${STRATA_TEST_REGEX:+-R "$STRATA_TEST_REGEX"} \
    > "$out/tests.log" 2>&1
  line=$(grep -E 'tests passed|tests failed' "$out/tests.log" | tail -n 1)
  if grep -q '100% tests passed' "$out/tests.log"; then note tests ok "$line ($((SECONDS - t)) s)"; else note tests FAIL "$line"; fi
  skipped=$(grep -c 'Skipped' "$out/tests.log")
  [ "$skipped" -gt 0 ] && note skipped WARN "$skipped tests skipped on a GPU machine"
fi

if has_step sanitize; then
  t=$SECONDS
  if (($#)); then tests=("$@"); else
    mapfile -t tests < <(cd "$build/tests" && ls test.{thread,warp,block,device,execution}.* 2>/dev/null | grep -v '\.dir$' \
                           | grep -E "${STRATA_SANITIZE_REGEX:-.}")
  fi
  : > "$out/sanitizer.log"
  [ "${#tests[@]}" -eq 0 ] && note sanitizer FAIL "no GPU test executables found"
  jobs_file=$(mktemp)
  # Every racecheck run first, the slowest tool: runs start in this order, so the long ones are not left for last.
  for tool in racecheck memcheck synccheck; do for test in "${tests[@]}"; do
    shards=${STRATA_SANITIZE_SHARDS:-1}
    [ "$tool" = racecheck ] && shards=${STRATA_RACECHECK_SHARDS:-$shards}
    for ((shard = 0; shard < shards; ++shard)); do echo "$test $tool $shard $shards"; done
  done; done > "$jobs_file"
  export build out
  export STRATA_SANITIZE_TIMEOUT=${STRATA_SANITIZE_TIMEOUT:-300}
  export STRATA_SANITIZE_ARGS=${STRATA_SANITIZE_ARGS:-}
  export STRATA_TEST_MAX_ITEMS=${STRATA_SANITIZE_MAX_ITEMS:-131072}
  export STRATA_RACECHECK_MAX_ITEMS=${STRATA_RACECHECK_MAX_ITEMS:-8192}
  xargs -r -P "${STRATA_SANITIZE_JOBS:-6}" -L 1 bash -c '
    log=$(mktemp)
    [ "$1" = racecheck ] && export STRATA_TEST_MAX_ITEMS=$STRATA_RACECHECK_MAX_ITEMS
    shard_args=() name="$0 $1"
    # A shard may be left without a test case (fewer cases than shards): Catch2 v3 then fails unless allowed to.
    if [ "$3" -gt 1 ]; then
      shard_args=(--shard-count "$3" --shard-index "$2" --allow-running-no-tests)
      name+=" shard $2/$3"
    fi
    timeout "$STRATA_SANITIZE_TIMEOUT" compute-sanitizer --tool "$1" --error-exitcode 99 --print-limit 20 \
      "$build/tests/$0" $STRATA_SANITIZE_ARGS "${shard_args[@]}" > "$log" 2>&1
    rc=$?
    { echo "### $name rc=$rc"; if [ $rc -ne 0 ]; then tail -n 60 "$log"; else tail -n 2 "$log"; fi; } >> "$out/sanitizer.log"
    rm -f "$log"' < "$jobs_file"
  rm -f "$jobs_file"
  runs=$(grep -c '^### ' "$out/sanitizer.log")
  bad=$(grep '^### ' "$out/sanitizer.log" | grep -vc 'rc=0$')
  if [ "$bad" -eq 0 ]; then note sanitizer ok "$runs runs clean ($((SECONDS - t)) s)"; else
    note sanitizer FAIL "$bad of $runs runs failed: $(grep '^### ' "$out/sanitizer.log" | grep -v 'rc=0$' | cut -c5- | tr '\n' ';')"
  fi
fi

if has_step bench; then
  t=$SECONDS
  tmp=$(mktemp -d)
  : > "$out/benchmarks.log"
  rm -f "$out/report.tar.gz"
  for exe in $(cd "$build/benchmarks" && ls compare.* bench.* 2>/dev/null | grep -v '\.dir$' | grep -E "${STRATA_BENCH:-.}"); do
    timeout "${STRATA_BENCH_TIMEOUT:-600}" "$build/benchmarks/$exe" --benchmark_out="$tmp/$exe.json" --benchmark_out_format=json \
      "$(bench_min_time_arg "$build/benchmarks/$exe" 0.2)" ${STRATA_BENCH_ARGS:-} >> "$out/benchmarks.log" 2>&1 \
      || note "$exe" FAIL "benchmark exited non-zero"
  done
  if compgen -G "$tmp/*.json" > /dev/null; then
    if [ -n "${STRATA_COMMIT:-}" ]; then commit=$STRATA_COMMIT
    elif commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null); then
      git -C "$root" diff --quiet HEAD -- || commit+=-dirty
    else commit=unknown; fi
    # What the benchmarks' own context cannot know: the source, the compiler, the driver's release and the settings.
    python3 "$root/scripts/compare_report.py" --merge "$out/benchmarks.json" \
      --context "strata_commit=$commit" \
      --context "nvcc_version=$(nvcc --version | sed -n 's/^Cuda compilation tools, release [^,]*, V//p')" \
      --context "driver_version=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)" \
      --context "check_date=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
      --context "strata_bench=${STRATA_BENCH:-}" --context "strata_bench_args=${STRATA_BENCH_ARGS:-}" \
      "$tmp"/*.json > "$out/compare.txt" 2>&1
    note bench ok "$((SECONDS - t)) s; ratios in compare.txt"
    if compgen -G "$tmp/compare.*.json" > /dev/null; then
      if python3 -c 'import matplotlib' 2> /dev/null; then
        # docs/performance.md, its plots and this run's data file, beside the other GPUs' runs in docs/data, as one
        # file (OUT stays a handful of files): unpacked into docs/ it replaces the report with this run in it.
        # A run of some compare benchmarks refreshes their cases in the GPU's data file and keeps the others.
        report=$(mktemp -d)
        slug=$(python3 "$root/scripts/perf_report.py" --slug "$out/benchmarks.json")
        mkdir -p "$report/data"
        if [ -f "$root/docs/data/$slug.json" ]; then
          python3 "$root/scripts/perf_report.py" --update "$root/docs/data/$slug.json" "$out/benchmarks.json" \
            --merged "$report/data/$slug.json" >> "$out/benchmarks.log" 2>&1
        else
          cp "$out/benchmarks.json" "$report/data/$slug.json"
        fi
        mapfile -t others < <(ls "$root"/docs/data/*.json 2> /dev/null | grep -v "/$slug\.json$")
        if python3 "$root/scripts/perf_report.py" --out "$report" "${others[@]}" "$report/data/$slug.json" \
             >> "$out/benchmarks.log" 2>&1 && tar -czf "$out/report.tar.gz" -C "$report" .; then
          note report ok "report.tar.gz: performance.md, img/, data/$slug.json (unpack into docs/)"
        else
          note report FAIL "perf_report.py failed; see benchmarks.log"
        fi
        rm -rf "$report"
      else
        note report WARN "no matplotlib for python3: no report.tar.gz"
      fi
    fi
  else
    note bench FAIL "no benchmark produced results"
  fi
  rm -rf "$tmp"
fi

if has_step profile; then
  t=$SECONDS
  prof=$(mktemp -d)
  # The CSV file of the n-th case of EXE:FILTER: profile_csv PREFIX N EXE FILTER.
  profile_csv() { echo "$prof/$1$(printf '%02d' "$2")_$3_$(echo "$4" | tr -c 'A-Za-z0-9_.-' '_' | cut -c1-60).csv"; }
  IFS=';' read -r -a cases <<< "${STRATA_PROFILE:-}"
  i=0
  for entry in "${cases[@]}"; do
    exe=${entry%%:*}
    filter=${entry#*:}
    i=$((i + 1))
    csv=$(profile_csv "" "$i" "$exe" "$filter")
    timeout "${STRATA_PROFILE_TIMEOUT:-300}" ncu --csv --page raw --print-units base \
      --kernel-name 'regex:Device(Radix|Merge)Sort|Device\w+Kernel' \
      --section LaunchStats --section Occupancy --section SpeedOfLight --section SchedulerStats --section WarpStateStats \
      --metrics dram__bytes_read.sum,dram__bytes_write.sum \
      "$build/benchmarks/$exe" "--benchmark_filter=$filter" --benchmark_min_time=1x > "$csv" 2>> "$out/profile.log" \
      || note profile FAIL "ncu on $exe:$filter failed; see profile.log"
  done
  [ ${#cases[@]} -gt 0 ] && python3 "$root/scripts/ncu_summary.py" "$prof"/[0-9]*.csv > "$out/profile.txt" 2>&1
  IFS=';' read -r -a sources <<< "${STRATA_PROFILE_SOURCE:-}"
  j=0
  for entry in "${sources[@]}"; do
    exe=${entry%%:*}
    rest=${entry#*:}
    filter=${rest%:*}
    kernel=${rest##*:}
    j=$((j + 1))
    csv=$(profile_csv source_ "$j" "$exe" "$filter")
    timeout "${STRATA_PROFILE_TIMEOUT:-300}" ncu --csv --page source --print-source sass \
      --section SourceCounters --section WarpStateStats --kernel-name-base mangled --kernel-name "regex:$kernel" \
      --launch-count 1 "$build/benchmarks/$exe" "--benchmark_filter=$filter" --benchmark_min_time=1x \
      > "$csv" 2>> "$out/profile.log" || note profile FAIL "ncu source on $exe:$filter:$kernel failed; see profile.log"
  done
  [ ${#sources[@]} -gt 0 ] && python3 "$root/scripts/ncu_source.py" "$prof"/source_*.csv > "$out/profile_source.txt" 2>&1
  tar -czf "$out/profile.tar.gz" -C "$prof" .
  rm -rf "$prof"
  note profile ok "${#cases[@]} cases, ${#sources[@]} at source level ($((SECONDS - t)) s); profile.txt, profile_source.txt"
fi

if has_step sass; then
  sass=$(mktemp -d)
  for exe in ${STRATA_SASS:-}; do
    cuobjdump -sass "$build/benchmarks/$exe" > "$sass/$exe.sass" 2>&1
    cuobjdump -res-usage "$build/benchmarks/$exe" > "$sass/$exe.res" 2>&1
  done
  tar -czf "$out/sass.tar.gz" -C "$sass" .
  rm -rf "$sass"
  note sass ok "sass.tar.gz"
fi

echo
echo "=== strata GPU check on ${gpu:-unknown GPU} ($((SECONDS - t0)) s) ==="
[ -f "$out/compare.txt" ] && cat "$out/compare.txt"
[ -f "$out/profile.txt" ] && cat "$out/profile.txt"
printf '%s\n' "${summary[@]}"
exit $status
