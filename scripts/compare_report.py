#!/usr/bin/env python3
"""Ratios of strata against CUB / Thrust from Google Benchmark JSON.

Benchmarks are named "<case>/<library>" (library: strata, cub, thrust, copy, cub_vectorize). For each case the
table shows strata's time and throughput (GB/s where the benchmark counts bytes, G items/s where it counts items:
keys per second for the sorts) and, for every other library, speed = other_time / strata_time (above 1: strata is
faster). With --merge OUT, the input files are also merged into one JSON file, whose context is the first
file's with the --context KEY=VALUE pairs added (scripts/gpu_check.sh adds the commit, nvcc and the date).
"""
import argparse
import json
import sys
from collections import OrderedDict


def load(paths):
    runs = []
    context = None
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        context = context or data.get("context")
        for b in data.get("benchmarks", []):
            b.setdefault("file", path)  # a merged file keeps each entry's own source
            runs.append(b)
    return context, runs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--merge", help="write all runs into this JSON file")
    parser.add_argument("--context", action="append", default=[], metavar="KEY=VALUE",
                        help="add KEY: VALUE to the merged file's context (repeatable)")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    context, runs = load(args.files)
    context = dict(context or {})
    for pair in args.context:
        key, sep, value = pair.partition("=")
        if not sep:
            parser.error(f"--context wants KEY=VALUE, not {pair!r}")
        context[key] = value
    if args.merge:
        with open(args.merge, "w") as f:
            json.dump({"context": context, "benchmarks": runs}, f, indent=1)

    cases = OrderedDict()
    for b in runs:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = b.get("run_name", b["name"])
        for suffix in ("/manual_time", "/real_time"):
            if name.endswith(suffix):
                name = name[: -len(suffix)]
        if "/" not in name:
            continue
        case, lib = name.rsplit("/", 1)
        if b.get("error_occurred"):
            cases.setdefault(case, {})[lib] = {"error": b.get("error_message", "error")}
            continue
        cases.setdefault(case, {})[lib] = {
            "time_us": b["real_time"] * {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b.get("time_unit", "ns")],
            "gbps": b.get("bytes_per_second", 0.0) / 1e9,
            "gips": b.get("items_per_second", 0.0) / 1e9,
        }

    width = max([len(c) for c in cases] + [10])
    print(f"{'case':<{width}}  {'strata us':>10} {'GB/s':>8} {'Gitem/s':>8}  ratios (other time / strata time)")
    worst = None
    for case, libs in cases.items():
        s = libs.get("strata")
        if s is None:
            continue
        if "error" in s:
            print(f"{case:<{width}}  ERROR: {s['error']}")
            continue
        parts = []
        for lib, r in libs.items():
            if lib == "strata":
                continue
            if "error" in r:
                parts.append(f"{lib} ERROR")
                continue
            ratio = r["time_us"] / s["time_us"] if s["time_us"] > 0 else float("nan")
            parts.append(f"vs {lib} {ratio:5.3f}x")
            if lib in ("cub", "thrust") and (worst is None or ratio < worst[0]):
                worst = (ratio, case, lib)
        rates = " ".join(f"{v:8.{digits}f}" if v else f"{'-':>8}" for v, digits in ((s["gbps"], 1), (s["gips"], 2)))
        print(f"{case:<{width}}  {s['time_us']:10.2f} {rates}  {'  '.join(parts)}")
    if worst:
        print(f"lowest ratio: {worst[0]:.3f}x ({worst[1]} vs {worst[2]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
