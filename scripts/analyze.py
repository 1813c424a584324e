#!/usr/bin/env python3
"""Reads the databases of scripts/search.py.

  scripts/analyze.py --coverage build-tune/tuning-*.sqlite        # variants covered per compile-time workload
  scripts/analyze.py --top 5 [-R REGEX] build-tune/tuning-*.sqlite   # the best variants by score

A score is the importance-weighted mean of base time / variant time over the runtime workloads (above 1: faster
than the library's own tuning; scripts/tuning_core.py). Several databases (or a glob) are read as one, each GPU's
results kept apart by the GPU's name.
"""
import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tuning_core as tc  # noqa: E402


def load(paths):
    """{(gpu, bench, ct): {variant: {rt: seconds}}} and [(gpu, bench, variant, ct, stage, message)]."""
    times, failures = {}, []
    for path in paths:
        db = tc.ResultsDB(path)
        gpu = (db.db.execute("SELECT device FROM results LIMIT 1").fetchone() or [os.path.basename(path)])[0]
        for (bench, ct), by_variant in db.times().items():
            times[(gpu, bench, ct)] = by_variant
        failures += [(gpu, *f) for f in db.failures()]
        db.close()
    return times, failures


def coverage(times, failures, regex=None):
    lines = []
    failed = {}
    for gpu, bench, variant, ct, stage, _ in failures:
        failed.setdefault((gpu, bench, ct), []).append(stage)
    keys = sorted(set(times) | set(failed))
    for key in keys:
        gpu, bench, ct = key
        if regex and not re.search(regex, bench):
            continue
        measured = len(times.get(key, {}))
        stages = failed.get(key, [])
        lines.append(f"{gpu:24s} {bench:20s} {ct or '-':32s} {measured:6d} measured  "
                     f"{stages.count('build'):4d} build failures  {stages.count('run'):4d} run failures")
    return lines


def top(times, n, regex=None):
    lines = []
    for (gpu, bench, ct), by_variant in sorted(times.items()):
        if regex and not re.search(regex, bench):
            continue
        scored = tc.scores({(bench, ct): by_variant}).get((bench, ct), {})
        if tc.BASE not in scored:
            lines.append(f"{gpu} {bench} {ct or '-'}: no base")
            continue
        lines.append(f"{gpu} {bench} {ct or '-'}")
        lines.append(f"  {'variant':40s} {'score':>7s} {'min':>7s} {'mean':>7s} {'max':>7s}")
        ranked = sorted(scored.items(), key=lambda kv: -kv[1]["score"])
        for variant, s in ranked[:n]:
            lines.append(f"  {variant:40s} {s['score']:7.3f} {s['min']:7.3f} {s['mean']:7.3f} {s['max']:7.3f}")
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("databases", nargs="+", help="database files or globs")
    p.add_argument("-R", dest="regex", help="benchmarks (regex over <algorithm>.<flavor>)")
    p.add_argument("--coverage", action="store_true")
    p.add_argument("--top", type=int, default=0)
    args = p.parse_args(argv)
    paths = sorted({f for pattern in args.databases for f in (glob.glob(pattern) or [pattern])})
    missing = [f for f in paths if not os.path.exists(f)]
    if missing:
        print(f"no such database: {', '.join(missing)}", file=sys.stderr)
        return 2
    times, failures = load(paths)
    out = []
    if args.coverage:
        out += coverage(times, failures, args.regex)
    if args.top:
        out += top(times, args.top, args.regex)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
