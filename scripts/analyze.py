#!/usr/bin/env python3
"""Reads the databases of scripts/search.py.

  scripts/analyze.py --coverage build-tune/tuning-*.sqlite        # variants searched per compile-time workload
  scripts/analyze.py --top 5 [-R REGEX] build-tune/tuning-*.sqlite   # the best variants by score
  scripts/analyze.py --table tpb_256.ipt_32 [-R REGEX] DB           # each case's ratio for chosen variants
  scripts/analyze.py --emit -R radix_sort build-tune/tuning-*.sqlite  # the best variant's values, to land
  scripts/analyze.py --variants-ratio tpb_256.ipt_32 --plot-dir OUT DB  # speedup over the runtime axes (PNG)
  scripts/analyze.py --verify BEFORE.sqlite AFTER.sqlite [--sass BEFORE_DIR AFTER_DIR --tuned REGEX]

A score is the importance-weighted mean of base time / variant time over the runtime workloads (above 1: faster
than the library's own tuning; scripts/tuning_core.py). Several databases (or a glob) are read as one, each GPU's
results kept apart by the GPU's UUID (two GPUs of one model too).
"""
import argparse
import collections
import glob
import os
import re
import sys
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tuning_core as tc  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPREAD = (0.0, 0.25, 0.5, 0.75, 1.0)  # the quantiles --variants-ratio draws: min, quartiles, median, max


class Gpu(collections.namedtuple("Gpu", "uuid device")):
    """A physical GPU: results are kept apart by UUID, shown with the device's name."""

    def __str__(self):
        return f"{self.device} ({self.uuid})"


@dataclass
class Loaded:
    times: dict  # {(Gpu, bench, ct): {variant: {rt: seconds or tc.FAILED}}}
    samples: dict  # {(Gpu, bench, ct): {variant: {rt: [seconds]}}}
    failures: list  # [(Gpu, bench, variant, ct, stage, message)]


def load(paths):
    """The databases at paths, read as one."""
    data = Loaded({}, {}, [])
    for path in paths:
        db = tc.ResultsDB(path)
        try:
            for uuid, device in db.gpus():
                gpu = Gpu(uuid or os.path.basename(path), device or "unknown GPU")
                for into, read in ((data.times, db.times), (data.samples, db.samples)):
                    for (bench, ct), by_variant in read(uuid=uuid).items():
                        for variant, by_rt in by_variant.items():
                            into.setdefault((gpu, bench, ct), {}).setdefault(variant, {}).update(by_rt)
                data.failures += [(gpu, *f) for f in db.failures(uuid)]
        finally:
            db.close()
    return data


def _selected(bench, regex):
    return not regex or re.search(regex, bench)


def coverage(data, spaces, regex=None):
    """Per workload: how many variants of the declared space were searched (N of total, and the percentage), and
    how: measured, with failed cases, build or run failures; and whether the base was measured."""
    how = {}
    for key, by_variant in data.times.items():
        for variant, by_rt in by_variant.items():
            how.setdefault(key, {})[variant] = "with failed cases" if tc.FAILED in by_rt.values() else "measured"
    for gpu, bench, variant, ct, stage, _ in data.failures:
        if stage in ("build", "run"):
            how.setdefault((gpu, bench, ct), {})[variant] = f"{stage} failures"
    lines = []
    for (gpu, bench, ct), by_variant in sorted(how.items()):
        if not _selected(bench, regex):
            continue
        base = by_variant.pop(tc.BASE, "missing")
        counts = collections.Counter(by_variant.values())
        total = tc.space_size(spaces[bench]) if bench in spaces else None
        share = f"{100 * len(by_variant) / total:.3g}%" if total else "?"
        lines.append(f"{gpu} {bench} {ct or '-'}: {len(by_variant)} of {total or '?'} variants ({share}): "
                     + ", ".join(f"{counts[k]} {k}" for k in ("measured", "with failed cases", "build failures",
                                                               "run failures"))
                     + f"; base {base.replace(' failures', ' failed')}")
    return lines


