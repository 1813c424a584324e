# Sourced by the scripts that run benchmark executables: Google Benchmark flags in the form the installed version
# takes.

# Prints the --benchmark_min_time flag for SECONDS in the form the executable EXE accepts: "SECONDSs" where Google
# Benchmark wants a unit (1.8; it still reads a bare number as seconds, with a warning), a bare number where it
# rejects one (1.7, whose executables then fail on the unknown flag). Asks EXE itself to list its benchmarks, which
# needs no GPU.
bench_min_time_arg() {
  local exe=$1 seconds=$2
  if "$exe" --benchmark_list_tests=true "--benchmark_min_time=${seconds}s" > /dev/null 2>&1; then
    echo "--benchmark_min_time=${seconds}s"
  else
    echo "--benchmark_min_time=${seconds}"
  fi
}
