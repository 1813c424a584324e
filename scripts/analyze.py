#!/usr/bin/env python3
"""Reads the databases of scripts/search.py.

  scripts/analyze.py --coverage build-tune/tuning-*.sqlite        # variants covered per compile-time workload
  scripts/analyze.py --top 5 [-R REGEX] build-tune/tuning-*.sqlite   # the best variants by score
  scripts/analyze.py --emit -R radix_sort build-tune/tuning-*.sqlite  # the best variant's values, to land
  scripts/analyze.py --variants-ratio tpb_256.ipt_32 --plot-dir OUT DB  # speedup over the runtime axes (PNG)
  scripts/analyze.py --verify BEFORE.sqlite AFTER.sqlite              # base runs before/after a tuning lands

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


def best(times, regex=None):
    """{(gpu, bench, ct): (variant, score dict)}: the best-scoring variant of each workload (the base if none beats
    it)."""
    out = {}
    for (gpu, bench, ct), by_variant in sorted(times.items()):
        if regex and not re.search(regex, bench):
            continue
        scored = tc.scores({(bench, ct): by_variant}).get((bench, ct), {})
        if scored:
            out[(gpu, bench, ct)] = max(scored.items(), key=lambda kv: kv[1]["score"])
    return out


def benchmark_spaces(root):
    """{bench: [Param]} of the repository's benchmarks in the tuning format."""
    import search

    spaces = {}
    for bench, path in search.find_benchmarks(root):
        with open(path) as f:
            spaces[bench] = tc.parse_space(f.read())
    return spaces


def emit(times, spaces, regex=None):
    """For each workload, the best variant's knob values with the measured figure beside them (docs/tuning.md): the
    lines to carry into include/strata/device/dispatch/tuning/tuning_<algorithm>.cuh. spaces: {bench: [Param]}."""
    lines = []
    for (gpu, bench, ct), (variant, s) in best(times, regex).items():
        figure = (f"score {s['score']:.3f} (min {s['min']:.3f}, max {s['max']:.3f}) over {s['workloads']} runtime "
                  f"workloads, {gpu}")
        if variant == tc.BASE:
            lines.append(f"// {bench} {ct or '-'}: the library's tuning stays ({figure})")
            continue
        values = tc.parse_variant_name(variant)
        macros = {p.short: p.macro for p in spaces.get(bench, [])}
        lines.append(f"// {bench} {ct or '-'}: {figure}")
        for short, value in values.items():
            lines.append(f"//   {macros.get(short, short)} = {value}")
    return lines


def verify(before, after, threshold=0.01):
    """Base runs of the same workloads in two databases (before and after a tuning lands), each {(bench, ct):
    {variant: {rt: seconds}}}: [(bench, ct, rt, before seconds, after seconds)] of those slower after by more than
    `threshold`, and every workload compared, in the same form."""
    regressions, compared = [], []
    for key, by_variant in sorted(after.items()):
        old = before.get(key, {}).get(tc.BASE)
        new = by_variant.get(tc.BASE)
        if old is None or new is None:
            continue
        for rt, seconds in sorted(new.items()):
            if rt in old:
                compared.append((*key, rt, old[rt], seconds))
                if seconds > old[rt] * (1 + threshold):
                    regressions.append((*key, rt, old[rt], seconds))
    return regressions, compared


def plot_ratios(times, variant, out_dir, regex=None):
    """One PNG per benchmark: per compile-time workload, the variant's speedup over the base (base / variant time)
    along the {io} axis, one line per value of the other runtime axes, the base as a line at 1. Returns the files."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_bench = {}
    for (gpu, bench, ct), by_variant in sorted(times.items()):
        if (regex and not re.search(regex, bench)) or variant not in by_variant or tc.BASE not in by_variant:
            continue
        by_bench.setdefault((gpu, bench), []).append((ct, by_variant[tc.BASE], by_variant[variant]))
    files = []
    os.makedirs(out_dir, exist_ok=True)
    for (gpu, bench), panels in by_bench.items():
        cols = min(4, len(panels))
        rows = (len(panels) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows), squeeze=False)
        for ax, (ct, base, var) in zip(axes.flat, panels):
            lines = {}
            for rt in base:
                if rt not in var:
                    continue
                parsed = tc.parse_axes_key(rt)
                io = [a for a in parsed if a.kind == "io"]
                x = float(io[0].value) if io else 0.0
                rest = "/".join(a.key() for a in parsed if a.kind != "io") or variant
                lines.setdefault(rest, []).append((x, base[rt] / var[rt]))
            for label, points in sorted(lines.items()):
                points.sort()
                ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=label)
            ax.axhline(1.0, color="black", linewidth=0.8)
            ax.set_title(ct or bench, fontsize=9)
            ax.set_xlabel("io axis value")
            ax.set_ylabel("base / variant time")
            ax.legend(fontsize=7)
        for ax in list(axes.flat)[len(panels):]:
            ax.set_visible(False)
        fig.suptitle(f"{bench}: {variant} ({gpu})", fontsize=10)
        fig.tight_layout()
        path = os.path.join(out_dir, f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', gpu + '_' + bench + '_' + variant)}.png")
        fig.savefig(path, dpi=100)
        plt.close(fig)
        files.append(path)
    return files


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("databases", nargs="+", help="database files or globs")
    p.add_argument("-R", dest="regex", help="benchmarks (regex over <algorithm>.<flavor>)")
    p.add_argument("--coverage", action="store_true")
    p.add_argument("--top", type=int, default=0)
    p.add_argument("--emit", action="store_true", help="the best variant of each workload, to land")
    p.add_argument("--variants-ratio", metavar="VARIANT", help="plot VARIANT's speedup over the runtime axes")
    p.add_argument("--plot-dir", default=".", help="where --variants-ratio writes its PNG files")
    p.add_argument("--verify", action="store_true",
                   help="two databases, BEFORE and AFTER: list the base's workloads that became slower")
    p.add_argument("--threshold", type=float, default=0.01, help="--verify: the slowdown that counts (0.01: 1%%)")
    args = p.parse_args(argv)
    if args.verify:
        if len(args.databases) != 2:
            print("--verify takes two databases: BEFORE AFTER", file=sys.stderr)
            return 2
        before, _ = load([args.databases[0]])
        after, _ = load([args.databases[1]])
        before = {(b, ct): v for (_, b, ct), v in before.items()}
        after = {(b, ct): v for (_, b, ct), v in after.items()}
        regressions, compared = verify(before, after, args.threshold)
        for bench, ct, rt, old, new in compared:
            mark = "REGRESSION" if new > old * (1 + args.threshold) else "ok"
            print(f"{mark:10} {bench} {ct or '-'} {rt}: {old * 1e6:.2f} us -> {new * 1e6:.2f} us "
                  f"(before / after {old / new:.3f})")
        print(f"{len(compared)} workloads compared, {len(regressions)} slower by more than {args.threshold:.1%}")
        return 1 if regressions else 0
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
    if args.emit:
        out += emit(times, benchmark_spaces(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), args.regex)
    if args.variants_ratio:
        out += [f"wrote {f}" for f in plot_ratios(times, args.variants_ratio, args.plot_dir, args.regex)]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