def top(times, n, regex=None):
    lines = []
    for (gpu, bench, ct), by_variant in sorted(times.items()):
        if not _selected(bench, regex):
            continue
        scored = tc.scores({(bench, ct): by_variant}).get((bench, ct), {})
        if tc.BASE not in scored:
            lines.append(f"{gpu} {bench} {ct or '-'}: no base")
            continue
        lines.append(f"{gpu} {bench} {ct or '-'} (score: base time / variant time, above 1: faster than the base)")
        lines.append(f"  {'variant':40s} {'score':>7s} {'min':>7s} {'mean':>7s} {'max':>7s} {'failed':>6s}")
        ranked = sorted(scored.items(), key=lambda kv: -kv[1]["score"])
        for variant, s in ranked[:n]:
            lines.append(f"  {variant:40s} {s['score']:7.3f} {s['min']:7.3f} {s['mean']:7.3f} {s['max']:7.3f} "
                         f"{s['failed']:6d}")
    return lines


def best(times, regex=None):
    """{(gpu, bench, ct): (variant, score dict)}: the best-scoring variant of each workload that failed no case (the
    base if none beats it)."""
    out = {}
    for (gpu, bench, ct), by_variant in sorted(times.items()):
        if not _selected(bench, regex):
            continue
        scored = tc.scores({(bench, ct): by_variant}).get((bench, ct), {})
        valid = {v: s for v, s in scored.items() if not s["failed"]}
        if valid:
            out[(gpu, bench, ct)] = max(valid.items(), key=lambda kv: kv[1]["score"])
    return out


def benchmark_spaces(root):
    """{bench: [Param]} of the repository's benchmarks in the tuning format."""
    return {bench: tc.read_space(path) for bench, path in tc.find_benchmarks(root)}


def emit(times, spaces, regex=None):
    """For each workload, the best variant's knob values with the measured figure beside them (docs/tuning.md): the
    lines to carry into include/strata/device/dispatch/tuning/tuning_<algorithm>.cuh. spaces: {bench: [Param]}."""
    lines = []
    for (gpu, bench, ct), (variant, s) in best(times, regex).items():
        figure = (f"score {s['score']:.3f} (min {s['min']:.3f}, max {s['max']:.3f}) over {s['workloads']} runtime "
                  f"workloads, {gpu.device}")
        if variant == tc.BASE:
            lines.append(f"// {bench} {ct or '-'}: the library's tuning stays ({figure})")
            continue
        macros = {p.short: p.macro for p in spaces.get(bench, [])}
        lines.append(f"// {bench} {ct or '-'}: {figure}")
        for short, value in tc.parse_variant_name(variant).items():
            lines.append(f"//   {macros.get(short, short)} = {value}")
    return lines


def table(times, variants, regex=None):
    """tuning_core.ratio_table of each workload that has the base and one of `variants`."""
    lines = []
    for (gpu, bench, ct), by_variant in sorted(times.items()):
        if _selected(bench, regex) and tc.BASE in by_variant and any(v in by_variant for v in variants):
            lines += tc.ratio_table(f"{gpu} {bench} {ct or '-'}", by_variant, variants)
    return lines


def one_gpu(path):
    """The Gpu whose runs a database holds; a DatabaseError unless it holds one GPU's."""
    db = tc.ResultsDB(path)
    try:
        gpus = db.gpus()
    finally:
        db.close()
    if len(gpus) != 1:
        raise tc.DatabaseError(f"{path} holds runs of {tc.describe_gpus(gpus)}: --verify compares one GPU's runs")
    return Gpu(*gpus[0])


def verify(before, after, threshold=0.01):
    """Base runs of the same workloads in two databases (before and after a tuning lands), each {(bench, ct):
    {variant: {rt: seconds}}}: [(bench, ct, rt, before seconds, after seconds)] of those slower after by more than
    `threshold` (a case that fails after is slower), and every workload compared, in the same form."""
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


def base_binaries(build_dir):
    """{(bench, ct): path} of the base binaries a search kept (search.py --keep-binaries) in build_dir."""
    return {tc.parse_executable_path(build_dir, path)[:2]: path
            for path in glob.glob(os.path.join(build_dir, "*", "*", tc.BASE))}


