#!/usr/bin/env bash
# Compile time of a translation unit that calls strata::reduce against its twin that calls thrust::reduce:
#   scripts/compile_time.sh [RUNS]
# compiles benchmarks/compile_time/strata_reduce.cu and thrust_reduce.cu with
# `nvcc -std=c++17 -O3 -arch=$STRATA_COMPILE_ARCH -c` (default sm_90), RUNS times each (default 5), in alternating
# order (strata first in even rounds, thrust first in odd ones, so a drift in the machine's load hits both alike),
# and prints the median wall-clock and CPU (user + sys) seconds of each, the ratios strata / thrust, and the median
# time of each phase nvcc reports with -time (host preprocessing, cudafe++, cicc, ptxas, host compilation).
# On a shared machine compare the CPU seconds: they count only the compiler's own work.
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
runs=${1:-5}
arch=${STRATA_COMPILE_ARCH:-sm_90}
flags=(-std=c++17 -O3 "-arch=$arch" -c "-I$root/include")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# CPU seconds (user + sys) of one compilation of $1 with the headers under $2.
cpu_seconds() {
  local times
  times=$( { TIMEFORMAT='%U %S'; time "$CUDACXX" -std=c++17 -O3 "-arch=$arch" -c "-I$2/include" "$1" -o "$tmp/tu.o" \
                                   >/dev/null; } 2>&1 )
  awk '{ printf "%.3f\n", $1 + $2 }' <<< "$times"
}

if [ -n "$against" ]; then
  echo "compile time, this tree ($root) against $against: cpu s, median of $runs alternating runs"
  printf '%-28s %10s %10s %10s\n' "translation unit" this other "this/other"
  for tu in "$root"/benchmarks/compile_time/strata_*.cu; do
    : > "$tmp/this" && : > "$tmp/other"
    for ((round = 0; round < runs; ++round)); do
      if ((round % 2 == 0)); then cpu_seconds "$tu" "$root" >> "$tmp/this"; cpu_seconds "$tu" "$against" >> "$tmp/other"
      else cpu_seconds "$tu" "$against" >> "$tmp/other"; cpu_seconds "$tu" "$root" >> "$tmp/this"; fi
    done
    this=$(sort -g "$tmp/this" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    other=$(sort -g "$tmp/other" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    awk -v n="$(basename "$tu")" -v a="$this" -v b="$other" 'BEGIN { printf "%-28s %10.2f %10.2f %10.3f\n", n, a, b, a / b }'
  done
  exit 0
fi

# Appends "wall cpu" seconds of one compilation of benchmarks/compile_time/$1_reduce.cu to $tmp/$1.times.
compile() {
  local which=$1 round=$2 times
  times=$( { TIMEFORMAT='%R %U %S'; time "$CUDACXX" "${flags[@]}" "$root/benchmarks/compile_time/${which}_reduce.cu" \
                                           -o "$tmp/$which.o" -time "$tmp/$which.$round.csv" >/dev/null; } 2>&1 )
  awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' <<< "$times" >> "$tmp/$which.times"
}

# The median of the numbers on standard input.
median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The median over the rounds of each phase's milliseconds in nvcc's -time CSV files of $1, one "phase<TAB>ms" line
# per phase, in nvcc's order.
phases() {
  awk -F' *, *' 'FNR > 1 && $2 != "" { if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } ms[$2] = ms[$2] " " $7 }
                 END { for (i = 1; i <= n; ++i) print order[i] "\t" ms[order[i]] }' "$tmp/$1".*.csv \
    | while IFS=$'\t' read -r phase values; do
        printf '%s\t%s\n' "$phase" "$(tr ' ' '\n' <<< "$values" | grep . | median)"
      done
}

for ((round = 0; round < runs; ++round)); do
  if ((round % 2 == 0)); then compile strata "$round"; compile thrust "$round"; else
    compile thrust "$round"; compile strata "$round"; fi
done

strata_wall=$(cut -d' ' -f1 "$tmp/strata.times" | median)
strata_cpu=$(cut -d' ' -f2 "$tmp/strata.times" | median)
thrust_wall=$(cut -d' ' -f1 "$tmp/thrust.times" | median)
thrust_cpu=$(cut -d' ' -f2 "$tmp/thrust.times" | median)

echo "compile time of one reduce call: $(basename "$CUDACXX") ${flags[*]:0:4} ($("$CUDACXX" --version | grep -o 'V[0-9][0-9.]*'))," \
     "$runs runs each, alternating, on $(nproc) cores (load average $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-8s %10s %10s   %s\n' "" "wall s" "cpu s" "runs (wall/cpu)"
for which in strata thrust; do
  wall=${which}_wall cpu=${which}_cpu
  printf '%-8s %10.2f %10.2f   %s\n' "$which" "${!wall}" "${!cpu}" "$(tr ' \n' '/ ' < "$tmp/$which.times")"
done
awk -v sw="$strata_wall" -v sc="$strata_cpu" -v tw="$thrust_wall" -v tc="$thrust_cpu" \
  'BEGIN { printf "strata / thrust: wall %.3fx, cpu %.3fx (at most 1.000x: strata compiles no slower)\n", sw / tw, sc / tc }'
echo
printf '%-24s %10s %10s\n' "median phase ms" strata thrust
# Both compilations run the same phases in the same order.
paste <(phases strata) <(phases thrust) | awk -F'\t' '{ printf "%-24s %10.0f %10.0f\n", $1, $2, $4 }'
