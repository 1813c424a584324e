#!/usr/bin/env python3
"""Tuning driver for benchmarks in the tuning format (benchmarks/bench/<algorithm>/<flavor>.cu).

Compiles the benchmark once with TUNE_BASE=1 (the library's tuned defaults) and once per variant with
TUNE_BASE=0 and the variant's TUNE_* values, all in parallel, runs each on the GPU, and prints for every
benchmark case the time of the base and of each variant, and each variant's geometric-mean speedup.

  scripts/tune.py benchmarks/bench/reduce/sum.cu --out OUT \
      --variant tpb=256,bpt=64,bps=8 --variant tpb=512,bpt=64,bps=4 [--filter REGEX] [--grid] [--define M=V]

Variant keys are the short names of the file's "%RANGE% MACRO short lo:hi:step" lines. A variant may end in
"@REGEX": it then runs only the benchmarks that REGEX matches (instead of --filter's), so that one run can
compare each value type against a variant of its own tuning; a TUNE_<NAME>=<VALUE> item of a variant is passed as
it is (TUNE_KeyT=U32: the variant builds that key type alone). With --grid, every point of the declared ranges
is a variant (mind the count). --define passes a macro to every compile (TUNE_KeyT=U8: one key type instead of
all). Results go to OUT/tune_<flavor>.json.
"""
import argparse
import concurrent.futures
import glob
import itertools
import json
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_ranges(path):
    ranges = []
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*//\s*%RANGE%\s+(\w+)\s+(\w+)\s+(-?\d+):(-?\d+):(\d+)", line)
            if m:
                macro, short, lo, hi, step = m.groups()
                ranges.append((macro, short, range(int(lo), int(hi) + 1, int(step))))
    return ranges


def compile_one(source, exe, defines, arch):
    cmd = ["nvcc", "-std=c++17", "-O3", f"-arch={arch}", "--extended-lambda",
           "-I", os.path.join(ROOT, "include"), "-I", os.path.join(ROOT, "benchmarks", "support")]
    cmd += [f"-D{k}={v}" for k, v in defines.items()]
    backend = sorted(glob.glob(os.path.join(ROOT, "backend", "*.cpp")))
    cmd += [source, *backend, "-o", exe, "-lbenchmark", "-lpthread"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stderr[-4000:]


# A variant that hangs (a deadlock on the GPU) is given up after this many seconds.
RUN_TIMEOUT_S = int(os.environ.get("STRATA_TUNE_TIMEOUT", "180"))


def min_time_flag(exe, seconds):
    """--benchmark_min_time for `seconds` in the form exe's Google Benchmark takes: 1.8 wants a unit ("0.1s"; a bare
    number still works there, with a warning), 1.7 rejects one (and the executable fails on the unknown flag).
    Listing the benchmarks answers it without a GPU."""
    r = subprocess.run([exe, "--benchmark_list_tests=true", f"--benchmark_min_time={seconds}s"], capture_output=True)
    return f"--benchmark_min_time={seconds}s" if r.returncode == 0 else f"--benchmark_min_time={seconds}"


def run_one(exe, flt, min_time):
    cmd = [exe, "--benchmark_format=json", min_time]
    if flt:
        cmd.append(f"--benchmark_filter={flt}")
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {RUN_TIMEOUT_S} s"
    if r.returncode != 0:
        return None, r.stderr[-2000:]
    if not r.stdout.strip():  # e.g. a filter that matches no benchmark
        return None, "no output: " + r.stderr[-2000:]
    data = json.loads(r.stdout)
    return {b["name"]: b["real_time"] for b in data["benchmarks"] if not b.get("error_occurred")}, ""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("source")
    p.add_argument("--out", required=True)
    p.add_argument("--variant", action="append", default=[])
    p.add_argument("--grid", action="store_true")
    p.add_argument("--filter", default="")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--define", action="append", default=[], metavar="NAME=VALUE",
                   help="a macro for the base and every variant, e.g. TUNE_KeyT=U8 (one workload, one compile)")
    args = p.parse_args()
    common = dict(d.split("=", 1) for d in args.define)

    ranges = parse_ranges(args.source)
    short_to_macro = {short: macro for macro, short, _ in ranges}
    variants = []  # (TUNE_* values, filter or None)
    for v in args.variant:
        spec, _, flt = v.partition("@")
        d = {}
        for kv in spec.split(","):
            k, val = kv.split("=")
            if k.startswith("TUNE_"):  # a macro of the benchmark's own, e.g. TUNE_KeyT=U32
                d[k] = val
            else:
                d[short_to_macro[k]] = int(val)
        variants.append((d, flt or None))
    if args.grid:
        for point in itertools.product(*[r for _, _, r in ranges]):
            variants.append(({macro: val for (macro, _, _), val in zip(ranges, point)}, None))

    os.makedirs(args.out, exist_ok=True)
    build = os.path.join(args.out, "tune_build")
    os.makedirs(build, exist_ok=True)
    configs = [("base", dict(common, TUNE_BASE=1))]
    filters = {"base": args.filter}
    for v, flt in variants:
        macro_to_short = {m: s for s, m in short_to_macro.items()}
        name = ".".join(f"{macro_to_short.get(k, k[len('TUNE_'):])}_{val}" for k, val in v.items())
        if flt:
            name += "@" + re.sub(r"[^A-Za-z0-9]+", "_", flt).strip("_")
        base_name, copy = name, 1
        while name in filters:  # the same point listed twice runs twice, as a measure of the spread
            copy += 1
            name = f"{base_name}#{copy}"
        configs.append((name, dict(common, **v, TUNE_BASE=0)))
        filters[name] = flt or args.filter

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        futures = {name: pool.submit(compile_one, args.source, os.path.join(build, name), d, args.arch)
                   for name, d in configs}
        built = []
        for name, _ in configs:
            rc, err = futures[name].result()
            if rc != 0:
                print(f"{name}: compile failed\n{err}", file=sys.stderr)
            else:
                built.append(name)

    results = {}
    # Every variant links the same Google Benchmark: one probe answers for all.
    min_time = min_time_flag(os.path.join(build, built[0]), 0.1) if built else ""
    for name in built:  # one at a time: the GPU is measured, not shared
        times, err = run_one(os.path.join(build, name), filters[name], min_time)
        if times is None:
            print(f"{name}: run failed\n{err}", file=sys.stderr)
            continue
        results[name] = times

    flavor = os.path.splitext(os.path.basename(args.source))[0]
    with open(os.path.join(args.out, f"tune_{flavor}.json"), "w") as f:
        json.dump(results, f, indent=1)

    if "base" not in results:
        print("base did not run", file=sys.stderr)
        return 1
    cases = list(results["base"].keys())
    names = [n for n in results if n != "base"]
    print(f"{'case':<28} {'base us':>9} " + " ".join(f"{n[:22]:>22}" for n in names))
    for c in cases:
        row = f"{c:<28} {results['base'][c]:9.2f} "
        row += " ".join(f"{results[n].get(c, float('nan')) / results['base'][c]:22.3f}" for n in names)
        print(row)
    print("geomean of base/variant time (above 1: the variant is faster):")
    for n in names:
        ratios = [results["base"][c] / results[n][c] for c in cases if c in results[n]]
        g = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else float("nan")
        print(f"  {n:<40} {g:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