def compare_sass(before_dir, after_dir, toolchain, tuned=None):
    """Compares the SASS of every kernel of the base binaries in two build folders (before and after a tuning),
    matched by workload, architecture and kernel name, after tuning_core.parse_sass normalizes addresses away. A
    kernel whose "<bench> <ct> <kernel>" tuned (a regex) matches may change; any other must not. Returns lines and
    the number of kernels that changed where nothing was tuned."""
    before, after = base_binaries(before_dir), base_binaries(after_dir)
    lines, counts = [], collections.Counter()
    for bench, ct in sorted(before.keys() & after.keys()):
        old, new = toolchain.sass(before[(bench, ct)]), toolchain.sass(after[(bench, ct)])
        for arch, kernel in sorted(old.keys() | new.keys()):
            is_tuned = bool(tuned and re.search(tuned, f"{bench} {ct} {kernel}"))
            changed = old.get((arch, kernel)) != new.get((arch, kernel))
            counts[(is_tuned, changed)] += 1
            if changed and not is_tuned:
                side = " (only before)" if (arch, kernel) not in new else " (only after)" if (arch, kernel) not in old \
                    else ""
                lines.append(f"SASS CHANGED {bench} {ct or '-'} {arch} {kernel}{side}")
    for bench, ct in sorted(before.keys() ^ after.keys()):
        lines.append(f"not compared {bench} {ct or '-'}: a base binary in one build folder only")
    lines.append(f"SASS of {sum(counts.values())} kernels: {counts[(False, False)]} unchanged and "
                 f"{counts[(False, True)]} changed where nothing was tuned; {counts[(True, True)]} changed and "
                 f"{counts[(True, False)]} unchanged where tuned")
    return lines, counts[(False, True)]


def ratio_spread(data, variant, regex=None):
    """What --variants-ratio draws: {(gpu, bench): [(ct, {line: [(x, variant quantiles, base quantiles)]})]}. x: the
    {io} axis value; a line per value of the other runtime axes; quantiles (SPREAD) of the base's median time over
    each repetition's time, the variant's (None for a case it failed) and the base's own, whose spread lies
    around 1."""
    out = {}
    for (gpu, bench, ct), by_variant in sorted(data.samples.items()):
        base = by_variant.get(tc.BASE)
        if not _selected(bench, regex) or base is None or variant not in data.times[(gpu, bench, ct)]:
            continue
        measured = by_variant.get(variant, {})
        failed = {rt for rt, s in data.times[(gpu, bench, ct)][variant].items() if s == tc.FAILED}
        lines = {}
        for rt, base_samples in sorted(base.items(), key=lambda kv: tc.rt_order(kv[0])):
            if rt not in measured and rt not in failed:
                continue
            head, axes = tc.parse_benchmark_name(rt)
            io = [a for a in axes if a.kind == "io"]
            reference = tc.median(base_samples)
            spread = tc.quantiles([reference / v for v in measured[rt]], SPREAD) if rt in measured else None
            label = "/".join([head] + [a.key() for a in axes if a.kind != "io"]) or variant
            lines.setdefault(label, []).append((float(io[0].value) if io else 0.0, spread,
                                                tc.quantiles([reference / b for b in base_samples], SPREAD)))
        out.setdefault((gpu, bench), []).append((ct, lines))
    return out


