#!/usr/bin/env bash
# Compile cost of strata against what a user would otherwise call, one translation unit each:
#   scripts/compile_time.sh [RUNS [NAME ...]]
# compiles every benchmarks/compile_time/strata_<name>.cu and its twin, thrust_<name>.cu (the frontend: reduce, scan,
# sort) or cub_<name>.cu (the device layer: device_reduce, device_scan, device_sort), with `nvcc -std=c++17 -O3
# -arch=$STRATA_COMPILE_ARCH -c` (default sm_90), RUNS times each (default 3) in alternating order (only the NAMEs
# given, e.g. `sort device_sort`, where any are), and prints per pair the time, the object's size and the ratios
# strata / twin. The time is the sum over nvcc's phases (`nvcc --time`: host preprocessing, cudafe++, cicc, ptxas, the
# host compiler, ...) of each phase's best time over the runs: every phase is a fixed amount of work that the
# machine's other load only ever slows down, so its best time is its cost, and on a shared machine, whose speed moves
# by 10-30% from one minute to the next, that sum varies far less than the best time of whole compiles does.
# "paired" is the median over rounds of the ratio of the two compiles' CPU seconds (user + sys) in each round. The
# bars, for the frontend pairs: time at most 1.05x Thrust's, object at most 1.5x; the script exits 1 when one is
# missed (STRATA_COMPILE_BARS=0: report only). The device pairs are reported.
#
#   scripts/compile_time.sh --against OTHER_ROOT [RUNS]
# compiles each benchmarks/compile_time/strata_*.cu of this tree against this tree's headers and against
# OTHER_ROOT's (another checkout, e.g. `git worktree add /tmp/before HEAD~3`), RUNS times each in alternating order,
# and prints the median CPU seconds of each and the ratio this / other (at most 1: no slower than before).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/env.sh"
against=
if [ "${1:-}" = --against ]; then
  against=$(cd "${2:?usage: compile_time.sh --against OTHER_ROOT [RUNS]}" && pwd)
  shift 2
fi
runs=${1:-3}
shift $(($# > 0 ? 1 : 0))
# The translation units to compile: strata_<NAME>.cu for each NAME given, else all.
tus=()
if (($#)); then
  for name in "$@"; do tus+=("$root/benchmarks/compile_time/strata_$name.cu"); done
else
  tus=("$root"/benchmarks/compile_time/strata_*.cu)
fi
arch=${STRATA_COMPILE_ARCH:-sm_90}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The median of the numbers on standard input, one a line (the lower of the middle two for an even count).
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# "cpu_seconds object_bytes" of one compilation of $1 with the headers under $2: CPU seconds are user + sys. With a
# third argument, appends the compilation's "phase<TAB>milliseconds" lines (nvcc --time) to that file.
cost() {
  local times
  rm -f "$tmp/phases.csv"
  times=$( { TIMEFORMAT='%U %S'; time "$CUDACXX" -std=c++17 -O3 "-arch=$arch" -c "-I$2/include" "$1" -o "$tmp/tu.o" \
                                   --time "$tmp/phases.csv" >/dev/null; } 2>&1 )
  if [ -n "${3:-}" ]; then
    awk -F' *, *' 'NR > 1 { print $2 "\t" $(NF - 1) }' "$tmp/phases.csv" >> "$3"
  fi
  awk -v bytes="$(stat -c %s "$tmp/tu.o")" '{ printf "%.3f %d\n", $1 + $2, bytes }' <<< "$times"
}

# The sum over phases of each phase's best time, in seconds, of the "phase<TAB>milliseconds" lines in $1.
best_phases() {
  awk -F'\t' '!($1 in best) || $2 < best[$1] { best[$1] = $2 } END { for (p in best) s += best[p]; printf "%.3f", s / 1000 }' "$1"
}

if [ -n "$against" ]; then
  echo "compile time, this tree ($root) against $against: cpu s, median of $runs alternating runs"
  printf '%-28s %10s %10s %10s\n' "translation unit" this other "this/other"
  for tu in "${tus[@]}"; do
    : > "$tmp/this" && : > "$tmp/other"
    for ((round = 0; round < runs; ++round)); do
      if ((round % 2 == 0)); then cost "$tu" "$root" >> "$tmp/this"; cost "$tu" "$against" >> "$tmp/other"
      else cost "$tu" "$against" >> "$tmp/other"; cost "$tu" "$root" >> "$tmp/this"; fi
    done
    this=$(median < "$tmp/this")
    other=$(median < "$tmp/other")
    awk -v n="$(basename "$tu")" -v a="$this" -v b="$other" 'BEGIN { printf "%-28s %10.2f %10.2f %10.3f\n", n, a, b, a / b }'
  done
  exit 0
fi

echo "compile cost, strata / its twin: $(basename "$CUDACXX") -std=c++17 -O3 -arch=$arch -c" \
     "($("$CUDACXX" --version | grep -o 'V[0-9][0-9.]*')), s: the sum of nvcc's phases' best times of $runs" \
     "alternating runs, on $(nproc) cores" \
     "(load average $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-16s %9s %9s %7s %7s %10s %10s %7s  %s\n' "translation unit" "strata s" "twin s" ratio paired "strata KB" \
  "twin KB" ratio bar
status=0
for tu in "${tus[@]}"; do
  name=$(basename "$tu" .cu)
  name=${name#strata_}
  case "$name" in
    device_*) twin="$root/benchmarks/compile_time/cub_$name.cu" bar=report ;;
    *) twin="$root/benchmarks/compile_time/thrust_$name.cu" bar=frontend ;;
  esac
  [ -f "$twin" ] || { echo "compile_time: $tu has no twin $(basename "$twin")" >&2; exit 2; }
  : > "$tmp/strata" && : > "$tmp/twin" && : > "$tmp/strata.phases" && : > "$tmp/twin.phases"
  for ((round = 0; round < runs; ++round)); do
    if ((round % 2 == 0)); then
      cost "$tu" "$root" "$tmp/strata.phases" >> "$tmp/strata"; cost "$twin" "$root" "$tmp/twin.phases" >> "$tmp/twin"
    else
      cost "$twin" "$root" "$tmp/twin.phases" >> "$tmp/twin"; cost "$tu" "$root" "$tmp/strata.phases" >> "$tmp/strata"
    fi
  done
  # The median over rounds of the ratio of the two compiles of a round, which ran one after the other: slower and
  # faster spells of the machine, which move both, cancel in it.
  paired=$(paste -d' ' "$tmp/strata" "$tmp/twin" | awk '{ print $1 / $3 }' | median)
  line=$(paste -d' ' <(echo "$(best_phases "$tmp/strata.phases") $(head -n 1 "$tmp/strata" | cut -d' ' -f2)") \
                     <(echo "$(best_phases "$tmp/twin.phases") $(head -n 1 "$tmp/twin" | cut -d' ' -f2)") \
    | awk -v n="$name" -v bar="$bar" -v paired="$paired" '{
        t = $1 / $3; o = $2 / $4
        verdict = "-"
        if (bar == "frontend") verdict = (t <= 1.05 && o <= 1.5) ? "met" : "MISSED (<= 1.05x time, <= 1.5x object)"
        printf "%-16s %9.2f %9.2f %7.3f %7.3f %10.0f %10.0f %7.3f  %s\n", n, $1, $3, t, paired, $2 / 1024, $4 / 1024, o,
               verdict }')
  echo "$line"
  [[ "$line" == *MISSED* ]] && status=1
done
if [ "${STRATA_COMPILE_BARS:-1}" = 0 ]; then
  exit 0
fi
exit "$status"