def plot_ratios(data, variant, out_dir, regex=None):
    """One PNG per GPU and benchmark: per compile-time workload, the variant's speedup over the base (base / variant
    time) along the {io} axis, one line per value of the other runtime axes: the median, the quartiles and the
    min-max of the repetitions as bands, a cross at 0 for a case the variant failed, the base's own spread as a grey
    band around 1. Returns the files."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    files = []
    os.makedirs(out_dir, exist_ok=True)
    for (gpu, bench), panels in ratio_spread(data, variant, regex).items():
        cols = min(4, len(panels))
        rows = (len(panels) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows), squeeze=False)
        for ax, (ct, lines) in zip(axes.flat, panels):
            for label, points in lines.items():
                shown = [(x, q) for x, q, _ in points if q is not None]
                xs = [x for x, _ in shown]
                line, = ax.plot(xs, [q[2] for _, q in shown], marker="o", label=label)
                ax.fill_between(xs, [q[1] for _, q in shown], [q[3] for _, q in shown], color=line.get_color(),
                                alpha=0.35, linewidth=0)
                ax.fill_between(xs, [q[0] for _, q in shown], [q[4] for _, q in shown], color=line.get_color(),
                                alpha=0.12, linewidth=0)
                ax.fill_between([x for x, _, _ in points], [b[0] for _, _, b in points], [b[4] for _, _, b in points],
                                color="grey", alpha=0.2, linewidth=0)
                ax.plot([x for x, q, _ in points if q is None], [0.0 for _, q, _ in points if q is None], "x",
                        color=line.get_color())
            ax.axhline(1.0, color="black", linewidth=0.8)
            ax.set_title(ct or bench, fontsize=9)
            ax.set_xlabel("io axis value")
            ax.set_ylabel("base / variant time")
            ax.legend(fontsize=7)
        for ax in list(axes.flat)[len(panels):]:
            ax.set_visible(False)
        fig.suptitle(f"{bench}: {variant} ({gpu})", fontsize=10)
        fig.tight_layout()
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{gpu.device}_{gpu.uuid}_{bench}_{variant}")
        path = os.path.join(out_dir, f"{name}.png")
        fig.savefig(path, dpi=100)
        plt.close(fig)
        files.append(path)
    return files


def verify_main(args):
    """--verify: 0 if nothing became slower (and no kernel's SASS changed where nothing was tuned), else 1; 2 if the
    databases cannot be compared."""
    try:
        gpus = [one_gpu(path) for path in args.databases]
    except tc.DatabaseError as e:
        print(e, file=sys.stderr)
        return 2
    if gpus[0].uuid != gpus[1].uuid:
        print(f"--verify compares runs on one GPU: {args.databases[0]} was measured on {gpus[0]}, "
              f"{args.databases[1]} on {gpus[1]}", file=sys.stderr)
        return 2
    before, after = ({(b, ct): v for (_, b, ct), v in load([path]).times.items()} for path in args.databases)
    regressions, compared = verify(before, after, args.threshold)

    def shown(seconds):
        return "failed" if seconds == tc.FAILED else f"{seconds * 1e6:.2f} us"

    for bench, ct, rt, old, new in compared:
        mark = "REGRESSION" if new > old * (1 + args.threshold) else "ok"
        ratio = f"{old / new:.3f}" if tc.FAILED not in (old, new) else "-"
        print(f"{mark:10} {bench} {ct or '-'} {rt}: {shown(old)} -> {shown(new)} (before / after {ratio})")
    print(f"{len(compared)} workloads compared on {gpus[0]}, {len(regressions)} slower by more than "
          f"{args.threshold:.1%}")
    changed = 0
    if args.sass:
        lines, changed = compare_sass(*args.sass, tc.Toolchain(cuobjdump=args.cuobjdump), args.tuned)
        print("\n".join(lines))
    return 1 if regressions or changed else 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("databases", nargs="+", help="database files or globs")
    p.add_argument("-R", dest="regex", help="benchmarks (regex over <algorithm>.<flavor>)")
    p.add_argument("--coverage", action="store_true", help="variants searched of each workload's space")
    p.add_argument("--top", type=int, default=0)
    p.add_argument("--table", action="append", default=[], metavar="VARIANT",
                   help="each case's base time and base / variant time for VARIANT (repeatable)")
    p.add_argument("--emit", action="store_true", help="the best variant of each workload, to land")
    p.add_argument("--variants-ratio", metavar="VARIANT", help="plot VARIANT's speedup over the runtime axes")
    p.add_argument("--plot-dir", default=".", help="where --variants-ratio writes its PNG files")
    p.add_argument("--verify", action="store_true",
                   help="two databases of one GPU, BEFORE and AFTER: list the base's workloads that became slower")
    p.add_argument("--threshold", type=float, default=0.01, help="--verify: the slowdown that counts (0.01: 1%%)")
    p.add_argument("--sass", nargs=2, metavar=("BEFORE_DIR", "AFTER_DIR"),
                   help="--verify: also compare the SASS of the base binaries kept in two build folders "
                        "(search.py --keep-binaries)")
    p.add_argument("--tuned", metavar="REGEX",
                   help="--sass: the kernels whose tuning changed, a regex over '<bench> <ct> <kernel>'")
    p.add_argument("--cuobjdump", default="cuobjdump", help="--sass: the disassembler")
    args = p.parse_args(argv)
    paths = args.databases if args.verify else sorted({f for pattern in args.databases
                                                       for f in (glob.glob(pattern) or [pattern])})
    missing = [f for f in paths if not os.path.exists(f)]
    if missing:
        print(f"no such database: {', '.join(missing)}", file=sys.stderr)
        return 2
    if args.verify:
        if len(paths) != 2:
            print("--verify takes two databases: BEFORE AFTER", file=sys.stderr)
            return 2
        return verify_main(args)
    data = load(paths)
    try:
        spaces = benchmark_spaces(ROOT) if args.coverage or args.emit else {}
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    out = []
    if args.coverage:
        out += coverage(data, spaces, args.regex)
    if args.top:
        out += top(data.times, args.top, args.regex)
    if args.table:
        out += table(data.times, args.table, args.regex)
    if args.emit:
        out += emit(data.times, spaces, args.regex)
    if args.variants_ratio:
        out += [f"wrote {f}" for f in plot_ratios(data, args.variants_ratio, args.plot_dir, args.regex)]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
